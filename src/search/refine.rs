//! The parser's pass over one page: definitions of the page's files
//! from the cache or tree-sitter, within a parse budget; where the query
//! is a name, the parser overrules the lexical rules on those files and
//! the page's files are reordered by the corrected scores (the page keeps
//! its files, so other pages do not move).

use crate::defs::cache::{same_name, DefsCache, Wanted};
use crate::defs::Def;
use crate::lang::Lang;
use crate::page::tally::{FileTally, Quote, Ranked};
use crate::page::{chosen_quotes, PageSpan, Slot};
use crate::paths::path_of;
use crate::rg::{Matcher, SearchFlags};
use crate::search::rank::{
    definition_points, role, test_def_prior, DEF_FILE, PRIMARY_DEF_FILE, WEAK_DEF_FILE,
};
use crate::search::settings::SearchSettings;
use std::collections::BTreeMap;
use std::fs::Metadata;
use std::path::PathBuf;
use std::time::SystemTime;

/// What the parser's pass leaves for the stages after it.
#[derive(Debug, Default)]
pub struct Refined {
    /// Definitions of the files on the page, aligned with its slots
    /// (empty with `-l` or `--lexical`).
    pub defs: Vec<Vec<Def>>,
    /// The modification time of each file stat'ed for the parse, by its
    /// index in `ranked`, when nothing had to be parsed (a warm page):
    /// [`verify`](crate::search::verify) need not stat it again. A
    /// `BTreeMap`, as every map of these stages: a `HashMap` seeds its
    /// hasher with a `getrandom` system call and hashes each key with
    /// SipHash, for a few dozen keys.
    pub modified: BTreeMap<usize, SystemTime>,
}

/// The definitions of the files on `span`, after the parser's corrections
/// to `ranked` and the page's new order. `known` holds definitions
/// already parsed by an earlier stage, by path (the structural search's
/// trees): those files are neither parsed again nor charged to the parse
/// budget. `searched` are the flags rg searched with (a text search's,
/// after any fallback).
pub fn refine(
    settings: &SearchSettings,
    ranked: &mut [Ranked],
    span: &mut PageSpan,
    known: &BTreeMap<Vec<u8>, Vec<Def>>,
    searched: Option<&SearchFlags>,
) -> Refined {
    if settings.files_only || settings.lexical {
        return Refined::default();
    }
    let matcher = name_matcher(settings, searched);
    refine_span(settings, ranked, span, known, true, matcher.as_ref())
}

/// A name inside a longer text (`Types.newParameterizedType`, `f(`): a
/// line that defines it is a definition line only where the search
/// matches it too; the others are no match, neither quoted nor counted.
/// The matcher of the search for that, `None` when the name is the text.
fn name_matcher(settings: &SearchSettings, searched: Option<&SearchFlags>) -> Option<Matcher> {
    let name = settings.query.name.as_ref()?;
    (*name != settings.query.text)
        .then(|| Matcher::new(searched?))
        .flatten()
}

/// `-l`'s page: each of the ranked view's pages it holds
/// ([`layout::paginate_listing`](crate::search::layout::paginate_listing))
/// refined as that page is refined when shown, and `span`'s files put in
/// their new order, page after page. No definitions are kept (a listing
/// shows none).
pub fn refine_listing(
    settings: &SearchSettings,
    ranked: &mut [Ranked],
    span: &mut PageSpan,
    held: &mut [PageSpan],
    known: &BTreeMap<Vec<u8>, Vec<Def>>,
    searched: Option<&SearchFlags>,
) -> Refined {
    if settings.lexical {
        return Refined::default();
    }
    let matcher = name_matcher(settings, searched);
    let mut modified = BTreeMap::new();
    let mut slots = Vec::with_capacity(span.slots.len());
    for view in held.iter_mut() {
        let refined = refine_span(settings, ranked, view, known, false, matcher.as_ref());
        modified.extend(refined.modified);
        slots.extend(view.slots.iter().map(|slot| Slot { lines: 0, ..*slot }));
    }
    span.slots = slots;
    Refined {
        defs: Vec::new(),
        modified,
    }
}

