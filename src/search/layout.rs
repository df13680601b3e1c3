//! Laying a ranked search out on pages: the budget left once header and
//! footer are reserved, each file's line allowance, the page cut
//! ([`page::layout`]) before parsing, and, once the parser's headings
//! are known, the trim that brings the shown page back within budget.

use std::time::Instant;

use anyhow::{bail, Result};

use crate::page::tally::Ranked;
use crate::page::{self, PageSpan};
use crate::render;
use crate::search::settings::SearchSettings;
use crate::search::Parts;

/// Header bytes kept for ` already_shown=N` (N at 20 digits), which a
/// page the memory collapses shows.
const ALREADY_SHOWN_RESERVE: usize = " already_shown=".len() + 20;

/// Lines taken off a page at most to bring its headings within budget.
const MAX_TRIMS: usize = 256;

/// Percent of a page's body budget left for definition headings.
const HEADINGS_SHARE: usize = 15;

/// Lines a file may quote when `-m` is not given: more for the top files;
/// past them, a file that defines the name shows its definition line alone,
/// so that a name defined in dozens of files gets them onto one page.
fn default_allowance(rank: usize, defines: bool) -> usize {
    match (rank < 5, defines) {
        (true, _) => 3,
        (false, true) => 1,
        (false, false) => 2,
    }
}

/// Every page of the search, cut from the ranked order before any file is
/// parsed (so `--page N` never depends on the cache). Fails when the page
/// asked for does not exist.
pub fn paginate(
    settings: &SearchSettings,
    ranked: &[Ranked],
    frame: &render::text::Frame<'_>,
) -> Result<Vec<PageSpan>> {
    let pages = cut(settings, ranked, frame, settings.files_only);
    ensure_page_exists(settings, pages.len())?;
    Ok(pages)
}

/// `-l`'s pages: each lists whole pages of the ranked view of the
/// same search (cut as [`paginate`] cuts them without `-l`, `frame` being
/// that view's), as many as fit the budget as paths, so that its files
/// come in the very order those pages show them (the parser reorders
/// files within a page, never across pages). Returns the pages, and for
/// each the ranked view's pages it holds. A share of the budget is kept
/// for `[def]` marks the parser may add.
pub fn paginate_listing(
    settings: &SearchSettings,
    ranked: &[Ranked],
    frame: &render::text::Frame<'_>,
) -> Result<(Vec<PageSpan>, Vec<Vec<PageSpan>>)> {
    let views = cut(settings, ranked, frame, false);
    let body_bytes = settings
        .budget_bytes
        .map(|b| b.saturating_sub(render::text::reserve(frame)) * (100 - MARKS_SHARE) / 100);
    let listed = |view: &PageSpan| -> usize {
        view.slots
            .iter()
            .map(|slot| {
                let file = &ranked[slot.file];
                render::text::file_block_len(&file.tally, &file.score, 0, settings.explain)
            })
            .sum()
    };
    let (mut pages, mut held) = (Vec::new(), Vec::new());
    let (mut page, mut holding, mut spent) = (PageSpan::default(), Vec::new(), 0);
    for view in views {
        let len = listed(&view);
        if !holding.is_empty() && body_bytes.is_some_and(|room| spent + len > room) {
            pages.push(std::mem::take(&mut page));
            held.push(std::mem::take(&mut holding));
            spent = 0;
        }
        spent += len;
        page.slots.extend(
            view.slots
                .iter()
                .map(|slot| page::Slot { lines: 0, ..*slot }),
        );
        holding.push(view);
    }
    pages.push(page);
    held.push(holding);
    ensure_page_exists(settings, pages.len())?;
    Ok((pages, held))
}

/// Percent of `-l`'s body budget left for `[def]` marks the parser adds
/// to files the lexical rules did not mark.
const MARKS_SHARE: usize = 10;

/// The budget, in tokens, that surely holds `span`'s frame (its header
/// and footer, as [`render::text::reserve`] bounds them) and one line of
/// its first file; `None` when the page has no line to show (`-l`, a
/// binary file) or no budget.
pub fn budget_for_a_line(
    settings: &SearchSettings,
    ranked: &[Ranked],
    span: &PageSpan,
    frame: &render::text::Frame<'_>,
) -> Option<usize> {
    settings.budget_bytes?;
    let first = &ranked[span.slots.first()?.file];
    if settings.files_only || first.tally.binary || first.tally.quotes.is_empty() {
        return None;
    }
    let need = render::text::reserve(frame)
        + render::text::file_block_len(&first.tally, &first.score, 1, settings.explain);
    Some(need.div_ceil(crate::page::BYTES_PER_TOKEN))
}

