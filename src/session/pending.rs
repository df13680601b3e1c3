//! Pending shell commands: which agent of a session is running which
//! Bash command, so that a scout started inside that command knows whose
//! memory is its own.
//!
//! Claude Code runs subagents under the lead's session id, and a scout
//! process sees only that id in its environment. The PreToolUse hook, which
//! does see the agent (`agent_id`), notes each Bash call here before it
//! runs; PostToolUse (or PostToolUseFailure) removes the note when it
//! ends. A scout process then looks at the session's open notes
//! ([`attribute`]): when they point at one agent, it uses that agent's
//! memory; when two agents' calls could be the one running it, it uses
//! no memory at all (neither collapses nor records) rather than guess.
//!
//! Notes live in `$XDG_STATE_HOME/scout/pending/<session>/<call>.json`,
//! one small file per call, written by rename. A note not closed (a
//! cancelled call, a crash) expires after the call's own timeout, and a
//! background command's after the longest one.

use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::Session;
use crate::hash::fnv1a64;

/// How long a note lives past its call's timeout.
const SLACK: Duration = Duration::from_secs(60);

/// The Bash tool's default and longest timeouts (its reference: 2 and 10
/// minutes).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);
pub const MAX_TIMEOUT: Duration = Duration::from_secs(600);

/// One agent's running Bash command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    /// The subagent; `None` for the lead.
    pub agent: Option<String>,
    pub command: String,
    /// Seconds since the Unix epoch after which the note is stale.
    pub expires: u64,
}

impl Note {
    /// A note for `command` run by `agent`, with the Bash call's timeout
    /// (milliseconds, if given) or, for a background command, the longest.
    pub fn new(
        agent: Option<String>,
        command: String,
        timeout_ms: Option<u64>,
        background: bool,
        now: SystemTime,
    ) -> Note {
        let timeout = if background {
            MAX_TIMEOUT
        } else {
            timeout_ms
                .map_or(DEFAULT_TIMEOUT, Duration::from_millis)
                .min(MAX_TIMEOUT)
        };
        Note {
            agent,
            command,
            expires: seconds(now + timeout + SLACK),
        }
    }
}

/// Whose memory a scout process of a session uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attribution {
    /// The lead's (also: no note at all, as without hooks).
    Lead,
    /// This subagent's.
    Agent(String),
    /// Two agents' calls could be running this scout: no memory.
    Ambiguous,
}

impl Session {
    /// The memory of one subagent of this session: its own file.
    pub fn for_agent(&self, agent: &str) -> Session {
        Session {
            id: format!("{}#agent:{agent}", self.id),
            var: self.var,
            dir: self.dir.clone(),
        }
    }

    /// `$XDG_STATE_HOME/scout/pending/<session>`.
    fn pending_dir(&self) -> PathBuf {
        self.dir
            .with_file_name("pending")
            .join(format!("{:016x}", fnv1a64(self.id.as_bytes())))
    }

    fn note_file(&self, call: &str) -> PathBuf {
        self.pending_dir()
            .join(format!("{:016x}.json", fnv1a64(call.as_bytes())))
    }

    /// Notes that `call` (a tool-use id) is running.
    pub fn open_note(&self, call: &str, note: &Note) -> std::io::Result<()> {
        let dir = self.pending_dir();
        std::fs::create_dir_all(&dir)?;
        let mut tmp = match tempfile::NamedTempFile::new_in(&dir) {
            // Another hook removed the directory with its last note.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::create_dir_all(&dir)?;
                tempfile::NamedTempFile::new_in(&dir)?
            }
            other => other?,
        };
        std::io::Write::write_all(&mut tmp, &serde_json::to_vec(note)?)?;
        tmp.persist(self.note_file(call)).map_err(|e| e.error)?;
        Ok(())
    }

    /// Removes the note of `call`, if there is one.
    pub fn close_note(&self, call: &str) -> std::io::Result<()> {
        match std::fs::remove_file(self.note_file(call)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => {
                // The session's directory goes with its last note (this
                // fails, harmlessly, while others are open).
                let _ = std::fs::remove_dir(self.pending_dir());
                Ok(())
            }
        }
    }

    /// The session's open notes at `now`; stale ones are removed.
    pub fn open_notes(&self, now: SystemTime) -> Vec<Note> {
        let Ok(entries) = std::fs::read_dir(self.pending_dir()) else {
            return Vec::new();
        };
        let now = seconds(now);
        let mut notes = Vec::new();
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            match std::fs::read(&path)
                .ok()
                .and_then(|b| serde_json::from_slice::<Note>(&b).ok())
            {
                Some(note) if note.expires > now => notes.push(note),
                _ => {
                    let _ = std::fs::remove_file(&path);
                }
            }
        }
        notes
    }

    /// This session as the scout process running `args` (its arguments,
    /// without the program) should use it: the lead's, a subagent's, or
    /// none when that cannot be told.
    pub fn attributed(self, args: &[String], now: SystemTime) -> Option<Session> {
        match attribute(&self.open_notes(now), args) {
            Attribution::Lead => Some(self),
            Attribution::Agent(agent) => Some(self.for_agent(&agent)),
            Attribution::Ambiguous => None,
        }
    }
}

