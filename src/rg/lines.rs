//! Running rg under a deadline, for the faithful views (`grep`, `files`).
//!
//! rg's stdout is read in chunks on its own thread and handed over a
//! channel, so the caller can stop waiting at a deadline even while rg is
//! silent (a slow filesystem, a huge file with no match). At the deadline
//! the child is killed and what was read so far is kept, cut at the last
//! complete line: a timeout never loses the results it already had.
//!
//! rg failing with EAGAIN ("Resource temporarily unavailable", which some
//! sandboxes return when rg spawns its worker threads) is retried once with
//! `-j1`; the sink is [reset](LineSink::reset) first, so nothing is counted
//! twice. Streaming (`run_plain`, `run_streaming`) stays in `process`.

use std::io::Read;
use std::process::Child;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::Result;

use super::{Flow, Rg, RgCommand};

/// How long to wait for rg's stderr after it was killed (a grandchild
/// could hold the pipe open; rg itself never spawns one).
const STDERR_GRACE: Duration = Duration::from_secs(2);

/// Receives rg's stdout one line at a time.
pub trait LineSink {
    /// One line, without its `\n` terminator.
    fn line(&mut self, line: &[u8]) -> Flow;
    /// Forgets every line seen so far (before a retry).
    fn reset(&mut self);
}

/// How a bounded rg run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// rg exited on its own; see [`LinesOutcome::code`].
    Exited,
    /// The sink answered [`Flow::Stop`] and rg was killed.
    Stopped,
    /// The deadline passed and rg was killed; the lines read before it
    /// were handed to the sink, a trailing incomplete line was not.
    TimedOut,
}

/// The end of a bounded rg run.
#[derive(Debug)]
pub struct LinesOutcome {
    pub ending: Ending,
    /// rg's exit code when it exited on its own (`None` after a signal).
    pub code: Option<i32>,
    /// Everything rg wrote to stderr.
    pub stderr: Vec<u8>,
    /// True when the first run failed with EAGAIN and this is the `-j1`
    /// retry's outcome.
    pub retried_single_threaded: bool,
}

impl LinesOutcome {
    /// rg's stderr as trimmed, non-empty lines.
    pub fn stderr_lines(&self) -> Vec<String> {
        String::from_utf8_lossy(&self.stderr)
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect()
    }

    /// rg's reason when it rejected the request itself (exit 2 before
    /// searching): see [`super::process::rejection`].
    pub fn rejection(&self, patterns: &[String]) -> Option<String> {
        super::process::rejection(self.code, &self.stderr, patterns)
    }

    /// True when rg failed because a thread or process could not be
    /// created: EAGAIN, "Resource temporarily unavailable" (os error 11).
    pub fn resource_exhausted(&self) -> bool {
        let text = String::from_utf8_lossy(&self.stderr);
        self.code == Some(2)
            && (text.contains("Resource temporarily unavailable") || text.contains("os error 11"))
    }
}

/// Runs rg (plain output), handing each stdout line to `sink` until rg
/// exits, the sink stops, or `deadline` passes. Retries once with `-j1`
/// when the first run failed with EAGAIN.
pub fn run_lines(
    rg: &Rg,
    command: &RgCommand,
    deadline: Option<Instant>,
    sink: &mut dyn LineSink,
) -> Result<LinesOutcome> {
    let outcome = run_once(rg, command, deadline, sink)?;
    if outcome.ending != Ending::Exited || !outcome.resource_exhausted() {
        return Ok(outcome);
    }
    sink.reset();
    let mut outcome = run_once(rg, &command.single_threaded(), deadline, sink)?;
    outcome.retried_single_threaded = true;
    Ok(outcome)
}

fn run_once(
    rg: &Rg,
    command: &RgCommand,
    deadline: Option<Instant>,
    sink: &mut dyn LineSink,
) -> Result<LinesOutcome> {
    let mut child = super::process::spawn_piped(rg, command)?;
    let stdout = child.stdout.take().expect("stdout is piped");
    let stderr = child.stderr.take().expect("stderr is piped");
    let chunks = read_in_background(stdout, 16);
    let errors = read_in_background(stderr, usize::MAX);

    let mut pending: Vec<u8> = Vec::new();
    let ending = loop {
        let chunk = match deadline {
            None => chunks.recv().map_err(|_| RecvTimeoutError::Disconnected),
            Some(deadline) => {
                chunks.recv_timeout(deadline.saturating_duration_since(Instant::now()))
            }
        };
        match chunk {
            Ok(chunk) => {
                if feed(&mut pending, &chunk, sink) == Flow::Stop {
                    break Ending::Stopped;
                }
            }
            Err(RecvTimeoutError::Timeout) => break Ending::TimedOut,
            Err(RecvTimeoutError::Disconnected) => {
                if !pending.is_empty() && sink.line(&pending) == Flow::Stop {
                    break Ending::Stopped;
                }
                break Ending::Exited;
            }
        }
    };
    finish(rg, &mut child, ending, &errors)
}

