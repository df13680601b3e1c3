//! The session's memory on a search page: what the session was already
//! shown of the page's files (those lines collapse), and what the page
//! shows, to be recorded. The memory file itself is `session`'s.

use std::io::Write;
use std::path::Path;

use anyhow::Result;

use crate::page::tally::{PlainLine, Ranked};
use crate::page::{chosen_quotes, PageSpan};
use crate::paths::path_of;
use crate::render::Report;
use crate::search::settings::SearchSettings;
use crate::session::{self, Memory, Shown, Stamp};

/// The session's memory, unless there is no session or `--again` asked
/// to ignore it; a memory file that could not be used is named once on
/// `err`.
pub fn load(settings: &SearchSettings, err: &mut dyn Write) -> Result<Option<Memory>> {
    let (Some(session), false) = (&settings.session, settings.again) else {
        return Ok(None);
    };
    let loaded = session.load();
    if let Some(warning) = loaded.warning {
        writeln!(err, "scout: {warning}")?;
    }
    Ok(Some(loaded.memory))
}

/// Adds what a page showed to the session's memory, when this search
/// records it.
pub fn record(settings: &SearchSettings, shown: &[Shown], err: &mut dyn Write) -> Result<()> {
    if let (Some(session), true) = (&settings.session, settings.remember) {
        if let Some(warning) = session.record(shown) {
            writeln!(err, "scout: {warning}")?;
        }
    }
    Ok(())
}

/// Line ranges shown of one file, 1-based and inclusive.
type Ranges<'m> = &'m [(u64, u64)];

/// What the memory holds of each file on one page, as it is now: read
/// (and each file stat'ed) once, then asked for any number of layouts of
/// the same page's files.
pub struct Recalled<'m> {
    /// Per slot: the line ranges shown of the file while it had its
    /// current size and mtime; `None` for no memory at all.
    ranges: Option<Vec<Option<Ranges<'m>>>>,
}

impl<'m> Recalled<'m> {
    /// Looks up the files of `span` in `memory`.
    pub fn new(
        settings: &SearchSettings,
        ranked: &[Ranked],
        span: &PageSpan,
        memory: &'m Option<Memory>,
    ) -> Recalled<'m> {
        let ranges = memory.as_ref().map(|memory| {
            span.slots
                .iter()
                .map(|slot| {
                    let tally = &ranked[slot.file].tally;
                    let key = memory_key(&settings.cwd, &tally.path);
                    if !memory.files.contains_key(&key) {
                        return None;
                    }
                    Stamp::read(&path_of(&tally.path)).and_then(|now| memory.seen(&key, now))
                })
                .collect()
        });
        Recalled { ranges }
    }

    /// Per slot of `span` (the page looked up, possibly with fewer lines
    /// per file): the chosen lines the session was already shown.
    pub fn seen(&self, ranked: &[Ranked], span: &PageSpan) -> Vec<Vec<u64>> {
        let Some(ranges) = &self.ranges else {
            return Vec::new();
        };
        span.slots
            .iter()
            .zip(ranges)
            .map(|(slot, ranges)| {
                let Some(ranges) = ranges else {
                    return Vec::new();
                };
                chosen_quotes(&ranked[slot.file].tally, slot.lines)
                    .into_iter()
                    .map(|q| q.line)
                    .filter(|&line| session::contains(ranges, line))
                    .collect()
            })
            .collect()
    }
}

/// The absolute path session memory keys a file by: the working directory
/// joined with rg's path, its `.` and `..` resolved by their words
/// ([`crate::paths::lexical`], as the hooks key the agent's own reads; no
/// symlink resolved: no system call per file).
pub fn memory_key(cwd: &Path, path: &[u8]) -> String {
    crate::paths::lexical(&cwd.join(path_of(path)))
        .to_string_lossy()
        .into_owned()
}

/// What a page quoted, for the session memory (nothing when this search
/// records nothing: no file is stat'ed for it then).
pub fn shown_on_page(settings: &SearchSettings, report: &Report<'_>) -> Vec<Shown> {
    if !settings.records_memory() {
        return Vec::new();
    }
    report
        .span()
        .slots
        .iter()
        .filter_map(|slot| {
            let tally = &report.ranked[slot.file].tally;
            let lines: Vec<u64> = chosen_quotes(tally, slot.lines)
                .into_iter()
                .map(|q| q.line)
                .collect();
            if lines.is_empty() {
                return None;
            }
            Some(Shown {
                path: memory_key(&settings.cwd, &tally.path),
                stamp: Stamp::read(&path_of(&tally.path))?,
                lines,
            })
        })
        .collect()
}

/// What rg's plain lines showed, for the session memory (nothing when
/// this search records nothing).
pub fn shown_in_plain(settings: &SearchSettings, lines: &[PlainLine]) -> Vec<Shown> {
    let mut shown: Vec<Shown> = Vec::new();
    if !settings.records_memory() {
        return shown;
    }
    for line in lines {
        let key = memory_key(&settings.cwd, &line.path);
        match shown.last_mut() {
            Some(last) if last.path == key => last.lines.push(line.number),
            _ => {
                if let Some(stamp) = Stamp::read(&path_of(&line.path)) {
                    shown.push(Shown {
                        path: key,
                        stamp,
                        lines: vec![line.number],
                    });
                }
            }
        }
    }
    shown
}
