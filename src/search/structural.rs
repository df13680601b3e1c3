//! Stage 2 of the structural search (`--structural`), in place of
//! [`collect`](super::collect): the files rg lists with the search's file
//! selection (`rg --files` with its `-g`, `--type`, `--hidden`, ignore
//! rules and paths), those of the pattern's language parsed at most once
//! each on every core (not at all when they lack one of the pattern's
//! words), and their matches folded into the same [`FileTally`]s and
//! [`Quote`]s a text search makes. A match is one quote at its first line,
//! carrying its last line when it spans more; `matches` counts every
//! match, `hits` the distinct lines they start on (what the page quotes,
//! and what I6 accounts for). Definitions come from the same trees, so no
//! file is parsed twice. Everything after this is the ranked pipeline's.

use std::collections::BTreeMap;
use std::io::Write;

use anyhow::Result;

use crate::defs::Def;
use crate::exit::ExitStatus;
use crate::graph::Site;
use crate::lang::Lang;
use crate::page::tally::{strip_terminator, FileTally, Quote};
use crate::paths::path_of;
use crate::rg::{run_plain, Flow};
use crate::search::collect::check_rg;
use crate::search::settings::SearchSettings;
use crate::shell;
use crate::structural::{Found, Keep, MatchSpan, StructuralPattern};

/// What the structural pass over the tree left.
#[derive(Debug, Default)]
pub struct Gathered {
    /// Files with at least one match, in path order.
    pub files: Vec<FileTally>,
    /// Files of the language that were read and searched (parsed, or
    /// skipped for lacking one of the pattern's words).
    pub parsed: u64,
    /// Definitions holding the matches of the files with matches, from
    /// the same parse, by path.
    pub defs: BTreeMap<Vec<u8>, Vec<Def>>,
    /// Set when rg could not list everything (exit 3).
    pub partial: Option<ExitStatus>,
    /// With a [`CallFilter`]: the attributed lines a kept match claimed.
    pub claimed: u64,
}

/// Whether the structural search for `lang` parses the file at `path`: the
/// files scout gives that language, and for C also the `.h` headers scout
/// otherwise reads as C++ (a C tree's headers are C).
pub fn searches(lang: Lang, path: &[u8]) -> bool {
    match Lang::from_path(path) {
        Some(found) if found == lang => true,
        Some(Lang::Cpp) => lang == Lang::C && path.ends_with(b".h"),
        _ => false,
    }
}

/// Lists the files, parses those of the pattern's language on every core,
/// and folds their matches.
pub fn gather(
    settings: &SearchSettings,
    pattern: &StructuralPattern,
    err: &mut dyn Write,
) -> Result<Gathered> {
    gather_within(settings, pattern, None, err)
}

/// The calls a scoped search keeps, by path as rg prints it: the code
/// graph's attributed sites (`--callers-of`); files not in it are not
/// parsed.
pub type CallFilter = BTreeMap<Vec<u8>, Vec<Site>>;

/// How many distinct lines hold the calls of `filter`: what a scoped
/// structural search's matches claim, or leave unmatched.
pub fn call_lines(filter: &CallFilter) -> u64 {
    filter
        .values()
        .map(|sites| {
            let lines: std::collections::BTreeSet<u32> = sites.iter().map(|s| s.line).collect();
            lines.len() as u64
        })
        .sum()
}

/// [`gather`], keeping only the matches that are an attributed call of
/// `only` ([`FileCalls`]) when it is given.
pub fn gather_within(
    settings: &SearchSettings,
    pattern: &StructuralPattern,
    only: Option<&CallFilter>,
    err: &mut dyn Write,
) -> Result<Gathered> {
    let (paths, partial) = list_files(settings, pattern.lang(), only, err)?;
    let want_defs = !settings.files_only && !settings.lexical;
    let results = parse_all(&paths, pattern, want_defs, settings.keep, only);
    let mut gathered = Gathered {
        partial,
        ..Gathered::default()
    };
    for result in results.into_iter().flatten() {
        gathered.parsed += 1;
        gathered.claimed += result.2;
        let Some(tally) = result.0 else {
            continue;
        };
        if let Some(defs) = result.1 {
            gathered.defs.insert(tally.path.clone(), defs);
        }
        gathered.files.push(tally);
    }
    Ok(gathered)
}

/// The attributed calls of one file, as a structural match is judged
/// against them: a match is kept when it *is* one of them (its node is
/// the call's node), or when the pattern itself spells the call's name
/// at that call (the name lies in the match, outside every capture:
/// `await $X.load()` holds the call `load`). A call in a capture
/// (`this.set(getCursor(x))` matched by `$X.set($A)`, the scope being
/// `getCursor`'s) does not make the match its own, nor does another
/// call on the same line.
pub struct FileCalls {
    calls: Vec<ScopedCall>,
    /// The lines of the calls the matches admitted so far are.
    claimed: std::cell::RefCell<std::collections::BTreeSet<u32>>,
}

#[derive(Debug)]
struct ScopedCall {
    line: u32,
    /// Byte offsets of the called name, and of the call's node.
    name: std::ops::Range<usize>,
    node: std::ops::Range<usize>,
    /// The pattern's text spells the name, as a word.
    spelled: bool,
}

