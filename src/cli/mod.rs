//! The command line: the commands ([`Cli`], [`Command`]) and the flags
//! several share. Each command's own flags sit in its module beside their
//! resolution into its settings (validation and the environment, read
//! once): [`search`], [`smart`], [`grep`], [`files`], [`read`], [`edit`],
//! [`setup`]; reading a command line is [`parse`].
//!
//! Where rg has a flag with the same meaning, scout spells it the same way
//! (`-i -w -F -g --hidden -m -l --type -e --color`): agents type rg's flags
//! by habit.

mod context;
mod edit;
mod files;
mod grep;
mod parse;
mod read;
mod search;
mod setup;
mod smart;

use clap::{Args, Parser, Subcommand};

pub use context::Context;
pub use edit::EditArgs;
pub use files::{FilesArgs, LimitArgs};
pub use grep::GrepArgs;
pub use parse::{parse, plain_search};
pub use read::ReadArgs;
pub use search::{FilterArgs, MatchArgs, OutputArgs, SearchArgs, DEFAULT_SEARCH_BUDGET_TOKENS};
pub use setup::{AgentsMdArgs, ClaudeSetupArgs, McpSetupArgs, SetupArgs, SetupTarget};
pub use smart::{
    Asked, FileArgs, IndexArgs, SmartArgs, DEFAULT_MAX_RESULTS, DEFAULT_SMART_BUDGET_TOKENS,
};

use edit::EDIT_EXAMPLES;
use files::FILES_EXAMPLES;
use grep::GREP_EXAMPLES;
use read::READ_EXAMPLES;
use search::SEARCH_EXAMPLES;
use smart::{INDEX_EXAMPLES, SMART_EXAMPLES};

use crate::render::style::ColorChoice;

pub(crate) const CALL_EXAMPLES: &str = "\
Examples:
  scout call '{\"mode\": \"files\", \"pattern\": \"**/*.rs\"}'
  scout call '{\"mode\": \"content\", \"pattern\": \"fn main\", \"output_mode\": \"content\", \"-C\": 2}'
  echo '{\"mode\": \"search\", \"query\": \"useState\", \"cwd\": \"/repo\"}' | scout call