/// [`refine`] once the page is known to be parsed; with `headings`, the
/// files past the parse budget get the definitions around their quoted
/// lines ([`pieces`]).
fn refine_span(
    settings: &SearchSettings,
    ranked: &mut [Ranked],
    span: &mut PageSpan,
    known: &BTreeMap<Vec<u8>, Vec<Def>>,
    headings: bool,
    matcher: Option<&Matcher>,
) -> Refined {
    let (Refined { defs, modified }, read) = parse_page(settings, ranked, span, known, headings);
    let Some(name) = &settings.query.name else {
        return Refined { defs, modified };
    };
    let parsed = span.slots.iter().zip(&defs).zip(read);
    for ((slot, file_defs), _) in parsed.filter(|(_, read)| *read) {
        apply_parser(
            &mut ranked[slot.file],
            file_defs,
            name,
            settings.query.ignore_case,
            matcher,
        );
    }
    Refined {
        defs: reorder(ranked, span, defs),
        modified,
    }
}

/// Source bytes a page may parse, at most, in rank order. Parsing costs
/// about 5-10 ms per 50 KB; this bounds a cold search (nothing cached) at a
/// few tens of milliseconds over a warm one. The files parsed depend only
/// on their sizes, never on the cache, so cold and warm runs print the
/// same page.
const PARSE_BUDGET_BYTES: u64 = 256 * 1024;

/// Definitions of the files on a page (aligned with its slots), from the
/// cache or the parser, and whether the parser read each file (its
/// verdict, even "no definition here", then overrules the lexical one).
/// Files without a parser and files past the page's parse budget are not
/// read: they keep the lexical verdict; with `headings`, those past the
/// budget get the definitions around their quoted lines ([`pieces`]).
fn parse_page(
    settings: &SearchSettings,
    ranked: &[Ranked],
    span: &PageSpan,
    known: &BTreeMap<Vec<u8>, Vec<Def>>,
    headings: bool,
) -> (Refined, Vec<bool>) {
    let mut budget = PARSE_BUDGET_BYTES;
    let mut defs = vec![Vec::new(); span.slots.len()];
    let mut read = vec![false; span.slots.len()];
    let mut modified = BTreeMap::new();
    let (mut slots, mut files, mut metas, mut needs) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut past = Vec::new();
    for (i, slot) in span.slots.iter().enumerate() {
        let tally = &ranked[slot.file].tally;
        let Some(lang) = tally.lang else {
            continue;
        };
        if tally.binary || slot.lines == 0 {
            continue;
        }
        if let Some(parsed) = known.get(&tally.path) {
            defs[i] = parsed.clone();
            read[i] = true;
            continue;
        }
        let path = path_of(&tally.path);
        let Ok(meta) = std::fs::metadata(&path) else {
            continue;
        };
        if let Ok(mtime) = meta.modified() {
            modified.insert(slot.file, mtime);
        }
        if meta.len() > budget {
            if headings {
                past.push(Past {
                    slot: i,
                    path,
                    lang,
                    meta,
                });
            }
            continue;
        }
        budget -= meta.len();
        slots.push(i);
        files.push((path, lang));
        metas.push(meta);
        // Only the definitions around the file's candidate lines (and
        // those of the queried name, whose lines the parser may add) are
        // ever used.
        needs.push(Wanted {
            name: settings.query.name.clone(),
            ignore_case: settings.query.ignore_case,
            lines: tally.quotes.iter().map(|q| q.line).collect(),
        });
    }
    let cache = DefsCache::new(settings.cache_dir.clone()).with_cwd(&settings.cwd);
    let found = cache.defs_many_wanted(&files, &metas, &needs);
    if found.parsed > 0 {
        // Parsing takes long enough for a file to change meanwhile: the
        // times read before it are stale, and verify reads them again.
        modified.clear();
    }
    for ((i, file_defs), was_read) in slots.into_iter().zip(found.defs).zip(found.read) {
        defs[i] = file_defs;
        read[i] = was_read;
    }
    pieces(&cache, ranked, span, past, &mut defs, &mut modified);
    (Refined { defs, modified }, read)
}

