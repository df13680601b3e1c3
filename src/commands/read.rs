//! `scout read`: one definition or a line range of one file, numbered.
//!
//! ```text
//! src/cli.rs  function parse_args (120-188)
//! 120: pub fn parse_args(argv: &[String]) -> Args {
//! 121:     let mut args = Args::default();
//! 122: …
//! ```
//!
//! Each block of lines opens with a header: `PATH  KIND NAME (A-B)` for a
//! definition (`--symbol`; one block per definition with that name, in
//! file order; `PATH  KIND NAME (A-B), comments and attributes from C`
//! when the comments, attributes or decorators right above it, from line
//! C, are shown with it), `PATH  (A-B of N lines)` for `--range` or the whole file
//! (`PATH  (0 lines)` for an empty file). PATH is the FILE as typed, KIND
//! a definition kind (`function`, `method`, `class`, ...), A-B 1-based and
//! inclusive. Then one `LINE: TEXT` line per line, not indented, TEXT
//! byte-identical to the file's line without its terminator (`\n` or
//! `\r\n`; bytes that are not UTF-8 are printed as they are). A line
//! longer than 200 bytes shows its first 200 bytes (never splitting a
//! UTF-8 character), then `… [cut K of M bytes]`.
//!
//! When the output would pass the budget (`--budget-tokens`, bytes / 4),
//! whole lines are shown while they fit (at least one), and every line
//! left out is accounted for, one line per block:
//! `+K lines not shown: scout read PATH --range X:Y` for the rest of the
//! block that was cut, `+K lines not shown (KIND NAME): scout read PATH
//! --range X:Y` for each definition not reached.
//!
//! With colour on, the path, the definition heading, the line numbers and
//! the lines saying what was left out are coloured as on a search page
//! ([`crate::render::style`]).
//!
//! `--symbol` with no match exits 1 and prints, instead,
//! `no definition named NAME in PATH; its definitions:` then one
//! `KIND NAME (A-B)` per definition in file order (cut at the budget with
//! `+K definitions not listed: ...`).

use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use anyhow::Result;

use crate::defs::cache::DefsCache;
use crate::defs::Def;
use crate::exit::ExitStatus;
use crate::lang::Lang;
use crate::render::style::{Painter, Role, Styled};
use crate::search::fold::cut_around;
use crate::views::read::{self, Block, ReadSettings, Selected, Selection};

/// Reads the file and writes the selected lines to `out`.
pub fn run(settings: &ReadSettings, out: &mut dyn Write) -> Result<ExitStatus> {
    let path = Path::new(&settings.path);
    let path_bytes = settings.path.as_bytes();
    let source = read::load(path)?;
    let lines = read::split_lines(&source);
    let count = u32::try_from(lines.len()).unwrap_or(u32::MAX);
    let (defs, lang) = match &settings.selection {
        Selection::Symbol(_) => {
            let lang =
                read::ensure_parsable(path_bytes, Lang::from_path(path_bytes), source.len())?;
            (
                DefsCache::new(settings.cache_dir.clone()).defs(path, lang),
                Some(lang),
            )
        }
        Selection::Whole | Selection::Range(_) => (Vec::new(), None),
    };
    match read::select(&settings.selection, count, &defs, path_bytes)? {
        Selected::Blocks(mut blocks) => {
            if let Some(lang) = lang {
                let mut above = 0;
                for block in &mut blocks {
                    block.first = read::lead_in(&lines, block.first, lang).max(above + 1);
                    above = block.last;
                }
            }
            Painter::new(settings.color, || None).write(out, &page(settings, &lines, &blocks))?;
            Ok(ExitStatus::Shown)
        }
        Selected::NoSymbol(defs) => {
            let name = match &settings.selection {
                Selection::Symbol(name) => name.as_str(),
                Selection::Whole | Selection::Range(_) => "",
            };
            out.write_all(&listing(settings, name, &defs))?;
            Ok(ExitStatus::NoMatch)
        }
    }
}

