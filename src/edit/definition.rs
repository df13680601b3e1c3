//! The change of a definition edit (`PATH#SYMBOL --with FILE`): the
//! definition the parser finds (as `--callers-of` names it), from its
//! signature to its last line, replaced by the new code re-indented to
//! where the definition stands. Its preamble (the comments, decorators
//! and attributes right above the signature) is kept whole when the new
//! code brings none, and replaced whole when it brings one, the report
//! naming every old line removed. When the signature line changes (as
//! written, its indentation aside), the code graph's callers of the old
//! definition are listed, for the agent to bring along.

use std::io::Read;

use anyhow::{bail, Result};

use super::change::{self, FileChange, FileStamp};
use super::settings::Source;
use super::{Callers, Planned};
use crate::graph::{self, SymbolSpec};
use crate::lang::Lang;
use crate::rg::{Rg, SearchFlags};

/// Resolves the definition and computes the file's new bytes.
pub fn plan(
    spec: &SymbolSpec,
    source: &Source,
    rg: &Rg,
    cache_dir: Option<std::path::PathBuf>,
) -> Result<Planned> {
    let cache = graph::cache::FactsCache::new(cache_dir.clone());
    let target = graph::resolve_target(spec, &cache)?;
    let path = crate::paths::path_of(&target.path);
    let stamp =
        FileStamp::of(&path).ok_or_else(|| anyhow::anyhow!("{}: cannot stat", spec.text))?;
    let before = std::fs::read(&path)?;
    if memchr::memchr(0, &before).is_some() {
        bail!("{}: the file is binary (it holds a NUL byte)", spec.text);
    }
    let code = match source {
        Source::Text(text) => text.as_bytes().to_vec(),
        Source::Stdin => {
            let mut bytes = Vec::new();
            std::io::stdin().read_to_end(&mut bytes)?;
            bytes
        }
        Source::File(file) => {
            std::fs::read(file).map_err(|e| anyhow::anyhow!("--with {}: {e}", file.display()))?
        }
    };
    if code.iter().all(u8::is_ascii_whitespace) {
        bail!("--with: the new code is empty; to delete a definition, replace it by the text around it with --old/--new");
    }
    let lines = line_spans(&before);
    let def = &target.def;
    let (first, last) = (def.start_line as usize, def.end_line as usize);
    if first == 0 || last > lines.len() || first > last {
        bail!(
            "{}: the definition's lines ({first}-{last}) are not in the file",
            spec.text
        );
    }
    let lang = target.lang;
    let preamble = |line: &[u8]| is_preamble(line, lang);
    // The signature: the definition's first line that is no preamble.
    let signature = (first..=def.name_line.max(def.start_line) as usize)
        .find(|&n| !preamble(&before[lines[n - 1].clone()]))
        .unwrap_or(def.name_line as usize);
    // Its preamble: the lines right above it that are preamble at its
    // indentation (a block comment's ` * ` lines one column in), within
    // the definition's range or above it, up to a blank line: a comment
    // closing the block before it is not its own.
    let indent_of = |line: &[u8]| {
        line.iter()
            .take_while(|b| **b == b' ' || **b == b'\t')
            .count()
    };
    let sig_indent = indent_of(&before[lines[signature - 1].clone()]);
    let mut top = signature;
    while top > 1 && {
        let line = &before[lines[top - 2].clone()];
        let at = indent_of(line);
        preamble(line)
            && (at == sig_indent || (at == sig_indent + 1 && line.trim_ascii().starts_with(b"*")))
    } {
        top -= 1;
    }
    let (new_preamble, new_rest) = split_preamble(&code, lang);
    let new_brings_its_own = !new_preamble.is_empty();
    let replaced_from = if new_brings_its_own { top } else { signature };
    let removed: Vec<String> = if new_brings_its_own {
        (top..signature)
            .map(|n| (n, &before[lines[n - 1].clone()]))
            .filter(|(_, line)| {
                !new_preamble
                    .iter()
                    .any(|new| new.trim_ascii() == line.trim_ascii())
            })
            .map(|(n, line)| format!("{n}: {}", String::from_utf8_lossy(line.trim_ascii())))
            .collect()
    } else {
        Vec::new()
    };
    let start = lines[replaced_from - 1].start;
    let end = lines[last - 1].end;
    let old_line = &before[lines[signature - 1].clone()];
    let indent: Vec<u8> = before[lines[replaced_from - 1].clone()]
        .iter()
        .take_while(|b| **b == b' ' || **b == b'\t')
        .copied()
        .collect();
    let crlf = before[end..].starts_with(b"\r\n");
    let new_text = reindent(&code, &indent, crlf);
    let mut after = Vec::with_capacity(before.len() + new_text.len());
    after.extend_from_slice(&before[..start]);
    after.extend_from_slice(&new_text);
    after.extend_from_slice(&before[end..]);

    // The signature as written, its indentation aside: the new code's
    // first line after its preamble against the old signature line.
    let signature_changed = new_rest.map(spaced) != Some(spaced(old_line));
    let callers = if signature_changed && graph::graphed(target.lang) {
        Some(callers_of(&target, rg, cache_dir)?)
    } else {
        None
    };
    let lang = target.lang;
    let file = FileChange {
        path: target.path.clone(),
        real: target.canon.clone(),
        lang: Some(lang),
        hunks: change::hunks(&before, &after),
        defs: crate::defs::extract(lang, &before),
        before,
        after,
        stamp,
        matches: 1,
        rewritten: 1,
        left_alone: 0,
        match_lines: vec![signature as u64],
    };
    Ok(Planned {
        files: vec![file],
        scope: None,
        callers,
        removed,
        ..Planned::default()
    })
}

