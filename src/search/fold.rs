//! Folding rg's output (its `--json` events, or its plain records with
//! spans found by a [`Matcher`]) into per-file tallies.
//!
//! Memory is O(files), never O(matches): per file, exact counters plus a
//! bounded set of candidate lines (the best-scored, definitions first),
//! each already cut to at most
//! [`MAX_QUOTE_BYTES`](crate::page::tally::MAX_QUOTE_BYTES) around its match. Beside
//! the tallies, the plain `rg -n` lines are kept only while they stay
//! under a byte cap, so that a page larger than rg's own answer can print
//! that answer instead (invariant I2) without a second search.

use std::sync::Arc;

use crate::lang::Lang;
use crate::page::tally::{strip_newline, strip_terminator, FileTally, Plain, PlainLine, Quote};
use crate::rg::{Matcher, Record, RgEvent, Stats};
use crate::search::rank::{LineSignals, Scorer};

/// Options of a fold.
#[derive(Debug, Clone, Copy)]
pub struct FoldOptions {
    /// Candidate lines kept per file.
    pub keep: usize,
    /// Plain `rg -n` bytes kept at most (for printing rg's own answer).
    pub plain_cap: u64,
    /// Whether plain rg output would name the file on each line.
    pub with_filename: bool,
}
/// The fold's state and result.
#[derive(Debug)]
pub struct Fold<'s> {
    scorer: &'s Scorer,
    options: FoldOptions,
    pub files: Vec<FileTally>,
    current: Option<usize>,
    /// The current file's path, for its plain lines.
    current_path: Arc<[u8]>,
    pub plain: Plain,
    /// rg's totals from its summary event, when it sent one.
    pub summary: Option<Stats>,
    spans: Vec<(usize, usize)>,
    /// With `-w`, the spans of rg's `--json` events are found again here,
    /// as the plain records' are: rg 13 reports some words short (`TTPError`
    /// for `HTTPError` at a line's start, `\w+Error\b`), and the two
    /// readers must rank alike.
    respan: Option<Matcher>,
}

impl<'s> Fold<'s> {
    pub fn new(scorer: &'s Scorer, options: FoldOptions) -> Fold<'s> {
        Fold {
            scorer,
            options,
            files: Vec::new(),
            current: None,
            current_path: Arc::from(&[][..]),
            plain: Plain {
                complete: true,
                ..Plain::default()
            },
            summary: None,
            spans: Vec::new(),
            respan: None,
        }
    }

    /// Finds the spans of `--json` events with `matcher` instead of
    /// taking rg's (see [`Fold::respan`]).
    pub fn respanned(mut self, matcher: Option<Matcher>) -> Fold<'s> {
        self.respan = matcher;
        self
    }

    /// Takes one rg event.
    pub fn push(&mut self, event: RgEvent<'_>) {
        match event {
            RgEvent::Begin(begin) => self.begin(begin.path.to_bytes().into_owned()),
            RgEvent::Match(m) => {
                self.spans.clear();
                let text = m.lines.to_bytes();
                match &self.respan {
                    Some(matcher) => {
                        matcher.spans(strip_terminator(&text), &mut self.spans);
                        if let Some(i) = self.current {
                            self.files[i].matches += self.spans.len().max(1) as u64;
                        }
                    }
                    None => self
                        .spans
                        .extend(m.submatches.iter().map(|s| (s.start, s.end))),
                }
                self.matched(m.line_number.unwrap_or(0), &text);
            }
            RgEvent::Context(_) => {}
            RgEvent::End(end) => {
                if let Some(i) = self.current.take() {
                    let file = &mut self.files[i];
                    file.hits = end.stats.matched_lines;
                    if self.respan.is_none() {
                        file.matches = end.stats.matches;
                    }
                    if end.binary_offset.is_some() {
                        self.binary(i);
                    }
                }
            }
            RgEvent::Summary(summary) => self.summary = Some(summary.stats),
        }
    }

    /// Takes one record of plain output, finding its spans with `matcher`.
    /// Returns false for a binary file whose lines rg did not print: its
    /// counts are unknown, and only `--json` can give them.
    pub fn push_record(&mut self, record: Record<'_>, matcher: &Matcher) -> bool {
        match record {
            Record::Line { path, number, text } => {
                if self.current.is_none_or(|i| self.files[i].path != path) {
                    self.begin(path.to_vec());
                }
                self.spans.clear();
                matcher.spans(strip_terminator(text), &mut self.spans);
                let found = self.spans.len().max(1) as u64;
                self.matched(number, text);
                if let Some(i) = self.current {
                    self.files[i].matches += found;
                }
                true
            }
            Record::BinaryStopped { path } => {
                if let Some(i) = self.current.filter(|&i| self.files[i].path == path) {
                    self.binary(i);
                }
                true
            }
            Record::BinaryMatches { .. } => false,
        }
    }

    fn begin(&mut self, path: Vec<u8>) {
        self.current_path = Arc::from(&path[..]);
        self.files.push(FileTally {
            lang: Lang::from_path(&path),
            path,
            ..FileTally::default()
        });
        self.current = Some(self.files.len() - 1);
    }

