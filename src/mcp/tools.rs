//! The tools `scout mcp` offers, and how a tool call becomes a request of
//! the request layer ([`crate::request`]).
//!
//! The whole `tools/list` answer sits in the model's context on every
//! turn, so it is kept under 2,500 bytes (tests/it/mcp.rs pins it):
//! one line per tool saying when to use it, parameters named as the
//! command line names them and described in a few words where the name
//! is not enough. A parameter is a field of the tool's request mode, and
//! its type is that field's ([`crate::request::fields_of`]). Every tool's
//! output is an object (the request layer's answer, less its text); its
//! schema says only that.

use serde_json::{json, Map, Value};

/// One tool: its name, its one-line description, its parameters (name and
/// a few words or nothing), the required ones, and the mode of the request
/// it becomes.
pub struct ToolSpec {
    pub name: &'static str,
    pub description: &'static str,
    pub params: &'static [(&'static str, &'static str)],
    pub required: &'static [&'static str],
    pub mode: &'static str,
}

/// The tools, in the order `tools/list` gives them.
pub const TOOLS: [ToolSpec; 5] = [
    ToolSpec {
        name: "search",
        description: "Where a name or text is defined and used: ranked, definitions first, exact counts, what was left out.",
        params: &[
            ("query", ""),
            ("path", ""),
            ("kind", "auto|literal|regex|symbol"),
            ("ignore_case", ""),
            ("glob", ""),
            ("type", ""),
            ("budget_tokens", ""),
            ("page", ""),
            ("structural", "query is an ast-grep pattern"),
            ("lang", "pattern language"),
            ("callers_of", "PATH#SYMBOL: calls"),
            ("impact", "PATH#SYMBOL: dependents"),
            ("depth", ""),
            ("graph_files", ""),
            ("proven_only", ""),
            ("again", "show seen lines"),
        ],
        required: &[],
        mode: "search",
    },
    ToolSpec {
        name: "smart",
        description: "A question in words, names unknown: the definitions answering it, each with why.",
        params: &[
            ("query", ""),
            ("path", ""),
            ("max_results", ""),
            ("glob", ""),
            ("type", ""),
            ("budget_tokens", ""),
        ],
        required: &["query"],
        mode: "smart",
    },
    ToolSpec {
        name: "grep",
        description: "Every match as rg prints it, paginated: for exhaustive lists.",
        params: &[
            ("pattern", "regex"),
            ("path", ""),
            ("output_mode", "files_with_matches|content|count"),
            ("context", ""),
            ("ignore_case", ""),
            ("type", ""),
            ("glob", ""),
            ("head_limit", ""),
            ("offset", ""),
            ("multiline", ""),
        ],
        required: &["pattern"],
        mode: "content",
    },
    ToolSpec {
        name: "files",
        description: "File names matching a glob, newest first.",
        params: &[("pattern", "glob"), ("path", ""), ("limit", "")],
        required: &["pattern"],
        mode: "files",
    },
    ToolSpec {
        name: "read",
        description: "A definition (symbol) or lines (range A:B), numbered.",
        params: &[
            ("path", ""),
            ("symbol", ""),
            ("range", ""),
            ("budget_tokens", ""),
            ("again", ""),
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
        ("pattern", "ast-grep pattern"),
        ("rewrite", "template ($X)"),
        ("lang", ""),
        ("path", ""),
        ("callers_of", "PATH#SYMBOL"),
        ("impact", "PATH#SYMBOL"),
        ("proven_only", "no calls by name alone"),
        ("old", "exact text"),
        ("new", ""),
        ("count", ""),
        ("all", ""),
        ("symbol", "PATH#SYMBOL to replace"),
        ("with", "its new code"),
        ("dry_run", ""),
        ("undo", ""),
        ("budget_tokens", ""),
        ("page", ""),
        ("glob", ""),
    ],
    required: &[],
    mode: "edit",
};

impl ToolSpec {
    /// The tool's input schema: each parameter typed as its request
    /// field is.
    pub fn input_schema(&self) -> Map<String, Value> {
        let fields = crate::request::fields_of(self.mode).unwrap_or_default();
        let properties: Map<String, Value> = self
            .params
            .iter()
            .map(|(name, words)| {
                let field = field_name(name);
                let shape = fields.iter().find(|(known, ..)| *known == field);
                let mut param = Map::new();
                if let Some((_, shape, _)) = shape {
                    param.insert("type".into(), shape.json_type());
                }
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
        self.params.iter().any(|(param, _)| *param == name)
    }

    /// The request of a call with these `arguments`: the tool's mode, its
    /// parameters under the request's names, `text` asked for. The server
    /// refuses a call with any other argument before this.
    pub fn request(&self, arguments: &Map<String, Value>) -> Value {
        let mut request = Map::new();
        request.insert("mode".into(), self.mode.into());
        for (name, value) in arguments {
            request.insert(field_name(name).to_string(), value.clone());
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

/// The request field a parameter stands for: its own name, but
/// `ignore_case` for `-i`, which is no name in most clients' eyes.
fn field_name(param: &str) -> &str {
    match param {
        "ignore_case" => "-i",
        other => other,
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
        for tool in TOOLS.iter().chain([&EDIT_TOOL]) {
            let known = crate::request::fields_of(tool.mode).unwrap();
            for (name, _) in tool.params {
                let field = field_name(name);
                assert!(
                    known.iter().any(|(known, ..)| *known == field),
                    "{}: {name} -> {field}",
                    tool.name
                );
            }
            let schema = Value::Object(tool.input_schema());
            for (name, param) in schema["properties"].as_object().unwrap() {
                assert!(param.get("type").is_some(), "{}: {name}", tool.name);
            }
        }
    }
}
