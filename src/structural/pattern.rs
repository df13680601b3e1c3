//! Compiling a structural pattern: the text a user typed, parsed as code
//! of one language into ast-grep's [`Pattern`], with the contexts some
//! grammars need and the errors that say what to type instead.
//!
//! A pattern is parsed in the language's contexts in turn (`contexts`):
//! on its own, as ast-grep does; for Go, C, C++, Java and C# first as a
//! statement inside a function body, since their grammars read a
//! top-level line otherwise or not at all; for PHP after `<?php`, before
//! which its grammar reads nothing as code; and where those fail, a
//! statement in a function body (Rust, JavaScript, Kotlin, Lua, Ruby), a
//! member in a class (Java, C#, JavaScript, Kotlin, PHP), an `except`
//! clause after a `try` or a decorator before a function (Python). The pattern is the one node
//! whose bytes are exactly the pattern's, with single-child wrappers
//! peeled off (an expression statement holding one call is the call), so
//! that `foo($X)` matches calls wherever they stand.
//!
//! A parse with an error or a missing token anywhere is refused, so a
//! pattern never silently matches something else than what was typed;
//! only a missing `;` and an error holding nothing but a metavariable
//! (`match $X { $$$ }`) are not errors of the pattern.

use std::fmt;

use ast_grep_core::tree_sitter::StrDoc;
use ast_grep_core::{Node, Pattern};

use super::anchors::Anchors;
use super::grammar::{substitute_sigil, Grammar};
use crate::lang::Lang;
use crate::shell;

/// A compiled pattern and the grammar its files are parsed with.
#[derive(Clone)]
pub struct StructuralPattern {
    pub(super) pattern: Pattern,
    pub(super) grammar: Grammar,
    /// The words every matching file holds: a file without them is not
    /// parsed.
    pub(super) anchors: Anchors,
    /// The pattern as typed.
    pub text: String,
}

impl fmt::Debug for StructuralPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StructuralPattern")
            .field("text", &self.text)
            .field("grammar", &self.grammar)
            .field("anchors", &self.anchors)
            .finish_non_exhaustive()
    }
}

/// Why a pattern could not be compiled: the whole message, several lines,
/// ending with an example that works.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternProblem(pub String);

impl fmt::Display for PatternProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PatternProblem {}

/// Text around the pattern that makes it parse: (prefix, suffix).
type Context = (&'static str, &'static str);

/// The pattern on its own.
const BARE: Context = ("", "");

/// The contexts a language's patterns are tried in, in order. Where the
/// grammar reads a top-level line differently from a statement (Go reads
/// `fmt.Println(x)` there as a type conversion; C, C++, Java and C# allow
/// few expressions at the top), a function body comes first; what cannot
/// stand in a body (a function, a type) falls through to the top level.
fn contexts(lang: Lang) -> &'static [Context] {
    const FUNCTION_BODY_C: Context = ("void _() {\n", "\n}\n");
    // An expression without its `;` can read as a declaration in C
    // (`zmalloc(_N)` declares `_N` of type `zmalloc`, its `;` missing):
    // with the `;` it is a call statement, and the pattern the call in it,
    // so this comes first. A statement that has its `;` is whole either
    // way (`return _X;;` holds `return _X;`).
    const EXPRESSION_C: Context = ("void _() {\n", ";\n}\n");
    const METHOD_BODY: Context = ("class _ {\nvoid _() {\n", "\n}\n}\n");
    const CLASS_BODY: Context = ("class _ {\n", "\n}\n");
    match lang {
        Lang::Go => &[("package _\nfunc _() {\n", "\n}\n"), BARE],
        Lang::C | Lang::Cpp => &[EXPRESSION_C, FUNCTION_BODY_C, BARE],
        Lang::Java | Lang::CSharp => &[METHOD_BODY, BARE, CLASS_BODY],
        // PHP's grammar reads nothing as code before `<?php`.
        Lang::Php => &[
            ("<?php\n", "\n"),
            ("<?php\nfunction _() {\n", "\n}\n"),
            ("<?php\nclass _ {\n", "\n}\n"),
        ],
        Lang::Python => &[
            BARE,
            ("try:\n    pass\n", "\n"),
            // A decorator alone: with the function it decorates.
            ("", "\ndef _():\n    pass\n"),
        ],
        Lang::Rust => &[BARE, ("fn _() {\n", "\n}\n")],
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => {
            &[BARE, ("function _() {\n", "\n}\n"), CLASS_BODY]
        }
        Lang::Kotlin => &[BARE, ("fun _() {\n", "\n}\n"), CLASS_BODY],
        Lang::Lua | Lang::Luau => &[BARE, ("function _()\n", "\nend\n")],
        Lang::Ruby => &[BARE, ("def _\n", "\nend\n")],
        Lang::Swift => &[BARE, ("func _() {\n", "\n}\n"), CLASS_BODY],
        Lang::Scala => &[BARE, ("def _ = {\n", "\n}\n"), ("object _ {\n", "\n}\n")],
        Lang::Dart => &[
            ("void _() {\n", ";\n}\n"),
            BARE,
            ("void _() {\n", "\n}\n"),
            CLASS_BODY,
        ],
        Lang::Zig => &[BARE, ("fn f() void {\n", "\n}\n")],
        Lang::Haskell => &[BARE, ("f = ", "\n")],
        Lang::Elixir | Lang::Bash => &[BARE],
    }
}

