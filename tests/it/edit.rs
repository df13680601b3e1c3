//! `scout edit` (#33): structural rewrites as ast-grep makes them, scoped
//! by the code graph to the lines `--callers-of` shows, exact text, whole
//! definitions; the refusals that leave every file as it was; the page
//! and the JSON document; the undo journal; `scout call`'s edit mode.
//! The faults (a file changed under the edit, a full disk, a kill) are
//! in `tests/it/edit_faults.rs`.

use crate::util;

use std::collections::BTreeSet;

use crate::util::{snapshot, Fixture};
use proptest::prelude::*;
use serde::Deserialize;

fn read(fx: &Fixture, rel: &str) -> Vec<u8> {
    std::fs::read(fx.root().join(rel)).unwrap()
}

fn text(fx: &Fixture, rel: &str) -> String {
    String::from_utf8(read(fx, rel)).unwrap()
}

const RUST: &str = "fn main() {\n    let v = a.unwrap().unwrap();\n    let w = foo(\n        b,\n    ).unwrap();\n    if x {\n        let z = c.unwrap();\n    }\n}\n";

/// The JSON contract, read strictly: an unknown field is an error.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct ReportDoc {
    mode: String,
    what: String,
    lang: Option<String>,
    written: bool,
    dry_run: bool,
    files: u64,
    files_changed: u64,
    matches: u64,
    rewritten: u64,
    left_alone: u64,
    changes: Vec<FileDoc>,
    scope_text: Option<String>,
    scope: Option<serde_json::Value>,
    callers: Option<serde_json::Value>,
    #[serde(default)]
    removed: Vec<String>,
    command: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct FileDoc {
    path: String,
    lines: Vec<u64>,
    matches: u64,
    rewritten: u64,
    left_alone: u64,
    hunks: Vec<HunkDoc>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct HunkDoc {
    line: u64,
    last_line: u64,
    new_line: u64,
    new_last_line: u64,
    before: Vec<String>,
    after: Vec<String>,
    definition: Option<String>,
}

fn report(run: &util::Run) -> ReportDoc {
    serde_json::from_str(run.stdout().trim()).unwrap_or_else(|e| panic!("{e}\n{}", run.describe()))
}

#[test]
fn a_structural_rewrite_fills_captures_keeps_indentation_and_leaves_nested_matches() {
    let fx = Fixture::new();
    fx.write("src/a.rs", RUST);
    fx.write("src/b.py", "print(1)\n");
    let run = fx.run(&[
        "edit",
        "--structural",
        "--lang",
        "rust",
        "$X.unwrap()",
        "--rewrite",
        "match $X {\n    Some(v) => v,\n    None => return,\n}",
        "--json",
    ]);
    run.expect_code(0);
    assert_eq!(
        text(&fx, "src/a.rs"),
        "fn main() {\n    let v = match a.unwrap() {\n        Some(v) => v,\n        None => return,\n    };\n    let w = match foo(\n        b,\n    ) {\n        Some(v) => v,\n        None => return,\n    };\n    if x {\n        let z = match c {\n            Some(v) => v,\n            None => return,\n        };\n    }\n}\n",
        "{}",
        run.describe()
    );
    assert_eq!(text(&fx, "src/b.py"), "print(1)\n");
    let doc = report(&run);
    assert_eq!(
        (doc.files, doc.matches, doc.rewritten, doc.left_alone),
        (1, 4, 3, 1)
    );
    assert!(doc.written && !doc.dry_run);
    assert_eq!(doc.changes[0].path, "src/a.rs");
    assert_eq!(doc.changes[0].hunks[0].line, 2);
    assert_eq!(
        doc.changes[0].hunks[0].definition.as_deref(),
        Some("function main (1-9)")
    );
}

#[test]
fn dry_run_writes_nothing_and_shows_the_same_page() {
    let fx = Fixture::new();
    fx.write("a.rs", RUST);
    let args = [
        "edit",
        "--structural",
        "--lang",
        "rs",
        "$X.unwrap()",
        "-r",
        "$X?",
    ];
    let dry = fx.run(&[&args[..], &["--dry-run"]].concat());
    dry.expect_code(0)
        .expect_stdout_has("dry-run: nothing written")
        .expect_stdout_has(
            "    -2:     let v = a.unwrap().unwrap();\n    +2:     let v = a.unwrap()?;\n",
        )
        .expect_stdout_has("apply: the same command without --dry-run");
    assert_eq!(text(&fx, "a.rs"), RUST);
    let real = fx.run(&args);
    real.expect_code(0)
        .expect_stdout_has("files=1 matches=4 rewritten=3 left_alone=1  written")
        .expect_stdout_has("undo: scout edit --undo");
    assert_eq!(
        text(&fx, "a.rs"),
        "fn main() {\n    let v = a.unwrap()?;\n    let w = foo(\n        b,\n    )?;\n    if x {\n        let z = c?;\n    }\n}\n"
    );
}

#[test]
fn nothing_matched_is_exit_1_and_writes_nothing() {
    let fx = Fixture::new();
    fx.write("a.rs", "fn main() {}\n");
    fx.run(&[
        "edit",
        "--structural",
        "--lang",
        "rust",
        "$X.unwrap()",
        "-r",
        "$X?",
    ])
    .expect_code(1)
    .expect_stderr_has("no match");
    fx.run(&["edit", "--old", "nothere", "--new", "x", "a.rs"])
        .expect_code(1)
        .expect_stderr_has("no --old text occurs");
    assert_eq!(text(&fx, "a.rs"), "fn main() {}\n");
}

/// The lines `scout search --structural ... --callers-of` shows.
fn searched_lines(fx: &Fixture, pattern: &str, spec: &str) -> BTreeSet<String> {
    let run = fx.run(&[
        "search",
        "--structural",
        "--lang",
        "python",
        "--callers-of",
        spec,
        "--json",
        "--budget-tokens",
        "0",
        "-m",
        "1000",
        "--again",
        "-e",
        pattern,
    ]);
    run.expect_code(0);
    let mut lines = BTreeSet::new();
    for result in run.json()["results"].as_array().unwrap() {
        for line in result["lines"].as_array().unwrap() {
            lines.insert(format!(
                "{}:{}",
                result["path"].as_str().unwrap(),
                line["line"]
            ));
        }
    }
    lines
}

#[test]
fn a_scoped_rewrite_changes_exactly_the_lines_callers_of_shows() {
    let fx = Fixture::new();
    fx.write("pkg/__init__.py", "from .config import load\n");
    fx.write(
        "pkg/config.py",
        "import json\n\n\ndef load(path):\n    with open(path) as f:\n        return json.load(f)\n\n\nclass Config:\n    def load(self, path):\n        self.data = load(path)\n        return self\n",
    );
    fx.write(
        "pkg/app.py",
        "from pkg.config import load, Config\n\n\ndef main(items):\n    data = load('a.json')\n    c = Config()\n    c.load('b.json')\n    other.load('c.json')\n    return data\n",
    );
    let shown = searched_lines(&fx, "load($A)", "pkg/config.py#load");
    let run = fx.run(&[
        "edit",
        "--structural",
        "--lang",
        "python",
        "load($A)",
        "--rewrite",
        "load($A, strict=True)",
        "--callers-of",
        "pkg/config.py#load",
        "--json",
    ]);
    run.expect_code(0);
    let doc = report(&run);
    let rewritten: BTreeSet<String> = doc
        .changes
        .iter()
        .flat_map(|f| {
            f.hunks
                .iter()
                .map(move |h| format!("{}:{}", f.path, h.line))
        })
        .collect();
    assert_eq!(rewritten, shown, "{}", run.describe());
    assert_eq!(
        text(&fx, "pkg/app.py"),
        "from pkg.config import load, Config\n\n\ndef main(items):\n    data = load('a.json', strict=True)\n    c = Config()\n    c.load('b.json')\n    other.load('c.json')\n    return data\n"
    );
    assert!(text(&fx, "pkg/config.py").contains("self.data = load(path, strict=True)"));
    assert!(text(&fx, "pkg/config.py").contains("json.load(f)\n"));
    let scope = doc.scope_text.unwrap();
    assert!(
        scope.contains("callers-of: function load (pkg/config.py:4)"),
        "{scope}"
    );
    // The text page says what the graph left alone.
    fx.run(&["edit", "--undo"]).expect_code(0);
    fx.run(&[
        "edit",
        "--structural",
        "--lang",
        "python",
        "load($A)",
        "--rewrite",
        "load($A, strict=True)",
        "--callers-of",
        "pkg/config.py#load",
        "--dry-run",
    ])
    .expect_code(0)
    .expect_stdout_has("other definitions:")
    .expect_stdout_has("only the attributed calls were rewritten");
}

#[test]
fn text_pairs_apply_in_order_and_a_count_that_does_not_hold_is_refused() {
    let fx = Fixture::new();
    fx.write("a.py", "x = 1\nx = 2\ny = 3\n");
    let run = fx.run(&["edit", "--old", "x = ", "--new", "z = ", "a.py"]);
    run.expect_code(2)
        .expect_stderr_has("a.py: --old 'x = ' occurs 2 times (line 1, 2), not once")
        .expect_stderr_has("nothing written");
    assert_eq!(text(&fx, "a.py"), "x = 1\nx = 2\ny = 3\n");
    fx.run(&[
        "edit", "--old", "x = ", "--new", "z = ", "--count", "3", "a.py",
    ])
    .expect_code(2)
    .expect_stderr_has("not 3 times");
    // The second pair sees what the first made.
    fx.run(&[
        "edit", "--old", "x = 1", "--new", "z = 1", "--old", "z = 1\nx", "--new", "w = 1\nv",
        "a.py",
    ])
    .expect_code(0);
    assert_eq!(text(&fx, "a.py"), "w = 1\nv = 2\ny = 3\n");
    fx.run(&["edit", "--old", "w", "--new", "z", "--count", "1", "a.py"])
        .expect_code(0);
    assert_eq!(text(&fx, "a.py"), "z = 1\nv = 2\ny = 3\n");
    fx.run(&["edit", "--old", " = ", "--new", "=", "--all", "a.py"])
        .expect_code(0)
        .expect_stdout_has("rewritten=3");
    assert_eq!(text(&fx, "a.py"), "z=1\nv=2\ny=3\n");
}

/// Rewrites every Python `print(X)` of `fx`'s tree to `log(X)`, which
/// must succeed.
/// `print(x)` -> `log(x)` in every Python file.
const PRINT_TO_LOG: [&str; 7] = [
    "edit",
    "--structural",
    "--lang",
    "py",
    "print($A)",
    "-r",
    "log($A)",
];

fn print_to_log(fx: &Fixture) {
    fx.run(&PRINT_TO_LOG).expect_code(0);
}

#[test]
fn line_ends_a_bom_a_missing_final_newline_and_other_bytes_are_kept() {
    let fx = Fixture::new();
    fx.write("crlf.py", "def f():\r\n    print(1)\r\n    print(2)\r\n");
    fx.write("bom.py", "\u{feff}print(1)\nprint(2)");
    let latin1: &[u8] = b"# caf\xe9\nname = 'old'\n";
    fx.write("latin1.py", latin1);
    print_to_log(&fx);
    assert_eq!(
        text(&fx, "crlf.py"),
        "def f():\r\n    log(1)\r\n    log(2)\r\n"
    );
    assert_eq!(text(&fx, "bom.py"), "\u{feff}log(1)\nlog(2)");
    // Not UTF-8: not parsed for a structural edit, edited as text.
    assert_eq!(read(&fx, "latin1.py"), latin1);
    fx.run(&["edit", "--old", "'old'", "--new", "'new'", "latin1.py"])
        .expect_code(0);
    assert_eq!(read(&fx, "latin1.py"), b"# caf\xe9\nname = 'new'\n");
    // Text typed with bare newlines matches a CRLF file, and keeps CRLF.
    fx.run(&[
        "edit",
        "--old",
        "log(1)\n    log(2)",
        "--new",
        "log(3)\n    log(4)",
        "crlf.py",
    ])
    .expect_code(0);
    assert_eq!(
        text(&fx, "crlf.py"),
        "def f():\r\n    log(3)\r\n    log(4)\r\n"
    );
}

#[test]
fn permission_bits_are_kept() {
    use std::os::unix::fs::PermissionsExt;
    let fx = Fixture::new();
    fx.write("run.py", "print(1)\n");
    let path = fx.root().join("run.py");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o751)).unwrap();
    fx.run(&["edit", "--old", "1", "--new", "2", "run.py"])
        .expect_code(0);
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode, 0o751);
}

