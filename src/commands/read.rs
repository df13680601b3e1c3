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
//! byte-identical to the file's line without its `\n` (a `\r` before it
//! is kept, as rg prints it; bytes that are not UTF-8 are printed as they
//! are). A line longer than 200 bytes shows its first 200 bytes (never
//! splitting a UTF-8 character), then `… [cut K of M bytes]`.
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
use crate::page::tally::cut_around;
use crate::render::style::{Painter, Role, Styled};
use crate::search::remember::memory_key;
use crate::session::{Shown, Stamp};
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
            let memory = Memory::of(settings, path);
            let shown = page_in_session(settings, &lines, &blocks, &memory.seen);
            Painter::new(settings.color, || None).write(out, &shown.text)?;
            memory.record(settings, &shown.printed);
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

/// Runs of at least this many lines the session already has collapse
/// (a shorter run costs about as much as the line saying so).
pub const MIN_COLLAPSED_LINES: u32 = 3;

/// What the session memory holds of the file being read.
struct Memory {
    /// The memory's key for the file, and its stamp now.
    file: Option<(String, Stamp)>,
    /// Line ranges the session already has of the file as it is now
    /// (1-based, inclusive); empty outside a session or with `--again`.
    seen: Vec<(u64, u64)>,
}

impl Memory {
    fn of(settings: &ReadSettings, path: &Path) -> Memory {
        let file = settings.session.as_ref().and_then(|_| {
            Some((
                memory_key(&settings.cwd, settings.path.as_bytes()),
                Stamp::read(path)?,
            ))
        });
        let seen = match (&settings.session, &file, settings.again) {
            (Some(session), Some((key, stamp)), false) => session
                .load()
                .memory
                .seen(key, *stamp)
                .map(<[_]>::to_vec)
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        Memory { file, seen }
    }

    /// Adds the printed lines to the memory (not with `--again`). A memory
    /// that cannot be written costs nothing but the memory.
    fn record(&self, settings: &ReadSettings, printed: &[(u32, u32)]) {
        let (Some(session), Some((key, stamp)), false) =
            (&settings.session, &self.file, settings.again)
        else {
            return;
        };
        let lines: Vec<u64> = printed
            .iter()
            .flat_map(|&(a, b)| u64::from(a)..=u64::from(b))
            .collect();
        if !lines.is_empty() {
            let _ = session.record(&[Shown {
                path: key.clone(),
                stamp: *stamp,
                lines,
            }]);
        }
    }
}

/// A read's text and the lines it printed in full.
pub struct ReadPage {
    pub text: Styled,
    /// Printed lines (not collapsed), 1-based inclusive ranges.
    pub printed: Vec<(u32, u32)>,
}

/// The text of the blocks, within the settings' budget (see the module
/// doc). `lines` are the file's lines; blocks are in file order.
#[cfg(test)]
fn page(settings: &ReadSettings, lines: &[&[u8]], blocks: &[Block]) -> Styled {
    page_in_session(settings, lines, blocks, &[]).text
}

/// [`page`]'s text, where runs of [`MIN_COLLAPSED_LINES`] or more lines in
/// `seen` (what the session already has, 1-based inclusive ranges)
/// collapse to one line each. The lines that fit the budget are chosen as
/// if nothing collapsed: the bytes a collapse frees are not spent.
pub fn page_in_session(
    settings: &ReadSettings,
    lines: &[&[u8]],
    blocks: &[Block],
    seen: &[(u64, u64)],
) -> ReadPage {
    let mut printed = Vec::new();
    let text = layout(settings, lines, blocks, seen, &mut printed);
    ReadPage { text, printed }
}

fn layout(
    settings: &ReadSettings,
    lines: &[&[u8]],
    blocks: &[Block],
    seen: &[(u64, u64)],
    printed: &mut Vec<(u32, u32)>,
) -> Styled {
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
        let later = match settings.budget_bytes {
            Some(_) => skipped(settings, &blocks[i + 1..]).len(),
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
            out.push_styled(Role::Frame, &skipped(settings, &blocks[i..]));
            return out;
        }
        out.append(&head);
        if seen.is_empty() {
            out.append(&body);
            printed.push((block.first, next - 1));
        } else {
            out.append(&collapsed(
                settings,
                lines,
                block.first,
                next - 1,
                seen,
                printed,
            ));
        }
        if next <= block.last {
            out.push_styled(Role::Frame, &left_out(settings, block, next));
            out.push_styled(Role::Frame, &skipped(settings, &blocks[i + 1..]));
            return out;
        }
    }
    out
}

