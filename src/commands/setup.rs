//! `scout setup claude [--project | --user] [--dry-run] [--remove]`,
//! `scout setup agents-md [--file PATH] [--dry-run] [--remove]` and
//! `scout setup mcp --client NAME [--project | --user] [--dry-run]
//! [--remove]`: read the file, have [`crate::setup`] compute the new one,
//! and write it (the settings after a backup of the old one) or print it.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::cli::{AgentsMdArgs, ClaudeSetupArgs, McpSetupArgs, SetupArgs, SetupTarget};
use crate::dirs::OsEnvLookup;
use crate::exit::ExitStatus;
use crate::setup::claude::{self, Scope, EVENTS};
use crate::setup::{agents_md, mcp};

pub fn run(
    args: &SetupArgs,
    env: OsEnvLookup<'_>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus> {
    match &args.target {
        SetupTarget::Claude(args) => run_claude(args, env, out, err),
        SetupTarget::AgentsMd(args) => run_agents_md(args, out, err),
        SetupTarget::Mcp(args) => run_mcp(args, env, out, err),
    }
}

/// The project's root: the git work tree's, else the working directory.
fn project_root() -> Result<PathBuf> {
    let cwd = std::env::current_dir().context("the current directory is unusable")?;
    Ok(cwd
        .ancestors()
        .find(|d| d.join(".git").exists())
        .unwrap_or(&cwd)
        .to_path_buf())
}

