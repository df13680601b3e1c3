//! Lexical rules that say whether one source line defines a name.
//!
//! This module owns [`defines`]: given a language, one line (raw bytes, as
//! rg reports it) and an identifier, it answers "is this line a definition of
//! that identifier?" from the tokens around each whole-word occurrence of the
//! name. It is the ranker's strongest signal and the fallback for files no
//! parser handles. It knows nothing about the lines around the one it is
//! given, so it cannot see multi-line strings, block comments opened earlier,
//! or the block a line sits in; the parser-backed definitions (`defs`) own
//! anything that needs that context. Mapping paths to languages is
//! [`crate::lang`]'s job.
//!
//! The rules follow one shape: the name occurs as a whole word, and what
//! stands before it on the line is a definition keyword (`fn`, `def`,
//! `class`, `function`, `const`, ...) after nothing but modifiers, or, for
//! languages that define without a keyword (C functions, Java and Dart
//! methods, JS class members, Python assignments, Haskell equations), a
//! return type or an empty prefix with a telling continuation after the
//! name. Anything else before the name (an `=`, a `(`, a `.`, `return`, a
//! string quote) means a use, so a definition never crosses an `=`:
//! `const [a, setA] = useState(0)` does not define `useState`.
//!
//! Deliberate choices, per language, are listed in the doc comment of each
//! rule function and pinned by the tests at the bottom of this file.
//!
//! Cost: no allocation, no regex; at most [`MAX_SCAN`] bytes of a line and
//! [`MAX_OCCURRENCES`] occurrences of the name are examined, each in time
//! linear in the line, so a minified 50 KB line costs the same as a short
//! one.

use crate::bytes::find_short;
use crate::lang::Lang;

/// Bytes of a line that are examined; the rest is ignored. A definition
/// worth ranking never starts this far into a line (minified files have
/// lines of tens of kilobytes).
pub const MAX_SCAN: usize = 1000;

/// Whole-word occurrences of the name examined per line; a definition names
/// its subject within the first few words.
pub const MAX_OCCURRENCES: usize = 8;

/// True when `line` (one source line, bytes, possibly with a trailing
/// `\n`/`\r\n`, possibly not UTF-8) is a definition of the identifier `name`
/// in language `lang`.
///
/// `name` must satisfy [`is_identifier`]; any other `name` gives `false`.
/// Only the first [`MAX_SCAN`] bytes of `line` are looked at. The tests'
/// entry; the ranking calls [`defines_identifier`] on names it checked.
#[cfg(test)]
pub fn defines(lang: Lang, line: &[u8], name: &[u8]) -> bool {
    is_identifier(name) && defines_identifier(lang, line, name)
}

/// [`defines`] for a `name` the caller has checked with [`is_identifier`]
/// once, rather than once per line (the ranker asks it of every matching
/// line). Given any other `name`, the answer means nothing.
pub fn defines_identifier(lang: Lang, line: &[u8], name: &[u8]) -> bool {
    let line = trim_newline(&line[..line.len().min(MAX_SCAN)]);
    let indent = line
        .iter()
        .position(|&b| !is_blank(b))
        .unwrap_or(line.len());
    if is_comment(lang, &line[indent..]) {
        return false;
    }
    let mut from = indent;
    let mut seen = 0;
    while let Some(offset) = find_short(&line[from..], name) {
        let start = from + offset;
        let end = start + name.len();
        let before_ok = start == 0 || !is_word_byte(line[start - 1]);
        let after_ok = end == line.len() || !is_word_byte(line[end]);
        if before_ok && after_ok {
            let site = Site {
                line,
                indent,
                start,
                end,
            };
            if defines_at(lang, &site) {
                return true;
            }
            seen += 1;
            if seen == MAX_OCCURRENCES {
                return false;
            }
        }
        from = start + 1;
    }
    false
}

/// True when `s` is an ASCII identifier: `[A-Za-z_$][A-Za-z0-9_$]*` (`$`
/// because JavaScript and PHP names may hold it). Only such queries are
/// worth asking [`defines`] about.
pub fn is_identifier(s: &[u8]) -> bool {
    match s.split_first() {
        Some((&first, rest)) => {
            (first.is_ascii_alphabetic() || first == b'_' || first == b'$')
                && rest.iter().all(|&b| is_ident_byte(b))
        }
        None => false,
    }
}

/// One whole-word occurrence of the name on a line.
///
/// Invariant: `indent <= start < end <= line.len()`; `line` has no trailing
/// newline; `line[..indent]` is blank and `line[indent]` is not.
struct Site<'a> {
    line: &'a [u8],
    /// Byte offset of the first non-blank byte.
    indent: usize,
    /// Byte range of the name.
    start: usize,
    end: usize,
}

impl<'a> Site<'a> {
    /// The code between the indentation and the name.
    fn before(&self) -> &'a [u8] {
        &self.line[self.indent..self.start]
    }

    /// Everything after the name.
    fn after(&self) -> &'a [u8] {
        &self.line[self.end..]
    }

    fn name(&self) -> &'a [u8] {
        &self.line[self.start..self.end]
    }

    /// True when the line starts in column 0 (file scope, in languages
    /// whose definitions need a keyword only inside blocks).
    fn at_column_zero(&self) -> bool {
        self.indent == 0
    }
}

fn defines_at(lang: Lang, site: &Site) -> bool {
    match lang {
        Lang::Rust => rust(site),
        Lang::Python => python(site),
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => script(site),
        Lang::Go => go(site),
        Lang::Ruby => ruby(site),
        Lang::Java | Lang::Kotlin | Lang::CSharp => managed(lang, site),
        Lang::C | Lang::Cpp => c_family(site),
        Lang::Php => php(site),
        Lang::Lua | Lang::Luau => lua(lang, site),
        Lang::Swift => swift(site),
        Lang::Scala => scala(site),
        Lang::Elixir => elixir(site),
        Lang::Haskell => haskell(site),
        Lang::Zig => zig(site),
        Lang::Bash => bash(site),
        Lang::Dart => dart(site),
    }
}

/// True when the code part of a line (after indentation) is a comment:
/// `//`, `/*` or a `*` continuation in C-like languages (Swift, Scala, Zig
/// and Dart among them), `#` in Python, Ruby, Elixir, Bash (a `#!` line
/// too) and PHP (not PHP 8's `#[` attributes), `--` in Lua, `--` and `{-`
/// (pragmas `{-# ... #-}` too) in Haskell. A `*` followed by an identifier
/// is code (a JavaScript generator method), not a comment. A Zig line
/// starting with `\\` is the inside of a multi-line string: no code either.
fn is_comment(lang: Lang, code: &[u8]) -> bool {
    let c_like = || {
        code.starts_with(b"//")
            || code.starts_with(b"/*")
            || (code.first() == Some(&b'*')
                && matches!(code.get(1), None | Some(b' ' | b'\t' | b'/' | b'*')))
    };
    match lang {
        Lang::Python | Lang::Ruby | Lang::Elixir | Lang::Bash => code.first() == Some(&b'#'),
        Lang::Php => (code.first() == Some(&b'#') && code.get(1) != Some(&b'[')) || c_like(),
        Lang::Lua | Lang::Luau => code.starts_with(b"--"),
        Lang::Haskell => code.starts_with(b"--") || code.starts_with(b"{-"),
        Lang::Zig => c_like() || code.starts_with(b"\\\\"),
        Lang::Rust
        | Lang::JavaScript
        | Lang::TypeScript
        | Lang::Tsx
        | Lang::Go
        | Lang::Java
        | Lang::Kotlin
        | Lang::CSharp
        | Lang::C
        | Lang::Cpp
        | Lang::Swift
        | Lang::Scala
        | Lang::Dart => c_like(),
    }
}

// ---------------------------------------------------------------------------
// Rust

/// Rust: `fn`, `struct`, `enum`, `trait`, `type`, `union`, `mod`, `const`,
/// `static` (`static mut`), `macro_rules!`, after any of `pub`,
/// `pub(...)`, `async`, `unsafe`, `default`, `const`, `extern "abi"` and
/// one-line `#[...]` attributes. `impl NAME`, `impl<T> NAME<T>` and
/// `impl Trait for NAME` define the implementing type; the trait in
/// `impl NAME for T` is not defined there. Not: `let` bindings (locals),
/// enum variants and struct fields (no keyword; a parser sees them), `use`
/// imports, macro invocations.
fn rust(site: &Site) -> bool {
    let mut c = Cursor::new(site.before());
    while c.peek() == Some(b'#') {
        c.bump();
        if c.group(b'[', b']') != Group::Closed {
            return false;
        }
    }
    let mut last: &[u8] = b"";
    while !c.at_end() {
        let Some(word) = c.word() else {
            return false;
        };
        match word {
            b"pub" => {
                if c.peek() == Some(b'(') && c.group(b'(', b')') != Group::Closed {
                    return false;
                }
            }
            b"extern" => {
                if c.peek() == Some(b'"') && !c.skip_string() {
                    return false;
                }
            }
            b"impl" => return rust_impl(c, site),
            b"macro_rules" => return c.eat(b"!") && c.at_end(),
            b"async" | b"unsafe" | b"default" | b"fn" | b"struct" | b"enum" | b"trait"
            | b"type" | b"union" | b"mod" | b"const" | b"static" | b"mut" => {}
            _ => return false,
        }
        last = word;
    }
    is_rust_item_keyword(last)
}

/// Keywords that introduce the name of a Rust item.
#[rustfmt::skip]
fn is_rust_item_keyword(word: &[u8]) -> bool {
    matches!(
        word,
        b"fn" | b"struct" | b"enum" | b"trait" | b"type" | b"union" | b"mod" | b"const"
        | b"static" | b"mut"
    )
}

/// The part of an `impl` line between `impl` and the name.
fn rust_impl(mut c: Cursor, site: &Site) -> bool {
    if c.group(b'<', b'>') == Group::Open {
        return false;
    }
    let (rest, _) = strip_qualifier(c.rest(), b"::");
    let rest = trim_end(rest);
    if rest.is_empty() {
        // `impl NAME for T` implements the trait NAME for T.
        !contains_word(site.after(), b"for")
    } else {
        ends_with_word(rest, b"for")
    }
}

// ---------------------------------------------------------------------------
// Python

/// Python: `def`, `async def`, `class`, 3.12 `type NAME =`, and an
/// assignment or annotation at the start of a line (`NAME = ...`,
/// `NAME: T = ...`), whatever the indentation, since a line does not say
/// whether it is at module, class or function level. Not: `NAME == x`,
/// augmented assignments, `self.NAME = ...` (an attribute, not a
/// definition), tuple targets (`a, NAME = ...`, not handled), and
/// keyword-argument lines of a multi-line call (`NAME=value` without spaces,
/// or any line ending in `,`).
fn python(site: &Site) -> bool {
    let mut c = Cursor::new(site.before());
    if c.at_end() {
        return python_assignment(site);
    }
    let mut last: &[u8] = b"";
    while !c.at_end() {
        match c.word() {
            Some(word @ (b"async" | b"def" | b"class" | b"type")) => last = word,
            _ => return false,
        }
    }
    match last {
        b"def" | b"class" => true,
        b"type" => matches!(trim_start(site.after()).first(), Some(b'=' | b'[')),
        _ => false,
    }
}

fn python_assignment(site: &Site) -> bool {
    if is_reserved(site.name()) || trim_end(site.line).ends_with(b",") {
        return false;
    }
    let after = site.after();
    let a = trim_start(after);
    match a.first() {
        Some(b'=') => {
            let spaced = after.first() != Some(&b'=') || matches!(a.get(1), Some(b' ' | b'\t'));
            a.get(1) != Some(&b'=') && spaced
        }
        Some(b':') => a.get(1) != Some(&b'=') && !trim_start(&a[1..]).is_empty(),
        _ => false,
    }
}

// ---------------------------------------------------------------------------
// JavaScript, TypeScript, TSX

/// Words that may precede a class member name, or a declaration keyword.
#[rustfmt::skip]
fn is_script_modifier(word: &[u8]) -> bool {
    matches!(
        word,
        b"static" | b"async" | b"get" | b"set" | b"public" | b"private" | b"protected"
        | b"readonly" | b"override" | b"abstract" | b"declare" | b"accessor"
    )
}

/// JavaScript and TypeScript (and TSX):
/// - after `export`, `default` and modifiers (`async`, `declare`,
///   `abstract`, ...): `function` (`function*`), `class`, `interface`,
///   `enum` (`const enum`), `namespace`, `module`, `type NAME =`/`<`, and
///   `const`/`let`/`var NAME` followed by `=`, `:`, `;`, `,`, `!` or
///   the end of the line;
/// - class and object members at the start of a line, after optional
///   modifiers, `*` or `#`: `NAME(args) {`, `NAME(args): T` (signatures and
///   overloads), `NAME<T>(`; with a modifier (`static`, `async`, `get`,
///   `private`, ...) any `NAME(` or `NAME =`/`NAME:` field counts, since a
///   call cannot follow a modifier;
/// - function values: `NAME: function(`, `NAME: (a) =>`, `NAME = async x =>`,
///   `Foo.prototype.NAME = function`, `exports.NAME = ...`.
///
/// Not: calls (`NAME(x);`, `NAME(() => {` whose parentheses do not close on
/// the line), `return`/`await`/`new NAME`, destructuring
/// (`const { NAME } = ...`), `export default NAME;`, plain assignments
/// without a modifier (`NAME = 1` is a reassignment as often as a class
/// field). A method whose parameters span lines (`NAME(` at the end of the
/// line, no modifier) is not recognised: it looks exactly like a call.
fn script(site: &Site) -> bool {
    let mut c = Cursor::new(site.before());
    let mut exported = false;
    let mut modifiers = 0;
    let mut keyword: Option<&[u8]> = None;
    loop {
        match c.peek() {
            None => break,
            Some(b'*') if keyword.is_none() || keyword == Some(b"function") => {
                c.bump();
                modifiers += usize::from(keyword.is_none());
                continue;
            }
            Some(b'#') if keyword.is_none() => {
                // `#private() {}`: the `#` touches the name.
                c.bump();
                if !c.at_end() {
                    return false;
                }
                break;
            }
            _ => {}
        }
        match c.word() {
            Some(b"export" | b"default") if keyword.is_none() => exported = true,
            Some(word) if keyword.is_none() && is_script_modifier(word) => modifiers += 1,
            Some(
                word @ (b"function" | b"class" | b"interface" | b"type" | b"enum" | b"namespace"
                | b"module" | b"const" | b"let" | b"var"),
            ) => {
                if keyword.is_some() && !(keyword == Some(b"const") && word == b"enum") {
                    return false;
                }
                keyword = Some(word);
            }
            _ => return script_member_assignment(site),
        }
    }
    let after = trim_start(site.after());
    match keyword {
        Some(b"type") => matches!(after.first(), Some(b'=' | b'<')),
        Some(b"const" | b"let" | b"var") => {
            after.is_empty()
                || (matches!(after[0], b'=' | b':' | b';' | b',' | b'!')
                    && !after.starts_with(b"=="))
        }
        Some(_) => true,
        None if exported => false,
        None => script_member(site, modifiers),
    }
}

/// A class or object member with no declaration keyword; `modifiers`
/// counts the modifier words (and `*`) before the name.
fn script_member(site: &Site, modifiers: usize) -> bool {
    if is_reserved(site.name()) {
        return false;
    }
    let declared = modifiers > 0;
    let mut a = Cursor::new(site.after());
    // TypeScript optional and definite members: `NAME?(`, `NAME?:`, `NAME!:`.
    if matches!(a.peek(), Some(b'?' | b'!')) && matches!(a.peek_second(), Some(b'(' | b':')) {
        a.bump();
    }
    if a.group(b'<', b'>') == Group::Open {
        return false;
    }
    match a.peek() {
        Some(b'(') => match a.group(b'(', b')') {
            Group::Closed => {
                let rest = a.rest();
                declared || rest.starts_with(b"{") || rest.starts_with(b":")
            }
            _ => declared,
        },
        Some(b'=') => {
            a.bump();
            if matches!(a.rest_raw().first(), Some(b'=' | b'>')) {
                return false;
            }
            declared || function_value(a.rest())
        }
        Some(b':') => {
            a.bump();
            declared || function_value(a.rest())
        }
        Some(b';') | None => declared,
        _ => false,
    }
}

/// `exports.NAME = ...`, `module.exports.NAME = ...`, and
/// `Foo.prototype.NAME = function` (any dotted target if the value is a
/// function).
fn script_member_assignment(site: &Site) -> bool {
    let before = site.before();
    if !before.ends_with(b".")
        || !before.iter().all(|&b| is_ident_byte(b) || b == b'.')
        || !before.first().is_some_and(|&b| is_ident_byte(b))
    {
        return false;
    }
    let Some(value) = assigned_value(site.after()) else {
        return false;
    };
    before == b"exports." || before == b"module.exports." || function_value(value)
}

/// True when `value` (the text after `=` or `:`) starts a function:
/// `function`, `async`, `(params) =>`, `(params): T =>`, `x =>`, `<T>(`.
/// Parameters that do not close on the line count, since an assignment of
/// a parenthesised expression split over lines is rarer than long
/// parameter lists.
fn function_value(value: &[u8]) -> bool {
    let mut c = Cursor::new(value);
    c.eat_word(b"async");
    if c.eat_word(b"function") {
        return true;
    }
    if c.group(b'<', b'>') == Group::Open {
        return false;
    }
    match c.peek() {
        Some(b'(') => match c.group(b'(', b')') {
            Group::Closed => c.eat(b"=>") || (c.eat(b":") && find_short(c.rest(), b"=>").is_some()),
            Group::Open => true,
            Group::Absent => false,
        },
        Some(b) if is_ident_start(b) => {
            c.word();
            c.eat(b"=>")
        }
        _ => false,
    }
}

// ---------------------------------------------------------------------------
// Go

/// Go: `func NAME`, methods `func (r *T) NAME`, `type NAME`, `var NAME`,
/// `const NAME`, and, because the entries of `const (`, `var (` and `type (`
/// blocks and struct fields carry no keyword, an indented line that starts
/// with the name followed by `=`, a type (` T`, ` *T`, ` []T`), or a
/// parameter list and a result (an interface method). Not: `NAME := ...`
/// (a local), calls `NAME(x)`, `NAME.x = 1`, `NAME[i] = x`. Known false
/// positive: a reassignment `\tNAME = x` in a function body.
fn go(site: &Site) -> bool {
    let mut c = Cursor::new(site.before());
    if c.at_end() {
        return !site.at_column_zero() && go_block_entry(site);
    }
    match c.word() {
        Some(b"func") => c.group(b'(', b')') != Group::Open && c.at_end(),
        Some(b"type" | b"var" | b"const") => c.at_end(),
        _ => false,
    }
}

