//! The code graph: who calls a definition (`--callers-of PATH#SYMBOL`)
//! and what depends on it (`--impact`), without an index.
//!
//! rg lists the files that spell the name ([`crate::rg`]); the parsers
//! read their definitions, calls, imports and declared types
//! ([`facts`], through [`crate::defs`]); each call site is attributed
//! through a cascade of stated reasons ([`resolve`], with module paths
//! from [`modules`]): to the target, to another definition (which), or
//! "cannot tell" (why), never silently counted for or against. Nothing
//! binds across languages. The result is a set of attributed lines per
//! file ([`Scope`]), which [`tallies`] turns into the same tallies a text
//! search makes: `--callers-of` is one filter before rank and page, and
//! the page is the same page.
//!
//! The definition asked for is found by [`target`]; [`impact`] walks
//! its dependents level by level; [`cache`] keeps each file's facts.
//! Python, JavaScript/TypeScript, Rust, Go, Java and C have a graph; for
//! other languages the calls are matched by name only, and the page says
//! so.

pub mod cache;
pub mod facts;
pub mod impact;
pub mod modules;
pub mod resolve;
mod target;

pub use crate::page::scope::{Dependent, Elsewhere, Level, Scope, Site, Target, Unsettled};
pub use impact::{impact, DEFAULT_DEPTH};
pub use target::{resolve_target, SymbolSpec};

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use anyhow::{bail, Result};

use crate::defs::DefKind;
use crate::lang::Lang;
use crate::page::tally::{strip_terminator, FileTally, Quote};
use crate::paths::path_of;
use crate::rg::{run_plain, Flow, Matcher, Rg, SearchFlags};
use facts::Facts;
use resolve::{Files, Resolver, Verdict};

/// The files that spell a name read at most, by default, for one
/// definition's callers (`--graph-files`): those nearest the definition
/// first, the rest counted and said on the page. A name spelled in fewer
/// is read whole. Cold, on two cores, 418 Python files of a 1.3 GB tree
/// took 2 s to read past rg's pass, and the 2,000 nearest of 4,828 files
/// 8.5 s (BENCHMARKS.md).
pub const FILES_BUDGET: usize = 1000;

/// Whether the graph binds calls in `lang`.
pub fn graphed(lang: Lang) -> bool {
    matches!(
        lang,
        Lang::Python
            | Lang::JavaScript
            | Lang::TypeScript
            | Lang::Tsx
            | Lang::Rust
            | Lang::Go
            | Lang::Java
            | Lang::C
    )
}

/// Whether `--callers-of` and `--impact` read calls in `lang` at all:
/// bound by the graph ([`graphed`]), or matched by name as `name(`. In
/// Swift, Scala, Elixir, Haskell, Zig, Bash and Dart scout parses the
/// definitions but no calls; a match by name would miss the calls
/// written without parentheses (`f x`, `log "msg"`, a trailing closure)
/// and count mentions in comments, so the request says so instead of
/// guessing.
pub fn finds_calls(lang: Lang) -> bool {
    !matches!(
        lang,
        Lang::Swift
            | Lang::Scala
            | Lang::Elixir
            | Lang::Haskell
            | Lang::Zig
            | Lang::Bash
            | Lang::Dart
    )
}

/// Whether a call in a file of `a` may reach a definition in `b`.
pub fn same_family(a: Lang, b: Lang) -> bool {
    let family = |l: Lang| match l {
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => Lang::TypeScript,
        Lang::Lua | Lang::Luau => Lang::Luau,
        other => other,
    };
    family(a) == family(b)
}

/// The language a path is read in for the graph (a C tree's `.h` is C
/// when the target is C).
fn graph_lang(path: &[u8], target: Lang) -> Option<Lang> {
    let lang = Lang::from_path(path)?;
    if lang == Lang::Cpp && target == Lang::C && path.ends_with(b".h") {
        return Some(Lang::C);
    }
    Some(lang)
}

/// A path for messages: relative to the working directory when under it.
pub fn display(path: &Path) -> String {
    // The working directory and its canonical form, made again only when
    // it moved: the thread's (`scout mcp` serves each call in its root,
    // so calls in two roots at once remake it in turn, and stay right).
    static CWD: std::sync::Mutex<Option<(PathBuf, Option<PathBuf>)>> = std::sync::Mutex::new(None);
    let now = std::env::current_dir().ok();
    let cwd = {
        let mut known = CWD.lock().unwrap_or_else(|e| e.into_inner());
        match (&*known, &now) {
            (Some((was, canonical)), Some(now)) if was == now => canonical.clone(),
            _ => {
                let canonical = now.as_ref().and_then(|c| std::fs::canonicalize(c).ok());
                *known = now.map(|now| (now, canonical.clone()));
                canonical
            }
        }
    };
    match cwd.as_deref().and_then(|c| path.strip_prefix(c).ok()) {
        Some(rel) => rel.display().to_string(),
        None => path.display().to_string(),
    }
}

