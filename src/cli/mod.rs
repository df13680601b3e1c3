//! The command line: flags and their help, nothing else.
//!
//! Where rg has a flag with the same meaning, scout spells it the same way
//! (`-i -w -F -g --hidden -m -l --type -e --color`): agents type rg's flags
//! by habit. Validation and the environment are `settings`' business.

mod context;
mod edit;
mod files;
mod grep;
mod read;
mod search;
mod smart;

use std::ffi::OsString;

use clap::{Args, Parser, Subcommand};

pub use context::Context;
pub use smart::Asked;

use crate::page::query::Kind;
use crate::render::style::ColorChoice;
use crate::views::grep::OutputMode;

const SEARCH_EXAMPLES: &str = "\
Examples:
  scout search useState                 ranked page for an identifier, definitions first
  scout search 'parse args' src         a phrase; falls back to any word when absent
  scout search 'how are retries scheduled?'   a question in words: answered as scout smart does
  scout search '->where' --lang php     a query starting with '-' (-e QUERY works too)
  scout search 'fn \\w+_cache' --kind regex -g '!tests/**'
  scout search useState --page 2        the next page of the same ranked order
  scout search useState --json          one JSON document (schema in docs/search.md)
  scout search --structural --lang rust '$X.unwrap()'       code shapes, not text
  scout search --structural --lang tsx 'useState<$T>($$$A)' src
  scout search --structural --lang py 'except Exception: pass'

Quote a structural pattern in single quotes, or the shell replaces $X.";

const SMART_EXAMPLES: &str = "\
Examples:
  scout smart 'where are expired keys deleted'          definitions that answer, each with its why
  scout smart 'read the config file' src --type rust    within src/, Rust files only
  scout smart 'retry with backoff' --max-results 5 --json

The question becomes concepts: stop and question words dropped, words stemmed,
each widened by a small code vocabulary (fetch ~ load, download; remove ~
delete, unlink; ...) at a lower weight. One rg pass over all their forms
(case-insensitive, inside identifiers) gives the candidate files; the best are
parsed and their definitions scored (BM25F over name, doc comment, path and
body, rarer words and the question's first words weighing more; tests, docs,
translations, data and generated files ranked down unless asked for).

With the sentence encoder installed (./install.sh fetches it; `scout doctor`
says whether it is there), the question is also compared by meaning with every
definition of a set the question and the tree choose (--meaning-units, 256:
those the words ranked first, then whole files, the candidates first), from
each definition's name, doc comment and path, embedded once per file change
and cached; the closest join the candidates and the two rankings are fused,
lightly. The header says how much of the tree was compared; the cache changes
how long a question takes, never its answer (`scout index` fills it ahead).
A tree of over 2,000 files is compared among its candidates only. Without
the encoder, or with --words-only, the ranking is by words alone and the
header says so.
No network, ever.