/// Lines `first..=last`, numbered, with each run of at least
/// [`MIN_COLLAPSED_LINES`] lines in `seen` as one line:
/// `A-B: already in this session's context, unchanged (N lines): COMMAND`.
/// The lines printed in full are added to `printed`.
fn collapsed(
    settings: &ReadSettings,
    lines: &[&[u8]],
    first: u32,
    last: u32,
    seen: &[(u64, u64)],
    printed: &mut Vec<(u32, u32)>,
) -> Styled {
    let mut out = Styled::new();
    let mut at = first;
    while at <= last {
        let is_seen = |l: u32| crate::session::contains(seen, u64::from(l));
        let mut end = at;
        while end < last && is_seen(at) == is_seen(end + 1) {
            end += 1;
        }
        if is_seen(at) && end - at + 1 >= MIN_COLLAPSED_LINES {
            out.write_styled(Role::LineNumber, format_args!("{at}-{end}"));
            out.push(b": ");
            out.write_styled(
                Role::Frame,
                format_args!(
                    "already in this session's context, unchanged ({} lines): {} --again",
                    end - at + 1,
                    settings.range_command(at, end)
                ),
            );
            out.push(b"\n");
        } else {
            for number in at..=end {
                numbered_line(&mut out, number, lines[number as usize - 1]);
            }
            match printed.last_mut() {
                Some(last) if last.1 + 1 == at => last.1 = end,
                _ => printed.push((at, end)),
            }
        }
        at = end + 1;
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
            format_args!(
                "({}-{} of {})",
                block.first,
                block.last,
                crate::render::scope::plural(count as u64, "line", "lines")
            ),
        ),
    }
    out.push(b"\n");
    out
}

/// Blocks a budget accounts for one line each, at most: past them, one
/// line accounts for the rest, so that the accounting itself stays a
/// small part of the page however many definitions share the name.
const MAX_SKIPPED_LINES: usize = 3;

/// The share of the budget (1/N) the lines accounting for definitions
/// not reached may take, past the one line that sums them up.
const SKIPPED_SHARE: usize = 4;

/// The lines accounting for `blocks`, none of which is shown: one each
/// ([`left_out`]) for all of them without a budget; with one, for the
/// first few (at most [`MAX_SKIPPED_LINES`], within a
/// [`SKIPPED_SHARE`]th of it), then `+N more definitions not shown (K
/// lines, between lines A and B): scout read PATH --range A:B` for the
/// rest, A the first one's first line and B the last one's last.
fn skipped(settings: &ReadSettings, blocks: &[Block]) -> Vec<u8> {
    let each: Vec<Vec<u8>> = blocks
        .iter()
        .map(|b| left_out(settings, b, b.first))
        .collect();
    let Some(budget) = settings.budget_bytes else {
        return each.concat();
    };
    let room = budget / SKIPPED_SHARE;
    let fits = |k: usize| {
        let summary = blocks_summary(settings, &blocks[k..]).len();
        each[..k].iter().map(Vec::len).sum::<usize>() + summary <= room
    };
    let kept = if each.len() <= MAX_SKIPPED_LINES {
        each.len()
    } else {
        (0..=MAX_SKIPPED_LINES)
            .rev()
            .find(|&k| fits(k))
            .unwrap_or(0)
    };
    let mut out = each[..kept].concat();
    out.extend(blocks_summary(settings, &blocks[kept..]));
    out
}

