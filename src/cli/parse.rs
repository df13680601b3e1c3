//! Reading a command line: clap, once a query that starts with '-' is
//! made explicit, and a fast path for the plain `scout search QUERY`
//! that gives what clap gives without building its command.

use std::ffi::OsString;

use super::{Cli, SearchArgs};

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
    use crate::cli::Command;
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
    use crate::cli::Command;
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
