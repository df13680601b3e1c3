//! `scout setup claude`: hooks merged into Claude Code's settings file in
//! a temporary project and HOME (never the real ~/.claude), and what
//! `scout doctor` says of them.

use crate::util::Fixture;

const SETTINGS: &str = "{\n  \"model\": \"opus\",\n  \"permissions\": {\"allow\": [\"Bash(npm test)\"]},\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Write|Edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"./lint.sh\"}]}\n    ],\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"say done\"}]}]\n  }\n}\n";

fn project() -> Fixture {
    let fx = Fixture::new();
    std::fs::create_dir_all(fx.root().join(".git")).unwrap();
    fx.write(".claude/settings.json", SETTINGS);
    fx
}

fn settings(fx: &Fixture) -> String {
    std::fs::read_to_string(fx.root().join(".claude/settings.json")).unwrap()
}

fn backups(fx: &Fixture) -> Vec<std::path::PathBuf> {
    let mut found: Vec<_> = std::fs::read_dir(fx.root().join(".claude"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().contains("scout-backup"))
        .collect();
    found.sort();
    found
}

#[test]
fn install_merges_keeps_the_rest_and_is_idempotent() {
    let fx = project();
    let run = fx.run(&["setup", "claude"]);
    run.expect_code(0);
    run.expect_stdout_has("installed scout's hooks in");
    run.expect_stdout_has("hooks.json");
    let after = settings(&fx);
    let value: serde_json::Value = serde_json::from_str(&after).unwrap();
    let scout = env!("CARGO_BIN_EXE_scout");
    assert_eq!(value["hooks"]["PreToolUse"].as_array().unwrap().len(), 2);
    assert_eq!(value["hooks"]["PreToolUse"][1]["matcher"], "Read|Bash|Grep");
    assert_eq!(
        value["hooks"]["PostToolUse"][0]["hooks"][0]["command"],
        format!("{scout} hook PostToolUse")
    );
    assert_eq!(value["hooks"]["PostToolUseFailure"][0]["matcher"], "Bash");
    assert_eq!(
        value["hooks"]["SessionStart"][0],
        serde_json::json!({"hooks": [{"type": "command", "command": format!("{scout} hook SessionStart"), "timeout": 10}]})
    );
    // Untouched parts keep their bytes.
    for kept in [
        "  \"model\": \"opus\",\n  \"permissions\": {\"allow\": [\"Bash(npm test)\"]},\n",
        "      {\"matcher\": \"Write|Edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"./lint.sh\"}]},\n",
        "\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"say done\"}]}]",
    ] {
        assert!(after.contains(kept), "lost {kept:?}:\n{after}");
    }
    // The backup is the file as it was.
    let backup = backups(&fx);
    assert_eq!(backup.len(), 1);
    assert_eq!(std::fs::read_to_string(&backup[0]).unwrap(), SETTINGS);
    // Twice changes nothing, and writes no second backup.
    let again = fx.run(&["setup", "claude"]);
    again.expect_code(0);
    again.expect_stdout_has("already installed");
    assert_eq!(settings(&fx), after);
    assert_eq!(backups(&fx).len(), 1);
    // --remove takes out only scout's entries: the file is as it was.
    let removed = fx.run(&["setup", "claude", "--remove"]);
    removed.expect_code(0);
    removed.expect_stdout_has("removed scout's hooks");
    assert_eq!(settings(&fx), SETTINGS);
    assert_eq!(backups(&fx).len(), 2);
}

#[test]
fn dry_run_prints_the_result_and_changes_nothing() {
    let fx = project();
    let run = fx.run(&["setup", "claude", "--dry-run"]);
    run.expect_code(0);
    assert_eq!(settings(&fx), SETTINGS);
    assert!(backups(&fx).is_empty());
    let printed: serde_json::Value = serde_json::from_str(&run.stdout()).expect("the file");
    assert_eq!(printed["hooks"]["PostToolUse"][0]["matcher"], "Read|Bash");
    assert_eq!(printed["model"], "opus");
    run.expect_stderr_has("dry run");
    // What it printed is what a real run writes.
    fx.run(&["setup", "claude"]).expect_code(0);
    assert_eq!(settings(&fx), run.stdout());
}

#[test]
fn a_broken_settings_file_is_left_alone_with_where_it_breaks() {
    let fx = project();
    // Line 3, column 13 is the stray comma.
    let broken = "{\n  \"model\": \"opus\",\n  \"hooks\": {,\n}\n";
    fx.write(".claude/settings.json", broken);
    let run = fx.run(&["setup", "claude"]);
    run.expect_code(2);
    run.expect_stderr_has("settings.json");
    run.expect_stderr_has("not valid JSON at line 3, column 13");
    assert_eq!(settings(&fx), broken);
    assert!(backups(&fx).is_empty());
}

#[test]
fn user_scope_writes_under_home_and_a_new_file_needs_no_backup() {
    let fx = Fixture::new();
    let run = fx.run(&["setup", "claude", "--user"]);
    run.expect_code(0);
    let path = fx.home.path().join(".claude/settings.json");
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(value["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"], 10);
    assert!(!fx.root().join(".claude").exists());
    assert!(!run.stdout().contains("backup"), "{}", run.describe());
}

#[test]
fn doctor_says_whether_the_hooks_run_this_scout() {
    let fx = project();
    let before = fx.run(&["doctor"]);
    before.expect_stdout_has("warn  hooks: scout's Claude Code hooks are not installed");
    fx.run(&["setup", "claude"]).expect_code(0);
    let after = fx.run(&["doctor"]);
    after.expect_stdout_has("ok    hooks: installed in ");
    after.expect_stdout_has("running this scout");
    after.expect_stdout_has("ok    rules: reread warn, unbudgeted-search warn");
    let moved = settings(&fx).replace(env!("CARGO_BIN_EXE_scout"), "/old/bin/scout");
    fx.write(".claude/settings.json", &moved);
    let stale = fx.run(&["doctor"]);
    stale.expect_stdout_has("runs /old/bin/scout, not this scout");
    stale.expect_stdout_has("fix: scout setup claude points them at this scout");
    // Setup points them back.
    fx.run(&["setup", "claude"]).expect_code(0);
    assert!(!settings(&fx).contains("/old/bin/scout"));
}

#[test]
fn setup_and_hook_have_help_with_examples() {
    let fx = Fixture::new();
    for args in [&["setup", "claude", "--help"][..], &["hook", "--help"]] {
        let run = fx.run(args);
        run.expect_code(0);
        run.expect_stdout_has("Examples:");
        run.expect_stdout_has("hooks.json");
    }
    fx.run(&["setup", "--help"]).expect_stdout_has("Examples:");
    let run = fx.run(&["setup", "agents-md", "--help"]);
    run.expect_code(0);
    run.expect_stdout_has("Examples:");
    run.expect_stdout_has("scout:begin");
}

#[test]
fn agents_md_gets_the_tool_table_between_markers_idempotently() {
    let fx = Fixture::new();
    std::fs::create_dir_all(fx.root().join(".git")).unwrap();
    fx.write("AGENTS.md", "# Agents\n\nRun `make test`.\n");
    let run = fx.run(&["setup", "agents-md"]);
    run.expect_code(0);
    let text = std::fs::read_to_string(fx.root().join("AGENTS.md")).unwrap();
    assert!(
        text.starts_with("# Agents\n\nRun `make test`.\n\n<!-- scout:begin"),
        "{text}"
    );
    assert!(
        text.contains("| where is `X` defined, and where is it used? | `scout search X` |"),
        "{text}"
    );
    assert!(text.ends_with("<!-- scout:end -->\n"), "{text}");
    fx.run(&["setup", "agents-md"])
        .expect_stdout_has("up to date");
    assert_eq!(
        std::fs::read_to_string(fx.root().join("AGENTS.md")).unwrap(),
        text
    );
    fx.run(&["setup", "agents-md", "--remove"]).expect_code(0);
    assert_eq!(
        std::fs::read_to_string(fx.root().join("AGENTS.md")).unwrap(),
        "# Agents\n\nRun `make test`.\n"
    );
    // CLAUDE.md when it is the only one; --file chooses.
    let claude = Fixture::new();
    claude.write("CLAUDE.md", "notes\n");
    claude.run(&["setup", "agents-md"]).expect_code(0);
    assert!(std::fs::read_to_string(claude.root().join("CLAUDE.md"))
        .unwrap()
        .contains("scout:begin"));
    assert!(!claude.root().join("AGENTS.md").exists());
    let dry = claude.run(&["setup", "agents-md", "--file", "OTHER.md", "--dry-run"]);
    dry.expect_stdout_has("<!-- scout:end -->");
    assert!(!claude.root().join("OTHER.md").exists());
}

/// `scout setup mcp` (#25): the client's file in the fixture's project or
/// HOME, merged, idempotent, backed up, removable; a broken file refused.
#[test]
fn setup_mcp_registers_the_server_where_each_client_reads_it() {
    let fx = project();
    let exe = env!("CARGO_BIN_EXE_scout");
    // Claude Code: .mcp.json at the project's root, made from nothing.
    let run = fx.run(&["setup", "mcp", "--client", "claude"]);
    run.expect_code(0);
    run.expect_stdout_has("registered scout mcp");
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fx.root().join(".mcp.json")).unwrap())
            .unwrap();
    assert_eq!(written["mcpServers"]["scout"]["command"], exe);
    assert_eq!(
        written["mcpServers"]["scout"]["args"],
        serde_json::json!(["mcp"])
    );
    fx.run(&["setup", "mcp", "--client", "claude"])
        .expect_stdout_has("already registered");
    // Cursor: the user's file, next to what is there, with a backup.
    let cursor = fx.home.path().join(".cursor/mcp.json");
    std::fs::create_dir_all(cursor.parent().unwrap()).unwrap();
    let theirs = "{\n  \"mcpServers\": {\n    \"db\": {\"command\": \"db-mcp\"}\n  }\n}\n";
    std::fs::write(&cursor, theirs).unwrap();
    let dry = fx.run(&["setup", "mcp", "--client", "cursor", "--dry-run"]);
    dry.expect_code(0);
    assert!(dry.stdout().contains("\"scout\""), "{}", dry.describe());
    assert_eq!(
        std::fs::read_to_string(&cursor).unwrap(),
        theirs,
        "a dry run writes nothing"
    );
    fx.run(&["setup", "mcp", "--client", "cursor"])
        .expect_stdout_has("backup:");
    let merged = std::fs::read_to_string(&cursor).unwrap();
    assert!(
        merged.contains("\"db\": {\"command\": \"db-mcp\"}"),
        "{merged}"
    );
    fx.run(&["setup", "mcp", "--client", "cursor", "--remove"])
        .expect_code(0);
    let removed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cursor).unwrap()).unwrap();
    assert!(removed["mcpServers"].get("scout").is_none());
    assert_eq!(removed["mcpServers"]["db"]["command"], "db-mcp");
    // Codex: TOML, comments kept; a broken file is refused where it breaks.
    let codex = fx.home.path().join(".codex/config.toml");
    std::fs::create_dir_all(codex.parent().unwrap()).unwrap();
    std::fs::write(&codex, "# mine\nmodel = \"o3\"\n").unwrap();
    fx.run(&["setup", "mcp", "--client", "codex"])
        .expect_code(0);
    let toml = std::fs::read_to_string(&codex).unwrap();
    assert!(
        toml.starts_with("# mine\nmodel = \"o3\"\n") && toml.contains("[mcp_servers.scout]"),
        "{toml}"
    );
    // Doctor says where it is registered.
    fx.run(&["doctor"]).expect_stdout_has(
        "ok    mcp: scout mcp is registered for codex (~/.codex/config.toml), claude (.mcp.json)",
    );
    std::fs::write(&codex, "model = \n").unwrap();
    let broken = fx.run(&["setup", "mcp", "--client", "codex"]);
    broken.expect_code(2);
    broken.expect_stderr_has("line 1, column 9");
    assert_eq!(std::fs::read_to_string(&codex).unwrap(), "model = \n");
    fx.run(&["doctor"])
        .expect_stdout_has("warn  mcp: ~/.codex/config.toml: not valid TOML at line 1, column 9");
}