fn go_block_entry(site: &Site) -> bool {
    if is_reserved(site.name()) {
        return false;
    }
    let after = site.after();
    let spaced = after.first().is_some_and(|&b| is_blank(b));
    let mut a = Cursor::new(after);
    match a.peek() {
        Some(b'=') => a.peek_second() != Some(b'='),
        Some(b'*' | b'[') => spaced,
        Some(b) if is_ident_start(b) => true,
        Some(b'(') => {
            a.group(b'(', b')') == Group::Closed
                && a.peek()
                    .is_some_and(|b| is_ident_start(b) || matches!(b, b'(' | b'*' | b'['))
        }
        _ => false,
    }
}

// ---------------------------------------------------------------------------
// Java, Kotlin, C#

/// Modifiers of Java, Kotlin and C# declarations (the union: a word that is
/// a modifier in one language is rarely an identifier in the others).
#[rustfmt::skip]
fn is_managed_modifier(word: &[u8]) -> bool {
    matches!(
        word,
        b"public" | b"private" | b"protected" | b"internal" | b"static" | b"abstract"
        | b"sealed" | b"open" | b"data" | b"annotation" | b"inline" | b"value" | b"inner"
        | b"companion" | b"override" | b"suspend" | b"operator" | b"infix" | b"tailrec"
        | b"external" | b"const" | b"lateinit" | b"expect" | b"actual" | b"default"
        | b"synchronized" | b"native" | b"strictfp" | b"transient" | b"volatile" | b"readonly"
        | b"virtual" | b"async" | b"unsafe" | b"extern" | b"partial" | b"required"
        | b"delegate" | b"event" | b"ref" | b"implicit" | b"explicit"
    )
}

/// Java, Kotlin and C#:
/// - after annotations (`@Override`, `@Get("/x")`), C# attributes
///   (`[HttpGet]`) and modifiers: `class`, `interface`, `@interface`,
///   `enum`, `record`, `struct`, `object`, `namespace`, and Kotlin `fun`,
///   `val`, `var`, `typealias`, including generic and extension forms
///   (`fun <T> List<T>.NAME`);
/// - Java and C# members without a keyword: a return type then
///   `NAME(` or `NAME<T>(` is a method (abstract and interface methods
///   ending in `;` included); modifiers then `NAME(` is a constructor; a
///   type then `NAME {` or `NAME =>` is a C# property; modifiers (other
///   than a lone `final`), a type, then `NAME =`/`;`/`,` is a field.
///
/// Not: calls and `return`/`new`/`throw` forms, member access
/// (`foo.NAME(x)`), locals (`Foo NAME = ...`, `var NAME = ...`; but Kotlin
/// `val`/`var` count at any indentation, and so do Kotlin primary-constructor
/// properties `class User(val NAME: T)`), `NAME x = ...` (a local of type
/// NAME), enum constants (`NAME("x"),`: indistinguishable from arguments).
fn managed(lang: Lang, site: &Site) -> bool {
    if lang == Lang::Kotlin && kotlin_constructor_property(site) {
        return true;
    }
    let mut c = Cursor::new(site.before());
    let mut declared = false;
    let mut keyword: Option<&[u8]> = None;
    loop {
        match c.peek() {
            None => break,
            Some(b'@') => {
                c.bump();
                match c.word_touching() {
                    Some(b"interface") => keyword = Some(b"interface"),
                    Some(_) => {
                        while c.peek_raw() == Some(b'.') {
                            c.bump();
                            if c.word_touching().is_none() {
                                return false;
                            }
                        }
                        if c.peek_raw() == Some(b'(') && c.group(b'(', b')') != Group::Closed {
                            return false;
                        }
                    }
                    None => return false,
                }
                continue;
            }
            Some(b'[') if lang == Lang::CSharp && keyword.is_none() => {
                if c.group(b'[', b']') != Group::Closed {
                    return false;
                }
                continue;
            }
            _ => {}
        }
        let save = c;
        match c.word() {
            Some(word) if is_managed_keyword(lang, word) => keyword = Some(word),
            Some(word) if keyword.is_none() && is_managed_modifier(word) => {
                declared = true;
            }
            Some(b"final") if keyword.is_none() => {}
            _ => {
                c = save;
                break;
            }
        }
    }
    match keyword {
        Some(b"fun" | b"val" | b"var") => {
            c.group(b'<', b'>') != Group::Open && is_receiver_prefix(c.rest())
        }
        Some(b"namespace") => is_receiver_prefix(c.rest()),
        Some(_) => c.at_end(),
        None if lang == Lang::Kotlin => false,
        None => managed_member(lang, site, c, declared),
    }
}

/// A Kotlin primary-constructor property: `class User(val id: Long,
/// private var NAME: String)`, the `val`/`var` right after a `(` or `,`.
fn kotlin_constructor_property(site: &Site) -> bool {
    let before = site.before();
    let Some(open) = before.iter().rposition(|&b| b == b'(' || b == b',') else {
        return false;
    };
    let mut c = Cursor::new(&before[open + 1..]);
    let mut last: &[u8] = b"";
    while !c.at_end() {
        match c.word() {
            Some(word) if is_managed_modifier(word) || word == b"val" || word == b"var" => {
                last = word;
            }
            _ => return false,
        }
    }
    last == b"val" || last == b"var"
}

fn is_managed_keyword(lang: Lang, word: &[u8]) -> bool {
    match word {
        b"class" | b"interface" | b"enum" => true,
        b"record" => lang != Lang::Kotlin,
        b"struct" | b"namespace" => lang == Lang::CSharp,
        b"object" | b"fun" | b"val" | b"var" | b"typealias" => lang == Lang::Kotlin,
        _ => false,
    }
}

/// A Java or C# member without a declaration keyword; `c` stands after
/// the annotations and modifiers, `declared` says whether there were
/// modifiers other than `final`.
fn managed_member(lang: Lang, site: &Site, mut c: Cursor, declared: bool) -> bool {
    if is_reserved(site.name()) {
        return false;
    }
    // Generic method type parameters: `public static <T> T NAME(`.
    if c.group(b'<', b'>') == Group::Open {
        return false;
    }
    let typed = !c.at_end();
    if typed && !(skip_managed_type(lang, &mut c) && c.at_end()) {
        return false;
    }
    let mut a = Cursor::new(site.after());
    if a.group(b'<', b'>') == Group::Open {
        return false;
    }
    match a.peek() {
        Some(b'(') => typed || declared,
        Some(b'{') => typed && lang == Lang::CSharp,
        Some(b'=') => match a.peek_second() {
            Some(b'>') => typed && lang == Lang::CSharp,
            Some(b'=') => false,
            _ => typed && declared,
        },
        Some(b';' | b',') => typed && declared,
        _ => false,
    }
}

/// Skips a Java or C# type: `int`, `a.b.Foo`, `List<Map<K, V>>`, `int[]`,
/// `int?`, C# tuples `(int, string)`. False when the words are not a type
/// (`return`, `new`, `foo.` with nothing after the dot).
fn skip_managed_type(lang: Lang, c: &mut Cursor) -> bool {
    if lang == Lang::CSharp && c.peek() == Some(b'(') {
        if c.group(b'(', b')') != Group::Closed {
            return false;
        }
    } else {
        match c.word() {
            Some(word) if !is_reserved(word) => {}
            _ => return false,
        }
    }
    loop {
        match c.peek_raw() {
            Some(b'.') => {
                c.bump();
                if c.word_touching().is_none() {
                    return false;
                }
            }
            Some(b'<') => {
                if c.group(b'<', b'>') != Group::Closed {
                    return false;
                }
            }
            Some(b'[') => {
                if c.group(b'[', b']') != Group::Closed {
                    return false;
                }
            }
            Some(b'?' | b'*') => c.bump(),
            _ => return true,
        }
    }
}

/// True when `s` is empty or a receiver type or qualifier ending in `.`
/// (Kotlin `List<T>.`, `Foo?.`, C# `Company.Product.`).
fn is_receiver_prefix(s: &[u8]) -> bool {
    let s = trim_end(s);
    s.is_empty()
        || (s.ends_with(b".")
            && s.iter().all(|&b| {
                is_word_byte(b) || matches!(b, b'.' | b'<' | b'>' | b',' | b'?' | b'*' | b' ')
            }))
}

// ---------------------------------------------------------------------------
// C and C++

/// Words that cannot be (part of) a C or C++ return type; seeing one
/// before the name means the name is used, not defined.
#[rustfmt::skip]
fn is_c_not_type(word: &[u8]) -> bool {
    matches!(
        word,
        b"return" | b"else" | b"case" | b"goto" | b"new" | b"delete" | b"throw" | b"sizeof"
        | b"typedef" | b"using" | b"namespace" | b"co_return" | b"co_await" | b"co_yield"
        | b"if" | b"while" | b"for" | b"switch" | b"do" | b"alignof" | b"typeid"
        | b"static_assert" | b"operator" | b"default"
    )
}

/// C and C++ (one rule set: C++ accepts C):
/// - `#define NAME` (also `#  define`);
/// - `struct`/`class`/`union`/`enum` (`enum class`) `NAME` followed by
///   `{`, `:`, `final` or the end of the line (brace on the next line),
///   with export macros or attributes allowed before the name
///   (`class Q_CORE_EXPORT NAME`). A forward declaration `struct NAME;` and
///   a use `struct NAME *p;` are not definitions;
/// - `typedef ... NAME;` (also `NAME[...]` and function pointers
///   `(*NAME)(`), `} NAME;` closing a typedef'd struct, `using NAME =`,
///   `namespace NAME`, `concept NAME`;
/// - functions: a return type (after `static`, `inline`, `template<...>`,
///   attributes, macros), then `NAME(`, optionally qualified
///   (`Foo::NAME`, `Foo<T>::~Foo`), whose parameter list either does not
///   close on the line or is followed by `{`, a constructor initialiser
///   `:`, `->`, qualifiers (`const`, `override`, ...) or nothing. At column
///   0 the return type may be on the previous line (`NAME(args)` K&R/GNU
///   style), and a qualified name needs no type (`Foo::Foo(`);
/// - at column 0, a type then `NAME =`/`[`/`;` (a global variable, such
///   as `static const struct file_operations NAME = {`), except `extern`;
/// - an indented `NAME = value,` (an enumerator).
///
/// Not: prototypes and in-class declarations ending in `;` (declarations,
/// not definitions: the ranker wants the body), calls, `return NAME(x)`,
/// `x = NAME(y)`, `if (NAME(x))`, `obj.NAME(`, `p->NAME(`, locals,
/// enumerators without a value (`NAME,` is indistinguishable from an
/// argument), function-like macro invocations at file scope.
fn c_family(site: &Site) -> bool {
    if site.line[site.indent] == b'#' {
        let mut c = Cursor::new(&site.line[site.indent + 1..site.start]);
        return c.eat_word(b"define") && c.at_end();
    }
    let before = site.before();
    let after = trim_start(site.after());
    let mut c = Cursor::new(before);
    if c.eat(b"}") {
        return c.at_end() && matches!(after.first(), Some(b';' | b','));
    }
    skip_c_attributes(&mut c);
    let typedef = c.eat_word(b"typedef");
    if typedef
        && matches!(after.first(), Some(b';' | b'[' | b')' | b','))
        && (!before.contains(&b'{') || trim_end(before).ends_with(b"}"))
    {
        return true;
    }
    let save = c;
    match c.word() {
        Some(b"struct" | b"class" | b"union" | b"enum") => {
            let _ = c.eat_word(b"class") || c.eat_word(b"struct");
            loop {
                if skip_c_attributes(&mut c) {
                    continue;
                }
                let word = c;
                match c.word() {
                    Some(w) if is_macro_name(w) => {}
                    _ => {
                        c = word;
                        break;
                    }
                }
            }
            let (rest, _) = strip_qualifier(c.rest(), b"::");
            if trim_end(rest).is_empty() {
                return after.is_empty()
                    || after[0] == b'{'
                    || (after[0] == b':' && after.get(1) != Some(&b':'))
                    || starts_with_word(after, b"final");
            }
        }
        Some(b"namespace") => {
            let (rest, _) = strip_qualifier(c.rest(), b"::");
            return trim_end(rest).is_empty()
                && (after.is_empty() || matches!(after[0], b'{' | b'='));
        }
        Some(b"inline") if c.eat_word(b"namespace") => {
            return c.at_end() && (after.is_empty() || after[0] == b'{');
        }
        Some(b"using") => return c.at_end() && assigned_value(site.after()).is_some(),
        Some(b"concept") => return c.at_end(),
        _ => {}
    }
    c = save;
    if typedef {
        return false;
    }
    if before.is_empty() && !site.at_column_zero() {
        // An enumerator with a value: `    NAME = 1 << 3,`.
        return assigned_value(site.after()).is_some()
            && trim_end(site.line).ends_with(b",")
            && !is_reserved(site.name());
    }
    c_function_or_variable(site, c)
}

/// The function and global-variable rules of [`c_family`]; `c` stands
/// after leading attributes.
fn c_function_or_variable(site: &Site, mut c: Cursor) -> bool {
    if is_reserved(site.name()) || is_c_not_type(site.name()) {
        return false;
    }
    let mut prefix = trim_end(c.rest());
    let mut type_words = 0;
    if let Some(p) = prefix.strip_suffix(b"~") {
        // A destructor: `~Foo(` or `Foo::~Foo(`.
        prefix = trim_end(p);
        type_words += 1;
    }
    let (prefix, qualified) = strip_qualifier(prefix, b"::");
    let mut t = Cursor::new(prefix);
    let mut external = false;
    while !t.at_end() {
        if skip_c_attributes(&mut t) {
            continue;
        }
        match t.peek() {
            Some(b'*' | b'&') => t.bump(),
            Some(b'<') => {
                if t.group(b'<', b'>') != Group::Closed {
                    return false;
                }
            }
            Some(b':') => {
                if !t.eat(b"::") {
                    return false;
                }
            }
            Some(b'"') => {
                if !t.skip_string() {
                    return false;
                }
            }
            Some(_) => match t.word() {
                Some(word) if !is_c_not_type(word) => {
                    external |= word == b"extern";
                    type_words += 1;
                    // A macro with arguments in the prefix: `EXPORT(x) int f(`.
                    if is_macro_name(word)
                        && t.peek() == Some(b'(')
                        && t.group(b'(', b')') != Group::Closed
                    {
                        return false;
                    }
                }
                _ => return false,
            },
            None => break,
        }
    }
    let at_zero = site.at_column_zero();
    let mut a = Cursor::new(site.after());
    match a.group(b'(', b')') {
        Group::Closed => (type_words > 0 || at_zero) && c_after_parameters(a.rest()),
        Group::Open => type_words > 0 || at_zero,
        Group::Absent => {
            let after = a.rest();
            at_zero
                && type_words > 0
                && !external
                && !qualified
                && (assigned_value(after).is_some() || matches!(after.first(), Some(b'[' | b';')))
        }
    }
}

/// True when what follows a C function's closed parameter list makes it a
/// definition: nothing (the body is on the next line), `{`, a constructor
/// initialiser, a trailing return type, or qualifiers; never a `;`.
fn c_after_parameters(rest: &[u8]) -> bool {
    let rest = match find_short(rest, b"//").or_else(|| find_short(rest, b"/*")) {
        Some(i) => trim_end(&rest[..i]),
        None => trim_end(rest),
    };
    if rest.ends_with(b";") {
        return false;
    }
    match rest.first() {
        None | Some(b'{') => true,
        Some(b':') => rest.get(1) != Some(&b':'),
        Some(b'-') => rest.get(1) == Some(&b'>'),
        Some(&b) => is_ident_start(b),
    }
}

/// Skips one `[[...]]`, `__attribute__((...))`, `__declspec(...)` or
/// `alignas(...)`, or a `template <...>` head; true when something was
/// skipped.
fn skip_c_attributes(c: &mut Cursor) -> bool {
    let save = *c;
    if c.peek() == Some(b'[') && c.peek_second() == Some(b'[') {
        if c.group(b'[', b']') == Group::Closed {
            return true;
        }
    } else if let Some(word) = c.word() {
        let skipped = match word {
            b"__attribute__" | b"__attribute" | b"__declspec" | b"alignas" => {
                c.group(b'(', b')') == Group::Closed
            }
            b"template" => c.group(b'<', b'>') == Group::Closed,
            _ => false,
        };
        if skipped {
            return true;
        }
    }
    *c = save;
    false
}

