//! A resolved edit: which kind of edit, its files, its report, and the
//! environment read once (rg, the session, the state directory, the
//! fault an internal test injects). The command line's layer
//! (`cli::edit`) or a request resolves it from the flags.

use std::ffi::OsString;
use std::path::PathBuf;

use crate::page::edit::ReportForm;
use crate::search::settings::SearchSettings;
use crate::session::Session;
use crate::structural::rewrite::Template;

/// Where a definition's new code comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    File(PathBuf),
    Stdin,
    /// Given whole (a `scout call` request's `with`).
    Text(String),
}

/// One `--old`/`--new` pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pair {
    pub old: Vec<u8>,
    pub new: Vec<u8>,
}

/// How many times each pair must match in each file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Count {
    Exactly(usize),
    /// `--all`: one or more.
    Any,
}

/// Which edit.
#[derive(Debug)]
pub enum Mode {
    /// `--structural PATTERN --rewrite TEMPLATE`: the search settings
    /// carry the pattern, the walk and the graph's scope.
    Structural {
        search: Box<SearchSettings>,
        template: Template,
    },
    /// `--old/--new`.
    Text {
        pairs: Vec<Pair>,
        count: Count,
        files: Vec<OsString>,
    },
    /// `PATH#SYMBOL --with`; rg finds the definition's callers.
    Definition {
        spec: crate::graph::SymbolSpec,
        source: Source,
        rg: crate::rg::Rg,
    },
    /// `--undo`.
    Undo,
    /// `--last`: the last edit's report again.
    Last,
}

/// A fault an internal test injects into the write
/// (`SCOUT_INTERNAL_EDIT_FAULT`), so that each fault test makes its fault
/// happen deterministically.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Fault {
    /// The staged copy of the Nth file (1-based) fails as a full disk.
    pub full_disk_at: Option<usize>,
    /// Milliseconds to wait once everything is staged, before the first
    /// rename (a file may be changed under the edit then).
    pub pause_before_rename_ms: u64,
    /// Milliseconds to wait after each rename.
    pub pause_between_ms: u64,
}

impl Fault {
    /// `full-disk-at=N`, `pause-before-rename=MS`, `pause-between=MS`,
    /// comma-separated; anything else is ignored.
    pub fn parse(text: &str) -> Fault {
        let mut fault = Fault::default();
        for item in text.split(',') {
            let Some((key, value)) = item.split_once('=') else {
                continue;
            };
            let Ok(n) = value.trim().parse::<u64>() else {
                continue;
            };
            match key.trim() {
                "full-disk-at" => fault.full_disk_at = Some(n as usize),
                "pause-before-rename" => fault.pause_before_rename_ms = n,
                "pause-between" => fault.pause_between_ms = n,
                _ => {}
            }
        }
        fault
    }
}

/// The variable an internal test sets to inject a fault.
pub const FAULT_VAR: &str = "SCOUT_INTERNAL_EDIT_FAULT";

/// An edit, ready to run.
#[derive(Debug)]
pub struct EditSettings {
    pub mode: Mode,
    pub dry_run: bool,
    /// Page budget in bytes; `None` means no limit.
    pub budget_bytes: Option<usize>,
    pub page: usize,
    pub json: bool,
    /// The working directory: nothing outside it is written.
    pub cwd: PathBuf,
    /// The agent session (its memory gets the rewritten lines; its
    /// edits are undone by its own `--undo`).
    pub session: Option<Session>,
    /// scout's state directory (the undo journal), if there is one.
    pub state_dir: Option<PathBuf>,
    /// scout's cache directory (the code graph's facts).
    pub cache_dir: Option<PathBuf>,
    /// The command as typed, less `--page`, `--json` and `--color`: the
    /// base of the next page's command.
    pub command: String,
    /// `scout edit --last` with this command's budget: the base of the
    /// next page's command once the edit is written, and of `--last`'s.
    pub last_command: String,
    pub fault: Fault,
}

impl EditSettings {
    /// How the edit's report is shown.
    pub fn form(&self) -> ReportForm {
        ReportForm {
            json: self.json,
            page: self.page,
            budget_bytes: self.budget_bytes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults_parse_and_unknown_ones_are_ignored() {
        assert_eq!(
            Fault::parse("full-disk-at=3,pause-between=20,nonsense=1,x"),
            Fault {
                full_disk_at: Some(3),
                pause_before_rename_ms: 0,
                pause_between_ms: 20
            }
        );
        assert_eq!(Fault::parse(""), Fault::default());
    }
}