With --agent, the question goes to the command in SCOUT_SMART_AGENT (run by
sh -c) as one JSON line; each line it writes back is {\"run\": [\"search\", ...]}
(only files, grep, search and read run; the output comes back as a JSON line)
or {\"answer\": {\"hits\": [{\"path\", \"line\", \"why\"}]}}, within 8 turns and
SCOUT_SMART_AGENT_TIMEOUT seconds (default 300). An answer that does not
validate, or none in time, is exit 2, saying what was wrong.

Exit status: 0 hits shown, 1 none, 2 bad input, 3 partial (some paths unreadable).";

const INDEX_EXAMPLES: &str = "\
Examples:
  scout index                     every definition under the current directory
  scout index src lib -t py       Python files of src/ and lib/

Embeds the definitions of the tree's code files (the files `scout smart` would
search, tests and generated files left out) with the sentence encoder and
caches their vectors in one store per repository in $XDG_CACHE_HOME/scout/vectors/,
so that `scout smart` finds them all at once. Only files changed since their vectors
were made are embedded again: an interrupted run resumes where it stopped, and
it is safe beside running searches; a second index of the same tree waits for
the first. A progress bar on a terminal, a count every 5 s on a pipe; one
summary line on stdout. Needs the encoder (./install.sh --encoder-only). With scout's Claude
Code hooks (scout setup claude), each session starts `scout index --background`
in its directory when the encoder is installed (SCOUT_INDEX_ON_START=0: never).

Exit status: 0 done, 2 no encoder or bad input, 3 some paths could not be indexed (the rest were).";

const GREP_EXAMPLES: &str = "\
Examples:
  scout grep useState                       files that match, newest first
  scout grep 'fn \\w+_cache' src --output-mode content -C 2
  scout grep TODO --output-mode count --glob '*.{ts,tsx}'
  scout grep '--verbose' --type py          a pattern starting with '-' (-e PATTERN works too)
  scout grep 'struct \\{[^}]*\\}' -U --output-mode content   a pattern spanning lines
  scout grep useState --output-mode content --offset 250   the next page

Results come in one deterministic order (lines by path, files newest first,
counts by path), so --offset pages never skip or repeat one. A cut list ends
with a line saying how many results there are and the command for the next
page. Version-control folders are never searched; hidden files are; ignore
files are respected. Lines longer than 500 bytes are cut with a marker.

Exit status: 0 results shown, 1 no match, 2 bad pattern, flag or PATH, or a
timeout with no result, 3 partial (timed out, or some files unreadable).";

const FILES_EXAMPLES: &str = "\
Examples:
  scout files '**/*.rs'                     Rust files at any depth, newest first
  scout files '*.{ts,tsx}' web              under web/
  scout files 'src/**/test_*.py'            anchored at the listed directory
  scout files '*.log' --respect-ignore --no-hidden

Ignored and hidden files are listed unless --respect-ignore / --no-hidden (or
SCOUT_FILES_NO_IGNORE=0 / SCOUT_FILES_HIDDEN=0) say otherwise; version-control
folders (.git, .hg, .svn, .bzr, .jj, .sl) never are. A cut list ends with a
line saying how many files matched in all.";

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

const EDIT_EXAMPLES: &str = "\
Examples:
  scout edit --structural --lang rust '$X.unwrap()' --rewrite '$X?' src
  scout edit --structural --lang py 'load($A)' --rewrite 'load($A, strict=True)' --callers-of src/config.py#load
  scout edit --structural --lang ts 'console.log($$$A)' -r 'logger.debug($$$A)' --dry-run
  scout edit --old 'max_retries = 3' --new 'max_retries = 5' src/settings.py
  scout edit --old 'OldName' --new 'NewName' --all src/a.rs src/b.rs
  scout edit src/config.py#load --with new_load.py        one whole definition
  scout edit --undo                                       the last edit, undone

Every file's new bytes are computed and parsed before the first is written: a
rewrite that adds a parse error is refused (nothing written), and so are
read-only files, files outside the working directory and binary files. Each
file is replaced by renaming a complete copy, after an undo journal is saved
in the state directory ($XDG_STATE_HOME/scout/edits/); a file changed while
the edit ran is never overwritten. The report is a page: exact counters, the
changed lines as -OLD / +NEW under their file and definition, the budget and
what it left out.

Quote patterns and templates in single quotes, or the shell replaces $X.

Exit status: 0 written (or, with --dry-run, would be), 1 nothing matched
(nothing written), 2 refused (nothing written).";

const READ_EXAMPLES: &str = "\
Examples:
  scout read src/cli.rs --symbol parse_args       a definition, numbered
  scout read app/server.py --symbol Server.handle a method, by its qualified name
  scout read src/cli.rs --range 120:188           lines 120 to 188
  scout read src/cli.rs --range 400:              from line 400 to the end
  scout read README.md                            the whole file, within the budget
  scout read src/cli.rs --range 120:188 --again   lines the session already has, shown anyway

Each block opens with a header, `PATH  KIND NAME (A-B)` for a definition or
`PATH  (A-B of N lines)` for a range, then `LINE: TEXT` lines. Lines longer
than 200 bytes are cut with a marker. Past the budget, the last line gives
the exact command for the rest. --symbol matches short names (`handle`) and
qualified ones (`Server.handle`), showing every definition with the name
together with the comments, attributes and decorators right above it; with
no match it lists the file's definitions and exits 1.

In an agent session, read joins the session memory: what it prints is
remembered, and a run of 3 or more lines the session already has (from
scout, or from the agent's own reads through `scout setup claude`'s hooks),
from a file unchanged since, collapses to one `A-B: already in this
session's context` line with the command that shows them (--again). The
budget those lines free is not spent on other lines.

Exit status: 0 shown, 1 no definition with that name, 2 bad FILE, range or
flag (a missing file, a directory, a binary file, no parser for --symbol).";

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

const SETUP_CLAUDE_EXAMPLES: &str = "\
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

const SETUP_AGENTS_MD_EXAMPLES: &str = "\
Examples:
  scout setup agents-md                     AGENTS.md at the project's root (CLAUDE.md if only it exists)
  scout setup agents-md --file CLAUDE.md    that file
  scout setup agents-md --dry-run           print the resulting file, change nothing
  scout setup agents-md --remove            take scout's section out again

For harnesses without hooks (Codex, Aider, ...): a short section with the
\"which tool for which question\" table of scout's README, between
<!-- scout:begin ... --> and <!-- scout:end --> markers. Running it again
replaces only what is between the markers; unchanged, it changes nothing.";

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

/// `scout search`'s default token budget.
pub const DEFAULT_SEARCH_BUDGET_TOKENS: u64 = 1500;

/// `scout search`'s default cap on passthrough output, in bytes.
pub const DEFAULT_PASSTHROUGH_CAP: u64 = 100 * 1024;
impl Default for ColorArgs {
    fn default() -> ColorArgs {
        ColorArgs {
            color: ColorChoice::Auto,
        }
    }
}

impl Default for MatchArgs {
    fn default() -> MatchArgs {
        MatchArgs {
            kind: Kind::Auto,
            fixed_strings: false,
            ignore_case: false,
            word: false,
        }
    }
}

impl Default for OutputArgs {
    fn default() -> OutputArgs {
        OutputArgs {
            budget_tokens: DEFAULT_SEARCH_BUDGET_TOKENS,
            page: 1,
            max_count: None,
            files_only: false,
            line_number: false,
            json: false,
            explain: false,
            lexical: false,
            passthrough_cap: DEFAULT_PASSTHROUGH_CAP,
        }
    }
}

/// `scout smart --max-results`'s default.
pub const DEFAULT_MAX_RESULTS: usize = 10;
/// `scout smart --budget-tokens`'s default.
pub const DEFAULT_SMART_BUDGET_TOKENS: u64 = 1500;

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

/// `Default` is what clap makes of `scout search` with no flag (the
/// property test of [`plain_search`] holds the two together).
#[derive(Debug, Default, PartialEq, Args)]
pub struct SearchArgs {
    /// What to search for (an identifier, a phrase or a regex). A question in words (a question word first or a '?' last, 3 to 64 words) is answered as scout smart answers it, unless -F, -w, --kind, -l or --structural asks for the text. One that starts with '-' ('->where(', '-1', '--force') and is not a flag of scout search is the query too; -e QUERY and -- QUERY work as well. With -e, every positional is a PATH.
    #[arg(value_name = "QUERY")]
    pub query: Option<String>,

    /// Files or directories to search [default: the current directory].
    #[arg(value_name = "PATH")]
    pub paths: Vec<OsString>,

    /// The query, as rg's -e takes a pattern (for one spelled like a flag of scout's: -e -l).
    #[arg(
        short = 'e',
        long = "regexp",
        value_name = "QUERY",
        allow_hyphen_values = true
    )]
    pub regexp: Option<String>,

    /// Match QUERY as code, an ast-grep pattern of the --lang language: `$X` one node, `$$$X` any number of nodes, `$_` one node not captured. Only that language's files are parsed; -F, -i and -w do not apply.
    #[arg(long)]
    pub structural: bool,

    /// Keep only the calls the code graph attributes to one definition: PATH#SYMBOL (a name, Type.method or Type::method) or PATH:LINE. With no QUERY (or -e '' before PATHs), every call of it; after the matches, what the graph made of the other calls of the name (another definition's, or cannot tell, and why). Python, JavaScript/TypeScript, Rust, Go, Java and C; other languages match by name only.
    #[arg(long, value_name = "PATH#SYMBOL")]
    pub callers_of: Option<String>,

    /// Keep the code that depends on one definition (PATH#SYMBOL or PATH:LINE): its callers, their callers, ... to --depth levels, each named by level, tests marked.
    #[arg(long, value_name = "PATH#SYMBOL")]
    pub impact: Option<String>,

    /// With --impact, how many levels of callers to follow [default: 2].
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,

    /// With --callers-of or --impact: read at most N of the files that spell the name: the definition's own file, then those nearest it; the page says how many were left unread [default: 1000; 0 reads every file].
    #[arg(long, value_name = "N")]
    pub graph_files: Option<usize>,

    /// With --callers-of or --impact: only the calls the graph proves (by scope, import or declared type), leaving out those it attributes by a name alone (the tree's only definition of a method called on a receiver of unknown type, a type of the target's type's name); the footer lists what it left.
    #[arg(long)]
    pub proven_only: bool,

    #[command(flatten)]
    pub matching: MatchArgs,

    #[command(flatten)]
    pub filter: FilterArgs,

    #[command(flatten)]
    pub output: OutputArgs,

    #[command(flatten)]
    pub session: SessionArgs,

    #[command(flatten)]
    pub color: ColorArgs,
}

