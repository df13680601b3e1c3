//! From `scout files`' flags to its [`FilesSettings`], checked against
//! the current directory and the environment.

use super::FilesArgs;
use crate::rg::FilesFlags;
use crate::shell;
use crate::views::files::{FilesSettings, DEFAULT_LIMIT, HIDDEN_ENV, LIMIT_ENV, NO_IGNORE_ENV};
use crate::views::{self, EnvLookup};
use anyhow::{bail, Context, Result};
use std::ffi::OsString;
use std::path::Path;

impl FilesSettings {
    /// Validates `args` against the current directory and `ctx`'s
    /// environment.
    pub fn resolve(args: FilesArgs, ctx: &super::Context) -> Result<FilesSettings> {
        let env: EnvLookup<'_> = &|name| ctx.var(name);
        if args.glob.is_empty() {
            bail!("the glob is empty; try `scout files '**/*.rs'`");
        }
        let cwd = std::env::current_dir().context("the current directory cannot be read")?;
        let path = match args.path {
            Some(path) => {
                ensure_directory(&path)?;
                views::rg_operand(&cwd, &path)
            }
            None => None,
        };
        let limit = match args.limit {
            Some(limit) => limit,
            None => match env(LIMIT_ENV).filter(|v| !v.trim().is_empty()) {
                Some(value) => value.trim().parse().map_err(|_| {
                    anyhow::anyhow!(
                        "{LIMIT_ENV}={value:?} is not a number of files; set it to e.g. 100 (0 = no limit), or unset it"
                    )
                })?,
                None => DEFAULT_LIMIT,
            },
        };
        let timeout = views::resolve_timeout(args.limits.timeout, env)?;
        let flags = FilesFlags {
            glob: args.glob,
            no_ignore: !args.respect_ignore && views::env_flag(env, NO_IGNORE_ENV, true),
            hidden: !args.no_hidden && views::env_flag(env, HIDDEN_ENV, true),
            path,
        };
        Ok(FilesSettings {
            rg: ctx.rg()?,
            flags,
            limit: (limit > 0).then_some(limit),
            timeout,
        })
    }
}

fn ensure_directory(path: &OsString) -> Result<()> {
    let quoted = shell::quote(path.as_encoded_bytes());
    match Path::new(path).metadata() {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => bail!(
            "{quoted} is not a directory; give the directory to list (a file's own name: scout files NAME DIR)"
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            bail!("no such directory: {quoted}; nothing to list")
        }
        Err(e) => bail!("{quoted} cannot be listed: {e}"),
    }
}
