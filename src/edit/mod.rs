//! `scout edit`: a search that writes. One pipeline for every kind
//! of edit:
//!
//! 1. **plan** ([`settings`]): which edit, resolved; a structural one
//!    through the search's own settings;
//! 2. **find** ([`structural`], [`text`], [`definition`]): every file's
//!    new bytes computed whole, with its hunks ([`change`]); a structural
//!    edit walks, matches and scopes as `scout search --structural`
//!    (`--callers-of`) does, so it changes exactly the calls the search
//!    keeps; a file reached by several names is kept once;
//! 3. **check** ([`check`]): paths, permissions, and a parse of every new
//!    file; any refusal stops the edit before the first write;
//! 4. **write** ([`write`]): journaled, staged, renamed one at a time,
//!    rolled back if a file changes under it; `--undo` from the journal;
//! 5. **report** ([`Report`], rendered by [`crate::render::edit`]): a
//!    budgeted page of diff hunks under their file and definition, exact
//!    counters, what was left alone; the rewritten lines join the
//!    session's memory.

pub mod change;
pub mod check;
pub mod definition;
pub mod settings;
pub mod structural;
pub mod text;
pub mod write;

use std::io::Write;
use std::time::Instant;

use anyhow::Result;

use crate::exit::ExitStatus;
use crate::graph::Scope;
pub use crate::page::edit::{Callers, FileReport, HunkReport, Report};
use crate::session::journal::Journal;
use crate::session::{Shown, Stamp};
use change::FileChange;
use settings::{EditSettings, Mode};

/// What the find stage leaves.
#[derive(Debug, Default)]
pub struct Planned {
    /// Files with at least one match (their bytes may be unchanged, when
    /// a rewrite gives back what was there), in path order.
    pub files: Vec<FileChange>,
    /// `--callers-of` / `--impact`: what the graph made of the calls.
    pub scope: Option<Scope>,
    /// A definition edit that changes the signature: its callers.
    pub callers: Option<Callers>,
    /// A definition edit whose new code brings its own preamble: the old
    /// preamble's lines it removed, as `N: TEXT`.
    pub removed: Vec<String>,
    /// Said on stderr (why nothing matched, say).
    pub notes: Vec<String>,
}

/// The journal of this session (else of this working directory).
fn journal(settings: &EditSettings) -> Result<Journal> {
    let state = settings.state_dir.as_ref().ok_or_else(|| {
        anyhow::anyhow!("no state directory for the undo journal: set XDG_STATE_HOME or HOME")
    })?;
    let key = match &settings.session {
        Some(session) => format!("session:{}", session.id),
        None => format!(
            "dir:{}",
            std::fs::canonicalize(&settings.cwd)
                .unwrap_or_else(|_| settings.cwd.clone())
                .display()
        ),
    };
    Ok(Journal::new(state, &key))
}

