//! A disk cache of definitions, so a file's syntax tree is built once per
//! change rather than once per scout run.
//!
//! This module owns the cache directory `<cache>/defs/` (with `<cache>`
//! from [`crate::dirs::cache_dir`]: `$XDG_CACHE_HOME/scout`, else
//! `~/.cache/scout`): reading, writing and pruning its entries, and
//! parsing files in parallel on a miss. Parsing itself is
//! [`super::extract`]'s; choosing a file's language is the caller's.
//!
//! # Entries
//!
//! One file per source file, named for the FNV-1a 64 hash of its absolute
//! path (the working directory joined with the path, `.` components
//! dropped, symlinks not resolved: no system call per path component) in
//! 16 lower-case hex digits, `.defs` (`3f2a9c0d41e7b885.defs`). An entry
//! is binary, all integers little-endian:
//!
//! ```text
//! magic      11 bytes  "scout-defs\n"
//! format     u32       ENTRY_FORMAT
//! rules      u32       RULES_VERSION of defs
//! size       u64       the source's stamp (crate::stamp::Stamp): its
//! mtime_ns   i64       size in bytes, modification and status-change
//! ctime_ns   i64       times in ns since the Unix epoch, inode and
//! ino        u64       device
//! dev        u64
//! lang       u8 length, then the language's name
//! path       u32 length, then the absolute path's bytes
//! count      u32       definitions that follow, each:
//!   kind       u8        index in DefKind::ALL
//!   start_line, end_line, name_line   u32 each (1-based)
//!   name, short          u32 length, then UTF-8 bytes, each
//! ```
//!
//! An entry is used only when all of these match the file as it is now
//! and nothing is left over; anything else (another version, a changed
//! file, a hash collision, a torn or corrupt file: a [`DecodeError`]) is
//! a miss, and the entry is rebuilt. A file whose stamp is not yet
//! [settled](crate::stamp::Stamp::settled) (changed in the last two
//! seconds) is parsed but not stored: a same-size rewrite within the
//! file system's clock tick could leave its stamp as it is. No
//! failure of the cache is ever an error: an unwritable directory means
//! parsing every time. Entries of format 1 (JSON, `.json`, keyed by
//! canonical path) are never read, nor those of format 2 (keyed by size
//! and mtime alone); pruning removes them like any entry left untouched.
//!
//! # Concurrency and pruning
//!
//! As every cache of scout's ([`crate::cache`]): entries are written to a
//! temporary file and renamed over the old one, a hit marks its entry
//! used when it was last marked long ago, and at most once a day a write
//! removes the entries left untouched for a month (format 1's `.json`
//! among them) and temporary files left by killed processes.

use std::ffi::OsStr;
use std::fs::{self, File};
use std::io::Read;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, SystemTime};

use super::{extract, Def, DefKind, AROUND_RULES, MAX_PARSE_BYTES, RULES_VERSION};
use crate::cache;
use crate::lang::Lang;
use crate::stamp::Stamp;

/// The version of the entry layout described in the module doc (3: the
/// whole stamp).
pub const ENTRY_FORMAT: u32 = 3;
/// The first bytes of every entry.
const MAGIC: &[u8] = b"scout-defs\n";
/// The suffix of entry files; format 1's (`.json`) are only pruned.
const SUFFIX: &str = ".defs";
const OLD_SUFFIX: &str = ".json";
/// The suffix of entries holding the definitions around some lines of a
/// file ([`DefsCache::around`]).
const PIECES_SUFFIX: &str = ".pieces";
/// Name of the subdirectory of scout's cache directory holding entries.
pub const SUBDIR: &str = "defs";

/// Definitions of files, from the disk cache when fresh.
#[derive(Debug)]
pub struct DefsCache {
    /// `<cache>/defs`; `None` means no caching.
    dir: Option<PathBuf>,
    /// Whether `dir` exists or could be created, settled on the first
    /// write.
    writable: OnceLock<bool>,
    /// The working directory, asked once: relative paths are keyed by
    /// their absolute form, and a search looks up dozens of them.
    cwd: OnceLock<Option<PathBuf>>,
    /// Added to the clock when judging whether a stamp has settled; zero
    /// but in the tests, which cannot wait for a ctime to age.
    clock_ahead: Duration,
}

/// What identifies one version of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Key {
    /// The absolute path's bytes (as stored).
    path: Vec<u8>,
    /// The entry's file name (from the path's hash).
    file_name: String,
    stamp: Stamp,
    lang: &'static str,
}

/// One entry, as stored (see the module doc).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub format: u32,
    pub rules: u32,
    pub lang: String,
    pub path: Vec<u8>,
    pub stamp: Stamp,
    pub defs: Vec<Def>,
}

/// Why bytes are not an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecodeError {
    /// Not starting with the magic bytes (another format, or garbage).
    Magic,
    /// The bytes end inside a field.
    Truncated,
    /// A kind code outside [`DefKind::ALL`].
    Kind(u8),
    /// A name or the language is not UTF-8.
    Utf8,
    /// A definition's lines are not `1 <= start <= name <= end`.
    Lines,
    /// Bytes left after the last definition.
    Trailing,
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeError::Magic => write!(f, "not a definitions entry"),
            DecodeError::Truncated => write!(f, "the entry ends inside a field"),
            DecodeError::Kind(code) => write!(f, "unknown definition kind {code}"),
            DecodeError::Utf8 => write!(f, "a name is not UTF-8"),
            DecodeError::Lines => write!(f, "a definition's lines are out of order"),
            DecodeError::Trailing => write!(f, "bytes after the last definition"),
        }
    }
}

impl std::error::Error for DecodeError {}

