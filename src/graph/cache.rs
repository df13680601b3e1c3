//! A disk cache of the graph's per-file [`Facts`], so a file is parsed
//! once per change rather than once per `--callers-of`.
//!
//! This module owns `<cache>/graph/` (with `<cache>` from
//! [`crate::dirs::cache_dir`]). One entry per source file, named for the
//! FNV-1a 64 hash of its canonical path in 16 hex digits, `.facts`; an
//! entry is one [`Entry`] in postcard's encoding (serde's fields in
//! order, integers as varints): format, rules, the definitions' rules,
//! language, canonical path, the file's [`Stamp`] (size, mtime, ctime,
//! inode, device), then the facts. JSON, the first format, decoded at a third of the speed, most
//! of a warm `--callers-of` for a name spelled in a hundred files.
//!
//! An entry is used only when every field but `facts` matches the file
//! as it is now ([`FACTS_RULES`] and the definitions'
//! [`RULES_VERSION`](crate::defs::RULES_VERSION) included); anything else,
//! a torn or foreign file among them, is a miss and the entry is rebuilt.
//! A file whose stamp has not [settled](Stamp::settled) (modified or
//! changed in the last two seconds) is parsed but not stored: another
//! write within the clock's tick could leave its stamp as it is. No
//! failure of the cache is an error: an unwritable directory means
//! parsing every time.
//!
//! Entries are written, marked used and pruned as every cache of scout's
//! ([`crate::cache`]).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use super::facts::{self, Facts};
use crate::cache::{entry_path, touch, write_entry};
use crate::lang::Lang;
use crate::stamp::Stamp;

/// The version of [`facts::extract`]'s rules: bump it whenever a change
/// there can change what a file yields.
pub const FACTS_RULES: u32 = 18;
/// The layout of an entry (3: the whole stamp).
const FORMAT: u32 = 3;
/// Name of the subdirectory of scout's cache directory.
pub const SUBDIR: &str = "graph";
const SUFFIX: &str = ".facts";

#[derive(Debug, Serialize, Deserialize)]
struct Entry {
    format: u32,
    rules: u32,
    defs_rules: u32,
    lang: String,
    path: String,
    stamp: Stamp,
    facts: Facts,
}

/// The facts of files, from the disk cache when fresh.
#[derive(Debug, Clone)]
pub struct FactsCache {
    /// `<cache>/graph`; `None`: no caching.
    dir: Option<PathBuf>,
    /// Added to the clock when judging whether a stamp has settled; zero
    /// but in the tests, which cannot wait for a ctime to age.
    clock_ahead: Duration,
}

impl FactsCache {
    /// The cache under scout's cache directory (`None`: none).
    pub fn new(cache_dir: Option<PathBuf>) -> FactsCache {
        FactsCache {
            dir: cache_dir.map(|d| d.join(SUBDIR)),
            clock_ahead: Duration::ZERO,
        }
    }

    /// The same cache, its clock `by` ahead when it judges whether a
    /// file has settled.
    #[cfg(test)]
    fn clock_ahead(mut self, by: Duration) -> FactsCache {
        self.clock_ahead = by;
        self
    }

    fn entry_path(&self, canon: &Path) -> Option<PathBuf> {
        Some(entry_path(self.dir.as_ref()?, canon, SUFFIX))
    }

    /// The facts of the file at canonical path `canon` in `lang`, or
    /// `None` when it cannot be read.
    pub fn facts(&self, canon: &Path, lang: Lang) -> Option<Facts> {
        let meta = fs::metadata(canon).ok()?;
        let stamp = Stamp::of(&meta);
        // The clock read after the stamp and before the bytes: a stamp
        // settled then changes with any write the bytes could show.
        let settled = stamp.settled(SystemTime::now() + self.clock_ahead);
        let path = canon.to_string_lossy();
        let entry_path = self.entry_path(canon);
        if let Some(entry_path) = &entry_path {
            if let Some(found) = read_entry(entry_path, &path, lang, stamp) {
                return Some(found);
            }
        }
        let source = fs::read(canon).ok()?;
        // A NUL byte near the start is a binary file, as rg judges one:
        // not source, not read.
        if source[..source.len().min(8192)].contains(&0) {
            return None;
        }
        let facts = facts::extract(lang, &source);
        // The stamp read before the source: a file changed meanwhile has
        // another stamp, and its entry is never used.
        if let (Some(entry_path), true) = (entry_path, settled) {
            let entry = Entry {
                format: FORMAT,
                rules: FACTS_RULES,
                defs_rules: crate::defs::RULES_VERSION,
                lang: lang.name().to_string(),
                path: path.into_owned(),
                stamp,
                facts,
            };
            self.write(&entry_path, &entry);
            return Some(entry.facts);
        }
        Some(facts)
    }

