//! `scout grep PATTERN [PATH]`: the faithful view.

use crate::trees::config_app;
use crate::util::Fixture;

/// A small tree with explicit modification times.
fn tree() -> Fixture {
    let fx = config_app();
    fx.write("notes.md", "config notes\n")
        .touch("notes.md", 500);
    fx
}

#[test]
fn files_with_matches_is_the_default_newest_first() {
    tree()
        .run(&["grep", "config"])
        .expect_code(0)
        .expect_lines(&["web/app.ts", "src/main.rs", "notes.md"]);
}

#[test]
fn equal_times_are_ordered_by_path() {
    let fx = tree();
    for file in ["src/main.rs", "web/app.ts", "notes.md"] {
        fx.touch(file, 7_000);
    }
    fx.run(&["grep", "config"]).expect_code(0).expect_lines(&[
        "notes.md",
        "src/main.rs",
        "web/app.ts",
    ]);
}

#[test]
fn content_mode_prints_rg_lines_in_path_order_with_line_numbers() {
    let fx = tree();
    fx.run(&["grep", "config", "--output-mode", "content"])
        .expect_code(0)
        .expect_lines(&[
            "notes.md:1:config notes",
            "src/main.rs:2:    let config = load();",
            "src/main.rs:3:    run(config);",
            "web/app.ts:1:const config = 1;",
        ]);
    fx.run(&["grep", "config", "--output-mode", "content", "-n"])
        .expect_code(0)
        .expect_stdout_has("src/main.rs:2:");
    fx.run(&["grep", "config", "--output-mode", "content", "-N", "src"])
        .expect_code(0)
        .expect_lines(&[
            "src/main.rs:    let config = load();",
            "src/main.rs:    run(config);",
        ]);
}

#[test]
fn content_mode_equals_rg_sorted_by_path() {
    let fx = tree();
    let expected =
        fx.rg_stdout_lines(&["-n", "--no-heading", "--sort", "path", "-i", "-e", "config"]);
    let run = fx.run(&["grep", "-i", "config", "--output-mode", "content"]);
    run.expect_code(0);
    assert_eq!(run.lines(), expected, "{}", run.describe());
}

#[test]
fn count_mode_prints_per_file_counts_and_the_total() {
    tree()
        .run(&["grep", "config", "--output-mode", "count"])
        .expect_code(0)
        .expect_lines(&[
            "notes.md:1",
            "src/main.rs:2",
            "web/app.ts:1",
            "[total: 4 matching lines in 3 files]",
        ]);
}

#[test]
fn a_single_file_path_is_searched_as_rg_would() {
    let fx = tree();
    fx.run(&["grep", "config", "src/main.rs", "--output-mode", "content"])
        .expect_code(0)
        .expect_lines(&["2:    let config = load();", "3:    run(config);"]);
    fx.run(&["grep", "config", "src/main.rs"])
        .expect_code(0)
        .expect_lines(&["src/main.rs"]);
    fx.run(&["grep", "config", "src/main.rs", "--output-mode", "count"])
        .expect_code(0)
        .expect_lines(&["src/main.rs:2", "[total: 2 matching lines in 1 file]"]);
}

#[test]
fn ignore_case_type_and_glob_narrow_the_search() {
    let fx = tree();
    fx.run(&["grep", "-i", "config", "--type", "rust"])
        .expect_code(0)
        .expect_lines(&["src/load.rs", "src/main.rs"]);
    fx.run(&["grep", "-i", "config", "--glob", "*.{ts,tsx}"])
        .expect_code(0)
        .expect_lines(&["web/app.ts", "web/view.tsx"]);
    fx.run(&["grep", "-i", "config", "--glob", "*.md,*.tsx"])
        .expect_code(0)
        .expect_lines(&["web/view.tsx", "notes.md"]);
    fx.run(&[
        "grep",
        "-i",
        "config",
        "--glob",
        "*.rs *.ts",
        "--glob",
        "!src/load.rs",
    ])
    .expect_code(0)
    .expect_lines(&["web/app.ts", "src/main.rs"]);
}

