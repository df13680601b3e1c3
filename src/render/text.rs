//! The text page.
//!
//! ```text
//! query: useState  kind=literal  hits=1442 files=214  shown=31 page=1/7  ~1420tok 24ms
//! src/hooks/use-state.ts  (18x) [def]
//!   function useState (12-40)
//!     12: export function useState<S>(initial: S) {
//!   44: …text around the match… [cut 340 of 540 bytes]
//! src/app.ts  (3x): 2 already shown, unchanged
//!   seen 8: const [rows, setRows] = useState<Row[…
//!   seen 19: const [open, setOpen] = useSt…
//! +207 files not shown: scout search useState --page 2
//! +1398 lines not quoted in these files: rg -n --no-heading -F -e useState FILE
//! note: 4 more files define it, on other pages: a.ts:3, b.ts:10, c.ts:7, d.ts:1
//! repro: rg -n --no-heading -F -e useState
//! ```
//!
//! A file header is `PATH  (Nx)` with ` [def]` when the file defines the
//! queried name and ` [binary]` when rg found it binary (its lines are not
//! quoted, since rg altered them); inside an agent session it ends with the
//! count of lines already shown, collapsed, and the first
//! [`SEEN_LISTED`] of them follow as `seen LINE: TEXT…`, their text cut
//! short. Quoted lines stand under the heading of
//! their innermost enclosing definition of more than one line
//! (`KIND NAME (A-B)`), or under the file alone: a one-line definition is
//! its own quoted line. A quoted line is `LINE: TEXT`, TEXT byte-identical
//! to the file's line without its terminator; a line longer than 200 bytes is cut
//! around its match, `…` standing where bytes were cut and
//! ` [cut K of M bytes]` after it (invariant I4). Everything after the
//! files is footer: what was left out and how to see it. The note names
//! definitions on other pages as `path:line`; when they are too many for
//! the note's room ([`NOTE_MAX_BYTES`] at most), it names every file that defines the name as brace
//! expressions instead ([`braces`]), if they fit:
//!
//! ```text
//! note: 592 more files define it, on other pages; all 618 that do: ./sys/src/{arm,x86}/{general,net}.rs, …
//! ```
//!
//! Attached code
//! (`code: PATH  KIND NAME (A-B)`, then `LINE: TEXT`) is rendered by
//! [`code`] and follows the page.
//!
//! Pages are written as [`Styled`] text: the header and footer, paths,
//! headings, line numbers and quoted text carry a [`Role`], which only
//! [`super::style::Painter`] turns into colour as the page is written.
//! Every size here (the budget's reserve, [`file_block_len`], the token
//! estimate) is of the plain bytes.

use std::io::Write;

use super::scope::plural;
use super::style::{Role, Styled};
use super::{braces, Code, Report};
use crate::defs::Def;
use crate::page::group::group;
use crate::page::tally::{FileTally, Quote, Score};
use crate::page::{chosen_quotes, tokens};

/// Bytes the footer's note may spend naming definitions on other pages,
/// at most (about 250 tokens): enough to name a few dozen. A page's note
/// room is less where its budget is small (a quarter of it).
pub const NOTE_MAX_BYTES: usize = 1000;

/// Joins `items` (text, paths it names) with `, ` while they fit in
/// `room` bytes (the first always does); returns the text and the number
/// of paths named.
fn within_note<'a>(
    items: impl Iterator<Item = (&'a [u8], usize)>,
    room: usize,
) -> (Vec<u8>, usize) {
    let mut text = Vec::new();
    let mut named = 0;
    for (item, paths) in items {
        if named > 0 && text.len() + item.len() + 2 > room {
            break;
        }
        if named > 0 {
            text.extend_from_slice(b", ");
        }
        text.extend_from_slice(item);
        named += paths;
    }
    (text, named)
}

/// `path:line` of a file's first definition line (or the path alone).
fn def_place(tally: &FileTally) -> Vec<u8> {
    let mut place = tally.path.clone();
    if let Some(line) = tally.quotes.iter().filter(|q| q.def).map(|q| q.line).min() {
        place.extend_from_slice(format!(":{line}").as_bytes());
    }
    place
}

