//! Running rg as a child process.
//!
//! stdout is streamed line by line into a sink that may answer "stop";
//! stderr goes to an anonymous file read after rg exits, so a chatty rg can
//! never block on it and no thread is needed to drain it. Where no such
//! file can be made, stderr is a pipe drained on its own thread, as
//! STYLE.md's rule has it; the file does the rule's job for less.
//! Stopping early kills the child: that counts as success when rg had
//! said nothing on stderr (BurntSushi/ripgrep `crates/cli/src/process.rs`
//! treats an early close the same way).

use std::fs::File;
use std::io::{BufRead, BufReader, ErrorKind, Read, Seek, SeekFrom};
use std::os::unix::fs::FileExt;
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::thread::JoinHandle;
use std::time::Duration;

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
    /// rg's "a regex could not be compiled" error, if that is why it
    /// failed, the same whatever rg's version: rg 14 and later prefix it
    /// with `rg: ` and quote the pattern as they rewrote it (`(?:(x)`),
    /// so the error of the first of `patterns` that does not compile is
    /// the regex crate's own (rg 13's words, the pattern as typed); rg's
    /// text, without its prefix, when every pattern compiles here.
    pub fn regex_error(&self, patterns: &[String]) -> Option<String> {
        let text = String::from_utf8_lossy(&self.stderr);
        let failed = self.code == Some(2) && text.contains("regex parse error")
            || text.contains("error parsing regex");
        if !failed {
            return None;
        }
        Some(version_free(&text, patterns))
    }

    /// rg's reason when it refused the search itself: see [`rejection`].
    pub fn rejection(&self, patterns: &[String]) -> Option<String> {
        rejection(self.code, &self.stderr, patterns)
    }

    /// rg's stderr as lines, for warnings.
    /// Why nothing at all was searched, when rg says so
    /// ([`nothing_searched`]).
    pub fn nothing_searched(&self) -> Option<String> {
        nothing_searched(&self.stderr_lines())
    }

    pub fn stderr_lines(&self) -> Vec<String> {
        String::from_utf8_lossy(&self.stderr)
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_string)
            .collect()
    }
}

/// What rg says, at the start of a line of its stderr (after rg 14's
/// `rg: `), when it refuses a search before reading any file: a regex
/// that does not compile, a literal line break in a pattern (without
/// `-U`), an unknown file type, a malformed glob or flag. Unlike a file
/// it could not read (after which it searched the rest), these are bad
/// input: nothing was searched.
const REFUSALS: [&str; 8] = [
    "regex parse error",
    "error parsing regex",
    "unrecognized file type",
    "error parsing glob",
    "error parsing flag",
    "error: Found argument",
    // rg 13 quotes the line break as '"\n"', rg 14 and later as "\n".
    "the literal '",
    "the literal \"",
];

/// The first line of rg's refusal of a pattern with a line break in it,
/// `the literal '"\n"' is not allowed in a regex`, when `reason` (a
/// [`rejection`]) is that refusal. rg goes on to advise `--multiline`
/// (`-U`): a flag of rg's and `scout grep`'s, not of every command's, so
/// each command words its own advice.
pub fn newline_refusal(reason: &str) -> Option<&str> {
    let first = reason.lines().next()?;
    (first.starts_with("the literal") && first.contains("not allowed")).then_some(first)
}

/// rg's reason, worded as rg 13 words it ([`version_free`]), when it
/// exited 2 having refused the search itself (see [`REFUSALS`]); `None`
/// when it ran (a file it could not read is a warning, not this).
pub fn rejection(code: Option<i32>, stderr: &[u8], patterns: &[String]) -> Option<String> {
    let text = String::from_utf8_lossy(stderr);
    let refused = text.lines().any(|line| {
        let line = line.strip_prefix("rg: ").unwrap_or(line);
        REFUSALS.iter().any(|needle| line.starts_with(needle))
    });
    (code == Some(2) && refused).then(|| version_free(&text, patterns))
}

