//! Writing an edit, all or nothing, and undoing one.
//!
//! 1. The undo journal records every file's old bytes and the name of its
//!    staged copy ([`Journal::begin`]).
//! 2. Every file's new bytes are staged: a copy in the file's own
//!    directory (`.NAME.scout-edit.PID.N.tmp`), created new, written,
//!    flushed to disk, with the file's permission bits and owner. A
//!    failure here (a full disk) removes the copies: nothing was written.
//! 3. Each copy is renamed over its file, one at a time, after checking
//!    that the file is still the one read (same inode, size and
//!    modification time). A file changed under the edit stops it: the
//!    files already renamed get their old bytes back, the copies left are
//!    removed, and nothing is changed.
//!
//! A rename is atomic, so a process killed at any point leaves every file
//! its whole old or its whole new self, and the journal (written before
//! the first rename) lets `--undo` put back the old ones and remove any
//! copy left behind.

use std::fs::File;
use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use super::change::{FileChange, FileStamp};
use super::settings::Fault;
use crate::page::edit::Undone;
use crate::paths::path_of;
use crate::render::scope::plural;
use crate::session::journal::{fingerprint, Entry, Journal, Manifest};
use crate::shell;

/// Writes every change (files whose bytes change), journaled.
pub fn write(
    changes: &[&FileChange],
    journal: &Journal,
    report: &[u8],
    fault: Fault,
) -> Result<Manifest> {
    let previous = journal.manifest_bytes();
    let entries: Vec<Entry> = changes
        .iter()
        .enumerate()
        .map(|(n, change)| {
            let (old_size, old_hash) = fingerprint(&change.before);
            let (new_size, new_hash) = fingerprint(&change.after);
            Entry {
                path: change.real.as_os_str().as_encoded_bytes().to_vec(),
                shown: String::from_utf8_lossy(&change.path).into_owned(),
                temp: staged_path(&change.real, n)
                    .as_os_str()
                    .as_encoded_bytes()
                    .to_vec(),
                old_size,
                old_hash,
                new_size,
                new_hash,
                mode: change.stamp.mode,
            }
        })
        .collect();
    let olds: Vec<&[u8]> = changes.iter().map(|c| c.before.as_slice()).collect();
    let manifest = journal.begin(entries, &olds, report)?;
    let temps: Vec<PathBuf> = manifest.files.iter().map(|e| path_of(&e.temp)).collect();

    for (n, change) in changes.iter().enumerate() {
        let staged = if fault.full_disk_at == Some(n + 1) {
            Err(std::io::Error::from(std::io::ErrorKind::StorageFull))
        } else {
            stage(&temps[n], &change.after, &change.real)
        };
        if let Err(e) = staged {
            for temp in &temps[..=n] {
                let _ = std::fs::remove_file(temp);
            }
            journal.discard(&manifest, previous.as_deref());
            bail!(
                "{}: writing its new copy in {} failed: {e}; nothing written",
                shell::quote(&change.path),
                change.real.parent().unwrap_or(Path::new("/")).display()
            );
        }
    }
    pause(fault.pause_before_rename_ms);

    for (n, change) in changes.iter().enumerate() {
        let now = FileStamp::of(&change.real);
        let failure = if !now.is_some_and(|now| change.stamp.same_file(&now)) {
            Some("it changed while the edit ran".to_string())
        } else {
            std::fs::rename(&temps[n], &change.real)
                .err()
                .map(|e| format!("renaming its new copy over it failed: {e}"))
        };
        if let Some(why) = failure {
            let unrestored = roll_back(&changes[..n], &temps);
            if unrestored.is_empty() {
                journal.discard(&manifest, previous.as_deref());
                bail!(
                    "{}: {why}; the edit stopped and the {} written before it have their old bytes again: nothing is changed",
                    shell::quote(&change.path),
                    plural(n as u64, "file", "files")
                );
            }
            bail!(
                "{}: {why}; the edit stopped, but {} could not be put back: run `scout edit --undo`",
                shell::quote(&change.path),
                unrestored.join(", ")
            );
        }
        pause(fault.pause_between_ms);
    }
    journal.prune(&manifest);
    Ok(manifest)
}

