//! `scout call`: one JSON request, one JSON answer.

use crate::trees::config_app;
use crate::util::{Fixture, Run};
use serde_json::{json, Value};

fn call(fx: &Fixture, request: Value) -> Run {
    fx.run(&["call", &request.to_string()])
}

/// Asserts that the answer is exactly `expected`.
fn expect_answer(run: &Run, expected: Value) {
    assert_eq!(run.json(), expected, "\n{}", run.describe());
}

#[test]
fn files_mode_lists_files_newest_first() {
    let fx = config_app();
    let run = call(&fx, json!({"mode": "files", "pattern": "**/*.{rs,ts}"}));
    run.expect_code(0);
    expect_answer(
        &run,
        json!({"mode": "files", "files": ["web/app.ts", "src/load.rs", "src/main.rs"],
               "shown": 3, "total": 3, "truncated": false, "timed_out": false,
               "warnings": [], "exit": 0}),
    );
    let run = call(
        &fx,
        json!({"mode": "files", "pattern": "*", "path": "src", "limit": 1}),
    );
    expect_answer(
        &run,
        json!({"mode": "files", "files": ["src/load.rs"], "shown": 1, "total": 2,
               "truncated": true, "timed_out": false, "warnings": [], "exit": 0}),
    );
}

/// #34: a glob holding a `/` is anchored at `path`, as in `scout files`.
#[test]
fn regression_34_files_mode_anchors_a_slashed_glob_at_path() {
    let fx = config_app();
    fx.write("src/dir/a.h", "x\n").write("dir/b.h", "x\n");
    let run = call(
        &fx,
        json!({"mode": "files", "pattern": "dir/*.h", "path": "src"}),
    );
    expect_answer(
        &run,
        json!({"mode": "files", "files": ["src/dir/a.h"], "shown": 1, "total": 1,
               "truncated": false, "timed_out": false, "warnings": [], "exit": 0}),
    );
}

#[test]
fn content_mode_answers_in_each_output_mode() {
    let fx = config_app();
    let run = call(&fx, json!({"mode": "content", "pattern": "config"}));
    run.expect_code(0);
    expect_answer(
        &run,
        json!({"mode": "content", "output_mode": "files_with_matches",
               "files": ["web/app.ts", "src/main.rs"], "shown": 2, "total": 2, "offset": 0,
               "next_offset": null, "truncated": false, "capped": false, "timed_out": false,
               "warnings": [], "exit": 0}),
    );
    let run = call(
        &fx,
        json!({"mode": "content", "pattern": "CONFIG", "-i": true, "output_mode": "content",
               "glob": "*.rs", "head_limit": 2}),
    );
    expect_answer(
        &run,
        json!({"mode": "content", "output_mode": "content",
               "lines": ["src/load.rs:1:pub fn load() -> Config {", "src/load.rs:2:    Config::default()"],
               "shown": 2, "total": 4, "offset": 0, "next_offset": 2, "truncated": true,
               "capped": false, "timed_out": false, "warnings": [], "exit": 0}),
    );
    let run = call(
        &fx,
        json!({"mode": "content", "pattern": "config", "output_mode": "count", "type": "rust"}),
    );
    expect_answer(
        &run,
        json!({"mode": "content", "output_mode": "count",
               "counts": [{"path": "src/main.rs", "count": 2}], "matching_lines": 2,
               "shown": 1, "total": 1, "offset": 0, "next_offset": null, "truncated": false,
               "capped": false, "timed_out": false, "warnings": [], "exit": 0}),
    );
}

