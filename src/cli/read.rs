//! From `scout read`'s flags to its [`ReadSettings`].

use super::{Context, ReadArgs};
use crate::dirs;
use crate::views::read::{LineRange, ReadSettings, Selection};
use anyhow::{bail, Result};

impl ReadSettings {
    /// Validates `args`; the process's environment gives the cache
    /// directory and, with the terminal, whether to colour.
    pub fn resolve(args: ReadArgs) -> Result<ReadSettings> {
        Self::resolve_in(args, &Context::process())
    }

    /// [`ReadSettings::resolve`] in the context `ctx`.
    pub fn resolve_in(args: ReadArgs, ctx: &Context) -> Result<ReadSettings> {
        if args.file.is_empty() {
            bail!("the FILE is empty; try `scout read src/main.rs`");
        }
        let selection = match (args.symbol, args.range) {
            (Some(_), Some(_)) => bail!("--symbol and --range cannot be used together"),
            (Some(name), None) => {
                let name = name.trim().to_string();
                if name.is_empty() {
                    bail!("--symbol needs a name, e.g. --symbol parse_args");
                }
                Selection::Symbol(name)
            }
            (None, Some(range)) => Selection::Range(LineRange::parse(&range)?),
            (None, None) => Selection::Whole,
        };
        Ok(ReadSettings {
            path: args.file,
            selection,
            budget_bytes: crate::page::budget_bytes(args.budget_tokens),
            budget_tokens: args.budget_tokens,
            cache_dir: dirs::cache_dir_in(ctx.env),
            color: ctx.color(args.color.color),
            session: ctx.session.session(),
            again: args.again,
            cwd: std::env::current_dir().unwrap_or_default(),
            tool: None,
        })
    }
}
