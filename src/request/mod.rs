//! The request layer: one JSON request in, one JSON object out, for
//! harnesses that would rather not build command lines. `scout call`
//! ([`call`]) and `scout mcp` (the `mcp` room above this one) are two
//! transports over [`answer`].
//!
//! A request's `mode` picks the view; every other field is that view's flag.
//! A field set to `null` is the same as leaving it out. Unknown fields, a
//! missing or unknown mode and values of the wrong type are errors that
//! name the field and what it accepts.
//!
//! Each mode's fields are declared once, in [`schema`], as the struct
//! serde reads; the field table of docs/call-and-mcp.md and of `scout call
//! --help`, and the types of the MCP tools' parameters, are checked
//! against or derived from it.
//!
//! Every mode but `read` also takes `text` (a boolean): the answer then
//! carries, as `text`, what the command prints (the page, rg's lines, the
//! listing), and a search remembers what that text shows, as in a shell.
//! `search` also takes `structural` and `lang` (`--structural --lang`) and
//! `again`. A `read` answer is its text: `{"mode":"read","path":...,
//! "text":...,"exit":0}`.
//!
//! `search`, `content` and `read` also take `tool` (`{"name": ...,
//! "arguments": {...}}`), which `scout mcp` sets to the tool call a
//! request stands for: the page then names tool calls where it would
//! name commands (the next page, lines not shown), and a search's JSON
//! `next` is the tool's arguments for the next page.
//!
//! Types: `pattern`, `query`, `path`, `type`, `glob` and `cwd` are strings
//! (`glob` is split like `--glob`: `"*.{ts,tsx} !vendor/**"` is two
//! globs); `-A`, `-B`, `-C`, `context`, `head_limit`, `offset`, `limit`,
//! `budget_tokens`, `page`, `depth`, `graph_files` and `max_results` are
//! integers, 0 or more; `-n`, `-i`, `multiline` and `proven_only` are booleans;
//! `timeout` is a number of seconds (0 = no limit). Relative paths
//! resolve against `cwd`, else the directory the request is served in
//! (`scout call`'s own; `scout mcp`'s first root). Defaults are the
//! command line's.
//!
//! Answers (one line of JSON; `exit` is also the process's exit status):
//!
//! ```json
//! {"mode":"files","files":["src/new.rs","src/old.rs"],"shown":2,"total":2,
//!  "truncated":false,"timed_out":false,"warnings":[],"exit":0}
//! {"mode":"content","output_mode":"content","lines":["src/a.rs:3:fn main() {"],
//!  "shown":1,"total":1,"offset":0,"next_offset":null,"truncated":false,
//!  "capped":false,"timed_out":false,"warnings":[],"exit":0}
//! {"mode":"content","output_mode":"count","counts":[{"path":"src/a.rs","count":2}],
//!  "matching_lines":2,"shown":1,"total":1,"offset":0,"next_offset":null, ...}
//! {"mode":"search","result":{...scout search --json...},"truncated":true,
//!  "warnings":[],"exit":0}
//! {"mode":"smart","hits":[{"path":"src/evict.c","line":520,"why":"name performEvictions ← ..."}],
//!  "result":{...scout smart --json...},"truncated":false,"warnings":[],"exit":0}
//! {"error":{"message":"unknown mode \"grep\"","field":"mode",
//!  "allowed":["files","content","search","smart"]},"exit":2}
//! ```
//!
//! - `files` holds paths (output_mode `files_with_matches` and mode
//!   `files`), `lines` rg's output lines (`content`), `counts` per-file
//!   matching-line counts (`count`); paths are relative to `cwd` when
//!   inside it. Text that is not UTF-8 is replaced lossily.
//! - `total` counts the results in all (lines, files, or files with
//!   counts), `shown` those in this answer; `truncated` is true when any
//!   result is not in it (an offset, a limit, the 20 MB cap, or a
//!   timeout). `next_offset` is the `offset` of the next page, or null.
//! - `timed_out`: the time limit stopped the search; `total` is then what
//!   was found so far. A timeout with nothing found is an error.
//! - `result` (mode `search`) is the document of `scout search --json`,
//!   unchanged; `truncated` is true when it has more pages or left
//!   matches out.
//! - `hits` (mode `smart`) is the reference contract's strict list: each
//!   hit's `path`, `line` and `why`; `result` is the document of `scout
//!   smart --json`, unchanged (enclosing definitions, signals, the
//!   candidate set); `truncated` is true when the budget cut hits.
//! - `exit`: 0 results, 1 no match, 2 error, 3 partial (timed out, or
//!   some files could not be read: see `warnings`).
//!
//! A request's `cwd` becomes the working directory of the thread serving
//! it ([`crate::paths::work_in`]; inside `scout mcp`, other requests'
//! stay where they are), and bounds it: with a `cwd` (or inside `scout
//! mcp`, its roots: [`Served::roots`]) every path-bearing field must lie
//! inside ([`confine`]) and the graph reads nothing outside
//! ([`crate::paths::bound_to`]). Nothing is written anywhere but the answer,
//! except by mode `edit`,
//! whose answer is `{"mode":"edit","result":{...scout edit --json...},
//! "truncated":...,"warnings":[],"text":...,"exit":0}`.

pub mod call;
mod confine;
mod schema;

use std::ffi::OsString;
use std::path::PathBuf;

use anyhow::Result;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::cli::Context;
use crate::cli::{
    ColorArgs, EditArgs, FileArgs, FilesArgs, FilterArgs, GrepArgs, LimitArgs, MatchArgs,
    OutputArgs, ReadArgs, SearchArgs, SessionArgs, SmartArgs, DEFAULT_MAX_RESULTS,
    DEFAULT_SEARCH_BUDGET_TOKENS, DEFAULT_SMART_BUDGET_TOKENS,
};
use crate::dirs::OsEnvLookup;
use crate::exit::ExitStatus;
use crate::page::query::Kind;
use crate::render::style::ColorChoice;
use crate::rg::Cancel;
use crate::search::settings::{SearchSettings, SessionFrom};
use crate::views;
use crate::views::files::{self, FilesSettings};
use crate::views::grep::{self, GrepSettings, Items, OutputMode};

pub use schema::fields_of;
use schema::{
    parse, parse_value, CallRequest, ContentRequest, EditRequest, FilesRequest, Paths, Problem,
    ReadRequest, Request, SearchRequest, SmartRequest,
};

