//! `scout files GLOB [PATH]`: the listing view.

use crate::util;

use crate::util::Fixture;

/// A small tree with explicit modification times (seconds after the epoch).
fn tree() -> Fixture {
    let fx = Fixture::new();
    fx.write("src/main.rs", "fn main() {}\n")
        .write("src/lib.rs", "pub mod a;\n")
        .write("src/a/deep.rs", "pub fn deep() {}\n")
        .write("web/app.ts", "x\n")
        .write("web/view.tsx", "x\n")
        .write("web/style.css", "x\n")
        .write("src/tests/test_one.py", "x\n")
        .write("src/test_two.py", "x\n")
        .write("test_top.py", "x\n");
    fx.touch("src/main.rs", 1_000)
        .touch("src/lib.rs", 3_000)
        .touch("src/a/deep.rs", 2_000)
        .touch("web/app.ts", 5_000)
        .touch("web/view.tsx", 4_000)
        .touch("web/style.css", 6_000)
        .touch("src/tests/test_one.py", 7_000)
        .touch("src/test_two.py", 7_000)
        .touch("test_top.py", 8_000);
    fx
}

#[test]
fn double_star_lists_recursively_newest_first() {
    tree()
        .run(&["files", "**/*.rs"])
        .expect_code(0)
        .expect_lines(&["src/lib.rs", "src/a/deep.rs", "src/main.rs"]);
}

#[test]
fn equal_times_are_ordered_by_path() {
    let fx = tree();
    fx.touch("src/main.rs", 9_000)
        .touch("src/lib.rs", 9_000)
        .touch("src/a/deep.rs", 9_000);
    fx.run(&["files", "*.rs"]).expect_code(0).expect_lines(&[
        "src/a/deep.rs",
        "src/lib.rs",
        "src/main.rs",
    ]);
}

#[test]
fn braces_match_either_extension() {
    tree()
        .run(&["files", "*.{ts,tsx}"])
        .expect_code(0)
        .expect_lines(&["web/app.ts", "web/view.tsx"]);
}

#[test]
fn a_glob_with_a_slash_is_anchored_at_the_listed_directory() {
    let fx = tree();
    fx.run(&["files", "src/**/test_*.py"])
        .expect_code(0)
        .expect_lines(&["src/test_two.py", "src/tests/test_one.py"]);
    fx.run(&["files", "test_*.py"])
        .expect_code(0)
        .expect_lines(&["test_top.py", "src/test_two.py", "src/tests/test_one.py"]);
}

/// #34: `scout files 'dir/*.h' PATH` anchored the glob at the working
/// directory (as `rg --files -g GLOB PATH` does), not at PATH.
#[test]
fn regression_34_a_glob_with_a_slash_is_anchored_at_path_not_at_the_cwd() {
    let fx = Fixture::new();
    fx.write("sub/dir/a.h", "x\n")
        .write("sub/c.h", "x\n")
        .write("sub/deeper/dir/d.h", "x\n")
        .write("dir/b.h", "x\n");
    fx.touch("sub/dir/a.h", 2_000)
        .touch("sub/c.h", 1_000)
        .touch("sub/deeper/dir/d.h", 3_000);
    // What rg lists from inside PATH, with PATH in front: docs/commands.md's
    // "anchored at PATH".
    let from_inside = |glob: &str| -> Vec<String> {
        let out = std::process::Command::new(util::rg_dir().join("rg"))
            .args(["--files", "-g", glob])
            .current_dir(fx.root().join("sub"))
            .env_clear()
            .output()
            .unwrap();
        let mut files: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| format!("sub/{l}"))
            .collect();
        files.sort();
        files
    };
    for glob in ["dir/*.h", "/dir/*.h", "**/dir/*.h", "!dir/*.h", "*.h"] {
        let run = fx.run(&["files", glob, "sub"]);
        run.expect_code(0);
        assert_eq!(
            sorted(run.lines()),
            from_inside(glob),
            "{glob}\n{}",
            run.describe()
        );
    }
    fx.run(&["files", "dir/*.h", "sub"])
        .expect_lines(&["sub/dir/a.h"]);
    // The same through a path spelled otherwise, and from outside the cwd.
    fx.run(&["files", "dir/*.h", "./sub/"])
        .expect_lines(&["sub/dir/a.h"]);
    fx.run(&["files", "dir/*.h", fx.root().join("sub").to_str().unwrap()])
        .expect_lines(&["sub/dir/a.h"]);
    let elsewhere = fx.outside().join("elsewhere");
    std::fs::create_dir_all(elsewhere.join("dir")).unwrap();
    std::fs::write(elsewhere.join("dir/x.h"), "x").unwrap();
    std::fs::write(elsewhere.join("y.h"), "x").unwrap();
    let relative = format!("../{}/elsewhere", home_name(&fx));
    fx.run(&["files", "dir/*.h", &relative])
        .expect_code(0)
        .expect_lines(&[elsewhere.join("dir/x.h").to_str().unwrap()]);
    // With ignore rules on, the second listing (without the glob) runs in
    // PATH too, so the two agree.
    fx.run(&["files", "dir/*.h", "sub", "--respect-ignore", "--no-hidden"])
        .expect_code(0)
        .expect_lines(&["sub/dir/a.h"]);
}