/// Lists the files that spell `name` as a word, with the search's file
/// selection, in path order.
pub fn files_spelling(rg: &Rg, flags: &SearchFlags, names: &[String]) -> Result<Vec<Vec<u8>>> {
    let listing = SearchFlags {
        patterns: names.to_vec(),
        fixed_strings: true,
        ignore_case: false,
        word: true,
        ..flags.clone()
    };
    let mut paths = Vec::new();
    let outcome = run_plain(rg, &listing.files_with_matches(), |line| {
        paths.push(strip_terminator(line).to_vec());
        Flow::Continue
    })?;
    if let Some(reason) = outcome.rejection(&[]) {
        bail!("rg refused the search:\n{reason}");
    }
    paths.sort();
    Ok(paths)
}

/// Parses `paths` on every core; each entry is the canonical path and the
/// facts, or `None` for a file that cannot be read.
fn read_all(paths: &[(Vec<u8>, Lang)], cache: &cache::FactsCache) -> Vec<Option<(PathBuf, Facts)>> {
    crate::workers::map_on_cores(paths, |(path, lang)| {
        let canon = std::fs::canonicalize(path_of(path)).ok()?;
        let facts = cache.facts(&canon, *lang)?;
        Some((canon, facts))
    })
}

/// The files of the target's family that spell its name, read, with the
/// facts kept in `files` for the cascade.
struct Candidates {
    /// (path as rg printed it, canonical path, facts).
    files: Vec<(Vec<u8>, PathBuf, Rc<Facts>)>,
    listed: u64,
    /// Files of the family the budget left unread.
    unread: u64,
    /// Other names the target is re-exported under (`export { load as
    /// fetchIt }`): the files spelling them are read too.
    aliases: BTreeSet<String>,
}

fn candidates(
    rg: &Rg,
    flags: &SearchFlags,
    target: &Target,
    files: &Files,
    max_files: Option<usize>,
) -> Result<Candidates> {
    let listed = files_spelling(rg, flags, std::slice::from_ref(&target.def.short))?;
    let mut wanted: Vec<(Vec<u8>, Lang)> = listed
        .iter()
        .filter_map(|p| {
            let lang = graph_lang(p, target.lang)?;
            same_family(lang, target.lang).then(|| (p.clone(), lang))
        })
        .collect();
    let mut unread = 0;
    if let Some(keep) = max_files.filter(|&keep| wanted.len() > keep) {
        unread = (wanted.len() - keep) as u64;
        nearest_first(&mut wanted, &target.canon);
        wanted.truncate(keep);
        wanted.sort();
    }
    let mut out = Vec::new();
    let read = |wanted: &[(Vec<u8>, Lang)], out: &mut Vec<(Vec<u8>, PathBuf, Rc<Facts>)>| {
        for ((path, _), read) in wanted.iter().zip(read_all(wanted, files.cache())) {
            if let Some((canon, facts)) = read {
                let facts = Rc::new(facts);
                files.insert(canon.clone(), facts.clone());
                out.push((path.clone(), canon, facts));
            }
        }
    };
    read(&wanted, &mut out);
    // A file that re-exports the target under another name spells the
    // name; its importers may spell only the other one.
    let name = target.def.short.as_str();
    let aliases: BTreeSet<String> = out
        .iter()
        .flat_map(|(_, _, f)| f.imports.iter())
        .filter(|i| i.reexport && i.name.as_deref() == Some(name))
        .filter(|i| !i.local.is_empty() && i.local != name)
        .map(|i| i.local.clone())
        .collect();
    let mut listed = listed.len() as u64;
    if !aliases.is_empty() {
        let names: Vec<String> = aliases.iter().cloned().collect();
        let more = files_spelling(rg, flags, &names)?;
        let known: BTreeSet<&Vec<u8>> = out.iter().map(|(p, _, _)| p).collect();
        let extra: Vec<(Vec<u8>, Lang)> = more
            .iter()
            .filter(|p| !known.contains(p))
            .filter_map(|p| {
                let lang = graph_lang(p, target.lang)?;
                same_family(lang, target.lang).then(|| (p.clone(), lang))
            })
            .collect();
        listed += extra.len() as u64;
        read(&extra, &mut out);
        out.sort_by(|a, b| a.0.cmp(&b.0));
    }
    Ok(Candidates {
        files: out,
        listed,
        unread,
        aliases,
    })
}