/// #37: VS Code reads its `mcp.json` as JSON with comments; `scout setup
/// mcp --client vscode` edits such a file (it used to refuse it), every
/// comment kept byte for byte, and `--remove` gives the file back as it was.
#[test]
fn setup_mcp_edits_a_vscode_file_with_comments_and_keeps_them() {
    let fx = project();
    let exe = env!("CARGO_BIN_EXE_scout");
    let theirs = "{\n  // Servers for this workspace.\n  \"servers\": {\n    /* the database,\n       pinned */\n    \"db\": {\n      \"type\": \"stdio\",\n      \"command\": \"db-mcp\", // 1.2\n    },\n  },\n  \"inputs\": [],\n}\n";
    fx.write(".vscode/mcp.json", theirs);
    let path = fx.root().join(".vscode/mcp.json");
    let run = fx.run(&["setup", "mcp", "--client", "vscode"]);
    run.expect_code(0);
    run.expect_stdout_has("registered scout mcp");
    let written = std::fs::read_to_string(&path).unwrap();
    // What came before scout's entry, comments and trailing commas too,
    // is as it was.
    let before = &theirs[..theirs.find("  },\n  \"inputs\"").unwrap()];
    assert!(written.starts_with(before), "{written}");
    assert!(
        written.ends_with("  },\n  \"inputs\": [],\n}\n"),
        "{written}"
    );
    let options = jsonc_parser::ParseOptions::default();
    let value = jsonc_parser::cst::CstRootNode::parse(&written, &options)
        .unwrap()
        .to_serde_value()
        .unwrap();
    assert_eq!(value["servers"]["scout"]["command"], exe);
    assert_eq!(
        value["servers"]["scout"]["args"],
        serde_json::json!(["mcp"])
    );
    assert_eq!(value["servers"]["db"]["command"], "db-mcp");
    fx.run(&["doctor"])
        .expect_stdout_has("scout mcp is registered for vscode (.vscode/mcp.json)");
    fx.run(&["setup", "mcp", "--client", "vscode"])
        .expect_stdout_has("already registered");
    fx.run(&["setup", "mcp", "--client", "vscode", "--remove"])
        .expect_code(0);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), theirs);
}