#[test]
fn a_definition_is_replaced_whole_reindented_with_its_decorators_kept() {
    let fx = Fixture::new();
    fx.write(
        "svc.py",
        "class Service:\n    # loads things\n    @cached\n    def load(self, path):\n        return open(path)\n\n    def other(self):\n        return self.load('x')\n",
    );
    fx.write(
        "use.py",
        "from svc import Service\n\ndef main():\n    Service().load('y')\n",
    );
    fx.write(
        "new.py",
        "def load(self, path, strict=False):\n    return open(path, strict)\n",
    );
    let run = fx.run(&["edit", "svc.py#Service.load", "--with", "new.py"]);
    run.expect_code(0);
    assert_eq!(
        text(&fx, "svc.py"),
        "class Service:\n    # loads things\n    @cached\n    def load(self, path, strict=False):\n        return open(path, strict)\n\n    def other(self):\n        return self.load('x')\n",
        "{}",
        run.describe()
    );
    run.expect_stdout_has("signature changed: method Service.load");
    // From standard input, the same body again: the signature stays.
    let again = fx.run_with_stdin(
        &["edit", "svc.py#Service.load", "--with", "-"],
        b"    def load(self, path, strict=False):\n        return open(path, not strict)\n",
    );
    again.expect_code(0);
    assert!(
        !again.stdout().contains("signature changed"),
        "{}",
        again.describe()
    );
    assert!(text(&fx, "svc.py").contains("        return open(path, not strict)\n"));
    fx.run(&["edit", "svc.py#nothing", "--with", "new.py"])
        .expect_code(2)
        .expect_stderr_has("nothing");
}