/// Answers one request (the text of a JSON object), as `scout call`
/// prints it ([`Answer::to_json`]) with the exit status it carries. Every transport
/// (`scout call`, `scout mcp`) hands its requests here, so they are
/// validated and answered by the same code. The request's `cwd`, when it
/// has one, becomes the working directory of the thread answering it
/// ([`crate::paths::work_in`]).
pub fn answer(text: &str, env: OsEnvLookup<'_>) -> Answer {
    let served = Served::default();
    match parse(text) {
        Ok(request) => answer_request(request, env, &served),
        Err(problem) => error_answer(problem, &served),
    }
}

/// What a request served inside a longer-lived process (`scout mcp`)
/// brings with it, where `scout call` reads its own process: the
/// directory it runs in, the session whose memory it uses, and the
/// cancellation that stops its rg.
#[derive(Debug, Clone, Default)]
pub struct Served {
    /// The working directory (an MCP client's first root), made the
    /// answering thread's own ([`crate::paths::work_in`]): the process's,
    /// and other requests', stay where they are. A request's own `cwd`
    /// resolves from it.
    pub cwd: Option<PathBuf>,
    /// The session id (as `SCOUT_SESSION_ID` would give it).
    pub session: Option<String>,
    pub cancel: Option<Cancel>,
    /// The answer is handed over as a value ([`Answer::into_object`]:
    /// an in-process server) rather than printed ([`Answer::to_json`]).
    pub as_value: bool,
    /// The directories the request may read and write (an MCP client's
    /// roots, canonical): every path-bearing field is checked against
    /// them ([`confine`]). `None`: the request's own `cwd`, when it has
    /// one, else no bound (a `scout call` without `cwd` reads what its
    /// process may).
    pub roots: Option<Vec<PathBuf>>,
}

impl Served {
    /// The request's context: the environment `env`, its own session
    /// (else the process's), its cancellation.
    fn context<'a>(&self, env: OsEnvLookup<'a>) -> Context<'a> {
        // Read only by the modes that use a session (search, read, edit).
        let session = match self.session.clone() {
            None => SessionFrom::Process,
            Some(id) => SessionFrom::Named {
                id,
                state_dir: crate::dirs::state_dir_in(env),
            },
        };
        Context {
            env,
            session,
            cancel: self.cancel.clone(),
        }
    }

    /// Whether the process ends with this request (`scout call`), rather
    /// than serving more (`scout mcp`, which gives each its cancel).
    fn exits_after(&self) -> bool {
        self.cancel.is_none()
    }
}

/// [`answer`], for a request [`Served`] inside another process and
/// already read as JSON (a tool call's arguments).
pub fn answer_value(value: Value, env: OsEnvLookup<'_>, served: &Served) -> Answer {
    match parse_value(value) {
        Ok(request) => answer_request(request, env, served),
        Err(problem) => error_answer(problem, served),
    }
}

fn answer_request(request: Request, env: OsEnvLookup<'_>, served: &Served) -> Answer {
    // The served directory (an MCP root), the request's own resolved
    // from it; held until the answer is made.
    let dir = match (&served.cwd, request.cwd()) {
        (Some(base), Some(cwd)) => Some(base.join(cwd)),
        (Some(base), None) => Some(base.clone()),
        (None, cwd) => cwd.map(PathBuf::from),
    };
    // Every path the request names, read as its command will read it,
    // inside its roots: the server's, else its own `cwd`'s directory.
    let roots: Option<Vec<PathBuf>> = match (&served.roots, request.cwd(), &dir) {
        (Some(roots), _, _) => Some(roots.clone()),
        (None, Some(_), Some(dir)) => std::fs::canonicalize(dir).ok().map(|root| vec![root]),
        _ => None,
    };
    if let Some(roots) = &roots {
        // Where `cwd` itself is read from: the served directory, else
        // the process's.
        let base = served
            .cwd
            .clone()
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_default();
        if let Err(problem) = confine::ensure_confined(&request, roots, &base) {
            return error_answer(problem, served);
        }
    }
    let _workdir = match dir.as_deref().map(crate::paths::work_in) {
        None => None,
        Some(Ok(workdir)) => Some(workdir),
        Some(Err(e)) => {
            let problem = match request.cwd() {
                Some(cwd) => Problem::about("cwd", format!("cwd {cwd:?} cannot be used: {e}"), &[]),
                None => Problem::new(format!("the working directory {dir:?} cannot be used: {e}")),
            };
            return error_answer(problem, served);
        }
    };
    // What the graph reads on its own (imports, project files) stays
    // inside them too; held until the answer is made.
    let _bound = roots.as_deref().map(crate::paths::bound_to);
    let ctx = served.context(env);
    let answer = match request {
        Request::Files(request) => files_answer(request, &ctx, served),
        Request::Content(request) => content_answer(request, &ctx, served),
        Request::Search(request) => search_answer(request, &ctx, served),
        Request::Smart(request) => smart_answer(request, &ctx, served),
        Request::Read(request) => read_answer(request, &ctx, served),
        Request::Edit(request) => edit_answer(request, &ctx, served),
    };
    match answer {
        Ok(answer) => answer,
        Err(e) => {
            let message = e
                .chain()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(": ");
            error_answer(Problem::new(message), served)
        }
    }
}

/// The answer of a request that cannot be served.
pub fn error_answer_for(message: impl Into<String>) -> Answer {
    error_answer(Problem::new(message), &Served::default())
}

