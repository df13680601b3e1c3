//! `scout smart QUESTION`: search by meaning, offline, every hit with its
//! reason. Lexical retrieval that knows code, with no index:
//!
//! 1. **concepts** ([`concepts`]): the question's words, stop and question
//!    words dropped, stemmed ([`words`]), each widened by a small code
//!    vocabulary ([`vocab`]) at a lower weight;
//! 2. **candidates** ([`candidates`]): one rg pass over every form, folded
//!    into per-file, per-concept counts and document frequencies;
//! 3. **files**: the candidates ranked by BM25 over those counts and their
//!    paths, with priors ([`score::prior`]); only the best
//!    [`PARSE_FILES`] are read and parsed, as search parses only its page;
//! 4. **units** ([`units`]): each definition of those files (the
//!    tree-sitter parsers of `scout search`, through the same
//!    [`DefsCache`]), or the whole file, with its fields;
//! 5. **score** ([`score`]): BM25F per concept over the fields, IDF from
//!    the pass, priors; the why names the fields and words that scored;
//! 6. **meaning** ([`meaning`]), with the sentence encoder installed:
//!    the question's vector against the unit vectors of a set the
//!    question and the tree choose, up to a count (cached per file by
//!    [`vectors`], the missing ones embedded now; of a large tree, among
//!    the candidates only),
//!    its best units joined to the candidates and the two rankings fused
//!    ([`fuse`]);
//! 7. **page** ([`page`]): the hits cut to the token budget by `scout
//!    search`'s layout stage ([`crate::page::layout`]), then
//!    written by [`crate::render::smart`], as text or JSON; what is
//!    shared with search's stages and what is not, and why, is in
//!    [`page`]'s doc.

pub mod agent;
pub mod candidates;
pub mod concepts;
pub mod listing;
pub mod meaning;
pub mod page;
pub mod score;
pub mod units;
pub mod vectors;
pub mod vocab;
pub mod words;

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Result};

use crate::defs::cache::DefsCache;
use crate::defs::Def;
use crate::exit::ExitStatus;
use crate::lang::Lang;
use crate::paths::path_of;
use crate::rg::{Rg, SearchFlags};
use crate::smart::candidates::Candidates;
use crate::smart::concepts::Concept;
use crate::smart::meaning::Dense;
use crate::smart::score::{idf, Prior, Scored, K1};
use crate::smart::units::{Unit, WordMatcher};
use crate::smart::vectors::Query;

/// Candidate files read and parsed, at most: the best by the pass's
/// counts. Beyond them a file is only a count.
pub const PARSE_FILES: usize = 40;
/// Bytes read for the parsed files, at most (the rest are skipped).
pub const PARSE_BYTES: u64 = 6 << 20;
/// A candidate larger than this is not read (almost always generated).
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// A question, ready to answer.
#[derive(Debug)]
pub struct SmartSettings {
    pub rg: Rg,
    pub question: String,
    /// Paths (those that exist), globs, types, `--hidden`.
    pub flags: SearchFlags,
    /// Requested paths that do not exist.
    pub missing: Vec<crate::paths::Skipped>,
    pub max_results: usize,
    /// Page budget in bytes; `None` means no limit.
    pub budget_bytes: Option<usize>,
    pub json: bool,
    /// With `json`: the text page follows the JSON document's line (for
    /// the request layer).
    pub text_beside_json: bool,
    pub cache_dir: Option<PathBuf>,
    /// `--agent`: hand the question to the agent of `SCOUT_SMART_AGENT`.
    pub agent: bool,
    /// `SCOUT_SMART_AGENT`, read once.
    pub agent_command: Option<String>,
    /// The time the agent has for its answer (`SCOUT_SMART_AGENT_TIMEOUT`).
    pub agent_timeout: std::time::Duration,
    /// The meaning search: where the encoder is, and how long to embed.
    pub meaning: MeaningSettings,
    /// `Some("question")` when `scout search` was asked a question in
    /// words and answers it as smart does: the page says so.
    pub kind: Option<&'static str>,
}

/// Whether and how `scout smart` searches by meaning.
#[derive(Debug, Clone)]
pub struct MeaningSettings {
    /// `None` with `--words-only`, or when no directory can be named.
    pub encoder_dir: Option<PathBuf>,
    /// `--meaning-units`: how many units are compared by meaning; `None`
    /// for [`meaning::MEANING_UNITS`].
    pub units: Option<usize>,
    /// `--words-only` was given.
    pub words_only: bool,
}