#[derive(Debug, PartialEq, Args)]
pub struct SmartArgs {
    /// The question, in words: what the code does ("where are expired keys deleted"). A code name instead (EvictionPolicy, jv_setpath, ld) is answered as scout search answers it, definitions first. One that starts with '-' and is not a flag of scout smart is the question too. With -e, every positional is a PATH.
    #[arg(value_name = "QUESTION")]
    pub question: Option<String>,

    /// Files or directories to search [default: the current directory].
    #[arg(value_name = "PATH")]
    pub paths: Vec<OsString>,

    /// The question, as rg's -e takes a pattern: every positional is then a PATH.
    #[arg(
        short = 'e',
        long = "question",
        value_name = "QUESTION",
        allow_hyphen_values = true
    )]
    pub question_flag: Option<String>,

    /// Hits shown, at most.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_RESULTS)]
    pub max_results: usize,

    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,

    #[command(flatten)]
    pub files: FileArgs,

    /// Token budget of the page, estimated as bytes / 4; 0 means no limit.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SMART_BUDGET_TOKENS)]
    pub budget_tokens: u64,

    /// Hand the question to the agent command in SCOUT_SMART_AGENT instead (JSON lines; it may run only scout files/grep/search/read, for at most 8 turns and SCOUT_SMART_AGENT_TIMEOUT seconds, default 300).
    #[arg(long)]
    pub agent: bool,

    /// Rank by words only, even where the sentence encoder is installed (`scout doctor` says whether it is).
    #[arg(long)]
    pub words_only: bool,

    /// With the encoder: how many definitions are compared by meaning, those the words ranked first, then whole files, the candidates first; their vectors come from the cache or are embedded now (`scout index` embeds them ahead); 0 compares none [default: 256].
    #[arg(long, value_name = "N")]
    pub meaning_units: Option<usize>,

    /// Removed: a time budget made the answer depend on the machine's load; --meaning-units bounds the work by a count.
    #[arg(long, value_name = "MS", hide = true)]
    pub embed_budget_ms: Option<u64>,
}

/// Which files `scout smart` and `scout index` look at, with rg's rules.
#[derive(Debug, Clone, PartialEq, Args)]
pub struct FileArgs {
    /// Include or, with a leading '!', exclude files matching GLOB (rg semantics); repeatable.
    #[arg(short = 'g', long = "glob", value_name = "GLOB")]
    pub globs: Vec<String>,

    /// Only files of rg's type NAME (`rg --type-list`) or of a language (python, typescript, tsx, ...: rg's py, ts, ...); repeatable.
    #[arg(
        short = 't',
        long = "type",
        visible_alias = "lang",
        value_name = "NAME"
    )]
    pub types: Vec<String>,

    /// Search hidden files and directories too.
    #[arg(long)]
    pub hidden: bool,
}

impl FileArgs {
    /// rg's flags for these files under `paths`.
    pub fn flags(&self, paths: Vec<OsString>) -> crate::rg::SearchFlags {
        crate::rg::SearchFlags {
            globs: self.globs.clone(),
            types: self
                .types
                .iter()
                .map(|t| crate::lang::rg_type_name(t))
                .collect(),
            hidden: self.hidden,
            paths,
            ..crate::rg::SearchFlags::default()
        }
    }
}

#[derive(Debug, Clone, Args)]
pub struct IndexArgs {
    /// Files or directories to index [default: the current directory].
    #[arg(value_name = "PATH")]
    pub paths: Vec<OsString>,

    #[command(flatten)]
    pub files: FileArgs,

    /// Run at the lowest priority (as `nice -n 19`), print nothing, and leave at once when another scout index is embedding the same tree: how the SessionStart hook starts it.
    #[arg(long)]
    pub background: bool,
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

/// How the query matches.
#[derive(Debug, PartialEq, Args)]
pub struct MatchArgs {
    /// How to read the query: auto (regex if it has regex metacharacters, else literal), literal, regex, or symbol (whole-word identifier).
    #[arg(long, value_enum, default_value = "auto")]
    pub kind: Kind,

    /// Read the query as a literal string (same as --kind literal).
    #[arg(short = 'F', long = "fixed-strings")]
    pub fixed_strings: bool,

    /// Case-insensitive match.
    #[arg(short = 'i', long = "ignore-case")]
    pub ignore_case: bool,

    /// Match whole words only.
    #[arg(short = 'w', long = "word-regexp")]
    pub word: bool,
}

/// Which files are searched (rg's own semantics).
#[derive(Debug, Default, PartialEq, Args)]
pub struct FilterArgs {
    /// Include or, with a leading '!', exclude files matching GLOB (rg semantics); repeatable.
    #[arg(short = 'g', long = "glob", value_name = "GLOB")]
    pub globs: Vec<String>,

    /// Only files of rg's type NAME (`rg --type-list`) or of a --lang language (python is rg's py, typescript its ts); repeatable.
    #[arg(short = 't', long = "type", value_name = "NAME")]
    pub types: Vec<String>,

    /// With --structural, the pattern's language: rust (rs), python (py), javascript (js), typescript (ts), tsx, go, ruby (rb), java, kotlin (kt), csharp (cs), c, cpp (c++), php, lua, luau, swift, scala, elixir (ex), haskell (hs), zig, bash (sh), dart. Without --structural, the same as --type.
    #[arg(long = "lang", value_name = "LANG")]
    pub langs: Vec<String>,

