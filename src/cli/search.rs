//! From `scout search`'s flags to its [`SearchSettings`]: validation and
//! the environment, read once. Nothing after this re-reads an
//! environment variable.

use std::ffi::OsString;
use std::path::Path;

use anyhow::{bail, Result};

use super::{Context, SearchArgs};
use crate::lang::Lang;
use crate::page::query::{Kind, Query};
use crate::paths::existing_paths;
use crate::render::style::Color;
use crate::rg::SearchFlags;
use crate::search::query::is_question;
use crate::search::settings::{GraphRequest, SearchSettings};
use crate::shell;
use crate::structural::StructuralPattern;

/// Candidate lines kept per file by default (more than any default
/// allowance, so the best can be chosen).
const DEFAULT_KEEP: usize = 8;
/// `-m` above this keeps this many candidates per file.
const MAX_KEEP: usize = 10_000;

impl SearchSettings {
    /// Validates `args`; `argv` is the full command line (for the
    /// next-page command).
    pub fn resolve(args: SearchArgs, argv: &[OsString]) -> Result<SearchSettings> {
        Self::resolve_in(args, argv, &Context::process())
    }

    /// [`SearchSettings::resolve`] in the context `ctx`.
    pub fn resolve_in(
        mut args: SearchArgs,
        argv: &[OsString],
        ctx: &Context,
    ) -> Result<SearchSettings> {
        super::apart(
            args.callers_of.is_some(),
            "--callers-of",
            args.impact.is_some(),
            "--impact",
        )?;
        let (mut text, paths) = query_and_paths(&mut args)?;
        let cache_dir = crate::dirs::cache_dir_in(ctx.env);
        let graph = graph_request(&args, !text.is_empty(), cache_dir.clone())?;
        if text.is_empty() && args.structural && graph.is_some() {
            bail!("--structural needs a pattern; without one, --callers-of and --impact search every call of the symbol");
        }
        if let Some(request) = graph.as_ref().filter(|r| !r.pattern) {
            // Every call of the symbol: its name, as a whole word.
            text = request.target.def.short.clone();
            args.matching.word = true;
            args.matching.fixed_strings = true;
        }
        if text.is_empty() && !args.session.forget {
            bail!("the query is empty; give a name, a phrase or a pattern");
        }
        if args.output.page == 0 {
            bail!("--page starts at 1");
        }
        if !args.structural && text.contains('\n') {
            // No line holds a line break: rg refuses the pattern, and the
            // multi-word fallback must not run in its place.
            bail!(
                "the query {text:?} holds a line break\n{}",
                crate::search::collect::MULTILINE_ADVICE
            );
        }
        let question = question_in_words(&text, &args, &paths, ctx)?;
        let (mut query, structural) = plan(&text, &args)?;
        if graph.is_some() {
            // The page holds calls, never definitions: no line of it is
            // marked or added as one.
            query.name = None;
        }
        let mut types = args.filter.types;
        if structural.is_none() {
            // Without --structural, --lang is --type (as it always was).
            types.append(&mut args.filter.langs);
        }
        // rg names the files unless it is given one path and that path is
        // a file: it counts the paths typed, missing ones too.
        let typed = paths.len();
        // scout's language names are rg's types too: --lang python is
        // rg's --type py.
        let types: Vec<String> = types.iter().map(|t| crate::lang::rg_type_name(t)).collect();
        let (paths, missing) = existing_paths(paths)?;
        let one_file = paths.len() == 1 && Path::new(&paths[0]).is_file();
        let with_filename = !(typed == 1 && one_file);

        let rg = ctx.rg()?;
        let rg_config = crate::rg::config_in_effect_in(ctx.env);
        let flags = SearchFlags {
            patterns: vec![text.clone()],
            fixed_strings: query.fixed_strings(),
            ignore_case: query.ignore_case,
            word: query.word,
            globs: args.filter.globs,
            types,
            hidden: args.filter.hidden,
            paths,
            with_filename: with_filename && one_file,
        };
        // A callers page's every attributed call is the answer: all are
        // kept, and quoted while the budget holds, not 8 a file.
        let keep = args.output.max_count.map_or(
            if graph.is_some() {
                MAX_KEEP
            } else {
                DEFAULT_KEEP
            },
            |m| m.clamp(1, MAX_KEEP),
        );
        Ok(SearchSettings {
            rg,
            query,
            flags,
            missing,
            with_filename,
            budget_bytes: crate::page::budget_bytes(args.output.budget_tokens),
            page: args.output.page,
            max_lines: args.output.max_count,
            keep,
            files_only: args.output.files_only,
            json: args.output.json,
            explain: args.output.explain,
            lexical: args.output.lexical,
            passthrough_cap: (args.output.passthrough_cap > 0)
                .then_some(args.output.passthrough_cap),
            // Without --json either: the text page and the JSON document
            // are laid out alike, so their footers must be the same size.
            // Nor --color: colour must not change the layout.
            command: shell::join(
                shell::words_without_any(argv, &["--page", "--color"])
                    .into_iter()
                    .filter(|w| *w != b"--json"),
            ),
            tool: None,
            exits_after: true,
            cache_dir,
            session: ctx.session.session(),
            again: args.session.again,
            remember: !args.session.again
                && !args.output.files_only
                && (!args.output.json || args.session.remember),
            forget: args.session.forget,
            text_beside_json: false,
            cwd: std::env::current_dir().unwrap_or_default(),
            rg_config,
            plain_records: !rg_config && !crate::rg::json_forced_in(ctx.env),
            color: if args.output.json {
                Color::Never
            } else {
                ctx.color(args.color.color)
            },
            structural,
            graph,
            question,
        })
    }
}