#[test]
fn content_mode_takes_every_grep_parameter() {
    let fx = Fixture::new();
    fx.write("f.txt", "1\n2\nneedle\n4\n5\n-flag\nstruct A {\n  x\n}\n");
    let lines = |request: Value| -> Vec<Value> {
        let run = call(&fx, request);
        run.expect_code(0);
        run.json()["lines"].as_array().unwrap().clone()
    };
    let base =
        json!({"mode": "content", "pattern": "needle", "output_mode": "content", "path": "f.txt"});
    let with = |extra: Value| {
        let mut request = base.clone();
        request
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        request
    };
    assert_eq!(
        lines(with(json!({"-A": 1}))),
        json!(["3:needle", "4-4"]).as_array().unwrap().clone()
    );
    assert_eq!(
        lines(with(json!({"-B": 1, "-n": false}))),
        json!(["2", "needle"]).as_array().unwrap().clone()
    );
    assert_eq!(
        lines(with(json!({"-A": 2, "-C": 1}))),
        json!(["2-2", "3:needle", "4-4"])
            .as_array()
            .unwrap()
            .clone()
    );
    assert_eq!(
        lines(with(json!({"-C": 2, "context": 0}))),
        json!(["3:needle"]).as_array().unwrap().clone()
    );
    assert_eq!(
        lines(with(json!({"pattern": "-flag"}))),
        json!(["6:-flag"]).as_array().unwrap().clone()
    );
    assert_eq!(
        lines(with(json!({"pattern": "A \\{\\n\\s+x", "multiline": true}))),
        json!(["7:struct A {", "8:  x"]).as_array().unwrap().clone()
    );
    assert_eq!(
        lines(with(
            json!({"pattern": "\\d", "offset": 3, "head_limit": 1})
        )),
        json!(["5:5"]).as_array().unwrap().clone()
    );
}

#[test]
fn search_mode_embeds_the_ranked_document() {
    let fx = config_app();
    let run = call(
        &fx,
        json!({"mode": "search", "query": "load", "path": "src", "-i": true}),
    );
    run.expect_code(0);
    let answer = run.json();
    assert_eq!(answer["mode"], "search", "{}", run.describe());
    assert_eq!(answer["exit"], 0);
    assert_eq!(answer["truncated"], false);
    assert_eq!(answer["result"]["query"], "load");
    assert_eq!(answer["result"]["files"], 2);
    assert_eq!(answer["result"]["results"][0]["path"], "src/load.rs");

    let run = call(
        &fx,
        json!({"mode": "search", "query": "config", "budget_tokens": 170, "kind": "literal"}),
    );
    let answer = run.json();
    assert_eq!(answer["truncated"], true, "{}", run.describe());

    let run = call(&fx, json!({"mode": "search", "query": "absent_word"}));
    run.expect_code(1);
    assert_eq!(run.json()["exit"], 1);
}

#[test]
fn relative_paths_resolve_against_the_request_cwd() {
    let fx = config_app();
    let cwd = fx.root().join("src");
    let run = call(
        &fx,
        json!({"mode": "content", "pattern": "config", "output_mode": "content", "cwd": cwd, "path": "."}),
    );
    run.expect_code(0);
    assert_eq!(
        run.json()["lines"],
        json!([
            "main.rs:2:    let config = load();",
            "main.rs:3:    run(config);"
        ]),
        "{}",
        run.describe()
    );
    let run = call(
        &fx,
        json!({"mode": "files", "pattern": "*.ts*", "cwd": "web"}),
    );
    assert_eq!(
        run.json()["files"],
        json!(["app.ts", "view.tsx"]),
        "{}",
        run.describe()
    );
    let run = call(&fx, json!({"mode": "search", "query": "load", "cwd": cwd}));
    assert_eq!(
        run.json()["result"]["results"][0]["path"],
        "load.rs",
        "{}",
        run.describe()
    );
}