#[test]
fn path_narrows_the_listing_and_paths_stay_relative_to_the_cwd() {
    let fx = tree();
    fx.run(&["files", "*", "web"])
        .expect_code(0)
        .expect_lines(&["web/style.css", "web/app.ts", "web/view.tsx"]);
    let absolute = fx.root().join("web");
    fx.run(&["files", "*.ts", absolute.to_str().unwrap()])
        .expect_code(0)
        .expect_lines(&["web/app.ts"]);
    fx.run(&["files", "*.ts", "./src/../web/"])
        .expect_code(0)
        .expect_lines(&["web/app.ts"]);
}

/// The name of the fixture's private home, a sibling of its tree: `../NAME`
/// is a path outside the cwd.
fn home_name(fx: &Fixture) -> String {
    let name = fx.outside().file_name().unwrap();
    name.to_str().unwrap().to_string()
}

#[test]
fn paths_outside_the_cwd_are_absolute() {
    let fx = tree();
    std::fs::create_dir_all(fx.outside().join("elsewhere")).unwrap();
    std::fs::write(fx.outside().join("elsewhere/x.rs"), "x").unwrap();
    let expected = fx.outside().join("elsewhere/x.rs");
    let relative = format!("../{}/elsewhere", home_name(&fx));
    fx.run(&["files", "*.rs", &relative])
        .expect_code(0)
        .expect_lines(&[expected.to_str().unwrap()]);
}

#[test]
fn at_most_100_files_by_default_and_the_cut_is_announced() {
    let fx = Fixture::new();
    for i in 0..120 {
        let name = format!("f{i:03}.txt");
        fx.write(&name, "x");
        fx.touch(&name, 1_000 + i);
    }
    let run = fx.run(&["files", "*.txt"]);
    run.expect_code(0);
    let results = run.results();
    assert_eq!(results.len(), 100, "{}", run.describe());
    assert_eq!(results[0], "f119.txt");
    assert_eq!(results[99], "f020.txt");
    assert_eq!(
        run.notes(),
        ["[list cut at --limit 100: 120 files matched, the 100 newest shown; all of them: scout files '*.txt' --limit 120]"],
        "{}",
        run.describe()
    );

    let run = fx.run(&["files", "*.txt", "--limit", "3"]);
    run.expect_code(0).expect_lines(&[
        "f119.txt",
        "f118.txt",
        "f117.txt",
        "[list cut at --limit 3: 120 files matched, the 3 newest shown; all of them: scout files '*.txt' --limit 120]",
    ]);
    let all = fx.run(&["files", "*.txt", "--limit", "120"]);
    assert_eq!(all.results().len(), 120);
    assert!(all.notes().is_empty(), "{}", all.describe());
    assert_eq!(
        fx.run(&["files", "*.txt", "--limit", "0"]).lines().len(),
        120
    );
}

