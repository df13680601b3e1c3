//! What scout's state on disk knows a file by: the [`Stamp`] of one
//! version of it and the rule for when a stamp is settled enough to key a
//! cache entry.
//!
//! Every cache (definitions, the graph's facts, the encoder's vectors)
//! and the session memory key what they keep by a stamp; deciding what
//! to keep, and where, is theirs. docs/design.md promises that a cache never
//! changes an answer: an entry may be used only for the very bytes it
//! was made from. Size and modification time alone do not say that: a
//! same-size file put in place with its old mtime (`cp -p`, `rsync -t`,
//! `tar` or `unzip` of a reproducible archive, `touch -r`) keeps both.
//! The stamp adds what the file system sets itself and no program can
//! set back: the inode (a file renamed into place is another inode) and
//! the status-change time (any write or `touch` moves it to now).
//!
//! One gap is left, and the freshness rule closes it: a file system
//! stores times at its clock's granularity (a kernel tick, a second or
//! two on some), so two writes within one tick, of the same size, in
//! place, leave the same stamp. A stamp whose mtime or ctime is less than
//! [`FRESH`] old may still be shared by a version not yet written: no
//! cache stores an entry under it ([`Stamp::settled`]). A settled stamp
//! changes with any later write, whose times are later than its own.

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// A file whose mtime or ctime is less than this old is not stored in
/// any cache: another write may still leave it the same stamp. Two
/// seconds, the coarsest time a common file system keeps (FAT's mtime).
pub const FRESH: Duration = Duration::from_secs(2);

/// One version of one file, as the file system describes it: equal
/// stamps of a [settled](Stamp::settled) file mean the same bytes.
/// Times are nanoseconds since the Unix epoch, negative before it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Stamp {
    /// Bytes.
    pub size: u64,
    /// Last modification of the contents (`st_mtime`), which programs
    /// may set.
    pub mtime_ns: i64,
    /// Last change of the contents or the metadata (`st_ctime`), which
    /// only the file system sets: always the time of the change.
    pub ctime_ns: i64,
    /// Inode and device: a file renamed over another is another file.
    pub ino: u64,
    pub dev: u64,
}

impl Stamp {
    /// The bytes of a stamp as the caches store it ([`Stamp::to_bytes`]).
    pub const BYTES: usize = 5 * 8;

    /// The stamp as the caches store it: size, mtime, ctime, inode and
    /// device, 8 bytes each, little-endian.
    pub fn to_bytes(&self) -> [u8; Stamp::BYTES] {
        let mut out = [0u8; Stamp::BYTES];
        let fields = [
            self.size,
            self.mtime_ns as u64,
            self.ctime_ns as u64,
            self.ino,
            self.dev,
        ];
        for (chunk, field) in out.chunks_exact_mut(8).zip(fields) {
            chunk.copy_from_slice(&field.to_le_bytes());
        }
        out
    }

    /// The stamp [`Stamp::to_bytes`] wrote.
    pub fn from_bytes(bytes: &[u8; Stamp::BYTES]) -> Stamp {
        let field = |i: usize| {
            let mut word = [0u8; 8];
            word.copy_from_slice(&bytes[i * 8..i * 8 + 8]);
            u64::from_le_bytes(word)
        };
        Stamp {
            size: field(0),
            mtime_ns: field(1) as i64,
            ctime_ns: field(2) as i64,
            ino: field(3),
            dev: field(4),
        }
    }

    /// The stamp of a file whose metadata is `meta` (followed links: the
    /// file's own, as `fs::metadata` gives them).
    pub fn of(meta: &fs::Metadata) -> Stamp {
        Stamp {
            size: meta.len(),
            mtime_ns: nanos(meta.mtime(), meta.mtime_nsec()),
            ctime_ns: nanos(meta.ctime(), meta.ctime_nsec()),
            ino: meta.ino(),
            dev: meta.dev(),
        }
    }

    /// The stamp of the file at `path` now; `None` when it cannot be
    /// stat'ed.
    pub fn read(path: &Path) -> Option<Stamp> {
        fs::metadata(path).ok().map(|meta| Stamp::of(&meta))
    }