impl MeaningSettings {
    /// Words only: no encoder is loaded.
    pub fn off() -> MeaningSettings {
        MeaningSettings {
            encoder_dir: None,
            units: Some(0),
            words_only: true,
        }
    }
}

/// A file that was read and parsed.
#[derive(Debug)]
pub struct Parsed {
    /// The path as JSON and the scores read it (lossily decoded).
    pub path: String,
    /// The path's bytes, as a text page prints them.
    pub raw: Vec<u8>,
    pub prior: Option<Prior>,
    /// The file's score in the choice of files to read.
    pub file_score: f32,
    /// Per concept: its weighted matches in rg's pass.
    pub counts: Vec<f32>,
}

/// The answer: concepts, the candidate set, the hits best first.
#[derive(Debug)]
pub struct Answer {
    pub concepts: Vec<Concept>,
    /// The question's words past [`concepts::MAX_CONCEPTS`], not looked for.
    pub unused: Vec<String>,
    pub candidates: Candidates,
    pub parsed: Vec<Parsed>,
    pub units: Vec<Unit>,
    /// Units scored (definitions and whole files).
    pub scored: usize,
    /// Of those, units with a matching word outside their path.
    pub matched: usize,
    pub hits: Vec<Scored>,
    /// Aligned with `hits`: the hit's file's further hits folded under it
    /// ([`fold`]).
    pub also: Vec<Vec<Scored>>,
    /// What the meaning search did, or why it did not run.
    pub meaning: Meaning,
}

/// The meaning search's part in an answer.
#[derive(Debug, Clone)]
pub enum Meaning {
    /// Not run: the reason, as the header says it.
    Off(String),
    On(Dense),
}