/// Orders `paths` (as rg printed them, in path order) by how many
/// leading directories they share with `definition`'s: the definition's
/// own file, then its directory, its parent's, and so on; in path order
/// within each. In a monorepo the definition's own component comes first.
fn nearest_first(paths: &mut [(Vec<u8>, Lang)], definition: &Path) {
    let cwd = std::env::current_dir().unwrap_or_default();
    let home: Vec<_> = definition
        .parent()
        .map(|dir| dir.components().collect())
        .unwrap_or_default();
    let nearness = |path: &[u8]| {
        let on_disk = path_of(path);
        let absolute = if on_disk.is_relative() {
            cwd.join(&on_disk)
        } else {
            on_disk
        };
        let own = absolute == definition;
        let dirs = absolute
            .parent()
            .map(|dir| {
                dir.components()
                    .filter(|c| !matches!(c, std::path::Component::CurDir))
                    .zip(&home)
                    .take_while(|(a, b)| a == *b)
                    .count()
            })
            .unwrap_or(0);
        (!own, std::cmp::Reverse(dirs))
    };
    paths.sort_by_cached_key(|(path, _)| nearness(path));
}

/// Every call of `target`'s name in the files that spell it, attributed.
///
/// `cache_dir` is scout's cache directory: each file's facts are kept
/// there by its stamp ([`cache`]); `None` parses every file.
pub fn callers(
    rg: &Rg,
    flags: &SearchFlags,
    target: Target,
    cache_dir: Option<PathBuf>,
    max_files: Option<usize>,
    proven_only: bool,
) -> Result<Scope> {
    let files = Files::new(target.lang, cache::FactsCache::new(cache_dir));
    callers_with(rg, flags, target, &files, false, max_files, proven_only)
}

/// The callers of `target`, reading at most `max_files` of the files
/// that spell its name (nearest first; `None`: all of them); with
/// `proven_only`, those attributed by a name alone are left out.
fn callers_with(
    rg: &Rg,
    flags: &SearchFlags,
    mut target: Target,
    files: &Files,
    impact: bool,
    max_files: Option<usize>,
    proven_only: bool,
) -> Result<Scope> {
    let found = candidates(rg, flags, &target, files, max_files)?;
    if rg.cancelled() {
        bail!("cancelled");
    }
    let name = target.def.short.clone();
    if target.lang == Lang::C {
        target.c_definers = found
            .files
            .iter()
            .filter(|(_, _, f)| {
                f.defs.iter().any(|d| {
                    d.short == name && d.kind == DefKind::Function && !f.statics.contains(&name)
                })
            })
            .map(|(_, canon, _)| canon.clone())
            .collect();
        target.c_renames = found
            .files
            .iter()
            .filter_map(|(_, canon, f)| {
                let (_, to) = f.macros.iter().find(|(from, _)| *from == name)?;
                Some((canon.clone(), to.clone()))
            })
            .collect();
    }
    let by_name_only = !graphed(target.lang);
    let mut scope = Scope {
        impact,
        attributed: BTreeMap::new(),
        elsewhere: Vec::new(),
        cannot_tell: Vec::new(),
        proven_only,
        left_by_name: Vec::new(),
        files_listed: found.listed,
        files_read: found.files.len() as u64,
        files_unread: found.unread,
        files_budget: max_files.filter(|_| found.unread > 0),
        by_name_only,
        levels: Vec::new(),
        stopped: None,
        not_matched: 0,
        walked: None,
        target: target.clone(),
    };
    // The name is the tree's own when the target is its one definition
    // in every file that spells it (none left unread).
    let definitions = found
        .files
        .iter()
        .map(|(_, _, f)| f.defs.iter().filter(|d| d.short == name).count())
        .sum::<usize>();
    let resolver = Resolver {
        target: &target,
        files,
        unique_name: found.unread == 0
            && definitions == 1
            && !resolve::LIBRARY_METHODS.contains(&name.as_str()),
        depth: Default::default(),
    };
    let mut elsewhere: BTreeMap<Where, u64> = BTreeMap::new();
    // A default import names the target only when its file exports the
    // target as its default (`import main, { helper }`: `main` is no
    // `helper`); with no default export known, only under its own name,
    // as the resolver reads it.
    let target_is_default = files
        .get(&target.canon)
        .is_some_and(|f| f.default_export.as_deref() == Some(name.as_str()));
    for (path, canon, facts) in &found.files {
        // The name, and the local names it is imported under.
        let mut names: BTreeSet<&str> = BTreeSet::from([name.as_str()]);
        for import in &facts.imports {
            if import.local.is_empty() {
                continue;
            }
            let default_of_target = target_is_default
                && import.name.as_deref() == Some("default")
                && files.place(target.lang, canon, &import.module)
                    == modules::Place::File(target.canon.clone());
            let alias = import
                .name
                .as_deref()
                .is_some_and(|n| found.aliases.contains(n));
            if import.name.as_deref() == Some(name.as_str()) || default_of_target || alias {
                names.insert(import.local.as_str());
            }
        }
        for call in facts
            .calls
            .iter()
            .filter(|c| names.contains(c.name.as_str()))
        {
            // The definition's own line (a C prototype's name) is no call.
            if canon == &target.canon
                && call.line == target.def.name_line
                && call.callee == facts::Callee::Bare
            {
                continue;
            }
            let verdict = if by_name_only {
                // A definition's own line spells `name(` too.
                if facts
                    .defs
                    .iter()
                    .any(|d| d.name_line == call.line && d.short == call.name)
                {
                    continue;
                }
                Verdict::Target("matched by name only: no code graph for this language")
            } else {
                resolver.attribute(canon, facts, call)
            };
            match verdict {
                Verdict::ByName(reason) if proven_only => scope.left_by_name.push(Unsettled {
                    path: String::from_utf8_lossy(path).into_owned(),
                    line: call.line,
                    reason,
                }),
                Verdict::Target(reason) | Verdict::ByName(reason) => scope
                    .attributed
                    .entry(path.clone())
                    .or_default()
                    .push(Site {
                        line: call.line,
                        start: call.start,
                        end: call.end,
                        reason,
                        by_name: matches!(verdict, Verdict::ByName(_)),
                        node: call.node,
                    }),
                Verdict::Other { path: other, def } => {
                    let definition = Where::Definition {
                        path: display(&other),
                        line: def.name_line,
                        name: def.name.clone(),
                    };
                    *elsewhere.entry(definition).or_default() += 1;
                }
                Verdict::Outside(reason) => {
                    *elsewhere.entry(Where::Outside(reason)).or_default() += 1;
                }
                Verdict::CannotTell(reason) => scope.cannot_tell.push(Unsettled {
                    path: String::from_utf8_lossy(path).into_owned(),
                    line: call.line,
                    reason,
                }),
            }
        }
    }
    for sites in scope.attributed.values_mut() {
        sites.sort_by_key(|s| (s.line, s.start));
    }
    let mut grouped: Vec<Elsewhere> = elsewhere
        .into_iter()
        .map(|(to, count)| match to {
            Where::Definition { path, line, name } => Elsewhere {
                path: Some(path),
                line: Some(line),
                name: Some(name),
                reason: None,
                count,
            },
            Where::Outside(reason) => Elsewhere {
                path: None,
                line: None,
                name: None,
                reason: Some(reason),
                count,
            },
        })
        .collect();
    grouped.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.path.cmp(&b.path)));
    scope.elsewhere = grouped;
    Ok(scope)
}

