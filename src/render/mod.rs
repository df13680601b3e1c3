//! Rendering a search result as text (for agents and people) or JSON (for
//! programs). Only this module writes what scout prints on stdout; the
//! commands hand it a writer. [`style`] is the one place that colours
//! what every command prints.

pub mod braces;
pub mod json;
pub mod plain;
pub mod smart;
pub mod style;
pub mod text;

use crate::defs::Def;
use crate::lang::Lang;
use crate::search::fold::Quote;
use crate::search::page::{Omitted, PageSpan};
use crate::search::query::Query;
use crate::search::rank::Ranked;

/// Everything one page of `scout search` shows.
#[derive(Debug)]
pub struct Report<'a> {
    pub query: &'a Query,
    /// Set when the literal phrase had no match and the any-word fallback
    /// ran: the sentence saying so.
    pub fallback: Option<String>,
    /// Matching lines in all (rg's `matched_lines`).
    pub hits: u64,
    /// Matches in all (rg's `matches`).
    pub matches: u64,
    pub ranked: &'a [Ranked],
    pub pages: &'a [PageSpan],
    /// 1-based page number, at most `pages.len()`.
    pub page: usize,
    pub omitted: Omitted,
    pub elapsed_ms: u64,
    /// The plain rg command with the same counts.
    pub repro: String,
    /// The rg command that prints every matching line of one file, with
    /// `FILE` standing for the file.
    pub file_command: String,
    /// The scout command that shows this search, without `--page`.
    pub command: String,
    /// `--explain`: each file's score and signals.
    pub explain: bool,
    /// `-l`: files and counts, no lines.
    pub files_only: bool,
    /// Definitions of each file on the page (aligned with the page's
    /// slots; empty where the file was not parsed).
    pub defs: &'a [Vec<Def>],
    /// Code of the definitions holding every match, when attached.
    pub code: Vec<Code>,
    /// Per slot: chosen lines the session was already shown (collapsed).
    pub seen: Vec<Vec<u64>>,
    /// Set for a structural search (`--structural`): its language and
    /// how many files of it were parsed.
    pub structural: Option<Structural>,
}

/// What a structural search's page says besides a text search's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Structural {
    pub lang: Lang,
    /// Files of the language read and searched (with a match or not):
    /// parsed, or skipped for lacking one of the pattern's words.
    pub parsed: u64,
}

/// The code of one definition, attached after the matches when it saves
/// the agent a call to `scout read`.
#[derive(Debug, Clone)]
pub struct Code {
    pub path: Vec<u8>,
    pub def: Def,
    /// The definition's lines, numbered, each cut like a quote.
    pub lines: Vec<Quote>,
}

impl Report<'_> {
    /// The page shown.
    pub fn span(&self) -> &PageSpan {
        &self.pages[self.page - 1]
    }

    /// Lines quoted on this page (chosen and not already shown).
    pub fn shown(&self) -> u64 {
        let chosen: u64 = self
            .span()
            .slots
            .iter()
            .map(|s| s.lines.min(self.ranked[s.file].tally.quotes.len()) as u64)
            .sum();
        chosen - self.already_shown()
    }

    /// Chosen lines collapsed because the session already saw them.
    pub fn already_shown(&self) -> u64 {
        self.seen.iter().map(|s| s.len() as u64).sum()
    }

    /// The command for page `n`.
    pub fn page_command(&self, n: usize) -> String {
        format!("{} --page {n}", self.command)
    }
}