    /// rg stopped in a binary file: its lines are not quotable, and plain
    /// `rg -n` prints a notice that the kept lines lack.
    fn binary(&mut self, index: usize) {
        let file = &mut self.files[index];
        file.binary = true;
        file.quotes.clear();
        self.plain.complete = false;
    }

    /// One matching line of the current file, with its terminator; its
    /// spans are in `self.spans`.
    fn matched(&mut self, number: u64, line: &[u8]) {
        let Some(index) = self.current else {
            return;
        };
        let body = strip_terminator(line);
        let file = &mut self.files[index];
        let signals: LineSignals = self.scorer.line(file.lang, body, &self.spans);
        file.hits += 1;
        file.def_lines += u64::from(signals.def);
        file.primary_def_lines += u64::from(signals.def && signals.primary);
        file.weak_def_lines += u64::from(signals.weak_def);
        file.word_hits += u64::from(signals.word);
        file.exact_word_hits += u64::from(signals.word && signals.exact);
        file.covered |= signals.covered;
        keep_best(
            &mut file.quotes,
            self.options.keep,
            number,
            strip_newline(line),
            self.spans.first().copied(),
            signals,
        );

        let plain_len = plain_line_len(&file.path, number, line, self.options.with_filename);
        self.plain.bytes += plain_len;
        if self.plain.complete {
            if self.plain.bytes <= self.options.plain_cap {
                let text = &mut self.plain.text;
                let start = text.len();
                text.extend_from_slice(line);
                if line.last() != Some(&b'\n') {
                    text.push(b'\n');
                }
                self.plain.lines.push(PlainLine {
                    path: Arc::clone(&self.current_path),
                    number,
                    span: start..text.len(),
                });
            } else {
                self.plain.complete = false;
                self.plain.lines = Vec::new();
                self.plain.text = Vec::new();
            }
        }
    }
}

/// The size of one line of `rg -n` output: `path:line:text\n`.
fn plain_line_len(path: &[u8], number: u64, line: &[u8], with_filename: bool) -> u64 {
    let mut len = digits(number) + 1 + line.len() as u64;
    if line.last() != Some(&b'\n') {
        len += 1;
    }
    if with_filename {
        len += path.len() as u64 + 1;
    }
    len
}

fn digits(mut n: u64) -> u64 {
    let mut d = 1;
    while n >= 10 {
        n /= 10;
        d += 1;
    }
    d
}

/// Keeps `quotes` at no more than `keep` entries, the best by score, then
/// by earliest line.
fn keep_best(
    quotes: &mut Vec<Quote>,
    keep: usize,
    line: u64,
    body: &[u8],
    first_match: Option<(usize, usize)>,
    signals: LineSignals,
) {
    let score = signals.score();
    if quotes.len() >= keep {
        // Lines arrive in order, so an equal score never displaces. Most
        // lines of a file displace nothing: that is settled first, by
        // scores alone.
        if !quotes.iter().any(|q| q.score < score) {
            return;
        }
        let Some((worst, _)) = quotes
            .iter()
            .enumerate()
            .min_by_key(|(_, q)| (q.score, std::cmp::Reverse(q.line)))
        else {
            return;
        };
        quotes.swap_remove(worst);
    }
    quotes.push(Quote {
        score,
        def: signals.def,
        primary: signals.def && signals.primary,
        ..Quote::around(line, body, first_match.unwrap_or((0, 0)))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keep_best_prefers_definitions_then_earlier_lines() {
        let mut quotes = Vec::new();
        let plain = LineSignals::default();
        let def = LineSignals {
            def: true,
            ..LineSignals::default()
        };
        for (n, s) in [(1, plain), (2, plain), (3, def), (4, plain)] {
            keep_best(&mut quotes, 2, n, b"x", None, s);
        }
        let mut lines: Vec<u64> = quotes.iter().map(|q| q.line).collect();
        lines.sort();
        assert_eq!(lines, [1, 3]);
    }

    #[test]
    fn each_kept_line_ends_in_its_own_newline() {
        use crate::page::query::{Kind, Query};
        let scorer = Scorer::new(&Query::plan("x", Kind::Auto, false, false));
        let options = FoldOptions {
            keep: 8,
            plain_cap: 1 << 20,
            with_filename: true,
        };
        let mut fold = Fold::new(&scorer, options);
        fold.begin(b"a.rs".to_vec());
        for (number, line) in [(1, &b"x = 1\n"[..]), (2, b""), (3, b"x")] {
            fold.matched(number, line);
        }
        let texts: Vec<&[u8]> = fold
            .plain
            .lines
            .iter()
            .map(|l| fold.plain.text_of(l))
            .collect();
        assert_eq!(texts, [&b"x = 1\n"[..], b"\n", b"x\n"]);
        let printed = "a.rs:1:x = 1\na.rs:2:\na.rs:3:x\n";
        assert_eq!(fold.plain.bytes, printed.len() as u64);
    }

    #[test]
    fn plain_line_len_counts_what_rg_prints() {
        assert_eq!(
            plain_line_len(b"a.rs", 12, b"fn x\n", true),
            "a.rs:12:fn x\n".len() as u64
        );
        assert_eq!(
            plain_line_len(b"a.rs", 7, b"end", false),
            "7:end\n".len() as u64
        );
    }
}
