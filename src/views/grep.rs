//! The faithful view: rg's own results, in one deterministic order,
//! paginated by `--offset` / `--head-limit`, bounded in time and size.
//!
//! [`GrepSettings::resolve`] validates the flags and reads the environment
//! once; [`search`] runs rg and returns a [`GrepResult`] that both the text
//! output (`commands::grep`) and `scout call` print. rg's command line is
//! built by [`crate::rg::GrepFlags`]; this module decides what the results
//! are and which of them a page holds.
//!
//! Orders (so that pages never skip or repeat a result): matching lines in
//! rg's `--sort path` order; files newest first, ties by path; counts by
//! path. A result is one output line of rg: a matching line, a context line
//! or a `--` separator in content mode, a path, or a `path:count`.

use std::time::{Duration, Instant};

use anyhow::{bail, Result};

use crate::exit::ExitStatus;
use crate::page::call::ToolCall;
use crate::render::style::Color;
use crate::rg::{parse_count_line, run_lines, Ending, Flow, GrepFlags, LineSink, LinesOutcome, Rg};
use crate::shell;
use crate::views::{self, MAX_OUTPUT_BYTES};

/// What `scout grep` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputMode {
    /// Paths of matching files, newest first.
    #[value(name = "files_with_matches", alias = "files-with-matches")]
    FilesWithMatches,
    /// Matching lines (and context), in path order.
    Content,
    /// Matching lines per file, in path order, and the total.
    Count,
}

impl OutputMode {
    /// The name used on the command line and in `scout call`.
    pub fn name(self) -> &'static str {
        match self {
            OutputMode::FilesWithMatches => "files_with_matches",
            OutputMode::Content => "content",
            OutputMode::Count => "count",
        }
    }
}

/// A grep, ready to run.
#[derive(Debug)]
pub struct GrepSettings {
    pub rg: Rg,
    pub mode: OutputMode,
    pub flags: GrepFlags,
    /// Results skipped before the page.
    pub offset: usize,
    /// Most results on the page; `None` means no limit.
    pub head_limit: Option<usize>,
    /// `None` means no limit.
    pub timeout: Option<Duration>,
    /// The pattern as given, for messages.
    pub pattern: String,
    /// rg names the file on each line (it does unless it searches one
    /// file).
    pub with_filename: bool,
    /// Whether the text page is coloured.
    pub color: Color,
    /// The MCP tool call this grep came through (set by the request
    /// layer): the page then names tool calls, not commands.
    pub tool: Option<ToolCall>,
}

/// The results of one page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Items {
    /// rg's output lines (content mode), without their `\n`.
    Lines(Vec<Vec<u8>>),
    /// Paths of matching files (files_with_matches mode).
    Files(Vec<Vec<u8>>),
    /// Paths and their matching-line counts (count mode).
    Counts(Vec<(Vec<u8>, u64)>),
}