Request fields (unknown fields are an error):
  every mode  cwd (relative paths resolve against it)
  files       pattern (glob, required), path, limit, timeout (seconds)
  content     pattern (regex, required), path, output_mode (files_with_matches,
              content, count), -A, -B, -C, context, -n, -i, type, glob,
              head_limit, offset, multiline, timeout
  search      query (required unless callers_of or impact), path (a string or an
              array), kind, -i, glob, type, budget_tokens, page, callers_of,
              impact, depth, graph_files, proven_only, structural, lang, again
  smart       query (a question in words, required), path, max_results, glob,
              type, budget_tokens
  read        path (required), symbol or range (A:B), budget_tokens, again
  edit        pattern, rewrite, lang (structural), callers_of, impact, depth,
              proven_only;
              old, new (strings or arrays), count, all; symbol (PATH#SYMBOL)
              and with (its new code); dry_run, undo, last; path, glob, type,
              budget_tokens, page
  every mode but read: text (true: the answer also holds what the command prints)
The answer is one JSON object with `truncated` and counts, or `error`.";

const HOOK_EXAMPLES: &str = "\
Examples:
  scout hook PreToolUse  < payload.json    what Claude Code runs before Read, Bash and Grep
  scout hook PostToolUse < payload.json    ... and after Read and Bash

Installed by `scout setup claude`; not meant to be typed. Reads the hook's
JSON on stdin. Before a call, the rules may add a warning to the agent's
context (never a block): `reread` (lines the session already has, from an
unchanged file) and `unbudgeted-search` (rg, grep -r or Grep over the whole
tree with no limit, in a tree of 200+ files). After a Read, or a shell read
(cat, head, tail, sed -n, nl; behind rtk; in simple pipelines), the lines
read enter the session's memory, so `scout search` collapses them.

Turn a rule off in $XDG_CONFIG_HOME/scout/hooks.json (~/.config/scout/hooks.json):
  {\"rules\": {\"reread\": \"off\", \"unbudgeted-search\": \"warn\"}}

Always exits 0 and prints nothing on failure: what went wrong is one line in
$XDG_STATE_HOME/scout/hooks.log (~/.local/state/scout/hooks.log).";

const TOP_EXAMPLES: &str = "\
Examples:
  scout search useState          ranked, budgeted search (definitions first)
  scout grep 'fn main' src       rg's own results, paginated (--output-mode content)
  scout files '**/*.rs'          file names by glob, newest first
  scout read src/cli.rs --symbol parse_args   one definition, numbered
  scout call '{\"mode\":\"files\",\"pattern\":\"*.rs\"}'   one JSON request, one JSON answer
  scout setup claude             hooks: reads enter the memory, wasteful calls get a warning
  scout doctor                   check rg, directories, the tree and the hooks
  scout completions bash         shell completions

On a terminal, output is coloured as rg colours it (--color auto|always|never;
NO_COLOR is honoured); a pipe always gets plain text.

Exit status: 0 matches shown, 1 no match, 2 bad input or broken environment,
3 some paths could not be searched (the rest was).

The manual, with every command's options: man scout (./install.sh installs
it), or scout man | man -l -";

impl Default for ColorArgs {
    fn default() -> ColorArgs {
        ColorArgs {
            color: ColorChoice::Auto,
        }
    }
}

/// Code search for AI coding agents: ranked, budgeted, exact pages over ripgrep.
#[derive(Debug, Parser)]
#[command(
    name = "scout",
    disable_version_flag = true,
    arg_required_else_help = true,
    after_help = TOP_EXAMPLES
)]
pub struct Cli {
    /// Print scout's version and the rg it would use.
    #[arg(short = 'V', long)]
    pub version: bool,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Ranked, budgeted search: definitions first, exact counts, what was left out.
    #[command(after_help = SEARCH_EXAMPLES)]
    Search(SearchArgs),
    /// Search by meaning: definitions that answer a question in words, each with why.
    #[command(after_help = SMART_EXAMPLES)]
    Smart(SmartArgs),
    /// Embed every definition of a tree for `scout smart`'s meaning search (a cache, resumable, never required).
    #[command(after_help = INDEX_EXAMPLES)]
    Index(IndexArgs),
    /// Faithful rg results: matching files (newest first), lines or counts, paginated.
    #[command(after_help = GREP_EXAMPLES)]
    Grep(GrepArgs),
    /// File names matching a glob, newest first, capped.
    #[command(after_help = FILES_EXAMPLES)]
    Files(FilesArgs),
    /// One definition or a line range of a file, numbered, within a budget.
    #[command(after_help = READ_EXAMPLES)]
    Read(ReadArgs),
    /// Rewrite code: what a structural pattern matches (only the callers the graph attributes, with --callers-of), exact text, or one whole definition; all or nothing, with a diff page and an undo.
    #[command(after_help = EDIT_EXAMPLES)]
    Edit(EditArgs),
    /// Answer one JSON request (files, content, search, smart, read or edit) with one JSON object.
    #[command(after_help = CALL_EXAMPLES)]
    Call(CallArgs),
    /// Serve search, smart, grep, files and read as MCP tools over stdio (for harnesses without a shell hook).
    #[command(
        after_help = "Examples:\n  scout mcp                     speak MCP on stdin/stdout (a client starts it)\n  scout mcp --allow-edit        ... and the edit tool, which writes files\n  scout setup mcp --client cursor   register it with a client\n\nPaths resolve against the client's roots, else the working directory; nothing outside them is readable. Logs go to stderr."
    )]
    Mcp(McpArgs),
    /// What this agent session was shown (session memory): show or clear it.
    #[command(
        after_help = "Examples:\n  scout memory show\n  scout memory clear\n\nThe session is SCOUT_SESSION_ID, else CLAUDE_CODE_SESSION_ID, else CODEX_THREAD_ID."
    )]
    Memory(MemoryArgs),
    /// Install scout into an agent harness: Claude Code hooks, or a section in AGENTS.md.
    #[command(
        after_help = "Examples:\n  scout setup claude            Claude Code hooks in this project's .claude/settings.json\n  scout setup claude --user     ... in ~/.claude/settings.json\n  scout setup agents-md         the tool table in AGENTS.md, for harnesses without hooks"
    )]
    Setup(SetupArgs),
    /// Run as a Claude Code hook: record reads in the session memory, warn about wasteful calls.
    #[command(after_help = HOOK_EXAMPLES)]
    Hook(HookArgs),
    /// Check the environment (rg, directories, the tree) and say what to fix.
    #[command(after_help = "Examples:\n  scout doctor\n  scout doctor --json")]
    Doctor(DoctorArgs),
    /// Print shell completions.
    #[command(
        after_help = "Examples:\n  scout completions bash > ~/.local/share/bash-completion/completions/scout\n  scout completions zsh > ~/.zfunc/_scout"
    )]
    Completions(CompletionsArgs),
    /// Print scout's man page (roff), or write every page into a directory.
    #[command(
        hide = true,
        after_help = "Examples:\n  scout man | man -l -\n  scout man --dir ~/.local/share/man/man1"
    )]
    Man(ManArgs),
}

