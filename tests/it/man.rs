//! The man page (issue #16): generated from the clap definitions, holding
//! the README's "which tool for which question" table and every command;
//! `scout --help` says where it is.

use std::process::Command;

use crate::util::Fixture;

/// Text as roff prints it in a text line (clap_mangen's escapes).
fn roff(text: &str) -> String {
    text.replace('\\', r"\\")
        .replace('-', r"\-")
        .replace('\'', r"\*(Aq")
}

/// The README's table rows: (question, tool), as Markdown.
fn readme_table() -> Vec<(String, String)> {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("the README is readable");
    let section = readme
        .split("## Which tool for which question\n")
        .nth(1)
        .expect("the README has the table");
    section
        .lines()
        .skip_while(|l| !l.starts_with("|---"))
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .map(|row| {
            let cells: Vec<&str> = row.trim_matches('|').split(" | ").collect();
            (cells[0].trim().to_string(), cells[1].trim().to_string())
        })
        .collect()
}

#[test]
fn scout_man_prints_a_page_with_the_table_and_the_commands() {
    let run = Fixture::new().run(&["man"]);
    run.expect_code(0);
    let page = run.stdout();
    assert!(page.contains(".TH SCOUT 1"), "{}", run.describe());
    let table = readme_table();
    assert!(table.len() >= 7, "{table:?}");
    let section = page
        .split(".SH \"WHICH TOOL FOR WHICH QUESTION\"\n")
        .nth(1)
        .expect("the page has the table");
    for (question, tool) in &table {
        // Code spans are bold, the rest roman: every piece is in the row.
        for piece in question.split('`').chain(tool.split('`')) {
            let piece = piece.trim();
            if !piece.is_empty() {
                assert!(
                    section.contains(&roff(piece)),
                    "{piece:?} of the README's table not in the man page:\n{section}"
                );
            }
        }
    }
    for command in [
        "search",
        "grep",
        "files",
        "read",
        "call",
        "memory",
        "doctor",
        "completions",
    ] {
        assert!(
            page.contains(&format!("scout\\-{command}(1)")),
            "{command} not in\n{page}"
        );
    }
    assert!(page.contains(".SH COLOUR"), "{page}");
}

#[test]
fn scout_man_dir_writes_a_page_per_command() {
    let fx = Fixture::new();
    let dir = fx.home.path().join("share/man/man1");
    let run = fx.run(&["man", "--dir", dir.to_str().unwrap()]);
    run.expect_code(0);
    let search = dir.join("scout-search.1");
    assert!(
        run.stdout().contains(search.to_str().unwrap()),
        "{}",
        run.describe()
    );
    let page = std::fs::read_to_string(&search).unwrap();
    for option in ["--budget-tokens", "--color", "--kind", "--json"] {
        assert!(page.contains(&roff(option)), "{option} not in\n{page}");
    }
    assert!(page.contains(".SH EXAMPLES"), "{page}");
    for name in [
        "scout.1",
        "scout-grep.1",
        "scout-read.1",
        "scout-files.1",
        "scout-doctor.1",
    ] {
        assert!(dir.join(name).is_file(), "{name}: {}", run.describe());
    }
    assert!(
        !dir.join("scout-man.1").exists(),
        "the man command is hidden"
    );
    // groff, where installed, reads every page without a warning.
    if std::path::Path::new("/usr/bin/groff").is_file() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let output = Command::new("/usr/bin/groff")
                .args(["-man", "-Tutf8", "-ww", "-z"])
                .arg(&path)
                .output()
                .unwrap();
            assert!(
                output.status.success() && output.stderr.is_empty(),
                "{}: {}",
                path.display(),
                String::from_utf8_lossy(&output.stderr)
            );
        }
    }
}

#[test]
fn help_names_the_man_page_and_the_color_flag() {
    let fx = Fixture::new();
    fx.run(&["--help"])
        .expect_code(0)
        .expect_stdout_has("man scout");
    fx.run(&["search", "--help"])
        .expect_code(0)
        .expect_stdout_has("--color <WHEN>");
}