/// Answers `question` over the tree `base` names: the [`Answer`], its
/// hits capped at `max_results`.
pub fn answer(
    rg: &Rg,
    base: &SearchFlags,
    question: &str,
    max_results: usize,
    cache_dir: Option<PathBuf>,
    meaning: &MeaningSettings,
    err: &mut dyn Write,
) -> Result<Answer> {
    let (concepts, unused) = concepts::concepts_and_unused(question);
    if concepts.is_empty() {
        bail!("the question {question:?} has no word to look for once stop and question words, numbers and single letters are dropped; describe what the code does");
    }
    let limit = meaning.units.unwrap_or(meaning::MEANING_UNITS);
    // While rg makes the words' pass, the encoder loads and embeds the
    // question, and the tree's stored vectors are scored against it.
    let encoding = match &meaning.encoder_dir {
        Some(dir) if crate::encoder::installed(dir) => {
            let (dir, question) = (dir.clone(), question.to_string());
            let (rg, base, cache_dir) = (rg.clone(), base.clone(), cache_dir.clone());
            Ok(std::thread::spawn(move || {
                let encoder = crate::encoder::Encoder::load(&dir)?;
                let query = Query::new(&encoder.embed(&[question])?.remove(0));
                // The listing, remembered or made now beside the words'
                // pass, which it slows less than it would delay after:
                // of a small tree only. A larger one is compared among
                // its candidates, indexed or not, so that the answer
                // does not depend on what the cache holds.
                let cache = cache_dir.as_deref();
                let listing = match listing::remembered(&rg, &base, cache) {
                    Some(listing) if listing.listed <= LISTED => Some(listing),
                    Some(_) => None,
                    None => listing::small_tree_files(&rg, &base, cache, LISTED)?,
                };
                let recalled = listing.map(|listing| meaning::recall(listing, &query, cache_dir));
                Ok::<_, anyhow::Error>((encoder, query, recalled))
            }))
        }
        Some(_) => Err("words only (no encoder installed: scout doctor says how)".to_string()),
        None if meaning.words_only => Err("words only (--words-only)".to_string()),
        None => Err("words only (no directory for the encoder: scout doctor says why)".to_string()),
    };
    let candidates = candidates::collect(rg, base, &concepts, err)?;
    if rg.cancelled() {
        bail!("cancelled");
    }
    // Per concept, its weight: its IDF in the pass times the weight of its
    // place in the question.
    let idfs: Vec<f32> = candidates
        .df
        .iter()
        .enumerate()
        .map(|(k, &df)| idf(df, candidates.searched) * score::position_weight(k))
        .collect();
    let asks: Vec<&str> = concepts.iter().map(|c| c.forms[0].stem.as_str()).collect();
    let mut matcher = WordMatcher::new(&concepts);
    let chosen = choose_files(&candidates, &concepts, &idfs, &asks);
    let cache = DefsCache::new(cache_dir.clone());
    let parse: Vec<(PathBuf, Lang)> = chosen
        .iter()
        .filter_map(|(i, _, _)| {
            let path = &candidates.files[*i].path;
            Lang::from_path(path).map(|lang| (path_of(path), lang))
        })
        .collect();
    let mut all_defs = cache.defs_many(&parse).into_iter();
    let mut parsed = Vec::new();
    let mut units = Vec::new();
    for (i, prior, file_score) in &chosen {
        let raw = &candidates.files[*i].path;
        let defs: Vec<Def> = if Lang::from_path(raw).is_some() {
            all_defs.next().unwrap_or_default()
        } else {
            Vec::new()
        };
        let Ok(bytes) = std::fs::read(path_of(raw)) else {
            continue;
        };
        let source = String::from_utf8_lossy(&bytes);
        let path = String::from_utf8_lossy(raw).into_owned();
        units.extend(units::units(
            parsed.len(),
            &path,
            &source,
            &defs,
            &mut matcher,
        ));
        parsed.push(Parsed {
            path,
            raw: raw.clone(),
            prior: *prior,
            file_score: *file_score,
            counts: candidates.files[*i].counts.clone(),
        });
    }
    let avg = score::averages(&units);
    let mut hits: Vec<Scored> = units
        .iter()
        .enumerate()
        .filter_map(|(i, u)| score::score(i, u, &concepts, &idfs, &avg, parsed[u.file].prior))
        .collect();
    for h in &mut hits {
        let file = score::FILE_SHARE * parsed[units[h.unit].file].file_score;
        h.score += file;
        h.file_points = file * 1000.0;
    }
    let scored = units.len();
    hits.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| {
                parsed[units[a.unit].file]
                    .path
                    .cmp(&parsed[units[b.unit].file].path)
            })
            .then_with(|| units[a.unit].line.cmp(&units[b.unit].line))
    });
    let matched = hits.len();
    let mut hits = spread(hits, |h| units[h.unit].file);
    let meaning = match encoding {
        Err(reason) => Meaning::Off(reason),
        Ok(job) => {
            let (encoder, query, recalled) = match job.join() {
                Ok(loaded) => loaded?,
                Err(panic) => std::panic::resume_unwind(panic),
            };
            let first: Vec<&[u8]> = chosen
                .iter()
                .map(|(i, _, _)| candidates.files[*i].path.as_slice())
                .collect();
            let recall = |listing| meaning::recall(listing, &query, cache_dir.clone());
            let recalled = match recalled {
                // The words' pass searched another number of files than
                // the remembered listing holds: the tree changed where no
                // watched stamp tells (listing.rs). List it now.
                Some(recalled) if recalled.remembered && recalled.listed != candidates.searched => {
                    match listing::small_tree_files(rg, base, cache_dir.as_deref(), LISTED)? {
                        Some(listing) => recall(listing),
                        None => recall(listing::candidate_files(&first)),
                    }
                }
                Some(recalled) => recalled,
                None => recall(listing::candidate_files(&first)),
            };
            let first_units: Vec<(&[u8], u32)> = hits
                .iter()
                .map(|h| {
                    let unit = &units[h.unit];
                    (parsed[unit.file].raw.as_slice(), unit.line)
                })
                .collect();
            let dense = meaning::rank(
                recalled,
                &encoder,
                &query,
                &first,
                &first_units,
                limit,
                cache_dir.clone(),
            )?;
            let mut joined = Joined {
                parsed: &mut parsed,
                units: &mut units,
                matcher: &mut matcher,
                defs: &cache,
                concepts: concepts.len(),
            };
            hits = fuse(hits, &dense, &mut joined);
            Meaning::On(dense)
        }
    };
    let names = code_names(question);
    let hits = match names.is_empty() {
        true => hits,
        false => named_first(hits, |h| named_place(units[h.unit].def.as_ref(), &names)),
    };
    let (hits, also) = fold(hits, |h| units[h.unit].file, max_results);
    Ok(Answer {
        concepts,
        unused,
        candidates,
        parsed,
        units,
        scored,
        matched,
        hits,
        also,
        meaning,
    })
}

