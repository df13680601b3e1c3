//! The reading view, `scout read FILE [--symbol NAME | --range A:B]`:
//! which lines of one file to show.
//!
//! This module owns resolving the flags ([`ReadSettings`]), loading the
//! file with the checks that make `read` fail early and clearly (missing,
//! a directory, too large, binary: [`load`]), splitting it into lines, and
//! choosing the blocks of lines to show ([`select`]). Laying the blocks out
//! within the budget and writing them is `commands::read`'s; definitions
//! come from [`crate::defs`] through its cache.

use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use crate::defs::{Def, MAX_PARSE_BYTES};
use crate::lang::Lang;
use crate::page::call::ToolCall;
use crate::render::style::Color;
use crate::shell;

/// `--budget-tokens` when not given.
pub const DEFAULT_BUDGET_TOKENS: u64 = 1500;
/// Files larger than this many bytes are not read (they are read whole).
pub const MAX_READ_BYTES: u64 = 64 * 1024 * 1024;
/// A NUL byte in this many first bytes makes a file binary (as rg and git
/// decide).
pub const BINARY_PROBE_BYTES: usize = 8 * 1024;

/// A `read`, ready to run.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadSettings {
    /// The file, as typed (printed in headers and commands as given).
    pub path: OsString,
    pub selection: Selection,
    /// Output budget in bytes; `None` means no limit.
    pub budget_bytes: Option<usize>,
    /// `--budget-tokens` as given, repeated in the commands `read` prints
    /// when it is not the default.
    pub budget_tokens: u64,
    /// scout's cache directory (definitions are cached under it); `None`
    /// means no caching.
    pub cache_dir: Option<PathBuf>,
    /// Whether the lines are coloured.
    pub color: Color,
    /// The agent session whose memory collapses lines already seen and
    /// records what is shown; `None` outside a session.
    pub session: Option<crate::session::Session>,
    /// `--again`: show lines already seen, record nothing.
    pub again: bool,
    /// The working directory: memory keys files by absolute path.
    pub cwd: PathBuf,
    /// The MCP tool call this read came through (set by the request
    /// layer): the page then names tool calls, not commands.
    pub tool: Option<ToolCall>,
}

/// What part of the file to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selection {
    /// The whole file.
    Whole,
    /// A line range (`--range`).
    Range(LineRange),
    /// Every definition with this name, short or qualified (`--symbol`).
    Symbol(String),
}

/// A range of lines as asked: 1-based, inclusive; `None` means the file's
/// first (for `start`) or last (for `end`) line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineRange {
    pub start: Option<u32>,
    pub end: Option<u32>,
}

impl ReadSettings {
    /// The command that shows lines `start..=end` of this file, with the
    /// same budget.
    pub fn range_command(&self, start: u32, end: u32) -> String {
        if let Some(call) = &self.tool {
            let range = format!("{start}:{end}");
            return call.without("symbol").with("range", range).text();
        }
        let mut command = format!(
            "scout read {} --range {start}:{end}",
            shell::quote(self.path.as_bytes())
        );
        if self.budget_tokens != DEFAULT_BUDGET_TOKENS {
            command.push_str(&format!(" --budget-tokens {}", self.budget_tokens));
        }
        command
    }
}

impl LineRange {
    /// Parses `A:B`, `A:`, `:B` or `A` (one line); `A-B` is accepted too,
    /// since headers print ranges that way.
    pub fn parse(text: &str) -> Result<LineRange> {
        let hint = "expected A:B (1-based, inclusive), A: (to the end) or :B (from the start), e.g. --range 120:188";
        let text = text.trim();
        let (start, end) = match text.split_once([':', '-']) {
            Some((a, b)) => (a.trim(), b.trim()),
            None => (text, text),
        };
        let number = |s: &str| -> Result<Option<u32>> {
            if s.is_empty() {
                return Ok(None);
            }
            match s.parse::<u32>() {
                Ok(0) => bail!("--range {text}: lines are numbered from 1; {hint}"),
                Ok(n) => Ok(Some(n)),
                Err(_) => bail!("--range {text}: {s:?} is not a line number; {hint}"),
            }
        };
        if text.is_empty() || text == ":" || text == "-" {
            bail!("--range {text:?}: {hint}");
        }
        let range = LineRange {
            start: number(start)?,
            end: number(end)?,
        };
        if let (Some(a), Some(b)) = (range.start, range.end) {
            if b < a {
                bail!("--range {text}: the end comes before the start; {hint}");
            }
        }
        Ok(range)
    }

