//! Search by meaning: the question's vector against every unit vector of
//! the tree's code, from [`vectors`]' cache, embedding what is missing
//! within a time budget (the definitions the words ranked first, then
//! the question's candidate files). The
//! ranking it gives joins the lexical one in [`super::fuse`]; alone it
//! ranks too many near-misses first (DESIGN.md, "Meaning search").
//!
//! The units are the same as the lexical ranking's ([`units::texts`]), in
//! the tree's code files ([`listing`]; of a large tree `scout index` has
//! not run on, the candidates' code files only): those with a parser, at most
//! [`MAX_FILE_BYTES`](super::MAX_FILE_BYTES), and with no prior (tests,
//! generated, minified and translation files are left out: a question
//! about behaviour rarely means them, and the words still find them).
//!
//! [`vectors`]: super::vectors
//! [`units::texts`]: super::units::texts
//! [`listing`]: super::listing

use std::collections::HashSet;
use std::fs;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Result;

use crate::defs::cache::DefsCache;
use crate::encoder::{Encoder, DIM};
use crate::paths::path_of;
use crate::smart::listing::{Listing, TreeFile};
use crate::smart::units::texts;
use crate::smart::vectors::{Key, Query, UnitVector, VectorStore};

/// Units the dense ranking hands to the fusion, at most.
pub const DENSE_HITS: usize = 60;
/// How long a question embeds missing vectors after its words' pass, by
/// default (`--embed-budget-ms` not given). The words' first units are
/// embedded first ([`UNITS_FIRST`]): with a fresh cache for every
/// question (`bench/smart/score.py --cold`, the tuning split), 150 ms,
/// 250 ms and 300 ms all ranked at file-level MRR@10 0.81, 500 ms and
/// 1 s at 0.82, and the former default (whole files until 2 s after the
/// question started) at 0.85; words alone 0.74. A first question costs
/// its words' pass and a quarter second, on a monorepo too (#35).
pub const EMBED_BUDGET: Duration = Duration::from_millis(250);

/// Tokens of a unit's text embedded, at most: its name and path come
/// first, so only the end of a long doc comment is cut. On the tuning
/// questions, 64 ranked as well as 256 (file-level MRR@10 0.83 both) and
/// embedded 1.2-1.5 times as many definitions a second; 40 lost 0.01. A
/// change here changes the vectors: bump [`TEXT_RULES`].
///
/// [`TEXT_RULES`]: super::units::TEXT_RULES
pub const UNIT_TOKENS: usize = 64;
/// Texts parsed for and embedded as one group, about 0.4 s of work
/// (with a deadline, [`CHUNK_TEXTS`]).
const GROUP_TEXTS: usize = 256;
/// Texts embedded between two looks at the clock, at most (two of the
/// encoder's batches, one for each core).
const CHUNK_TEXTS: usize = 64;
/// With a deadline, the first texts are embedded in a chunk this small,
/// which times the encoder on this machine and under this load; each
/// chunk after holds what fits in the time left, so a budget is overrun
/// by about the time of a few texts (a file cut off by it is compared,
/// not stored). Fewer than [`MIN_CHUNK`] are not worth a call.
const FIRST_CHUNK: usize = 16;
const MIN_CHUNK: usize = 4;

/// With a deadline, the words' first this many units (the lexical
/// ranking, spread over its files) are embedded before whole files are,
/// so that a short budget compares the best units of many files rather
/// than every unit of the first one or two. On the tuning questions,
/// cold at 300 ms: 32, 64 and 128 all file-level MRR@10 0.81; whole
/// files alone, 0.75-0.76 at 250 ms.
const UNITS_FIRST: usize = 64;

/// When embedding stops, and how fast it has gone so far.
#[derive(Debug, Default)]
pub struct Clock {
    /// `None`: when everything is embedded (`scout index`).
    deadline: Option<Instant>,
    /// How long a text took to embed, once a chunk was timed.
    pace: Option<Duration>,
}

impl Clock {
    /// Embedding stops at `deadline`.
    pub fn until(deadline: Instant) -> Clock {
        Clock {
            deadline: Some(deadline),
            pace: None,
        }
    }