/// A tree is listed, and its files beyond the question's candidates
/// compared, when it holds at most this many files (rg's walk is stopped
/// at the next one). A larger tree is compared among its candidates only,
/// whether `scout index` ran on it or not: its candidates hold more units
/// than [`meaning::MEANING_UNITS`] anyway, and the answer must not depend
/// on the cache. On a tree of 60,000 files, the listing made beside the
/// words' pass cost a first question a quarter second of its 1.25-1.42 s
/// (BENCHMARKS.md).
const LISTED: u64 = 2_000;

/// The rank constant of the fusion: a hit at rank r scores 1 / (K + r) in
/// each ranking that holds it.
pub const FUSE_K: f32 = 30.0;
/// The dense ranking's weight in the fusion, the lexical one's being 1.
pub const DENSE_WEIGHT: f32 = 0.5;
/// The weight of the files' fused ranks beside the units' own.
pub const FILE_WEIGHT: f32 = 1.0;
/// The lexical first stays first when the dense ranking has it among its
/// first this many: the two agree. On the tuning questions this kept
/// every question the words alone ranked first at 1 (one fell to 2
/// without it) and changed no other (20 and 60 kept them too, and cost
/// definition-level MRR 0.01-0.02; a margin over the lexical second, at
/// 1.2-2, kept none).
pub const AGREED_TOP: usize = 5;
// Chosen on the tuning questions only (bench/smart, 56 questions), with
// every tree's vectors cached: file-level MRR@10 was 0.76 by words
// alone, 0.81-0.84 over K 10-60, W 0.3-0.8 and a file weight of 0-2;
// K 30, W 0.5, 1 is the middle of that plateau (0.83, definition-level
// 0.63). The dense ranking alone gave 0.73.

/// What the fusion adds to: the answer's files and units so far.
struct Joined<'a, 'c> {
    parsed: &'a mut Vec<Parsed>,
    units: &'a mut Vec<Unit>,
    matcher: &'a mut WordMatcher<'c>,
    defs: &'a DefsCache,
    concepts: usize,
}

impl Joined<'_, '_> {
    /// The unit of `path` whose hit is at `line`, reading and parsing the
    /// file when it is not among the parsed ones yet.
    fn unit_at(&mut self, path: &[u8], line: u32) -> Option<usize> {
        let shown = String::from_utf8_lossy(path);
        let file = match self.parsed.iter().position(|p| p.raw == path) {
            Some(file) => file,
            None => {
                let on_disk = path_of(path);
                let lang = Lang::from_path(path)?;
                let bytes = std::fs::read(&on_disk).ok()?;
                let source = String::from_utf8_lossy(&bytes);
                let defs = self.defs.defs(&on_disk, lang);
                let file = self.parsed.len();
                self.units
                    .extend(units::units(file, &shown, &source, &defs, self.matcher));
                self.parsed.push(Parsed {
                    path: shown.into_owned(),
                    raw: path.to_vec(),
                    prior: None,
                    file_score: 0.0,
                    counts: vec![0.0; self.concepts],
                });
                file
            }
        };
        // A file without definitions is one unit, which the words' hit
        // places at its best line and its vector at line 1.
        self.units
            .iter()
            .position(|u| u.file == file && (u.line == line || u.def.is_none()))
    }
}

