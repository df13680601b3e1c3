//! Search by meaning: the question's vector against every unit vector of
//! the tree's code, from [`vectors`]' cache, embedding what is missing
//! within a time budget (the question's candidate files first). The
//! ranking it gives joins the lexical one in [`super::fuse`]; alone it
//! ranks too many near-misses first (DESIGN.md, "Meaning search").
//!
//! The units are the same as the lexical ranking's ([`units::texts`]), in
//! the tree's code files: those with a parser, at most
//! [`MAX_FILE_BYTES`](super::MAX_FILE_BYTES), and with no prior (tests,
//! generated, minified and translation files are left out: a question
//! about behaviour rarely means them, and the words still find them).
//!
//! [`vectors`]: super::vectors
//! [`units::texts`]: super::units::texts

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use anyhow::{bail, Result};

use crate::defs::cache::DefsCache;
use crate::encoder::{Encoder, DIM};
use crate::lang::Lang;
use crate::rg::{run_plain, Flow, Rg, SearchFlags};
use crate::search::path_of;
use crate::smart::score;
use crate::smart::units::texts;
use crate::smart::vectors::{Key, UnitVector, VectorStore};

/// Units the dense ranking hands to the fusion, at most.
pub const DENSE_HITS: usize = 60;
/// How long `scout smart` embeds missing vectors, by default.
pub const EMBED_BUDGET: Duration = Duration::from_secs(2);
/// Tokens of a unit's text embedded, at most: its name and path come
/// first, so only the end of a long doc comment is cut. On the tuning
/// questions, 64 ranked as well as 256 (file-level MRR@10 0.83 both) and
/// embedded 1.2-1.5 times as many definitions a second; 40 lost 0.01. A
/// change here changes the vectors: bump [`TEXT_RULES`].
///
/// [`TEXT_RULES`]: super::units::TEXT_RULES
pub const UNIT_TOKENS: usize = 64;
/// Texts embedded between two looks at the clock, about 0.4 s of work
/// (a file with more is embedded alone, and may overrun the budget by its
/// own time).
const GROUP_TEXTS: usize = 256;

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

/// The tree's code files: `rg --files` with the question's file
/// selection, kept when they have a parser, no prior and a size within
/// bounds; in path order.
pub fn tree_files(rg: &Rg, flags: &SearchFlags) -> Result<Vec<TreeFile>> {
    let mut paths: Vec<Vec<u8>> = Vec::new();
    let outcome = run_plain(rg, &flags.file_list(), |line| {
        let path = line.strip_suffix(b"\n").unwrap_or(line);
        if !path.is_empty() {
            paths.push(path.to_vec());
        }
        Flow::Continue
    })?;
    if outcome.code == Some(2) && paths.is_empty() {
        bail!(
            "rg could not list the files: {}",
            String::from_utf8_lossy(&outcome.stderr).trim()
        );
    }
    paths.sort();
    let cwd = std::env::current_dir().ok();
    let mut places = Places::default();
    let mut files = Vec::new();
    for path in paths {
        let Some(lang) = Lang::from_path(&path) else {
            continue;
        };
        let shown = String::from_utf8_lossy(&path);
        if shown.ends_with(".d.ts") || score::prior(&shown, &[]).is_some() {
            continue;
        }
        let on_disk = path_of(&path);
        let Ok(meta) = fs::metadata(&on_disk) else {
            continue;
        };
        if !meta.is_file() || meta.len() == 0 || meta.len() > super::MAX_FILE_BYTES {
            continue;
        }
        let absolute = match &cwd {
            Some(cwd) if on_disk.is_relative() => cwd.join(&on_disk),
            _ => on_disk,
        };
        let absolute = places.real(&absolute).unwrap_or(absolute);
        let root = absolute.parent().and_then(|dir| places.root_of(dir));
        let text_path = root
            .as_deref()
            .and_then(|root| absolute.strip_prefix(root).ok()?.to_str())
            .map(str::to_string)
            .unwrap_or_else(|| shown.strip_prefix("./").unwrap_or(&shown).to_string());
        files.push(TreeFile {
            path,
            lang,
            key: Key::of(absolute, root, &meta, SystemTime::now()),
            text_path,
        });
    }
    Ok(files)
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

/// What [`embed_missing`] did.
#[derive(Debug, Default, Clone, Copy)]
pub struct Embedded {
    pub files: usize,
    pub units: usize,
}

/// What embeds files: the encoder, and the caches it reads definitions
/// from and writes vectors to.
pub struct Embedder<'a> {
    pub encoder: &'a Encoder,
    pub vectors: &'a VectorStore,
    pub defs: &'a DefsCache,
}

