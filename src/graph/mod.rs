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
//! Python, JavaScript/TypeScript, Rust, Go, Java and C have a graph; for
//! other languages the calls are matched by name only, and the page says
//! so.

pub mod cache;
pub mod facts;
pub mod modules;
pub mod resolve;

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use anyhow::{bail, Result};
use serde::Serialize;

use crate::defs::{Def, DefKind};
use crate::lang::Lang;
use crate::rg::{run_plain, Flow, Matcher, Rg, SearchFlags};
use crate::search::fold::{cut_around, strip_terminator, FileTally, Quote};
use crate::search::path_of;
use facts::Facts;
use resolve::{Files, Resolver, Verdict};

/// `--depth`'s default for `--impact`.
pub const DEFAULT_DEPTH: u32 = 2;

/// Dependents a level of `--impact` follows at most: past them the walk
/// stops and says so.
pub const LEVEL_CAP: usize = 40;

/// A `--callers-of` or `--impact` argument as typed: `PATH#SYMBOL`
/// (`SYMBOL` a name, `Type.method` or `Type::method`) or `PATH:LINE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymbolSpec {
    pub text: String,
    pub path: OsString,
    pub symbol: SymbolRef,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SymbolRef {
    Name(String),
    /// 1-based line of the definition's name (or any line of its
    /// signature before the body).
    Line(u32),
}

impl SymbolSpec {
    /// Reads `PATH#SYMBOL` or `PATH:LINE`.
    pub fn parse(text: &str) -> Result<SymbolSpec> {
        if let Some((path, symbol)) = text.rsplit_once('#') {
            if path.is_empty() || symbol.is_empty() {
                bail!("{text:?}: expected PATH#SYMBOL (e.g. src/config.py#load, src/app.ts#App.render) or PATH:LINE");
            }
            return Ok(SymbolSpec {
                text: text.to_string(),
                path: path.into(),
                symbol: SymbolRef::Name(symbol.replace("::", ".")),
            });
        }
        if let Some((path, line)) = text.rsplit_once(':') {
            if let Ok(line) = line.parse::<u32>() {
                if !path.is_empty() && line > 0 {
                    return Ok(SymbolSpec {
                        text: text.to_string(),
                        path: path.into(),
                        symbol: SymbolRef::Line(line),
                    });
                }
            }
        }
        bail!("{text:?}: expected PATH#SYMBOL (e.g. src/config.py#load, src/app.ts#App.render) or PATH:LINE")
    }
}

/// The definition whose dependents are asked for.
#[derive(Debug, Clone)]
pub struct Target {
    /// The spec as typed.
    pub spec: String,
    /// The file as given, and its canonical path.
    pub path: Vec<u8>,
    pub canon: PathBuf,
    /// The grammar the file is read with.
    pub lang: Lang,
    /// The definition (the implementation, among overload declarations).
    pub def: Def,
    /// Name lines of every declaration that is this symbol (overload
    /// stubs and signatures, then the implementation).
    pub lines: Vec<u32>,
    /// The class the method belongs to, as its definitions name it.
    pub owner: Option<String>,
    /// C: the function is `static` (invisible to other files).
    pub is_static: bool,
    /// C: files with a non-static definition of the name (canonical).
    pub c_definers: Vec<PathBuf>,
}

impl Target {
    /// `function load (src/config.py:12)`.
    pub fn title(&self) -> String {
        format!(
            "{} ({}:{})",
            self.def.title(),
            String::from_utf8_lossy(&self.path),
            self.def.name_line
        )
    }
}

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
    static CWD: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    let cwd = CWD.get_or_init(|| {
        std::env::current_dir()
            .ok()
            .and_then(|c| std::fs::canonicalize(c).ok())
    });
    match cwd.as_deref().and_then(|c| path.strip_prefix(c).ok()) {
        Some(rel) => rel.display().to_string(),
        None => path.display().to_string(),
    }
}