/// The lexical `hits` (best first) and the dense ranking fused by
/// reciprocal rank: a unit scores 1 / ([`FUSE_K`] + its lexical rank)
/// plus [`DENSE_WEIGHT`] / (K + its dense rank), for the rankings that
/// hold it, plus [`FILE_WEIGHT`] times the same sum for its file (a file
/// ranked where its first unit is in each ranking); all scaled so that
/// the lexical first alone scores 1. The dense ranking's units that no
/// word found join the hits (their files read and parsed). Ties keep the
/// lexical order; the lexical first stays first when the dense ranking
/// agrees ([`AGREED_TOP`]); each file's hits are spread again.
fn fuse(hits: Vec<Scored>, dense: &Dense, joined: &mut Joined<'_, '_>) -> Vec<Scored> {
    let rank_points = |rank: usize, weight: f32| weight / (FUSE_K + rank as f32 + 1.0);
    let lexical_first = hits.first().map(|h| h.unit);
    let mut agreed = false;
    let mut fused: Vec<(f32, Scored)> = hits
        .into_iter()
        .enumerate()
        .map(|(r, h)| (rank_points(r, 1.0), h))
        .collect();
    let mut lexical_files: Vec<usize> = Vec::new();
    for (_, h) in &fused {
        let file = joined.units[h.unit].file;
        if !lexical_files.contains(&file) {
            lexical_files.push(file);
        }
    }
    let mut dense_files: Vec<usize> = Vec::new();
    for (d, hit) in dense.hits.iter().enumerate() {
        let Some(unit) = joined.unit_at(&hit.path, hit.line) else {
            continue;
        };
        let file = joined.units[unit].file;
        if !dense_files.contains(&file) {
            dense_files.push(file);
        }
        agreed |= d < AGREED_TOP && Some(unit) == lexical_first;
        let points = rank_points(d, DENSE_WEIGHT);
        match fused.iter_mut().find(|(_, h)| h.unit == unit) {
            Some((score, h)) => {
                *score += points;
                h.meaning = Some(hit.similarity);
            }
            None => fused.push((
                points,
                Scored {
                    unit,
                    score: 0.0,
                    signals: Vec::new(),
                    prior: None,
                    covered: 0,
                    file_points: 0.0,
                    meaning: Some(hit.similarity),
                },
            )),
        }
    }
    let file_points = |file: usize| {
        let rank_in = |files: &[usize], weight| {
            files
                .iter()
                .position(|&f| f == file)
                .map_or(0.0, |r| rank_points(r, weight))
        };
        FILE_WEIGHT * (rank_in(&lexical_files, 1.0) + rank_in(&dense_files, DENSE_WEIGHT))
    };
    for (score, h) in &mut fused {
        *score += file_points(joined.units[h.unit].file);
    }
    // A stable sort: ties keep the lexical order, then the dense one.
    fused.sort_by(|a, b| b.0.total_cmp(&a.0));
    // Words and meaning agree on the first: it stays first.
    if let (true, Some(first)) = (agreed, lexical_first) {
        if let Some(at) = fused.iter().position(|(_, h)| h.unit == first) {
            let top = fused.remove(at);
            fused.insert(0, top);
        }
    }
    let top = (1.0 + FILE_WEIGHT) * rank_points(0, 1.0);
    let hits = fused
        .into_iter()
        .map(|(score, mut h)| {
            h.score = score / top;
            h
        })
        .collect();
    let units = &joined.units;
    spread(hits, |h: &Scored| units[h.unit].file)
}

/// Hits of one file ranked before those of other files, at most: past
/// them, a file's further hits come after every other file's first ones.
/// On the tuning questions, 3 lifted file-level hit@5 from 0.82 to
/// 0.88 and left definition-level MRR@10 at 0.53 (1 and 2 lost definition
/// hits the right file held at ranks 2 and 3; 4 and 5 kept fewer files).
pub const HITS_PER_FILE: usize = 3;

/// `hits` (best first) with each file's hits past the first
/// [`HITS_PER_FILE`] moved after all the others, keeping their order: so
/// that one file holding every word does not fill the page, and the
/// answer in another file gets in. Nothing is dropped.
pub fn spread<T>(hits: Vec<T>, file: impl Fn(&T) -> usize) -> Vec<T> {
    let mut per_file: HashMap<usize, usize> = HashMap::new();
    let (mut first, mut later) = (Vec::with_capacity(hits.len()), Vec::new());
    for hit in hits {
        let seen = per_file.entry(file(&hit)).or_default();
        *seen += 1;
        if *seen <= HITS_PER_FILE {
            first.push(hit);
        } else {
            later.push(hit);
        }
    }
    first.extend(later);
    first
}

/// The code names a question spells: in backquotes (`` `make_response` ``,
/// `` `Gson.getDelegateAdapter` ``), or shaped as code where they stand
/// (`RuntimeTypeAdapterFactory`, `jv_setpath`: a capital after a small
/// letter, or an underscore inside), each as its dotted spelling and its
/// last segment. A capitalised word of prose (`How`, `Flask`) is not one.
pub fn code_names(question: &str) -> Vec<(String, String)> {
    let mut names: Vec<(String, String)> = Vec::new();
    let mut push = |text: &str| {
        let dotted = dotted(text.trim_end_matches("()"));
        let segments: Vec<&str> = dotted.split('.').collect();
        let identifier = |s: &str| {
            s.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
                && s.chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        };
        if segments.iter().all(|s| identifier(s)) {
            let short = segments.last().unwrap_or(&"").to_string();
            if !names.iter().any(|(d, _)| *d == dotted) {
                names.push((dotted.clone(), short));
            }
        }
    };
    for (i, span) in question.split('`').enumerate() {
        if i % 2 == 1 {
            push(span.trim());
            continue;
        }
        for word in span.split(|c: char| c.is_whitespace() || ",;:!?()\"'".contains(c)) {
            let word = word.trim_end_matches('.');
            let chars: Vec<char> = word.chars().collect();
            let hump = chars
                .windows(2)
                .any(|w| w[0].is_lowercase() && w[1].is_uppercase());
            let inner_underscore = word.trim_matches('_').contains('_');
            if hump || inner_underscore {
                push(word);
            }
        }
    }
    names
}