    /// The range within a file of `count` lines (1-based, inclusive; the
    /// end is clamped to the last line); an error naming the line count
    /// when it starts past the end.
    pub fn within(self, count: u32, path: &[u8]) -> Result<(u32, u32)> {
        let start = self.start.unwrap_or(1);
        let end = self.end.unwrap_or(count).min(count);
        if count == 0 {
            bail!(
                "{}: the file is empty (0 lines); there is no line {start}",
                String::from_utf8_lossy(path)
            );
        }
        if start > count {
            bail!(
                "{}: --range starts at line {start}, but the file has {count} lines; try --range {}:{count}",
                String::from_utf8_lossy(path),
                count.saturating_sub(20).max(1)
            );
        }
        Ok((start, end))
    }
}

/// Reads the file at `path` whole, after the checks that make `read`
/// fail with a message saying what to do instead: a missing file, a
/// directory, a file over [`MAX_READ_BYTES`], a binary file (a NUL byte
/// in the first [`BINARY_PROBE_BYTES`]).
pub fn load(path: &Path) -> Result<Vec<u8>> {
    let shown = path.display();
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let name = path
                .file_name()
                .map_or_else(|| path.as_os_str().to_owned(), |n| n.to_owned());
            bail!(
                "{shown}: no such file; to find it: scout files {}",
                shell::quote(format!("**/{}", name.to_string_lossy()).as_bytes())
            );
        }
        Err(e) => bail!("{shown}: cannot be read ({e})"),
    };
    if meta.is_dir() {
        let quoted = shell::quote(path.as_os_str().as_bytes());
        bail!(
            "{shown}: is a directory; scout read shows one file. List its files with `scout files '*' {quoted}`, or search it with `scout search QUERY {quoted}`"
        );
    }
    if let Some(kind) = crate::paths::special_kind(path) {
        // Reading it would wait forever, or never end.
        bail!("{shown}: is {kind}; scout read reads regular files only");
    }
    if meta.len() > MAX_READ_BYTES {
        bail!(
            "{shown}: {:.1} MB is more than scout read reads ({} MB); find lines in it with `scout grep PATTERN {} --output-mode content`",
            meta.len() as f64 / 1e6,
            MAX_READ_BYTES / (1024 * 1024),
            shell::quote(path.as_os_str().as_bytes())
        );
    }
    let source = match std::fs::read(path) {
        Ok(source) => source,
        Err(e) => bail!("{shown}: cannot be read ({e})"),
    };
    if source[..source.len().min(BINARY_PROBE_BYTES)].contains(&0) {
        bail!("{shown}: is a binary file (a NUL byte in its first 8 KB); scout read shows text files only");
    }
    Ok(source)
}

/// The lines of `source`, without their `\n`: a `\r` before it is the
/// file's and stays, as rg and a search page quote it (I4). A final
/// line without a terminator counts; an empty source has no lines.
pub fn split_lines(source: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = source.split(|&b| b == b'\n').collect();
    if source.is_empty() || source.ends_with(b"\n") {
        lines.pop();
    }
    lines
}

/// A run of lines to show under one header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// First and last line (1-based, inclusive; `first <= last`).
    pub first: u32,
    pub last: u32,
    /// The definition shown, for `--symbol`; `None` for a range.
    pub def: Option<Def>,
}

