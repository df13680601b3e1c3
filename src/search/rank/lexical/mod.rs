//! Lexical rules that say whether one source line defines a name.
//!
//! This module owns [`defines`]: given a language, one line (raw bytes, as
//! rg reports it) and an identifier, it answers "is this line a definition of
//! that identifier?" from the tokens around each whole-word occurrence of the
//! name. It is the ranker's strongest signal and the fallback for files no
//! parser handles. It knows nothing about the lines around the one it is
//! given, so it cannot see multi-line strings, block comments opened earlier,
//! or the block a line sits in; the parser-backed definitions (`defs`) own
//! anything that needs that context. Mapping paths to languages is
//! [`crate::lang`]'s job.
//!
//! The rules follow one shape: the name occurs as a whole word, and what
//! stands before it on the line is a definition keyword (`fn`, `def`,
//! `class`, `function`, `const`, ...) after nothing but modifiers, or, for
//! languages that define without a keyword (C functions, Java and Dart
//! methods, JS class members, Python assignments, Haskell equations), a
//! return type or an empty prefix with a telling continuation after the
//! name. Anything else before the name (an `=`, a `(`, a `.`, `return`, a
//! string quote) means a use, so a definition never crosses an `=`:
//! `const [a, setA] = useState(0)` does not define `useState`.
//!
//! Each language's rules sit in a module of their own (one for the C
//! family, one for Java, Kotlin and C#, one for JavaScript and
//! TypeScript); what they read a line with is [`tokens`]. Deliberate
//! choices, per language, are listed in the doc comment of each rule
//! function and pinned by the tests in `tests.rs`.
//!
//! Cost: no allocation, no regex; at most [`MAX_SCAN`] bytes of a line and
//! [`MAX_OCCURRENCES`] occurrences of the name are examined, each in time
//! linear in the line, so a minified 50 KB line costs the same as a short
//! one.

mod bash;
mod c;
mod dart;
mod elixir;
mod go;
mod haskell;
mod lua;
mod managed;
mod php;
mod python;
mod ruby;
mod rust;
mod scala;
mod script;
mod swift;
#[cfg(test)]
mod tests;
mod tokens;

pub(crate) use tokens::contains_word;
mod zig;

use crate::bytes::find_short;
use crate::lang::Lang;

use bash::bash;
use c::c_family;
use dart::dart;
use elixir::elixir;
use go::go;
use haskell::haskell;
use lua::lua;
use managed::managed;
use php::php;
use python::python;
use ruby::ruby;
use rust::rust;
use scala::scala;
use script::script;
use swift::swift;
use tokens::{is_blank, is_ident_byte, is_word_byte, trim_newline};
use zig::zig;

/// Bytes of a line that are examined; the rest is ignored. A definition
/// worth ranking never starts this far into a line (minified files have
/// lines of tens of kilobytes).
pub const MAX_SCAN: usize = 1000;

/// Whole-word occurrences of the name examined per line; a definition names
/// its subject within the first few words.
pub const MAX_OCCURRENCES: usize = 8;

/// True when `line` (one source line, bytes, possibly with a trailing
/// `\n`/`\r\n`, possibly not UTF-8) is a definition of the identifier `name`
/// in language `lang`.
///
/// `name` must satisfy [`is_identifier`]; any other `name` gives `false`.
/// Only the first [`MAX_SCAN`] bytes of `line` are looked at. The tests'
/// entry; the ranking calls [`defines_identifier`] on names it checked.
#[cfg(test)]
pub fn defines(lang: Lang, line: &[u8], name: &[u8]) -> bool {
    is_identifier(name) && defines_identifier(lang, line, name)
}

/// [`defines`] for a `name` the caller has checked with [`is_identifier`]
/// once, rather than once per line (the ranker asks it of every matching
/// line). Given any other `name`, the answer means nothing.
pub fn defines_identifier(lang: Lang, line: &[u8], name: &[u8]) -> bool {
    let line = trim_newline(&line[..line.len().min(MAX_SCAN)]);
    let indent = line
        .iter()
        .position(|&b| !is_blank(b))
        .unwrap_or(line.len());
    if is_comment(lang, &line[indent..]) {
        return false;
    }
    let mut from = indent;
    let mut seen = 0;
    while let Some(offset) = find_short(&line[from..], name) {
        let start = from + offset;
        let end = start + name.len();
        let before_ok = start == 0 || !is_word_byte(line[start - 1]);
        let after_ok = end == line.len() || !is_word_byte(line[end]);
        if before_ok && after_ok {
            let site = Site {
                line,
                indent,
                start,
                end,
            };
            if defines_at(lang, &site) {
                return true;
            }
            seen += 1;
            if seen == MAX_OCCURRENCES {
                return false;
            }
        }
        from = start + 1;
    }
    false
}

