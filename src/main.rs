//! The `scout` binary: parse, run, map the outcome to an exit code.

use std::io::Write;
use std::process::ExitCode;

use scout::exit::ExitStatus;

fn main() -> ExitCode {
    let argv: Vec<_> = std::env::args_os().collect();
    let stdout = std::io::stdout();
    // Under 64 KiB, like rg's read buffer (src/rg/process.rs): freeing a
    // chunk that large makes glibc consolidate its free lists.
    let mut out = std::io::BufWriter::with_capacity(32 * 1024, stdout.lock());
    let mut err = std::io::stderr();
    let result = scout::run(argv, &mut out, &mut err).and_then(|status| {
        out.flush()?;
        Ok(status)
    });
    match result {
        Ok(status) => status.into(),
        Err(e) if is_broken_pipe(&e) => ExitStatus::Shown.into(),
        Err(e) => {
            let mut message = format!("scout: {e}");
            for cause in e.chain().skip(1) {
                message.push_str(&format!("\n  caused by: {cause}"));
            }
            let _ = writeln!(err, "{message}");
            ExitStatus::Error.into()
        }
    }
}

/// A closed stdout (`scout ... | head`) ends quietly.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
