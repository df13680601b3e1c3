//! The JSON document of `scout search --json`.
//!
//! One document per run, written on one line:
//!
//! ```json
//! {
//!   "query": "useState", "kind": "literal", "fallback": null,
//!   "hits": 1442, "matches": 1500, "files": 214,
//!   "shown": 31, "already_shown": 0, "left_out": 1411,
//!   "page": 1, "pages": 7, "tokens": 1420, "elapsed_ms": 24,
//!   "repro": "rg -n --no-heading -F -e useState",
//!   "next": "scout search useState --page 2",
//!   "defs_not_on_page": ["src/x.ts"],
//!   "results": [
//!     {"path": "src/hooks/use-state.ts", "hits": 18, "matches": 19,
//!      "shown": 2, "already_shown": 0, "left_out": 16,
//!      "score": 102950, "signals": [{"signal": "def", "points": 100000}],
//!      "def": true, "binary": false,
//!      "lines": [{"line": 12, "text": "export function useState<S>(", "cut_before": 0, "cut_after": 0, "def": true,
//!                 "symbol": {"kind": "function", "name": "useState", "start": 12, "end": 40}}]}
//!   ],
//!   "code": []
//! }
//! ```
//!
//! - `hits` are matching lines, `matches` individual matches; both are rg's
//!   exact counts over the whole search, whatever the page shows (I3).
//! - For every result and in total: `shown + already_shown + left_out ==
//!   hits` (I6). `already_shown` is for session memory and is 0 without it.
//! - `results` are this page's files in rank order; `lines` are quoted in
//!   display order (definitions first, then by line number). `text` is the
//!   quoted bytes (lossy UTF-8 where the file is not UTF-8), a `\r` ending
//!   the line in a CRLF file included, as rg prints it; `cut_before` and
//!   `cut_after` count the bytes of the line left out on either side.
//! - `tokens` estimates the text page of the same request; pages are cut
//!   identically for text and JSON.
//! - `next` is the command for the following page, null on the last.
//! - `symbol` is the innermost definition enclosing the line (kind, name as
//!   shown, first and last line, 1-based), from the parser; null where the
//!   line is outside any definition or the file was not parsed.
//! - `code` holds the code of the definitions enclosing every match, when
//!   the page attaches it (at most 2 definitions of at most 40 lines, and
//!   nothing left out): per definition `path`, `symbol` and `lines` (each
//!   with `line`, `text`, `cut_before`, `cut_after`).
//! - `definitions`, only for a qualified name (`Type.method`,
//!   `Type::method`, `Class#method`) whose definition no match holds
//!   (code seldom spells its own definition that way): at most 3 of the
//!   definitions it names, code before tests, each as `code` has it with
//!   its name's line. They are not matches and count in no counter.
//! - A structural search (`--structural`) has `"kind": "structural"`
//!   and two more fields, `"lang"` (the pattern's language, e.g. `"rust"`)
//!   and `"parsed"` (files of that language searched: parsed, or skipped
//!   for lacking a word the pattern spells out); its `matches` are
//!   ast-grep's matches, its `hits` the lines they start on. A match over
//!   several lines is quoted by its first line, with `"last_line"` (only
//!   present then) its last. Text searches never have these fields.
//! - `--callers-of` and `--impact` add `"scope"`, the code graph's
//!   account of the calls of the name, specified in [`super::scope`].

use std::io::{self, Write};

use serde::Serialize;

use super::Report;
use crate::defs::enclosing;
use crate::page::chosen_quotes;
use crate::page::symbol::Symbol;

#[derive(Debug, Serialize)]
pub struct SearchDocument {
    pub query: String,
    pub kind: &'static str,
    pub fallback: Option<String>,
    pub hits: u64,
    pub matches: u64,
    pub files: usize,
    pub shown: u64,
    pub already_shown: u64,
    pub left_out: u64,
    pub page: usize,
    pub pages: usize,
    pub tokens: usize,
    pub elapsed_ms: u64,
    pub repro: String,
    pub next: Option<serde_json::Value>,
    pub defs_not_on_page: Vec<String>,
    pub results: Vec<FileResult>,
    pub code: Vec<CodeResult>,
    /// A qualified name only: the definitions it names that no match
    /// holds (`search::qualified`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub definitions: Vec<CodeResult>,
    /// `--structural` only: the pattern's language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lang: Option<&'static str>,
    /// `--structural` only: files of the language searched (parsed, or
    /// skipped for lacking one of the pattern's words).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parsed: Option<u64>,
    /// `--callers-of` / `--impact` only: what the code graph made of the
    /// calls of the name ([`super::scope`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<super::scope::ScopeDocument>,
}