/// True when `s` is an ASCII identifier: `[A-Za-z_$][A-Za-z0-9_$]*` (`$`
/// because JavaScript and PHP names may hold it). Only such queries are
/// worth asking [`defines`] about.
pub fn is_identifier(s: &[u8]) -> bool {
    match s.split_first() {
        Some((&first, rest)) => {
            (first.is_ascii_alphabetic() || first == b'_' || first == b'$')
                && rest.iter().all(|&b| is_ident_byte(b))
        }
        None => false,
    }
}

/// One whole-word occurrence of the name on a line.
///
/// Invariant: `indent <= start < end <= line.len()`; `line` has no trailing
/// newline; `line[..indent]` is blank and `line[indent]` is not.
pub(super) struct Site<'a> {
    pub(super) line: &'a [u8],
    /// Byte offset of the first non-blank byte.
    pub(super) indent: usize,
    /// Byte range of the name.
    pub(super) start: usize,
    pub(super) end: usize,
}

impl<'a> Site<'a> {
    /// The code between the indentation and the name.
    pub(super) fn before(&self) -> &'a [u8] {
        &self.line[self.indent..self.start]
    }

    /// Everything after the name.
    pub(super) fn after(&self) -> &'a [u8] {
        &self.line[self.end..]
    }

    pub(super) fn name(&self) -> &'a [u8] {
        &self.line[self.start..self.end]
    }

    /// True when the line starts in column 0 (file scope, in languages
    /// whose definitions need a keyword only inside blocks).
    pub(super) fn at_column_zero(&self) -> bool {
        self.indent == 0
    }
}

fn defines_at(lang: Lang, site: &Site) -> bool {
    match lang {
        Lang::Rust => rust(site),
        Lang::Python => python(site),
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => script(site),
        Lang::Go => go(site),
        Lang::Ruby => ruby(site),
        Lang::Java | Lang::Kotlin | Lang::CSharp => managed(lang, site),
        Lang::C | Lang::Cpp => c_family(site),
        Lang::Php => php(site),
        Lang::Lua | Lang::Luau => lua(lang, site),
        Lang::Swift => swift(site),
        Lang::Scala => scala(site),
        Lang::Elixir => elixir(site),
        Lang::Haskell => haskell(site),
        Lang::Zig => zig(site),
        Lang::Bash => bash(site),
        Lang::Dart => dart(site),
    }
}

/// True when the code part of a line (after indentation) is a comment:
/// `//`, `/*` or a `*` continuation in C-like languages (Swift, Scala, Zig
/// and Dart among them), `#` in Python, Ruby, Elixir, Bash (a `#!` line
/// too) and PHP (not PHP 8's `#[` attributes), `--` in Lua, `--` and `{-`
/// (pragmas `{-# ... #-}` too) in Haskell. A `*` followed by an identifier
/// is code (a JavaScript generator method), not a comment. A Zig line
/// starting with `\\` is the inside of a multi-line string: no code either.
fn is_comment(lang: Lang, code: &[u8]) -> bool {
    let c_like = || {
        code.starts_with(b"//")
            || code.starts_with(b"/*")
            || (code.first() == Some(&b'*')
                && matches!(code.get(1), None | Some(b' ' | b'\t' | b'/' | b'*')))
    };
    match lang {
        Lang::Python | Lang::Ruby | Lang::Elixir | Lang::Bash => code.first() == Some(&b'#'),
        Lang::Php => (code.first() == Some(&b'#') && code.get(1) != Some(&b'[')) || c_like(),
        Lang::Lua | Lang::Luau => code.starts_with(b"--"),
        Lang::Haskell => code.starts_with(b"--") || code.starts_with(b"{-"),
        Lang::Zig => c_like() || code.starts_with(b"\\\\"),
        Lang::Rust
        | Lang::JavaScript
        | Lang::TypeScript
        | Lang::Tsx
        | Lang::Go
        | Lang::Java
        | Lang::Kotlin
        | Lang::CSharp
        | Lang::C
        | Lang::Cpp
        | Lang::Swift
        | Lang::Scala
        | Lang::Dart => c_like(),
    }
}
