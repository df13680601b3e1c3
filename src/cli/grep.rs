//! `scout grep`'s flags, and from them to its [`GrepSettings`], checked
//! against the current directory and the environment.

use super::{ColorArgs, LimitArgs};
use crate::rg::{GrepFlags, GrepOutput};
use crate::shell;
use crate::views::grep::{GrepSettings, OutputMode};
use crate::views::{self, EnvLookup};
use anyhow::{bail, Context, Result};
use clap::Args;
use std::ffi::OsString;
use std::path::Path;

pub(super) const GREP_EXAMPLES: &str = "\
Examples:
  scout grep useState                       files that match, newest first
  scout grep 'fn \\w+_cache' src --output-mode content -C 2
  scout grep TODO --output-mode count --glob '*.{ts,tsx}'
  scout grep '--verbose' --type py          a pattern starting with '-' (-e PATTERN works too)
  scout grep 'struct \\{[^}]*\\}' -U --output-mode content   a pattern spanning lines
  scout grep useState --output-mode content --offset 250   the next page

Results come in one deterministic order (lines by path, files newest first,
counts by path), so --offset pages never skip or repeat one. A cut list ends
with a line saying how many results there are and the command for the next
page. Version-control folders are never searched; hidden files are; ignore
files are respected. Lines longer than 500 bytes are cut with a marker.

Exit status: 0 results shown, 1 no match, 2 bad pattern, flag or PATH, or a
timeout with no result, 3 partial (timed out, or some files unreadable).";

#[derive(Debug, Args)]
pub struct GrepArgs {
    /// The regex to search for (rg syntax). One that starts with '-' and is not a flag of scout grep is the pattern too; -e PATTERN and -- PATTERN work as well. With -e, the positional is the PATH.
    #[arg(value_name = "PATTERN", required_unless_present = "regexp")]
    pub pattern: Option<String>,

    /// The file or directory to search [default: the current directory].
    #[arg(value_name = "PATH")]
    pub path: Option<OsString>,

    /// The pattern, as rg's -e takes it (for one spelled like a flag of scout's: -e -i).
    #[arg(
        short = 'e',
        long = "regexp",
        value_name = "PATTERN",
        allow_hyphen_values = true
    )]
    pub regexp: Option<String>,

    /// What to print: files_with_matches (paths, newest first), content (matching lines, by path), or count (matching lines per file, by path, and the total).
    #[arg(
        long,
        value_enum,
        value_name = "MODE",
        default_value = "files_with_matches"
    )]
    pub output_mode: OutputMode,

    /// Lines of context after each match (content mode).
    #[arg(short = 'A', long = "after-context", value_name = "N")]
    pub after: Option<usize>,

    /// Lines of context before each match (content mode).
    #[arg(short = 'B', long = "before-context", value_name = "N")]
    pub before: Option<usize>,

    /// Lines of context before and after each match (content mode); overrides -A and -B.
    #[arg(short = 'C', value_name = "N")]
    pub around: Option<usize>,

    /// Lines of context before and after each match (content mode); overrides -C, -A and -B.
    #[arg(long, value_name = "N")]
    pub context: Option<usize>,

    /// Show line numbers (content mode) [default: on].
    #[arg(short = 'n', long = "line-number", overrides_with = "no_line_number")]
    pub line_number: bool,

    /// Hide line numbers (content mode).
    #[arg(short = 'N', long = "no-line-number")]
    pub no_line_number: bool,

    /// Case-insensitive match.
    #[arg(short = 'i', long = "ignore-case")]
    pub ignore_case: bool,

    /// Only files of rg's type NAME (`rg --type-list`); repeatable.
    #[arg(short = 't', long = "type", value_name = "NAME")]
    pub types: Vec<String>,

    /// Only files matching GLOB ('!' excludes; rg semantics). Split on spaces and commas outside braces: '*.{ts,tsx}' is one glob, '*.rs,*.toml' two. Repeatable.
    #[arg(
        short = 'g',
        long = "glob",
        value_name = "GLOB",
        allow_hyphen_values = true
    )]
    pub globs: Vec<String>,

    /// Let patterns span lines; '.' matches a newline too.
    #[arg(short = 'U', long)]
    pub multiline: bool,

    /// Show at most N results (lines, files or counts); 0 means no limit.
    #[arg(long, value_name = "N", default_value_t = 250)]
    pub head_limit: usize,

    /// Skip the first N results (for the next page).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub offset: usize,

    #[command(flatten)]
    pub limits: LimitArgs,

    #[command(flatten)]
    pub color: ColorArgs,
}

impl GrepSettings {
    /// Validates `args` against the current directory and `ctx`'s
    /// environment.
    pub fn resolve(args: GrepArgs, ctx: &super::Context) -> Result<GrepSettings> {
        let env: EnvLookup<'_> = &|name| ctx.var(name);
        let (pattern, path) = match (args.regexp, args.pattern, args.path) {
            (Some(_), Some(_), Some(extra)) => bail!(
                "with -e PATTERN, give at most one PATH ({} is one too many)",
                shell::quote(extra.as_encoded_bytes())
            ),
            (Some(pattern), Some(first), None) => (pattern, Some(OsString::from(first))),
            (Some(pattern), None, path) | (None, Some(pattern), path) => (pattern, path),
            (None, None, _) => bail!("no pattern given; try `scout grep PATTERN`"),
        };
        if pattern.is_empty() {
            bail!("the pattern is empty; give a regex (rg syntax)");
        }
        let cwd = std::env::current_dir().context("the current directory cannot be read")?;
        let path = match path {
            Some(path) => {
                ensure_exists(&path)?;
                views::rg_operand(&cwd, &path)
            }
            None => None,
        };
        let (before, after) = match (args.context, args.around) {
            (Some(n), _) | (None, Some(n)) => (n, n),
            (None, None) => (args.before.unwrap_or(0), args.after.unwrap_or(0)),
        };
        let with_filename = !path.as_ref().is_some_and(|p| Path::new(p).is_file());
        let timeout = views::resolve_timeout(args.limits.timeout, env)?;
        let rg = ctx.rg()?;
        let flags = GrepFlags {
            pattern: pattern.clone(),
            output: match args.output_mode {
                OutputMode::Content => GrepOutput::Lines,
                OutputMode::FilesWithMatches => GrepOutput::FilesWithMatches,
                OutputMode::Count => GrepOutput::Count,
            },
            after,
            before,
            line_number: !args.no_line_number || args.line_number,
            ignore_case: args.ignore_case,
            multiline: args.multiline,
            types: args.types,
            globs: args
                .globs
                .iter()
                .flat_map(|g| views::split_globs(g))
                .collect(),
            path,
        };
        Ok(GrepSettings {
            rg,
            mode: args.output_mode,
            flags,
            offset: args.offset,
            head_limit: (args.head_limit > 0).then_some(args.head_limit),
            timeout,
            pattern,
            with_filename,
            color: ctx.color(args.color.color),
            tool: None,
        })
    }
}

fn ensure_exists(path: &OsString) -> Result<()> {
    match Path::new(path).metadata() {
        Ok(_) => match crate::paths::special_kind(Path::new(path)) {
            // rg would wait on it forever.
            Some(kind) => bail!(
                "{} is {kind}, not a file or directory; nothing to search",
                shell::quote(path.as_encoded_bytes())
            ),
            None => Ok(()),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!(
            "no such file or directory: {}; nothing to search",
            shell::quote(path.as_encoded_bytes())
        ),
        Err(e) => bail!(
            "{} cannot be searched: {e}",
            shell::quote(path.as_encoded_bytes())
        ),
    }
}
