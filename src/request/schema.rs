//! What a request may say: each mode's fields, declared once as a struct
//! ([`request!`]) from which both its typed form and its table of fields
//! (name, shape, required) follow, and the parser that checks a request
//! against that table before serde reads it, so that every refusal names
//! the field at fault and what it accepts.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::page::call::ToolCall;

/// The modes a request may name.
pub const MODES: [&str; 6] = ["files", "content", "search", "smart", "read", "edit"];

/// What a field's value must be.
#[derive(Debug, Clone, Copy)]
pub enum Shape {
    Text,
    /// A string, or an array of strings (several paths).
    Texts,
    Count,
    Flag,
    Seconds,
    OneOf(&'static [&'static str]),
    /// `{"name": string, "arguments": object}`: an MCP tool call.
    Call,
}

impl Shape {
    pub(super) fn describe(self) -> String {
        match self {
            Shape::Text => "a string".into(),
            Shape::Texts => "a string or an array of strings".into(),
            Shape::Count => "an integer, 0 or more".into(),
            Shape::Flag => "true or false".into(),
            Shape::Seconds => "a number of seconds, 0 or more".into(),
            Shape::OneOf(values) => format!("one of {}", values.join(", ")),
            Shape::Call => {
                "an object with \"name\" (a string) and \"arguments\" (an object)".into()
            }
        }
    }

    pub(super) fn accepts(self, value: &Value) -> bool {
        match self {
            Shape::Text => value.is_string(),
            Shape::Texts => {
                value.is_string()
                    || value.as_array().is_some_and(|items| {
                        !items.is_empty() && items.iter().all(Value::is_string)
                    })
            }
            Shape::Count => value.is_u64(),
            Shape::Flag => value.is_boolean(),
            Shape::Seconds => value.as_f64().is_some_and(|s| s >= 0.0),
            Shape::OneOf(values) => value.as_str().is_some_and(|v| values.contains(&v)),
            Shape::Call => value.as_object().is_some_and(|call| {
                call.len() == 2
                    && call.get("name").is_some_and(Value::is_string)
                    && call.get("arguments").is_some_and(Value::is_object)
            }),
        }
    }

    /// The JSON Schema type of a value of this shape (an MCP tool's
    /// parameter).
    pub fn json_type(self) -> Value {
        match self {
            Shape::Text | Shape::OneOf(_) => "string".into(),
            Shape::Texts => serde_json::json!(["string", "array"]),
            Shape::Count => "integer".into(),
            Shape::Flag => "boolean".into(),
            Shape::Seconds => "number".into(),
            Shape::Call => "object".into(),
        }
    }
}

