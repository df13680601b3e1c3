//! `scout hook EVENT`: what scout does when Claude Code calls it around a
//! tool call. The hook's JSON arrives on stdin ([`payload`]); the answer
//! is either nothing or one JSON object on stdout that adds a warning to
//! the agent's context.
//!
//! Contract (Claude Code "Hooks reference",
//! <https://code.claude.com/docs/en/hooks>): a command hook that exits 0
//! may print JSON; `hookSpecificOutput.additionalContext` (with
//! `hookSpecificOutput.hookEventName`) is added to the model's context,
//! for PreToolUse and PostToolUse alike. Exit 2 blocks the tool call and
//! any other code is a visible error: scout always exits 0. scout never
//! sets `permissionDecision` (an `allow` would skip the user's permission
//! prompt, a `deny` would block) nor `decision`/`continue`: where the
//! reference leaves room, the safe reading is to say less.
//!
//! - **PreToolUse**: the rules ([`rules`]) may warn, for Read (`reread`),
//!   Bash (`reread` for shell reads, `unbudgeted-search`) and Grep
//!   (`unbudgeted-search`).
//! - **PostToolUse**: what a Read or a shell read ([`shell_reads`])
//!   returned enters the session's memory, so a later `scout search`
//!   collapses it.
//! - **SessionStart**: the session id is exported to later Bash commands
//!   (through `CLAUDE_ENV_FILE`) as `SCOUT_SESSION_ID`, so scout itself
//!   finds the memory the hooks write; with the sentence encoder
//!   installed, `scout index --background` starts in the session's
//!   directory, so `scout smart` finds the tree's vectors cached.
//! - **Subagents** (`agent_id` in the payload) each read and write a
//!   memory of their own. Around every Bash call the hooks open and close
//!   a note of which agent runs it (`session::pending`), from which a
//!   scout process inside the command learns whose memory is its own.
//!
//! Never in the way: every failure (bad JSON, an unknown event, an
//! unreadable file, a full disk, a locked memory file) is an `Err` here,
//! which `commands::hook` turns into exit 0, no output, and one line in
//! the log ([`crate::session::hook_log`]).

pub mod config;
pub mod payload;
pub mod rules;
pub mod shell_line;
pub mod shell_reads;

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::{bail, Context, Result};

use crate::dirs::OsEnvLookup;
use crate::session::pending::Note;
use crate::session::{Memory, Session, Shown, Stamp};
use config::{Level, Rules};
use payload::{Payload, ReadInput, Tool, READ_DEFAULT_LIMIT};

/// How long a hook waits for another scout holding the memory's lock.
const LOCK_WAIT: std::time::Duration = std::time::Duration::from_millis(500);

/// The hook events scout handles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    PreToolUse,
    PostToolUse,
    /// A tool call that failed; only closes what PreToolUse opened.
    PostToolUseFailure,
    /// A session starts (or resumes, or is cleared or compacted): scout
    /// exports the session id to the agent's later Bash commands.
    SessionStart,
}

impl Event {
    /// The event named as Claude Code names it.
    pub fn parse(name: &str) -> Option<Event> {
        match name {
            "PreToolUse" => Some(Event::PreToolUse),
            "PostToolUse" => Some(Event::PostToolUse),
            "PostToolUseFailure" => Some(Event::PostToolUseFailure),
            "SessionStart" => Some(Event::SessionStart),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Event::PreToolUse => "PreToolUse",
            Event::PostToolUse => "PostToolUse",
            Event::PostToolUseFailure => "PostToolUseFailure",
            Event::SessionStart => "SessionStart",
        }
    }
}

/// A hook call, ready to run: the environment read once.
#[derive(Debug, Clone)]
pub struct HookSettings {
    /// The EVENT argument as given.
    pub event: Option<String>,
    /// `$XDG_STATE_HOME/scout`: the memory and the log.
    pub state_dir: Option<PathBuf>,
    /// The rules' configuration file.
    pub config_file: Option<PathBuf>,
    /// `CLAUDE_ENV_FILE`: a script Claude Code sources before each Bash
    /// command, which SessionStart hooks may append exports to.
    pub env_file: Option<PathBuf>,
    /// The hook process's working directory, for a payload without `cwd`.
    pub cwd: PathBuf,
    /// SessionStart starts `scout index --background` in the session's
    /// directory: the sentence encoder is installed, and
    /// `SCOUT_INDEX_ON_START` is not `0`.
    pub index_on_start: bool,
}

