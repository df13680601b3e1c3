//! The lexical rules for Go.

use super::tokens::{is_blank, is_ident_start, is_reserved, Cursor, Group};
use super::Site;

/// Go: `func NAME`, methods `func (r *T) NAME`, `type NAME`, `var NAME`,
/// `const NAME`, and, because the entries of `const (`, `var (` and `type (`
/// blocks and struct fields carry no keyword, an indented line that starts
/// with the name followed by `=`, a type (` T`, ` *T`, ` []T`), or a
/// parameter list and a result (an interface method). Not: `NAME := ...`
/// (a local), calls `NAME(x)`, `NAME.x = 1`, `NAME[i] = x`. Known false
/// positive: a reassignment `\tNAME = x` in a function body.
pub(super) fn go(site: &Site) -> bool {
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