    /// Search hidden files and directories too.
    #[arg(long)]
    pub hidden: bool,
}

/// What the page shows.
#[derive(Debug, PartialEq, Args)]
pub struct OutputArgs {
    /// Token budget of a page, estimated as bytes / 4; 0 means no limit.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SEARCH_BUDGET_TOKENS)]
    pub budget_tokens: u64,

    /// Which page of the ranked order to show (1-based).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub page: usize,

    /// Quote at most NUM lines per file; the rest are counted as left out [default: 3 for the first 5 files, then 2, or 1 for a file defining the name].
    #[arg(short = 'm', long = "max-count", value_name = "NUM")]
    pub max_count: Option<usize>,

    /// List ranked files with their hit counts, no lines.
    #[arg(short = 'l', long = "files-with-matches")]
    pub files_only: bool,

    /// Accepted for rg habit; line numbers are always shown.
    #[arg(short = 'n', long = "line-number")]
    pub line_number: bool,

    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,

    /// Show each file's score and the signals behind it.
    #[arg(long)]
    pub explain: bool,

    /// Definitions from the lexical rules only: no parsing, no grouping under enclosing definitions, no attached code.
    #[arg(long)]
    pub lexical: bool,

    /// Most bytes printed for a pattern with no 3-character literal anchor (rg's lines, unranked); 0 means no limit.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_PASSTHROUGH_CAP)]
    pub passthrough_cap: u64,
}

#[derive(Debug, Args)]
pub struct GrepArgs {
    /// The regex to search for (rg syntax). One that starts with '-' and is not a flag of scout grep is the pattern too; -e PATTERN and -- PATTERN work as well. With -e, the positional is the PATH.
    #[arg(value_name = "PATTERN", required_unless_present = "regexp")]
    pub pattern: Option<String>,

    /// The file or directory to search [default: the current directory].
    #[arg(value_name = "PATH")]
    pub path: Option<OsString>,

    /// The pattern, as rg's -e takes it (for one spelled like a flag of scout's: -e -i).
    #[arg(
        short = 'e',
        long = "regexp",
        value_name = "PATTERN",
        allow_hyphen_values = true
    )]
    pub regexp: Option<String>,

    /// What to print: files_with_matches (paths, newest first), content (matching lines, by path), or count (matching lines per file, by path, and the total).
    #[arg(
        long,
        value_enum,
        value_name = "MODE",
        default_value = "files_with_matches"
    )]
    pub output_mode: OutputMode,

    /// Lines of context after each match (content mode).
    #[arg(short = 'A', long = "after-context", value_name = "N")]
    pub after: Option<usize>,

    /// Lines of context before each match (content mode).
    #[arg(short = 'B', long = "before-context", value_name = "N")]
    pub before: Option<usize>,

    /// Lines of context before and after each match (content mode); overrides -A and -B.
    #[arg(short = 'C', value_name = "N")]
    pub around: Option<usize>,

    /// Lines of context before and after each match (content mode); overrides -C, -A and -B.
    #[arg(long, value_name = "N")]
    pub context: Option<usize>,

    /// Show line numbers (content mode) [default: on].
    #[arg(short = 'n', long = "line-number", overrides_with = "no_line_number")]
    pub line_number: bool,

    /// Hide line numbers (content mode).
    #[arg(short = 'N', long = "no-line-number")]
    pub no_line_number: bool,

    /// Case-insensitive match.
    #[arg(short = 'i', long = "ignore-case")]
    pub ignore_case: bool,

    /// Only files of rg's type NAME (`rg --type-list`); repeatable.
    #[arg(short = 't', long = "type", value_name = "NAME")]
    pub types: Vec<String>,

    /// Only files matching GLOB ('!' excludes; rg semantics). Split on spaces and commas outside braces: '*.{ts,tsx}' is one glob, '*.rs,*.toml' two. Repeatable.
    #[arg(
        short = 'g',
        long = "glob",
        value_name = "GLOB",
        allow_hyphen_values = true
    )]
    pub globs: Vec<String>,

    /// Let patterns span lines; '.' matches a newline too.
    #[arg(short = 'U', long)]
    pub multiline: bool,

    /// Show at most N results (lines, files or counts); 0 means no limit.
    #[arg(long, value_name = "N", default_value_t = 250)]
    pub head_limit: usize,

    /// Skip the first N results (for the next page).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub offset: usize,

    #[command(flatten)]
    pub limits: LimitArgs,

    #[command(flatten)]
    pub color: ColorArgs,
}

#[derive(Debug, Args)]
pub struct FilesArgs {
    /// The glob paths must match: '**/*.rs', '*.{ts,tsx}', 'src/**/test_*.py'. Without a '/' it matches file names at any depth; with one it is anchored at PATH.
    #[arg(value_name = "GLOB", allow_hyphen_values = true)]
    pub glob: String,

    /// The directory to list [default: the current directory].
    #[arg(value_name = "PATH")]
    pub path: Option<OsString>,

    /// List at most N files, newest first; 0 means no limit [default: 100, or $SCOUT_FILES_MAX].
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,

    /// Skip files that .gitignore, .ignore and .rgignore exclude [default: list them, unless SCOUT_FILES_NO_IGNORE=0].
    #[arg(long)]
    pub respect_ignore: bool,

    /// Skip hidden files and folders [default: list them, unless SCOUT_FILES_HIDDEN=0].
    #[arg(long)]
    pub no_hidden: bool,

    #[command(flatten)]
    pub limits: LimitArgs,
}

/// Limits shared by the faithful views.
#[derive(Debug, Args)]
pub struct LimitArgs {
    /// Stop after SECONDS and show what was found so far; 0 means no limit [default: 20, or $SCOUT_TIMEOUT_SECONDS].
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
}

#[derive(Debug, PartialEq, Args)]
pub struct ReadArgs {
    /// The file to read.
    #[arg(value_name = "FILE")]
    pub file: OsString,

    /// Show every definition named NAME: a short name (`handle`) or a qualified one (`Server.handle`, `Foo::fmt`).
    #[arg(short = 's', long, value_name = "NAME")]
    pub symbol: Option<String>,

    /// Show lines A to B, 1-based and inclusive: `A:B`, `A:` (to the end), `:B` (from the start) or `A`; an end past the file is its last line.
    #[arg(short = 'r', long, value_name = "A:B")]
    pub range: Option<String>,

