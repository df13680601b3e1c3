//! Colour as rg does it (issue #16): `--color always` wraps paths, line
//! numbers, matches, headings and the header and footer in escapes;
//! `--color never`, a pipe and `--json` print none; and the coloured page
//! is the plain page plus escapes, byte for byte, so colour changes nothing
//! that is counted or cut.

use crate::util;

use std::process::Command;

use crate::util::Fixture;

const PATH: &str = "\x1b[35m";
const LINE: &str = "\x1b[32m";
const MATCH: &str = "\x1b[1m\x1b[31m";
const HEADING: &str = "\x1b[36m";
const FRAME: &str = "\x1b[2m";
const RESET: &str = "\x1b[0m";

/// `text` without its SGR escape sequences (`ESC [ ... m`).
fn strip(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("\x1b[") {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 2..];
        let end = tail.find('m').expect("an escape ends with m");
        rest = &tail[end + 1..];
    }
    out.push_str(rest);
    out
}

/// The header's milliseconds masked, as `Run::stdout_masked` does.
fn mask_ms(page: &str) -> String {
    let (header, rest) = page.split_once('\n').unwrap_or((page, ""));
    let header = match header.rsplit_once(' ') {
        Some((before, ms)) if ms.ends_with("ms") => format!("{before} _ms"),
        _ => header.to_string(),
    };
    format!("{header}\n{rest}")
}

/// A tree whose ranked page is smaller than rg's lines, and cut at small
/// budgets: one definition, many usages.
fn tree() -> Fixture {
    let fx = Fixture::new();
    fx.write(
        "src/store.rs",
        "pub fn fetch_records(limit: usize) -> Vec<u8> {\n    let rows = Vec::new();\n    rows\n}\n",
    );
    for i in 0..12 {
        fx.write(
            format!("app/use_{i:02}.rs"),
            format!(
                "fn run() {{\n{}}}\n",
                "    let rows = fetch_records(10).into_iter().map(|row| row * 2);\n".repeat(8)
            ),
        );
    }
    fx
}

#[test]
fn color_always_styles_a_search_page_like_rg() {
    let run = tree().run(&["search", "fetch_records", "--color", "always"]);
    run.expect_code(0);
    let page = run.stdout();
    for piece in [
        format!("{FRAME}query: fetch_records"),
        format!("{PATH}src/store.rs{RESET}  (1x) [def]\n"),
        format!("  {HEADING}function fetch_records (1-4){RESET}\n"),
        format!("    {LINE}1{RESET}: pub fn {MATCH}fetch_records{RESET}(limit"),
        format!("{FRAME}repro: rg -n --no-heading -F -e fetch_records{RESET}\n"),
    ] {
        assert!(
            page.contains(&piece),
            "{piece:?} not in\n{}",
            run.describe()
        );
    }
    for line in page.lines() {
        // The last escape of a line is a reset: no style is open at its end.
        let open = line
            .rfind('\x1b')
            .is_some_and(|at| !line[at..].starts_with(RESET));
        assert!(!open, "a style runs past the line end: {line:?}");
    }
}

#[test]
fn color_always_is_the_piped_page_plus_escapes() {
    let fx = tree();
    for budget in ["0", "180", "400"] {
        let args = ["search", "fetch_records", "--budget-tokens", budget];
        let piped = fx.run(&args);
        piped.expect_code(0);
        let colored = fx.run(&[&args[..], &["--color", "always"]].concat());
        colored.expect_code(0);
        assert!(colored.stdout().contains('\x1b'), "{}", colored.describe());
        // Same bytes, same cut, same ~Ntok, same next-page command.
        assert_eq!(
            mask_ms(&strip(&colored.stdout())),
            piped.stdout_masked(),
            "budget {budget}"
        );
    }
    let piped = fx.run(&["search", "fetch_records", "--budget-tokens", "180"]);
    assert!(
        piped.stdout().contains("--page 2"),
        "the page is cut: {}",
        piped.describe()
    );
}

