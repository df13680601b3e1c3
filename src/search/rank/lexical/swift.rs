//! The lexical rules for Swift.

use super::tokens::{
    assigned_value, skip_annotation, strip_qualifier, trim_end, trim_start, Cursor, Group,
};
use super::Site;

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
pub(super) fn swift(site: &Site) -> bool {
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