/// True for an all-capitals identifier with at least two letters, the
/// usual spelling of export and calling-convention macros.
fn is_macro_name(word: &[u8]) -> bool {
    word.len() >= 2
        && word
            .iter()
            .all(|&b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        && word.iter().filter(|b| b.is_ascii_uppercase()).count() >= 2
}

// ---------------------------------------------------------------------------
// PHP

/// PHP: `function NAME` (also `function &NAME`) after `public`, `private`,
/// `protected`, `static`, `abstract`, `final`, `readonly`; `class`,
/// `interface`, `trait`, `enum`, `const NAME`; `define('NAME', ...)`.
/// Not: calls, `$this->NAME(`, `new NAME`, `NAME::x`, typed class
/// constants (`const string NAME`, not handled).
fn php(site: &Site) -> bool {
    let mut c = Cursor::new(site.before());
    let mut keyword: Option<&[u8]> = None;
    while !c.at_end() {
        if keyword == Some(b"function") && c.eat(b"&") {
            continue;
        }
        match c.word() {
            Some(
                b"public" | b"private" | b"protected" | b"static" | b"abstract" | b"final"
                | b"readonly",
            ) if keyword.is_none() => {}
            Some(
                word @ (b"function" | b"class" | b"interface" | b"trait" | b"enum" | b"const"),
            ) if keyword.is_none() => {
                keyword = Some(word);
            }
            Some(b"define") if keyword.is_none() => {
                if !c.eat(b"(") {
                    return false;
                }
                let Some(quote) = c.peek().filter(|&q| q == b'\'' || q == b'"') else {
                    return false;
                };
                c.bump();
                return c.rest_raw().is_empty() && site.after().first() == Some(&quote);
            }
            _ => return false,
        }
    }
    keyword.is_some()
}

// ---------------------------------------------------------------------------
// Ruby

/// Ruby: `def NAME` (also `def self.NAME`, `def Foo.NAME`, `def NAME=`,
/// after `private`/`protected`/`public`/`module_function`), `class` and
/// `module` (also `Foo::NAME`), constants `NAME = ...` (capitalised names
/// only: lower-case ones are locals), `alias NAME`, `attr_accessor`/
/// `attr_reader`/`attr_writer`/`attr :a, :NAME`, and the Rails macros that
/// define a method named by their first symbol (`scope :NAME`,
/// `has_many :NAME`, `belongs_to`, `has_one`, `define_method(:NAME`,
/// `alias_method :NAME`, `delegate`). Not: `def NAME?`/`def NAME!` (other
/// methods), calls, `@NAME = `, `self.NAME = `.
fn ruby(site: &Site) -> bool {
    let mut c = Cursor::new(site.before());
    if c.at_end() {
        return site.name()[0].is_ascii_uppercase() && assigned_value(site.after()).is_some();
    }
    loop {
        let Some(word) = c.word() else {
            return false;
        };
        match word {
            b"private"
            | b"protected"
            | b"public"
            | b"module_function"
            | b"private_class_method"
            | b"public_class_method" => {}
            b"def" => {
                let receiver = c.rest();
                return (receiver.is_empty()
                    || (receiver.ends_with(b".")
                        && receiver.iter().all(|&b| is_word_byte(b) || b == b'.')))
                    && !matches!(site.after().first(), Some(b'?' | b'!'));
            }
            b"class" | b"module" => return trim_end(strip_qualifier(c.rest(), b"::").0).is_empty(),
            b"alias" => {
                c.eat(b":");
                return c.rest_raw().is_empty();
            }
            b"attr_accessor" | b"attr_reader" | b"attr_writer" | b"attr" => loop {
                c.eat(b"(");
                if !c.eat(b":") {
                    return false;
                }
                if c.rest_raw().is_empty() {
                    return true;
                }
                if c.word_touching().is_none() || !c.eat(b",") {
                    return false;
                }
            },
            b"define_method"
            | b"alias_method"
            | b"scope"
            | b"has_many"
            | b"has_one"
            | b"belongs_to"
            | b"has_and_belongs_to_many"
            | b"delegate" => {
                c.eat(b"(");
                return c.eat(b":") && c.rest_raw().is_empty();
            }
            _ => return false,
        }
    }
}

// ---------------------------------------------------------------------------
// Lua, Luau

/// Lua and Luau: `function NAME`, `local function NAME`, `function M.NAME`,
/// `function M:NAME` (any dotted path), `local NAME` (also
/// `local a, NAME = ...`, `local NAME: T`, `local NAME <const>`),
/// `NAME = function` and `M.NAME = function` at any indentation (table
/// fields), `NAME = ...` and `M.NAME = ...` with any value at column 0
/// (globals and module fields), Luau `type NAME =`/`export type NAME<T> =`.
/// Not: calls, `M.NAME(x)`, `obj:NAME()`, `local x = NAME(y)`,
/// `return NAME`, `NAME == x`, an indented `self.NAME = value` that is not
/// a function.
fn lua(lang: Lang, site: &Site) -> bool {
    let mut c = Cursor::new(site.before());
    let after = site.after();
    if c.at_end() {
        return lua_assignment(site, after);
    }
    match c.word() {
        Some(b"local") => {
            if c.eat_word(b"function") {
                return c.at_end();
            }
            while !c.at_end() {
                if c.word().is_none() || !c.eat(b",") {
                    return false;
                }
            }
            let a = trim_start(after);
            a.is_empty() || matches!(a[0], b',' | b':' | b'<') || assigned_value(after).is_some()
        }
        Some(b"function") => {
            let path = c.rest();
            path.is_empty() || is_lua_path(path, true)
        }
        Some(b"type") if lang == Lang::Luau => c.at_end() && luau_type_follows(after),
        Some(b"export") if lang == Lang::Luau => {
            c.eat_word(b"type") && c.at_end() && luau_type_follows(after)
        }
        _ => is_lua_path(site.before(), false) && lua_assignment(site, after),
    }
}

fn lua_assignment(site: &Site, after: &[u8]) -> bool {
    match assigned_value(after) {
        Some(value) => site.at_column_zero() || starts_with_word(trim_start(value), b"function"),
        None => false,
    }
}

fn luau_type_follows(after: &[u8]) -> bool {
    matches!(trim_start(after).first(), Some(b'=' | b'<'))
}

/// True for `M.`, `a.b.`, and (with `method`) `M:`, `a.b:`: a table path
/// that ends right before a name.
fn is_lua_path(s: &[u8], method: bool) -> bool {
    let Some(&last) = s.last() else {
        return false;
    };
    (last == b'.' || (method && last == b':'))
        && s.first().is_some_and(|&b| is_ident_start(b))
        && s.iter()
            .all(|&b| is_word_byte(b) || b == b'.' || (method && b == b':'))
}

// ---------------------------------------------------------------------------
// Swift

/// Swift declaration modifiers (`class` is handled apart: it is also a
/// keyword).
#[rustfmt::skip]
fn is_swift_modifier(word: &[u8]) -> bool {
    matches!(
        word,
        b"public" | b"private" | b"fileprivate" | b"internal" | b"open" | b"package"
        | b"static" | b"final" | b"override" | b"mutating" | b"nonmutating" | b"lazy"
        | b"weak" | b"unowned" | b"convenience" | b"required" | b"dynamic" | b"indirect"
        | b"nonisolated" | b"async" | b"optional" | b"distributed"
    )
}

/// Keywords that introduce the name of a Swift declaration.
#[rustfmt::skip]
fn is_swift_keyword(word: &[u8]) -> bool {
    matches!(
        word,
        b"func" | b"class" | b"struct" | b"enum" | b"protocol" | b"actor" | b"extension"
        | b"typealias" | b"associatedtype" | b"let" | b"var" | b"macro" | b"precedencegroup"
    )
}

/// Swift:
/// - after attributes (`@inlinable`, `@objc(name:)`, `@available(...)`)
///   and modifiers (`public`, `private(set)`, `static`, `override`,
///   `nonisolated(unsafe)`, ..., and `class` in `class func`): `func`,
///   `class`, `struct`, `enum`, `protocol`, `actor`, `typealias`,
///   `associatedtype`, `macro`, `precedencegroup`, `extension` (also
///   `extension Module.NAME`, the last segment), and `let`/`var NAME`
///   followed by `:`, `=`, `,` or the end of the line, at any indentation
///   (properties are definitions; the parser tells locals apart);
/// - `init(`, `init?(`, `init!(`, `init<T>(` after nothing but modifiers;
/// - enum cases: `case NAME`, `case a, NAME`, `case NAME(Int)`,
///   `case NAME = "raw"`.
///
/// Not: `let x = NAME(...)`, `NAME.foo`, `self.init(`, parameters
/// (`func f(NAME: Int)`), `if let`/`guard let`/`for` bindings, switch
/// cases (`case .NAME:`, `case NAME:`, `case let NAME:`: a line ending in
/// `:`, or a `:` after the name, is a pattern), tuple bindings
/// (`let (a, NAME) = ...`), `deinit`, `subscript`, operators.
fn swift(site: &Site) -> bool {
    let mut c = Cursor::new(site.before());
    let mut keyword: Option<&[u8]> = None;
    while !c.at_end() {
        if keyword == Some(b"extension") {
            // `extension Module.Type`: the extended type is the last segment.
            let (rest, _) = strip_qualifier(c.rest(), b".");
            if !trim_end(rest).is_empty() {
                return false;
            }
            break;
        }
        if keyword.is_none() && c.peek() == Some(b'@') {
            if !skip_annotation(&mut c) {
                return false;
            }
            continue;
        }
        let Some(word) = c.word() else {
            return false;
        };
        match keyword {
            None if word == b"case" => return swift_enum_case(c, site),
            None if is_swift_modifier(word) => {
                // `private(set)`, `unowned(unsafe)`.
                if c.peek_raw() == Some(b'(') && c.group(b'(', b')') != Group::Closed {
                    return false;
                }
            }
            // `class func`, `class var`: there `class` is a modifier.
            None | Some(b"class") if is_swift_keyword(word) => keyword = Some(word),
            _ => return false,
        }
    }
    let after = trim_start(site.after());
    match keyword {
        Some(b"let" | b"var") => {
            after.is_empty()
                || matches!(after[0], b':' | b',')
                || after.starts_with(b"//")
                || assigned_value(after).is_some()
        }
        Some(b"extension") => site.after().first() != Some(&b'.'),
        Some(_) => true,
        None => site.name() == b"init" && swift_initializer_follows(site.after()),
    }
}

/// True when `after` (the text after `init`) opens an initializer's
/// parameters: `(`, `?(`, `!(`, `<T>(`.
fn swift_initializer_follows(after: &[u8]) -> bool {
    let after = match after.first() {
        Some(b'?' | b'!') => &after[1..],
        _ => after,
    };
    matches!(after.first(), Some(b'(' | b'<'))
}

/// The rest of a Swift `case` line, `c` standing after `case`: before the
/// name, earlier cases of a list (`case a, b(Int), NAME`); after it, an
/// optional associated-value list, then nothing, a comment, a raw value
/// `= ...`, or `,` and more cases.
fn swift_enum_case(mut c: Cursor, site: &Site) -> bool {
    if trim_end(site.line).ends_with(b":") {
        return false;
    }
    while !c.at_end() {
        if c.word().is_none() || c.group(b'(', b')') == Group::Open || !c.eat(b",") {
            return false;
        }
    }
    let mut a = Cursor::new(site.after());
    loop {
        if a.group(b'(', b')') == Group::Open {
            return false;
        }
        let rest = a.rest();
        if rest.is_empty() || rest.starts_with(b"//") || assigned_value(rest).is_some() {
            return true;
        }
        if !a.eat(b",") || a.word().is_none() {
            return false;
        }
    }
}

// ---------------------------------------------------------------------------
// Scala

/// Scala modifiers (`case` is handled apart: it also starts enum cases).
#[rustfmt::skip]
fn is_scala_modifier(word: &[u8]) -> bool {
    matches!(
        word,
        b"private" | b"protected" | b"override" | b"final" | b"sealed" | b"abstract"
        | b"implicit" | b"lazy" | b"inline" | b"opaque" | b"open" | b"transparent" | b"infix"
    )
}

/// Scala 2 and 3:
/// - after annotations (`@tailrec`, `@deprecated("x", "2.0")`), modifiers
///   (`private[pkg]`, `final`, `implicit`, `lazy`, ...) and Scala 3
///   `extension (x: T)` clauses: `def`, `class`, `trait`, `object`,
///   `type`, `enum`, `case class`, `case object`, `package object`, named
///   givens (`given NAME: T`, `given NAME[T](using ...): T`), and
///   `val`/`var NAME` followed by `:`, `=`, `,` or the end of the line, at
///   any indentation (as Kotlin's `val`);
/// - Scala 3 enum cases: `case NAME`, `case A, NAME`, `case NAME(x: T)`,
///   `case NAME[T](x: T) extends E[T]`, followed by nothing, a comment,
///   `extends`, or `,` and more cases.
///
/// Not: match cases (`case NAME =>`, `case NAME(x) =>`, `case NAME if`,
/// `case x: T =>`: a pattern has `=>` or `:` after it), anonymous givens
/// (`given Ord[Int] with`), `new NAME`, `extends NAME`, `val x = NAME`,
/// patterns (`val Some(NAME) = ...`), constructor parameters
/// (`class C(val NAME: T)`, not handled), and package clauses
/// (`package a.b.NAME`): a file's header naming the package it belongs
/// to, repeated in every file of the package, as Java's, Kotlin's and
/// Go's are, whose rules do not count them either.
fn scala(site: &Site) -> bool {
    let mut c = Cursor::new(site.before());
    let mut keyword: Option<&[u8]> = None;
    while !c.at_end() {
        if keyword.is_none() && c.peek() == Some(b'@') {
            if !skip_annotation(&mut c) {
                return false;
            }
            continue;
        }
        let Some(word) = c.word() else {
            return false;
        };
        if keyword.is_some() {
            return false;
        }
        match word {
            b"case" => {
                if !(c.eat_word(b"class") || c.eat_word(b"object")) {
                    return scala_enum_case(c, site);
                }
                keyword = Some(word);
            }
            b"package" => {
                if !c.eat_word(b"object") {
                    return false;
                }
                keyword = Some(word);
            }
            b"extension" => {
                if !skip_scala_parameters(&mut c) {
                    return false;
                }
            }
            b"def" | b"val" | b"var" | b"class" | b"trait" | b"object" | b"type" | b"enum"
            | b"given" => keyword = Some(word),
            _ if is_scala_modifier(word) => {
                // `private[pkg]`, `protected[this]`.
                if c.peek_raw() == Some(b'[') && c.group(b'[', b']') != Group::Closed {
                    return false;
                }
            }
            _ => return false,
        }
    }
    let after = trim_start(site.after());
    match keyword {
        Some(b"val" | b"var") => {
            after.is_empty() || matches!(after[0], b':' | b',') || assigned_value(after).is_some()
        }
        Some(b"given") => {
            let mut a = Cursor::new(site.after());
            skip_scala_parameters(&mut a) && a.peek() == Some(b':')
        }
        Some(_) => true,
        None => false,
    }
}

/// The rest of a Scala 3 enum case, `c` standing after `case`: before the
/// name, earlier cases of a list (`case A, B, NAME`); after it, optional
/// type and value parameters, then nothing, a comment, `extends`, or `,`
/// and more cases (never `=>`, which ends a match case's pattern).
fn scala_enum_case(mut c: Cursor, site: &Site) -> bool {
    while !c.at_end() {
        if c.word().is_none() || !c.eat(b",") {
            return false;
        }
    }
    let mut a = Cursor::new(site.after());
    if !skip_scala_parameters(&mut a) {
        return false;
    }
    let rest = a.rest();
    rest.is_empty()
        || rest.starts_with(b"//")
        || starts_with_word(rest, b"extends")
        || (rest.starts_with(b",") && find_short(rest, b"=>").is_none())
}

/// Skips optional Scala type parameters `[...]` and parameter lists
/// `(...)(...)`; false when one does not close on the line.
fn skip_scala_parameters(c: &mut Cursor) -> bool {
    if c.group(b'[', b']') == Group::Open {
        return false;
    }
    while c.peek() == Some(b'(') {
        if c.group(b'(', b')') != Group::Closed {
            return false;
        }
    }
    true
}

// ---------------------------------------------------------------------------
// Elixir

/// Module attributes that Elixir, ExUnit or Mix read: setting one
/// (`@doc "..."`, `@impl true`, `@tag :slow`) uses a known name rather
/// than defining one.
#[rustfmt::skip]
fn is_elixir_reserved_attribute(word: &[u8]) -> bool {
    matches!(
        word,
        b"doc" | b"moduledoc" | b"typedoc" | b"spec" | b"impl" | b"behaviour" | b"behavior"
        | b"derive" | b"deprecated" | b"compile" | b"dialyzer" | b"enforce_keys"
        | b"before_compile" | b"after_compile" | b"after_verify" | b"on_definition"
        | b"on_load" | b"external_resource" | b"optional_callbacks" | b"file" | b"vsn"
        | b"nifs" | b"fallback_to_any" | b"type" | b"typep" | b"opaque" | b"callback"
        | b"macrocallback" | b"tag" | b"moduletag" | b"describetag" | b"shortdoc"
        | b"recursive" | b"preferred_cli_env" | b"requirements"
    )
}

/// Elixir:
/// - `def`, `defp`, `defmacro`, `defmacrop`, `defguard`, `defguardp`,
///   `defdelegate` and Nx's `defn`/`defnp`, then the name followed by
///   `(`, `,` (`def NAME, do: ...`), ` do`, ` when`, bare arguments or
///   nothing;
/// - `defmodule` and `defprotocol`, counting only the last segment of a
///   dotted name (`defmodule A.B.NAME`: `defmodule A.B` does not define
///   `A`, which has its own `defmodule A`);
/// - `defimpl Proto, for: NAME`, which, as Rust's `impl Trait for NAME`,
///   defines the implementing module's behaviour, not the protocol;
/// - `@type`, `@typep`, `@opaque`, `@callback`, `@macrocallback NAME`
///   followed by `(` or `::`;
/// - a module attribute set at the start of a line, `@NAME value`, unless
///   Elixir, ExUnit or Mix reads it (`@doc`, `@spec`, `@impl`, `@tag`...).
///
/// Not: calls, `Foo.NAME`, `&NAME/1`, `@NAME` read in an expression
/// (nothing or an operator after it), `def NAME?`/`def NAME!` (other
/// names), `defstruct`/`defexception` fields, the protocol in
/// `defimpl NAME, for: T`, leading segments of module names,
/// `def unquote(name)(...)`.
fn elixir(site: &Site) -> bool {
    let after = site.after();
    if matches!(after.first(), Some(b'?' | b'!')) {
        return false;
    }
    let mut c = Cursor::new(site.before());
    if c.eat(b"@") {
        if c.at_end() {
            return elixir_attribute(site);
        }
        return matches!(
            c.word_touching(),
            Some(b"type" | b"typep" | b"opaque" | b"callback" | b"macrocallback")
        ) && c.at_end()
            && (after.first() == Some(&b'(') || trim_start(after).starts_with(b"::"));
    }
    match c.word() {
        Some(
            b"def" | b"defp" | b"defmacro" | b"defmacrop" | b"defguard" | b"defguardp"
            | b"defdelegate" | b"defn" | b"defnp",
        ) => c.at_end() && site.name() != b"unquote" && elixir_function_follows(after),
        Some(b"defmodule" | b"defprotocol") => {
            trim_end(strip_qualifier(c.rest(), b".").0).is_empty() && elixir_module_follows(after)
        }
        Some(b"defimpl") => {
            skip_dotted_name(&mut c)
                && c.eat(b",")
                && c.eat_word(b"for")
                && c.eat(b":")
                && trim_end(strip_qualifier(c.rest(), b".").0).is_empty()
                && elixir_module_follows(after)
        }
        _ => false,
    }
}

/// True when `after` (the text after a function's name) continues a
/// function head: `(`, `,`, or a blank then nothing, `,` or a word (`do`,
/// `when`, arguments without parentheses).
fn elixir_function_follows(after: &[u8]) -> bool {
    match after.first() {
        None | Some(b'(' | b',') => true,
        Some(&b) if is_blank(b) => {
            let rest = trim_start(after);
            rest.is_empty() || rest[0] == b',' || is_ident_start(rest[0])
        }
        _ => false,
    }
}

/// True when `after` (the text after a module name) ends the whole name:
/// nothing, `,` (`defmodule NAME, do: ...`) or a blank (` do`). A `.`
/// makes NAME a leading segment.
fn elixir_module_follows(after: &[u8]) -> bool {
    match after.first() {
        None | Some(b',') => true,
        Some(&b) => is_blank(b),
    }
}

/// `@NAME value` at the start of a line: the module attribute NAME set,
/// unless Elixir reads it. A value must follow: `@NAME` alone, or followed
/// by an operator (`@NAME |> f()`, `@NAME in list`), reads the attribute.
fn elixir_attribute(site: &Site) -> bool {
    let after = site.after();
    if is_elixir_reserved_attribute(site.name()) || !after.first().is_some_and(|&b| is_blank(b)) {
        return false;
    }
    let value = trim_start(after);
    match value.first() {
        None => false,
        Some(b'-') => value.get(1).is_some_and(u8::is_ascii_digit),
        Some(b'<') => value.starts_with(b"<<"),
        Some(b':') => value.get(1) != Some(&b':'),
        Some(b'"' | b'\'' | b'[' | b'{' | b'%' | b'~' | b'(' | b'&' | b'@') => true,
        Some(&b) if b.is_ascii_digit() => true,
        Some(&b) if is_ident_start(b) => !matches!(
            Cursor::new(value).word(),
            Some(b"in" | b"and" | b"or" | b"when" | b"not" | b"do" | b"else" | b"end")
        ),
        _ => false,
    }
}

// ---------------------------------------------------------------------------
// Haskell

/// Haskell reserved words: never a defined name.
#[rustfmt::skip]
fn is_haskell_keyword(word: &[u8]) -> bool {
    matches!(
        word,
        b"case" | b"class" | b"data" | b"default" | b"deriving" | b"do" | b"else"
        | b"foreign" | b"if" | b"import" | b"in" | b"infix" | b"infixl" | b"infixr"
        | b"instance" | b"let" | b"module" | b"newtype" | b"of" | b"then" | b"type" | b"where"
    )
}

/// Haskell operator bytes: a `=` or `|` followed by one is part of an
/// operator (`==`, `=>`, `||`, `|>`), not an equation or a guard.
fn is_haskell_symbol(b: u8) -> bool {
    b"!#$%&*+./<=>?@\\^|-~:".contains(&b)
}

/// Haskell, which defines functions without a keyword:
/// - for a lower-case NAME: a type signature `NAME :: T` (also
///   `a, NAME :: T`) at any indentation (top level, class methods,
///   `where` helpers), and an equation `NAME args = ...` or
///   `NAME args | guard = ...` whose arguments are patterns (names,
///   literals, brackets, `x@p`, `!x`, `~x`), at the start of a line
///   (indented ones include `where` and `let`-block locals: the parser
///   tells them apart) or after `where`;
/// - `data`, `newtype`, `type`, `data family`, `type family`, `class`
///   (after a context `C a =>`), `pattern`, `module A.B.NAME` (the last
///   segment), and `instance C NAME`/`instance C (NAME a)`, which, as
///   Rust's `impl Trait for NAME`, defines the instance's type, not the
///   class;
/// - data constructors: `= NAME` or `| NAME` on a `data` line, or on a
///   continuation line that starts with `=` or `|` when what follows reads
///   as fields (types, `{`, `|`, `deriving`), and indented GADT
///   constructors `NAME :: T`; record fields `{ NAME ::` and `, NAME ::`.
///
/// Not: uses in expressions (`x = NAME y`), `import M (NAME)`,
/// `let NAME = ...` on one line (a local, as Rust's `let`), guards
/// (`| Just x <- m = ...`), infix and operator definitions, `NAME'` and
/// `'NAME`/`''NAME` (other names, Template Haskell quotes), equations on
/// lines ending in `,` (record fields being set), `type instance`. Known
/// false positive: a function body that starts a continuation line with a
/// constructor (`  = Foo x`), which reads as a constructor declaration.
fn haskell(site: &Site) -> bool {
    let name = site.name();
    if site.after().first() == Some(&b'\'')
        || (site.start > 0 && site.line[site.start - 1] == b'\'')
        || is_haskell_keyword(name)
    {
        return false;
    }
    let upper = name[0].is_ascii_uppercase();
    let mut c = Cursor::new(site.before());
    let Some(first) = c.word() else {
        return haskell_continuation(site, upper);
    };
    match first {
        b"where" => c.at_end() && !upper && haskell_equation(site),
        b"data" | b"newtype" | b"type" => {
            c.eat_word(b"family");
            if c.at_end() {
                return upper;
            }
            first != b"type" && haskell_data_member(site, upper)
        }
        b"class" | b"instance" => upper && haskell_instance_head(c, first, site),
        b"module" => {
            upper
                && trim_end(strip_qualifier(c.rest(), b".").0).is_empty()
                && site.after().first() != Some(&b'.')
        }
        b"pattern" => upper && c.at_end(),
        _ => !upper && haskell_signature(site),
    }
}

/// A Haskell line whose code before the name does not start with a word:
/// nothing (a signature, an equation, or an indented GADT constructor),
/// or a single `=`, `|`, `{` or `,` (a constructor or a record field on a
/// continuation line of a `data` declaration).
fn haskell_continuation(site: &Site, upper: bool) -> bool {
    let before = trim_end(site.before());
    if !before.is_empty() {
        return before.len() == 1 && haskell_data_member(site, upper);
    }
    if upper {
        !site.at_column_zero() && trim_start(site.after()).starts_with(b"::")
    } else {
        haskell_signature(site) || haskell_equation(site)
    }
}

/// A constructor (`= NAME`, `| NAME`, upper-case) or a record field
/// (`{ NAME ::`, `, NAME ::`, lower-case), from the code just before the
/// name on a `data` or `newtype` line or its continuation.
fn haskell_data_member(site: &Site, upper: bool) -> bool {
    match trim_end(site.before()).last() {
        Some(b'=' | b'|') => upper && haskell_constructor_fields(site.after()),
        Some(b'{' | b',') => !upper && trim_start(site.after()).starts_with(b"::"),
        _ => false,
    }
}

/// True when `after` (the text after a constructor's name) reads as its
/// fields: types (`Int`, `M.T`, `!(Maybe a)`, `[a]`), a record `{ ... }`
/// (which may go on over the next lines), `|` and another constructor,
/// `deriving`, or a comment. Anything else (`=`, `<-`, `$`, an operator)
/// makes the line an expression or a guard.
fn haskell_constructor_fields(after: &[u8]) -> bool {
    let mut a = Cursor::new(after);
    loop {
        match a.peek() {
            None => return true,
            Some(b'-') => return a.rest().starts_with(b"--"),
            Some(b'|') => {
                if a.peek_second().is_some_and(is_haskell_symbol) {
                    return false;
                }
                a.bump();
            }
            Some(b'!' | b'~' | b'\'') => a.bump(),
            Some(open @ (b'(' | b'[' | b'{')) => {
                // A record's fields may go on over the next lines.
                if skip_bracketed(&mut a) != Group::Closed {
                    return open == b'{';
                }
            }
            Some(b) if is_ident_start(b) && b != b'$' => {
                if a.word() == Some(b"deriving") {
                    return true;
                }
                while a.peek_raw() == Some(b'.') {
                    a.bump();
                    if a.word_touching().is_none() {
                        return false;
                    }
                }
            }
            _ => return false,
        }
    }
}

/// `NAME :: T`, or `a, NAME, b :: T`: a type signature naming NAME.
fn haskell_signature(site: &Site) -> bool {
    let mut b = Cursor::new(site.before());
    while !b.at_end() {
        if b.word().is_none() || !b.eat(b",") {
            return false;
        }
    }
    let mut a = Cursor::new(site.after());
    while a.eat(b",") {
        if a.word().is_none() {
            return false;
        }
    }
    a.eat(b"::")
}

/// `NAME args = ...` or `NAME args | guard`: after the name, argument
/// patterns (names, qualified constructors, literals, brackets, `x@p`,
/// `!x`, `~x`) up to a `=` or `|` that does not start an operator.
fn haskell_equation(site: &Site) -> bool {
    if trim_end(site.line).ends_with(b",") {
        return false;
    }
    let mut a = Cursor::new(site.after());
    loop {
        match a.peek() {
            Some(b'=' | b'|') => return !a.peek_second().is_some_and(is_haskell_symbol),
            Some(b'(' | b'[' | b'{') => {
                if skip_bracketed(&mut a) != Group::Closed {
                    return false;
                }
            }
            Some(b'"') => {
                if !a.skip_string() {
                    return false;
                }
            }
            Some(b'!' | b'~' | b'@' | b'\'') => a.bump(),
            Some(b) if is_word_byte(b) && b != b'$' => {
                a.word();
                while a.peek_raw() == Some(b'.') && a.peek_second().is_some_and(is_word_byte) {
                    a.bump();
                    a.word_touching();
                }
            }
            _ => return false,
        }
    }
}

/// After `class` or `instance` (`c` stands after it): an optional context
/// ending in `=>`, then, for `class`, the name; for `instance`, a class
/// (possibly qualified) and the name, bare or opening `(NAME a)`. A name
/// with `=>` after it is part of the context.
fn haskell_instance_head(mut c: Cursor, keyword: &[u8], site: &Site) -> bool {
    if find_short(site.after(), b"=>").is_some() {
        return false;
    }
    let mut head = c.rest();
    while let Some(i) = find_short(head, b"=>") {
        head = &head[i + 2..];
    }
    let mut h = Cursor::new(head);
    if keyword == b"instance" {
        if !skip_dotted_name(&mut h) {
            return false;
        }
        h.eat(b"(");
    }
    h.at_end()
}

// ---------------------------------------------------------------------------
// Zig

/// Zig: `fn NAME` after `pub`, `export`, `extern` (`extern "c"`),
/// `inline`, `noinline`; `const`/`var NAME` followed by `=` or `:` after
/// `pub`, `export`, `extern`, `threadlocal`, `comptime`, at any
/// indentation (container-level declarations and locals look alike),
/// except imports (`const NAME = @import("...")`: as in other languages,
/// an import is not a definition; an alias such as
/// `const assert = std.debug.assert` counts, as JavaScript's does); and a
/// container field with a default value, `NAME: T = value,`, with
/// nothing before the name.
///
/// Not: `NAME(`, `.NAME`, `@NAME`, `const x = NAME`, `test "..."` and
/// `test NAME` (a doctest of the declaration NAME: a use), fields without
/// a default (`NAME: T,` reads exactly like a parameter of a function
/// whose parameters span lines, which zig fmt makes common), enum and
/// union members, labels (`blk: {`).
fn zig(site: &Site) -> bool {
    let mut c = Cursor::new(site.before());
    if c.at_end() {
        let after = site.after();
        return after.first() == Some(&b':')
            && find_short(after, b" = ").is_some()
            && trim_end(site.line).ends_with(b",");
    }
    let mut keyword: Option<&[u8]> = None;
    while !c.at_end() {
        let Some(word) = c.word() else {
            return false;
        };
        if keyword.is_some() {
            return false;
        }
        match word {
            b"pub" | b"export" | b"inline" | b"noinline" | b"threadlocal" | b"comptime" => {}
            b"extern" => {
                if c.peek() == Some(b'"') && !c.skip_string() {
                    return false;
                }
            }
            b"fn" | b"const" | b"var" => keyword = Some(word),
            _ => return false,
        }
    }
    let after = site.after();
    match keyword {
        Some(b"fn") => true,
        Some(_) => match assigned_value(after) {
            Some(value) => !trim_start(value).starts_with(b"@import("),
            None => trim_start(after).starts_with(b":"),
        },
        None => false,
    }
}

// ---------------------------------------------------------------------------
// Bash

/// Bash (and POSIX sh):
/// - `function NAME` (with or without `()`), and `NAME()` or `NAME ()` at
///   the start of a line, whatever the indentation, followed by nothing,
///   `{`, `(` or a comment;
/// - `NAME=value` at column 0 (a global);
/// - `alias NAME=` and `readonly NAME=` anywhere; `export`, `declare` and
///   `typeset NAME=` at column 0, or anywhere with `-g` (inside a
///   function a plain `declare` makes a local), flags allowed
///   (`declare -A NAME=(...)`).
///
/// The assignment forms need the `=` right after the name. Not:
/// `local NAME=`, indented `NAME=value` (a local or a reassignment inside
/// a function or block), `NAME+=`, `export NAME` without a value,
/// `$NAME` and `${NAME}`, calls (`NAME arg`), `echo NAME`. Names with `-`,
/// `:` or `.`, valid for Bash functions, are not identifiers and never
/// asked about.
fn bash(site: &Site) -> bool {
    let before = site.before();
    let after = site.after();
    if before.is_empty() {
        let mut a = Cursor::new(after);
        if a.eat(b"(") && a.eat(b")") {
            return a.at_end() || matches!(a.peek(), Some(b'{' | b'(' | b'#'));
        }
        return site.at_column_zero() && after.first() == Some(&b'=');
    }
    let mut c = Cursor::new(before);
    match c.word() {
        Some(b"function") => {
            c.at_end() && matches!(after.first(), None | Some(b'(' | b'{' | b' ' | b'\t'))
        }
        Some(word @ (b"alias" | b"readonly" | b"export" | b"declare" | b"typeset")) => {
            let mut global = matches!(word, b"alias" | b"readonly") || site.at_column_zero();
            while c.eat(b"-") {
                let Some(flags) = c.word_touching() else {
                    return false;
                };
                global |= word != b"export" && flags.contains(&b'g');
            }
            global && c.at_end() && after.first() == Some(&b'=')
        }
        _ => false,
    }
}

// ---------------------------------------------------------------------------
// Dart

/// Dart reserved words: never a defined name, nor a type.
#[rustfmt::skip]
fn is_dart_reserved(word: &[u8]) -> bool {
    matches!(
        word,
        b"assert" | b"await" | b"break" | b"case" | b"catch" | b"class" | b"const"
        | b"continue" | b"default" | b"do" | b"else" | b"enum" | b"extends" | b"false"
        | b"final" | b"finally" | b"for" | b"if" | b"in" | b"is" | b"new" | b"null"
        | b"rethrow" | b"return" | b"super" | b"switch" | b"this" | b"throw" | b"true"
        | b"try" | b"var" | b"while" | b"with" | b"yield"
    )
}

/// Words that cannot start a Dart type: the reserved words and the
/// built-in and contextual keywords that begin other constructs.
#[rustfmt::skip]
fn is_dart_not_type(word: &[u8]) -> bool {
    is_dart_reserved(word)
        || matches!(
            word,
            b"abstract" | b"as" | b"async" | b"augment" | b"base" | b"covariant" | b"export"
            | b"extension" | b"external" | b"factory" | b"get" | b"hide" | b"implements"
            | b"import" | b"interface" | b"late" | b"library" | b"mixin" | b"on" | b"operator"
            | b"part" | b"required" | b"sealed" | b"set" | b"show" | b"static" | b"sync"
            | b"typedef" | b"when"
        )
}

/// Dart class and member modifiers other than the variable keywords
/// (`final`, `const`, `var`, `late`) and `factory`.
#[rustfmt::skip]
fn is_dart_modifier(word: &[u8]) -> bool {
    matches!(
        word,
        b"abstract" | b"base" | b"interface" | b"sealed" | b"augment" | b"external"
        | b"static" | b"covariant"
    )
}

/// Dart:
/// - after annotations (`@override`, `@Deprecated('x')`) and modifiers:
///   `class` (`abstract interface class`, `sealed class`, `mixin class`,
///   ...), `mixin`, `enum`, `extension NAME`, `extension type NAME`,
///   `typedef NAME` (also the old `typedef void NAME(int x);`);
/// - functions and methods: a return type (`void`, `Future<List<int>>?`,
///   `p.Client`, `(int, String)`, `void Function(int)`) then `NAME(` or
///   `NAME<T>(` whose parameters go on over the next lines or are
///   followed by `{`, `=>`, `async`, `sync*`, `;` (abstract and external
///   members) or nothing; without a return type, a closed parameter list
///   then `{`, `=>` or `async` (`main() {`); getters `TYPE get NAME` and
///   setters `set NAME(`;
/// - constructors at member indentation (column 0, two spaces or a tab,
///   since Dart has no nested classes): an upper-case `NAME(` followed by
///   `{`, `:`, nothing, or `;` when a modifier (`const`) or a `this.`/
///   `super.` parameter shows a declaration; a named constructor
///   `Class.NAME(` likewise (it defines NAME, not the class);
///   `factory NAME(` and `factory Class.NAME(` at any indentation;
/// - variables at member indentation (top-level variables and fields):
///   `final`, `const`, `var` or `late` with or without a type, or a type
///   alone, then `NAME =`, `NAME;` or `NAME, other;`.
///
/// Not: calls (`NAME(x);`, `NAME(() {`, `Class.NAME(x);`),
/// `return`/`await`/`new`/`throw NAME(`, `x = NAME`, `const NAME(`
/// indented deeper than members (a constant expression, such as a Flutter
/// widget), arguments and switch-expression arms (a closed parameter list
/// on a line ending in `,`), parameters, enum values, and variables
/// indented deeper than members (locals). Known false positive: a local
/// of a top-level function, which sits at member indentation.
fn dart(site: &Site) -> bool {
    // `Function` names function types: `void Function(int) f`.
    if is_dart_reserved(site.name()) || site.name() == b"Function" {
        return false;
    }
    let mut c = Cursor::new(site.before());
    // `final`, `const`, `var` or `late` seen.
    let mut variable = false;
    let mut constant = false;
    let mut factory = false;
    // A modifier or an annotation seen, which a call cannot have.
    let mut modified = false;
    loop {
        if c.peek() == Some(b'@') {
            if !skip_annotation(&mut c) {
                return false;
            }
            modified = true;
            continue;
        }
        let save = c;
        match c.word() {
            Some(b"class" | b"enum") => return c.at_end(),
            Some(b"mixin") => {
                if c.at_end() {
                    return true;
                }
                // `mixin class NAME`.
                modified = true;
            }
            Some(b"extension") => {
                // In `extension type NAME`, `type` is not the name.
                return (c.eat_word(b"type") || site.name() != b"type") && c.at_end();
            }
            Some(b"typedef") => return dart_typedef(c, site),
            Some(b"final" | b"var" | b"late") => variable = true,
            Some(b"const") => {
                variable = true;
                constant = true;
            }
            Some(b"factory") => factory = true,
            Some(word) if is_dart_modifier(word) => modified = true,
            _ => {
                c = save;
                break;
            }
        }
    }
    let rest = trim_end(c.rest());
    if let Some(class) = rest.strip_suffix(b".") {
        return (!variable || constant)
            && is_dart_type_name(class)
            && dart_constructor(site, factory, constant || modified);
    }
    let typed = !rest.is_empty() && rest != b"get" && rest != b"set";
    if typed && !skip_dart_type(&mut c) {
        return false;
    }
    let after = site.after();
    if c.eat_word(b"get") {
        let a = trim_start(after);
        return c.at_end()
            && (a.is_empty()
                || matches!(a[0], b'{' | b';')
                || a.starts_with(b"=>")
                || starts_with_word(a, b"async")
                || starts_with_word(a, b"sync"));
    }
    if c.eat_word(b"set") {
        return c.at_end() && trim_start(after).starts_with(b"(");
    }
    if !c.at_end() {
        return false;
    }
    if !matches!(after.first(), Some(b'(' | b'<')) {
        return (variable || typed) && dart_variable(site);
    }
    if !typed && (factory || is_dart_type_name(site.name())) {
        return (!variable || constant) && dart_constructor(site, factory, constant || modified);
    }
    !variable && dart_function(site, typed, modified)
}

/// After `typedef` (`c` stands after it): `typedef NAME = ...` and
/// `typedef NAME<T> = ...`, or the old form with a return type before the
/// name, `typedef void NAME(int x);`.
fn dart_typedef(mut c: Cursor, site: &Site) -> bool {
    if c.at_end() {
        return true;
    }
    skip_dart_type(&mut c) && c.at_end() && matches!(site.after().first(), Some(b'(' | b'<'))
}

/// A Dart constructor's parameters and what follows them. `factory` says
/// the line has the `factory` keyword, a declaration wherever it stands;
/// `declared` says it has another modifier (`const`, `external`, an
/// annotation), which lets a body-less `NAME(...);` count.
fn dart_constructor(site: &Site, factory: bool, declared: bool) -> bool {
    if !factory && !is_dart_member_level(site) {
        return false;
    }
    let after = site.after();
    let mut a = Cursor::new(after);
    match a.group(b'(', b')') {
        Group::Absent => false,
        // Parameters on the next lines: `Foo(` or `Foo({`.
        Group::Open => factory || matches!(trim_end(after), b"(" | b"({"),
        Group::Closed => {
            if trim_end(site.line).ends_with(b",") {
                return false;
            }
            let tail = a.rest();
            match tail.first() {
                None | Some(b'{' | b':') => true,
                // `factory Foo() = _FooImpl;`, `factory Foo() => ...`.
                Some(b'=') => factory,
                Some(b';') => {
                    factory
                        || declared
                        || find_short(after, b"this.").is_some()
                        || find_short(after, b"super.").is_some()
                }
                _ => tail.starts_with(b"//"),
            }
        }
    }
}

/// A Dart function or method: optional type parameters, then parameters
/// followed by a body (`{`, `=>`, `async`, `sync*`); with a return type
/// or a modifier (`typed`, `declared`), also `;` or nothing (abstract and
/// external members, a body on the next line); with a return type or at
/// column 0, parameters that go on over the next lines. A closed
/// parameter list on a line ending in `,` is an argument or a
/// switch-expression arm.
fn dart_function(site: &Site, typed: bool, declared: bool) -> bool {
    let mut a = Cursor::new(site.after());
    if a.group(b'<', b'>') == Group::Open {
        return false;
    }
    match a.group(b'(', b')') {
        Group::Absent => false,
        Group::Open => typed || site.at_column_zero(),
        Group::Closed => {
            if trim_end(site.line).ends_with(b",") {
                return false;
            }
            let tail = a.rest();
            match tail.first() {
                Some(b'{') => true,
                Some(b'=') => tail.get(1) == Some(&b'>'),
                None | Some(b';') => typed || declared,
                _ => {
                    starts_with_word(tail, b"async")
                        || starts_with_word(tail, b"sync")
                        || ((typed || declared) && tail.starts_with(b"//"))
                }
            }
        }
    }
}

/// A Dart variable at member indentation (a top-level variable or a
/// field), its keyword and type already read: `NAME = value`, `NAME;`,
/// `NAME, other;`. A line ending in `,` is a parameter with a default.
fn dart_variable(site: &Site) -> bool {
    let line = trim_end(site.line);
    if !is_dart_member_level(site) || line.ends_with(b",") {
        return false;
    }
    let after = trim_start(site.after());
    assigned_value(after).is_some()
        || after.starts_with(b";")
        || (after.starts_with(b",") && line.ends_with(b";"))
}

/// True when the line is indented as a Dart class member is (`dart
/// format`: two spaces; or one tab) or not at all. Dart has no nested
/// classes, so anything deeper is in a body.
fn is_dart_member_level(site: &Site) -> bool {
    matches!(&site.line[..site.indent], b"" | b"  " | b"\t")
}

/// True for an identifier whose first letter is upper-case (`Foo`,
/// `_Foo`), as class names and so unnamed constructors are.
fn is_dart_type_name(word: &[u8]) -> bool {
    let letters = &word[word.iter().take_while(|&&b| b == b'_').count()..];
    word.iter().all(|&b| is_ident_byte(b)) && letters.first().is_some_and(u8::is_ascii_uppercase)
}

/// Skips a Dart type: `int`, `void`, `p.Client`, `Future<List<int>>?`, a
/// record `(int, String)`, a function type `void Function(int)?`. False
/// when the words are not a type (`return`, `await`, `import`...).
fn skip_dart_type(c: &mut Cursor) -> bool {
    if c.peek() == Some(b'(') {
        if c.group(b'(', b')') != Group::Closed {
            return false;
        }
    } else {
        match c.word() {
            Some(word) if !is_dart_not_type(word) => {}
            _ => return false,
        }
        while c.peek_raw() == Some(b'.') {
            c.bump();
            if c.word_touching().is_none() {
                return false;
            }
        }
        if c.peek_raw() == Some(b'<') && c.group(b'<', b'>') != Group::Closed {
            return false;
        }
    }
    if c.peek_raw() == Some(b'?') {
        c.bump();
    }
    let save = *c;
    if c.word() == Some(b"Function") {
        if c.peek_raw() == Some(b'<') && c.group(b'<', b'>') != Group::Closed {
            return false;
        }
        if c.group(b'(', b')') != Group::Closed {
            return false;
        }
        if c.peek_raw() == Some(b'?') {
            c.bump();
        }
    } else {
        *c = save;
    }
    true
}

// ---------------------------------------------------------------------------
// Shared helpers

/// Words never defined by the keyword-less rules (assignments, members,
/// C functions, Go block entries): `if (x) {` is not a method named `if`.
#[rustfmt::skip]
fn is_reserved(word: &[u8]) -> bool {
    matches!(
        word,
        b"if" | b"else" | b"elif" | b"elsif" | b"for" | b"foreach" | b"while" | b"do"
        | b"switch" | b"case" | b"return" | b"break" | b"continue" | b"goto" | b"try"
        | b"catch" | b"except" | b"finally" | b"throw" | b"raise" | b"new" | b"delete"
        | b"await" | b"yield" | b"typeof" | b"sizeof" | b"instanceof" | b"in" | b"is" | b"as"
        | b"not" | b"and" | b"or" | b"with" | b"lock" | b"using" | b"import" | b"from"
        | b"package" | b"echo" | b"print" | b"pass" | b"assert" | b"del" | b"global"
        | b"nonlocal" | b"lambda" | b"function" | b"func" | b"def" | b"fn" | b"class"
        | b"struct" | b"enum" | b"interface" | b"type" | b"var" | b"let" | b"const" | b"val"
        | b"fun" | b"go" | b"defer" | b"select" | b"chan" | b"map" | b"range" | b"fallthrough"
        | b"super" | b"this" | b"self" | b"nil" | b"null" | b"true" | b"false" | b"None"
        | b"True" | b"False" | b"then" | b"end" | b"local" | b"until" | b"unless" | b"out"
        | b"ref"
    )
}

/// When `after` (the text after a name) is an assignment `= value` (not
/// `==`, `=>`, `=~`), the value.
fn assigned_value(after: &[u8]) -> Option<&[u8]> {
    let a = trim_start(after);
    let value = a.strip_prefix(b"=")?;
    match value.first() {
        Some(b'=' | b'>' | b'~') => None,
        _ => Some(value),
    }
}

/// Strips a trailing qualifier chain (`a::b::`, `Foo<T>::`, `a.b.`) from
/// `s`; the flag says whether anything was stripped. A bare separator
/// (`::NAME`, the global namespace) is stripped too.
fn strip_qualifier<'a>(s: &'a [u8], separator: &[u8]) -> (&'a [u8], bool) {
    let mut rest = s;
    let mut stripped = false;
    while let Some(r) = rest.strip_suffix(separator) {
        let mut r = r;
        if r.ends_with(b">") {
            match matching_open_angle(r) {
                Some(open) => r = &r[..open],
                None => break,
            }
        }
        let n = r.iter().rev().take_while(|&&b| is_word_byte(b)).count();
        rest = &r[..r.len() - n];
        stripped = true;
        if n == 0 {
            break;
        }
    }
    (rest, stripped)
}

