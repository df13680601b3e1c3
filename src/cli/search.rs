//! `scout search`'s flags, and from them to its [`SearchSettings`]:
//! validation and the environment, read once. Nothing after this re-reads
//! an environment variable.

use clap::Args;
use std::ffi::OsString;
use std::path::Path;

use anyhow::{bail, Result};

use super::{ColorArgs, Context, SessionArgs};
use crate::lang::Lang;
use crate::page::query::{Kind, Query};
use crate::paths::existing_paths;
use crate::render::style::Color;
use crate::rg::SearchFlags;
use crate::search::query::is_question;
use crate::search::settings::{GraphRequest, SearchSettings};
use crate::shell;
use crate::structural::StructuralPattern;

pub(super) const SEARCH_EXAMPLES: &str = "\
Examples:
  scout search useState                 ranked page for an identifier, definitions first
  scout search Command.Traverse         a qualified name: its definition, then its uses
  scout search 'parse args' src         a phrase; falls back to any word when absent
  scout search 'how are retries scheduled?'   a question in words: answered as scout smart does
  scout search '->where' --lang php     a query starting with '-' (-e QUERY works too)
  scout search 'fn \\w+_cache' --kind regex -g '!tests/**'
  scout search useState --page 2        the next page of the same ranked order
  scout search useState --json          one JSON document (schema in docs/search.md)
  scout search --structural --lang rust '$X.unwrap()'       code shapes, not text
  scout search --structural --lang tsx 'useState<$T>($$$A)' src
  scout search --structural --lang py 'except Exception: pass'

Quote a structural pattern in single quotes, or the shell replaces $X.";

/// `scout search`'s default token budget.
pub const DEFAULT_SEARCH_BUDGET_TOKENS: u64 = 1500;

/// `scout search`'s default cap on passthrough output, in bytes.
pub const DEFAULT_PASSTHROUGH_CAP: u64 = 100 * 1024;

/// `Default` is what clap makes of `scout search` with no flag (the
/// property test of [`plain_search`] holds the two together).
#[derive(Debug, Default, PartialEq, Args)]
pub struct SearchArgs {
    /// What to search for (an identifier, a phrase or a regex). A question in words (a question word first or a '?' last, 3 to 64 words) is answered as scout smart answers it, unless -F, -w, --kind, -l or --structural asks for the text. One that starts with '-' ('->where(', '-1', '--force') and is not a flag of scout search is the query too; -e QUERY and -- QUERY work as well. With -e, every positional is a PATH.
    #[arg(value_name = "QUERY")]
    pub query: Option<String>,

    /// Files or directories to search [default: the current directory].
    #[arg(value_name = "PATH")]
    pub paths: Vec<OsString>,

    /// The query, as rg's -e takes a pattern (for one spelled like a flag of scout's: -e -l).
    #[arg(
        short = 'e',
        long = "regexp",
        value_name = "QUERY",
        allow_hyphen_values = true
    )]
    pub regexp: Option<String>,

    /// Match QUERY as code, an ast-grep pattern of the --lang language: `$X` one node, `$$$X` any number of nodes, `$_` one node not captured. Only that language's files are parsed; -F, -i and -w do not apply.
    #[arg(long)]
    pub structural: bool,

    /// Keep only the calls the code graph attributes to one definition: PATH#SYMBOL (a name, Type.method or Type::method) or PATH:LINE. With no QUERY (or -e '' before PATHs), every call of it; after the matches, what the graph made of the other calls of the name (another definition's, or cannot tell, and why). Python, JavaScript/TypeScript, Rust, Go, Java and C; other languages match by name only.
    #[arg(long, value_name = "PATH#SYMBOL")]
    pub callers_of: Option<String>,

    /// Keep the code that depends on one definition (PATH#SYMBOL or PATH:LINE): its callers, their callers, ... to --depth levels, each named by level, tests marked.
    #[arg(long, value_name = "PATH#SYMBOL")]
    pub impact: Option<String>,

    /// With --impact, how many levels of callers to follow [default: 2].
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,

    /// With --callers-of or --impact: read at most N of the files that spell the name: the definition's own file, then those nearest it; the page says how many were left unread [default: 1000; 0 reads every file].
    #[arg(long, value_name = "N")]
    pub graph_files: Option<usize>,

    /// With --callers-of or --impact: only the calls the graph proves (by scope, import or declared type), leaving out those it attributes by a name alone (the tree's only definition of a method called on a receiver of unknown type, a type of the target's type's name); the footer lists what it left.
    #[arg(long)]
    pub proven_only: bool,

    #[command(flatten)]
    pub matching: MatchArgs,

    #[command(flatten)]
    pub filter: FilterArgs,

    #[command(flatten)]
    pub output: OutputArgs,

    #[command(flatten)]
    pub session: SessionArgs,

    #[command(flatten)]
    pub color: ColorArgs,
}