/// What to show of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selected {
    /// These blocks, in file order (none for an empty file).
    Blocks(Vec<Block>),
    /// `--symbol` matched nothing: the file's definitions, to pick from.
    NoSymbol(Vec<Def>),
}

/// Chooses the blocks for `selection` in a file of `count` lines, with
/// `defs` its definitions (only looked at for `--symbol`). A definition
/// lying inside one already chosen is not chosen again.
pub fn select(selection: &Selection, count: u32, defs: &[Def], path: &[u8]) -> Result<Selected> {
    let blocks = match selection {
        Selection::Whole if count == 0 => Vec::new(),
        Selection::Whole => vec![Block {
            first: 1,
            last: count,
            def: None,
        }],
        Selection::Range(range) => {
            let (first, last) = range.within(count, path)?;
            vec![Block {
                first,
                last,
                def: None,
            }]
        }
        Selection::Symbol(name) => {
            let mut blocks: Vec<Block> = Vec::new();
            // `Type.method` names `Type::method` too (Rust, C++, PHP), as
            // `--callers-of` and `edit` read it.
            let dotted = name.replace("::", ".");
            for def in defs.iter().filter(|d| {
                d.short == *name || d.name == *name || d.name.replace("::", ".") == dotted
            }) {
                let inside = blocks
                    .iter()
                    .any(|b| b.first <= def.start_line && def.end_line <= b.last);
                // A definition past the end means the file changed since
                // it was parsed; show what is there.
                let last = def.end_line.min(count);
                if !inside && def.start_line <= last {
                    blocks.push(Block {
                        first: def.start_line,
                        last,
                        def: Some(def.clone()),
                    });
                }
            }
            if blocks.is_empty() {
                return Ok(Selected::NoSymbol(defs.to_vec()));
            }
            blocks
        }
    };
    Ok(Selected::Blocks(blocks))
}

/// The first line of the comments, attributes and decorators right above
/// line `first` (`///` docs, `#[derive]`, `@Override`, `@cache`), with no
/// blank line between; `first` itself when there are none. `lines` are the
/// file's lines, 1-based `first`.
pub fn lead_in(lines: &[&[u8]], first: u32, lang: Lang) -> u32 {
    let mut at = first;
    while at > 1 {
        let above = lines
            .get(at as usize - 2)
            .map_or(&b""[..], |l| l.trim_ascii());
        if above.is_empty() || !crate::defs::is_preamble(lang, above) {
            break;
        }
        at -= 1;
    }
    at
}

