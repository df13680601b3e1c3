//! The `scout` binary: parse, run, map the outcome to an exit code.

use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use scout::exit::ExitStatus;

/// Set in the environment, makes scout panic on purpose once the panic
/// hook is in place, so the tests can see what a user would see.
/// Undocumented for users; it does nothing else.
const PANIC_ENV: &str = "SCOUT_INTERNAL_TEST_PANIC";

fn main() -> ExitCode {
    let argv: Vec<_> = std::env::args_os().collect();
    install_panic_hook(&argv);
    let stdout = std::io::stdout();
    // Under 64 KiB, like rg's read buffer (src/rg/process.rs): freeing a
    // chunk that large makes glibc consolidate its free lists.
    let mut out = std::io::BufWriter::with_capacity(32 * 1024, stdout.lock());
    let mut err = std::io::stderr();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        if std::env::var_os(PANIC_ENV).is_some() {
            panic!("{PANIC_ENV} is set");
        }
        scout::run(argv, &mut out, &mut err)
    }));
    let result = match result {
        Ok(result) => result.and_then(|status| {
            out.flush()?;
            Ok(status)
        }),
        Err(_) => {
            // The hook said what happened; half a page is not printed.
            let _ = out.into_parts();
            return ExitStatus::Error.into();
        }
    };
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

/// A panic, on any thread, prints one line naming the version and the
/// command to report, never a backtrace into an agent's context;
/// `main` then exits 2.
fn install_panic_hook(argv: &[std::ffi::OsString]) {
    static REPORTED: AtomicBool = AtomicBool::new(false);
    // `scout`, not the path it was run by: the report names the command.
    let words = argv.iter().skip(1).map(|a| a.as_bytes());
    let command = scout::shell::join(std::iter::once(&b"scout"[..]).chain(words));
    std::panic::set_hook(Box::new(move |info| {
        // A thread's panic can re-panic the thread that joins it: one line.
        if REPORTED.swap(true, Ordering::SeqCst) {
            return;
        }
        let payload = info.payload();
        let what = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("panic");
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let line = format!(
            "scout {}: internal error ({}{at}); please report it with the command: {command}\n",
            env!("CARGO_PKG_VERSION"),
            what.replace('\n', " "),
        );
        let _ = std::io::stderr().write_all(line.as_bytes());
    }));
}

/// A closed stdout (`scout ... | head`) ends quietly.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
