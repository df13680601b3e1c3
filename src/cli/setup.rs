//! `scout setup`'s flags: what it writes, for which agent or client.

use clap::{Args, Subcommand};

pub(super) const SETUP_CLAUDE_EXAMPLES: &str = "\
Examples:
  scout setup claude                 hooks in this project's .claude/settings.json
  scout setup claude --user          hooks in ~/.claude/settings.json, for every project
  scout setup claude --dry-run       print the resulting settings file, change nothing
  scout setup claude --remove        take scout's hooks out again (only scout's)

Adds four hook entries running this scout binary: PreToolUse (Read, Bash,
Grep), PostToolUse (Read, Bash), PostToolUseFailure (Bash) and SessionStart
(exports SCOUT_SESSION_ID to the agent's Bash commands). Everything
else in the file is kept byte for byte; running it twice changes nothing; a
backup (settings.json.scout-backup-TIME) is written before any change; a file
that is not valid JSON is left alone, with the line and column where it breaks.

With the hooks, what the agent reads with its own tools enters the session
memory, and two rules may warn (never block): reread and unbudgeted-search.
Turn one off in $XDG_CONFIG_HOME/scout/hooks.json (~/.config/scout/hooks.json):
  {\"rules\": {\"reread\": \"off\", \"unbudgeted-search\": \"warn\"}}
`scout doctor` says whether the hooks are installed and run this scout.";

pub(super) const SETUP_AGENTS_MD_EXAMPLES: &str = "\
Examples:
  scout setup agents-md                     AGENTS.md at the project's root (CLAUDE.md if only it exists)
  scout setup agents-md --file CLAUDE.md    that file
  scout setup agents-md --dry-run           print the resulting file, change nothing
  scout setup agents-md --remove            take scout's section out again

For harnesses without hooks (Codex, Aider, ...): a short section with the
\"which tool for which question\" table of scout's README, between
<!-- scout:begin ... --> and <!-- scout:end --> markers. Running it again
replaces only what is between the markers; unchanged, it changes nothing.";

pub(super) const SETUP_MCP_EXAMPLES: &str = "Examples:
  scout setup mcp --client cursor            ~/.cursor/mcp.json
  scout setup mcp --client claude            .mcp.json at the project's root (Claude Code)
  scout setup mcp --client vscode            .vscode/mcp.json
  scout setup mcp --client codex             ~/.codex/config.toml
  scout setup mcp --client claude-desktop    Claude Desktop's claude_desktop_config.json
  scout setup mcp --client cursor --dry-run  print the file instead of writing it

The entry is named scout: this binary's absolute path and [\"mcp\"]. The rest of the file is kept byte for byte; the old one is backed up beside it.";

#[derive(Debug, Args)]
pub struct SetupArgs {
    #[command(subcommand)]
    pub target: SetupTarget,
}

#[derive(Debug, Subcommand)]
pub enum SetupTarget {
    /// Add scout's hooks to Claude Code's settings (the project's .claude/settings.json by default).
    #[command(after_help = SETUP_CLAUDE_EXAMPLES)]
    Claude(ClaudeSetupArgs),
    /// Write a section on which scout command answers which question into AGENTS.md or CLAUDE.md.
    #[command(name = "agents-md", after_help = SETUP_AGENTS_MD_EXAMPLES)]
    AgentsMd(AgentsMdArgs),
    /// Register `scout mcp` with an MCP client (Cursor, Claude Desktop, Codex, VS Code, Claude Code).
    #[command(after_help = SETUP_MCP_EXAMPLES)]
    Mcp(McpSetupArgs),
}

#[derive(Debug, Args)]
pub struct McpSetupArgs {
    /// The client to register with.
    #[arg(long, value_enum)]
    pub client: crate::setup::mcp::Client,

    /// The project's file (the default for vscode and claude).
    #[arg(long, conflicts_with = "user")]
    pub project: bool,

    /// The user's file, for every project (the default for cursor, codex and claude-desktop).
    #[arg(long)]
    pub user: bool,

    /// Print the resulting file instead of writing it.
    #[arg(long)]
    pub dry_run: bool,

    /// Take scout's entry out (and nothing else).
    #[arg(long)]
    pub remove: bool,
}

#[derive(Debug, Args)]
pub struct AgentsMdArgs {
    /// The file to write; default: AGENTS.md at the project's root, else CLAUDE.md there if only it exists.
    #[arg(long, value_name = "PATH")]
    pub file: Option<std::path::PathBuf>,

    /// Print the resulting file instead of writing it.
    #[arg(long)]
    pub dry_run: bool,

    /// Take scout's section out (and nothing else).
    #[arg(long)]
    pub remove: bool,
}

#[derive(Debug, Args)]
pub struct ClaudeSetupArgs {
    /// The project's .claude/settings.json, at the root of the git work tree (the default).
    #[arg(long, conflicts_with = "user")]
    pub project: bool,

    /// ~/.claude/settings.json, for every project.
    #[arg(long)]
    pub user: bool,

    /// Print the resulting settings file instead of writing it.
    #[arg(long)]
    pub dry_run: bool,

    /// Take scout's hooks out (and nothing else).
    #[arg(long)]
    pub remove: bool,
}
