//! A quoted line and the tallies of a file: what the search pipeline
//! folds rg's output into, and what a page quotes (every view's pages,
//! the graph's attributed lines and the renderers read them).

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

use crate::lang::Lang;

/// A quoted line is cut to at most this many bytes around its first match.
pub const MAX_QUOTE_BYTES: usize = 200;

/// One quotable line of a file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Quote {
    /// 1-based line number.
    pub line: u64,
    /// The last line of a structural match spanning more lines than
    /// `line` (1-based; 0 for a quote of one line, as every text match is).
    pub last_line: u64,
    /// The shown bytes: the whole line without its terminator, or a window
    /// of it when the line is longer than [`MAX_QUOTE_BYTES`].
    pub text: Vec<u8>,
    /// Bytes cut before and after `text` (both 0 when the line is whole).
    pub cut_before: usize,
    pub cut_after: usize,
    /// Score among the file's lines (higher first).
    pub score: i32,
    /// The line defines the queried name.
    pub def: bool,
    /// The definition is the name's own declaration; only with `def`.
    pub primary: bool,
}

impl Quote {
    /// Line `line` (1-based), whose bytes without the terminator are
    /// `body`, quoted around the match at `span`: whole, or the window
    /// [`cut_around`] keeps of a long line.
    pub fn around(line: u64, body: &[u8], span: (usize, usize)) -> Quote {
        let (text, cut_before, cut_after) = cut_around(body, span);
        Quote {
            line,
            text: text.to_vec(),
            cut_before,
            cut_after,
            ..Quote::default()
        }
    }

    /// Bytes cut in all.
    pub fn cut_bytes(&self) -> usize {
        self.cut_before + self.cut_after
    }
}

/// Everything scout keeps about one file with matches.
#[derive(Debug, Clone, Default)]
pub struct FileTally {
    /// The path exactly as rg printed it (raw bytes; `./x` when rg was
    /// given `.`, `x` when given no path).
    pub path: Vec<u8>,
    pub lang: Option<Lang>,
    /// Matching lines (rg's `matched_lines`).
    pub hits: u64,
    /// Individual matches (rg's `matches`).
    pub matches: u64,
    /// Matching lines that define the queried name.
    pub def_lines: u64,
    /// Those of them that declare the name itself, not a member or a local.
    pub primary_def_lines: u64,
    /// Matching lines that assign the name in an indented block (weak
    /// definitions, often locals).
    pub weak_def_lines: u64,
    /// Matching lines with a whole-word match.
    pub word_hits: u64,
    /// Matching lines with a whole-word, exact-case match.
    pub exact_word_hits: u64,
    /// Bit i: query word i occurs in the file.
    pub covered: u32,
    /// rg found the file binary; its lines are not quotable.
    pub binary: bool,
    /// The best lines, at most the fold's `keep` of them, in no order.
    pub quotes: Vec<Quote>,
}

/// rg's plain lines, kept while small.
#[derive(Debug, Default)]
pub struct Plain {
    /// Exact size in bytes of `rg -n` output for the search.
    pub bytes: u64,
    /// The lines, in rg's order, while complete.
    pub lines: Vec<PlainLine>,
    /// Their text, one after another: one buffer for every line, not an
    /// allocation per line while rg is still running.
    pub text: Vec<u8>,
    /// False once a line was not kept (cap reached, or a binary file whose
    /// plain output rg prints differently).
    pub complete: bool,
}

/// One line of plain `rg -n` output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlainLine {
    /// Shared by the file's lines: one allocation per file, not per line.
    pub path: Arc<[u8]>,
    /// 1-based.
    pub number: u64,
    /// Where its own [`Plain::text`] holds the line, with its terminator
    /// (one is added where the file had none); see [`Plain::text_of`].
    pub span: Range<usize>,
}

impl Plain {
    /// rg's lines, if every one was kept, file by file in the order of
    /// `rank` (a path's place on the pages; paths it lacks come last, by
    /// path), each file's lines by number: the page's order, definitions
    /// first, not rg's.
    pub fn into_ranked(mut self, rank: &BTreeMap<&[u8], usize>) -> Option<Plain> {
        if !self.complete {
            return None;
        }
        let place = |path: &[u8]| rank.get(path).copied().unwrap_or(usize::MAX);
        self.lines.sort_by(|a, b| {
            (place(&a.path), &a.path, a.number).cmp(&(place(&b.path), &b.path, b.number))
        });
        Some(self)
    }

    /// The text of one of [`Plain::lines`].
    pub fn text_of(&self, line: &PlainLine) -> &[u8] {
        &self.text[line.span.clone()]
    }
}

/// A file's score, with the signals behind it for `--explain`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Score {
    pub total: i64,
    /// (signal, points) in the order they were added; zero points omitted.
    pub signals: Vec<(&'static str, i64)>,
}

/// A file with its score, in page order.
#[derive(Debug)]
pub struct Ranked {
    pub tally: FileTally,
    pub score: Score,
}

/// `line` without its `\n`: the text a quote holds. A `\r` before the
/// `\n` is the file's, and rg prints it: a quote keeps it (I4).
pub fn strip_newline(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\n").unwrap_or(line)
}

/// `line` without its `\n` or `\r\n`: what is scored and matched.
pub fn strip_terminator(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// A window of at most [`MAX_QUOTE_BYTES`] of `line` around `span`, never
/// splitting a UTF-8 character. Returns (window, bytes cut before, after).
pub fn cut_around(line: &[u8], span: (usize, usize)) -> (&[u8], usize, usize) {
    if line.len() <= MAX_QUOTE_BYTES {
        return (line, 0, 0);
    }
    let (start, end) = (span.0.min(line.len()), span.1.min(line.len()).max(span.0));
    let matched = end - start;
    let mut from = if matched >= MAX_QUOTE_BYTES {
        start
    } else {
        start.saturating_sub((MAX_QUOTE_BYTES - matched) / 2)
    };
    let mut to = (from + MAX_QUOTE_BYTES).min(line.len());
    from = to.saturating_sub(MAX_QUOTE_BYTES).min(from);
    while from < line.len() && is_continuation(line[from]) {
        from += 1;
    }
    while to > from && to < line.len() && is_continuation(line[to]) {
        to -= 1;
    }
    (&line[from..to], from, line.len() - to)
}

fn is_continuation(b: u8) -> bool {
    b & 0b1100_0000 == 0b1000_0000
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lines_are_whole() {
        assert_eq!(cut_around(b"abc", (0, 1)), (&b"abc"[..], 0, 0));
    }

    #[test]
    fn long_lines_are_cut_around_the_match_and_account_for_every_byte() {
        let mut line = vec![b'a'; 1000];
        line.extend_from_slice(b"NEEDLE");
        line.extend(vec![b'b'; 50_000]);
        let (text, before, after) = cut_around(&line, (1000, 1006));
        assert_eq!(text.len(), MAX_QUOTE_BYTES);
        assert!(text.windows(6).any(|w| w == b"NEEDLE"));
        assert_eq!(before + text.len() + after, line.len());
        assert_eq!(&line[before..before + text.len()], text);
    }

    #[test]
    fn cuts_never_split_a_character() {
        let line = "é".repeat(300);
        let (text, before, after) = cut_around(line.as_bytes(), (300, 302));
        assert!(std::str::from_utf8(text).is_ok());
        assert_eq!(before + text.len() + after, line.len());
    }
}
