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

/// [`SearchSettings::footer_room`]'s bytes for the words around the values
/// (`scout search`, `--budget-tokens 1500`, `--page 12`, `"page":`,
/// `rg -n --no-heading -F -e`, `FILE`, `"output_mode":"content"`).
const ROOM_BASE: usize = 48;

/// The most [`SearchSettings::footer_room`] gives: past it every footer
/// command is named in words (`the same command with --page 2`).
const ROOM_MAX: usize = 200;

/// [`SearchSettings::footer_room`] for commands named in words: the
/// longest of those words.
const ROOM_IN_WORDS: usize = 56;

// The least room computed holds the words too.
const _: () = assert!(ROOM_IN_WORDS <= ROOM_BASE + ROOM_PER_VALUE);

/// [`SearchSettings::footer_room`]'s bytes for a flag or a key beside
/// its value (` --glob `, `"glob":,`).
const ROOM_PER_VALUE: usize = 12;

/// The longest of a value's spellings in a footer: shell-quoted (`'`
/// written `'\''`), a JSON string, a JSON string of it as an escaped
/// regular expression (`a\\.b`).
fn longest_spelling(value: &[u8]) -> usize {
    let count = |set: &[u8]| value.iter().filter(|b| set.contains(b)).count();
    let shell = value.len() + 2 + 3 * count(b"'");
    let json = value.len() + 2 + count(b"\"\\") + 5 * value.iter().filter(|b| **b < 0x20).count();
    // A regex escape doubles each meta character, and JSON its backslash.
    let escaped = json + 2 * count(b"\\.+*?()|[]{}^$#&-~");
    shell.max(json).max(escaped)
}

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
    /// for `text`); what the text shows is what is remembered.
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
    /// A question in words ([`is_question`]), answered as `scout smart`
    /// answers it, over the same paths, globs and types, within the same
    /// budget.
    ///
    /// [`is_question`]: crate::search::query::is_question
    pub question: Option<Box<crate::smart::SmartSettings>>,
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
/// could be the one running it (see `session::pending`).
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
    /// A session given outright (tests).
    #[cfg(test)]
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
            #[cfg(test)]
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

    /// Bytes each command a footer names (the next page's, a file's
    /// lines') may take: a longer one is named in words. A function of
    /// what is asked, never of how it was spelled or of the surface it
    /// came through (a command line, `scout call`, an MCP tool call): the
    /// page is weighed with each of its commands at this room, so every
    /// surface cuts the same pages. Each value is counted in
    /// its longest spelling (shell-quoted, JSON, a pattern's escaped JSON)
    /// with a flag's or a key's overhead.
    pub fn footer_room(&self) -> usize {
        let values: usize = [self.query.text.as_str()]
            .into_iter()
            .chain(self.flags.globs.iter().map(String::as_str))
            .chain(self.flags.types.iter().map(String::as_str))
            .chain(self.graph.iter().map(|g| g.target.spec.as_str()))
            .map(|v| longest_spelling(v.as_bytes()) + ROOM_PER_VALUE)
            .chain(
                self.flags
                    .paths
                    .iter()
                    .map(|p| longest_spelling(p.as_encoded_bytes()) + ROOM_PER_VALUE),
            )
            .sum();
        // A structural search's file lines are a structural search:
        // `--structural --lang javascript --budget-tokens 0 -m 10000`.
        let structural = if self.structural.is_some() { 64 } else { 0 };
        match ROOM_BASE + structural + values {
            // Commands this long are named in words, whose room is less.
            room if room > ROOM_MAX => ROOM_IN_WORDS,
            room => room,
        }
    }

    /// Bytes the footer's note naming definitions on other pages may take:
    /// a quarter of the budget, at most [`NOTE_MAX_BYTES`], so that a small
    /// budget is not spent naming files it cannot show.
    ///
    /// [`NOTE_MAX_BYTES`]: crate::render::text::NOTE_MAX_BYTES
    pub fn note_room(&self) -> usize {
        let most = crate::render::text::NOTE_MAX_BYTES;
        self.budget_bytes
            .map_or(most, |budget| (budget / 4).min(most))
    }

    /// Whether this search adds what it shows to a session's memory.
    pub fn records_memory(&self) -> bool {
        self.session.is_some() && self.remember
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::call::ToolCall;

    #[test]
    fn the_room_in_words_holds_every_command_named_in_words() {
        let tool = Asked::Tool(ToolCall {
            name: "search".into(),
            arguments: serde_json::Map::new(),
        });
        let command = Asked::Command("scout search x".into());
        let words = [
            tool.page_within(999, 0),
            command.page_within(999, 0),
            crate::render::FILE_LINES_BY_TOOL.to_string(),
            crate::render::FILE_LINES_BY_COMMAND.to_string(),
        ];
        for text in words {
            assert!(text.len() <= ROOM_IN_WORDS, "{text}");
        }
    }

    #[test]
    fn a_value_is_counted_in_its_longest_spelling() {
        assert_eq!(longest_spelling(b"load"), 6);
        // Shell: 'it'\''s' (9 + 2); JSON 6 + 2.
        assert_eq!(longest_spelling(b"it's"), 9);
        // a\\.b in JSON: the escape's backslash doubled.
        assert_eq!(longest_spelling(b"a.b"), 7);
    }
}
