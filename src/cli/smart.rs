//! `scout smart`'s and `scout index`'s flags, and from smart's to what it
//! answers ([`Asked`]): a question's [`SmartSettings`] (validation and the
//! environment: the agent's command and time, the encoder's directory, read
//! once), or, for a code name, the settings of the search that answers it.

use anyhow::{bail, Result};
use clap::Args;

use std::ffi::OsString;

use super::Context;
use super::{FilterArgs, MatchArgs, OutputArgs, SearchArgs};
use crate::search::settings::SearchSettings;
use crate::smart::{agent, MeaningSettings, SmartSettings};

pub(super) const SMART_EXAMPLES: &str = "\
Examples:
  scout smart 'where are expired keys deleted'          definitions that answer, each with its why
  scout smart 'read the config file' src --type rust    within src/, Rust files only
  scout smart 'retry with backoff' --max-results 5 --json

The question becomes concepts: stop and question words dropped, words stemmed,
each widened by a small code vocabulary (fetch ~ load, download; remove ~
delete, unlink; ...) at a lower weight. One rg pass over all their forms
(case-insensitive, inside identifiers) gives the candidate files; the best are
parsed and their definitions scored (BM25F over name, doc comment, path and
body, rarer words and the question's first words weighing more; tests, docs,
translations, data and generated files ranked down unless asked for).

With the sentence encoder installed (./install.sh fetches it; `scout doctor`
says whether it is there), the question is also compared by meaning with every
definition of a set the question and the tree choose (--meaning-units, 256:
those the words ranked first, then whole files, the candidates first), from
each definition's name, doc comment and path, embedded once per file change
and cached; the closest join the candidates and the two rankings are fused,
lightly. The header says how much of the tree was compared; the cache changes
how long a question takes, never its answer (`scout index` fills it ahead).
A tree of over 2,000 files is compared among its candidates only. Without
the encoder, or with --words-only, the ranking is by words alone and the
header says so.
No network, ever.

With --agent, the question goes to the command in SCOUT_SMART_AGENT (run by
sh -c) as one JSON line; each line it writes back is {\"run\": [\"search\", ...]}
(only files, grep, search and read run; the output comes back as a JSON line)
or {\"answer\": {\"hits\": [{\"path\", \"line\", \"why\"}]}}, within 8 turns and
SCOUT_SMART_AGENT_TIMEOUT seconds (default 300). An answer that does not
validate, or none in time, is exit 2, saying what was wrong.

Exit status: 0 hits shown, 1 none, 2 bad input, 3 partial (some paths unreadable).";

pub(super) const INDEX_EXAMPLES: &str = "\
Examples:
  scout index                     every definition under the current directory
  scout index src lib -t py       Python files of src/ and lib/

Embeds the definitions of the tree's code files (the files `scout smart` would
search, tests and generated files left out) with the sentence encoder and
caches their vectors in one store per repository in $XDG_CACHE_HOME/scout/vectors/,
so that `scout smart` finds them all at once. Only files changed since their vectors
were made are embedded again: an interrupted run resumes where it stopped, and
it is safe beside running searches; a second index of the same tree waits for
the first. A progress bar on a terminal, a count every 5 s on a pipe; one
summary line on stdout. Needs the encoder (./install.sh --encoder-only). With scout's Claude
Code hooks (scout setup claude), each session starts `scout index --background`
in its directory when the encoder is installed (SCOUT_INDEX_ON_START=0: never).

Exit status: 0 done, 2 no encoder or bad input, 3 some paths could not be indexed (the rest were).";

/// `scout smart --max-results`'s default.
pub const DEFAULT_MAX_RESULTS: usize = 10;

/// `scout smart --budget-tokens`'s default.
pub const DEFAULT_SMART_BUDGET_TOKENS: u64 = 1500;

#[derive(Debug, PartialEq, Args)]
pub struct SmartArgs {
    /// The question, in words: what the code does ("where are expired keys deleted"). A code name instead (EvictionPolicy, jv_setpath, ld) is answered as scout search answers it, definitions first. One that starts with '-' and is not a flag of scout smart is the question too. With -e, every positional is a PATH.
    #[arg(value_name = "QUESTION")]
    pub question: Option<String>,

    /// Files or directories to search [default: the current directory].
    #[arg(value_name = "PATH")]
    pub paths: Vec<OsString>,

    /// The question, as rg's -e takes a pattern: every positional is then a PATH.
    #[arg(
        short = 'e',
        long = "question",
        value_name = "QUESTION",
        allow_hyphen_values = true
    )]
    pub question_flag: Option<String>,

    /// Hits shown, at most.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_RESULTS)]
    pub max_results: usize,

    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,

    #[command(flatten)]
    pub files: FileArgs,

    /// Token budget of the page, estimated as bytes / 4; 0 means no limit.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SMART_BUDGET_TOKENS)]
    pub budget_tokens: u64,

    /// Hand the question to the agent command in SCOUT_SMART_AGENT instead (JSON lines; it may run only scout files/grep/search/read, for at most 8 turns and SCOUT_SMART_AGENT_TIMEOUT seconds, default 300).
    #[arg(long)]
    pub agent: bool,

    /// Rank by words only, even where the sentence encoder is installed (`scout doctor` says whether it is).
    #[arg(long)]
    pub words_only: bool,

    /// With the encoder: how many definitions are compared by meaning, those the words ranked first, then whole files, the candidates first; their vectors come from the cache or are embedded now (`scout index` embeds them ahead); 0 compares none [default: 256].
    #[arg(long, value_name = "N")]
    pub meaning_units: Option<usize>,

    /// Removed: a time budget made the answer depend on the machine's load; --meaning-units bounds the work by a count.
    #[arg(long, value_name = "MS", hide = true)]
    pub embed_budget_ms: Option<u64>,
}

