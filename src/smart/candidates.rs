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
use crate::rg::{run_paced, Flow, Rg, SearchFlags};
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
    let spellings = Spellings::new(&patterns);
    // Each file's path once, ended by a NUL, then each of its matches on
    // a line of its own (`PATH\0MATCH`, `MATCH`, ...; a blank line between
    // files): no line numbers, which the counts do not use, and no path
    // per match. On a 1 GB tree a wide pass prints 711,000 matches: 45 MB
    // with the path on every line, 5.8 MB so.
    let mut command = flags.records();
    command.args.retain(|arg| arg != "-n");
    for arg in &mut command.args {
        if arg == "--no-heading" {
            *arg = OsString::from("--heading");
        }
    }
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
    // The file whose matches follow.
    let mut current: Option<usize> = None;
    let outcome = run_paced(rg, &command, |line| {
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let text = match line.iter().position(|&b| b == 0) {
            Some(nul) => {
                let path = &line[..nul];
                current = Some(*index.entry(path.to_vec()).or_insert_with(|| {
                    files.push(Candidate {
                        path: path.to_vec(),
                        counts: vec![0.0; concepts.len()],
                    });
                    files.len() - 1
                }));
                &line[nul + 1..]
            }
            None => line,
        };
        match (spellings.get(text), current) {
            (Some(owners), Some(at)) => {
                for &(c, w) in owners {
                    files[at].counts[c] += w;
                }
            }
            // A blank line between files, or the statistics at the end.
            _ => {
                if let Some(n) = stat_line(text, b" files searched") {
                    searched = Some(n);
                }
            }
        }
        Flow::Continue
    })?;
    if let Some(reason) = outcome.rejection(&[]) {
        // A glob or type rg cannot use: bad input, not a partial answer.
        bail!("rg refused the search:\n{reason}");
    }
    if let Some(why) = outcome.nothing_searched() {
        bail!("{why}");
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

/// The concepts a pattern stands for, each with its form's weight.
type Owners = [(usize, f32)];

/// The concepts and weights of each spelling the pass's regex matches
/// ([`pass_regex`]: a pattern in lower case, capitalised and in
/// capitals), found by its bytes as rg prints them: no UTF-8 check, no
/// lower-casing and no hash for each of the hundreds of thousands of
/// matches a wide pass prints. Each spelling stands for the pattern it
/// spells (the first, longest, where two spell it alike: the regex's
/// first alternative), so `STRASSE` for `straße`, which lower-casing the
/// match did not find.
struct Spellings<'p> {
    /// By length in bytes: each spelling and its owners.
    by_len: Vec<Vec<(Vec<u8>, &'p Owners)>>,
}

impl<'p> Spellings<'p> {
    fn new(patterns: &'p [(String, Vec<(usize, f32)>)]) -> Spellings<'p> {
        let mut by_len: Vec<Vec<(Vec<u8>, &'p Owners)>> = Vec::new();
        for (pattern, owners) in patterns {
            let mut chars = pattern.chars();
            let Some(first) = chars.next() else {
                continue;
            };
            let capitalised: String = first.to_uppercase().chain(chars).collect();
            for spelling in [pattern.clone(), capitalised, pattern.to_uppercase()] {
                let bytes = spelling.into_bytes();
                if by_len.len() <= bytes.len() {
                    by_len.resize_with(bytes.len() + 1, Vec::new);
                }
                let same = &mut by_len[bytes.len()];
                if !same.iter().any(|(s, _)| *s == bytes) {
                    same.push((bytes, owners.as_slice()));
                }
            }
        }
        Spellings { by_len }
    }

    fn get(&self, text: &[u8]) -> Option<&'p Owners> {
        self.by_len
            .get(text.len())?
            .iter()
            .find(|(s, _)| s == text)
            .map(|(_, owners)| *owners)
    }
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
    fn every_spelling_the_regex_matches_finds_its_concepts_by_its_bytes() {
        let c = concepts("expire élan straße keys");
        let p = patterns(&c);
        let spellings = Spellings::new(&p);
        let regex = pass_regex(p.iter().map(|(p, _)| p.as_str()));
        let re = regex::Regex::new(&format!("^(?:{regex})$")).unwrap();
        for (pattern, owners) in &p {
            let mut chars = pattern.chars();
            let first = chars.next().unwrap();
            let capitalised: String = first.to_uppercase().chain(chars).collect();
            for spelling in [pattern.clone(), capitalised, pattern.to_uppercase()] {
                assert!(re.is_match(&spelling), "{spelling}");
                assert_eq!(
                    spellings.get(spelling.as_bytes()),
                    Some(owners.as_slice()),
                    "{spelling}"
                );
            }
        }
        // What the regex does not match, or no line of a match at all.
        for text in ["eXpir", "", "12 files searched", "expire"] {
            assert!(
                !re.is_match(text) || spellings.get(text.as_bytes()).is_some(),
                "{text}"
            );
            assert_eq!(spellings.get(text.as_bytes()), None, "{text}");
        }
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
