//! Stage 5b of the ranked search: files that changed between rg's pass and
//! the page.
//!
//! rg read a file, then someone edited, truncated or deleted it before the
//! page was printed. Each file on the shown page is stat'ed (on a warm
//! page, the stat the parser's pass made after rg serves), and so is each
//! file of rg's own lines when those are printed instead of the page; only a file
//! modified since the search started (or gone) is read again, and any
//! quote or line that is no longer the file's line is dropped, so no page
//! ever quotes a line that is not in the file (I4). A file whose
//! modification time is in the future is read too, and keeps every line
//! that still matches. The counts stay rg's, from its pass; the caller
//! warns once, naming the files.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::time::SystemTime;

use crate::page::tally::{strip_newline, Plain, Quote, Ranked};
use crate::page::PageSpan;

/// How far before the search a file's mtime still makes it suspect: more
/// than any filesystem's timestamp granularity (ext4 stamps with the
/// kernel's tick, several milliseconds behind the system clock).
pub const CLOCK_SLACK: std::time::Duration = std::time::Duration::from_secs(2);

/// Drops the quotes of the page's files that changed since `since`;
/// returns the paths (as rg printed them) that lost a line, sorted.
/// `modified` holds the mtimes of files already stat'ed after rg's pass
/// (by index in `ranked`); the others are stat'ed here.
pub fn verify_page(
    since: SystemTime,
    ranked: &mut [Ranked],
    span: &mut PageSpan,
    modified: &BTreeMap<usize, SystemTime>,
) -> Vec<Vec<u8>> {
    let mut changed = Vec::new();
    for slot in &mut span.slots {
        let tally = &mut ranked[slot.file].tally;
        if tally.quotes.is_empty() {
            continue;
        }
        let suspected = match modified.get(&slot.file) {
            Some(&mtime) => mtime >= since,
            None => suspect(&tally.path, since),
        };
        if !suspected {
            continue;
        }
        let lines = file_lines(&tally.path);
        let before = tally.quotes.len();
        tally
            .quotes
            .retain(|q| lines.as_ref().is_some_and(|l| quote_holds(q, l)));
        if tally.quotes.len() < before {
            slot.lines = slot.lines.min(tally.quotes.len());
            changed.push(tally.path.clone());
        }
    }
    changed.sort();
    changed
}

/// Drops rg's kept lines (printed in place of a page) of files that
/// changed since `since`; returns the paths that lost a line, sorted.
/// Asked only when those lines are printed: a page needs no stat of the
/// files it does not show.
pub fn verify_plain(since: SystemTime, plain: &mut Plain) -> Vec<Vec<u8>> {
    let mut changed = Vec::new();
    let mut paths: Vec<&[u8]> = plain.lines.iter().map(|l| &l.path[..]).collect();
    paths.dedup();
    let suspects: Vec<Vec<u8>> = paths
        .into_iter()
        .filter(|p| suspect(p, since))
        .map(<[u8]>::to_vec)
        .collect();
    for path in suspects {
        let lines = file_lines(&path);
        let before = plain.lines.len();
        let text = &plain.text;
        plain.lines.retain(|l| {
            let kept = &text[l.span.clone()];
            *l.path != path[..]
                || lines.as_ref().is_some_and(|lines| {
                    line_at(lines, l.number)
                        .is_some_and(|line| kept.strip_suffix(b"\n").unwrap_or(kept) == line)
                })
        });
        if plain.lines.len() < before {
            changed.push(path);
        }
    }
    changed.sort();
    changed.dedup();
    changed
}

/// Whether the file may have changed since `since`: gone, unreadable, or
/// modified at or after it.
fn suspect(path: &[u8], since: SystemTime) -> bool {
    std::fs::metadata(Path::new(OsStr::from_bytes(path)))
        .and_then(|m| m.modified())
        .map_or(true, |modified| modified >= since)
}

/// The file's bytes, or `None` when it cannot be read.
fn file_lines(path: &[u8]) -> Option<Vec<u8>> {
    std::fs::read(Path::new(OsStr::from_bytes(path))).ok()
}

/// Line `number` (1-based) of `bytes`, without its `\n`.
fn line_at(bytes: &[u8], number: u64) -> Option<&[u8]> {
    let index = usize::try_from(number.checked_sub(1)?).ok()?;
    bytes.split(|&b| b == b'\n').nth(index).filter(|line| {
        // The piece after a final newline is not a line.
        !(line.is_empty() && std::ptr::eq(line.as_ptr(), bytes.as_ptr().wrapping_add(bytes.len())))
    })
}

/// Whether `quote` is still the file's line (or the same window of it).
fn quote_holds(quote: &Quote, bytes: &[u8]) -> bool {
    let Some(line) = line_at(bytes, quote.line) else {
        return false;
    };
    let line = strip_newline(line);
    line.len() == quote.cut_before + quote.text.len() + quote.cut_after
        && line[quote.cut_before..quote.cut_before + quote.text.len()] == quote.text[..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_numbered_from_one_and_a_final_newline_ends_the_last() {
        assert_eq!(line_at(b"a\nb\n", 1), Some(&b"a"[..]));
        assert_eq!(line_at(b"a\nb\n", 2), Some(&b"b"[..]));
        assert_eq!(line_at(b"a\nb\n", 3), None);
        assert_eq!(line_at(b"a\nb", 2), Some(&b"b"[..]));
        assert_eq!(line_at(b"a\n\nb", 2), Some(&b""[..]));
        assert_eq!(line_at(b"", 1), None);
        assert_eq!(line_at(b"a", 0), None);
    }

    #[test]
    fn a_quote_holds_only_for_the_same_bytes_and_cut() {
        let quote = Quote {
            line: 2,
            text: b"cde".to_vec(),
            cut_before: 2,
            cut_after: 1,
            ..Quote::default()
        };
        assert!(quote_holds(&quote, b"x\nabcdef\n"));
        assert!(!quote_holds(&quote, b"x\nabcXef\n"));
        // A `\r` is part of the line a quote holds.
        assert!(!quote_holds(&quote, b"x\nabcdef\r\n"));
        let crlf = Quote {
            cut_after: 2,
            ..quote.clone()
        };
        assert!(quote_holds(&crlf, b"x\nabcdef\r\n"));
        // A change outside the window leaves a faithful, marked cut.
        assert!(quote_holds(&quote, b"x\nXbcdeX\n"));
        assert!(!quote_holds(&quote, b"x\nabcdefg\n"));
        assert!(!quote_holds(&quote, b"x\n"));
    }
}
