//! Reading the JSON files `scout setup` edits, in the dialect their
//! client reads, into jsonc-parser's concrete syntax tree: the tree holds
//! every byte of the file (comments, spacing, commas), so whatever scout
//! does not touch is written back as the person wrote it, and what it adds
//! follows the file's indentation, line ends and trailing commas.
//!
//! This module owns the dialects, where a file does not parse, and the
//! turning of serde_json values into the tree's input. Callers find, add,
//! replace and remove members with jsonc-parser's own API
//! (`CstObject::get`, `append`, `CstObjectProp::set_value`, `remove`)
//! and write the tree out with `to_string`.

use anyhow::{bail, Result};
use jsonc_parser::cst::{CstInputValue, CstRootNode};
use jsonc_parser::{ast, CollectOptions, ParseOptions};
use serde::Serialize;

/// How a file is read: as strictly as its client reads it, so scout
/// edits what the client would read and refuses, naming where, what the
/// client would refuse too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// Plain JSON: Claude Code rejects its settings with a comment in them
    /// as malformed, and the other clients document plain JSON.
    Json,
    /// JSON with `//` and `/* */` comments and trailing commas, as VS Code
    /// reads its `mcp.json`.
    Jsonc,
}

impl Dialect {
    /// The dialect's name in messages.
    fn name(self) -> &'static str {
        match self {
            Dialect::Json => "JSON",
            Dialect::Jsonc => "JSONC",
        }
    }

    /// jsonc-parser's options for the dialect: none of its JSON5
    /// extensions, which no client reads.
    fn options(self) -> ParseOptions {
        let jsonc = self == Dialect::Jsonc;
        ParseOptions {
            allow_comments: jsonc,
            allow_trailing_commas: jsonc,
            allow_loose_object_property_names: false,
            allow_missing_commas: false,
            allow_single_quoted_strings: false,
            allow_hexadecimal_numbers: false,
            allow_unary_plus_numbers: false,
            allow_bare_decimal_point_numbers: false,
            allow_non_finite_numbers: false,
            allow_extended_string_escapes: false,
        }
    }
}

/// The syntax tree of `text`, or an error saying where it is not valid in
/// `dialect` (`not valid JSON at line L, column C (what)`, both 1-based,
/// the column in characters). Text that is only blank is read as empty:
/// a tree with no value.
pub fn parse(text: &str, dialect: Dialect) -> Result<CstRootNode> {
    let text = if text.trim().is_empty() { "" } else { text };
    let options = dialect.options();
    // The tree's parser collects comments as tokens, and on that path
    // jsonc-parser 0.34 does not apply `allow_comments: false`; the plain
    // parse does, so it checks the text first.
    let checked = jsonc_parser::parse_to_ast(text, &CollectOptions::default(), &options)
        .and_then(|_| CstRootNode::parse(text, &options));
    match checked {
        Ok(root) => Ok(root),
        Err(e) => {
            let what = e.kind().to_string();
            let mut first = what.chars();
            let what = first
                .next()
                .map(|c| c.to_lowercase().chain(first).collect::<String>())
                .unwrap_or_default();
            bail!(
                "not valid {} at line {}, column {} ({what})",
                dialect.name(),
                e.line_display(),
                e.column_display()
            )
        }
    }
}

/// `value` as input to the tree, members in the order it serialises
/// them (a struct's in field order; a `serde_json::Value`'s sorted, as
/// scout builds it without serde_json's `preserve_order`).
pub fn input(value: &impl Serialize) -> Result<CstInputValue> {
    let text = serde_json::to_string(value)?;
    let parsed =
        jsonc_parser::parse_to_ast(&text, &CollectOptions::default(), &Dialect::Json.options())?;
    Ok(parsed.value.map_or(CstInputValue::Null, from_ast))
}