/// The code name a question asks about when it leaves no word to look
/// for (`how is IsA used`: `IsA` splits into a stop word and a letter):
/// the first one it spells ([`code_names`]), answered as `scout search
/// NAME` answers it rather than refused.
pub fn named_only(question: &str) -> Option<String> {
    let concepts = concepts::concepts_and_unused(question).0;
    if !candidates::patterns(&concepts).is_empty() {
        return None;
    }
    code_names(question)
        .into_iter()
        .next()
        .map(|(dotted, _)| dotted)
}

/// A qualified name with its separators as dots: `A::b`, `A#b` and Lua's
/// `M:m` as `A.b`, `M.m`.
fn dotted(name: &str) -> String {
    name.replace("::", ".").replace(['#', ':'], ".")
}

/// Where a question's named definitions go among the hits: 0 for a
/// definition whose whole dotted name ends with a dotted spelling
/// (`Gson.getDelegateAdapter`), 1 for one whose own name is a name's last
/// segment, 2 for any other hit.
pub fn named_place(def: Option<&Def>, names: &[(String, String)]) -> u8 {
    let Some(d) = def else {
        return 2;
    };
    let dotted = dotted(&d.name);
    let whole =
        |n: &String| n.contains('.') && (dotted == *n || dotted.ends_with(&format!(".{n}")));
    if names.iter().any(|(n, _)| whole(n)) {
        0
    } else if names.iter().any(|(_, short)| d.short == *short) {
        1
    } else {
        2
    }
}

/// `hits` (best first) in the order of their [`named_place`], each place
/// keeping the ranking's order: a question that names the code it asks
/// about wants that definition before the ones that share its words.
pub fn named_first<T>(hits: Vec<T>, place: impl Fn(&T) -> u8) -> Vec<T> {
    let mut placed: Vec<(u8, T)> = hits.into_iter().map(|h| (place(&h), h)).collect();
    // A stable sort: each place keeps the ranking's order.
    placed.sort_by_key(|(p, _)| *p);
    placed.into_iter().map(|(_, h)| h).collect()
}

/// Further hits of one file folded under its first hit, at most.
pub const FOLDED_PER_FILE: usize = 2;

/// The first `max` places of `hits` (best first): each file's first hit,
/// in order, so that the hits shown name as many files as qualify. When
/// fewer files than `max` qualify, the places left go to the files'
/// further hits, in their order, after the first ones. A further hit that
/// ranked among the first `max` but has no place of its own is folded
/// under its file's hit (at most [`FOLDED_PER_FILE`]): what the ranking
/// put first stays on the page. Returns the hits and, aligned with them,
/// what each folds.
pub fn fold<T>(hits: Vec<T>, file: impl Fn(&T) -> usize, max: usize) -> (Vec<T>, Vec<Vec<T>>) {
    let mut at: HashMap<usize, usize> = HashMap::new();
    let (mut shown, mut later) = (Vec::new(), Vec::new());
    for (rank, hit) in hits.into_iter().enumerate() {
        let f = file(&hit);
        match at.entry(f) {
            Entry::Occupied(_) => later.push((rank, f, hit)),
            Entry::Vacant(place) if shown.len() < max => {
                place.insert(shown.len());
                shown.push(hit);
            }
            Entry::Vacant(_) => {}
        }
    }
    let room = max.saturating_sub(shown.len());
    let mut also: Vec<Vec<T>> = (0..shown.len()).map(|_| Vec::new()).collect();
    let mut rest = later.into_iter();
    for (_, _, hit) in rest.by_ref().take(room) {
        shown.push(hit);
        also.push(Vec::new());
    }
    for (rank, f, hit) in rest {
        let i = at[&f];
        if rank < max && also[i].len() < FOLDED_PER_FILE {
            also[i].push(hit);
        }
    }
    (shown, also)
}