/// One line for `blocks` (none when there are none): `+N more
/// definitions not shown (K lines, between lines A and B): COMMAND`.
fn blocks_summary(settings: &ReadSettings, blocks: &[Block]) -> Vec<u8> {
    let (Some(first), Some(last)) = (blocks.first(), blocks.last()) else {
        return Vec::new();
    };
    if blocks.len() == 1 {
        return left_out(settings, first, first.first);
    }
    let lines: u32 = blocks.iter().map(|b| b.last - b.first + 1).sum();
    let noun = if lines == 1 { "line" } else { "lines" };
    format!(
        "+{} more definitions not shown ({lines} {noun}, between lines {} and {}): {}\n",
        blocks.len(),
        first.first,
        last.last,
        settings.range_command(first.first, last.last)
    )
    .into_bytes()
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
        let whole = match &settings.tool {
            Some(call) => call.without("symbol").text(),
            None => format!(
                "scout read {}",
                crate::shell::quote(settings.path.as_bytes())
            ),
        };
        return format!(
            "no definition named {name} in {path}; scout found no definitions in it (show its lines with: {whole})\n"
        )
        .into_bytes();
    }
    let mut out = format!("no definition named {name} in {path}; its definitions:\n").into_bytes();
    let rest_command = match &settings.tool {
        Some(call) => call.with("budget_tokens", 0).text(),
        None => format!(
            "scout read {} --symbol {} --budget-tokens 0",
            crate::shell::quote(settings.path.as_bytes()),
            crate::shell::quote(name.as_bytes())
        ),
    };
    for (i, def) in defs.iter().enumerate() {
        let line = format!("{} ({}-{})\n", def.title(), def.start_line, def.end_line);
        if let Some(budget) = settings.budget_bytes {
            let left = defs.len() - i - 1;
            let reserve = if left > 0 { rest_command.len() + 40 } else { 0 };
            if i > 0 && out.len() + line.len() + reserve > budget {
                let _ = writeln!(
                    out,
                    "+{} not listed: {rest_command}",
                    crate::render::scope::plural(
                        (defs.len() - i) as u64,
                        "definition",
                        "definitions"
                    )
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
            budget_bytes: crate::page::budget_bytes(budget_tokens),
            budget_tokens,
            cache_dir: None,
            color: crate::render::style::Color::Never,
            session: None,
            again: false,
            cwd: "/r".into(),
            tool: None,
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
    fn runs_the_session_has_collapse_and_short_ones_do_not() {
        let s = settings(Selection::Whole, 1500);
        let lines: Vec<String> = (1..=10).map(|i| format!("l{i}")).collect();
        let refs: Vec<&[u8]> = lines.iter().map(|l| l.as_bytes()).collect();
        let page = page_in_session(&s, &refs, &whole(10), &[(1, 4), (7, 8)]);
        assert_eq!(
            String::from_utf8(page.text.plain().to_vec()).unwrap(),
            "src/a.rs  (1-10 of 10 lines)\n\
             1-4: already in this session's context, unchanged (4 lines): scout read src/a.rs --range 1:4 --again\n\
             5: l5\n6: l6\n7: l7\n8: l8\n9: l9\n10: l10\n"
        );
        assert_eq!(page.printed, [(5, 10)]);
    }

    #[test]
    fn collapsing_frees_no_budget_for_more_lines() {
        let s = settings(Selection::Whole, 50);
        let lines: Vec<String> = (1..=100).map(|i| format!("line number {i}")).collect();
        let refs: Vec<&[u8]> = lines.iter().map(|l| l.as_bytes()).collect();
        let plain = String::from_utf8(page(&s, &refs, &whole(100)).plain().to_vec()).unwrap();
        let again = page_in_session(&s, &refs, &whole(100), &[(1, 100)]);
        let again = String::from_utf8(again.text.plain().to_vec()).unwrap();
        assert_eq!(
            plain.lines().last(),
            again.lines().last(),
            "{plain}\n{again}"
        );
        assert_eq!(again.lines().count(), 3, "{again}");
    }

    #[test]
    fn a_whole_small_file_is_numbered_under_one_header() {
        let s = settings(Selection::Whole, 1500);
        let text = page(&s, &[b"fn a() {", b"}"], &whole(2)).plain().to_vec();
        assert_eq!(text, b"src/a.rs  (1-2 of 2 lines)\n1: fn a() {\n2: }\n");
    }

    #[test]
    fn a_long_line_keeps_its_first_200_bytes_and_says_what_was_cut() {
        let s = settings(Selection::Whole, 0);
        let long = "x".repeat(50_000);
        let text =
            String::from_utf8(page(&s, &[long.as_bytes()], &whole(1)).plain().to_vec()).unwrap();
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
        let text = String::from_utf8(page(&s, &refs, &whole(100)).plain().to_vec()).unwrap();
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
        let text = String::from_utf8(page(&s, &[b"a", b"b"], &whole(2)).plain().to_vec()).unwrap();
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
        let text = String::from_utf8(page(&s, &refs, &blocks).plain().to_vec()).unwrap();
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
    fn many_definitions_not_reached_are_accounted_for_within_the_budget() {
        let s = settings(Selection::Symbol("f".into()), 100);
        let lines: Vec<String> = (1..=200).map(|i| format!("body {i}")).collect();
        let refs: Vec<&[u8]> = lines.iter().map(|l| l.as_bytes()).collect();
        let blocks: Vec<Block> = (0..12)
            .map(|k| def_block(&format!("Type{k}.f"), 1 + 15 * k, 10 + 15 * k))
            .collect();
        let text = String::from_utf8(page(&s, &refs, &blocks).plain().to_vec()).unwrap();
        assert!(text.len() <= 100 * 4, "{} bytes\n{text}", text.len());
        // Every definition is accounted for: one line each, then one for
        // the rest.
        let each = text
            .lines()
            .filter(|l| l.contains(" not shown (function "))
            .count();
        let last = text.lines().last().unwrap();
        let shown = text
            .lines()
            .filter(|l| l.starts_with("src/a.rs  function"))
            .count();
        let rest = 12 - shown - each;
        let first = 1 + 15 * (12 - rest as u32);
        assert_eq!(
            last,
            format!(
                "+{rest} more definitions not shown ({} lines, between lines {first} and 175): scout read src/a.rs --range {first}:175 --budget-tokens 100",
                10 * rest
            ),
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