/// The settings of `scout smart` for a search given a question in words
/// ([`is_question`]) with the query's kind left to scout (`--kind auto`,
/// no `-F`, `-w`, `--structural`, graph or `-l`): the question over the
/// same paths, globs, types and budget. `None` for any other search.
fn question_in_words(
    text: &str,
    args: &SearchArgs,
    paths: &[OsString],
    ctx: &Context,
) -> Result<Option<Box<crate::smart::SmartSettings>>> {
    let asked_as_text = args.matching.kind != Kind::Auto
        || args.matching.fixed_strings
        || args.matching.word
        || args.structural
        || args.callers_of.is_some()
        || args.impact.is_some()
        || args.output.files_only;
    if asked_as_text || !is_question(text) {
        return Ok(None);
    }
    if args.output.page > 1 {
        bail!(
            "a question in words is answered on one page, as scout smart answers it; scout smart --max-results N shows more hits, and scout search -F QUERY --page {} searches the text as written",
            args.output.page
        );
    }
    let mut types = args.filter.types.clone();
    types.extend(args.filter.langs.iter().cloned());
    let smart = crate::cli::SmartArgs {
        question: None,
        paths: paths.to_vec(),
        question_flag: Some(text.to_string()),
        max_results: crate::cli::DEFAULT_MAX_RESULTS,
        json: args.output.json,
        files: crate::cli::FileArgs {
            globs: args.filter.globs.clone(),
            types,
            hidden: args.filter.hidden,
        },
        budget_tokens: args.output.budget_tokens,
        agent: false,
        words_only: false,
        meaning_units: None,
        embed_budget_ms: None,
    };
    let mut settings = crate::smart::SmartSettings::resolve_in(smart, ctx)?;
    settings.kind = Some("question");
    Ok(Some(Box::new(settings)))
}

/// The planned query, and with `--structural` the compiled pattern.
fn plan(text: &str, args: &SearchArgs) -> Result<(Query, Option<StructuralPattern>)> {
    if args.structural {
        return Ok((
            Query::structural(text),
            Some(structural_pattern(text, args)?),
        ));
    }
    let kind = if args.matching.fixed_strings {
        Kind::Literal
    } else {
        args.matching.kind
    };
    let query = Query::plan(text, kind, args.matching.ignore_case, args.matching.word);
    Ok((query, None))
}