/// Finds the definition `spec` names; an error lists the file's
/// candidates, with their lines.
///
/// The file's facts come through `cache` (and stay there for the
/// attribution that follows).
pub fn resolve_target(spec: &SymbolSpec, cache: &cache::FactsCache) -> Result<Target> {
    let path = Path::new(&spec.path);
    let shown = spec.path.to_string_lossy();
    let meta =
        std::fs::metadata(path).map_err(|e| anyhow::anyhow!("{}: {shown}: {e}", spec.text))?;
    if !meta.is_file() {
        bail!(
            "{}: {shown} is not a file; name the file that defines the symbol",
            spec.text
        );
    }
    let bytes = spec.path.as_encoded_bytes();
    let Some(lang) = Lang::from_path(bytes) else {
        bail!("{}: scout does not know the language of {shown}", spec.text);
    };
    let lang = if lang == Lang::Cpp && bytes.ends_with(b".h") {
        Lang::C
    } else {
        lang
    };
    let source = std::fs::read(path)?;
    let canon = std::fs::canonicalize(path)?;
    let facts = cache
        .facts(&canon, lang)
        .unwrap_or_else(|| facts::extract(lang, &source));
    let defs: Vec<Def> = facts
        .defs
        .iter()
        .filter(|d| d.kind != DefKind::Impl)
        .cloned()
        .collect();
    let listing = |defs: &[&Def]| {
        let items: Vec<String> = defs
            .iter()
            .take(30)
            .map(|d| format!("{} ({})", d.title(), d.name_line))
            .collect();
        let more = defs.len().saturating_sub(30);
        if more > 0 {
            format!("{} (+{more} more)", items.join(", "))
        } else {
            items.join(", ")
        }
    };
    let all: Vec<&Def> = defs.iter().collect();
    let matches: Vec<&Def> = match &spec.symbol {
        SymbolRef::Name(name) => {
            let dotted = |d: &Def| d.name.replace("::", ".");
            let exact: Vec<&Def> = defs.iter().filter(|d| dotted(d) == *name).collect();
            if exact.is_empty() && !name.contains('.') {
                defs.iter().filter(|d| d.short == *name).collect()
            } else {
                exact
            }
        }
        SymbolRef::Line(line) => {
            let on: Vec<&Def> = defs.iter().filter(|d| d.name_line == *line).collect();
            if on.is_empty() {
                defs.iter()
                    .filter(|d| d.start_line <= *line && *line <= d.name_line)
                    .collect()
            } else {
                on
            }
        }
    };
    // Among same-named definitions, the file's own (top-level) one is
    // the name's: a nested helper of that name is picked by its line.
    let top: Vec<&Def> = matches
        .iter()
        .copied()
        .filter(|d| {
            !all.iter().any(|p| {
                p.start_line <= d.start_line
                    && d.end_line <= p.end_line
                    && p.name_line != d.name_line
            })
        })
        .collect();
    let matches = if matches.len() > 1 && top.len() == 1 && !overloads(&matches, &source) {
        top
    } else {
        matches
    };
    let chosen: Vec<&Def> = match matches.len() {
        0 if all.is_empty() => bail!(
            "{}: {shown} has no definitions scout can parse (a prototype or a declaration is not one: name the file that defines it)",
            spec.text
        ),
        0 => bail!(
            "{}: {shown} does not define it; its definitions: {}",
            spec.text,
            listing(&all)
        ),
        1 => matches,
        _ if overloads(&matches, &source) => matches,
        _ => bail!(
            "{}: {shown} defines it {} times: {}; name one by its line, as {shown}:LINE{}",
            spec.text,
            matches.len(),
            listing(&matches),
            if matches.iter().any(|d| d.kind == DefKind::Method) {
                format!(", or a method as {shown}#Type.name")
            } else {
                String::new()
            }
        ),
    };
    let def = (*chosen.last().expect("one at least")).clone();
    let owner = resolve::owner_of(&def).map(str::to_string);
    let is_static = lang == Lang::C && facts.statics.contains(&def.short);
    Ok(Target {
        spec: spec.text.clone(),
        path: bytes.to_vec(),
        canon,
        lang,
        lines: chosen.iter().map(|d| d.name_line).collect(),
        def,
        owner,
        is_static,
        c_definers: Vec::new(),
    })
}

