//! The tree's code files, for the meaning search: what `rg --files`
//! lists with the question's file selection, kept when they have a
//! parser, no prior and a size within bounds.
//!
//! On a monorepo that listing is a walk of the whole tree (0.35 s of rg
//! alone on 117,000 files, twice the CPU beside the words' pass), so it
//! is remembered: an entry per command and working directory, in the
//! cache, holding the code files and the stamps of what decides the
//! listing. It is used while none of them changed:
//! - every directory holding a listed file (of any kind) and its
//!   parents within the tree: a file added, removed or renamed there
//!   moves its stamp, and so does a `.gitignore`, `.ignore`, `.rgignore`
//!   or `.git` put there;
//! - the ignore files those directories hold, the repositories'
//!   `.git/info/exclude`, git's global configuration and excludes, rg
//!   itself and its configuration file;
//! - above the searched paths, whether each of those ignore files is
//!   there and what it holds (not the directories, which other programs
//!   write into: `/tmp`).
//!
//! One place is not watched: a directory with no listed file (empty, or
//! holding only ignored or hidden ones) gains a file without any watched
//! stamp moving. The words' pass searches the same files as the listing
//! and counts them (its `--stats`), so [`Listing::listed`] against that
//! count tells such a listing apart, and the caller lists again: a
//! remembered listing is never the answer's only word on what the tree
//! holds.

use std::collections::{HashMap, HashSet};
use std::ffi::{OsStr, OsString};
use std::fs;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use anyhow::{bail, Result};
use serde::{Deserialize, Serialize};

use crate::cache::{entry_path, touch, write_entry};
use crate::lang::Lang;
use crate::paths::path_of;
use crate::rg::{run_plain, Flow, Rg, SearchFlags};
use crate::smart::score;
use crate::smart::vectors::Key;
use crate::stamp::Stamp;

/// Under the cache directory.
const SUBDIR: &str = "listings";
const SUFFIX: &str = ".listing";
/// Bumped when an entry's layout or what it is made from changes.
const FORMAT: u32 = 1;
/// The ignore files rg reads in a directory.
const IGNORE_FILES: [&str; 3] = [".gitignore", ".ignore", ".rgignore"];

/// A code file of the tree, as rg listed it.
#[derive(Debug, Clone)]
pub struct TreeFile {
    /// As rg printed it.
    pub path: Vec<u8>,
    pub lang: Lang,
    pub key: Key,
    /// The path its units' texts name: from the root of the repository
    /// holding it (the nearest directory above with a `.git`), else as rg
    /// printed it; so that the same file has the same vectors whatever
    /// directory `scout index` or `scout smart` ran in.
    pub text_path: String,
}

/// The tree's code files, in path order.
#[derive(Debug)]
pub struct Listing {
    pub files: Vec<TreeFile>,
    /// The files rg listed, of every kind: the number the words' pass
    /// reports as searched, when the tree is as listed.
    pub listed: u64,
    /// Whether the listing was remembered rather than made now.
    pub remembered: bool,
    /// Whether it lists the tree; `false`: only the code files among a
    /// question's candidates ([`candidate_files`]).
    pub tree: bool,
}

/// Where a listing is remembered, and the key it is remembered by.
struct Place {
    dir: PathBuf,
    entry: PathBuf,
    key: Vec<u8>,
    cwd: PathBuf,
}

impl Place {
    /// `None` when a listing by `args` is not remembered: no cache
    /// directory, or links followed (what changes behind them is not
    /// watched).
    fn of(rg: &Rg, args: &[OsString], cache_dir: Option<&Path>) -> Option<Place> {
        if follows_links(args) {
            return None;
        }
        let cwd = std::env::current_dir().ok()?;
        let key = entry_key(rg, &cwd, args);
        let dir = cache_dir?.join(SUBDIR);
        let entry = entry_path(&dir, Path::new(OsStr::from_bytes(&key)), SUFFIX);
        Some(Place {
            dir,
            entry,
            key,
            cwd,
        })
    }
}

/// The listing of `flags`' tree remembered in the cache under
/// `cache_dir`, when nothing it watches changed since.
pub fn remembered(rg: &Rg, flags: &SearchFlags, cache_dir: Option<&Path>) -> Option<Listing> {
    read_entry(&Place::of(rg, &flags.file_list().args, cache_dir)?)
}