impl Entry {
    /// The entry's bytes, as the module doc lays them out.
    pub fn encode(&self) -> Vec<u8> {
        let names: usize = self.defs.iter().map(|d| d.name.len() + d.short.len()).sum();
        let mut out = Vec::with_capacity(88 + self.path.len() + 21 * self.defs.len() + names);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&self.format.to_le_bytes());
        out.extend_from_slice(&self.rules.to_le_bytes());
        out.extend_from_slice(&self.stamp.to_bytes());
        let lang = &self.lang.as_bytes()[..self.lang.len().min(255)];
        out.push(lang.len() as u8);
        out.extend_from_slice(lang);
        put_bytes(&mut out, &self.path);
        out.extend_from_slice(&(self.defs.len() as u32).to_le_bytes());
        for def in &self.defs {
            let code = DefKind::ALL
                .iter()
                .position(|k| *k == def.kind)
                .unwrap_or(0);
            out.push(code as u8);
            for line in [def.start_line, def.end_line, def.name_line] {
                out.extend_from_slice(&line.to_le_bytes());
            }
            put_bytes(&mut out, def.name.as_bytes());
            put_bytes(&mut out, def.short.as_bytes());
        }
        out
    }

    /// Reads an entry; any bytes that are not exactly one entry are an
    /// error. Never allocates more than the input's length would allow.
    #[cfg(test)]
    pub fn decode(bytes: &[u8]) -> Result<Entry, DecodeError> {
        Entry::decode_wanted(bytes, None)
    }

    /// Reads an entry, keeping only the definitions `wanted` keeps (all
    /// of them for `None`): the others are checked for their layout but
    /// never copied, which is most of a warm search's decoding.
    pub fn decode_wanted(bytes: &[u8], wanted: Option<&Wanted>) -> Result<Entry, DecodeError> {
        let mut input = bytes
            .strip_prefix(MAGIC)
            .map(Reader)
            .ok_or(DecodeError::Magic)?;
        let format = input.u32()?;
        let rules = input.u32()?;
        let stamp = Stamp::from_bytes(input.array()?);
        let lang_len = input.take(1)?[0] as usize;
        let lang = utf8(input.take(lang_len)?)?;
        let path = input.bytes()?.to_vec();
        let count = input.u32()? as usize;
        // Each definition takes at least 21 bytes: a count that the rest
        // cannot hold is a torn entry, not a reason to allocate.
        if count > input.0.len() / 21 {
            return Err(DecodeError::Truncated);
        }
        let mut views = Vec::with_capacity(count);
        for _ in 0..count {
            let code = input.take(1)?[0];
            let kind = *DefKind::ALL
                .get(code as usize)
                .ok_or(DecodeError::Kind(code))?;
            let (start_line, end_line, name_line) = (input.u32()?, input.u32()?, input.u32()?);
            // The page counts lines from start to end and slices the file
            // by them: an entry that breaks their order is corrupt.
            if !(1 <= start_line && start_line <= name_line && name_line <= end_line) {
                return Err(DecodeError::Lines);
            }
            let (name, short) = (input.bytes()?, input.bytes()?);
            views.push(DefView {
                kind,
                start_line,
                end_line,
                name_line,
                name,
                short,
            });
        }
        if !input.0.is_empty() {
            return Err(DecodeError::Trailing);
        }
        let keep = wanted.map(|w| w.kept(&views));
        let mut defs = Vec::with_capacity(
            keep.as_ref()
                .map_or(count, |k| k.iter().filter(|&&k| k).count()),
        );
        for (i, view) in views.iter().enumerate() {
            if keep.as_ref().is_none_or(|k| k[i]) {
                defs.push(Def {
                    kind: view.kind,
                    name: utf8(view.name)?,
                    short: utf8(view.short)?,
                    start_line: view.start_line,
                    end_line: view.end_line,
                    name_line: view.name_line,
                });
            }
        }
        Ok(Entry {
            format,
            rules,
            lang,
            path,
            stamp,
            defs,
        })
    }
}

/// One definition as it lies in an entry's bytes, names not yet copied
/// nor checked for UTF-8.
struct DefView<'a> {
    kind: DefKind,
    start_line: u32,
    end_line: u32,
    name_line: u32,
    name: &'a [u8],
    short: &'a [u8],
}

/// What a definition is, to [`Wanted`]: its unqualified name and lines.
trait Shape {
    fn short(&self) -> &[u8];
    /// First, last and name line, 1-based.
    fn lines(&self) -> (u32, u32, u32);
}

impl Shape for DefView<'_> {
    fn short(&self) -> &[u8] {
        self.short
    }
    fn lines(&self) -> (u32, u32, u32) {
        (self.start_line, self.end_line, self.name_line)
    }
}

impl Shape for Def {
    fn short(&self) -> &[u8] {
        self.short.as_bytes()
    }
    fn lines(&self) -> (u32, u32, u32) {
        (self.start_line, self.end_line, self.name_line)
    }
}

/// The definitions of a file a search page needs: those named `name` (as
/// [`super::definition_lines`] matches them), and every one whose range
/// holds one of `lines` (the page's candidate lines) or the name line of
/// one named `name`. Ranges nest, so the innermost definition around any
/// of those lines, the only one grouping, headings, attached code and
/// `--json` symbols ask for, is always kept; so is one definition of a
/// file that has any, so that it never reads as a file without.
#[derive(Debug, Clone, Default)]
pub struct Wanted {
    pub name: Option<String>,
    /// `name` whatever its ASCII case (`-i`).
    pub ignore_case: bool,
    /// 1-based lines.
    pub lines: Vec<u64>,
}

/// Whether a definition named `short` is one of `name` (`ignore_case`:
/// whatever its ASCII case, as `-i` matched it).
pub fn same_name(short: &[u8], name: &[u8], ignore_case: bool) -> bool {
    if ignore_case {
        short.eq_ignore_ascii_case(name)
    } else {
        short == name
    }
}

impl Wanted {
    /// Per definition of `defs`: whether it is kept.
    fn kept<T: Shape>(&self, defs: &[T]) -> Vec<bool> {
        let named = |d: &T| {
            self.name
                .as_ref()
                .is_some_and(|n| same_name(d.short(), n.as_bytes(), self.ignore_case))
        };
        let mut lines: Vec<u64> = self.lines.clone();
        lines.extend(
            defs.iter()
                .filter(|d| named(d))
                .map(|d| u64::from(d.lines().2)),
        );
        let mut keep: Vec<bool> = defs
            .iter()
            .map(|d| {
                let (start, end, _) = d.lines();
                named(d)
                    || lines
                        .iter()
                        .any(|&l| u64::from(start) <= l && l <= u64::from(end))
            })
            .collect();
        // A file with definitions must not look like one without: the
        // parser overrules the lexical rules only on a file it has
        // definitions for. One that holds none of the lines changes no
        // grouping and defines no other name.
        if !keep.contains(&true) {
            if let Some(first) = keep.first_mut() {
                *first = true;
            }
        }
        keep
    }