/// A pattern for each language that compiles and matches real code.
pub fn example(lang: Lang) -> &'static str {
    match lang {
        Lang::Rust => "$X.unwrap()",
        Lang::Python => "print($$$ARGS)",
        Lang::JavaScript | Lang::TypeScript => "console.log($$$ARGS)",
        Lang::Tsx => "useState<$T>($$$ARGS)",
        Lang::Go => "if err != nil { $$$BODY }",
        Lang::Ruby => "puts $X",
        Lang::Java => "System.out.println($X)",
        Lang::Kotlin => "println($X)",
        Lang::CSharp => "Console.WriteLine($X)",
        Lang::C => "malloc($SIZE)",
        Lang::Cpp => "std::move($X)",
        Lang::Php => "echo $X;",
        Lang::Lua | Lang::Luau => "print($X)",
        Lang::Swift | Lang::Dart => "print($X)",
        Lang::Scala => "println($X)",
        Lang::Elixir => "IO.puts($X)",
        Lang::Haskell => "putStrLn $X",
        Lang::Zig => "std.debug.print($$$ARGS)",
        Lang::Bash => "echo $X",
    }
}

/// What one context made of the pattern.
enum Attempt {
    Compiled(Pattern),
    /// The parse went wrong at this byte of the processed pattern.
    Broken(usize),
    /// It parsed, but not as one node.
    NotOneNode,
}

impl StructuralPattern {
    /// Compiles `text` as a pattern of `lang`.
    pub fn compile(text: &str, lang: Lang) -> Result<StructuralPattern, PatternProblem> {
        let grammar = Grammar(lang);
        if text.trim().is_empty() {
            return Err(problem(text, lang, "the pattern is empty".into(), None));
        }
        let processed = substitute_sigil(text, grammar.expando());
        let mut broken_at = None;
        let mut not_one_node = false;
        for context in contexts(lang) {
            match attempt(grammar, &processed, *context) {
                Attempt::Compiled(pattern) => {
                    return Ok(StructuralPattern {
                        anchors: Anchors::of(&pattern, grammar),
                        pattern,
                        grammar,
                        text: text.to_string(),
                    })
                }
                // The first context's error is the one to show: the
                // pattern as typed, or (PHP) with only `<?php` before it.
                Attempt::Broken(at) => {
                    broken_at.get_or_insert(at);
                }
                Attempt::NotOneNode => not_one_node = true,
            }
        }
        let what = if not_one_node {
            format!(
                "the pattern does not parse as one {} node: it holds several, and a pattern matches one (search for one of them, or for the construct holding them all)",
                lang.name()
            )
        } else {
            format!("the pattern does not parse as {} code", lang.name())
        };
        let at = if not_one_node { None } else { broken_at };
        Err(problem(
            text,
            lang,
            what,
            at.map(|byte| char_column(&processed, byte)),
        ))
    }

    /// The language whose files this pattern searches.
    pub fn lang(&self) -> Lang {
        self.grammar.0
    }
}