/// Embeds the files of `order` (indices into `files`) whose vectors are
/// are not `covered`, in that order, until `deadline`; stores each file's
/// vectors, marks it covered and hands its units to `each`. `progress` is told after each
/// group. An error only when the encoder's weights cannot be read any
/// more.
pub fn embed_missing(
    embedder: &Embedder<'_>,
    files: &[TreeFile],
    order: &[usize],
    covered: &mut [bool],
    deadline: Option<Instant>,
    mut each: impl FnMut(usize, &[UnitVector]),
    mut progress: impl FnMut(Embedded),
) -> Result<Embedded> {
    let Embedder {
        encoder,
        vectors: store,
        defs,
    } = *embedder;
    let mut done = Embedded::default();
    let missing: Vec<usize> = order.iter().copied().filter(|&i| !covered[i]).collect();
    let mut at = 0;
    while at < missing.len() {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        // A group: files until GROUP_TEXTS texts, parsed together.
        let mut group: Vec<(usize, Vec<(u32, String)>)> = Vec::new();
        let mut count = 0;
        while at < missing.len() && count < GROUP_TEXTS {
            let take = (missing.len() - at).min(4);
            let chunk = &missing[at..at + take];
            at += take;
            let parse: Vec<(PathBuf, crate::lang::Lang)> = chunk
                .iter()
                .map(|&i| (path_of(&files[i].path), files[i].lang))
                .collect();
            for (&i, file_defs) in chunk.iter().zip(defs.defs_many(&parse)) {
                let Ok(bytes) = fs::read(path_of(&files[i].path)) else {
                    covered[i] = true;
                    continue;
                };
                let source = String::from_utf8_lossy(&bytes);
                let unit_texts = texts(&files[i].text_path, &source, &file_defs);
                count += unit_texts.len();
                group.push((i, unit_texts));
            }
        }
        let all: Vec<String> = group
            .iter()
            .flat_map(|(_, t)| t.iter().map(|(_, text)| text.clone()))
            .collect();
        let ids: Vec<Vec<u32>> = all
            .iter()
            .map(|text| {
                let mut ids = encoder.tokens(text);
                if ids.len() > UNIT_TOKENS {
                    let sep = ids[ids.len() - 1];
                    ids.truncate(UNIT_TOKENS - 1);
                    ids.push(sep);
                }
                ids
            })
            .collect();
        let vectors = encoder.embed_tokens(&ids)?;
        let mut vectors = vectors.into_iter();
        let embedded: Vec<(usize, Vec<UnitVector>)> = group
            .into_iter()
            .map(|(i, unit_texts)| {
                let units = unit_texts
                    .iter()
                    .zip(vectors.by_ref())
                    .map(|((line, _), v)| UnitVector::quantise(*line, &v))
                    .collect();
                (i, units)
            })
            .collect();
        let records: Vec<(&Key, &[UnitVector])> = embedded
            .iter()
            .map(|(i, units)| (&files[*i].key, units.as_slice()))
            .collect();
        store.append(&records);
        for (i, units) in &embedded {
            done.files += 1;
            done.units += units.len();
            covered[*i] = true;
            each(*i, units);
        }
        progress(done);
    }
    Ok(done)
}

/// One unit the dense ranking found.
#[derive(Debug, Clone)]
pub struct DenseHit {
    /// As rg printed it.
    pub path: Vec<u8>,
    pub line: u32,
    /// The cosine with the question.
    pub similarity: f32,
}

/// What the meaning search saw and found.
#[derive(Debug, Clone, Default)]
pub struct Dense {
    /// Best first, at most [`DENSE_HITS`].
    pub hits: Vec<DenseHit>,
    /// The tree's code files.
    pub files: usize,
    /// Of those, with vectors (from the cache or embedded now).
    pub covered: usize,
    /// Units with a vector.
    pub units: usize,
    /// Embedded by this run.
    pub embedded: Embedded,
    /// The embedding budget, when it ran out.
    pub budget_spent: Option<Duration>,
}

