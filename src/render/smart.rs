//! The page of `scout smart` ([`Page`]), as text or
//! as one JSON document.
//!
//! ```text
//! smart: "free memory by evicting keys"  candidates: 412 of 1583 files, 40 read, 3120 units scored  hits: 10  ~380tok 142ms
//! concepts: free (~release), memory (~mem, ~ram), evicting, keys
//!  1. src/evict.c:520  function performEvictions (520-712)
//!     why: name performEvictions ← "evicting"; doc "Check that memory usage…" ← "memory"; body ← "keys" ×4
//! +2 more hits cut by the token budget: --budget-tokens N, or --max-results N
//! repro: rg -c -F -i -e evict -e memory … (the candidate files)
//! ```
//!
//! A hit is `RANK. PATH:LINE`, then its enclosing definition's heading as
//! `scout search` writes one (`KIND NAME (A-B)`, [`Def::title`]), then its
//! why. The pieces carry the [`Role`]s of search's pages, so that colour,
//! if smart is ever given it, is the same; today smart writes plain bytes.
//!
//! [`Def::title`]: crate::defs::Def::title

use std::io::{self, Write};

use super::scope::plural;
use super::style::{Painter, Role, Styled};
use crate::page::smart::{AgentHit, Hit, MeaningView, Page};

/// Writes the header: the question, the candidate set, hits, tokens, time.
fn header(out: &mut Styled, page: &Page, tokens: &str, elapsed: &str) {
    // `scout search` asked a question in words: its header, with the
    // kind its own pages name.
    let lead = match page.kind {
        Some(kind) => format!("query: {}  kind={kind}", super::quoted(&page.question)),
        None => format!("smart: {}", super::quoted(&page.question)),
    };
    out.write_styled(
        Role::Frame,
        format_args!(
            "{lead}  candidates: {} of {} files, {} read, {} units scored  hits: {}  ~{tokens}tok {elapsed}ms\n",
            page.candidates.files,
            page.candidates.searched,
            page.candidates.read,
            page.candidates.units,
            page.hits.len(),
        ),
    );
    let concepts: Vec<String> = page
        .concepts
        .iter()
        .map(|c| {
            if c.related.is_empty() {
                c.word.clone()
            } else {
                let related: Vec<String> = c.related.iter().map(|r| format!("~{r}")).collect();
                format!("{} ({})", c.word, related.join(", "))
            }
        })
        .collect();
    let unused = match page.unused.len() {
        0 => String::new(),
        1 => " (+1 more word, not looked for)".to_string(),
        n => format!(" (+{n} more words, not looked for)"),
    };
    out.write_styled(
        Role::Frame,
        format_args!("concepts: {}{unused}\n", concepts.join(", ")),
    );
    out.write_styled(
        Role::Frame,
        format_args!("{}\n", meaning_line(&page.meaning)),
    );
}

/// `meaning: ...`: what the meaning search compared, or that the ranking
/// is by words only, and why. Nothing here depends on the cache (how
/// much of it was embedded now is in the JSON only).
fn meaning_line(m: &MeaningView) -> String {
    if let Some(reason) = &m.reason {
        return format!("meaning: off, ranked by {reason}");
    }
    let definitions = plural(m.units as u64, "definition", "definitions");
    let Some(files) = m.files else {
        let candidates = plural(
            m.candidate_files.unwrap_or(0) as u64,
            "candidate code file",
            "candidate code files",
        );
        return if m.covered + m.partly == 0 {
            format!("meaning: on, no definition compared of its {candidates}")
        } else {
            format!(
                "meaning: on, {definitions} of {} of {candidates} ({} of them whole); a tree this large is compared among its candidates",
                m.covered + m.partly,
                m.covered
            )
        };
    };
    let code_files = plural(files as u64, "code file", "code files");
    if m.covered == files {
        let all = if files == 1 {
            "its one code file".to_string()
        } else {
            format!("all {code_files}")
        };
        format!("meaning: on, {definitions} of {all}")
    } else {
        format!(
            "meaning: on, {definitions} of {} of {code_files} ({} of them whole); the others were not compared (--meaning-units sets how many are)",
            m.covered + m.partly,
            m.covered
        )
    }
}

/// Writes the footer: what was left out, the `repro:` line.
fn footer(out: &mut Styled, page: &Page, left_out: usize) {
    if page.hits.is_empty() {
        out.push(b"no definition or file matched the question's words outside their paths\n");
    }
    if left_out > 0 {
        out.write_styled(
            Role::Frame,
            format_args!(
                "+{} cut by the token budget: --budget-tokens N, or --max-results N\n",
                plural(left_out as u64, "more hit", "more hits")
            ),
        );
    }
    out.write_styled(
        Role::Frame,
        format_args!("repro: {} (the candidate files)\n", page.repro),
    );
    if page.kind.is_some() {
        // The question is in the header already: not repeated here,
        // where it would take the room of a hit.
        out.write_styled(
            Role::Frame,
            format_args!(
                "kind=question: ranked by meaning, as scout smart ranks it; scout search -F with the same text searches it as written\n"
            ),
        );
    }
}