    /// Token budget, estimated as bytes / 4; 0 means no limit.
    #[arg(long, value_name = "N", default_value_t = crate::views::read::DEFAULT_BUDGET_TOKENS)]
    pub budget_tokens: u64,

    #[command(flatten)]
    pub color: ColorArgs,
    /// Show lines this agent session already has too (by default they collapse to one line per run); records nothing.
    #[arg(long)]
    pub again: bool,
}

/// `scout edit`: which edit, on which files, and how its report is shown.
#[derive(Debug, PartialEq, Args)]
pub struct EditArgs {
    /// With --structural: PATTERN (one that starts with '-' and is not a flag of scout edit is the pattern too), then the PATHs to walk [default: .]. With --with: PATH#SYMBOL (or PATH:LINE). With --old/--new: the FILEs.
    #[arg(value_name = "ARGS")]
    pub args: Vec<OsString>,

    /// The structural pattern, as rg's -e takes a pattern; every positional is then a PATH.
    #[arg(
        short = 'e',
        long = "regexp",
        value_name = "PATTERN",
        allow_hyphen_values = true
    )]
    pub regexp: Option<String>,

    /// Match PATTERN as code, an ast-grep pattern of the --lang language ($X one node, $$$X any number), and replace each match by --rewrite.
    #[arg(long)]
    pub structural: bool,

    /// With --structural, the pattern's language: rust (rs), python (py), javascript (js), typescript (ts), tsx, go, ruby (rb), java, kotlin (kt), csharp (cs), c, cpp (c++), php, lua, luau, swift, scala, elixir (ex), haskell (hs), zig, bash (sh), dart.
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,

    /// What each match becomes: code with the pattern's $X and $$$X filled in, as ast-grep's --rewrite does (a multi-line template takes the match's indentation).
    #[arg(short = 'r', long, value_name = "TEMPLATE", allow_hyphen_values = true)]
    pub rewrite: Option<String>,

    /// Rewrite only the matches on calls the code graph attributes to this definition (PATH#SYMBOL or PATH:LINE): exactly the lines `scout search --callers-of` shows.
    #[arg(long, value_name = "PATH#SYMBOL")]
    pub callers_of: Option<String>,

    /// Rewrite only the matches in code that depends on this definition (its callers, to --depth levels).
    #[arg(long, value_name = "PATH#SYMBOL")]
    pub impact: Option<String>,

    /// With --impact, how many levels of callers to follow [default: 2].
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,

    /// With --callers-of or --impact: rewrite only the calls the graph proves (by scope, import or declared type), not those it attributes by a name alone; the page lists the calls it left.
    #[arg(long)]
    pub proven_only: bool,

    /// Exact text to replace in the FILEs (bytes, not a pattern); repeatable, each with its --new, applied in order.
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub old: Vec<OsString>,

    /// What the --old before it becomes.
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub new: Vec<OsString>,

    /// With --old: each pair must match exactly N times in each file [default: exactly once].
    #[arg(long, value_name = "N")]
    pub count: Option<usize>,

    /// With --old: replace every occurrence, however many.
    #[arg(long)]
    pub all: bool,

    /// Replace the whole definition PATH#SYMBOL by the code in FILE ('-': standard input), re-indented to where it stands; the comments, decorators and attributes above it stay unless the new code brings its own.
    #[arg(long = "with", value_name = "FILE")]
    pub with: Option<OsString>,

    /// Restore the files of the last edit (of this agent session, else of this directory) to their bytes before it; a file changed since is refused, by name.
    #[arg(long)]
    pub undo: bool,

    /// Show the report of the last edit again (its other pages, with --page).
    #[arg(long)]
    pub last: bool,

    /// Write nothing: print what would be written.
    #[arg(long)]
    pub dry_run: bool,

    /// Include or, with a leading '!', exclude files matching GLOB (rg semantics); repeatable.
    #[arg(short = 'g', long = "glob", value_name = "GLOB")]
    pub globs: Vec<String>,

    /// Only files of rg's type NAME (`rg --type-list`); repeatable.
    #[arg(short = 't', long = "type", value_name = "NAME")]
    pub types: Vec<String>,

    /// Walk hidden files and directories too.
    #[arg(long)]
    pub hidden: bool,

    /// Token budget of the report's page, estimated as bytes / 4; 0 means no limit.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SEARCH_BUDGET_TOKENS)]
    pub budget_tokens: u64,

    /// Which page of the report to show (1-based).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub page: usize,

    /// Print one JSON document with every change instead of the page.
    #[arg(long)]
    pub json: bool,
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

const SETUP_MCP_EXAMPLES: &str = "Examples:
  scout setup mcp --client cursor            ~/.cursor/mcp.json
  scout setup mcp --client claude            .mcp.json at the project's root (Claude Code)
  scout setup mcp --client vscode            .vscode/mcp.json
  scout setup mcp --client codex             ~/.codex/config.toml
  scout setup mcp --client claude-desktop    Claude Desktop's claude_desktop_config.json
  scout setup mcp --client cursor --dry-run  print the file instead of writing it

The entry is named scout: this binary's absolute path and [\"mcp\"]. The rest of the file is kept byte for byte; the old one is backed up beside it.";

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

/// Parses `argv` as clap does, once a query that starts with '-' is made
/// explicit ([`explicit_hyphen_query`]); errors are clap's, formatted.
pub fn parse(argv: &[OsString]) -> Result<Cli, clap::Error> {
    use clap::CommandFactory;
    parse_with(&mut Cli::command(), argv)
}

/// `argv` parsed by `command` (clap's, for [`Cli`]).
fn parse_with(command: &mut clap::Command, argv: &[OsString]) -> Result<Cli, clap::Error> {
    use clap::FromArgMatches;
    let rewritten = explicit_hyphen_query(command, argv);
    let mut matches = command.try_get_matches_from_mut(rewritten.as_deref().unwrap_or(argv))?;
    Cli::from_arg_matches_mut(&mut matches).map_err(|e| e.format(command))
}

/// The commands whose first positional is a pattern, and the id of the
/// flag that takes it explicitly. `scout edit`'s first positional is a
/// pattern only with `--structural`.
const PATTERN_COMMANDS: [(&str, &str); 4] = [
    ("search", "regexp"),
    ("grep", "regexp"),
    ("smart", "question_flag"),
    ("edit", "regexp"),
];

