//! The lexical rules for Haskell.

use super::tokens::{
    is_ident_start, is_word_byte, skip_bracketed, skip_dotted_name, strip_qualifier, trim_end,
    trim_start, Cursor, Group,
};
use super::Site;
use crate::bytes::find_short;

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
pub(super) fn haskell(site: &Site) -> bool {
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
