//! What a matching line is to the queried name, beyond "defines it"
//! ([`super::lexical`]): whether a definition line is the name's own
//! declaration (a type, a class, a free function: the *primary*
//! definition) or only a member of another type or a local, and whether
//! a line merely imports or re-exports the name.
//!
//! Both are lexical guesses from one line, like the rules they refine;
//! where the parser has read the file, [`primary_in`] answers from its
//! definitions instead (`refine` applies it).

use crate::defs::{Def, DefKind};
use crate::lang::Lang;

/// Words that declare a type (or a module) wherever they stand: a line
/// defining the name after one of them is the name's own declaration,
/// however deeply indented.
const TYPE_KEYWORDS: [&[u8]; 15] = [
    b"class",
    b"struct",
    b"interface",
    b"trait",
    b"enum",
    b"type",
    b"typedef",
    b"union",
    b"record",
    b"module",
    b"mod",
    b"namespace",
    b"object",
    b"protocol",
    b"@interface",
];

/// Whether `line`, which the lexical rules say defines `name` in `lang`,
/// declares the name itself rather than a member or a local: a type,
/// class, interface, trait, enum or module wherever it stands; otherwise
/// a function or macro at the start of the line (a free function), unless it is qualified by its owner (Go's
/// `func (r T) NAME`, C++'s `T::NAME`, JavaScript's `T.prototype.NAME`)
/// or is an `impl` of the name (where the type's methods are, not the
/// type). Indented definitions are members (methods, fields, interface
/// elements) or locals; constants and variables are values, not
/// declarations of the name's own kind (a top-level `const canvas =
/// render()` in a script is no rival to the class member `canvas`).
pub fn is_primary_definition(lang: Lang, line: &[u8], name: &[u8]) -> bool {
    let Some(at) = find_word(line, name) else {
        return false;
    };
    let before = &line[..at];
    let code = before.trim_ascii_start();
    let indented = code.len() < before.len();
    let words = || {
        code.split(|&b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b'@'))
            .filter(|w| !w.is_empty())
    };
    if words().any(|w| adds_to_a_type(lang, w)) {
        return false;
    }
    if words().any(|w| TYPE_KEYWORDS.contains(&w)) {
        return true;
    }
    if is_value_definition(words(), &line[at + name.len()..]) {
        return false;
    }
    let qualified = code.ends_with(b".") || code.ends_with(b"::") || code.ends_with(b"#");
    let receiver = lang == Lang::Go && code.starts_with(b"func (");
    !indented && !qualified && !receiver
}

/// Whether `keyword` opens a block that adds to a type declared elsewhere
/// (its members are the type's, the type is not declared here): Rust's
/// `impl`, Swift's `extension`, Haskell's `instance`, Elixir's `defimpl`.
/// The parser says the same of these blocks (a [`DefKind::Impl`]), so a
/// file it has read and one it has not rank alike.
fn adds_to_a_type(lang: Lang, keyword: &[u8]) -> bool {
    match keyword {
        b"impl" => true,
        b"extension" => lang == Lang::Swift,
        b"instance" => lang == Lang::Haskell,
        b"defimpl" => lang == Lang::Elixir,
        _ => false,
    }
}