/// Whether same-named definitions are one function's overload
/// declarations: Python `@overload` stubs before the implementation,
/// TypeScript signatures (one line, ending in `;`) before it.
fn overloads(defs: &[&Def], source: &[u8]) -> bool {
    let lines: Vec<&[u8]> = source.split(|&b| b == b'\n').collect();
    let text = |from: u32, to: u32| -> Vec<u8> {
        lines
            .get(from as usize - 1..(to as usize).min(lines.len()))
            .map(|l| l.join(&b'\n'))
            .unwrap_or_default()
    };
    let same = defs
        .windows(2)
        .all(|w| w[0].name == w[1].name && w[0].kind == w[1].kind);
    same && defs[..defs.len() - 1].iter().all(|d| {
        let head = text(d.start_line, d.name_line);
        let whole = text(d.start_line, d.end_line);
        let trimmed = whole.trim_ascii_end();
        contains(&head, b"overload") || (trimmed.ends_with(b";") && !contains(&whole, b"{"))
    })
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// One call site attributed to the target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    /// 1-based line, and byte columns of the called name in it.
    pub line: u32,
    pub start: u32,
    pub end: u32,
    /// The cascade's step that settled it.
    pub reason: &'static str,
}

/// A call site the cascade could not settle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unsettled {
    pub path: String,
    pub line: u32,
    pub reason: &'static str,
}

/// Calls attributed elsewhere, grouped by where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Elsewhere {
    /// The other definition's file and name line, and its name; or,
    /// for what is not a definition in the tree, `reason` alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub count: u64,
}

/// One definition that depends on the target, at some level of
/// `--impact`.
#[derive(Debug, Clone)]
pub struct Dependent {
    /// The file as rg printed it.
    pub path: Vec<u8>,
    /// The enclosing named definition; `None` for calls at a file's top
    /// level (a script, a module's set-up code).
    pub def: Option<Def>,
    pub test: bool,
    /// Call sites of the level above inside it.
    pub sites: u64,
}

/// One level of `--impact`: 1 for the target's callers, 2 for theirs…
#[derive(Debug, Clone)]
pub struct Level {
    pub depth: u32,
    pub dependents: Vec<Dependent>,
}

/// What the graph made of every call of the name in the files that spell
/// it.
#[derive(Debug, Clone)]
pub struct Scope {
    pub target: Target,
    /// `--impact` (else `--callers-of`).
    pub impact: bool,
    /// Attributed sites by file (the path as rg printed it), in line order.
    pub attributed: BTreeMap<Vec<u8>, Vec<Site>>,
    pub elsewhere: Vec<Elsewhere>,
    pub cannot_tell: Vec<Unsettled>,
    /// Files rg listed for spelling the name, and of those, files read in
    /// the target's language family.
    pub files_listed: u64,
    pub files_read: u64,
    /// Set when the language has no graph: calls are matched by name.
    pub by_name_only: bool,
    /// `--impact`: the levels walked, and why the walk stopped short.
    pub levels: Vec<Level>,
    pub stopped: Option<String>,
    /// Attributed lines the search pattern did not match (set by
    /// [`tallies`]).
    pub not_matched: u64,
    /// `--impact` with paths: the tree the walk searched instead (the
    /// page keeps the paths).
    pub walked: Option<String>,
}

impl Scope {
    pub fn attributed_count(&self) -> u64 {
        self.attributed.values().map(|s| s.len() as u64).sum()
    }
}