/// The query (`-e PATTERN` or the first positional) and the paths
/// (with `-e`, the first positional is a path).
fn query_and_paths(args: &mut SearchArgs) -> Result<(String, Vec<OsString>)> {
    let paths = std::mem::take(&mut args.paths);
    Ok(match (args.regexp.take(), args.query.take()) {
        (Some(pattern), Some(first_path)) => {
            let mut all = vec![OsString::from(first_path)];
            all.extend(paths);
            (pattern, all)
        }
        (Some(pattern), None) => (pattern, paths),
        (None, Some(query)) => (query, paths),
        (None, None) if args.session.forget => (String::new(), paths),
        (None, None) if args.callers_of.is_some() || args.impact.is_some() => {
            (String::new(), paths)
        }
        (None, None) => bail!("no query given; try `scout search NAME`"),
    })
}

/// The `--structural` pattern, compiled for its one `--lang`; the text
/// flags that cannot apply to code are refused, saying why.
fn structural_pattern(text: &str, args: &SearchArgs) -> Result<StructuralPattern> {
    let refused = [
        (
            args.matching.fixed_strings,
            "-F",
            "a structural pattern is matched as code, never as a string",
        ),
        (
            args.matching.ignore_case,
            "-i",
            "code is matched node by node, with the case it is written in",
        ),
        (
            args.matching.word,
            "-w",
            "a pattern's nodes are whole tokens already",
        ),
        (
            args.matching.kind != Kind::Auto,
            "--kind",
            "--structural is its own kind",
        ),
    ];
    for (given, flag, why) in refused {
        if given {
            bail!("{flag} does not apply with --structural: {why}; drop {flag}");
        }
    }
    let names: Vec<&str> = Lang::ALL.iter().map(|l| l.name()).collect();
    let lang = match args.filter.langs.as_slice() {
        [one] => Lang::from_name(one).ok_or_else(|| {
            anyhow::anyhow!(
                "--structural: unknown language {one:?}; the languages are {} (and the aliases rs, py, js, ts, rb, kt, cs, c++)",
                names.join(", ")
            )
        })?,
        [] => bail!(
            "--structural needs --lang LANG, one of {}",
            names.join(", ")
        ),
        _ => bail!("--structural takes one --lang; to narrow the files, use -g or --type"),
    };
    Ok(StructuralPattern::compile(text, lang)?)
}

/// `--callers-of` or `--impact`, with the definition it names resolved
/// (an error, listing the file's candidates, when it names none or
/// several).
fn graph_request(
    args: &SearchArgs,
    pattern: bool,
    cache_dir: Option<std::path::PathBuf>,
) -> Result<Option<GraphRequest>> {
    if args.depth.is_some() && args.impact.is_none() {
        let one_level = if args.callers_of.is_some() {
            "; --callers-of lists one level"
        } else {
            ""
        };
        bail!("--depth goes with --impact (the levels of callers to follow){one_level}");
    }
    let (spec, impact) = match (&args.callers_of, &args.impact) {
        (Some(spec), None) => (spec, false),
        (None, Some(spec)) => (spec, true),
        _ if args.graph_files.is_some() => {
            bail!(
                "--graph-files goes with --callers-of or --impact (the files the code graph reads)"
            )
        }
        _ if args.proven_only => {
            bail!(
                "--proven-only goes with --callers-of or --impact (it leaves out the calls the code graph attributes by name alone)"
            )
        }
        _ => return Ok(None),
    };
    let flag = if impact { "--impact" } else { "--callers-of" };
    let spec = crate::graph::SymbolSpec::parse(spec).map_err(|e| anyhow::anyhow!("{flag}: {e}"))?;
    let cache = crate::graph::cache::FactsCache::new(cache_dir);
    let target =
        crate::graph::resolve_target(&spec, &cache).map_err(|e| anyhow::anyhow!("{flag}: {e}"))?;
    if !crate::graph::finds_calls(target.lang) {
        bail!(
            "{flag}: {}: scout has no code graph for {} and does not guess its calls; `scout search -w NAME` shows every use of the name",
            spec.text,
            target.lang.name()
        );
    }
    Ok(Some(GraphRequest {
        target,
        impact,
        depth: match args.depth {
            Some(0) => bail!("--depth starts at 1 (the target's callers)"),
            Some(depth) => depth,
            None => crate::graph::DEFAULT_DEPTH,
        },
        pattern,
        max_files: match args.graph_files {
            None => Some(crate::graph::FILES_BUDGET),
            Some(0) => None,
            Some(n) => Some(n),
        },
        proven_only: args.proven_only,
    }))
}
