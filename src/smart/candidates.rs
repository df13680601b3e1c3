//! The candidate set: one rg pass over every form of every concept
//! (fixed strings in the three cases code writes words in, so inside
//! identifiers too: [`pass_regex`]), folded as
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
    /// The flags of a search that finds the same lines in the same files
    /// as the pass (for the `repro:` line): [`pass_regex`] of the
    /// patterns that hold no other.
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

/// What the pass looks for, as one regex: each pattern (longest first,
/// in lower case) as code spells a word, in lower case, capitalised and
/// in capitals (`expire`, `activeExpireCycle`, `EXPIRE_AT`), as
/// `[eE]xpir|EXPIR`. rg searches literals of one case fastest: on a
/// 1.3 GB tree, twelve patterns so spelled took under half the time of
/// the same twelve with `-i`, which matched 1 % more, nearly all of it
/// inside encoded data (`numerAs`, `moDEL`).
pub fn pass_regex<'p>(patterns: impl Iterator<Item = &'p str>) -> String {
    let mut alternatives: Vec<String> = Vec::new();
    for pattern in patterns {
        let mut chars = pattern.chars();
        let Some(first) = chars.next() else {
            continue;
        };
        let rest = regex::escape(chars.as_str());
        let upper_first: String = first.to_uppercase().collect();
        let (lower_1, upper_1) = (
            regex::escape(&first.to_string()),
            regex::escape(&upper_first),
        );
        let lower = if upper_first == first.to_string() {
            regex::escape(pattern)
        } else if upper_first.chars().count() > 1 {
            // `ß` capitalises as `SS`: no class of one letter holds both.
            format!("(?:{lower_1}|{upper_1}){rest}")
        } else {
            format!("[{lower_1}{upper_1}]{rest}")
        };
        alternatives.push(lower);
        let capitals = pattern.to_uppercase();
        let capitalised = format!("{upper_first}{}", chars.as_str());
        if capitals != pattern && capitals != capitalised {
            alternatives.push(regex::escape(&capitals));
        }
    }
    alternatives.join("|")
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
        patterns: vec![pass_regex(patterns.iter().map(|(p, _)| p.as_str()))],
        fixed_strings: false,
        ignore_case: false,
        word: false,
        ..base.clone()
    };
    // A pattern holding another matches only where that one does, in
    // each of its spellings: without it, the same lines match.
    let shortest = patterns.iter().map(|(p, _)| p.as_str()).filter(|p| {
        !patterns
            .iter()
            .any(|(q, _)| q.len() < p.len() && p.contains(q.as_str()))
    });
    let listing = SearchFlags {
        patterns: vec![pass_regex(shortest)],
        ..flags.clone()
    };
    let lookup: HashMap<&str, &[(usize, f32)]> = patterns
        .iter()
        .map(|(p, owners)| (p.as_str(), owners.as_slice()))
        .collect();
    // Each match as `PATH\0MATCH`: no line numbers, which the counts do
    // not use (a wide pass prints millions of these lines).
    let mut command = flags.records();
    command.args.retain(|arg| arg != "-n");
    command.args.splice(
        0..0,
        [
            OsString::from("-o"),
            OsString::from("-N"),
            OsString::from("--stats"),
        ],
    );
    let mut index: HashMap<Vec<u8>, usize> = HashMap::new();
    let mut files: Vec<Candidate> = Vec::new();
    let mut searched = None;
    let mut lower = String::new();
    // rg prints a file's matches together: the file of the line before
    // is looked up first, so a match costs no allocation and no hash.
    let mut current: Option<usize> = None;
    let outcome = run_plain(rg, &command, |line| {
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let Some(nul) = line.iter().position(|&b| b == 0) else {
            if let Some(n) = stat_line(line, b" files searched") {
                searched = Some(n);
            }
            return Flow::Continue;
        };
        let (path, text) = (&line[..nul], &line[nul + 1..]);
        lower.clear();
        match std::str::from_utf8(text) {
            Ok(ascii) if ascii.is_ascii() => {
                lower.push_str(ascii);
                lower.make_ascii_lowercase();
            }
            _ => lower.push_str(&String::from_utf8_lossy(text).to_lowercase()),
        }
        let Some(owners) = lookup.get(lower.as_str()) else {
            return Flow::Continue;
        };
        let at = match current {
            Some(at) if files[at].path == path => at,
            _ => {
                let at = *index.entry(path.to_vec()).or_insert_with(|| {
                    files.push(Candidate {
                        path: path.to_vec(),
                        counts: vec![0.0; concepts.len()],
                    });
                    files.len() - 1
                });
                current = Some(at);
                at
            }
        };
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
        flags: listing,
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
    fn each_pattern_in_three_spellings_in_one_regex() {
        let regex = pass_regex(["expir", "key"].into_iter());
        assert_eq!(regex, "[eE]xpir|EXPIR|[kK]ey|KEY");
        let re = regex::Regex::new(&format!("^(?:{regex})$")).unwrap();
        for word in ["expir", "Expir", "EXPIR", "key", "Key", "KEY"] {
            assert!(re.is_match(word), "{word}");
        }
        for word in ["eXpir", "kEY", "KEy"] {
            assert!(!re.is_match(word), "{word}");
        }
        // No case to change: the pattern once; a letter is escaped.
        assert_eq!(pass_regex(["123", "x"].into_iter()), "123|[xX]");
        assert_eq!(pass_regex(["élan"].into_iter()), "[éÉ]lan|ÉLAN");
        assert_eq!(pass_regex(["ßa"].into_iter()), "(?:ß|SS)a|SSA");
        assert_eq!(pass_regex(["a.b"].into_iter()), "[aA]\\.b|A\\.B");
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