#[test]
fn color_never_and_a_pipe_print_no_escapes() {
    let mut fx = tree();
    fx.set_env("TERM", "xterm-256color");
    for args in [
        &["search", "fetch_records"][..],
        &["search", "fetch_records", "--color", "never"],
        &["search", "fetch_records", "--color", "auto"],
        &["grep", "fetch_records", "--output-mode", "content"],
        &["grep", "fetch_records", "--color", "never", "-C", "1"],
        &["read", "src/store.rs", "--symbol", "fetch_records"],
        &["read", "src/store.rs", "--color", "never"],
    ] {
        let run = fx.run(args);
        run.expect_code(0);
        assert!(!run.stdout().contains('\x1b'), "{}", run.describe());
    }
}

#[test]
fn json_is_never_colored() {
    let run = tree().run(&["search", "fetch_records", "--json", "--color", "always"]);
    run.expect_code(0);
    assert!(!run.stdout().contains('\x1b'), "{}", run.describe());
    assert_eq!(run.json()["hits"], 97);
}

#[test]
fn no_color_does_not_overrule_color_always() {
    let mut fx = tree();
    fx.set_env("NO_COLOR", "1");
    let run = fx.run(&["search", "fetch_records", "--color", "always"]);
    assert!(run.stdout().contains(MATCH), "{}", run.describe());
}

#[test]
fn rg_lines_printed_instead_of_a_page_are_colored_like_rg() {
    let fx = Fixture::new();
    fx.write("a/rare.py", "x = 1\nvalue = unique_name_here\n");
    let args = ["search", "unique_name_here"];
    let piped = fx.run(&args);
    piped.expect_lines(&["a/rare.py:2:value = unique_name_here"]);
    let colored = fx.run(&[&args[..], &["--color", "always"]].concat());
    assert_eq!(
        colored.stdout(),
        format!("{PATH}a/rare.py{RESET}:{LINE}2{RESET}:value = {MATCH}unique_name_here{RESET}\n")
    );
}

#[test]
fn grep_colors_paths_line_numbers_and_matches_on_matching_lines_only() {
    let fx = tree();
    let args = [
        "grep",
        "fetch_records",
        "src",
        "--output-mode",
        "content",
        "-A",
        "1",
    ];
    let piped = fx.run(&args);
    let colored = fx.run(&[&args[..], &["--color", "always"]].concat());
    colored.expect_code(0);
    assert_eq!(strip(&colored.stdout()), piped.stdout());
    assert_eq!(
        colored.lines()[..2],
        [
            format!("{PATH}src/store.rs{RESET}:{LINE}1{RESET}:pub fn {MATCH}fetch_records{RESET}(limit: usize) -> Vec<u8> {{"),
            format!("{PATH}src/store.rs{RESET}-{LINE}2{RESET}-    let rows = Vec::new();"),
        ]
    );

    let files = fx.run(&["grep", "fetch_records", "src", "--color", "always"]);
    files.expect_lines(&[&format!("{PATH}src/store.rs{RESET}")]);
    let counts = fx.run(&[
        "grep",
        "fetch_records",
        "--output-mode",
        "count",
        "--head-limit",
        "1",
        "--color",
        "always",
    ]);
    let lines = counts.lines();
    assert_eq!(lines[0], format!("{PATH}app/use_00.rs{RESET}:8"));
    assert!(
        lines[1].starts_with(&format!("{FRAME}[total: 97 matching lines")),
        "{}",
        counts.describe()
    );
    // The next-page command is the one a pipe gets: --color is not kept.
    assert!(
        !strip(&counts.stdout()).contains("--color"),
        "{}",
        counts.describe()
    );
}

#[test]
fn read_colors_the_header_and_line_numbers() {
    let fx = tree();
    let args = ["read", "src/store.rs", "--symbol", "fetch_records"];
    let piped = fx.run(&args);
    let colored = fx.run(&[&args[..], &["--color", "always"]].concat());
    colored.expect_code(0);
    assert_eq!(strip(&colored.stdout()), piped.stdout());
    let lines = colored.lines();
    assert_eq!(
        lines[0],
        format!("{PATH}src/store.rs{RESET}  {HEADING}function fetch_records (1-4){RESET}")
    );
    assert_eq!(
        lines[1],
        format!("{LINE}1{RESET}: pub fn fetch_records(limit: usize) -> Vec<u8> {{")
    );
    let cut = fx.run(&[
        "read",
        "src/store.rs",
        "--budget-tokens",
        "12",
        "--color",
        "always",
    ]);
    let last = cut.lines().last().unwrap().clone();
    assert!(
        last.starts_with(&format!("{FRAME}+")) && last.ends_with(RESET),
        "{}",
        cut.describe()
    );
}

