//! The lexical rules for Java, Kotlin, C#.

use crate::lang::Lang;

use super::tokens::{is_reserved, is_word_byte, trim_end, Cursor, Group};
use super::Site;

/// Modifiers of Java, Kotlin and C# declarations (the union: a word that is
/// a modifier in one language is rarely an identifier in the others).
#[rustfmt::skip]
fn is_managed_modifier(word: &[u8]) -> bool {
    matches!(
        word,
        b"public" | b"private" | b"protected" | b"internal" | b"static" | b"abstract"
        | b"sealed" | b"open" | b"data" | b"annotation" | b"inline" | b"value" | b"inner"
        | b"companion" | b"override" | b"suspend" | b"operator" | b"infix" | b"tailrec"
        | b"external" | b"const" | b"lateinit" | b"expect" | b"actual" | b"default"
        | b"synchronized" | b"native" | b"strictfp" | b"transient" | b"volatile" | b"readonly"
        | b"virtual" | b"async" | b"unsafe" | b"extern" | b"partial" | b"required"
        | b"delegate" | b"event" | b"ref" | b"implicit" | b"explicit"
    )
}

/// Java, Kotlin and C#:
/// - after annotations (`@Override`, `@Get("/x")`), C# attributes
///   (`[HttpGet]`) and modifiers: `class`, `interface`, `@interface`,
///   `enum`, `record`, `struct`, `object`, `namespace`, and Kotlin `fun`,
///   `val`, `var`, `typealias`, including generic and extension forms
///   (`fun <T> List<T>.NAME`);
/// - Java and C# members without a keyword: a return type then
///   `NAME(` or `NAME<T>(` is a method (abstract and interface methods
///   ending in `;` included); modifiers then `NAME(` is a constructor; a
///   type then `NAME {` or `NAME =>` is a C# property; modifiers (other
///   than a lone `final`), a type, then `NAME =`/`;`/`,` is a field.
///
/// Not: calls and `return`/`new`/`throw` forms, member access
/// (`foo.NAME(x)`), locals (`Foo NAME = ...`, `var NAME = ...`; but Kotlin
/// `val`/`var` count at any indentation, and so do Kotlin primary-constructor
/// properties `class User(val NAME: T)`), `NAME x = ...` (a local of type
/// NAME), enum constants (`NAME("x"),`: indistinguishable from arguments).
pub(super) fn managed(lang: Lang, site: &Site) -> bool {
    if lang == Lang::Kotlin && kotlin_constructor_property(site) {
        return true;
    }
    let mut c = Cursor::new(site.before());
    let mut declared = false;
    let mut keyword: Option<&[u8]> = None;
    loop {
        match c.peek() {
            None => break,
            Some(b'@') => {
                c.bump();
                match c.word_touching() {
                    Some(b"interface") => keyword = Some(b"interface"),
                    Some(_) => {
                        while c.peek_raw() == Some(b'.') {
                            c.bump();
                            if c.word_touching().is_none() {
                                return false;
                            }
                        }
                        if c.peek_raw() == Some(b'(') && c.group(b'(', b')') != Group::Closed {
                            return false;
                        }
                    }
                    None => return false,
                }
                continue;
            }
            Some(b'[') if lang == Lang::CSharp && keyword.is_none() => {
                if c.group(b'[', b']') != Group::Closed {
                    return false;
                }
                continue;
            }
            _ => {}
        }
        let save = c;
        match c.word() {
            Some(word) if is_managed_keyword(lang, word) => keyword = Some(word),
            Some(word) if keyword.is_none() && is_managed_modifier(word) => {
                declared = true;
            }
            Some(b"final") if keyword.is_none() => {}
            _ => {
                c = save;
                break;
            }
        }
    }
    match keyword {
        Some(b"fun" | b"val" | b"var") => {
            c.group(b'<', b'>') != Group::Open && is_receiver_prefix(c.rest())
        }
        Some(b"namespace") => is_receiver_prefix(c.rest()),
        Some(_) => c.at_end(),
        None if lang == Lang::Kotlin => false,
        None => managed_member(lang, site, c, declared),
    }
}

