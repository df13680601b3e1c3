//! The tools `scout mcp` offers, and how a tool call becomes a request of
//! the request layer ([`crate::request`]).
//!
//! The whole `tools/list` answer sits in the model's context on every
//! turn, so it is kept under 2,500 bytes (tests/it/mcp.rs pins it):
//! one line per tool saying when to use it, parameters named as the
//! command line names them and described in a few words where the name
//! is not enough. Every tool's output is an object (the request layer's
//! answer, less its text); its schema says only that.

use serde_json::{json, Map, Value};

/// One tool: its name, its one-line description, its parameters (name,
/// JSON type, a few words or nothing), the required ones, and the mode of
/// the request it becomes.
pub struct ToolSpec {
    pub name: &'static str,
    pub description: &'static str,
    pub params: &'static [(&'static str, &'static str, &'static str)],
    pub required: &'static [&'static str],
    pub mode: &'static str,
}

const S: &str = "string";
const I: &str = "integer";
const B: &str = "boolean";
/// One path, or an array of them.
const PATHS: &str = "string|array";

/// The tools, in the order `tools/list` gives them.
pub const TOOLS: [ToolSpec; 5] = [
    ToolSpec {
        name: "search",
        description: "Where a name or text is defined and used: ranked, definitions first, exact counts, what was left out.",
        params: &[
            ("query", S, ""),
            ("path", PATHS, ""),
            ("kind", S, "auto|literal|regex|symbol"),
            ("ignore_case", B, ""),
            ("glob", S, ""),
            ("type", S, ""),
            ("budget_tokens", I, ""),
            ("page", I, ""),
            ("structural", B, "query is an ast-grep pattern"),
            ("lang", S, "pattern language"),
            ("callers_of", S, "PATH#SYMBOL: calls"),
            ("impact", S, "PATH#SYMBOL: dependents"),
            ("depth", I, ""),
            ("graph_files", I, ""),
            ("proven_only", B, ""),
            ("again", B, "show seen lines"),
        ],
        required: &[],
        mode: "search",
    },
    ToolSpec {
        name: "smart",
        description: "A question in words, names unknown: the definitions answering it, each with why.",
        params: &[
            ("query", S, ""),
            ("path", S, ""),
            ("max_results", I, ""),
            ("glob", S, ""),
            ("type", S, ""),
            ("budget_tokens", I, ""),
        ],
        required: &["query"],
        mode: "smart",
    },
    ToolSpec {
        name: "grep",
        description: "Every match as rg prints it, paginated: for exhaustive lists.",
        params: &[
            ("pattern", S, "regex"),
            ("path", S, ""),
            ("output_mode", S, "files_with_matches|content|count"),
            ("context", I, ""),
            ("ignore_case", B, ""),
            ("type", S, ""),
            ("glob", S, ""),
            ("head_limit", I, ""),
            ("offset", I, ""),
            ("multiline", B, ""),
        ],
        required: &["pattern"],
        mode: "content",
    },
    ToolSpec {
        name: "files",
        description: "File names matching a glob, newest first.",
        params: &[("pattern", S, "glob"), ("path", S, ""), ("limit", I, "")],
        required: &["pattern"],
        mode: "files",
    },
    ToolSpec {
        name: "read",
        description: "A definition (symbol) or lines (range A:B), numbered.",
        params: &[
            ("path", S, ""),
            ("symbol", S, ""),
            ("range", S, ""),
            ("budget_tokens", I, ""),
            ("again", B, ""),
        ],
        required: &["path"],
        mode: "read",
    },
];