/// Fails when the page cannot show one line within its budget: every
/// page would show nothing (20 tokens gave 90-token pages of no
/// line, page after page). Says a budget that shows one.
pub fn ensure_a_line_shown(
    settings: &SearchSettings,
    span: &PageSpan,
    enough: Option<usize>,
) -> Result<()> {
    let (Some(budget), Some(tokens)) = (settings.budget_bytes, enough) else {
        return Ok(());
    };
    // A page of no line for another reason (all of it already in the
    // session's context) is no budget's fault.
    if budget / crate::page::BYTES_PER_TOKEN < tokens && span.slots.iter().all(|s| s.lines == 0) {
        bail!(
            "--budget-tokens {} is too small for a page of this search: it shows no line; --budget-tokens {tokens} holds its header, footer and a quoted line (0: no limit; -l lists the files alone)",
            budget / crate::page::BYTES_PER_TOKEN
        );
    }
    Ok(())
}

/// Fails when the page asked for is not one of `pages`.
fn ensure_page_exists(settings: &SearchSettings, pages: usize) -> Result<()> {
    if settings.page > pages {
        bail!(
            "there is no page {}: this search has {} page{} (try --page 1)",
            settings.page,
            pages,
            if pages == 1 { "" } else { "s" }
        );
    }
    Ok(())
}

/// Every page cut from the ranked order, each file quoting what its
/// allowance and the budget leave it (`files_only`: no lines).
fn cut(
    settings: &SearchSettings,
    ranked: &[Ranked],
    frame: &render::text::Frame<'_>,
    files_only: bool,
) -> Vec<PageSpan> {
    let reserve = render::text::reserve(frame);
    let allowance = |i: usize| {
        let quotes = ranked[i].tally.quotes.len();
        if files_only || ranked[i].tally.binary {
            0
        } else if settings.graph.is_some() {
            // On a callers or impact page every attributed call is the
            // answer: each is quoted while the budget holds.
            settings.max_lines.unwrap_or(quotes).min(quotes)
        } else {
            settings
                .max_lines
                .unwrap_or_else(|| default_allowance(i, ranked[i].tally.def_lines > 0))
                .min(quotes)
        }
    };
    // Headings of enclosing definitions are added after layout (parsing
    // every file to lay out every page would cost too much): keep a share
    // of the budget for them.
    let body_bytes = settings.budget_bytes.map(|b| {
        b.saturating_sub(reserve) * (100 - if settings.lexical { 0 } else { HEADINGS_SHARE }) / 100
    });
    let block_len = |i: usize, lines: usize| {
        render::text::file_block_len(&ranked[i].tally, &ranked[i].score, lines, settings.explain)
    };
    if settings.graph.is_some() {
        return page::layout_spread(ranked.len(), body_bytes, allowance, block_len);
    }
    page::layout(ranked.len(), body_bytes, allowance, block_len)
}

/// Headings were not counted when the page was laid out: where they push
/// the shown page past the budget, quotes fewer lines of its last files
/// (the page keeps its files, so other pages are unaffected). Returns the
/// last page rendered, without the memory, with the milliseconds its
/// header shows, when it is the page as it now stands, so that it need
/// not be rendered again.
pub fn fit(
    settings: &SearchSettings,
    parts: &Parts<'_>,
    pages: &mut [PageSpan],
    index: usize,
    started: Instant,
) -> Option<(render::text::Page, u64)> {
    let budget = settings.budget_bytes?;
    // The page is sized as it would be shown with no memory (with room
    // for its header's `already_shown=`); the memory only collapses it,
    // never larger: so a repeated search keeps the first run's lines, all
    // of them already shown, instead of spending what collapsing saved on
    // lines the first run left out.
    for _ in 0..MAX_TRIMS {
        let report = parts.report(settings, started, pages, index, Vec::new());
        let elapsed_ms = report.elapsed_ms;
        let page = render::text::page(&report);
        // Its weight (the same on every surface) with the milliseconds
        // weighed at six digits, so that neither the time, nor the
        // surface, nor how the command was spelled decides the cut.
        if page.weight + " 999999ms".len() + ALREADY_SHOWN_RESERVE <= budget {
            return Some((page, elapsed_ms));
        }
        // Lines beyond the first go first, from the last file up; then
        // first lines, so that a page of one-line files fits too (their
        // files stay on the page, counted as lines not quoted).
        let slots = &mut pages[index].slots;
        let slot = match slots.iter().rposition(|s| s.lines > 1) {
            Some(at) => &mut slots[at],
            None => match slots.iter_mut().rev().find(|s| s.lines > 0) {
                Some(slot) => slot,
                None => return Some((page, elapsed_ms)),
            },
        };
        slot.lines -= 1;
    }
    None
}
