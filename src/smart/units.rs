//! Units of retrieval: each definition of a parsed candidate file but its
//! namespaces and modules (or the whole file when no other definition is
//! left), with its fields: the name split into words, its doc comment or
//! docstring, the path's segments, and the identifiers and comments of
//! its body. A field keeps, per concept, the weighted number of words
//! that are one of the concept's forms, its length in words, and the code
//! words that matched (for the why).

use std::collections::HashMap;
use std::rc::Rc;

use crate::defs::{Def, DefKind};
use crate::hash::FnvBuild;
use crate::smart::concepts::{form_match, is_literal, Concept};
use crate::smart::words::{split_words, stem};

/// The fields, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FieldKind {
    Name,
    Doc,
    Path,
    Body,
}

impl FieldKind {
    pub const ALL: [FieldKind; 4] = [
        FieldKind::Name,
        FieldKind::Doc,
        FieldKind::Path,
        FieldKind::Body,
    ];

    pub fn label(self) -> &'static str {
        match self {
            FieldKind::Name => "name",
            FieldKind::Doc => "doc",
            FieldKind::Path => "path",
            FieldKind::Body => "body",
        }
    }
}

/// One field of a unit.
#[derive(Debug, Clone, Default)]
pub struct Field {
    /// Per concept: weighted matching words.
    pub tf: Vec<f32>,
    /// Words in the field.
    pub len: u32,
    /// Per concept: the first few distinct code words that matched.
    pub seen: Vec<Vec<Rc<str>>>,
}

impl Field {
    fn new(concepts: usize) -> Field {
        Field {
            tf: vec![0.0; concepts],
            len: 0,
            seen: vec![Vec::new(); concepts],
        }
    }

    fn add(&mut self, words: &LineWords) {
        self.len += words.len;
        for &(c, w, ref word) in &words.hits {
            self.tf[c] += w;
            let seen = &mut self.seen[c];
            if seen.len() < 3 && !seen.contains(word) {
                seen.push(Rc::clone(word));
            }
        }
    }
}

/// A definition, or a whole file, to be scored.
#[derive(Debug, Clone)]
pub struct Unit {
    /// Index of the file in the parsed files.
    pub file: usize,
    /// The definition; `None` for a whole file.
    pub def: Option<Def>,
    /// The line a hit points at.
    pub line: u32,
    /// The first line of the doc comment, trimmed, when there is one.
    pub doc_line: Option<String>,
    /// Name, doc, path, body.
    pub fields: [Field; 4],
}

/// The words of one line that are forms of a concept, and how many words
/// it has.
#[derive(Debug, Clone, Default)]
pub struct LineWords {
    pub len: u32,
    /// (concept, weight, code word).
    pub hits: Vec<(usize, f32, Rc<str>)>,
}

/// A distinct word seen: its shared text and the concepts it is a form of.
type Known = (Rc<str>, Vec<(usize, f32)>);

/// Matches code words to concepts, remembering each distinct word.
pub struct WordMatcher<'c> {
    concepts: &'c [Concept],
    memo: HashMap<Box<str>, Known, FnvBuild>,
    /// The concepts' character literals (concept, weight, the literal).
    literals: Vec<(usize, f32, Rc<str>)>,
}

