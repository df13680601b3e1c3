//! The lexical rules for Dart.

use super::tokens::{
    assigned_value, is_ident_byte, skip_annotation, starts_with_word, trim_end, trim_start, Cursor,
    Group,
};
use super::Site;
use crate::bytes::find_short;

/// Dart reserved words: never a defined name, nor a type.
#[rustfmt::skip]
fn is_dart_reserved(word: &[u8]) -> bool {
    matches!(
        word,
        b"assert" | b"await" | b"break" | b"case" | b"catch" | b"class" | b"const"
        | b"continue" | b"default" | b"do" | b"else" | b"enum" | b"extends" | b"false"
        | b"final" | b"finally" | b"for" | b"if" | b"in" | b"is" | b"new" | b"null"
        | b"rethrow" | b"return" | b"super" | b"switch" | b"this" | b"throw" | b"true"
        | b"try" | b"var" | b"while" | b"with" | b"yield"
    )
}

/// Words that cannot start a Dart type: the reserved words and the
/// built-in and contextual keywords that begin other constructs.
#[rustfmt::skip]
fn is_dart_not_type(word: &[u8]) -> bool {
    is_dart_reserved(word)
        || matches!(
            word,
            b"abstract" | b"as" | b"async" | b"augment" | b"base" | b"covariant" | b"export"
            | b"extension" | b"external" | b"factory" | b"get" | b"hide" | b"implements"
            | b"import" | b"interface" | b"late" | b"library" | b"mixin" | b"on" | b"operator"
            | b"part" | b"required" | b"sealed" | b"set" | b"show" | b"static" | b"sync"
            | b"typedef" | b"when"
        )
}

/// Dart class and member modifiers other than the variable keywords
/// (`final`, `const`, `var`, `late`) and `factory`.
#[rustfmt::skip]
fn is_dart_modifier(word: &[u8]) -> bool {
    matches!(
        word,
        b"abstract" | b"base" | b"interface" | b"sealed" | b"augment" | b"external"
        | b"static" | b"covariant"
    )
}

