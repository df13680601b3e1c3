//! Structural matching with ast-grep's matcher (`ast-grep-core`) over
//! scout's own grammars: a pattern compiled once ([`pattern`]), then at
//! most one parse per file ([`StructuralPattern::search`]; none for a file
//! lacking a word the pattern spells out, [`anchors`]) giving every
//! match's line range and, from the same tree, the file's definitions.
//!
//! This module knows nothing of rg, pages or files on disk: the search
//! stage that lists the files and folds the matches into tallies is
//! `search::structural`.

pub mod anchors;
pub mod grammar;
pub mod pattern;
pub mod rewrite;

use ast_grep_core::tree_sitter::StrDoc;
use ast_grep_core::AstGrep;

pub use pattern::StructuralPattern;

use crate::defs::{self, Def};

/// One match in a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    /// 1-based line of the match's first byte.
    pub line: u64,
    /// 1-based line of its last byte (`line` for a one-line match).
    pub last_line: u64,
    /// The match's bytes on its first line: offsets within that line,
    /// the end clipped to the line.
    pub span: (usize, usize),
}

/// A match as a scope judges it ([`Keep`]): where it stands and which of
/// its bytes the pattern's metavariables captured (what it does not
/// capture, the pattern spells).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchSpan {
    /// 1-based line of its first byte.
    pub line: u64,
    /// Byte offsets of the matched node in the source.
    pub range: std::ops::Range<usize>,
    /// Byte offsets of every node a named metavariable captured (`$X`,
    /// `$$$X`).
    pub captured: Vec<std::ops::Range<usize>>,
}

/// Which matches a search or rewrite keeps (`--callers-of`: those that
/// are an attributed call); `None` keeps every match.
pub type Keep<'k> = Option<&'k dyn Fn(&MatchSpan) -> bool>;

/// The span of a match, its captures read off its environment.
fn match_span(m: &ast_grep_core::NodeMatch<'_, StrDoc<grammar::Grammar>>, line: u64) -> MatchSpan {
    let env = m.get_env();
    let mut captured = Vec::new();
    for var in env.get_matched_variables() {
        match var {
            ast_grep_core::meta_var::MetaVariable::Capture(name, _) => {
                captured.extend(env.get_match(&name).map(|n| n.range()));
            }
            ast_grep_core::meta_var::MetaVariable::MultiCapture(name) => {
                let nodes = env.get_multiple_matches(&name);
                if let (Some(first), Some(last)) = (nodes.first(), nodes.last()) {
                    captured.push(first.range().start..last.range().end);
                }
            }
            _ => {}
        }
    }
    MatchSpan {
        line,
        range: m.get_node().range(),
        captured,
    }
}

/// What one file holds for a pattern.
#[derive(Debug, Default)]
pub struct Searched {
    /// Every match, in the order the tree is walked (outer before inner,
    /// so by first byte), nested matches included, as ast-grep reports
    /// them.
    pub found: Vec<Found>,
    /// The file's definitions holding its matches (and maybe others),
    /// from the same parse, when asked for and something matched (`None`
    /// when the tree could not serve them).
    pub defs: Option<Vec<Def>>,
}

impl StructuralPattern {
    /// Parses `source` once and finds every match of the pattern that
    /// `keep` admits; with `want_defs`, reads the definitions off the
    /// same tree when something matched. A source lacking one of the
    /// pattern's words ([`Anchors`](anchors::Anchors)) cannot match and
    /// is not parsed.
    pub fn search(&self, source: &str, want_defs: bool, keep: Keep<'_>) -> Searched {
        if !self.anchors.admit(source.as_bytes()) {
            return Searched::default();
        }
        let Ok(doc) = StrDoc::try_new(source, self.grammar) else {
            return Searched::default();
        };
        let root = AstGrep::doc(doc);
        let top = root.root();
        let mut matches = top.find_all(&self.pattern).peekable();
        if matches.peek().is_none() {
            return Searched::default();
        }
        let line_starts = LineStarts::new(source.as_bytes());
        let found: Vec<Found> = matches
            .filter_map(|m| {
                let range = m.get_node().range();
                let (line, line_start) = line_starts.locate(range.start);
                if keep.is_some_and(|keep| !keep(&match_span(&m, line))) {
                    return None;
                }
                // A match ending with its line's terminator ends on that line.
                let last_byte = range.end.saturating_sub(1).max(range.start);
                let (last_line, _) = line_starts.locate(last_byte);
                let line_end = line_starts.end_of(line, source.len());
                Some(Found {
                    line,
                    last_line,
                    span: (
                        range.start - line_start,
                        range.end.min(line_end) - line_start,
                    ),
                })
            })
            .collect();
        if found.is_empty() {
            return Searched::default();
        }
        let defs = if want_defs {
            let tree = &top.get_doc().tree;
            let mut lines: Vec<u64> = found.iter().map(|f| f.line).collect();
            lines.sort_unstable();
            lines.dedup();
            defs::from_tree(self.lang(), tree, source.as_bytes(), &lines)
                .or_else(|| Some(defs::extract(self.lang(), source.as_bytes())))
        } else {
            None
        };
        Searched { found, defs }
    }
}

/// Byte offsets of line starts, for turning a byte into a line.
struct LineStarts(Vec<usize>);

impl LineStarts {
    fn new(source: &[u8]) -> LineStarts {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', source).map(|i| i + 1));
        LineStarts(starts)
    }

    /// The 1-based line holding byte `at`, and the offset its line starts at.
    fn locate(&self, at: usize) -> (u64, usize) {
        let index = self.0.partition_point(|&start| start <= at) - 1;
        (index as u64 + 1, self.0[index])
    }

    /// The offset where 1-based `line`'s text ends (before its `\n`).
    fn end_of(&self, line: u64, len: usize) -> usize {
        self.0
            .get(line as usize)
            .map_or(len, |&next| next.saturating_sub(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;

    fn found(lang: Lang, pattern: &str, source: &str) -> Vec<Found> {
        StructuralPattern::compile(pattern, lang)
            .unwrap()
            .search(source, false, None)
            .found
    }

    #[test]
    fn a_multi_line_match_has_its_first_line_and_its_range() {
        let source = "fn main() {\n    let v = parse(\n        a,\n    ).unwrap();\n}\n";
        assert_eq!(
            found(Lang::Rust, "$X.unwrap()", source),
            [Found {
                line: 2,
                last_line: 4,
                span: (12, 18)
            }]
        );
    }

    #[test]
    fn nested_matches_are_all_reported() {
        let source = "fn f() { a.unwrap().unwrap(); }\n";
        assert_eq!(found(Lang::Rust, "$X.unwrap()", source).len(), 2);
    }

    #[test]
    fn definitions_come_from_the_same_parse() {
        let source = "def f():\n    try:\n        g()\n    except Exception:\n        pass\n";
        let searched = StructuralPattern::compile("except Exception: pass", Lang::Python)
            .unwrap()
            .search(source, true, None);
        assert_eq!(searched.found.len(), 1);
        assert_eq!(searched.found[0].line, 4);
        let defs = searched.defs.unwrap();
        assert_eq!(defs[0].name, "f");
    }
}