/// Splits `chunk` into lines for `sink`, without their `\n`, carrying an
/// incomplete last line in `pending` to the next chunk.
fn feed(pending: &mut Vec<u8>, chunk: &[u8], sink: &mut dyn LineSink) -> Flow {
    super::process::split_lines(pending, chunk, &mut |line| {
        sink.line(line.strip_suffix(b"\n").unwrap_or(line))
    })
}

/// Reads `source` to its end on a thread, sending chunks of up to 64 KiB;
/// at most `bound` chunks wait in the channel.
fn read_in_background(mut source: impl Read + Send + 'static, bound: usize) -> Receiver<Vec<u8>> {
    let (sender, receiver) = if bound == usize::MAX {
        let (s, r) = mpsc::channel();
        (Sender::Unbounded(s), r)
    } else {
        let (s, r) = mpsc::sync_channel(bound);
        (Sender::Bounded(s), r)
    };
    std::thread::spawn(move || {
        let mut buf = vec![0u8; 1 << 16];
        loop {
            match source.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    if sender.send(buf[..n].to_vec()).is_err() {
                        break;
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            }
        }
    });
    receiver
}

enum Sender {
    Bounded(mpsc::SyncSender<Vec<u8>>),
    Unbounded(mpsc::Sender<Vec<u8>>),
}

impl Sender {
    fn send(&self, chunk: Vec<u8>) -> Result<(), ()> {
        match self {
            Sender::Bounded(s) => s.send(chunk).map_err(|_| ()),
            Sender::Unbounded(s) => s.send(chunk).map_err(|_| ()),
        }
    }
}

fn finish(
    rg: &Rg,
    child: &mut Child,
    ending: Ending,
    errors: &Receiver<Vec<u8>>,
) -> Result<LinesOutcome> {
    if ending != Ending::Exited {
        let _ = child.kill();
    }
    let status = super::process::reap(rg, child)?;
    let mut stderr = Vec::new();
    let grace = Instant::now() + STDERR_GRACE;
    while let Ok(chunk) = errors.recv_timeout(grace.saturating_duration_since(Instant::now())) {
        stderr.extend_from_slice(&chunk);
    }
    Ok(LinesOutcome {
        ending,
        code: if ending == Ending::Exited {
            status.code()
        } else {
            None
        },
        stderr,
        retried_single_threaded: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Collect(Vec<Vec<u8>>);

    impl LineSink for Collect {
        fn line(&mut self, line: &[u8]) -> Flow {
            self.0.push(line.to_vec());
            Flow::Continue
        }
        fn reset(&mut self) {
            self.0.clear();
        }
    }

    #[test]
    fn feed_joins_lines_split_across_chunks() {
        let mut sink = Collect::default();
        let mut pending = Vec::new();
        feed(&mut pending, b"a:1\nb:", &mut sink);
        feed(&mut pending, b"2\n\nc", &mut sink);
        assert_eq!(sink.0, [&b"a:1"[..], b"b:2", b""]);
        assert_eq!(pending, b"c");
    }

    #[test]
    fn rejections_and_eagain_are_recognised_from_stderr() {
        let outcome = |code, stderr: &str| LinesOutcome {
            ending: Ending::Exited,
            code: Some(code),
            stderr: stderr.as_bytes().to_vec(),
            retried_single_threaded: false,
        };
        assert!(outcome(2, "regex parse error:\n    a(\n")
            .rejection(&[])
            .is_some());
        assert!(outcome(2, "unrecognized file type: nope")
            .rejection(&[])
            .is_some());
        assert!(outcome(2, "a/b: Permission denied (os error 13)")
            .rejection(&[])
            .is_none());
        assert!(
            outcome(2, "error: Resource temporarily unavailable (os error 11)")
                .resource_exhausted()
        );
        assert!(!outcome(1, "").resource_exhausted());
    }
}
