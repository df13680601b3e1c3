//! Mode `read`: `scout read` as a request.

use anyhow::Result;
use serde::Serialize;

use crate::cli::Context;
use crate::cli::{ColorArgs, ReadArgs};
use crate::render::style::ColorChoice;

use super::schema::{CallRequest, ReadRequest};

#[cfg(test)]
use super::argv::push_value;
use super::reply::{lossy, Answer};
use super::Served;
#[cfg(test)]
use std::ffi::OsString;

/// The `scout read` command line of a read request.
#[cfg(test)]
pub(super) fn read_argv(request: &ReadRequest) -> Vec<OsString> {
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
pub(super) fn read_args(request: &ReadRequest) -> ReadArgs {
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
pub(super) fn read_answer(request: ReadRequest, ctx: &Context, served: &Served) -> Result<Answer> {
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