#[test]
fn hidden_files_are_searched_ignored_files_and_version_control_folders_are_not() {
    let fx = Fixture::new();
    fx.git_init();
    fx.write(".gitignore", "target/\n")
        .write(".env", "needle\n")
        .write("target/out.txt", "needle\n")
        .write("src/a.txt", "needle\n")
        .write(".hg/store", "needle\n")
        .write("sub/.svn/entries", "needle\n")
        .write(".jj/repo", "needle\n")
        .write(".git/needle", "needle\n");
    let run = fx.run(&["grep", "needle", "--output-mode", "count"]);
    run.expect_code(0).expect_lines(&[
        ".env:1",
        "src/a.txt:1",
        "[total: 2 matching lines in 2 files]",
    ]);
}

#[test]
fn a_leading_dash_pattern_is_a_pattern() {
    let fx = Fixture::new();
    fx.write("cli.txt", "run --verbose now\n-x alone\n");
    for args in [
        &["grep", "--output-mode", "content", "--", "--verbose"][..],
        &["grep", "--output-mode", "content", "-e", "--verbose"],
        &[
            "grep",
            "--output-mode",
            "content",
            "-e",
            "--verbose",
            "cli.txt",
        ],
    ] {
        fx.run(args)
            .expect_code(0)
            .expect_stdout_has("run --verbose now");
    }
    fx.run(&["grep", "-x", "--output-mode", "content"])
        .expect_code(0)
        .expect_lines(&["cli.txt:2:-x alone"]);
}

#[test]
fn context_priority_is_context_then_c_then_a_and_b() {
    let fx = Fixture::new();
    fx.write("f.txt", "1\n2\n3\n4\nneedle\n6\n7\n8\n9\n");
    let lines = |args: &[&str]| {
        let mut full = vec!["grep", "needle", "--output-mode", "content", "-N", "f.txt"];
        full.extend_from_slice(args);
        fx.run(&full).expect_code(0).lines()
    };
    assert_eq!(lines(&["-A", "1"]), ["needle", "6"]);
    assert_eq!(lines(&["-B", "2"]), ["3", "4", "needle"]);
    assert_eq!(lines(&["-A", "1", "-B", "1"]), ["4", "needle", "6"]);
    // -C wins over -A/-B (rg itself would let -A/-B win).
    assert_eq!(lines(&["-A", "3", "-C", "1"]), ["4", "needle", "6"]);
    // --context wins over -C, -A and -B.
    assert_eq!(
        lines(&["-C", "3", "--context", "2", "-A", "4"]),
        ["3", "4", "needle", "6", "7"]
    );
    assert_eq!(lines(&["--context", "0", "-C", "2"]), ["needle"]);
    // Context lines use rg's separators.
    let fx2 = Fixture::new();
    fx2.write("g.txt", "a\nneedle\nb\nc\nd\nneedle\ne\n");
    fx2.run(&["grep", "needle", "--output-mode", "content", "-C", "1"])
        .expect_code(0)
        .expect_lines(&[
            "g.txt-1-a",
            "g.txt:2:needle",
            "g.txt-3-b",
            "--",
            "g.txt-5-d",
            "g.txt:6:needle",
            "g.txt-7-e",
        ]);
}

#[test]
fn multiline_patterns_span_lines() {
    let fx = Fixture::new();
    fx.write("s.rs", "struct Point {\n    x: i32,\n}\nstruct Unit;\n");
    fx.run(&["grep", r"Point \{\n\s+x", "--output-mode", "content"])
        .expect_code(2)
        .expect_stderr_has("rg rejected the search");
    fx.run(&[
        "grep",
        r"Point \{\n\s+x",
        "--output-mode",
        "content",
        "--multiline",
    ])
    .expect_code(0)
    .expect_lines(&["s.rs:1:struct Point {", "s.rs:2:    x: i32,"]);
    // Dot matches a newline in multiline mode.
    fx.run(&["grep", r"Point.*?\}", "-U", "--output-mode", "content"])
        .expect_code(0)
        .expect_lines(&["s.rs:1:struct Point {", "s.rs:2:    x: i32,", "s.rs:3:}"]);
    // rg counts a match spanning lines once.
    fx.run(&["grep", r"Point.*?\}", "-U", "--output-mode", "count"])
        .expect_code(0)
        .expect_lines(&["s.rs:1", "[total: 1 matching line in 1 file]"]);
}

