//! The undo journal of `scout edit`: what the last edit of an agent
//! session (else of a working directory) replaced, kept in
//! `$XDG_STATE_HOME/scout/edits/<hash of the key>/`, so that `scout edit
//! --undo` can put every file back, even after an edit that was killed
//! half way.
//!
//! ```text
//! edits/<key>/journal.json   the manifest: every file, its staged copy, its old and new size and hash
//! edits/<key>/<id>/N.old     the old bytes of the manifest's Nth file
//! edits/<key>/<id>/report.json  the edit's report, for `scout edit --last`
//! edits/<key>/lock           held while an edit or an undo runs
//! ```
//!
//! The old bytes and the report are written first, then the manifest, by
//! renaming a complete file over the last one: an edit's journal is whole
//! before its first file is renamed, or it is the edit before it. An undo
//! removes the journal, so a second undo finds nothing (it never redoes).
//! This module only keeps the journal; `edit` decides what goes in it.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::hash::fnv1a64;

/// The manifest format this build reads and writes.
pub const FORMAT: u32 = 1;

/// One edited file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The file written (links resolved), as bytes.
    pub path: Vec<u8>,
    /// The path as the report shows it.
    pub shown: String,
    /// The staged copy renamed over it (removed by an undo if an
    /// interrupted edit left it).
    pub temp: Vec<u8>,
    /// Size and FNV-1a hash of the bytes before and after the edit.
    pub old_size: u64,
    pub old_hash: u64,
    pub new_size: u64,
    pub new_hash: u64,
    /// Permission bits to restore.
    pub mode: u32,
}

/// The manifest of one edit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub format: u32,
    /// The edit's folder under the key's.
    pub id: String,
    /// The session id, or the working directory.
    pub key: String,
    /// Seconds since the Unix epoch when the edit began.
    pub started: u64,
    pub files: Vec<Entry>,
}

/// Size and hash of some bytes, as the manifest records them.
pub fn fingerprint(bytes: &[u8]) -> (u64, u64) {
    (bytes.len() as u64, fnv1a64(bytes))
}

/// The journal of one key (a session's id, or a working directory).
#[derive(Debug, Clone)]
pub struct Journal {
    dir: PathBuf,
    key: String,
}

impl Journal {
    /// The journal of `key` under the state directory `state_dir`.
    pub fn new(state_dir: &Path, key: &str) -> Journal {
        Journal {
            dir: state_dir
                .join("edits")
                .join(format!("{:016x}", fnv1a64(key.as_bytes()))),
            key: key.to_string(),
        }
    }

    fn manifest_path(&self) -> PathBuf {
        self.dir.join("journal.json")
    }

    /// Holds the key's lock until the returned file is dropped: one edit
    /// or undo of a key at a time.
    pub fn lock(&self) -> Result<File> {
        std::fs::create_dir_all(&self.dir)
            .with_context(|| format!("creating the undo journal {}", self.dir.display()))?;
        let lock = File::create(self.dir.join("lock"))?;
        lock.lock()?;
        Ok(lock)
    }

    /// The manifest's bytes as they are (to put back if an edit fails
    /// before writing anything).
    pub fn manifest_bytes(&self) -> Option<Vec<u8>> {
        std::fs::read(self.manifest_path()).ok()
    }

    /// The last edit's manifest; `None` when there is none, or it is not
    /// one this build reads.
    pub fn load(&self) -> Option<Manifest> {
        let bytes = self.manifest_bytes()?;
        let manifest: Manifest = serde_json::from_slice(&bytes).ok()?;
        (manifest.format == FORMAT && manifest.key == self.key).then_some(manifest)
    }