/// A file of the page past its parse budget, as [`parse_page`] stat'ed it.
struct Past {
    slot: usize,
    path: PathBuf,
    lang: Lang,
    meta: Metadata,
}

/// Source bytes one file may have parsed in pieces, at most: the blocks
/// around its quoted lines ([`DefsCache::around`]), for its headings. A
/// piece is a few hundred bytes to a few KB.
const PIECES_BYTES: usize = 24 * 1024;

/// Files of a page that may have pieces parsed, at most, in rank order.
const PIECES_FILES: usize = 40;

/// Bytes of the files a page may read for their pieces, at most (rg has
/// just read them, so they are in the page cache; the walks over their
/// lines cost well under a millisecond per MB).
const PIECES_READ_BYTES: u64 = 8 * 1024 * 1024;

/// The definitions around the quoted lines of the page's files past its
/// parse budget, for the first [`PIECES_FILES`] of them in rank order
/// whose sizes fit [`PIECES_READ_BYTES`]: their lines show under the
/// definitions that hold them. Which files get pieces depends on their
/// sizes alone, and what a file's pieces give on its bytes and lines
/// alone, so a cached answer is the one a parse gives. These definitions
/// are not the file's whole verdict: the lexical rules still decide its
/// definition lines. A file read here may have changed since it was
/// stat'ed: verify stats it again.
fn pieces(
    cache: &DefsCache,
    ranked: &[Ranked],
    span: &PageSpan,
    past: Vec<Past>,
    defs: &mut [Vec<Def>],
    modified: &mut BTreeMap<usize, SystemTime>,
) {
    let (mut files, mut readable) = (PIECES_FILES, PIECES_READ_BYTES);
    for Past {
        slot,
        path,
        lang,
        meta,
    } in past
    {
        if files == 0 {
            break;
        }
        if meta.len() > readable {
            continue;
        }
        files -= 1;
        readable -= meta.len();
        let file = span.slots[slot].file;
        let tally = &ranked[file].tally;
        let mut lines: Vec<u64> = chosen_quotes(tally, span.slots[slot].lines)
            .iter()
            .map(|q| q.line)
            .collect();
        lines.sort_unstable();
        let (found, read) = cache.around(&path, lang, &meta, &lines, PIECES_BYTES);
        defs[slot] = found;
        if read {
            modified.remove(&file);
        }
    }
}

