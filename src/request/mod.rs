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
//! Each mode is answered by its module ([`views`] for `files` and
//! `content`, then [`search`], [`smart`], [`read`], [`edit`]), which
//! builds the command's flags from the request and runs the command;
//! [`reply`] is the answer's shape.
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

mod argv;
pub mod call;
mod confine;
mod edit;
mod read;
mod reply;
mod schema;
mod search;
mod smart;
mod views;

use std::path::PathBuf;

use serde_json::Value;

use crate::cli::Context;
use crate::dirs::OsEnvLookup;
use crate::rg::Cancel;
use crate::search::settings::SessionFrom;

pub use reply::{error_answer_for, Answer};
pub use schema::fields_of;

use edit::edit_answer;
use read::read_answer;
use reply::error_answer;
use schema::{parse, parse_value, Paths, Problem, Request};
use search::search_answer;
use smart::smart_answer;
use views::{content_answer, files_answer};

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

#[cfg(test)]
mod tests {
    use super::schema::{Shape, MODES};
    use super::*;

    use super::schema::FilesRequest;
    use super::search::{search_args, search_argv};

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
    use super::edit::{edit_args, edit_argv};
    use super::read::{read_args, read_argv};
    use super::schema::Shape;
    use super::schema::{
        ContentRequest, EditRequest, FilesRequest, ReadRequest, SearchRequest, SmartRequest,
    };
    use super::search::{search_args, search_argv};
    use super::smart::{smart_args, smart_argv};
    use super::*;
    use std::ffi::OsString;

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
