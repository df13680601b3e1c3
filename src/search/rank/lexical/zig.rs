//! The lexical rules for Zig.

use super::tokens::{assigned_value, trim_end, trim_start, Cursor};
use super::Site;
use crate::bytes::find_short;

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
pub(super) fn zig(site: &Site) -> bool {
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
