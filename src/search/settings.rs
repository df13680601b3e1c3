//! A search's settings: plain data, every flag validated and the
//! environment read once, by the command line's layer (`cli::search`)
//! or a request. Nothing after this re-reads an environment variable.

use crate::page::call::{Asked, ToolCall};
use crate::page::query::Query;
use crate::paths::Skipped;
use crate::render::style::Color;
use crate::rg::{Rg, SearchFlags};
use crate::session::Session;
use crate::structural::StructuralPattern;

/// A search, ready to run.
#[derive(Debug)]
pub struct SearchSettings {
    pub rg: Rg,
    pub query: Query,
    /// rg's flags for the planned query, over the paths that exist.
    pub flags: SearchFlags,
    /// Requested paths that are not searched: missing, or special files
    /// (named on stderr; exit 3).
    pub missing: Vec<Skipped>,
    /// Plain rg output would name the file on each line: unless the one
    /// path typed is a file (rg counts the paths typed, missing ones too).
    pub with_filename: bool,
    /// Page budget in bytes; `None` means no limit.
    pub budget_bytes: Option<usize>,
    pub page: usize,
    /// `-m`.
    pub max_lines: Option<usize>,
    /// Candidate lines kept per file.
    pub keep: usize,
    pub files_only: bool,
    pub json: bool,
    pub explain: bool,
    /// `--lexical`: no parser (no grouping, no code, lexical definitions).
    pub lexical: bool,
    /// Passthrough cap in bytes; `None` means no limit.
    pub passthrough_cap: Option<u64>,
    /// `scout search ...` as typed, without `--page` and `--json`: the
    /// base of the next-page command.
    pub command: String,
    /// `command` without `-l`: the ranked view of the same search, whose
    /// pages `-l` lists whole (#24).
    pub ranked_command: String,
    /// The MCP tool call this search came through (set by the request
    /// layer): its pages then name tool calls, not commands.
    pub tool: Option<ToolCall>,
    /// The process exits once this search is out, so its memory is left
    /// to the kernel, not freed piece by piece; not so for a request
    /// served in a longer-lived process (`scout mcp`).
    pub exits_after: bool,
    /// scout's cache directory (definitions), if there is one.
    pub cache_dir: Option<std::path::PathBuf>,
    /// The agent session, whose memory collapses lines already shown.
    pub session: Option<Session>,
    /// `--again`: ignore the memory and record nothing.
    pub again: bool,
    /// Whether this search adds what it shows to the memory.
    pub remember: bool,
    /// With `json`: the text the command would print follows the JSON
    /// document's line (set by the request layer for a request that asks
    /// for `text`, #25); what the text shows is what is remembered.
    pub text_beside_json: bool,
    /// `--forget`: clear the memory first.
    pub forget: bool,
    /// The working directory: session memory keys files by absolute path.
    pub cwd: std::path::PathBuf,
    /// rg reads a config file (`RIPGREP_CONFIG_PATH`), whose flags may
    /// change the layout of its plain output: only `--json` is read then.
    pub rg_config: bool,
    /// Whether the ranked search may read rg's plain records (else its
    /// `--json` events): not with a config file, nor with
    /// `SCOUT_RG_OUTPUT=json`.
    pub plain_records: bool,
    /// Whether the text page is coloured (never with `--json`).
    pub color: Color,
    /// `--structural`: the compiled pattern (the query's text), whose
    /// language's files are parsed instead of searched by rg.
    pub structural: Option<StructuralPattern>,
    /// `--callers-of` or `--impact`: the definition, resolved.
    pub graph: Option<GraphRequest>,
}

/// What `--callers-of` / `--impact` asks of the code graph.
#[derive(Debug)]
pub struct GraphRequest {
    pub target: crate::graph::Target,
    /// `--impact` (else `--callers-of`).
    pub impact: bool,
    /// `--impact`'s `--depth`.
    pub depth: u32,
    /// A pattern was given (else every call of the symbol is the search).
    pub pattern: bool,
    /// `--graph-files`: the files that spell the name read at most, per
    /// definition whose callers are looked for; `None` reads them all.
    pub max_files: Option<usize>,
    /// `--proven-only`: calls attributed by a name alone are left out.
    pub proven_only: bool,
}

/// The session from the process environment (read once), as this
/// process should use it: a subagent's own memory when the hooks noted
/// that agent running this scout, and none when two agents' commands
/// could be the one running it (#14; see `session::pending`).
pub fn session_from_env() -> Option<Session> {
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    Session::from_env(|k| std::env::var(k).ok(), crate::dirs::state_dir())?
        .attributed(&args, std::time::SystemTime::now())
}

/// Where a command finds its agent session: in the process's environment
/// (a command in a shell, `scout call`), or given with the request (a
/// call served in `scout mcp`, with its connection's session), in which
/// case the process's own is never read.
#[derive(Debug, Clone, Default)]
pub enum SessionFrom {
    #[default]
    Process,
    Given(Option<Session>),
    /// A served request's session id, with the state directory its
    /// memory is kept in: read only by a command that uses it.
    Named {
        id: String,
        state_dir: Option<std::path::PathBuf>,
    },
}

impl SessionFrom {
    pub fn session(&self) -> Option<Session> {
        match self {
            SessionFrom::Process => session_from_env(),
            SessionFrom::Given(session) => session.clone(),
            SessionFrom::Named { id, state_dir } => {
                let session = Session::from_env(
                    |var| (var == crate::session::SESSION_VARS[0]).then(|| id.clone()),
                    state_dir.clone(),
                )?;
                session.attributed(&["call".to_string()], std::time::SystemTime::now())
            }
        }
    }
}

/// Whether the environment names a session that [`session_from_env`]
/// declined because two agents' commands could be running this scout.
pub fn session_unattributable() -> bool {
    session_from_env().is_none()
        && Session::from_env(|k| std::env::var(k).ok(), crate::dirs::state_dir()).is_some()
}

impl SearchSettings {
    /// How this search was asked for, as its pages name it.
    pub fn asked(&self) -> Asked {
        match &self.tool {
            Some(call) => Asked::Tool(call.clone()),
            None => Asked::Command(self.command.clone()),
        }
    }

    /// [`SearchSettings::asked`] without `-l`: the ranked view (a tool
    /// call has no `-l`).
    pub fn asked_ranked(&self) -> Asked {
        match &self.tool {
            Some(call) => Asked::Tool(call.clone()),
            None => Asked::Command(self.ranked_command.clone()),
        }
    }

    /// Whether this search adds what it shows to a session's memory.
    pub fn records_memory(&self) -> bool {
        self.session.is_some() && self.remember
    }
}
