//! The listing view: file names matching a glob, newest first, capped.
//!
//! rg does the walking and the glob matching (`rg --files -g GLOB`), so the
//! glob means exactly what it means to `scout grep --glob` and to rg. One
//! catch: an rg glob that matches a file wins over ignore files and the
//! hidden rule for that file. So when ignored or hidden files are to be
//! skipped, a second `rg --files` without the glob lists what those rules
//! allow, and only files on both lists are kept. (globset plus a walk of
//! our own would re-implement rg's glob and ignore semantics, and drift.)
//! Both listings run in PATH, since rg anchors a glob holding a `/` at
//! its working directory and the glob is to be anchored at PATH.
//!
//! Ordering, the cap and the time limit are this module's; rg's command
//! lines are [`crate::rg::FilesFlags`]'.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};

use crate::exit::ExitStatus;
use crate::rg::{run_lines, Ending, FilesFlags, Flow, LineSink, LinesOutcome, Rg};
use crate::views::{self};

/// Files listed when neither `--limit` nor [`LIMIT_ENV`] says otherwise.
pub const DEFAULT_LIMIT: usize = 100;
/// The environment variable holding the default `--limit`.
pub const LIMIT_ENV: &str = "SCOUT_FILES_MAX";
/// Set to `0` to skip ignored files by default (as `--respect-ignore`).
pub const NO_IGNORE_ENV: &str = "SCOUT_FILES_NO_IGNORE";
/// Set to `0` to skip hidden files by default (as `--no-hidden`).
pub const HIDDEN_ENV: &str = "SCOUT_FILES_HIDDEN";

/// A listing, ready to run.
#[derive(Debug)]
pub struct FilesSettings {
    pub rg: Rg,
    pub flags: FilesFlags,
    /// Most files listed; `None` means no limit.
    pub limit: Option<usize>,
    /// `None` means no limit.
    pub timeout: Option<Duration>,
}

/// A listing: the files shown and how many matched.
#[derive(Debug)]
pub struct FileList {
    /// Paths, newest first (ties by path), at most the limit.
    pub files: Vec<Vec<u8>>,
    /// Files that matched in all (a lower bound when the listing timed out).
    pub total: usize,
    /// The limit that cut the list, when it did.
    pub limit: Option<usize>,
    /// Set when the listing was stopped at the time limit.
    pub timed_out: Option<Duration>,
    /// rg's complaints about folders it could not read (the rest was listed).
    pub warnings: Vec<String>,
    pub status: ExitStatus,
}

impl FileList {
    /// True when some matching files are not in the list.
    pub fn truncated(&self) -> bool {
        self.files.len() < self.total || self.timed_out.is_some()
    }
}

#[derive(Default)]
struct Paths(Vec<Vec<u8>>);

impl LineSink for Paths {
    fn line(&mut self, line: &[u8]) -> Flow {
        self.0.push(line.to_vec());
        Flow::Continue
    }
    fn reset(&mut self) {
        self.0.clear();
    }
}

/// Lists the files.
pub fn list(settings: &FilesSettings) -> Result<FileList> {
    let started = Instant::now();
    let deadline = settings.timeout.map(|t| started + t);
    // With a filter, both listings run at once under the same deadline, so
    // a timeout leaves each with its share of the time (and a partial
    // answer from both, flagged as timed out) rather than none for the
    // second.
    let (matching, allowed) = std::thread::scope(|scope| {
        let allowed = settings.flags.allowed().map(|command| {
            scope.spawn(move || {
                let mut allowed = Paths::default();
                run_lines(&settings.rg, &command, deadline, &mut allowed)
                    .map(|outcome| (allowed.0, outcome))
            })
        });
        let mut matching = Paths::default();
        let outcome = run_lines(
            &settings.rg,
            &settings.flags.matching(),
            deadline,
            &mut matching,
        )
        .map(|outcome| (matching.0, outcome));
        let allowed = allowed.map(|handle| handle.join().expect("the listing thread panicked"));
        (outcome, allowed)
    });
    let (mut paths, outcome) = matching?;
    let mut warnings = Vec::new();
    let mut status = judge(&outcome, paths.len(), &mut warnings)?;
    let mut timed_out = outcome.ending == Ending::TimedOut;
    if let Some(allowed) = allowed {
        let (allowed, outcome) = allowed?;
        // Its warnings repeat the first listing's; its status only
        // matters when it failed outright.
        judge(&outcome, allowed.len(), &mut Vec::new())?;
        timed_out |= outcome.ending == Ending::TimedOut;
        let allowed: HashSet<Vec<u8>> = allowed.into_iter().collect();
        paths.retain(|p| allowed.contains(p));
    }
    // rg listed PATH from inside it (see `FilesFlags::path`).
    let paths: Vec<Vec<u8>> = paths.iter().map(|p| settings.flags.full_path(p)).collect();
    let warnings: Vec<String> = warnings
        .iter()
        .map(|w| settings.flags.full_warning(w))
        .collect();
    if timed_out {
        let after = settings.timeout.unwrap_or_else(|| started.elapsed());
        if paths.is_empty() {
            bail!(
                "listing timed out after {} with no file yet; narrow the PATH or the glob, or raise --timeout (0 = no limit)",
                views::seconds(after)
            );
        }
        status = ExitStatus::Partial;
    }
    if paths.is_empty() && status == ExitStatus::Shown {
        status = ExitStatus::NoMatch;
    }
    let mut files = views::newest_first(paths);
    let total = files.len();
    if let Some(limit) = settings.limit {
        files.truncate(limit);
    }
    Ok(FileList {
        files,
        total,
        limit: settings.limit.filter(|&limit| limit < total),
        timed_out: timed_out.then(|| settings.timeout.unwrap_or_else(|| started.elapsed())),
        warnings,
        status,
    })
}

/// rg's exit code as a status: 2 with files listed is partial (some
/// folder could not be read), 2 with none is an error.
fn judge(outcome: &LinesOutcome, listed: usize, warnings: &mut Vec<String>) -> Result<ExitStatus> {
    if outcome.retried_single_threaded {
        warnings.push(
            "rg could not start its threads (Resource temporarily unavailable); listed again on one thread"
                .into(),
        );
    }
    if let Some(reason) = outcome.rejection(&[]) {
        bail!("rg rejected the glob:\n{reason}");
    }
    if outcome.ending != Ending::Exited {
        return Ok(ExitStatus::Shown);
    }
    match outcome.code {
        Some(0 | 1) => Ok(ExitStatus::Shown),
        Some(2) if listed > 0 => {
            warnings.extend(outcome.stderr_lines());
            Ok(ExitStatus::Partial)
        }
        code => {
            let said = outcome.stderr_lines().join("\n");
            let code = code.map_or("a signal".to_string(), |c| format!("exit {c}"));
            bail!("rg failed ({code}):\n{said}");
        }
    }
}
