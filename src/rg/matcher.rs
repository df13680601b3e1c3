//! The match spans of a line, found again by scout.
//!
//! Plain output (see [`records`](super::records)) says which lines match
//! but not where. rg's default engine is the `regex` crate, so the same
//! pattern compiled here with rg's options finds the spans rg's `--json`
//! would report. Counts never come from here: a line is a hit because rg
//! printed it. The spans only place the 200-byte window of a long line and
//! feed the line's signals (whole word, exact case, query words covered).
//! A pattern the crate cannot compile exactly as rg would gets no matcher,
//! and the search reads `--json` instead.

use memchr::memmem::Finder;
use regex::bytes::{Regex, RegexBuilder};

use super::SearchFlags;
use crate::bytes::find_short;

/// rg's own default for the compiled size of a regex (`--regex-size-limit`).
const SIZE_LIMIT: usize = 100 << 20;

/// Finds the spans rg reports for a search's patterns.
#[derive(Debug, Clone)]
pub struct Matcher {
    engine: Engine,
}

#[derive(Debug, Clone)]
enum Engine {
    /// One fixed string, case-sensitive, not `-w`: its occurrences, left
    /// to right and not overlapping, are exactly the regex's matches, and
    /// a substring search finds them for a fraction of a regex search's
    /// cost per line (and nothing to compile).
    Literal(Box<Finder<'static>>),
    Regex {
        regex: Regex,
        /// `-w`: the span is capture group 1 (the pattern without the
        /// surrounding non-word bytes).
        word: bool,
    },
}

impl Matcher {
    /// The matcher for `flags`, or `None` when the patterns do not compile
    /// here (rg will say why, or accept a syntax of its own).
    pub fn new(flags: &SearchFlags) -> Option<Matcher> {
        if flags.patterns.is_empty() {
            return None;
        }
        if let [literal] = &flags.patterns[..] {
            if flags.fixed_strings && !flags.ignore_case && !flags.word && !literal.is_empty() {
                return Some(Matcher {
                    engine: Engine::Literal(Box::new(Finder::new(literal.as_bytes()).into_owned())),
                });
            }
        }
        let alternatives: Vec<String> = flags
            .patterns
            .iter()
            .map(|p| {
                if flags.fixed_strings {
                    regex::escape(p)
                } else {
                    format!("(?:{p})")
                }
            })
            .collect();
        let pattern = alternatives.join("|");
        // rg 13's `-w`: the match must be preceded and followed by a
        // non-word character or the edge of the line.
        let pattern = if flags.word {
            format!(r"(?:^|\W)({pattern})(?:\W|$)")
        } else {
            pattern
        };
        let regex = RegexBuilder::new(&pattern)
            .case_insensitive(flags.ignore_case)
            .size_limit(SIZE_LIMIT)
            .build()
            .ok()?;
        Some(Matcher {
            engine: Engine::Regex {
                regex,
                word: flags.word,
            },
        })
    }

    /// Appends the spans of the matches in `line` (without its terminator)
    /// to `spans`.
    pub fn spans(&self, line: &[u8], spans: &mut Vec<(usize, usize)>) {
        match &self.engine {
            Engine::Literal(finder) if line.len() < SHORT_LINE => {
                let needle = finder.needle();
                let mut from = 0;
                while let Some(at) = find_short(&line[from..], needle) {
                    let start = from + at;
                    spans.push((start, start + needle.len()));
                    from = start + needle.len();
                }
            }
            Engine::Literal(finder) => {
                let len = finder.needle().len();
                spans.extend(finder.find_iter(line).map(|at| (at, at + len)));
            }
            Engine::Regex { regex, word: true } => {
                // Resume at the end of the word, not of the whole match, so
                // that one non-word byte can end a match and start the next.
                let mut at = 0;
                while at <= line.len() {
                    let Some(m) = regex.captures_at(line, at).and_then(|c| c.get(1)) else {
                        break;
                    };
                    spans.push((m.start(), m.end()));
                    at = if m.is_empty() { m.end() + 1 } else { m.end() };
                }
            }
            Engine::Regex { regex, word: false } => {
                spans.extend(regex.find_iter(line).map(|m| (m.start(), m.end())));
            }
        }
    }
}

/// Lines shorter than this (most source lines) are searched for a fixed
/// string from each occurrence of its first byte: on so short a
/// haystack, memmem's searcher costs more to set going (a rolling hash
/// over every byte) than the comparisons do.
const SHORT_LINE: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(patterns: &[&str]) -> SearchFlags {
        SearchFlags {
            patterns: patterns.iter().map(|p| p.to_string()).collect(),
            ..SearchFlags::default()
        }
    }

    fn spans(m: &Matcher, line: &str) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        m.spans(line.as_bytes(), &mut out);
        out
    }

    #[test]
    fn literal_patterns_are_escaped_and_every_match_is_found() {
        let m = Matcher::new(&SearchFlags {
            fixed_strings: true,
            ..flags(&["a.b("])
        })
        .unwrap();
        assert_eq!(spans(&m, "a.b( axb( a.b("), [(0, 4), (10, 14)]);
    }

    #[test]
    fn options_follow_rg() {
        let m = Matcher::new(&SearchFlags {
            ignore_case: true,
            word: true,
            ..flags(&["widget", "gear"])
        })
        .unwrap();
        assert_eq!(spans(&m, "Widgets WIDGET(gear)"), [(8, 14), (15, 19)]);
        let regex = Matcher::new(&flags(&[r"get\w+Name"])).unwrap();
        assert_eq!(spans(&regex, "x.getFullName()"), [(2, 13)]);
    }

    #[test]
    fn a_fixed_string_is_found_where_the_regex_finds_it() {
        let regex_of = |literal: &str| Matcher {
            engine: Engine::Regex {
                regex: Regex::new(&regex::escape(literal)).unwrap(),
                word: false,
            },
        };
        for (literal, line) in [
            ("aa", "aaaaa"),
            ("aba", "abababa"),
            ("x", ""),
            ("é", "café é"),
            ("a.b(", "a.b( axb( a.b("),
            ("needle", "no match here"),
            // Past SHORT_LINE, the same answers from memmem's searcher.
            ("aa", &"aaaaa".repeat(20)),
            ("aba", &"abababa ".repeat(12)),
            (
                "Searcher",
                &"use grep::searcher::{Searcher, SearcherBuilder};".repeat(3),
            ),
            ("é", &"café é ".repeat(12)),
        ] {
            let fixed = Matcher::new(&SearchFlags {
                fixed_strings: true,
                ..flags(&[literal])
            })
            .unwrap();
            assert!(matches!(fixed.engine, Engine::Literal(_)));
            assert_eq!(
                spans(&fixed, line),
                spans(&regex_of(literal), line),
                "{literal:?} in {line:?}"
            );
        }
    }

    #[test]
    fn a_pattern_the_crate_rejects_has_no_matcher() {
        assert!(Matcher::new(&flags(&["(unclosed"])).is_none());
        assert!(Matcher::new(&flags(&[])).is_none());
    }
}