/// #51: `scout setup` replaced a symlinked file by a regular one (the
/// link's target never saw the change, and `--remove` left the link
/// gone). Each file is written through its link, which stays a link.
#[test]
fn regression_51_setup_writes_through_symlinks_and_keeps_them() {
    let fx = project();
    let is_link = |path: &std::path::Path| {
        std::fs::symlink_metadata(path)
            .unwrap()
            .file_type()
            .is_symlink()
    };
    // AGENTS.md -> CLAUDE.md.
    fx.write("CLAUDE.md", "# Project\n");
    std::os::unix::fs::symlink("CLAUDE.md", fx.root().join("AGENTS.md")).unwrap();
    fx.run(&["setup", "agents-md"]).expect_code(0);
    assert!(is_link(&fx.root().join("AGENTS.md")));
    let claude = std::fs::read_to_string(fx.root().join("CLAUDE.md")).unwrap();
    assert!(claude.contains("scout:begin"), "{claude}");
    fx.run(&["setup", "agents-md", "--remove"]).expect_code(0);
    assert!(is_link(&fx.root().join("AGENTS.md")));
    assert_eq!(
        std::fs::read_to_string(fx.root().join("CLAUDE.md")).unwrap(),
        "# Project\n"
    );
    // Settings linked into a dotfiles folder, by a relative link.
    let dotfiles = fx.root().join("dotfiles");
    std::fs::create_dir_all(&dotfiles).unwrap();
    std::fs::rename(
        fx.root().join(".claude/settings.json"),
        dotfiles.join("settings.json"),
    )
    .unwrap();
    std::os::unix::fs::symlink(
        "../dotfiles/settings.json",
        fx.root().join(".claude/settings.json"),
    )
    .unwrap();
    fx.run(&["setup", "claude"]).expect_code(0);
    assert!(is_link(&fx.root().join(".claude/settings.json")));
    let linked = std::fs::read_to_string(dotfiles.join("settings.json")).unwrap();
    assert!(linked.contains("hook PostToolUse"), "{linked}");
    fx.run(&["setup", "claude", "--remove"]).expect_code(0);
    assert!(is_link(&fx.root().join(".claude/settings.json")));
    assert!(!std::fs::read_to_string(dotfiles.join("settings.json"))
        .unwrap()
        .contains("hook PostToolUse"));
    // .mcp.json linked, and hard-linked: both stay what they were.
    fx.write("shared-mcp.json", "{}\n");
    std::os::unix::fs::symlink("shared-mcp.json", fx.root().join(".mcp.json")).unwrap();
    std::fs::hard_link(
        fx.root().join("shared-mcp.json"),
        fx.root().join("copy-mcp.json"),
    )
    .unwrap();
    fx.run(&["setup", "mcp", "--client", "claude"])
        .expect_code(0);
    assert!(is_link(&fx.root().join(".mcp.json")));
    let copy = std::fs::read_to_string(fx.root().join("copy-mcp.json")).unwrap();
    assert!(copy.contains("\"scout\""), "{copy}");
}