/// rg's error text as rg 13 words it, whatever rg's version: a regex
/// that does not compile is described by the regex crate (as rg 13 did,
/// with the pattern as typed, where rg 14 and later show the pattern as
/// they rewrote it, `(?:(x)`), else rg's lines without the `rg: ` that
/// rg 14 and later put first.
pub(super) fn version_free(text: &str, patterns: &[String]) -> String {
    if text.contains("regex parse error") {
        if let Some(own) = patterns.iter().find_map(|p| regex::Regex::new(p).err()) {
            return own.to_string();
        }
    }
    let lines: Vec<&str> = text
        .trim_end()
        .lines()
        .map(|l| l.strip_prefix("rg: ").unwrap_or(l))
        .collect();
    lines.join("\n")
}

/// Why nothing at all was searched, when rg's stderr (`lines`) says so: a
/// request whose filters (globs, `--type`, the ignore rules) leave no file
/// is an error (exit 2, as rg's own), never "no match" nor "partly
/// searched".
pub fn nothing_searched(lines: &[String]) -> Option<String> {
    let said = lines.iter().any(|l| l.contains("No files were searched"));
    said.then(|| {
        "nothing was searched: no file is left once the search's paths, globs (-g), --type and ignore rules apply (rg: \"No files were searched\"); loosen them, or add --hidden where the files are hidden".to_string()
    })
}

/// Bytes read from rg's stdout at a time. Under 64 KiB on purpose: glibc
/// consolidates its free lists whenever a chunk of 64 KiB or more is freed,
/// which cost a few percent of a small search's own time.
const READ_BUFFER_BYTES: usize = 32 * 1024;

/// Bytes of rg's stdout pipe, asked for (Linux's default is 64 KiB).
const PIPE_BYTES: usize = 1 << 20;

