//! The lexical rules for Rust.

use super::tokens::{contains_word, ends_with_word, strip_qualifier, trim_end, Cursor, Group};
use super::Site;

/// Rust: `fn`, `struct`, `enum`, `trait`, `type`, `union`, `mod`, `const`,
/// `static` (`static mut`), `macro_rules!`, after any of `pub`,
/// `pub(...)`, `async`, `unsafe`, `default`, `const`, `extern "abi"` and
/// one-line `#[...]` attributes. `impl NAME`, `impl<T> NAME<T>` and
/// `impl Trait for NAME` define the implementing type; the trait in
/// `impl NAME for T` is not defined there. Not: `let` bindings (locals),
/// enum variants and struct fields (no keyword; a parser sees them), `use`
/// imports, macro invocations.
pub(super) fn rust(site: &Site) -> bool {
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
