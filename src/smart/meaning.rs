//! Search by meaning: the question's vector against the vectors of a set
//! of units chosen by the question and the tree alone (the definitions the
//! words ranked first, then whole files, the candidates first, up to a
//! count), read from [`vectors`]' cache or embedded now: what the cache
//! holds changes how long a question takes, never its answer (I5). The
//! ranking it gives joins the lexical one in [`super::fuse`]; alone it
//! ranks too many near-misses first (docs/design.md, "Meaning search").
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

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::PathBuf;

use anyhow::Result;

use crate::defs::cache::DefsCache;
use crate::encoder::Encoder;
use crate::paths::path_of;
use crate::smart::listing::{Listing, TreeFile};
use crate::smart::units::texts;
use crate::smart::vectors::{Key, Query, UnitVector, VectorStore};

/// Units the dense ranking hands to the fusion, at most.
pub const DENSE_HITS: usize = 60;
/// Units a question compares by meaning, by default (`--meaning-units`):
/// the words' first [`UNITS_FIRST`], then whole files, the candidates
/// first. A count, not a time, so that the page is a function of the tree
/// and the question; what the cache lacks of them is
/// embedded now (150-170 definitions a second on a 2-core machine). On
/// the tuning questions of ripgrep and the Python library, each asked
/// with an empty cache, 128, 192 and 256 ranked definitions at MRR@10
/// 0.77, 0.82 and 0.87 on ripgrep (0.57 all three on the library), and a
/// first question took 1.6-2.2 s (bench/history/2026-notebook.md, "A page
/// that does not depend on the cache").
pub const MEANING_UNITS: usize = 256;

/// Tokens of a unit's text embedded, at most: its name and path come
/// first, so only the end of a long doc comment is cut. On the tuning
/// questions, 64 ranked as well as 256 (file-level MRR@10 0.83 both) and
/// embedded 1.2-1.5 times as many definitions a second; 40 lost 0.01. A
/// change here changes the vectors: bump [`TEXT_RULES`].
///
/// [`TEXT_RULES`]: super::units::TEXT_RULES
pub const UNIT_TOKENS: usize = 64;
/// Texts parsed for and embedded as one group, about 0.4 s of work.
const GROUP_TEXTS: usize = 256;
/// The words' first this many units (the lexical ranking, spread over
/// its files) are compared before whole files are, so that the count
/// compares the best units of many files rather than every unit of the
/// first one or two. On the tuning questions, cold at 300 ms: 32, 64 and
/// 128 all file-level MRR@10 0.81; whole files alone, 0.75-0.76 at
/// 250 ms.
const UNITS_FIRST: usize = 64;

