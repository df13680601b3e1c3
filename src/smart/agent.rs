//! `scout smart --agent`: the question handed to an external agent CLI
//! (the command in `SCOUT_SMART_AGENT`, run by `sh -c`), which may run only
//! scout's read-only commands, for at most [`MAX_TURNS`] turns, and must
//! answer in the hit structure of `scout smart`.
//!
//! The protocol is one JSON object per line each way. scout writes first:
//!
//! ```json
//! {"question":"...","allowed":["files","grep","search","read"],"max_turns":8,
//!  "answer":{"hits":[{"path":"string","line":"integer, optional","why":"string"}]}}
//! ```
//!
//! Each line the agent writes is a turn: `{"run":["search","useState"]}`
//! runs `scout search useState` in scout's working directory and is answered
//! `{"turn":1,"exit":0,"output":"..."}` (or `{"turn":1,"error":"..."}` for a
//! command that is not allowed); `{"answer":{"hits":[...]}}` ends the
//! exchange. An answer that does not validate, a line that is not one of
//! these, more than [`MAX_TURNS`] turns, an agent that exits without an
//! answer, or no answer within the time limit (`SCOUT_SMART_AGENT_TIMEOUT`
//! seconds, default [`DEFAULT_TIMEOUT_SECS`]) is an error (exit 2) saying
//! what was wrong; the agent is killed.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use serde_json::{json, Value};

use crate::exit::ExitStatus;
use crate::page::smart::AgentHit;
use crate::smart::SmartSettings;

/// The environment variable naming the agent command.
pub const AGENT_ENV: &str = "SCOUT_SMART_AGENT";
/// Turns the agent may take, answer included.
pub const MAX_TURNS: usize = 8;
/// The scout commands the agent may run: the read-only ones.
pub const ALLOWED: [&str; 4] = ["files", "grep", "search", "read"];
/// The environment variable limiting the exchange, in seconds.
pub const TIMEOUT_ENV: &str = "SCOUT_SMART_AGENT_TIMEOUT";
/// Seconds the whole exchange may take when [`TIMEOUT_ENV`] is not set:
/// an agent CLI may think for a while on each of its turns, but one that
/// hangs must not hang scout.
pub const DEFAULT_TIMEOUT_SECS: u64 = 300;

/// The time limit [`TIMEOUT_ENV`] sets (`value`, read once by the
/// settings): whole seconds, at least 1.
pub fn timeout(value: Option<&str>) -> Result<Duration> {
    let Some(value) = value else {
        return Ok(Duration::from_secs(DEFAULT_TIMEOUT_SECS));
    };
    match value.trim().parse::<u64>() {
        Ok(secs) if secs > 0 => Ok(Duration::from_secs(secs)),
        _ => bail!("{TIMEOUT_ENV}={value:?}: give the agent's time limit in whole seconds, at least 1 (default {DEFAULT_TIMEOUT_SECS})"),
    }
}

/// The agent's lines, read on a thread of their own so that waiting for
/// one can time out: `None` when the agent closed its output.
fn lines(from: impl Read + Send + 'static) -> Receiver<io::Result<Option<String>>> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let mut from = BufReader::new(from);
        loop {
            let mut line = String::new();
            let read = from.read_line(&mut line).map(|n| (n > 0).then_some(line));
            let done = !matches!(read, Ok(Some(_)));
            if send.send(read).is_err() || done {
                break;
            }
        }
    });
    receive
}

/// Bytes of a command's output passed back, at most.
const OUTPUT_CAP: usize = 64 * 1024;