/// Where calls attributed elsewhere went. Ordered as the page lists them
/// among equal counts: reasons first, then definitions by path.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Where {
    /// Not a definition in the tree: why (`a method of another type`).
    Outside(String),
    /// Another definition: its file, name line and name.
    Definition {
        path: String,
        line: u32,
        name: String,
    },
}

/// The tallies of the attributed sites: every file with an attributed
/// line that the search's pattern matches (`matcher`; `None` when no
/// pattern was given, every attributed line then), its first `keep` lines
/// quoted, each cut around its first match (or the called name). Counts
/// the attributed lines the pattern did not match into the scope.
pub fn tallies(scope: &mut Scope, matcher: Option<&Matcher>, keep: usize) -> Vec<FileTally> {
    let mut tallies = Vec::new();
    let mut not_matched = 0;
    for (path, sites) in &scope.attributed {
        let Ok(source) = std::fs::read(path_of(path)) else {
            continue;
        };
        let lines: Vec<&[u8]> = source.split(|&b| b == b'\n').collect();
        let mut tally = FileTally {
            path: path.clone(),
            lang: Lang::from_path(path),
            ..FileTally::default()
        };
        let mut previous = 0;
        for site in sites {
            if site.line == previous {
                continue;
            }
            previous = site.line;
            let Some(line) = lines.get(site.line as usize - 1) else {
                continue;
            };
            // Matched without its `\r`, quoted with it (I4).
            let body = *line;
            let mut spans = Vec::new();
            match matcher {
                Some(m) => m.spans(strip_terminator(body), &mut spans),
                None => spans.extend(
                    sites
                        .iter()
                        .filter(|s| s.line == site.line)
                        .map(|s| (s.start as usize, s.end as usize)),
                ),
            }
            if spans.is_empty() {
                not_matched += 1;
                continue;
            }
            tally.hits += 1;
            tally.matches += spans.len() as u64;
            tally.word_hits += 1;
            tally.exact_word_hits += 1;
            tally.covered = 1;
            if tally.quotes.len() < keep {
                let span = spans[0];
                let span = (span.0.min(body.len()), span.1.min(body.len()));
                tally
                    .quotes
                    .push(Quote::around(u64::from(site.line), body, span));
            }
        }
        if tally.hits > 0 {
            tallies.push(tally);
        }
    }
    scope.not_matched = not_matched;
    tallies
}
