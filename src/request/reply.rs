//! The reply a request gets: its shape (`Answer`, the document a
//! command printed, its warnings and exit status) and the error answer.

use anyhow::Result;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::exit::ExitStatus;

use super::schema::Problem;

use super::Served;

/// The answer of a request that cannot be served.
pub fn error_answer_for(message: impl Into<String>) -> Answer {
    error_answer(Problem::new(message), &Served::default())
}

pub(super) fn error_answer(problem: Problem, served: &Served) -> Answer {
    #[derive(Serialize)]
    struct ErrorAnswer {
        error: Problem,
        exit: u8,
    }
    let answer = ErrorAnswer {
        error: problem,
        exit: ExitStatus::Error.code(),
    };
    Answer::of(&answer, ExitStatus::Error, served).unwrap_or_else(|_| Answer {
        form: Form::Text(b"{\"exit\":2}".to_vec()),
        status: ExitStatus::Error,
    })
}

/// A request's answer, made in the form its transport takes: the line
/// `scout call` prints (its fields in order, a command's document byte
/// for byte), or the JSON object an in-process server hands over as a
/// tool result, never written out to be parsed again.
#[derive(Debug)]
pub struct Answer {
    form: Form,
    pub status: ExitStatus,
}

#[derive(Debug)]
pub(super) enum Form {
    Text(Vec<u8>),
    Value(Map<String, Value>),
}

impl Answer {
    /// `answer` in the form `served` takes.
    pub(super) fn of(
        answer: &impl Serialize,
        status: ExitStatus,
        served: &Served,
    ) -> Result<Answer> {
        let form = if served.as_value {
            match serde_json::to_value(answer)? {
                Value::Object(object) => Form::Value(object),
                other => anyhow::bail!("an answer is a JSON object, not {other}"),
            }
        } else {
            Form::Text(serde_json::to_vec(answer)?)
        };
        Ok(Answer { form, status })
    }

    /// The answer as one line of JSON, as `scout call` prints it.
    pub fn to_json(&self) -> Vec<u8> {
        match &self.form {
            Form::Text(text) => text.clone(),
            Form::Value(object) => {
                serde_json::to_vec(object).unwrap_or_else(|_| b"{\"exit\":2}".to_vec())
            }
        }
    }

    /// The answer as a JSON object, as a tool result carries it.
    pub fn into_object(self) -> Map<String, Value> {
        match self.form {
            Form::Value(object) => object,
            Form::Text(text) => match serde_json::from_slice(&text) {
                Ok(Value::Object(object)) => object,
                _ => Map::from_iter([("exit".to_string(), Value::from(self.status.code()))]),
            },
        }
    }
}

/// A command's `--json` document in an answer: kept byte for byte where
/// the answer is printed, read once into a value where it is handed over.
#[derive(Serialize)]
#[serde(untagged)]
pub(super) enum Document {
    Raw(Box<RawValue>),
    Value(Value),
}

impl Document {
    /// The document `text` (JSON; none when empty) in the form `served`
    /// takes.
    pub(super) fn new(text: &str, served: &Served) -> Result<Document> {
        let text = if text.is_empty() { "null" } else { text };
        Ok(if served.as_value {
            Document::Value(serde_json::from_str(text)?)
        } else {
            Document::Raw(RawValue::from_string(text.to_string())?)
        })
    }

    /// What an answer reads of the document: whether a page of it was
    /// left out (lines or files not shown, or pages after this one).
    pub(super) fn truncated(&self) -> bool {
        /// The counts read of a raw document (the rest is not parsed).
        #[derive(Deserialize, Default)]
        #[serde(default)]
        struct Counts {
            left_out: u64,
            page: u64,
            pages: u64,
        }
        let counts = match self {
            Document::Value(value) => {
                let count = |name: &str| value.get(name).and_then(Value::as_u64).unwrap_or(0);
                Counts {
                    left_out: count("left_out"),
                    page: count("page"),
                    pages: count("pages"),
                }
            }
            Document::Raw(raw) => serde_json::from_str(raw.get()).unwrap_or_default(),
        };
        counts.left_out > 0 || counts.pages > counts.page
    }
}

pub(super) fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The answer of a mode whose result is a command's `--json` document
/// (`search`, `edit`).
#[derive(Serialize)]
pub(super) struct DocumentAnswer {
    pub(super) mode: &'static str,
    /// The command's `--json` document.
    pub(super) result: Document,
    pub(super) truncated: bool,
    pub(super) warnings: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) text: Option<String>,
    pub(super) exit: u8,
}

/// What a command said on stderr, a warning a line, without `scout: `.
pub(super) fn warnings(messages: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(messages)
        .lines()
        .map(|l| l.strip_prefix("scout: ").unwrap_or(l).to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// A view's output with [`SearchSettings::text_beside_json`] (or smart's):
/// the JSON document's line, and the text after it when `text` was asked.
pub(super) fn split_text(output: Vec<u8>, text: bool) -> Result<(String, Option<String>)> {
    let output = String::from_utf8(output)?;
    if !text {
        return Ok((output, None));
    }
    // The document is one line: serde_json escapes every newline inside
    // it, so the first one ends it.
    Ok(match output.split_once('\n') {
        Some((document, text)) => (document.to_string(), Some(text.to_string())),
        None => (output, Some(String::new())),
    })
}