    /// `defs` without the definitions this does not keep.
    pub fn retain(&self, defs: Vec<Def>) -> Vec<Def> {
        let keep = self.kept(&defs);
        defs.into_iter()
            .zip(keep)
            .filter_map(|(d, k)| k.then_some(d))
            .collect()
    }
}

/// A length (u32) and the bytes.
fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(bytes);
}

fn utf8(bytes: &[u8]) -> Result<String, DecodeError> {
    String::from_utf8(bytes.to_vec()).map_err(|_| DecodeError::Utf8)
}

/// What is left of an entry's bytes to decode.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        if self.0.len() < n {
            return Err(DecodeError::Truncated);
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }

    fn u32(&mut self) -> Result<u32, DecodeError> {
        Ok(u32::from_le_bytes(*self.array()?))
    }

    /// The next `N` bytes.
    fn array<const N: usize>(&mut self) -> Result<&'a [u8; N], DecodeError> {
        let (head, rest) = self.0.split_first_chunk().ok_or(DecodeError::Truncated)?;
        self.0 = rest;
        Ok(head)
    }

    /// A u32 length and that many bytes.
    fn bytes(&mut self) -> Result<&'a [u8], DecodeError> {
        let n = self.u32()? as usize;
        self.take(n)
    }
}

impl DefsCache {
    /// A cache under `cache_dir` (scout's cache directory, e.g.
    /// [`crate::dirs::cache_dir`]); entries go in its `defs/`
    /// subdirectory, created on the first write. `None` means no caching:
    /// every file is parsed.
    pub fn new(cache_dir: Option<PathBuf>) -> DefsCache {
        DefsCache {
            dir: cache_dir.map(|d| d.join(SUBDIR)),
            writable: OnceLock::new(),
            cwd: OnceLock::new(),
            clock_ahead: Duration::ZERO,
        }
    }

    /// The same cache, its clock `by` ahead when it judges whether a
    /// file has settled: the tests' files were all written just now.
    #[cfg(test)]
    pub(crate) fn clock_ahead(mut self, by: Duration) -> DefsCache {
        self.clock_ahead = by;
        self
    }

    /// The directory holding the entries, when caching.
    #[cfg(test)]
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// Definitions of each file, in input order: fresh cache entries
    /// are read on this thread, and the files without one are parsed in
    /// parallel (up to `available_parallelism` threads), so a warm search
    /// starts no thread. A file that cannot be read, is not a regular
    /// file, or is larger than [`MAX_PARSE_BYTES`] has none.
    pub fn defs_many(&self, files: &[(PathBuf, Lang)]) -> Vec<Vec<Def>> {
        self.many(files, None, None).defs
    }

    /// As [`DefsCache::defs_many`], keeping of each file (aligned with
    /// `files`) only the definitions its [`Wanted`] keeps, the same from
    /// the cache as from the parser. `metas` are the files' metadata, just
    /// read by the caller (aligned with `files`): they are not read again.
    pub fn defs_many_wanted(
        &self,
        files: &[(PathBuf, Lang)],
        metas: &[fs::Metadata],
        wanted: &[Wanted],
    ) -> Found {
        self.many(files, Some(metas), Some(wanted))
    }

