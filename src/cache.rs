//! What scout's three disk caches (definitions, the graph's facts, the
//! encoder's vectors) share: how an entry is named, written, marked as
//! used and pruned. What an entry holds, and when it fits the file it
//! was made from, is each cache's own ([`crate::stamp`] says what a file
//! is known by).
//!
//! An entry is named for the FNV-1a 64 hash of a path in 16 hex digits,
//! then its cache's suffix. It is written to a temporary file in the
//! same directory and renamed over the old one, so concurrent scout
//! processes read a whole old entry or a whole new one. A hit marks the
//! entry used (sets its modification time to now) when it was last marked
//! more than [`TOUCH_AFTER`] ago, so an entry's mtime tells when it was
//! last useful, and most hits cost no write. At most once per
//! [`PRUNE_EVERY`] (the mtime of the marker file `.pruned`), a write
//! removes the entries untouched for [`MAX_AGE`] and the temporary files
//! left by killed processes. No failure is ever an error: a cache that
//! cannot be written only means working again next time.

use std::fs::{self, File};
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::hash::fnv1a64;

/// Entries untouched for this long are removed by the next prune.
pub const MAX_AGE: Duration = Duration::from_secs(30 * 24 * 60 * 60);
/// Prunes are at least this far apart.
pub const PRUNE_EVERY: Duration = Duration::from_secs(24 * 60 * 60);
/// A hit marks its entry used only when it was marked longer ago than
/// this.
pub const TOUCH_AFTER: Duration = Duration::from_secs(24 * 60 * 60);
/// Temporary files older than this were left by a killed process.
const STALE_TEMP: Duration = Duration::from_secs(24 * 60 * 60);
/// The file whose mtime records the last prune.
pub const MARKER: &str = ".pruned";
/// Prefix of temporary files (no entry's name starts with it).
pub const TEMP_PREFIX: &str = ".tmp-";

/// The name of the entry for `path`: 16 hex digits of its hash, then
/// `suffix`.
pub fn entry_name(path: &Path, suffix: &str) -> String {
    format!("{:016x}{suffix}", fnv1a64(path.as_os_str().as_bytes()))
}

/// The entry for `path` in `dir`.
pub fn entry_path(dir: &Path, path: &Path, suffix: &str) -> PathBuf {
    dir.join(entry_name(path, suffix))
}

/// Writes `bytes` as the entry at `entry` in the existing directory
/// `dir`: to a temporary file first, renamed over the old entry. False
/// when that failed (the temporary file is then removed).
pub fn write_atomic(dir: &Path, entry: &Path, bytes: &[u8]) -> bool {
    let Ok(mut temp) = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .tempfile_in(dir)
    else {
        return false;
    };
    temp.write_all(bytes).is_ok() && temp.persist(entry).is_ok()
}

/// Writes `bytes` as the entry at `entry` in `dir`, created if need be
/// ([`write_atomic`]), then prunes `dir`'s `*suffix` entries if due
/// ([`prune_if_due`]). Failures are ignored.
pub fn write_entry(dir: &Path, entry: &Path, bytes: &[u8], suffix: &str) {
    if fs::create_dir_all(dir).is_ok() {
        write_atomic(dir, entry, bytes);
        prune_if_due(dir, &[suffix], SystemTime::now());
    }
}

/// Marks the entry open as `file`, last modified at `modified`, used at
/// `now`, if it was marked more than [`TOUCH_AFTER`] ago (or at an
/// unknown time).
pub fn mark_used(file: &File, modified: Option<SystemTime>, now: SystemTime) {
    let stale = modified.is_none_or(|t| now.duration_since(t).unwrap_or_default() > TOUCH_AFTER);
    if stale {
        let _ = file.set_modified(now);
    }
}

/// [`mark_used`] for an entry known by its path: opened only when it is
/// to be marked (most hits cost one stat).
pub fn touch(entry: &Path) {
    let now = SystemTime::now();
    let Ok(modified) = fs::metadata(entry).and_then(|m| m.modified()) else {
        return;
    };
    if now.duration_since(modified).unwrap_or_default() > TOUCH_AFTER {
        if let Ok(file) = File::options().append(true).open(entry) {
            let _ = file.set_modified(now);
        }
    }
}