/// How the query matches.
#[derive(Debug, PartialEq, Args)]
pub struct MatchArgs {
    /// How to read the query: auto (regex if it has regex metacharacters, else literal), literal, regex, or symbol (whole-word identifier).
    #[arg(long, value_enum, default_value = "auto")]
    pub kind: Kind,

    /// Read the query as a literal string (same as --kind literal).
    #[arg(short = 'F', long = "fixed-strings")]
    pub fixed_strings: bool,

    /// Case-insensitive match.
    #[arg(short = 'i', long = "ignore-case")]
    pub ignore_case: bool,

    /// Match whole words only.
    #[arg(short = 'w', long = "word-regexp")]
    pub word: bool,
}

impl Default for MatchArgs {
    fn default() -> MatchArgs {
        MatchArgs {
            kind: Kind::Auto,
            fixed_strings: false,
            ignore_case: false,
            word: false,
        }
    }
}

/// Which files are searched (rg's own semantics).
#[derive(Debug, Default, PartialEq, Args)]
pub struct FilterArgs {
    /// Include or, with a leading '!', exclude files matching GLOB (rg semantics); repeatable.
    #[arg(short = 'g', long = "glob", value_name = "GLOB")]
    pub globs: Vec<String>,

    /// Only files of rg's type NAME (`rg --type-list`) or of a --lang language (python is rg's py, typescript its ts); repeatable.
    #[arg(short = 't', long = "type", value_name = "NAME")]
    pub types: Vec<String>,

    /// With --structural, the pattern's language: rust (rs), python (py), javascript (js), typescript (ts), tsx, go, ruby (rb), java, kotlin (kt), csharp (cs), c, cpp (c++), php, lua, luau, swift, scala, elixir (ex), haskell (hs), zig, bash (sh), dart. Without --structural, the same as --type.
    #[arg(long = "lang", value_name = "LANG")]
    pub langs: Vec<String>,

    /// Search hidden files and directories too.
    #[arg(long)]
    pub hidden: bool,
}

/// What the page shows.
#[derive(Debug, PartialEq, Args)]
pub struct OutputArgs {
    /// Token budget of a page, estimated as bytes / 4; 0 means no limit.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SEARCH_BUDGET_TOKENS)]
    pub budget_tokens: u64,

    /// Which page of the ranked order to show (1-based).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub page: usize,

    /// Quote at most NUM lines per file; the rest are counted as left out [default: 3 for the first 5 files, then 2, or 1 for a file defining the name].
    #[arg(short = 'm', long = "max-count", value_name = "NUM")]
    pub max_count: Option<usize>,

    /// List ranked files with their hit counts, no lines.
    #[arg(short = 'l', long = "files-with-matches")]
    pub files_only: bool,

    /// Accepted for rg habit; line numbers are always shown.
    #[arg(short = 'n', long = "line-number")]
    pub line_number: bool,

    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,

    /// Show each file's score and the signals behind it.
    #[arg(long)]
    pub explain: bool,

    /// Definitions from the lexical rules only: no parsing, no grouping under enclosing definitions, no attached code.
    #[arg(long)]
    pub lexical: bool,

    /// Most bytes printed for a pattern with no 3-character literal anchor (rg's lines, unranked); 0 means no limit.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_PASSTHROUGH_CAP)]
    pub passthrough_cap: u64,
}

impl Default for OutputArgs {
    fn default() -> OutputArgs {
        OutputArgs {
            budget_tokens: DEFAULT_SEARCH_BUDGET_TOKENS,
            page: 1,
            max_count: None,
            files_only: false,
            line_number: false,
            json: false,
            explain: false,
            lexical: false,
            passthrough_cap: DEFAULT_PASSTHROUGH_CAP,
        }
    }
}

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
        let question = question_in_words(&mut text, &args, &paths, ctx)?;
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
/// same paths, globs, types and budget. `None` for any other search, and
/// for a question that leaves smart no word to look for but names code
/// (`how is IsA used`): `text` becomes that name, searched as smart
/// answers a code name.
fn question_in_words(
    text: &mut String,
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
    if let Some(name) = crate::smart::named_only(text) {
        *text = name;
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
        question_flag: Some(text.clone()),
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