#[test]
fn long_lines_are_cut_at_500_columns_with_a_marker() {
    let fx = Fixture::new();
    let long = format!("needle {}\n", "x".repeat(2_000));
    fx.write("long.txt", &long).write("short.txt", "needle\n");
    let run = fx.run(&["grep", "needle", "--output-mode", "content"]);
    run.expect_code(0);
    let lines = run.lines();
    assert_eq!(lines.len(), 2, "{}", run.describe());
    assert!(
        lines[0].starts_with("long.txt:1:needle xxx"),
        "{}",
        run.describe()
    );
    assert!(
        lines[0].ends_with("[... omitted end of long line]"),
        "{}",
        run.describe()
    );
    assert!(lines[0].len() < 600, "{}", run.describe());
    assert_eq!(lines[1], "short.txt:1:needle");
}

#[test]
fn head_limit_defaults_to_250_and_names_the_next_page() {
    let fx = Fixture::new();
    let text: String = (1..=300).map(|i| format!("hit {i}\n")).collect();
    fx.write("many.txt", text);
    let run = fx.run(&["grep", "hit", "--output-mode", "content"]);
    run.expect_code(0);
    assert_eq!(run.results().len(), 250, "{}", run.describe());
    assert_eq!(
        run.notes(),
        ["[showing lines 1-250 of 300; next page: scout grep hit --output-mode content --offset 250]"]
    );
    let next = fx.run(&["grep", "hit", "--output-mode", "content", "--offset", "250"]);
    next.expect_code(0);
    assert_eq!(next.results().len(), 50);
    assert_eq!(next.results()[0], "many.txt:251:hit 251");
    assert_eq!(next.notes(), ["[showing lines 251-300 of 300]"]);
    let all = fx.run(&[
        "grep",
        "hit",
        "--output-mode",
        "content",
        "--head-limit",
        "0",
    ]);
    assert_eq!(all.lines().len(), 300, "{}", all.describe());
}

/// A tree with many matches spread over many files, some with context.
fn paging_tree() -> Fixture {
    let fx = Fixture::new();
    for i in 0..40 {
        let text: String = (0..(i % 7 + 1))
            .map(|j| format!("line {j}\nitem {i} {j}\n"))
            .collect();
        let name = format!("d{}/f{i:02}.txt", i % 4);
        fx.write(&name, text);
        fx.touch(&name, 10_000 + (i * 37 % 11) as u64);
    }
    fx
}

/// Pages through `args` with `--head-limit size`, following the printed
/// next-page offsets, and returns every result in order.
fn all_pages(fx: &Fixture, args: &[&str], size: usize) -> Vec<String> {
    let mut results = Vec::new();
    let mut offset = 0;
    loop {
        let size_text = size.to_string();
        let offset_text = offset.to_string();
        let mut full = args.to_vec();
        full.extend_from_slice(&["--head-limit", &size_text, "--offset", &offset_text]);
        let run = fx.run(&full);
        run.expect_code(0);
        let page = run.results();
        assert!(page.len() <= size, "{}", run.describe());
        results.extend(page.iter().cloned());
        let next = run.notes().iter().find_map(|n| {
            n.split("--offset ")
                .nth(1)
                .map(|o| o.trim_end_matches(']').to_string())
        });
        match next {
            Some(next) => {
                let next: usize = next.parse().unwrap();
                assert_eq!(next, offset + page.len(), "{}", run.describe());
                offset = next;
            }
            None => break,
        }
    }
    results
}

#[test]
fn offset_pages_together_equal_rg_s_lines_with_no_repeat() {
    let fx = paging_tree();
    let expected = fx.rg_stdout_lines(&["-n", "--no-heading", "--sort", "path", "-e", "item"]);
    assert!(expected.len() > 100);
    let paged = all_pages(&fx, &["grep", "item", "--output-mode", "content"], 17);
    assert_eq!(paged, expected);

    let expected = fx.rg_stdout_lines(&[
        "-n",
        "--no-heading",
        "--sort",
        "path",
        "-C",
        "1",
        "-e",
        "item 3",
    ]);
    let paged = all_pages(
        &fx,
        &["grep", "item 3", "--output-mode", "content", "-C", "1"],
        4,
    );
    assert_eq!(paged, expected);
}