impl<'c> WordMatcher<'c> {
    pub fn new(concepts: &'c [Concept]) -> WordMatcher<'c> {
        let literals = concepts
            .iter()
            .enumerate()
            .flat_map(|(c, concept)| {
                concept
                    .forms
                    .iter()
                    .filter(|f| is_literal(f))
                    .map(move |f| (c, f.weight, Rc::from(f.pattern.as_str())))
            })
            .collect();
        WordMatcher {
            concepts,
            memo: HashMap::default(),
            literals,
        }
    }

    /// The words of `text`.
    pub fn line(&mut self, text: &str) -> LineWords {
        let mut out = LineWords::default();
        let concepts = self.concepts;
        let memo = &mut self.memo;
        split_words(text, |word| {
            out.len += 1;
            if word.len() < 2 {
                return;
            }
            let found = match memo.get(word) {
                Some(found) => found,
                None => {
                    let word_stem = stem(word);
                    let mut found = Vec::new();
                    for (c, concept) in concepts.iter().enumerate() {
                        let best = concept
                            .forms
                            .iter()
                            .map(|f| form_match(word, &word_stem, f))
                            .fold(0.0f32, f32::max);
                        if best > 0.0 {
                            found.push((c, best));
                        }
                    }
                    memo.entry(word.into()).or_insert((Rc::from(word), found))
                }
            };
            for &(c, w) in found.1.iter() {
                out.hits.push((c, w, Rc::clone(&found.0)));
            }
        });
        for (c, w, literal) in &self.literals {
            for _ in text.matches(&**literal) {
                out.hits.push((*c, *w, Rc::clone(literal)));
            }
        }
        out
    }
}

/// Whether a trimmed line is a comment line (of any language scout parses).
fn is_comment(trimmed: &str) -> bool {
    ["//", "/*", "*", "#", "--", "\"\"\"", "'''"]
        .iter()
        .any(|p| trimmed.starts_with(p))
        && !is_directive(trimmed)
}

/// Lines that start like a comment but are code: C preprocessor lines,
/// Rust attributes.
fn is_directive(trimmed: &str) -> bool {
    [
        "#include", "#define", "#if", "#endif", "#else", "#elif", "#undef", "#pragma", "#[", "#!",
    ]
    .iter()
    .any(|p| trimmed.starts_with(p))
}

/// The 1-based lines of the doc comment of a definition starting at
/// `start` (comment lines right above it, attributes and decorators
/// skipped), or of the docstring right after its name line `name` (Python).
pub fn doc_lines(lines: &[&str], start: u32, name: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut at = start as usize; // 1-based line above is at - 1
    while at > 1 && out.len() < 40 {
        let trimmed = lines[at - 2].trim();
        if is_comment(trimmed) {
            out.push(at as u32 - 1);
        } else if !(trimmed.starts_with("#[") || trimmed.starts_with('@')) || !out.is_empty() {
            break;
        }
        at -= 1;
    }
    out.reverse();
    if out.is_empty() {
        // A docstring: within a few lines after the name line.
        let from = name as usize;
        for i in from..(from + 6).min(lines.len()) {
            let trimmed = lines[i].trim_start();
            let quote = ["\"\"\"", "'''", "r\"\"\"", "r'''"]
                .iter()
                .find(|q| trimmed.starts_with(**q));
            if let Some(q) = quote {
                let close = &q[q.len() - 3..];
                let rest = &trimmed[q.len()..];
                out.push(i as u32 + 1);
                if !rest.contains(close) {
                    for (j, line) in lines.iter().enumerate().skip(i + 1).take(30) {
                        out.push(j as u32 + 1);
                        if line.contains(close) {
                            break;
                        }
                    }
                }
                break;
            }
            if trimmed.ends_with(':') || trimmed.ends_with('{') {
                continue;
            }
        }
    }
    out
}

/// The first line of a doc comment with its comment markers stripped.
fn first_doc_line(lines: &[&str], doc: &[u32]) -> Option<String> {
    doc.iter().find_map(|&l| {
        let text = strip_doc_markers(lines[l as usize - 1]);
        (text.chars().filter(|c| c.is_alphabetic()).count() >= 3).then(|| {
            let cut: String = text.chars().take(80).collect();
            if cut.len() < text.len() {
                format!("{cut}…")
            } else {
                cut
            }
        })
    })
}

/// The units of one file: `source` its text, `defs` its definitions,
/// `path` as shown.
///
/// A namespace or module is not a unit: it answers no question that its
/// file does not (PHP's `namespace X;` runs to the end of the file), and
/// as a unit it would stand beside its own class with the same words.
pub fn units(
    file: usize,
    path: &str,
    source: &str,
    defs: &[Def],
    matcher: &mut WordMatcher<'_>,
) -> Vec<Unit> {
    let n = matcher.concepts.len();
    let lines: Vec<&str> = source.lines().collect();
    let words: Vec<LineWords> = lines.iter().map(|l| matcher.line(l)).collect();
    let mut path_field = Field::new(n);
    let stem_path = path.rsplit_once('.').map_or(path, |(p, _)| p);
    path_field.add(&matcher.line(stem_path));
    let body = |from: u32, to: u32, skip: &[u32]| {
        let mut f = Field::new(n);
        for l in from..=to.min(lines.len() as u32) {
            if l >= 1 && !skip.contains(&l) {
                f.add(&words[l as usize - 1]);
            }
        }
        f
    };
    let doc_field = |doc: &[u32]| {
        let mut f = Field::new(n);
        for &l in doc {
            f.add(&words[l as usize - 1]);
        }
        f
    };
    let mut defs = defs.iter().filter(|d| d.kind != DefKind::Module).peekable();
    if defs.peek().is_none() {
        let doc = doc_lines(&lines, 1, 0);
        let name = stem_path.rsplit('/').next().unwrap_or(stem_path);
        let best = (1..=lines.len() as u32)
            .max_by_key(|&l| {
                let mut covered: Vec<usize> =
                    words[l as usize - 1].hits.iter().map(|h| h.0).collect();
                covered.dedup();
                (covered.len(), std::cmp::Reverse(l))
            })
            .unwrap_or(1);
        return vec![Unit {
            file,
            def: None,
            line: best,
            doc_line: first_doc_line(&lines, &doc),
            fields: [
                {
                    let mut f = Field::new(n);
                    f.add(&matcher.line(name));
                    f
                },
                doc_field(&doc),
                path_field,
                body(1, lines.len() as u32, &doc),
            ],
        }];
    }
    defs.map(|d| {
        let doc = doc_lines(&lines, d.start_line, d.name_line);
        let mut name = Field::new(n);
        name.add(&matcher.line(&d.short));
        Unit {
            file,
            def: Some(d.clone()),
            line: d.name_line,
            doc_line: first_doc_line(&lines, &doc),
            fields: [
                name,
                doc_field(&doc),
                path_field.clone(),
                body(d.start_line, d.end_line, &doc),
            ],
        }
    })
    .collect()
}

/// Doc comment lines a unit's text for the encoder keeps, at most.
pub const TEXT_DOC_LINES: usize = 5;

/// The texts the sentence encoder embeds for the units of one file, with
/// the line each unit's hit points at, in the order [`units`] makes them:
/// the name split into words, up to [`TEXT_DOC_LINES`] lines of its doc
/// comment (markers and `@param`-style tag lines left out), the words of
/// its path. Bump [`TEXT_RULES`] whenever a change here changes a text.
pub fn texts(path: &str, source: &str, defs: &[Def]) -> Vec<(u32, String)> {
    let lines: Vec<&str> = source.lines().collect();
    let stem_path = path.strip_prefix("./").unwrap_or(path);
    let stem_path = stem_path.rsplit_once('.').map_or(stem_path, |(p, _)| p);
    let path_words = words_of(stem_path);
    let text = |name: &str, doc: &[u32]| {
        let mut text = words_of(name);
        let kept = doc
            .iter()
            .map(|&l| strip_doc_markers(lines[l as usize - 1]))
            .filter(|line| !line.is_empty() && !line.starts_with(['@', ':']))
            .take(TEXT_DOC_LINES);
        // Sentences: the name, the doc's lines, the path.
        let sentence = |text: &mut String, next: &str| {
            text.push_str(if text.ends_with('.') { " " } else { ". " });
            text.push_str(next);
        };
        sentence(&mut text, &path_words);
        for line in kept {
            sentence(&mut text, line);
        }
        text
    };
    let mut defs = defs.iter().filter(|d| d.kind != DefKind::Module).peekable();
    if defs.peek().is_none() {
        let name = stem_path.rsplit('/').next().unwrap_or(stem_path);
        return vec![(1, text(name, &doc_lines(&lines, 1, 0)))];
    }
    defs.map(|d| {
        let doc = doc_lines(&lines, d.start_line, d.name_line);
        (d.name_line, text(&d.name, &doc))
    })
    .collect()
}

/// The version of [`texts`]' rules, kept in the vector cache's entries.
pub const TEXT_RULES: u32 = 3;

/// `text` split into lower-case words, joined by spaces.
fn words_of(text: &str) -> String {
    let mut out = String::new();
    split_words(text, |w| {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&w.to_lowercase());
    });
    out
}