/// Lets rg run ahead of scout's reading: with the default 64 KiB pipe,
/// rg's search threads stall whenever scout is busy with an event. Best
/// effort: where the system refuses, or has no such call (macOS), the
/// default pipe still works.
fn widen_pipe(stdout: &std::process::ChildStdout) {
    #[cfg(target_os = "linux")]
    if crate::paths::linux_calls() {
        let _ = rustix::pipe::fcntl_setpipe_size(stdout, PIPE_BYTES);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (stdout, PIPE_BYTES);
}

/// Starts rg with stdin closed and stdout and stderr piped.
pub(super) fn spawn_piped(rg: &Rg, command: &RgCommand) -> Result<Child> {
    start(rg, command, Stdio::piped())
}

/// Runs rg and hands each line of its stdout, with its `\n` (the last
/// line may lack one when the output was cut), to `sink`.
pub fn run_plain(
    rg: &Rg,
    command: &RgCommand,
    mut sink: impl FnMut(&[u8]) -> Flow,
) -> Result<RgOutcome> {
    run_lines_paced(rg, command, None, &mut sink)
}

/// [`run_plain`] for a long pass whose lines are wanted only as a whole
/// (smart's words' pass): once scout has read all rg had written, it
/// sleeps [`PACE`] before reading again, so that rg's writes gather in the
/// pipe. Read as it comes, each of rg's writes (one per file) woke scout:
/// a pass over 24,000 candidate files of a 1 GB tree woke it 15,000 times,
/// 160 ms of CPU on a 2-core machine whose both cores rg was searching
/// on; paced, 460 times and 45 ms, and the pass ended 20 % sooner. The
/// last lines come at most [`PACE`] late, too late for a search's first
/// page, so a search reads as rg writes.
pub fn run_paced(
    rg: &Rg,
    command: &RgCommand,
    mut sink: impl FnMut(&[u8]) -> Flow,
) -> Result<RgOutcome> {
    run_lines_paced(rg, command, Some(PACE), &mut sink)
}

fn run_lines_paced(
    rg: &Rg,
    command: &RgCommand,
    pace: Option<Duration>,
    sink: &mut dyn FnMut(&[u8]) -> Flow,
) -> Result<RgOutcome> {
    let (mut child, stderr) = spawn_keeping_stderr(rg, command)?;
    let stopped = pump(&mut child, pace, sink).inspect_err(|_| abandon(rg, &mut child))?;
    finish(rg, child, stderr, stopped, 0)
}

/// How long [`run_paced`] lets rg's output gather: about 12 KB of a wide
/// pass on that tree, well within the pipe ([`PIPE_BYTES`]; 64 KiB where
/// it cannot be widened).
const PACE: Duration = Duration::from_millis(1);

/// Runs `rg --json ...`, handing each event to `sink` in the order rg
/// prints them.
pub fn run_streaming(
    rg: &Rg,
    command: &RgCommand,
    mut sink: impl FnMut(RgEvent<'_>) -> Flow,
) -> Result<RgOutcome> {
    let (mut child, stderr) = spawn_keeping_stderr(rg, command)?;
    let mut unparsed = 0;
    let stopped = pump(
        &mut child,
        None,
        &mut |line: &[u8]| match parse_event(line) {
            Ok(event) => sink(event),
            Err(_) => {
                unparsed += 1;
                Flow::Continue
            }
        },
    )
    .inspect_err(|_| abandon(rg, &mut child))?;
    finish(rg, child, stderr, stopped, unparsed)
}

/// Where rg's stderr goes while it runs, to be read once it has exited.
enum KeptStderr {
    /// An anonymous file (a memfd, else a temporary file), read once rg
    /// has exited: rg can never block on it, and scout needs no thread to
    /// drain it (a thread cost a search ~0.1 ms: its stack mapped and
    /// unmapped, and a two-thread process flushing the other core's TLB on
    /// every unmap).
    File(File),
    /// A pipe drained on its own thread, where no such file can be made.
    Drained(JoinHandle<Vec<u8>>),
}

/// Starts rg with stdout piped and its stderr kept aside (see
/// [`KeptStderr`]).
fn spawn_keeping_stderr(rg: &Rg, command: &RgCommand) -> Result<(Child, KeptStderr)> {
    if let Some((file, child_end)) = stderr_file() {
        let child = start(rg, command, Stdio::from(child_end))?;
        return Ok((child, KeptStderr::File(file)));
    }
    let mut child = start(rg, command, Stdio::piped())?;
    let mut pipe = child.stderr.take().expect("stderr is piped");
    let drain = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = pipe.read_to_end(&mut buf);
        buf
    });
    Ok((child, KeptStderr::Drained(drain)))
}

/// An anonymous file for rg's stderr (a memfd on Linux, else an unlinked
/// temporary file), and a second descriptor of it for the child.
fn stderr_file() -> Option<(File, File)> {
    let file = memfd().or_else(|| tempfile::tempfile().ok())?;
    let child_end = file.try_clone().ok()?;
    Some((file, child_end))
}

/// A memfd, where the system has them.
#[cfg(target_os = "linux")]
fn memfd() -> Option<File> {
    if !crate::paths::linux_calls() {
        return None;
    }
    rustix::fs::memfd_create("scout-rg-stderr", rustix::fs::MemfdFlags::CLOEXEC)
        .map(File::from)
        .ok()
}

#[cfg(not(target_os = "linux"))]
fn memfd() -> Option<File> {
    None
}