/// A Kotlin primary-constructor property: `class User(val id: Long,
/// private var NAME: String)`, the `val`/`var` right after a `(` or `,`.
fn kotlin_constructor_property(site: &Site) -> bool {
    let before = site.before();
    let Some(open) = before.iter().rposition(|&b| b == b'(' || b == b',') else {
        return false;
    };
    let mut c = Cursor::new(&before[open + 1..]);
    let mut last: &[u8] = b"";
    while !c.at_end() {
        match c.word() {
            Some(word) if is_managed_modifier(word) || word == b"val" || word == b"var" => {
                last = word;
            }
            _ => return false,
        }
    }
    last == b"val" || last == b"var"
}

fn is_managed_keyword(lang: Lang, word: &[u8]) -> bool {
    match word {
        b"class" | b"interface" | b"enum" => true,
        b"record" => lang != Lang::Kotlin,
        b"struct" | b"namespace" => lang == Lang::CSharp,
        b"object" | b"fun" | b"val" | b"var" | b"typealias" => lang == Lang::Kotlin,
        _ => false,
    }
}

/// A Java or C# member without a declaration keyword; `c` stands after
/// the annotations and modifiers, `declared` says whether there were
/// modifiers other than `final`.
fn managed_member(lang: Lang, site: &Site, mut c: Cursor, declared: bool) -> bool {
    if is_reserved(site.name()) {
        return false;
    }
    // Generic method type parameters: `public static <T> T NAME(`.
    if c.group(b'<', b'>') == Group::Open {
        return false;
    }
    let typed = !c.at_end();
    if typed && !(skip_managed_type(lang, &mut c) && c.at_end()) {
        return false;
    }
    let mut a = Cursor::new(site.after());
    if a.group(b'<', b'>') == Group::Open {
        return false;
    }
    match a.peek() {
        Some(b'(') => typed || declared,
        Some(b'{') => typed && lang == Lang::CSharp,
        Some(b'=') => match a.peek_second() {
            Some(b'>') => typed && lang == Lang::CSharp,
            Some(b'=') => false,
            _ => typed && declared,
        },
        Some(b';' | b',') => typed && declared,
        _ => false,
    }
}

/// Skips a Java or C# type: `int`, `a.b.Foo`, `List<Map<K, V>>`, `int[]`,
/// `int?`, C# tuples `(int, string)`. False when the words are not a type
/// (`return`, `new`, `foo.` with nothing after the dot).
fn skip_managed_type(lang: Lang, c: &mut Cursor) -> bool {
    if lang == Lang::CSharp && c.peek() == Some(b'(') {
        if c.group(b'(', b')') != Group::Closed {
            return false;
        }
    } else {
        match c.word() {
            Some(word) if !is_reserved(word) => {}
            _ => return false,
        }
    }
    loop {
        match c.peek_raw() {
            Some(b'.') => {
                c.bump();
                if c.word_touching().is_none() {
                    return false;
                }
            }
            Some(b'<') => {
                if c.group(b'<', b'>') != Group::Closed {
                    return false;
                }
            }
            Some(b'[') => {
                if c.group(b'[', b']') != Group::Closed {
                    return false;
                }
            }
            Some(b'?' | b'*') => c.bump(),
            _ => return true,
        }
    }
}

/// True when `s` is empty or a receiver type or qualifier ending in `.`
/// (Kotlin `List<T>.`, `Foo?.`, C# `Company.Product.`).
fn is_receiver_prefix(s: &[u8]) -> bool {
    let s = trim_end(s);
    s.is_empty()
        || (s.ends_with(b".")
            && s.iter().all(|&b| {
                is_word_byte(b) || matches!(b, b'.' | b'<' | b'>' | b',' | b'?' | b'*' | b' ')
            }))
}
