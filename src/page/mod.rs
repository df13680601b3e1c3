//! The page model: the types every page holds (quotes, file tallies,
//! ranked files, the graph's scope, smart's hits, edit reports) and the
//! rule that spends a byte budget on ranked files. The pipelines build
//! these values and the renderer draws them; this module imports
//! neither.
//!
//! Pages: spending a byte budget on ranked files, deterministically.
//!
//! Files are laid out in rank order; each gets up to its line allowance,
//! fewer when that is what fits, and a page ends at the first file that
//! does not fit with even one line. Every page is cut from the same ranked
//! order with the same rule, so `--page N` always shows the same slice and
//! pages 1..n together show every file exactly once. No I/O: the cost of a
//! file block is asked of the caller (the text renderer).

pub mod call;
pub mod edit;
pub mod group;
pub mod query;
pub mod scope;
pub mod smart;
pub mod symbol;
pub mod tally;

use tally::{FileTally, Quote, Ranked};

/// Bytes per token, for estimates (`~Ntok`).
pub const BYTES_PER_TOKEN: usize = 4;

/// Tokens from which a budget is no limit: more than any page could
/// spend (a petabyte), and small enough that no sum or product of a
/// budget's bytes overflows.
pub const UNLIMITED_TOKENS: u64 = 1 << 48;

/// The byte budget of a page of `tokens` (`--budget-tokens`): `None`, no
/// limit, for 0 and for [`UNLIMITED_TOKENS`] or more (2^62 tokens were
/// multiplied into a budget of nothing).
pub fn budget_bytes(tokens: u64) -> Option<usize> {
    (tokens > 0 && tokens < UNLIMITED_TOKENS).then(|| tokens as usize * BYTES_PER_TOKEN)
}

/// Tokens for a byte count, rounded up.
pub fn tokens(bytes: usize) -> usize {
    bytes.div_ceil(BYTES_PER_TOKEN)
}

/// One file on a page and how many of its lines are quoted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// Index into the ranked files.
    pub file: usize,
    /// Quoted lines (0 for binary files or `-l`).
    pub lines: usize,
}

/// The files of one page, in rank order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageSpan {
    pub slots: Vec<Slot>,
}

/// [`layout`] for pages where every line is an answer (a callers page's
/// call sites): files are laid out a line each, so that a page names as
/// many files as it can, then the bytes each page has left go to more
/// lines of its files, in rank order, up to `allowance`. Pages hold the
/// same files whatever the lines, so every file is on exactly one page.
pub fn layout_spread(
    files: usize,
    body_bytes: Option<usize>,
    allowance: impl Fn(usize) -> usize,
    block_len: impl Fn(usize, usize) -> usize,
) -> Vec<PageSpan> {
    let mut pages = layout(files, body_bytes, |i| allowance(i).min(1), &block_len);
    let Some(budget) = body_bytes else {
        for page in &mut pages {
            for slot in &mut page.slots {
                slot.lines = allowance(slot.file);
            }
        }
        return pages;
    };
    for page in &mut pages {
        let used: usize = page.slots.iter().map(|s| block_len(s.file, s.lines)).sum();
        let mut left = budget.saturating_sub(used);
        for slot in &mut page.slots {
            let most = allowance(slot.file);
            while slot.lines < most {
                let more = block_len(slot.file, slot.lines + 1)
                    .saturating_sub(block_len(slot.file, slot.lines));
                if more > left {
                    break;
                }
                left -= more;
                slot.lines += 1;
            }
        }
    }
    pages
}

/// Lays every ranked file out on pages.
///
/// - `body_bytes`: bytes each page may spend on file blocks (`None`: no
///   limit, one page).
/// - `allowance(i)`: lines file `i` may quote at most.
/// - `block_len(i, lines)`: bytes of file `i`'s block with that many lines.
pub fn layout(
    files: usize,
    body_bytes: Option<usize>,
    allowance: impl Fn(usize) -> usize,
    block_len: impl Fn(usize, usize) -> usize,
) -> Vec<PageSpan> {
    let mut pages: Vec<PageSpan> = Vec::new();
    let mut current = PageSpan::default();
    let mut left = body_bytes.unwrap_or(usize::MAX);
    for file in 0..files {
        let most = allowance(file);
        let least = most.min(1);
        loop {
            let fit = (least..=most)
                .rev()
                .map(|lines| (lines, block_len(file, lines)))
                .find(|&(_, len)| len <= left);
            match fit {
                Some((lines, len)) => {
                    current.slots.push(Slot { file, lines });
                    left -= len;
                    break;
                }
                None if current.slots.is_empty() => {
                    // A block larger than a whole page still gets a page.
                    current.slots.push(Slot { file, lines: least });
                    left = 0;
                    break;
                }
                None => {
                    pages.push(std::mem::take(&mut current));
                    left = body_bytes.unwrap_or(usize::MAX);
                }
            }
        }
    }
    if !current.slots.is_empty() || pages.is_empty() {
        pages.push(current);
    }
    pages
}