fn error_answer(problem: Problem, served: &Served) -> Answer {
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
enum Form {
    Text(Vec<u8>),
    Value(Map<String, Value>),
}

impl Answer {
    /// `answer` in the form `served` takes.
    fn of(answer: &impl Serialize, status: ExitStatus, served: &Served) -> Result<Answer> {
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
enum Document {
    Raw(Box<RawValue>),
    Value(Value),
}

impl Document {
    /// The document `text` (JSON; none when empty) in the form `served`
    /// takes.
    fn new(text: &str, served: &Served) -> Result<Document> {
        let text = if text.is_empty() { "null" } else { text };
        Ok(if served.as_value {
            Document::Value(serde_json::from_str(text)?)
        } else {
            Document::Raw(RawValue::from_string(text.to_string())?)
        })
    }

    /// What an answer reads of the document: whether a page of it was
    /// left out (lines or files not shown, or pages after this one).
    fn truncated(&self) -> bool {
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

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn files_answer(request: FilesRequest, ctx: &Context, served: &Served) -> Result<Answer> {
    let (pattern, path, limit) = (request.pattern.clone(), request.path.clone(), request.limit);
    let args = FilesArgs {
        glob: request.pattern,
        path: request.path.map(OsString::from),
        limit: request.limit,
        respect_ignore: false,
        no_hidden: false,
        limits: LimitArgs {
            timeout: request.timeout,
        },
    };
    let settings = FilesSettings::resolve(args, ctx)?;
    let list = files::list(&settings)?;
    let text = request.text.unwrap_or(false).then(|| {
        let mut argv: Vec<OsString> = vec!["scout".into(), "files".into(), pattern.into()];
        argv.extend(path.map(OsString::from));
        argv.extend(
            limit
                .map(|n| ["--limit".into(), n.to_string().into()])
                .into_iter()
                .flatten(),
        );
        lossy(&crate::commands::files::page(&list, &argv))
    });
    #[derive(Serialize)]
    struct FilesAnswer {
        mode: &'static str,
        files: Vec<String>,
        shown: usize,
        total: usize,
        truncated: bool,
        timed_out: bool,
        warnings: Vec<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        text: Option<String>,
        exit: u8,
    }
    let answer = FilesAnswer {
        text,
        mode: "files",
        shown: list.files.len(),
        files: list.files.iter().map(|p| lossy(p)).collect(),
        total: list.total,
        truncated: list.truncated(),
        timed_out: list.timed_out.is_some(),
        warnings: list.warnings.clone(),
        exit: list.status.code(),
    };
    Answer::of(&answer, list.status, served)
}

fn content_answer(request: ContentRequest, ctx: &Context, served: &Served) -> Result<Answer> {
    let output_mode = match request.output_mode.as_deref() {
        Some("content") => OutputMode::Content,
        Some("count") => OutputMode::Count,
        _ => OutputMode::FilesWithMatches,
    };
    let text_argv = request.text.unwrap_or(false).then(|| grep_argv(&request));
    let args = GrepArgs {
        pattern: None,
        path: request.path.map(OsString::from),
        regexp: Some(request.pattern),
        output_mode,
        after: request.after,
        before: request.before,
        around: request.around,
        context: request.context,
        line_number: false,
        no_line_number: request.line_number == Some(false),
        ignore_case: request.ignore_case.unwrap_or(false),
        types: request.file_type.into_iter().collect(),
        globs: request.glob.into_iter().collect(),
        multiline: request.multiline.unwrap_or(false),
        head_limit: request.head_limit.unwrap_or(250),
        offset: request.offset.unwrap_or(0),
        limits: LimitArgs {
            timeout: request.timeout,
        },
        // A JSON answer is never coloured.
        color: ColorArgs {
            color: crate::render::style::ColorChoice::Never,
        },
    };
    let mut settings = GrepSettings::resolve(args, ctx)?;
    settings.tool = request.tool.map(CallRequest::call);
    let result = grep::search(&settings)?;
    let text =
        text_argv.map(|argv| lossy(crate::commands::grep::page(&result, &argv, &settings).plain()));
    #[derive(Serialize)]
    struct Count {
        path: String,
        count: u64,
    }
    #[derive(Serialize)]
    struct ContentAnswer {
        mode: &'static str,
        output_mode: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        lines: Option<Vec<String>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        files: Option<Vec<String>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        counts: Option<Vec<Count>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        matching_lines: Option<u64>,
        shown: usize,
        total: usize,
        offset: usize,
        next_offset: Option<usize>,
        truncated: bool,
        capped: bool,
        timed_out: bool,
        warnings: Vec<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        text: Option<String>,
        exit: u8,
    }
    let (mut lines, mut files, mut counts, mut matching_lines) = (None, None, None, None);
    match &result.items {
        Items::Lines(items) => lines = Some(items.iter().map(|l| lossy(l)).collect()),
        Items::Files(items) => files = Some(items.iter().map(|p| lossy(p)).collect()),
        Items::Counts(items) => {
            counts = Some(
                items
                    .iter()
                    .map(|(path, count)| Count {
                        path: lossy(path),
                        count: *count,
                    })
                    .collect(),
            );
            matching_lines = Some(result.matching_lines);
        }
    }
    let answer = ContentAnswer {
        text,
        mode: "content",
        output_mode: result.mode.name(),
        lines,
        files,
        counts,
        matching_lines,
        shown: result.items.len(),
        total: result.total,
        offset: result.offset,
        next_offset: result.next_offset(),
        truncated: result.truncated(),
        capped: result.capped,
        timed_out: result.timed_out.is_some(),
        warnings: result.warnings.clone(),
        exit: result.status.code(),
    };
    Answer::of(&answer, result.status, served)
}

/// The `scout grep` command line of a content request: the base of the
/// next-page commands its text names.
fn grep_argv(request: &ContentRequest) -> Vec<OsString> {
    let mut argv: Vec<OsString> = vec!["scout".into(), "grep".into()];
    if let Some(mode) = &request.output_mode {
        argv.extend(["--output-mode".into(), mode.into()]);
    }
    for (flag, value) in [
        ("-A", request.after),
        ("-B", request.before),
        ("-C", request.around.or(request.context)),
        ("--head-limit", request.head_limit),
    ] {
        if let Some(value) = value {
            argv.extend([flag.into(), value.to_string().into()]);
        }
    }
    if request.ignore_case == Some(true) {
        argv.push("-i".into());
    }
    if request.multiline == Some(true) {
        argv.push("-U".into());
    }
    if let Some(file_type) = &request.file_type {
        push_value(&mut argv, "--type", file_type);
    }
    for glob in request.glob.iter().flat_map(|g| views::split_globs(g)) {
        push_value(&mut argv, "-g", &glob);
    }
    argv.extend(["-e".into(), request.pattern.clone().into()]);
    argv.extend(request.path.clone().map(OsString::from));
    argv
}

/// `flag VALUE` on `argv`, as one word `flag=VALUE` when the value starts
/// with '-' (so that no parser reads it as a flag of its own).
fn push_value(argv: &mut Vec<OsString>, flag: &str, value: &str) {
    if value.starts_with('-') {
        argv.push(format!("{flag}={value}").into());
    } else {
        argv.extend([flag.into(), value.into()]);
    }
}

/// The `-g`, `--type` and `--budget-tokens` flags search and smart
/// requests share, appended to `argv`.
fn push_filters(
    argv: &mut Vec<OsString>,
    glob: Option<&str>,
    file_type: Option<&str>,
    budget_tokens: Option<u64>,
) {
    for glob in glob.iter().flat_map(|g| views::split_globs(g)) {
        push_value(argv, "-g", &glob);
    }
    if let Some(file_type) = file_type {
        push_value(argv, "--type", file_type);
    }
    if let Some(budget) = budget_tokens {
        argv.extend(["--budget-tokens".into(), budget.to_string().into()]);
    }
}

/// The `scout search` command line of a search request.
fn search_argv(request: &SearchRequest) -> Vec<OsString> {
    let mut argv: Vec<OsString> = vec!["scout".into(), "search".into(), "--json".into()];
    if let Some(kind) = &request.kind {
        push_value(&mut argv, "--kind", kind);
    }
    if request.ignore_case == Some(true) {
        argv.push("-i".into());
    }
    if request.again == Some(true) {
        argv.push("--again".into());
    }
    if request.structural == Some(true) {
        argv.push("--structural".into());
    }
    if let Some(lang) = &request.lang {
        push_value(&mut argv, "--lang", lang);
    }
    push_filters(
        &mut argv,
        request.glob.as_deref(),
        request.file_type.as_deref(),
        request.budget_tokens,
    );
    if let Some(page) = request.page {
        argv.extend(["--page".into(), page.to_string().into()]);
    }
    if let Some(spec) = &request.callers_of {
        push_value(&mut argv, "--callers-of", spec);
    }
    if let Some(spec) = &request.impact {
        push_value(&mut argv, "--impact", spec);
    }
    if let Some(depth) = request.depth {
        argv.extend(["--depth".into(), depth.to_string().into()]);
    }
    if let Some(files) = request.graph_files {
        argv.extend(["--graph-files".into(), files.to_string().into()]);
    }
    if request.proven_only == Some(true) {
        argv.push("--proven-only".into());
    }
    // No query with callers_of / impact: every call of the symbol, which
    // `-e ''` says on the command line (so that `path` stays a path).
    let query = request.query.clone().unwrap_or_default();
    argv.extend(["-e".into(), query.into()]);
    if let Some(paths) = &request.path {
        argv.push("--".into());
        argv.extend(paths.all().into_iter().map(OsString::from));
    }
    argv
}

/// The flags of a search request: what clap makes of [`search_argv`],
/// built without it. Both go through [`SearchSettings::resolve`], which
/// checks how the flags go together.
fn search_args(request: &SearchRequest) -> SearchArgs {
    // After -e, the first positional is a path (clap's QUERY slot).
    let mut paths = paths_of(&request.path).into_iter();
    SearchArgs {
        query: paths
            .next()
            .map(|first| first.to_string_lossy().into_owned()),
        paths: paths.collect(),
        // No query with callers_of / impact: every call of the symbol.
        regexp: Some(request.query.clone().unwrap_or_default()),
        structural: request.structural == Some(true),
        callers_of: request.callers_of.clone(),
        impact: request.impact.clone(),
        depth: request.depth,
        graph_files: request.graph_files,
        proven_only: request.proven_only == Some(true),
        matching: MatchArgs {
            kind: match request.kind.as_deref() {
                Some("literal") => Kind::Literal,
                Some("regex") => Kind::Regex,
                Some("symbol") => Kind::Symbol,
                _ => Kind::Auto,
            },
            ignore_case: request.ignore_case == Some(true),
            ..MatchArgs::default()
        },
        filter: FilterArgs {
            globs: globs_of(request.glob.as_deref()),
            types: request.file_type.iter().cloned().collect(),
            langs: request.lang.iter().cloned().collect(),
            hidden: false,
        },
        output: OutputArgs {
            budget_tokens: request
                .budget_tokens
                .unwrap_or(DEFAULT_SEARCH_BUDGET_TOKENS),
            page: request.page.unwrap_or(1),
            json: true,
            ..OutputArgs::default()
        },
        session: SessionArgs {
            again: request.again == Some(true),
            ..SessionArgs::default()
        },
        color: ColorArgs::default(),
    }
}

/// A request's paths, as a command line's positionals.
fn paths_of(paths: &Option<Paths>) -> Vec<OsString> {
    paths
        .iter()
        .flat_map(Paths::all)
        .map(OsString::from)
        .collect()
}

/// A request's `glob` (comma-separated), as `-g` flags.
fn globs_of(glob: Option<&str>) -> Vec<String> {
    glob.map(views::split_globs).unwrap_or_default()
}

fn search_answer(request: SearchRequest, ctx: &Context, served: &Served) -> Result<Answer> {
    let argv = search_argv(&request);
    let args = search_args(&request);
    let mut settings = SearchSettings::resolve_in(args, &argv, ctx)?;
    settings.tool = request.tool.map(CallRequest::call);
    settings.exits_after = served.exits_after();
    let want_text = request.text.unwrap_or(false);
    if want_text {
        // What the text shows is what the agent reads: remembered, as a
        // search in a shell remembers what it prints.
        settings.text_beside_json = true;
        settings.remember = !settings.again;
        if let Some(question) = settings.question.as_deref_mut() {
            question.text_beside_json = true;
        }
    }
    let (mut document, mut messages) = (Vec::new(), Vec::new());
    let status = crate::commands::search::run(&settings, &mut document, &mut messages)?;
    let (document, mut text) = split_text(document, want_text)?;
    let result = Document::new(document.trim(), served)?;
    // With no match the command keeps stdout empty and says on stderr
    // what it searched (the header, the graph's account of the calls):
    // that is the answer's text, not a warning.
    let warnings = if status == ExitStatus::NoMatch {
        if want_text {
            text = Some(String::from_utf8_lossy(&messages).into_owned());
        }
        Vec::new()
    } else {
        warnings(&messages)
    };
    let answer = DocumentAnswer {
        text,
        mode: "search",
        truncated: result.truncated(),
        result,
        warnings,
        exit: status.code(),
    };
    Answer::of(&answer, status, served)
}

/// The answer of a mode whose result is a command's `--json` document
/// (`search`, `edit`).
#[derive(Serialize)]
struct DocumentAnswer {
    mode: &'static str,
    /// The command's `--json` document.
    result: Document,
    truncated: bool,
    warnings: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<String>,
    exit: u8,
}

/// What a command said on stderr, a warning a line, without `scout: `.
fn warnings(messages: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(messages)
        .lines()
        .map(|l| l.strip_prefix("scout: ").unwrap_or(l).to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// The `scout edit` command line of an edit request (the definition's
/// new code, `with`, is handed over apart).
fn edit_argv(request: &EditRequest) -> Vec<OsString> {
    let mut argv: Vec<OsString> = vec!["scout".into(), "edit".into()];
    let flag = |argv: &mut Vec<OsString>, name: &str, value: &Option<String>| {
        if let Some(value) = value {
            push_value(argv, name, value);
        }
    };
    if request.pattern.is_some() {
        argv.push("--structural".into());
    }
    flag(&mut argv, "--lang", &request.lang);
    // -e and --rewrite take a value that starts with '-' as it is.
    if let Some(rewrite) = &request.rewrite {
        argv.extend(["--rewrite".into(), rewrite.into()]);
    }
    flag(&mut argv, "--callers-of", &request.callers_of);
    flag(&mut argv, "--impact", &request.impact);
    if let Some(depth) = request.depth {
        argv.extend(["--depth".into(), depth.to_string().into()]);
    }
    if request.proven_only == Some(true) {
        argv.push("--proven-only".into());
    }
    for (name, texts) in [("--old", &request.old), ("--new", &request.new)] {
        for text in texts.iter().flat_map(Paths::all) {
            argv.extend([name.into(), text.into()]);
        }
    }
    if let Some(count) = request.count {
        argv.extend(["--count".into(), count.to_string().into()]);
    }
    for (name, on) in [
        ("--all", request.all),
        ("--dry-run", request.dry_run),
        ("--undo", request.undo),
        ("--last", request.last),
    ] {
        if on == Some(true) {
            argv.push(name.into());
        }
    }
    push_filters(
        &mut argv,
        request.glob.as_deref(),
        request.file_type.as_deref(),
        request.budget_tokens,
    );
    if let Some(page) = request.page {
        argv.extend(["--page".into(), page.to_string().into()]);
    }
    if let Some(pattern) = &request.pattern {
        argv.extend(["-e".into(), pattern.into()]);
    }
    if request.pattern.is_some() || request.symbol.is_some() || request.path.is_some() {
        argv.push("--".into());
    }
    if let Some(symbol) = &request.symbol {
        argv.push(symbol.into());
    }
    if let Some(paths) = &request.path {
        argv.extend(paths.all().into_iter().map(OsString::from));
    }
    argv
}

/// The flags of an edit request: what clap makes of [`edit_argv`], built
/// without it (`with`, the new code itself, is handed over apart).
fn edit_args(request: &EditRequest) -> EditArgs {
    EditArgs {
        args: request
            .symbol
            .iter()
            .map(OsString::from)
            .chain(paths_of(&request.path))
            .collect(),
        regexp: request.pattern.clone(),
        structural: request.pattern.is_some(),
        lang: request.lang.clone(),
        rewrite: request.rewrite.clone(),
        callers_of: request.callers_of.clone(),
        impact: request.impact.clone(),
        depth: request.depth,
        proven_only: request.proven_only == Some(true),
        old: paths_of(&request.old),
        new: paths_of(&request.new),
        count: request.count,
        all: request.all == Some(true),
        with: None,
        undo: request.undo == Some(true),
        last: request.last == Some(true),
        dry_run: request.dry_run == Some(true),
        globs: globs_of(request.glob.as_deref()),
        types: request.file_type.iter().cloned().collect(),
        hidden: false,
        budget_tokens: request
            .budget_tokens
            .unwrap_or(DEFAULT_SEARCH_BUDGET_TOKENS),
        page: request.page.unwrap_or(1),
        json: false,
    }
}

fn edit_answer(request: EditRequest, ctx: &Context, served: &Served) -> Result<Answer> {
    if request.with.is_some() != request.symbol.is_some() {
        anyhow::bail!("\"symbol\" (PATH#SYMBOL) and \"with\" (its new code) go together");
    }
    let argv = edit_argv(&request);
    let args = edit_args(&request);
    let budget = args.budget_tokens;
    let page = args.page;
    let mut settings =
        crate::edit::settings::EditSettings::resolve_with(args, &argv, request.with.clone(), ctx)?;
    settings.json = true;
    if let crate::edit::settings::Mode::Structural { search, .. } = &mut settings.mode {
        search.exits_after = served.exits_after();
    }
    let started = std::time::Instant::now();
    let (mut document, mut messages) = (Vec::new(), Vec::new());
    let status = crate::edit::run(&settings, &mut document, &mut messages)?;
    let document = String::from_utf8_lossy(&document).trim().to_string();
    let report: Option<crate::edit::Report> = serde_json::from_str(&document).ok();
    // The document holds every change; the text is a page of them.
    let (text, truncated) = match (&report, request.text == Some(true)) {
        (Some(report), true) => {
            let page = crate::render::edit::page(
                report,
                page,
                crate::page::budget_bytes(budget),
                started.elapsed().as_millis(),
            );
            // JSON holds text: a path that is not UTF-8 is decoded lossily.
            (Some(lossy(&page.text)), page.left_out)
        }
        (None, true) => (Some(document.clone()), false),
        _ => (None, false),
    };
    let warnings = warnings(&messages);
    let result = if document.starts_with('{') {
        Document::new(&document, served)?
    } else {
        Document::Value(Value::String(document))
    };
    let answer = DocumentAnswer {
        mode: "edit",
        result,
        truncated,
        warnings,
        text,
        exit: status.code(),
    };
    Answer::of(&answer, status, served)
}

/// The `scout smart` command line of a smart request.
#[cfg(test)]
fn smart_argv(request: &SmartRequest) -> Vec<OsString> {
    let mut argv: Vec<OsString> = vec!["scout".into(), "smart".into(), "--json".into()];
    if let Some(n) = request.max_results {
        argv.extend(["--max-results".into(), n.to_string().into()]);
    }
    push_filters(
        &mut argv,
        request.glob.as_deref(),
        request.file_type.as_deref(),
        request.budget_tokens,
    );
    argv.extend(["--".into(), request.query.clone().into()]);
    if let Some(path) = &request.path {
        argv.push(path.into());
    }
    argv
}

/// The flags of a smart request: what clap makes of [`smart_argv`],
/// built without it.
fn smart_args(request: &SmartRequest) -> SmartArgs {
    SmartArgs {
        question: Some(request.query.clone()),
        paths: request.path.iter().map(OsString::from).collect(),
        question_flag: None,
        max_results: request.max_results.unwrap_or(DEFAULT_MAX_RESULTS),
        json: true,
        files: FileArgs {
            globs: globs_of(request.glob.as_deref()),
            types: request.file_type.iter().cloned().collect(),
            hidden: false,
        },
        budget_tokens: request.budget_tokens.unwrap_or(DEFAULT_SMART_BUDGET_TOKENS),
        agent: false,
        words_only: false,
        meaning_units: None,
        embed_budget_ms: None,
    }
}

fn smart_answer(request: SmartRequest, ctx: &Context, served: &Served) -> Result<Answer> {
    let args = smart_args(&request);
    let started = std::time::Instant::now();
    let mut asked = crate::cli::Asked::resolve_in(args, ctx)?;
    let want_text = request.text.unwrap_or(false);
    let name = match &mut asked {
        crate::cli::Asked::Question(settings) => {
            settings.text_beside_json = want_text;
            None
        }
        crate::cli::Asked::Name(search) => {
            search.text_beside_json = want_text;
            Some(search.query.text.clone())
        }
    };
    let (mut document, mut messages) = (Vec::new(), Vec::new());
    let status = crate::commands::smart::run(&asked, started, &mut document, &mut messages)?;
    let (document, text) = split_text(document, want_text)?;
    let document = document.trim();
    // A name's search with no match prints no document.
    let result: Value = if document.is_empty() && name.is_some() {
        Value::Null
    } else {
        serde_json::from_str(document)?
    };
    #[derive(Serialize)]
    struct Hit {
        path: String,
        line: u64,
        why: String,
    }
    let hits: Vec<Hit> = match result.get("results") {
        // A name, answered as scout search answers it: each file's first
        // definition line (else its first line), and what it holds.
        Some(results) => results
            .as_array()
            .into_iter()
            .flatten()
            .map(|r| {
                let lines = r["lines"].as_array().cloned().unwrap_or_default();
                let def = lines.iter().find(|l| l["def"] == true);
                let line = def
                    .or(lines.first())
                    .map_or(0, |l| l["line"].as_u64().unwrap_or(0));
                let count = r["hits"].as_u64().unwrap_or(0);
                Hit {
                    path: r["path"].as_str().unwrap_or_default().to_string(),
                    line,
                    why: match def {
                        Some(_) => format!("defines {}", name.as_deref().unwrap_or_default()),
                        None => format!("{count} matching lines"),
                    },
                }
            })
            .collect(),
        None => result["hits"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|h| Hit {
                path: h["path"].as_str().unwrap_or_default().to_string(),
                line: h["line"].as_u64().unwrap_or_default(),
                why: h["why"].as_str().unwrap_or_default().to_string(),
            })
            .collect(),
    };
    let warnings = warnings(&messages);
    #[derive(Serialize)]
    struct SmartAnswer {
        mode: &'static str,
        hits: Vec<Hit>,
        /// `scout smart --json`'s document.
        result: Document,
        truncated: bool,
        warnings: Vec<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        text: Option<String>,
        exit: u8,
    }
    let answer = SmartAnswer {
        text,
        mode: "smart",
        hits,
        truncated: result["left_out"].as_u64().unwrap_or(0) > 0,
        result: if served.as_value {
            Document::Value(result)
        } else {
            Document::Raw(RawValue::from_string(document.to_string())?)
        },
        warnings,
        exit: status.code(),
    };
    Answer::of(&answer, status, served)
}

/// A view's output with [`SearchSettings::text_beside_json`] (or smart's):
/// the JSON document's line, and the text after it when `text` was asked.
fn split_text(output: Vec<u8>, text: bool) -> Result<(String, Option<String>)> {
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

/// The `scout read` command line of a read request.
#[cfg(test)]
fn read_argv(request: &ReadRequest) -> Vec<OsString> {
    let mut argv: Vec<OsString> = vec![
        "scout".into(),
        "read".into(),
        "--color".into(),
        "never".into(),
    ];
    if let Some(symbol) = &request.symbol {
        push_value(&mut argv, "--symbol", symbol);
    }
    if let Some(range) = &request.range {
        push_value(&mut argv, "--range", range);
    }
    if let Some(budget) = request.budget_tokens {
        argv.extend(["--budget-tokens".into(), budget.to_string().into()]);
    }
    if request.again == Some(true) {
        argv.push("--again".into());
    }
    argv.extend(["--".into(), request.path.clone().into()]);
    argv
}

/// The flags of a read request: what clap makes of [`read_argv`], built
/// without it.
fn read_args(request: &ReadRequest) -> ReadArgs {
    ReadArgs {
        file: request.path.clone().into(),
        symbol: request.symbol.clone(),
        range: request.range.clone(),
        budget_tokens: request
            .budget_tokens
            .unwrap_or(crate::views::read::DEFAULT_BUDGET_TOKENS),
        color: ColorArgs {
            color: ColorChoice::Never,
        },
        again: request.again == Some(true),
    }
}

/// A read request: the text `scout read` prints, which is also the answer
/// (its lines, numbered, with what was left out and how to see it).
fn read_answer(request: ReadRequest, ctx: &Context, served: &Served) -> Result<Answer> {
    let args = read_args(&request);
    let mut settings = crate::views::read::ReadSettings::resolve_in(args, ctx)?;
    settings.tool = request.tool.map(CallRequest::call);
    let mut text = Vec::new();
    let status = crate::commands::read::run(&settings, &mut text)?;
    #[derive(Serialize)]
    struct ReadAnswer {
        mode: &'static str,
        path: String,
        text: String,
        exit: u8,
    }
    let answer = ReadAnswer {
        mode: "read",
        path: request.path,
        text: lossy(&text),
        exit: status.code(),
    };
    Answer::of(&answer, status, served)
}

#[cfg(test)]
mod tests {
    use super::schema::{Shape, MODES};
    use super::*;
    use crate::cli::Command;
    use serde_json::{json, Map};

    /// The fields a mode documents (`mode`, `text`, `tool` and `cwd`
    /// aside: they are said once for every mode).
    fn accepted(mode: &str) -> std::collections::BTreeSet<String> {
        fields_of(mode)
            .unwrap()
            .iter()
            .map(|(name, ..)| *name)
            .filter(|f| !["mode", "text", "tool", "cwd"].contains(f))
            .map(String::from)
            .collect()
    }

    /// The field names in a piece of documentation: its words that are
    /// names (`-i`, `budget_tokens`), once parentheses are taken out.
    fn named(text: &str, backticked: bool) -> std::collections::BTreeSet<String> {
        let bare = regex::Regex::new(r"\([^)]*\)")
            .unwrap()
            .replace_all(text, "");
        let word = regex::Regex::new(r"^-?[A-Za-z_]+$").unwrap();
        let pieces: Vec<String> = if backticked {
            regex::Regex::new(r"`([^`]+)`")
                .unwrap()
                .captures_iter(&bare)
                .map(|c| c[1].to_string())
                .collect()
        } else {
            bare.split([',', ';'])
                .flat_map(|p| p.split(" or ").flat_map(|p| p.split(" and ")))
                .map(|p| p.trim().trim_end_matches('*').to_string())
                .collect()
        };
        pieces
            .into_iter()
            .filter(|p| word.is_match(p) && !["mode", "text", "tool", "cwd"].contains(&p.as_str()))
            .collect()
    }

    /// The `scout call` table (docs/call-and-mcp.md, once the README's)
    /// and `scout call --help` had lost fields the binary accepts
    /// (`graph_files`, `proven_only`, the edit mode).
    #[test]
    fn the_documented_fields_are_the_accepted_ones() {
        let doc =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/call-and-mcp.md"))
                .unwrap();
        let table = &doc[doc.find("## `scout call`").unwrap()..];
        let help = crate::cli::CALL_EXAMPLES;
        let help = &help[help.find("Request fields").unwrap()..];
        for mode in MODES {
            let row = table
                .lines()
                .find(|l| l.starts_with(&format!("| `{mode}` |")))
                .unwrap_or_else(|| panic!("docs/call-and-mcp.md: no row for {mode}"));
            let cells: Vec<&str> = row.split('|').collect();
            assert_eq!(
                named(cells[2], true),
                accepted(mode),
                "docs/call-and-mcp.md's row for {mode}"
            );
            // The help's entry: its line and the indented ones after it.
            let mut lines = help
                .lines()
                .skip_while(|l| !l.starts_with(&format!("  {mode} ")));
            let mut entry = lines.next().unwrap_or_else(|| panic!("help: no {mode}"))
                [2 + mode.len()..]
                .to_string();
            for more in lines.take_while(|l| l.starts_with("              ")) {
                entry.push(' ');
                entry.push_str(more.trim());
            }
            assert_eq!(
                named(&entry, false),
                accepted(mode),
                "scout call --help for {mode}"
            );
        }
    }

    fn problem(text: &str) -> Problem {
        match parse(text) {
            Ok(request) => panic!("{text} parsed: {request:?}"),
            Err(problem) => problem,
        }
    }

    #[test]
    fn requests_that_parse() {
        let request = parse(r#"{"mode": "files", "pattern": "**/*.rs", "path": null}"#).unwrap();
        assert_eq!(
            request,
            Request::Files(FilesRequest {
                mode: "files".into(),
                pattern: "**/*.rs".into(),
                path: None,
                limit: None,
                timeout: None,
                text: None,
                cwd: None,
            })
        );
        let Request::Content(content) = parse(
            r#"{"mode": "content", "pattern": "-x", "-A": 1, "-C": 2, "context": 3,
                "-n": false, "-i": true, "glob": "*.{a,b}", "output_mode": "count",
                "head_limit": 0, "offset": 5, "multiline": true, "timeout": 0.5}"#,
        )
        .unwrap() else {
            panic!("not content");
        };
        assert_eq!(content.after, Some(1));
        assert_eq!(content.around, Some(2));
        assert_eq!(content.line_number, Some(false));
        assert_eq!(content.output_mode.as_deref(), Some("count"));
        assert_eq!(content.timeout, Some(0.5));
        assert!(matches!(
            parse(r#"{"mode": "search", "query": "x", "kind": "symbol", "page": 2}"#),
            Ok(Request::Search(_))
        ));
    }

    #[test]
    fn every_listed_field_is_a_request_field() {
        for mode in MODES {
            let fields = fields_of(mode).unwrap();
            let mut object = Map::new();
            for (name, shape, _) in fields {
                let value: Value = match shape {
                    Shape::Text => "x".into(),
                    Shape::Texts => json!(["x", "y"]),
                    Shape::Count => 1.into(),
                    Shape::Flag => true.into(),
                    Shape::Seconds => 1.5.into(),
                    Shape::OneOf(values) => values[0].into(),
                    Shape::Call => json!({"name": "search", "arguments": {"query": "x"}}),
                };
                object.insert(name.to_string(), value);
            }
            object.insert("mode".into(), mode.into());
            for exclusive in ["callers_of", "impact"] {
                // The two graph fields exclude each other: each in turn.
                let mut one = object.clone();
                if mode == "search" || mode == "edit" {
                    one.remove(exclusive);
                }
                let text = Value::Object(one).to_string();
                if let Err(problem) = parse(&text) {
                    panic!("{text}: {problem:?}");
                }
            }
        }
    }

    #[test]
    fn a_missing_or_unknown_mode_names_the_modes() {
        for text in [
            r#"{"pattern": "x"}"#,
            r#"{"mode": "grep", "pattern": "x"}"#,
            r#"{"mode": 3}"#,
        ] {
            let problem = problem(text);
            assert_eq!(problem.field.as_deref(), Some("mode"), "{text}");
            assert_eq!(
                problem.allowed,
                Some(vec![
                    "files".into(),
                    "content".into(),
                    "search".into(),
                    "smart".into(),
                    "read".into(),
                    "edit".into()
                ])
            );
        }
    }

    #[test]
    fn unknown_fields_and_wrong_types_name_the_field() {
        let unknown = problem(r#"{"mode": "files", "pattern": "x", "-A": 1}"#);
        assert_eq!(unknown.field.as_deref(), Some("-A"));
        assert!(unknown.allowed.unwrap().contains(&"limit".to_string()));

        let wrong = problem(r#"{"mode": "content", "pattern": "x", "-A": "3"}"#);
        assert_eq!(wrong.field.as_deref(), Some("-A"));
        assert!(wrong.message.contains("integer"), "{}", wrong.message);

        let negative = problem(r#"{"mode": "content", "pattern": "x", "offset": -1}"#);
        assert_eq!(negative.field.as_deref(), Some("offset"));

        let choice = problem(r#"{"mode": "content", "pattern": "x", "output_mode": "lines"}"#);
        assert_eq!(choice.field.as_deref(), Some("output_mode"));
        assert_eq!(
            choice.allowed,
            Some(vec![
                "files_with_matches".into(),
                "content".into(),
                "count".into()
            ])
        );

        let missing = problem(r#"{"mode": "search"}"#);
        assert_eq!(missing.field.as_deref(), Some("query"));

        assert!(problem("[1]").message.contains("object"));
        assert!(problem("{").message.contains("not valid JSON"));
    }

    #[test]
    fn search_requests_become_search_argv() {
        let Request::Search(request) = parse(
            r#"{"mode": "search", "query": "-x", "path": "src", "glob": "*.rs,*.toml",
                "-i": true, "kind": "literal", "budget_tokens": 0, "page": 2}"#,
        )
        .unwrap() else {
            panic!("not search");
        };
        let argv: Vec<String> = search_argv(&request)
            .into_iter()
            .map(|a| a.into_string().unwrap())
            .collect();
        assert_eq!(
            argv.join(" "),
            "scout search --json --kind literal -i -g *.rs -g *.toml --budget-tokens 0 --page 2 -e -x -- src"
        );
        match crate::cli::parse(&search_argv(&request)).unwrap().command {
            Some(Command::Search(args)) => assert_eq!(args, search_args(&request)),
            other => panic!("{other:?}"),
        }
    }
}

/// Property tests of the request parser: any text is a request or a
/// [`Problem`] naming what is wrong, never a panic. `PROPTEST_CASES` sets
/// the count (64 by default).
#[cfg(test)]
mod fuzz {
    use super::schema::Shape;
    use super::*;
    use crate::cli::Command;
    use proptest::prelude::*;
    use serde_json::Map;

    /// A JSON value of any shape, a few levels deep.
    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            ".{0,12}".prop_map(Value::from),
            prop::sample::select(vec![
                "files", "content", "search", "count", "auto", "*.rs", "."
            ])
            .prop_map(Value::from),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map(".{0,6}", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    /// A value of `shape`: strings that look like flags, paths, globs
    /// and nothing at all among them.
    fn shaped(shape: Shape) -> BoxedStrategy<Value> {
        let text = || {
            prop_oneof![
                prop::sample::select(vec![
                    "-x",
                    "--page",
                    "src",
                    "a.rs#f",
                    "*.rs,{a,b}",
                    "",
                    " ",
                    "-"
                ])
                .prop_map(str::to_string),
                "[a-z_ -]{0,8}",
            ]
        };
        match shape {
            Shape::Text => text().prop_map(Value::from).boxed(),
            Shape::Texts => prop_oneof![
                text().prop_map(Value::from),
                prop::collection::vec(text(), 1..3).prop_map(Value::from),
            ]
            .boxed(),
            Shape::Count => (0u64..4).prop_map(Value::from).boxed(),
            Shape::Flag => any::<bool>().prop_map(Value::from).boxed(),
            Shape::Seconds => (0u32..3).prop_map(Value::from).boxed(),
            Shape::OneOf(values) => prop::sample::select(values).prop_map(Value::from).boxed(),
            Shape::Call => Just(Value::Null).boxed(),
        }
    }

    /// Every field name any mode knows, and a few it does not.
    fn field() -> impl Strategy<Value = String> {
        let mut names: Vec<&str> = ["files", "content", "search", "smart"]
            .into_iter()
            .flat_map(|mode| fields_of(mode).unwrap())
            .map(|(name, _, _)| *name)
            .collect();
        names.extend(["extra", "Mode", ""]);
        prop::sample::select(names).prop_map(str::to_string)
    }

    proptest! {
        #![proptest_config(crate::testing::proptest_config(64))]

        #[test]
        fn any_text_is_a_request_or_a_problem(text in any::<String>()) {
            let _ = parse(&text);
        }

        /// Requests built from real field names and values of any type:
        /// accepted only when the mode is known and every field has its
        /// shape; a problem names a field whenever one is at fault.
        #[test]
        fn structured_requests_are_checked_field_by_field(
            mode in prop::sample::select(vec!["files", "content", "search", "smart", "read", "edit", "grep"]),
            fields in prop::collection::btree_map(field(), value(), 0..6),
        ) {
            let mut object: Map<String, Value> = fields.into_iter().collect();
            object.insert("mode".into(), Value::from(mode));
            let text = Value::Object(object.clone()).to_string();
            match parse(&text) {
                Ok(request) => {
                    prop_assert!(mode != "grep");
                    let known = match request {
                        Request::Files(_) => FilesRequest::FIELDS,
                        Request::Content(_) => ContentRequest::FIELDS,
                        Request::Search(_) => SearchRequest::FIELDS,
                        Request::Smart(_) => SmartRequest::FIELDS,
                        Request::Read(_) => ReadRequest::FIELDS,
                        Request::Edit(_) => EditRequest::FIELDS,
                    };
                    for (key, value) in &object {
                        if value.is_null() {
                            continue;
                        }
                        let shape = known.iter().find(|(name, _, _)| name == key).map(|f| f.1);
                        prop_assert!(shape.is_some_and(|s| s.accepts(value)), "{} = {}", key, value);
                    }
                }
                Err(problem) => prop_assert!(!problem.message.is_empty()),
            }
        }

        /// A request's flags, built without clap, are what clap makes of
        /// the command line the request stands for: the same settings
        /// follow, and the same refusals.
        #[test]
        fn requests_build_the_flags_of_their_command_line(
            (mode, fields) in prop::sample::select(vec![
                ("search", SearchRequest::FIELDS), ("edit", EditRequest::FIELDS),
                ("smart", SmartRequest::FIELDS), ("read", ReadRequest::FIELDS),
            ]).prop_flat_map(|(mode, known)| {
                let fields: Vec<_> = known
                    .iter()
                    .filter(|(name, ..)| !["mode", "tool", "cwd", "text"].contains(name))
                    .map(|(name, shape, _)| (Just(name.to_string()), shaped(*shape)))
                    .collect();
                let most = fields.len().min(8);
                (Just(mode), prop::sample::subsequence(fields, 0..=most)
                    .prop_flat_map(|picked| picked))
            }),
        ) {
            let mut object: Map<String, Value> = fields.into_iter().collect();
            object.insert("mode".into(), Value::from(mode));
            let Ok(request) = parse(&Value::Object(object).to_string()) else {
                return Ok(()); // a required field not picked
            };
            let parsed = |argv: Vec<OsString>| crate::cli::parse(&argv).unwrap().command;
            match request {
                Request::Search(r) => match parsed(search_argv(&r)) {
                    Some(Command::Search(args)) => prop_assert_eq!(search_args(&r), args),
                    other => prop_assert!(false, "{:?}", other),
                },
                Request::Edit(r) => match parsed(edit_argv(&r)) {
                    Some(Command::Edit(args)) => prop_assert_eq!(edit_args(&r), args),
                    other => prop_assert!(false, "{:?}", other),
                },
                Request::Smart(r) => match parsed(smart_argv(&r)) {
                    Some(Command::Smart(args)) => prop_assert_eq!(smart_args(&r), args),
                    other => prop_assert!(false, "{:?}", other),
                },
                Request::Read(r) => match parsed(read_argv(&r)) {
                    Some(Command::Read(args)) => prop_assert_eq!(read_args(&r), args),
                    other => prop_assert!(false, "{:?}", other),
                },
                _ => unreachable!("only these modes are made"),
            }
        }

        /// Deep nesting and long strings are refused or read in bounded
        /// time (serde_json's recursion limit), never a stack overflow.
        #[test]
        fn deep_requests_do_not_overflow(depth in 1usize..5000, open in prop::sample::select(vec!["[", "{\"a\":"])) {
            let text = format!("{{\"mode\":\"files\",\"pattern\":{}1", open.repeat(depth));
            prop_assert!(parse(&text).is_err());
        }
    }
}