/// Dart:
/// - after annotations (`@override`, `@Deprecated('x')`) and modifiers:
///   `class` (`abstract interface class`, `sealed class`, `mixin class`,
///   ...), `mixin`, `enum`, `extension NAME`, `extension type NAME`,
///   `typedef NAME` (also the old `typedef void NAME(int x);`);
/// - functions and methods: a return type (`void`, `Future<List<int>>?`,
///   `p.Client`, `(int, String)`, `void Function(int)`) then `NAME(` or
///   `NAME<T>(` whose parameters go on over the next lines or are
///   followed by `{`, `=>`, `async`, `sync*`, `;` (abstract and external
///   members) or nothing; without a return type, a closed parameter list
///   then `{`, `=>` or `async` (`main() {`); getters `TYPE get NAME` and
///   setters `set NAME(`;
/// - constructors at member indentation (column 0, two spaces or a tab,
///   since Dart has no nested classes): an upper-case `NAME(` followed by
///   `{`, `:`, nothing, or `;` when a modifier (`const`) or a `this.`/
///   `super.` parameter shows a declaration; a named constructor
///   `Class.NAME(` likewise (it defines NAME, not the class);
///   `factory NAME(` and `factory Class.NAME(` at any indentation;
/// - variables at member indentation (top-level variables and fields):
///   `final`, `const`, `var` or `late` with or without a type, or a type
///   alone, then `NAME =`, `NAME;` or `NAME, other;`.
///
/// Not: calls (`NAME(x);`, `NAME(() {`, `Class.NAME(x);`),
/// `return`/`await`/`new`/`throw NAME(`, `x = NAME`, `const NAME(`
/// indented deeper than members (a constant expression, such as a Flutter
/// widget), arguments and switch-expression arms (a closed parameter list
/// on a line ending in `,`), parameters, enum values, and variables
/// indented deeper than members (locals). Known false positive: a local
/// of a top-level function, which sits at member indentation.
pub(super) fn dart(site: &Site) -> bool {
    // `Function` names function types: `void Function(int) f`.
    if is_dart_reserved(site.name()) || site.name() == b"Function" {
        return false;
    }
    let mut c = Cursor::new(site.before());
    // `final`, `const`, `var` or `late` seen.
    let mut variable = false;
    let mut constant = false;
    let mut factory = false;
    // A modifier or an annotation seen, which a call cannot have.
    let mut modified = false;
    loop {
        if c.peek() == Some(b'@') {
            if !skip_annotation(&mut c) {
                return false;
            }
            modified = true;
            continue;
        }
        let save = c;
        match c.word() {
            Some(b"class" | b"enum") => return c.at_end(),
            Some(b"mixin") => {
                if c.at_end() {
                    return true;
                }
                // `mixin class NAME`.
                modified = true;
            }
            Some(b"extension") => {
                // In `extension type NAME`, `type` is not the name.
                return (c.eat_word(b"type") || site.name() != b"type") && c.at_end();
            }
            Some(b"typedef") => return dart_typedef(c, site),
            Some(b"final" | b"var" | b"late") => variable = true,
            Some(b"const") => {
                variable = true;
                constant = true;
            }
            Some(b"factory") => factory = true,
            Some(word) if is_dart_modifier(word) => modified = true,
            _ => {
                c = save;
                break;
            }
        }
    }
    let rest = trim_end(c.rest());
    if let Some(class) = rest.strip_suffix(b".") {
        return (!variable || constant)
            && is_dart_type_name(class)
            && dart_constructor(site, factory, constant || modified);
    }
    let typed = !rest.is_empty() && rest != b"get" && rest != b"set";
    if typed && !skip_dart_type(&mut c) {
        return false;
    }
    let after = site.after();
    if c.eat_word(b"get") {
        let a = trim_start(after);
        return c.at_end()
            && (a.is_empty()
                || matches!(a[0], b'{' | b';')
                || a.starts_with(b"=>")
                || starts_with_word(a, b"async")
                || starts_with_word(a, b"sync"));
    }
    if c.eat_word(b"set") {
        return c.at_end() && trim_start(after).starts_with(b"(");
    }
    if !c.at_end() {
        return false;
    }
    if !matches!(after.first(), Some(b'(' | b'<')) {
        return (variable || typed) && dart_variable(site);
    }
    if !typed && (factory || is_dart_type_name(site.name())) {
        return (!variable || constant) && dart_constructor(site, factory, constant || modified);
    }
    !variable && dart_function(site, typed, modified)
}

/// After `typedef` (`c` stands after it): `typedef NAME = ...` and
/// `typedef NAME<T> = ...`, or the old form with a return type before the
/// name, `typedef void NAME(int x);`.
fn dart_typedef(mut c: Cursor, site: &Site) -> bool {
    if c.at_end() {
        return true;
    }
    skip_dart_type(&mut c) && c.at_end() && matches!(site.after().first(), Some(b'(' | b'<'))
}

/// A Dart constructor's parameters and what follows them. `factory` says
/// the line has the `factory` keyword, a declaration wherever it stands;
/// `declared` says it has another modifier (`const`, `external`, an
/// annotation), which lets a body-less `NAME(...);` count.
fn dart_constructor(site: &Site, factory: bool, declared: bool) -> bool {
    if !factory && !is_dart_member_level(site) {
        return false;
    }
    let after = site.after();
    let mut a = Cursor::new(after);
    match a.group(b'(', b')') {
        Group::Absent => false,
        // Parameters on the next lines: `Foo(` or `Foo({`.
        Group::Open => factory || matches!(trim_end(after), b"(" | b"({"),
        Group::Closed => {
            if trim_end(site.line).ends_with(b",") {
                return false;
            }
            let tail = a.rest();
            match tail.first() {
                None | Some(b'{' | b':') => true,
                // `factory Foo() = _FooImpl;`, `factory Foo() => ...`.
                Some(b'=') => factory,
                Some(b';') => {
                    factory
                        || declared
                        || find_short(after, b"this.").is_some()
                        || find_short(after, b"super.").is_some()
                }
                _ => tail.starts_with(b"//"),
            }
        }
    }
}