/// `argv` with a query that starts with '-' made explicit (`-e QUERY`),
/// or `None` when there is none. A word starting with '-' that no
/// flag of the command spells, where the query is due (no positional and
/// no `-e` before it), is the query: `'->where('`, `'-->'`, `-1`,
/// `--force`, as a Search tool takes them, rather than clap's "unexpected
/// argument". A word is a flag when it is one of the command's long names
/// (`--json`, `--glob=X`) or a cluster of its short ones (`-iw`, `-m3`,
/// `-g*.rs`: a short that takes a value ends the cluster with it). A
/// word not a flag after the query is left to clap, which names it and
/// the flag it is close to (`--pagee`); before the query, a word close
/// to a flag is the query, as rg would read it after -e.
pub fn explicit_hyphen_query(command: &clap::Command, argv: &[OsString]) -> Option<Vec<OsString>> {
    let name = argv.get(1)?.to_str()?;
    let (_, explicit_id) = PATTERN_COMMANDS.iter().find(|(c, _)| *c == name)?;
    let sub = command.find_subcommand(name)?;
    let rest = &argv[2..];
    if name == "edit"
        && !rest
            .iter()
            .take_while(|a| *a != "--")
            .any(|a| a == "--structural")
    {
        return None;
    }
    let mut positionals = 0;
    let mut explicit = false;
    let mut at = 0;
    while let Some(word) = rest.get(at) {
        let bytes = word.as_encoded_bytes();
        if bytes == b"--" {
            return None;
        }
        if bytes.len() < 2 || bytes[0] != b'-' {
            positionals += 1;
            at += 1;
            continue;
        }
        let Some(text) = word.to_str() else {
            at += 1;
            continue;
        };
        match flag_of(sub, text) {
            Some((id, takes_next)) => {
                explicit |= id == *explicit_id;
                at += 1 + usize::from(takes_next);
            }
            None if positionals == 0 && !explicit => {
                let mut rewritten = argv[..2 + at].to_vec();
                rewritten.push("-e".into());
                rewritten.extend_from_slice(&argv[2 + at..]);
                return Some(rewritten);
            }
            None => at += 1,
        }
    }
    None
}

/// The id of the flag of `command` that `word` (starting with '-') spells,
/// and whether its value is the next word; `None` when no flag does.
fn flag_of(command: &clap::Command, word: &str) -> Option<(String, bool)> {
    let takes_value = |arg: &clap::Arg| arg.get_action().takes_values();
    if let Some(long) = word.strip_prefix("--") {
        let (name, value) = match long.split_once('=') {
            Some((name, _)) => (name, true),
            None => (long, false),
        };
        if name == "help" {
            return Some(("help".into(), false));
        }
        let arg = command.get_arguments().find(|arg| {
            arg.get_all_aliases()
                .unwrap_or_default()
                .into_iter()
                .chain(arg.get_long())
                .any(|n| n == name)
        })?;
        return Some((arg.get_id().to_string(), takes_value(arg) && !value));
    }
    let mut id = None;
    for (i, c) in word.char_indices().skip(1) {
        if c == 'h' {
            id = Some("help".to_string());
            continue;
        }
        let arg = command.get_arguments().find(|arg| {
            arg.get_all_short_aliases()
                .unwrap_or_default()
                .into_iter()
                .chain(arg.get_short())
                .any(|s| s == c)
        })?;
        if takes_value(arg) {
            let attached = i + c.len_utf8() < word.len();
            return Some((arg.get_id().to_string(), !attached));
        }
        id = Some(arg.get_id().to_string());
    }
    id.map(|id| (id, false))
}