impl FileCalls {
    /// The calls of `sites` in `source`, for `pattern`.
    pub fn new(sites: &[Site], source: &[u8], pattern: &StructuralPattern) -> FileCalls {
        let line_starts: Vec<usize> = std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', source).map(|i| i + 1))
            .collect();
        let calls = sites
            .iter()
            .filter_map(|site| {
                let start = line_starts.get(site.line as usize - 1)? + site.start as usize;
                let name = start..start + (site.end - site.start) as usize;
                let text = source.get(name.clone())?;
                Some(ScopedCall {
                    line: site.line,
                    spelled: spells_word(pattern.text.as_bytes(), text),
                    node: site.node.0 as usize..site.node.1 as usize,
                    name,
                })
            })
            .collect();
        FileCalls {
            calls,
            claimed: Default::default(),
        }
    }

    /// Whether `found` is one of the calls (the [`Keep`] of a scoped
    /// search or rewrite); the lines of the calls it is are claimed.
    pub fn admits(&self, found: &MatchSpan) -> bool {
        let lines = self.claimed_by(found);
        let admitted = !lines.is_empty();
        self.claimed.borrow_mut().extend(lines);
        admitted
    }

    /// How many distinct lines the admitted matches claimed.
    pub fn claimed(&self) -> u64 {
        self.claimed.borrow().len() as u64
    }

    /// The lines of the calls `found` is (none: the match is not kept).
    fn claimed_by(&self, found: &MatchSpan) -> Vec<u32> {
        let inside = |outer: &std::ops::Range<usize>, inner: &std::ops::Range<usize>| {
            outer.start <= inner.start && inner.end <= outer.end
        };
        self.calls
            .iter()
            .filter(|call| {
                inside(&found.range, &call.name)
                    && (call.node == found.range
                        || (call.spelled && !found.captured.iter().any(|c| inside(c, &call.name))))
            })
            .map(|call| call.line)
            .collect()
    }
}

/// Whether `text` holds `word` bounded by non-word bytes.
fn spells_word(text: &[u8], word: &[u8]) -> bool {
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80;
    memchr::memmem::find_iter(text, word).any(|at| {
        let end = at + word.len();
        (at == 0 || !is_word(text[at - 1])) && (end == text.len() || !is_word(text[end]))
    })
}

/// The files a structural search of `lang` parses, in path order: those
/// `rg --files` lists with the search's selection, of that language, and
/// in `only` when it is given; with the exit status to report when rg
/// could not list everything.
pub fn list_files(
    settings: &SearchSettings,
    lang: Lang,
    only: Option<&CallFilter>,
    err: &mut dyn Write,
) -> Result<(Vec<Vec<u8>>, Option<ExitStatus>)> {
    let mut paths: Vec<Vec<u8>> = Vec::new();
    let mut listed = 0u64;
    let outcome = run_plain(&settings.rg, &settings.flags.file_list(), |line| {
        let path = strip_terminator(line);
        listed += 1;
        if searches(lang, path) && only.is_none_or(|o| o.contains_key(path)) {
            paths.push(path.to_vec());
        }
        Flow::Continue
    })?;
    let partial = check_rg(settings, &outcome, err)?;
    // No file of the language to parse is nothing searched (exit 2, as
    // a glob that leaves no file), not "no match". A scope that
    // attributes no call is another matter: that is no match.
    if only.is_none() && paths.is_empty() && partial.is_none() {
        anyhow::bail!(
            "nothing was searched: none of the {} the search lists is a {} file; name --lang for the files there are, or the paths that hold {} files",
            crate::render::scope::plural(listed, "file", "files"),
            lang.name(),
            lang.name()
        );
    }
    // rg lists files in the order its threads find them.
    paths.sort();
    Ok((paths, partial))
}

/// One file's outcome: its tally when something matched, with its
/// definitions, and how many of its attributed lines a kept match
/// claimed; `None` when it could not be read or is not UTF-8 (as
/// ast-grep, scout does not parse those).
type Parsed = Option<(Option<FileTally>, Option<Vec<Def>>, u64)>;

/// Parses every file once, on as many threads as there are cores, each
/// taking the next file as it finishes one (files differ wildly in size).
fn parse_all(
    paths: &[Vec<u8>],
    pattern: &StructuralPattern,
    want_defs: bool,
    keep: usize,
    only: Option<&CallFilter>,
) -> Vec<Parsed> {
    crate::workers::map_on_cores(paths, |path| {
        let sites = only.and_then(|o| o.get(path));
        parse_one(path, pattern, want_defs, keep, sites.map(Vec::as_slice))
    })
}