impl HookSettings {
    pub fn resolve(event: Option<String>, env: OsEnvLookup<'_>) -> HookSettings {
        HookSettings {
            event,
            state_dir: crate::dirs::state_dir_in(env),
            config_file: crate::dirs::config_dir_in(env).map(|d| config::path(&d)),
            env_file: env("CLAUDE_ENV_FILE")
                .filter(|f| !f.is_empty())
                .map(PathBuf::from),
            cwd: std::env::current_dir().unwrap_or_default(),
            index_on_start: env(INDEX_ON_START_ENV).is_none_or(|v| v != "0")
                && crate::dirs::encoder_dir_in(env).is_some_and(|d| crate::encoder::installed(&d)),
        }
    }
}

/// Handles one hook call: `Ok(Some(json))` to print, `Ok(None)` for
/// nothing to say, `Err` for a failure (to be logged, never shown).
pub fn handle(settings: &HookSettings, stdin: &[u8]) -> Result<Option<String>> {
    let name = settings.event.as_deref().unwrap_or("");
    let Some(event) = Event::parse(name) else {
        bail!("unknown hook event {name:?}; scout handles PreToolUse, PostToolUse, PostToolUseFailure and SessionStart");
    };
    let mut payload = Payload::parse(stdin)?;
    if payload.cwd.as_os_str().is_empty() {
        payload.cwd = settings.cwd.clone();
    }
    if let Some(named) = &payload.hook_event_name {
        if named != event.name() {
            bail!("installed for {} but called for {named}", event.name());
        }
    }
    let Some(state_dir) = &settings.state_dir else {
        bail!("no state directory (HOME and XDG_STATE_HOME unset)");
    };
    if event == Event::SessionStart {
        if settings.index_on_start {
            start_index(&payload.cwd);
        }
        return export_session(settings, &payload.session_id).map(|()| None);
    }
    let lead = Session {
        id: payload.session_id.clone(),
        var: "session_id",
        dir: state_dir.join("seen"),
    };
    // Each subagent remembers on its own: what it read is not in the
    // lead's context.
    let session = match &payload.agent_id {
        Some(agent) => lead.for_agent(agent),
        None => lead.clone(),
    };
    // Before the rules' configuration is read: even with a broken one,
    // a scout inside the command must not take another agent's memory.
    track_bash(event, &payload, &lead)?;
    let rules = config::load(settings.config_file.as_deref())?;
    let call = Call {
        payload: &payload,
        cwd: physical_cwd(&payload.cwd),
        session,
        rules,
    };
    match event {
        Event::PreToolUse => Ok(call.before()?.map(|text| answer(event, &text))),
        Event::PostToolUse => {
            call.after()?;
            Ok(None)
        }
        Event::PostToolUseFailure | Event::SessionStart => Ok(None),
    }
}

/// The variable that turns off SessionStart's background index (`0`).
pub const INDEX_ON_START_ENV: &str = "SCOUT_INDEX_ON_START";

/// SessionStart: starts `scout index --background` in `cwd`, detached (its
/// own process group, no standard streams), so that the session's first
/// `scout smart` finds the tree's vectors cached. It runs niced, embeds
/// only what changed since the last index, and leaves at once when another
/// index holds the tree. A failure to start it is only a lost head start.
fn start_index(cwd: &std::path::Path) {
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};
    let Ok(scout) = std::env::current_exe() else {
        return;
    };
    let _ = Command::new(scout)
        .args(["index", "--background"])
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn();
}

/// SessionStart: appends `export SCOUT_SESSION_ID=ID` to `CLAUDE_ENV_FILE`
/// (once), so the scout commands the agent runs in Bash know the session
/// the hooks record under. Claude Code does not give Bash commands the
/// session id itself (anthropics/claude-code#18629, #47018); the
/// reference's SessionStart section documents `CLAUDE_ENV_FILE` for this.
fn export_session(settings: &HookSettings, session_id: &str) -> Result<()> {
    let Some(file) = &settings.env_file else {
        bail!("CLAUDE_ENV_FILE is not set, so scout commands in Bash cannot learn the session id; set SCOUT_SESSION_ID yourself");
    };
    let line = format!(
        "export {}={}\n",
        crate::session::SESSION_VARS[0],
        crate::shell::quote(session_id.as_bytes())
    );
    let existing = std::fs::read_to_string(file).unwrap_or_default();
    if existing.lines().last() == Some(line.trim_end()) {
        return Ok(());
    }
    use std::io::Write;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(file)
        .and_then(|mut f| f.write_all(line.as_bytes()))
        .with_context(|| format!("writing {}", file.display()))
}

