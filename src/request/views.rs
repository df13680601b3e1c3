//! Modes `files` and `content`: `scout files` and `scout grep` as
//! requests.

use std::ffi::OsString;

use anyhow::Result;
use serde::Serialize;

use crate::cli::Context;
use crate::cli::{ColorArgs, FilesArgs, GrepArgs, LimitArgs};
use crate::views;
use crate::views::files::{self, FilesSettings};
use crate::views::grep::{self, GrepSettings, Items, OutputMode};

use super::schema::{CallRequest, ContentRequest, FilesRequest};

use super::argv::push_value;
use super::reply::{lossy, Answer};
use super::Served;

pub(super) fn files_answer(
    request: FilesRequest,
    ctx: &Context,
    served: &Served,
) -> Result<Answer> {
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

pub(super) fn content_answer(
    request: ContentRequest,
    ctx: &Context,
    served: &Served,
) -> Result<Answer> {
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
pub(super) fn grep_argv(request: &ContentRequest) -> Vec<OsString> {
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
