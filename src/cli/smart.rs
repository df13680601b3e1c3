//! From `scout smart`'s flags to its [`SmartSettings`]: validation and
//! the environment (the agent's command and time, the encoder's
//! directory), read once.

use anyhow::{bail, Result};

use super::Context;
use super::SmartArgs;
use crate::smart::{agent, MeaningSettings, SmartSettings};

impl SmartSettings {
    /// Validates the flags of `scout smart`.
    pub fn resolve(args: SmartArgs) -> Result<SmartSettings> {
        Self::resolve_in(args, &Context::process())
    }

    /// [`SmartSettings::resolve`] in the context `ctx`.
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
        })
    }
}