/// Opens (PreToolUse) or closes (PostToolUse, PostToolUseFailure) the
/// note saying which agent runs a Bash command, for a scout inside it
/// (`session::pending`). A background command's note stays open until it
/// expires: the command outlives its PostToolUse.
fn track_bash(event: Event, payload: &Payload, lead: &Session) -> Result<()> {
    let Tool::Bash(input) = payload.tool() else {
        return Ok(());
    };
    let call = payload.tool_use_id.clone().unwrap_or_else(|| {
        format!(
            "{}\0{}",
            payload.agent_id.as_deref().unwrap_or(""),
            input.command
        )
    });
    match event {
        Event::PreToolUse => {
            let note = Note::new(
                payload.agent_id.clone(),
                input.command.clone(),
                input.timeout_ms,
                input.background,
                SystemTime::now(),
            );
            lead.open_note(&call, &note)
                .context("noting the running command")?;
        }
        Event::PostToolUse if input.background => {}
        Event::PostToolUse | Event::PostToolUseFailure => {
            lead.close_note(&call)
                .context("closing the command's note")?;
        }
        Event::SessionStart => {}
    }
    Ok(())
}

/// The JSON that adds `text` to the agent's context without deciding
/// anything about the call.
pub fn answer(event: Event, text: &str) -> String {
    serde_json::json!({
        "hookSpecificOutput": {
            "hookEventName": event.name(),
            "additionalContext": text,
        }
    })
    .to_string()
}

/// One tool call, as the hooks see it.
struct Call<'p> {
    payload: &'p Payload,
    /// The payload's cwd with symlinks resolved, as `scout search` sees
    /// its working directory (`getcwd`).
    cwd: PathBuf,
    session: Session,
    rules: Rules,
}

impl Call<'_> {
    /// PreToolUse: the rules' warnings, joined, if any.
    fn before(&self) -> Result<Option<String>> {
        let mut warnings = Vec::new();
        match self.payload.tool() {
            Tool::Read(input) => {
                if self.rules.reread == Level::Warn {
                    let memory = self.memory()?;
                    let path = self.key(Path::new(&input.file_path));
                    // Only a file the memory holds is read to count its lines.
                    if let Some(count) = remembered(&memory, &path)
                        .then(|| count_lines(&path))
                        .flatten()
                    {
                        let wanted = read_tool_lines(&input, count);
                        warnings.extend(self.reread(&memory, &path, &wanted));
                    }
                }
            }
            Tool::Bash(input) => {
                if self.rules.reread == Level::Warn {
                    let reads = shell_reads::reads(&input.command, &self.payload.cwd);
                    if !reads.is_empty() {
                        let memory = self.memory()?;
                        for read in reads {
                            let path = self.key(&read.path);
                            let count = remembered(&memory, &path).then(|| count_lines(&path));
                            if let Some(count) = count.flatten() {
                                warnings.extend(self.reread(&memory, &path, &read.resolve(count)));
                            }
                        }
                    }
                }
                if self.rules.unbudgeted_search == Level::Warn {
                    warnings.extend(rules::unbudgeted_bash(&input.command, &self.payload.cwd));
                }
            }
            Tool::Grep(input) => {
                if self.rules.unbudgeted_search == Level::Warn {
                    warnings.extend(rules::unbudgeted_grep(&input, &self.payload.cwd));
                }
            }
            Tool::Other => {}
        }
        Ok((!warnings.is_empty()).then(|| warnings.join("\n")))
    }

    /// PostToolUse: what the call showed enters the memory.
    fn after(&self) -> Result<()> {
        let mut shown = Vec::new();
        match self.payload.tool() {
            Tool::Read(input) => {
                let path = self.key(Path::new(&input.file_path));
                let ranges = match self.payload.read_response() {
                    Some(r) if r.num_lines == 0 => Vec::new(),
                    Some(r) => vec![(r.start_line, r.start_line + r.num_lines - 1)],
                    // No lines reported (another response shape): what was
                    // asked, if the file is text.
                    None if self.payload.tool_response.get("type").is_none() => count_lines(&path)
                        .map_or_else(Vec::new, |count| read_tool_lines(&input, count)),
                    None => Vec::new(),
                };
                shown.extend(self.shown(&path, &ranges));
            }
            Tool::Bash(input) if !self.payload.interrupted() => {
                for read in shell_reads::reads(&input.command, &self.payload.cwd) {
                    let path = self.key(&read.path);
                    if let Some(count) = count_lines(&path) {
                        shown.extend(self.shown(&path, &read.resolve(count)));
                    }
                }
            }
            _ => {}
        }
        if let Some(warning) = self.session.record_within(&shown, LOCK_WAIT) {
            bail!("{warning}");
        }
        Ok(())
    }

    fn memory(&self) -> Result<Memory> {
        let loaded = self.session.load();
        if let Some(warning) = loaded.warning {
            bail!("{warning}");
        }
        Ok(loaded.memory)
    }

    /// The key session memory files `path` under: absolute, and under the
    /// physical working directory when it lies in the payload's cwd, as
    /// `scout search` keys what it shows.
    fn key(&self, path: &Path) -> PathBuf {
        let joined = crate::paths::lexical(&self.payload.cwd.join(path));
        match joined.strip_prefix(&self.payload.cwd) {
            Ok(rest) => self.cwd.join(rest),
            Err(_) => joined,
        }
    }

    /// The path as the agent would recognise it: relative to its cwd when
    /// inside it.
    fn shown_as(&self, key: &Path) -> String {
        key.strip_prefix(&self.cwd)
            .unwrap_or(key)
            .display()
            .to_string()
    }

    fn reread(&self, memory: &Memory, key: &Path, wanted: &[(u64, u64)]) -> Option<String> {
        let stamp = Stamp::read(key)?;
        rules::reread(
            memory,
            &key.to_string_lossy(),
            &self.shown_as(key),
            stamp,
            wanted,
            SystemTime::now(),
        )
    }

    fn shown(&self, key: &Path, ranges: &[(u64, u64)]) -> Option<Shown> {
        if ranges.is_empty() {
            return None;
        }
        Some(Shown {
            path: key.to_string_lossy().into_owned(),
            stamp: Stamp::read(key)?,
            lines: ranges.iter().flat_map(|&(a, b)| a..=b).collect(),
        })
    }
}