/// Runs the edit, writing its page (or document) to `out` and messages to
/// `err`.
pub fn run(
    settings: &EditSettings,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus> {
    let started = Instant::now();
    let planned = match &settings.mode {
        Mode::Undo => return undo(settings, out),
        Mode::Last => return last(settings, out, started),
        Mode::Structural { search, template } => structural::plan(search, template, err)?,
        Mode::Text {
            pairs,
            count,
            files,
        } => text::plan(pairs, *count, files)?,
        Mode::Definition { spec, source, rg } => {
            definition::plan(spec, source, rg, settings.cache_dir.clone())?
        }
    };
    let mut planned = planned;
    one_name_per_file(&mut planned)?;
    for note in &planned.notes {
        writeln!(err, "scout: {note}")?;
    }
    let changed: Vec<&FileChange> = planned.files.iter().filter(|f| f.changes_bytes()).collect();
    check::ensure_writable(&changed, &settings.cwd)?;
    check::ensure_parses(&changed)?;
    let mut report = report(settings, &planned);
    if planned.files.is_empty() {
        // Exit 1 leaves stdout empty (README, "Exit status"); a JSON
        // document is the answer whatever it holds.
        let sink: &mut dyn Write = if settings.json { &mut *out } else { &mut *err };
        crate::render::edit::write_report(&report, settings.form(), started, sink)?;
        return Ok(ExitStatus::NoMatch);
    }
    if !settings.dry_run && !changed.is_empty() {
        // The page asked for is checked against the report as written
        // (its footer names `--last`), before anything is.
        let mut written = report.clone();
        written.written = true;
        written.command = settings.last_command.clone();
        ensure_page(&written, settings, true)?;
    } else {
        ensure_page(&report, settings, false)?;
    }
    if !settings.dry_run && !changed.is_empty() {
        let journal = journal(settings)?;
        let _lock = journal.lock()?;
        report.written = true;
        report.command = settings.last_command.clone();
        let stored = serde_json::to_vec(&report)?;
        write::write(&changed, &journal, &stored, settings.fault)?;
        remember(settings, &changed);
    }
    crate::render::edit::write_report(&report, settings.form(), started, out)?;
    Ok(ExitStatus::Shown)
}

/// Keeps one change per file, whatever names reach it (a hard link, a
/// symlink, `a.py` and `./a.py`): the first in path order, the others
/// said in a note. Names whose changes differ (a scope that attributed
/// the calls of one name and not the other's) refuse the edit.
fn one_name_per_file(planned: &mut Planned) -> Result<()> {
    let mut kept: Vec<FileChange> = Vec::with_capacity(planned.files.len());
    for file in std::mem::take(&mut planned.files) {
        let Some(first) = kept.iter().find(|k| k.stamp.same_inode(&file.stamp)) else {
            kept.push(file);
            continue;
        };
        let (name, first_name) = (
            crate::shell::quote(&file.path),
            crate::shell::quote(&first.path),
        );
        if first.after != file.after {
            anyhow::bail!(
                "{name} and {first_name} are one file (a link, or one path spelled twice), and the edit would write it two ways; name one of them\nnothing written"
            );
        }
        planned.notes.push(format!(
            "{name} is {first_name} (the same file by another name): edited once, as {first_name}"
        ));
    }
    planned.files = kept;
    Ok(())
}

/// Refuses a page past the report's last (exit 2, as `scout search`
/// does), before anything is written; a JSON document is never paged.
fn ensure_page(report: &Report, settings: &EditSettings, before_writing: bool) -> Result<()> {
    let pages = crate::render::edit::page_count(report, settings.budget_bytes);
    if !settings.json && settings.page > pages {
        anyhow::bail!(
            "there is no page {}: this report has {} (try --page 1){}",
            settings.page,
            crate::render::scope::plural(pages as u64, "page", "pages"),
            if before_writing {
                "; nothing written"
            } else {
                ""
            }
        );
    }
    Ok(())
}

/// The report of a planned edit (not yet written).
fn report(settings: &EditSettings, planned: &Planned) -> Report {
    let (mode, what, lang) = match &settings.mode {
        Mode::Structural { search, template } => {
            let pattern = search.structural.as_ref().expect("structural");
            (
                "structural",
                format!(
                    "{} => {}",
                    one_line(pattern.text.as_bytes()),
                    one_line(template.text.as_bytes())
                ),
                Some(pattern.lang().name().to_string()),
            )
        }
        Mode::Text { pairs, .. } => {
            let olds: Vec<String> = pairs
                .iter()
                .map(|p| format!("{} => {}", one_line(&p.old), one_line(&p.new)))
                .collect();
            ("text", olds.join("; "), None)
        }
        Mode::Definition { spec, .. } => ("definition", spec.text.clone(), None),
        Mode::Undo | Mode::Last => unreachable!("no report is planned for these"),
    };
    let sum = |f: fn(&FileChange) -> u64| planned.files.iter().map(f).sum::<u64>();
    Report {
        mode: mode.into(),
        what,
        lang,
        written: false,
        dry_run: settings.dry_run,
        files: planned.files.len() as u64,
        files_changed: planned.files.iter().filter(|f| f.changes_bytes()).count() as u64,
        matches: sum(|f| f.matches),
        rewritten: sum(|f| f.rewritten),
        left_alone: sum(|f| f.left_alone),
        changes: planned
            .files
            .iter()
            .filter(|f| f.changes_bytes())
            .map(file_report)
            .collect(),
        scope_text: planned.scope.as_ref().map(crate::render::scope::text),
        scope: planned
            .scope
            .as_ref()
            .and_then(|s| serde_json::to_value(crate::render::scope::document(s)).ok()),
        callers: planned.callers.clone(),
        removed: planned.removed.clone(),
        command: settings.command.clone(),
    }
}

/// Text for the header, on one line: as typed when it is plain, else
/// quoted with its line ends and tabs escaped (`"a\nb"`).
fn one_line(text: &[u8]) -> String {
    let text = String::from_utf8_lossy(text);
    if text.chars().all(|c| !c.is_control()) && !text.contains(' ') && !text.is_empty() {
        text.into_owned()
    } else {
        format!("{text:?}")
    }
}

fn file_report(file: &FileChange) -> FileReport {
    let lossy = |lines: &[Vec<u8>]| -> Vec<String> {
        lines
            .iter()
            .map(|l| String::from_utf8_lossy(l).into_owned())
            .collect()
    };
    FileReport {
        path: String::from_utf8_lossy(&file.path).into_owned(),
        path_bytes: std::str::from_utf8(&file.path)
            .is_err()
            .then(|| file.path.clone()),
        lines: file.match_lines.clone(),
        matches: file.matches,
        rewritten: file.rewritten,
        left_alone: file.left_alone,
        hunks: file
            .hunks
            .iter()
            .map(|h| HunkReport {
                line: h.old_start,
                last_line: h.old_end(),
                new_line: h.new_start,
                new_last_line: h.new_end(),
                before: lossy(&h.old),
                after: lossy(&h.new),
                definition: crate::defs::enclosing(&file.defs, h.old_start as u32)
                    .map(|d| format!("{} ({}-{})", d.title(), d.start_line, d.end_line)),
            })
            .collect(),
    }
}

/// The rewritten lines join the session's memory, keyed by the files'
/// new stamps: the agent has seen them in the report.
fn remember(settings: &EditSettings, changed: &[&FileChange]) {
    let Some(session) = &settings.session else {
        return;
    };
    let shown: Vec<Shown> = changed
        .iter()
        .filter_map(|change| {
            let lines: Vec<u64> = change
                .hunks
                .iter()
                .flat_map(|h| h.new_start..h.new_start + h.new.len() as u64)
                .collect();
            if lines.is_empty() {
                return None;
            }
            Some(Shown {
                path: crate::search::remember::memory_key(&settings.cwd, &change.path),
                stamp: Stamp::read(&change.real)?,
                lines,
            })
        })
        .collect();
    let _ = session.record(&shown);
}

/// `--undo`.
fn undo(settings: &EditSettings, out: &mut dyn Write) -> Result<ExitStatus> {
    let journal = journal(settings)?;
    let _lock = journal.lock()?;
    let Some(undone) = write::undo(&journal)? else {
        let whose = match &settings.session {
            Some(session) => format!("session {}", session.id),
            None => format!("{}", settings.cwd.display()),
        };
        writeln!(
            out,
            "undo: nothing to undo for {whose} (the last edit was undone, or there was none)"
        )?;
        return Ok(ExitStatus::NoMatch);
    };
    crate::render::edit::write_undone(&undone, settings.form(), out)?;
    Ok(ExitStatus::Shown)
}

/// `--last`: the last edit's report, from the journal.
fn last(settings: &EditSettings, out: &mut dyn Write, started: Instant) -> Result<ExitStatus> {
    let journal = journal(settings)?;
    let report = journal
        .load()
        .and_then(|manifest| journal.report(&manifest))
        .and_then(|bytes| serde_json::from_slice::<Report>(&bytes).ok());
    let Some(mut report) = report else {
        writeln!(out, "last: no edit to show (none yet, or it was undone)")?;
        return Ok(ExitStatus::NoMatch);
    };
    // Its later pages at the budget asked for now.
    report.command = settings.last_command.clone();
    ensure_page(&report, settings, false)?;
    crate::render::edit::write_report(&report, settings.form(), started, out)?;
    Ok(ExitStatus::Shown)
}