#[test]
fn the_request_can_come_on_stdin() {
    let fx = config_app();
    for args in [&["call"][..], &["call", "-"]] {
        let run = fx.run_with_stdin(args, r#"{"mode": "files", "pattern": "*.tsx"}"#.as_bytes());
        run.expect_code(0);
        assert_eq!(
            run.json()["files"],
            json!(["web/view.tsx"]),
            "{}",
            run.describe()
        );
    }
}

fn expect_error(run: &Run, field: Option<&str>, needle: &str) -> Value {
    run.expect_code(2);
    let answer = run.json();
    assert_eq!(answer["exit"], 2, "{}", run.describe());
    let error = &answer["error"];
    let message = error["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(needle),
        "{message:?} lacks {needle:?}\n{}",
        run.describe()
    );
    match field {
        Some(field) => assert_eq!(error["field"], field, "{}", run.describe()),
        None => assert!(error.get("field").is_none(), "{}", run.describe()),
    }
    answer
}

#[test]
fn a_bad_or_missing_mode_is_an_error_naming_the_modes() {
    let fx = config_app();
    for request in [
        json!({"mode": "grep", "pattern": "x"}),
        json!({"pattern": "x"}),
        json!({"mode": ["files"]}),
    ] {
        let answer = expect_error(&call(&fx, request), Some("mode"), "mode");
        assert_eq!(
            answer["error"]["allowed"],
            json!(["files", "content", "search", "smart", "read", "edit"])
        );
    }
}

#[test]
fn a_wrong_type_is_an_error_naming_the_field() {
    let fx = config_app();
    expect_error(
        &call(&fx, json!({"mode": "content", "pattern": "x", "-A": "2"})),
        Some("-A"),
        "must be an integer, 0 or more",
    );
    expect_error(
        &call(
            &fx,
            json!({"mode": "content", "pattern": "x", "multiline": "yes"}),
        ),
        Some("multiline"),
        "true or false",
    );
    expect_error(
        &call(&fx, json!({"mode": "files", "pattern": 7})),
        Some("pattern"),
        "must be a string",
    );
    let answer = expect_error(
        &call(
            &fx,
            json!({"mode": "content", "pattern": "x", "output_mode": "lines"}),
        ),
        Some("output_mode"),
        "one of files_with_matches, content, count",
    );
    assert_eq!(
        answer["error"]["allowed"],
        json!(["files_with_matches", "content", "count"])
    );
}

#[test]
fn unknown_fields_missing_fields_and_bad_json_are_errors() {
    let fx = config_app();
    let answer = expect_error(
        &call(
            &fx,
            json!({"mode": "files", "pattern": "*", "glob": "*.rs"}),
        ),
        Some("glob"),
        "unknown field \"glob\" for mode \"files\"",
    );
    assert!(answer["error"]["allowed"]
        .as_array()
        .unwrap()
        .contains(&json!("limit")));
    expect_error(
        &call(&fx, json!({"mode": "search"})),
        Some("query"),
        "needs \"query\"",
    );
    expect_error(&fx.run(&["call", "{\"mode\": "]), None, "not valid JSON");
    expect_error(&fx.run(&["call", "[]"]), None, "must be a JSON object");
    expect_error(
        &call(
            &fx,
            json!({"mode": "files", "pattern": "*", "cwd": "nowhere"}),
        ),
        Some("cwd"),
        "cannot be used",
    );
}

#[test]
fn view_errors_become_error_answers() {
    let fx = config_app();
    expect_error(
        &call(
            &fx,
            json!({"mode": "content", "pattern": "a(", "output_mode": "content"}),
        ),
        None,
        "unclosed group",
    );
    expect_error(
        &call(
            &fx,
            json!({"mode": "files", "pattern": "*", "path": "src/main.rs"}),
        ),
        None,
        "is not a directory",
    );
    let run = call(&fx, json!({"mode": "content", "pattern": "absent_word"}));
    run.expect_code(1);
    assert_eq!(run.json()["total"], 0);
    assert_eq!(run.json()["exit"], 1);
}

#[test]
fn a_timeout_is_flagged_with_the_partial_results() {
    let mut fx = config_app();
    fx.fake_rg("printf 'web/app.ts:1:const config = 1;\\n'\nexec sleep 30");
    let run = call(
        &fx,
        json!({"mode": "content", "pattern": "config", "output_mode": "content", "timeout": 0.5}),
    );
    run.expect_code(3);
    let answer = run.json();
    assert_eq!(
        answer["lines"],
        json!(["web/app.ts:1:const config = 1;"]),
        "{}",
        run.describe()
    );
    assert_eq!(answer["timed_out"], true);
    assert_eq!(answer["truncated"], true);
    assert_eq!(answer["exit"], 3);
}

#[test]
fn smart_mode_answers_hits_with_path_line_and_why() {
    let fx = config_app();
    fx.write(
        "src/settings.rs",
        "/// Read and validate the user's configuration file.\npub fn parse_config_file(path: &str) -> Config {\n    Config::default()\n}\n",
    );
    let run = call(
        &fx,
        json!({"mode": "smart", "query": "read the configuration file", "max_results": 2}),
    );
    run.expect_code(0);
    let answer = run.json();
    assert_eq!(answer["mode"], "smart");
    assert_eq!(answer["exit"], 0);
    let hit = &answer["hits"][0];
    assert_eq!(hit["path"], "src/settings.rs", "{}", run.describe());
    assert_eq!(hit["line"], 2);
    assert!(hit["why"]
        .as_str()
        .unwrap()
        .contains("doc \"Read and validate"));
    assert!(answer["hits"].as_array().unwrap().len() <= 2);
    // The full document of `scout smart --json` rides along.
    assert_eq!(
        answer["result"]["hits"][0]["def"]["name"],
        "parse_config_file"
    );
    assert_eq!(answer["truncated"], false);
}

#[test]
fn smart_mode_validates_like_the_other_modes() {
    let fx = config_app();
    expect_error(
        &call(&fx, json!({"mode": "smart"})),
        Some("query"),
        "needs \"query\"",
    );
    expect_error(
        &call(
            &fx,
            json!({"mode": "smart", "query": "x", "max_results": "3"}),
        ),
        Some("max_results"),
        "must be an integer, 0 or more",
    );
    expect_error(
        &call(&fx, json!({"mode": "smart", "query": "x", "page": 2})),
        Some("page"),
        "unknown field",
    );
    expect_error(
        &call(
            &fx,
            json!({"mode": "smart", "query": "load config", "max_results": 0}),
        ),
        None,
        "--max-results must be at least 1",
    );
}

/// The elapsed milliseconds of a page's header, which vary by run.
fn masked(text: &str) -> String {
    let ms = regex::Regex::new(r" \d+ms\b").unwrap();
    ms.replace_all(text, " Nms").into_owned()
}

#[test]
fn with_text_each_mode_answers_what_its_command_prints() {
    let fx = config_app();
    let cases = [
        (
            json!({"mode": "search", "query": "config"}),
            vec!["search", "config"],
        ),
        (
            json!({"mode": "search", "query": "load", "budget_tokens": 170}),
            vec!["search", "--budget-tokens", "170", "load"],
        ),
        (
            json!({"mode": "smart", "query": "load the config"}),
            vec!["smart", "load the config"],
        ),
        (
            json!({"mode": "content", "pattern": "config", "output_mode": "content"}),
            vec!["grep", "--output-mode", "content", "config"],
        ),
        (
            json!({"mode": "files", "pattern": "*.rs", "limit": 1}),
            vec!["files", "*.rs", "--limit", "1"],
        ),
    ];
    for (mut request, argv) in cases {
        request["text"] = true.into();
        let answer = call(&fx, request.clone());
        let text = answer.json()["text"]
            .as_str()
            .unwrap_or_else(|| panic!("no text: {}", answer.describe()))
            .to_string();
        let printed = fx.run(&argv);
        assert_eq!(
            masked(&text),
            masked(&printed.stdout()),
            "{request}\n{}",
            answer.describe()
        );
        assert_eq!(answer.json()["exit"], printed.code(), "{request}");
    }
    // Without `text`, no text.
    let plain = call(&fx, json!({"mode": "files", "pattern": "*.rs"}));
    assert!(plain.json().get("text").is_none(), "{}", plain.describe());
}

#[test]
fn read_mode_answers_the_lines_scout_read_prints() {
    let fx = config_app();
    let answer = call(
        &fx,
        json!({"mode": "read", "path": "src/load.rs", "symbol": "load"}),
    );
    answer.expect_code(0);
    let printed = fx.run(&["read", "src/load.rs", "--symbol", "load"]);
    expect_answer(
        &answer,
        json!({"mode": "read", "path": "src/load.rs", "text": printed.stdout(), "exit": 0}),
    );
    assert!(printed
        .stdout()
        .starts_with("src/load.rs  function load (1-3)\n1: pub fn load()"));
    let range = call(
        &fx,
        json!({"mode": "read", "path": "src/main.rs", "range": "2:3"}),
    );
    assert_eq!(
        range.json()["text"],
        fx.run(&["read", "src/main.rs", "--range", "2:3"]).stdout()
    );
    let missing = call(&fx, json!({"mode": "read", "path": "src/nope.rs"}));
    missing.expect_code(2);
    assert!(
        missing.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("src/nope.rs"),
        "{}",
        missing.describe()
    );
    expect_error(&call(&fx, json!({"mode": "read"})), Some("path"), "path");
}

/// A search rg refuses is an error answer, exit 2, not an empty result
/// with the reason in `warnings` (#34); so is a smart question's.
#[test]
fn regression_34_a_search_rg_refuses_is_an_error_answer() {
    let fx = config_app();
    for (request, said) in [
        (
            json!({"mode": "search", "query": "config", "glob": "["}),
            "error parsing glob '['",
        ),
        (
            json!({"mode": "search", "query": "config", "type": "nolang"}),
            "unrecognized file type: nolang",
        ),
        (
            json!({"mode": "search", "query": "a\nb", "kind": "literal"}),
            "holds a line break",
        ),
        (
            json!({"mode": "smart", "query": "load the config", "glob": "["}),
            "error parsing glob '['",
        ),
    ] {
        let answer = expect_error(&call(&fx, request.clone()), None, said);
        assert!(answer.get("warnings").is_none(), "{request}: {answer}");
    }
}

/// A query that starts with '-' survives the request layer's command
/// line: it is the query in every mode that takes one (#34).
#[test]
fn regression_34_a_query_that_starts_with_a_dash_is_the_query_in_every_mode() {
    let fx = config_app();
    fx.write("src/repo.php", "<?php\n$rows = $query->where('id', 1);\n");
    for request in [
        json!({"mode": "search", "query": "->where(", "kind": "literal"}),
        json!({"mode": "content", "pattern": "->where\\(", "output_mode": "content"}),
        json!({"mode": "smart", "query": "->where rows"}),
    ] {
        let run = call(&fx, request.clone());
        run.expect_code(0);
        assert!(
            run.stdout().contains("src/repo.php"),
            "{request}\n{}",
            run.describe()
        );
    }
}

/// #37: a request is refused in the words the command line is, for the
/// same bad input: the flags' relations are checked once, after clap,
/// and a request is never an argv parsed again.
#[test]
fn a_bad_request_is_refused_in_the_command_lines_words() {
    let fx = config_app();
    let cases: &[(&[&str], Value)] = &[
        (
            &[
                "search",
                "--callers-of",
                "src/load.rs#load",
                "--impact",
                "src/load.rs#load",
            ],
            json!({"mode": "search", "callers_of": "src/load.rs#load", "impact": "src/load.rs#load"}),
        ),
        (
            &["search", "--depth", "3", "-e", "load"],
            json!({"mode": "search", "query": "load", "depth": 3}),
        ),
        (
            &["search", "--callers-of", "src/load.rs#load", "--depth", "3"],
            json!({"mode": "search", "callers_of": "src/load.rs#load", "depth": 3}),
        ),
        (
            &["search", "--structural", "-e", "load($A)"],
            json!({"mode": "search", "structural": true, "query": "load($A)"}),
        ),
        (
            &["search", "--page", "0", "-e", "load"],
            json!({"mode": "search", "query": "load", "page": 0}),
        ),
        (
            &["search", "--graph-files", "5", "-e", "load"],
            json!({"mode": "search", "query": "load", "graph_files": 5}),
        ),
        (
            &["edit", "--structural", "--lang", "rust", "-e", "load()"],
            json!({"mode": "edit", "pattern": "load()", "lang": "rust"}),
        ),
        (
            &["edit", "--undo", "--dry-run"],
            json!({"mode": "edit", "undo": true, "dry_run": true}),
        ),
        (
            &["edit", "--undo", "--last"],
            json!({"mode": "edit", "undo": true, "last": true}),
        ),
        (
            &[
                "edit",
                "--old",
                "a",
                "--new",
                "b",
                "--count",
                "2",
                "--all",
                "src/load.rs",
            ],
            json!({"mode": "edit", "old": "a", "new": "b", "count": 2, "all": true, "path": "src/load.rs"}),
        ),
        (
            &["edit", "--all", "src/load.rs"],
            json!({"mode": "edit", "all": true, "path": "src/load.rs"}),
        ),
        (
            &["edit", "--new", "b", "src/load.rs"],
            json!({"mode": "edit", "new": "b", "path": "src/load.rs"}),
        ),
        (
            &[
                "edit",
                "--impact",
                "src/load.rs#load",
                "--old",
                "a",
                "--new",
                "b",
                "src/load.rs",
            ],
            json!({"mode": "edit", "impact": "src/load.rs#load", "old": "a", "new": "b", "path": "src/load.rs"}),
        ),
        (
            &[
                "edit",
                "--structural",
                "--lang",
                "rust",
                "-e",
                "load()",
                "--rewrite",
                "x()",
                "--old",
                "a",
                "--new",
                "b",
            ],
            json!({"mode": "edit", "pattern": "load()", "lang": "rust", "rewrite": "x()", "old": "a", "new": "b"}),
        ),
        // Two edits at once, which clap let through (a `requires` whose
        // flag conflicts with a given one is not checked): the definition
        // was rewritten and the rest dropped.
        (
            &["edit", "src/load.rs#load", "--with", "-", "--new", "b"],
            json!({"mode": "edit", "symbol": "src/load.rs#load", "with": "pub fn load() {}", "new": "b"}),
        ),
        (
            &[
                "edit",
                "--structural",
                "--lang",
                "rust",
                "-e",
                "load()",
                "--rewrite",
                "x()",
                "--with",
                "-",
                "src/load.rs#load",
            ],
            json!({"mode": "edit", "symbol": "src/load.rs#load", "with": "pub fn load() {}", "pattern": "load()", "lang": "rust", "rewrite": "x()"}),
        ),
        (
            &["read", "--symbol", "load", "--range", "1:2", "src/load.rs"],
            json!({"mode": "read", "path": "src/load.rs", "symbol": "load", "range": "1:2"}),
        ),
        (
            &["smart", "--", "  "],
            json!({"mode": "smart", "query": "  "}),
        ),
    ];
    let load = std::fs::read(fx.root().join("src/load.rs")).unwrap();
    for (argv, request) in cases {
        let shell = fx.run(argv);
        shell.expect_code(2);
        let stderr = shell.stderr();
        let said = stderr
            .lines()
            .find_map(|l| l.strip_prefix("scout: "))
            .unwrap_or_else(|| panic!("no `scout: ` line\n{}", shell.describe()));
        let answer = call(&fx, request.clone());
        answer.expect_code(2);
        assert_eq!(
            answer.json()["error"]["message"],
            said,
            "{argv:?} against {request}\n{}",
            answer.describe()
        );
        assert_eq!(
            std::fs::read(fx.root().join("src/load.rs")).unwrap(),
            load,
            "{argv:?} changed a file"
        );
    }
}

/// #51: a request with a `cwd` is confined to it, every path-bearing
/// field read as its command reads it (`PATH:LINE` before `PATH#SYMBOL`,
/// links resolved), as `scout mcp` confines a call to its roots.
#[test]
fn regression_51_a_request_s_cwd_confines_its_paths() {
    let fx = config_app();
    fx.write(
        "outside/secret.rs",
        "pub fn hidden() -> &'static str {\n    \"SECRET\"\n}\n",
    )
    .write("src/a#b/x.rs", "fn x() {}\n");
    std::os::unix::fs::symlink("../outside", fx.root().join("src/linkdir")).unwrap();
    let cwd = fx.root().join("src");
    for (request, field) in [
        (
            json!({"mode": "read", "path": "../outside/secret.rs"}),
            "path",
        ),
        (json!({"mode": "read", "path": "linkdir/secret.rs"}), "path"),
        (
            json!({"mode": "search", "callers_of": "a#b/../../outside/secret.rs:1"}),
            "callers_of",
        ),
        (
            json!({"mode": "search", "query": "x", "path": ["load.rs", "../web"]}),
            "path",
        ),
        (
            json!({"mode": "content", "pattern": "SECRET", "glob": "../**"}),
            "glob",
        ),
        (
            json!({"mode": "edit", "symbol": "../outside/secret.rs#hidden", "with": "pub fn hidden() {}"}),
            "symbol",
        ),
        (
            json!({"mode": "files", "pattern": "*", "path": "~"}),
            "path",
        ),
    ] {
        let mut request = request;
        request["cwd"] = json!(cwd);
        let run = call(&fx, request.clone());
        run.expect_code(2);
        assert_eq!(
            run.json()["error"]["field"],
            field,
            "{request}: {}",
            run.describe()
        );
        assert!(!run.stdout().contains("SECRET\\\""), "{}", run.describe());
    }
    assert!(std::fs::read_to_string(fx.root().join("outside/secret.rs"))
        .unwrap()
        .contains("SECRET"));
    // Without a cwd, a request reads what its process may, as a command does.
    call(&fx, json!({"mode": "read", "path": "outside/secret.rs"})).expect_code(0);
}
