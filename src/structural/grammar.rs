//! scout's tree-sitter grammars as ast-grep languages: the one
//! [`Language`] implementation, so that patterns and files are parsed by
//! the very grammars `defs` uses (one tree-sitter runtime, 0.27, serves
//! both).
//!
//! What it owns: the metavariable sigil each grammar can parse. `$X`
//! lexes as one identifier in JavaScript, TypeScript and Java; elsewhere
//! (Rust, Python, Go, C#, Kotlin, Ruby, PHP, Lua) the pattern's
//! metavariable `$`s are rewritten before parsing to `µ`, a letter those
//! grammars accept in identifiers ([`Grammar::expando`]), and read back as
//! metavariables from it. C and C++'s grammars reject non-ASCII
//! identifier characters, so they get `_`.

use std::borrow::Cow;

use ast_grep_core::matcher::PatternBuilder;
use ast_grep_core::tree_sitter::{LanguageExt, StrDoc, TSLanguage};
use ast_grep_core::{Language, Pattern, PatternError};

use crate::lang::Lang;

/// One of scout's grammars, as ast-grep's matcher sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grammar(pub Lang);

impl Grammar {
    /// The character standing for `$` while a pattern is parsed: `$`
    /// itself where the grammar lexes `$NAME` as one identifier.
    pub fn expando(self) -> char {
        match self.0 {
            Lang::JavaScript
            | Lang::TypeScript
            | Lang::Tsx
            | Lang::Java
            | Lang::Scala
            | Lang::Dart => '$',
            Lang::C | Lang::Cpp | Lang::Zig => '_',
            Lang::Rust
            | Lang::Python
            | Lang::Go
            | Lang::Ruby
            | Lang::Kotlin
            | Lang::CSharp
            | Lang::Php
            | Lang::Lua
            | Lang::Luau
            | Lang::Swift
            | Lang::Elixir
            | Lang::Haskell
            | Lang::Bash => 'µ',
        }
    }
}

/// `pattern` with the `$` of each metavariable (`$X`, `$$X`, `$$$X`,
/// `$_`, a bare `$$$`) replaced by `sigil`; any other `$` (PHP's
/// `$name`, a `$` in a string) is left alone. A metavariable's name
/// starts with an upper-case letter or `_`.
pub fn substitute_sigil(pattern: &str, sigil: char) -> Cow<'_, str> {
    if sigil == '$' || !pattern.contains('$') {
        return Cow::Borrowed(pattern);
    }
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '$' {
            out.push(c);
            continue;
        }
        let mut run = 1;
        while chars.peek() == Some(&'$') {
            chars.next();
            run += 1;
        }
        let names_a_variable = chars
            .peek()
            .is_some_and(|&n| n.is_ascii_uppercase() || n == '_');
        let replace = (run <= 3 && names_a_variable) || run == 3;
        for _ in 0..run {
            out.push(if replace { sigil } else { '$' });
        }
    }
    Cow::Owned(out)
}

impl Language for Grammar {
    fn pre_process_pattern<'q>(&self, query: &'q str) -> Cow<'q, str> {
        substitute_sigil(query, self.expando())
    }

    fn expando_char(&self) -> char {
        self.expando()
    }

    fn kind_to_id(&self, kind: &str) -> u16 {
        self.get_ts_language().id_for_node_kind(kind, true)
    }

    fn field_to_id(&self, field: &str) -> Option<u16> {
        self.get_ts_language()
            .field_id_for_name(field)
            .map(|id| id.get())
    }

    fn build_pattern(&self, builder: &PatternBuilder) -> Result<Pattern, PatternError> {
        builder.build(|source| StrDoc::try_new(source, *self))
    }
}

impl LanguageExt for Grammar {
    fn get_ts_language(&self) -> TSLanguage {
        crate::defs::grammar(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_metavariables_change_sigil() {
        assert_eq!(substitute_sigil("$X.unwrap()", 'µ'), "µX.unwrap()");
        assert_eq!(substitute_sigil("f($$$ARGS)", 'µ'), "f(µµµARGS)");
        assert_eq!(substitute_sigil("f($$$)", 'µ'), "f(µµµ)");
        assert_eq!(substitute_sigil("$_ = 1", '_'), "__ = 1");
        assert_eq!(substitute_sigil("echo $name;", 'µ'), "echo $name;");
        assert_eq!(substitute_sigil("'$'", 'µ'), "'$'");
        assert_eq!(substitute_sigil("$X", '$'), "$X");
    }

    #[test]
    fn every_grammar_loads_and_names_its_kinds() {
        for lang in Lang::ALL {
            let grammar = Grammar(lang);
            assert!(grammar.get_ts_language().node_kind_count() > 10, "{lang:?}");
        }
        assert_ne!(Grammar(Lang::Rust).kind_to_id("call_expression"), 0);
    }
}