    /// Records a new edit: every file's old bytes, the report, then the
    /// manifest, renamed into place. Returns the manifest.
    pub fn begin(&self, files: Vec<Entry>, olds: &[&[u8]], report: &[u8]) -> Result<Manifest> {
        let started = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let id = format!(
            "{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        );
        let folder = self.dir.join(&id);
        std::fs::create_dir_all(&folder)
            .with_context(|| format!("creating the undo journal {}", folder.display()))?;
        for (n, old) in olds.iter().enumerate() {
            std::fs::write(folder.join(format!("{n}.old")), old)
                .with_context(|| format!("saving old bytes in {}", folder.display()))?;
        }
        std::fs::write(folder.join("report.json"), report)?;
        let manifest = Manifest {
            format: FORMAT,
            id,
            key: self.key.clone(),
            started,
            files,
        };
        self.write_manifest(&serde_json::to_vec(&manifest)?)?;
        Ok(manifest)
    }

    fn write_manifest(&self, bytes: &[u8]) -> Result<()> {
        let mut tmp = tempfile::NamedTempFile::new_in(&self.dir)?;
        tmp.write_all(bytes)?;
        tmp.as_file().sync_all()?;
        tmp.persist(self.manifest_path()).map_err(|e| e.error)?;
        Ok(())
    }

    /// The old bytes of the manifest's `n`th file.
    pub fn old_bytes(&self, manifest: &Manifest, n: usize) -> Result<Vec<u8>> {
        let path = self.old_path(manifest, n);
        std::fs::read(&path).with_context(|| format!("reading {}", path.display()))
    }

    /// Where the old bytes of the manifest's `n`th file are kept.
    pub fn old_path(&self, manifest: &Manifest, n: usize) -> PathBuf {
        self.dir.join(&manifest.id).join(format!("{n}.old"))
    }

    /// The last edit's report, as it was recorded.
    pub fn report(&self, manifest: &Manifest) -> Option<Vec<u8>> {
        std::fs::read(self.dir.join(&manifest.id).join("report.json")).ok()
    }

    /// Keeps only the files of `manifest` at `keep` (ascending indexes),
    /// with their old bytes: what an edit stopped half way still has to
    /// answer for. Returns the manifest now recorded.
    pub fn retain(&self, manifest: &Manifest, keep: &[usize]) -> Result<Manifest> {
        let folder = self.dir.join(&manifest.id);
        for (at, &was) in keep.iter().enumerate() {
            if at != was {
                std::fs::rename(
                    folder.join(format!("{was}.old")),
                    folder.join(format!("{at}.old")),
                )
                .with_context(|| format!("renumbering the undo journal {}", folder.display()))?;
            }
        }
        for gone in keep.len()..manifest.files.len() {
            let _ = std::fs::remove_file(folder.join(format!("{gone}.old")));
        }
        let kept = Manifest {
            files: keep.iter().map(|&k| manifest.files[k].clone()).collect(),
            ..manifest.clone()
        };
        self.write_manifest(&serde_json::to_vec(&kept)?)?;
        Ok(kept)
    }

    /// Forgets the edit `manifest` records, putting `previous` (the
    /// manifest before it, when it had one) back in its place.
    pub fn discard(&self, manifest: &Manifest, previous: Option<&[u8]>) {
        match previous {
            Some(bytes) => {
                let _ = self.write_manifest(bytes);
            }
            None => {
                let _ = std::fs::remove_file(self.manifest_path());
            }
        }
        let _ = std::fs::remove_dir_all(self.dir.join(&manifest.id));
    }

    /// Removes the folders of edits other than `keep`'s (their manifests
    /// are gone).
    pub fn prune(&self, keep: &Manifest) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            if name != *keep.id && entry.file_type().is_ok_and(|t| t.is_dir()) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(path: &str) -> Entry {
        Entry {
            path: path.as_bytes().to_vec(),
            shown: path.into(),
            temp: format!("{path}.tmp").into_bytes(),
            old_size: 1,
            old_hash: 2,
            new_size: 3,
            new_hash: 4,
            mode: 0o644,
        }
    }

    #[test]
    fn a_journal_keeps_old_bytes_until_discarded() {
        let state = tempfile::tempdir().unwrap();
        let journal = Journal::new(state.path(), "session-1");
        let _lock = journal.lock().unwrap();
        assert!(journal.load().is_none());
        let first = journal
            .begin(vec![entry("/a")], &[b"old a"], b"{}")
            .unwrap();
        assert_eq!(journal.load().as_ref(), Some(&first));
        assert_eq!(journal.old_bytes(&first, 0).unwrap(), b"old a");
        let previous = journal.manifest_bytes();
        let second = journal
            .begin(vec![entry("/b")], &[b"old b"], b"{}")
            .unwrap();
        journal.discard(&second, previous.as_deref());
        assert_eq!(journal.load(), Some(first.clone()));
        journal.discard(&first, None);
        assert!(journal.load().is_none());
    }

    #[test]
    fn another_key_has_another_journal() {
        let state = tempfile::tempdir().unwrap();
        let one = Journal::new(state.path(), "/work/a");
        one.lock().unwrap();
        one.begin(vec![entry("/a")], &[b"x"], b"{}").unwrap();
        assert!(Journal::new(state.path(), "/work/b").load().is_none());
    }
}