/// Parses `processed` inside `context` and finds the pattern's node.
fn attempt(grammar: Grammar, processed: &str, context: Context) -> Attempt {
    let source = format!("{}{processed}{}", context.0, context.1);
    let Ok(doc) = StrDoc::try_new(&source, grammar) else {
        return Attempt::Broken(0);
    };
    let root = ast_grep_core::AstGrep::doc(doc);
    let top = root.root();
    if let Some(at) = went_wrong_at(&top, grammar) {
        let at = at.saturating_sub(context.0.len());
        return Attempt::Broken(at.min(processed.len()));
    }
    let start = context.0.len() + (processed.len() - processed.trim_start().len());
    let end = context.0.len() + processed.trim_end().len();
    let Some(node) = top.dfs().find(|n| n.range() == (start..end)) else {
        return Attempt::NotOneNode;
    };
    let node = peel(node);
    // The whole text, still holding several pieces: not one node.
    if node.range() == top.range() && node.children().len() > 1 && node.parent().is_none() {
        return Attempt::NotOneNode;
    }
    if is_list_metavariable(grammar, &node.text()) {
        return Attempt::NotOneNode;
    }
    Attempt::Compiled(Pattern::from(node))
}

/// Where a parse went wrong, as a byte of the parsed text: where a
/// missing token (other than `;`) was expected, else where the innermost error starts (an
/// error holding all the text starts at its last piece, the token the
/// parser could not place); `None` for a clean parse.
fn went_wrong_at(top: &Node<'_, StrDoc<Grammar>>, grammar: Grammar) -> Option<usize> {
    // A missing statement terminator is no error: `foo($X)` is the call
    // whether or not a `;` follows (ast-grep leaves missing nodes out of
    // patterns too).
    if let Some(missing) = top.dfs().find(|n| n.is_missing() && n.kind() != ";") {
        return Some(missing.range().start);
    }
    // A grammar may not expect a lone metavariable where it stands
    // (`match $X { $$$ }`: arms, not an expression, inside the braces);
    // the error then holds just the metavariable, which ast-grep matches
    // against any nodes there, so it is no error of the pattern's.
    let error = top
        .dfs()
        .filter(|n| n.is_error() && !is_metavariable(grammar, n.text().trim()))
        .last()?;
    let children: Vec<_> = error.children().collect();
    Some(match children.last() {
        Some(last) if children.len() > 1 => last.range().start,
        _ => error.range().start,
    })
}

/// `node` without the wrappers that hold only it (a statement holding one
/// expression, a program holding one statement): the pattern matches the
/// innermost, wherever it stands. A second child that is missing or has
/// no kind (some grammars end a file with one) does not count.
fn peel<'r>(mut node: Node<'r, StrDoc<Grammar>>) -> Node<'r, StrDoc<Grammar>> {
    loop {
        let children: Vec<_> = node.children().collect();
        let only = match children.as_slice() {
            [one] => one.clone(),
            [one, extra] if extra.is_missing() || extra.kind().is_empty() => one.clone(),
            _ => return node,
        };
        node = only;
    }
}