/// The candidates worth reading, best first, with their priors: BM25 over
/// the pass's counts (file length from its size) plus the concepts their
/// paths name, times the prior; at most [`PARSE_FILES`] and
/// [`PARSE_BYTES`].
fn choose_files(
    candidates: &Candidates,
    concepts: &[Concept],
    idfs: &[f32],
    asks: &[&str],
) -> Vec<(usize, Option<Prior>, f32)> {
    // Each file's size, prior and the concepts its path names, on every
    // core: rg's pass is over, and a large tree has tens of thousands of
    // candidates (about 0.07 s on one core for 20,000).
    let looked: Vec<(u64, Option<Prior>, Vec<usize>)> = crate::workers::map_on_cores_with(
        &candidates.files,
        || WordMatcher::new(concepts),
        |matcher, f| {
            let size = std::fs::metadata(path_of(&f.path)).map_or(0, |m| m.len());
            let path = String::from_utf8_lossy(&f.path);
            let prior = score::prior(&path, asks).or_else(|| score::older_copy(&path, asks));
            let in_path = matcher.line(path.rsplit_once('.').map_or(&path[..], |(p, _)| p));
            (size, prior, in_path.hits.iter().map(|h| h.0).collect())
        },
    );
    let sizes: Vec<u64> = looked.iter().map(|l| l.0).collect();
    let avg = (sizes.iter().sum::<u64>() as f32 / sizes.len().max(1) as f32).max(1.0);
    let mut ranked: Vec<(f32, usize, Option<Prior>)> = candidates
        .files
        .iter()
        .zip(looked)
        .enumerate()
        .filter(|(i, _)| sizes[*i] > 0 && sizes[*i] <= MAX_FILE_BYTES)
        .map(|(i, (f, (size, prior, in_path)))| {
            let norm = 1.0 - 0.75 + 0.75 * size as f32 / avg;
            let mut s = 0.0;
            for (c, &tf) in f.counts.iter().enumerate() {
                if tf > 0.0 {
                    s += idfs[c] * tf * (K1 + 1.0) / (tf + K1 * norm);
                }
                if in_path.contains(&c) {
                    s += idfs[c];
                }
            }
            (s * prior.map_or(1.0, |p| p.factor), i, prior)
        })
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let mut bytes = 0;
    let mut out = Vec::new();
    for (score, i, prior) in ranked {
        if out.len() == PARSE_FILES || bytes + sizes[i] > PARSE_BYTES {
            break;
        }
        bytes += sizes[i];
        out.push((i, prior, score));
    }
    out
}

/// Files in the order `scout smart` ranks them for `question`, each with
/// the points (score × 1000) of its best hit, for the multi-word fallback
/// of `scout search`.
pub fn file_order(
    rg: &Rg,
    base: &SearchFlags,
    question: &str,
    cache_dir: Option<PathBuf>,
    err: &mut dyn Write,
) -> Result<Vec<(String, i64)>> {
    let answer = answer(
        rg,
        base,
        question,
        FALLBACK_HITS,
        cache_dir,
        &MeaningSettings::off(),
        err,
    )?;
    let mut order: Vec<(String, i64)> = Vec::new();
    for hit in &answer.hits {
        let path = &answer.parsed[answer.units[hit.unit].file].path;
        if !order.iter().any(|(p, _)| p == path) {
            order.push((path.clone(), (hit.score * 1000.0).round() as i64));
        }
    }
    Ok(order)
}

/// Hits ranked when smart orders the files of search's fallback.
const FALLBACK_HITS: usize = 200;