/// Lists the files that spell `name` as a word, with the search's file
/// selection, in path order.
fn files_spelling(rg: &Rg, flags: &SearchFlags, names: &[String]) -> Result<Vec<Vec<u8>>> {
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
    if let Some(reason) = outcome.regex_error(&[]) {
        bail!("rg: {reason}");
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
}

fn candidates(rg: &Rg, flags: &SearchFlags, target: &Target, files: &Files) -> Result<Candidates> {
    let listed = files_spelling(rg, flags, std::slice::from_ref(&target.def.short))?;
    let wanted: Vec<(Vec<u8>, Lang)> = listed
        .iter()
        .filter_map(|p| {
            let lang = graph_lang(p, target.lang)?;
            same_family(lang, target.lang).then(|| (p.clone(), lang))
        })
        .collect();
    let mut out = Vec::new();
    for ((path, _), read) in wanted.iter().zip(read_all(&wanted, files.cache())) {
        if let Some((canon, facts)) = read {
            let facts = Rc::new(facts);
            files.insert(canon.clone(), facts.clone());
            out.push((path.clone(), canon, facts));
        }
    }
    Ok(Candidates {
        files: out,
        listed: listed.len() as u64,
    })
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
) -> Result<Scope> {
    let files = Files::new(target.lang, cache::FactsCache::new(cache_dir));
    callers_with(rg, flags, target, &files, false)
}

fn callers_with(
    rg: &Rg,
    flags: &SearchFlags,
    mut target: Target,
    files: &Files,
    impact: bool,
) -> Result<Scope> {
    let found = candidates(rg, flags, &target, files)?;
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
    }
    let by_name_only = !graphed(target.lang);
    let mut scope = Scope {
        impact,
        attributed: BTreeMap::new(),
        elsewhere: Vec::new(),
        cannot_tell: Vec::new(),
        files_listed: found.listed,
        files_read: found.files.len() as u64,
        by_name_only,
        levels: Vec::new(),
        stopped: None,
        not_matched: 0,
        walked: None,
        target: target.clone(),
    };
    let resolver = Resolver {
        target: &target,
        files,
    };
    let mut elsewhere: BTreeMap<Where, u64> = BTreeMap::new();
    for (path, canon, facts) in &found.files {
        // The name, and the local names it is imported under.
        let mut names: BTreeSet<&str> = BTreeSet::from([name.as_str()]);
        for import in &facts.imports {
            if import.local.is_empty() {
                continue;
            }
            let default_of_target = import.name.as_deref() == Some("default")
                && files.place(target.lang, canon, &import.module)
                    == modules::Place::File(target.canon.clone());
            if import.name.as_deref() == Some(name.as_str()) || default_of_target {
                names.insert(import.local.as_str());
            }
        }
        for call in facts
            .calls
            .iter()
            .filter(|c| names.contains(c.name.as_str()))
        {
            if canon == &target.canon
                && target.lines.contains(&call.line)
                && call.callee == facts::Callee::Bare
            {
                // The definition's own line (a C prototype's name) is no call.
                if call.line == target.def.name_line {
                    continue;
                }
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
                Verdict::Target(reason) => {
                    scope
                        .attributed
                        .entry(path.clone())
                        .or_default()
                        .push(Site {
                            line: call.line,
                            start: call.start,
                            end: call.end,
                            reason,
                        })
                }
                Verdict::Other { path: other, def } => {
                    *elsewhere
                        .entry((
                            Some(display(&other)),
                            Some(def.name_line),
                            Some(def.name.clone()),
                            None,
                        ))
                        .or_default() += 1;
                }
                Verdict::Outside(reason) => {
                    *elsewhere
                        .entry((None, None, None, Some(reason)))
                        .or_default() += 1;
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
        .map(|((path, line, name, reason), count)| Elsewhere {
            path,
            line,
            name,
            reason,
            count,
        })
        .collect();
    grouped.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.path.cmp(&b.path)));
    scope.elsewhere = grouped;
    Ok(scope)
}

/// Where calls attributed elsewhere went: a definition's file, line and
/// name, or a reason for what is not a definition in the tree.
type Where = (Option<String>, Option<u32>, Option<String>, Option<String>);

/// `--impact`: the target's callers, their callers… to `depth` levels,
/// each level's dependents the named definitions around the sites of the
/// level above. The page quotes every level's sites.
pub fn impact(
    rg: &Rg,
    flags: &SearchFlags,
    target: Target,
    depth: u32,
    cache_dir: Option<PathBuf>,
) -> Result<Scope> {
    let files = Files::new(target.lang, cache::FactsCache::new(cache_dir));
    let mut scope = callers_with(rg, flags, target.clone(), &files, true)?;
    let mut seen: BTreeSet<(PathBuf, u32)> =
        BTreeSet::from([(target.canon.clone(), target.def.name_line)]);
    let mut frontier = dependents_of(&scope.attributed, &files);
    let mut level = 1;
    loop {
        frontier.retain(|(_, canon, d)| match &d.def {
            Some(def) => seen.insert((canon.clone(), def.name_line)),
            None => true,
        });
        if frontier.is_empty() {
            break;
        }
        scope.levels.push(Level {
            depth: level,
            dependents: frontier.iter().map(|(_, _, d)| d.clone()).collect(),
        });
        if level >= depth {
            let further = frontier.iter().filter(|(_, _, d)| d.def.is_some()).count();
            if further > 0 {
                scope.stopped = Some(format!(
                    "stopped at --depth {depth}: the callers of {further} {} at level {level} were not looked for",
                    if further == 1 { "definition" } else { "definitions" }
                ));
            }
            break;
        }
        if frontier.len() > LEVEL_CAP {
            scope.stopped = Some(format!(
                "stopped at level {level}: {} definitions, more than {LEVEL_CAP} to follow",
                frontier.len()
            ));
            break;
        }
        let mut next = Vec::new();
        for (path, canon, dependent) in &frontier {
            let Some(def) = &dependent.def else {
                continue;
            };
            let sub = Target {
                spec: format!("{}#{}", String::from_utf8_lossy(path), def.name),
                path: path.clone(),
                canon: canon.clone(),
                lang: target.lang,
                def: def.clone(),
                lines: vec![def.name_line],
                owner: resolve::owner_of(def).map(str::to_string),
                is_static: false,
                c_definers: Vec::new(),
            };
            let Some(facts) = files.get(canon) else {
                continue;
            };
            let sub = Target {
                lang: graph_lang(path, target.lang).unwrap_or(target.lang),
                is_static: facts.statics.contains(&def.short),
                ..sub
            };
            let found = callers_with(rg, flags, sub, &files, true)?;
            next.extend(dependents_of(&found.attributed, &files));
            for (file, sites) in found.attributed {
                let known = scope.attributed.entry(file).or_default();
                for site in sites {
                    if !known.iter().any(|s| s.line == site.line) {
                        known.push(site);
                    }
                }
                known.sort_by_key(|s| (s.line, s.start));
            }
        }
        frontier = merge_dependents(next);
        level += 1;
        if frontier.is_empty() {
            scope.stopped = Some(format!(
                "level {level}: nothing calls the definitions of level {}",
                level - 1
            ));
        }
    }
    Ok(scope)
}

/// The named definitions around attributed sites, one per definition.
fn dependents_of(
    attributed: &BTreeMap<Vec<u8>, Vec<Site>>,
    files: &Files,
) -> Vec<(Vec<u8>, PathBuf, Dependent)> {
    let mut out = Vec::new();
    for (path, sites) in attributed {
        let Ok(canon) = std::fs::canonicalize(path_of(path)) else {
            continue;
        };
        let Some(facts) = files.get(&canon) else {
            continue;
        };
        let test = is_test_code(path);
        let mut by_def: BTreeMap<Option<u32>, (Option<Def>, u64)> = BTreeMap::new();
        for site in sites {
            let def = dependent_at(&facts.defs, site.line).cloned();
            let entry = by_def
                .entry(def.as_ref().map(|d| d.name_line))
                .or_insert((def, 0));
            entry.1 += 1;
        }
        for (_, (def, sites)) in by_def {
            out.push((
                path.clone(),
                canon.clone(),
                Dependent {
                    path: path.clone(),
                    def,
                    test,
                    sites,
                },
            ));
        }
    }
    out
}

/// Whether the file at `path` is a test (not an example, a fixture or a
/// benchmark, which the ranking's prior puts beside tests): under a
/// `test`, `tests`, `__tests__`, `spec`, `specs` or `testing` directory,
/// or named like one (`test_x.py`, `x_test.go`, `x.test.ts`, `x.spec.js`,
/// `XTest.java`, `XTests.java`, `x_spec.rb`, `conftest.py`).
pub fn is_test_code(path: &[u8]) -> bool {
    let text = String::from_utf8_lossy(path);
    let mut parts: Vec<&str> = text.split('/').collect();
    let name = parts.pop().unwrap_or("");
    let dirs = ["test", "tests", "__tests__", "spec", "specs", "testing"];
    if parts
        .iter()
        .any(|p| dirs.iter().any(|d| p.eq_ignore_ascii_case(d)))
    {
        return true;
    }
    let stem = name.split('.').next().unwrap_or(name);
    name.starts_with("test_")
        || name == "conftest.py"
        || stem.ends_with("_test")
        || stem.ends_with("_spec")
        || stem.ends_with("Test")
        || stem.ends_with("Tests")
        || name.contains(".test.")
        || name.contains(".spec.")
}

/// The definition that depends on a call at `line`: the innermost
/// function or method around it, else the innermost definition of any
/// other kind (a class body's call, a constant's initialiser) but an impl
/// block, else none (the file's top level).
fn dependent_at(defs: &[Def], line: u32) -> Option<&Def> {
    let around = || defs.iter().filter(|d| d.contains(line));
    around()
        .filter(|d| matches!(d.kind, DefKind::Function | DefKind::Method))
        .max_by_key(|d| (d.start_line, std::cmp::Reverse(d.end_line)))
        .or_else(|| {
            around()
                .filter(|d| d.kind != DefKind::Impl)
                .max_by_key(|d| (d.start_line, std::cmp::Reverse(d.end_line)))
        })
}

fn merge_dependents(
    mut all: Vec<(Vec<u8>, PathBuf, Dependent)>,
) -> Vec<(Vec<u8>, PathBuf, Dependent)> {
    all.sort_by(|a, b| {
        (a.0.clone(), a.2.def.as_ref().map(|d| d.name_line))
            .cmp(&(b.0.clone(), b.2.def.as_ref().map(|d| d.name_line)))
    });
    let mut out: Vec<(Vec<u8>, PathBuf, Dependent)> = Vec::new();
    for item in all {
        match out.last_mut() {
            Some(last)
                if last.0 == item.0
                    && last.2.def.as_ref().map(|d| d.name_line)
                        == item.2.def.as_ref().map(|d| d.name_line) =>
            {
                last.2.sites += item.2.sites;
            }
            _ => out.push(item),
        }
    }
    out
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
            let body = line.strip_suffix(b"\r").unwrap_or(line);
            let mut spans = Vec::new();
            match matcher {
                Some(m) => m.spans(body, &mut spans),
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
                let (text, cut_before, cut_after) = cut_around(body, span);
                tally.quotes.push(Quote {
                    line: u64::from(site.line),
                    last_line: 0,
                    text: text.to_vec(),
                    cut_before,
                    cut_after,
                    score: 0,
                    def: false,
                });
            }
        }
        if tally.hits > 0 {
            tallies.push(tally);
        }
    }
    scope.not_matched = not_matched;
    tallies
}

