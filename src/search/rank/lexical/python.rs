//! The lexical rules for Python.

use super::tokens::{is_reserved, trim_end, trim_start, Cursor};
use super::Site;

/// Python: `def`, `async def`, `class`, 3.12 `type NAME =`, and an
/// assignment or annotation at the start of a line (`NAME = ...`,
/// `NAME: T = ...`), whatever the indentation, since a line does not say
/// whether it is at module, class or function level. Not: `NAME == x`,
/// augmented assignments, `self.NAME = ...` (an attribute, not a
/// definition), tuple targets (`a, NAME = ...`, not handled), and
/// keyword-argument lines of a multi-line call (`NAME=value` without spaces,
/// or any line ending in `,`).
pub(super) fn python(site: &Site) -> bool {
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