/// A doc comment line without its markers (`///`, `#`, `*`, quotes).
fn strip_doc_markers(line: &str) -> &str {
    line.trim()
        .trim_start_matches(['/', '*', '#', '-', '!', ' ', '"', '\''])
        .trim_start_matches("r\"\"\"")
        .trim_end_matches(['*', '/', '"', '\''])
        .trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doc_comments_above_attributes_skipped() {
        let src = "\n/// Reads the config.\n/// Twice.\n#[inline]\nfn read() {}\n";
        let lines: Vec<&str> = src.lines().collect();
        assert_eq!(doc_lines(&lines, 5, 5), vec![2, 3]);
        assert_eq!(
            first_doc_line(&lines, &[2, 3]).as_deref(),
            Some("Reads the config.")
        );
    }

    #[test]
    fn a_units_text_is_its_name_doc_and_path_in_words() {
        let src = "/// Retries the request.\n/// @param n the count\n///\n/// Waits longer each time.\nfn retryWithBackoff() {}\nmod inner {}\n";
        let defs = vec![
            Def {
                kind: DefKind::Function,
                name: "retryWithBackoff".into(),
                short: "retryWithBackoff".into(),
                start_line: 5,
                end_line: 5,
                name_line: 5,
            },
            Def {
                kind: DefKind::Module,
                name: "inner".into(),
                short: "inner".into(),
                start_line: 6,
                end_line: 6,
                name_line: 6,
            },
        ];
        assert_eq!(
            texts("./src/net/http_client.rs", src, &defs),
            [(
                5,
                "retry with backoff. src net http client. Retries the request. Waits longer each time."
                    .to_string()
            )]
        );
        // No definition but modules: the file is the unit, named by its stem.
        assert_eq!(texts("a/b.rs", "mod inner {}\n", &defs[1..])[0].1, "b. a b");
    }

    #[test]
    fn c_preprocessor_lines_are_not_docs() {
        let src = "#include <x.h>\nint f(void) {\n}\n";
        let lines: Vec<&str> = src.lines().collect();
        assert!(doc_lines(&lines, 2, 2).is_empty());
    }

    #[test]
    fn python_docstrings() {
        let src = "def f(x):\n    \"\"\"Count the words.\n\n    More.\n    \"\"\"\n    return x\n";
        let lines: Vec<&str> = src.lines().collect();
        assert_eq!(doc_lines(&lines, 1, 1), vec![2, 3, 4, 5]);
        assert_eq!(
            first_doc_line(&lines, &[2, 3, 4, 5]).as_deref(),
            Some("Count the words.")
        );
    }

    #[test]
    fn literals_are_counted_in_a_line_text() {
        let c = crate::smart::concepts::concepts("starts with a dot");
        let mut matcher = WordMatcher::new(&c);
        let words = matcher.line("if name.starts_with(b\".\") || name == '.' {");
        let mut dots: Vec<&str> = words
            .hits
            .iter()
            .filter(|(concept, _, _)| c[*concept].word == "dot")
            .map(|(_, _, word)| &**word)
            .collect();
        dots.sort_unstable();
        assert_eq!(dots, ["\".\"", "'.'"]);
        assert!(matcher
            .line("a.b.c()")
            .hits
            .iter()
            .all(|(k, _, _)| c[*k].word != "dot"));
    }

    #[test]
    fn fields_count_concept_words() {
        let concepts = crate::smart::concepts::concepts("evict keys");
        let mut m = WordMatcher::new(&concepts);
        let src =
            "/* Evict some keys. */\nint performEvictions(void) {\n  return evictKey(key);\n}\n";
        let defs = vec![Def {
            kind: crate::defs::DefKind::Function,
            name: "performEvictions".into(),
            short: "performEvictions".into(),
            start_line: 2,
            end_line: 4,
            name_line: 2,
        }];
        let u = units(0, "src/evict.c", src, &defs, &mut m);
        assert_eq!(u.len(), 1);
        let [name, doc, path, body] = &u[0].fields;
        assert_eq!(name.tf, vec![1.0, 0.0]);
        assert_eq!(name.seen[0], vec![Rc::from("evictions")]);
        assert_eq!(doc.tf, vec![1.0, 1.0]);
        assert_eq!(path.tf, vec![1.0, 0.0]);
        assert_eq!(body.tf, vec![2.0, 2.0]);
        assert_eq!(u[0].doc_line.as_deref(), Some("Evict some keys."));
    }
    #[test]
    fn namespaces_are_not_units_and_a_file_of_only_one_is_the_file() {
        let concepts = crate::smart::concepts::concepts("download archive");
        let mut m = WordMatcher::new(&concepts);
        let def = |kind, name: &str, start, end| Def {
            kind,
            name: name.into(),
            short: name.into(),
            start_line: start,
            end_line: end,
            name_line: start,
        };
        let src = "<?php\nnamespace Downloader;\n\nclass ArchiveDownloader {\n}\n";
        let namespace = def(DefKind::Module, "Downloader", 2, 5);
        let class = def(DefKind::Class, "ArchiveDownloader", 4, 5);
        let u = units(
            0,
            "src/Downloader/Archive.php",
            src,
            &[namespace.clone(), class],
            &mut m,
        );
        assert_eq!(u.len(), 1);
        assert_eq!(u[0].def.as_ref().map(|d| d.kind), Some(DefKind::Class));

        let u = units(0, "src/Downloader/boot.php", src, &[namespace], &mut m);
        assert_eq!(u.len(), 1);
        assert!(
            u[0].def.is_none(),
            "the whole file, as when nothing was found"
        );
    }
}
