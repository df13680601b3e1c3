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
//!    modification time). A file with several hard links is written in
//!    place instead, so that every name still reaches it. A file changed
//!    under the edit stops it: each file already written gets its old
//!    bytes back only while it still holds exactly the bytes scout wrote;
//!    one that another writer changed since is left as it is and named,
//!    and the journal is kept, with its old bytes, for finishing by hand.
//!
//! A rename is atomic, so a process killed at any point leaves every file
//! its whole old or its whole new self, and the journal (written before
//! the first rename) lets `--undo` put back the old ones and remove any
//! copy left behind. (A file written in place is not renamed: a kill
//! inside that one write can leave it part new; its old bytes are in the
//! journal.) An undo restores bytes, never a mode: a file's permission
//! bits stay as they are now.

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
            replace(&temps[n], change)
                .err()
                .map(|e| format!("writing its new bytes over it failed: {e}"))
        };
        if let Some(why) = failure {
            let left = roll_back(&changes[..n], &temps);
            let shown = shell::quote(&change.path);
            if left.is_empty() {
                journal.discard(&manifest, previous.as_deref());
                if n == 0 {
                    bail!("{shown}: {why}; the edit stopped before writing any file: nothing is changed");
                }
                bail!(
                    "{shown}: {why}; the edit stopped and the {} written before it {}: nothing is changed",
                    plural(n as u64, "file", "files"),
                    if n == 1 { "has its old bytes again" } else { "have their old bytes again" }
                );
            }
            // The journal answers for the files left, and only them: an
            // undo restores what it can prove is scout's, nothing else.
            let indexes: Vec<usize> = left.iter().map(|(k, _)| *k).collect();
            let kept = journal.retain(&manifest, &indexes);
            let named: Vec<String> = left
                .iter()
                .enumerate()
                .map(|(at, (k, why))| {
                    let old = match &kept {
                        Ok(kept) => journal.old_path(kept, at),
                        Err(_) => journal.old_path(&manifest, *k),
                    };
                    format!(
                        "{} ({why}; its old bytes: {})",
                        shell::quote(&changes[*k].path),
                        old.display()
                    )
                })
                .collect();
            let restored = n - left.len();
            let others = if restored == 0 {
                String::new()
            } else {
                format!(
                    "\nthe other {} written before it {}",
                    plural(restored as u64, "file", "files"),
                    if restored == 1 {
                        "has its old bytes again"
                    } else {
                        "have their old bytes again"
                    }
                )
            };
            bail!(
                "{shown}: {why}; the edit stopped. {} left as {} now, never overwritten:\n  {}{others}\nthe undo journal keeps {}",
                plural(left.len() as u64, "file written before it is", "files written before it are"),
                if left.len() == 1 { "it is" } else { "they are" },
                named.join("\n  "),
                if left.len() == 1 { "it" } else { "them" }
            );
        }
        pause(fault.pause_between_ms);
    }
    journal.prune(&manifest);
    Ok(manifest)
}

/// Puts `change`'s staged copy `temp` in place of its file: renamed over
/// it, or, for a file with several hard links, its bytes written into the
/// file itself (and the copy removed).
fn replace(temp: &Path, change: &FileChange) -> std::io::Result<()> {
    if change.stamp.links > 1 {
        write_in_place(&change.real, &change.after)?;
        let _ = std::fs::remove_file(temp);
        return Ok(());
    }
    std::fs::rename(temp, &change.real)
}

/// Overwrites the file at `path` with `bytes`, keeping its inode (and so
/// every hard link to it), flushed to disk. `scout setup` writes a
/// hard-linked settings file so too.
pub fn write_in_place(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new().write(true).open(path)?;
    file.write_all(bytes)?;
    file.set_len(bytes.len() as u64)?;
    file.sync_data()
}

/// Puts the old bytes of `written` back, each only while it still holds
/// exactly the bytes scout wrote (another writer's change is never
/// undone), and removes every staged copy left. Returns the files it left
/// as they are (indexes into `written`), with why.
fn roll_back(written: &[&FileChange], temps: &[PathBuf]) -> Vec<(usize, String)> {
    let mut left = Vec::new();
    for (n, change) in written.iter().enumerate() {
        let restored = restore_if_ours(change, &staged_path(&change.real, temps.len() + n));
        if let Err(why) = restored {
            left.push((n, why));
        }
    }
    for temp in temps {
        let _ = std::fs::remove_file(temp);
    }
    left
}

/// Gives `change`'s file its old bytes back, through the staged copy
/// `back`, if it holds exactly the new bytes scout wrote and is not
/// changed while they are checked; else says why not.
fn restore_if_ours(change: &FileChange, back: &Path) -> Result<(), String> {
    let before = FileStamp::of(&change.real).ok_or("it is gone")?;
    let now = std::fs::read(&change.real).map_err(|e| e.to_string())?;
    if now != change.after {
        return Err("another writer changed it after scout wrote it".into());
    }
    if before.links > 1 {
        return write_in_place(&change.real, &change.before).map_err(|e| e.to_string());
    }
    stage(back, &change.before, &change.real).map_err(|e| e.to_string())?;
    let still = FileStamp::of(&change.real).is_some_and(|s| before.same_file(&s));
    if !still {
        let _ = std::fs::remove_file(back);
        return Err("another writer changed it after scout wrote it".into());
    }
    std::fs::rename(back, &change.real).map_err(|e| {
        let _ = std::fs::remove_file(back);
        e.to_string()
    })
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
        // The bytes come back, the mode stays as it is now (a `chmod`
        // since the edit is kept); a linked file is written in place.
        let linked = FileStamp::of(path).is_some_and(|s| s.links > 1);
        let restored = if linked {
            write_in_place(path, &old)
        } else {
            stage(&back, &old, path).and_then(|()| std::fs::rename(&back, path))
        };
        restored.map_err(|e| {
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