/// Where `client` reads its servers in `scope` (`None`: its default).
pub fn mcp_config_path(
    client: mcp::Client,
    scope: Option<mcp::Scope>,
    env: OsEnvLookup<'_>,
) -> Result<PathBuf> {
    let path = |name: &str| env(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    mcp::config_path(
        client,
        scope.unwrap_or(client.default_scope()),
        &project_root()?,
        path("HOME").as_deref(),
        path("XDG_CONFIG_HOME").as_deref(),
        path("CODEX_HOME").as_deref(),
    )
}

fn run_mcp(
    args: &McpSetupArgs,
    env: OsEnvLookup<'_>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus> {
    let scope = match (args.project, args.user) {
        (true, _) => Some(mcp::Scope::Project),
        (_, true) => Some(mcp::Scope::User),
        _ => None,
    };
    let client = args.client;
    let path = mcp_config_path(client, scope, env)?;
    let exe = std::env::current_exe().context("cannot tell where this scout binary is")?;
    let old = read_settings(&path)?;
    let doc = old.as_deref().unwrap_or("");
    let new = if args.remove {
        mcp::remove(client, doc)
    } else {
        mcp::install(client, doc, &exe)
    }
    .map_err(|e| anyhow::anyhow!("{}: {e:#}; left as it is", path.display()))?;
    if args.dry_run {
        return dry_run(
            &path,
            doc,
            new.as_deref(),
            "this is what it would write",
            out,
            err,
        );
    }
    let Some(new) = new else {
        if args.remove {
            writeln!(
                out,
                "no scout server in {}; nothing changed",
                path.display()
            )?;
        } else {
            writeln!(
                out,
                "scout mcp is already registered in {}; nothing changed",
                path.display()
            )?;
        }
        return Ok(ExitStatus::Shown);
    };
    let backup = replace_with_backup(&path, old.as_deref(), &new)?;
    if args.remove {
        writeln!(
            out,
            "removed scout's server from {}{backup}",
            path.display()
        )?;
    } else {
        writeln!(
            out,
            "registered scout mcp ({} mcp) for {} in {}{backup}; restart the client to load it",
            exe.display(),
            client.name(),
            path.display()
        )?;
    }
    Ok(ExitStatus::Shown)
}

fn run_agents_md(
    args: &AgentsMdArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus> {
    let path = match &args.file {
        Some(file) => file.clone(),
        None => {
            let root = project_root()?;
            let (agents, claude) = (root.join("AGENTS.md"), root.join("CLAUDE.md"));
            if !agents.exists() && claude.exists() {
                claude
            } else {
                agents
            }
        }
    };
    let old = read_settings(&path)?;
    let doc = old.as_deref().unwrap_or("");
    let new = if args.remove {
        agents_md::remove(doc)
    } else {
        agents_md::write(doc)
    }
    .map_err(|e| anyhow::anyhow!("{}: {e:#}; left as it is", path.display()))?;
    if args.dry_run {
        return dry_run(
            &path,
            doc,
            new.as_deref(),
            "this is what it would write",
            out,
            err,
        );
    }
    match new {
        None if args.remove => writeln!(
            out,
            "no scout section in {}; nothing changed",
            path.display()
        )?,
        None => writeln!(
            out,
            "scout's section in {} is up to date; nothing changed",
            path.display()
        )?,
        Some(new) => {
            write_atomically(&path, &new)?;
            if args.remove {
                writeln!(out, "removed scout's section from {}", path.display())?;
            } else {
                writeln!(
                    out,
                    "wrote scout's section (which tool for which question) in {}",
                    path.display()
                )?;
            }
        }
    }
    Ok(ExitStatus::Shown)
}

fn run_claude(
    args: &ClaudeSetupArgs,
    env: OsEnvLookup<'_>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus> {
    let scope = if args.user {
        Scope::User
    } else {
        Scope::Project
    };
    let cwd = std::env::current_dir().context("the current directory is unusable")?;
    let home = env("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    let path = claude::settings_path(scope, &cwd, home.as_deref())?;
    let exe = std::env::current_exe().context("cannot tell where this scout binary is")?;
    let old = read_settings(&path)?;
    let new = if args.remove {
        claude::remove(old.as_deref().unwrap_or(""))
    } else {
        claude::install(old.as_deref().unwrap_or(""), &exe)
    }
    .map_err(|e| anyhow::anyhow!("{}: {e:#}; left as it is", path.display()))?;

    if args.dry_run {
        let what = if args.remove {
            "this is what scout setup claude --remove would write"
        } else {
            "this is what scout setup claude would write"
        };
        let doc = old.as_deref().unwrap_or("");
        return dry_run(&path, doc, new.as_deref(), what, out, err);
    }
    let Some(new) = new else {
        if args.remove {
            writeln!(out, "no scout hooks in {}; nothing changed", path.display())?;
        } else {
            writeln!(
                out,
                "scout's hooks are already installed in {}; nothing changed",
                path.display()
            )?;
        }
        return Ok(ExitStatus::Shown);
    };
    let backup = replace_with_backup(&path, old.as_deref(), &new)?;
    if args.remove {
        writeln!(out, "removed scout's hooks from {}{backup}", path.display())?;
        return Ok(ExitStatus::Shown);
    }
    writeln!(out, "installed scout's hooks in {}{backup}", path.display())?;
    for (event, matcher) in EVENTS {
        writeln!(
            out,
            "  {:<19} {:<15} {}",
            event.name(),
            if matcher.is_empty() { "(all)" } else { matcher },
            claude::hook_command(&exe, event)
        )?;
    }
    let config = crate::dirs::config_dir_in(env)
        .map(|d| crate::hooks::config::path(&d).display().to_string())
        .unwrap_or_else(|| "$XDG_CONFIG_HOME/scout/hooks.json".into());
    writeln!(
        out,
        "reads (Read, cat/head/tail/sed -n/nl) now enter the session memory; rules reread and unbudgeted-search warn, never block."
    )?;
    writeln!(
        out,
        "turn a rule off in {config}: {{\"rules\": {{\"reread\": \"off\", \"unbudgeted-search\": \"off\"}}}}"
    )?;
    writeln!(
        out,
        "failures are logged, never shown: scout doctor checks the hooks. Restart Claude Code to load them."
    )?;
    Ok(ExitStatus::Shown)
}

/// A dry run: prints the file as it would be (`new`, or `doc` when
/// nothing would change) and says on `err` that `path` was not written,
/// with `would_write` when something would change.
fn dry_run(
    path: &Path,
    doc: &str,
    new: Option<&str>,
    would_write: &str,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus> {
    out.write_all(new.unwrap_or(doc).as_bytes())?;
    let what = if new.is_some() {
        would_write
    } else {
        "nothing would change"
    };
    writeln!(
        err,
        "scout: dry run, {} not written: {what}",
        path.display()
    )?;
    Ok(ExitStatus::Shown)
}

/// The file's text, `None` when there is none.
fn read_settings(path: &Path) -> Result<Option<String>> {
    match std::fs::read(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => Ok(Some(text)),
            Err(_) => bail!("{}: not UTF-8 text; left as it is", path.display()),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("{}: cannot be read", path.display())),
    }
}

/// Writes `new` over `path` after a backup of `old` (when there was a
/// file), returning the note that names the backup (` (backup: PATH)`,
/// or nothing).
fn replace_with_backup(path: &Path, old: Option<&str>, new: &str) -> Result<String> {
    let backup = match old {
        Some(old) => Some(write_backup(path, old)?),
        None => None,
    };
    write_atomically(path, new)?;
    Ok(backup
        .map(|b| format!(" (backup: {})", b.display()))
        .unwrap_or_default())
}

/// Copies the old settings beside the file, as
/// `settings.json.scout-backup-YYYYMMDDTHHMMSSZ` (`-2`, `-3` if taken).
fn write_backup(path: &Path, old: &str) -> Result<PathBuf> {
    let stamp: String = crate::session::hook_log::utc_timestamp(std::time::SystemTime::now())
        .chars()
        .filter(|c| !matches!(c, '-' | ':'))
        .collect();
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let mut backup = path.with_file_name(format!("{name}.scout-backup-{stamp}"));
    let mut n = 2;
    while backup.exists() {
        backup = path.with_file_name(format!("{name}.scout-backup-{stamp}-{n}"));
        n += 1;
    }
    std::fs::write(&backup, old).with_context(|| {
        format!(
            "{}: cannot write the backup; nothing changed",
            backup.display()
        )
    })?;
    Ok(backup)
}

/// Replaces the file `path` names by renaming a complete temporary file
/// over it, keeping its permissions. Through a symlink (`AGENTS.md ->
/// CLAUDE.md`, a settings file linked into a dotfiles repository), the
/// link's target is written and the link stays a link; a file with
/// several hard links is written in place, so that they stay one file.
fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let path = &link_target(path)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)
        .with_context(|| format!("{}: cannot be created", dir.display()))?;
    if let Ok(meta) = std::fs::metadata(path) {
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() > 1 {
            return crate::edit::write::write_in_place(path, text.as_bytes())
                .with_context(|| format!("{}: cannot be written", path.display()));
        }
    }
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("{}: cannot be written", dir.display()))?;
    tmp.write_all(text.as_bytes())?;
    tmp.flush()?;
    let permissions = std::fs::metadata(path)
        .map(|m| m.permissions())
        .unwrap_or_else(|_| {
            use std::os::unix::fs::PermissionsExt;
            std::fs::Permissions::from_mode(0o644)
        });
    std::fs::set_permissions(tmp.path(), permissions)?;
    tmp.persist(path)
        .map_err(|e| e.error)
        .with_context(|| format!("{}: cannot be replaced", path.display()))?;
    Ok(())
}

/// The file `path` names once every symlink on the way is followed (the
/// path itself when it is none); a link to a file not there yet names
/// where that file is to be. A loop of links is an error.
fn link_target(path: &Path) -> Result<PathBuf> {
    let mut at = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let to = std::fs::read_link(&at)
                    .with_context(|| format!("{}: cannot read the link", at.display()))?;
                at = match at.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Ok(at),
        }
    }
    anyhow::bail!(
        "{}: too many levels of symbolic links; nothing changed",
        path.display()
    )
}
