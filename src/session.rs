//! Session memory: which lines of which files an agent session was shown.
//!
//! Inside an agent session (`SCOUT_SESSION_ID`, else
//! `CLAUDE_CODE_SESSION_ID`, else `CODEX_THREAD_ID`), `scout search`
//! remembers the lines it quoted, per file, keyed by the file's
//! [`Stamp`] (size, modification and status-change times, inode), in
//! `$XDG_STATE_HOME/scout/seen/<hash of the id>.json`.
//! A repeated search collapses what the session already saw. Outside a
//! session nothing is read or written.
//!
//! This module owns that directory: reading, merging and writing a
//! session's file. Writes hold an exclusive lock on a sibling `.lock` file
//! for the read-merge-write, and replace the file by renaming a complete
//! temporary one, so concurrent scout processes of one session never lose
//! an update or read a torn file. A corrupt, foreign or future-format file
//! is ignored with one warning, never fatal; only a corrupt one is
//! overwritten. Session files untouched for a week are removed.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::hash::fnv1a64;
pub use crate::stamp::Stamp;

pub mod hook_log;
pub mod journal;
pub mod pending;

/// Agent session variables, in the order they are read.
pub const SESSION_VARS: [&str; 3] = [
    "SCOUT_SESSION_ID",
    "CLAUDE_CODE_SESSION_ID",
    "CODEX_THREAD_ID",
];

/// The memory file format this build reads and writes.
pub const FORMAT: u32 = 1;

/// Session files untouched this long are removed.
pub const MAX_AGE: Duration = Duration::from_secs(7 * 24 * 60 * 60);

/// The agent session scout runs in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    /// The session's id, as the agent set it.
    pub id: String,
    /// The variable it came from.
    pub var: &'static str,
    /// `$XDG_STATE_HOME/scout/seen`.
    pub dir: PathBuf,
}

impl Session {
    /// The session named by the first non-empty variable of
    /// [`SESSION_VARS`], when there is one and a state directory.
    pub fn from_env(
        lookup: impl Fn(&str) -> Option<String>,
        state_dir: Option<PathBuf>,
    ) -> Option<Session> {
        let (var, id) = SESSION_VARS
            .iter()
            .find_map(|var| lookup(var).filter(|v| !v.is_empty()).map(|v| (*var, v)))?;
        Some(Session {
            id,
            var,
            dir: state_dir?.join("seen"),
        })
    }

    /// This session's memory file.
    pub fn file(&self) -> PathBuf {
        self.dir
            .join(format!("{:016x}.json", fnv1a64(self.id.as_bytes())))
    }

    fn lock_file(&self) -> PathBuf {
        self.file().with_extension("lock")
    }

    /// What this session was shown, or an empty memory (with a warning
    /// in `Loaded::warning`) when the file cannot be used.
    pub fn load(&self) -> Loaded {
        read(&self.file(), &self.id)
    }

    /// Adds `shown` to the memory, under the lock, and prunes old session
    /// files. Returns a warning when the memory could not be written.
    pub fn record(&self, shown: &[Shown]) -> Option<String> {
        self.record_with(shown, None)
    }

    /// [`Session::record`], giving up with a warning when another process
    /// holds the lock for longer than `wait` (hooks must not hang the
    /// agent on a stuck lock).
    pub fn record_within(&self, shown: &[Shown], wait: Duration) -> Option<String> {
        self.record_with(shown, Some(wait))
    }

    fn record_with(&self, shown: &[Shown], wait: Option<Duration>) -> Option<String> {
        if shown.is_empty() {
            return None;
        }
        let result = (|| -> std::io::Result<Option<String>> {
            std::fs::create_dir_all(&self.dir)?;
            let lock = File::create(self.lock_file())?;
            match wait {
                None => lock.lock()?,
                Some(wait) => {
                    let start = std::time::Instant::now();
                    while let Err(e) = lock.try_lock() {
                        if start.elapsed() >= wait {
                            return Ok(Some(format!(
                                "session memory not saved ({}): {e}",
                                self.file().display()
                            )));
                        }
                        std::thread::sleep(Duration::from_millis(5));
                    }
                }
            }
            let loaded = read(&self.file(), &self.id);
            if !loaded.writable {
                return Ok(loaded.warning);
            }
            let mut memory = loaded.memory;
            for item in shown {
                memory.add(item);
            }
            let mut tmp = tempfile::NamedTempFile::new_in(&self.dir)?;
            // One write: to_writer on the bare file makes a system call per
            // token (10,000 for a memory of 300 files).
            tmp.write_all(&serde_json::to_vec(&memory)?)?;
            tmp.flush()?;
            tmp.persist(self.file()).map_err(|e| e.error)?;
            prune(&self.dir, &self.file());
            Ok(None)
        })();
        match result {
            Ok(warning) => warning,
            Err(e) => Some(format!(
                "session memory not saved ({}): {e}",
                self.file().display()
            )),
        }
    }

