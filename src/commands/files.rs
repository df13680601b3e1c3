//! `scout files`: the listing view as text.
//!
//! One path per line, newest first; then, when the list was cut or timed
//! out, a line in square brackets saying how many files matched and how to
//! see them all.

use std::ffi::OsString;
use std::io::Write;

use anyhow::Result;

use crate::exit::ExitStatus;
use crate::render::scope::plural;
use crate::views;
use crate::views::files::{self, FileList, FilesSettings};

/// Lists the files, writing them to `out` and warnings to `err`; `argv` is
/// the command line typed, the base of the "see them all" command.
pub fn run(
    settings: &FilesSettings,
    argv: &[OsString],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus> {
    let list = files::list(settings)?;
    for warning in &list.warnings {
        writeln!(err, "scout: {warning}")?;
    }
    out.write_all(&page(&list, argv))?;
    if list.total == 0 {
        let glob = &settings.flags.glob;
        write!(
            err,
            "scout: no file matches {}",
            crate::shell::quote(glob.as_bytes())
        )?;
        if is_bare_name(glob) {
            // `scout files config` lists files named exactly `config`,
            // as rg's -g would; the names that hold it need wildcards.
            let wider = format!("*{glob}*");
            write!(
                err,
                " (a glob without wildcards matches whole names; names holding it: scout files {})",
                crate::shell::quote(wider.as_bytes())
            )?;
        }
        writeln!(err)?;
    }
    Ok(list.status)
}

/// A glob that is a plain file name: no wildcard, class, alternation,
/// escape or directory.
fn is_bare_name(glob: &str) -> bool {
    !glob.is_empty() && !glob.contains(['*', '?', '[', '{', '\\', '/'])
}

/// The text of a listing.
pub fn page(list: &FileList, argv: &[OsString]) -> Vec<u8> {
    let mut text = Vec::new();
    for path in &list.files {
        text.extend_from_slice(path);
        text.push(b'\n');
    }
    if let Some(limit) = list.limit {
        let matched = if list.timed_out.is_some() {
            "found so far"
        } else {
            "matched"
        };
        text.extend_from_slice(
            format!(
                "[list cut at --limit {limit}: {} {matched}, the {} newest shown; all of them: {}]\n",
                plural(list.total as u64, "file", "files"),
                list.files.len(),
                views::command_with(argv, "--limit", &list.total.to_string())
            )
            .as_bytes(),
        );
    }
    if let Some(after) = list.timed_out {
        text.extend_from_slice(
            format!(
                "[timed out after {}: the listing did not finish; {} found so far; narrow the PATH or the glob, or raise --timeout (0 = no limit)]\n",
                views::seconds(after),
                plural(list.total as u64, "file", "files"),
            )
            .as_bytes(),
        );
    }
    text
}