#[test]
fn scout_files_max_sets_the_default_limit() {
    let mut fx = tree();
    fx.set_env("SCOUT_FILES_MAX", "2");
    let run = fx.run(&["files", "*"]);
    run.expect_code(0);
    assert_eq!(run.results(), ["test_top.py", "src/test_two.py"]);
    run.expect_stdout_has("9 files matched, the 2 newest shown");
    // The flag wins over the environment.
    assert_eq!(fx.run(&["files", "*", "--limit", "4"]).results().len(), 4);

    let mut bad = tree();
    bad.set_env("SCOUT_FILES_MAX", "many");
    bad.run(&["files", "*"])
        .expect_code(2)
        .expect_stderr_has("SCOUT_FILES_MAX");
}

/// A git repository with an ignored file, an ignored folder, a file
/// excluded by `.ignore`, and hidden files.
fn ignoring_tree() -> Fixture {
    let fx = Fixture::new();
    fx.git_init();
    fx.write(".gitignore", "target/\n*.log\n")
        .write(".ignore", "secret.rs\n")
        .write("src/a.rs", "x")
        .write("secret.rs", "x")
        .write("target/debug/gen.rs", "x")
        .write("build.log", "x")
        .write(".hidden.rs", "x")
        .write(".config/tool.rs", "x");
    fx
}

fn sorted(mut lines: Vec<String>) -> Vec<String> {
    lines.sort();
    lines
}

#[test]
fn ignored_and_hidden_files_are_listed_by_default() {
    let fx = ignoring_tree();
    let run = fx.run(&["files", "*.rs"]);
    run.expect_code(0);
    assert_eq!(
        sorted(run.results()),
        [
            ".config/tool.rs",
            ".hidden.rs",
            "secret.rs",
            "src/a.rs",
            "target/debug/gen.rs"
        ],
        "{}",
        run.describe()
    );
    assert_eq!(fx.run(&["files", "*.log"]).results(), ["build.log"]);
}

#[test]
fn respect_ignore_skips_ignored_files_even_when_the_glob_names_them() {
    let fx = ignoring_tree();
    let run = fx.run(&["files", "*.rs", "--respect-ignore"]);
    run.expect_code(0);
    assert_eq!(
        sorted(run.results()),
        [".config/tool.rs", ".hidden.rs", "src/a.rs"],
        "{}",
        run.describe()
    );
    // rg alone would list it: a -g glob that matches a file overrides
    // ignore files for that file.
    fx.run(&["files", "*.log", "--respect-ignore"])
        .expect_code(1)
        .expect_lines(&[]);
    fx.run(&["files", "secret.rs", "--respect-ignore"])
        .expect_code(1);
}

#[test]
fn no_hidden_skips_hidden_files_and_folders() {
    let fx = ignoring_tree();
    let run = fx.run(&["files", "*.rs", "--no-hidden"]);
    run.expect_code(0);
    assert_eq!(
        sorted(run.results()),
        ["secret.rs", "src/a.rs", "target/debug/gen.rs"],
        "{}",
        run.describe()
    );
    fx.run(&["files", ".hidden.rs", "--no-hidden"])
        .expect_code(1);
    let both = fx.run(&["files", "*.rs", "--no-hidden", "--respect-ignore"]);
    assert_eq!(both.results(), ["src/a.rs"], "{}", both.describe());
}

#[test]
fn the_environment_can_turn_ignored_and_hidden_files_off() {
    let mut fx = ignoring_tree();
    fx.set_env("SCOUT_FILES_NO_IGNORE", "0");
    let run = fx.run(&["files", "*.rs"]);
    assert_eq!(
        sorted(run.results()),
        [".config/tool.rs", ".hidden.rs", "src/a.rs"],
        "{}",
        run.describe()
    );
    fx.set_env("SCOUT_FILES_HIDDEN", "0");
    assert_eq!(fx.run(&["files", "*.rs"]).results(), ["src/a.rs"]);
}

#[test]
fn version_control_folders_are_never_listed() {
    let fx = Fixture::new();
    for dir in [".git", ".hg", ".svn", ".bzr", ".jj", ".sl"] {
        fx.write(format!("{dir}/store.rs"), "x");
        fx.write(format!("sub/{dir}/store.rs"), "x");
    }
    fx.write("kept.rs", "x");
    fx.run(&["files", "**/*"])
        .expect_code(0)
        .expect_lines(&["kept.rs"]);
    fx.run(&["files", "*.rs", "--respect-ignore", "--no-hidden"])
        .expect_code(0)
        .expect_lines(&["kept.rs"]);
}