/// Fails, saying what to do instead, when `--symbol` cannot work on this
/// file: no parser for its language, or too large to parse.
pub fn ensure_parsable(path: &[u8], lang: Option<Lang>, size: usize) -> Result<Lang> {
    let shown = String::from_utf8_lossy(path);
    let Some(lang) = lang else {
        let names: Vec<&str> = Lang::ALL.iter().map(|l| l.name()).collect();
        bail!(
            "{shown}: --symbol needs definitions, and scout has no parser for this file type (it parses {}); show lines with --range A:B, or find the name with `scout grep NAME {} --output-mode content`",
            names.join(", "),
            shell::quote(path)
        );
    };
    if size > MAX_PARSE_BYTES {
        bail!(
            "{shown}: the file is larger than {} MB, the most scout parses for definitions; show lines with --range A:B, or find the name with `scout grep NAME {} --output-mode content`",
            MAX_PARSE_BYTES / (1024 * 1024),
            shell::quote(path)
        );
    }
    Ok(lang)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::defs::DefKind;

    fn range(start: Option<u32>, end: Option<u32>) -> LineRange {
        LineRange { start, end }
    }

    #[test]
    fn lead_in_takes_comments_and_attributes_up_to_a_blank_line() {
        let rust: Vec<&[u8]> = vec![
            b"use x;",
            b"",
            b"/// Parses it.",
            b"///",
            b"#[inline]",
            b"pub fn parse() {}",
        ];
        assert_eq!(lead_in(&rust, 6, Lang::Rust), 3);
        assert_eq!(lead_in(&rust, 1, Lang::Rust), 1);
        let python: Vec<&[u8]> = vec![b"x = 1", b"@cache", b"def f():"];
        assert_eq!(lead_in(&python, 3, Lang::Python), 2);
        // `#define` above a C function is code, not a comment.
        let c: Vec<&[u8]> = vec![b"#define N 3", b"int f(void) {"];
        assert_eq!(lead_in(&c, 2, Lang::C), 2);
    }

    #[test]
    fn ranges_parse_in_every_documented_form() {
        assert_eq!(LineRange::parse("3:7").unwrap(), range(Some(3), Some(7)));
        assert_eq!(LineRange::parse("3:").unwrap(), range(Some(3), None));
        assert_eq!(LineRange::parse(":7").unwrap(), range(None, Some(7)));
        assert_eq!(LineRange::parse("5").unwrap(), range(Some(5), Some(5)));
        assert_eq!(
            LineRange::parse("120-188").unwrap(),
            range(Some(120), Some(188))
        );
        assert_eq!(
            LineRange::parse(" 2 : 4 ").unwrap(),
            range(Some(2), Some(4))
        );
    }

    #[test]
    fn bad_ranges_say_what_is_expected() {
        for bad in ["", ":", "x", "0:3", "3:1", "1:y", "-", "1:2:3"] {
            let e = LineRange::parse(bad).unwrap_err().to_string();
            assert!(e.contains("expected A:B"), "{bad:?}: {e}");
        }
    }

    #[test]
    fn ranges_are_clamped_to_the_file_but_may_not_start_past_it() {
        assert_eq!(range(None, None).within(10, b"f").unwrap(), (1, 10));
        assert_eq!(range(Some(4), Some(99)).within(10, b"f").unwrap(), (4, 10));
        let e = range(Some(11), None)
            .within(10, b"f")
            .unwrap_err()
            .to_string();
        assert!(e.contains("the file has 10 lines"), "{e}");
        let e = range(Some(1), None)
            .within(0, b"f")
            .unwrap_err()
            .to_string();
        assert!(e.contains("0 lines"), "{e}");
    }

    #[test]
    fn lines_lose_their_terminators() {
        assert_eq!(split_lines(b""), Vec::<&[u8]>::new());
        assert_eq!(split_lines(b"a\n"), [&b"a"[..]]);
        assert_eq!(split_lines(b"a\r\nb"), [&b"a\r"[..], b"b"]);
        assert_eq!(split_lines(b"\n\n"), [&b""[..], b""]);
    }

    fn def(name: &str, short: &str, start_line: u32, end_line: u32) -> Def {
        Def {
            kind: DefKind::Function,
            name: name.into(),
            short: short.into(),
            start_line,
            end_line,
            name_line: start_line,
        }
    }

    #[test]
    fn symbols_match_short_or_qualified_names_and_skip_nested_repeats() {
        let defs = [
            def("A", "A", 1, 10),
            def("A.run", "run", 2, 4),
            def("A.run.run", "run", 3, 3),
            def("B.run", "run", 12, 14),
        ];
        let Selected::Blocks(blocks) =
            select(&Selection::Symbol("run".into()), 20, &defs, b"f").unwrap()
        else {
            panic!("no blocks");
        };
        let spans: Vec<(u32, u32)> = blocks.iter().map(|b| (b.first, b.last)).collect();
        assert_eq!(spans, [(2, 4), (12, 14)]);
        let Selected::Blocks(blocks) =
            select(&Selection::Symbol("B.run".into()), 20, &defs, b"f").unwrap()
        else {
            panic!("no blocks");
        };
        assert_eq!(blocks.len(), 1);
        assert_eq!(
            select(&Selection::Symbol("nope".into()), 20, &defs, b"f").unwrap(),
            Selected::NoSymbol(defs.to_vec())
        );
    }
}
