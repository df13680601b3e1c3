//! The command line: flags and their help, nothing else.
//!
//! Where rg has a flag with the same meaning, scout spells it the same way
//! (`-i -w -F -g --hidden -m -l --type -e`): agents type rg's flags by
//! habit. Validation and the environment are `settings`' business.

use std::ffi::OsString;

use clap::{Args, Parser, Subcommand};

use crate::query::Kind;

const SEARCH_EXAMPLES: &str = "\
Examples:
  scout search useState                 ranked page for an identifier, definitions first
  scout search 'parse args' src         a phrase; falls back to any word when absent
  scout search -e '-verbose' --type py  a pattern starting with '-'
  scout search 'fn \\w+_cache' --kind regex -g '!tests/**'
  scout search useState --page 2        the next page of the same ranked order
  scout search useState --json          one JSON document (schema in the README)";

const TOP_EXAMPLES: &str = "\
Examples:
  scout search useState          ranked, budgeted search (definitions first)
  scout doctor                   check rg, directories and the tree
  scout completions bash         shell completions

Exit status: 0 matches shown, 1 no match, 2 bad input or broken environment,
3 some paths could not be searched (the rest was).";

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
    /// Check the environment (rg, directories, the tree) and say what to fix.
    #[command(after_help = "Examples:\n  scout doctor\n  scout doctor --json")]
    Doctor(DoctorArgs),
    /// Print shell completions.
    #[command(
        after_help = "Examples:\n  scout completions bash > ~/.local/share/bash-completion/completions/scout\n  scout completions zsh > ~/.zfunc/_scout"
    )]
    Completions(CompletionsArgs),
}

#[derive(Debug, Args)]
pub struct SearchArgs {
    /// What to search for (an identifier, a phrase or a regex). With -e, every positional is a PATH.
    #[arg(value_name = "QUERY", required_unless_present = "regexp")]
    pub query: Option<String>,

    /// Files or directories to search [default: the current directory].
    #[arg(value_name = "PATH")]
    pub paths: Vec<OsString>,

    /// The query, for one that starts with '-'.
    #[arg(
        short = 'e',
        long = "regexp",
        value_name = "QUERY",
        allow_hyphen_values = true
    )]
    pub regexp: Option<String>,

    #[command(flatten)]
    pub matching: MatchArgs,

    #[command(flatten)]
    pub filter: FilterArgs,

    #[command(flatten)]
    pub output: OutputArgs,
}

/// How the query matches.
#[derive(Debug, Args)]
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
#[derive(Debug, Args)]
pub struct FilterArgs {
    /// Include or, with a leading '!', exclude files matching GLOB (rg semantics); repeatable.
    #[arg(short = 'g', long = "glob", value_name = "GLOB")]
    pub globs: Vec<String>,

    /// Only files of rg's type NAME (`rg --type-list`); repeatable.
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

/// What the page shows.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// Token budget of a page, estimated as bytes / 4; 0 means no limit.
    #[arg(long, value_name = "N", default_value_t = 1500)]
    pub budget_tokens: u64,

    /// Which page of the ranked order to show (1-based).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub page: usize,

    /// Quote at most NUM lines per file; the rest are counted as left out [default: 3 for the first 5 files, 2 after].
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

    /// Most bytes printed for a pattern with no 3-character literal anchor (rg's lines, unranked); 0 means no limit.
    #[arg(long, value_name = "BYTES", default_value_t = 100 * 1024)]
    pub passthrough_cap: u64,
}

#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Print the checks as one JSON document.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

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
            &["scout", "completions", "zsh"],
            &["scout", "--version"],
        ] {
            if let Err(e) = Cli::try_parse_from(argv) {
                panic!("{argv:?} did not parse: {e}");
            }
        }
    }

    #[test]
    fn argv_that_must_fail() {
        for argv in [
            &["scout", "search"][..],
            &["scout", "search", "--kind", "fuzzy", "x"],
            &["scout", "search", "--budget-tokens", "-1", "x"],
            &["scout", "search", "--page", "x", "x"],
            &["scout", "completions", "tcsh"],
            &["scout", "frobnicate"],
        ] {
            assert!(Cli::try_parse_from(argv).is_err(), "{argv:?} parsed");
        }
    }
}
