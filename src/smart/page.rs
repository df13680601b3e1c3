//! The answer as a page: a header with the candidate set's size, the hits
//! (path, line, enclosing definition, why), what was left out, and the
//! `repro:` line of the candidate set. This module builds the page and
//! cuts it to the budget; [`crate::render::smart`] writes it, as text or as
//! one JSON document.
//!
//! What it shares with `scout search`'s pipeline (docs/design.md, "Layout"):
//! the budget is spent by the same stage, [`page::layout`], each
//! hit a block of its rendered length after the frame's reserve; the
//! token estimate is [`page::tokens`]; a hit's enclosing
//! definition is the parser's [`Def`], titled and serialised as search
//! titles and serialises it ([`Def::title`], [`json::Symbol`]). What it
//! does not share, and why: search's fold and rank score lines of files
//! with integer signals from rg's matches, where smart scores definitions
//! with BM25F over fields ([`crate::smart::score`]); and search's
//! grouping ([`crate::page::group`]) puts quoted lines under their
//! enclosing definition, where each smart hit already is one definition,
//! so there is nothing to group.
//!
//! [`page::layout`]: crate::page::layout
//! [`page::tokens`]: crate::page::tokens
//! [`json::Symbol`]: crate::page::symbol::Symbol

use std::time::Instant;

use crate::page::smart::{Also, CandidateView, ConceptView, Hit, MeaningView, Page, SignalView};
use crate::page::{layout, tokens};
use crate::render::smart as render;
use crate::smart::concepts::{form_match, Concept};
use crate::smart::score::Scored;
use crate::smart::units::{FieldKind, Unit};
use crate::smart::words::stem;
use crate::smart::{Answer, Meaning, Parsed};

/// Words of the body named in a why, at most (the strongest).
const BODY_WORDS: usize = 4;

impl MeaningView {
    fn of(meaning: &Meaning) -> MeaningView {
        match meaning {
            Meaning::Off(reason) => MeaningView {
                state: "off",
                reason: Some(reason.clone()),
                files: Some(0),
                candidate_files: None,
                covered: 0,
                partly: 0,
                units: 0,
                embedded: 0,
            },
            Meaning::On(dense) => MeaningView {
                state: "on",
                reason: None,
                files: dense.tree.then_some(dense.files),
                candidate_files: (!dense.tree).then_some(dense.files),
                covered: dense.covered,
                partly: dense.partly,
                units: dense.units,
                embedded: dense.embedded.units,
            },
        }
    }
}

/// The why of a hit: each field that scored, strongest first, with the
/// question's words it matched (`"free"~"release"` when only a related
/// form matched), then the words its file holds (the file's share of the
/// score), how many of the question's words it covers when not all (the
/// coverage factor), then the prior that ranked it down, e.g. `name performEvictions
/// ← "evicting"; path src/evict ← "evicting"; body ← "keys" ×4; file ←
/// "evicting", "keys"`.
pub fn why(scored: &Scored, unit: &Unit, concepts: &[Concept], file: &Parsed) -> String {
    let path = &file.path[..];
    let mut parts = Vec::new();
    for signal in &scored.signals {
        let tf = |c: usize| unit.fields[signal.field as usize].tf[c];
        let mut matched: Vec<&(usize, Vec<std::rc::Rc<str>>)> = signal.words.iter().collect();
        let mut more = 0;
        if signal.field == FieldKind::Body && matched.len() > BODY_WORDS {
            matched.sort_by(|a, b| tf(b.0).total_cmp(&tf(a.0)).then(a.0.cmp(&b.0)));
            more = matched.len() - BODY_WORDS;
            matched.truncate(BODY_WORDS);
        }
        let mut words: Vec<String> = matched
            .into_iter()
            .map(|(c, seen)| {
                let concept = &concepts[*c];
                let direct = seen
                    .iter()
                    .any(|w| form_match(w, &stem(w), &concept.forms[0]) > 0.0);
                let shown = if direct || seen.is_empty() {
                    format!("{:?}", concept.word)
                } else if seen[0].starts_with(['\'', '"', '`']) {
                    // A character literal is quoted already: `"dot"~'.'`.
                    format!("{:?}~{}", concept.word, seen[0])
                } else {
                    format!("{:?}~{:?}", concept.word, seen[0])
                };
                let n = unit.fields[signal.field as usize].tf[*c].round() as u32;
                if signal.field == FieldKind::Body && n >= 2 {
                    format!("{shown} ×{n}")
                } else {
                    shown
                }
            })
            .collect();
        if more > 0 {
            words.push(format!("+{more} more"));
        }
        let words = words.join(", ");
        parts.push(match signal.field {
            FieldKind::Name => format!(
                "name {} ← {words}",
                unit.def.as_ref().map_or_else(
                    || path.rsplit('/').next().unwrap_or(path).to_string(),
                    |d| d.short.clone()
                )
            ),
            FieldKind::Doc => match &unit.doc_line {
                Some(line) => format!("doc {line:?} ← {words}"),
                None => format!("doc ← {words}"),
            },
            FieldKind::Path => format!("path {path} ← {words}"),
            FieldKind::Body => format!("body ← {words}"),
        });
    }
    if scored.file_points > 0.0 {
        let words: Vec<String> = file
            .counts
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0.0)
            .map(|(c, _)| format!("{:?}", concepts[c].word))
            .collect();
        parts.push(format!("file ← {}", words.join(", ")));
    }
    // A unit only the meaning search found had no coverage factor.
    if scored.covered < concepts.len() && !scored.signals.is_empty() {
        parts.push(format!(
            "covers {} of {} words",
            scored.covered,
            concepts.len()
        ));
    }
    if let Some(similarity) = scored.meaning {
        parts.push(format!("close in meaning to the question: {similarity:.2}"));
    }
    if let Some(prior) = scored.prior {
        parts.push(format!("ranked down ×{}: {}", prior.factor, prior.reason));
    }
    parts.join("; ")
}

