//! Rewriting what a pattern matches (`scout edit --structural`):
//! ast-grep's own replacement machinery ([`TemplateFix`]) fills a
//! template's `$X` and `$$$X` with what the match captured, re-indented
//! as ast-grep re-indents a multi-line replacement, over the byte range
//! the ast-grep CLI replaces: the whole matched node, even where it holds
//! more than the pattern spells (`assert $X` matches `assert a, msg`, and
//! the `, msg` goes with it; `let $A = $B` matches `let a = 1;`, `;`
//! included), as `ast-grep run -r` does.
//!
//! Matches that overlap one already rewritten (an inner `a.unwrap()` of
//! `a.unwrap().unwrap()`) are left alone, as the ast-grep CLI leaves them:
//! the outer one's replacement carries them as they were captured.
//!
//! This module knows nothing of files, pages or the graph: it turns one
//! source into its splices; `edit` decides what is written.

use std::ops::Range;

use ast_grep_core::replacer::TemplateFix;
use ast_grep_core::tree_sitter::StrDoc;
use ast_grep_core::AstGrep;

use super::{match_span, Found, Keep, LineStarts, StructuralPattern};
use crate::defs::{self, Def};

/// A replacement template (`--rewrite`), compiled once for a language.
pub struct Template {
    fix: TemplateFix,
    /// The template as typed.
    pub text: String,
}

impl std::fmt::Debug for Template {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Template")
            .field("text", &self.text)
            .finish_non_exhaustive()
    }
}

impl Template {
    /// Compiles `text` for `pattern`'s language. The metavariables are
    /// written `$NAME` / `$$$NAME` whatever sigil the grammar parses
    /// patterns with; one the pattern does not capture is an error, since
    /// ast-grep would drop it silently.
    pub fn compile(text: &str, pattern: &StructuralPattern) -> Result<Template, String> {
        let fix = TemplateFix::try_new(text, &pattern.grammar).map_err(|e| e.to_string())?;
        let captured = pattern.captures();
        let mut unknown: Vec<&str> = fix
            .used_vars()
            .into_iter()
            .filter(|name| !captured.iter().any(|c| c == name))
            .collect();
        unknown.sort_unstable();
        if let Some(first) = unknown.first() {
            let names: Vec<String> = captured.iter().map(|c| format!("${c}")).collect();
            return Err(format!(
                "the rewrite names ${first}, which the pattern does not capture (it captures {}); a name the pattern does not bind would be replaced by nothing",
                if names.is_empty() {
                    "nothing".to_string()
                } else {
                    names.join(", ")
                }
            ));
        }
        Ok(Template {
            fix,
            text: text.to_string(),
        })
    }
}

/// One replacement in a source: the bytes of `range` become `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Splice {
    /// Byte range of the old source.
    pub range: Range<usize>,
    pub text: Vec<u8>,
}

/// What rewriting one source found and made.
#[derive(Debug, Default)]
pub struct Rewritten {
    /// Every match kept (by `keep`), as [`StructuralPattern::search`]
    /// reports them.
    pub found: Vec<Found>,
    /// The splices to apply, in source order, none overlapping.
    pub splices: Vec<Splice>,
    /// The line of each splice's match (1-based), parallel to `splices`.
    pub lines: Vec<u64>,
    /// Kept matches left alone because they overlap one rewritten.
    pub overlapped: u64,
    /// The file's definitions holding the matches, from the same parse.
    pub defs: Option<Vec<Def>>,
}

impl StructuralPattern {
    /// The names the pattern captures (`X` for `$X` and `$$$X`), without
    /// the anonymous `_`.
    pub fn captures(&self) -> Vec<String> {
        let sigil = self.grammar.expando();
        let processed = super::grammar::substitute_sigil(&self.text, sigil);
        let mut names = Vec::new();
        let mut rest: &str = &processed;
        while let Some(at) = rest.find(sigil) {
            let after = rest[at..].trim_start_matches(sigil);
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
                .collect();
            if !name.is_empty() && name != "_" && !names.contains(&name) {
                names.push(name.clone());
            }
            rest = &after[name.len()..];
        }
        names
    }

    /// Parses `source` once, finds every match that `keep` admits (the
    /// same matches [`search`](StructuralPattern::search) keeps), and
    /// makes each one's replacement by `template`; with `want_defs`, the
    /// definitions from the same tree.
    pub fn rewrite(
        &self,
        source: &str,
        template: &Template,
        keep: Keep<'_>,
        want_defs: bool,
    ) -> Rewritten {
        if !self.anchors.admit(source.as_bytes()) {
            return Rewritten::default();
        }
        let Ok(doc) = StrDoc::try_new(source, self.grammar) else {
            return Rewritten::default();
        };
        let root = AstGrep::doc(doc);
        let top = root.root();
        let line_starts = LineStarts::new(source.as_bytes());
        let mut out = Rewritten::default();
        let mut end = 0;
        for found in top.find_all(&self.pattern) {
            let range = found.get_node().range();
            let (line, line_start) = line_starts.locate(range.start);
            if keep.is_some_and(|keep| !keep(&match_span(&found, line))) {
                continue;
            }
            let last_byte = range.end.saturating_sub(1).max(range.start);
            let (last_line, _) = line_starts.locate(last_byte);
            let line_end = line_starts.end_of(line, source.len());
            out.found.push(Found {
                line,
                last_line,
                span: (
                    range.start - line_start,
                    range.end.min(line_end) - line_start,
                ),
            });
            let edit = found.replace_by(&template.fix);
            let range = edit.position..edit.position + edit.deleted_length;
            // The tree is walked outer before inner, so a match starting
            // inside the last one rewritten is nested in it (or overlaps
            // it): the CLI skips it, and so does this.
            if !out.splices.is_empty() && range.start < end {
                out.overlapped += 1;
                continue;
            }
            end = range.end;
            out.lines.push(line);
            out.splices.push(Splice {
                range,
                text: edit.inserted_text,
            });
        }
        if want_defs && !out.found.is_empty() {
            let tree = &top.get_doc().tree;
            let mut lines: Vec<u64> = out.found.iter().map(|f| f.line).collect();
            lines.dedup();
            out.defs = defs::from_tree(self.lang(), tree, source.as_bytes(), &lines)
                .or_else(|| Some(defs::extract(self.lang(), source.as_bytes())));
        }
        out
    }
}