/// One hit's block: `RANK. PATH:LINE  HEADING`, then its why.
pub fn hit(hit: &Hit) -> Styled {
    let mut out = Styled::with_capacity(256);
    let _ = write!(out, "{:2}. ", hit.rank);
    out.push_styled(Role::Path, &hit.raw_path);
    out.push(b":");
    out.write_styled(Role::LineNumber, format_args!("{}", hit.line));
    if let Some(def) = &hit.def {
        out.push(b"  ");
        super::text::heading(&mut out, def);
    }
    let _ = writeln!(out, "\n    why: {}", hit.why);
    if !hit.also.is_empty() {
        out.push(b"    also here:");
        for (i, also) in hit.also.iter().enumerate() {
            out.push(if i == 0 { b" " } else { b"; " });
            out.write_styled(Role::LineNumber, format_args!("{}", also.line));
            if let Some(def) = &also.def {
                out.push(b" ");
                super::text::heading(&mut out, def);
            }
        }
        out.push(b"\n");
    }
    out
}

/// The bytes the header and footer take at most for this page's question,
/// concepts and candidate set, every number at 20 digits: the reserve
/// before hits are laid out.
pub fn frame_len(page: &Page) -> usize {
    const WIDEST: &str = "99999999999999999999";
    let mut out = Styled::new();
    header(&mut out, page, WIDEST, WIDEST);
    footer(&mut out, page, usize::MAX);
    // The hit count in the header may be wider than the page's.
    out.len() + WIDEST.len()
}

/// The text page.
pub fn text(page: &Page) -> Styled {
    let mut out = Styled::with_capacity(4096);
    header(
        &mut out,
        page,
        &page.tokens.to_string(),
        &page.elapsed_ms.to_string(),
    );
    for h in &page.hits {
        out.append(&hit(h));
    }
    footer(&mut out, page, page.left_out);
    out
}

/// Writes the text page.
pub fn write_text(out: &mut dyn Write, page: &Page) -> io::Result<()> {
    Painter::plain().write(out, &text(page))
}

/// Writes the page as one JSON document and a newline.
pub fn write_json(out: &mut dyn Write, page: &Page) -> io::Result<()> {
    serde_json::to_writer(&mut *out, page)?;
    out.write_all(b"\n")
}

/// What an agent answered (`scout smart --agent`), as it is printed.
pub struct Answer<'a> {
    pub question: &'a str,
    /// The agent's command, as configured.
    pub agent: &'a str,
    pub turns: usize,
    pub hits: &'a [AgentHit],
}

/// Writes an agent's answer: a header like the page's, then each hit and
/// its why.
pub fn write_answer_text(out: &mut dyn Write, answer: &Answer) -> io::Result<()> {
    writeln!(
        out,
        "smart: {}  agent: {}  turns: {}  hits: {}",
        super::quoted(answer.question),
        answer.agent,
        answer.turns,
        answer.hits.len()
    )?;
    for (i, hit) in answer.hits.iter().enumerate() {
        match hit.line {
            Some(line) => writeln!(out, "{:2}. {}:{line}", i + 1, hit.path)?,
            None => writeln!(out, "{:2}. {}", i + 1, hit.path)?,
        }
        writeln!(out, "    why: {}", hit.why)?;
    }
    Ok(())
}

/// Writes an agent's answer as one JSON document and a newline (keys in
/// order, as in every `serde_json::Value`).
pub fn write_answer_json(out: &mut dyn Write, answer: &Answer) -> io::Result<()> {
    let document = serde_json::json!({
        "question": answer.question,
        "agent": answer.agent,
        "turns": answer.turns,
        "hits": answer.hits,
    });
    writeln!(out, "{document}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on(
        files: Option<usize>,
        candidate_files: Option<usize>,
        covered: usize,
        partly: usize,
        units: usize,
        embedded: usize,
    ) -> MeaningView {
        MeaningView {
            state: "on",
            reason: None,
            files,
            candidate_files,
            covered,
            partly,
            units,
            embedded,
        }
    }

    #[test]
    fn the_meaning_line_says_whether_the_tree_or_only_its_candidates_were_compared() {
        assert_eq!(
            meaning_line(&on(Some(200), None, 20, 3, 256, 64)),
            "meaning: on, 256 definitions of 23 of 200 code files (20 of them whole); the others were not compared (--meaning-units sets how many are)"
        );
        assert_eq!(
            meaning_line(&on(None, Some(40), 5, 18, 256, 0)),
            "meaning: on, 256 definitions of 23 of 40 candidate code files (5 of them whole); a tree this large is compared among its candidates"
        );
        assert_eq!(
            meaning_line(&on(None, Some(40), 0, 0, 0, 0)),
            "meaning: on, no definition compared of its 40 candidate code files"
        );
    }

    #[test]
    fn the_meaning_line_counts_one_definition_and_one_file_in_the_singular() {
        assert_eq!(
            meaning_line(&on(Some(1), None, 1, 0, 1, 0)),
            "meaning: on, 1 definition of its one code file"
        );
        assert_eq!(
            meaning_line(&on(None, Some(1), 1, 0, 1, 1)),
            "meaning: on, 1 definition of 1 of 1 candidate code file (1 of them whole); a tree this large is compared among its candidates"
        );
    }

    #[test]
    fn the_meaning_line_is_the_same_whatever_was_embedded_now() {
        assert_eq!(
            meaning_line(&on(Some(4), None, 4, 0, 9, 9)),
            meaning_line(&on(Some(4), None, 4, 0, 9, 0))
        );
        assert_eq!(
            meaning_line(&on(Some(4), None, 4, 0, 9, 0)),
            "meaning: on, 9 definitions of all 4 code files"
        );
    }
}
