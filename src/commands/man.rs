//! `scout man`: prints `scout.1`, or writes every page into `--dir`
//! ([`crate::man`] makes them).

use std::io::Write;

use anyhow::Result;

use crate::cli::ManArgs;
use crate::exit::ExitStatus;

/// Prints `scout.1` to `out`, or writes every page into `args.dir` and
/// names each file written.
pub fn run(args: &ManArgs, out: &mut dyn Write) -> Result<ExitStatus> {
    match &args.dir {
        Some(dir) => {
            for path in crate::man::write_all(dir)? {
                writeln!(out, "{}", path.display())?;
            }
        }
        None => {
            let pages = crate::man::pages()?;
            out.write_all(&pages[0].roff)?;
        }
    }
    Ok(ExitStatus::Shown)
}