/// `$X`, `$_`, `$$$` or `$$$NAME` (in the grammar's sigil).
fn is_metavariable(grammar: Grammar, text: &str) -> bool {
    let sigil = grammar.expando();
    let name = text.trim_start_matches(sigil);
    let sigils = (text.len() - name.len()) / sigil.len_utf8();
    matches!(sigils, 1 | 3)
        && (name.is_empty() && sigils == 3
            || name.starts_with(|c: char| c.is_ascii_uppercase() || c == '_')
                && name
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
}

/// `$$$` or `$$$NAME` on its own: it stands for a list of nodes, and a
/// pattern is one node.
fn is_list_metavariable(grammar: Grammar, text: &str) -> bool {
    let sigil = grammar.expando();
    let run: String = std::iter::repeat_n(sigil, 3).collect();
    text.strip_prefix(&run).is_some_and(|rest| {
        rest.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    })
}

/// The character column (0-based) of byte `at` of the processed pattern:
/// the same column in the pattern as typed, since only whole characters
/// were replaced.
fn char_column(processed: &str, at: usize) -> usize {
    let mut at = at.min(processed.len());
    while !processed.is_char_boundary(at) {
        at -= 1;
    }
    processed[..at].chars().count()
}

/// True when the shell seems to have eaten the pattern's metavariables:
/// no `$` is left, and what is left has the holes they leave (a leading
/// `.`, empty or one-sided argument lists, empty generics, or the shell's
/// process id from `$$`).
pub fn looks_shell_eaten(text: &str) -> bool {
    if text.contains('$') {
        return false;
    }
    let t = text.trim();
    let pid = t
        .as_bytes()
        .windows(4)
        .any(|w| w.iter().all(u8::is_ascii_digit));
    t.starts_with('.')
        || t.starts_with("?.")
        || ["(,", ",)", ", ,", "<>", "( ,", "= ;", "=;", "(, "]
            .iter()
            .any(|hole| t.contains(hole))
        || pid
}

/// The message of a pattern that did not compile: what went wrong, where
/// (a caret under the pattern), an example that works, and the hint to
/// quote a pattern whose metavariables the shell ate.
fn problem(text: &str, lang: Lang, what: String, column: Option<usize>) -> PatternProblem {
    let mut message = what;
    let first_line = text.lines().next().unwrap_or("");
    if let Some(column) = column {
        // A caret under the pattern's first line; an error past it is
        // named by its line.
        let line_of = text.chars().take(column).filter(|&c| c == '\n').count();
        if line_of == 0 {
            message.push_str(&format!(
                "\n  {first_line}\n  {}^ the parse went wrong here",
                " ".repeat(column)
            ));
        } else {
            message.push_str(&format!(
                "\n  the parse went wrong on line {} of the pattern",
                line_of + 1
            ));
        }
    }
    message.push_str(&format!(
        "\nexample that works: scout search --structural --lang {} {}",
        lang.name(),
        shell::quote(example(lang).as_bytes())
    ));
    if looks_shell_eaten(text) {
        message.push_str(
            "\nhint: the shell may have replaced $NAME in the pattern before scout saw it; quote the pattern in single quotes: '$X.unwrap()'",
        );
    }
    PatternProblem(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compiles(lang: Lang, text: &str) {
        if let Err(e) = StructuralPattern::compile(text, lang) {
            panic!("{lang:?} {text:?}: {e}");
        }
    }

    fn fails(lang: Lang, text: &str) -> String {
        match StructuralPattern::compile(text, lang) {
            Ok(_) => panic!("{lang:?} {text:?} compiled"),
            Err(e) => e.0,
        }
    }

    #[test]
    fn every_example_compiles() {
        for lang in Lang::ALL {
            compiles(lang, example(lang));
        }
    }

    #[test]
    fn statements_compile_in_a_function_body_where_the_grammar_needs_one() {
        compiles(Lang::Go, "x := $Y");
        compiles(Lang::Go, "defer $X.Close()");
        compiles(Lang::C, "return $X;");
        compiles(Lang::C, "malloc($N)");
        compiles(Lang::Cpp, "for ($A; $B; $C) $BODY");
        compiles(Lang::Java, "throw new $E($$$);");
        compiles(Lang::CSharp, "var $X = new $T();");
        compiles(Lang::Php, "$x = $Y;");
        compiles(Lang::Php, "return $X;");
        compiles(Lang::Python, "except Exception: pass");
        compiles(Lang::Python, "@functools.lru_cache($$$)");
        compiles(Lang::Rust, "match $X { $$$ }");
        compiles(Lang::Rust, "impl $T for $U { $$$ }");
    }

    #[test]
    fn a_broken_pattern_says_where() {
        let message = fails(Lang::Rust, "$X.unwrap(");
        assert!(message.contains("does not parse as rust code"), "{message}");
        assert!(message.contains("^ the parse went wrong here"), "{message}");
        assert!(
            message.contains(
                "example that works: scout search --structural --lang rust '$X.unwrap()'"
            ),
            "{message}"
        );
    }

    #[test]
    fn several_nodes_are_not_one_pattern() {
        let message = fails(Lang::JavaScript, "foo(); bar();");
        assert!(
            message.contains("does not parse as one javascript node"),
            "{message}"
        );
        fails(Lang::Rust, "$$$A");
    }

    #[test]
    fn eaten_metavariables_are_noticed() {
        assert!(looks_shell_eaten(".unwrap()"));
        assert!(looks_shell_eaten("useState<>(31337A)"));
        assert!(looks_shell_eaten("foo(, 1)"));
        assert!(!looks_shell_eaten("$X.unwrap()"));
        assert!(!looks_shell_eaten("foo.unwrap()"));
        let message = fails(Lang::Rust, ".unwrap()");
        assert!(
            message.contains("quote the pattern in single quotes"),
            "{message}"
        );
    }
}