/// Puts the old bytes of `written` back and removes every staged copy
/// left; returns the files that could not be put back.
fn roll_back(written: &[&FileChange], temps: &[PathBuf]) -> Vec<String> {
    let mut unrestored = Vec::new();
    for (n, change) in written.iter().enumerate() {
        let back = staged_path(&change.real, temps.len() + n);
        let restored = stage(&back, &change.before, &change.real)
            .and_then(|()| std::fs::rename(&back, &change.real));
        if restored.is_err() {
            let _ = std::fs::remove_file(&back);
            unrestored.push(shell::quote(&change.path));
        }
    }
    for temp in temps {
        let _ = std::fs::remove_file(temp);
    }
    unrestored
}

/// Writes `bytes` to a new file at `temp`, flushed to disk, with the
/// permission bits and owner of `like`.
fn stage(temp: &Path, bytes: &[u8], like: &Path) -> std::io::Result<()> {
    let meta = std::fs::metadata(like)?;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(temp)?;
    let written = (|| {
        file.write_all(bytes)?;
        file.set_permissions(std::fs::Permissions::from_mode(
            meta.permissions().mode() & 0o7777,
        ))?;
        keep_owner(&file, &meta);
        file.sync_data()
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(temp);
    }
    written
}

/// Gives `file` the owner of the file it replaces, where this process may
/// (as root); elsewhere a new file is the writer's, as any editor's is.
fn keep_owner(file: &File, like: &std::fs::Metadata) {
    use std::os::unix::fs::MetadataExt;
    let Ok(mine) = file.metadata() else {
        return;
    };
    if (mine.uid(), mine.gid()) != (like.uid(), like.gid()) {
        let _ = rustix::fs::fchown(
            file,
            Some(rustix::fs::Uid::from_raw(like.uid())),
            Some(rustix::fs::Gid::from_raw(like.gid())),
        );
    }
}

/// `.NAME.scout-edit.PID.N.tmp` beside `real`.
fn staged_path(real: &Path, n: usize) -> PathBuf {
    let name = real
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    real.with_file_name(format!(".{name}.scout-edit.{}.{n}.tmp", std::process::id()))
}

fn pause(ms: u64) {
    if ms > 0 {
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }
}

/// Restores the files of the journal's last edit; `None` when there is
/// none. A file changed since the edit (neither its old nor its new
/// bytes) refuses the whole undo, naming it.
pub fn undo(journal: &Journal) -> Result<Option<Undone>> {
    let Some(manifest) = journal.load() else {
        return Ok(None);
    };
    let mut undone = Undone {
        started: manifest.started,
        ..Undone::default()
    };
    let mut problems = Vec::new();
    let mut todo = Vec::new();
    for (n, entry) in manifest.files.iter().enumerate() {
        let path = path_of(&entry.path);
        let now = match std::fs::read(&path) {
            Ok(bytes) => fingerprint(&bytes),
            Err(e) => {
                problems.push(format!(
                    "{}: {e} (since the edit)",
                    shell::quote(entry.shown.as_bytes())
                ));
                continue;
            }
        };
        if now == (entry.new_size, entry.new_hash) {
            todo.push((n, entry, path));
        } else if now == (entry.old_size, entry.old_hash) {
            undone.already.push(entry.shown.clone());
        } else {
            problems.push(format!(
                "{} changed since the edit: undoing would lose that change",
                shell::quote(entry.shown.as_bytes())
            ));
        }
    }
    if !problems.is_empty() {
        bail!(
            "{}\nnothing restored (the journal is kept)",
            problems.join("\n")
        );
    }
    for entry in &manifest.files {
        let _ = std::fs::remove_file(path_of(&entry.temp));
    }
    for (k, (n, entry, path)) in todo.iter().enumerate() {
        let old = journal.old_bytes(&manifest, *n)?;
        let back = staged_path(path, manifest.files.len() + k);
        stage(&back, &old, path)
            .and_then(|()| std::fs::set_permissions(&back, std::fs::Permissions::from_mode(entry.mode)))
            .and_then(|()| std::fs::rename(&back, path))
            .map_err(|e| {
                let _ = std::fs::remove_file(&back);
                anyhow::anyhow!(
                    "{}: restoring it failed: {e}; the journal is kept, run `scout edit --undo` again",
                    shell::quote(entry.shown.as_bytes())
                )
            })?;
        undone.restored.push(entry.shown.clone());
    }
    journal.discard(&manifest, None);
    Ok(Some(undone))
}