impl Items {
    pub fn len(&self) -> usize {
        match self {
            Items::Lines(v) | Items::Files(v) => v.len(),
            Items::Counts(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What a grep found, and which part of it this page shows.
#[derive(Debug)]
pub struct GrepResult {
    pub mode: OutputMode,
    /// This page's results, in the mode's order.
    pub items: Items,
    /// Results skipped before this page (`--offset`).
    pub offset: usize,
    /// Results in all (a lower bound when the search timed out).
    pub total: usize,
    /// Count mode: matching lines over every file (not only this page).
    pub matching_lines: u64,
    /// The page stopped early because the next result would have passed
    /// [`MAX_OUTPUT_BYTES`].
    pub capped: bool,
    /// Set when the search was stopped at the time limit.
    pub timed_out: Option<Duration>,
    /// rg's complaints about files it could not read (the rest was
    /// searched), and notes such as the single-threaded retry.
    pub warnings: Vec<String>,
    pub status: ExitStatus,
}

impl GrepResult {
    /// The offset of the next page, when results follow this one.
    pub fn next_offset(&self) -> Option<usize> {
        let end = self.offset + self.items.len();
        (end < self.total).then_some(end)
    }

    /// True when anything found is not on this page: cut by the limit or
    /// the size cap, or not found because time ran out.
    pub fn truncated(&self) -> bool {
        self.offset > 0 || self.next_offset().is_some() || self.timed_out.is_some()
    }
}

/// Keeps the results of one page while counting all of them.
struct Window {
    offset: usize,
    limit: usize,
    seen: usize,
    bytes: usize,
    capped: bool,
}

impl Window {
    fn new(offset: usize, limit: Option<usize>) -> Window {
        Window {
            offset,
            limit: limit.unwrap_or(usize::MAX),
            seen: 0,
            bytes: 0,
            capped: false,
        }
    }

    /// Counts one result of `len` printed bytes (with its newline) and says
    /// whether the page keeps it.
    fn admit(&mut self, kept: usize, len: usize) -> bool {
        let index = self.seen;
        self.seen += 1;
        if index < self.offset || kept >= self.limit || self.capped {
            return false;
        }
        if self.bytes + len > MAX_OUTPUT_BYTES {
            self.capped = true;
            return false;
        }
        self.bytes += len;
        true
    }
}

/// Content mode: keeps the page's lines as they stream in (rg's order is
/// already the final one), counting the rest.
struct LineCollector {
    window: Window,
    lines: Vec<Vec<u8>>,
}

impl LineSink for LineCollector {
    fn line(&mut self, line: &[u8]) -> Flow {
        if self.window.admit(self.lines.len(), line.len() + 1) {
            self.lines.push(line.to_vec());
        }
        Flow::Continue
    }
    fn reset(&mut self) {
        self.window = Window::new(self.window.offset, Some(self.window.limit));
        self.lines.clear();
    }
}

/// Files and count modes: keeps every line, to be sorted at the end.
#[derive(Default)]
struct AllLines(Vec<Vec<u8>>);

impl LineSink for AllLines {
    fn line(&mut self, line: &[u8]) -> Flow {
        self.0.push(line.to_vec());
        Flow::Continue
    }
    fn reset(&mut self) {
        self.0.clear();
    }
}

/// Runs the grep and lays out the page.
pub fn search(settings: &GrepSettings) -> Result<GrepResult> {
    let started = Instant::now();
    let deadline = settings.timeout.map(|t| started + t);
    let command = settings.flags.command();
    let (items, total, matching_lines, capped, outcome) = match settings.mode {
        OutputMode::Content => {
            let mut collector = LineCollector {
                window: Window::new(settings.offset, settings.head_limit),
                lines: Vec::new(),
            };
            let outcome = run_lines(&settings.rg, &command, deadline, &mut collector)?;
            let Window { seen, capped, .. } = collector.window;
            (Items::Lines(collector.lines), seen, 0, capped, outcome)
        }
        OutputMode::FilesWithMatches => {
            let mut all = AllLines::default();
            let outcome = run_lines(&settings.rg, &command, deadline, &mut all)?;
            let files = views::newest_first(all.0);
            let total = files.len();
            let (page, capped) = page_of(files, settings, |p| p.len() + 1);
            (Items::Files(page), total, 0, capped, outcome)
        }
        OutputMode::Count => {
            let mut all = AllLines::default();
            let outcome = run_lines(&settings.rg, &command, deadline, &mut all)?;
            let mut counts: Vec<(Vec<u8>, u64)> = all
                .0
                .iter()
                .filter_map(|line| parse_count_line(line))
                .map(|(path, count)| (path.to_vec(), count))
                .collect();
            counts.sort();
            let total = counts.len();
            let matching_lines = counts.iter().map(|(_, c)| c).sum();
            let (page, capped) =
                page_of(counts, settings, |(p, c)| p.len() + 2 + c.to_string().len());
            (Items::Counts(page), total, matching_lines, capped, outcome)
        }
    };
    let mut result = GrepResult {
        mode: settings.mode,
        items,
        offset: settings.offset,
        total,
        matching_lines,
        capped,
        timed_out: None,
        warnings: Vec::new(),
        status: ExitStatus::Shown,
    };
    result.status = judge(settings, &outcome, &mut result, started)?;
    Ok(result)
}

/// Maps rg's ending to the exit status, failing where there is nothing
/// to show.
fn judge(
    settings: &GrepSettings,
    outcome: &LinesOutcome,
    result: &mut GrepResult,
    started: Instant,
) -> Result<ExitStatus> {
    if outcome.retried_single_threaded {
        result.warnings.push(
            "rg could not start its threads (Resource temporarily unavailable); searched again on one thread"
                .into(),
        );
    }
    if let Some(reason) = outcome.rejection(std::slice::from_ref(&settings.pattern)) {
        bail!(
            "rg rejected the search for {}:\n{reason}",
            shell::quote(settings.pattern.as_bytes())
        );
    }
    match outcome.ending {
        Ending::TimedOut => {
            let after = settings.timeout.unwrap_or_else(|| started.elapsed());
            if result.total == 0 {
                bail!(
                    "the search timed out after {} with no result yet; narrow the PATH, --glob or --type, or raise --timeout (0 = no limit)",
                    views::seconds(after)
                );
            }
            result.timed_out = Some(after);
            return Ok(ExitStatus::Partial);
        }
        Ending::Stopped => return Ok(ExitStatus::Shown),
        Ending::Exited => {}
    }
    match outcome.code {
        // An offset past the last result shows nothing: exit 1, and the
        // output says how many results there are.
        Some(0 | 1) if result.items.is_empty() => Ok(ExitStatus::NoMatch),
        Some(0 | 1) => Ok(ExitStatus::Shown),
        Some(2) if result.total > 0 => {
            result.warnings.extend(outcome.stderr_lines());
            Ok(ExitStatus::Partial)
        }
        code => {
            if let Some(why) = crate::rg::nothing_searched(&outcome.stderr_lines()) {
                bail!("{why}");
            }
            let said = outcome.stderr_lines().join("\n");
            let code = code.map_or("a signal".to_string(), |c| format!("exit {c}"));
            if said.is_empty() {
                bail!("rg failed ({code}) and said nothing; try `scout doctor`");
            }
            bail!("rg failed ({code}):\n{said}");
        }
    }
}

/// The page of `all` that `settings` asks for: its items and whether the
/// output cap cut it short.
fn page_of<T>(all: Vec<T>, settings: &GrepSettings, len: impl Fn(&T) -> usize) -> (Vec<T>, bool) {
    let mut window = Window::new(settings.offset, settings.head_limit);
    let mut page = Vec::new();
    for item in all {
        if window.admit(page.len(), len(&item)) {
            page.push(item);
        } else if window.seen > settings.offset {
            break;
        }
    }
    (page, window.capped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_keeps_the_page_and_counts_everything() {
        let mut window = Window::new(2, Some(2));
        let kept: Vec<bool> = (0..6)
            .scan(0, |kept, _| {
                let admitted = window.admit(*kept, 10);
                *kept += usize::from(admitted);
                Some(admitted)
            })
            .collect();
        assert_eq!(kept, [false, false, true, true, false, false]);
        assert_eq!(window.seen, 6);
        assert!(!window.capped);
    }

    #[test]
    fn the_window_stops_at_the_output_cap() {
        let mut window = Window::new(0, None);
        assert!(window.admit(0, MAX_OUTPUT_BYTES - 1));
        assert!(!window.admit(1, 2));
        assert!(window.capped);
        assert!(!window.admit(1, 1), "nothing after a cut line");
    }
}
