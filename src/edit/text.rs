//! The changes of a text edit (`--old TEXT --new TEXT ... FILE...`):
//! exact bytes, never a pattern, each pair applied in order to what the
//! pairs before it left, its occurrences found left to right without
//! overlap. Without `--count` or `--all` a pair must occur exactly once
//! in each file; a count that does not hold is refused, naming the file
//! and the lines it did match.
//!
//! A file with CRLF line ends matches an `--old` typed with bare `\n`s
//! as if typed with `\r\n`, and its `--new` gets them too, so an agent
//! need not know how the file ends its lines.

use anyhow::{bail, Result};

use super::change::{self, FileChange, FileStamp};
use super::settings::{Count, Pair};
use super::Planned;
use crate::lang::Lang;
use crate::shell;

/// Applies every pair to every file; an error when a count does not hold.
pub fn plan(pairs: &[Pair], count: Count, files: &[std::ffi::OsString]) -> Result<Planned> {
    let mut planned = Planned::default();
    let mut problems = Vec::new();
    for file in files {
        let path = std::path::Path::new(file);
        let shown = shell::quote(file.as_encoded_bytes());
        let meta = std::fs::metadata(path).map_err(|e| anyhow::anyhow!("{shown}: {e}"))?;
        if !meta.is_file() {
            bail!("{shown} is not a file; --old/--new edits the FILEs named");
        }
        let stamp = FileStamp::of(path).ok_or_else(|| anyhow::anyhow!("{shown}: cannot stat"))?;
        let before = std::fs::read(path).map_err(|e| anyhow::anyhow!("{shown}: {e}"))?;
        if memchr::memchr(0, &before).is_some() {
            bail!("{shown} is a binary file (it holds a NUL byte); scout edits text");
        }
        let crlf = memchr::memmem::find(&before, b"\r\n").is_some();
        let mut after = before.clone();
        let mut matches = 0;
        let mut match_lines = Vec::new();
        for pair in pairs {
            let (old, new) = spelled_for(pair, &after, crlf);
            let at: Vec<usize> = memchr::memmem::find_iter(&after, &old).collect();
            let mut kept = Vec::new();
            let mut end = 0;
            for start in at {
                if start >= end {
                    kept.push(start);
                    end = start + old.len();
                }
            }
            let lines: Vec<u64> = kept.iter().map(|&at| line_of(&after, at)).collect();
            let fits = match count {
                Count::Exactly(n) => kept.len() == n,
                Count::Any => true,
            };
            if !fits {
                problems.push((count_problem(&shown, pair, count, &lines), lines.is_empty()));
                continue;
            }
            matches += kept.len() as u64;
            match_lines.extend(&lines);
            after = replace_at(&after, &kept, old.len(), &new);
        }
        if matches == 0 {
            continue;
        }
        match_lines.sort_unstable();
        match_lines.dedup();
        let lang = Lang::from_path(file.as_encoded_bytes());
        planned.files.push(FileChange {
            path: file.as_encoded_bytes().to_vec(),
            real: std::fs::canonicalize(path)?,
            lang,
            hunks: change::hunks(&before, &after),
            defs: lang.map_or_else(Vec::new, |l| crate::defs::extract(l, &before)),
            before,
            after,
            stamp,
            matches,
            rewritten: matches,
            left_alone: 0,
            match_lines,
        });
    }
    // Nothing occurring anywhere is no match (exit 1), not a refusal.
    let none_occur = planned.files.is_empty() && problems.iter().all(|(_, zero)| *zero);
    if !problems.is_empty() && !none_occur {
        let problems: Vec<String> = problems.into_iter().map(|(p, _)| p).collect();
        bail!("{}\nnothing written", problems.join("\n"));
    }
    if planned.files.is_empty() {
        let olds: Vec<String> = pairs.iter().map(|p| shell::quote(&p.old)).collect();
        planned.notes.push(format!(
            "no --old text occurs in the files: {}",
            olds.join(", ")
        ));
    }
    Ok(planned)
}