/// The text of the blocks, within the settings' budget (see the module
/// doc). `lines` are the file's lines; blocks are in file order.
pub fn page(settings: &ReadSettings, lines: &[&[u8]], blocks: &[Block]) -> Styled {
    let mut out = Styled::new();
    if blocks.is_empty() {
        out.push_styled(Role::Path, settings.path.as_bytes());
        out.push(b"  ");
        out.push_styled(Role::Frame, b"(0 lines)");
        out.push(b"\n");
        return out;
    }
    let count = lines.len();
    for (i, block) in blocks.iter().enumerate() {
        // Room is kept for the lines accounting for later blocks, in case
        // none of them fits.
        let later: usize = match settings.budget_bytes {
            Some(_) => blocks[i + 1..]
                .iter()
                .map(|b| left_out(settings, b, b.first).len())
                .sum(),
            None => 0,
        };
        let head = header(settings, block, count);
        let mut body = Styled::new();
        let mut next = block.first;
        while next <= block.last {
            let mut line = Styled::new();
            numbered_line(&mut line, next, lines[next as usize - 1]);
            if let Some(budget) = settings.budget_bytes {
                let rest = if next < block.last {
                    left_out(settings, block, next + 1).len()
                } else {
                    0
                };
                let total = out.len() + head.len() + body.len() + line.len() + rest + later;
                let first_line = out.is_empty() && body.is_empty();
                if total > budget && !first_line {
                    break;
                }
            }
            body.append(&line);
            next += 1;
        }
        if next == block.first {
            for skipped in &blocks[i..] {
                out.push_styled(Role::Frame, &left_out(settings, skipped, skipped.first));
            }
            return out;
        }
        out.append(&head);
        out.append(&body);
        if next <= block.last {
            out.push_styled(Role::Frame, &left_out(settings, block, next));
            for skipped in &blocks[i + 1..] {
                out.push_styled(Role::Frame, &left_out(settings, skipped, skipped.first));
            }
            return out;
        }
    }
    out
}

/// `PATH  KIND NAME (A-B)` or `PATH  (A-B of N lines)`, with its newline.
fn header(settings: &ReadSettings, block: &Block, count: usize) -> Styled {
    let mut out = Styled::new();
    out.push_styled(Role::Path, settings.path.as_bytes());
    out.push(b"  ");
    match &block.def {
        Some(def) if block.first < def.start_line => {
            out.write_styled(
                Role::Heading,
                format_args!("{} ({}-{})", def.title(), def.start_line, block.last),
            );
            let _ = write!(out, ", comments and attributes from {}", block.first);
        }
        Some(def) => out.write_styled(
            Role::Heading,
            format_args!("{} ({}-{})", def.title(), block.first, block.last),
        ),
        None => out.write_styled(
            Role::Frame,
            format_args!("({}-{} of {count} lines)", block.first, block.last),
        ),
    }
    out.push(b"\n");
    out
}

/// The line accounting for lines `from..=block.last` not shown, with the
/// command that shows them.
fn left_out(settings: &ReadSettings, block: &Block, from: u32) -> Vec<u8> {
    let lines = block.last - from + 1;
    let command = settings.range_command(from, block.last);
    let what = match &block.def {
        Some(def) if from == block.first => format!(" ({})", def.title()),
        _ => String::new(),
    };
    let noun = if lines == 1 { "line" } else { "lines" };
    format!("+{lines} {noun} not shown{what}: {command}\n").into_bytes()
}

/// Writes `LINE: TEXT`, TEXT cut to its first 200 bytes with a marker.
fn numbered_line(out: &mut Styled, number: u32, line: &[u8]) {
    let (text, _, cut) = cut_around(line, (0, 0));
    out.write_styled(Role::LineNumber, format_args!("{number}"));
    out.push(b": ");
    out.push(text);
    if cut > 0 {
        out.push("… ".as_bytes());
        out.write_styled(
            Role::Frame,
            format_args!("[cut {cut} of {} bytes]", line.len()),
        );
    }
    out.push(b"\n");
}