#[test]
fn refusals_write_nothing() {
    let fx = Fixture::new();
    fx.write("a.rs", RUST);
    fx.write("bin.py", b"print(1)\0\n");
    let before = snapshot(fx.root());
    // A rewrite that breaks the parse.
    fx.run(&[
        "edit",
        "--structural",
        "--lang",
        "rust",
        "$X.unwrap()",
        "-r",
        "$X.(",
    ])
    .expect_code(2)
    .expect_stderr_has("a.rs:2: the edit would not parse as rust")
    .expect_stderr_has("nothing written");
    // An unknown language, a pattern that does not parse, a template name
    // the pattern does not capture.
    fx.run(&["edit", "--structural", "--lang", "cobol", "x", "-r", "y"])
        .expect_code(2)
        .expect_stderr_has("unknown language");
    fx.run(&[
        "edit",
        "--structural",
        "--lang",
        "rust",
        "$X.unwrap(",
        "-r",
        "y",
    ])
    .expect_code(2)
    .expect_stderr_has("does not parse");
    fx.run(&[
        "edit",
        "--structural",
        "--lang",
        "rust",
        "$X.unwrap()",
        "-r",
        "$Y?",
    ])
    .expect_code(2)
    .expect_stderr_has("$Y, which the pattern does not capture");
    // A binary file, named.
    fx.run(&["edit", "--old", "print", "--new", "log", "bin.py"])
        .expect_code(2)
        .expect_stderr_has("binary");
    // Outside the directory edited.
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("o.py"), "x = 1\n").unwrap();
    let o = outside.path().join("o.py");
    fx.run(&["edit", "--old", "x", "--new", "y", o.to_str().unwrap()])
        .expect_code(2)
        .expect_stderr_has("outside the directory edited");
    std::os::unix::fs::symlink(&o, fx.root().join("link.py")).unwrap();
    fx.run(&["edit", "--old", "x", "--new", "y", "link.py"])
        .expect_code(2)
        .expect_stderr_has("outside the directory edited");
    assert_eq!(std::fs::read(&o).unwrap(), b"x = 1\n");
    std::fs::remove_file(fx.root().join("link.py")).unwrap();
    // No edit named.
    fx.run(&["edit", "a.rs"])
        .expect_code(2)
        .expect_stderr_has("say which edit");
    assert_eq!(snapshot(fx.root()), before);
}