/// Checks an answer against the hit structure: `{"hits":[{"path":
/// string, "line": integer (optional), "why": non-empty string}]}`, no
/// other fields.
pub fn validate(answer: &Value) -> Result<Vec<AgentHit>> {
    let object = answer
        .as_object()
        .ok_or_else(|| anyhow!("the answer must be an object with \"hits\""))?;
    if let Some(key) = object.keys().find(|k| *k != "hits") {
        bail!("the answer has an unknown field {key:?} (only \"hits\")");
    }
    let hits = object
        .get("hits")
        .and_then(Value::as_array)
        .ok_or_else(|| anyhow!("the answer's \"hits\" must be an array"))?;
    hits.iter()
        .enumerate()
        .map(|(i, hit)| {
            let n = i + 1;
            let hit = hit
                .as_object()
                .ok_or_else(|| anyhow!("hit {n} must be an object"))?;
            if let Some(key) = hit
                .keys()
                .find(|k| !["path", "line", "why"].contains(&k.as_str()))
            {
                bail!("hit {n} has an unknown field {key:?} (path, line, why)");
            }
            let path = match hit.get("path") {
                Some(Value::String(p)) if !p.is_empty() => p.clone(),
                Some(_) => bail!("hit {n}: \"path\" must be a non-empty string"),
                None => bail!("hit {n}: \"path\" is missing"),
            };
            let line =
                match hit.get("line") {
                    None | Some(Value::Null) => None,
                    Some(v) => Some(v.as_u64().filter(|&l| l >= 1).ok_or_else(|| {
                        anyhow!("hit {n}: \"line\" must be an integer, 1 or more")
                    })?),
                };
            let why = match hit.get("why") {
                Some(Value::String(w)) if !w.trim().is_empty() => w.clone(),
                Some(_) => bail!("hit {n}: \"why\" must be a non-empty string"),
                None => bail!("hit {n}: \"why\" is missing (every hit says why it answers)"),
            };
            Ok(AgentHit { path, line, why })
        })
        .collect()
}

/// Runs the exchange with the agent of `SCOUT_SMART_AGENT` and prints its
/// validated hits.
pub fn delegate(settings: &SmartSettings, out: &mut dyn Write) -> Result<ExitStatus> {
    let Some(command) = settings
        .agent_command
        .as_deref()
        .filter(|c| !c.trim().is_empty())
    else {
        bail!(
            "--agent: no agent configured; set {AGENT_ENV} to a command that reads the question on stdin and answers in JSON lines (see `scout smart --help`), e.g. {AGENT_ENV}='my-agent --json'"
        );
    };
    let scout = std::env::current_exe().context("finding scout's own binary")?;
    // A process group of its own, so that the agent and whatever it
    // started are stopped together (a child left running would hold
    // scout's stderr open). An agent whose scout is interrupted sees its
    // stdin close.
    let mut child = Command::new("sh")
        .args(["-c", command])
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .with_context(|| format!("starting the agent {command:?}"))?;
    let mut agent = Agent {
        to: child.stdin.take().expect("stdin is piped"),
        from: lines(child.stdout.take().expect("stdout is piped")),
        limit: settings.agent_timeout,
        deadline: Instant::now() + settings.agent_timeout,
    };
    let outcome = exchange(&mut agent, &settings.question, &scout);
    drop(agent);
    let _ = rustix::process::kill_process_group(
        rustix::process::Pid::from_child(&child),
        rustix::process::Signal::KILL,
    );
    let _ = child.kill();
    let _ = child.wait();
    let (hits, turns) = outcome?;
    let hits: Vec<AgentHit> = hits.into_iter().take(settings.max_results).collect();
    let answer = crate::render::smart::Answer {
        question: &settings.question,
        agent: command,
        turns,
        hits: &hits,
    };
    if settings.json {
        crate::render::smart::write_answer_json(out, &answer)?;
    } else {
        crate::render::smart::write_answer_text(out, &answer)?;
    }
    Ok(if hits.is_empty() {
        ExitStatus::NoMatch
    } else {
        ExitStatus::Shown
    })
}

/// The two ends of the exchange, and its time limit.
struct Agent {
    to: std::process::ChildStdin,
    from: Receiver<io::Result<Option<String>>>,
    limit: Duration,
    deadline: Instant,
}

impl Agent {
    /// The agent's next line, waited for until the deadline; `turn` is the
    /// turn it would be, for the error.
    fn next_line(&self, turn: usize) -> Result<String> {
        let wait = self.deadline.saturating_duration_since(Instant::now());
        match self.from.recv_timeout(wait) {
            Ok(Ok(Some(line))) => Ok(line),
            Ok(Err(e)) => Err(e).context("reading the agent"),
            Err(RecvTimeoutError::Timeout) => bail!(
                "the agent gave no answer within {} s (after {} turns); it was stopped ({TIMEOUT_ENV} sets the limit)",
                self.limit.as_secs(),
                turn - 1
            ),
            Ok(Ok(None)) | Err(RecvTimeoutError::Disconnected) => bail!(
                "the agent exited after {} turns without an answer",
                turn - 1
            ),
        }
    }
}