/// Bytes a page's body is given room for at first: a page of the default
/// budget (1,500 tokens) is about 6 KB, and growing it from nothing took
/// a dozen copies.
const PAGE_CAPACITY: usize = 8 * 1024;

/// One file on a page, as the text page shows it.
#[derive(Debug, Clone, Copy)]
pub struct Block<'a> {
    pub tally: &'a FileTally,
    pub score: &'a Score,
    /// Lines chosen for the file (quoted, or collapsed when seen).
    pub lines: usize,
    /// `--explain`.
    pub explain: bool,
    /// The file's definitions, for headings (empty: no grouping).
    pub defs: &'a [Def],
    /// Chosen lines the session was already shown from this unchanged
    /// file: collapsed, and listed as `listing` says.
    pub seen: &'a [u64],
    pub listing: Listing,
}

/// How a block lists the lines it collapsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listing {
    /// At most `lines` of them by number and text, the text cut after
    /// `bytes`; a count of the rest.
    Lines { lines: usize, bytes: usize },
    /// Their numbers alone, on the file's line.
    Numbers,
}

/// The listings a collapsed block tries, richest first: the first that
/// makes the block smaller than it was when its lines were quoted is
/// used, so that a repeated search comes out smaller than the first.
const LISTINGS: [Listing; 4] = [
    Listing::Lines {
        lines: SEEN_LISTED,
        bytes: SEEN_TEXT_BYTES,
    },
    Listing::Lines {
        lines: SEEN_LISTED,
        bytes: SEEN_TEXT_BYTES / 2,
    },
    Listing::Lines {
        lines: 3,
        bytes: SEEN_TEXT_BYTES / 2,
    },
    Listing::Numbers,
];

/// Writes one file's block: header, optional score, the chosen lines
/// grouped under their enclosing definitions, and the lines already shown
/// collapsed into one line.
pub fn file_block(out: &mut Styled, block: &Block<'_>) {
    let tally = block.tally;
    out.push_styled(Role::Path, &tally.path);
    out.push(b"  (");
    out.push_decimal(tally.hits);
    out.push(b"x)");
    if tally.def_lines > 0 {
        out.push(b" [def]");
    }
    if tally.binary {
        out.push(b" [binary]");
    }
    let (seen, quotes): (Vec<&Quote>, Vec<&Quote>) = chosen_quotes(tally, block.lines)
        .into_iter()
        .partition(|q| block.seen.contains(&q.line));
    if !block.seen.is_empty() {
        let sep = if quotes.is_empty() { ":" } else { "\n  " };
        let _ = write!(out, "{sep} {} already shown, unchanged", block.seen.len());
        match block.listing {
            Listing::Lines { lines, bytes } => seen_lines(out, seen, lines, bytes),
            Listing::Numbers => {
                out.push(b":");
                for (i, line) in block.seen.iter().enumerate() {
                    let _ = write!(out, "{}{line}", if i == 0 { " " } else { ", " });
                }
            }
        }
    }
    out.push(b"\n");
    if block.explain {
        let _ = write!(out, "  score {}:", block.score.total);
        for (i, (signal, points)) in block.score.signals.iter().enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            let _ = write!(out, "{sep}{signal} {points:+}");
        }
        out.push(b"\n");
    }
    if block.defs.is_empty() {
        // No definitions, no headings: the lines are one group, in order
        // (what `group` would make of them, without its vectors). Every
        // block is laid out so before its file is parsed.
        for quote in quotes {
            quote_line(out, "  ", quote);
        }
        return;
    }
    for g in group(&quotes, block.defs) {
        let indent = match g.def {
            Some(def) => {
                out.push(b"  ");
                heading(out, def);
                out.push(b"\n");
                "    "
            }
            None => "  ",
        };
        for quote in g.quotes {
            quote_line(out, indent, quote);
        }
    }
}