#[derive(Debug, Serialize)]
pub struct CodeResult {
    pub path: String,
    pub symbol: Symbol,
    pub lines: Vec<CodeLine>,
}

#[derive(Debug, Serialize)]
pub struct CodeLine {
    pub line: u64,
    pub text: String,
    pub cut_before: usize,
    pub cut_after: usize,
}

#[derive(Debug, Serialize)]
pub struct FileResult {
    pub path: String,
    pub hits: u64,
    pub matches: u64,
    pub shown: u64,
    pub already_shown: u64,
    pub left_out: u64,
    pub score: i64,
    pub signals: Vec<Signal>,
    pub def: bool,
    pub binary: bool,
    pub lines: Vec<LineResult>,
}

#[derive(Debug, Serialize)]
pub struct Signal {
    pub signal: &'static str,
    pub points: i64,
}

#[derive(Debug, Serialize)]
pub struct LineResult {
    /// 1-based.
    pub line: u64,
    pub text: String,
    pub cut_before: usize,
    pub cut_after: usize,
    pub def: bool,
    pub symbol: Option<Symbol>,
    /// `--structural` only, for a match over several lines: its last
    /// line (1-based); `line` is its first and `text` that line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_line: Option<u64>,
}

/// Builds the document of a page.
pub fn document(report: &Report<'_>, tokens: usize) -> SearchDocument {
    let results: Vec<FileResult> = report
        .span()
        .slots
        .iter()
        .enumerate()
        .map(|(i, slot)| {
            let defs = report.defs.get(i).map_or(&[][..], |d| &d[..]);
            let seen = report.seen.get(i).map_or(&[][..], |d| &d[..]);
            let ranked = &report.ranked[slot.file];
            let tally = &ranked.tally;
            let lines: Vec<LineResult> = if report.files_only {
                Vec::new()
            } else {
                chosen_quotes(tally, slot.lines)
                    .into_iter()
                    .filter(|q| !seen.contains(&q.line))
                    .map(|q| LineResult {
                        line: q.line,
                        text: lossy(&q.text),
                        cut_before: q.cut_before,
                        cut_after: q.cut_after,
                        def: q.def,
                        last_line: (q.last_line > q.line).then_some(q.last_line),
                        symbol: u32::try_from(q.line)
                            .ok()
                            .and_then(|l| enclosing(defs, l))
                            .map(Symbol::of),
                    })
                    .collect()
            };
            let shown = lines.len() as u64;
            let already_shown = seen.len() as u64;
            FileResult {
                path: lossy(&tally.path),
                hits: tally.hits,
                matches: tally.matches,
                shown,
                already_shown,
                left_out: tally.hits - shown - already_shown,
                score: ranked.score.total,
                signals: ranked
                    .score
                    .signals
                    .iter()
                    .map(|&(signal, points)| Signal { signal, points })
                    .collect(),
                def: tally.def_lines > 0,
                binary: tally.binary,
                lines,
            }
        })
        .collect();
    let shown: u64 = results.iter().map(|r| r.shown).sum();
    let already_shown: u64 = results.iter().map(|r| r.already_shown).sum();
    SearchDocument {
        query: report.query.text.clone(),
        kind: report.query.kind.name(),
        fallback: report.fallback.clone(),
        hits: report.hits,
        matches: report.matches,
        files: report.ranked.len(),
        shown,
        already_shown,
        left_out: report.hits - shown - already_shown,
        page: report.page,
        pages: report.pages.len(),
        tokens,
        elapsed_ms: report.elapsed_ms,
        repro: report.repro.clone(),
        next: (report.page < report.pages.len()).then(|| report.command.next(report.page + 1)),
        defs_not_on_page: report
            .omitted
            .def_files
            .iter()
            .map(|&i| lossy(&report.ranked[i].tally.path))
            .collect(),
        results,
        code: report.code.iter().map(code_result).collect(),
        definitions: report.definitions.iter().map(code_result).collect(),
        lang: report.structural.map(|s| s.lang.name()),
        parsed: report.structural.map(|s| s.parsed),
        scope: report.scope.map(super::scope::document),
    }
}

fn code_result(c: &super::Code) -> CodeResult {
    CodeResult {
        path: lossy(&c.path),
        symbol: Symbol::of(&c.def),
        lines: c
            .lines
            .iter()
            .map(|q| CodeLine {
                line: q.line,
                text: lossy(&q.text),
                cut_before: q.cut_before,
                cut_after: q.cut_after,
            })
            .collect(),
    }
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Writes the document and a newline.
pub fn write_document(out: &mut dyn Write, document: &SearchDocument) -> io::Result<()> {
    serde_json::to_writer(&mut *out, document)?;
    out.write_all(b"\n")
}