impl Page {
    /// The page of `answer`, its hits cut to fit `budget` bytes; `kind`
    /// is `Some("question")` when `scout search` asked.
    pub fn new(
        question: &str,
        kind: Option<&'static str>,
        answer: &Answer,
        budget: Option<usize>,
        started: Instant,
    ) -> Page {
        let concepts = answer
            .concepts
            .iter()
            .map(|c| ConceptView {
                word: c.word.clone(),
                stem: c.forms[0].stem.clone(),
                related: c.forms[1..].iter().map(|f| f.word.clone()).collect(),
            })
            .collect();
        let repro = answer
            .candidates
            .flags
            .repro()
            .replacen("rg -n --no-heading", "rg -c", 1);
        let hits: Vec<Hit> = answer
            .hits
            .iter()
            .enumerate()
            .map(|(rank, s)| {
                let unit = &answer.units[s.unit];
                let path = &answer.parsed[unit.file].path;
                Hit {
                    rank: rank + 1,
                    path: path.clone(),
                    raw_path: answer.parsed[unit.file].raw.clone(),
                    line: unit.line,
                    def: unit.def.clone(),
                    score: (s.score * 1000.0).round() as u64,
                    why: why(s, unit, &answer.concepts, &answer.parsed[unit.file]),
                    signals: s
                        .signals
                        .iter()
                        .map(|g| SignalView {
                            field: g.field.label(),
                            points: g.points.round() as u64,
                            words: g
                                .words
                                .iter()
                                .map(|(c, _)| answer.concepts[*c].word.clone())
                                .collect(),
                            matched: g
                                .words
                                .iter()
                                .flat_map(|(_, seen)| seen.iter().map(|w| w.to_string()))
                                .collect(),
                        })
                        .collect(),
                    meaning: s.meaning,
                    also: answer.also[rank]
                        .iter()
                        .map(|a| {
                            let unit = &answer.units[a.unit];
                            Also {
                                line: unit.line,
                                def: unit.def.clone(),
                                score: (a.score * 1000.0).round() as u64,
                            }
                        })
                        .collect(),
                }
            })
            .collect();
        let mut page = Page {
            kind,
            question: question.to_string(),
            files: Vec::new(),
            concepts,
            unused: answer.unused.clone(),
            candidates: CandidateView {
                searched: answer.candidates.searched,
                files: answer.candidates.files.len(),
                read: answer.parsed.len(),
                units: answer.scored,
                matched: answer.matched,
            },
            hits,
            left_out: 0,
            tokens: 0,
            elapsed_ms: 0,
            repro,
            meaning: MeaningView::of(&answer.meaning),
        };
        if let Some(budget) = budget {
            page.cut(budget);
        }
        for hit in &page.hits {
            if !page.files.contains(&hit.path) {
                page.files.push(hit.path.clone());
            }
        }
        page.tokens = tokens(render::text(&page).len());
        page.elapsed_ms = started.elapsed().as_millis() as u64;
        page
    }

