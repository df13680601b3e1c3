//! `scout read`'s flags, and from them to its [`ReadSettings`].

use clap::Args;
use std::ffi::OsString;

use super::{ColorArgs, Context};
use crate::dirs;
use crate::views::read::{LineRange, ReadSettings, Selection};
use anyhow::{bail, Result};

pub(super) const READ_EXAMPLES: &str = "\
Examples:
  scout read src/cli.rs --symbol parse_args       a definition, numbered
  scout read app/server.py --symbol Server.handle a method, by its qualified name
  scout read src/cli.rs --range 120:188           lines 120 to 188
  scout read src/cli.rs --range 400:              from line 400 to the end
  scout read README.md                            the whole file, within the budget
  scout read src/cli.rs --range 120:188 --again   lines the session already has, shown anyway

Each block opens with a header, `PATH  KIND NAME (A-B)` for a definition or
`PATH  (A-B of N lines)` for a range, then `LINE: TEXT` lines. Lines longer
than 200 bytes are cut with a marker. Past the budget, the last line gives
the exact command for the rest. --symbol matches short names (`handle`) and
qualified ones (`Server.handle`), showing every definition with the name
together with the comments, attributes and decorators right above it; with
no match it lists the file's definitions and exits 1.

In an agent session, read joins the session memory: what it prints is
remembered, and a run of 3 or more lines the session already has (from
scout, or from the agent's own reads through `scout setup claude`'s hooks),
from a file unchanged since, collapses to one `A-B: already in this
session's context` line with the command that shows them (--again). The
budget those lines free is not spent on other lines.

Exit status: 0 shown, 1 no definition with that name, 2 bad FILE, range or
flag (a missing file, a directory, a binary file, no parser for --symbol).";

#[derive(Debug, PartialEq, Args)]
pub struct ReadArgs {
    /// The file to read.
    #[arg(value_name = "FILE")]
    pub file: OsString,

    /// Show every definition named NAME: a short name (`handle`) or a qualified one (`Server.handle`, `Foo::fmt`).
    #[arg(short = 's', long, value_name = "NAME")]
    pub symbol: Option<String>,

    /// Show lines A to B, 1-based and inclusive: `A:B`, `A:` (to the end), `:B` (from the start) or `A`; an end past the file is its last line.
    #[arg(short = 'r', long, value_name = "A:B")]
    pub range: Option<String>,

    /// Token budget, estimated as bytes / 4; 0 means no limit.
    #[arg(long, value_name = "N", default_value_t = crate::views::read::DEFAULT_BUDGET_TOKENS)]
    pub budget_tokens: u64,

    #[command(flatten)]
    pub color: ColorArgs,
    /// Show lines this agent session already has too (by default they collapse to one line per run); records nothing.
    #[arg(long)]
    pub again: bool,
}

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
