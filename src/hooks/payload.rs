//! The JSON a Claude Code hook reads on stdin, as far as scout uses it.
//!
//! Reference: "Hooks reference", Claude Code docs,
//! <https://code.claude.com/docs/en/hooks> (sections "Hook input",
//! "PreToolUse", "PostToolUse"). Every event carries `session_id`,
//! `transcript_path`, `cwd` and `hook_event_name`; tool events add
//! `tool_name`, `tool_input` (the tool's arguments), `tool_use_id`, and
//! PostToolUse `tool_response`. Inside a subagent the payload also carries
//! `agent_id` (and `agent_type`); the lead's calls have no `agent_id`,
//! while both share the lead's `session_id`.
//!
//! The tools' inputs (`Read`: `file_path`, `offset`, `limit`; `Bash`:
//! `command`, `timeout`, `run_in_background`; `Grep`: `pattern`, `path`,
//! `glob`, `type`, `output_mode`, `head_limit`, ...) are read leniently:
//! unknown fields are ignored and a field of an unexpected type counts as
//! absent, so a newer harness adding fields never breaks the hook. A
//! payload without `session_id` is an error (logged, not shown).

use std::path::PathBuf;

use anyhow::{Context, Result};
use serde::Deserialize;
use serde_json::Value;

/// One hook call's input.
#[derive(Debug, Clone, Deserialize)]
pub struct Payload {
    pub session_id: String,
    /// The agent's working directory when the hook fired (absolute). A
    /// payload without one gets the hook process's (Claude Code starts
    /// hooks in the project directory).
    #[serde(default)]
    pub cwd: PathBuf,
    #[serde(default)]
    pub hook_event_name: Option<String>,
    #[serde(default)]
    pub tool_name: Option<String>,
    #[serde(default)]
    pub tool_input: Value,
    #[serde(default)]
    pub tool_response: Value,
    /// Pairs a PreToolUse call with its PostToolUse.
    #[serde(default)]
    pub tool_use_id: Option<String>,
    /// The subagent that made the call; `None` for the lead.
    #[serde(default)]
    pub agent_id: Option<String>,
}

/// The tool call a payload is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tool {
    Read(ReadInput),
    Bash(BashInput),
    Grep(GrepInput),
    /// Any other tool: scout's hooks ignore it.
    Other,
}

/// The Read tool's arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadInput {
    pub file_path: String,
    /// The first line to read. The reference calls it "the line number to
    /// start reading from"; scout takes it as 1-based, 0 as 1.
    pub offset: Option<u64>,
    /// How many lines; the tool reads [`READ_DEFAULT_LIMIT`] without it.
    pub limit: Option<u64>,
}

/// Lines the Read tool reads when no `limit` is given.
pub const READ_DEFAULT_LIMIT: u64 = 2000;

/// The Bash tool's arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BashInput {
    pub command: String,
    /// Milliseconds, as the tool takes it.
    pub timeout_ms: Option<u64>,
    pub background: bool,
}

/// The Grep tool's arguments that decide how much it prints.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GrepInput {
    pub pattern: String,
    pub path: Option<String>,
    pub glob: Option<String>,
    pub file_type: Option<String>,
    /// `content`, `files_with_matches` (the tool's default) or `count`.
    pub output_mode: Option<String>,
    pub head_limit: Option<u64>,
}

/// What the Read tool says it returned (PostToolUse): a text file's
/// lines `start_line..start_line + num_lines`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadResponse {
    /// 1-based.
    pub start_line: u64,
    pub num_lines: u64,
}

impl Payload {
    /// Parses stdin's bytes.
    pub fn parse(bytes: &[u8]) -> Result<Payload> {
        serde_json::from_slice(bytes).context("the hook's stdin is not a tool-call payload")
    }

    /// The tool call, from `tool_name` and `tool_input`.
    pub fn tool(&self) -> Tool {
        let input = &self.tool_input;
        let text = |key: &str| input.get(key).and_then(Value::as_str).map(str::to_string);
        let number = |key: &str| input.get(key).and_then(Value::as_u64);
        match self.tool_name.as_deref() {
            Some("Read") => match text("file_path") {
                Some(file_path) => Tool::Read(ReadInput {
                    file_path,
                    offset: number("offset"),
                    limit: number("limit"),
                }),
                None => Tool::Other,
            },
            Some("Bash") => match text("command") {
                Some(command) => Tool::Bash(BashInput {
                    command,
                    timeout_ms: number("timeout"),
                    background: input
                        .get("run_in_background")
                        .and_then(Value::as_bool)
                        .unwrap_or(false),
                }),
                None => Tool::Other,
            },
            Some("Grep") => Tool::Grep(GrepInput {
                pattern: text("pattern").unwrap_or_default(),
                path: text("path").filter(|p| !p.is_empty()),
                glob: text("glob").filter(|g| !g.is_empty()),
                file_type: text("type").filter(|t| !t.is_empty()),
                output_mode: text("output_mode"),
                head_limit: number("head_limit"),
            }),
            _ => Tool::Other,
        }
    }