/// What `--symbol NAME` prints when nothing has that name: the file's
/// definitions, within the budget.
pub fn listing(settings: &ReadSettings, name: &str, defs: &[Def]) -> Vec<u8> {
    let path = String::from_utf8_lossy(settings.path.as_bytes());
    if defs.is_empty() {
        return format!(
            "no definition named {name} in {path}; scout found no definitions in it (show its lines with: scout read {})\n",
            crate::shell::quote(settings.path.as_bytes())
        )
        .into_bytes();
    }
    let mut out = format!("no definition named {name} in {path}; its definitions:\n").into_bytes();
    let rest_command = format!(
        "scout read {} --symbol {} --budget-tokens 0",
        crate::shell::quote(settings.path.as_bytes()),
        crate::shell::quote(name.as_bytes())
    );
    for (i, def) in defs.iter().enumerate() {
        let line = format!("{} ({}-{})\n", def.title(), def.start_line, def.end_line);
        if let Some(budget) = settings.budget_bytes {
            let left = defs.len() - i - 1;
            let reserve = if left > 0 { rest_command.len() + 40 } else { 0 };
            if i > 0 && out.len() + line.len() + reserve > budget {
                let _ = writeln!(
                    out,
                    "+{} definitions not listed: {rest_command}",
                    defs.len() - i
                );
                return out;
            }
        }
        out.extend_from_slice(line.as_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::defs::DefKind;
    use crate::views::read::LineRange;

    fn settings(selection: Selection, budget_tokens: u64) -> ReadSettings {
        ReadSettings {
            path: "src/a.rs".into(),
            selection,
            budget_bytes: (budget_tokens > 0).then_some(budget_tokens as usize * 4),
            budget_tokens,
            cache_dir: None,
            color: crate::render::style::Color::Never,
        }
    }

    fn whole(count: u32) -> Vec<Block> {
        vec![Block {
            first: 1,
            last: count,
            def: None,
        }]
    }

    fn def_block(name: &str, first: u32, last: u32) -> Block {
        Block {
            first,
            last,
            def: Some(Def {
                kind: DefKind::Function,
                name: name.into(),
                short: name.into(),
                start_line: first,
                end_line: last,
                name_line: first,
            }),
        }
    }

    #[test]
    fn a_whole_small_file_is_numbered_under_one_header() {
        let s = settings(Selection::Whole, 1500);
        let text = page(&s, &[b"fn a() {", b"}"], &whole(2)).into_plain();
        assert_eq!(text, b"src/a.rs  (1-2 of 2 lines)\n1: fn a() {\n2: }\n");
    }

    #[test]
    fn a_long_line_keeps_its_first_200_bytes_and_says_what_was_cut() {
        let s = settings(Selection::Whole, 0);
        let long = "x".repeat(50_000);
        let text = String::from_utf8(page(&s, &[long.as_bytes()], &whole(1)).into_plain()).unwrap();
        let line = text.lines().nth(1).unwrap();
        assert_eq!(
            line,
            format!("1: {}… [cut 49800 of 50000 bytes]", "x".repeat(200))
        );
    }

    #[test]
    fn past_the_budget_the_rest_is_one_exact_command() {
        let s = settings(
            Selection::Range(LineRange {
                start: Some(1),
                end: None,
            }),
            50,
        );
        let lines: Vec<String> = (1..=100).map(|i| format!("line number {i}")).collect();
        let refs: Vec<&[u8]> = lines.iter().map(|l| l.as_bytes()).collect();
        let text = String::from_utf8(page(&s, &refs, &whole(100)).into_plain()).unwrap();
        assert!(text.len() <= 200, "{text}");
        let last = text.lines().last().unwrap();
        let shown = text.lines().count() - 2;
        assert_eq!(
            last,
            format!(
                "+{} lines not shown: scout read src/a.rs --range {}:100 --budget-tokens 50",
                100 - shown,
                shown + 1
            )
        );
    }

    #[test]
    fn at_least_one_line_is_shown_however_small_the_budget() {
        let s = settings(Selection::Whole, 1);
        let text = String::from_utf8(page(&s, &[b"a", b"b"], &whole(2)).into_plain()).unwrap();
        assert_eq!(
            text,
            "src/a.rs  (1-2 of 2 lines)\n1: a\n+1 line not shown: scout read src/a.rs --range 2:2 --budget-tokens 1\n"
        );
    }

    #[test]
    fn definitions_not_reached_are_named_with_their_command() {
        let s = settings(Selection::Symbol("f".into()), 30);
        let lines: Vec<String> = (1..=40).map(|i| format!("body {i}")).collect();
        let refs: Vec<&[u8]> = lines.iter().map(|l| l.as_bytes()).collect();
        let blocks = [def_block("f", 1, 20), def_block("g.f", 30, 40)];
        let text = String::from_utf8(page(&s, &refs, &blocks).into_plain()).unwrap();
        let tail: Vec<&str> = text.lines().rev().take(2).collect();
        assert_eq!(
            tail[0],
            "+11 lines not shown (function g.f): scout read src/a.rs --range 30:40 --budget-tokens 30"
        );
        assert!(
            tail[1].starts_with("+") && tail[1].ends_with(":20 --budget-tokens 30"),
            "{text}"
        );
        assert!(
            text.starts_with("src/a.rs  function f (1-20)\n1: body 1\n"),
            "{text}"
        );
    }

    #[test]
    fn an_unknown_symbol_lists_the_definitions_within_the_budget() {
        let s = settings(Selection::Symbol("nope".into()), 1500);
        let defs: Vec<Def> = [def_block("a", 1, 2), def_block("b", 3, 9)]
            .into_iter()
            .map(|b| b.def.unwrap())
            .collect();
        assert_eq!(
            String::from_utf8(listing(&s, "nope", &defs)).unwrap(),
            "no definition named nope in src/a.rs; its definitions:\nfunction a (1-2)\nfunction b (3-9)\n"
        );
        let many: Vec<Def> = (0..500u32)
            .map(|i| def_block(&format!("f{i}"), i + 1, i + 1).def.unwrap())
            .collect();
        let text = String::from_utf8(listing(&s, "nope", &many)).unwrap();
        assert!(text.len() <= 6000, "{}", text.len());
        assert!(text.ends_with(
            "definitions not listed: scout read src/a.rs --symbol nope --budget-tokens 0\n"
        ));
    }
}
