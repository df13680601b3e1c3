//! The lexical rules for Scala.

use super::tokens::{assigned_value, skip_annotation, starts_with_word, trim_start, Cursor, Group};
use super::Site;
use crate::bytes::find_short;

/// Scala modifiers (`case` is handled apart: it also starts enum cases).
#[rustfmt::skip]
fn is_scala_modifier(word: &[u8]) -> bool {
    matches!(
        word,
        b"private" | b"protected" | b"override" | b"final" | b"sealed" | b"abstract"
        | b"implicit" | b"lazy" | b"inline" | b"opaque" | b"open" | b"transparent" | b"infix"
    )
}

/// Scala 2 and 3:
/// - after annotations (`@tailrec`, `@deprecated("x", "2.0")`), modifiers
///   (`private[pkg]`, `final`, `implicit`, `lazy`, ...) and Scala 3
///   `extension (x: T)` clauses: `def`, `class`, `trait`, `object`,
///   `type`, `enum`, `case class`, `case object`, `package object`, named
///   givens (`given NAME: T`, `given NAME[T](using ...): T`), and
///   `val`/`var NAME` followed by `:`, `=`, `,` or the end of the line, at
///   any indentation (as Kotlin's `val`);
/// - Scala 3 enum cases: `case NAME`, `case A, NAME`, `case NAME(x: T)`,
///   `case NAME[T](x: T) extends E[T]`, followed by nothing, a comment,
///   `extends`, or `,` and more cases.
///
/// Not: match cases (`case NAME =>`, `case NAME(x) =>`, `case NAME if`,
/// `case x: T =>`: a pattern has `=>` or `:` after it), anonymous givens
/// (`given Ord[Int] with`), `new NAME`, `extends NAME`, `val x = NAME`,
/// patterns (`val Some(NAME) = ...`), constructor parameters
/// (`class C(val NAME: T)`, not handled), and package clauses
/// (`package a.b.NAME`): a file's header naming the package it belongs
/// to, repeated in every file of the package, as Java's, Kotlin's and
/// Go's are, whose rules do not count them either.
pub(super) fn scala(site: &Site) -> bool {
    let mut c = Cursor::new(site.before());
    let mut keyword: Option<&[u8]> = None;
    while !c.at_end() {
        if keyword.is_none() && c.peek() == Some(b'@') {
            if !skip_annotation(&mut c) {
                return false;
            }
            continue;
        }
        let Some(word) = c.word() else {
            return false;
        };
        if keyword.is_some() {
            return false;
        }
        match word {
            b"case" => {
                if !(c.eat_word(b"class") || c.eat_word(b"object")) {
                    return scala_enum_case(c, site);
                }
                keyword = Some(word);
            }
            b"package" => {
                if !c.eat_word(b"object") {
                    return false;
                }
                keyword = Some(word);
            }
            b"extension" => {
                if !skip_scala_parameters(&mut c) {
                    return false;
                }
            }
            b"def" | b"val" | b"var" | b"class" | b"trait" | b"object" | b"type" | b"enum"
            | b"given" => keyword = Some(word),
            _ if is_scala_modifier(word) => {
                // `private[pkg]`, `protected[this]`.
                if c.peek_raw() == Some(b'[') && c.group(b'[', b']') != Group::Closed {
                    return false;
                }
            }
            _ => return false,
        }
    }
    let after = trim_start(site.after());
    match keyword {
        Some(b"val" | b"var") => {
            after.is_empty() || matches!(after[0], b':' | b',') || assigned_value(after).is_some()
        }
        Some(b"given") => {
            let mut a = Cursor::new(site.after());
            skip_scala_parameters(&mut a) && a.peek() == Some(b':')
        }
        Some(_) => true,
        None => false,
    }
}

/// The rest of a Scala 3 enum case, `c` standing after `case`: before the
/// name, earlier cases of a list (`case A, B, NAME`); after it, optional
/// type and value parameters, then nothing, a comment, `extends`, or `,`
/// and more cases (never `=>`, which ends a match case's pattern).
fn scala_enum_case(mut c: Cursor, site: &Site) -> bool {
    while !c.at_end() {
        if c.word().is_none() || !c.eat(b",") {
            return false;
        }
    }
    let mut a = Cursor::new(site.after());
    if !skip_scala_parameters(&mut a) {
        return false;
    }
    let rest = a.rest();
    rest.is_empty()
        || rest.starts_with(b"//")
        || starts_with_word(rest, b"extends")
        || (rest.starts_with(b",") && find_short(rest, b"=>").is_none())
}

/// Skips optional Scala type parameters `[...]` and parameter lists
/// `(...)(...)`; false when one does not close on the line.
fn skip_scala_parameters(c: &mut Cursor) -> bool {
    if c.group(b'[', b']') == Group::Open {
        return false;
    }
    while c.peek() == Some(b'(') {
        if c.group(b'(', b')') != Group::Closed {
            return false;
        }
    }
    true
}
