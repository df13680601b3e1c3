//! The report of `scout edit`: what its page and JSON document show, and
//! what the undo journal keeps for `scout edit --last`; what an undo did;
//! and how a report is to be shown.

use serde::{Deserialize, Serialize};

/// How a report is shown: as a JSON document, or as one page of text
/// within a byte budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReportForm {
    pub json: bool,
    /// 1-based.
    pub page: usize,
    pub budget_bytes: Option<usize>,
}

/// The callers of a definition whose signature an edit changes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Callers {
    /// `function load (src/config.py:12)`.
    pub title: String,
    /// Attributed calls in other files, as `PATH:LINE`.
    pub sites: Vec<String>,
    /// Attributed calls in the definition's own file.
    pub same_file: u64,
    /// Calls of the name the graph could not attribute either way.
    pub cannot_tell: u64,
}

/// The report of one edit: what the page and the JSON document show, and
/// what the journal keeps for `scout edit --last`. Text that is not
/// UTF-8 is kept lossily.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Report {
    /// `structural`, `text` or `definition`.
    pub mode: String,
    /// What was asked: `PATTERN => TEMPLATE`, the `--old` texts, or the
    /// definition's title.
    pub what: String,
    /// The structural pattern's language.
    pub lang: Option<String>,
    /// True when the files were written (false with `--dry-run`, and for
    /// an edit that was refused).
    pub written: bool,
    pub dry_run: bool,
    /// Files with a match, and of those the files whose bytes change.
    pub files: u64,
    pub files_changed: u64,
    /// Every match in scope, those rewritten, and those left alone
    /// (nested in a match rewritten).
    pub matches: u64,
    pub rewritten: u64,
    pub left_alone: u64,
    /// Every changed file, in path order.
    pub changes: Vec<FileReport>,
    /// `--callers-of` / `--impact`: the graph's account, as the search's
    /// footer gives it, and as its JSON gives it.
    pub scope_text: Option<String>,
    pub scope: Option<serde_json::Value>,
    pub callers: Option<Callers>,
    /// A definition edit whose new code brings its own comments,
    /// decorators or attributes: the lines of the old preamble it
    /// removed, as `N: TEXT` (N 1-based, in the old file).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<String>,
    /// The command that shows another page of this report.
    pub command: String,
}

/// One changed file of a [`Report`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileReport {
    /// The path, lossily decoded where it is not UTF-8.
    pub path: String,
    /// The path's bytes, only where they are not UTF-8 (`path` cannot
    /// name the file then): what the text page prints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path_bytes: Option<Vec<u8>>,
    /// The lines the file's matches start on (1-based, in order, each
    /// once): for a scoped edit, the lines `scout search --callers-of`
    /// shows.
    pub lines: Vec<u64>,
    pub matches: u64,
    pub rewritten: u64,
    pub left_alone: u64,
    pub hunks: Vec<HunkReport>,
}

impl FileReport {
    /// The path as the file system names the file.
    pub fn path_on_disk(&self) -> &[u8] {
        self.path_bytes.as_deref().unwrap_or(self.path.as_bytes())
    }
}

/// One change: old lines `line..=last_line` became new lines
/// `new_line..=new_last_line` (1-based; an empty side names the line it
/// stands before, and its last line is its first).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HunkReport {
    pub line: u64,
    pub last_line: u64,
    pub new_line: u64,
    pub new_last_line: u64,
    pub before: Vec<String>,
    pub after: Vec<String>,
    /// The innermost definition holding the old lines: `function main
    /// (1-9)`.
    pub definition: Option<String>,
}

/// What an undo did.
#[derive(Debug, Default)]
pub struct Undone {
    /// Files given their old bytes back, as the report showed them.
    pub restored: Vec<String>,
    /// Files that had their old bytes already (an edit interrupted
    /// before renaming them).
    pub already: Vec<String>,
    /// When the edit began, in seconds since the Unix epoch.
    pub started: u64,
}