/// The pair as the file spells line ends: with `\r\n` where the file
/// uses them and the text has bare `\n`s that do not occur as typed.
fn spelled_for(pair: &Pair, haystack: &[u8], crlf: bool) -> (Vec<u8>, Vec<u8>) {
    let bare_newlines =
        |text: &[u8]| text.contains(&b'\n') && memchr::memmem::find(text, b"\r\n").is_none();
    let widen = |text: &[u8]| -> Vec<u8> {
        let mut out = Vec::with_capacity(text.len() + 8);
        for &b in text {
            if b == b'\n' {
                out.push(b'\r');
            }
            out.push(b);
        }
        out
    };
    // An `--old` on one line says nothing of line ends: the new lines
    // take the file's own.
    if crlf && !pair.old.contains(&b'\n') && bare_newlines(&pair.new) {
        return (pair.old.clone(), widen(&pair.new));
    }
    if crlf && bare_newlines(&pair.old) && memchr::memmem::find(haystack, &pair.old).is_none() {
        let old = widen(&pair.old);
        if memchr::memmem::find(haystack, &old).is_some() {
            let new = if bare_newlines(&pair.new) {
                widen(&pair.new)
            } else {
                pair.new.clone()
            };
            return (old, new);
        }
    }
    (pair.old.clone(), pair.new.clone())
}

/// The 1-based line holding byte `at`.
fn line_of(bytes: &[u8], at: usize) -> u64 {
    memchr::memchr_iter(b'\n', &bytes[..at]).count() as u64 + 1
}

/// `bytes` with the `len` bytes at each of `starts` (in order, none
/// overlapping) replaced by `new`.
fn replace_at(bytes: &[u8], starts: &[usize], len: usize, new: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    for &start in starts {
        out.extend_from_slice(&bytes[at..start]);
        out.extend_from_slice(new);
        at = start + len;
    }
    out.extend_from_slice(&bytes[at..]);
    out
}

/// `FILE: --old 'TEXT' occurs 2 times (lines 3, 9), not once; ...`.
fn count_problem(shown: &str, pair: &Pair, count: Count, lines: &[u64]) -> String {
    let wanted = match count {
        Count::Exactly(1) => "once".to_string(),
        Count::Exactly(n) => format!("{n} times"),
        Count::Any => unreachable!("--all takes any count"),
    };
    let old = shell::quote(&pair.old);
    if lines.is_empty() {
        return format!("{shown}: --old {old} does not occur in the file (wanted {wanted})");
    }
    let numbers: Vec<String> = lines.iter().map(u64::to_string).collect();
    let times = if lines.len() == 1 {
        "once".to_string()
    } else {
        format!("{} times", lines.len())
    };
    format!(
        "{shown}: --old {old} occurs {times} (line {}), not {wanted}; give a longer --old that occurs once, --count {}, or --all",
        numbers.join(", "),
        lines.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crlf_files_match_text_typed_with_bare_newlines() {
        let pair = Pair {
            old: b"a\nb".to_vec(),
            new: b"x\ny".to_vec(),
        };
        let (old, new) = spelled_for(&pair, b"a\r\nb\r\n", true);
        assert_eq!(
            (old.as_slice(), new.as_slice()),
            (&b"a\r\nb"[..], &b"x\r\ny"[..])
        );
        let (old, _) = spelled_for(&pair, b"a\nb\r\n", true);
        assert_eq!(old, b"a\nb");
    }

    /// A one-line `--old` with a multi-line `--new` had written bare `\n`s
    /// into a CRLF file.
    #[test]
    fn a_multi_line_new_takes_the_crlf_of_the_file_whatever_the_old() {
        let pair = Pair {
            old: b"b".to_vec(),
            new: b"x\ny".to_vec(),
        };
        let (old, new) = spelled_for(&pair, b"a\r\nb\r\n", true);
        assert_eq!(
            (old.as_slice(), new.as_slice()),
            (&b"b"[..], &b"x\r\ny"[..])
        );
        let (_, new) = spelled_for(&pair, b"a\nb\n", false);
        assert_eq!(new, b"x\ny");
    }

    #[test]
    fn replacements_land_where_found() {
        assert_eq!(replace_at(b"aXbXc", &[1, 3], 1, b"--"), b"a--b--c");
        assert_eq!(line_of(b"a\nb\nc", 4), 3);
    }

    #[test]
    fn a_count_problem_names_the_lines() {
        let pair = Pair {
            old: b"x".to_vec(),
            new: b"y".to_vec(),
        };
        let message = count_problem("a.py", &pair, Count::Exactly(1), &[3, 9]);
        assert!(
            message.contains("occurs 2 times (line 3, 9), not once"),
            "{message}"
        );
        let message = count_problem("a.py", &pair, Count::Exactly(2), &[]);
        assert!(message.contains("does not occur"), "{message}");
    }
}