/// Runs `scout smart`: the answer, rendered on `out`; warnings on `err`.
pub fn run(
    settings: &SmartSettings,
    started: Instant,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus> {
    for skipped in &settings.missing {
        writeln!(err, "{}", skipped.message())?;
    }
    if settings.agent {
        return agent::delegate(settings, out);
    }
    let answer = answer(
        &settings.rg,
        &settings.flags,
        &settings.question,
        settings.max_results,
        settings.cache_dir.clone(),
        &settings.meaning,
        err,
    )?;
    let page = crate::page::smart::Page::new(
        &settings.question,
        settings.kind,
        &answer,
        settings.budget_bytes,
        started,
    );
    if settings.json {
        crate::render::smart::write_json(out, &page)?;
        if settings.text_beside_json {
            crate::render::smart::write_text(out, &page)?;
        }
    } else if answer.hits.is_empty()
        && answer.candidates.partial.is_none()
        && settings.missing.is_empty()
    {
        // Exit 1 leaves stdout empty (README, "Exit status"): what was
        // looked for, and why nothing answered, go to stderr.
        crate::render::smart::write_text(err, &page)?;
    } else {
        crate::render::smart::write_text(out, &page)?;
    }
    let partial = answer.candidates.partial.is_some() || !settings.missing.is_empty();
    Ok(if partial {
        ExitStatus::Partial
    } else if answer.hits.is_empty() {
        ExitStatus::NoMatch
    } else {
        ExitStatus::Shown
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_names_code_in_backquotes_or_by_its_shape() {
        let names = code_names(
            "How does `Gson.getDelegateAdapter` skip RuntimeTypeAdapterFactory and jv_setpath() in Flask?",
        );
        let spelled: Vec<(&str, &str)> = names.iter().map(|(d, s)| (&d[..], &s[..])).collect();
        assert_eq!(
            spelled,
            [
                ("Gson.getDelegateAdapter", "getDelegateAdapter"),
                ("RuntimeTypeAdapterFactory", "RuntimeTypeAdapterFactory"),
                ("jv_setpath", "jv_setpath"),
            ]
        );
        assert!(code_names("how are retries scheduled after a failed job").is_empty());
        assert_eq!(
            code_names("what does `RouteContext::fromRequest` do")[0].0,
            "RouteContext.fromRequest"
        );
    }

    #[test]
    fn the_definition_a_question_names_comes_first() {
        let def = |name: &str| {
            let short = name.rsplit('.').next().unwrap().to_string();
            Some(Def {
                kind: crate::defs::DefKind::Method,
                name: name.to_string(),
                short,
                start_line: 1,
                end_line: 2,
                name_line: 1,
            })
        };
        let hits = vec![
            ("a", def("Other.words")),
            ("b", def("Cache.get")),
            ("c", None),
            ("d", def("Gson.getDelegateAdapter")),
            ("e", def("getDelegateAdapter")),
        ];
        let names = code_names("how does `Gson.getDelegateAdapter` work");
        let order: String = named_first(hits, |h| named_place(h.1.as_ref(), &names))
            .iter()
            .map(|h| h.0)
            .collect();
        assert_eq!(order, "deabc");
    }

    #[test]
    fn fold_shows_one_hit_a_file_and_folds_the_files_next_best_under_it() {
        let hits = vec![
            (0, 'a'),
            (0, 'b'),
            (1, 'c'),
            (0, 'd'),
            (0, 'e'),
            (2, 'f'),
            (1, 'g'),
            (3, 'h'),
        ];
        let (shown, also) = fold(hits.clone(), |h| h.0, 3);
        let shown: String = shown.iter().map(|h| h.1).collect();
        assert_eq!(shown, "acf");
        // b ranked 2nd: folded; d (4th) and g (7th) ranked past the 3 shown.
        let folded: Vec<String> = also
            .iter()
            .map(|a| a.iter().map(|h| h.1).collect())
            .collect();
        assert_eq!(folded, ["b", "", ""]);
        // Fewer files than places: the further hits take the places
        // left, after the first ones, and fold past them.
        let (shown, also) = fold(hits[..5].to_vec(), |h| h.0, 4);
        let shown: String = shown.iter().map(|h| h.1).collect();
        assert_eq!(shown, "acbd");
        assert!(also.iter().all(Vec::is_empty), "e ranked past the 4 places");
        let (shown, also) = fold(hits[..5].to_vec(), |h| h.0, 3);
        let shown: String = shown.iter().map(|h| h.1).collect();
        assert_eq!(shown, "acb");
        let folded: Vec<String> = also
            .iter()
            .map(|a| a.iter().map(|h| h.1).collect())
            .collect();
        assert_eq!(folded, ["", "", ""], "d ranked 4th, past the 3 places");
    }

    #[test]
    fn spread_moves_a_files_hits_past_the_cap_after_the_others() {
        let hits = vec![
            (0, 'a'),
            (0, 'b'),
            (0, 'c'),
            (0, 'd'),
            (1, 'e'),
            (0, 'f'),
            (2, 'g'),
        ];
        let order: String = spread(hits, |h| h.0).into_iter().map(|h| h.1).collect();
        assert_eq!(order, "abcegdf");
    }
}