/// The exchange itself: the opening line, then up to [`MAX_TURNS`] turns;
/// the validated hits and the turns taken.
fn exchange(
    agent: &mut Agent,
    question: &str,
    scout: &std::path::Path,
) -> Result<(Vec<AgentHit>, usize)> {
    let opening = json!({
        "question": question,
        "allowed": ALLOWED,
        "max_turns": MAX_TURNS,
        "answer": {"hits": [{"path": "string", "line": "integer, optional", "why": "string"}]},
    });
    writeln!(agent.to, "{opening}").map_err(not_reading)?;
    for turn in 1..=MAX_TURNS {
        let line = agent.next_line(turn)?;
        let message: Value = serde_json::from_str(line.trim()).map_err(|e| {
            anyhow!(
                "turn {turn}: the agent's line is not JSON ({e}): {:?}",
                line.trim()
            )
        })?;
        if let Some(answer) = message.get("answer") {
            let hits =
                validate(answer).map_err(|e| anyhow!("the agent's answer is invalid: {e}"))?;
            return Ok((hits, turn));
        }
        let Some(args) = message.get("run").and_then(Value::as_array) else {
            bail!(
                "turn {turn}: the agent's line has neither \"run\" nor \"answer\": {}",
                line.trim()
            );
        };
        let reply = run_turn(scout, args, turn)?;
        writeln!(agent.to, "{reply}").map_err(not_reading)?;
    }
    bail!("the agent took {MAX_TURNS} turns without an answer (at most {MAX_TURNS})")
}

/// A write to the agent that failed: it stopped reading (it exited, or
/// closed its input). Said as an error of its own, not as the write's
/// broken pipe, which `main` reads as scout's own stdout closing (exit
/// 0, nothing said): an agent that exits without reading was exit 0 in
/// one run of three, as the race fell.
fn not_reading(e: std::io::Error) -> anyhow::Error {
    anyhow!("the agent stopped reading its input before the exchange was over ({e}); it must read the question on stdin and answer in JSON lines (see `scout smart --help`)")
}

/// Runs one `{"run": [...]}` turn: the scout command when it is one of
/// [`ALLOWED`], its output (stdout then stderr, cut at [`OUTPUT_CAP`])
/// as the reply; otherwise the refusal.
fn run_turn(scout: &std::path::Path, args: &[Value], turn: usize) -> Result<Value> {
    let args: Option<Vec<&str>> = args.iter().map(Value::as_str).collect();
    let Some(args) = args.filter(|a| a.first().is_some_and(|a| ALLOWED.contains(a))) else {
        return Ok(json!({"turn": turn, "error": format!(
            "only these scout commands may run: {}", ALLOWED.join(", ")
        )}));
    };
    let output = Command::new(scout)
        .args(&args)
        .env_remove(AGENT_ENV)
        .stdin(Stdio::null())
        .output()
        .context("running the agent's scout command")?;
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    if text.len() > OUTPUT_CAP {
        let mut cut = OUTPUT_CAP;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        text.push_str("\n[output cut]");
    }
    Ok(json!({"turn": turn, "exit": output.status.code(), "output": text}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_limit_is_whole_seconds() {
        assert_eq!(timeout(None).unwrap().as_secs(), DEFAULT_TIMEOUT_SECS);
        assert_eq!(timeout(Some("20")).unwrap().as_secs(), 20);
        for bad in ["0", "-1", "1.5", "soon", ""] {
            let e = timeout(Some(bad)).unwrap_err().to_string();
            assert!(e.contains("whole seconds"), "{bad:?}: {e}");
        }
    }

    #[test]
    fn answers_that_validate() {
        let hits = validate(&json!({"hits": [
            {"path": "src/a.rs", "line": 3, "why": "defines it"},
            {"path": "src/b.rs", "why": "uses it"},
        ]}))
        .unwrap();
        assert_eq!(hits[0].line, Some(3));
        assert_eq!(hits[1].line, None);
        assert!(validate(&json!({"hits": []})).unwrap().is_empty());
    }

    #[test]
    fn answers_that_do_not_say_what_is_wrong() {
        let err = |v: Value| validate(&v).unwrap_err().to_string();
        assert!(err(json!({"hits": [{"path": "a"}]})).contains("hit 1: \"why\" is missing"));
        assert!(err(json!({"hits": [{"path": "a", "why": " "}]})).contains("non-empty"));
        assert!(err(json!({"hits": [{"why": "x"}]})).contains("\"path\" is missing"));
        assert!(err(json!({"hits": [{"path": "a", "why": "x", "line": 0}]})).contains("\"line\""));
        assert!(
            err(json!({"hits": [{"path": "a", "why": "x", "score": 1}]}))
                .contains("unknown field \"score\"")
        );
        assert!(err(json!({"results": []})).contains("unknown field"));
        assert!(err(json!([])).contains("must be an object"));
    }
}
