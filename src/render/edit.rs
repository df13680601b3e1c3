//! `scout edit`'s report: a page like every scout page, or one JSON
//! document with every change.
//!
//! The page:
//!
//! ```text
//! edit: $X.unwrap() => $X?  mode=structural lang=rust  files=2 matches=3 rewritten=2 left_alone=1  written  page=1/1  ~70tok 9ms
//! src/a.rs  (2 rewritten, 1 left alone)
//!   function main (1-9)
//!     -2:     let v = a.unwrap().unwrap();
//!     +2:     let v = a.unwrap()?;
//! +3 files not shown: scout edit --last --page 2
//! left alone: 1 match nested in one rewritten (its rewrite carries it as it was)
//! undo: scout edit --undo
//! ```
//!
//! - The header's counters are exact whatever the page shows: `files`
//!   with a match, `matches` in scope, `rewritten`, `left_alone`; then
//!   `written`, `dry-run: nothing written` or `no match`.
//! - Per changed file, its hunks, grouped under the innermost definition
//!   holding their old lines: `-N:` the old lines, `+N:` the new ones.
//! - Files are laid out in path order, as many as the budget holds; the
//!   footer gives the command for the next page. A file larger than a
//!   whole page shows the hunks that fit, and says how many it did not.
//! - After the files: the code graph's account of a scoped edit (as the
//!   search's footer gives it), the callers of a definition whose
//!   signature changed, and how to undo or to apply.
//!
//! The JSON document is the [`Report`] itself, every change included
//! (never paged):
//!
//! ```json
//! {"mode":"structural","what":"$X.unwrap() => $X?","lang":"rust","written":true,
//!  "dry_run":false,"files":2,"files_changed":2,"matches":3,"rewritten":2,"left_alone":1,
//!  "changes":[{"path":"src/a.rs","lines":[2],"matches":2,"rewritten":1,"left_alone":1,
//!    "hunks":[{"line":2,"last_line":2,"new_line":2,"new_last_line":2,
//!      "before":["    let v = a.unwrap().unwrap();"],"after":["    let v = a.unwrap()?;"],
//!      "definition":"function main (1-9)"}]}],
//!  "scope_text":null,"scope":null,"callers":null,"command":"scout edit --last"}
//! ```

use std::io::Write;
use std::time::Instant;

use anyhow::Result;

use crate::page::edit::{FileReport, HunkReport, Report, ReportForm, Undone};
use crate::page::BYTES_PER_TOKEN;
use crate::render::scope::plural;

/// Bytes kept for the line naming the files on later pages.
const NEXT_PAGE_RESERVE: usize = 120;

/// Writes `report` as the settings ask: its page, or its JSON document.
pub fn write_report(
    report: &Report,
    form: ReportForm,
    started: Instant,
    out: &mut dyn Write,
) -> Result<()> {
    if form.json {
        let mut bytes = serde_json::to_vec(report)?;
        bytes.push(b'\n');
        out.write_all(&bytes)?;
        return Ok(());
    }
    let page = page(
        report,
        form.page,
        form.budget_bytes,
        started.elapsed().as_millis(),
    );
    out.write_all(&page.text)?;
    Ok(())
}

/// One page of a report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// The page; a path that is not UTF-8 is printed as its bytes.
    pub text: Vec<u8>,
    /// Some change is not on this page (on others, or cut from a file
    /// larger than a page).
    pub left_out: bool,
}

/// How many pages `report` takes within `budget` bytes (1 at least).
pub fn page_count(report: &Report, budget: Option<usize>) -> usize {
    let blocks: Vec<Vec<u8>> = report.changes.iter().map(block).collect();
    paginate(&blocks, room(report, budget)).len().max(1)
}

/// The bytes a page's changes may take within `budget`.
fn room(report: &Report, budget: Option<usize>) -> Option<usize> {
    let footer = footer(report);
    budget.map(|b| {
        b.saturating_sub(footer.len() + header_room(report) + NEXT_PAGE_RESERVE)
            .max(1)
    })
}