/// The tool `scout mcp --allow-edit` adds: it writes files.
pub const EDIT_TOOL: ToolSpec = ToolSpec {
    name: "edit",
    description: "Rewrite code in one call, all or nothing, with a diff page; undo restores. Structural (pattern+rewrite+lang, scoped by callers_of), text (old/new on path), or a definition (symbol+with).",
    params: &[
        ("pattern", S, "ast-grep pattern"),
        ("rewrite", S, "template ($X)"),
        ("lang", S, ""),
        ("path", PATHS, ""),
        ("callers_of", S, "PATH#SYMBOL"),
        ("impact", S, "PATH#SYMBOL"),
        ("proven_only", B, "no calls by name alone"),
        ("old", PATHS, "exact text"),
        ("new", PATHS, ""),
        ("count", I, ""),
        ("all", B, ""),
        ("symbol", S, "PATH#SYMBOL to replace"),
        ("with", S, "its new code"),
        ("dry_run", B, ""),
        ("undo", B, ""),
        ("budget_tokens", I, ""),
        ("page", I, ""),
        ("glob", S, ""),
    ],
    required: &[],
    mode: "edit",
};

impl ToolSpec {
    /// The tool's input schema.
    pub fn input_schema(&self) -> Map<String, Value> {
        let properties: Map<String, Value> = self
            .params
            .iter()
            .map(|(name, kind, words)| {
                let mut param = Map::new();
                let kind: Value = match kind.split_once('|') {
                    Some((one, other)) => json!([one, other]),
                    None => (*kind).into(),
                };
                param.insert("type".into(), kind);
                if !words.is_empty() {
                    param.insert("description".into(), (*words).into());
                }
                (name.to_string(), Value::Object(param))
            })
            .collect();
        let mut schema = Map::new();
        schema.insert("type".into(), "object".into());
        schema.insert("properties".into(), Value::Object(properties));
        if !self.required.is_empty() {
            schema.insert("required".into(), json!(self.required));
        }
        schema
    }

    /// The tool's output schema: an object (the request layer's answer).
    pub fn output_schema() -> Map<String, Value> {
        let mut schema = Map::new();
        schema.insert("type".into(), "object".into());
        schema
    }

    /// Whether `name` is one of the tool's parameters.
    pub fn takes(&self, name: &str) -> bool {
        self.params.iter().any(|(param, ..)| *param == name)
    }

    /// The request of a call with these `arguments`: the tool's mode, its
    /// parameters under the request's names, `text` asked for. The server
    /// refuses a call with any other argument before this.
    pub fn request(&self, arguments: &Map<String, Value>) -> Value {
        let mut request = Map::new();
        request.insert("mode".into(), self.mode.into());
        for (name, value) in arguments {
            let field = match name.as_str() {
                "ignore_case" => "-i",
                other => other,
            };
            request.insert(field.to_string(), value.clone());
        }
        if self.mode != "read" {
            request.insert("text".into(), true.into());
        }
        if NAMES_CALLS.contains(&self.mode) {
            // The pages then name this tool's calls, not commands.
            let call = json!({"name": self.name, "arguments": arguments});
            request.insert("tool".into(), call);
        }
        Value::Object(request)
    }
}

/// The modes whose pages name the tool call they came through (the
/// request layer's `tool`).
const NAMES_CALLS: &[&str] = &["search", "content", "read"];

/// The tool named `name` (the edit tool only where edits are allowed).
pub fn tool(name: &str, allow_edit: bool) -> Option<&'static ToolSpec> {
    TOOLS
        .iter()
        .find(|t| t.name == name)
        .or_else(|| (allow_edit && name == EDIT_TOOL.name).then_some(&EDIT_TOOL))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_is_a_field_of_its_mode() {
        for tool in &TOOLS {
            for (name, kind, _) in tool.params {
                let value: Value = match *kind {
                    "string" => "x".into(),
                    "string|array" => json!(["x"]),
                    "integer" => 1.into(),
                    _ => true.into(),
                };
                let mut arguments = Map::new();
                arguments.insert(name.to_string(), value);
                let request = tool.request(&arguments);
                let field = request
                    .as_object()
                    .unwrap()
                    .keys()
                    .find(|k| !["mode", "text"].contains(&k.as_str()))
                    .cloned()
                    .unwrap_or_default();
                let known = crate::request::fields(tool.mode);
                assert!(
                    known.contains(&field.as_str()),
                    "{}: {name} -> {field}",
                    tool.name
                );
            }
        }
    }
}