/// The index of the `<` matching the `>` that ends `s`.
fn matching_open_angle(s: &[u8]) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &b) in s.iter().enumerate().rev() {
        match b {
            b'>' => depth += 1,
            b'<' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Identifier bytes of the query alphabet.
fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$'
}

/// Bytes that continue a word in source text: identifier bytes and any
/// non-ASCII byte (UTF-8 identifiers such as `café`), so `caf` is not a
/// whole word of `café`.
fn is_word_byte(b: u8) -> bool {
    is_ident_byte(b) || b >= 0x80
}

fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\x0c' | b'\x0b')
}

fn trim_newline(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

fn trim_start(s: &[u8]) -> &[u8] {
    let n = s.iter().take_while(|&&b| is_blank(b)).count();
    &s[n..]
}

fn trim_end(s: &[u8]) -> &[u8] {
    let n = s.iter().rev().take_while(|&&b| is_blank(b)).count();
    &s[..s.len() - n]
}

fn starts_with_word(s: &[u8], word: &[u8]) -> bool {
    s.starts_with(word) && !matches!(s.get(word.len()), Some(&b) if is_word_byte(b))
}

fn ends_with_word(s: &[u8], word: &[u8]) -> bool {
    s.ends_with(word) && (s.len() == word.len() || !is_word_byte(s[s.len() - word.len() - 1]))
}

fn contains_word(s: &[u8], word: &[u8]) -> bool {
    let mut from = 0;
    while let Some(i) = find_short(&s[from..], word) {
        let start = from + i;
        let end = start + word.len();
        if (start == 0 || !is_word_byte(s[start - 1]))
            && !matches!(s.get(end), Some(&b) if is_word_byte(b))
        {
            return true;
        }
        from = start + 1;
    }
    false
}

/// Skips one annotation or attribute, `@name`, `@a.b.name` or
/// `@name(...)` (Swift, Scala, Dart); false when the cursor is not at one
/// or its arguments do not close on the line.
fn skip_annotation(c: &mut Cursor) -> bool {
    c.eat(b"@")
        && skip_dotted_name(c)
        && (c.peek_raw() != Some(b'(') || c.group(b'(', b')') == Group::Closed)
}

/// Skips a name and the `.name` segments touching it (`a.b.C`); false
/// when there is no name, or a dot is not followed by one.
fn skip_dotted_name(c: &mut Cursor) -> bool {
    if c.word().is_none() {
        return false;
    }
    while c.peek_raw() == Some(b'.') {
        c.bump();
        if c.word_touching().is_none() {
            return false;
        }
    }
    true
}

/// Skips a `(...)`, `[...]` or `{...}` group starting at the next
/// non-blank byte.
fn skip_bracketed(c: &mut Cursor) -> Group {
    match c.peek() {
        Some(b'(') => c.group(b'(', b')'),
        Some(b'[') => c.group(b'[', b']'),
        Some(b'{') => c.group(b'{', b'}'),
        _ => Group::Absent,
    }
}

/// Whether a bracketed group starts at the cursor and closes on the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Group {
    /// The cursor is not at the opening bracket.
    Absent,
    /// The group closes; the cursor is after it.
    Closed,
    /// The group does not close on the line; the cursor is at the end.
    Open,
}

