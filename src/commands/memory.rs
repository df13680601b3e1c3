//! `scout memory show|clear`: what this agent session was shown.

use std::io::Write;

use anyhow::{bail, Context, Result};

use crate::cli::{MemoryAction, MemoryArgs};
use crate::exit::ExitStatus;
use crate::session::Session;

pub fn run(
    args: &MemoryArgs,
    session: Option<Session>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus> {
    let Some(session) = session else {
        if crate::search::settings::session_unattributable() {
            bail!("two agents' commands of this session are running, and scout cannot tell which one runs it, so it uses no memory; run it again when one has finished");
        }
        bail!(
            "no agent session: session memory needs SCOUT_SESSION_ID, CLAUDE_CODE_SESSION_ID or CODEX_THREAD_ID set (and a state directory)"
        );
    };
    match args.action {
        MemoryAction::Clear => {
            let forgot = session.clear().context("clearing the session memory")?;
            if forgot {
                writeln!(out, "forgot what was shown in session {}", session.id)?;
            } else {
                writeln!(out, "nothing remembered for session {}", session.id)?;
            }
            Ok(ExitStatus::Shown)
        }
        MemoryAction::Show => {
            let loaded = session.load();
            if let Some(warning) = loaded.warning {
                writeln!(err, "scout: {warning}")?;
            }
            let memory = loaded.memory;
            writeln!(
                out,
                "session {} ({}): {}, {}",
                session.id,
                session.var,
                crate::render::scope::plural(memory.files.len() as u64, "file", "files"),
                session.file().display()
            )?;
            for (path, file) in &memory.files {
                let ranges: Vec<String> = file
                    .ranges
                    .iter()
                    .map(|&(a, b)| crate::render::scope::line_range(a, b))
                    .collect();
                let lines: u64 = file.ranges.iter().map(|&(a, b)| b - a + 1).sum();
                writeln!(
                    out,
                    "{path}  {}: {}  (size {})",
                    crate::render::scope::plural(lines, "line", "lines"),
                    ranges.join(", "),
                    crate::render::scope::plural(file.size, "byte", "bytes")
                )?;
            }
            Ok(ExitStatus::Shown)
        }
    }
}
