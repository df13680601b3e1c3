//! `scout edit` under faults (#33): a file changed while the edit runs, a
//! full disk, the process killed at points spread over the writing of 500
//! files; then edit-and-undo as the identity on bytes, over random
//! files. Each fault is made to happen deterministically through
//! `SCOUT_INTERNAL_EDIT_FAULT` (a pause, or a staged write failing as a
//! full disk would), or by a kill at a chosen moment.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::util::{snapshot, Fixture};
use proptest::prelude::*;

fn staged_copies(root: &Path) -> Vec<String> {
    snapshot(root)
        .into_iter()
        .map(|(p, _)| p)
        .filter(|p| p.contains(".scout-edit."))
        .collect()
}

const EDIT: [&str; 7] = [
    "edit",
    "--structural",
    "--lang",
    "py",
    "print($A)",
    "-r",
    "log($A)",
];

/// `NAME.py` printing its name for each of `names`, and the edit of them
/// started, once every new copy is staged and it pauses (1.5 s) before
/// renaming.
fn paused_before_rename(fx: &mut Fixture, names: &[&str]) -> std::process::Child {
    for name in names {
        fx.write(format!("{name}.py"), format!("print('{name}')\n"));
    }
    fx.set_env("SCOUT_INTERNAL_EDIT_FAULT", "pause-before-rename=1500");
    let child = started(fx, &EDIT);
    wait_until("every copy staged", || {
        staged_copies(fx.root()).len() >= names.len()
    });
    child
}