/// A forward-only reader over a byte slice. Methods whose name does not
/// end in `_raw` or `_touching` skip blanks first.
#[derive(Clone, Copy)]
struct Cursor<'a> {
    s: &'a [u8],
    /// Byte offset of the next unread byte; `i <= s.len()`.
    i: usize,
}

impl<'a> Cursor<'a> {
    fn new(s: &'a [u8]) -> Self {
        Cursor { s, i: 0 }
    }

    fn skip_blanks(&mut self) {
        while self.i < self.s.len() && is_blank(self.s[self.i]) {
            self.i += 1;
        }
    }

    fn at_end(&mut self) -> bool {
        self.skip_blanks();
        self.i == self.s.len()
    }

    /// Consumes one byte (the caller has peeked it).
    fn bump(&mut self) {
        self.i = (self.i + 1).min(self.s.len());
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_blanks();
        self.peek_raw()
    }

    fn peek_raw(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    /// The byte after the next non-blank one.
    fn peek_second(&mut self) -> Option<u8> {
        self.skip_blanks();
        self.s.get(self.i + 1).copied()
    }

    fn rest(&mut self) -> &'a [u8] {
        self.skip_blanks();
        self.rest_raw()
    }

    fn rest_raw(&self) -> &'a [u8] {
        &self.s[self.i..]
    }

    /// The next word, after blanks.
    fn word(&mut self) -> Option<&'a [u8]> {
        self.skip_blanks();
        self.word_touching()
    }

    /// The word starting exactly at the cursor.
    fn word_touching(&mut self) -> Option<&'a [u8]> {
        let start = self.i;
        while self.i < self.s.len() && is_word_byte(self.s[self.i]) {
            self.i += 1;
        }
        (self.i > start).then(|| &self.s[start..self.i])
    }

    /// Consumes `word` if it is the next whole word.
    fn eat_word(&mut self, word: &[u8]) -> bool {
        let save = self.i;
        if self.word() == Some(word) {
            return true;
        }
        self.i = save;
        false
    }

    /// Consumes `punctuation` if the next bytes are exactly it.
    fn eat(&mut self, punctuation: &[u8]) -> bool {
        self.skip_blanks();
        if self.rest_raw().starts_with(punctuation) {
            self.i += punctuation.len();
            return true;
        }
        false
    }

    /// Skips a `"..."` string literal with backslash escapes; false when it
    /// does not close on the line.
    fn skip_string(&mut self) -> bool {
        if self.peek() != Some(b'"') {
            return false;
        }
        let mut j = self.i + 1;
        while j < self.s.len() {
            match self.s[j] {
                b'\\' => j += 2,
                b'"' => {
                    self.i = j + 1;
                    return true;
                }
                _ => j += 1,
            }
        }
        self.i = self.s.len();
        false
    }

    /// Skips a balanced `open ... close` group starting at the next
    /// non-blank byte. Brackets inside `"..."` strings are ignored, and so
    /// is the `>` of `->` and `=>` when skipping angle brackets.
    fn group(&mut self, open: u8, close: u8) -> Group {
        if self.peek() != Some(open) {
            return Group::Absent;
        }
        let mut depth = 0usize;
        let mut in_string = false;
        let mut j = self.i;
        while j < self.s.len() {
            let b = self.s[j];
            if in_string {
                if b == b'\\' {
                    j += 1;
                } else if b == b'"' {
                    in_string = false;
                }
            } else if b == b'"' {
                in_string = true;
            } else if b == open {
                depth += 1;
            } else if b == close
                && !(close == b'>' && j > 0 && matches!(self.s[j - 1], b'-' | b'='))
            {
                depth -= 1;
                if depth == 0 {
                    self.i = j + 1;
                    return Group::Closed;
                }
            }
            j += 1;
        }
        self.i = self.s.len();
        Group::Open
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs a table of `(line, name, expected)` and reports every row that
    /// disagrees, not just the first.
    fn check(lang: Lang, table: &[(&str, &str, bool)]) {
        let failures: Vec<String> = table
            .iter()
            .filter(|(line, name, expected)| {
                defines(lang, line.as_bytes(), name.as_bytes()) != *expected
            })
            .map(|(line, name, expected)| {
                format!("  {lang:?} {name:?} in {line:?}: expected {expected}")
            })
            .collect();
        assert!(
            failures.is_empty(),
            "wrong answers:\n{}",
            failures.join("\n")
        );
    }

    #[test]
    fn is_identifier_accepts_ascii_names_with_dollar_and_underscore() {
        for good in ["useState", "_private", "$http", "a1", "__init__", "X"] {
            assert!(is_identifier(good.as_bytes()), "{good}");
        }
        for bad in [
            "",
            "1abc",
            "foo-bar",
            "a.b",
            "caf\u{e9}",
            "foo bar",
            "Foo::bar",
        ] {
            assert!(!is_identifier(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn non_identifier_queries_are_never_defined() {
        assert!(!defines(Lang::Rust, b"fn foo-bar() {}", b"foo-bar"));
        assert!(!defines(Lang::Rust, b"fn () {}", b""));
    }

    #[test]
    #[rustfmt::skip]
    fn typescript_definitions_and_uses() {
        let table = [
            // Definitions.
            ("export function useState<S>(initialState: S) {", "useState", true),
            ("export function useState(", "useState", true),
            ("function* saga() {", "saga", true),
            ("function *saga() {", "saga", true),
            ("async function fetchUser(id: string) {", "fetchUser", true),
            ("export default async function handler(req, res) {", "handler", true),
            ("export default function App() {", "App", true),
            ("export class ReactDOMRoot {", "ReactDOMRoot", true),
            ("export abstract class Repository<T> implements IRepo<T> {", "Repository", true),
            ("interface Props extends BaseProps {", "Props", true),
            ("export type Dispatch<A> = (value: A) => void;", "Dispatch", true),
            ("type State = {", "State", true),
            ("export enum Direction {", "Direction", true),
            ("export const enum Flags {", "Flags", true),
            ("declare namespace NodeJS {", "NodeJS", true),
            ("const useState = React.useState;", "useState", true),
            ("export const DataTable: React.FC<Props> = ({ rows }) => {", "DataTable", true),
            ("let count = 0;", "count", true),
            ("var self;", "self", true),
            ("declare function require(id: string): any;", "require", true),
            ("declare const __DEV__: boolean;", "__DEV__", true),
            ("  render() {", "render", true),
            ("  componentDidMount(): void {", "componentDidMount", true),
            ("  async componentDidMount() {", "componentDidMount", true),
            ("  static getDerivedStateFromProps(props, state) {", "getDerivedStateFromProps", true),
            ("  get value() {", "value", true),
            ("  private handleClick(event: MouseEvent) {", "handleClick", true),
            ("  public async save(", "save", true),
            ("  protected abstract validate(input: string): boolean;", "validate", true),
            ("  find<T>(id: string): Promise<T>;", "find", true),
            ("  onChange?(value: string): void;", "onChange", true),
            ("  *[Symbol.iterator]() {", "Symbol", false),
            ("  *entries() {", "entries", true),
            ("  #validate() {", "validate", true),
            ("  handleSubmit = async (event) => {", "handleSubmit", true),
            ("  handleChange = e => this.setState({ value: e.target.value });", "handleChange", true),
            ("  private readonly cache = new Map<string, Entry>();", "cache", true),
            ("  onClick: function (event) {", "onClick", true),
            ("  reducer: (state, action) => {", "reducer", true),
            ("  selector: (state: RootState): number => state.count,", "selector", true),
            ("  onSelect: (id: string) => void;", "onSelect", true),
            ("Foo.prototype.render = function () {", "render", true),
            ("exports.createElement = createElement;", "createElement", true),
            ("module.exports.parse = parse;", "parse", true),
            ("const useState = (initial) => {\r\n", "useState", true),
            // Uses.
            ("const [a, setA] = useState(0)", "useState", false),
            ("  const [rows, setRows] = useState<Row[]>([]);", "useState", false),
            ("  useState(0);", "useState", false),
            ("  return useMemo(() => compute(a), [a]);", "useMemo", false),
            ("  if (isValid(input)) {", "isValid", false),
            ("  const data = await fetchUser(id);", "fetchUser", false),
            ("  await fetchUser(id);", "fetchUser", false),
            ("  const root = new ReactDOMRoot(container);", "ReactDOMRoot", false),
            ("  useEffect(() => {", "useEffect", false),
            ("  describe('parse', () => {", "describe", false),
            ("import { useState } from 'react';", "useState", false),
            ("import type { Props } from './types';", "Props", false),
            ("export { useState, useEffect };", "useState", false),
            ("export default App;", "App", false),
            ("  this.handleClick = this.handleClick.bind(this);", "handleClick", false),
            ("  state = initialState;", "state", false),
            ("  const { dispatch } = useStore();", "dispatch", false),
            ("  return <DataTable rows={rows} />;", "DataTable", false),
            ("  console.log('function render() {');", "render", false),
            ("  // function render() {", "render", false),
            ("   * function render() {", "render", false),
            ("/* export const useState = 1 */", "useState", false),
            ("  foo.render(x) {", "render", false),
            ("  if (x) {", "if", false),
            ("  items.map((item) => render(item));", "render", false),
            ("  const useStateful = 1;", "useState", false),
            ("  count == 0 && reset();", "count", false),
            ("  reducer(state, action);", "reducer", false),
            ("  value: props.value,", "value", false),
            ("for (const item of items) {", "item", false),
        ];
        check(Lang::TypeScript, &table);
        check(Lang::Tsx, &table);
    }

    #[test]
    #[rustfmt::skip]
    fn javascript_shares_the_typescript_rules() {
        check(
            Lang::JavaScript,
            &[
                ("function createElement(type, config, children) {", "createElement", true),
                ("export default class Component {", "Component", true),
                ("  setState(partialState, callback) {", "setState", true),
                ("var ReactCurrentOwner = require('./ReactCurrentOwner');", "ReactCurrentOwner", true),
                ("  return createElement(type, props);", "createElement", false),
                ("  this.setState({ open: true });", "setState", false),
                ("  setState({ open: true });", "setState", false),
                ("  const el = createElement('div');", "createElement", false),
            ],
        );
    }

    #[test]
    #[rustfmt::skip]
    fn python_definitions_and_uses() {
        check(
            Lang::Python,
            &[
                // Definitions.
                ("def urlopen(url, data=None, timeout=socket._GLOBAL_DEFAULT_TIMEOUT,", "urlopen", true),
                ("    def __init__(self, *args, **kwargs):", "__init__", true),
                ("async def open_connection(host=None, port=None, *,", "open_connection", true),
                ("    async def wait_for(fut, timeout):", "wait_for", true),
                ("class OrderedDict(dict):", "OrderedDict", true),
                ("class Error(Exception): pass", "Error", true),
                ("DEFAULT_BUFFER_SIZE = 8 * 1024  # bytes", "DEFAULT_BUFFER_SIZE", true),
                ("    maxDiff = 80*8", "maxDiff", true),
                ("_sentinel: Final = object()", "_sentinel", true),
                ("    timeout: float | None = None", "timeout", true),
                ("    name: str", "name", true),
                ("__all__ = [\"Path\", \"PurePath\"]", "__all__", true),
                ("type Point = tuple[float, float]", "Point", true),
                ("def f():\r\n", "f", true),
                // Uses.
                ("    return urlopen(req)", "urlopen", false),
                ("    r = urlopen(req, timeout=10)", "urlopen", false),
                ("    urlopen(req)", "urlopen", false),
                ("    self.timeout = timeout", "timeout", false),
                ("    if timeout == 0:", "timeout", false),
                ("    timeout += 1", "timeout", false),
                ("        timeout=timeout,", "timeout", false),
                ("    conn = HTTPConnection(host, timeout=timeout)", "timeout", false),
                ("    print(\"def urlopen(url):\")", "urlopen", false),
                ("# def urlopen(url):", "urlopen", false),
                ("    # DEFAULT_BUFFER_SIZE = 8", "DEFAULT_BUFFER_SIZE", false),
                ("from urllib.request import urlopen", "urlopen", false),
                ("import urlopen", "urlopen", false),
                ("@functools.wraps(wrapped)", "wraps", false),
                ("    x = OrderedDict()", "OrderedDict", false),
                ("class Foo(OrderedDict):", "OrderedDict", false),
                ("    for name in names:", "name", false),
                ("    \"key\": value,", "value", false),
                ("    else:", "else", false),
                ("    lambda: urlopen", "urlopen", false),
            ],
        );
    }

    #[test]
    #[rustfmt::skip]
    fn go_definitions_and_uses() {
        check(
            Lang::Go,
            &[
                // Definitions.
                ("func NewServer(addr string) *Server {", "NewServer", true),
                ("func (s *Server) ListenAndServe() error {", "ListenAndServe", true),
                ("func (Server) Close() {", "Close", true),
                ("func (l *List[T]) Push(v T) {", "Push", true),
                ("func Map[T, U any](s []T, f func(T) U) []U {", "Map", true),
                ("type Server struct {", "Server", true),
                ("type Handler interface {", "Handler", true),
                ("type HandlerFunc func(ResponseWriter, *Request)", "HandlerFunc", true),
                ("var ErrServerClosed = errors.New(\"http: Server closed\")", "ErrServerClosed", true),
                ("const DefaultMaxHeaderBytes = 1 << 20", "DefaultMaxHeaderBytes", true),
                ("\tStateNew ConnState = iota", "StateNew", true),
                ("\tStateActive", "StateActive", false),
                ("\tmaxSize = 64", "maxSize", true),
                ("\tAddr string", "Addr", true),
                ("\tHandler Handler // handler to invoke", "Handler", true),
                ("\tTLSConfig *tls.Config", "TLSConfig", true),
                ("\tHeaders []string", "Headers", true),
                ("\tServeHTTP(ResponseWriter, *Request)", "ServeHTTP", false),
                ("\tRead(p []byte) (n int, err error)", "Read", true),
                ("\tClose() error", "Close", true),
                // Uses.
                ("\tsrv := NewServer(addr)", "NewServer", false),
                ("\treturn NewServer(addr)", "NewServer", false),
                ("\tNewServer(addr)", "NewServer", false),
                ("\tif err := srv.ListenAndServe(); err != nil {", "ListenAndServe", false),
                ("\tsrv.Handler = mux", "Handler", false),
                ("\tsrv.Close()", "Close", false),
                ("\tdefer Close()", "Close", false),
                ("\tbuf[i] = 0", "buf", false),
                ("\terr := run()", "err", false),
                ("\tcount++", "count", false),
                ("\tvar s Server", "Server", false),
                ("// func NewServer(addr string) *Server {", "NewServer", false),
                ("\tfmt.Println(\"func NewServer(\")", "NewServer", false),
                ("\tcase StateNew:", "StateNew", false),
                ("\treturn nil", "return", false),
                ("NewServer(addr)", "NewServer", false),
            ],
        );
    }

    #[test]
    #[rustfmt::skip]
    fn rust_definitions_and_uses() {
        check(
            Lang::Rust,
            &[
                // Definitions.
                ("pub fn search_path(path: &Path) -> io::Result<()> {", "search_path", true),
                ("fn main() {", "main", true),
                ("    pub(crate) async unsafe extern \"C\" fn callback(x: i32) {", "callback", true),
                ("pub(in crate::flags) const fn default_value() -> u64 {", "default_value", true),
                ("pub struct Searcher {", "Searcher", true),
                ("pub(crate) enum Mode {", "Mode", true),
                ("pub trait Sink {", "Sink", true),
                ("    type Error;", "Error", true),
                ("pub type Result<T> = std::result::Result<T, Error>;", "Result", true),
                ("union MaybeUninit<T> {", "MaybeUninit", true),
                ("mod tests {", "tests", true),
                ("pub const DEFAULT_BUFFER_CAPACITY: usize = 64 * (1 << 10);", "DEFAULT_BUFFER_CAPACITY", true),
                ("static mut COUNTER: u32 = 0;", "COUNTER", true),
                ("macro_rules! regex {", "regex", true),
                ("#[inline] pub fn is_match(&self) -> bool {", "is_match", true),
                ("impl Searcher {", "Searcher", true),
                ("impl<'s, S: Sink> SinkContext<'s, S> {", "SinkContext", true),
                ("impl fmt::Display for Mode {", "Mode", true),
                ("unsafe impl<T: Send> Send for Queue<T> {}", "Queue", true),
                ("impl std::error::Error for Error {}", "Error", true),
                ("impl std::error::Error for ParseError {}", "Error", false),
                ("impl Sink for StandardSink {", "Sink", false),
                ("impl Sink for StandardSink {", "StandardSink", true),
                ("    default fn spec(&self) {}", "spec", true),
                // Uses.
                ("    let searcher = Searcher::new();", "Searcher", false),
                ("    let mut searcher = build();", "searcher", false),
                ("    search_path(&path)?;", "search_path", false),
                ("    return search_path(path);", "search_path", false),
                ("use crate::searcher::Searcher;", "Searcher", false),
                ("    fn sink(&mut self) -> &mut dyn Sink {", "Sink", false),
                ("// pub fn search_path(path: &Path) {", "search_path", false),
                ("/// fn main() {", "main", false),
                ("    println!(\"fn main() {{\");", "main", false),
                ("    Mode::Fast => {}", "Mode", false),
                ("impl<T> From<Vec<Mode>> for Set {", "Mode", false),
                ("    regex!(\"a+\")", "regex", false),
                ("pub fn search_paths() {", "search_path", false),
            ],
        );
    }

    #[test]
    #[rustfmt::skip]
    fn php_definitions_and_uses() {
        check(
            Lang::Php,
            &[
                ("function wp_insert_post( $postarr, $wp_error = false ) {", "wp_insert_post", true),
                ("    public static function create(array $attributes = [])", "create", true),
                ("    abstract protected function handle(Request $request): Response;", "handle", true),
                ("    public function &getIterator()", "getIterator", true),
                ("final class UserController extends Controller", "UserController", true),
                ("interface ShouldQueue", "ShouldQueue", true),
                ("trait HasFactory", "HasFactory", true),
                ("enum Suit: string", "Suit", true),
                ("    const STATUS_ACTIVE = 1;", "STATUS_ACTIVE", true),
                ("    private const MAX = 10;", "MAX", true),
                ("define( 'ABSPATH', __DIR__ . '/' );", "ABSPATH", true),
                ("#[Attribute] class Route", "Route", false),
                // Uses.
                ("    $post_id = wp_insert_post( $postarr );", "wp_insert_post", false),
                ("    return static::create($attributes);", "create", false),
                ("    $this->handle($request);", "handle", false),
                ("    $user = new UserController();", "UserController", false),
                ("    echo Suit::Hearts;", "Suit", false),
                ("    if ( defined( 'ABSPATH' ) ) {", "ABSPATH", false),
                ("    // function wp_insert_post() {", "wp_insert_post", false),
                ("    # const MAX = 10;", "MAX", false),
                ("    $create = 1;", "create", false),
                ("class Post extends Model implements ShouldQueue", "ShouldQueue", false),
            ],
        );
    }

    #[test]
    #[rustfmt::skip]
    fn c_definitions_and_uses() {
        let table = [
            // Definitions.
            ("int main(int argc, char **argv)", "main", true),
            ("int main(void) {", "main", true),
            ("static inline void *kmalloc(size_t size, gfp_t flags)", "kmalloc", true),
            ("static int __init serial_init(void)", "serial_init", true),
            ("struct task_struct *find_task_by_vpid(pid_t vnr)", "find_task_by_vpid", true),
            ("static ssize_t dev_read(struct file *filp, char __user *buf,", "dev_read", true),
            ("unsigned long long sched_clock(void) __attribute__((weak))", "sched_clock", true),
            ("schedule_timeout(signed long timeout)", "schedule_timeout", true),
            ("schedule_timeout (signed long timeout)", "schedule_timeout", true),
            ("struct list_head {", "list_head", true),
            ("struct file_operations", "file_operations", true),
            ("typedef struct {", "typedef", false),
            ("} spinlock_t;", "spinlock_t", true),
            ("typedef unsigned int gfp_t;", "gfp_t", true),
            ("typedef void (*irq_handler_t)(int, void *);", "irq_handler_t", true),
            ("typedef struct node node_t;", "node_t", true),
            ("typedef struct node node_t;", "node", false),
            ("typedef struct list_head {", "list_head", true),
            ("typedef enum { MODE_A, MODE_B } mode_t;", "mode_t", true),
            ("typedef enum { MODE_A, MODE_B } mode_t;", "MODE_A", false),
            ("typedef int (*cmp_fn)(const void *, const void *);", "cmp_fn", true),
            ("#define PAGE_SIZE (1UL << PAGE_SHIFT)", "PAGE_SIZE", true),
            ("#  define likely(x) __builtin_expect(!!(x), 1)", "likely", true),
            ("enum pid_type {", "pid_type", true),
            ("union bpf_attr {", "bpf_attr", true),
            ("\tPIDTYPE_PGID = 1,", "PIDTYPE_PGID", true),
            ("static const struct file_operations dev_fops = {", "dev_fops", true),
            ("int debug_level;", "debug_level", true),
            ("static char buffer[4096];", "buffer", true),
            // Uses and declarations.
            ("\tret = kmalloc(sizeof(*p), GFP_KERNEL);", "kmalloc", false),
            ("\tp = kmalloc(size, flags);", "kmalloc", false),
            ("\treturn kmalloc(size, flags);", "kmalloc", false),
            ("\tkfree(p);", "kfree", false),
            ("\tif (capable(CAP_SYS_ADMIN)) {", "capable", false),
            ("\twhile (need_resched()) {", "need_resched", false),
            ("\tlist_for_each_entry(pos, head, member) {", "list_for_each_entry", false),
            ("extern int serial_init(void);", "serial_init", false),
            ("void *kmalloc(size_t size, gfp_t flags);", "kmalloc", false),
            ("extern int debug_level;", "debug_level", false),
            ("struct list_head;", "list_head", false),
            ("\tstruct list_head *pos;", "list_head", false),
            ("static struct list_head *next_entry(struct list_head *p)", "list_head", false),
            ("\tfilp->f_op->dev_read(filp, buf);", "dev_read", false),
            ("\tdev.ops.dev_read(filp, buf);", "dev_read", false),
            ("\t.read = dev_read,", "dev_read", false),
            ("EXPORT_SYMBOL(kmalloc);", "kmalloc", false),
            ("module_init(serial_init);", "module_init", false),
            ("/* int main(void) { */", "main", false),
            (" * int main(void)", "main", false),
            ("// int main(void) {", "main", false),
            ("#include <linux/kmalloc.h>", "kmalloc", false),
            ("#ifdef PAGE_SIZE", "PAGE_SIZE", false),
            ("\tprintk(\"int main(void)\");", "main", false),
            ("\tif (PIDTYPE_PGID == type)", "PIDTYPE_PGID", false),
            ("\tcase PIDTYPE_PGID:", "PIDTYPE_PGID", false),
            ("\tgoto out;", "out", false),
        ];
        check(Lang::C, &table);
        check(Lang::Cpp, &table);
    }

    #[test]
    #[rustfmt::skip]
    fn cpp_definitions_and_uses() {
        check(
            Lang::Cpp,
            &[
                // Definitions.
                ("class Widget : public QObject {", "Widget", true),
                ("class Q_CORE_EXPORT QString", "QString", true),
                ("class Widget final : public Base {", "Widget", true),
                ("enum class Color : uint8_t {", "Color", true),
                ("template <typename T> class Vector {", "Vector", true),
                ("template <typename T>", "T", false),
                ("struct Point final {", "Point", true),
                ("namespace detail {", "detail", true),
                ("namespace llvm::detail {", "detail", true),
                ("namespace fs = std::filesystem;", "fs", true),
                ("using size_type = std::size_t;", "size_type", true),
                ("void Widget::paintEvent(QPaintEvent *event) {", "paintEvent", true),
                ("Widget::Widget(QWidget *parent) : QWidget(parent), d(new Private) {", "Widget", true),
                ("Widget::~Widget() {", "Widget", true),
                ("template <typename T> T Vector<T>::at(size_t i) const {", "at", true),
                ("std::vector<int> Parser::tokens() const", "tokens", true),
                ("auto make_widget(int n) -> std::unique_ptr<Widget> {", "make_widget", true),
                ("  int size() const { return size_; }", "size", true),
                ("  explicit Widget(QWidget *parent = nullptr) : QWidget(parent) {}", "Widget", true),
                ("[[nodiscard]] static bool is_valid(const Token &t) {", "is_valid", true),
                ("template <typename T> concept Hashable = requires(T a) {", "Hashable", true),
                ("inline namespace v1 {", "v1", true),
                ("TEST(WidgetTest, Paints) {", "TEST", true),
                // Uses and declarations.
                ("  void paintEvent(QPaintEvent *event) override;", "paintEvent", false),
                ("  virtual ~Widget() = default;", "Widget", false),
                ("  explicit Widget(QWidget *parent = nullptr);", "Widget", false),
                ("class Widget;", "Widget", false),
                ("  friend class Widget;", "Widget", false),
                ("  auto w = std::make_unique<Widget>(parent);", "Widget", false),
                ("  Widget w(parent);", "Widget", false),
                ("  w->paintEvent(event);", "paintEvent", false),
                ("  std::sort(v.begin(), v.end());", "sort", false),
                ("  return std::max(a,", "max", false),
                ("  std::max(a,", "max", false),
                ("using namespace std;", "std", false),
                ("  throw Error(\"bad\");", "Error", false),
                ("  delete widget;", "widget", false),
                ("  return tokens();", "tokens", false),
                ("  co_return make_widget(1);", "make_widget", false),
                ("  Widget *w = new Widget(this);", "Widget", false),
            ],
        );
    }

    #[test]
    #[rustfmt::skip]
    fn java_definitions_and_uses() {
        check(
            Lang::Java,
            &[
                // Definitions.
                ("public class UserService {", "UserService", true),
                ("public final class Strings {", "Strings", true),
                ("public interface UserRepository extends JpaRepository<User, Long> {", "UserRepository", true),
                ("public @interface Transactional {", "Transactional", true),
                ("public enum Status {", "Status", true),
                ("public record Point(int x, int y) {", "Point", true),
                ("public sealed interface Shape permits Circle, Square {", "Shape", true),
                ("    public static void main(String[] args) {", "main", true),
                ("    private List<String> findNames(Map<String, Integer> counts) {", "findNames", true),
                ("    @Override public int hashCode() {", "hashCode", true),
                ("    @GetMapping(\"/users/{id}\") public ResponseEntity<User> getUser(@PathVariable Long id) {", "getUser", true),
                ("    protected abstract Foo createFoo(String name);", "createFoo", true),
                ("    User findByEmail(String email);", "findByEmail", true),
                ("    public static <T extends Comparable<T>> T max(List<T> items) {", "max", true),
                ("    String[] split(String s) {", "split", true),
                ("    public UserService(UserRepository repository) {", "UserService", true),
                ("    private static final Logger LOG = LoggerFactory.getLogger(UserService.class);", "LOG", true),
                ("    private final UserRepository repository;", "repository", true),
                ("    default void close() {", "close", true),
                // Uses.
                ("        return findNames(counts);", "findNames", false),
                ("        List<String> names = findNames(counts);", "findNames", false),
                ("        repository.findByEmail(email);", "findByEmail", false),
                ("        this.repository = repository;", "repository", false),
                ("        UserService service = new UserService(repo);", "UserService", false),
                ("        new UserService(repo);", "UserService", false),
                ("        Status s = Status.ACTIVE;", "Status", false),
                ("        throw new IllegalStateException(\"x\");", "IllegalStateException", false),
                ("        final int max = 3;", "max", false),
                ("        var names = findNames(counts);", "names", false),
                ("        String name = user.getName();", "name", false),
                ("    // public static void main(String[] args) {", "main", false),
                ("     * @see UserService#findNames(Map)", "findNames", false),
                ("        if (isValid(user)) {", "isValid", false),
                ("        } else if (check(user)) {", "check", false),
                ("        ACTIVE(\"active\"),", "ACTIVE", false),
                ("        System.out.println(\"public void main() {\");", "main", false),
                ("import com.example.UserService;", "UserService", false),
                ("public class Admin extends UserService {", "UserService", false),
            ],
        );
    }

    #[test]
    #[rustfmt::skip]
    fn kotlin_definitions_and_uses() {
        check(
            Lang::Kotlin,
            &[
                // Definitions.
                ("fun main(args: Array<String>) {", "main", true),
                ("    override fun onCreate(savedInstanceState: Bundle?) {", "onCreate", true),
                ("    suspend fun fetchUser(id: String): User =", "fetchUser", true),
                ("inline fun <reified T> Gson.fromJson(json: String): T =", "fromJson", true),
                ("fun <T> List<T>.second(): T = this[1]", "second", true),
                ("fun String?.orEmpty(): String = this ?: \"\"", "orEmpty", true),
                ("data class User(val id: Long, val name: String)", "User", true),
                ("data class User(val id: Long, val name: String)", "name", true),
                ("sealed interface UiState {", "UiState", true),
                ("enum class Direction { NORTH, SOUTH }", "Direction", true),
                ("object Singleton {", "Singleton", true),
                ("    companion object Factory {", "Factory", true),
                ("fun interface Listener {", "Listener", true),
                ("typealias Handler = (Event) -> Unit", "Handler", true),
                ("    private val viewModel: MainViewModel by viewModels()", "viewModel", true),
                ("const val MAX_RETRIES = 3", "MAX_RETRIES", true),
                ("    lateinit var adapter: UserAdapter", "adapter", true),
                ("val Context.dataStore: DataStore<Preferences> by preferencesDataStore(\"settings\")", "dataStore", true),
                ("annotation class Inject", "Inject", true),
                // Uses.
                ("    val user = fetchUser(id)", "fetchUser", false),
                ("    fetchUser(id)", "fetchUser", false),
                ("    return fetchUser(id)", "fetchUser", false),
                ("    viewModel.load()", "viewModel", false),
                ("    val (id, name) = user", "name", false),
                ("    adapter = UserAdapter(items)", "adapter", false),
                ("    val u = User(1, \"a\")", "User", false),
                ("class Admin : User() {", "User", false),
                ("    // fun main() {", "main", false),
                ("    if (isReady()) {", "isReady", false),
                ("    println(\"fun main() {\")", "main", false),
                ("    override fun toString() = name", "name", false),
            ],
        );
    }

    #[test]
    #[rustfmt::skip]
    fn csharp_definitions_and_uses() {
        check(
            Lang::CSharp,
            &[
                // Definitions.
                ("namespace Contoso.Orders;", "Orders", true),
                ("namespace Contoso {", "Contoso", true),
                ("public class OrderService : IOrderService", "OrderService", true),
                ("public sealed partial class MainWindow : Window", "MainWindow", true),
                ("internal struct Vector3", "Vector3", true),
                ("public record Person(string FirstName, string LastName);", "Person", true),
                ("public readonly record struct Point(int X, int Y);", "Point", true),
                ("public interface IOrderService", "IOrderService", true),
                ("    public async Task<int> CountAsync(CancellationToken ct = default)", "CountAsync", true),
                ("    [HttpGet(\"{id}\")] public async Task<IActionResult> Get(int id)", "Get", true),
                ("    public static T Parse<T>(string s) where T : IParsable<T>", "Parse", true),
                ("    public int Count { get; set; }", "Count", true),
                ("    public string Name => _name;", "Name", true),
                ("    public override string ToString() => $\"{X}, {Y}\";", "ToString", true),
                ("    private readonly ILogger<OrderService> _logger;", "_logger", true),
                ("    public const int MaxItems = 100;", "MaxItems", true),
                ("    public event EventHandler Changed;", "Changed", true),
                ("    public delegate void Notify(string message);", "Notify", true),
                ("    public (int, string) Lookup(int id)", "Lookup", true),
                ("    int? Find(string key);", "Find", true),
                ("    public OrderService(ILogger<OrderService> logger)", "OrderService", true),
                // Uses.
                ("        var count = await CountAsync(ct);", "CountAsync", false),
                ("        await CountAsync(ct);", "CountAsync", false),
                ("        return Parse<int>(s);", "Parse", false),
                ("        _logger.LogInformation(\"x\");", "_logger", false),
                ("        var svc = new OrderService(logger);", "OrderService", false),
                ("        OrderService svc = Create();", "OrderService", false),
                ("        Count = 3;", "Count", false),
                ("        if (Count == 0) {", "Count", false),
                ("        using var scope = provider.CreateScope();", "scope", false),
                ("        foreach (var item in items) {", "item", false),
                ("    // public int Count { get; set; }", "Count", false),
                ("        Console.WriteLine(\"public int Count { get; }\");", "Count", false),
                ("using Contoso.Orders;", "Orders", false),
            ],
        );
    }

    #[test]
    #[rustfmt::skip]
    fn ruby_definitions_and_uses() {
        check(
            Lang::Ruby,
            &[
                // Definitions.
                ("  def create", "create", true),
                ("  def initialize(name, options = {})", "initialize", true),
                ("  def self.find_by_token(token)", "find_by_token", true),
                ("  def name=(value)", "name", true),
                ("  private def compute_total", "compute_total", true),
                ("class UsersController < ApplicationController", "UsersController", true),
                ("class Admin::UsersController < ApplicationController", "UsersController", true),
                ("module ActiveRecord", "ActiveRecord", true),
                ("  VERSION = \"7.1.0\"", "VERSION", true),
                ("  DEFAULT_OPTIONS = { limit: 10 }.freeze", "DEFAULT_OPTIONS", true),
                ("  attr_accessor :name, :email", "email", true),
                ("  attr_reader :name", "name", true),
                ("  scope :active, -> { where(active: true) }", "active", true),
                ("  has_many :comments, dependent: :destroy", "comments", true),
                ("  belongs_to :author, class_name: \"User\"", "author", true),
                ("  define_method(:title) { @title }", "title", true),
                ("  alias_method :to_s, :name", "to_s", true),
                ("  alias to_str to_s", "to_str", true),
                // Uses.
                ("    @user = User.create(user_params)", "create", false),
                ("    create(user_params)", "create", false),
                ("    user.create!", "create", false),
                ("  def create!", "create", false),
                ("  def valid?", "valid", false),
                ("    name = params[:name]", "name", false),
                ("    @name = name", "name", false),
                ("    self.name = value", "name", false),
                ("    return VERSION", "VERSION", false),
                ("    if VERSION == \"1\"", "VERSION", false),
                ("    render :show", "show", false),
                ("  # def create", "create", false),
                ("    puts \"def create\"", "create", false),
                ("  has_many :comments, through: :posts", "posts", false),
                ("  alias_method :to_s, :name", "name", false),
                ("class Admin < UsersController", "UsersController", false),
            ],
        );
    }

    #[test]
    #[rustfmt::skip]
    fn lua_definitions_and_uses() {
        let table = [
            // Definitions (Neovim plugins).
            ("function M.setup(opts)", "setup", true),
            ("local function get_clients(bufnr)", "get_clients", true),
            ("function Buffer:attach(client)", "attach", true),
            ("function vim.lsp.util.make_position_params(win)", "make_position_params", true),
            ("function setup()", "setup", true),
            ("M.setup = function(opts)", "setup", true),
            ("  on_attach = function(client, bufnr)", "on_attach", true),
            ("local api = vim.api", "api", true),
            ("local ok, telescope = pcall(require, \"telescope\")", "telescope", true),
            ("local config", "config", true),
            ("M.defaults = {", "defaults", true),
            ("DEFAULT_TIMEOUT = 500", "DEFAULT_TIMEOUT", true),
            ("local MAX <const> = 10", "MAX", true),
            // Uses.
            ("  require(\"plugin\").setup({})", "setup", false),
            ("  M.setup(opts)", "setup", false),
            ("  setup()", "setup", false),
            ("  local clients = get_clients(0)", "get_clients", false),
            ("  return get_clients(bufnr)", "get_clients", false),
            ("  buf:attach(client)", "attach", false),
            ("  if api.nvim_buf_is_valid(buf) then", "api", false),
            ("  self.config = config", "config", false),
            ("  config = vim.tbl_extend(\"force\", config, opts)", "config", false),
            ("  if config == nil then", "config", false),
            ("-- function M.setup(opts)", "setup", false),
            ("  print(\"function M.setup(opts)\")", "setup", false),
            ("local t = { setup = 1 }", "setup", false),
        ];
        check(Lang::Lua, &table);
        check(Lang::Luau, &table);
    }

    #[test]
    #[rustfmt::skip]
    fn luau_type_aliases() {
        check(
            Lang::Luau,
            &[
                ("type Props = {", "Props", true),
                ("export type State<T> = {", "State", true),
                ("local Players = game:GetService(\"Players\")", "Players", true),
                ("function PlayerData:Load(player: Player): boolean", "Load", true),
                ("local function onPlayerAdded(player: Player)", "onPlayerAdded", true),
                ("Players.PlayerAdded:Connect(onPlayerAdded)", "onPlayerAdded", false),
                ("  local props: Props = {}", "Props", false),
                ("  return Players:GetPlayers()", "Players", false),
            ],
        );
        // `type` is an ordinary name in Lua.
        check(Lang::Lua, &[("type Props = {", "Props", false)]);
    }

    #[test]
    #[rustfmt::skip]
    fn swift_definitions_and_uses() {
        check(
            Lang::Swift,
            &[
                // Definitions.
                ("public func write(_ data: ByteBuffer) {", "write", true),
                ("    @inlinable public mutating func writeInteger<T: FixedWidthInteger>(_ integer: T) -> Int {", "writeInteger", true),
                ("    @objc(tableView:numberOfRowsInSection:) func tableView(_ tv: UITableView) -> Int {", "tableView", true),
                ("public final class EventLoopFuture<Value> {", "EventLoopFuture", true),
                ("public struct ByteBuffer {", "ByteBuffer", true),
                ("public protocol Channel: AnyObject {", "Channel", true),
                ("actor Counter {", "Counter", true),
                ("extension ByteBuffer: CustomStringConvertible {", "ByteBuffer", true),
                ("extension NIOCore.ByteBuffer {", "ByteBuffer", true),
                ("    public typealias InboundIn = ByteBuffer", "InboundIn", true),
                ("    associatedtype Element", "Element", true),
                ("    public private(set) var readerIndex: Int", "readerIndex", true),
                ("    private static let maxSize = 1 << 20", "maxSize", true),
                ("    nonisolated(unsafe) static var shared: Pool?", "shared", true),
                ("    class func makeDefault() -> Self {", "makeDefault", true),
                ("    override class var requiresMainQueueSetup: Bool { true }", "requiresMainQueueSetup", true),
                ("        let buffer = allocator.buffer(capacity: 16)", "buffer", true),
                ("        case heaptrack", "heaptrack", true),
                ("    case parsedStack(Stack, Int)", "parsedStack", true),
                ("    case get, post, put", "post", true),
                ("    case json = \"application/json\"", "json", true),
                ("    indirect case node(Tree, Tree)", "node", true),
                ("    public init(numberOfRequests: Int, eventLoop: EventLoop) {", "init", true),
                ("    init?(_ input: String) {", "init", true),
                ("public macro stringify<T>(_ value: T) -> (T, String) = #externalMacro(module: \"M\", type: \"S\")", "stringify", true),
                // Uses.
                ("extension NIOCore.ByteBuffer {", "NIOCore", false),
                ("    public typealias InboundIn = ByteBuffer", "ByteBuffer", false),
                ("        let buffer = allocator.buffer(capacity: 16)", "allocator", false),
                ("        let future = write(data)", "write", false),
                ("        write(data)", "write", false),
                ("        return write(data)", "write", false),
                ("        self.write(data)", "write", false),
                ("        case .success:", "success", false),
                ("        case .parsedStack(let stack, let count):", "parsedStack", false),
                ("        case heaptrack:", "heaptrack", false),
                ("        case let value:", "value", false),
                ("            case \"y\", \"yes\":", "yes", false),
                ("    func channelRead(context: ChannelHandlerContext, data: NIOAny) {", "context", false),
                ("        if let buffer = self.buffer {", "buffer", false),
                ("        guard let channel = channel else {", "channel", false),
                ("        let (head, tail) = pair", "tail", false),
                ("        self.init(storage: storage)", "init", false),
                ("        super.init()", "init", false),
                ("import NIOCore", "NIOCore", false),
                ("final class Handler: ChannelInboundHandler {", "ChannelInboundHandler", false),
                ("    // public func write(_ data: ByteBuffer) {", "write", false),
                ("        print(\"func write() {\")", "write", false),
            ],
        );
    }

    #[test]
    #[rustfmt::skip]
    fn scala_definitions_and_uses() {
        check(
            Lang::Scala,
            &[
                // Definitions.
                ("  def map[B](f: A => B): Option[B] =", "map", true),
                ("  final def flatMap[B](f: A => F[B]): F[B] = ???", "flatMap", true),
                ("  implicit def catsStdInstancesForOption: Traverse[Option] = new Traverse[Option] {", "catsStdInstancesForOption", true),
                ("  override protected def run(): Unit = {", "run", true),
                ("  private[data] val empty: Chain[Nothing] = Empty", "empty", true),
                ("  lazy val default: Eq[Any] = Eq.fromUniversalEquals", "default", true),
                ("  var count = 0", "count", true),
                ("sealed abstract class Validated[+E, +A] extends Product with Serializable {", "Validated", true),
                ("final case class Kleisli[F[_], -A, B](run: A => F[B]) { self =>", "Kleisli", true),
                ("case object Empty extends Chain[Nothing]", "Empty", true),
                ("trait Functor[F[_]] extends Invariant[F] { self =>", "Functor", true),
                ("object Eval extends EvalInstances {", "Eval", true),
                ("  type Id[A] = A", "Id", true),
                ("  opaque type Timeout = Long", "Timeout", true),
                ("enum Color(val rgb: Int):", "Color", true),
                ("  case Red, Green, Blue", "Green", true),
                ("  case Red, Green, Blue", "Blue", true),
                ("  case Cons[A](head: A, tail: List[A]) extends List[A]", "Cons", true),
                ("  case Leaf(value: Int)", "Leaf", true),
                ("package object data extends DataInstances {", "data", true),
                ("  given intOrder: Order[Int] with", "intOrder", true),
                ("  extension (s: String) def shout: String = s.toUpperCase", "shout", true),
                ("  @tailrec def loop(n: Int): Int =", "loop", true),
                ("  @deprecated(\"Use toList\", \"2.2.0\") def asList: List[A] = toList", "asList", true),
                // Uses.
                ("    val result = map(fa)(f)", "map", false),
                ("    fa.map(f)", "map", false),
                ("      case Right(b) => b", "Right", false),
                ("      case None => default", "None", false),
                ("      case None => default", "default", false),
                ("      case x: StackSafeMonad[G] =>", "x", false),
                ("      case Valid(a) if a > 0 =>", "Valid", false),
                ("    val x = new Kleisli(run)", "Kleisli", false),
                ("    val Some(head) = list.headOption", "head", false),
                ("class OptionT[F[_], A](value: F[Option[A]]) extends Serializable", "Serializable", false),
                ("enum Color(val rgb: Int):", "rgb", false),
                ("  given Order[Int] with", "Order", false),
                ("  extension (s: String) def shout: String = s.toUpperCase", "s", false),
                ("package cats.data", "data", false),
                ("import cats.data.Validated", "Validated", false),
                ("  // def map[B](f: A => B): Option[B]", "map", false),
                ("   * def map[B](f: A => B)", "map", false),
                ("    println(\"def map\")", "map", false),
            ],
        );
    }

    #[test]
    #[rustfmt::skip]
    fn elixir_definitions_and_uses() {
        check(
            Lang::Elixir,
            &[
                // Definitions.
                ("defmodule Logger do", "Logger", true),
                ("defmodule Logger.Backends.Console do", "Console", true),
                ("defprotocol Enumerable do", "Enumerable", true),
                ("defimpl Enumerable, for: MapSet do", "MapSet", true),
                ("defimpl String.Chars, for: URI.Parser do", "Parser", true),
                ("  def start_link(opts) do", "start_link", true),
                ("  def child_spec(opts), do: %{id: __MODULE__}", "child_spec", true),
                ("  defp do_format(message, opts) when is_binary(message) do", "do_format", true),
                ("  def size do", "size", true),
                ("  def put_module_level(mod, level)", "put_module_level", true),
                ("  defmacro __using__(opts) do", "__using__", true),
                ("  defguard is_even(term) when is_integer(term) and rem(term, 2) == 0", "is_even", true),
                ("  defdelegate get_module_level(mod), to: :logger", "get_module_level", true),
                ("  defn softmax(t), do: Nx.exp(t) / Nx.sum(Nx.exp(t))", "softmax", true),
                ("  @type level :: :error | :info", "level", true),
                ("  @typep state :: map()", "state", true),
                ("  @opaque t(value) :: %__MODULE__{map: %{optional(value) => []}}", "t", true),
                ("  @callback init(args :: term) :: {:ok, state}", "init", true),
                ("  @default_timeout 5_000", "default_timeout", true),
                ("  @levels [:error, :warning, :info, :debug]", "levels", true),
                ("  @doc_prefix \"See: \"", "doc_prefix", true),
                // Uses.
                ("defmodule Logger.Backends.Console do", "Logger", false),
                ("defimpl Enumerable, for: MapSet do", "Enumerable", false),
                ("    start_link(opts)", "start_link", false),
                ("    {:ok, pid} = start_link(opts)", "start_link", false),
                ("    GenServer.start_link(__MODULE__, opts)", "start_link", false),
                ("    Enum.map(list, &do_format/1)", "do_format", false),
                ("  def valid?(term), do: true", "valid", false),
                ("  def update!(map, key, fun) do", "update", false),
                ("  def unquote(name)(opts) do", "unquote", false),
                ("  @doc \"Starts the logger.\"", "doc", false),
                ("  @spec start_link(keyword) :: GenServer.on_start()", "start_link", false),
                ("  @impl true", "impl", false),
                ("  @behaviour GenServer", "GenServer", false),
                ("    @default_timeout", "default_timeout", false),
                ("    |> Keyword.put(:timeout, @default_timeout)", "default_timeout", false),
                ("    @levels |> Enum.member?(level)", "levels", false),
                ("  defstruct [:name, :level]", "name", false),
                ("  alias Logger.Backends.Console", "Console", false),
                ("  # def start_link(opts) do", "start_link", false),
                ("    IO.puts(\"def start_link(opts) do\")", "start_link", false),
            ],
        );
    }

    #[test]
    #[rustfmt::skip]
    fn haskell_definitions_and_uses() {
        check(
            Lang::Haskell,
            &[
                // Definitions.
                ("main :: IO ()", "main", true),
                ("main = do", "main", true),
                ("escapeHostName :: Text -> Text", "escapeHostName", true),
                ("isSpecialHostName h = h `elem` [\"*\", \"*4\"]", "isSpecialHostName", true),
                ("toMime (MTVndSingularJSON True) = \"application/vnd.pgrst.object+json\"", "toMime", true),
                ("pgErrorStatus _ (SQL.ConnectionUsageError _) = HTTP.status503", "pgErrorStatus", true),
                ("fib n | n < 2 = n", "fib", true),
                ("  where go acc [] = acc", "go", true),
                ("    go acc (x:xs) = go (acc + x) xs", "go", true),
                ("  fmap :: (a -> b) -> f a -> f b", "fmap", true),
                ("decode, encode :: Text -> Text", "encode", true),
                ("data OutputFormat = OutputCsv | OutputJson", "OutputFormat", true),
                ("data OutputFormat = OutputCsv | OutputJson", "OutputCsv", true),
                ("data OutputFormat = OutputCsv | OutputJson", "OutputJson", true),
                ("newtype Setting = Setting (Config -> Config)", "Setting", true),
                ("newtype Wrap = Wrap { unWrap :: Int }", "unWrap", true),
                ("  = Dump OutputFormat", "Dump", true),
                ("  | CheckWildcards [Text]", "CheckWildcards", true),
                ("  | Env !LibPQ.Result !LibPQ.Row", "Env", true),
                ("data SpecState = SpecState {", "SpecState", true),
                ("  { specStateName :: Text", "specStateName", true),
                ("  , specStateCount :: Int", "specStateCount", true),
                ("type ModuleAliases = [(Text, [(Text, [FilePath])])]", "ModuleAliases", true),
                ("type family Elem c", "Elem", true),
                ("class HasConstructor f where", "HasConstructor", true),
                ("class (Monad m) => MonadLogger m where", "MonadLogger", true),
                ("instance Csv.ToField ImportQualified where", "ImportQualified", true),
                ("instance Show a => Show (Tree a) where", "Tree", true),
                ("module Hasql.TestingKit.Constants where", "Constants", true),
                ("module Main (main) where", "Main", true),
                ("pattern Zero :: Int", "Zero", true),
                ("  Lit :: Int -> Expr Int", "Lit", true),
                // Uses.
                ("  let x = toMime ct", "toMime", false),
                ("  where result = escapeHostName h", "escapeHostName", false),
                ("import PostgREST.Error (pgErrorStatus)", "pgErrorStatus", false),
                ("import qualified Data.Text as T", "T", false),
                ("    x <- fetch conn", "fetch", false),
                ("  when (x == y) $ throwIO err", "when", false),
                ("  | Just x <- lookup k m = x", "Just", false),
                ("  | otherwise = go acc xs", "otherwise", false),
                ("  = Just <$> decode v", "Just", false),
                ("  { specStateName = name", "specStateName", false),
                ("    timeout = 5,", "timeout", false),
                ("data Foo = Foo Int | Bar (Maybe Baz)", "Baz", false),
                ("  deriving (Show, Eq)", "Show", false),
                ("instance Csv.ToField ImportQualified where", "ToField", false),
                ("instance Show a => Show (Tree a) where", "Show", false),
                ("class (Monad m) => MonadLogger m where", "Monad", false),
                ("module Hasql.TestingKit.Constants where", "Hasql", false),
                ("module Main (main) where", "main", false),
                ("makeLenses ''AppState", "AppState", false),
                ("go' acc = acc", "go", false),
                ("-- | main :: IO ()", "main", false),
                ("{-# INLINE escapeHostName #-}", "escapeHostName", false),
            ],
        );
    }

    #[test]
    #[rustfmt::skip]
    fn zig_definitions_and_uses() {
        check(
            Lang::Zig,
            &[
                // Definitions.
                ("pub fn init(allocator: std.mem.Allocator, options: Options) !Self {", "init", true),
                ("fn lessThan(context: void, a: u64, b: u64) bool {", "lessThan", true),
                ("    pub inline fn push(self: *Queue, link: *T) void {", "push", true),
                ("export fn tb_client_init(out: *tb_client_t) callconv(.C) Status {", "tb_client_init", true),
                ("pub extern \"c\" fn write(fd: c_int, buf: [*]const u8, count: usize) isize;", "write", true),
                ("pub const Replica = struct {", "Replica", true),
                ("pub const message_size_max = 1 * 1024 * 1024;", "message_size_max", true),
                ("    const Self = @This();", "Self", true),
                ("        var i: usize = 0;", "i", true),
                ("threadlocal var buffer: [4096]u8 = undefined;", "buffer", true),
                ("comptime var count = 0;", "count", true),
                ("const assert = std.debug.assert;", "assert", true),
                ("    write: Grid.Write = undefined,", "write", true),
                ("    cluster: u128 = 0,", "cluster", true),
                // Uses.
                ("const std = @import(\"std\");", "std", false),
                ("const vsr = @import(\"vsr.zig\");", "vsr", false),
                ("    replica_count: u8,", "replica_count", false),
                ("    allocator: std.mem.Allocator,", "allocator", false),
                ("    const header = message.header;", "message", false),
                ("    try self.write(message);", "write", false),
                ("    write(fd, buf);", "write", false),
                ("    .cluster = cluster,", "cluster", false),
                ("    const size = @sizeOf(Header);", "sizeOf", false),
                ("    assert(x > 0);", "assert", false),
                ("test \"Cluster: smoke\" {", "Cluster", false),
                ("test init {", "init", false),
                ("    blk: {", "blk", false),
                ("    inline for (fields) |field| {", "field", false),
                ("// pub fn init() void {", "init", false),
                ("/// Returns the init value.", "init", false),
                ("    \\\\pub fn init() void {", "init", false),
            ],
        );
    }

    #[test]
    #[rustfmt::skip]
    fn bash_definitions_and_uses() {
        check(
            Lang::Bash,
            &[
                // Definitions.
                ("_get_root() {", "_get_root", true),
                ("  _get_root() {", "_get_root", true),
                ("add_record () {", "add_record", true),
                ("_startswith() { _str=\"$1\"; }", "_startswith", true),
                ("function _info {", "_info", true),
                ("function _info() {", "_info", true),
                ("function cleanup", "cleanup", true),
                ("VER=3.1.4", "VER", true),
                ("PROJECT_NAME=\"acme.sh\"", "PROJECT_NAME", true),
                ("DEFAULT_PATHS=(/usr/bin /bin)", "DEFAULT_PATHS", true),
                ("export LE_WORKING_DIR=\"$HOME/.acme.sh\"", "LE_WORKING_DIR", true),
                ("readonly MAX_RETRIES=5", "MAX_RETRIES", true),
                ("  readonly LOCK_FILE=\"/tmp/lock\"", "LOCK_FILE", true),
                ("declare -A HOOKS=()", "HOOKS", true),
                ("  declare -gr CONFIG_DIR=\"$HOME/.config\"", "CONFIG_DIR", true),
                ("alias ll='ls -l'", "ll", true),
                // Uses.
                ("  _get_root \"$fulldomain\"", "_get_root", false),
                ("  if ! _get_root \"$fulldomain\"; then", "_get_root", false),
                ("  _info \"Adding record\"", "_info", false),
                ("  echo \"$VER\"", "VER", false),
                ("  echo \"${PROJECT_NAME}\"", "PROJECT_NAME", false),
                ("echo VER", "VER", false),
                ("  export _H1=\"Content-Type: application/json\"", "_H1", false),
                ("export LE_WORKING_DIR", "LE_WORKING_DIR", false),
                ("  local _domain=\"$1\"", "_domain", false),
                ("  _domain_id=\"$(echo \"$response\" | cut -d , -f 1)\"", "_domain_id", false),
                ("  declare -A seen=()", "seen", false),
                ("VER+=\"-dev\"", "VER", false),
                ("  [ -z \"$VER\" ] && VER=1", "VER", false),
                ("# _get_root() {", "_get_root", false),
                ("#!/usr/bin/env sh", "env", false),
            ],
        );
    }

    #[test]
    #[rustfmt::skip]
    fn dart_definitions_and_uses() {
        check(
            Lang::Dart,
            &[
                // Definitions.
                ("class Client {", "Client", true),
                ("abstract interface class BaseClient implements Client {", "BaseClient", true),
                ("sealed class Result<T> {", "Result", true),
                ("mixin class Cancelable {", "Cancelable", true),
                ("mixin RetryMixin on BaseClient {", "RetryMixin", true),
                ("enum HttpMethod { get, post }", "HttpMethod", true),
                ("extension StringX on String {", "StringX", true),
                ("extension type UserId(int id) {", "UserId", true),
                ("typedef Headers = Map<String, String>;", "Headers", true),
                ("typedef void Callback(int code);", "Callback", true),
                ("Future<Response> head(Uri url, {Map<String, String>? headers}) =>", "head", true),
                ("Future<T> _withClient<T>(Future<T> Function(Client) fn) async {", "_withClient", true),
                ("void main() {", "main", true),
                ("main() async {", "main", true),
                ("  static Future<MultipartFile> fromPath(String field, String filePath,", "fromPath", true),
                ("  Stream<List<int>> _finalize(String boundary) async* {", "_finalize", true),
                ("  Future<StreamedResponse> send(BaseRequest request);", "send", true),
                ("  @override void close() => _inner.close();", "close", true),
                ("  String get method => _method;", "method", true),
                ("  bool get isEmpty;", "isEmpty", true),
                ("  set contentLength(int? value) {", "contentLength", true),
                ("  Request(this.method, this.url) : super(method, url);", "Request", true),
                ("  const RetryClient(this._inner);", "RetryClient", true),
                ("  RetryClient({", "RetryClient", true),
                ("  Response.bytes(List<int> bodyBytes, int statusCode) : super(statusCode);", "bytes", true),
                ("  factory Client() => IOClient();", "Client", true),
                ("  factory Response.fromJson(Map<String, dynamic> json) {", "fromJson", true),
                ("  final Client _inner;", "_inner", true),
                ("  final FutureOr<bool> Function(BaseResponse) _when;", "_when", true),
                ("  void Function(int)? onProgress;", "onProgress", true),
                ("  static const int maxRedirects = 5;", "maxRedirects", true),
                ("  late final HttpServer server;", "server", true),
                ("  int _retries = 3;", "_retries", true),
                ("const defaultTimeout = Duration(seconds: 30);", "defaultTimeout", true),
                ("final _log = Logger('http');", "_log", true),
                // Uses.
                ("    return head(url, headers: headers);", "head", false),
                ("    final response = await client.get(url);", "response", false),
                ("    final response = await client.get(url);", "get", false),
                ("    await send(request);", "send", false),
                ("    send(request);", "send", false),
                ("    _inner.close();", "close", false),
                ("  runApp(const MyApp());", "MyApp", false),
                ("      const Duration(milliseconds: 500) * math.pow(1.5, retryCount);", "Duration", false),
                ("    final client = Client();", "Client", false),
                ("    var request = new Request('GET', url);", "Request", false),
                ("  Isolate.spawn(entry, port);", "spawn", false),
                ("  test('sends a request', () async {", "test", false),
                ("    FutureOr<bool> Function(BaseResponse) when = _defaultWhen,", "when", false),
                ("      Foo() => 'foo',", "Foo", false),
                ("      ..headers.addAll(headers)", "addAll", false),
                ("    if (isValid(x)) {", "isValid", false),
                ("  Response.bytes(List<int> bodyBytes, int statusCode) : super(statusCode);", "Response", false),
                ("class RetryClient extends BaseClient {", "BaseClient", false),
                ("extension StringX on String {", "String", false),
                ("extension type UserId(int id) {", "type", false),
                ("    ffi.Void Function(", "Function", false),
                ("import 'package:http/http.dart' as http;", "http", false),
                ("  @override", "override", false),
                ("  // void close() => _inner.close();", "close", false),
                ("    print('void close() {');", "close", false),
            ],
        );
    }

    #[test]
    #[rustfmt::skip]
    fn a_name_must_be_a_whole_word() {
        check(
            Lang::TypeScript,
            &[
                ("function useStateful() {", "useState", false),
                ("function _useState() {", "useState", false),
                ("function $useState() {", "useState", false),
            ],
        );
        check(Lang::Python, &[("def caf\u{e9}():", "caf", false)]);
        check(Lang::Rust, &[("fn r#type() {}", "type", false)]);
    }

    #[test]
    #[rustfmt::skip]
    fn later_occurrences_are_examined() {
        check(
            Lang::Cpp,
            &[
                ("Widget::Widget() {", "Widget", true),
                ("Foo Foo::Foo() {", "Foo", true),
            ],
        );
        check(
            Lang::Rust,
            &[("fn parse_args() -> Args { parse_args_impl() }", "parse_args", true)],
        );
    }

    #[test]
    fn lines_that_are_not_utf8_are_handled() {
        assert!(defines(
            Lang::C,
            b"int lookup(const char *s) /* \xff\xfe */ {\n",
            b"lookup"
        ));
        assert!(!defines(
            Lang::C,
            b"\tprintk(\"\xff\"); lookup(x);\n",
            b"lookup"
        ));
        assert!(defines(
            Lang::Python,
            b"def lookup(s=b'\xff'):\r\n",
            b"lookup"
        ));
        assert!(!defines(Lang::Python, b"def \xfflookup():", b"lookup"));
    }

    #[test]
    fn huge_lines_return_and_only_their_start_is_examined() {
        let mut line = b"function minified(){".to_vec();
        while line.len() < 50_000 {
            line.extend_from_slice(b"var a=b(c,d);if(a){return e(a,f)}");
        }
        assert!(defines(Lang::JavaScript, &line, b"minified"));
        assert!(!defines(Lang::JavaScript, &line, b"e"));
        // A name every few bytes: only MAX_OCCURRENCES of them are tried.
        let crowded = b"a ".repeat(25_000);
        assert!(!defines(Lang::Go, &crowded, b"a"));
        // A definition past MAX_SCAN is not seen.
        let mut late = vec![b' '; MAX_SCAN];
        late.extend_from_slice(b"function late() {");
        assert!(!defines(Lang::JavaScript, &late, b"late"));
    }
}