/// Page `number` of `report` within `budget` bytes.
pub fn page(report: &Report, number: usize, budget: Option<usize>, ms: u128) -> Page {
    let footer = footer(report);
    let blocks: Vec<Vec<u8>> = report.changes.iter().map(block).collect();
    let room = room(report, budget);
    let pages = paginate(&blocks, room);
    let count = pages.len().max(1);
    let shown = pages.get(number - 1).cloned().unwrap_or_default();
    let mut body = Vec::new();
    let mut cut = false;
    for &index in &shown {
        match room {
            Some(room) if blocks[index].len() > room => {
                let (text, left) = cut_block(&report.changes[index], room, &report.command);
                body.extend_from_slice(&text);
                cut |= left;
            }
            _ => body.extend_from_slice(&blocks[index]),
        }
    }
    let later: usize = pages.iter().skip(number).map(Vec::len).sum();
    let mut rest = String::new();
    if later > 0 {
        rest.push_str(&format!(
            "+{later} {} not shown: {} --page {}\n",
            if later == 1 { "file" } else { "files" },
            report.command,
            number + 1
        ));
    } else if number > count {
        rest.push_str(&format!(
            "page {number} is past the last page ({count}): {} --page 1\n",
            report.command
        ));
    }
    rest.push_str(&footer);
    let status = if report.files == 0 {
        "no match"
    } else if report.written {
        "written"
    } else if report.dry_run {
        "dry-run: nothing written"
    } else {
        "nothing to write"
    };
    let lang = report
        .lang
        .as_ref()
        .map(|l| format!(" lang={l}"))
        .unwrap_or_default();
    let head = format!(
        "edit: {}  mode={}{lang}  files={} matches={} rewritten={} left_alone={}  {status}  page={}/{count}",
        report.what,
        report.mode,
        report.files,
        report.matches,
        report.rewritten,
        report.left_alone,
        number,
    );
    let size = head.len() + body.len() + rest.len() + 24;
    let mut text = format!("{head}  ~{}tok {ms}ms\n", size.div_ceil(BYTES_PER_TOKEN)).into_bytes();
    text.extend_from_slice(&body);
    text.extend_from_slice(rest.as_bytes());
    Page {
        text,
        left_out: cut || shown.len() < report.changes.len(),
    }
}

/// Bytes the header may take.
fn header_room(report: &Report) -> usize {
    report.what.len() + 160
}

/// The pages: indexes of the blocks each holds, in order; every page
/// holds at least one block.
fn paginate(blocks: &[Vec<u8>], room: Option<usize>) -> Vec<Vec<usize>> {
    let mut pages: Vec<Vec<usize>> = Vec::new();
    let mut used = 0;
    for (index, block) in blocks.iter().enumerate() {
        let fits = room.is_none_or(|room| used + block.len() <= room);
        match pages.last_mut() {
            Some(page) if fits => {
                page.push(index);
                used += block.len();
            }
            _ => {
                pages.push(vec![index]);
                used = block.len();
            }
        }
    }
    pages
}

/// One file's lines: its path and counts, then its hunks under their
/// definitions.
fn block(file: &FileReport) -> Vec<u8> {
    let mut out = file_line(file);
    let mut heading: Option<&str> = None;
    for hunk in &file.hunks {
        out.extend_from_slice(hunk_text(hunk, &mut heading).as_bytes());
    }
    out
}

/// `PATH  (N rewritten, M left alone)`, the path as its bytes.
fn file_line(file: &FileReport) -> Vec<u8> {
    let mut counts = format!("{} rewritten", file.rewritten);
    if file.left_alone > 0 {
        counts.push_str(&format!(", {} left alone", file.left_alone));
    }
    let mut out = file.path_on_disk().to_vec();
    out.extend_from_slice(format!("  ({counts})\n").as_bytes());
    out
}