/// `args` run in the fixture, their output kept for the test to read.
fn started(fx: &Fixture, args: &[&str]) -> std::process::Child {
    fx.command(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits (20 s at most) for `done`, checked every few milliseconds.
fn wait_until(what: &str, done: impl Fn() -> bool) {
    let began = Instant::now();
    while !done() {
        assert!(began.elapsed() < Duration::from_secs(20), "never: {what}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_file_changed_under_the_edit_is_not_overwritten_and_the_others_go_back() {
    let mut fx = Fixture::new();
    let child = paused_before_rename(&mut fx, &["a", "b", "c"]);
    std::fs::write(fx.root().join("c.py"), "print('mine')\n").unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("c.py: it changed while the edit ran"),
        "{stderr}"
    );
    assert!(stderr.contains("nothing is changed"), "{stderr}");
    let files = snapshot(fx.root());
    assert_eq!(
        files,
        [
            ("a.py".to_string(), b"print('a')\n".to_vec()),
            ("b.py".to_string(), b"print('b')\n".to_vec()),
            ("c.py".to_string(), b"print('mine')\n".to_vec()),
        ]
    );
    fx.env.clear();
    fx.run(&["edit", "--undo"]).expect_code(1);
}

/// #34: the edit checked a file's size, mtime and inode before replacing
/// it, so a same-size rewrite in place under the old mtime (an editor,
/// `touch -r`) was overwritten with the edit's copy of the old bytes.
#[test]
fn regression_34_a_same_size_rewrite_under_the_old_mtime_is_not_overwritten() {
    let mut fx = Fixture::new();
    let child = paused_before_rename(&mut fx, &["a", "b"]);
    let b = fx.root().join("b.py");
    let mtime = std::fs::metadata(&b).unwrap().modified().unwrap();
    std::fs::write(&b, "print('B')\n").unwrap();
    fx.set_mtime("b.py", mtime);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("b.py: it changed while the edit ran"),
        "{stderr}"
    );
    assert_eq!(
        snapshot(fx.root()),
        [
            ("a.py".to_string(), b"print('a')\n".to_vec()),
            ("b.py".to_string(), b"print('B')\n".to_vec()),
        ]
    );
}

#[test]
fn a_full_disk_while_staging_writes_nothing_and_keeps_the_last_undo() {
    let mut fx = Fixture::new();
    for name in ["a", "b", "c"] {
        fx.write(format!("{name}.py"), format!("print('{name}')\n"));
    }
    fx.write("first.rs", "fn f() { x.unwrap(); }\n");
    fx.run(&[
        "edit",
        "--structural",
        "--lang",
        "rust",
        "$X.unwrap()",
        "-r",
        "$X?",
    ])
    .expect_code(0);
    let before = snapshot(fx.root());
    fx.set_env("SCOUT_INTERNAL_EDIT_FAULT", "full-disk-at=2");
    let run = fx.run(&EDIT);
    run.expect_code(2)
        .expect_stderr_has("b.py: writing its new copy")
        .expect_stderr_has("nothing written");
    assert_eq!(snapshot(fx.root()), before);
    fx.env.clear();
    // The edit before it can still be undone.
    fx.run(&["edit", "--undo"]).expect_code(0);
    assert_eq!(
        std::fs::read_to_string(fx.root().join("first.rs")).unwrap(),
        "fn f() { x.unwrap(); }\n"
    );
}

#[test]
fn killed_at_any_point_every_file_is_whole_and_undo_restores_them_all() {
    const FILES: usize = 500;
    let old = |i: usize| format!("def f{i}():\n    print({i})\n").into_bytes();
    let new = |i: usize| format!("def f{i}():\n    log({i})\n").into_bytes();
    let tree = || {
        let mut fx = Fixture::new();
        for i in 0..FILES {
            fx.write(format!("d{}/m{i:03}.py", i % 7), old(i));
        }
        // 3 ms between renames spreads them over a second and a half.
        fx.set_env("SCOUT_INTERNAL_EDIT_FAULT", "pause-between=3");
        fx
    };
    // How long a whole edit takes here, to spread the kills over it.
    let whole = {
        let fx = tree();
        let started = Instant::now();
        fx.run(&EDIT).expect_code(0);
        started.elapsed()
    };
    let path = |fx: &Fixture, i: usize| fx.root().join(format!("d{}/m{i:03}.py", i % 7));
    let renamed_now = |fx: &Fixture| {
        (0..FILES)
            .filter(|&i| std::fs::read(path(fx, i)).is_ok_and(|b| b == new(i)))
            .count()
    };
    let mut partial_rounds = 0;
    for round in 1..=6u32 {
        let mut fx = tree();
        let delay = whole * round / 7;
        let mut child = fx
            .command(&EDIT)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        if round % 2 == 0 {
            // Killed once a share of the files is renamed: mid-write
            // however loaded the machine is (the renames are 3 ms apart).
            let share = FILES * round as usize / 8;
            let deadline = Instant::now() + Duration::from_secs(60);
            while renamed_now(&fx) < share && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(1));
            }
        } else {
            // Killed at a share of a whole edit's time: before, during or
            // after the renames.
            std::thread::sleep(delay);
        }
        let _ = child.kill();
        let _ = child.wait();
        let mut renamed = 0;
        for i in 0..FILES {
            let bytes = std::fs::read(path(&fx, i)).unwrap();
            if bytes == new(i) {
                renamed += 1;
            } else {
                assert_eq!(bytes, old(i), "round {round} ({delay:?}): file {i} is torn");
            }
        }
        if renamed > 0 && renamed < FILES {
            partial_rounds += 1;
        }
        fx.env.clear();
        let undo = fx.run(&["edit", "--undo"]);
        assert!(
            undo.code() == 0 || (undo.code() == 1 && renamed == 0),
            "round {round} ({delay:?}, {renamed} renamed): {}",
            undo.describe()
        );
        for i in 0..FILES {
            let bytes = std::fs::read(path(&fx, i)).unwrap();
            assert_eq!(bytes, old(i), "round {round}: file {i} not restored");
        }
        assert_eq!(
            staged_copies(fx.root()),
            Vec::<String>::new(),
            "round {round}"
        );
        assert_eq!(snapshot(fx.root()).len(), FILES);
    }
    // The kills landed mid-write, not only before or after it.
    assert!(
        partial_rounds >= 1,
        "only {partial_rounds} rounds stopped mid-write ({whole:?} a run)"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Edit then undo gives back every byte: CRLF, a BOM, no final
    /// newline, bytes that are not UTF-8.
    #[test]
    fn edit_then_undo_is_the_identity(
        head in proptest::collection::vec(any::<u8>().prop_filter("no NUL", |b| *b != 0), 0..200),
        middle in "[a-z]{3,8}",
        tail in proptest::collection::vec(any::<u8>().prop_filter("no NUL", |b| *b != 0), 0..200),
        replacement in "[A-Z\r\n ]{0,12}",
        bom in any::<bool>(),
    ) {
        let fx = Fixture::new();
        let mut bytes = Vec::new();
        if bom {
            bytes.extend_from_slice("\u{feff}".as_bytes());
        }
        bytes.extend_from_slice(&head);
        bytes.extend_from_slice(middle.as_bytes());
        bytes.extend_from_slice(&tail);
        fx.write("f.txt", &bytes);
        let run = fx.run(&["edit", "--old", &middle, "--new", &replacement, "--all", "f.txt"]);
        prop_assert_eq!(run.code(), 0, "{}", run.describe());
        let undo = fx.run(&["edit", "--undo"]);
        let changed = replacement != middle;
        prop_assert_eq!(undo.code(), if changed { 0 } else { 1 }, "{}", undo.describe());
        prop_assert_eq!(std::fs::read(fx.root().join("f.txt")).unwrap(), bytes);
    }
}

/// `a.py` and `b.py` edited with a pause after each rename, and the
/// child once `a.py` holds scout's new bytes.
fn paused_after_first_rename(fx: &mut Fixture) -> std::process::Child {
    fx.write("a.py", "x = 1\n").write("b.py", "y = 1\n");
    fx.set_env("SCOUT_INTERNAL_EDIT_FAULT", "pause-between=1500");
    let child = started(fx, &["edit", "--old", "1", "--new", "2", "a.py", "b.py"]);
    wait_until("a.py written", || {
        std::fs::read(fx.root().join("a.py")).unwrap() == b"x = 2\n"
    });
    child
}

/// #51: a rollback put the old bytes back over files another process had
/// written since scout did, said "nothing is changed" and dropped the
/// journal.
#[test]
fn regression_51_a_rollback_never_undoes_another_writer() {
    let mut fx = Fixture::new();
    let child = paused_after_first_rename(&mut fx);
    std::fs::write(fx.root().join("a.py"), "x = mine\n").unwrap();
    std::fs::write(fx.root().join("b.py"), "y = mine\n").unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("b.py: it changed while the edit ran"),
        "{stderr}"
    );
    assert!(
        stderr.contains("a.py (another writer changed it after scout wrote it; its old bytes: "),
        "{stderr}"
    );
    assert!(!stderr.contains("nothing is changed"), "{stderr}");
    assert_eq!(
        snapshot(fx.root()),
        [
            ("a.py".to_string(), b"x = mine\n".to_vec()),
            ("b.py".to_string(), b"y = mine\n".to_vec()),
        ]
    );
    // The journal answers for a.py, and an undo will not overwrite it.
    fx.env.clear();
    fx.run(&["edit", "--undo"])
        .expect_code(2)
        .expect_stderr_has("a.py changed since the edit");
    assert_eq!(
        std::fs::read(fx.root().join("a.py")).unwrap(),
        b"x = mine\n"
    );
    // A file scout wrote and nobody touched since is still rolled back.
    let child = paused_after_first_rename(&mut fx);
    std::fs::write(fx.root().join("b.py"), "y = theirs\n").unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("the 1 file written before it has its old bytes again"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(fx.root().join("a.py")).unwrap(), b"x = 1\n");
    assert_eq!(
        std::fs::read(fx.root().join("b.py")).unwrap(),
        b"y = theirs\n"
    );
}

/// A third writer after the last rename: its bytes stay, and an undo
/// refuses rather than overwrite them.
#[test]
fn a_write_after_the_edit_is_never_undone() {
    let mut fx = Fixture::new();
    let child = paused_after_first_rename(&mut fx);
    wait_until("b.py written", || {
        std::fs::read(fx.root().join("b.py")).unwrap() == b"y = 2\n"
    });
    std::fs::write(fx.root().join("a.py"), "x = mine\n").unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    fx.env.clear();
    fx.run(&["edit", "--undo"])
        .expect_code(2)
        .expect_stderr_has("a.py changed since the edit")
        .expect_stderr_has("nothing restored");
    assert_eq!(
        snapshot(fx.root()),
        [
            ("a.py".to_string(), b"x = mine\n".to_vec()),
            ("b.py".to_string(), b"y = 2\n".to_vec()),
        ]
    );
}