/// Reads, parses and tallies one file (its source is dropped here, so
/// memory holds one source per thread, not one per match).
fn parse_one(
    path: &[u8],
    pattern: &StructuralPattern,
    want_defs: bool,
    keep: usize,
    sites: Option<&[Site]>,
) -> Parsed {
    let bytes = std::fs::read(path_of(path)).ok()?;
    let source = String::from_utf8(bytes).ok()?;
    let calls = sites.map(|sites| FileCalls::new(sites, source.as_bytes(), pattern));
    let admits = |found: &MatchSpan| calls.as_ref().is_none_or(|c| c.admits(found));
    let scoped: Keep<'_> = calls.is_some().then_some(&admits);
    let searched = pattern.search(&source, want_defs, scoped);
    let claimed = calls.as_ref().map_or(0, FileCalls::claimed);
    if searched.found.is_empty() {
        return Some((None, None, claimed));
    }
    let tally = tally(
        path.to_vec(),
        pattern.lang(),
        &searched.found,
        source.as_bytes(),
        keep,
    );
    Some((Some(tally), searched.defs, claimed))
}

/// A file's tally: every match counted, the first `keep` lines quoted
/// (matches carry no score of their own, so earlier lines first), each
/// cut around its first match on that line.
fn tally(path: Vec<u8>, lang: Lang, found: &[Found], source: &[u8], keep: usize) -> FileTally {
    let mut lines: Vec<u64> = found.iter().map(|f| f.line).collect();
    lines.sort_unstable();
    lines.dedup();
    let mut quotes = Vec::new();
    let mut wanted = lines.iter().take(keep).copied().peekable();
    for (index, line) in source.split(|&b| b == b'\n').enumerate() {
        let number = index as u64 + 1;
        let Some(&want) = wanted.peek() else {
            break;
        };
        if number != want {
            continue;
        }
        wanted.next();
        let first = found
            .iter()
            .filter(|f| f.line == number)
            .min_by_key(|f| (f.span.0, std::cmp::Reverse(f.last_line)));
        let (span, last_line) = first.map_or(((0, 0), number), |f| (f.span, f.last_line));
        // Its `\r`, if any, is quoted too (I4).
        quotes.push(Quote {
            last_line: if last_line > number { last_line } else { 0 },
            ..Quote::around(number, line, span)
        });
    }
    FileTally {
        path,
        lang: Some(lang),
        hits: lines.len() as u64,
        matches: found.len() as u64,
        quotes,
        ..FileTally::default()
    }
}

/// The command that prints every match (no budget, every line of every
/// file, nothing collapsed by the session's memory), and the same for one
/// file (`FILE` standing for it).
pub fn repro_commands(settings: &SearchSettings, pattern: &StructuralPattern) -> (String, String) {
    let mut words = vec![
        "scout".to_string(),
        "search".into(),
        "--structural".into(),
        "--lang".into(),
        pattern.lang().name().into(),
        "--budget-tokens".into(),
        "0".into(),
        "-m".into(),
        "10000".into(),
        "--again".into(),
    ];
    words.extend(selection_words(&settings.flags));
    words.extend(["-e".into(), shell::quote(pattern.text.as_bytes())]);
    with_paths(words, &settings.flags)
}

/// The file selection of a scout command that repeats a search: `-g`,
/// `--type`, `--hidden`, each quoted for the shell.
pub fn selection_words(flags: &crate::rg::SearchFlags) -> Vec<String> {
    let mut words = Vec::new();
    for glob in &flags.globs {
        words.extend(["-g".into(), shell::quote(glob.as_bytes())]);
    }
    for ty in &flags.types {
        words.extend(["--type".into(), shell::quote(ty.as_bytes())]);
    }
    if flags.hidden {
        words.push("--hidden".into());
    }
    words
}

/// A repeating command with the search's paths, and the same for one
/// file (`FILE` standing for it).
pub fn with_paths(mut words: Vec<String>, flags: &crate::rg::SearchFlags) -> (String, String) {
    let file_command = format!("{} FILE", words.join(" "));
    for path in &flags.paths {
        words.push(shell::quote(path.as_encoded_bytes()));
    }
    (words.join(" "), file_command)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_searches_its_headers_and_cpp_keeps_its_own() {
        assert!(searches(Lang::C, b"src/server.h"));
        assert!(searches(Lang::C, b"src/server.c"));
        assert!(!searches(Lang::C, b"src/a.cpp"));
        assert!(searches(Lang::Cpp, b"src/a.h"));
        assert!(searches(Lang::TypeScript, b"a.mts"));
        assert!(!searches(Lang::TypeScript, b"a.tsx"));
    }

    #[test]
    fn a_tally_counts_every_match_and_quotes_each_line_once() {
        let source = b"a.unwrap().unwrap();\nb\nc.unwrap(\n).x;\n";
        let found = [
            Found {
                line: 1,
                last_line: 1,
                span: (0, 19),
            },
            Found {
                line: 1,
                last_line: 1,
                span: (0, 10),
            },
            Found {
                line: 3,
                last_line: 4,
                span: (0, 9),
            },
        ];
        let tally = tally(b"x.rs".to_vec(), Lang::Rust, &found, source, 8);
        assert_eq!((tally.hits, tally.matches), (2, 3));
        assert_eq!(tally.quotes.len(), 2);
        assert_eq!(tally.quotes[0].text, b"a.unwrap().unwrap();");
        assert_eq!((tally.quotes[1].line, tally.quotes[1].last_line), (3, 4));
    }
}