/// A hunk's lines, after its definition's heading when it differs from
/// the one before (`heading`).
fn hunk_text<'r>(hunk: &'r HunkReport, heading: &mut Option<&'r str>) -> String {
    let mut out = String::new();
    let indent = if hunk.definition.is_some() {
        "    "
    } else {
        "  "
    };
    if hunk.definition.as_deref() != *heading {
        if let Some(title) = &hunk.definition {
            out.push_str(&format!("  {title}\n"));
        }
        *heading = hunk.definition.as_deref();
    }
    for (n, line) in hunk.before.iter().enumerate() {
        out.push_str(&format!("{indent}-{}: {line}\n", hunk.line + n as u64));
    }
    for (n, line) in hunk.after.iter().enumerate() {
        out.push_str(&format!("{indent}+{}: {line}\n", hunk.new_line + n as u64));
    }
    out
}

/// A file's block cut to `room` bytes: the hunks that fit (at least one),
/// then how many did not and the command that shows them all; and
/// whether any was left out.
fn cut_block(file: &FileReport, room: usize, command: &str) -> (Vec<u8>, bool) {
    let mut out = file_line(file);
    let mut heading: Option<&str> = None;
    let mut shown = 0;
    for hunk in &file.hunks {
        let text = hunk_text(hunk, &mut heading);
        if shown > 0 && out.len() + text.len() > room {
            break;
        }
        out.extend_from_slice(text.as_bytes());
        shown += 1;
    }
    let left = file.hunks.len() - shown;
    if left > 0 {
        let more = format!(
            "  +{left} more {} in this file: {command} --budget-tokens 0\n",
            if left == 1 { "change" } else { "changes" }
        );
        out.extend_from_slice(more.as_bytes());
    }
    (out, left > 0)
}

/// What follows the files: what was left alone, the graph's account, the
/// callers of a changed signature, how to undo or apply.
fn footer(report: &Report) -> String {
    let mut out = String::new();
    if report.left_alone > 0 {
        out.push_str(&format!(
            "left alone: {} nested in a match rewritten (its rewrite carries {} as captured)\n",
            plural(report.left_alone, "match", "matches"),
            if report.left_alone == 1 { "it" } else { "them" }
        ));
    }
    let unchanged = report.files - report.files_changed;
    if unchanged > 0 && report.files_changed < report.files {
        out.push_str(&format!(
            "unchanged: {} whose rewrite gives back the same bytes\n",
            plural(unchanged, "file matched", "files matched")
        ));
    }
    if let Some(scope) = &report.scope_text {
        out.push_str(scope);
        out.push_str("  (only the attributed calls were rewritten; the others are left alone)\n");
    }
    if !report.removed.is_empty() {
        out.push_str(&format!(
            "preamble replaced: the new code brings its own, so the old one's {} removed: {}\n",
            plural(report.removed.len() as u64, "line was", "lines were"),
            report.removed.join(" | ")
        ));
    }
    if let Some(callers) = &report.callers {
        let total = callers.sites.len() as u64 + callers.same_file;
        out.push_str(&format!(
            "signature changed: {} has {} the graph attributes",
            callers.title,
            plural(total, "call", "calls")
        ));
        if !callers.sites.is_empty() {
            let named: Vec<&str> = callers.sites.iter().take(20).map(String::as_str).collect();
            out.push_str(&format!(": {}", named.join(", ")));
            if callers.sites.len() > 20 {
                out.push_str(&format!(" (+{} more)", callers.sites.len() - 20));
            }
        }
        if callers.same_file > 0 {
            out.push_str(&format!("; {} in its own file", callers.same_file));
        }
        if callers.cannot_tell > 0 {
            out.push_str(&format!(
                "; {} it cannot tell",
                plural(callers.cannot_tell, "call", "calls")
            ));
        }
        out.push_str(" (they may need the change too)\n");
    }
    if report.written {
        out.push_str("undo: scout edit --undo\n");
    } else if report.dry_run && report.files_changed > 0 {
        out.push_str("apply: the same command without --dry-run\n");
    }
    out
}