/// The tree's code files under `flags`' selection, listed by rg now and
/// remembered in the cache under `cache_dir` (`None`: not remembered).
pub fn tree_files(rg: &Rg, flags: &SearchFlags, cache_dir: Option<&Path>) -> Result<Listing> {
    let Some(listing) = list(rg, flags, cache_dir, SystemTime::now(), None)? else {
        unreachable!("a listing with no bound is never over it");
    };
    Ok(listing)
}

/// [`tree_files`] of a tree of at most `most` files; `None` for a larger
/// one, whose walk rg stops at the file past `most`.
pub fn small_tree_files(
    rg: &Rg,
    flags: &SearchFlags,
    cache_dir: Option<&Path>,
    most: u64,
) -> Result<Option<Listing>> {
    list(rg, flags, cache_dir, SystemTime::now(), Some(most))
}

/// The code files among `paths` (as rg printed them), not remembered:
/// what a question compares of a tree that is not listed.
pub fn candidate_files(paths: &[&[u8]]) -> Listing {
    let mut paths = paths.to_vec();
    paths.sort_unstable();
    paths.dedup();
    let mut made = CodeFiles::default();
    for path in paths {
        made.add(path);
    }
    Listing {
        files: made.files,
        listed: 0,
        remembered: false,
        tree: false,
    }
}

/// Whether rg's arguments `args` follow links.
fn follows_links(args: &[OsString]) -> bool {
    args.iter().any(|a| a == "-L" || a == "--follow")
}

/// [`tree_files`], started at `started`: what changed since may be
/// missing from what rg lists, and is not remembered. `None` when rg
/// lists more than `most` files.
fn list(
    rg: &Rg,
    flags: &SearchFlags,
    cache_dir: Option<&Path>,
    started: SystemTime,
    most: Option<u64>,
) -> Result<Option<Listing>> {
    let command = flags.file_list();
    let place = Place::of(rg, &command.args, cache_dir);
    let mut paths: Vec<Vec<u8>> = Vec::new();
    let mut over = false;
    let outcome = run_plain(rg, &command, |line| {
        let path = line.strip_suffix(b"\n").unwrap_or(line);
        if !path.is_empty() {
            paths.push(path.to_vec());
        }
        over = most.is_some_and(|most| paths.len() as u64 > most);
        if over {
            Flow::Stop
        } else {
            Flow::Continue
        }
    })?;
    if over {
        return Ok(None);
    }
    if outcome.code == Some(2) && paths.is_empty() {
        bail!(
            "rg could not list the files: {}",
            String::from_utf8_lossy(&outcome.stderr).trim()
        );
    }
    paths.sort();
    let listed = paths.len() as u64;
    let mut made = CodeFiles::default();
    for path in &paths {
        made.add(path);
    }
    if let Some(place) = place {
        if let Some(watched) = watched(&paths, &flags.paths, &place.cwd, rg, started) {
            let entry = Entry {
                format: FORMAT,
                key: place.key,
                listed,
                watched,
                ..made.entry
            };
            if let Ok(bytes) = postcard::to_stdvec(&entry) {
                write_entry(&place.dir, &place.entry, &bytes, SUFFIX);
            }
        }
    }
    Ok(Some(Listing {
        files: made.files,
        listed,
        remembered: false,
        tree: true,
    }))
}

/// The language of a file the meaning search reads, by its path: one
/// with a parser, neither a declaration file nor one with a prior
/// (tests, generated, minified, translations).
fn code_file(path: &[u8]) -> Option<Lang> {
    let lang = Lang::from_path(path)?;
    let shown = String::from_utf8_lossy(path);
    if shown.ends_with(".d.ts") || score::prior(&shown, &[]).is_some() {
        return None;
    }
    Some(lang)
}

fn in_bounds(meta: &fs::Metadata) -> bool {
    meta.is_file() && meta.len() > 0 && meta.len() <= super::MAX_FILE_BYTES
}

/// A printed path's directory (with its `/`, empty for none) and name.
fn split(path: &[u8]) -> (&[u8], &[u8]) {
    match path.iter().rposition(|&b| b == b'/') {
        Some(slash) => path.split_at(slash + 1),
        None => (&[], path),
    }
}

/// The path a file's texts name: from its repository's root, else as rg
/// printed it, without a leading `./`.
fn text_path(absolute: &Path, root: Option<&Path>, printed: &[u8]) -> String {
    root.and_then(|root| absolute.strip_prefix(root).ok()?.to_str())
        .map(str::to_string)
        .unwrap_or_else(|| {
            let shown = String::from_utf8_lossy(printed);
            shown.strip_prefix("./").unwrap_or(&shown).to_string()
        })
}