#[test]
fn read_only_files_and_directories_are_refused() {
    use std::os::unix::fs::PermissionsExt;
    let fx = Fixture::new();
    fx.write("ro/a.py", "x = 1\n");
    fx.write("rw/b.py", "x = 1\n");
    let file = fx.root().join("rw/b.py");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).unwrap();
    fx.run(&["edit", "--old", "x", "--new", "y", "rw/b.py"])
        .expect_code(2)
        .expect_stderr_has("rw/b.py is read-only");
    let dir = fx.root().join("ro");
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o555)).unwrap();
    let run = fx.run(&["edit", "--old", "x", "--new", "y", "ro/a.py"]);
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    run.expect_code(2).expect_stderr_has("is read-only");
    assert_eq!(text(&fx, "ro/a.py"), "x = 1\n");
    assert_eq!(text(&fx, "rw/b.py"), "x = 1\n");
}

#[test]
fn undo_of_one_file_says_its_bytes() {
    let fx = Fixture::new();
    fx.write("a.py", "print(1)\n");
    print_to_log(&fx);
    fx.run(&["edit", "--undo"])
        .expect_code(0)
        .expect_stdout_has("undo: restored 1 file to its bytes before the last edit");
    assert_eq!(text(&fx, "a.py"), "print(1)\n");
}

#[test]
fn undo_restores_refuses_a_file_changed_since_and_never_redoes() {
    let fx = Fixture::new();
    fx.write("a.py", "print(1)\n");
    fx.write("b.py", "print(2)\n");
    print_to_log(&fx);
    assert_eq!(text(&fx, "a.py"), "log(1)\n");
    fx.write("b.py", "changed\n");
    fx.run(&["edit", "--undo"])
        .expect_code(2)
        .expect_stderr_has("b.py changed since the edit");
    assert_eq!(text(&fx, "a.py"), "log(1)\n");
    fx.write("b.py", "log(2)\n");
    fx.run(&["edit", "--undo"])
        .expect_code(0)
        .expect_stdout_has("undo: restored 2 files to their bytes before the last edit");
    assert_eq!(
        (text(&fx, "a.py"), text(&fx, "b.py")),
        ("print(1)\n".into(), "print(2)\n".into())
    );
    fx.run(&["edit", "--undo"])
        .expect_code(1)
        .expect_stdout_has("nothing to undo");
    assert_eq!(text(&fx, "a.py"), "print(1)\n");
}

#[test]
fn each_session_undoes_its_own_last_edit() {
    let mut one = Fixture::new();
    one.write("a.py", "x = 1\n");
    one.set_env("SCOUT_SESSION_ID", "one");
    one.run(&["edit", "--old", "1", "--new", "2", "a.py"])
        .expect_code(0);
    // Same state directory, another session: nothing of one's to undo.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_scout"))
        .args(["edit", "--undo"])
        .current_dir(one.root())
        .env_clear()
        .envs(util::passed_on())
        .env("PATH", &one.path_var)
        .env("HOME", one.home.path())
        .env("XDG_STATE_HOME", one.home.path().join("state"))
        .env("SCOUT_SESSION_ID", "two")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&one, "a.py"), "x = 2\n");
    one.run(&["edit", "--undo"]).expect_code(0);
    assert_eq!(text(&one, "a.py"), "x = 1\n");
}

#[test]
fn rewritten_lines_join_the_session_memory() {
    let mut fx = Fixture::new();
    fx.set_env("SCOUT_SESSION_ID", "s1");
    fx.write("a.py", "def f():\n    print(1)\n    print(2)\n");
    fx.run(&[
        "edit",
        "--structural",
        "--lang",
        "py",
        "print($A)",
        "-r",
        "log_value($A)",
    ])
    .expect_code(0);
    let memory = fx.run(&["memory", "show"]);
    memory.expect_code(0).expect_stdout_has("a.py");
    assert!(memory.stdout().contains("2-3"), "{}", memory.describe());
}