/// Whose call is running a scout process with arguments `args`, from
/// the session's open notes: those of commands naming `scout`, narrowed
/// to those holding every argument when that still leaves one; with no
/// command naming scout (scout run from a script), all of them. One
/// agent among them is that agent; none is the lead; two or more is
/// [`Attribution::Ambiguous`].
pub fn attribute(notes: &[Note], args: &[String]) -> Attribution {
    if notes.is_empty() {
        return Attribution::Lead;
    }
    let naming: Vec<&Note> = notes.iter().filter(|n| names_scout(&n.command)).collect();
    let mut candidates: Vec<&Note> = if naming.is_empty() {
        notes.iter().collect()
    } else {
        naming
    };
    fn agents<'n>(notes: &[&'n Note]) -> Vec<Option<&'n str>> {
        let mut agents: Vec<Option<&str>> = notes.iter().map(|n| n.agent.as_deref()).collect();
        agents.sort();
        agents.dedup();
        agents
    }
    if agents(&candidates).len() > 1 && !args.is_empty() {
        let exact: Vec<&Note> = candidates
            .iter()
            .copied()
            .filter(|n| args.iter().all(|a| n.command.contains(a.as_str())))
            .collect();
        if !exact.is_empty() {
            candidates = exact;
        }
    }
    match agents(&candidates)[..] {
        [None] => Attribution::Lead,
        [Some(agent)] => Attribution::Agent(agent.to_string()),
        _ => Attribution::Ambiguous,
    }
}

/// Whether a command line runs a program called `scout`.
fn names_scout(command: &str) -> bool {
    command
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-' || c == '.'))
        .any(|word| word == "scout")
}

fn seconds(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(agent: Option<&str>, command: &str) -> Note {
        Note {
            agent: agent.map(str::to_string),
            command: command.into(),
            expires: u64::MAX,
        }
    }

    fn args(line: &str) -> Vec<String> {
        line.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn one_agent_running_scout_is_that_agent() {
        let notes = [
            note(Some("a1"), "scout search Widget"),
            note(None, "cargo build"),
        ];
        assert_eq!(
            attribute(&notes, &args("search Widget")),
            Attribution::Agent("a1".into())
        );
        assert_eq!(attribute(&[], &args("search Widget")), Attribution::Lead);
        assert_eq!(
            attribute(&[note(None, "/usr/bin/scout read x")], &[]),
            Attribution::Lead
        );
    }

    #[test]
    fn two_agents_running_scout_are_told_apart_by_arguments_or_not_at_all() {
        let notes = [
            note(Some("a1"), "scout search spin"),
            note(None, "scout search Widget -i"),
        ];
        assert_eq!(
            attribute(&notes, &args("search Widget -i")),
            Attribution::Lead
        );
        assert_eq!(
            attribute(&notes, &args("search spin")),
            Attribution::Agent("a1".into())
        );
        let same = [
            note(Some("a1"), "scout search x"),
            note(Some("a2"), "scout search x"),
        ];
        assert_eq!(attribute(&same, &args("search x")), Attribution::Ambiguous);
        // scout inside scripts: whoever runs a command could be running it.
        let scripts = [note(Some("a1"), "./check.sh"), note(None, "make lint")];
        assert_eq!(
            attribute(&scripts, &args("search x")),
            Attribution::Ambiguous
        );
        assert_eq!(
            attribute(&scripts[..1], &args("search x")),
            Attribution::Agent("a1".into())
        );
    }

    #[test]
    fn notes_open_close_and_expire() {
        let dir = tempfile::tempdir().unwrap();
        let lead = Session {
            id: "s".into(),
            var: "SCOUT_SESSION_ID",
            dir: dir.path().join("seen"),
        };
        let now = SystemTime::now();
        let running = Note::new(
            Some("a1".into()),
            "scout search x".into(),
            Some(5_000),
            false,
            now,
        );
        lead.open_note("toolu_1", &running).unwrap();
        let stale = Note::new(
            None,
            "sleep 1".into(),
            Some(1_000),
            false,
            now - Duration::from_secs(3600),
        );
        lead.open_note("toolu_2", &stale).unwrap();
        assert_eq!(lead.open_notes(now), std::slice::from_ref(&running));
        assert_eq!(
            lead.clone()
                .attributed(&args("search x"), now)
                .map(|s| s.id),
            Some("s#agent:a1".to_string())
        );
        lead.close_note("toolu_1").unwrap();
        lead.close_note("toolu_1").unwrap();
        assert_eq!(lead.open_notes(now), []);
        assert_ne!(lead.for_agent("a1").file(), lead.file());
    }
}
