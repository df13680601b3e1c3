//! Mode `smart`: `scout smart --json` as a request.

use std::ffi::OsString;

use anyhow::Result;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::cli::Context;
use crate::cli::{FileArgs, SmartArgs, DEFAULT_MAX_RESULTS, DEFAULT_SMART_BUDGET_TOKENS};

use super::schema::SmartRequest;

use super::argv::globs_of;
#[cfg(test)]
use super::argv::push_filters;
use super::reply::{split_text, warnings, Answer, Document};
use super::Served;

/// The `scout smart` command line of a smart request.
#[cfg(test)]
pub(super) fn smart_argv(request: &SmartRequest) -> Vec<OsString> {
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
pub(super) fn smart_args(request: &SmartRequest) -> SmartArgs {
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

pub(super) fn smart_answer(
    request: SmartRequest,
    ctx: &Context,
    served: &Served,
) -> Result<Answer> {
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