    fn passed(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
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
/// not `covered`, in that order, until the `clock`'s deadline; stores each file's
/// vectors, marks it covered and hands its units to `each`. `progress` is
/// told after each group. An error only when the encoder's weights cannot
/// be read any more.
pub fn embed_missing(
    embedder: &Embedder<'_>,
    files: &[TreeFile],
    order: &[usize],
    covered: &mut [bool],
    clock: &mut Clock,
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
    let group_texts = if clock.deadline.is_some() {
        CHUNK_TEXTS
    } else {
        GROUP_TEXTS
    };
    let mut at = 0;
    while at < missing.len() {
        if clock.passed() {
            break;
        }
        // A group: files until GROUP_TEXTS texts (or the deadline),
        // parsed together.
        let mut group: Vec<(usize, UnitTexts)> = Vec::new();
        let mut count = 0;
        while at < missing.len() && count < group_texts && !(count > 0 && clock.passed()) {
            let take = (missing.len() - at).min(4);
            let chunk = &missing[at..at + take];
            at += take;
            for (i, unit_texts) in file_texts(defs, files, chunk) {
                match unit_texts {
                    Some(unit_texts) => {
                        count += unit_texts.len();
                        group.push((i, unit_texts));
                    }
                    // Unreadable: nothing to embed.
                    None => covered[i] = true,
                }
            }
        }
        let all: Vec<String> = group
            .iter()
            .flat_map(|(_, t)| t.iter().map(|(_, text)| text.clone()))
            .collect();
        let ids = token_ids(encoder, &all);
        let vectors = embed_until(encoder, &ids, clock)?;
        let cut_off = vectors.len() < ids.len();
        let mut vectors = vectors.into_iter();
        let mut whole: Vec<(usize, Vec<UnitVector>)> = Vec::new();
        for (i, unit_texts) in group {
            let units: Vec<UnitVector> = unit_texts
                .iter()
                .zip(vectors.by_ref())
                .map(|((line, _), v)| UnitVector::quantise(*line, &v))
                .collect();
            if units.len() == unit_texts.len() {
                whole.push((i, units));
            } else if !units.is_empty() {
                // Cut off by the deadline: compared, not stored.
                done.units += units.len();
                each(i, &units);
            }
        }
        let records: Vec<(&Key, &[UnitVector])> = whole
            .iter()
            .map(|(i, units)| (&files[*i].key, units.as_slice()))
            .collect();
        store.append(&records);
        for (i, units) in &whole {
            done.files += 1;
            done.units += units.len();
            covered[*i] = true;
            each(*i, units);
        }
        progress(done);
        if cut_off {
            break;
        }
    }
    Ok(done)
}

/// A file's unit texts, each with the line of its unit's hit.
type UnitTexts = Vec<(u32, String)>;

/// The unit texts ([`texts`]) of each of `files` at `indices`, their
/// definitions parsed together; `None` for a file that cannot be read.
fn file_texts(
    defs: &DefsCache,
    files: &[TreeFile],
    indices: &[usize],
) -> Vec<(usize, Option<UnitTexts>)> {
    let parse: Vec<(PathBuf, crate::lang::Lang)> = indices
        .iter()
        .map(|&i| (path_of(&files[i].path), files[i].lang))
        .collect();
    indices
        .iter()
        .zip(defs.defs_many(&parse))
        .map(|(&i, file_defs)| {
            let unit_texts = fs::read(path_of(&files[i].path)).ok().map(|bytes| {
                texts(
                    &files[i].text_path,
                    &String::from_utf8_lossy(&bytes),
                    &file_defs,
                )
            });
            (i, unit_texts)
        })
        .collect()
}

/// The encoder's ids of each of `texts`, cut to [`UNIT_TOKENS`] (the
/// closing separator kept).
fn token_ids(encoder: &Encoder, texts: &[String]) -> Vec<Vec<u32>> {
    texts
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
        .collect()
}

/// The vectors of `ids`, in order, as many as fit before the `clock`'s
/// deadline: with none, all of them in one call (its batches of like
/// length pad least); with one, a first chunk of [`FIRST_CHUNK`] that
/// times the encoder when no earlier chunk did, then chunks of what fits
/// in the time left.
fn embed_until(encoder: &Encoder, ids: &[Vec<u32>], clock: &mut Clock) -> Result<Vec<[f32; DIM]>> {
    let mut vectors = Vec::with_capacity(ids.len());
    while vectors.len() < ids.len() {
        let left = ids.len() - vectors.len();
        let take = match (clock.deadline, clock.pace) {
            (None, _) => left,
            (Some(_), None) => FIRST_CHUNK,
            (Some(deadline), Some(pace)) => {
                let time = deadline.saturating_duration_since(Instant::now());
                let fits = (time.as_secs_f64() / pace.as_secs_f64().max(1e-6)) as usize;
                if fits < MIN_CHUNK.min(left) {
                    break;
                }
                fits.min(CHUNK_TEXTS)
            }
        }
        .min(left);
        let started = Instant::now();
        let chunk = &ids[vectors.len()..vectors.len() + take];
        vectors.extend(encoder.embed_tokens(chunk)?);
        clock.pace = Some(started.elapsed() / take as u32);
    }
    Ok(vectors)
}

/// Embeds the units at `wanted` (paths as rg prints them, and the line
/// of each unit's hit), in that order, until the `clock`'s deadline, and
/// hands each vector to `each` with its file's index in `files`. Units
/// of files already `covered` are skipped: their vectors were read from
/// the store. A file all of whose units were embedded is stored and
/// marked covered, as [`embed_missing`] would; the others' units are
/// compared, not stored (a record holds a whole file). A file without
/// definitions is one unit at line 1, whatever line the words' hit in it
/// points at.
fn embed_units(
    embedder: &Embedder<'_>,
    files: &[TreeFile],
    covered: &mut [bool],
    wanted: &[(&[u8], u32)],
    clock: &mut Clock,
    mut each: impl FnMut(usize, &UnitVector),
) -> Result<()> {
    let index_of = |path: &[u8]| {
        files
            .binary_search_by(|f| f.path.as_slice().cmp(path))
            .ok()
            .filter(|&i| !covered[i])
    };
    let mut chosen: Vec<usize> = Vec::new();
    for &(path, _) in wanted {
        if let Some(i) = index_of(path) {
            if !chosen.contains(&i) {
                chosen.push(i);
            }
        }
    }
    // Each chosen file's texts, as `units::texts` makes them.
    let file_texts: Vec<(usize, UnitTexts)> = file_texts(embedder.defs, files, &chosen)
        .into_iter()
        .filter_map(|(i, texts)| Some((i, texts?)))
        .collect();
    // The texts to embed, in the words' order: (file, text) indices.
    let mut order: Vec<(usize, usize)> = Vec::new();
    for &(path, line) in wanted {
        let Some(i) = index_of(path) else {
            continue;
        };
        let Some(f) = file_texts.iter().position(|(file, _)| *file == i) else {
            continue;
        };
        let texts = &file_texts[f].1;
        let whole_file = texts.len() == 1 && texts[0].0 == 1;
        let at = if whole_file {
            Some(0)
        } else {
            texts.iter().position(|(l, _)| *l == line)
        };
        if let Some(t) = at {
            if !order.contains(&(f, t)) {
                order.push((f, t));
            }
        }
    }
    let all: Vec<String> = order
        .iter()
        .map(|&(f, t)| file_texts[f].1[t].1.clone())
        .collect();
    let vectors = embed_until(embedder.encoder, &token_ids(embedder.encoder, &all), clock)?;
    let mut embedded: Vec<Vec<Option<UnitVector>>> = file_texts
        .iter()
        .map(|(_, texts)| vec![None; texts.len()])
        .collect();
    for (&(f, t), v) in order.iter().zip(&vectors) {
        let unit = UnitVector::quantise(file_texts[f].1[t].0, v);
        each(file_texts[f].0, &unit);
        embedded[f][t] = Some(unit);
    }
    // Files whose every unit is embedded now: stored, as a whole file.
    let whole: Vec<(usize, Vec<UnitVector>)> = file_texts
        .iter()
        .zip(embedded)
        .filter_map(|((i, _), units)| Some((*i, units.into_iter().collect::<Option<Vec<_>>>()?)))
        .filter(|(_, units)| !units.is_empty())
        .collect();
    let records: Vec<(&Key, &[UnitVector])> = whole
        .iter()
        .map(|(i, units)| (&files[*i].key, units.as_slice()))
        .collect();
    embedder.vectors.append(&records);
    for (i, _) in &whole {
        covered[*i] = true;
    }
    Ok(())
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
    /// The tree's code files (with `tree` false, the candidates' only).
    pub files: usize,
    /// Whether the tree was listed: `false` when it was too large to be
    /// worth listing and `scout index` had not run on it.
    pub tree: bool,
    /// Of those, with vectors for all their definitions (from the cache
    /// or embedded now).
    pub covered: usize,
    /// Of the others, with vectors for some of their definitions,
    /// embedded now (the words' first units, a file cut off by the
    /// deadline).
    pub partly: usize,
    /// Units with a vector.
    pub units: usize,
    /// Embedded by this run.
    pub embedded: Embedded,
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

/// The tree's code files and what the store holds for them, scored
/// against the question: the dense ranking's first half, which needs no
/// candidate file and so runs beside the words' pass.
pub struct Recalled {
    files: Vec<TreeFile>,
    store: VectorStore,
    best: Best,
    covered: Vec<bool>,
    units: usize,
    /// Every file the listing holds, of any kind: what the words' pass
    /// searched, when the tree is as listed.
    pub listed: u64,
    /// Whether the listing was remembered: the words' pass's count of
    /// searched files must then agree with [`Recalled::listed`].
    pub remembered: bool,
    /// Whether the listing is the tree's, not only the candidates'.
    tree: bool,
}

/// Scores every vector the store under `cache_dir` holds for the files
/// of `listing` against `query`.
pub fn recall(listing: Listing, query: &Query, cache_dir: Option<PathBuf>) -> Recalled {
    let files = listing.files;
    let store = VectorStore::new(cache_dir);
    let mut best = Best::new(DENSE_HITS);
    let mut covered = vec![false; files.len()];
    let keys: Vec<&Key> = files.iter().map(|f| &f.key).collect();
    let reading = store.read(&keys, |i, stored| {
        covered[i] = true;
        for j in 0..stored.len() {
            best.offer(stored.similarity(j, query), i, stored.line(j));
        }
    });
    Recalled {
        files,
        store,
        best,
        covered,
        units: reading.units,
        listed: listing.listed,
        remembered: listing.remembered,
        tree: listing.tree,
    }
}

/// The dense ranking for `query` (the question's vector): what
/// [`recall`] found in the store, then the missing vectors embedded for
/// up to `budget`: the units of `first_units` (the lexical ranking, by
/// path as rg prints it and line), at most [`UNITS_FIRST`] of them, then
/// whole files, those of `first` before the rest.
pub fn rank(
    recalled: Recalled,
    encoder: &Encoder,
    query: &Query,
    first: &[&[u8]],
    first_units: &[(&[u8], u32)],
    budget: Duration,
    cache_dir: Option<PathBuf>,
) -> Result<Dense> {
    let Recalled {
        files,
        store,
        mut best,
        mut covered,
        units: stored_units,
        tree,
        ..
    } = recalled;
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
    // Each unit given a vector now, by file and line.
    let mut fresh: HashSet<(usize, u32)> = HashSet::new();
    let embedded = if budget.is_zero() {
        Embedded::default()
    } else {
        let defs = DefsCache::new(cache_dir);
        let embedder = Embedder {
            encoder,
            vectors: &store,
            defs: &defs,
        };
        let mut clock = Clock::until(started + budget);
        // Each unit is offered once, though its file may be embedded
        // whole after it was embedded alone.
        let mut offer = |i: usize, unit: &UnitVector| {
            if fresh.insert((i, unit.line)) {
                best.offer(unit.similarity(query), i, unit.line);
            }
        };
        embed_units(
            &embedder,
            &files,
            &mut covered,
            &first_units[..first_units.len().min(UNITS_FIRST)],
            &mut clock,
            &mut offer,
        )?;
        let mut whole = embed_missing(
            &embedder,
            &files,
            &order,
            &mut covered,
            &mut clock,
            |i, units| units.iter().for_each(|unit| offer(i, unit)),
            |_| {},
        )?;
        whole.units = fresh.len();
        whole
    };
    store.compact_stale();
    let partly: HashSet<usize> = fresh
        .iter()
        .map(|&(i, _)| i)
        .filter(|&i| !covered[i])
        .collect();
    let covered = covered.iter().filter(|&&c| c).count();
    let units = stored_units + embedded.units;
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
        tree,
        covered,
        partly: partly.len(),
        units,
        embedded,
    })
}