    /// Whether the stamp may key a cache entry, the clock reading `now`:
    /// its mtime and ctime are at least [`FRESH`] old (a time in the
    /// future is not). Judge it with a `now` read after the stamp and
    /// before the file's bytes were, or later.
    pub fn settled(&self, now: SystemTime) -> bool {
        let now = nanos_of(now);
        let latest = self.mtime_ns.max(self.ctime_ns);
        now.saturating_sub(latest) >= FRESH.as_nanos() as i64
    }
}

/// `secs` and `nsec` as nanoseconds since the epoch, saturating.
fn nanos(secs: i64, nsec: i64) -> i64 {
    secs.saturating_mul(1_000_000_000).saturating_add(nsec)
}

/// `time` as nanoseconds since the epoch (negative before it),
/// saturating.
pub fn nanos_of(time: SystemTime) -> i64 {
    match time.duration_since(UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_nanos()).unwrap_or(i64::MAX),
        Err(before) => i64::try_from(before.duration().as_nanos()).map_or(i64::MIN, |n| -n),
    }
}

/// Sets the modification time of the file at `path` (tests make files
/// look settled, or rewritten under their old time, with it).
#[cfg(test)]
pub(crate) fn set_mtime(path: &Path, time: SystemTime) {
    fs::File::options()
        .append(true)
        .open(path)
        .unwrap()
        .set_modified(time)
        .unwrap();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stamp_is_stored_as_five_little_endian_words_and_read_back() {
        let stamp = Stamp {
            size: 7,
            mtime_ns: -5,
            ctime_ns: 1_700_000_000_000_000_001,
            ino: u64::MAX,
            dev: 3,
        };
        let bytes = stamp.to_bytes();
        assert_eq!(bytes[..8], 7u64.to_le_bytes());
        assert_eq!(bytes[8..16], (-5i64).to_le_bytes());
        assert_eq!(bytes[32..], 3u64.to_le_bytes());
        assert_eq!(Stamp::from_bytes(&bytes), stamp);
    }

    #[test]
    fn a_file_replaced_by_rename_with_its_size_and_mtime_has_another_stamp() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.py");
        fs::write(&file, "x = 0\n").unwrap();
        let old = SystemTime::now() - Duration::from_secs(60);
        set_mtime(&file, old);
        let before = Stamp::read(&file).unwrap();
        let next = dir.path().join("a.py.new");
        fs::write(&next, "y = 1\n").unwrap();
        set_mtime(&next, old);
        fs::rename(&next, &file).unwrap();
        let after = Stamp::read(&file).unwrap();
        assert_eq!((after.size, after.mtime_ns), (before.size, before.mtime_ns));
        assert_ne!(after, before);
        assert_ne!(after.ino, before.ino);
    }

    #[test]
    fn a_stamp_settles_when_both_its_times_are_old() {
        let at = |secs: i64| nanos(1_700_000_000 + secs, 0);
        let now = UNIX_EPOCH + Duration::from_secs(1_700_000_100);
        let stamp = |mtime, ctime| Stamp {
            mtime_ns: at(mtime),
            ctime_ns: at(ctime),
            ..Stamp::default()
        };
        assert!(stamp(0, 0).settled(now));
        assert!(stamp(0, 98).settled(now));
        // `touch -r` sets the mtime back, never the ctime.
        assert!(!stamp(0, 99).settled(now));
        assert!(!stamp(99, 0).settled(now));
        // A time in the future (another machine's clock) is not settled.
        assert!(!stamp(0, 500).settled(now));
    }

    #[test]
    fn a_file_written_just_now_is_not_settled() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.py");
        fs::write(&file, "x = 0\n").unwrap();
        set_mtime(&file, SystemTime::now() - Duration::from_secs(60));
        let stamp = Stamp::read(&file).unwrap();
        assert!(!stamp.settled(SystemTime::now()));
        assert!(stamp.settled(SystemTime::now() + FRESH));
    }
}
