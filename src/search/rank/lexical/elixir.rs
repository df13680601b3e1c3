//! The lexical rules for Elixir.

use super::tokens::{
    is_blank, is_ident_start, skip_dotted_name, strip_qualifier, trim_end, trim_start, Cursor,
};
use super::Site;

/// Module attributes that Elixir, ExUnit or Mix read: setting one
/// (`@doc "..."`, `@impl true`, `@tag :slow`) uses a known name rather
/// than defining one.
#[rustfmt::skip]
fn is_elixir_reserved_attribute(word: &[u8]) -> bool {
    matches!(
        word,
        b"doc" | b"moduledoc" | b"typedoc" | b"spec" | b"impl" | b"behaviour" | b"behavior"
        | b"derive" | b"deprecated" | b"compile" | b"dialyzer" | b"enforce_keys"
        | b"before_compile" | b"after_compile" | b"after_verify" | b"on_definition"
        | b"on_load" | b"external_resource" | b"optional_callbacks" | b"file" | b"vsn"
        | b"nifs" | b"fallback_to_any" | b"type" | b"typep" | b"opaque" | b"callback"
        | b"macrocallback" | b"tag" | b"moduletag" | b"describetag" | b"shortdoc"
        | b"recursive" | b"preferred_cli_env" | b"requirements"
    )
}

/// Elixir:
/// - `def`, `defp`, `defmacro`, `defmacrop`, `defguard`, `defguardp`,
///   `defdelegate` and Nx's `defn`/`defnp`, then the name followed by
///   `(`, `,` (`def NAME, do: ...`), ` do`, ` when`, bare arguments or
///   nothing;
/// - `defmodule` and `defprotocol`, counting only the last segment of a
///   dotted name (`defmodule A.B.NAME`: `defmodule A.B` does not define
///   `A`, which has its own `defmodule A`);
/// - `defimpl Proto, for: NAME`, which, as Rust's `impl Trait for NAME`,
///   defines the implementing module's behaviour, not the protocol;
/// - `@type`, `@typep`, `@opaque`, `@callback`, `@macrocallback NAME`
///   followed by `(` or `::`;
/// - a module attribute set at the start of a line, `@NAME value`, unless
///   Elixir, ExUnit or Mix reads it (`@doc`, `@spec`, `@impl`, `@tag`...).
///
/// Not: calls, `Foo.NAME`, `&NAME/1`, `@NAME` read in an expression
/// (nothing or an operator after it), `def NAME?`/`def NAME!` (other
/// names), `defstruct`/`defexception` fields, the protocol in
/// `defimpl NAME, for: T`, leading segments of module names,
/// `def unquote(name)(...)`.
pub(super) fn elixir(site: &Site) -> bool {
    let after = site.after();
    if matches!(after.first(), Some(b'?' | b'!')) {
        return false;
    }
    let mut c = Cursor::new(site.before());
    if c.eat(b"@") {
        if c.at_end() {
            return elixir_attribute(site);
        }
        return matches!(
            c.word_touching(),
            Some(b"type" | b"typep" | b"opaque" | b"callback" | b"macrocallback")
        ) && c.at_end()
            && (after.first() == Some(&b'(') || trim_start(after).starts_with(b"::"));
    }
    match c.word() {
        Some(
            b"def" | b"defp" | b"defmacro" | b"defmacrop" | b"defguard" | b"defguardp"
            | b"defdelegate" | b"defn" | b"defnp",
        ) => c.at_end() && site.name() != b"unquote" && elixir_function_follows(after),
        Some(b"defmodule" | b"defprotocol") => {
            trim_end(strip_qualifier(c.rest(), b".").0).is_empty() && elixir_module_follows(after)
        }
        Some(b"defimpl") => {
            skip_dotted_name(&mut c)
                && c.eat(b",")
                && c.eat_word(b"for")
                && c.eat(b":")
                && trim_end(strip_qualifier(c.rest(), b".").0).is_empty()
                && elixir_module_follows(after)
        }
        _ => false,
    }
}

/// True when `after` (the text after a function's name) continues a
/// function head: `(`, `,`, or a blank then nothing, `,` or a word (`do`,
/// `when`, arguments without parentheses).
fn elixir_function_follows(after: &[u8]) -> bool {
    match after.first() {
        None | Some(b'(' | b',') => true,
        Some(&b) if is_blank(b) => {
            let rest = trim_start(after);
            rest.is_empty() || rest[0] == b',' || is_ident_start(rest[0])
        }
        _ => false,
    }
}

/// True when `after` (the text after a module name) ends the whole name:
/// nothing, `,` (`defmodule NAME, do: ...`) or a blank (` do`). A `.`
/// makes NAME a leading segment.
fn elixir_module_follows(after: &[u8]) -> bool {
    match after.first() {
        None | Some(b',') => true,
        Some(&b) => is_blank(b),
    }
}

/// `@NAME value` at the start of a line: the module attribute NAME set,
/// unless Elixir reads it. A value must follow: `@NAME` alone, or followed
/// by an operator (`@NAME |> f()`, `@NAME in list`), reads the attribute.
fn elixir_attribute(site: &Site) -> bool {
    let after = site.after();
    if is_elixir_reserved_attribute(site.name()) || !after.first().is_some_and(|&b| is_blank(b)) {
        return false;
    }
    let value = trim_start(after);
    match value.first() {
        None => false,
        Some(b'-') => value.get(1).is_some_and(u8::is_ascii_digit),
        Some(b'<') => value.starts_with(b"<<"),
        Some(b':') => value.get(1) != Some(&b':'),
        Some(b'"' | b'\'' | b'[' | b'{' | b'%' | b'~' | b'(' | b'&' | b'@') => true,
        Some(&b) if b.is_ascii_digit() => true,
        Some(&b) if is_ident_start(b) => !matches!(
            Cursor::new(value).word(),
            Some(b"in" | b"and" | b"or" | b"when" | b"not" | b"do" | b"else" | b"end")
        ),
        _ => false,
    }
}
