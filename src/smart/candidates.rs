//! The candidate set: one rg pass over every form of every concept
//! (case-insensitive, fixed strings, so inside identifiers too), folded as
//! it streams into per-file, per-concept counts. Memory grows with the
//! candidate files, not with the matches.

use std::collections::HashMap;
use std::ffi::OsString;
use std::io::Write;

use anyhow::{bail, Result};

use crate::exit::ExitStatus;
use crate::rg::{run_plain, Flow, Rg, SearchFlags};
use crate::smart::concepts::{Concept, MIN_PATTERN};

/// A file rg found at least one form in.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// As rg printed it (relative to the searched paths).
    pub path: Vec<u8>,
    /// Per concept: the matches of its forms, each weighted by its form.
    pub counts: Vec<f32>,
}

/// What the pass left.
#[derive(Debug)]
pub struct Candidates {
    /// In path order.
    pub files: Vec<Candidate>,
    /// Files rg searched (its `--stats`), for the IDF.
    pub searched: u64,
    /// Per concept: candidate files holding one of its forms.
    pub df: Vec<u32>,
    /// The flags of the pass (for the `repro:` line).
    pub flags: SearchFlags,
    /// `Partial` when rg could not read everything.
    pub partial: Option<ExitStatus>,
}

/// The patterns of the pass, longest first (so that rg reports the longest
/// form where several start at the same place), each with the concepts
/// and weights it stands for.
pub fn patterns(concepts: &[Concept]) -> Vec<(String, Vec<(usize, f32)>)> {
    let mut by_pattern: Vec<(String, Vec<(usize, f32)>)> = Vec::new();
    for (c, concept) in concepts.iter().enumerate() {
        for form in &concept.forms {
            if form.pattern.chars().count() < MIN_PATTERN {
                continue;
            }
            match by_pattern.iter_mut().find(|(p, _)| *p == form.pattern) {
                Some((_, owners)) => match owners.iter_mut().find(|(o, _)| *o == c) {
                    Some((_, w)) => *w = w.max(form.weight),
                    None => owners.push((c, form.weight)),
                },
                None => by_pattern.push((form.pattern.clone(), vec![(c, form.weight)])),
            }
        }
    }
    by_pattern.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.0.cmp(&b.0)));
    by_pattern
}

/// Runs the pass. `base` carries the paths, globs, types and `--hidden`.
pub fn collect(
    rg: &Rg,
    base: &SearchFlags,
    concepts: &[Concept],
    err: &mut dyn Write,
) -> Result<Candidates> {
    let patterns = patterns(concepts);
    if patterns.is_empty() {
        bail!(
            "the question has no word of {MIN_PATTERN} or more letters to look for once stop words are dropped; describe what the code does"
        );
    }
    let flags = SearchFlags {
        patterns: patterns.iter().map(|(p, _)| p.clone()).collect(),
        fixed_strings: true,
        ignore_case: true,
        word: false,
        ..base.clone()
    };
    let lookup: HashMap<&str, &[(usize, f32)]> = patterns
        .iter()
        .map(|(p, owners)| (p.as_str(), owners.as_slice()))
        .collect();
    let mut command = flags.records();
    command
        .args
        .splice(0..0, [OsString::from("-o"), OsString::from("--stats")]);
    let mut index: HashMap<Vec<u8>, usize> = HashMap::new();
    let mut files: Vec<Candidate> = Vec::new();
    let mut searched = None;
    let mut lower = String::new();
    let outcome = run_plain(rg, &command, |line| {
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let Some(nul) = line.iter().position(|&b| b == 0) else {
            if let Some(n) = stat_line(line, b" files searched") {
                searched = Some(n);
            }
            return Flow::Continue;
        };
        let (path, rest) = (&line[..nul], &line[nul + 1..]);
        let text = match rest.iter().position(|&b| b == b':') {
            Some(colon) => &rest[colon + 1..],
            None => rest,
        };
        lower.clear();
        lower.push_str(&String::from_utf8_lossy(text).to_lowercase());
        let Some(owners) = lookup.get(lower.as_str()) else {
            return Flow::Continue;
        };
        let at = *index.entry(path.to_vec()).or_insert_with(|| {
            files.push(Candidate {
                path: path.to_vec(),
                counts: vec![0.0; concepts.len()],
            });
            files.len() - 1
        });
        for &(c, w) in *owners {
            files[at].counts[c] += w;
        }
        Flow::Continue
    })?;
    if let Some(reason) = outcome.rejection(&[]) {
        // A glob or type rg cannot use: bad input, not a partial answer (#34).
        bail!("rg refused the search:\n{reason}");
    }
    let partial = match outcome.code {
        Some(0 | 1) => None,
        Some(2) => {
            for line in outcome.stderr_lines() {
                writeln!(err, "scout: {line}")?;
            }
            Some(ExitStatus::Partial)
        }
        other => {
            let said = outcome.stderr_lines().join("; ");
            bail!("rg failed (exit {other:?}): {said}");
        }
    };
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let mut df = vec![0u32; concepts.len()];
    for file in &files {
        for (c, &n) in file.counts.iter().enumerate() {
            if n > 0.0 {
                df[c] += 1;
            }
        }
    }
    Ok(Candidates {
        searched: searched
            .unwrap_or(files.len() as u64)
            .max(files.len() as u64),
        files,
        df,
        flags,
        partial,
    })
}

/// The number of an rg `--stats` line ending in `suffix`.
fn stat_line(line: &[u8], suffix: &[u8]) -> Option<u64> {
    let number = line.strip_suffix(suffix)?;
    std::str::from_utf8(number).ok()?.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smart::concepts::concepts;

    #[test]
    fn patterns_longest_first_short_ones_left_to_the_words() {
        let c = concepts("delete directory db");
        let p = patterns(&c);
        let texts: Vec<&str> = p.iter().map(|(p, _)| p.as_str()).collect();
        assert!(
            texts.windows(2).all(|w| w[0].len() >= w[1].len()),
            "{texts:?}"
        );
        assert!(texts.contains(&"delet"));
        assert!(texts.contains(&"director"));
        assert!(!texts.contains(&"db"), "two letters match inside too much");
        let (_, owners) = p.iter().find(|(p, _)| p == "delet").unwrap();
        assert_eq!(owners, &vec![(0, 1.0)]);
    }

    #[test]
    fn reads_stats_lines() {
        assert_eq!(
            stat_line(b"1583 files searched", b" files searched"),
            Some(1583)
        );
        assert_eq!(
            stat_line(b"57 files contained matches", b" files searched"),
            None
        );
    }
}
