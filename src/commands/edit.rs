//! `scout edit`: one call into the edit pipeline ([`crate::edit`]) and its
//! outcome as an exit status (0 written, 1 nothing matched, 2 refused).

use std::io::Write;

use anyhow::Result;

use crate::edit::settings::EditSettings;
use crate::exit::ExitStatus;

/// Runs an edit, writing its report to `out` and messages to `err`.
pub fn run(
    settings: &EditSettings,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus> {
    crate::edit::run(settings, out, err)
}
