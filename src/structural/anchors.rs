//! The words a file must hold for a pattern to match in it, so that the
//! structural search reads a file and skips parsing it when one is
//! missing: most files of a tree hold no `defer` and `Close`, and
//! parsing is nearly all of a structural search's time.
//!
//! The rule is ast-grep's matching with its default strictness (`smart`):
//! every node the pattern spells out must be matched, and only the
//! target's unnamed nodes may be skipped. A named leaf of the pattern (an
//! identifier, a field name) matches only a leaf of the same kind with the
//! same text, so that text is in any file holding a match. An unnamed leaf
//! (a keyword, punctuation) is compared by kind alone; it is used only
//! where its kind cannot stand for other bytes:
//!
//! - it is a word (`[A-Za-z_][A-Za-z0-9_]*`) and its kind is spelled as
//!   its text, so punctuation (JavaScript's automatic `;` is empty) and
//!   preprocessor directives (C's `#include` may be `# include`) never
//!   count;
//! - not in PHP, whose grammar reads keywords in any case (`FUNCTION`);
//! - not one of the few keywords a grammar makes with an external scanner
//!   or an alias of other text ([`UNSURE`]);
//! - not right after a `$$$` among its siblings, where ast-grep skips
//!   unnamed pattern nodes.
//!
//! Strings and comments never count, whatever their kind says, nor does
//! anything in the context a pattern was parsed in (a function body,
//! `<?php`): the pattern is the node already taken out of it. What is left
//! is a conservative subset: a file may hold every word and still not
//! match, never the reverse.

use ast_grep_core::matcher::PatternNode;
use ast_grep_core::meta_var::MetaVariable;
use ast_grep_core::tree_sitter::LanguageExt;
use ast_grep_core::{MatchStrictness, Pattern};
use memchr::memmem::Finder;

use super::grammar::Grammar;
use crate::lang::Lang;

/// Keywords that some grammar (at the versions Cargo.lock pins) produces
/// from an external scanner or as an alias of another rule, so that a
/// node of that kind need not hold the keyword's bytes: Python's `except`,
/// Kotlin's `constructor`, `get`, `set` and `in`. Found by reading each
/// grammar's `src/grammar.json` for unnamed aliases and externals; check
/// again when a grammar is upgraded.
const UNSURE: &[(Lang, &str)] = &[
    (Lang::Python, "except"),
    (Lang::Kotlin, "constructor"),
    (Lang::Kotlin, "get"),
    (Lang::Kotlin, "set"),
    (Lang::Kotlin, "in"),
];

/// The words of a pattern that every matching file holds, byte for byte.
#[derive(Clone, Debug, Default)]
pub struct Anchors {
    /// Longest first: a longer word tends to be rarer, so a file lacking
    /// one is turned away after fewer scans.
    finders: Vec<Finder<'static>>,
}