/// What names an entry: the working directory, the rg run and the
/// command. A path is put as bytes, NUL after each part.
fn entry_key(rg: &Rg, cwd: &Path, args: &[OsString]) -> Vec<u8> {
    let mut key = Vec::new();
    for part in [cwd.as_os_str(), rg.path.as_os_str()]
        .into_iter()
        .chain(args.iter().map(OsString::as_os_str))
    {
        key.extend_from_slice(part.as_bytes());
        key.push(0);
    }
    key
}

/// A remembered listing.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Entry {
    format: u32,
    /// [`entry_key`]: an entry answers only its own command.
    key: Vec<u8>,
    listed: u64,
    /// Paths (relative to the working directory, or absolute) and their
    /// stamps then, `None` for a file that was not there.
    watched: Vec<(Vec<u8>, Option<Stamp>)>,
    dirs: Vec<Dir>,
    /// The code files: a directory of `dirs` and a name.
    files: Vec<(u32, Vec<u8>)>,
}

/// A directory of code files.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Dir {
    /// As rg printed it, with its `/`.
    shown: Vec<u8>,
    /// Where its files really are (links and `..` resolved).
    absolute: Vec<u8>,
    /// The root of the repository holding it.
    root: Option<Vec<u8>>,
}

/// Code files being gathered, and the entry that remembers them.
#[derive(Default)]
struct CodeFiles {
    files: Vec<TreeFile>,
    entry: Entry,
    places: Places,
    cwd: Option<PathBuf>,
    /// The directory of the last file added, and its index in `entry`.
    last: Option<(Vec<u8>, u32)>,
}

impl CodeFiles {
    /// Adds the file rg printed as `path` if it is a code file.
    fn add(&mut self, path: &[u8]) {
        let Some(lang) = code_file(path) else {
            return;
        };
        let on_disk = path_of(path);
        let Ok(meta) = fs::metadata(&on_disk) else {
            return;
        };
        if !in_bounds(&meta) {
            return;
        }
        if on_disk.is_relative() && self.cwd.is_none() {
            self.cwd = std::env::current_dir().ok();
        }
        let absolute = match &self.cwd {
            Some(cwd) if on_disk.is_relative() => cwd.join(&on_disk),
            _ => on_disk,
        };
        let absolute = self.places.real(&absolute).unwrap_or(absolute);
        let root = absolute.parent().and_then(|dir| self.places.root_of(dir));
        let (shown, name) = split(path);
        let dir = self.dir(shown, absolute.parent(), root.as_deref());
        self.entry.files.push((dir, name.to_vec()));
        self.files.push(TreeFile {
            text_path: text_path(&absolute, root.as_deref(), path),
            path: path.to_vec(),
            lang,
            key: Key::of(absolute, root, &meta, SystemTime::now()),
        });
    }

    /// The index of the directory `shown` in the entry (files come in
    /// path order: one directory's files together).
    fn dir(&mut self, shown: &[u8], absolute: Option<&Path>, root: Option<&Path>) -> u32 {
        if let Some((last, at)) = &self.last {
            if last == shown {
                return *at;
            }
        }
        let at = self.entry.dirs.len() as u32;
        self.entry.dirs.push(Dir {
            shown: shown.to_vec(),
            absolute: absolute.map_or_else(Vec::new, |a| a.as_os_str().as_bytes().to_vec()),
            root: root.map(|r| r.as_os_str().as_bytes().to_vec()),
        });
        self.last = Some((shown.to_vec(), at));
        at
    }
}

