//! The lexical rules for PHP.

use super::tokens::Cursor;
use super::Site;

/// PHP: `function NAME` (also `function &NAME`) after `public`, `private`,
/// `protected`, `static`, `abstract`, `final`, `readonly`; `class`,
/// `interface`, `trait`, `enum`, `const NAME`; `define('NAME', ...)`.
/// Not: calls, `$this->NAME(`, `new NAME`, `NAME::x`, typed class
/// constants (`const string NAME`, not handled).
pub(super) fn php(site: &Site) -> bool {
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