/// Whether a definition line gives the name a value that is not a
/// function: a constant, a static, a variable (`const X = 1`,
/// `static FOO: u32`, `x = make()`), where `words` are the words before
/// the name and `after` is what follows it. `const fn`, `const f = () =>`
/// and `f = lambda` are functions.
fn is_value_definition<'a>(mut words: impl Iterator<Item = &'a [u8]>, after: &[u8]) -> bool {
    const FUNCTION: [&[u8]; 5] = [b"fn", b"def", b"func", b"function", b"fun"];
    const VALUE: [&[u8]; 6] = [b"const", b"let", b"var", b"val", b"static", b"final"];
    let (mut function, mut value) = (false, false);
    for word in words.by_ref() {
        function |= FUNCTION.contains(&word);
        value |= VALUE.contains(&word);
    }
    let after = after.trim_ascii_start();
    // `static int load(void)`: parameters follow the name.
    if function || after.starts_with(b"(") {
        return false;
    }
    let assigned = after.strip_prefix(b":=").or_else(|| {
        after
            .strip_prefix(b"=")
            .filter(|rest| !rest.starts_with(b"=") && !rest.starts_with(b">"))
    });
    let typed = after.starts_with(b":") && !after.starts_with(b"::");
    if !(value || assigned.is_some() || typed) {
        return false;
    }
    let value_text = match assigned {
        Some(rest) => rest,
        None => after.splitn(2, |&b| b == b'=').nth(1).unwrap_or_default(),
    };
    ![&b"=>"[..], b"function", b"lambda", b"func("]
        .iter()
        .any(|k| value_text.windows(k.len()).any(|w| w == *k))
}

/// Whether the parser's definitions make `name` primary in a file: some
/// definition of it is a type, class, interface, trait, enum, module,
/// macro or named type wherever it stands, or a function that no other
/// definition holds (a free function, at the top level or
/// in a module other than a `mod tests`). Methods, properties, impl
/// blocks and definitions nested in functions are not.
pub fn primary_in(defs: &[Def], name: &str) -> Vec<u64> {
    defs.iter()
        .filter(|d| d.short == name && is_primary(defs, d))
        .map(|d| u64::from(d.name_line))
        .collect()
}

fn is_primary(defs: &[Def], def: &Def) -> bool {
    match def.kind {
        DefKind::Class
        | DefKind::Struct
        | DefKind::Enum
        | DefKind::Trait
        | DefKind::Interface
        | DefKind::Module
        | DefKind::Type
        | DefKind::Macro => true,
        DefKind::Function => !defs.iter().any(|outer| {
            let holds = !std::ptr::eq(outer, def)
                && outer.start_line <= def.start_line
                && def.end_line <= outer.end_line
                && (outer.start_line, outer.end_line) != (def.start_line, def.end_line);
            // A module holds free functions, unless it holds tests
            // (Rust's `mod tests`).
            holds && (outer.kind != DefKind::Module || matches!(&outer.short[..], "tests" | "test"))
        }),
        DefKind::Method
        | DefKind::Impl
        | DefKind::Property
        | DefKind::Constant
        | DefKind::Variable => false,
    }
}

/// Whether `line` only brings names in from elsewhere (or sends them on):
/// `import`, `from ... import`, `use`, `#include`, `require(...)`,
/// `export ... from` (and the `} from "..."` closing a long one),
/// `using X;`, or an entry of a Go import block (a quoted path, maybe
/// after an alias). The names inside a long import's braces are on lines
/// of their own that say nothing of it, and count as uses. Such a line says where the name
/// comes from, not how it is used, so it is quoted after the real uses.
pub fn is_import(lang: Lang, line: &[u8]) -> bool {
    // A definition's or import's words come first: a minified line costs
    // no more than a short one (as in the lexical rules).
    let code = line[..line.len().min(super::lexical::MAX_SCAN)].trim_ascii();
    let starts = |word: &[u8]| {
        code.starts_with(word)
            && code
                .get(word.len())
                .is_none_or(|b| matches!(b, b' ' | b'\t' | b'{' | b'*' | b'(' | b'"'))
    };
    match lang {
        Lang::Python => starts(b"import") || (starts(b"from") && contains(code, b" import ")),
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => {
            (starts(b"import") && !code.starts_with(b"import("))
                || ((starts(b"export") || code.starts_with(b"}")) && contains(code, b" from "))
                || contains(code, b"require(")
        }
        Lang::Rust => {
            let code = strip_visibility(code);
            code.starts_with(b"use ") || code.starts_with(b"extern crate ")
        }
        Lang::Go => {
            starts(b"import") || {
                // `"path"` or `alias "path"` inside `import ( ... )`.
                let path = code.rsplit(|&b| b == b' ').next().unwrap_or(code);
                path.len() >= 2
                    && path.starts_with(b"\"")
                    && path.ends_with(b"\"")
                    && code[..code.len() - path.len()]
                        .iter()
                        .all(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b' ')
            }
        }
        Lang::Java | Lang::Kotlin => starts(b"import") || starts(b"package"),
        Lang::CSharp => starts(b"using") && code.ends_with(b";") && !contains(code, b"("),
        Lang::C | Lang::Cpp => code.starts_with(b"#include") || code.starts_with(b"#import"),
        Lang::Php => starts(b"use") || starts(b"require_once") || starts(b"include"),
        Lang::Ruby => starts(b"require") || starts(b"require_relative"),
        Lang::Lua | Lang::Luau => contains(code, b"require(") || contains(code, b"require \""),
        Lang::Swift | Lang::Haskell => starts(b"import"),
        Lang::Scala => starts(b"import") || starts(b"package"),
        Lang::Elixir => {
            starts(b"import") || starts(b"alias") || starts(b"require") || starts(b"use")
        }
        Lang::Zig => contains(code, b"@import("),
        Lang::Bash => starts(b"source") || starts(b"."),
        Lang::Dart => starts(b"import") || starts(b"export") || starts(b"part"),
    }
}

