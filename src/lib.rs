//! scout: code search for AI coding agents, over ripgrep.
//!
//! The rooms import only downward (docs/design.md, "Layout"; kept by
//! `tests/it/layers.rs`), highest first:
//!
//! - [`mcp`] and [`request`]: JSON requests in, answers out (`scout
//!   mcp`, `scout call`).
//! - [`commands`]: one module per command, from settings to an exit
//!   status; [`cli`]: clap's flags and their resolution into settings.
//! - [`setup`], [`hooks`]: agent integrations.
//! - [`views`]: the faithful views `scout grep` and `scout files`, and
//!   `scout read`.
//! - The pipelines: [`edit`], [`search`] (one stage per module; its
//!   module doc walks through them), [`smart`], [`graph`], [`structural`].
//! - [`render`]: everything printed, from the page model, [`page`].
//! - Foundations: [`rg`] (everything about rg), [`session`] (the
//!   memory), [`defs`] (definitions and their cache), [`cache`] (what
//!   every cache shares), [`stamp`] (what the caches and the memory know
//!   a file by), and smaller helpers.
//!
//! `main` only calls [`run`] and maps its outcome to an exit code.

// The library's public face is what the binary and the integration tests
// need, and no more, so that rustc sees every dead item: `run` and
// `exit` (main), `shell` (main's panic report names the command),
// `stamp` (tests/it/util.rs waits out its freshness window) and `encoder`
// (tests/it checks it against reference vectors made outside the
// repository). The docs are read with `cargo doc
// --document-private-items`, where links to private rooms resolve.
#![allow(rustdoc::private_intra_doc_links)]

mod bytes;
mod cache;
mod cli;
mod commands;
mod defs;
mod dirs;
mod edit;
pub mod encoder;
pub mod exit;
#[cfg(test)]
mod fuzz;
mod graph;
mod hash;
mod hooks;
mod lang;
mod man;
mod mcp;
mod page;
mod paths;
mod render;
mod request;
mod rg;
mod search;
mod session;
mod setup;
pub mod shell;
mod smart;
pub mod stamp;
mod structural;
#[cfg(test)]
mod testing;
mod views;
mod workers;

use std::ffi::OsString;
use std::io::{IsTerminal, Write};

use anyhow::Result;
use clap::CommandFactory;

use cli::{Cli, Command};
use exit::ExitStatus;
use render::style::Color;
use render::style::ColorChoice;

/// scout's version line, with the rg it would use (or why there is none).
pub fn version_text() -> String {
    let rg = match rg::Rg::from_env().and_then(|rg| rg.version().map(|v| (rg, v))) {
        Ok((rg, version)) => format!("rg: {} ({version})", rg.path.display()),
        Err(e) => format!("rg: unusable: {e}"),
    };
    format!("scout {}\n{rg}\n", env!("CARGO_PKG_VERSION"))
}

/// Runs scout with `argv`, writing results to `out` and messages to `err`.
pub fn run(argv: Vec<OsString>, out: &mut dyn Write, err: &mut dyn Write) -> Result<ExitStatus> {
    if let Some(args) = cli::plain_search(&argv) {
        return search(args, &argv, out, err);
    }
    let cli = match cli::parse(&argv) {
        Ok(cli) => cli,
        // A hook never fails, whatever its arguments.
        Err(e)
            if argv.get(1).is_some_and(|a| a == "hook")
                && !matches!(
                    e.kind(),
                    clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
                ) =>
        {
            return Ok(commands::hook::refused(&e.to_string(), &dirs::process_env));
        }
        Err(e) => {
            // Styled only for a person at a terminal: escape codes are noise
            // to an agent reading a pipe. The rules are --color auto's
            // (NO_COLOR, TERM=dumb), for the stream the text goes to.
            let terminal = if e.use_stderr() {
                std::io::stderr().is_terminal()
            } else {
                std::io::stdout().is_terminal()
            };
            let color = Color::resolve(ColorChoice::Auto, terminal, &|name| {
                std::env::var(name).ok()
            });
            let text = if color == Color::Always {
                e.render().ansi().to_string()
            } else {
                e.render().to_string()
            };
            if e.use_stderr() {
                err.write_all(text.as_bytes())?;
                return Ok(ExitStatus::Error);
            }
            out.write_all(text.as_bytes())?;
            return Ok(ExitStatus::Shown);
        }
    };
    if cli.version {
        out.write_all(version_text().as_bytes())?;
        return Ok(ExitStatus::Shown);
    }
    match cli.command {
        Some(Command::Search(args)) => search(args, &argv, out, err),
        Some(Command::Smart(args)) => {
            let started = std::time::Instant::now();
            let asked = cli::Asked::resolve(args)?;
            commands::smart::run(&asked, started, out, err)
        }
        Some(Command::Index(args)) => commands::index::run(&args, out, err),
        Some(Command::Grep(args)) => {
            let settings = views::grep::GrepSettings::resolve(args, &cli::Context::process())?;
            commands::grep::run(&settings, &argv, out, err)
        }
        Some(Command::Files(args)) => {
            let settings = views::files::FilesSettings::resolve(args, &cli::Context::process())?;
            commands::files::run(&settings, &argv, out, err)
        }
        Some(Command::Read(args)) => {
            let settings = views::read::ReadSettings::resolve(args)?;
            commands::read::run(&settings, out)
        }
        Some(Command::Edit(args)) => {
            let settings = edit::settings::EditSettings::resolve(args, &argv)?;
            commands::edit::run(&settings, out, err)
        }
        Some(Command::Mcp(args)) => mcp::run(args.allow_edit),
        Some(Command::Call(args)) => {
            request::call::run(&args, &mut std::io::stdin(), &dirs::process_env, out)
        }
        Some(Command::Memory(args)) => {
            commands::memory::run(&args, search::settings::session_from_env(), out, err)
        }
        Some(Command::Setup(args)) => commands::setup::run(&args, &dirs::process_env, out, err),
        Some(Command::Hook(args)) => {
            // Straight to a duplicate of stdout's descriptor, unbuffered:
            // through `out` (or std's line buffer) an answer that could not
            // be written would be retried by `main`'s flush and turn a full
            // stdout into exit 2. The hook logs a failed write itself.
            use std::os::fd::AsFd;
            let mut stdout: Box<dyn Write> = match std::io::stdout().as_fd().try_clone_to_owned() {
                Ok(fd) => Box::new(std::fs::File::from(fd)),
                Err(_) => Box::new(std::io::sink()),
            };
            Ok(commands::hook::run(
                args.event,
                &mut std::io::stdin(),
                &dirs::process_env,
                &mut stdout,
            ))
        }
        Some(Command::Doctor(args)) => commands::doctor::run(&args, out),
        Some(Command::Man(args)) => commands::man::run(&args, out),
        Some(Command::Completions(args)) => {
            let mut command = Cli::command();
            clap_complete::generate(args.shell, &mut command, "scout", out);
            Ok(ExitStatus::Shown)
        }
        None => {
            out.write_all(Cli::command().render_help().to_string().as_bytes())?;
            Ok(ExitStatus::Error)
        }
    }
}

fn search(
    args: cli::SearchArgs,
    argv: &[OsString],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus> {
    let settings = search::settings::SearchSettings::resolve(args, argv)?;
    commands::search::run(&settings, out, err)
}
