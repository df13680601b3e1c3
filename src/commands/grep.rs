//! `scout grep`: the faithful view as text.
//!
//! Prints the page's results as rg prints them, one per line, then (only
//! when there is something to say) lines in square brackets: the count
//! mode's total, where the page sits among all results with the command
//! for the next page, and a time-out with how far the search got. rg's
//! complaints about unreadable files go to stderr.

use std::ffi::OsString;
use std::io::Write;

use anyhow::Result;

use crate::cli::OutputMode;
use crate::exit::ExitStatus;
use crate::views::grep::{self, GrepResult, GrepSettings, Items};
use crate::views::{self, plural, MAX_OUTPUT_BYTES};

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
    out.write_all(&page(&result, argv))?;
    if result.total == 0 {
        writeln!(err, "scout: no match")?;
    }
    Ok(result.status)
}

/// The text of a page.
pub fn page(result: &GrepResult, argv: &[OsString]) -> Vec<u8> {
    let mut text = Vec::new();
    match &result.items {
        Items::Lines(lines) | Items::Files(lines) => {
            for line in lines {
                text.extend_from_slice(line);
                text.push(b'\n');
            }
        }
        Items::Counts(counts) => {
            for (path, count) in counts {
                text.extend_from_slice(path);
                text.extend_from_slice(format!(":{count}\n").as_bytes());
            }
        }
    }
    for note in notes(result, argv) {
        text.extend_from_slice(note.as_bytes());
        text.push(b'\n');
    }
    text
}

/// The bracketed lines after the results.
fn notes(result: &GrepResult, argv: &[OsString]) -> Vec<String> {
    let (one, many) = match result.mode {
        OutputMode::Content => ("line", "lines"),
        OutputMode::FilesWithMatches | OutputMode::Count => ("file", "files"),
    };
    let mut notes = Vec::new();
    if result.mode == OutputMode::Count && result.total > 0 {
        notes.push(format!(
            "[total: {} in {}]",
            plural(
                result.matching_lines as usize,
                "matching line",
                "matching lines"
            ),
            plural(result.total, "file", "files")
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
            views::command_with(argv, "--offset", "0")
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
            views::command_with(argv, "--offset", &next.to_string())
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
            plural(result.total, one, many),
        ));
    }
    notes
}