/// Which files `scout smart` and `scout index` look at, with rg's rules.
#[derive(Debug, Clone, PartialEq, Args)]
pub struct FileArgs {
    /// Include or, with a leading '!', exclude files matching GLOB (rg semantics); repeatable.
    #[arg(short = 'g', long = "glob", value_name = "GLOB")]
    pub globs: Vec<String>,

    /// Only files of rg's type NAME (`rg --type-list`) or of a language (python, typescript, tsx, ...: rg's py, ts, ...); repeatable.
    #[arg(
        short = 't',
        long = "type",
        visible_alias = "lang",
        value_name = "NAME"
    )]
    pub types: Vec<String>,

    /// Search hidden files and directories too.
    #[arg(long)]
    pub hidden: bool,
}

impl FileArgs {
    /// rg's flags for these files under `paths`.
    pub fn flags(&self, paths: Vec<OsString>) -> crate::rg::SearchFlags {
        crate::rg::SearchFlags {
            globs: self.globs.clone(),
            types: self
                .types
                .iter()
                .map(|t| crate::lang::rg_type_name(t))
                .collect(),
            hidden: self.hidden,
            paths,
            ..crate::rg::SearchFlags::default()
        }
    }
}

#[derive(Debug, Clone, Args)]
pub struct IndexArgs {
    /// Files or directories to index [default: the current directory].
    #[arg(value_name = "PATH")]
    pub paths: Vec<OsString>,

    #[command(flatten)]
    pub files: FileArgs,

    /// Run at the lowest priority (as `nice -n 19`), print nothing, and leave at once when another scout index is embedding the same tree: how the SessionStart hook starts it.
    #[arg(long)]
    pub background: bool,
}

/// What `scout smart` was asked.
pub enum Asked {
    /// A question in words, for smart's pipeline.
    Question(Box<SmartSettings>),
    /// A code name ([`is_name`]), answered as `scout search NAME` answers
    /// it, its definitions first.
    Name(Box<SearchSettings>),
}

impl Asked {
    /// Validates the flags of `scout smart`.
    pub fn resolve(args: SmartArgs) -> Result<Asked> {
        Self::resolve_in(args, &Context::process())
    }

    /// [`Asked::resolve`] in the context `ctx`.
    pub fn resolve_in(args: SmartArgs, ctx: &Context) -> Result<Asked> {
        let question = args
            .question_flag
            .as_deref()
            .or(args.question.as_deref())
            .unwrap_or_default()
            .trim()
            .to_string();
        let name = if is_name(&question) {
            Some(question)
        } else {
            crate::smart::named_only(&question)
        };
        if let Some(name) = name.filter(|_| !args.agent) {
            // With -e, every positional is a PATH, as for a question.
            let mut paths = args.paths.clone();
            if args.question_flag.is_some() {
                paths.splice(0..0, args.question.iter().map(OsString::from));
            }
            return Ok(Asked::Name(Box::new(name_search(
                &name, &paths, &args, ctx,
            )?)));
        }
        Ok(Asked::Question(Box::new(SmartSettings::resolve_in(
            args, ctx,
        )?)))
    }
}