    fn many(
        &self,
        files: &[(PathBuf, Lang)],
        metas: Option<&[fs::Metadata]>,
        wanted: Option<&[Wanted]>,
    ) -> Found {
        let wanted_at = |i: usize| wanted.and_then(|w| w.get(i));
        let mut results = vec![Vec::new(); files.len()];
        let mut verdicts = vec![false; files.len()];
        let mut misses: Vec<(usize, Option<Key>, u64)> = Vec::new();
        for (i, (path, lang)) in files.iter().enumerate() {
            let read;
            let meta = match metas.and_then(|m| m.get(i)) {
                Some(meta) => meta,
                None => match fs::metadata(path) {
                    Ok(meta) => {
                        read = meta;
                        &read
                    }
                    Err(_) => continue,
                },
            };
            match self.lookup(path, meta, *lang, wanted_at(i)) {
                Lookup::Hit(defs) => {
                    results[i] = defs;
                    verdicts[i] = true;
                }
                Lookup::Miss(key) => misses.push((i, key, meta.len())),
                Lookup::Unparsable => {}
            }
        }
        // Largest first, so that the last file parsed is a small one and
        // the threads finish together (each result keeps its place).
        misses.sort_by_key(|&(i, _, size)| (std::cmp::Reverse(size), i));
        // Asked only for two misses or more: the answer costs a dozen
        // system calls (it reads the cgroup's CPU quota).
        let threads = match misses.len() {
            0 | 1 => misses.len(),
            n => std::thread::available_parallelism().map_or(1, |p| p.get().min(n)),
        };
        let next = AtomicUsize::new(0);
        let work = || {
            let mut done = Vec::new();
            loop {
                let at = next.fetch_add(1, Ordering::Relaxed);
                let Some((i, key, _)) = misses.get(at) else {
                    break;
                };
                let (path, lang) = &files[*i];
                done.push((*i, self.parse(path, *lang, key.clone(), wanted_at(*i))));
            }
            done
        };
        // This thread is one of the workers: a warm search, or one with a
        // single file to parse, starts no thread at all; where a thread
        // cannot be made (a sandbox's limit), this one parses alone.
        std::thread::scope(|scope| {
            let others: Vec<_> = (1..threads)
                .filter_map(|_| std::thread::Builder::new().spawn_scoped(scope, work).ok())
                .collect();
            let mut finished = vec![work()];
            for other in others {
                match other.join() {
                    Ok(done) => finished.push(done),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            for (i, defs) in finished.into_iter().flatten() {
                if let Some(defs) = defs {
                    results[i] = defs;
                    verdicts[i] = true;
                }
            }
        });
        Found {
            defs: results,
            read: verdicts,
            parsed: misses.len(),
        }
    }

    /// Definitions of one file, from the cache when fresh, else parsed
    /// (and stored). Empty for a file that cannot be read, is not a
    /// regular file, or is larger than [`MAX_PARSE_BYTES`].
    pub fn defs(&self, path: &Path, lang: Lang) -> Vec<Def> {
        let Ok(meta) = fs::metadata(path) else {
            return Vec::new();
        };
        match self.lookup(path, &meta, lang, None) {
            Lookup::Hit(defs) => defs,
            Lookup::Miss(key) => self.parse(path, lang, key, None).unwrap_or_default(),
            Lookup::Unparsable => Vec::new(),
        }
    }

    /// The definitions around `lines` (1-based, ascending) of the file at
    /// `path` (of `lang`, with metadata `meta`), from the blocks around
    /// them parsed alone within `budget` bytes ([`super::around`]): for
    /// the headings of a file past a page's parse budget. From the cache
    /// when it holds them for this version of the file and these lines, so
    /// that a search run again parses nothing; the answer depends on the
    /// file and the lines alone, cached or not. With them, whether the
    /// file was read (not served from the cache).
    pub fn around(
        &self,
        path: &Path,
        lang: Lang,
        meta: &fs::Metadata,
        lines: &[u64],
        budget: usize,
    ) -> (Vec<Def>, bool) {
        if !meta.is_file() {
            return (Vec::new(), false);
        }
        // One entry per file and set of lines (and budget, and version of
        // the rules): the key's path is the file's, a NUL (in no path),
        // then those.
        let key = self.dir.as_ref().and_then(|_| {
            let mut named = self.absolute(path)?.into_os_string().into_vec();
            named.push(0);
            named.extend_from_slice(format!("v{AROUND_RULES},{budget}").as_bytes());
            for line in lines {
                named.extend_from_slice(format!(",{line}").as_bytes());
            }
            let file_name = cache::entry_name(Path::new(OsStr::from_bytes(&named)), PIECES_SUFFIX);
            Some(Key {
                file_name,
                path: named,
                stamp: Stamp::of(meta),
                lang: lang.name(),
            })
        });
        if let (Some(dir), Some(key)) = (&self.dir, &key) {
            if let Some(defs) = load(dir, key, None) {
                return (defs, false);
            }
        }
        let settled = key
            .as_ref()
            .is_some_and(|k| k.stamp.settled(SystemTime::now() + self.clock_ahead));
        let Ok(source) = fs::read(path) else {
            return (Vec::new(), false);
        };
        let mut left = budget;
        let defs = super::around(lang, &source, lines, &mut left);
        if let (Some(dir), Some(key), true) = (&self.dir, key, settled) {
            if self.ensure_dir(dir) {
                store(dir, key, defs.clone());
            }
        }
        (defs, true)
    }

    /// What the cache holds for `path`, whose metadata is `meta`.
    fn lookup(
        &self,
        path: &Path,
        meta: &fs::Metadata,
        lang: Lang,
        wanted: Option<&Wanted>,
    ) -> Lookup {
        if !meta.is_file() || meta.len() > MAX_PARSE_BYTES as u64 {
            return Lookup::Unparsable;
        }
        let key = self
            .dir
            .as_ref()
            .and_then(|_| Some(Key::of(self.absolute(path)?, meta, lang)));
        if let (Some(dir), Some(key)) = (&self.dir, &key) {
            if let Some(defs) = load(dir, key, wanted) {
                return Lookup::Hit(defs);
            }
        }
        Lookup::Miss(key)
    }

    /// Parses `path` and stores its entry (every definition) under `key`,
    /// when caching and the key's stamp has settled; returns the
    /// definitions `wanted` keeps; `None` when the file cannot be read or
    /// has grown past what is parsed.
    fn parse(
        &self,
        path: &Path,
        lang: Lang,
        key: Option<Key>,
        wanted: Option<&Wanted>,
    ) -> Option<Vec<Def>> {
        // The clock read after the stamp and before the bytes: a stamp
        // settled then changes with any write the bytes could show.
        let settled = key
            .as_ref()
            .is_some_and(|k| k.stamp.settled(SystemTime::now() + self.clock_ahead));
        let source = fs::read(path).ok().filter(|s| s.len() <= MAX_PARSE_BYTES)?;
        let defs = extract(lang, &source);
        if let (Some(dir), Some(key), true) = (&self.dir, key, settled) {
            if self.ensure_dir(dir) {
                store(dir, key, defs.clone());
                cache::prune_if_due(dir, &[SUFFIX, PIECES_SUFFIX, OLD_SUFFIX], SystemTime::now());
            }
        }
        Some(match wanted {
            Some(wanted) => wanted.retain(defs),
            None => defs,
        })
    }

    /// The same cache, told the working directory the caller already
    /// knows (an empty or relative one is ignored): it will not ask.
    pub fn with_cwd(self, cwd: &Path) -> DefsCache {
        if cwd.is_absolute() {
            let _ = self.cwd.set(Some(cwd.to_path_buf()));
        }
        self
    }

    /// `path` made absolute as [`std::path::absolute`] makes it, with the
    /// working directory read once per cache rather than once per file.
    fn absolute(&self, path: &Path) -> Option<PathBuf> {
        if path.is_absolute() {
            return std::path::absolute(path).ok();
        }
        let cwd = self
            .cwd
            .get_or_init(|| std::env::current_dir().ok())
            .as_ref()?;
        match join_plain(cwd, path) {
            Some(joined) => Some(joined),
            None => std::path::absolute(cwd.join(path)).ok(),
        }
    }

    /// Whether the entry directory exists or could be created (asked
    /// once per cache).
    fn ensure_dir(&self, dir: &Path) -> bool {
        *self
            .writable
            .get_or_init(|| fs::create_dir_all(dir).is_ok())
    }
}

/// The definitions of several files, aligned with the files asked for.
#[derive(Debug, Default)]
pub struct Found {
    pub defs: Vec<Vec<Def>>,
    /// Whether the parser read each file: its (maybe empty) definitions
    /// are its verdict. False where it could not (gone, not a regular
    /// file, too large to parse).
    pub read: Vec<bool>,
    /// How many of the files had no fresh entry and were parsed.
    pub parsed: usize,
}

/// What the cache has for one file.
enum Lookup {
    /// A fresh entry's definitions.
    Hit(Vec<Def>),
    /// No fresh entry: parse, and store under the key when there is one.
    Miss(Option<Key>),
    /// Not a regular file, too large, or gone: no definitions.
    Unparsable,
}

impl Key {
    /// The key of the file at `absolute` with metadata `meta` (read by
    /// the caller, after rg's pass).
    fn of(absolute: PathBuf, meta: &fs::Metadata, lang: Lang) -> Key {
        Key {
            file_name: cache::entry_name(&absolute, SUFFIX),
            path: absolute.into_os_string().into_vec(),
            stamp: Stamp::of(meta),
            lang: lang.name(),
        }
    }

    /// Whether a stored entry was made for this key (and this version of
    /// scout's rules and entry layout).
    fn matches(&self, entry: &Entry) -> bool {
        entry.format == ENTRY_FORMAT
            && entry.rules == RULES_VERSION
            && entry.stamp == self.stamp
            && entry.lang == self.lang
            && entry.path == self.path
    }
}

/// `cwd` joined with the relative `path` as [`std::path::absolute`]
/// would join them, when that is only a matter of copying bytes: `cwd`
/// reads the same as its components, and so does `path` past a leading
/// `./` (no empty or `.` component, no separator at the end). rg prints
/// paths in that form, and the copy saves std's walk over every component
/// of both. `None` for any other path.
fn join_plain(cwd: &Path, path: &Path) -> Option<PathBuf> {
    let (cwd, path) = (cwd.as_os_str().as_bytes(), path.as_os_str().as_bytes());
    let path = path.strip_prefix(b"./").unwrap_or(path);
    let plain = |bytes: &[u8]| {
        bytes
            .split(|&b| b == b'/')
            .all(|c| !c.is_empty() && c != b".")
    };
    // `rest` is empty for the root.
    let rest = cwd.strip_prefix(b"/")?;
    if !(rest.is_empty() || plain(rest)) || !plain(path) {
        return None;
    }
    let mut joined = Vec::with_capacity(cwd.len() + 1 + path.len());
    joined.extend_from_slice(cwd);
    if !rest.is_empty() {
        joined.push(b'/');
    }
    joined.extend_from_slice(path);
    Some(PathBuf::from(std::ffi::OsString::from_vec(joined)))
}

/// The definitions stored for `key`, if its entry is whole and fresh.
/// Marks the entry used ([`cache::mark_used`]).
fn load(dir: &Path, key: &Key, wanted: Option<&Wanted>) -> Option<Vec<Def>> {
    let mut file = File::open(dir.join(&key.file_name)).ok()?;
    // One stat gives both the size and the age. Entries are replaced by
    // rename, never written in place, so an open entry keeps its size:
    // reading exactly that many bytes saves read_to_end's own stat, seek
    // and final empty read (four system calls per entry, not seven).
    let meta = file.metadata().ok()?;
    let mut bytes = vec![0; usize::try_from(meta.len()).ok()?];
    file.read_exact(&mut bytes).ok()?;
    let entry = Entry::decode_wanted(&bytes, wanted).ok()?;
    if !key.matches(&entry) {
        return None;
    }
    cache::mark_used(&file, meta.modified().ok(), SystemTime::now());
    Some(entry.defs)
}

/// Writes the entry for `key` atomically (a temporary file renamed over
/// it). Failures are ignored: the next run parses again.
fn store(dir: &Path, key: Key, defs: Vec<Def>) {
    let entry = Entry {
        format: ENTRY_FORMAT,
        rules: RULES_VERSION,
        lang: key.lang.to_string(),
        path: key.path,
        stamp: key.stamp,
        defs,
    };
    cache::write_atomic(dir, &dir.join(&key.file_name), &entry.encode());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::{MARKER, MAX_AGE, PRUNE_EVERY, TEMP_PREFIX};
    use crate::defs::DefKind;
    use crate::stamp::set_mtime;

    const OLD: &str = "fn alpha() {}\n";
    const NEW: &str = "fn omega() {}\n";

    fn names(defs: &[Def]) -> Vec<&str> {
        defs.iter().map(|d| d.name.as_str()).collect()
    }

    fn mtime(path: &Path) -> SystemTime {
        fs::metadata(path).unwrap().modified().unwrap()
    }

    fn entries(dir: &Path) -> Vec<PathBuf> {
        let mut found: Vec<PathBuf> = fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "defs"))
            .collect();
        found.sort();
        found
    }