#[test]
fn pages_are_budgeted_and_last_shows_the_others() {
    let fx = Fixture::new();
    for i in 0..40 {
        fx.write(
            format!("m{i:02}.py"),
            format!("def f{i}():\n    print({i})\n"),
        );
    }
    let run = fx.run(&[&PRINT_TO_LOG[..], &["--budget-tokens", "300"]].concat());
    run.expect_code(0)
        .expect_stdout_has("files=40 matches=40 rewritten=40")
        .expect_stdout_has(" files not shown: scout edit --last --budget-tokens 300 --page 2");
    assert!(run.stdout().len() <= 300 * 4, "{}", run.describe());
    let first: BTreeSet<String> = run
        .stdout()
        .lines()
        .filter(|l| l.ends_with("(1 rewritten)"))
        .map(String::from)
        .collect();
    let mut all = first.clone();
    let mut page = 2;
    loop {
        let next = fx.run(&[
            "edit",
            "--last",
            "--budget-tokens",
            "300",
            "--page",
            &page.to_string(),
        ]);
        // Past the last page: an error, as in `scout search` (#54).
        if next.code() == 2 {
            next.expect_stderr_has(&format!("there is no page {page}"));
            break;
        }
        next.expect_code(0);
        let files: Vec<String> = next
            .stdout()
            .lines()
            .filter(|l| l.ends_with("(1 rewritten)"))
            .map(String::from)
            .collect();
        assert!(!files.is_empty(), "{}", next.describe());
        for f in files {
            assert!(all.insert(f), "a file on two pages");
        }
        page += 1;
    }
    assert_eq!(all.len(), 40);
}