/// Lines already shown that a collapsed block lists by number and text,
/// at most: enough for an agent to place what it saw without
/// searching for it again.
pub const SEEN_LISTED: usize = 8;

/// Bytes of a listed line's text at most: its start, by which an agent
/// places it, and far less than a quote's 200, so that a repeated search
/// comes out smaller than the first.
pub const SEEN_TEXT_BYTES: usize = 48;

/// After a collapsed block's `N already shown, unchanged`: the first
/// `listed` of those lines, each `  seen LINE: TEXT` (TEXT the line
/// without its indentation, cut after `bytes` at a character boundary,
/// `…` where anything was cut), then `  +K more already shown` for the
/// rest. No line end after the last.
fn seen_lines(out: &mut Styled, mut seen: Vec<&Quote>, listed: usize, bytes: usize) {
    seen.sort_by_key(|q| q.line);
    let total = seen.len();
    for quote in seen.iter().take(listed) {
        out.push(b"\n  seen ");
        out.write_styled(Role::LineNumber, format_args!("{}", quote.line));
        out.push(b": ");
        let text = quote.text.trim_ascii();
        let cut = bytes < text.len() || quote.cut_after > 0;
        let mut end = bytes.min(text.len());
        while end > 0 && end < text.len() && (text[end] & 0xC0) == 0x80 {
            end -= 1;
        }
        let start = out.len();
        if quote.cut_before > 0 {
            out.push("…".as_bytes());
        }
        out.push(&text[..end]);
        if cut {
            out.push("…".as_bytes());
        }
        out.style_from(start, Role::Quote);
    }
    if total > listed {
        let _ = write!(out, "\n  +{} more already shown", total - listed);
    }
}

/// Writes a definition's heading, `KIND NAME (A-B)`, without a line end.
pub(crate) fn heading(out: &mut Styled, def: &Def) {
    let start = out.len();
    if let Some(label) = def.title_label() {
        out.push(label.as_bytes());
        out.push(b" ");
    }
    out.push(def.name.as_bytes());
    out.push(b" (");
    out.push_decimal(u64::from(def.start_line));
    out.push(b"-");
    out.push_decimal(u64::from(def.end_line));
    out.push(b")");
    out.style_from(start, Role::Heading);
}

/// Writes `INDENT LINE: TEXT`, with the cut marker when the line was cut;
/// a structural match over several lines is `INDENT FIRST-LAST: TEXT`,
/// TEXT its first line.
pub fn quote_line(out: &mut Styled, indent: &str, quote: &Quote) {
    out.push(indent.as_bytes());
    if quote.last_line > quote.line {
        out.write_styled(
            Role::LineNumber,
            format_args!("{}-{}", quote.line, quote.last_line),
        );
    } else {
        let start = out.len();
        out.push_decimal(quote.line);
        out.style_from(start, Role::LineNumber);
    }
    out.push(b": ");
    quote_text(out, quote);
}

/// Writes a quote's `TEXT` and its line end: `…` where bytes were cut,
/// then ` [cut K of M bytes]`.
pub fn quote_text(out: &mut Styled, quote: &Quote) {
    if quote.cut_before > 0 {
        out.push("…".as_bytes());
    }
    out.push_styled(Role::Quote, &quote.text);
    if quote.cut_after > 0 {
        out.push("…".as_bytes());
    }
    if quote.cut_bytes() > 0 {
        let full = quote.text.len() + quote.cut_bytes();
        out.push(b" ");
        out.write_styled(
            Role::Frame,
            format_args!("[cut {} of {full} bytes]", quote.cut_bytes()),
        );
    }
    out.push(b"\n");
}

/// The bytes of a file block, as [`file_block`] would write it.
pub fn file_block_len(tally: &FileTally, score: &Score, lines: usize, explain: bool) -> usize {
    let mut scratch = Styled::with_capacity(256);
    let block = Block {
        tally,
        score,
        lines,
        explain,
        defs: &[],
        seen: &[],
        listing: Listing::Numbers,
    };
    file_block(&mut scratch, &block);
    scratch.len()
}

