//! `scout files`' flags, and from them to its [`FilesSettings`], checked
//! against the current directory and the environment.

use crate::rg::FilesFlags;
use crate::shell;
use crate::views::files::{FilesSettings, DEFAULT_LIMIT, HIDDEN_ENV, LIMIT_ENV, NO_IGNORE_ENV};
use crate::views::{self, EnvLookup};
use anyhow::{bail, Context, Result};
use clap::Args;
use std::ffi::OsString;
use std::path::Path;

pub(super) const FILES_EXAMPLES: &str = "\
Examples:
  scout files '**/*.rs'                     Rust files at any depth, newest first
  scout files '*.{ts,tsx}' web              under web/
  scout files 'src/**/test_*.py'            anchored at the listed directory
  scout files '*.log' --respect-ignore --no-hidden

Ignored and hidden files are listed unless --respect-ignore / --no-hidden (or
SCOUT_FILES_NO_IGNORE=0 / SCOUT_FILES_HIDDEN=0) say otherwise; version-control
folders (.git, .hg, .svn, .bzr, .jj, .sl) never are. A cut list ends with a
line saying how many files matched in all.";

#[derive(Debug, Args)]
pub struct FilesArgs {
    /// The glob paths must match: '**/*.rs', '*.{ts,tsx}', 'src/**/test_*.py'. Without a '/' it matches file names at any depth; with one it is anchored at PATH.
    #[arg(value_name = "GLOB", allow_hyphen_values = true)]
    pub glob: String,

    /// The directory to list [default: the current directory].
    #[arg(value_name = "PATH")]
    pub path: Option<OsString>,

    /// List at most N files, newest first; 0 means no limit [default: 100, or $SCOUT_FILES_MAX].
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,

    /// Skip files that .gitignore, .ignore and .rgignore exclude [default: list them, unless SCOUT_FILES_NO_IGNORE=0].
    #[arg(long)]
    pub respect_ignore: bool,

    /// Skip hidden files and folders [default: list them, unless SCOUT_FILES_HIDDEN=0].
    #[arg(long)]
    pub no_hidden: bool,

    #[command(flatten)]
    pub limits: LimitArgs,
}

/// Limits shared by the faithful views.
#[derive(Debug, Args)]
pub struct LimitArgs {
    /// Stop after SECONDS and show what was found so far; 0 means no limit [default: 20, or $SCOUT_TIMEOUT_SECONDS].
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
}

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