/// The code graph's calls of the old definition, from the working
/// directory.
fn callers_of(
    target: &graph::Target,
    rg: &Rg,
    cache_dir: Option<std::path::PathBuf>,
) -> Result<Callers> {
    let flags = SearchFlags {
        patterns: Vec::new(),
        fixed_strings: true,
        ignore_case: false,
        word: true,
        globs: Vec::new(),
        types: Vec::new(),
        hidden: false,
        paths: Vec::new(),
        with_filename: false,
    };
    let scope = graph::callers(rg, &flags, target.clone(), cache_dir, None, false)?;
    let own = target.canon.clone();
    let mut sites = Vec::new();
    let mut same_file = 0;
    for (path, found) in &scope.attributed {
        let here = std::fs::canonicalize(crate::paths::path_of(path)).is_ok_and(|p| p == own);
        for site in found {
            if here {
                same_file += 1;
            } else {
                sites.push(format!("{}:{}", String::from_utf8_lossy(path), site.line));
            }
        }
    }
    Ok(Callers {
        title: target.title(),
        sites,
        same_file,
        cannot_tell: scope.cannot_tell.len() as u64,
    })
}

/// Byte ranges of each line's text (without its `\n`), 1 line per entry.
fn line_spans(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut spans = Vec::new();
    let mut start = 0;
    for at in memchr::memchr_iter(b'\n', bytes) {
        let end = if at > start && bytes[at - 1] == b'\r' {
            at - 1
        } else {
            at
        };
        spans.push(start..end);
        start = at + 1;
    }
    if start < bytes.len() {
        spans.push(start..bytes.len());
    }
    spans
}

/// A line that stands above a definition's signature in `lang`
/// ([`crate::defs::is_preamble`]).
fn is_preamble(line: &[u8], lang: Lang) -> bool {
    crate::defs::is_preamble(lang, line.trim_ascii())
}

/// The new code's leading preamble lines (blank lines before them
/// skipped), and its first line after them.
fn split_preamble(code: &[u8], lang: Lang) -> (Vec<&[u8]>, Option<&[u8]>) {
    let mut lines = code
        .split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .skip_while(|l| l.trim_ascii().is_empty());
    let mut preamble = Vec::new();
    for line in lines.by_ref() {
        if line.trim_ascii().is_empty() {
            continue;
        }
        if !is_preamble(line, lang) {
            return (preamble, Some(line));
        }
        preamble.push(line);
    }
    (preamble, None)
}

/// A line with its runs of spaces and tabs as one space, and none at
/// either end: a signature as written, its indentation aside.
fn spaced(line: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(line.len());
    for word in line
        .split(|b| *b == b' ' || *b == b'\t')
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push(b' ');
        }
        out.extend_from_slice(word);
    }
    out
}

/// `code` without blank lines at either end and without the indentation
/// its lines share, each line then indented by `indent`, lines ended by
/// `\r\n` when `crlf`; no terminator after the last line.
fn reindent(code: &[u8], indent: &[u8], crlf: bool) -> Vec<u8> {
    let lines: Vec<&[u8]> = code
        .split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .collect();
    let first = lines
        .iter()
        .position(|l| !l.trim_ascii().is_empty())
        .unwrap_or(0);
    let last = lines
        .iter()
        .rposition(|l| !l.trim_ascii().is_empty())
        .unwrap_or(0);
    let lines = &lines[first..=last];
    let shared = lines
        .iter()
        .filter(|l| !l.trim_ascii().is_empty())
        .map(|l| l.iter().take_while(|b| **b == b' ' || **b == b'\t').count())
        .min()
        .unwrap_or(0);
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
        }
        let line = line.trim_ascii_end();
        if line.is_empty() {
            continue;
        }
        out.extend_from_slice(indent);
        out.extend_from_slice(&line[shared.min(line.len())..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_code_takes_the_definition_s_indentation() {
        let code = b"\n    def load(self, path):\n        return 1\n\n";
        assert_eq!(
            reindent(code, b"    ", false),
            b"    def load(self, path):\n        return 1"
        );
        assert_eq!(reindent(b"fn a() {\n}\n", b"", true), b"fn a() {\r\n}");
    }

    #[test]
    fn decorators_attributes_and_comments_stand_above() {
        assert!(is_preamble(b"    @functools.cache", Lang::Python));
        assert!(is_preamble(b"# why", Lang::Python));
        assert!(is_preamble(b"#[inline]", Lang::Rust));
        assert!(is_preamble(b"/// docs", Lang::Rust));
        assert!(is_preamble(b"[Obsolete]", Lang::CSharp));
        assert!(!is_preamble(b"def load(path):", Lang::Python));
        assert!(!is_preamble(b"pub fn load() {", Lang::Rust));
        assert!(!is_preamble(b"#ifdef FAST", Lang::C));
        assert!(!is_preamble(b"#define X 1", Lang::C));
        assert!(!is_preamble(b"#!/usr/bin/env python3", Lang::Python));
        assert!(!is_preamble(b"#![allow(dead_code)]", Lang::Rust));
    }

    #[test]
    fn new_code_s_preamble_is_split_from_its_signature() {
        let (preamble, rest) = split_preamble(b"\n# new\n@cache\ndef f():\n  pass\n", Lang::Python);
        assert_eq!(preamble, [&b"# new"[..], &b"@cache"[..]]);
        assert_eq!(rest, Some(&b"def f():"[..]));
        assert_eq!(spaced(b"  def  f(a,\tb):  "), b"def f(a, b):");
    }

    #[test]
    fn line_spans_leave_out_terminators() {
        let spans = line_spans(b"a\r\nbc\nd");
        assert_eq!(spans, [0..1, 3..5, 6..7]);
    }
}