#[test]
fn call_mode_edit_answers_with_the_report_and_its_page() {
    let fx = Fixture::new();
    fx.write("a.rs", RUST);
    let request = r#"{"mode":"edit","pattern":"$X.unwrap()","rewrite":"$X?","lang":"rust","dry_run":true,"text":true}"#;
    let run = fx.run(&["call", request]);
    run.expect_code(0);
    let answer = run.json();
    assert_eq!(answer["mode"], "edit");
    assert_eq!(answer["result"]["rewritten"], 3);
    assert_eq!(answer["result"]["dry_run"], true);
    assert_eq!(answer["truncated"], false);
    assert!(answer["text"]
        .as_str()
        .unwrap()
        .contains("+2:     let v = a.unwrap()?;"));
    assert_eq!(text(&fx, "a.rs"), RUST);
    let old_new = r#"{"mode":"edit","old":"let w","new":"let ww","path":"a.rs"}"#;
    fx.run(&["call", old_new]).expect_code(0);
    assert!(text(&fx, "a.rs").contains("let ww = foo("));
    let with = r#"{"mode":"edit","symbol":"a.rs#main","with":"fn main() {}\n"}"#;
    fx.run(&["call", with]).expect_code(0);
    assert_eq!(text(&fx, "a.rs"), "fn main() {}\n");
    let bad = fx.run(&["call", r#"{"mode":"edit","with":"x"}"#]);
    bad.expect_code(2);
    assert!(bad.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("go together"));
}

/// A structural pattern that starts with '-' is the pattern, as in
/// scout search (#34): no `-e` needed.
#[test]
fn regression_34_a_structural_pattern_that_starts_with_a_dash_is_the_pattern() {
    let fx = Fixture::new();
    fx.write("src/a.ts", "const y = -x;\n");
    let run = fx.run(&[
        "edit",
        "--structural",
        "--lang",
        "ts",
        "-$X",
        "--rewrite",
        "neg($X)",
        "src",
    ]);
    run.expect_code(0);
    assert_eq!(
        text(&fx, "src/a.ts"),
        "const y = neg(x);\n",
        "{}",
        run.describe()
    );
}

#[test]
fn regression_36_a_scoped_rewrite_with_proven_only_leaves_the_calls_by_name() {
    // `x.to_snapshot()` on an untyped receiver is the target by name
    // (the tree's only definition); `Snapshot().to_snapshot()` is proven.
    let fx = Fixture::new();
    let before = "from snap import Snapshot\n\n\ndef save(x):\n    x.to_snapshot()\n    Snapshot().to_snapshot()\n";
    fx.write(
        "snap.py",
        "class Snapshot:\n    def to_snapshot(self):\n        return 1\n",
    )
    .write("use.py", before);
    let args = [
        "edit",
        "--structural",
        "--lang",
        "python",
        "$R.to_snapshot()",
        "--rewrite",
        "$R.snapshot()",
        "--callers-of",
        "snap.py#Snapshot.to_snapshot",
    ];
    let mut proven: Vec<&str> = args.to_vec();
    proven.push("--proven-only");
    fx.run(&proven)
        .expect_code(0)
        .expect_stdout_has("left out, by name only (--proven-only): 1 call: use.py:5");
    assert_eq!(
        text(&fx, "use.py"),
        "from snap import Snapshot\n\n\ndef save(x):\n    x.to_snapshot()\n    Snapshot().snapshot()\n"
    );
    fx.run(&["edit", "--undo"]).expect_code(0);
    assert_eq!(text(&fx, "use.py"), before);
    // The same over `scout call`; without the flag, both calls.
    let request = r#"{"mode":"edit","pattern":"$R.to_snapshot()","rewrite":"$R.snapshot()","lang":"python","callers_of":"snap.py#Snapshot.to_snapshot","proven_only":true}"#;
    fx.run(&["call", request]).expect_code(0);
    assert!(text(&fx, "use.py").contains("    x.to_snapshot()\n    Snapshot().snapshot()\n"));
    fx.run(&["edit", "--undo"]).expect_code(0);
    fx.run(&args).expect_code(0);
    assert!(text(&fx, "use.py").contains("    x.snapshot()\n    Snapshot().snapshot()\n"));
    // Without a graph scope the flag means nothing: an error, not ignored.
    fx.run(&[
        "edit",
        "--old",
        "x.snapshot",
        "--new",
        "x.snap",
        "--proven-only",
        "use.py",
    ])
    .expect_code(2)
    .expect_stderr_has("--proven-only goes with --callers-of or --impact");
    assert!(text(&fx, "use.py").contains("    x.snapshot()\n"));
}

/// The issue's own fixture (#51): `a.f()` is `A.f`'s call, `b.f()` on the
/// same line is `B.f`'s; only the first may be rewritten, and the search
/// counts one match where it counted both.
const TWO_CLASSES: &str = "class A:\n    def f(self):\n        return 1\n\nclass B:\n    def f(self):\n        return 2\n\ndef main(a: A, b: B):\n    return a.f() or b.f()\n";

#[test]
fn regression_51_a_scoped_rewrite_leaves_another_call_on_the_same_line() {
    let fx = Fixture::new();
    fx.write("m.py", TWO_CLASSES);
    let scoped = ["--structural", "--lang", "py", "--callers-of", "m.py#A.f"];
    let search = fx.run(&[&["search"][..], &scoped, &["--json", "-e", "$X.f()"]].concat());
    search.expect_code(0);
    assert_eq!(search.json()["matches"], 1, "{}", search.describe());
    let run = fx.run(
        &[
            &["edit"][..],
            &scoped,
            &["--rewrite", "$X.f(0)", "--json", "-e", "$X.f()"],
        ]
        .concat(),
    );
    run.expect_code(0);
    let doc = report(&run);
    assert_eq!((doc.matches, doc.rewritten), (1, 1), "{}", run.describe());
    assert!(
        text(&fx, "m.py").ends_with("    return a.f(0) or b.f()\n"),
        "{}",
        text(&fx, "m.py")
    );
}

/// One generated call expression: its text, what a rewrite scoped to
/// `A.f` makes of it (`f` renamed `F_` where it is `A.f`'s call), and
/// the same with `--proven-only` (`y.h()` is the tree's only `h`, by
/// name; `c.h()` is proven).
/// An atom: as written, scoped to `A.f`, scoped to `C.h` proven only.
type Atom = (&'static str, &'static str, &'static str);

const ATOMS: [Atom; 10] = [
    ("a.f()", "a.F_()", "a.f()"),
    ("b.f()", "b.f()", "b.f()"),
    ("x.f()", "x.f()", "x.f()"),
    ("a.f(b.f())", "a.F_(b.f())", "a.f(b.f())"),
    ("b.f(a.f())", "b.f(a.F_())", "b.f(a.f())"),
    ("g(a.f())", "g(a.F_())", "g(a.f())"),
    // The outer call is rewritten; the inner one rides in its capture.
    ("a.f(a.f())", "a.F_(a.f())", "a.f(a.f())"),
    (
        "a.f().bit_length()",
        "a.F_().bit_length()",
        "a.f().bit_length()",
    ),
    ("y.h()", "y.h()", "y.h()"),
    ("c.h(y.h())", "c.h(y.h())", "c.H_(y.h())"),
];

const CLASSES: &str = "class A:\n    def f(self, *args):\n        return 1\n\n\nclass B:\n    def f(self, *args):\n        return 2\n\n\nclass C:\n    def h(self, *args):\n        return 3\n\n\ndef g(*args):\n    return args\n\n\ndef main(a: A, b: B, c: C, x, y):\n";

/// The lines of `main` from atom indexes, each line's atoms joined by
/// ` or `, in the form `pick` takes of each atom.
fn main_body(lines: &[Vec<usize>], pick: fn(&Atom) -> &'static str) -> String {
    let mut body = String::new();
    for atoms in lines {
        let spelled: Vec<&str> = atoms.iter().map(|&i| pick(&ATOMS[i])).collect();
        body.push_str(&format!("    r = {}\n", spelled.join(" or ")));
    }
    body.push_str("    return r\n");
    body
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// #51: over generated files with several calls on a line (nested,
    /// chained, two definitions of one name, calls by name only), a
    /// scoped rewrite changes exactly the call nodes the graph
    /// attributes, the search counts the same matches, and
    /// `--proven-only` never writes a call attributed by name alone.
    #[test]
    fn scoped_rewrites_change_exactly_the_attributed_call_nodes(
        lines in proptest::collection::vec(proptest::collection::vec(0..ATOMS.len(), 1..5), 1..6),
    ) {
        let fx = Fixture::new();
        let source = format!("{CLASSES}{}", main_body(&lines, |a| a.0));
        let expected = |pick: fn(&Atom) -> &'static str| format!("{CLASSES}{}", main_body(&lines, pick));
        let cases: [(&str, &str, &str, Option<&str>, String); 2] = [
            ("m.py#A.f", "$X.f($$$A)", "$X.F_($$$A)", None, expected(|a| a.1)),
            ("m.py#C.h", "$X.h($$$A)", "$X.H_($$$A)", Some("--proven-only"), expected(|a| a.2)),
        ];
        for (spec, pattern, template, proven, after) in cases {
            fx.write("m.py", &source);
            let mut scope = vec!["--structural", "--lang", "py", "--callers-of", spec];
            scope.extend(proven);
            let search = fx.run(&[&["search"][..], &scope, &["--json", "--budget-tokens", "0", "-e", pattern]].concat());
            let mut edit = vec!["edit"];
            edit.extend(&scope);
            edit.extend(["--rewrite", template, "--json", "-e", pattern]);
            let run = fx.run(&edit);
            prop_assert_eq!(text(&fx, "m.py"), after.clone(), "{}", run.describe());
            if after == source {
                prop_assert_eq!(run.code(), 1, "{}", run.describe());
                continue;
            }
            prop_assert_eq!(run.code(), 0, "{}", run.describe());
            let doc = report(&run);
            // What the edit kept is what the search kept.
            prop_assert_eq!(search.json()["matches"].as_u64(), Some(doc.matches), "{}", search.describe());
            prop_assert_eq!(doc.rewritten + doc.left_alone, doc.matches);
        }
    }
}

#[test]
fn regression_51_a_hard_link_stays_a_link_and_one_file_is_edited_once() {
    use std::os::unix::fs::MetadataExt;
    let fx = Fixture::new();
    fx.write("a.py", "print(1)\n");
    std::fs::hard_link(fx.root().join("a.py"), fx.root().join("b.py")).unwrap();
    std::os::unix::fs::symlink("a.py", fx.root().join("c.py")).unwrap();
    let inode = |name: &str| std::fs::metadata(fx.root().join(name)).unwrap().ino();
    let first = inode("a.py");
    let run = fx.run(&PRINT_TO_LOG);
    run.expect_code(0)
        .expect_stderr_has("b.py is a.py (the same file by another name): edited once");
    assert_eq!((inode("a.py"), inode("b.py")), (first, first));
    assert_eq!(text(&fx, "b.py"), "log(1)\n");
    assert!(std::fs::symlink_metadata(fx.root().join("c.py"))
        .unwrap()
        .file_type()
        .is_symlink());
    fx.run(&["edit", "--undo"]).expect_code(0);
    assert_eq!((inode("a.py"), inode("b.py")), (first, first));
    assert_eq!(text(&fx, "b.py"), "print(1)\n");
    // One file named three ways: edited once, not refused as changed.
    let run = fx.run(&[
        "edit", "--old", "print", "--new", "out", "a.py", "./a.py", "c.py",
    ]);
    run.expect_code(0).expect_stderr_has("./a.py is a.py");
    assert_eq!(text(&fx, "a.py"), "out(1)\n");
    assert!(std::fs::symlink_metadata(fx.root().join("c.py"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(inode("b.py"), first);
}

#[test]
fn regression_51_new_code_with_its_own_comment_replaces_the_whole_preamble() {
    let fx = Fixture::new();
    fx.write(
        "a.py",
        "class A:\n    # old comment\n    @property\n    def size(self):\n        return 1\n",
    );
    fx.write("new.py", "# new comment\ndef size(self):\n    return 2\n");
    let run = fx.run(&["edit", "a.py#A.size", "--with", "new.py", "--json"]);
    run.expect_code(0);
    assert_eq!(
        text(&fx, "a.py"),
        "class A:\n    # new comment\n    def size(self):\n        return 2\n"
    );
    let doc = report(&run);
    assert_eq!(doc.removed, ["2: # old comment", "3: @property"]);
    // The `def` line is the same: no signature changed.
    assert!(doc.callers.is_none(), "{}", run.describe());
    fx.run(&["edit", "--undo"]).expect_code(0);
    // New code without a preamble keeps the old one whole.
    fx.write("new.py", "def size(self):\n    return 3\n");
    let run = fx.run(&["edit", "a.py#A.size", "--with", "new.py"]);
    run.expect_code(0);
    assert!(
        !run.stdout().contains("preamble replaced"),
        "{}",
        run.describe()
    );
    assert_eq!(
        text(&fx, "a.py"),
        "class A:\n    # old comment\n    @property\n    def size(self):\n        return 3\n"
    );
    // A Rust attribute goes with its preamble, and is named.
    fx.write(
        "lib.rs",
        "/// Old.\n#[inline]\npub fn size() -> u32 {\n    1\n}\n",
    );
    fx.write("new.rs", "/// New.\npub fn size() -> u32 {\n    2\n}\n");
    fx.run(&["edit", "lib.rs#size", "--with", "new.rs"])
        .expect_code(0)
        .expect_stdout_has("1: /// Old. | 2: #[inline]");
    assert_eq!(
        text(&fx, "lib.rs"),
        "/// New.\npub fn size() -> u32 {\n    2\n}\n"
    );
    // A comment closing the block above is not the preamble, a shebang
    // neither; a Javadoc's ` * ` lines are.
    fx.write(
        "b.py",
        "#!/usr/bin/env python3\ndef a():\n    return 1\n    # closes a\ndef b():\n    return 2\n",
    );
    fx.write("new.py", "# new\ndef b():\n    return 3\n");
    fx.run(&["edit", "b.py#b", "--with", "new.py"])
        .expect_code(0);
    assert_eq!(
        text(&fx, "b.py"),
        "#!/usr/bin/env python3\ndef a():\n    return 1\n    # closes a\n# new\ndef b():\n    return 3\n"
    );
    fx.write("A.java", "class A {\n    /**\n     * Old.\n     */\n    @Deprecated\n    int size() { return 1; }\n}\n");
    fx.write("New.java", "/** New. */\nint size() { return 2; }\n");
    let run = fx.run(&["edit", "A.java#A.size", "--with", "New.java", "--json"]);
    run.expect_code(0);
    assert_eq!(
        text(&fx, "A.java"),
        "class A {\n    /** New. */\n    int size() { return 2; }\n}\n"
    );
    assert_eq!(report(&run).removed.len(), 4, "{}", run.describe());
}

#[test]
fn regression_51_undo_keeps_a_later_chmod() {
    use std::os::unix::fs::PermissionsExt;
    let fx = Fixture::new();
    fx.write("run.py", "print(1)\n");
    let path = fx.root().join("run.py");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    fx.run(&["edit", "--old", "1", "--new", "2", "run.py"])
        .expect_code(0);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    fx.run(&["edit", "--undo"]).expect_code(0);
    assert_eq!(text(&fx, "run.py"), "print(1)\n");
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode, 0o755);
}

#[test]
fn regression_51_a_multi_line_new_takes_the_file_s_crlf() {
    let fx = Fixture::new();
    fx.write("crlf.py", "def f():\r\n    print(1)\r\n");
    fx.run(&[
        "edit",
        "--old",
        "print(1)",
        "--new",
        "print(1)\n    print(2)",
        "crlf.py",
    ])
    .expect_code(0);
    assert_eq!(
        text(&fx, "crlf.py"),
        "def f():\r\n    print(1)\r\n    print(2)\r\n"
    );
}

/// #54: a written edit's next page was `scout edit --last --page 2`
/// without its budget, so the page it named was past the last one, and a
/// page that does not exist exited 0.
#[test]
fn regression_54_edit_pages_keep_their_budget_and_a_missing_page_is_an_error() {
    let fx = Fixture::new();
    for i in 0..12 {
        fx.write(format!("m{i:02}.py"), format!("print({i})\nprint('{i}')\n"));
    }
    let edit = PRINT_TO_LOG;
    let run = fx.run(&[&edit[..], &["--budget-tokens", "100"]].concat());
    run.expect_code(0)
        .expect_stdout_has("scout edit --last --budget-tokens 100 --page 2");
    let second = fx.run(&["edit", "--last", "--budget-tokens", "100", "--page", "2"]);
    second.expect_code(0);
    assert!(
        second.stdout().contains("  page=2/"),
        "{}",
        second.describe()
    );
    assert!(
        !second.stdout().contains("past the last page"),
        "{}",
        second.describe()
    );
    fx.run(&["edit", "--last", "--budget-tokens", "100", "--page", "99"])
        .expect_code(2)
        .expect_stderr_has("there is no page 99");
    // Asked of an edit, before anything is written.
    fx.run(&["edit", "--undo"]).expect_code(0);
    fx.run(&[&edit[..], &["--page", "99"]].concat())
        .expect_code(2)
        .expect_stderr_has("nothing written");
    assert_eq!(text(&fx, "m00.py"), "print(0)\nprint('0')\n");
}

/// #54: exit 1 printed a page on stdout, where the README promises
/// nothing; what was looked for goes to stderr (the JSON document stays
/// the answer).
#[test]
fn regression_54_no_match_leaves_stdout_empty() {
    let fx = Fixture::new();
    fx.write("a.py", "print(1)\n");
    let run = fx.run(&["edit", "--old", "zzz", "--new", "y", "a.py"]);
    run.expect_code(1)
        .expect_stderr_has("no match")
        .expect_stderr_has("no --old text occurs");
    assert_eq!(run.stdout(), "", "{}", run.describe());
    let json = fx.run(&["edit", "--old", "zzz", "--new", "y", "a.py", "--json"]);
    json.expect_code(1);
    assert_eq!(report(&json).files, 0);
}

#[test]
fn a_definition_in_a_language_without_a_graph_is_still_replaced() {
    // The seven languages parsed without a code graph refuse
    // `--callers-of`, not `edit PATH#SYMBOL`, which needs only the parser.
    let fx = Fixture::new();
    fx.write(
        "a.swift",
        "func load() -> Int {\n    return 1\n}\n\nlet x = load()\n",
    );
    fx.write("new.txt", "func load() -> Int {\n    return 2\n}\n");
    fx.run(&["edit", "a.swift#load", "--with", "new.txt"])
        .expect_code(0);
    assert_eq!(
        std::fs::read_to_string(fx.root().join("a.swift")).unwrap(),
        "func load() -> Int {\n    return 2\n}\n\nlet x = load()\n"
    );
}