/// Files too large for what is left of the count that a question passes
/// over, at most, before it stops taking files.
const MAX_SKIPPED: usize = 8;

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
/// not `covered`, in that order; stores each file's vectors, marks it
/// covered and hands its units to `each`. `progress` is told after each
/// group. An error only when the encoder's weights cannot be read any
/// more.
pub fn embed_missing(
    embedder: &Embedder<'_>,
    files: &[TreeFile],
    order: &[usize],
    covered: &mut [bool],
    mut each: impl FnMut(usize, &[UnitVector]),
    mut progress: impl FnMut(Embedded),
) -> Result<Embedded> {
    let mut done = Embedded::default();
    let missing: Vec<usize> = order.iter().copied().filter(|&i| !covered[i]).collect();
    let mut at = 0;
    while at < missing.len() {
        // A group: files until GROUP_TEXTS texts, parsed together.
        let mut group: Vec<(usize, UnitTexts)> = Vec::new();
        let mut count = 0;
        while at < missing.len() && count < GROUP_TEXTS {
            let take = (missing.len() - at).min(4);
            let chunk = &missing[at..at + take];
            at += take;
            for (i, unit_texts) in file_texts(embedder.defs, files, chunk) {
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
        for (i, units) in embed_files(embedder, files, group, &BTreeMap::new())? {
            done.files += 1;
            done.units += units.len();
            covered[i] = true;
            each(i, &units);
        }
        progress(done);
    }
    Ok(done)
}

/// Embeds the texts of whole files (one call: its batches of like length
/// pad least), but for the units `known` already has a vector of (by
/// file and line); stores each file's vectors and returns them.
fn embed_files(
    embedder: &Embedder<'_>,
    files: &[TreeFile],
    group: Vec<(usize, UnitTexts)>,
    known: &BTreeMap<(usize, u32), UnitVector>,
) -> Result<Vec<(usize, Vec<UnitVector>)>> {
    let all: Vec<String> = group
        .iter()
        .flat_map(|(i, t)| {
            t.iter()
                .filter(|(line, _)| !known.contains_key(&(*i, *line)))
                .map(|(_, text)| text.clone())
        })
        .collect();
    let ids = token_ids(embedder.encoder, &all);
    let mut vectors = embedder.encoder.embed_tokens(&ids)?.into_iter();
    let whole: Vec<(usize, Vec<UnitVector>)> = group
        .into_iter()
        .map(|(i, unit_texts)| {
            let units = unit_texts
                .iter()
                .filter_map(|(line, _)| match known.get(&(i, *line)) {
                    Some(unit) => Some(unit.clone()),
                    None => vectors.next().map(|v| UnitVector::quantise(*line, &v)),
                })
                .collect();
            (i, units)
        })
        .collect();
    let records: Vec<(&Key, &[UnitVector])> = whole
        .iter()
        .filter(|(_, units)| !units.is_empty())
        .map(|(i, units)| (&files[*i].key, units.as_slice()))
        .collect();
    embedder.vectors.append(&records);
    Ok(whole)
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

/// The unit of a file at the line of the words' hit: the file's one
/// unit (at line 1) for a file without definitions, else the unit whose
/// line it is; its index in `lines`.
fn unit_at(mut lines: impl ExactSizeIterator<Item = u32> + Clone, line: u32) -> Option<usize> {
    if lines.len() == 1 && lines.clone().next() == Some(1) {
        return Some(0);
    }
    lines.position(|l| l == line)
}

/// Embeds the units at `wanted` (indices into `files`, and the line of
/// each unit's hit), in that order, and hands each vector to `each` with
/// its file's index. A file all of whose units were embedded is stored
/// and marked covered, as [`embed_missing`] would; the others' units are
/// compared, not stored (a record holds a whole file).
fn embed_units(
    embedder: &Embedder<'_>,
    files: &[TreeFile],
    covered: &mut [bool],
    wanted: &[(usize, u32)],
    mut each: impl FnMut(usize, &UnitVector),
) -> Result<()> {
    let mut chosen: Vec<usize> = Vec::new();
    for &(i, _) in wanted {
        if !chosen.contains(&i) {
            chosen.push(i);
        }
    }
    // Each chosen file's texts, as `units::texts` makes them.
    let file_texts: Vec<(usize, UnitTexts)> = file_texts(embedder.defs, files, &chosen)
        .into_iter()
        .filter_map(|(i, texts)| Some((i, texts?)))
        .collect();
    // The texts to embed, in the words' order: (file, text) indices.
    let mut order: Vec<(usize, usize)> = Vec::new();
    for &(i, line) in wanted {
        let Some(f) = file_texts.iter().position(|(file, _)| *file == i) else {
            continue;
        };
        let texts = &file_texts[f].1;
        if let Some(t) = unit_at(texts.iter().map(|(l, _)| *l), line) {
            if !order.contains(&(f, t)) {
                order.push((f, t));
            }
        }
    }
    let all: Vec<String> = order
        .iter()
        .map(|&(f, t)| file_texts[f].1[t].1.clone())
        .collect();
    let vectors = embedder
        .encoder
        .embed_tokens(&token_ids(embedder.encoder, &all))?;
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

/// The units compared so far, and the best of them.
struct Compared {
    /// By file and line.
    units: BTreeSet<(usize, u32)>,
    best: Best,
}

impl Compared {
    /// Compares a unit, once.
    fn offer(&mut self, file: usize, line: u32, similarity: f32) {
        if self.units.insert((file, line)) {
            self.best.offer(similarity, file, line);
        }
    }
}

/// The tree's code files and what the store holds for them, scored
/// against the question: the dense ranking's first half, which needs no
/// candidate file and so runs beside the words' pass.
pub struct Recalled {
    files: Vec<TreeFile>,
    store: VectorStore,
    /// Per file, what the store holds: each unit's line and similarity.
    stored: Vec<Option<Vec<(u32, f32)>>>,
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
    let mut stored = vec![None; files.len()];
    let keys: Vec<&Key> = files.iter().map(|f| &f.key).collect();
    store.read(&keys, |i, units| {
        let scored = (0..units.len())
            .map(|j| (units.line(j), units.similarity(j, query)))
            .collect();
        stored[i] = Some(scored);
    });
    Recalled {
        files,
        store,
        stored,
        listed: listing.listed,
        remembered: listing.remembered,
        tree: listing.tree,
    }
}

/// The dense ranking for `query` (the question's vector) over the units
/// the question and the tree choose, at most `limit` of them: the units
/// of `first_units` (the lexical ranking, by path as rg prints it and
/// line), at most [`UNITS_FIRST`], then whole files, those of `first`
/// before the rest, until `limit` units are compared (the file that
/// reaches it whole). A unit's vector comes from the store ([`recall`])
/// or is embedded now; which does not change what is compared.
pub fn rank(
    recalled: Recalled,
    encoder: &Encoder,
    query: &Query,
    first: &[&[u8]],
    first_units: &[(&[u8], u32)],
    limit: usize,
    cache_dir: Option<PathBuf>,
) -> Result<Dense> {
    let Recalled {
        files,
        store,
        stored,
        tree,
        ..
    } = recalled;
    let index_of = |path: &[u8]| files.binary_search_by(|f| f.path.as_slice().cmp(path)).ok();
    let mut order: Vec<usize> = first.iter().filter_map(|p| index_of(p)).collect();
    let mut listed = vec![false; files.len()];
    order.retain(|&i| !std::mem::replace(&mut listed[i], true));
    order.extend((0..files.len()).filter(|&i| !listed[i]));
    let defs = DefsCache::new(cache_dir);
    let embedder = Embedder {
        encoder,
        vectors: &store,
        defs: &defs,
    };
    let mut covered: Vec<bool> = stored.iter().map(Option::is_some).collect();
    let mut seen = Compared {
        units: BTreeSet::new(),
        best: Best::new(DENSE_HITS),
    };
    let mut embedded = Embedded::default();
    // The words' first units: from the store, else embedded now.
    let mut missing: Vec<(usize, u32)> = Vec::new();
    let firsts = first_units.iter().take(limit.min(UNITS_FIRST));
    for &(path, line) in firsts {
        let Some(i) = index_of(path) else {
            continue;
        };
        match &stored[i] {
            Some(units) => {
                if let Some(u) = unit_at(units.iter().map(|u| u.0), line) {
                    seen.offer(i, units[u].0, units[u].1);
                }
            }
            None => missing.push((i, line)),
        }
    }
    // Their vectors, which a file embedded whole after does not embed again.
    let mut fresh: BTreeMap<(usize, u32), UnitVector> = BTreeMap::new();
    embed_units(&embedder, &files, &mut covered, &missing, |i, unit| {
        embedded.units += 1;
        seen.offer(i, unit.line, unit.similarity(query));
        fresh.insert((i, unit.line), unit.clone());
    })?;
    // Then whole files, each that fits in what is left of the limit:
    // their units from the store, or parsed (a few files ahead, together)
    // and embedded in one call. Past a few that do not fit, the rest is
    // left out too.
    let mut to_embed: Vec<(usize, UnitTexts)> = Vec::new();
    let mut count = seen.units.len();
    let mut skipped = 0;
    let mut ahead: std::collections::VecDeque<(usize, Option<UnitTexts>)> = Default::default();
    let mut at = 0;
    while count < limit && at < order.len() && skipped <= MAX_SKIPPED {
        let i = order[at];
        at += 1;
        if covered[i] && stored[i].is_none() {
            // Every unit embedded with the words' first ones.
            continue;
        }
        let lines: Vec<u32> = match &stored[i] {
            Some(units) => units.iter().map(|u| u.0).collect(),
            None => {
                if ahead.is_empty() {
                    let next: Vec<usize> = order[at - 1..]
                        .iter()
                        .copied()
                        .filter(|&j| stored[j].is_none() && !covered[j])
                        .take(4)
                        .collect();
                    ahead.extend(file_texts(&defs, &files, &next));
                }
                match ahead.pop_front() {
                    // Unreadable: nothing to compare.
                    Some((_, None)) => continue,
                    Some((j, Some(texts))) => {
                        debug_assert_eq!(i, j);
                        let lines = texts.iter().map(|t| t.0).collect();
                        to_embed.push((i, texts));
                        lines
                    }
                    None => break,
                }
            }
        };
        let new = lines
            .iter()
            .filter(|&&line| !seen.units.contains(&(i, line)))
            .count();
        if count + new > limit {
            skipped += 1;
            if stored[i].is_none() {
                to_embed.pop();
            }
            continue;
        }
        count += new;
        if let Some(units) = &stored[i] {
            for &(line, similarity) in units {
                seen.offer(i, line, similarity);
            }
        }
    }
    for (i, units) in embed_files(&embedder, &files, to_embed, &fresh)? {
        covered[i] = true;
        embedded.files += 1;
        embedded.units += units
            .iter()
            .filter(|u| !fresh.contains_key(&(i, u.line)))
            .count();
        for unit in &units {
            seen.offer(i, unit.line, unit.similarity(query));
        }
    }
    store.compact_stale();
    // Per file, its units compared: all of them (whole) where the store
    // had it and every unit was compared, or where it was embedded whole.
    let mut per_file: std::collections::BTreeMap<usize, usize> = Default::default();
    for &(i, _) in &seen.units {
        *per_file.entry(i).or_default() += 1;
    }
    let whole = per_file
        .iter()
        .filter(|&(&i, &n)| match &stored[i] {
            Some(units) => n == units.len(),
            None => covered[i],
        })
        .count();
    let units = seen.units.len();
    Ok(Dense {
        hits: seen
            .best
            .into_sorted()
            .into_iter()
            .map(|(similarity, i, line)| DenseHit {
                path: files[i].path.clone(),
                line,
                similarity,
            })
            .collect(),
        files: files.len(),
        tree,
        covered: whole,
        partly: per_file.len() - whole,
        units,
        embedded,
    })
}