    fn write(&self, entry_path: &Path, entry: &Entry) {
        if let (Some(dir), Ok(bytes)) = (&self.dir, postcard::to_stdvec(entry)) {
            write_entry(dir, entry_path, &bytes, SUFFIX);
        }
    }
}

fn read_entry(entry_path: &Path, path: &str, lang: Lang, stamp: Stamp) -> Option<Facts> {
    let bytes = fs::read(entry_path).ok()?;
    let entry: Entry = postcard::from_bytes(&bytes).ok()?;
    let fits = entry.format == FORMAT
        && entry.rules == FACTS_RULES
        && entry.defs_rules == crate::defs::RULES_VERSION
        && entry.lang == lang.name()
        && entry.path == path
        && entry.stamp == stamp;
    if !fits {
        return None;
    }
    touch(entry_path);
    Some(entry.facts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stamp::set_mtime;

    #[test]
    fn an_entry_is_used_only_for_the_same_file_as_it_is_now() {
        let cache = tempfile::tempdir().unwrap();
        let tree = tempfile::tempdir().unwrap();
        let file = fs::canonicalize(tree.path()).unwrap().join("a.py");
        fs::write(&file, "def f():\n    g()\n").unwrap();
        let old = SystemTime::now() - Duration::from_secs(60);
        set_mtime(&file, old);
        let facts = FactsCache::new(Some(cache.path().to_path_buf())).clock_ahead(LATER);
        let first = facts.facts(&file, Lang::Python).unwrap();
        assert_eq!(first.calls[0].name, "g");
        let stored: Vec<_> = fs::read_dir(cache.path().join(SUBDIR))
            .unwrap()
            .flatten()
            .collect();
        assert!(stored
            .iter()
            .any(|e| e.file_name().to_string_lossy().ends_with(SUFFIX)));
        // A corrupt entry is a miss, never an error.
        let entry = facts.entry_path(&file).unwrap();
        fs::write(&entry, b"{not json").unwrap();
        assert_eq!(facts.facts(&file, Lang::Python).unwrap().calls[0].name, "g");
        // A changed file is read again.
        fs::write(&file, "def f():\n    h()\n").unwrap();
        set_mtime(&file, old + Duration::from_secs(1));
        assert_eq!(facts.facts(&file, Lang::Python).unwrap().calls[0].name, "h");
        // And the entry now holds the new facts.
        let again = FactsCache::new(Some(cache.path().to_path_buf())).clock_ahead(LATER);
        assert_eq!(again.facts(&file, Lang::Python).unwrap().calls[0].name, "h");
    }

    /// How far ahead the tests set a cache's clock: the files they wrote
    /// have settled by then.
    const LATER: Duration = Duration::from_secs(60);

    /// `--callers-of` had reported a call on a line that now read
    /// `y = 1`: the file had been renamed into place with the old one's
    /// size and mtime, and its entry was served.
    #[test]
    fn regression_a_file_renamed_into_place_with_its_size_and_mtime_is_read_again() {
        let cache = tempfile::tempdir().unwrap();
        let tree = tempfile::tempdir().unwrap();
        let dir = fs::canonicalize(tree.path()).unwrap();
        let (file, next) = (dir.join("a.py"), dir.join("a.py.new"));
        let old = SystemTime::now() - LATER;
        fs::write(
            &file,
            "def f():
    g()
",
        )
        .unwrap();
        set_mtime(&file, old);
        let facts = FactsCache::new(Some(cache.path().to_path_buf())).clock_ahead(LATER);
        assert_eq!(facts.facts(&file, Lang::Python).unwrap().calls.len(), 1);
        fs::write(
            &next,
            "def f():
    y=1
",
        )
        .unwrap();
        set_mtime(&next, old);
        fs::rename(&next, &file).unwrap();
        assert!(facts.facts(&file, Lang::Python).unwrap().calls.is_empty());
    }

    #[test]
    fn a_file_modified_just_now_is_not_stored() {
        let cache = tempfile::tempdir().unwrap();
        let tree = tempfile::tempdir().unwrap();
        let file = fs::canonicalize(tree.path()).unwrap().join("a.py");
        fs::write(&file, "g()\n").unwrap();
        let facts = FactsCache::new(Some(cache.path().to_path_buf()));
        assert!(facts.facts(&file, Lang::Python).is_some());
        assert!(!facts.entry_path(&file).unwrap().exists());
        // Nor one whose mtime was set back (`touch -r`): it changed now.
        set_mtime(&file, SystemTime::now() - LATER);
        assert!(facts.facts(&file, Lang::Python).is_some());
        assert!(!facts.entry_path(&file).unwrap().exists());
    }
}