impl Anchors {
    /// The anchors of a compiled pattern of `grammar`'s language; none
    /// when the pattern is not matched with `smart` strictness.
    pub fn of(pattern: &Pattern, grammar: Grammar) -> Anchors {
        if !matches!(pattern.strictness, MatchStrictness::Smart) {
            return Anchors::default();
        }
        let mut words = Vec::new();
        collect(&pattern.node, grammar, &mut words);
        words.sort_by(|a: &String, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        words.dedup();
        Anchors {
            finders: words
                .iter()
                .map(|w| Finder::new(w.as_bytes()).into_owned())
                .collect(),
        }
    }

    /// The words, longest first.
    #[cfg(test)]
    pub fn words(&self) -> impl Iterator<Item = &[u8]> {
        self.finders.iter().map(Finder::needle)
    }

    /// False when `source` lacks one of the words, so nothing in it can
    /// match; true otherwise (which does not mean something will).
    pub fn admit(&self, source: &[u8]) -> bool {
        self.finders.iter().all(|f| f.find(source).is_some())
    }
}

/// Pushes the words of `node` and below onto `words`.
fn collect(node: &PatternNode, grammar: Grammar, words: &mut Vec<String>) {
    let PatternNode::Internal { kind_id, children } = node else {
        if let Some(word) = leaf_word(node, grammar) {
            words.push(word.to_string());
        }
        return;
    };
    if is_text_kind(grammar, *kind_id) {
        return;
    }
    let mut after_ellipsis = false;
    for child in children {
        let is_ellipsis = matches!(
            child,
            PatternNode::MetaVar {
                meta_var: MetaVariable::Multiple | MetaVariable::MultiCapture(_)
            }
        );
        // ast-grep skips the unnamed nodes that follow a `$$$`.
        if after_ellipsis && child.is_trivial() {
            continue;
        }
        after_ellipsis = is_ellipsis;
        collect(child, grammar, words);
    }
}

/// The word a leaf of the pattern spells out, when a matching node must
/// hold it verbatim (the rules in the module doc).
fn leaf_word(node: &PatternNode, grammar: Grammar) -> Option<&str> {
    let PatternNode::Terminal {
        text,
        is_named,
        kind_id,
    } = node
    else {
        return None;
    };
    if !is_word(text) || is_text_kind(grammar, *kind_id) {
        return None;
    }
    if *is_named {
        return Some(text);
    }
    let lang = grammar.0;
    let language = grammar.get_ts_language();
    let kind = language.node_kind_for_id(*kind_id)?;
    let sure = kind == text
        && lang != Lang::Php
        && !UNSURE.iter().any(|&(l, word)| l == lang && word == text);
    sure.then_some(text.as_str())
}

/// `[A-Za-z_][A-Za-z0-9_]*`.
fn is_word(text: &str) -> bool {
    let mut bytes = text.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// A kind holding free text (a string, a character, a comment): its words
/// are not taken, however exactly ast-grep compares them.
fn is_text_kind(grammar: Grammar, kind_id: u16) -> bool {
    grammar
        .get_ts_language()
        .node_kind_for_id(kind_id)
        .is_none_or(|kind| {
            ["string", "comment", "char", "content", "escape", "heredoc"]
                .iter()
                .any(|text| kind.contains(text))
        })
}

#[cfg(test)]
mod tests {
    use super::super::StructuralPattern;
    use crate::lang::Lang;

    fn words(lang: Lang, pattern: &str) -> Vec<String> {
        let compiled = StructuralPattern::compile(pattern, lang).unwrap();
        compiled
            .anchors
            .words()
            .map(|w| String::from_utf8(w.to_vec()).unwrap())
            .collect()
    }

    #[test]
    fn named_leaves_and_sure_keywords_are_words() {
        assert_eq!(words(Lang::Rust, "$X.unwrap()"), ["unwrap"]);
        assert_eq!(words(Lang::Go, "defer $X.Close()"), ["Close", "defer"]);
        assert_eq!(words(Lang::Go, "$X, err := $Y"), ["err"]);
        assert_eq!(
            words(Lang::Go, "for $K, $V := range $X { $$$ }"),
            ["range", "for"]
        );
        assert_eq!(
            words(Lang::Go, "if err != nil { return $$$ }"),
            ["return", "err", "nil", "if"]
        );
        assert_eq!(words(Lang::Rust, "let $X = $Y;"), ["let"]);
        assert_eq!(
            words(Lang::Python, "with open($$$) as $F: $$$"),
            ["open", "with", "as"]
        );
    }

    #[test]
    fn the_context_a_pattern_is_parsed_in_gives_no_words() {
        // Parsed inside `func _() { ... }` and `void _() { ... }`.
        assert_eq!(words(Lang::Go, "fmt.Errorf($$$)"), ["Errorf", "fmt"]);
        assert_eq!(words(Lang::C, "zfree($P)"), ["zfree"]);
        assert_eq!(words(Lang::Php, "echo $X;"), Vec::<String>::new());
    }

    #[test]
    fn unsure_tokens_are_left_out() {
        // Strings and comments.
        assert_eq!(words(Lang::Rust, r#"$X.expect("bad input")"#), ["expect"]);
        assert_eq!(words(Lang::Python, "print('hello world')"), ["print"]);
        // Punctuation, and a keyword PHP reads in any case.
        assert_eq!(words(Lang::JavaScript, "$X === undefined"), ["undefined"]);
        assert_eq!(words(Lang::Php, "return $X;"), Vec::<String>::new());
        // Python's `except` comes from its external scanner.
        assert_eq!(
            words(Lang::Python, "except Exception: pass"),
            ["Exception", "pass"]
        );
        // Metavariables, of any shape.
        assert!(words(Lang::Rust, "$A($$$B)").is_empty());
        assert!(words(Lang::C, "$X->$Y = $Z").is_empty());
    }
}