/// Removes the entries of `dir` (files whose name ends in one of
/// `suffixes`) untouched for [`MAX_AGE`], and temporary files older than
/// a day, if the last prune (the marker's mtime) is [`PRUNE_EVERY`] old
/// or more, or in the future. Files scout did not name are left alone.
pub fn prune_if_due(dir: &Path, suffixes: &[&str], now: SystemTime) {
    let marker = dir.join(MARKER);
    let due = fs::metadata(&marker)
        .and_then(|m| m.modified())
        .map_or(true, |last| {
            now.duration_since(last)
                .map_or(true, |age| age >= PRUNE_EVERY)
        });
    if !due {
        return;
    }
    // Mark first, so that concurrent writers do not all walk the directory.
    match File::create(&marker) {
        Ok(file) => {
            let _ = file.set_modified(now);
        }
        Err(_) => return,
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.as_bytes();
        let max_age = if suffixes.iter().any(|s| name.ends_with(s.as_bytes())) {
            MAX_AGE
        } else if name.starts_with(TEMP_PREFIX.as_bytes()) {
            STALE_TEMP
        } else {
            continue;
        };
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| now.duration_since(t).is_ok_and(|age| age > max_age));
        if old {
            let _ = fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stamp::set_mtime;

    const DAY: Duration = Duration::from_secs(24 * 60 * 60);

    #[test]
    fn a_prune_removes_old_entries_and_temporaries_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let now = SystemTime::now();
        let file = |name: &str, age: Duration| {
            let path = dir.path().join(name);
            fs::write(&path, b"x").unwrap();
            set_mtime(&path, now - age);
            path
        };
        let old_entry = file("a.facts", MAX_AGE + DAY);
        let young_entry = file("b.facts", MAX_AGE - DAY);
        let other_suffix = file("c.json", MAX_AGE + DAY);
        let old_temp = file(".tmp-1", STALE_TEMP + DAY);
        let young_temp = file(".tmp-2", Duration::from_secs(60));
        let foreign = file("notes.txt", MAX_AGE + DAY);

        prune_if_due(dir.path(), &[".facts"], now);
        assert!(!old_entry.exists() && !old_temp.exists());
        assert!(young_entry.exists() && young_temp.exists());
        assert!(other_suffix.exists() && foreign.exists());

        // Not due again within a day, even for another suffix.
        prune_if_due(dir.path(), &[".json"], now + DAY / 2);
        assert!(other_suffix.exists());
        prune_if_due(dir.path(), &[".json"], now + DAY);
        assert!(!other_suffix.exists());
    }

    #[test]
    fn a_marker_in_the_future_does_not_stop_pruning() {
        let dir = tempfile::tempdir().unwrap();
        let now = SystemTime::now();
        let entry = dir.path().join("a.defs");
        fs::write(&entry, b"x").unwrap();
        set_mtime(&entry, now - MAX_AGE - DAY);
        let marker = dir.path().join(MARKER);
        fs::write(&marker, b"").unwrap();
        set_mtime(&marker, now + 10 * DAY);
        prune_if_due(dir.path(), &[".defs"], now);
        assert!(!entry.exists());
    }

    #[test]
    fn an_entry_is_marked_used_only_when_marked_long_ago() {
        let dir = tempfile::tempdir().unwrap();
        let entry = dir.path().join("a.defs");
        fs::write(&entry, b"x").unwrap();
        let now = SystemTime::now();
        let mtime = || fs::metadata(&entry).unwrap().modified().unwrap();

        set_mtime(&entry, now - TOUCH_AFTER / 2);
        let recent = mtime();
        touch(&entry);
        assert_eq!(mtime(), recent);

        set_mtime(&entry, now - TOUCH_AFTER - DAY);
        touch(&entry);
        assert!(mtime() >= now);
    }

    #[test]
    fn an_entry_is_written_whole_and_named_for_its_path() {
        let dir = tempfile::tempdir().unwrap();
        let entry = entry_path(dir.path(), Path::new("/src/lib.rs"), ".facts");
        let name = entry.file_name().unwrap().to_str().unwrap();
        assert_eq!(name.len(), 16 + ".facts".len());
        assert_ne!(
            entry,
            entry_path(dir.path(), Path::new("/src/main.rs"), ".facts")
        );
        assert!(write_atomic(dir.path(), &entry, b"one"));
        assert!(write_atomic(dir.path(), &entry, b"two"));
        assert_eq!(fs::read(&entry).unwrap(), b"two");
        let left: Vec<_> = fs::read_dir(dir.path()).unwrap().flatten().collect();
        assert_eq!(left.len(), 1, "no temporary file is left behind");
        assert!(!write_atomic(&dir.path().join("missing"), &entry, b"x"));
    }
}
