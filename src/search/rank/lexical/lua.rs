//! The lexical rules for Lua, Luau.

use crate::lang::Lang;

use super::tokens::{
    assigned_value, is_ident_start, is_word_byte, starts_with_word, trim_start, Cursor,
};
use super::Site;

/// Lua and Luau: `function NAME`, `local function NAME`, `function M.NAME`,
/// `function M:NAME` (any dotted path), `local NAME` (also
/// `local a, NAME = ...`, `local NAME: T`, `local NAME <const>`),
/// `NAME = function` and `M.NAME = function` at any indentation (table
/// fields), `NAME = ...` and `M.NAME = ...` with any value at column 0
/// (globals and module fields), Luau `type NAME =`/`export type NAME<T> =`.
/// Not: calls, `M.NAME(x)`, `obj:NAME()`, `local x = NAME(y)`,
/// `return NAME`, `NAME == x`, an indented `self.NAME = value` that is not
/// a function.
pub(super) fn lua(lang: Lang, site: &Site) -> bool {
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