    /// Cuts the hits to what fits in `budget` bytes with
    /// [`page`](crate::page)'s layout: the header and
    /// footer reserved first (their numbers at their widest, so that the
    /// cut never depends on the time taken), then each hit's block in rank
    /// order; the first page is shown, the rest counted in `left_out`. A
    /// first hit larger than the budget is still shown.
    fn cut(&mut self, budget: usize) {
        let blocks: Vec<usize> = self.hits.iter().map(|h| render::hit(h).len()).collect();
        let reserve = render::frame_len(self);
        let pages = layout(
            blocks.len(),
            Some(budget.saturating_sub(reserve)),
            |_| 1,
            |i, _| blocks[i],
        );
        let shown = pages[0].slots.len();
        self.left_out = self.hits.len() - shown;
        self.hits.truncate(shown);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::defs::{Def, DefKind};
    use crate::smart::concepts::concepts;
    use crate::smart::score::{score, Prior};
    use crate::smart::units::{units, WordMatcher};

    fn parsed(path: &str, concepts: usize) -> Parsed {
        Parsed {
            path: path.into(),
            raw: path.as_bytes().to_vec(),
            prior: None,
            file_score: 0.0,
            counts: vec![1.0; concepts],
        }
    }

    #[test]
    fn why_names_only_the_fields_that_scored() {
        let c = concepts("evict keys release");
        let mut m = WordMatcher::new(&c);
        let src = "int performEvictions(void) {\n  free(key); free(key);\n}\n";
        let defs = vec![Def {
            kind: DefKind::Function,
            name: "performEvictions".into(),
            short: "performEvictions".into(),
            start_line: 1,
            end_line: 3,
            name_line: 1,
        }];
        let u = units(0, "src/server.c", src, &defs, &mut m);
        let s = score(
            0,
            &u[0],
            &c,
            &[2.0, 2.0, 2.0],
            &[2.0, 10.0, 3.0, 20.0],
            None,
        )
        .unwrap();
        let w = why(&s, &u[0], &c, &parsed("src/server.c", 0));
        assert!(w.starts_with("name performEvictions ← \"evict\""), "{w}");
        assert!(
            w.contains("body ← \"evict\", \"keys\" ×2, \"release\"~\"free\" ×1")
                || w.contains("\"release\"~\"free\""),
            "{w}"
        );
        assert!(!w.contains("doc"), "no doc comment, no doc in the why: {w}");
        assert!(!w.contains("path"), "the path matched nothing: {w}");
        assert!(!w.contains("file ←"), "the file's share did not score: {w}");
        assert!(
            !w.contains("covers"),
            "all words covered, no coverage factor: {w}"
        );
    }

    #[test]
    fn why_names_the_coverage_when_words_are_missing() {
        let c = concepts("evict zebra");
        let mut m = WordMatcher::new(&c);
        let u = units(0, "a.c", "evict it\n", &[], &mut m);
        let s = score(0, &u[0], &c, &[2.0, 2.0], &[2.0, 10.0, 3.0, 20.0], None).unwrap();
        let w = why(&s, &u[0], &c, &parsed("a.c", 2));
        assert!(w.ends_with("covers 1 of 2 words"), "{w}");
    }

    #[test]
    fn why_names_the_prior_that_scored() {
        let c = concepts("evict");
        let mut m = WordMatcher::new(&c);
        let u = units(0, "tests/evict.tcl", "evict it\n", &[], &mut m);
        let prior = Some(Prior {
            factor: 0.35,
            reason: "test",
        });
        let s = score(0, &u[0], &c, &[2.0], &[2.0, 10.0, 3.0, 20.0], prior).unwrap();
        let w = why(&s, &u[0], &c, &parsed("tests/evict.tcl", 1));
        assert!(w.ends_with("ranked down ×0.35: test"), "{w}");
        let mut s = s;
        s.file_points = 10.0;
        let w = why(&s, &u[0], &c, &parsed("tests/evict.tcl", 1));
        assert!(w.contains("; file ← \"evict\"; ranked down"), "{w}");
        assert!(w.contains("name evict.tcl ← \"evict\""), "{w}");
    }
}