/// The `n` quotes of a file worth showing, in display order: the name's
/// own declarations first, then its other definition lines, then by line
/// number.
pub fn chosen_quotes(tally: &FileTally, n: usize) -> Vec<&Quote> {
    let mut best: Vec<&Quote> = tally.quotes.iter().collect();
    best.sort_by(|a, b| b.score.cmp(&a.score).then(a.line.cmp(&b.line)));
    best.truncate(n);
    best.sort_by(|a, b| {
        (b.def, b.primary)
            .cmp(&(a.def, a.primary))
            .then(a.line.cmp(&b.line))
    });
    best
}

/// What a page leaves out, for its footer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Omitted {
    /// Files with matches that are on other pages.
    pub files: usize,
    /// Matching lines of this page's files that are not quoted.
    pub lines: u64,
    /// Files holding a definition that are on other pages, in rank order.
    pub def_files: Vec<usize>,
}

/// Counts what `page` leaves out of `ranked`.
pub fn omitted(ranked: &[Ranked], page: &PageSpan) -> Omitted {
    let mut on_page = vec![false; ranked.len()];
    for slot in &page.slots {
        on_page[slot.file] = true;
    }
    let shown = on_page.iter().filter(|&&on| on).count();
    let lines = page
        .slots
        .iter()
        .map(|s| ranked[s.file].tally.hits.saturating_sub(s.lines as u64))
        .sum();
    let def_files = (0..ranked.len())
        .filter(|&i| !on_page[i] && ranked[i].tally.def_lines > 0)
        .collect();
    Omitted {
        files: ranked.len() - shown,
        lines,
        def_files,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2^62 tokens had been multiplied into a budget of 0 bytes.
    #[test]
    fn a_budget_too_large_for_any_page_is_no_limit() {
        assert_eq!(budget_bytes(0), None);
        assert_eq!(budget_bytes(300), Some(1200));
        assert_eq!(budget_bytes(UNLIMITED_TOKENS - 1), Some((1 << 50) - 4));
        assert_eq!(budget_bytes(1 << 62), None);
        assert_eq!(budget_bytes(u64::MAX), None);
    }

    /// A callers page names every file it can before it quotes a
    /// file's further lines.
    #[test]
    fn a_spread_layout_gives_every_file_a_line_first() {
        let block = |_: usize, lines: usize| 20 + 10 * lines;
        let greedy = layout(3, Some(100), |_| 5, block);
        assert_eq!(greedy[0].slots.len(), 2, "{greedy:?}");
        let spread = layout_spread(3, Some(100), |_| 5, block);
        assert_eq!(spread.len(), 1);
        let lines: Vec<usize> = spread[0].slots.iter().map(|s| s.lines).collect();
        assert_eq!(lines, [2, 1, 1]);
        let all = layout_spread(3, None, |i| i + 1, block);
        let lines: Vec<usize> = all[0].slots.iter().map(|s| s.lines).collect();
        assert_eq!(lines, [1, 2, 3]);
    }

    #[test]
    fn pages_cover_every_file_once_in_order() {
        let pages = layout(10, Some(100), |_| 3, |_, lines| 20 + 10 * lines);
        let all: Vec<usize> = pages
            .iter()
            .flat_map(|p| p.slots.iter().map(|s| s.file))
            .collect();
        assert_eq!(all, (0..10).collect::<Vec<_>>());
        for page in &pages {
            let spent: usize = page.slots.iter().map(|s| 20 + 10 * s.lines).sum();
            assert!(spent <= 100, "{page:?}");
        }
    }

    #[test]
    fn a_file_shrinks_to_fit_before_the_page_ends() {
        // 50 + 50 = 100 left after the first file; the second gets 1 line.
        let pages = layout(2, Some(110), |_| 3, |_, lines| 10 + 20 * lines);
        assert_eq!(pages.len(), 1);
        assert_eq!(pages[0].slots[1].lines, 1);
    }

    #[test]
    fn an_oversized_block_gets_a_page_of_its_own() {
        let pages = layout(3, Some(50), |_| 1, |i, _| if i == 1 { 500 } else { 30 });
        assert_eq!(pages.len(), 3);
        assert_eq!(pages[1].slots, vec![Slot { file: 1, lines: 1 }]);
    }

    #[test]
    fn no_budget_is_one_page() {
        let pages = layout(1000, None, |_| 3, |_, _| 1_000_000);
        assert_eq!(pages.len(), 1);
        assert_eq!(pages[0].slots.len(), 1000);
    }
}
