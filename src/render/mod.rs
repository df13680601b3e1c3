//! Rendering a search result as text (for agents and people) or JSON (for
//! programs). Only this module writes what scout prints on stdout; the
//! commands hand it a writer. [`style`] is the one place that colours
//! what every command prints.

pub mod braces;
pub mod edit;
pub mod json;
pub mod plain;
pub mod scope;
pub mod smart;
pub mod style;
pub mod text;

use crate::defs::Def;
use crate::lang::Lang;
use crate::page::call::Asked;
use crate::page::query::Query;
use crate::page::tally::{Quote, Ranked};
use crate::page::{Omitted, PageSpan};

/// How a footer names a file's lines over MCP when the grep call is too
/// long to write.
pub const FILE_LINES_BY_TOOL: &str = "the grep tool with this search's pattern, on FILE";

/// How a footer names a file's lines on the command line when the rg
/// command is too long to write.
pub const FILE_LINES_BY_COMMAND: &str = "the repro command with -n, on FILE";

/// Characters of a query or question that a page's header repeats, at
/// most: a longer one (a pasted log, say) would spend the budget on the
/// page's first lines. The JSON document keeps it whole.
pub const TEXT_SHOWN: usize = 200;

/// `text` as a header repeats it: whole, or its first [`TEXT_SHOWN`]
/// characters, `…`, and how many more characters there were; a control
/// character escaped (`\n`), so that the header stays one line.
pub fn shortened(text: &str) -> String {
    cut(text, |head| {
        let mut out = String::with_capacity(head.len());
        for c in head.chars() {
            if c.is_control() {
                out.extend(c.escape_default());
            } else {
                out.push(c);
            }
        }
        out
    })
}

/// Whether a header repeats `text` as it is: short enough, and on one
/// line. A command holding any other text cannot be shown runnable there.
pub fn shown_whole(text: &str) -> bool {
    text.chars().nth(TEXT_SHOWN).is_none() && !text.chars().any(char::is_control)
}

/// [`shortened`], in double quotes (Rust's escapes): `"abc"`, or
/// `"abc…" (+12 more characters)`.
pub fn quoted(text: &str) -> String {
    cut(text, |head| format!("{head:?}"))
}

fn cut(text: &str, write: impl Fn(&str) -> String) -> String {
    match text.char_indices().nth(TEXT_SHOWN) {
        None => write(text),
        Some((at, _)) => {
            let more = text[at..].chars().count();
            let unit = if more == 1 { "character" } else { "characters" };
            format!(
                "{} (+{more} more {unit})",
                write(&format!("{}…", &text[..at]))
            )
        }
    }
}

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
    /// Bytes a footer's command may take (the search settings' footer
    /// room, the same on every surface).
    pub footer_room: usize,
    /// Bytes the footer's note naming definitions on other pages may take.
    pub note_room: usize,
    /// How this search was asked for (the command without `--page`, or
    /// the tool call), for the footer's other pages.
    pub command: Asked,
    /// `--explain`: each file's score and signals.
    pub explain: bool,
    /// `-l`: files and counts, no lines.
    pub files_only: bool,
    /// Definitions of each file on the page (aligned with the page's
    /// slots; empty where the file was not parsed).
    pub defs: &'a [Vec<Def>],
    /// Code of the definitions holding every match, when attached.
    pub code: Vec<Code>,
    /// The definitions a qualified name names that no match holds, shown
    /// before the files (`search::qualified`); counted nowhere.
    pub definitions: &'a [Code],
    /// Per slot: chosen lines the session was already shown (collapsed).
    pub seen: Vec<Vec<u64>>,
    /// Set for a structural search (`--structural`): its language and
    /// how many files of it were parsed.
    pub structural: Option<Structural>,
    /// Set for `--callers-of` and `--impact`.
    pub scope: Option<&'a crate::page::scope::Scope>,
    /// The scope as the footer says it ([`scope::text`]; empty without one).
    pub scope_text: &'a str,
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

    /// Each file's place in the pages' order (the page shown as the
    /// parser reordered it), by path: the order rg's own lines follow
    /// when they are printed instead of the page.
    pub fn file_order(&self) -> std::collections::BTreeMap<&[u8], usize> {
        self.pages
            .iter()
            .flat_map(|page| &page.slots)
            .enumerate()
            .map(|(place, slot)| (&self.ranked[slot.file].tally.path[..], place))
            .collect()
    }

    /// The command for page `n`, as the footer writes it: in words when
    /// it is longer than the footer's room.
    pub fn page_command(&self, n: usize) -> String {
        self.command.page_within(n, self.footer_room)
    }

    /// The command for a file's lines, as the footer writes it: in words
    /// when it is longer than the footer's room.
    pub fn file_command_shown(&self) -> String {
        if self.file_command.len() <= self.footer_room {
            return self.file_command.clone();
        }
        match &self.command {
            Asked::Tool(_) => FILE_LINES_BY_TOOL.to_string(),
            Asked::Command(_) => FILE_LINES_BY_COMMAND.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_text_is_repeated_in_part_and_says_how_much_is_left() {
        assert_eq!(quoted("where \"x\" is"), r#""where \"x\" is""#);
        assert_eq!(shortened("where \"x\" is"), r#"where "x" is"#);
        assert_eq!(shortened("two\nlines\t"), r"two\nlines\t");
        let exact = "é".repeat(TEXT_SHOWN);
        assert_eq!(quoted(&exact), format!("{exact:?}"));
        assert_eq!(shortened(&exact), exact);
        let long = format!("{exact}tail");
        assert_eq!(quoted(&long), format!("\"{exact}…\" (+4 more characters)"));
        assert_eq!(shortened(&long), format!("{exact}… (+4 more characters)"));
        assert!(quoted(&format!("{exact}!")).ends_with("(+1 more character)"));
        assert!(shown_whole(&exact) && !shown_whole(&long) && !shown_whole("a\tb"));
    }
}