/// A Dart function or method: optional type parameters, then parameters
/// followed by a body (`{`, `=>`, `async`, `sync*`); with a return type
/// or a modifier (`typed`, `declared`), also `;` or nothing (abstract and
/// external members, a body on the next line); with a return type or at
/// column 0, parameters that go on over the next lines. A closed
/// parameter list on a line ending in `,` is an argument or a
/// switch-expression arm.
fn dart_function(site: &Site, typed: bool, declared: bool) -> bool {
    let mut a = Cursor::new(site.after());
    if a.group(b'<', b'>') == Group::Open {
        return false;
    }
    match a.group(b'(', b')') {
        Group::Absent => false,
        Group::Open => typed || site.at_column_zero(),
        Group::Closed => {
            if trim_end(site.line).ends_with(b",") {
                return false;
            }
            let tail = a.rest();
            match tail.first() {
                Some(b'{') => true,
                Some(b'=') => tail.get(1) == Some(&b'>'),
                None | Some(b';') => typed || declared,
                _ => {
                    starts_with_word(tail, b"async")
                        || starts_with_word(tail, b"sync")
                        || ((typed || declared) && tail.starts_with(b"//"))
                }
            }
        }
    }
}

/// A Dart variable at member indentation (a top-level variable or a
/// field), its keyword and type already read: `NAME = value`, `NAME;`,
/// `NAME, other;`. A line ending in `,` is a parameter with a default.
fn dart_variable(site: &Site) -> bool {
    let line = trim_end(site.line);
    if !is_dart_member_level(site) || line.ends_with(b",") {
        return false;
    }
    let after = trim_start(site.after());
    assigned_value(after).is_some()
        || after.starts_with(b";")
        || (after.starts_with(b",") && line.ends_with(b";"))
}

/// True when the line is indented as a Dart class member is (`dart
/// format`: two spaces; or one tab) or not at all. Dart has no nested
/// classes, so anything deeper is in a body.
fn is_dart_member_level(site: &Site) -> bool {
    matches!(&site.line[..site.indent], b"" | b"  " | b"\t")
}

/// True for an identifier whose first letter is upper-case (`Foo`,
/// `_Foo`), as class names and so unnamed constructors are.
fn is_dart_type_name(word: &[u8]) -> bool {
    let letters = &word[word.iter().take_while(|&&b| b == b'_').count()..];
    word.iter().all(|&b| is_ident_byte(b)) && letters.first().is_some_and(u8::is_ascii_uppercase)
}

/// Skips a Dart type: `int`, `void`, `p.Client`, `Future<List<int>>?`, a
/// record `(int, String)`, a function type `void Function(int)?`. False
/// when the words are not a type (`return`, `await`, `import`...).
fn skip_dart_type(c: &mut Cursor) -> bool {
    if c.peek() == Some(b'(') {
        if c.group(b'(', b')') != Group::Closed {
            return false;
        }
    } else {
        match c.word() {
            Some(word) if !is_dart_not_type(word) => {}
            _ => return false,
        }
        while c.peek_raw() == Some(b'.') {
            c.bump();
            if c.word_touching().is_none() {
                return false;
            }
        }
        if c.peek_raw() == Some(b'<') && c.group(b'<', b'>') != Group::Closed {
            return false;
        }
    }
    if c.peek_raw() == Some(b'?') {
        c.bump();
    }
    let save = *c;
    if c.word() == Some(b"Function") {
        if c.peek_raw() == Some(b'<') && c.group(b'<', b'>') != Group::Closed {
            return false;
        }
        if c.group(b'(', b')') != Group::Closed {
            return false;
        }
        if c.peek_raw() == Some(b'?') {
            c.bump();
        }
    } else {
        *c = save;
    }
    true
}