/// The listing remembered at `place`, when nothing it watches changed.
fn read_entry(place: &Place) -> Option<Listing> {
    let bytes = fs::read(&place.entry).ok()?;
    let entry: Entry = postcard::from_bytes(&bytes).ok()?;
    if entry.format != FORMAT || entry.key != place.key {
        return None;
    }
    for (path, stamp) in &entry.watched {
        if Stamp::read(&path_of(path)) != *stamp {
            return None;
        }
    }
    touch(&place.entry);
    let roots: HashMap<&[u8], Arc<Path>> = entry
        .dirs
        .iter()
        .filter_map(|d| d.root.as_deref())
        .map(|r| (r, Arc::from(path_of(r).as_path())))
        .collect();
    let mut files = Vec::with_capacity(entry.files.len());
    for (dir, name) in &entry.files {
        let dir = entry.dirs.get(*dir as usize)?;
        let mut path = dir.shown.clone();
        path.extend_from_slice(name);
        let Some(lang) = Lang::from_path(&path) else {
            continue;
        };
        // A file changed in place (its directory's stamp stays): its
        // size may have left the bounds.
        let Ok(meta) = fs::metadata(path_of(&path)) else {
            continue;
        };
        if !in_bounds(&meta) {
            continue;
        }
        let absolute = path_of(&dir.absolute).join(OsStr::from_bytes(name));
        let root = dir.root.as_deref().and_then(|r| roots.get(r)).cloned();
        files.push(TreeFile {
            text_path: text_path(&absolute, root.as_deref(), &path),
            path,
            lang,
            key: Key::of(absolute, root, &meta, SystemTime::now()),
        });
    }
    Some(Listing {
        files,
        listed: entry.listed,
        remembered: true,
        tree: true,
    })
}

/// What a listing of `paths` (all rg printed, searched under `searched`
/// in `cwd`) depends on, with their stamps now; `None` when one of them
/// changed after `started` (or too close to it to tell), which the
/// listing may have missed.
fn watched(
    paths: &[Vec<u8>],
    searched: &[OsString],
    cwd: &Path,
    rg: &Rg,
    started: SystemTime,
) -> Option<Vec<(Vec<u8>, Option<Stamp>)>> {
    // The tree's directories: each listed file's, and their parents up
    // to the printed path's first part.
    let tops: HashSet<&[u8]> = searched
        .iter()
        .map(|p| {
            let p = p.as_bytes();
            p.strip_suffix(b"/").filter(|p| !p.is_empty()).unwrap_or(p)
        })
        .collect();
    let mut dirs: HashSet<&[u8]> = HashSet::new();
    for path in paths {
        let mut at = path.as_slice();
        loop {
            let Some(slash) = at.iter().rposition(|&b| b == b'/') else {
                // rg printed the path from the working directory.
                if searched.is_empty() {
                    dirs.insert(b".");
                }
                break;
            };
            at = &at[..slash];
            if at.is_empty() || !dirs.insert(at) || tops.contains(at) {
                break;
            }
        }
    }
    let mut dirs: Vec<&[u8]> = dirs.into_iter().collect();
    dirs.sort_unstable();
    let mut watched: Vec<(Vec<u8>, Option<Stamp>)> = Vec::new();
    let mut settled = true;
    let mut watch = |path: Vec<u8>, always: bool| {
        let stamp = Stamp::read(&path_of(&path));
        if stamp.is_some() || always {
            settled &= stamp.is_none_or(|s| s.settled(started));
            watched.push((path, stamp));
        }
    };
    for dir in &dirs {
        watch(dir.to_vec(), true);
        for name in IGNORE_FILES {
            watch(joined(dir, name), false);
        }
        if path_of(&joined(dir, ".git")).is_dir() {
            watch(joined(dir, ".git/info/exclude"), true);
        }
    }
    // Above the searched paths: rg reads their ignore files too.
    let mut above: HashSet<PathBuf> = HashSet::new();
    let searched: Vec<PathBuf> = if searched.is_empty() {
        vec![cwd.to_path_buf()]
    } else {
        searched.iter().map(|p| cwd.join(p)).collect()
    };
    for start in searched {
        let start = fs::canonicalize(&start).unwrap_or(start);
        for dir in start.ancestors().skip(1) {
            if !above.insert(dir.to_path_buf()) {
                break;
            }
        }
    }
    let mut above: Vec<PathBuf> = above.into_iter().collect();
    above.sort();
    for dir in &above {
        let dir = dir.as_os_str().as_bytes();
        for name in IGNORE_FILES.iter().chain(&[".git", ".git/info/exclude"]) {
            watch(joined(dir, name), true);
        }
    }
    // rg itself, its configuration and git's global excludes.
    watch(rg.path.as_os_str().as_bytes().to_vec(), true);
    if let Some(config) = std::env::var_os("RIPGREP_CONFIG_PATH") {
        watch(config.as_bytes().to_vec(), true);
    }
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| home.as_ref().map(|h| h.join(".config")));
    for file in [
        home.as_ref().map(|h| h.join(".gitconfig")),
        config.as_ref().map(|c| c.join("git/config")),
        config.as_ref().map(|c| c.join("git/ignore")),
    ]
    .into_iter()
    .flatten()
    {
        watch(file.into_os_string().into_vec(), true);
    }
    settled.then_some(watched)
}

