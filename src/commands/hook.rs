//! `scout hook EVENT`: the command Claude Code runs around tool calls
//! (installed by `scout setup claude`). The work is [`crate::hooks`]'s;
//! this module guarantees the contract that makes a hook safe to install:
//! whatever happens (an error, a panic), exit 0, print nothing but a
//! complete answer, and leave one line in the log under the state
//! directory.

use std::io::Write;

use crate::dirs::OsEnvLookup;
use crate::exit::ExitStatus;
use crate::hooks::{self, HookSettings};
use crate::session::hook_log;

/// Runs the hook for `event` on `stdin`; the answer, if any, goes to
/// `out`. Always `ExitStatus::Shown`.
pub fn run(
    event: Option<String>,
    stdin: &mut dyn std::io::Read,
    env: OsEnvLookup<'_>,
    out: &mut dyn Write,
) -> ExitStatus {
    let settings = HookSettings::resolve(event, env);
    // A panic must not print its message: the harness would show it.
    std::panic::set_hook(Box::new(|_| {}));
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let input = hooks::read_stdin(stdin)?;
        hooks::handle(&settings, &input)
    }));
    let failure = match outcome {
        Ok(Ok(Some(answer))) => out
            .write_all(answer.as_bytes())
            .and_then(|()| out.write_all(b"\n"))
            .and_then(|()| out.flush())
            .err()
            .map(|e| format!("writing the answer: {e}")),
        Ok(Ok(None)) => None,
        Ok(Err(e)) => Some(format!("{e:#}")),
        Err(panic) => Some(format!(
            "panic: {}",
            panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default()
        )),
    };
    if let (Some(what), Some(state_dir)) = (failure, &settings.state_dir) {
        let event = settings.event.as_deref().unwrap_or("(no event)");
        hook_log::append(state_dir, event, &what);
    }
    ExitStatus::Shown
}

/// A `scout hook` command line clap refused: logged, exit 0, silent.
pub fn refused(message: &str, env: OsEnvLookup<'_>) -> ExitStatus {
    if let Some(state_dir) = crate::dirs::state_dir_in(env) {
        let first = message.lines().next().unwrap_or("");
        hook_log::append(&state_dir, "(arguments)", first);
    }
    ExitStatus::Shown
}