/// When to colour the output, as rg's `--color`.
#[derive(Debug, PartialEq, Args)]
pub struct ColorArgs {
    /// When to colour paths, line numbers, matches, headings and the header and footer lines, as rg does. Colour never changes what is shown or counted; --json is never coloured.
    #[arg(long, value_enum, value_name = "WHEN", default_value = "auto")]
    pub color: ColorChoice,
}

/// Session memory: inside an agent session (SCOUT_SESSION_ID, else
/// CLAUDE_CODE_SESSION_ID, else CODEX_THREAD_ID), lines already shown from
/// unchanged files are collapsed on later searches.
#[derive(Debug, Default, PartialEq, Args)]
pub struct SessionArgs {
    /// Show everything, even lines this session was already shown; remember nothing new.
    #[arg(long)]
    pub again: bool,

    /// With --json, remember what the document shows (JSON and -l never change the memory otherwise).
    #[arg(long)]
    pub remember: bool,

    /// Forget what this session was shown, then search (when a query is given).
    #[arg(long)]
    pub forget: bool,
}

#[derive(Debug, Args)]
pub struct MemoryArgs {
    #[command(subcommand)]
    pub action: MemoryAction,
}

#[derive(Debug, Clone, Copy, Subcommand)]
pub enum MemoryAction {
    /// Print what this session was shown, per file.
    Show,
    /// Forget everything this session was shown.
    Clear,
}

/// `scout mcp`.
#[derive(Debug, Args)]
pub struct McpArgs {
    /// Offer the edit tool too (it writes files: annotated destructive); without it the server only reads.
    #[arg(long)]
    pub allow_edit: bool,
}

#[derive(Debug, Args)]
pub struct CallArgs {
    /// The JSON request; '-' or none reads it from stdin.
    #[arg(value_name = "REQUEST", allow_hyphen_values = true)]
    pub request: Option<String>,
}

#[derive(Debug, Args)]
pub struct HookArgs {
    /// The hook event: PreToolUse, PostToolUse, PostToolUseFailure or SessionStart.
    #[arg(value_name = "EVENT")]
    pub event: Option<String>,
}

#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Print the checks as one JSON document.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write scout.1 and a page per subcommand (scout-search.1, ...) into DIR, created if missing, instead of printing scout.1.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<std::path::PathBuf>,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// `flag` given without what it goes with: refused, naming that. The
/// flags' relations are checked by each command's `resolve`, not by clap,
/// so that a request built from JSON (`scout call`, `scout mcp`), which
/// never passes through clap, is refused in the same words.
fn goes_with(given: bool, flag: &str, other_given: bool, other: &str) -> anyhow::Result<()> {
    if given && !other_given {
        anyhow::bail!("{flag} goes with {other}");
    }
    Ok(())
}

/// Two flags given together that ask for different things: refused.
fn apart(given: bool, flag: &str, other_given: bool, other: &str) -> anyhow::Result<()> {
    if given && other_given {
        anyhow::bail!("{flag} and {other} cannot be used together");
    }
    Ok(())
}
