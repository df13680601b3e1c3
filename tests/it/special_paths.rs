//! A FIFO, a socket or a device named as a path is never handed to rg nor
//! read (#26): rg, and a plain read, would wait on it forever. Each
//! command is run under a timeout on each kind: the path is named as
//! unsearchable, the rest is searched (exit 3), and `scout read` refuses
//! it (exit 2).

use std::time::Duration;

use crate::util::Fixture;

/// A tree with a text file and a FIFO, a socket and a link to /dev/zero
/// beside it; the socket's listener must live as long as the tree.
fn tree() -> (Fixture, std::os::unix::net::UnixListener) {
    let fx = Fixture::new();
    fx.write("a.py", "def needle():\n    return 1\n\nneedle()\n");
    let fifo = fx.root().join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.unwrap().success(), "mkfifo {}", fifo.display());
    let listener = std::os::unix::net::UnixListener::bind(fx.root().join("sock")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", fx.root().join("zero")).unwrap();
    (fx, listener)
}

/// Runs scout under a 20-second timeout: a hang fails the test.
fn bounded(fx: &Fixture, args: &[&str]) -> (i32, String, String) {
    let output = assert_cmd::Command::from_std(fx.command(args))
        .timeout(Duration::from_secs(20))
        .output()
        .expect("scout runs");
    let code = output
        .status
        .code()
        .unwrap_or_else(|| panic!("{args:?} did not exit in time (killed): a hang"));
    (
        code,
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

const SPECIAL: [(&str, &str); 4] = [
    ("pipe", "a FIFO"),
    ("sock", "a socket"),
    ("zero", "a character device"),
    ("/dev/zero", "a character device"),
];

#[test]
fn regression_26_search_and_smart_skip_a_special_path_and_search_the_rest() {
    let (fx, _listener) = tree();
    for (path, kind) in SPECIAL {
        for args in [
            vec!["search", "needle", path, "a.py"],
            vec!["smart", "where is the needle returned", path, "a.py"],
            vec![
                "search",
                "--callers-of",
                "a.py#needle",
                "-e",
                "",
                path,
                "a.py",
            ],
        ] {
            let (code, stdout, stderr) = bounded(&fx, &args);
            assert_eq!(code, 3, "{args:?}: {stdout}{stderr}");
            assert!(
                stderr.contains(kind) && stderr.contains("not searched"),
                "{args:?}: {stderr}"
            );
            assert!(
                stdout.contains("needle"),
                "{args:?}: the rest is searched: {stdout}"
            );
            assert!(!stdout.contains("not searched"), "{args:?}: {stdout}");
        }
        // Nothing left to search: an error, as for a missing path.
        let (code, _, stderr) = bounded(&fx, &["search", "needle", path]);
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains(kind) && stderr.contains("nothing to search"),
            "{stderr}"
        );
    }
}

#[test]
fn regression_26_grep_files_read_and_call_refuse_a_special_path() {
    let (fx, _listener) = tree();
    for (path, kind) in SPECIAL {
        for args in [
            vec!["grep", "needle", path],
            vec!["grep", "needle", path, "--output-mode", "content"],
            vec!["read", path],
            vec!["read", path, "--range", "1:2"],
            vec!["files", "*", path],
        ] {
            let (code, stdout, stderr) = bounded(&fx, &args);
            assert_eq!(code, 2, "{args:?}: {stdout}{stderr}");
            assert!(stdout.is_empty(), "{args:?}: {stdout}");
            if args[0] != "files" {
                assert!(stderr.contains(kind), "{args:?}: {stderr}");
            }
        }
        for request in [
            format!(r#"{{"mode": "content", "pattern": "needle", "path": "{path}"}}"#),
            format!(r#"{{"mode": "search", "query": "needle", "path": "{path}"}}"#),
            format!(r#"{{"mode": "smart", "query": "where is the needle", "path": "{path}"}}"#),
            format!(r#"{{"mode": "files", "pattern": "*", "path": "{path}"}}"#),
        ] {
            let (code, stdout, _) = bounded(&fx, &["call", &request]);
            assert_eq!(code, 2, "{request}: {stdout}");
            let answer: serde_json::Value = serde_json::from_str(&stdout).unwrap();
            assert!(
                answer["error"]["message"].is_string(),
                "{request}: {stdout}"
            );
        }
    }
    // A regular file and the tree around the special files still work.
    let (code, stdout, _) = bounded(&fx, &["search", "needle"]);
    assert_eq!(code, 0, "{stdout}");
    let (code, stdout, _) = bounded(&fx, &["grep", "needle", "--output-mode", "content"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("a.py:4:needle()"), "{stdout}");
}
