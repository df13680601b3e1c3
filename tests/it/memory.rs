//! Session memory: a repeated search prints only what the agent has not seen.

use crate::util;

use crate::trees::widget_uses;
use crate::util::Fixture;

fn in_session(id: &str) -> Fixture {
    let mut fx = Fixture::new();
    fx.set_env("SCOUT_SESSION_ID", id);
    fx
}

#[test]
fn a_repeated_search_is_smaller_and_names_what_it_collapsed() {
    let fx = in_session("s1");
    widget_uses(&fx);
    let first = fx.run(&["search", "Widget"]);
    first.expect_code(0);
    let second = fx.run(&["search", "Widget"]);
    second.expect_code(0);
    let third = fx.run(&["search", "Widget"]);
    // Sizes without the elapsed milliseconds, whose digits vary by run.
    let size = |run: &util::Run| run.stdout_masked().len();
    assert!(
        size(&second) < size(&first),
        "{}\n{}",
        first.describe(),
        second.describe()
    );
    assert!(size(&third) <= size(&second), "{}", third.describe());
    let out = second.stdout();
    assert!(
        out.contains("src/core.py  (2x) [def]: 2 already shown, unchanged\n  seen 1: class Widget:\n  seen 3: return Widget()\n"),
        "{}",
        second.describe()
    );
    assert!(
        second.header_field("already_shown").is_some(),
        "{}",
        second.describe()
    );
    // The counters stay exact.
    assert_eq!(first.header_field("hits"), second.header_field("hits"));
    assert_eq!(first.header_field("files"), second.header_field("files"));
}

#[test]
fn editing_a_file_makes_its_matches_reappear() {
    let fx = in_session("s2");
    widget_uses(&fx);
    fx.run(&["search", "Widget"]).expect_code(0);
    let path = fx.root().join("src/core.py");
    std::fs::write(
        &path,
        "class Widget:\n    def spin(self):\n        return Widget()  # edited\n",
    )
    .unwrap();
    let again = fx.run(&["search", "Widget"]);
    assert!(
        again.stdout().contains("        return Widget()  # edited"),
        "{}",
        again.describe()
    );
    assert!(
        !again.stdout().contains("src/core.py  (2x) [def]: "),
        "{}",
        again.describe()
    );
}

#[test]
fn again_restores_the_first_output_byte_for_byte() {
    let fx = in_session("s3");
    widget_uses(&fx);
    let first = fx.run(&["search", "Widget"]);
    fx.run(&["search", "Widget"]);
    let again = fx.run(&["search", "Widget", "--again"]);
    assert_eq!(first.stdout_masked(), again.stdout_masked());
    // --again records nothing: forgetting and searching with --again
    // leaves the next search whole.
    fx.run(&["search", "--forget"]).expect_code(0);
    fx.run(&["search", "Widget", "--again"]);
    let fresh = fx.run(&["search", "Widget"]);
    assert_eq!(first.stdout_masked(), fresh.stdout_masked());
}

#[test]
fn two_sessions_do_not_see_each_others_memory() {
    let mut fx = in_session("a");
    widget_uses(&fx);
    let first = fx.run(&["search", "Widget"]);
    fx.env.clear();
    fx.set_env("CLAUDE_CODE_SESSION_ID", "b");
    let other = fx.run(&["search", "Widget"]);
    assert_eq!(first.stdout_masked(), other.stdout_masked());
}

#[test]
fn outside_a_session_nothing_is_remembered_or_written() {
    let fx = Fixture::new();
    widget_uses(&fx);
    let first = fx.run(&["search", "Widget"]);
    let second = fx.run(&["search", "Widget"]);
    assert_eq!(first.stdout_masked(), second.stdout_masked());
    assert!(!fx.home.path().join("state").exists());
}