/// Chooses each collapsed block's listing ([`LISTINGS`]): the richest
/// that makes the block smaller than it is with its lines quoted; then,
/// while the page as a whole would not come out smaller than the page
/// that quoted them (its header grows), the last blocks list numbers
/// only.
fn choose_listings(blocks: &mut [Block<'_>], collapsed: u64) {
    // The header grows by ` already_shown=N` (and a digit of its token
    // estimate, at most); `shown=` loses digits, if anything.
    let header_grows = format!(" already_shown={collapsed}").len() as i64 + 1;
    let len = |block: &Block<'_>| {
        let mut scratch = Styled::with_capacity(512);
        file_block(&mut scratch, block);
        scratch.len()
    };
    // Bytes saved over the quoted page, and what each block would save
    // more by listing numbers alone.
    let mut saved = 0;
    let mut further = vec![0; blocks.len()];
    for (i, block) in blocks.iter_mut().enumerate() {
        if block.seen.is_empty() {
            continue;
        }
        let quoted = len(&Block {
            seen: &[],
            ..*block
        });
        let numbers = len(&Block {
            listing: Listing::Numbers,
            ..*block
        });
        let (listing, size) = LISTINGS
            .iter()
            .map(|&listing| (listing, len(&Block { listing, ..*block })))
            .find(|&(_, size)| size < quoted)
            .unwrap_or((Listing::Numbers, numbers));
        block.listing = listing;
        saved += quoted as i64 - size as i64;
        further[i] = size as i64 - numbers as i64;
    }
    for (block, more) in blocks.iter_mut().zip(further).rev() {
        if saved > header_grows {
            break;
        }
        if block.listing != Listing::Numbers {
            block.listing = Listing::Numbers;
            saved += more;
        }
    }
}

/// The footer lines of a page (everything after the file blocks), and
/// the bytes its commands take beyond the footer's room (negative: less):
/// the page weighed with every command at that room is the same on every
/// surface.
fn footer(report: &Report<'_>) -> (Vec<u8>, isize) {
    let mut out = Vec::new();
    let mut beyond = 0;
    let mut weigh = |command: String| {
        beyond += command.len() as isize - report.footer_room as isize;
        command
    };
    let omitted = &report.omitted;
    let pages = report.pages.len();
    if omitted.files > 0 {
        if report.page < pages {
            let _ = writeln!(
                out,
                "+{} not shown: {}",
                plural(omitted.files as u64, "file", "files"),
                weigh(report.page_command(report.page + 1))
            );
        } else {
            let _ = writeln!(
                out,
                "+{} on earlier pages: {}",
                plural(omitted.files as u64, "file", "files"),
                weigh(report.page_command(1))
            );
        }
    }
    if omitted.lines > 0 && !report.files_only {
        let _ = writeln!(
            out,
            "+{} not quoted in these files: {}",
            plural(omitted.lines, "line", "lines"),
            weigh(report.file_command_shown())
        );
    }
    if !omitted.def_files.is_empty() {
        let places: Vec<Vec<u8>> = omitted
            .def_files
            .iter()
            .map(|&i| def_place(&report.ranked[i].tally))
            .collect();
        let total = places.len();
        let room = report.note_room;
        let (mut names, mut named) = within_note(places.iter().map(|p| (&p[..], 1)), room);
        let mut everyone = None;
        if named < total {
            // Too many to name one by one. As brace expressions, without
            // their lines, they may all fit: generated files fall into
            // rectangles, the more regular with this page's files kept in.
            let defining: Vec<&[u8]> = report
                .ranked
                .iter()
                .filter(|r| r.tally.def_lines > 0)
                .map(|r| &r.tally.path[..])
                .collect();
            let fits = |paths: &[&[u8]]| {
                braces::compress(paths)
                    .map(|exprs| within_note(exprs.iter().map(|e| (&e.text[..], e.paths)), room))
            };
            if let Some((text, count)) = fits(&defining).filter(|f| f.1 == defining.len()) {
                (names, everyone) = (text, Some(count));
            } else {
                let others: Vec<&[u8]> = omitted
                    .def_files
                    .iter()
                    .map(|&i| &report.ranked[i].tally.path[..])
                    .collect();
                if let Some((text, count)) = fits(&others).filter(|f| f.1 > named) {
                    (names, named) = (text, count);
                }
            }
        }
        let more = match total {
            1 => "1 more file defines".to_string(),
            n => format!("{n} more files define"),
        };
        match everyone {
            Some(all) => {
                let _ = write!(out, "note: {more} it, on other pages; all {all} that do: ");
                out.extend_from_slice(&names);
            }
            None => {
                let _ = write!(out, "note: {more} it, on other pages: ");
                out.extend_from_slice(&names);
                if named < total {
                    let _ = write!(out, " (+{} more)", total - named);
                }
            }
        }
        out.push(b'\n');
    }
    out.extend_from_slice(report.scope_text.as_bytes());
    let _ = writeln!(out, "repro: {}", report.repro);
    (out, beyond)
}

