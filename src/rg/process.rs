//! Running rg as a child process.
//!
//! stdout is streamed line by line into a sink that may answer "stop";
//! stderr is read as it comes, so a chatty rg can never block on a full
//! pipe. Both pipes are read on the calling thread, whichever `poll` says
//! has data: a thread of its own for stderr cost a search ~0.1 ms (its
//! stack mapped and unmapped, and every unmap of a two-thread process
//! flushing the other core's TLB). Stopping early kills the child: that
//! counts as success when rg had said nothing on stderr
//! (BurntSushi/ripgrep `crates/cli/src/process.rs` treats an early close
//! the same way).

use std::io::{BufRead, BufReader, ErrorKind, Read};
use std::process::{Child, ChildStderr, ChildStdout, Command, Stdio};

use anyhow::{Context, Result};
use rustix::event::{poll, PollFd, PollFlags};

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

/// Runs rg and hands each line of its stdout, with its `\n` (the last
/// line may lack one when the output was cut), to `sink`.
pub fn run_plain(
    rg: &Rg,
    command: &RgCommand,
    mut sink: impl FnMut(&[u8]) -> Flow,
) -> Result<RgOutcome> {
    let mut child = spawn_piped(rg, command)?;
    let (stopped, stderr) = pump(&mut child, &mut sink)?;
    finish(child, stopped, stderr, 0)
}