fn joined(dir: &[u8], name: &str) -> Vec<u8> {
    let mut path = dir.to_vec();
    if !path.ends_with(b"/") {
        path.push(b'/');
    }
    path.extend_from_slice(name.as_bytes());
    path
}

/// Where files really are, and the root of the repository holding them,
/// remembered by directory.
#[derive(Default)]
struct Places {
    real: HashMap<PathBuf, Option<PathBuf>>,
    roots: HashMap<PathBuf, Option<Arc<Path>>>,
}

impl Places {
    /// `file` with `..` and links resolved: the key of its vectors.
    fn real(&mut self, file: &Path) -> Option<PathBuf> {
        let dir = file.parent()?;
        let real = match self.real.get(dir) {
            Some(known) => known.clone(),
            None => {
                let real = fs::canonicalize(dir).ok();
                self.real.insert(dir.to_path_buf(), real.clone());
                real
            }
        }?;
        Some(real.join(file.file_name()?))
    }

    /// The root of the repository holding `dir` (the nearest directory
    /// at or above it with a `.git`); `None` outside a repository. Its
    /// files' texts name them from there, and its store holds their
    /// vectors.
    fn root_of(&mut self, dir: &Path) -> Option<Arc<Path>> {
        if let Some(known) = self.roots.get(dir) {
            return known.clone();
        }
        let root = if dir.join(".git").exists() {
            Some(Arc::from(dir))
        } else {
            dir.parent().and_then(|up| self.root_of(up))
        };
        self.roots.insert(dir.to_path_buf(), root.clone());
        root
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    struct Tree {
        _dir: tempfile::TempDir,
        root: PathBuf,
        cache: PathBuf,
        rg: Rg,
        flags: SearchFlags,
    }

    /// A tree under a directory of its own (`up/tree`), searched by its
    /// absolute path.
    fn tree(files: &[(&str, &str)], dirs: &[&str]) -> Tree {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("up/tree");
        for (path, text) in files {
            let path = root.join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        for d in dirs {
            fs::create_dir_all(root.join(d)).unwrap();
        }
        fs::create_dir_all(root.join(".git")).unwrap();
        let cache = dir.path().join("cache");
        let rg = Rg::locate(None, std::env::var_os("PATH")).expect("rg on PATH");
        let flags = SearchFlags {
            paths: vec![root.clone().into_os_string()],
            ..SearchFlags::default()
        };
        Tree {
            _dir: dir,
            root,
            cache,
            rg,
            flags,
        }
    }

    impl Tree {
        /// Lists it as if the tree had settled long before (a file
        /// system keeps times at a tick's granularity: each change
        /// below waits one out first).
        fn list(&self) -> Listing {
            let later = SystemTime::now() + Duration::from_secs(10);
            list(&self.rg, &self.flags, Some(&self.cache), later, None)
                .unwrap()
                .unwrap()
        }

        fn remembered(&self) -> Option<Listing> {
            remembered(&self.rg, &self.flags, Some(&self.cache))
        }

        fn change(&self, path: &str, text: &str) {
            std::thread::sleep(Duration::from_millis(30));
            let path = self.root.join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
    }

    fn paths(listing: &Listing) -> Vec<String> {
        listing
            .files
            .iter()
            .map(|f| String::from_utf8_lossy(&f.path).into_owned())
            .collect()
    }

    fn shape(listing: &Listing) -> Vec<(String, String, Key)> {
        listing
            .files
            .iter()
            .map(|f| {
                let path = String::from_utf8_lossy(&f.path).into_owned();
                (path, f.text_path.clone(), f.key.clone())
            })
            .collect()
    }

    #[test]
    fn a_remembered_listing_is_the_listing_until_a_watched_stamp_moves() {
        let t = tree(
            &[
                ("a/x.py", "def x(): pass\n"),
                ("a/b/y.rs", "fn y() {}\n"),
                ("README.md", "# tree\n"),
                (".gitignore", "gen/\n"),
                ("gen/z.py", "def z(): pass\n"),
            ],
            &[],
        );
        assert!(t.remembered().is_none(), "nothing listed yet");
        let fresh = t.list();
        let root = t.root.display().to_string();
        assert_eq!(
            paths(&fresh),
            [format!("{root}/a/b/y.rs"), format!("{root}/a/x.py")]
        );
        assert_eq!(
            fresh.files[1].text_path, "a/x.py",
            "from the repository's root"
        );
        assert_eq!(fresh.listed, 3, "README.md is listed, gen/ is ignored");
        assert!(!fresh.remembered);

        let again = t.remembered().expect("nothing changed");
        assert!(again.remembered);
        assert_eq!(shape(&again), shape(&fresh));
        assert_eq!(again.listed, fresh.listed);

        // A file changed in place: the same listing, the file's new stamp.
        t.change("a/x.py", "def x(): return 1\n");
        let edited = t.remembered().expect("no directory changed");
        assert_ne!(edited.files[1].key, fresh.files[1].key);
        assert_eq!(
            edited.files[1].key.stamp,
            Stamp::read(&t.root.join("a/x.py")).unwrap()
        );

        // A file added, an ignore file edited, one put above the tree.
        t.change("a/b/w.go", "package b\n");
        assert!(t.remembered().is_none(), "a/b's stamp moved");
        assert_eq!(t.list().files.len(), 3);
        assert!(t.remembered().is_some());
        t.change(".gitignore", "gen/\na/b/\n");
        assert!(t.remembered().is_none(), ".gitignore's stamp moved");
        assert_eq!(paths(&t.list()), [format!("{root}/a/x.py")]);
        assert!(t.remembered().is_some());
        t.change("../.ignore", "x.py\n");
        assert!(t.remembered().is_none(), "an ignore file above the tree");
        assert!(t.list().files.is_empty());
    }

    #[test]
    fn a_file_added_where_no_listed_file_is_moves_only_the_count() {
        let t = tree(&[("a/x.py", "def x(): pass\n")], &["empty/deeper"]);
        let before = t.list();
        assert_eq!(before.listed, 1);
        t.change("empty/deeper/late.py", "def late(): pass\n");
        // No watched stamp tells: the count does, against the words'
        // pass's (the caller lists again).
        let stale = t.remembered().expect("no watched stamp moved");
        assert_eq!(stale.listed, 1);
        assert_eq!(t.list().listed, 2);
    }

    #[test]
    fn a_listing_that_changed_while_rg_ran_is_not_remembered() {
        let t = tree(&[("a/x.py", "def x(): pass\n")], &[]);
        // Listed "before" the tree was written: its stamps are newer.
        let early = SystemTime::now() - Duration::from_secs(60);
        list(&t.rg, &t.flags, Some(&t.cache), early, None).unwrap();
        assert!(t.remembered().is_none());
    }

    #[test]
    fn a_tree_past_the_bound_is_not_listed_nor_remembered() {
        let t = tree(
            &[
                ("a/x.py", "def x(): pass\n"),
                ("b/y.rs", "fn y() {}\n"),
                ("c/notes.txt", "x\n"),
            ],
            &[],
        );
        // Listed with the clock on, so that a whole listing is kept.
        let later = SystemTime::now() + Duration::from_secs(10);
        let bounded = |most| list(&t.rg, &t.flags, Some(&t.cache), later, Some(most)).unwrap();
        assert!(bounded(2).is_none());
        assert!(t.remembered().is_none(), "a listing cut short is not kept");
        let listing = bounded(3).expect("three files are within three");
        assert_eq!((listing.files.len(), listing.listed), (2, 3));
        assert_eq!(t.remembered().map(|l| l.files.len()), Some(2));
    }

    #[test]
    fn a_listing_is_remembered_per_command() {
        let t = tree(
            &[("a/x.py", "def x(): pass\n"), ("b/y.rs", "fn y() {}\n")],
            &[],
        );
        t.list();
        let only_rust = SearchFlags {
            types: vec!["rust".into()],
            ..t.flags.clone()
        };
        assert!(remembered(&t.rg, &only_rust, Some(&t.cache)).is_none());
        let later = SystemTime::now() + Duration::from_secs(10);
        let rust = list(&t.rg, &only_rust, Some(&t.cache), later, None)
            .unwrap()
            .unwrap();
        assert_eq!(rust.files.len(), 1);
        assert_eq!(
            remembered(&t.rg, &only_rust, Some(&t.cache))
                .unwrap()
                .files
                .len(),
            1
        );
        assert_eq!(t.remembered().unwrap().files.len(), 2);
    }
}
