//! The lexical rules for C and C++.

use super::tokens::{
    assigned_value, is_ident_start, is_reserved, starts_with_word, strip_qualifier, trim_end,
    trim_start, Cursor, Group,
};
use super::Site;
use crate::bytes::find_short;

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
pub(super) fn c_family(site: &Site) -> bool {
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
