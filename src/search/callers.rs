//! Stage 2 of `--callers-of` and `--impact`, in place of
//! [`collect`](super::collect): the code graph ([`crate::graph`])
//! attributes every call of the symbol's name in the files that spell it,
//! then the search's own pattern is matched: a text pattern on the
//! attributed lines only, a structural one on the attributed calls only
//! (a match is kept when it is one of those calls, or spells its name
//! outside its captures: [`structural::FileCalls`]), and what matches is
//! folded into the same
//! [`FileTally`](crate::page::tally::FileTally)s a text search makes. With no
//! pattern, every attributed call is a match. Stages 3 to 8 are the
//! ranked pipeline's; the scope (what the graph made of the other calls)
//! is rendered after the matches.

use std::collections::BTreeMap;
use std::io::Write;

use anyhow::Result;

use crate::graph::{self, Scope};
use crate::rg::Matcher;
use crate::search::settings::{GraphRequest, SearchSettings};
use crate::search::structural;
use crate::shell;

/// What the graph's pass leaves for the shared stages.
pub struct Graphed {
    pub files: Vec<crate::page::tally::FileTally>,
    pub defs: BTreeMap<Vec<u8>, Vec<crate::defs::Def>>,
    pub structural: Option<crate::render::Structural>,
    pub scope: Scope,
}

/// Attributes the calls, then matches the pattern on the attributed lines
/// (text) or calls (structural).
pub fn gather(
    settings: &SearchSettings,
    request: &GraphRequest,
    err: &mut dyn Write,
) -> Result<Graphed> {
    let mut scope = scope(settings, request)?;
    if let Some(pattern) = &settings.structural {
        let only = scope.attributed.clone();
        let gathered = structural::gather_within(settings, pattern, Some(&only), err)?;
        // Lines, as the pattern's hits are: a line holding two calls is one.
        scope.not_matched = structural::call_lines(&only).saturating_sub(gathered.claimed);
        return Ok(Graphed {
            files: gathered.files,
            defs: gathered.defs,
            structural: Some(crate::render::Structural {
                lang: pattern.lang(),
                parsed: gathered.parsed,
            }),
            scope,
        });
    }
    let matcher = if request.pattern {
        Matcher::new(&settings.flags)
    } else {
        None
    };
    if request.pattern && matcher.is_none() {
        anyhow::bail!(
            "the pattern {:?} does not compile here; with --callers-of, use a literal (-F) or a simpler regex",
            settings.query.text
        );
    }
    let files = graph::tallies(&mut scope, matcher.as_ref(), settings.keep);
    Ok(Graphed {
        files,
        defs: BTreeMap::new(),
        structural: None,
        scope,
    })
}

/// What the code graph makes of the calls of the request's definition:
/// the attributed sites (of every level, with `--impact`), the calls of
/// other definitions and those it cannot tell. `scout edit` scopes its
/// rewrites by the same function, so that they are the search's lines.
pub fn scope(settings: &SearchSettings, request: &GraphRequest) -> Result<Scope> {
    let target = request.target.clone();
    Ok(if request.impact {
        // The walk climbs through callers wherever they are (a test's
        // chain runs through the library): it searches the working
        // directory, and the page keeps the paths asked for.
        let within = within_cwd(settings);
        let walk = match &within {
            Some(_) => crate::rg::SearchFlags {
                paths: Vec::new(),
                ..settings.flags.clone()
            },
            None => settings.flags.clone(),
        };
        let mut scope = graph::impact(
            &settings.rg,
            &walk,
            target,
            request.depth,
            settings.cache_dir.clone(),
            request.max_files,
            request.proven_only,
        )?;
        if let Some(roots) = within {
            scope.attributed.retain(|path, _| {
                std::fs::canonicalize(crate::paths::path_of(path))
                    .is_ok_and(|p| roots.iter().any(|r| p.starts_with(r)))
            });
            scope.walked = Some(".".into());
        }
        scope
    } else {
        graph::callers(
            &settings.rg,
            &settings.flags,
            target,
            settings.cache_dir.clone(),
            request.max_files,
            request.proven_only,
        )?
    })
}

/// The search's paths, canonical, when some were given and all lie in
/// the working directory (else `None`).
fn within_cwd(settings: &SearchSettings) -> Option<Vec<std::path::PathBuf>> {
    if settings.flags.paths.is_empty() {
        return None;
    }
    let cwd = std::fs::canonicalize(&settings.cwd).ok()?;
    let roots: Vec<std::path::PathBuf> = settings
        .flags
        .paths
        .iter()
        .map(std::fs::canonicalize)
        .collect::<Result<_, _>>()
        .ok()?;
    roots.iter().all(|r| r.starts_with(&cwd)).then_some(roots)
}

/// The command that prints every match of this search (no budget, every
/// line, nothing collapsed by the session's memory), and the same for one
/// file (`FILE` standing for it).
pub fn repro_commands(settings: &SearchSettings, request: &GraphRequest) -> (String, String) {
    let mut words = vec!["scout".to_string(), "search".into()];
    if let Some(pattern) = &settings.structural {
        words.extend([
            "--structural".into(),
            "--lang".into(),
            pattern.lang().name().into(),
        ]);
    }
    if request.impact {
        words.extend([
            "--impact".into(),
            shell::quote(request.target.spec.as_bytes()),
            "--depth".into(),
            request.depth.to_string(),
        ]);
    } else {
        words.extend([
            "--callers-of".into(),
            shell::quote(request.target.spec.as_bytes()),
        ]);
    }
    if request.max_files != Some(crate::graph::FILES_BUDGET) {
        let files = request.max_files.unwrap_or(0);
        words.extend(["--graph-files".into(), files.to_string()]);
    }
    if request.proven_only {
        words.push("--proven-only".into());
    }
    words.extend([
        "--budget-tokens".into(),
        "0".into(),
        "-m".into(),
        "10000".into(),
        "--again".into(),
    ]);
    let flags = &settings.flags;
    if request.pattern {
        if settings.structural.is_none() {
            if flags.fixed_strings {
                words.push("-F".into());
            }
            if flags.ignore_case {
                words.push("-i".into());
            }
            if flags.word {
                words.push("-w".into());
            }
        }
        words.extend(["-e".into(), shell::quote(settings.query.text.as_bytes())]);
    } else {
        // No pattern: `-e ''` keeps the paths (and FILE) paths.
        words.extend(["-e".into(), "''".into()]);
    }
    words.extend(structural::selection_words(flags));
    structural::with_paths(words, flags)
}