    /// How far ahead the tests' caches set their clock: every file they
    /// write has settled by then.
    const LATER: Duration = Duration::from_secs(60);

    /// A source file and a cache over a private directory, whose clock
    /// is [`LATER`].
    fn setup() -> (tempfile::TempDir, PathBuf, DefsCache) {
        let tmp = tempfile::tempdir().unwrap();
        let source = tmp.path().join("src/lib.rs");
        fs::create_dir_all(source.parent().unwrap()).unwrap();
        fs::write(&source, OLD).unwrap();
        let cache = DefsCache::new(Some(tmp.path().join("cache"))).clock_ahead(LATER);
        (tmp, source, cache)
    }

    /// How many files one look-up of `source` parsed (0: a hit).
    fn parsed(cache: &DefsCache, source: &Path) -> usize {
        let files = [(source.to_path_buf(), Lang::Rust)];
        let metas = [fs::metadata(source).unwrap()];
        cache
            .defs_many_wanted(&files, &metas, &[Wanted::default()])
            .parsed
    }

    #[test]
    fn kinds_serialize_as_their_labels() {
        for kind in [DefKind::Function, DefKind::Impl, DefKind::Property] {
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.label()));
        }
    }

    fn sample_entry() -> Entry {
        Entry {
            format: ENTRY_FORMAT,
            rules: RULES_VERSION,
            lang: "rust".into(),
            path: b"/src/\xffodd name.rs".to_vec(),
            stamp: Stamp {
                size: 2048,
                mtime_ns: -1_732_950_000_123_456_789,
                ctime_ns: 1_732_950_000_123_456_789,
                ino: u64::MAX - 7,
                dev: 2049,
            },
            defs: extract(
                Lang::Rust,
                b"struct Point { x: u8 }\nimpl Point {\n    fn r\xc3\xa9sum\xc3\xa9(&self) {}\n}\n",
            ),
        }
    }

    #[test]
    fn every_kind_has_one_code() {
        // Exhaustive: a new kind does not compile until it has a code.
        fn code(kind: DefKind) -> usize {
            match kind {
                DefKind::Function => 0,
                DefKind::Method => 1,
                DefKind::Class => 2,
                DefKind::Struct => 3,
                DefKind::Enum => 4,
                DefKind::Trait => 5,
                DefKind::Interface => 6,
                DefKind::Impl => 7,
                DefKind::Module => 8,
                DefKind::Type => 9,
                DefKind::Macro => 10,
                DefKind::Constant => 11,
                DefKind::Property => 12,
                DefKind::Variable => 13,
            }
        }
        for (i, kind) in DefKind::ALL.iter().enumerate() {
            assert_eq!(code(*kind), i, "{kind:?}");
        }
    }

    #[test]
    fn wanted_keeps_what_a_page_asks_of_the_definitions() {
        let source = b"mod outer {\n    struct Point { x: u8 }\n    impl Point {\n        fn area(&self) -> u8 {\n            self.x\n        }\n        fn x(&self) -> u8 { self.x }\n    }\n    fn x() {}\n}\nfn unrelated() {}\n";
        let all = extract(Lang::Rust, source);
        let wanted = Wanted {
            name: Some("x".into()),
            ignore_case: false,
            lines: vec![5],
        };
        let kept = wanted.retain(all.clone());
        // The innermost definition around every asked line, and around
        // the name line of every definition of `x`, is the same.
        for line in [5, 7, 9] {
            assert_eq!(
                crate::defs::enclosing(&kept, line),
                crate::defs::enclosing(&all, line),
                "line {line}"
            );
        }
        assert_eq!(
            crate::defs::definition_lines(&kept, "x"),
            crate::defs::definition_lines(&all, "x")
        );
        assert!(kept.len() < all.len(), "{kept:?}");
        assert!(!kept.iter().any(|d| d.short == "unrelated"), "{kept:?}");
        // Nothing asked for still leaves the file with a definition.
        let nothing = Wanted {
            name: Some("absent".into()),
            ignore_case: false,
            lines: vec![],
        };
        assert_eq!(nothing.retain(all.clone()).len(), 1);
        // The cache and the parser keep the same.
        let entry = Entry {
            defs: all,
            ..sample_entry()
        };
        assert_eq!(
            Entry::decode_wanted(&entry.encode(), Some(&wanted))
                .unwrap()
                .defs,
            kept
        );
    }

    #[test]
    fn an_entry_decodes_to_what_was_encoded() {
        let entry = sample_entry();
        assert!(entry.defs.len() >= 3, "{:?}", entry.defs);
        assert_eq!(Entry::decode(&entry.encode()), Ok(entry));
    }

    /// Found by the property tests: an entry whose lines were out of
    /// order (start 0, or end before start) decoded, and the page would
    /// count `end - start + 1` lines of it.
    #[test]
    fn regression_an_entry_with_lines_out_of_order_is_corrupt() {
        for (start, end, name) in [(0, 3, 1), (2, 1, 1), (2, 5, 1), (2, 5, 6)] {
            let mut entry = sample_entry();
            entry.defs[0].start_line = start;
            entry.defs[0].end_line = end;
            entry.defs[0].name_line = name;
            assert_eq!(
                Entry::decode(&entry.encode()),
                Err(DecodeError::Lines),
                "{start} {end} {name}"
            );
        }
    }

    #[test]
    fn every_torn_or_altered_entry_is_a_typed_error() {
        let bytes = sample_entry().encode();
        for cut in 0..bytes.len() {
            assert!(Entry::decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(Entry::decode(&longer), Err(DecodeError::Trailing));
        assert_eq!(Entry::decode(b"{\"format\":1}"), Err(DecodeError::Magic));
        // The first definition's kind code is right after the count.
        let at = bytes.len()
            - sample_entry()
                .defs
                .iter()
                .map(|d| 17 + d.name.len() + 4 + d.short.len())
                .sum::<usize>();
        let mut bad_kind = bytes.clone();
        bad_kind[at] = 200;
        assert_eq!(Entry::decode(&bad_kind), Err(DecodeError::Kind(200)));
        // A count no bytes could hold allocates nothing and is torn.
        let mut huge = bytes[..at - 4].to_vec();
        huge.extend_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(Entry::decode(&huge), Err(DecodeError::Truncated));
    }

    #[test]
    fn a_hit_after_a_miss_comes_from_the_cache_until_the_file_changes() {
        let (_tmp, source, cache) = setup();
        assert_eq!(names(&cache.defs(&source, Lang::Rust)), ["alpha"]);
        assert_eq!(entries(cache.dir().unwrap()).len(), 1);
        assert_eq!(parsed(&cache, &source), 0);
        // A fresh cache over the same directory reads the same entry.
        let again = DefsCache::new(Some(cache.dir().unwrap().parent().unwrap().into()));
        assert_eq!(parsed(&again, &source), 0);

        let before = mtime(&source);
        set_mtime(&source, before + Duration::from_secs(1));
        assert_eq!(parsed(&cache, &source), 1);
        assert_eq!(names(&cache.defs(&source, Lang::Rust)), ["alpha"]);
        assert_eq!(parsed(&cache, &source), 0);
        assert_eq!(entries(cache.dir().unwrap()).len(), 1);
    }

    /// The entry had been served for a file with new bytes of the same
    /// size under the same mtime, written in place or renamed into place.
    #[test]
    fn regression_a_same_size_rewrite_under_the_same_mtime_is_a_miss() {
        let (tmp, source, cache) = setup();
        let before = mtime(&source);
        assert_eq!(names(&cache.defs(&source, Lang::Rust)), ["alpha"]);
        // In place (an editor, `touch -r`): the ctime moved. Past the
        // kernel's clock tick, as the clock is past it in real use.
        std::thread::sleep(Duration::from_millis(50));
        fs::write(&source, NEW).unwrap();
        set_mtime(&source, before);
        assert_eq!(names(&cache.defs(&source, Lang::Rust)), ["omega"]);
        // Renamed into place (`cp -p` to a temporary, `rsync -t`, `tar`):
        // another inode.
        let next = tmp.path().join("next.rs");
        fs::write(&next, OLD).unwrap();
        set_mtime(&next, before);
        fs::rename(&next, &source).unwrap();
        assert_eq!(names(&cache.defs(&source, Lang::Rust)), ["alpha"]);
    }

    /// An entry written within the file system's clock tick could
    /// outlive a same-size rewrite in the same tick, which leaves every
    /// field of the stamp as it was.
    #[test]
    fn regression_a_file_changed_just_now_is_parsed_but_not_stored() {
        let (tmp, source, _) = setup();
        let cache = DefsCache::new(Some(tmp.path().join("cache")));
        set_mtime(&source, SystemTime::now() - LATER);
        assert_eq!(names(&cache.defs(&source, Lang::Rust)), ["alpha"]);
        assert!(!tmp.path().join("cache").join(SUBDIR).exists());
        assert_eq!(parsed(&cache, &source), 1);
    }

    #[test]
    fn an_entry_for_another_language_is_a_miss() {
        let (_tmp, source, cache) = setup();
        assert_eq!(names(&cache.defs(&source, Lang::Rust)), ["alpha"]);
        // As Python, `fn alpha() {}` defines nothing.
        assert!(cache.defs(&source, Lang::Python).is_empty());
    }

    #[test]
    fn a_corrupt_entry_is_ignored_and_rebuilt() {
        let (_tmp, source, cache) = setup();
        cache.defs(&source, Lang::Rust);
        let entry = entries(cache.dir().unwrap()).remove(0);
        let whole = fs::read(&entry).unwrap();
        let torn = &whole[..whole.len() - 3];
        for garbage in [&b""[..], b"{\"format\":1,", b"\xff\xfe", b"[]", torn] {
            fs::write(&entry, garbage).unwrap();
            assert_eq!(names(&cache.defs(&source, Lang::Rust)), ["alpha"]);
            let stored = Entry::decode(&fs::read(&entry).unwrap()).unwrap();
            assert_eq!(names(&stored.defs), ["alpha"]);
        }
    }

    #[test]
    fn an_entry_made_under_other_rules_is_rebuilt() {
        let (_tmp, source, cache) = setup();
        cache.defs(&source, Lang::Rust);
        let path = entries(cache.dir().unwrap()).remove(0);
        let mut entry = Entry::decode(&fs::read(&path).unwrap()).unwrap();
        entry.rules = RULES_VERSION + 1;
        entry.defs[0].name = "stale".into();
        fs::write(&path, entry.encode()).unwrap();
        assert_eq!(names(&cache.defs(&source, Lang::Rust)), ["alpha"]);
    }

    #[test]
    fn a_plain_join_is_the_path_std_makes_absolute() {
        let cwds = [
            "/",
            "/work/corpora/ripgrep",
            "//net/share",
            "/a/./b",
            "/a/b/",
            "/a/../b",
        ];
        let paths = [
            "./crates/core/main.rs",
            "crates/core/main.rs",
            "../x.rs",
            "a/../b.rs",
            "./a/./b.rs",
            "././a.rs",
            "a//b.rs",
            "a/b/",
            "a/.",
            ".",
            "./",
            ".hidden/.rs",
            "",
        ];
        for cwd in cwds {
            for path in paths {
                let (cwd, path) = (Path::new(cwd), Path::new(path));
                if let Some(joined) = join_plain(cwd, path) {
                    let std = std::path::absolute(cwd.join(path)).unwrap();
                    assert_eq!(joined, std, "{cwd:?} joined with {path:?}");
                }
            }
        }
        let cwd = Path::new("/work/corpora/ripgrep");
        assert!(join_plain(cwd, Path::new("./crates/core/main.rs")).is_some());
        assert!(join_plain(Path::new("/"), Path::new("a/../b.rs")).is_some());
        assert!(join_plain(cwd, Path::new("a//b.rs")).is_none());
        assert!(join_plain(Path::new("/a/./b"), Path::new("x.rs")).is_none());
    }

    #[test]
    fn concurrent_writers_leave_a_whole_entry() {
        let (_tmp, source, cache) = setup();
        let meta = fs::metadata(&source).unwrap();
        let key = Key::of(source.clone(), &meta, Lang::Rust);
        let dir = cache.dir().unwrap().to_path_buf();
        fs::create_dir_all(&dir).unwrap();
        let defs = extract(Lang::Rust, OLD.as_bytes());
        std::thread::scope(|scope| {
            for _ in 0..20 {
                scope.spawn(|| {
                    for _ in 0..10 {
                        store(&dir, key.clone(), defs.clone());
                        // A reader never sees a torn entry.
                        if dir.join(&key.file_name).exists() {
                            assert_eq!(load(&dir, &key, None).as_deref(), Some(&defs[..]));
                        }
                    }
                });
            }
        });
        assert_eq!(load(&dir, &key, None), Some(defs));
        let leftovers: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().as_bytes().starts_with(TEMP_PREFIX.as_bytes()))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }

    #[test]
    fn defs_many_keeps_input_order_and_handles_bad_files() {
        let tmp = tempfile::tempdir().unwrap();
        let mut files = Vec::new();
        for i in 0..9 {
            // Sizes out of input order: misses are parsed largest first,
            // and each result must still land in its own place.
            let padding = "// padding\n".repeat((i * 5) % 9);
            let path = tmp.path().join(format!("f{i}.rs"));
            fs::write(&path, format!("{padding}fn f{i}() {{}}\n")).unwrap();
            files.push((path, Lang::Rust));
        }
        files.push((tmp.path().join("missing.rs"), Lang::Rust));
        files.push((tmp.path().to_path_buf(), Lang::Rust));
        let big = tmp.path().join("big.rs");
        fs::write(&big, "fn big() {}\n".repeat(MAX_PARSE_BYTES / 10)).unwrap();
        files.push((big, Lang::Rust));
        for cache in [
            DefsCache::new(None),
            DefsCache::new(Some(tmp.path().join("cache"))).clock_ahead(LATER),
        ] {
            for _ in 0..2 {
                let all = cache.defs_many(&files);
                assert_eq!(all.len(), files.len());
                for (i, defs) in all.iter().enumerate().take(9) {
                    assert_eq!(names(defs), [format!("f{i}")]);
                }
                assert!(all[9..].iter().all(Vec::is_empty));
            }
        }
    }

    #[test]
    fn defs_many_wanted_says_how_many_files_it_parsed() {
        let (tmp, source, cache) = setup();
        let other = tmp.path().join("other.rs");
        fs::write(&other, NEW).unwrap();
        let files = vec![(source, Lang::Rust), (other, Lang::Rust)];
        let metas: Vec<fs::Metadata> = files
            .iter()
            .map(|(p, _)| fs::metadata(p).unwrap())
            .collect();
        let wanted = vec![Wanted::default(), Wanted::default()];
        let cold = cache.defs_many_wanted(&files, &metas, &wanted);
        assert_eq!(cold.parsed, 2);
        let warm = cache.defs_many_wanted(&files, &metas, &wanted);
        assert_eq!(warm.parsed, 0);
        assert_eq!(warm.defs, cold.defs);
        assert!(!warm.defs[0].is_empty() && !warm.defs[1].is_empty());
    }

    /// The definitions around some lines are cached per version of the
    /// file and per set of lines: served again without the file, and
    /// never for another version of it.
    #[test]
    fn pieces_are_cached_by_stamp_and_lines() {
        let (_tmp, source, cache) = setup();
        let text = "struct S;\nimpl S {\n    fn alpha(&self) {\n        work();\n    }\n}\n";
        fs::write(&source, text).unwrap();
        let meta = fs::metadata(&source).unwrap();
        let expected: Vec<Def> = extract(Lang::Rust, text.as_bytes())
            .into_iter()
            .filter(|d| d.contains(4))
            .collect();
        assert_eq!(expected.len(), 2, "{expected:?}");
        let cold = cache.around(&source, Lang::Rust, &meta, &[4], 1 << 16);
        assert_eq!(cold, (expected.clone(), true));
        let dir = cache.dir().unwrap();
        let stored = fs::read_dir(dir)
            .unwrap()
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == "pieces"))
            .count();
        assert_eq!(stored, 1);
        // Served from the entry: the file is gone.
        fs::rename(&source, source.with_extension("gone")).unwrap();
        assert_eq!(
            cache.around(&source, Lang::Rust, &meta, &[4], 1 << 16),
            (expected, false)
        );
        // Other lines are another entry, which needs the file.
        assert!(cache
            .around(&source, Lang::Rust, &meta, &[3, 4], 1 << 16)
            .0
            .is_empty());
        // Another version of the file is parsed again.
        fs::write(
            &source,
            "fn omega() {\n    let a = 1;\n    let b = 2;\n    work();\n}\n",
        )
        .unwrap();
        let meta = fs::metadata(&source).unwrap();
        let names: Vec<String> = cache
            .around(&source, Lang::Rust, &meta, &[4], 1 << 16)
            .0
            .into_iter()
            .map(|d| d.name)
            .collect();
        assert_eq!(names, ["omega"]);
    }

    #[test]
    fn a_write_prunes_month_old_entries_at_most_once_a_day() {
        let (tmp, source, cache) = setup();
        let dir = cache.dir().unwrap().to_path_buf();
        cache.defs(&source, Lang::Rust);
        let old = entries(&dir).remove(0);
        let now = SystemTime::now();
        set_mtime(&old, now - MAX_AGE - Duration::from_secs(3600));
        let recent_source = tmp.path().join("recent.rs");
        fs::write(&recent_source, NEW).unwrap();
        let other = tmp.path().join("other.rs");
        fs::write(&other, NEW).unwrap();

        // Pruned less than a day ago: the old entry stays.
        cache.defs(&recent_source, Lang::Rust);
        assert!(old.exists());
        let recent = dir.join(cache::entry_name(
            &std::path::absolute(&recent_source).unwrap(),
            SUFFIX,
        ));
        set_mtime(&recent, now - Duration::from_secs(10 * 24 * 3600));

        // Format 1's entries are never read again; they age out alike.
        let json = dir.join("00000000000000ab.json");
        fs::write(&json, "{}").unwrap();
        set_mtime(&json, now - MAX_AGE - Duration::from_secs(3600));

        // A day later, the next write prunes them, and only them.
        set_mtime(
            &dir.join(MARKER),
            now - PRUNE_EVERY - Duration::from_secs(60),
        );
        cache.defs(&other, Lang::Rust);
        assert!(!old.exists());
        assert!(!json.exists());
        assert!(recent.exists());
        assert_eq!(entries(&dir).len(), 2);
        let marked = mtime(&dir.join(MARKER));
        assert!(now.duration_since(marked).unwrap_or_default() < Duration::from_secs(60));
    }

    #[test]
    fn a_hit_touches_an_entry_older_than_a_day() {
        let (_tmp, source, cache) = setup();
        cache.defs(&source, Lang::Rust);
        let entry = entries(cache.dir().unwrap()).remove(0);
        let week_ago = SystemTime::now() - Duration::from_secs(7 * 24 * 3600);
        set_mtime(&entry, week_ago);
        assert_eq!(names(&cache.defs(&source, Lang::Rust)), ["alpha"]);
        assert!(mtime(&entry) > week_ago + Duration::from_secs(24 * 3600));
    }

    #[test]
    fn an_unwritable_cache_directory_means_parsing_every_time() {
        let (tmp, source, _) = setup();
        // A file where the directory should be: not creatable, even by root.
        let blocker = tmp.path().join("blocker");
        fs::write(&blocker, "").unwrap();
        let cache = DefsCache::new(Some(blocker.join("cache")));
        assert_eq!(names(&cache.defs(&source, Lang::Rust)), ["alpha"]);
        fs::write(&source, NEW).unwrap();
        assert_eq!(names(&cache.defs(&source, Lang::Rust)), ["omega"]);
        assert_eq!(cache.defs_many(&[(source, Lang::Rust)]).len(), 1);
    }
}