/// What `--undo` did.
pub fn write_undone(undone: &Undone, form: ReportForm, out: &mut dyn Write) -> Result<()> {
    if form.json {
        let doc = serde_json::json!({
            "mode": "undo",
            "restored": undone.restored,
            "already_old": undone.already,
            "started": undone.started,
        });
        let mut bytes = serde_json::to_vec(&doc)?;
        bytes.push(b'\n');
        out.write_all(&bytes)?;
        return Ok(());
    }
    let restored = undone.restored.len() as u64;
    let whose = if restored == 1 { "its" } else { "their" };
    let mut text = format!(
        "undo: restored {} to {whose} bytes before the last edit\n",
        plural(restored, "file", "files")
    );
    for path in &undone.restored {
        text.push_str(&format!("  {path}\n"));
    }
    if !undone.already.is_empty() {
        text.push_str(&format!(
            "already as before (the edit was interrupted before them): {}\n",
            undone.already.join(", ")
        ));
    }
    out.write_all(text.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(files: usize) -> Report {
        Report {
            mode: "structural".into(),
            what: "$X.unwrap() => $X?".into(),
            lang: Some("rust".into()),
            written: true,
            dry_run: false,
            files: files as u64,
            files_changed: files as u64,
            matches: files as u64,
            rewritten: files as u64,
            left_alone: 0,
            changes: (0..files)
                .map(|i| FileReport {
                    path: format!("src/f{i:02}.rs"),
                    path_bytes: None,
                    lines: vec![3],
                    matches: 1,
                    rewritten: 1,
                    left_alone: 0,
                    hunks: vec![HunkReport {
                        line: 3,
                        last_line: 3,
                        new_line: 3,
                        new_last_line: 3,
                        before: vec!["    let v = a.unwrap();".into()],
                        after: vec!["    let v = a?;".into()],
                        definition: Some("function main (1-9)".into()),
                    }],
                })
                .collect(),
            scope_text: None,
            scope: None,
            callers: None,
            removed: Vec::new(),
            command: "scout edit --last".into(),
        }
    }

    #[test]
    fn a_page_shows_the_hunks_under_their_definition() {
        let text = String::from_utf8(page(&report(1), 1, None, 5).text).unwrap();
        assert!(
            text.starts_with("edit: $X.unwrap() => $X?  mode=structural lang=rust  files=1 matches=1 rewritten=1 left_alone=0  written  page=1/1  ~"),
            "{text}"
        );
        assert!(text.contains("src/f00.rs  (1 rewritten)\n  function main (1-9)\n    -3:     let v = a.unwrap();\n    +3:     let v = a?;\n"), "{text}");
        assert!(text.ends_with("undo: scout edit --undo\n"), "{text}");
    }

    #[test]
    fn pages_split_files_within_the_budget_and_say_what_follows() {
        let report = report(40);
        let first = page(&report, 1, Some(1200), 0);
        assert!(first.left_out);
        let first = String::from_utf8(first.text).unwrap();
        assert!(first.len() <= 1200, "{} bytes", first.len());
        let shown = first.matches("rewritten)\n").count();
        assert!(shown > 0 && shown < 40);
        assert!(
            first.contains(&format!(
                "+{} files not shown: scout edit --last --page 2",
                40 - shown
            )),
            "{first}"
        );
        // Every file is on exactly one page.
        let pages: usize = first
            .lines()
            .next()
            .and_then(|l| l.split("page=1/").nth(1))
            .and_then(|r| r.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap();
        let total: usize = (1..=pages)
            .map(|p| {
                String::from_utf8(page(&report, p, Some(1200), 0).text)
                    .unwrap()
                    .matches("rewritten)\n")
                    .count()
            })
            .sum();
        assert_eq!(total, 40);
    }

    #[test]
    fn a_file_larger_than_a_page_says_how_many_changes_it_left_out() {
        let mut report = report(1);
        let hunk = report.changes[0].hunks[0].clone();
        report.changes[0].hunks = (0..100)
            .map(|i| HunkReport {
                line: 3 + i,
                new_line: 3 + i,
                last_line: 3 + i,
                new_last_line: 3 + i,
                ..hunk.clone()
            })
            .collect();
        let page = page(&report, 1, Some(1000), 0);
        assert!(page.left_out);
        let text = String::from_utf8(page.text).unwrap();
        assert!(
            text.contains("more changes in this file: scout edit --last --budget-tokens 0"),
            "{text}"
        );
        assert!(text.len() <= 1100, "{} bytes", text.len());
    }
}