#[test]
fn no_match_is_exit_1_with_a_message() {
    tree()
        .run(&["files", "*.go"])
        .expect_code(1)
        .expect_lines(&[])
        .expect_stderr_has("no file matches '*.go'");
}

#[test]
fn a_bare_name_that_matches_nothing_points_to_wildcards() {
    let fx = tree();
    fx.run(&["files", "deep"])
        .expect_code(1)
        .expect_lines(&[])
        .expect_stderr_has("no file matches deep (a glob without wildcards matches whole names; names holding it: scout files '*deep*')");
    fx.run(&["files", "*deep*"])
        .expect_code(0)
        .expect_lines(&["src/a/deep.rs"]);
    let globbed = fx.run(&["files", "*.go"]);
    globbed.expect_code(1);
    assert!(
        !globbed.stderr().contains("without wildcards"),
        "{}",
        globbed.stderr()
    );
}

#[test]
fn path_must_be_an_existing_directory() {
    let fx = tree();
    fx.run(&["files", "*", "nowhere"])
        .expect_code(2)
        .expect_lines(&[])
        .expect_stderr_has("no such directory: nowhere");
    fx.run(&["files", "*", "src/main.rs"])
        .expect_code(2)
        .expect_stderr_has("src/main.rs is not a directory");
}

#[test]
fn a_malformed_glob_is_exit_2_with_rg_s_reason() {
    tree()
        .run(&["files", "*.{rs"])
        .expect_code(2)
        .expect_stderr_has("unclosed alternate group");
}

#[test]
fn a_timeout_keeps_the_files_found_so_far() {
    let mut fx = tree();
    // Lists two files, then hangs.
    fx.fake_rg("printf 'src/main.rs\\nsrc/lib.rs\\n'\nexec sleep 30");
    let run = fx.run(&["files", "*.rs", "--timeout", "0.5"]);
    run.expect_code(3);
    assert_eq!(run.results(), ["src/lib.rs", "src/main.rs"]);
    assert_eq!(
        run.notes(),
        ["[timed out after 0.5s: the listing did not finish; 2 files found so far; narrow the PATH or the glob, or raise --timeout (0 = no limit)]"],
        "{}",
        run.describe()
    );
}

#[test]
fn a_timeout_while_filtering_ignored_files_keeps_what_both_listings_found() {
    let mut fx = tree();
    // Both listings (with and without the glob) print the same two files,
    // then hang: they run at once, so both are cut by the same deadline.
    fx.fake_rg("printf 'src/main.rs\\nsrc/lib.rs\\n'\nexec sleep 30");
    let run = fx.run(&["files", "*.rs", "--respect-ignore", "--timeout", "0.5"]);
    run.expect_code(3);
    assert_eq!(
        run.results(),
        ["src/lib.rs", "src/main.rs"],
        "{}",
        run.describe()
    );
    run.expect_stdout_has("[timed out after 0.5s");
}

#[test]
fn a_timeout_with_nothing_found_is_an_error() {
    let mut fx = tree();
    fx.fake_rg("exec sleep 30");
    fx.set_env("SCOUT_TIMEOUT_SECONDS", "0.3");
    fx.run(&["files", "*.rs"])
        .expect_code(2)
        .expect_lines(&[])
        .expect_stderr_has("listing timed out after 0.3s with no file yet");
}

#[test]
fn eagain_is_retried_on_one_thread() {
    let mut fx = tree();
    fx.fake_rg(
        "case \" $* \" in *' -j1 '*) exec \"$REAL_RG\" \"$@\";; esac\n\
         echo 'rg: Resource temporarily unavailable (os error 11)' >&2\nexit 2",
    );
    fx.run(&["files", "*.rs"])
        .expect_code(0)
        .expect_lines(&["src/lib.rs", "src/a/deep.rs", "src/main.rs"])
        .expect_stderr_has("again on one thread");
}

#[test]
fn help_states_defaults_and_examples() {
    let run = Fixture::new().run(&["files", "--help"]);
    run.expect_code(0)
        .expect_stdout_has("SCOUT_FILES_MAX")
        .expect_stdout_has("scout files '**/*.rs'");
}
