//! `scout grep`: the faithful view as text.
//!
//! Prints the page's results as rg prints them, one per line, then (only
//! when there is something to say) lines in square brackets: the count
//! mode's total, where the page sits among all results with the command
//! for the next page, and a time-out with how far the search got. rg's
//! complaints about unreadable files go to stderr. With colour on, paths,
//! line numbers and matches are coloured as rg colours them, and the
//! bracketed lines as a page's footer ([`crate::render::style`]).

use std::ffi::OsString;
use std::io::Write;

use anyhow::Result;

use crate::exit::ExitStatus;
use crate::page::call::ToolCall;
use crate::render::scope::plural;
use crate::render::style::{Painter, Role, Styled};
use crate::rg::{Matcher, SearchFlags};
use crate::views::grep::OutputMode;
use crate::views::grep::{self, GrepResult, GrepSettings, Items};
use crate::views::{self, MAX_OUTPUT_BYTES};

/// Runs the grep, writing the page to `out` and warnings to `err`; `argv`
/// is the command line typed, the base of the next-page command.
pub fn run(
    settings: &GrepSettings,
    argv: &[OsString],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus> {
    let result = grep::search(settings)?;
    for warning in &result.warnings {
        writeln!(err, "scout: {warning}")?;
    }
    let painter = Painter::new(settings.color, || {
        Matcher::new(&SearchFlags {
            patterns: vec![settings.pattern.clone()],
            ignore_case: settings.flags.ignore_case,
            ..SearchFlags::default()
        })
    });
    // Exit 1 leaves stdout empty (README, "Exit status"): the note on an
    // offset past the last result goes to stderr.
    let sink: &mut dyn Write = if result.status == ExitStatus::NoMatch {
        err
    } else {
        out
    };
    painter.write(sink, &page(&result, argv, settings))?;
    if result.total == 0 {
        writeln!(err, "scout: no match")?;
    }
    Ok(result.status)
}

/// The text of a page.
pub fn page(result: &GrepResult, argv: &[OsString], settings: &GrepSettings) -> Styled {
    let mut text = Styled::new();
    match &result.items {
        Items::Lines(lines) => {
            for line in lines {
                content_line(&mut text, line, settings);
                text.push(b"\n");
            }
        }
        Items::Files(paths) => {
            for path in paths {
                text.push_styled(Role::Path, path);
                text.push(b"\n");
            }
        }
        Items::Counts(counts) => {
            for (path, count) in counts {
                text.push_styled(Role::Path, path);
                let _ = writeln!(text, ":{count}");
            }
        }
    }
    for note in notes(result, argv, settings.tool.as_ref()) {
        text.push_styled(Role::Frame, note.as_bytes());
        text.push(b"\n");
    }
    text
}

/// One of rg's content lines, its fields given their roles (a context
/// line's text has none: rg colours only matches on matching lines).
fn content_line(text: &mut Styled, line: &[u8], settings: &GrepSettings) {
    let Some(fields) = settings.flags.split_line(line, settings.with_filename) else {
        text.push(line);
        return;
    };
    let sep = if fields.matching { b":" } else { b"-" };
    if let Some(path) = fields.path {
        text.push_styled(Role::Path, path);
        text.push(sep);
    }
    if let Some(number) = fields.number {
        text.push_styled(Role::LineNumber, number);
        text.push(sep);
    }
    if fields.matching {
        text.push_styled(Role::Quote, fields.text);
    } else {
        text.push(fields.text);
    }
}

/// The bracketed lines after the results.
fn notes(result: &GrepResult, argv: &[OsString], tool: Option<&ToolCall>) -> Vec<String> {
    // The command (or, over MCP, the tool call) at another offset.
    let at = |offset: usize| match tool {
        Some(call) => call.with("offset", offset).text(),
        None => views::command_with(argv, "--offset", &offset.to_string()),
    };
    let (one, many) = match result.mode {
        OutputMode::Content => ("line", "lines"),
        OutputMode::FilesWithMatches | OutputMode::Count => ("file", "files"),
    };
    let mut notes = Vec::new();
    if result.mode == OutputMode::Count && result.total > 0 {
        // A search the time limit stopped counted only what it found.
        let partial = if result.timed_out.is_some() {
            ", so far: the search timed out"
        } else {
            ""
        };
        notes.push(format!(
            "[total: {} in {}{partial}]",
            plural(result.matching_lines, "matching line", "matching lines"),
            plural(result.total as u64, "file", "files")
        ));
    }
    let shown = result.items.len();
    // "of 1234", or "of 120 found so far" when the search did not finish.
    let of_total = if result.timed_out.is_some() {
        format!("{} found so far", result.total)
    } else {
        result.total.to_string()
    };
    if shown == 0 && result.total > 0 {
        notes.push(format!(
            "[nothing at offset {}: there are only {} {many}{}; the first page: {}]",
            result.offset,
            result.total,
            if result.timed_out.is_some() {
                " found so far"
            } else {
                ""
            },
            at(0)
        ));
    } else if let Some(next) = result.next_offset() {
        let why = if result.capped {
            format!(
                "output cut at {} MB at the last complete line; ",
                MAX_OUTPUT_BYTES >> 20
            )
        } else {
            String::new()
        };
        notes.push(format!(
            "[{why}showing {many} {}-{} of {of_total}; next page: {}]",
            result.offset + 1,
            result.offset + shown,
            at(next)
        ));
    } else if result.offset > 0 {
        notes.push(format!(
            "[showing {many} {}-{} of {of_total}]",
            result.offset + 1,
            result.offset + shown,
        ));
    }
    if let Some(after) = result.timed_out {
        let how_far = match result.mode {
            OutputMode::Content => {
                "rg searches files in path order, so files after the last one shown were not searched"
            }
            OutputMode::FilesWithMatches | OutputMode::Count => {
                "files not yet searched are missing"
            }
        };
        notes.push(format!(
            "[timed out after {}: the search did not finish; {} found so far ({how_far}); narrow the PATH, --glob or --type, or raise --timeout (0 = no limit)]",
            views::seconds(after),
            plural(result.total as u64, one, many),
        ));
    }
    notes
}