/// `source` with `splices` (in order, none overlapping) applied.
pub fn apply(source: &[u8], splices: &[Splice]) -> Vec<u8> {
    let mut out = Vec::with_capacity(source.len());
    let mut at = 0;
    for splice in splices {
        out.extend_from_slice(&source[at..splice.range.start]);
        out.extend_from_slice(&splice.text);
        at = splice.range.end;
    }
    out.extend_from_slice(&source[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;

    fn rewrite(lang: Lang, pattern: &str, template: &str, source: &str) -> String {
        let pattern = StructuralPattern::compile(pattern, lang).unwrap();
        let template = Template::compile(template, &pattern).unwrap();
        let rewritten = pattern.rewrite(source, &template, None, false);
        String::from_utf8(apply(source.as_bytes(), &rewritten.splices)).unwrap()
    }

    #[test]
    fn captures_fill_the_template() {
        assert_eq!(
            rewrite(
                Lang::Rust,
                "$X.unwrap()",
                "$X?",
                "fn f() { let a = b.unwrap(); }\n"
            ),
            "fn f() { let a = b?; }\n"
        );
        assert_eq!(
            rewrite(
                Lang::Python,
                "print($$$A)",
                "log($$$A)",
                "print(a, b)\nprint()\n"
            ),
            "log(a, b)\nlog()\n"
        );
    }

    #[test]
    fn the_outer_match_wins_and_the_inner_is_left_alone() {
        let pattern = StructuralPattern::compile("$X.unwrap()", Lang::Rust).unwrap();
        let template = Template::compile("$X?", &pattern).unwrap();
        let source = "fn f() { a.unwrap().unwrap(); }\n";
        let rewritten = pattern.rewrite(source, &template, None, false);
        assert_eq!((rewritten.found.len(), rewritten.overlapped), (2, 1));
        assert_eq!(
            apply(source.as_bytes(), &rewritten.splices),
            b"fn f() { a.unwrap()?; }\n"
        );
    }

    #[test]
    fn a_multi_line_template_takes_the_match_s_indentation() {
        let source = "fn f() {\n    if x {\n        a.unwrap();\n    }\n}\n";
        assert_eq!(
            rewrite(
                Lang::Rust,
                "$X.unwrap()",
                "match $X {\n    Some(v) => v,\n    None => return,\n}",
                source
            ),
            "fn f() {\n    if x {\n        match a {\n            Some(v) => v,\n            None => return,\n        };\n    }\n}\n"
        );
    }

    #[test]
    fn a_name_the_pattern_does_not_capture_is_refused() {
        let pattern = StructuralPattern::compile("$X.unwrap()", Lang::Rust).unwrap();
        let problem = Template::compile("$Y?", &pattern).unwrap_err();
        assert!(problem.contains("$Y"), "{problem}");
        assert!(problem.contains("$X"), "{problem}");
        assert_eq!(pattern.captures(), ["X"]);
        let go = StructuralPattern::compile("defer $F.Close()", Lang::Go).unwrap();
        assert_eq!(go.captures(), ["F"]);
    }

    #[test]
    fn the_whole_matched_node_is_replaced_as_the_cli_replaces_it() {
        assert_eq!(
            rewrite(
                Lang::Python,
                "assert $X",
                "assert $X, 'z'",
                "assert a, 'm'\n"
            ),
            "assert a, 'z'\n"
        );
        assert_eq!(
            rewrite(
                Lang::JavaScript,
                "let $A = $B",
                "var $A = $B",
                "let a = 1;\n"
            ),
            "var a = 1\n"
        );
    }

    #[test]
    fn kept_lines_only() {
        let pattern = StructuralPattern::compile("f($A)", Lang::Python).unwrap();
        let template = Template::compile("g($A)", &pattern).unwrap();
        let source = "f(1)\nf(2)\nf(3)\n";
        let rewritten = pattern.rewrite(source, &template, Some(&|m| m.line == 2), false);
        assert_eq!(
            apply(source.as_bytes(), &rewritten.splices),
            b"f(1)\ng(2)\nf(3)\n"
        );
        assert_eq!(rewritten.lines, [2]);
    }
}