    /// Forgets everything this session was shown.
    pub fn clear(&self) -> std::io::Result<bool> {
        match std::fs::remove_file(self.file()) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(e),
        }
    }
}

/// A session's memory file.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Memory {
    pub format: u32,
    pub session: String,
    /// Absolute path -> what was shown of it.
    pub files: BTreeMap<String, FileMemory>,
}

/// What was shown of one file, while it had this [`Stamp`] (its fields,
/// one by one; those a memory written before they were kept lacks read
/// as 0, and so as another file).
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileMemory {
    /// Bytes.
    pub size: u64,
    /// Nanoseconds since the Unix epoch.
    pub mtime_ns: i64,
    #[serde(default)]
    pub ctime_ns: i64,
    #[serde(default)]
    pub ino: u64,
    #[serde(default)]
    pub dev: u64,
    /// Shown line ranges, 1-based, inclusive, sorted and merged.
    pub ranges: Vec<(u64, u64)>,
    /// When lines were last added, in seconds since the Unix epoch (0 in
    /// files written before it was kept).
    #[serde(default)]
    pub shown_at: u64,
}

/// Lines quoted from one file in one search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    pub path: String,
    pub stamp: Stamp,
    pub lines: Vec<u64>,
}

impl FileMemory {
    /// The stamp the file had when its lines were shown.
    pub fn stamp(&self) -> Stamp {
        Stamp {
            size: self.size,
            mtime_ns: self.mtime_ns,
            ctime_ns: self.ctime_ns,
            ino: self.ino,
            dev: self.dev,
        }
    }

    /// Nothing shown yet of the file whose stamp is `stamp`.
    pub fn empty(stamp: Stamp) -> FileMemory {
        FileMemory {
            size: stamp.size,
            mtime_ns: stamp.mtime_ns,
            ctime_ns: stamp.ctime_ns,
            ino: stamp.ino,
            dev: stamp.dev,
            ranges: Vec::new(),
            shown_at: 0,
        }
    }
}

impl Memory {
    /// The lines shown of `path`, if it still has the stamp it had then.
    pub fn seen(&self, path: &str, now: Stamp) -> Option<&[(u64, u64)]> {
        let file = self.files.get(path)?;
        (file.stamp() == now).then_some(&file.ranges[..])
    }

    fn add(&mut self, shown: &Shown) {
        let entry = self.files.entry(shown.path.clone()).or_default();
        if entry.stamp() != shown.stamp {
            *entry = FileMemory::empty(shown.stamp);
        }
        entry.shown_at = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        entry.ranges.extend(shown.lines.iter().map(|&l| (l, l)));
        entry.ranges = merge(std::mem::take(&mut entry.ranges));
    }
}

/// Whether `line` lies in one of `ranges`.
pub fn contains(ranges: &[(u64, u64)], line: u64) -> bool {
    ranges.iter().any(|&(a, b)| a <= line && line <= b)
}