/// Lets the parser overrule the lexical rules on a shown file: lines the
/// parser says define `name` are definition lines (and are quoted first,
/// read from the file when the fold did not keep them); lexical guesses it
/// contradicts are not. A file the parser could not read keeps the lexical
/// verdict. With `-i` (`ignore_case`), a definition of the name in any
/// ASCII case counts, spelled as the file spells it. `defs` are the
/// parser's whole verdict on the file: none means none (a name only in a
/// comment, a docstring or a string is not defined there). With
/// `matcher`, a definition line counts only where it matches.
fn apply_parser(
    ranked: &mut Ranked,
    defs: &[Def],
    name: &str,
    ignore_case: bool,
    matcher: Option<&Matcher>,
) {
    let mut spellings: Vec<&str> = vec![name];
    if ignore_case {
        for def in defs {
            if same_name(def.short.as_bytes(), name.as_bytes(), true)
                && !spellings.contains(&&def.short[..])
            {
                spellings.push(&def.short);
            }
        }
    }
    let mut def_lines = Vec::new();
    let mut primary_lines = Vec::new();
    for spelled in &spellings {
        def_lines.extend(crate::defs::definition_lines(defs, spelled));
        primary_lines.extend(role::primary_in(defs, spelled));
    }
    let mut source = None;
    if let Some(matcher) = matcher.filter(|_| !def_lines.is_empty()) {
        let text = std::fs::read(path_of(&ranked.tally.path)).unwrap_or_default();
        let lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
        let mut spans = Vec::new();
        let mut matches = |number: &u64| {
            spans.clear();
            let line = lines.get(*number as usize - 1).copied().unwrap_or_default();
            matcher.spans(line.strip_suffix(b"\r").unwrap_or(line), &mut spans);
            !spans.is_empty()
        };
        def_lines.retain(&mut matches);
        primary_lines.retain(&mut matches);
        source = Some(text);
    }
    let line_score =
        |line: u64| definition_points(def_lines.contains(&line), primary_lines.contains(&line));
    let tally = &mut ranked.tally;
    for quote in &mut tally.quotes {
        quote.score += line_score(quote.line) - definition_points(quote.def, quote.primary);
        quote.def = def_lines.contains(&quote.line);
        quote.primary = primary_lines.contains(&quote.line);
    }
    // The primary definitions first: a file quotes at least its first.
    let mut wanted: Vec<u64> = primary_lines.clone();
    wanted.extend(def_lines.iter().filter(|l| !primary_lines.contains(l)));
    let missing: Vec<u64> = wanted
        .into_iter()
        .filter(|l| !tally.quotes.iter().any(|q| q.line == *l))
        .take(MAX_READ_DEF_LINES)
        .collect();
    if !missing.is_empty() {
        if let Some(source) = source.or_else(|| std::fs::read(path_of(&tally.path)).ok()) {
            for (number, line) in source.split(|&b| b == b'\n').enumerate() {
                let number = number as u64 + 1;
                if missing.contains(&number) {
                    // Its `\r`, if any, is quoted too (I4).
                    let at = spellings
                        .iter()
                        .find_map(|s| find(line, s.as_bytes()))
                        .unwrap_or(0);
                    tally.quotes.push(Quote {
                        score: line_score(number),
                        def: true,
                        primary: primary_lines.contains(&number),
                        ..Quote::around(number, line, (at, at + name.len()))
                    });
                }
            }
        }
    }
    let lexical = lexical_bonus(tally);
    tally.def_lines = def_lines.len() as u64;
    tally.primary_def_lines = primary_lines.len() as u64;
    tally.weak_def_lines = 0;
    let parsed = lexical_bonus(tally);
    if parsed != lexical {
        ranked.score.total += parsed - lexical;
        ranked.score.signals.push(("parser-def", parsed - lexical));
    }
}

/// The definition bonus a tally's counts earn (the test prior on
/// definitions included: it goes with the verdict).
fn lexical_bonus(tally: &FileTally) -> i64 {
    if tally.def_lines > 0 {
        let primary = if tally.primary_def_lines > 0 {
            PRIMARY_DEF_FILE
        } else {
            0
        };
        DEF_FILE + primary + test_def_prior(&tally.path)
    } else if tally.weak_def_lines > 0 {
        WEAK_DEF_FILE
    } else {
        0
    }
}

/// Definition lines read from a file at most, when the fold kept none.
const MAX_READ_DEF_LINES: usize = 3;

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Orders a page's files by their scores after the parser's corrections
/// (the page keeps the same files), returning their definitions in the new
/// order.
fn reorder(ranked: &[Ranked], span: &mut PageSpan, mut defs: Vec<Vec<Def>>) -> Vec<Vec<Def>> {
    let mut order: Vec<usize> = (0..span.slots.len()).collect();
    order.sort_by(|&a, &b| {
        let (ra, rb) = (&ranked[span.slots[a].file], &ranked[span.slots[b].file]);
        rb.score
            .total
            .cmp(&ra.score.total)
            .then_with(|| ra.tally.path.cmp(&rb.tally.path))
    });
    let slots = order.iter().map(|&i| span.slots[i]).collect();
    span.slots = slots;
    order
        .into_iter()
        .map(|i| std::mem::take(&mut defs[i]))
        .collect()
}