/// `--color auto` on a real terminal: scout run under `script`, which gives
/// it a pseudo-terminal as stdout.
#[test]
fn auto_colors_a_terminal_unless_no_color_or_a_dumb_term() {
    let script = std::path::Path::new("/usr/bin/script");
    if !script.is_file() {
        eprintln!("skipped: no /usr/bin/script to give scout a terminal");
        return;
    }
    let fx = tree();
    let on_terminal_with = |args: &str, vars: &[(&str, &str)]| {
        let line = format!("{} {args}", env!("CARGO_BIN_EXE_scout"));
        let mut cmd = Command::new(script);
        cmd.args(["-qec", &line, "/dev/null"])
            .current_dir(fx.root())
            .env_clear()
            .envs(util::passed_on())
            .env("PATH", util::test_path())
            .env("HOME", fx.home.path())
            .env("XDG_CACHE_HOME", fx.home.path().join("cache"))
            .env("XDG_STATE_HOME", fx.home.path().join("state"));
        for (k, v) in vars {
            cmd.env(k, v);
        }
        let output = cmd.output().expect("script runs");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let on_terminal = |vars: &[(&str, &str)]| on_terminal_with("search fetch_records", vars);
    let colored = on_terminal(&[("TERM", "xterm")]);
    assert!(
        colored.contains(&format!("{FRAME}query: fetch_records")),
        "{colored:?}"
    );
    assert!(colored.contains(MATCH), "{colored:?}");
    for vars in [
        &[("TERM", "xterm"), ("NO_COLOR", "1")][..],
        &[("TERM", "dumb")],
    ] {
        let plain = on_terminal(vars);
        assert!(plain.contains("query: fetch_records"), "{plain:?}");
        assert!(!plain.contains('\x1b'), "{vars:?}: {plain:?}");
        // A usage error follows the same rules (a word that is no flag
        // after the query; before it, it would be the query, #34).
        let error = on_terminal_with("search x --bogus", vars);
        assert!(error.contains("--bogus"), "{error:?}");
        assert!(!error.contains('\x1b'), "{vars:?}: {error:?}");
    }
    let error = on_terminal_with("search x --bogus", &[("TERM", "xterm")]);
    assert!(error.contains('\x1b'), "{error:?}");
}

#[test]
fn passthrough_lines_are_colored_and_capped_on_their_plain_bytes() {
    let fx = Fixture::new();
    fx.write("a.rs", "fn f() { g(1); }\nlet x = 1;\n")
        .write("b.rs", format!("{}(2)\nh(3);\n", "y".repeat(400)));
    for cap in ["0", "60", "260"] {
        // No literal anchor of 3 characters: rg's lines, unranked.
        let args = ["search", r"\w\(", "--passthrough-cap", cap];
        let piped = fx.run(&args);
        let colored = fx.run(&[&args[..], &["--color", "always"]].concat());
        assert_eq!(strip(&colored.stdout()), piped.stdout(), "cap {cap}");
        assert_eq!(colored.stderr(), piped.stderr(), "cap {cap}");
        assert!(
            colored.stdout().starts_with(&format!(
                "{PATH}a.rs{RESET}:{LINE}1{RESET}:fn {MATCH}f({RESET}) {{ {MATCH}g({RESET}1); }}\n"
            )),
            "{}",
            colored.describe()
        );
    }
    let cut = fx.run(&[
        "search",
        r"\w\(",
        "--passthrough-cap",
        "260",
        "--color",
        "always",
    ]);
    assert!(
        cut.stdout().contains(&format!("{FRAME}[cut ")),
        "the long line is cut, its marker dimmed: {}",
        cut.describe()
    );
}
