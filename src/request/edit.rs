//! Mode `edit`: `scout edit --json` as a request.

use std::ffi::OsString;

use anyhow::Result;
use serde_json::Value;

use crate::cli::Context;
use crate::cli::{EditArgs, DEFAULT_SEARCH_BUDGET_TOKENS};

use super::schema::{EditRequest, Paths};

use super::argv::{globs_of, paths_of, push_filters, push_value};
use super::reply::{lossy, warnings, Answer, Document, DocumentAnswer};
use super::Served;

/// The `scout edit` command line of an edit request (the definition's
/// new code, `with`, is handed over apart).
pub(super) fn edit_argv(request: &EditRequest) -> Vec<OsString> {
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
pub(super) fn edit_args(request: &EditRequest) -> EditArgs {
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

pub(super) fn edit_answer(request: EditRequest, ctx: &Context, served: &Served) -> Result<Answer> {
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