/// Sorts and merges ranges, joining adjacent ones.
pub fn merge(mut ranges: Vec<(u64, u64)>) -> Vec<(u64, u64)> {
    ranges.sort_unstable();
    let mut merged: Vec<(u64, u64)> = Vec::with_capacity(ranges.len());
    for (a, b) in ranges {
        match merged.last_mut() {
            Some(last) if a <= last.1.saturating_add(1) => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    merged
}

/// A loaded memory and whether it may be written back.
#[derive(Debug, Default)]
pub struct Loaded {
    pub memory: Memory,
    /// False for a foreign or future-format file: left as it is.
    pub writable: bool,
    /// Why the file was ignored, if it was.
    pub warning: Option<String>,
}

fn read(path: &Path, session: &str) -> Loaded {
    let fresh = || Memory {
        format: FORMAT,
        session: session.to_string(),
        files: BTreeMap::new(),
    };
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(_) => {
            return Loaded {
                memory: fresh(),
                writable: true,
                warning: None,
            }
        }
    };
    let ignored = |why: &str, writable: bool| Loaded {
        memory: fresh(),
        writable,
        warning: Some(format!(
            "ignoring session memory {} ({why})",
            path.display()
        )),
    };
    #[derive(Deserialize)]
    struct Probe {
        format: u32,
        session: String,
    }
    match serde_json::from_slice::<Probe>(&bytes) {
        Err(_) => ignored("not a scout memory file; it will be replaced", true),
        Ok(probe) if probe.format > FORMAT => ignored(
            &format!(
                "format {} is newer than this scout's {FORMAT}",
                probe.format
            ),
            false,
        ),
        Ok(probe) if probe.session != session => ignored("it belongs to another session", false),
        Ok(_) => match serde_json::from_slice::<Memory>(&bytes) {
            Ok(memory) => Loaded {
                memory,
                writable: true,
                warning: None,
            },
            Err(_) => ignored("not a scout memory file; it will be replaced", true),
        },
    }
}

/// Removes session files (and their locks) untouched for [`MAX_AGE`].
fn prune(dir: &Path, keep: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    for entry in entries.flatten() {
        let path = entry.path();
        if path == keep {
            continue;
        }
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|m| now.duration_since(m).ok())
            .is_some_and(|age| age > MAX_AGE);
        if old {
            let _ = std::fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(dir: &Path, id: &str) -> Session {
        Session {
            id: id.into(),
            var: "SCOUT_SESSION_ID",
            dir: dir.join("seen"),
        }
    }

    fn shown(path: &str, lines: &[u64]) -> Shown {
        Shown {
            path: path.into(),
            stamp: Stamp {
                size: 10,
                mtime_ns: 5,
                ..Stamp::default()
            },
            lines: lines.to_vec(),
        }
    }

    #[test]
    fn the_first_set_variable_names_the_session() {
        let env = |k: &str| match k {
            "CLAUDE_CODE_SESSION_ID" => Some("c".to_string()),
            "CODEX_THREAD_ID" => Some("x".to_string()),
            "SCOUT_SESSION_ID" => Some(String::new()),
            _ => None,
        };
        let s = Session::from_env(env, Some("/state".into())).unwrap();
        assert_eq!((s.id.as_str(), s.var), ("c", "CLAUDE_CODE_SESSION_ID"));
        assert_eq!(Session::from_env(|_| None, Some("/s".into())), None);
    }

    #[test]
    fn ranges_merge() {
        assert_eq!(
            merge(vec![(5, 5), (1, 2), (3, 3), (9, 12), (10, 11)]),
            vec![(1, 3), (5, 5), (9, 12)]
        );
    }

    #[test]
    fn recorded_lines_are_seen_until_the_file_changes() {
        let dir = tempfile::tempdir().unwrap();
        let s = session(dir.path(), "a");
        assert_eq!(s.record(&[shown("/x.rs", &[3, 4, 9])]), None);
        s.record(&[shown("/x.rs", &[5])]);
        let memory = s.load().memory;
        let stamp = Stamp {
            size: 10,
            mtime_ns: 5,
            ..Stamp::default()
        };
        assert_eq!(memory.seen("/x.rs", stamp), Some(&[(3, 5), (9, 9)][..]));
        assert_eq!(memory.seen("/x.rs", Stamp { size: 11, ..stamp }), None);
        // Another inode, or a later status change.
        assert_eq!(memory.seen("/x.rs", Stamp { ino: 1, ..stamp }), None);
        assert_eq!(
            memory.seen(
                "/x.rs",
                Stamp {
                    ctime_ns: 6,
                    ..stamp
                }
            ),
            None
        );
        assert_eq!(memory.seen("/y.rs", stamp), None);
    }

    #[test]
    fn sessions_do_not_share_memory() {
        let dir = tempfile::tempdir().unwrap();
        session(dir.path(), "a").record(&[shown("/x.rs", &[1])]);
        assert!(session(dir.path(), "b").load().memory.files.is_empty());
    }

    #[test]
    fn garbage_is_ignored_with_a_warning_and_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let s = session(dir.path(), "a");
        std::fs::create_dir_all(&s.dir).unwrap();
        std::fs::write(s.file(), b"\x00garbage{").unwrap();
        let loaded = s.load();
        assert!(loaded.warning.unwrap().contains("not a scout memory file"));
        assert_eq!(s.record(&[shown("/x.rs", &[1])]), None);
        assert_eq!(s.load().memory.files.len(), 1);
    }

    #[test]
    fn a_future_format_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let s = session(dir.path(), "a");
        std::fs::create_dir_all(&s.dir).unwrap();
        let future = br#"{"format":99,"session":"a","files":{},"extra":1}"#;
        std::fs::write(s.file(), future).unwrap();
        assert!(s.record(&[shown("/x.rs", &[1])]).unwrap().contains("newer"));
        assert_eq!(std::fs::read(s.file()).unwrap(), future);
    }

    #[test]
    fn concurrent_records_keep_every_line() {
        let dir = tempfile::tempdir().unwrap();
        let s = session(dir.path(), "a");
        std::thread::scope(|scope| {
            for i in 0..20u64 {
                let s = &s;
                scope.spawn(move || s.record(&[shown("/x.rs", &[i * 2 + 1])]));
            }
        });
        let ranges = s.load().memory.files["/x.rs"].ranges.clone();
        let lines: Vec<u64> = ranges.iter().map(|r| r.0).collect();
        assert_eq!(lines, (0..20).map(|i| i * 2 + 1).collect::<Vec<_>>());
    }

    #[test]
    fn old_session_files_are_pruned() {
        let dir = tempfile::tempdir().unwrap();
        let old = session(dir.path(), "old");
        old.record(&[shown("/x.rs", &[1])]);
        let week_ago = SystemTime::now() - MAX_AGE - Duration::from_secs(60);
        crate::stamp::set_mtime(&old.file(), week_ago);
        session(dir.path(), "new").record(&[shown("/x.rs", &[1])]);
        assert!(!old.file().exists());
    }
}