/// The best `keep` units seen, by similarity (ties: by file, then line).
struct Best {
    keep: usize,
    /// A min-heap of the best so far: the worst of them on top.
    heap: std::collections::BinaryHeap<std::cmp::Reverse<Ranked>>,
}

/// A unit's similarity, file and line, ordered best last.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Ranked(f32, usize, u32);

impl Eq for Ranked {}

impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        // Higher similarity is better; at equal similarity the earlier
        // file and line are.
        self.0
            .total_cmp(&other.0)
            .then(other.1.cmp(&self.1))
            .then(other.2.cmp(&self.2))
    }
}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Best {
    fn new(keep: usize) -> Best {
        Best {
            keep,
            heap: std::collections::BinaryHeap::with_capacity(keep + 1),
        }
    }

    fn offer(&mut self, similarity: f32, file: usize, line: u32) {
        let unit = Ranked(similarity, file, line);
        if self.heap.len() < self.keep {
            self.heap.push(std::cmp::Reverse(unit));
        } else if self.heap.peek().is_some_and(|worst| unit > worst.0) {
            self.heap.pop();
            self.heap.push(std::cmp::Reverse(unit));
        }
    }

    /// Best first: `(similarity, file, line)`.
    fn into_sorted(self) -> Vec<(f32, usize, u32)> {
        let mut all: Vec<Ranked> = self.heap.into_iter().map(|r| r.0).collect();
        all.sort_by(|a, b| b.cmp(a));
        all.into_iter().map(|Ranked(s, f, l)| (s, f, l)).collect()
    }
}

/// The dense ranking for `query` (the question's vector) over the tree
/// of `flags`: cached vectors first, then the missing ones embedded for
/// up to `budget`, the files of `first` (paths as rg prints them) before
/// the rest.
pub fn rank(
    rg: &Rg,
    flags: &SearchFlags,
    encoder: &Encoder,
    query: &[f32; DIM],
    first: &[&[u8]],
    budget: Duration,
    cache_dir: Option<PathBuf>,
) -> Result<Dense> {
    let files = tree_files(rg, flags)?;
    let store = VectorStore::new(cache_dir.clone());
    let mut best = Best::new(DENSE_HITS);
    let mut covered = vec![false; files.len()];
    let keys: Vec<&Key> = files.iter().map(|f| &f.key).collect();
    let reading = store.read(&keys, |i, stored| {
        covered[i] = true;
        for j in 0..stored.len() {
            best.offer(stored.similarity(j, query), i, stored.line(j));
        }
    });
    let mut order: Vec<usize> = Vec::with_capacity(files.len());
    for path in first {
        if let Ok(i) = files.binary_search_by(|f| f.path.as_slice().cmp(path)) {
            order.push(i);
        }
    }
    let mut listed = vec![false; files.len()];
    order.retain(|&i| !std::mem::replace(&mut listed[i], true));
    order.extend((0..files.len()).filter(|&i| !listed[i]));
    let started = Instant::now();
    let embedded = if budget.is_zero() {
        Embedded::default()
    } else {
        let defs = DefsCache::new(cache_dir);
        let embedder = Embedder {
            encoder,
            vectors: &store,
            defs: &defs,
        };
        embed_missing(
            &embedder,
            &files,
            &order,
            &mut covered,
            Some(started + budget),
            |i, units| {
                for unit in units {
                    best.offer(unit.similarity(query), i, unit.line);
                }
            },
            |_| {},
        )?
    };
    store.compact_stale();
    let covered = covered.iter().filter(|&&c| c).count();
    let units = reading.units + embedded.units;
    let scored = best.into_sorted();
    Ok(Dense {
        hits: scored
            .into_iter()
            .map(|(similarity, i, line)| DenseHit {
                path: files[i].path.clone(),
                line,
                similarity,
            })
            .collect(),
        files: files.len(),
        covered,
        units,
        embedded,
        budget_spent: (covered < files.len() && !budget.is_zero()).then_some(budget),
    })
}