#[test]
fn offset_pages_of_files_and_counts_cover_every_file_once() {
    let fx = paging_tree();
    let mut expected = fx.rg_stdout_lines(&["-l", "-e", "item"]);
    expected.sort();
    let paged = all_pages(&fx, &["grep", "item"], 7);
    let mut sorted = paged.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), paged.len(), "a file repeated: {paged:?}");
    assert_eq!(sorted, expected);
    // Pages follow the one order of the unpaged list.
    let whole = fx.run(&["grep", "item", "--head-limit", "0"]).results();
    assert_eq!(paged, whole);

    let mut expected = fx.rg_stdout_lines(&["-c", "-e", "item"]);
    expected.sort();
    let paged = all_pages(&fx, &["grep", "item", "--output-mode", "count"], 9);
    assert_eq!(paged, expected);
}

#[test]
fn an_offset_past_the_end_shows_nothing_and_says_so() {
    // On stderr: exit 1 leaves stdout empty (#54).
    let run = tree().run(&["grep", "config", "--offset", "10"]);
    run.expect_code(1)
        .expect_stderr_has("[nothing at offset 10: there are only 3 files; the first page: scout grep config --offset 0]");
    assert_eq!(run.stdout(), "", "{}", run.describe());
}

#[test]
fn output_over_20_mb_is_cut_at_the_last_complete_line() {
    let fx = Fixture::new();
    let line = format!("match {}\n", "y".repeat(93));
    assert_eq!(line.len(), 100);
    let count = 21 * 1024 * 1024 / 100;
    fx.write("big.txt", line.repeat(count));
    let run = fx.run(&[
        "grep",
        "match",
        "big.txt",
        "--output-mode",
        "content",
        "-N",
        "--head-limit",
        "0",
    ]);
    run.expect_code(0);
    let stdout = &run.output.stdout;
    // The results, then one bracketed note line.
    let note_start = stdout[..stdout.len() - 1]
        .iter()
        .rposition(|&b| b == b'\n')
        .unwrap()
        + 1;
    let (body, note) = stdout.split_at(note_start);
    let note = &note[..note.len() - 1];
    assert!(body.len() <= 20 * 1024 * 1024);
    assert!(body.len() > 20 * 1024 * 1024 - 100);
    assert_eq!(body.len() % 100, 0, "cut at a line boundary");
    let shown = body.len() / 100;
    let note = String::from_utf8_lossy(note);
    assert_eq!(
        note,
        format!(
            "[output cut at 20 MB at the last complete line; showing lines 1-{shown} of {count}; next page: scout grep match big.txt --output-mode content -N --head-limit 0 --offset {shown}]"
        )
    );
}

#[test]
fn no_match_is_exit_1() {
    tree()
        .run(&["grep", "absent_word"])
        .expect_code(1)
        .expect_lines(&[])
        .expect_stderr_has("no match");
}

#[test]
fn a_bad_regex_or_argument_is_exit_2_with_the_reason() {
    let fx = tree();
    fx.run(&["grep", "a(b"])
        .expect_code(2)
        .expect_lines(&[])
        .expect_stderr_has("unclosed group");
    fx.run(&["grep", "x", "--type", "nolang"])
        .expect_code(2)
        .expect_stderr_has("unrecognized file type: nolang");
    fx.run(&["grep", "x", "--glob", "*.{a"])
        .expect_code(2)
        .expect_stderr_has("unclosed alternate group");
    fx.run(&["grep", "x", "nowhere"])
        .expect_code(2)
        .expect_stderr_has("no such file or directory: nowhere");
    fx.run(&["grep", "x", "--output-mode", "lines"])
        .expect_code(2)
        .expect_stderr_has("files_with_matches");
    fx.run(&["grep", "x", "--timeout", "-1"]).expect_code(2);
}

#[test]
fn any_other_rg_failure_is_exit_2_with_rg_s_message() {
    let mut fx = tree();
    fx.fake_rg("echo 'rg: something broke badly' >&2\nexit 2");
    fx.run(&["grep", "config"])
        .expect_code(2)
        .expect_lines(&[])
        .expect_stderr_has("something broke badly");
}

#[test]
fn unreadable_files_keep_the_rest_and_exit_3() {
    let mut fx = tree();
    fx.fake_rg("printf 'src/main.rs\\n'\necho 'rg: web/app.ts: Permission denied (os error 13)' >&2\nexit 2");
    fx.run(&["grep", "config"])
        .expect_code(3)
        .expect_lines(&["src/main.rs"])
        .expect_stderr_has("scout: rg: web/app.ts: Permission denied");
}