/// Whether `question` is a code name rather than words: one identifier
/// with a capital, an underscore, a digit or a `$` (`Scene`, `WsCtx`,
/// `jv_setpath`), or one that leaves smart no word to look for (`ld`,
/// `g`). A lower-case word (`caching`, `retry`) is a concept, which smart
/// widens.
pub fn is_name(question: &str) -> bool {
    if !crate::search::rank::lexical::is_identifier(question.as_bytes()) {
        return false;
    }
    let code = question
        .chars()
        .any(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_' || c == '$');
    let concepts = crate::smart::concepts::concepts_and_unused(question).0;
    code || crate::smart::candidates::patterns(&concepts).is_empty()
}

impl SmartSettings {
    /// Validates the flags of `scout smart` for a question, in the
    /// context `ctx`.
    pub fn resolve_in(mut args: SmartArgs, ctx: &Context) -> Result<SmartSettings> {
        let question = match (args.question_flag.take(), args.question.take()) {
            (Some(question), Some(first_path)) => {
                // With -e, every positional is a PATH.
                args.paths.insert(0, first_path.into());
                question
            }
            (Some(question), None) | (None, Some(question)) => question,
            (None, None) => String::new(),
        };
        let question = question.trim().to_string();
        if question.is_empty() {
            bail!("the question is empty; describe what the code does, e.g. scout smart \"where are expired keys deleted\"");
        }
        if args.max_results == 0 {
            bail!("--max-results must be at least 1");
        }
        if args.embed_budget_ms.is_some() {
            bail!("--embed-budget-ms is gone: a time budget made the answer depend on the machine's load; --meaning-units N bounds the work by a count of definitions instead (default {})", crate::smart::meaning::MEANING_UNITS);
        }
        let (paths, missing) = crate::paths::existing_paths(args.paths)?;
        Ok(SmartSettings {
            rg: ctx.rg()?,
            question,
            flags: args.files.flags(paths),
            missing,
            max_results: args.max_results,
            budget_bytes: crate::page::budget_bytes(args.budget_tokens),
            json: args.json,
            text_beside_json: false,
            cache_dir: crate::dirs::cache_dir_in(ctx.env),
            agent: args.agent,
            agent_command: ctx.var(agent::AGENT_ENV),
            agent_timeout: agent::timeout(
                ctx.var(agent::TIMEOUT_ENV)
                    .filter(|_| args.agent)
                    .as_deref(),
            )?,
            meaning: MeaningSettings {
                encoder_dir: (!args.words_only)
                    .then(|| crate::dirs::encoder_dir_in(ctx.env))
                    .flatten(),
                units: args.meaning_units,
                words_only: args.words_only,
            },
            kind: None,
        })
    }
}

/// The search a name asked of smart runs: `scout search NAME` over the
/// same paths, globs, types and budget, its definitions first.
fn name_search(
    name: &str,
    paths: &[OsString],
    args: &SmartArgs,
    ctx: &Context,
) -> Result<SearchSettings> {
    let mut argv: Vec<OsString> = ["scout", "search", name].map(OsString::from).into();
    argv.extend(paths.iter().cloned());
    // A name of one or two letters is looked for as a whole word: as
    // text it is inside most words, and too short to rank.
    let short = name.chars().count() < crate::page::query::MIN_ANCHOR_CHARS;
    if short {
        argv.push(OsString::from("-w"));
    }
    let search = SearchArgs {
        query: Some(name.to_string()),
        paths: paths.to_vec(),
        matching: MatchArgs {
            word: short,
            ..MatchArgs::default()
        },
        filter: FilterArgs {
            globs: args.files.globs.clone(),
            types: args.files.types.clone(),
            langs: Vec::new(),
            hidden: args.files.hidden,
        },
        output: OutputArgs {
            budget_tokens: args.budget_tokens,
            page: 1,
            json: args.json,
            ..OutputArgs::default()
        },
        ..SearchArgs::default()
    };
    SearchSettings::resolve_in(search, &argv, ctx)
}
