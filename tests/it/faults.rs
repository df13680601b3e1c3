//! Faults injected and survived (#15): the real binary, with a fake rg
//! where the fault needs one, state and cache directories that fail,
//! files that change under the search, concurrent processes, and
//! hostile trees. Each test makes its fault happen deterministically.
//!
//! Not simulated here (no mount in a test): a full filesystem. Writes to
//! the state and cache directories go through the same error paths as a
//! read-only or missing directory, which are tested.

use crate::util;

use std::io::{BufRead, BufReader};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::util::{Fixture, Run};

/// A fake rg: a shell script with `$REAL_RG` set, named by `SCOUT_RG`.
fn fake_rg(fx: &mut Fixture, script: &str) {
    use std::os::unix::fs::PermissionsExt;
    let dir = fx.home.path().join("bin");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("fake-rg");
    let real = util::rg_dir().join("rg");
    std::fs::write(
        &path,
        format!("#!/bin/sh\nREAL_RG='{}'\n{script}\n", real.display()),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    fx.set_env("SCOUT_RG", path);
}

/// The [`tree`], rg's true count of `widget_maker` lines in it, and a
/// fake rg running `script`, read through rg's plain records or its
/// `--json` (`output`).
fn tree_with_fake_rg(output: &str, script: &str) -> (Fixture, u64) {
    let mut fx = Fixture::new();
    tree(&fx);
    let (hits, _) = fx.rg_counts(&["-F", "widget_maker"]);
    fx.set_env("SCOUT_RG_OUTPUT", output);
    fake_rg(&mut fx, script);
    (fx, hits)
}

/// A definition of `widget_maker` and 30 files that call it: enough for
/// a ranked page.
fn tree(fx: &Fixture) {
    fx.write(
        "src/a.rs",
        "pub fn widget_maker(v: u32) -> u32 {\n    let x = v + 1;\n    x\n}\n",
    );
    for i in 1..=30 {
        fx.write(
            format!("src/f{i}.rs"),
            format!("use crate::w;\n\npub fn caller_{i}() {{\n    // calls widget_maker here and there\n    let value = widget_maker({i});\n    widget_maker(value);\n}}\n"),
        );
    }
}

fn count(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

/// Every line a `--json` page quotes is the file's line as it is now.
fn assert_quotes_are_in_the_files(fx: &Fixture, run: &Run) {
    let doc = run.json();
    for result in doc["results"].as_array().unwrap() {
        let path = fx.root().join(result["path"].as_str().unwrap());
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        for quote in result["lines"].as_array().unwrap() {
            let n = quote["line"].as_u64().unwrap() as usize;
            let quoted = quote["text"].as_str().unwrap();
            assert_eq!(
                lines.get(n - 1).copied(),
                Some(quoted),
                "{}:{n} is quoted but is not the file's line\n{}",
                path.display(),
                run.describe()
            );
        }
    }
}

// ------------------------------------------------------------- rg faults

#[test]
fn rg_killed_mid_stream_is_an_error_not_a_short_page() {
    for output in ["plain", "json"] {
        let mut fx = Fixture::new();
        tree(&fx);
        fx.set_env("SCOUT_RG_OUTPUT", output);
        fake_rg(&mut fx, "\"$REAL_RG\" \"$@\" | head -n 5\nkill -9 $$");
        let run = fx.run(&["search", "widget_maker"]);
        run.expect_code(2).expect_stderr_has("rg failed");
        assert_eq!(run.stdout(), "", "{}", run.describe());
    }
}

#[test]
fn rg_printing_garbage_is_warned_once_and_the_counts_are_rgs() {
    let mut fx = Fixture::new();
    tree(&fx);
    let (hits, files) = fx.rg_counts(&["-F", "widget_maker"]);
    fake_rg(
        &mut fx,
        "echo 'this is not rg output'\nexec \"$REAL_RG\" \"$@\"",
    );
    for args in [
        &["search", "widget_maker"][..],
        &["search", "--json", "widget_maker"],
    ] {
        let run = fx.run(args);
        run.expect_code(0);
        assert_eq!(
            count(&run.stderr(), "could not be read"),
            1,
            "{}",
            run.describe()
        );
        let (h, f) = if args.contains(&"--json") {
            let doc = run.json();
            (
                doc["hits"].as_u64().unwrap(),
                doc["files"].as_u64().unwrap(),
            )
        } else {
            // rg's own lines, being smaller than a page (I2): all of them.
            let lines = run.lines();
            let paths: std::collections::BTreeSet<&str> =
                lines.iter().filter_map(|l| l.split(':').next()).collect();
            (lines.len() as u64, paths.len() as u64)
        };
        assert_eq!((h, f), (hits, files), "{}", run.describe());
    }
}

#[test]
fn a_truncated_last_record_is_not_counted_or_quoted() {
    for output in ["plain", "json"] {
        // rg's output ends inside a record: a path, its NUL, a number and
        // half a line (plain), or half an event (--json).
        let (fx, hits) = tree_with_fake_rg(
            output,
            "\"$REAL_RG\" \"$@\"\ncode=$?\ncase \"$*\" in\n*--json*) printf '{\"type\":\"match\",\"data\":{\"pa' ;;\n*) printf 'src/zz.rs\\000'; printf '9:pub fn widget_maker_cut' ;;\nesac\nexit $code",
        );
        let run = fx.run(&["search", "--json", "widget_maker"]);
        run.expect_code(0);
        assert_eq!(
            run.json()["hits"].as_u64(),
            Some(hits),
            "{}",
            run.describe()
        );
        assert!(
            !run.stdout().contains("widget_maker_cut"),
            "{}",
            run.describe()
        );
        assert_eq!(
            count(&run.stderr(), "could not be read"),
            1,
            "{}",
            run.describe()
        );
    }
}

/// An rg that writes far more to stderr than a pipe holds before it
/// prints a line: scout must neither block it nor lose a line of what it
/// said, on either output path.
#[test]
fn a_chatty_rg_is_never_blocked_and_every_warning_is_kept() {
    for output in ["plain", "json"] {
        let (fx, hits) = tree_with_fake_rg(
            output,
            "i=0\nwhile [ $i -lt 4000 ]; do echo \"rg: src/gone$i.rs: No such file or directory (os error 2) padding-to-make-the-line-long-enough\" >&2; i=$((i+1)); done\n\"$REAL_RG\" \"$@\"\nexit 2",
        );
        let run = fx.run(&["search", "--json", "widget_maker"]);
        run.expect_code(3);
        let stderr = run.stderr();
        assert_eq!(
            count(&stderr, "No such file or directory"),
            4000,
            "{output}"
        );
        assert!(stderr.contains("src/gone3999.rs"), "{output}");
        assert_eq!(
            run.json()["hits"].as_u64(),
            Some(hits),
            "{}",
            run.describe()
        );
    }
}

#[test]
fn rg_exiting_2_after_partial_output_is_exit_3_with_its_reason() {
    for output in ["plain", "json"] {
        let (fx, hits) = tree_with_fake_rg(
            output,
            "\"$REAL_RG\" \"$@\"\necho 'rg: src/locked.rs: Permission denied (os error 13)' >&2\nexit 2",
        );
        let run = fx.run(&["search", "--json", "widget_maker"]);
        run.expect_code(3)
            .expect_stderr_has("src/locked.rs: Permission denied");
        assert_eq!(
            run.json()["hits"].as_u64(),
            Some(hits),
            "{}",
            run.describe()
        );
    }
}

#[test]
fn rg_slow_past_the_timeout_keeps_only_what_it_printed() {
    let mut fx = Fixture::new();
    fx.write("a.txt", "needle one\nneedle two\n");
    fake_rg(
        &mut fx,
        "printf 'a.txt:1:needle one\\na.txt:2:needle two\\n'\nexec sleep 30",
    );
    let started = Instant::now();
    let run = fx.run(&[
        "call",
        r#"{"mode":"content","pattern":"needle","output_mode":"content","timeout":1}"#,
    ]);
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{}",
        run.describe()
    );
    run.expect_code(3);
    let doc = run.json();
    assert_eq!(doc["timed_out"], true, "{}", run.describe());
    assert_eq!(doc["total"], 2, "{}", run.describe());
    assert_eq!(doc["lines"].as_array().unwrap().len(), 2);
}

// ------------------------------------------------------ process faults

#[test]
fn a_stdout_closed_after_one_line_ends_quietly() {
    let fx = Fixture::new();
    for i in 0..400 {
        fx.write(
            format!("src/m{i:03}.rs"),
            "fn caller() { widget_maker(); widget_maker(); }\n".repeat(20),
        );
    }
    let views: [&[&str]; 3] = [
        &["search", "widget_maker", "--budget-tokens", "0"],
        &[
            "grep",
            "widget_maker",
            "--output-mode",
            "content",
            "--head-limit",
            "0",
        ],
        &["files", "*.rs", "--limit", "0"],
    ];
    for args in views {
        let mut child = fx
            .command(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(!first.is_empty(), "{args:?} printed nothing");
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
        assert_eq!(stderr, "", "{args:?}");
    }
}

/// The session memory directory of a fixture.
fn seen_dir(fx: &Fixture) -> PathBuf {
    fx.home.path().join("state/scout/seen")
}

fn seen_files(fx: &Fixture) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(seen_dir(fx))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    files
}

#[test]
fn sigint_and_sigterm_mid_search_leave_the_memory_whole() {
    for signal in ["INT", "TERM"] {
        let mut fx = Fixture::new();
        tree(&fx);
        fx.set_env("SCOUT_SESSION_ID", "signals");
        fx.run(&["search", "caller_1"]).expect_code(0);
        let before: Vec<(PathBuf, Vec<u8>)> = seen_files(&fx)
            .into_iter()
            .map(|p| (p.clone(), std::fs::read(&p).unwrap()))
            .collect();
        assert!(before
            .iter()
            .any(|(p, _)| p.extension().is_some_and(|e| e == "json")));
        // rg prints everything, says so, then keeps its pipe open until
        // the test closes it: scout is reading when the signal comes, and
        // cannot finish first however late the signal is. A fixed sleep
        // was not enough (#34): with the test stalled past rg's 5 s, scout
        // had printed its page and exited 0, and `kill` hit its zombie.
        let printed = fx.home.path().join("rg-printed");
        let marker = printed.display();
        fake_rg(
            &mut fx,
            &format!("\"$REAL_RG\" \"$@\"\necho $$ > '{marker}.tmp' && mv '{marker}.tmp' '{marker}'\nexec sleep 600"),
        );
        // The signals as a foreground job has them: a shell that runs the
        // tests in the background (`cargo test &`) makes them ignore
        // SIGINT, and scout would inherit that and never see it (#34).
        let child = fx
            .command_via(
                &["env", "--default-signal=INT,TERM"],
                &["search", "widget_maker"],
            )
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let started = Instant::now();
        let rg = loop {
            if let Ok(pid) = std::fs::read_to_string(&printed) {
                break pid.trim().to_string();
            }
            assert!(started.elapsed() < Duration::from_secs(60), "rg never ran");
            std::thread::sleep(Duration::from_millis(10));
        };
        let killed = std::process::Command::new("kill")
            .args([format!("-{signal}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let output = child.wait_with_output().unwrap();
        // rg's `sleep`, which holds the pipe scout no longer reads.
        let _ = std::process::Command::new("kill")
            .args(["-KILL", &rg])
            .status();
        assert!(
            output.status.signal().is_some(),
            "{signal}: {:?}",
            output.status
        );
        assert_eq!(output.stdout, b"", "{signal}");
        assert_eq!(output.stderr, b"", "{signal}");
        let after: Vec<(PathBuf, Vec<u8>)> = seen_files(&fx)
            .into_iter()
            .map(|p| (p.clone(), std::fs::read(&p).unwrap()))
            .collect();
        assert_eq!(
            after, before,
            "{signal}: the memory changed or a temporary file was left"
        );
    }
}

#[test]
fn a_panic_is_one_line_naming_the_version_and_the_command_and_exit_2() {
    let mut fx = Fixture::new();
    fx.write("a.rs", "fn main() {}\n");
    fx.set_env("SCOUT_INTERNAL_TEST_PANIC", "1");
    fx.set_env("RUST_BACKTRACE", "full");
    let run = fx.run(&["search", "two words", "."]);
    run.expect_code(2);
    assert_eq!(run.stdout(), "");
    let stderr = run.stderr();
    assert_eq!(stderr.lines().count(), 1, "{}", run.describe());
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        stderr.starts_with(&format!("scout {version}: internal error (")),
        "{stderr}"
    );
    assert!(
        stderr.ends_with("please report it with the command: scout search 'two words' .\n"),
        "{stderr}"
    );
}

// --------------------------------------------- state and cache faults

#[test]
fn a_file_where_the_state_dir_should_be_warns_once_and_answers() {
    let mut fx = Fixture::new();
    tree(&fx);
    let file = fx.home.path().join("state-file");
    std::fs::write(&file, "not a directory").unwrap();
    fx.set_env("XDG_STATE_HOME", &file);
    fx.set_env("SCOUT_SESSION_ID", "s");
    let run = fx.run(&["search", "widget_maker"]);
    run.expect_code(0).expect_stdout_has("src/a.rs");
    assert_eq!(
        count(&run.stderr(), "session memory not saved"),
        1,
        "{}",
        run.describe()
    );
    assert_eq!(run.stderr().lines().count(), 1, "{}", run.describe());
}

#[test]
fn a_file_where_the_cache_dir_should_be_is_no_error() {
    let mut fx = Fixture::new();
    tree(&fx);
    let normal = fx.run(&["search", "--json", "widget_maker"]);
    let file = fx.home.path().join("cache-file");
    std::fs::write(&file, "not a directory").unwrap();
    fx.set_env("XDG_CACHE_HOME", &file);
    let run = fx.run(&["search", "--json", "widget_maker"]);
    run.expect_code(0);
    assert_eq!(run.stderr(), "", "{}", run.describe());
    let strip = |r: &Run| {
        let mut doc = r.json();
        doc["elapsed_ms"] = 0.into();
        doc
    };
    assert_eq!(strip(&run), strip(&normal));
}

#[test]
fn a_missing_state_dir_is_created() {
    let mut fx = Fixture::new();
    tree(&fx);
    let deep = fx.home.path().join("not/yet/there");
    fx.set_env("XDG_STATE_HOME", &deep);
    fx.set_env("SCOUT_SESSION_ID", "s");
    // A text search records what it showed; --json reads it.
    let first = fx.run(&["search", "widget_maker"]);
    first.expect_code(0);
    assert_eq!(first.stderr(), "");
    let again = fx.run(&["search", "--json", "widget_maker"]);
    assert!(
        again.json()["already_shown"].as_u64().unwrap() > 0,
        "{}",
        again.describe()
    );
}

fn is_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

#[test]
fn read_only_state_and_cache_dirs_warn_once_and_answer() {
    use std::os::unix::fs::PermissionsExt;
    if !is_root() {
        // setpriv needs root; as a normal user a read-only dir is made by
        // chmod below and the run is the same.
    }
    let fx = Fixture::new();
    tree(&fx);
    let home = fx.home.path();
    for dir in ["state/scout/seen", "cache/scout/defs"] {
        std::fs::create_dir_all(home.join(dir)).unwrap();
    }
    for dir in [fx.root(), home, &home.join("state"), &home.join("cache")] {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    for dir in [
        "state/scout",
        "state/scout/seen",
        "cache/scout",
        "cache/scout/defs",
    ] {
        std::fs::set_permissions(home.join(dir), std::fs::Permissions::from_mode(0o555)).unwrap();
    }
    let mut cmd = if is_root() {
        let mut wrapped = std::process::Command::new("setpriv");
        wrapped.args([
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            env!("CARGO_BIN_EXE_scout"),
        ]);
        wrapped
    } else {
        std::process::Command::new(env!("CARGO_BIN_EXE_scout"))
    };
    let output = cmd
        .args(["search", "widget_maker"])
        .current_dir(fx.root())
        .env_clear()
        .envs(util::passed_on())
        .env("PATH", util::test_path())
        .env("HOME", home)
        .env("XDG_STATE_HOME", home.join("state"))
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env("SCOUT_SESSION_ID", "read-only")
        .output()
        .unwrap();
    for dir in [
        "state/scout",
        "state/scout/seen",
        "cache/scout",
        "cache/scout/defs",
    ] {
        std::fs::set_permissions(home.join(dir), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(String::from_utf8_lossy(&output.stdout).contains("src/a.rs"));
    assert_eq!(count(&stderr, "session memory not saved"), 1, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(std::fs::read_dir(home.join("cache/scout/defs"))
        .unwrap()
        .next()
        .is_none());
}

#[test]
fn a_truncated_or_garbage_memory_file_is_ignored_once_and_replaced() {
    for damage in ["truncate", "garbage"] {
        let mut fx = Fixture::new();
        tree(&fx);
        fx.set_env("SCOUT_SESSION_ID", "damaged");
        fx.run(&["search", "widget_maker"]).expect_code(0);
        let file = seen_files(&fx)
            .into_iter()
            .find(|p| p.extension().is_some_and(|e| e == "json"))
            .unwrap();
        let bytes = std::fs::read(&file).unwrap();
        let damaged = match damage {
            "truncate" => bytes[..bytes.len() / 2].to_vec(),
            _ => b"\x00\xffgarbage{{{".to_vec(),
        };
        std::fs::write(&file, damaged).unwrap();
        let fresh = fx.run(&["search", "--json", "widget_maker"]);
        fresh.expect_code(0);
        let warned = count(&fresh.stderr(), "ignoring session memory");
        assert_eq!(warned, 1, "{}", fresh.describe());
        assert_eq!(fresh.json()["already_shown"], 0, "{}", fresh.describe());
        // A text search records, and so replaces the damaged file.
        let run = fx.run(&["search", "widget_maker"]);
        run.expect_code(0);
        let warned = count(&run.stderr(), "ignoring session memory");
        assert_eq!(warned, 1, "{}", run.describe());
        let repaired: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        assert_eq!(repaired["session"], "damaged");
        let again = fx.run(&["search", "--json", "widget_maker"]);
        assert_eq!(again.stderr(), "", "{}", again.describe());
        assert!(again.json()["already_shown"].as_u64().unwrap() > 0);
    }
}

#[test]
fn truncated_or_garbage_cache_entries_are_rebuilt_silently() {
    let fx = Fixture::new();
    tree(&fx);
    fx.settle();
    let first = fx.run(&["search", "widget_maker"]);
    first.expect_code(0);
    let defs = fx.home.path().join("cache/scout/defs");
    let entries: Vec<PathBuf> = std::fs::read_dir(&defs)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert!(!entries.is_empty());
    for (i, entry) in entries.iter().enumerate() {
        let bytes = std::fs::read(entry).unwrap();
        let damaged = if i % 2 == 0 {
            bytes[..bytes.len() / 2].to_vec()
        } else {
            b"scout-defs\n\xff\xff\xff\xff garbage".to_vec()
        };
        std::fs::write(entry, damaged).unwrap();
    }
    let run = fx.run(&["search", "widget_maker"]);
    run.expect_code(0);
    assert_eq!(run.stderr(), "", "{}", run.describe());
    assert_eq!(run.stdout_masked(), first.stdout_masked());
}

#[test]
fn a_modification_time_in_the_future_changes_nothing() {
    let mut fx = Fixture::new();
    tree(&fx);
    let before = fx.run(&["search", "--json", "widget_maker"]);
    let future = std::time::SystemTime::now() + Duration::from_secs(100 * 365 * 24 * 3600);
    for i in [0, 1, 2] {
        let name = if i == 0 {
            "src/a.rs".to_string()
        } else {
            format!("src/f{i}.rs")
        };
        let file = std::fs::File::options()
            .write(true)
            .open(fx.root().join(name))
            .unwrap();
        file.set_modified(future).unwrap();
    }
    let run = fx.run(&["search", "--json", "widget_maker"]);
    run.expect_code(0);
    assert_eq!(run.stderr(), "", "{}", run.describe());
    let strip = |r: &Run| {
        let mut doc = r.json();
        doc["elapsed_ms"] = 0.into();
        doc
    };
    assert_eq!(strip(&run), strip(&before));
    fx.set_env("SCOUT_SESSION_ID", "future");
    let text = fx.run(&["search", "widget_maker"]);
    assert_eq!(text.stderr(), "", "{}", text.describe());
    let again = fx.run(&["search", "--json", "widget_maker"]);
    assert!(
        again.json()["already_shown"].as_u64().unwrap() > 0,
        "{}",
        again.describe()
    );
}

#[test]
fn files_edited_truncated_or_deleted_after_rgs_pass_are_never_misquoted() {
    let mut fx = Fixture::new();
    tree(&fx);
    // rg searches, then the tree changes before scout reads the files.
    fake_rg(
        &mut fx,
        "\"$REAL_RG\" \"$@\"\ncode=$?\nprintf 'x\\n' > src/a.rs\n: > src/f1.rs\nprintf 'use crate::w;\\n\\npub fn caller_2() {\\n    // edited\\n' > src/f2.rs\nrm -f src/f3.rs\nexit $code",
    );
    for args in [
        &["search", "--json", "widget_maker"][..],
        &["search", "widget_maker"],
    ] {
        tree(&fx);
        let run = fx.run(args);
        run.expect_code(0);
        assert_eq!(
            count(&run.stderr(), "changed while scout searched"),
            1,
            "{}",
            run.describe()
        );
        for path in ["src/a.rs", "src/f1.rs", "src/f2.rs", "src/f3.rs"] {
            assert!(run.stderr().contains(path), "{}", run.describe());
        }
        if args.contains(&"--json") {
            assert_quotes_are_in_the_files(&fx, &run);
            // The counts are rg's, from its pass.
            assert_eq!(run.json()["hits"], 91);
        } else {
            assert!(
                !run.stdout().contains("pub fn widget_maker"),
                "{}",
                run.describe()
            );
        }
    }
}

/// The warning names the changed files among those whose lines are
/// printed: a file on a later page changing is not news; a file of rg's
/// own lines (printed in place of a page) is, and its line goes.
#[test]
fn only_changes_to_what_is_printed_are_warned() {
    let mut fx = Fixture::new();
    tree(&fx);
    let first = fx.run(&["search", "--json", "--budget-tokens", "400", "widget_maker"]);
    let shown: Vec<String> = first.json()["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["path"].as_str().unwrap().to_string())
        .collect();
    let hidden = (1..=30)
        .map(|i| format!("src/f{i}.rs"))
        .find(|p| !shown.iter().any(|s| s.ends_with(p.as_str())))
        .expect("a file past the first page");
    let edit_after_rg = |fx: &mut Fixture, path: &str| {
        fake_rg(
            fx,
            &format!("\"$REAL_RG\" \"$@\"\ncode=$?\nprintf 'x\\n' > {path}\nexit $code"),
        );
    };
    edit_after_rg(&mut fx, &hidden);
    let page = fx.run(&["search", "--budget-tokens", "400", "widget_maker"]);
    page.expect_code(0);
    assert!(page.stdout().starts_with("query: "), "{}", page.describe());
    assert_eq!(page.stderr(), "", "{}", page.describe());

    // `caller_7` is on one line: rg's own line is smaller than any page.
    tree(&fx);
    edit_after_rg(&mut fx, "src/f7.rs");
    let small = fx.run(&["search", "caller_7"]);
    small.expect_code(0);
    assert_eq!(
        count(&small.stderr(), "changed while scout searched"),
        1,
        "{}",
        small.describe()
    );
    assert!(small.stderr().contains("src/f7.rs"), "{}", small.describe());
    assert!(!small.stdout().contains("caller_7"), "{}", small.describe());
}

// ------------------------------------------------------- concurrency

fn memory_of(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap())
        .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

#[test]
fn fifty_processes_of_one_session_and_ten_of_others_lose_no_update() {
    let mut fx = Fixture::new();
    for i in 0..60 {
        fx.write(
            format!("src/n{i}.rs"),
            format!("pub fn name_{i}_here() {{}}\n"),
        );
    }
    let mut children = Vec::new();
    for i in 0..60 {
        let session = if i < 50 {
            "shared".to_string()
        } else {
            format!("own-{i}")
        };
        let mut cmd = fx.command(&["search", &format!("name_{i}_here")]);
        cmd.env("SCOUT_SESSION_ID", &session)
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        children.push(cmd.spawn().unwrap());
    }
    for child in children {
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(0));
        assert_eq!(String::from_utf8_lossy(&output.stderr), "");
    }
    fx.set_env("SCOUT_SESSION_ID", "unused");
    let files: Vec<PathBuf> = seen_files(&fx)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    assert_eq!(files.len(), 11, "{files:?}");
    let mut remembered = 0;
    for file in &files {
        let memory = memory_of(file);
        let n = memory["files"].as_object().unwrap().len();
        if memory["session"] == "shared" {
            assert_eq!(n, 50, "{}", file.display());
        } else {
            assert_eq!(n, 1, "{}", file.display());
        }
        remembered += n;
    }
    assert_eq!(remembered, 60);
    // No temporary file is left behind.
    assert!(seen_files(&fx)
        .iter()
        .all(|p| p.extension().is_some_and(|e| e == "json" || e == "lock")));
}

// ------------------------------------------------------ hostile trees

/// scout's views over the fixture: each ends, with an exit code of the
/// documented four and no internal error.
fn every_view_answers(fx: &Fixture, needle: &str) -> Vec<Run> {
    let views: [&[&str]; 4] = [
        &["search", needle],
        &["search", "--json", needle],
        &["grep", needle, "--output-mode", "content"],
        &["files", "*"],
    ];
    views
        .iter()
        .map(|args| {
            let run = fx.run(args);
            assert!((0..=3).contains(&run.code()), "{}", run.describe());
            assert!(
                !run.stderr().contains("internal error"),
                "{}",
                run.describe()
            );
            run
        })
        .collect()
}

#[test]
fn symlink_loops_end() {
    let fx = Fixture::new();
    fx.write("a/b/c.rs", "fn looped_needle() {}\n");
    std::os::unix::fs::symlink("..", fx.root().join("a/b/up")).unwrap();
    std::os::unix::fs::symlink("self", fx.root().join("a/self")).unwrap();
    std::os::unix::fs::symlink(fx.root(), fx.root().join("a/root")).unwrap();
    let runs = every_view_answers(&fx, "looped_needle");
    runs[0].expect_code(0).expect_stdout_has("a/b/c.rs");
    assert_eq!(runs[1].json()["hits"], 1);
}

#[test]
fn a_thousand_deep_directory_is_searched() {
    let fx = Fixture::new();
    let deep: PathBuf = (0..1000).map(|_| "d").collect();
    fx.write(deep.join("deep.rs"), "pub fn deep_needle() {}\n");
    let runs = every_view_answers(&fx, "deep_needle");
    runs[0].expect_code(0).expect_stdout_has("deep.rs");
    assert_eq!(runs[1].json()["hits"], 1);
    runs[2].expect_code(0).expect_stdout_has("deep.rs");
    runs[3].expect_code(0).expect_stdout_has("deep.rs");
}

#[test]
fn paths_with_newlines_and_invalid_utf8_are_searched_by_every_view() {
    use std::os::unix::ffi::OsStrExt;
    let fx = Fixture::new();
    fx.write("two\nlines.rs", "fn odd_needle() {}\n");
    fx.write(
        std::ffi::OsStr::from_bytes(b"bad\xffname.rs"),
        "fn odd_needle_too() {}\n",
    );
    let runs = every_view_answers(&fx, "odd_needle");
    assert_eq!(runs[1].json()["hits"], 2, "{}", runs[1].describe());
    assert_eq!(runs[1].json()["files"], 2);
    runs[2].expect_code(0);
    runs[3].expect_code(0);
}

#[test]
fn a_large_file_with_no_newline_is_answered_in_bounded_output() {
    let fx = Fixture::new();
    let mut big = vec![b'a'; 24 << 20];
    big[12 << 20..(12 << 20) + 11].copy_from_slice(b"huge_needle");
    fx.write("big.txt", &big);
    fx.write("small.rs", "fn huge_needle() {}\n");
    let started = Instant::now();
    let runs = every_view_answers(&fx, "huge_needle");
    assert!(started.elapsed() < Duration::from_secs(60));
    for run in &runs[..3] {
        run.expect_code(0);
        assert!(
            run.output.stdout.len() < 64 * 1024,
            "{} bytes",
            run.output.stdout.len()
        );
    }
    assert_eq!(runs[1].json()["hits"], 2);
    let read = fx.run(&["read", "big.txt", "--range", "1:1"]);
    assert!((0..=3).contains(&read.code()), "{}", read.describe());
    assert!(read.output.stdout.len() < 64 * 1024);
}

#[test]
fn twenty_thousand_empty_files_are_listed_and_searched_quickly() {
    let fx = Fixture::new();
    for d in 0..20 {
        let dir = fx.root().join(format!("d{d}"));
        std::fs::create_dir(&dir).unwrap();
        for f in 0..1000 {
            std::fs::File::create(dir.join(format!("e{f}.txt"))).unwrap();
        }
    }
    fx.write("d0/one.rs", "fn lonely_needle() {}\n");
    let started = Instant::now();
    let runs = every_view_answers(&fx, "lonely_needle");
    assert!(started.elapsed() < Duration::from_secs(60));
    runs[0].expect_code(0).expect_stdout_has("d0/one.rs");
    runs[3].expect_code(0);
    assert!(runs[3].lines().len() <= 110, "{}", runs[3].describe());
    fx.run(&["search", "no_such_needle_anywhere"])
        .expect_code(1);
}
