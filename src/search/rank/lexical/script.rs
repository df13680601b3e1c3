//! The lexical rules for JavaScript, TypeScript, TSX.

use super::tokens::{
    assigned_value, is_ident_byte, is_ident_start, is_reserved, trim_start, Cursor, Group,
};
use super::Site;
use crate::bytes::find_short;

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
pub(super) fn script(site: &Site) -> bool {
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