/// Whether the memory holds anything of the file keyed `key`.
fn remembered(memory: &Memory, key: &Path) -> bool {
    memory.files.contains_key(key.to_string_lossy().as_ref())
}

/// The lines the Read tool reads of a file of `count` lines: from
/// `offset` (1-based; 0 or none is 1), `limit` lines (2000 by default).
fn read_tool_lines(input: &ReadInput, count: u64) -> Vec<(u64, u64)> {
    let start = input.offset.unwrap_or(1).max(1);
    let limit = input.limit.unwrap_or(READ_DEFAULT_LIMIT);
    let end = start.saturating_add(limit).saturating_sub(1).min(count);
    if limit == 0 || start > end {
        return Vec::new();
    }
    vec![(start, end)]
}

/// The number of lines of a text file (as `scout read` counts them: a
/// last line without a newline counts); `None` for a missing, binary or
/// huge file.
fn count_lines(path: &Path) -> Option<u64> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > crate::views::read::MAX_READ_BYTES {
        return None;
    }
    let bytes = std::fs::read(path).ok()?;
    if bytes[..bytes.len().min(crate::views::read::BINARY_PROBE_BYTES)].contains(&0) {
        return None;
    }
    let newlines = bytes.iter().filter(|&&b| b == b'\n').count() as u64;
    Some(newlines + u64::from(!bytes.is_empty() && !bytes.ends_with(b"\n")))
}

/// `cwd` with symlinks resolved, or as given when that fails.
fn physical_cwd(cwd: &Path) -> PathBuf {
    std::fs::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf())
}

/// Reads all of stdin for the hook.
pub fn read_stdin(stdin: &mut dyn std::io::Read) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    stdin
        .read_to_end(&mut bytes)
        .context("reading the hook's stdin")?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_tool_lines_follow_offset_and_limit() {
        let input = |offset, limit| ReadInput {
            file_path: "x".into(),
            offset,
            limit,
        };
        assert_eq!(read_tool_lines(&input(None, None), 50), [(1, 50)]);
        assert_eq!(read_tool_lines(&input(Some(0), Some(10)), 50), [(1, 10)]);
        assert_eq!(read_tool_lines(&input(Some(45), Some(10)), 50), [(45, 50)]);
        assert_eq!(read_tool_lines(&input(Some(60), None), 50), []);
    }

    #[test]
    fn the_answer_only_adds_context() {
        let json: serde_json::Value =
            serde_json::from_str(&answer(Event::PreToolUse, "careful")).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "careful"}})
        );
    }
}