#[test]
fn a_timeout_returns_the_partial_results_and_says_how_far_it_got() {
    let mut fx = tree();
    fx.fake_rg("printf 'notes.md:1:config notes\\nsrc/main.rs:2:    let config = load();\\n'\nexec sleep 30");
    fx.run(&["grep", "config", "--output-mode", "content", "--timeout", "0.5"])
        .expect_code(3)
        .expect_lines(&[
            "notes.md:1:config notes",
            "src/main.rs:2:    let config = load();",
            "[timed out after 0.5s: the search did not finish; 2 lines found so far (rg searches files in path order, so files after the last one shown were not searched); narrow the PATH, --glob or --type, or raise --timeout (0 = no limit)]",
        ]);
}

/// #54: a timed-out count printed its partial total as the total.
#[test]
fn regression_54_a_timed_out_count_says_its_total_is_partial() {
    let mut fx = tree();
    fx.fake_rg("printf 'notes.md:1\\nsrc/main.rs:2\\n'\nexec sleep 30");
    let run = fx.run(&[
        "grep",
        "config",
        "--output-mode",
        "count",
        "--timeout",
        "0.5",
    ]);
    run.expect_code(3);
    assert!(
        run.stdout()
            .contains("[total: 3 matching lines in 2 files, so far: the search timed out]"),
        "{}",
        run.describe()
    );
}

#[test]
fn a_timeout_with_no_result_is_exit_2() {
    let mut fx = tree();
    fx.fake_rg("exec sleep 30");
    fx.set_env("SCOUT_TIMEOUT_SECONDS", "0.3");
    fx.run(&["grep", "config"])
        .expect_code(2)
        .expect_lines(&[])
        .expect_stderr_has("the search timed out after 0.3s with no result yet");
}

#[test]
fn a_tiny_timeout_on_a_real_tree_never_loses_silently() {
    let fx = Fixture::new();
    let text = "needle in a haystack\n".repeat(50);
    for i in 0..3_000 {
        fx.write(format!("d{}/f{i}.txt", i % 30), &text);
    }
    let run = fx.run(&[
        "grep",
        "needle",
        "--output-mode",
        "content",
        "--timeout",
        "0.001",
    ]);
    match run.code() {
        3 => {
            run.expect_stdout_has("[timed out after 0.001s");
        }
        2 => {
            run.expect_stderr_has("timed out after 0.001s with no result yet");
        }
        _ => panic!("expected a timeout\n{}", run.describe()),
    }
}

#[test]
fn eagain_is_retried_on_one_thread() {
    let mut fx = tree();
    fx.fake_rg(
        "case \" $* \" in *' -j1 '*) exec \"$REAL_RG\" \"$@\";; esac\n\
         echo 'rg: Resource temporarily unavailable (os error 11)' >&2\nexit 2",
    );
    fx.run(&["grep", "config"])
        .expect_code(0)
        .expect_lines(&["web/app.ts", "src/main.rs", "notes.md"])
        .expect_stderr_has("searched again on one thread");
}

#[test]
fn help_states_defaults_and_examples() {
    Fixture::new()
        .run(&["grep", "--help"])
        .expect_code(0)
        .expect_stdout_has("[default: 250]")
        .expect_stdout_has("files_with_matches")
        .expect_stdout_has("--offset 250");
}

/// A pattern that starts with '-' and is not a flag is the pattern, and a
/// short flag with its value attached (`-C1`) is a flag, not the pattern
/// (#34).
#[test]
fn regression_34_a_pattern_that_starts_with_a_dash_is_searched() {
    let fx = tree();
    fx.write("src/sign.py", "offset = -1\nlimit = 2\n");
    fx.run(&["grep", "-1", "src"])
        .expect_code(0)
        .expect_stdout_has("src/sign.py");
    fx.run(&["grep", "--output-mode", "content", "-C1", "limit", "src"])
        .expect_code(0)
        .expect_stdout_has("src/sign.py-1-offset = -1");
    fx.run(&["grep", "-e", "-1", "src"])
        .expect_code(0)
        .expect_stdout_has("src/sign.py");
}