/// The lines a structural search may keep: the attributed ones, by path.
pub fn line_filter(scope: &Scope) -> BTreeMap<Vec<u8>, BTreeSet<u64>> {
    scope
        .attributed
        .iter()
        .map(|(path, sites)| {
            (
                path.clone(),
                sites.iter().map(|s| u64::from(s.line)).collect(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_depends_through_its_function_else_its_class_never_an_impl() {
        let defs = crate::defs::extract(
            Lang::Python,
            b"class K:\n    x = f()\n\n    def m(self):\n        def inner():\n            f()\n        f()\n\nf()\n",
        );
        let at = |line| dependent_at(&defs, line).map(|d| d.name.clone());
        assert_eq!(at(2).as_deref(), Some("K"));
        assert_eq!(at(6).as_deref(), Some("inner"));
        assert_eq!(at(7).as_deref(), Some("K.m"));
        assert_eq!(at(9), None);
        let rust = crate::defs::extract(Lang::Rust, b"impl S {\n    const X: u8 = f();\n}\n");
        assert!(dependent_at(&rust, 2).is_none_or(|d| d.kind != DefKind::Impl));
    }

    #[test]
    fn tests_are_marked_examples_are_not() {
        for test in [
            "tests/test_app.py",
            "pkg/foo_test.go",
            "src/a.test.ts",
            "src/__tests__/b.tsx",
            "src/test/java/org/x/NodeTest.java",
            "conftest.py",
            "spec/models/user_spec.rb",
        ] {
            assert!(is_test_code(test.as_bytes()), "{test}");
        }
        for code in [
            "examples/tutorial/flaskr/auth.py",
            "src/contest.py",
            "benches/x.rs",
            "src/attest.rs",
        ] {
            assert!(!is_test_code(code.as_bytes()), "{code}");
        }
    }

    #[test]
    fn specs_name_a_symbol_or_a_line() {
        let spec = SymbolSpec::parse("src/a.rs#Foo::bar").unwrap();
        assert_eq!(spec.path, OsString::from("src/a.rs"));
        assert_eq!(spec.symbol, SymbolRef::Name("Foo.bar".into()));
        let spec = SymbolSpec::parse("src/a.py:12").unwrap();
        assert_eq!(spec.symbol, SymbolRef::Line(12));
        for bad in ["src/a.py", "#x", "a.py#", "a.py:0", "a.py:x"] {
            assert!(SymbolSpec::parse(bad).is_err(), "{bad}");
        }
    }
}