/// A parsed value as input to the tree.
fn from_ast(value: ast::Value) -> CstInputValue {
    match value {
        ast::Value::NullKeyword(_) => CstInputValue::Null,
        ast::Value::BooleanLit(b) => CstInputValue::Bool(b.value),
        ast::Value::NumberLit(n) => CstInputValue::Number(n.value.to_string()),
        ast::Value::StringLit(s) => CstInputValue::String(s.value.into_owned()),
        ast::Value::Array(a) => {
            CstInputValue::Array(a.elements.into_iter().map(from_ast).collect())
        }
        ast::Value::Object(o) => CstInputValue::Object(
            o.properties
                .into_iter()
                .map(|p| (p.name.into_string(), from_ast(p.value)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn deleting_keeps_the_rest_byte_for_byte() {
        let doc = "{\n  \"a\": 1,\n  \"b\": [1,  2, 3],\n  \"c\": {\"x\": true}\n}\n";
        let edited = |edit: &dyn Fn(&CstRootNode)| {
            let root = parse(doc, Dialect::Json).unwrap();
            edit(&root);
            root.to_string()
        };
        let top = |root: &CstRootNode| root.object_value().unwrap();
        assert_eq!(
            edited(&|r| top(r).get("a").unwrap().remove()),
            "{\n  \"b\": [1,  2, 3],\n  \"c\": {\"x\": true}\n}\n"
        );
        assert_eq!(
            edited(&|r| top(r).get("c").unwrap().remove()),
            "{\n  \"a\": 1,\n  \"b\": [1,  2, 3]\n}\n"
        );
        let element =
            |r: &CstRootNode, i: usize| top(r).array_value("b").unwrap().elements()[i].clone();
        assert_eq!(
            edited(&|r| element(r, 1).remove()),
            doc.replace("[1,  2, 3]", "[1, 3]")
        );
        // jsonc-parser keeps what followed the first element's comma on
        // its line (the old hand-written edit took it too).
        assert_eq!(
            edited(&|r| element(r, 0).remove()),
            doc.replace("[1,  2, 3]", "[  2, 3]")
        );
        assert_eq!(
            edited(&|r| top(r).object_value("c").unwrap().get("x").unwrap().remove()),
            doc.replace("{\"x\": true}", "{}")
        );
    }

    #[test]
    fn appending_follows_the_indentation() {
        let doc = "{\n    \"a\": [\n        1\n    ]\n}";
        let root = parse(doc, Dialect::Json).unwrap();
        let top = root.object_value().unwrap();
        top.array_value("a")
            .unwrap()
            .append(input(&json!({"k": 2})).unwrap());
        assert_eq!(
            root.to_string(),
            "{\n    \"a\": [\n        1,\n        {\n            \"k\": 2\n        }\n    ]\n}"
        );
        let root = parse(doc, Dialect::Json).unwrap();
        root.object_value()
            .unwrap()
            .append("z", input(&json!([])).unwrap());
        assert_eq!(
            root.to_string(),
            "{\n    \"a\": [\n        1\n    ],\n    \"z\": []\n}"
        );
        let root = parse("{}", Dialect::Json).unwrap();
        root.object_value()
            .unwrap()
            .append("z", input(&json!(1)).unwrap());
        assert_eq!(root.to_string(), "{\n  \"z\": 1\n}");
    }

    #[test]
    fn broken_json_says_where() {
        let e = parse("{\n  \"a\": 1,\n  oops\n}", Dialect::Json)
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 3, column 3"), "{e}");
    }

    #[test]
    fn comments_and_trailing_commas_are_jsonc_only() {
        let doc = "{\n  // mine\n  \"a\": 1, /* one */\n  \"b\": [2,],\n}\n";
        let e = parse(doc, Dialect::Json).unwrap_err().to_string();
        assert_eq!(
            e,
            "not valid JSON at line 2, column 3 (comments are not allowed)"
        );
        let e = parse("{\"a\": [2,]}", Dialect::Json)
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 1, column 9 (trailing commas"), "{e}");
        let root = parse(doc, Dialect::Jsonc).unwrap();
        assert_eq!(root.to_string(), doc);
        assert_eq!(root.to_serde_value(), Some(json!({"a": 1, "b": [2]})));
        let e = parse("{'a': 1}", Dialect::Jsonc).unwrap_err().to_string();
        assert!(e.starts_with("not valid JSONC at line 1, column 2"), "{e}");
    }
}