/// What the header and footer of a page are made of, known before layout.
#[derive(Debug)]
pub struct Frame<'a> {
    pub query: &'a str,
    pub fallback: Option<&'a str>,
    pub repro: &'a str,
    /// Bytes each footer command may take (the search's footer room).
    pub room: usize,
    /// Bytes the note naming definitions on other pages may take.
    pub note_room: usize,
    /// Paths of the files holding a definition, in rank order.
    pub def_paths: Vec<&'a [u8]>,
    /// A structural search: its header is longer.
    pub structural: bool,
    /// `--callers-of`, `--impact`: the scope's lines ([`super::scope::text`]).
    pub scope: &'a str,
    /// The definitions a qualified name names, shown before the files.
    pub definitions: &'a [Code],
}

/// Bytes the header and footer of any page take at most (numbers counted
/// at 20 digits), reserved before file blocks are laid out.
pub fn reserve(frame: &Frame<'_>) -> usize {
    const NUMBERS: usize = 20;
    let header = "query:   kind=literal  hits= files=  shown= page=/  ~tok ms\n".len()
        + definitions(frame.definitions).len()
        + super::shortened(frame.query).len()
        + 7 * NUMBERS
        + frame.fallback.map_or(0, |f| f.len() + "fallback: \n".len())
        + if frame.structural {
            "kind=structural lang=javascript  matches= parsed=".len() + NUMBERS
        } else {
            0
        };
    // Room for the count of files and the page number.
    let next = "+ files on earlier pages: \n".len() + frame.room + 2 * NUMBERS;
    let lines = "+ lines not quoted in these files: \n".len() + frame.room + NUMBERS;
    let note = if frame.def_paths.is_empty() {
        0
    } else {
        let places: usize = frame.def_paths.iter().map(|p| p.len() + 2 + NUMBERS).sum();
        "note:  more files define it, on other pages: (+ more)\n".len()
            + 2 * NUMBERS
            + places.min(frame.note_room + 200)
    };
    let repro = "repro: \n".len() + frame.repro.len();
    header + next + lines + note + frame.scope.len() + repro
}

/// The header lines. `elapsed_ms: None` leaves the time out, for the
/// token estimate: the estimate must not depend on how long the search
/// took, or identical searches would differ in more than the time.
fn header(report: &Report<'_>, tokens_estimate: usize, elapsed_ms: Option<u64>) -> Vec<u8> {
    let mut out = Vec::new();
    if let Some(structural) = report.structural {
        let _ = writeln!(
            out,
            "query: {}  kind=structural lang={}  matches={} files={} parsed={}  shown={}{} page={}/{}  ~{}tok{}",
            super::shortened(&report.query.text),
            structural.lang.name(),
            report.matches,
            report.ranked.len(),
            structural.parsed,
            report.shown(),
            match report.already_shown() {
                0 => String::new(),
                n => format!(" already_shown={n}"),
            },
            report.page,
            report.pages.len(),
            tokens_estimate,
            elapsed_ms.map_or(String::new(), |ms| format!(" {ms}ms")),
        );
        return out;
    }
    let _ = writeln!(
        out,
        "query: {}  kind={}  hits={} files={}  shown={}{} page={}/{}  ~{}tok{}",
        super::shortened(&report.query.text),
        report.query.kind.name(),
        report.hits,
        report.ranked.len(),
        report.shown(),
        match report.already_shown() {
            0 => String::new(),
            n => format!(" already_shown={n}"),
        },
        report.page,
        report.pages.len(),
        tokens_estimate,
        elapsed_ms.map_or(String::new(), |ms| format!(" {ms}ms")),
    );
    if let Some(fallback) = &report.fallback {
        let _ = writeln!(out, "fallback: {fallback}");
    }
    out
}