/// Starts rg with stdin closed, stdout piped and stderr to `stderr`.
fn start(rg: &Rg, command: &RgCommand, stderr: Stdio) -> Result<Child> {
    let mut child = match &command.cwd {
        // A relative rg path (`SCOUT_RG=bin/rg`) names a file from here,
        // not from the directory rg runs in.
        Some(dir) => {
            let mut child = Command::new(std::path::absolute(&rg.path)?);
            child.current_dir(dir);
            child
        }
        None => Command::new(&rg.path),
    };
    child
        .args(&command.args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(stderr);
    if let Some(config) = super::config::for_rg() {
        child.env("RIPGREP_CONFIG_PATH", config);
    }
    if rg.cancel.is_some() {
        child.process_group(0);
    }
    let child = child
        .spawn()
        .with_context(|| format!("could not run {}", rg.path.display()))?;
    if let Some(cancel) = &rg.cancel {
        cancel.started(child.id());
    }
    Ok(child)
}

/// Stops and reaps an rg whose output could not be read: in a process
/// that outlives the search (`scout mcp`) it would be left a zombie.
fn abandon(rg: &Rg, child: &mut Child) {
    let _ = child.kill();
    let _ = reap(rg, child);
}

/// Waits for rg, forgetting it as its request's to cancel first (its id
/// is free for another process once it is reaped).
pub(super) fn reap(rg: &Rg, child: &mut Child) -> Result<std::process::ExitStatus> {
    if let Some(cancel) = &rg.cancel {
        cancel.ended(child.id());
    }
    child.wait().context("waiting for rg")
}

impl KeptStderr {
    /// Everything rg wrote to stderr; asked once it has exited.
    fn collect(self) -> Vec<u8> {
        match self {
            KeptStderr::File(mut file) => {
                let len = file
                    .metadata()
                    .ok()
                    .and_then(|m| usize::try_from(m.len()).ok());
                let mut bytes = vec![0; len.unwrap_or(0)];
                if len.is_some() && file.read_exact_at(&mut bytes, 0).is_ok() {
                    return bytes;
                }
                // Whatever went wrong above, what rg said must not be lost:
                // read it from the start, however long it is.
                bytes.clear();
                let _ = file
                    .seek(SeekFrom::Start(0))
                    .and_then(|_| file.read_to_end(&mut bytes));
                bytes
            }
            KeptStderr::Drained(drain) => drain.join().unwrap_or_default(),
        }
    }
}

/// Waits for rg (killed first when the sink stopped it) and gathers how it
/// ended.
fn finish(
    rg: &Rg,
    mut child: Child,
    stderr: KeptStderr,
    stopped: bool,
    unparsed: u64,
) -> Result<RgOutcome> {
    if stopped {
        let _ = child.kill();
    }
    let status = reap(rg, &mut child)?;
    Ok(RgOutcome {
        code: if stopped { None } else { status.code() },
        stderr: stderr.collect(),
        stopped,
        unparsed,
    })
}

/// Reads the child's stdout to its end, split into lines for `sink`, or
/// until `sink` stops (then the pipe is closed). Returns whether it
/// stopped. With a `pace`, a read that found the pipe nearly drained (less
/// than half a buffer) is followed by a sleep that long.
fn pump(
    child: &mut Child,
    pace: Option<Duration>,
    sink: &mut dyn FnMut(&[u8]) -> Flow,
) -> Result<bool> {
    let stdout = child.stdout.take().expect("stdout is piped");
    widen_pipe(&stdout);
    // A BufReader for its buffer, left uninitialised until read into.
    let mut reader = BufReader::with_capacity(READ_BUFFER_BYTES, stdout);
    let mut pending = Vec::new();
    loop {
        let chunk = fill(&mut reader).context("reading rg's output")?;
        let read = chunk.len();
        if read == 0 {
            return Ok(last_line(&mut pending, sink) == Flow::Stop);
        }
        let flow = split_lines(&mut pending, chunk, sink);
        reader.consume(read);
        if flow == Flow::Stop {
            return Ok(true);
        }
        if let Some(pace) = pace.filter(|_| read < READ_BUFFER_BYTES / 2) {
            std::thread::sleep(pace);
        }
    }
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
    fn rg_13_and_15_errors_read_alike() {
        let rg13 = "regex parse error:\n    (unclosed\n    ^\nerror: unclosed group\n";
        let rg15 = "rg: regex parse error:\n    (?:(unclosed)\n    ^\nerror: unclosed group\n";
        let patterns = vec!["(unclosed".to_string()];
        assert_eq!(version_free(rg13, &patterns), version_free(rg15, &patterns));
        assert_eq!(version_free(rg13, &patterns), rg13.trim_end());
        // Other errors lose rg 14's prefix, line by line.
        assert_eq!(
            version_free("rg: unrecognized file type: xyz\n", &[]),
            "unrecognized file type: xyz"
        );
    }

    #[test]
    fn refusals_are_told_from_files_rg_could_not_read() {
        let refused = |stderr: &str| rejection(Some(2), stderr.as_bytes(), &[]);
        for stderr in [
            "error parsing glob '[': unclosed character class; missing ']'\n",
            "rg: error parsing glob '[': unclosed character class; missing ']'\n",
            "unrecognized file type: foo\n",
            "the literal '\"\\n\"' is not allowed in a regex\n\nConsider enabling multiline mode\n",
        ] {
            assert!(refused(stderr).is_some(), "{stderr}");
        }
        assert_eq!(refused("rg: ./a: Permission denied (os error 13)\n"), None);
        // A path that happens to hold the words is not a refusal.
        assert_eq!(
            refused("./the literal error parsing glob: Permission denied (os error 13)\n"),
            None
        );
        assert_eq!(
            rejection(Some(1), b"unrecognized file type: foo\n", &[]),
            None
        );
        let newline = refused("the literal '\"\\n\"' is not allowed in a regex\n\nConsider enabling multiline mode with the --multiline flag (or -U for short).\n").unwrap();
        assert_eq!(
            newline_refusal(&newline),
            Some("the literal '\"\\n\"' is not allowed in a regex")
        );
        assert_eq!(newline_refusal("unrecognized file type: foo"), None);
        // rg 15 words it with double quotes, after `rg: `.
        let newline = refused("rg: the literal \"\\n\" is not allowed in a regex\n\nConsider enabling multiline mode with the --multiline flag (or -U for short).\n").unwrap();
        assert_eq!(
            newline_refusal(&newline),
            Some("the literal \"\\n\" is not allowed in a regex")
        );
    }

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

    #[test]
    fn a_paced_run_reads_every_line_a_plain_one_does() {
        // Enough output, a file's lines written at a time (sorted by
        // path, so in one order every run), for the paced reader to find
        // the pipe drained and sleep many times.
        let dir = tempfile::tempdir().unwrap();
        for f in 0..200 {
            let text: String = (0..40).map(|l| format!("word {f} {l}\n")).collect();
            std::fs::write(dir.path().join(format!("f{f:03}.txt")), text).unwrap();
        }
        let rg = Rg::locate(None, std::env::var_os("PATH")).expect("rg on PATH");
        let flags = super::super::SearchFlags {
            patterns: vec!["word".into()],
            paths: vec![dir.path().as_os_str().to_owned()],
            ..Default::default()
        };
        let mut command = flags.records();
        command.args.insert(0, "--sort=path".into());
        let read = |paced: bool| {
            let mut lines: Vec<Vec<u8>> = Vec::new();
            let sink = |line: &[u8]| {
                lines.push(line.to_vec());
                Flow::Continue
            };
            let outcome = if paced {
                run_paced(&rg, &command, sink)
            } else {
                run_plain(&rg, &command, sink)
            }
            .unwrap();
            assert_eq!(outcome.code, Some(0));
            lines
        };
        let plain = read(false);
        assert_eq!(plain.len(), 200 * 40);
        assert_eq!(read(true), plain);
        // A stop still ends the run at once.
        let mut seen = 0;
        let outcome = run_paced(&rg, &command, |_| {
            seen += 1;
            Flow::Stop
        })
        .unwrap();
        assert!(outcome.stopped);
        assert_eq!(seen, 1);
    }
}
