//! Mode `search`: `scout search --json` as a request.

use std::ffi::OsString;

use anyhow::Result;

use crate::cli::Context;
use crate::cli::{
    ColorArgs, FilterArgs, MatchArgs, OutputArgs, SearchArgs, SessionArgs,
    DEFAULT_SEARCH_BUDGET_TOKENS,
};
use crate::exit::ExitStatus;
use crate::page::query::Kind;
use crate::search::settings::SearchSettings;

use super::schema::{CallRequest, SearchRequest};

use super::argv::{globs_of, paths_of, push_filters, push_value};
use super::reply::{split_text, warnings, Answer, Document, DocumentAnswer};
use super::Served;

/// The `scout search` command line of a search request.
pub(super) fn search_argv(request: &SearchRequest) -> Vec<OsString> {
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
pub(super) fn search_args(request: &SearchRequest) -> SearchArgs {
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

pub(super) fn search_answer(
    request: SearchRequest,
    ctx: &Context,
    served: &Served,
) -> Result<Answer> {
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
