//! The text page.
//!
//! ```text
//! query: useState  kind=literal  hits=1442 files=214  shown=31 page=1/7  ~1420tok 24ms
//! src/hooks/use-state.ts  (18x) [def]
//!   12: export function useState<S>(initial: S) {
//!   44: …text around the match… [cut 340 of 540 bytes]
//! +207 files not shown: scout search useState --page 2
//! +1398 lines not quoted in these files: rg -n --no-heading -F -e useState -- FILE
//! note: 4 files holding a definition are not on this page: a.ts, b.ts, c.ts, d.ts
//! repro: rg -n --no-heading -F -e useState
//! ```
//!
//! A file header is `PATH  (Nx)` with ` [def]` when the file defines the
//! queried name and ` [binary]` when rg found it binary (its lines are not
//! quoted, since rg altered them). A quoted line is `  LINE: TEXT`, TEXT
//! byte-identical to the file's line without its terminator; a line longer
//! than 200 bytes is cut around its match, `…` standing where bytes were
//! cut and ` [cut K of M bytes]` after it (invariant I4). Everything after
//! the files is footer: what was left out and how to see it.

use std::io::{self, Write};

use super::Report;
use crate::fold::{FileTally, Quote};
use crate::page::{chosen_quotes, tokens};
use crate::rank::Score;

/// Most definition files named in the footer's note.
const NOTE_NAMES: usize = 5;

/// Writes one file's block: header, optional score, `lines` quotes.
pub fn file_block(
    out: &mut Vec<u8>,
    tally: &FileTally,
    score: &Score,
    lines: usize,
    explain: bool,
) {
    out.extend_from_slice(&tally.path);
    let _ = write!(out, "  ({}x)", tally.hits);
    if tally.def_lines > 0 {
        out.extend_from_slice(b" [def]");
    }
    if tally.binary {
        out.extend_from_slice(b" [binary]");
    }
    out.push(b'\n');
    if explain {
        let _ = write!(out, "  score {}:", score.total);
        for (i, (signal, points)) in score.signals.iter().enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            let _ = write!(out, "{sep}{signal} {points:+}");
        }
        out.push(b'\n');
    }
    for quote in chosen_quotes(tally, lines) {
        quote_line(out, quote);
    }
}

/// Writes `  LINE: TEXT`, with the cut marker when the line was cut.
pub fn quote_line(out: &mut Vec<u8>, quote: &Quote) {
    let _ = write!(out, "  {}: ", quote.line);
    if quote.cut_before > 0 {
        out.extend_from_slice("…".as_bytes());
    }
    out.extend_from_slice(&quote.text);
    if quote.cut_after > 0 {
        out.extend_from_slice("…".as_bytes());
    }
    if quote.cut_bytes() > 0 {
        let full = quote.text.len() + quote.cut_bytes();
        let _ = write!(out, " [cut {} of {full} bytes]", quote.cut_bytes());
    }
    out.push(b'\n');
}

/// The bytes of a file block, as [`file_block`] would write it.
pub fn file_block_len(tally: &FileTally, score: &Score, lines: usize, explain: bool) -> usize {
    let mut scratch = Vec::with_capacity(256);
    file_block(&mut scratch, tally, score, lines, explain);
    scratch.len()
}

/// The footer lines of a page (everything after the file blocks).
pub fn footer(report: &Report<'_>) -> Vec<u8> {
    let mut out = Vec::new();
    let omitted = &report.omitted;
    let pages = report.pages.len();
    if omitted.files > 0 {
        if report.page < pages {
            let _ = writeln!(
                out,
                "+{} files not shown: {}",
                omitted.files,
                report.page_command(report.page + 1)
            );
        } else {
            let _ = writeln!(
                out,
                "+{} files on earlier pages: {}",
                omitted.files,
                report.page_command(1)
            );
        }
    }
    if omitted.lines > 0 && !report.files_only {
        let _ = writeln!(
            out,
            "+{} lines not quoted in these files: {}",
            omitted.lines, report.file_command
        );
    }
    if !omitted.def_files.is_empty() {
        let names: Vec<String> = omitted
            .def_files
            .iter()
            .take(NOTE_NAMES)
            .map(|&i| String::from_utf8_lossy(&report.ranked[i].tally.path).into_owned())
            .collect();
        let more = omitted.def_files.len().saturating_sub(NOTE_NAMES);
        let _ = write!(
            out,
            "note: {} files holding a definition are not on this page: {}",
            omitted.def_files.len(),
            names.join(", ")
        );
        if more > 0 {
            let _ = write!(out, " (+{more} more)");
        }
        out.push(b'\n');
    }
    let _ = writeln!(out, "repro: {}", report.repro);
    out
}

/// Bytes the header and footer of a page may take at most, reserved
/// before file blocks are laid out.
pub fn reserve(query: &str, repro: &str, command: &str, fallback: Option<&str>) -> usize {
    let header = 120 + query.len() + fallback.map_or(0, |f| f.len() + 12);
    let footer = 2 * command.len() + 2 * repro.len() + 110 + NOTE_NAMES * 60;
    header + footer
}

fn header(report: &Report<'_>, tokens_estimate: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let _ = writeln!(
        out,
        "query: {}  kind={}  hits={} files={}  shown={} page={}/{}  ~{}tok {}ms",
        report.query.text,
        report.query.kind.name(),
        report.hits,
        report.ranked.len(),
        report.shown(),
        report.page,
        report.pages.len(),
        tokens_estimate,
        report.elapsed_ms,
    );
    if let Some(fallback) = &report.fallback {
        let _ = writeln!(out, "fallback: {fallback}");
    }
    out
}

/// Renders the whole page into bytes.
pub fn page(report: &Report<'_>) -> Vec<u8> {
    let mut body = Vec::new();
    for slot in &report.span().slots {
        let ranked = &report.ranked[slot.file];
        let lines = if report.files_only { 0 } else { slot.lines };
        file_block(
            &mut body,
            &ranked.tally,
            &ranked.score,
            lines,
            report.explain,
        );
    }
    body.extend_from_slice(&footer(report));
    let draft = header(report, 0).len() + body.len();
    let estimate = tokens(draft + tokens(draft).to_string().len() - 1);
    let mut out = header(report, estimate);
    out.extend_from_slice(&body);
    out
}

/// Writes the page.
pub fn write_page(out: &mut dyn Write, report: &Report<'_>) -> io::Result<()> {
    out.write_all(&page(report))
}
