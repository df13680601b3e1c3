//! How a view was asked for, so that its page can name another page of
//! it on the surface it is read on: a command line on the CLI, a
//! call of the tool it came through on MCP (`search {"query": "x",
//! "page": 2}`), which a model that only has tools can make as it is.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// Bytes of a command (or a tool call) a footer repeats, at most: past
/// them (a long question typed as a query), it names the command
/// instead of writing it again. The JSON's `next` is always whole.
pub const COMMAND_SHOWN: usize = 400;

/// A call of an MCP tool: its name and arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    pub name: String,
    pub arguments: Map<String, Value>,
}

impl ToolCall {
    /// The same call with `key` set to `value`.
    pub fn with(&self, key: &str, value: impl Into<Value>) -> ToolCall {
        let mut arguments = self.arguments.clone();
        arguments.insert(key.to_string(), value.into());
        ToolCall {
            name: self.name.clone(),
            arguments,
        }
    }

    /// The same call without `key`.
    pub fn without(&self, key: &str) -> ToolCall {
        let mut arguments = self.arguments.clone();
        arguments.remove(key);
        ToolCall {
            name: self.name.clone(),
            arguments,
        }
    }

    /// `name {"argument": value, ...}`, as a footer writes it: the
    /// arguments in name order, whatever order the client gave them in.
    pub fn text(&self) -> String {
        let sorted: BTreeMap<&String, &Value> = self.arguments.iter().collect();
        let arguments = serde_json::to_string(&sorted).unwrap_or_default();
        format!("{} {arguments}", self.name)
    }
}

/// How a view was asked for: the command typed (without `--page`,
/// `--json`), or the tool call.
#[derive(Debug, Clone, PartialEq)]
pub enum Asked {
    Command(String),
    Tool(ToolCall),
}

impl Asked {
    /// The footer's way to page `n`: the command or call itself, or,
    /// when it is longer than [`COMMAND_SHOWN`], a sentence saying what
    /// to add.
    pub fn page(&self, n: usize) -> String {
        match self {
            Asked::Command(command) if command.len() > COMMAND_SHOWN => {
                format!("the same command with --page {n}")
            }
            Asked::Command(command) => format!("{command} --page {n}"),
            Asked::Tool(call) => {
                let text = call.with("page", n).text();
                match text.len() > COMMAND_SHOWN {
                    true => format!("the same {} call with \"page\": {n}", call.name),
                    false => text,
                }
            }
        }
    }

    /// [`Asked::page`], in words when longer than `room` bytes.
    pub fn page_within(&self, n: usize, room: usize) -> String {
        let text = self.page(n);
        if text.len() <= room {
            return text;
        }
        match self {
            Asked::Command(_) => format!("the same command with --page {n}"),
            Asked::Tool(call) => format!("the same {} call with \"page\": {n}", call.name),
        }
    }

    /// The JSON's `next` for page `n`: the command with `--json --page
    /// N`, or the tool's arguments with `"page": N`.
    pub fn next(&self, n: usize) -> Value {
        match self {
            Asked::Command(command) => format!("{command} --json --page {n}").into(),
            Asked::Tool(call) => Value::Object(call.with("page", n).arguments),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn search(query: &str) -> Asked {
        let Value::Object(arguments) = json!({"query": query}) else {
            unreachable!()
        };
        Asked::Tool(ToolCall {
            name: "search".into(),
            arguments,
        })
    }

    #[test]
    fn a_command_gets_flags_and_a_tool_call_gets_arguments() {
        let command = Asked::Command("scout search x".into());
        assert_eq!(command.page(2), "scout search x --page 2");
        assert_eq!(command.next(3), json!("scout search x --json --page 3"));
        let call = search("x");
        assert_eq!(call.page(2), r#"search {"page":2,"query":"x"}"#);
        assert_eq!(call.next(3), json!({"query": "x", "page": 3}));
    }

    #[test]
    fn a_long_command_or_call_is_named_not_repeated() {
        let long = "x".repeat(COMMAND_SHOWN);
        assert_eq!(
            Asked::Command(format!("scout search {long}")).page(3),
            "the same command with --page 3"
        );
        assert_eq!(
            search(&long).page(3),
            "the same search call with \"page\": 3"
        );
        // The JSON's next is whole.
        assert_eq!(search(&long).next(3)["query"], json!(long));
    }
}