/// A rendered page and its size in estimated tokens.
#[derive(Debug)]
pub struct Page {
    /// The page; its plain bytes are what the budget and the estimate
    /// count.
    pub text: Styled,
    /// Estimated tokens of the page without its elapsed time (so that it
    /// is the same for identical searches).
    pub tokens: usize,
    /// The page's bytes as the budget weighs them: without its elapsed
    /// time, its estimate at [`ESTIMATE_DIGITS`] digits (or more) and each footer
    /// command at the footer's room, at least its plain bytes and the
    /// same on every surface.
    pub weight: usize,
}

/// Digits the budget weighs a page's token estimate at.
pub const ESTIMATE_DIGITS: usize = 6;

/// Renders the whole page.
pub fn page(report: &Report<'_>) -> Page {
    let mut body = Styled::with_capacity(PAGE_CAPACITY);
    let mut blocks: Vec<Block<'_>> = report
        .span()
        .slots
        .iter()
        .enumerate()
        .map(|(i, slot)| {
            let ranked = &report.ranked[slot.file];
            Block {
                tally: &ranked.tally,
                score: &ranked.score,
                lines: if report.files_only { 0 } else { slot.lines },
                explain: report.explain,
                defs: report.defs.get(i).map_or(&[][..], |d| &d[..]),
                seen: report.seen.get(i).map_or(&[][..], |d| &d[..]),
                listing: Listing::Numbers,
            }
        })
        .collect();
    if report.already_shown() > 0 {
        choose_listings(&mut blocks, report.already_shown());
    }
    body.append(&definitions(report.definitions));
    for block in &blocks {
        file_block(&mut body, block);
    }
    let (footer, beyond) = footer(report);
    body.push_styled(Role::Frame, &footer);
    let timeless = header(report, 0, None).len() + body.len();
    let estimate = tokens(timeless + tokens(timeless).to_string().len() - 1);
    let header = header(report, estimate, Some(report.elapsed_ms));
    let mut out = Styled::with_capacity(header.len() + body.len());
    out.push_styled(Role::Frame, &header);
    out.append(&body);
    // The estimate's digits weighed at six: like the commands, they
    // differ between surfaces by a byte or two.
    let digits = estimate.to_string().len().max(ESTIMATE_DIGITS);
    let weight = (timeless + digits - 1).saturating_add_signed(-beyond);
    Page {
        text: out,
        tokens: estimate,
        weight,
    }
}

/// The attached code: per definition, `code: PATH  KIND NAME (A-B)` then
/// its lines as `scout read` numbers them (`LINE: TEXT`).
pub fn code(blocks: &[Code]) -> Styled {
    labelled(b"code: ", blocks)
}

/// The definitions a qualified name names, as [`code`] shows code, each
/// `definition: PATH  KIND NAME (A-B)` then its name's line.
pub fn definitions(blocks: &[Code]) -> Styled {
    labelled(b"definition: ", blocks)
}

fn labelled(label: &[u8], blocks: &[Code]) -> Styled {
    let mut out = Styled::new();
    for block in blocks {
        out.push(label);
        out.push_styled(Role::Path, &block.path);
        out.push(b"  ");
        heading(&mut out, &block.def);
        out.push(b"\n");
        for line in &block.lines {
            quote_line(&mut out, "", line);
        }
    }
    out
}
