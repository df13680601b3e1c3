//! Running rg as a child process.
//!
//! stdout is streamed line by line into a sink that may answer "stop";
//! stderr is drained on its own thread so a chatty rg can never block on a
//! full pipe. Stopping early kills the child: that counts as success when rg
//! had said nothing on stderr (BurntSushi/ripgrep `crates/cli/src/process.rs`
//! treats an early close the same way).

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;

use anyhow::{Context, Result};

use super::{parse_event, Rg, RgCommand, RgEvent};

/// What a sink answers after each line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

/// How an rg run ended.
#[derive(Debug)]
pub struct RgOutcome {
    /// rg's exit code; `None` when scout stopped it early or a signal ended it.
    pub code: Option<i32>,
    /// Everything rg wrote to stderr.
    pub stderr: Vec<u8>,
    /// True when the sink answered [`Flow::Stop`].
    pub stopped: bool,
    /// Lines of stdout that were not valid rg JSON (never expected).
    pub unparsed: u64,
}

impl RgOutcome {
    /// rg's "a regex could not be compiled" error, if that is why it failed.
    pub fn regex_error(&self) -> Option<String> {
        let text = String::from_utf8_lossy(&self.stderr);
        (self.code == Some(2) && text.contains("regex parse error")
            || text.contains("error parsing regex"))
        .then(|| text.trim_end().to_string())
    }

    /// rg's stderr as lines, for warnings.
    pub fn stderr_lines(&self) -> Vec<String> {
        String::from_utf8_lossy(&self.stderr)
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_string)
            .collect()
    }
}

/// Bytes read from rg's stdout at a time. Under 64 KiB on purpose: glibc
/// consolidates its free lists whenever a chunk of 64 KiB or more is freed,
/// which cost a few percent of a small search's own time.
const READ_BUFFER_BYTES: usize = 32 * 1024;

/// Bytes of rg's stdout pipe, asked for (Linux's default is 64 KiB).
const PIPE_BYTES: usize = 1 << 20;

/// Lets rg run ahead of scout's reading: with the default 64 KiB pipe,
/// rg's search threads stall whenever scout is busy with an event. Best
/// effort: where the system refuses, the default pipe still works.
fn widen_pipe(stdout: &std::process::ChildStdout) {
    let _ = rustix::pipe::fcntl_setpipe_size(stdout, PIPE_BYTES);
}

/// Starts rg with stdin closed and stdout and stderr piped.
pub(super) fn spawn_piped(rg: &Rg, command: &RgCommand) -> Result<Child> {
    Command::new(&rg.path)
        .args(&command.args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("could not run {}", rg.path.display()))
}

fn spawn(rg: &Rg, command: &RgCommand) -> Result<(Child, JoinHandle<Vec<u8>>)> {
    let mut child = spawn_piped(rg, command)?;
    let mut stderr = child.stderr.take().expect("stderr is piped");
    let drain = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stderr.read_to_end(&mut buf);
        buf
    });
    Ok((child, drain))
}

fn finish(
    mut child: Child,
    drain: JoinHandle<Vec<u8>>,
    stopped: bool,
    unparsed: u64,
) -> Result<RgOutcome> {
    if stopped {
        let _ = child.kill();
    }
    let status = child.wait().context("waiting for rg")?;
    let stderr = drain.join().unwrap_or_default();
    Ok(RgOutcome {
        code: if stopped { None } else { status.code() },
        stderr,
        stopped,
        unparsed,
    })
}

/// Runs `rg --json ...`, handing each event to `sink` in the order rg
/// prints them.
pub fn run_streaming(
    rg: &Rg,
    command: &RgCommand,
    mut sink: impl FnMut(RgEvent<'_>) -> Flow,
) -> Result<RgOutcome> {
    let (mut child, drain) = spawn(rg, command)?;
    let stdout = child.stdout.take().expect("stdout is piped");
    widen_pipe(&stdout);
    let mut reader = BufReader::with_capacity(READ_BUFFER_BYTES, stdout);
    let mut line = Vec::with_capacity(1 << 12);
    let mut stopped = false;
    let mut unparsed = 0;
    loop {
        line.clear();
        if reader
            .read_until(b'\n', &mut line)
            .context("reading rg's output")?
            == 0
        {
            break;
        }
        match parse_event(&line) {
            Ok(event) => {
                if sink(event) == Flow::Stop {
                    stopped = true;
                    break;
                }
            }
            Err(_) => unparsed += 1,
        }
    }
    drop(reader);
    finish(child, drain, stopped, unparsed)
}

/// Runs rg with plain output, handing each stdout line (with its `\n`) to
/// `sink`.
pub fn run_plain(
    rg: &Rg,
    command: &RgCommand,
    mut sink: impl FnMut(&[u8]) -> Flow,
) -> Result<RgOutcome> {
    let (mut child, drain) = spawn(rg, command)?;
    let stdout = child.stdout.take().expect("stdout is piped");
    widen_pipe(&stdout);
    let mut reader = BufReader::with_capacity(READ_BUFFER_BYTES, stdout);
    let mut line = Vec::with_capacity(1 << 12);
    let mut stopped = false;
    loop {
        line.clear();
        if reader
            .read_until(b'\n', &mut line)
            .context("reading rg's output")?
            == 0
        {
            break;
        }
        if sink(&line) == Flow::Stop {
            stopped = true;
            break;
        }
    }
    drop(reader);
    finish(child, drain, stopped, 0)
}