/// `pub`, `pub(crate)`, `pub(in path)` and the blank after, off the front.
fn strip_visibility(code: &[u8]) -> &[u8] {
    let Some(rest) = code.strip_prefix(b"pub") else {
        return code;
    };
    let rest = match rest.strip_prefix(b"(") {
        Some(inner) => match inner.iter().position(|&b| b == b')') {
            Some(close) => &inner[close + 1..],
            None => return code,
        },
        None => rest,
    };
    if rest.first().is_some_and(|b| b.is_ascii_whitespace()) {
        rest.trim_ascii_start()
    } else {
        code
    }
}

/// The first whole-word occurrence of `name` in `line`.
fn find_word(line: &[u8], name: &[u8]) -> Option<usize> {
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80;
    let mut from = 0;
    while let Some(offset) = crate::bytes::find_short(&line[from..], name) {
        let start = from + offset;
        let end = start + name.len();
        let before_ok = start == 0 || !is_word(line[start - 1]);
        let after_ok = end == line.len() || !is_word(line[end]);
        if before_ok && after_ok {
            return Some(start);
        }
        from = start + 1;
    }
    None
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    crate::bytes::find_short(haystack, needle).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primary_definitions_are_declarations_of_the_name_itself() {
        let primary = [
            (Lang::Go, "type Appender interface {"),
            (Lang::Go, "func Appender(ctx context.Context) {"),
            (Lang::Python, "def load(path):"),
            (Lang::Python, "    class Load:"),
            (Lang::Rust, "pub fn load() {}"),
            (Lang::Rust, "    pub struct Load;"),
            (Lang::TypeScript, "export function load() {"),
            (Lang::TypeScript, "export const load = () => 1;"),
            (Lang::Rust, "pub const fn load() -> u32 {"),
            (Lang::Python, "load = lambda path: path"),
            (Lang::Java, "public class Load {"),
            (Lang::C, "#define load(x) x"),
            (Lang::C, "static int load(void) {"),
        ];
        for (lang, line) in primary {
            let name = if line.contains("Appender") {
                "Appender"
            } else if line.contains("Load") {
                "Load"
            } else {
                "load"
            };
            assert!(
                is_primary_definition(lang, line.as_bytes(), name.as_bytes()),
                "{lang:?}: {line}"
            );
        }
    }

    #[test]
    fn members_and_locals_are_not_primary() {
        let members = [
            (
                Lang::Go,
                "func (a *Appendable) Appender(ctx context.Context) storage.Appender {",
            ),
            (Lang::Go, "\tAppender(ctx context.Context) Appender"),
            (Lang::Python, "    def Appender(self):"),
            (Lang::Rust, "impl Appender for Head {"),
            (Lang::Swift, "extension Appender: Sendable {"),
            (Lang::Swift, "public extension NIOCore.Appender {"),
            (Lang::Haskell, "instance Show Appender where"),
            (Lang::Elixir, "defimpl Inspect, for: Appender do"),
            (Lang::Rust, "    fn Appender(&self) {}"),
            (Lang::Java, "    public Appender Appender() {"),
            (Lang::Cpp, "void Head::Appender() {"),
            (Lang::JavaScript, "Head.prototype.Appender = function () {"),
            (
                Lang::TypeScript,
                "const Appender = exportToCanvas(elements);",
            ),
            (Lang::Rust, "pub static Appender: u32 = 1;"),
            (Lang::Python, "Appender = make_appender()"),
            (Lang::Go, "var Appender = storage.New()"),
        ];
        for (lang, line) in members {
            assert!(
                !is_primary_definition(lang, line.as_bytes(), b"Appender"),
                "{lang:?}: {line}"
            );
        }
    }

    #[test]
    fn import_lines_are_told_from_uses() {
        let imports = [
            (Lang::Python, "from flask.app import Flask"),
            (Lang::Python, "import flask.app as app"),
            (Lang::TypeScript, "import { load } from './load';"),
            (Lang::TypeScript, "export { load } from './load';"),
            (Lang::TypeScript, "} from \"./LibraryMenuSection\";"),
            (Lang::JavaScript, "const { load } = require('./load');"),
            (Lang::Rust, "use crate::search::load;"),
            (Lang::Rust, "pub(crate) use load::Load;"),
            (Lang::Go, "import \"github.com/x/storage\""),
            (Lang::Go, "\t\"github.com/prometheus/prometheus/storage\""),
            (
                Lang::Go,
                "\tstorage \"github.com/prometheus/prometheus/storage\"",
            ),
            (Lang::Java, "import org.jsoup.nodes.Element;"),
            (Lang::C, "#include \"sds.h\""),
            (Lang::CSharp, "using System.Text;"),
        ];
        for (lang, line) in imports {
            assert!(is_import(lang, line.as_bytes()), "{lang:?}: {line}");
        }
        let uses = [
            (Lang::Python, "    app = Flask(__name__)"),
            (Lang::Python, "    imported = from_file(path)"),
            (Lang::TypeScript, "const mod = await import('./load');"),
            (Lang::TypeScript, "  load(scene);"),
            (Lang::Rust, "    let used = load();"),
            (Lang::Go, "\tapp := db.Appender(ctx)"),
            (Lang::Go, "\tfmt.Println(\"storage\")"),
            (Lang::Java, "    Element importElement = doc.body();"),
            (Lang::CSharp, "using (var s = File.Open(p)) {"),
        ];
        for (lang, line) in uses {
            assert!(!is_import(lang, line.as_bytes()), "{lang:?}: {line}");
        }
    }

    fn def(kind: DefKind, short: &str, lines: (u32, u32)) -> Def {
        Def {
            kind,
            name: short.to_string(),
            short: short.to_string(),
            start_line: lines.0,
            end_line: lines.1,
            name_line: lines.0,
        }
    }

    #[test]
    fn the_parser_names_types_and_free_functions_primary() {
        let defs = [
            def(DefKind::Interface, "Appender", (10, 20)),
            def(DefKind::Method, "Appender", (12, 12)),
            def(DefKind::Function, "outer", (30, 40)),
            def(DefKind::Function, "Appender", (31, 33)),
            def(DefKind::Function, "Appender", (50, 52)),
            def(DefKind::Impl, "Appender", (60, 70)),
            def(DefKind::Constant, "Appender", (75, 75)),
            def(DefKind::Module, "storage", (80, 90)),
            def(DefKind::Function, "Appender", (81, 82)),
            def(DefKind::Module, "tests", (100, 120)),
            def(DefKind::Function, "Appender", (101, 102)),
        ];
        assert_eq!(primary_in(&defs, "Appender"), [10, 50, 81]);
    }
}
