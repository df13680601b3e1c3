//! `scout search`: session housekeeping (`--forget`), the requested paths
//! that do not exist, then one call into the pipeline ([`crate::search`])
//! and its outcome as an exit status.

use std::io::Write;
use std::time::Instant;

use anyhow::{bail, Context, Result};

use crate::exit::ExitStatus;
use crate::search::settings::SearchSettings;

/// Runs a search, writing the page to `out` and warnings to `err`.
pub fn run(
    settings: &SearchSettings,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus> {
    let started = Instant::now();
    if settings.forget {
        let Some(session) = &settings.session else {
            bail!("--forget: no agent session (set SCOUT_SESSION_ID, CLAUDE_CODE_SESSION_ID or CODEX_THREAD_ID)");
        };
        let forgot = session.clear().context("clearing the session memory")?;
        if settings.query.text.is_empty() {
            writeln!(
                out,
                "{} session {}",
                if forgot {
                    "forgot what was shown in"
                } else {
                    "nothing remembered for"
                },
                session.id
            )?;
            return Ok(ExitStatus::Shown);
        }
    }
    if let Some(question) = &settings.question {
        // A question in words: smart's answer, which names the paths
        // that do not exist itself.
        return crate::smart::run(question, started, out, err);
    }
    for skipped in &settings.missing {
        writeln!(err, "{}", skipped.message())?;
    }
    let status = crate::search::search(settings, started, out, err)?;
    Ok(
        if settings.missing.is_empty() || status == ExitStatus::Error {
            status
        } else {
            ExitStatus::Partial
        },
    )
}