/// One request field: its name, shape, and whether it is required.
pub type Field = (&'static str, Shape, bool);

/// The shape and need of a field, from its Rust type: a value that is not
/// an `Option` must be given.
pub(super) trait Shaped {
    const SHAPE: Shape;
    const REQUIRED: bool = false;
}

impl Shaped for String {
    const SHAPE: Shape = Shape::Text;
    const REQUIRED: bool = true;
}
impl Shaped for Option<String> {
    const SHAPE: Shape = Shape::Text;
}
impl Shaped for Option<Paths> {
    const SHAPE: Shape = Shape::Texts;
}
impl Shaped for Option<usize> {
    const SHAPE: Shape = Shape::Count;
}
impl Shaped for Option<u64> {
    const SHAPE: Shape = Shape::Count;
}
impl Shaped for Option<u32> {
    const SHAPE: Shape = Shape::Count;
}
impl Shaped for Option<bool> {
    const SHAPE: Shape = Shape::Flag;
}
impl Shaped for Option<f64> {
    const SHAPE: Shape = Shape::Seconds;
}
impl Shaped for Option<CallRequest> {
    const SHAPE: Shape = Shape::Call;
}

/// A mode's request: the struct serde reads, and `FIELDS`, its table, in
/// the order the fields are declared (the order refusals list them in).
/// A field is named as the struct names it unless `as "name"` renames it;
/// its shape follows from its type ([`Shaped`]) unless `= SHAPE` says.
macro_rules! request {
    (
        $(#[$meta:meta])*
        struct $name:ident {
            $( $field:ident $(as $rename:literal)? : $ty:ty $(= $shape:expr)? ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Deserialize, PartialEq)]
        #[serde(deny_unknown_fields)]
        pub(super) struct $name {
            $( $(#[serde(rename = $rename)])? pub(super) $field: $ty, )*
        }

        impl $name {
            pub(super) const FIELDS: &'static [Field] = &[
                $( (
                    request!(@name $field $($rename)?),
                    request!(@shape $ty $(, $shape)?),
                    <$ty as Shaped>::REQUIRED,
                ), )*
            ];
        }
    };
    (@name $field:ident) => { stringify!($field) };
    (@name $field:ident $rename:literal) => { $rename };
    (@shape $ty:ty) => { <$ty as Shaped>::SHAPE };
    (@shape $ty:ty, $shape:expr) => { $shape };
}

const OUTPUT_MODES: &[&str] = &["files_with_matches", "content", "count"];
const KINDS: &[&str] = &["auto", "literal", "regex", "symbol"];

request! {
    /// `scout files`.
    struct FilesRequest {
        mode: String,
        pattern: String,
        path: Option<String>,
        limit: Option<usize>,
        timeout: Option<f64>,
        text: Option<bool>,
        cwd: Option<String>,
    }
}

request! {
    /// `scout grep`.
    struct ContentRequest {
        mode: String,
        pattern: String,
        path: Option<String>,
        output_mode: Option<String> = Shape::OneOf(OUTPUT_MODES),
        after as "-A": Option<usize>,
        before as "-B": Option<usize>,
        around as "-C": Option<usize>,
        context: Option<usize>,
        line_number as "-n": Option<bool>,
        ignore_case as "-i": Option<bool>,
        file_type as "type": Option<String>,
        glob: Option<String>,
        head_limit: Option<usize>,
        offset: Option<usize>,
        multiline: Option<bool>,
        timeout: Option<f64>,
        text: Option<bool>,
        tool: Option<CallRequest>,
        cwd: Option<String>,
    }
}

request! {
    /// `scout search --json`. `query` is required unless `callers_of` or
    /// `impact` is given ([`parse_value`] checks it apart).
    struct SearchRequest {
        mode: String,
        query: Option<String>,
        path: Option<Paths>,
        kind: Option<String> = Shape::OneOf(KINDS),
        ignore_case as "-i": Option<bool>,
        glob: Option<String>,
        file_type as "type": Option<String>,
        budget_tokens: Option<u64>,
        page: Option<usize>,
        callers_of: Option<String>,
        impact: Option<String>,
        depth: Option<u32>,
        graph_files: Option<usize>,
        proven_only: Option<bool>,
        structural: Option<bool>,
        lang: Option<String>,
        again: Option<bool>,
        text: Option<bool>,
        tool: Option<CallRequest>,
        cwd: Option<String>,
    }
}

request! {
    /// `scout smart --json`.
    struct SmartRequest {
        mode: String,
        query: String,
        path: Option<String>,
        max_results: Option<usize>,
        glob: Option<String>,
        file_type as "type": Option<String>,
        budget_tokens: Option<u64>,
        text: Option<bool>,
        cwd: Option<String>,
    }
}

request! {
    /// `scout read`.
    struct ReadRequest {
        mode: String,
        path: String,
        symbol: Option<String>,
        range: Option<String>,
        budget_tokens: Option<u64>,
        again: Option<bool>,
        tool: Option<CallRequest>,
        cwd: Option<String>,
    }
}

request! {
    /// `scout edit --json`.
    struct EditRequest {
        mode: String,
        pattern: Option<String>,
        rewrite: Option<String>,
        lang: Option<String>,
        path: Option<Paths>,
        callers_of: Option<String>,
        impact: Option<String>,
        depth: Option<u32>,
        proven_only: Option<bool>,
        old: Option<Paths>,
        new: Option<Paths>,
        count: Option<usize>,
        all: Option<bool>,
        symbol: Option<String>,
        with: Option<String>,
        dry_run: Option<bool>,
        undo: Option<bool>,
        last: Option<bool>,
        glob: Option<String>,
        file_type as "type": Option<String>,
        budget_tokens: Option<u64>,
        page: Option<usize>,
        text: Option<bool>,
        cwd: Option<String>,
    }
}

/// The fields a request of `mode` may have, or `None` for an unknown mode.
pub fn fields_of(mode: &str) -> Option<&'static [Field]> {
    Some(match mode {
        "files" => FilesRequest::FIELDS,
        "content" => ContentRequest::FIELDS,
        "search" => SearchRequest::FIELDS,
        "smart" => SmartRequest::FIELDS,
        "read" => ReadRequest::FIELDS,
        "edit" => EditRequest::FIELDS,
        _ => return None,
    })
}

/// The MCP tool call a request stands for (`tool`, set by `scout mcp`).
#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub(super) struct CallRequest {
    name: String,
    arguments: serde_json::Map<String, Value>,
}

impl CallRequest {
    pub(super) fn call(self) -> ToolCall {
        ToolCall {
            name: self.name,
            arguments: self.arguments,
        }
    }
}

/// A search's `path`: one, or several.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(untagged)]
pub(super) enum Paths {
    One(String),
    Many(Vec<String>),
}

impl Paths {
    pub(super) fn all(&self) -> Vec<&str> {
        match self {
            Paths::One(path) => vec![path],
            Paths::Many(paths) => paths.iter().map(String::as_str).collect(),
        }
    }
}

/// A request, checked.
#[derive(Debug, PartialEq)]
pub(super) enum Request {
    Files(FilesRequest),
    Content(ContentRequest),
    Search(SearchRequest),
    Smart(SmartRequest),
    Read(ReadRequest),
    Edit(EditRequest),
}

impl Request {
    pub(super) fn cwd(&self) -> Option<&str> {
        match self {
            Request::Files(r) => r.cwd.as_deref(),
            Request::Content(r) => r.cwd.as_deref(),
            Request::Search(r) => r.cwd.as_deref(),
            Request::Smart(r) => r.cwd.as_deref(),
            Request::Read(r) => r.cwd.as_deref(),
            Request::Edit(r) => r.cwd.as_deref(),
        }
    }
}

/// Why a request cannot be served: the answer's `error` object.
#[derive(Debug, Serialize, PartialEq)]
pub(super) struct Problem {
    pub(super) message: String,
    /// The field at fault, when one is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) field: Option<String>,
    /// What the field accepts (modes, fields, or values).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) allowed: Option<Vec<String>>,
}

impl Problem {
    pub(super) fn new(message: impl Into<String>) -> Problem {
        Problem {
            message: message.into(),
            field: None,
            allowed: None,
        }
    }

    pub(super) fn about(field: &str, message: impl Into<String>, allowed: &[&str]) -> Problem {
        Problem {
            message: message.into(),
            field: Some(field.to_string()),
            allowed: (!allowed.is_empty()).then(|| allowed.iter().map(|s| s.to_string()).collect()),
        }
    }
}

/// Parses and checks a request.
pub(super) fn parse(text: &str) -> Result<Request, Problem> {
    let value: Value = serde_json::from_str(text.trim())
        .map_err(|e| Problem::new(format!("the request is not valid JSON: {e}")))?;
    parse_value(value)
}

/// [`parse`], for a request already read as JSON.
pub(super) fn parse_value(value: Value) -> Result<Request, Problem> {
    let Value::Object(mut object) = value else {
        return Err(Problem::new(
            "the request must be a JSON object, e.g. {\"mode\": \"files\", \"pattern\": \"**/*.rs\"}",
        ));
    };
    object.retain(|_, v| !v.is_null());
    let known = object
        .get("mode")
        .and_then(Value::as_str)
        .and_then(fields_of);
    let fields = match (object.get("mode"), known) {
        (_, Some(fields)) => fields,
        (None, None) => {
            return Err(Problem::about(
                "mode",
                "the request has no \"mode\"",
                &MODES,
            ))
        }
        (Some(other), None) => {
            return Err(Problem::about(
                "mode",
                format!("unknown mode {other}"),
                &MODES,
            ))
        }
    };
    let mode = object["mode"].as_str().unwrap_or_default().to_string();
    let names: Vec<&str> = fields.iter().map(|(name, _, _)| *name).collect();
    for (key, value) in &object {
        let Some((name, shape, _)) = fields.iter().find(|(name, _, _)| name == key) else {
            return Err(Problem::about(
                key,
                format!("unknown field {key:?} for mode {mode:?}"),
                &names,
            ));
        };
        if !shape.accepts(value) {
            let allowed = match shape {
                Shape::OneOf(values) => values,
                _ => &[][..],
            };
            return Err(Problem::about(
                name,
                format!("field {name:?} must be {}, not {value}", shape.describe()),
                allowed,
            ));
        }
    }
    if let Some((name, shape, _)) = fields
        .iter()
        .find(|(name, _, required)| *required && !object.contains_key(*name))
    {
        return Err(Problem::about(
            name,
            format!("mode {mode:?} needs {name:?} ({})", shape.describe()),
            &[],
        ));
    }
    let graph = ["callers_of", "impact"]
        .iter()
        .filter(|k| object.contains_key(**k))
        .count();
    if mode == "search" && graph == 0 && !object.contains_key("query") {
        return Err(Problem::about(
            "query",
            "mode \"search\" needs \"query\" (a string), or \"callers_of\" or \"impact\"",
            &[],
        ));
    }
    let object = Value::Object(object);
    Ok(match mode.as_str() {
        "files" => Request::Files(typed(object)?),
        "content" => Request::Content(typed(object)?),
        "smart" => Request::Smart(typed(object)?),
        "read" => Request::Read(typed(object)?),
        "edit" => Request::Edit(typed(object)?),
        _ => Request::Search(typed(object)?),
    })
}

fn typed<T: DeserializeOwned>(object: Value) -> Result<T, Problem> {
    serde_json::from_value(object).map_err(|e| Problem::new(format!("bad request: {e}")))
}
