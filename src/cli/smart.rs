//! From `scout smart`'s flags to what it answers ([`Asked`]): a question's
//! [`SmartSettings`] (validation and the environment: the agent's command
//! and time, the encoder's directory, read once), or, for a code name,
//! the settings of the search that answers it.

use anyhow::{bail, Result};

use std::ffi::OsString;

use super::Context;
use super::{FilterArgs, MatchArgs, OutputArgs, SearchArgs, SmartArgs};
use crate::search::settings::SearchSettings;
use crate::smart::{agent, MeaningSettings, SmartSettings};

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
        if !args.agent && is_name(&question) {
            // With -e, every positional is a PATH, as for a question.
            let mut paths = args.paths.clone();
            if args.question_flag.is_some() {
                paths.splice(0..0, args.question.iter().map(OsString::from));
            }
            return Ok(Asked::Name(Box::new(name_search(
                &question, &paths, &args, ctx,
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
