//! From `scout grep`'s flags to its [`GrepSettings`], checked against
//! the current directory and the environment.

use super::GrepArgs;
use crate::rg::{GrepFlags, GrepOutput};
use crate::shell;
use crate::views::grep::{GrepSettings, OutputMode};
use crate::views::{self, EnvLookup};
use anyhow::{bail, Context, Result};
use std::ffi::OsString;
use std::path::Path;

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
