//! Laying a ranked search out on pages: the budget left once header and
//! footer are reserved, each file's line allowance, the page cut
//! ([`page::layout`]) before parsing, and, once the parser's headings
//! are known, the trim that brings the shown page back within budget.

use std::time::Instant;

use anyhow::{bail, Result};

use crate::render;
use crate::search::page::{self, PageSpan};
use crate::search::rank::Ranked;
use crate::search::remember::Recalled;
use crate::search::settings::SearchSettings;
use crate::search::Parts;

/// Lines taken off a page at most to bring its headings within budget.
const MAX_TRIMS: usize = 64;

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
    let reserve = render::text::reserve(frame);
    let allowance = |i: usize| {
        if settings.files_only || ranked[i].tally.binary {
            0
        } else {
            settings
                .max_lines
                .unwrap_or_else(|| default_allowance(i, ranked[i].tally.def_lines > 0))
                .min(ranked[i].tally.quotes.len())
        }
    };
    // Headings of enclosing definitions are added after layout (parsing
    // every file to lay out every page would cost too much): keep a share
    // of the budget for them.
    let body_bytes = settings.budget_bytes.map(|b| {
        b.saturating_sub(reserve) * (100 - if settings.lexical { 0 } else { HEADINGS_SHARE }) / 100
    });
    let pages = page::layout(ranked.len(), body_bytes, allowance, |i, lines| {
        render::text::file_block_len(&ranked[i].tally, &ranked[i].score, lines, settings.explain)
    });
    if settings.page > pages.len() {
        bail!(
            "there is no page {}: this search has {} page{} (try --page 1)",
            settings.page,
            pages.len(),
            if pages.len() == 1 { "" } else { "s" }
        );
    }
    Ok(pages)
}

/// Headings were not counted when the page was laid out: where they push
/// the shown page past the budget, quotes fewer lines of its last files
/// (the page keeps its files, so other pages are unaffected). Returns the
/// last page rendered, with the milliseconds its header shows, when it is
/// the page as it now stands, so that it need not be rendered again.
pub fn fit(
    settings: &SearchSettings,
    parts: &Parts<'_>,
    pages: &mut [PageSpan],
    index: usize,
    recalled: &Recalled<'_>,
    started: Instant,
) -> Option<(render::text::Page, u64)> {
    let budget = settings.budget_bytes?;
    for _ in 0..MAX_TRIMS {
        let seen = recalled.seen(parts.ranked, &pages[index]);
        let report = parts.report(settings, started, pages, index, seen);
        let elapsed_ms = report.elapsed_ms;
        // The time-independent estimate: the bytes would include the
        // elapsed milliseconds and make the cut depend on timing.
        let page = render::text::page(&report);
        if page.tokens * page::BYTES_PER_TOKEN <= budget {
            return Some((page, elapsed_ms));
        }
        let Some(slot) = pages[index].slots.iter_mut().rev().find(|s| s.lines > 1) else {
            return Some((page, elapsed_ms));
        };
        slot.lines -= 1;
    }
    None
}