#[test]
fn json_and_files_only_do_not_change_the_memory_unless_asked() {
    let fx = in_session("s4");
    widget_uses(&fx);
    fx.run(&["search", "Widget", "--json"]);
    fx.run(&["search", "Widget", "-l"]);
    let show = fx.run(&["memory", "show"]);
    show.expect_code(0);
    assert!(show.stdout().contains(": 0 files"), "{}", show.describe());
    fx.run(&["search", "Widget", "--json", "--remember"]);
    let doc = fx.run(&["search", "Widget", "--json"]).json();
    assert!(doc["already_shown"].as_u64().unwrap() > 0, "{doc}");
    for r in doc["results"].as_array().unwrap() {
        let sum = r["shown"].as_u64().unwrap()
            + r["already_shown"].as_u64().unwrap()
            + r["left_out"].as_u64().unwrap();
        assert_eq!(sum, r["hits"].as_u64().unwrap());
    }
    let show = fx.run(&["memory", "show"]);
    assert!(
        show.stdout().contains("src/core.py  2 lines: 1, 3"),
        "{}",
        show.describe()
    );
    fx.run(&["memory", "clear"]).expect_code(0);
    assert!(fx.run(&["memory", "show"]).stdout().contains(": 0 files"));
}

#[test]
fn twenty_concurrent_searches_leave_a_valid_memory_with_every_line() {
    let fx = in_session("s5");
    for i in 0..20 {
        fx.write(format!("f{i:02}.txt"), format!("token_{i} here\n"));
    }
    let children: Vec<_> = (0..20)
        .map(|i| {
            fx.command(&["search", &format!("token_{i}")])
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let show = fx.run(&["memory", "show"]);
    show.expect_code(0);
    assert!(show.stdout().contains(": 20 files"), "{}", show.describe());
    assert!(show.stderr().is_empty(), "{}", show.describe());
}

#[test]
fn a_garbage_memory_file_gives_one_warning_and_a_normal_result() {
    let fx = in_session("s6");
    widget_uses(&fx);
    let clean = fx.run(&["search", "Widget", "--again"]);
    // `memory show` names the session's file: `session ID (VAR): N files, PATH`.
    let show = fx.run(&["memory", "show"]).stdout();
    let file = show
        .lines()
        .next()
        .unwrap()
        .rsplit(", ")
        .next()
        .unwrap()
        .to_string();
    std::fs::create_dir_all(std::path::Path::new(&file).parent().unwrap()).unwrap();
    std::fs::write(&file, b"\x00\x01 not json").unwrap();
    let run = fx.run(&["search", "Widget"]);
    run.expect_code(0);
    assert_eq!(
        run.stderr().matches("ignoring session memory").count(),
        1,
        "{}",
        run.describe()
    );
    assert_eq!(run.stdout_masked(), clean.stdout_masked());
    // The garbage was replaced by a valid memory.
    let after = fx.run(&["memory", "show"]);
    assert!(after.stderr().is_empty(), "{}", after.describe());
    assert!(
        !after.stdout().contains(": 0 files"),
        "{}",
        after.describe()
    );
}

/// #54: memory keyed a path as written, so `../app.py` read from a
/// subdirectory was another file than `app.py` read beside it: printed
/// again, and listed twice.
#[test]
fn regression_54_one_file_by_two_relative_paths_is_one_memory_entry() {
    let fx = in_session("paths");
    let body: String = (0..10).map(|i| format!("x{i} = {i}\n")).collect();
    fx.write("app.py", format!("def app():\n{body}"));
    std::fs::create_dir_all(fx.root().join("pkg")).unwrap();
    fx.run(&["read", "app.py"]).expect_code(0);
    let again = fx
        .command(&["read", "../app.py"])
        .current_dir(fx.root().join("pkg"))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&again.stdout);
    assert!(out.contains("already in this session's context"), "{out}");
    assert!(!out.contains("x5 = 5"), "{out}");
    let show = fx.run(&["memory", "show"]);
    assert!(show.stdout().contains(": 1 file,"), "{}", show.describe());
}