    /// The Read tool's response, when it returned text: `None` for an
    /// image, a PDF, a notebook, or a response of another shape.
    pub fn read_response(&self) -> Option<ReadResponse> {
        let response = &self.tool_response;
        if let Some(kind) = response.get("type").and_then(Value::as_str) {
            if kind != "text" {
                return None;
            }
        }
        let file = response.get("file")?;
        Some(ReadResponse {
            start_line: file.get("startLine").and_then(Value::as_u64)?.max(1),
            num_lines: file.get("numLines").and_then(Value::as_u64)?,
        })
    }

    /// Whether PostToolUse says the tool did not finish (an interrupted
    /// Bash command).
    pub fn interrupted(&self) -> bool {
        self.tool_response
            .get("interrupted")
            .and_then(Value::as_bool)
            .unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shaped as Claude Code sends it (the reference's examples).
    const READ_POST: &str = r#"{
      "session_id": "abc123",
      "transcript_path": "/home/u/.claude/projects/p/abc123.jsonl",
      "cwd": "/repo",
      "permission_mode": "default",
      "hook_event_name": "PostToolUse",
      "tool_name": "Read",
      "tool_input": {"file_path": "/repo/src/lib.rs", "offset": 10, "limit": 5},
      "tool_response": {"type": "text", "file": {"filePath": "/repo/src/lib.rs",
        "content": "a\nb\nc\nd\ne", "numLines": 5, "startLine": 10, "totalLines": 80}},
      "tool_use_id": "toolu_01"
    }"#;

    #[test]
    fn a_read_payload_gives_the_file_and_the_lines_returned() {
        let p = Payload::parse(READ_POST.as_bytes()).unwrap();
        assert_eq!(p.session_id, "abc123");
        assert_eq!(p.agent_id, None);
        assert_eq!(
            p.tool(),
            Tool::Read(ReadInput {
                file_path: "/repo/src/lib.rs".into(),
                offset: Some(10),
                limit: Some(5)
            })
        );
        assert_eq!(
            p.read_response(),
            Some(ReadResponse {
                start_line: 10,
                num_lines: 5
            })
        );
    }

    #[test]
    fn subagent_bash_and_grep_payloads_parse_leniently() {
        let bash = r#"{"session_id":"s","cwd":"/r","hook_event_name":"PreToolUse",
          "agent_id":"a-1","agent_type":"Explore","tool_name":"Bash",
          "tool_input":{"command":"cat x","timeout":"soon","description":"d","new_field":1}}"#;
        let p = Payload::parse(bash.as_bytes()).unwrap();
        assert_eq!(p.agent_id.as_deref(), Some("a-1"));
        assert_eq!(
            p.tool(),
            Tool::Bash(BashInput {
                command: "cat x".into(),
                timeout_ms: None,
                background: false
            })
        );
        let grep = r#"{"session_id":"s","cwd":"/r","tool_name":"Grep",
          "tool_input":{"pattern":"foo","output_mode":"content","-n":true,"path":""}}"#;
        let Tool::Grep(input) = Payload::parse(grep.as_bytes()).unwrap().tool() else {
            panic!("not grep");
        };
        assert_eq!((input.pattern.as_str(), input.path), ("foo", None));
    }

    #[test]
    fn an_image_read_returns_no_lines_and_garbage_is_an_error() {
        let image = r#"{"session_id":"s","cwd":"/r","tool_name":"Read",
          "tool_input":{"file_path":"/r/a.png"},
          "tool_response":{"type":"image","file":{"base64":"..."}}}"#;
        assert_eq!(
            Payload::parse(image.as_bytes()).unwrap().read_response(),
            None
        );
        assert!(Payload::parse(b"{not json").is_err());
        assert!(Payload::parse(br#"{"cwd":"/r"}"#).is_err());
        let bare = Payload::parse(br#"{"session_id":"s"}"#).unwrap();
        assert_eq!(bare.cwd, PathBuf::new());
    }
}