/// `scout search QUERY [PATH]...` with no flag: the arguments clap would
/// give, without building clap's parser. Building it (every subcommand's
/// arguments) cost a search ~0.3 ms and 60 page faults before rg could
/// start, a quarter of scout's own time on a small tree. Any other
/// argv (a flag, `--`, `-`, an empty or non-UTF-8 query) is `None`, for
/// clap; tests check on generated argv that clap reads the same.
pub fn plain_search(argv: &[OsString]) -> Option<SearchArgs> {
    let (command, rest) = argv.get(1..)?.split_first()?;
    let (query, paths) = rest.split_first()?;
    let plain = |arg: &OsString| !arg.is_empty() && !arg.as_encoded_bytes().starts_with(b"-");
    if command != "search" || !rest.iter().all(plain) {
        return None;
    }
    Some(SearchArgs {
        query: Some(query.to_str()?.to_string()),
        paths: paths.to_vec(),
        ..SearchArgs::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn os(argv: &[&str]) -> Vec<OsString> {
        argv.iter().map(OsString::from).collect()
    }

    /// What clap makes of `argv`, when it is a search.
    fn clap_search(argv: &[OsString]) -> Option<SearchArgs> {
        match parse(argv).ok()?.command? {
            Command::Search(args) => Some(args),
            _ => None,
        }
    }

    #[test]
    fn a_plain_search_is_read_as_clap_reads_it() {
        for argv in [
            &["scout", "search", "useState"][..],
            &["scout", "search", "useState", "src", "lib"],
            &["scout", "search", "two words", "."],
            &["scout", "search", "help"],
            &["scout", "search", "search", "search"],
            &["scout", "search", "a.b(", "src/x y"],
            &["/usr/bin/scout", "search", "é", "dir-with-dash"],
        ] {
            let argv = os(argv);
            let plain = plain_search(&argv);
            assert!(plain.is_some(), "{argv:?}");
            assert_eq!(plain, clap_search(&argv), "{argv:?}");
        }
        use std::os::unix::ffi::OsStringExt;
        let mut argv = os(&["scout", "search", "x"]);
        argv.push(OsString::from_vec(b"bad\xffpath".to_vec()));
        assert_eq!(plain_search(&argv), clap_search(&argv));
    }

    #[test]
    fn anything_but_a_plain_search_is_left_to_clap() {
        for argv in [
            &["scout"][..],
            &["scout", "search"],
            &["scout", "grep", "x"],
            &["scout", "search", "-i", "x"],
            &["scout", "search", "x", "--json"],
            &["scout", "search", "x", "-"],
            &["scout", "search", "--", "x"],
            &["scout", "search", "-e", "x"],
            &["scout", "search", ""],
            &["scout", "search", "x", ""],
            &["scout", "search", "--help"],
        ] {
            assert_eq!(plain_search(&os(argv)), None, "{argv:?}");
        }
        use std::os::unix::ffi::OsStringExt;
        let argv = vec![
            OsString::from("scout"),
            OsString::from("search"),
            OsString::from_vec(b"bad\xffquery".to_vec()),
        ];
        assert_eq!(plain_search(&argv), None);
    }

    /// The query and paths of a search, the pattern and path of a grep,
    /// the question of smart, or the pattern of a structural edit.
    fn query_of(argv: &[&str]) -> (Option<String>, Vec<String>) {
        let paths = |p: &[OsString]| p.iter().map(|p| p.to_string_lossy().into_owned()).collect();
        match parse(&os(argv))
            .unwrap_or_else(|e| panic!("{argv:?}: {e}"))
            .command
        {
            Some(Command::Search(a)) => match a.regexp {
                Some(q) => (
                    Some(q),
                    a.query.into_iter().chain(paths(&a.paths)).collect(),
                ),
                None => (a.query, paths(&a.paths)),
            },
            Some(Command::Grep(a)) => match a.regexp {
                Some(q) => (Some(q), a.pattern.into_iter().collect()),
                None => (
                    a.pattern,
                    a.path
                        .iter()
                        .map(|p| p.to_string_lossy().into_owned())
                        .collect(),
                ),
            },
            Some(Command::Smart(a)) => match a.question_flag {
                Some(q) => (
                    Some(q),
                    a.question.into_iter().chain(paths(&a.paths)).collect(),
                ),
                None => (a.question, paths(&a.paths)),
            },
            Some(Command::Edit(a)) => match a.regexp {
                Some(q) => (Some(q), paths(&a.args)),
                None => {
                    let mut all: Vec<String> = paths(&a.args);
                    let first = (!all.is_empty()).then(|| all.remove(0));
                    (first, all)
                }
            },
            other => panic!("{argv:?}: {other:?}"),
        }
    }

    #[test]
    fn regression_34_a_query_that_starts_with_a_dash_is_the_query() {
        let q = |argv: &[&str], query: &str, rest: &[&str]| {
            let (got, paths) = query_of(argv);
            assert_eq!(got.as_deref(), Some(query), "{argv:?}");
            assert_eq!(paths, rest, "{argv:?}");
        };
        for query in ["->where(", "-->", "-1", "--force", "-", "--force=yes"] {
            q(&["scout", "search", query], query, &[]);
            q(&["scout", "search", query, "src"], query, &["src"]);
            q(
                &["scout", "search", "-i", query, "src", "--json"],
                query,
                &["src"],
            );
            q(
                &["scout", "search", "--glob", "*.php", query, "-w"],
                query,
                &[],
            );
            q(&["scout", "search", "-e", query, "src"], query, &["src"]);
            q(&["scout", "search", "--", query, "src"], query, &["src"]);
            q(&["scout", "grep", query, "src"], query, &["src"]);
            q(
                &["scout", "grep", "-i", query, "--output-mode", "content"],
                query,
                &[],
            );
            q(&["scout", "smart", query, "src"], query, &["src"]);
            q(&["scout", "smart", "-e", query, "src"], query, &["src"]);
            q(
                &[
                    "scout",
                    "edit",
                    "--structural",
                    "--lang",
                    "ts",
                    query,
                    "-r",
                    "x",
                ],
                query,
                &[],
            );
        }
        // Flags stay flags: clusters, attached values, aliases, --flag=value.
        q(&["scout", "search", "-m3", "-iw", "x"], "x", &[]);
        q(
            &["scout", "search", "-g*.rs", "--kind=literal", "x"],
            "x",
            &[],
        );
        q(
            &["scout", "search", "--lang", "py", "-e", "-x", "src"],
            "-x",
            &["src"],
        );
        q(&["scout", "grep", "-C1", "x", "src"], "x", &["src"]);
        q(&["scout", "grep", "-iC", "2", "-U", "x"], "x", &[]);
        q(
            &[
                "scout",
                "smart",
                "--type",
                "py",
                "--max-results",
                "3",
                "-retry",
            ],
            "-retry",
            &[],
        );
        let search = |argv: &[&str]| match parse(&os(argv)).unwrap().command {
            Some(Command::Search(a)) => a,
            other => panic!("{other:?}"),
        };
        let a = search(&["scout", "search", "-m3", "-g*.rs", "-1"]);
        assert_eq!(
            (a.output.max_count, a.filter.globs),
            (Some(3), vec!["*.rs".to_string()])
        );
        // A flag's value is its own, whatever it looks like.
        assert!(parse(&os(&["scout", "search", "--budget-tokens", "-1", "x"])).is_err());
        // After the query, a word that is no flag is clap's error (--page?).
        let typo = parse(&os(&["scout", "search", "x", "--pagee", "2"])).unwrap_err();
        assert!(typo.to_string().contains("--page"), "{typo}");
        // Help is help.
        for argv in [&["scout", "search", "--help"][..], &["scout", "grep", "-h"]] {
            let help = parse(&os(argv)).unwrap_err();
            assert_eq!(help.kind(), clap::error::ErrorKind::DisplayHelp, "{argv:?}");
        }
        // --old/--new's FILEs are never a pattern.
        assert!(parse(&os(&["scout", "edit", "--old", "a", "--new", "b", "-f"])).is_err());
    }

    #[test]
    fn the_command_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn argv_that_must_parse() {
        for argv in [
            &["scout", "search", "useState"][..],
            &["scout", "search", "useState", "src", "lib"],
            &["scout", "search", "-e", "-foo", "src"],
            &[
                "scout", "search", "-i", "-w", "-F", "-g", "*.rs", "-g", "!target", "x",
            ],
            &["scout", "search", "--type", "py", "--lang", "rust", "x"],
            &[
                "scout",
                "search",
                "--structural",
                "--lang",
                "rust",
                "$X.unwrap()",
            ],
            &[
                "scout",
                "search",
                "--structural",
                "--lang",
                "ts",
                "-e",
                "-$X",
                "src",
            ],
            &[
                "scout", "search", "--kind", "symbol", "-m", "2", "-l", "-n", "x",
            ],
            &[
                "scout",
                "search",
                "--budget-tokens",
                "0",
                "--page",
                "3",
                "--json",
                "x",
            ],
            &["scout", "doctor", "--json"],
            &["scout", "grep", "useState"],
            &["scout", "grep", "-foo", "src"],
            &["scout", "search", "->where(", "--json"],
            &["scout", "search", "--force", "docs", "-l"],
            &["scout", "grep", "-e", "-foo", "src"],
            &["scout", "grep", "x", "--", "-dir"],
            &[
                "scout",
                "grep",
                "x",
                "--output-mode",
                "content",
                "-A",
                "1",
                "-B",
                "2",
                "-C",
                "3",
                "--context",
                "4",
                "-n",
                "-i",
                "--type",
                "rust",
                "--glob",
                "*.{ts,tsx}",
                "-U",
                "--head-limit",
                "0",
                "--offset",
                "10",
                "--timeout",
                "0.5",
            ],
            &["scout", "grep", "x", "--output-mode", "files-with-matches"],
            &["scout", "grep", "x", "--output-mode", "count", "-N"],
            &["scout", "files", "**/*.rs"],
            &["scout", "files", "*.{ts,tsx}", "src", "--limit", "5"],
            &["scout", "files", "*", "--respect-ignore", "--no-hidden"],
            &["scout", "call", r#"{"mode": "files", "pattern": "*"}"#],
            &["scout", "call", "-"],
            &["scout", "call"],
            &["scout", "read", "src/a.rs"],
            &["scout", "read", "src/a.rs", "--symbol", "Server.handle"],
            &["scout", "read", "a.rs", "-r", ":20"],
            &["scout", "read", "a.rs", "--budget-tokens", "0"],
            &["scout", "search", "x", "--color", "always"],
            &["scout", "grep", "x", "--color", "never"],
            &["scout", "read", "a.rs", "--color", "auto"],
            &["scout", "read", "a.rs", "--range", "1:9", "--again"],
            &["scout", "hook", "PreToolUse"],
            &["scout", "hook", "NoSuchEvent"],
            &["scout", "hook"],
            &["scout", "setup", "claude"],
            &["scout", "setup", "claude", "--user", "--dry-run"],
            &["scout", "setup", "claude", "--project", "--remove"],
            &[
                "scout",
                "setup",
                "agents-md",
                "--file",
                "CLAUDE.md",
                "--dry-run",
            ],
            &["scout", "completions", "zsh"],
            &["scout", "--version"],
            &["scout", "man"],
            &["scout", "man", "--dir", "/tmp/man1"],
        ] {
            if let Err(e) = parse(&os(argv)) {
                panic!("{argv:?} did not parse: {e}");
            }
        }
    }

    #[test]
    fn argv_that_must_fail() {
        for argv in [
            &["scout", "search", "--kind", "fuzzy", "x"][..],
            &["scout", "search", "--kind", "structural", "x"],
            &["scout", "search", "--budget-tokens", "-1", "x"],
            &["scout", "search", "--page", "x", "x"],
            &["scout", "completions", "tcsh"],
            &["scout", "grep"],
            &["scout", "grep", "x", "--output-mode", "lines"],
            &["scout", "grep", "x", "--head-limit", "-1"],
            &["scout", "grep", "x", "--timeout", "soon"],
            &["scout", "files"],
            &["scout", "files", "*", "--limit", "x"],
            &["scout", "read"],
            &["scout", "read", "a.rs", "--budget-tokens", "x"],
            &["scout", "hook", "PreToolUse", "--bogus"],
            &["scout", "setup"],
            &["scout", "setup", "claude", "--user", "--project"],
            &["scout", "setup", "codex"],
            &["scout", "frobnicate"],
            &["scout", "search", "x", "--color", "sometimes"],
            &["scout", "files", "*", "--color", "always"],
        ] {
            assert!(parse(&os(argv)).is_err(), "{argv:?} parsed");
        }
    }

    /// How flags go together is `resolve`'s to check, not clap's: a
    /// request built from JSON never passes through clap.
    #[test]
    fn argv_that_parse_and_resolve_refuses() {
        for (argv, said) in [
            (&["scout", "search"][..], "no query given"),
            (
                &["scout", "search", "--structural", "$X.unwrap()"],
                "--structural needs --lang",
            ),
            (
                &["scout", "search", "--depth", "2", "x"],
                "--depth goes with --impact",
            ),
            (
                &[
                    "scout",
                    "search",
                    "--callers-of",
                    "a.rs#f",
                    "--impact",
                    "a.rs#f",
                ],
                "cannot be used together",
            ),
            (
                &["scout", "read", "a.rs", "--symbol", "x", "--range", "1:2"],
                "cannot be used together",
            ),
            (
                &["scout", "edit", "--undo", "--last"],
                "--undo and --last cannot be used together",
            ),
            (&["scout", "edit", "--all", "a.rs"], "--all goes with --old"),
        ] {
            let refused = match parse(&os(argv)).unwrap().command {
                Some(Command::Search(args)) => {
                    crate::search::settings::SearchSettings::resolve(args, &os(argv)).err()
                }
                Some(Command::Read(args)) => crate::views::read::ReadSettings::resolve(args).err(),
                Some(Command::Edit(args)) => {
                    crate::edit::settings::EditSettings::resolve(args, &os(argv)).err()
                }
                _ => unreachable!(),
            };
            let message = refused.map(|e| e.to_string()).unwrap_or_default();
            assert!(message.contains(said), "{argv:?}: {message:?}");
        }
    }
}

/// Property test of the fast path: on any argv of a few words, it reads a
/// search exactly as clap does, or leaves it to clap.
#[cfg(test)]
mod fuzz {
    use super::*;
    use proptest::prelude::*;

    fn word() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-zA-Z0-9_./ $-]{0,10}",
            prop::sample::select(vec![
                "search", "help", "-", "--", "-e", "-i", "--json", "--page", "2", "", ".",
            ])
            .prop_map(str::to_string),
        ]
    }

    proptest! {
        #![proptest_config(crate::testing::proptest_config(256))]

        #[test]
        fn the_fast_path_agrees_with_clap(
            command in prop::sample::select(vec!["search", "grep", "smart", "search"]),
            words in prop::collection::vec(word(), 0..5),
        ) {
            let mut argv = vec![OsString::from("scout"), OsString::from(command)];
            argv.extend(words.iter().map(OsString::from));
            if let Some(plain) = plain_search(&argv) {
                let clap = match parse(&argv) {
                    Ok(Cli { command: Some(Command::Search(args)), .. }) => Some(args),
                    _ => None,
                };
                prop_assert_eq!(Some(plain), clap, "{:?}", argv);
            }
        }
    }
}