/// Runs `rg --json ...`, handing each event to `sink` in the order rg
/// prints them.
pub fn run_streaming(
    rg: &Rg,
    command: &RgCommand,
    mut sink: impl FnMut(RgEvent<'_>) -> Flow,
) -> Result<RgOutcome> {
    let mut child = spawn_piped(rg, command)?;
    let mut unparsed = 0;
    let (stopped, stderr) = pump(&mut child, &mut |line: &[u8]| match parse_event(line) {
        Ok(event) => sink(event),
        Err(_) => {
            unparsed += 1;
            Flow::Continue
        }
    })?;
    finish(child, stopped, stderr, unparsed)
}

fn finish(mut child: Child, stopped: bool, stderr: Vec<u8>, unparsed: u64) -> Result<RgOutcome> {
    let status = child.wait().context("waiting for rg")?;
    Ok(RgOutcome {
        code: if stopped { None } else { status.code() },
        stderr,
        stopped,
        unparsed,
    })
}

/// Reads the child's stdout (split into lines for `sink`) and its stderr
/// (kept whole) until both end, or until `sink` stops: then the child is
/// killed and the rest of its stderr read. Returns whether it stopped, and
/// the stderr.
fn pump(child: &mut Child, sink: &mut dyn FnMut(&[u8]) -> Flow) -> Result<(bool, Vec<u8>)> {
    let mut stdout = child.stdout.take().map(|out| {
        widen_pipe(&out);
        // A BufReader for its buffer, left uninitialised until read into.
        BufReader::with_capacity(READ_BUFFER_BYTES, out)
    });
    let mut stderr = child.stderr.take();
    let mut pending = Vec::new();
    let mut errors = Vec::new();
    while stdout.is_some() || stderr.is_some() {
        let (out_ready, err_ready) =
            wait_readable(stdout.as_ref().map(BufReader::get_ref), stderr.as_ref())?;
        if let Some(reader) = stdout.as_mut().filter(|_| out_ready) {
            let chunk = fill(reader).context("reading rg's output")?;
            let read = chunk.len();
            let flow = if read == 0 {
                stdout = None;
                last_line(&mut pending, sink)
            } else {
                let flow = split_lines(&mut pending, chunk, sink);
                reader.consume(read);
                flow
            };
            if flow == Flow::Stop {
                drop(stdout);
                let _ = child.kill();
                if let Some(mut err) = stderr {
                    let _ = err.read_to_end(&mut errors);
                }
                return Ok((true, errors));
            }
        }
        if let Some(err) = stderr.as_mut().filter(|_| err_ready) {
            let mut buf = [0u8; 4096];
            let n = retry_interrupted(|| err.read(&mut buf)).context("reading rg's stderr")?;
            if n == 0 {
                stderr = None;
            }
            errors.extend_from_slice(&buf[..n]);
        }
    }
    Ok((false, errors))
}

/// One read into the reader's (empty) buffer; the bytes read, none at
/// the end of output.
fn fill(reader: &mut BufReader<ChildStdout>) -> std::io::Result<&[u8]> {
    loop {
        match reader.fill_buf() {
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
            Ok(_) => return Ok(reader.buffer()),
        }
    }
}

fn retry_interrupted(mut read: impl FnMut() -> std::io::Result<usize>) -> std::io::Result<usize> {
    loop {
        match read() {
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}

/// Which of the two pipes (those still open) have data or an end to read.
fn wait_readable(
    out: Option<&ChildStdout>,
    err: Option<&ChildStderr>,
) -> std::io::Result<(bool, bool)> {
    let wanted = PollFlags::IN;
    let ready = PollFlags::IN | PollFlags::HUP | PollFlags::ERR;
    loop {
        let mut fds: Vec<PollFd<'_>> = Vec::with_capacity(2);
        if let Some(out) = out {
            fds.push(PollFd::new(out, wanted));
        }
        if let Some(err) = err {
            fds.push(PollFd::new(err, wanted));
        }
        match poll(&mut fds, None) {
            Ok(_) => {
                let mut flags = fds.iter().map(|fd| fd.revents().intersects(ready));
                let out_ready = out.is_some() && flags.next().unwrap_or(false);
                let err_ready = err.is_some() && flags.next().unwrap_or(false);
                return Ok((out_ready, err_ready));
            }
            Err(rustix::io::Errno::INTR) => continue,
            Err(e) => return Err(e.into()),
        }
    }
}

/// Hands each complete line of `chunk` (with its `\n`) to `sink`, joining
/// the first to the incomplete line carried in `pending`, and carries the
/// chunk's own incomplete last line on.
pub(super) fn split_lines(
    pending: &mut Vec<u8>,
    chunk: &[u8],
    sink: &mut dyn FnMut(&[u8]) -> Flow,
) -> Flow {
    let mut rest = chunk;
    while let Some(newline) = memchr::memchr(b'\n', rest) {
        let (line, tail) = rest.split_at(newline + 1);
        rest = tail;
        let flow = if pending.is_empty() {
            sink(line)
        } else {
            pending.extend_from_slice(line);
            let flow = sink(pending);
            pending.clear();
            flow
        };
        if flow == Flow::Stop {
            return Flow::Stop;
        }
    }
    pending.extend_from_slice(rest);
    Flow::Continue
}

/// At the end of output: the line left without a `\n`, if any, to `sink`.
pub(super) fn last_line(pending: &mut Vec<u8>, sink: &mut dyn FnMut(&[u8]) -> Flow) -> Flow {
    if pending.is_empty() {
        return Flow::Continue;
    }
    let flow = sink(pending);
    pending.clear();
    flow
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_their_newline_and_join_across_chunks() {
        let mut seen: Vec<Vec<u8>> = Vec::new();
        let mut sink = |line: &[u8]| {
            seen.push(line.to_vec());
            Flow::Continue
        };
        let mut pending = Vec::new();
        split_lines(&mut pending, b"a:1\nb:", &mut sink);
        split_lines(&mut pending, b"2\n\nc", &mut sink);
        last_line(&mut pending, &mut sink);
        assert_eq!(seen, [&b"a:1\n"[..], b"b:2\n", b"\n", b"c"]);
        assert!(pending.is_empty());
    }

    #[test]
    fn a_stop_ends_the_chunk() {
        let mut seen = 0;
        let mut sink = |_: &[u8]| {
            seen += 1;
            Flow::Stop
        };
        let mut pending = Vec::new();
        assert_eq!(
            split_lines(&mut pending, b"a\nb\nc\n", &mut sink),
            Flow::Stop
        );
        assert_eq!(seen, 1);
    }
}
