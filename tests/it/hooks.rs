//! `scout hook`: payloads shaped as Claude Code sends them (Read, Bash,
//! Grep; lead and subagent) drive the real binary. Reads enter the
//! session memory, rules warn and never block, and every failure exits 0
//! with no output and one log line.

use crate::trees::widget_uses;
use crate::util::{Fixture, Run};
use serde_json::{json, Value};

const SESSION: &str = "3f1c2a9e-hooks";

/// A fixture whose searches run in the hooks' session.
fn in_session() -> Fixture {
    let mut fx = Fixture::new();
    fx.set_env("SCOUT_SESSION_ID", SESSION);
    fx
}

/// The common fields of every payload (the reference's "common input
/// fields"), plus the event and the tool call.
fn payload(fx: &Fixture, event: &str, tool: &str, input: Value, response: Option<Value>) -> Value {
    let mut p = json!({
        "session_id": SESSION,
        "transcript_path": "/home/u/.claude/projects/p/3f1c2a9e-hooks.jsonl",
        "cwd": fx.root(),
        "permission_mode": "default",
        "hook_event_name": event,
        "tool_name": tool,
        "tool_input": input,
        "tool_use_id": format!("toolu_{}", tool),
    });
    if let Some(response) = response {
        p["tool_response"] = response;
    }
    p
}

/// The Read tool's PostToolUse response for `lines` of `path`.
fn read_response(fx: &Fixture, path: &str, start: u64, lines: u64, total: u64) -> Value {
    json!({"type": "text", "file": {
        "filePath": fx.root().join(path), "content": "...",
        "numLines": lines, "startLine": start, "totalLines": total}})
}

fn hook(fx: &Fixture, event: &str, payload: &Value) -> Run {
    fx.run_with_stdin(&["hook", event], payload.to_string().as_bytes())
}

/// The warning a hook added to the agent's context, if any; asserts the
/// answer only adds context (never a decision).
fn warning(run: &Run) -> Option<String> {
    run.expect_code(0);
    assert_eq!(run.stderr(), "", "{}", run.describe());
    if run.stdout().is_empty() {
        return None;
    }
    let answer: Value = serde_json::from_str(&run.stdout()).expect("one JSON answer");
    let specific = answer["hookSpecificOutput"]
        .as_object()
        .expect("hookSpecificOutput");
    assert_eq!(answer.as_object().unwrap().len(), 1, "{answer}");
    assert_eq!(
        specific.len(),
        2,
        "only hookEventName and additionalContext: {answer}"
    );
    Some(specific["additionalContext"].as_str().unwrap().to_string())
}

fn log_lines(fx: &Fixture) -> Vec<String> {
    std::fs::read_to_string(fx.home.path().join("state/scout/hooks.log"))
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn a_read_then_a_search_collapses_what_was_read() {
    let fx = in_session();
    widget_uses(&fx);
    let read = payload(
        &fx,
        "PostToolUse",
        "Read",
        json!({"file_path": fx.root().join("src/core.py")}),
        Some(read_response(&fx, "src/core.py", 1, 3, 3)),
    );
    assert_eq!(warning(&hook(&fx, "PostToolUse", &read)), None);
    let search = fx.run(&["search", "Widget"]);
    search.expect_code(0);
    search.expect_stdout_has("src/core.py  (2x) [def]: 2 already shown, unchanged\n  seen 1: class Widget:\n  seen 3: return Widget()\n");
    assert!(log_lines(&fx).is_empty(), "{:?}", log_lines(&fx));
}

#[test]
fn a_shell_read_then_a_search_collapses_what_was_read() {
    let fx = in_session();
    widget_uses(&fx);
    for command in ["sed -n '1,3p' src/core.py", "cat src/m00.py | head -n 1"] {
        let bash = payload(
            &fx,
            "PostToolUse",
            "Bash",
            json!({"command": command, "description": "Show the file"}),
            Some(json!({"stdout": "...", "stderr": "", "interrupted": false, "isImage": false})),
        );
        assert_eq!(warning(&hook(&fx, "PostToolUse", &bash)), None);
    }
    let search = fx.run(&["search", "Widget"]);
    search.expect_stdout_has("src/core.py  (2x) [def]: 2 already shown, unchanged\n  seen 1: class Widget:\n  seen 3: return Widget()\n");
    // Only the line `head -n 1` let through.
    let out = search.stdout();
    assert!(out.contains("src/m00.py"), "{}", search.describe());
    assert!(
        out.contains("w1 = Widget()  # use 0.1"),
        "{}",
        search.describe()
    );
}

#[test]
fn a_reread_warns_naming_the_lines_and_an_edit_ends_it() {
    let fx = in_session();
    widget_uses(&fx);
    let input = json!({"file_path": fx.root().join("src/core.py"), "offset": 1, "limit": 3});
    let pre = payload(&fx, "PreToolUse", "Read", input.clone(), None);
    assert_eq!(
        warning(&hook(&fx, "PreToolUse", &pre)),
        None,
        "nothing read yet"
    );
    let post = payload(
        &fx,
        "PostToolUse",
        "Read",
        input,
        Some(read_response(&fx, "src/core.py", 1, 3, 3)),
    );
    hook(&fx, "PostToolUse", &post).expect_code(0);
    let again = warning(&hook(&fx, "PreToolUse", &pre)).expect("a reread warns");
    assert!(
        again.contains("lines 1-3 of src/core.py are already in this session's context"),
        "{again}"
    );
    assert!(again.contains("s ago"), "{again}");
    // The same lines through the shell warn too.
    let cat = payload(
        &fx,
        "PreToolUse",
        "Bash",
        json!({"command": "cat src/core.py"}),
        None,
    );
    assert!(warning(&hook(&fx, "PreToolUse", &cat)).is_some());
    // Once the file changes, reading it is no reread.
    fx.write("src/core.py", "class Widget:\n    pass\n");
    assert_eq!(warning(&hook(&fx, "PreToolUse", &pre)), None);
}

#[test]
fn the_reread_rule_can_be_turned_off() {
    let fx = in_session();
    widget_uses(&fx);
    let input = json!({"file_path": fx.root().join("src/core.py")});
    let post = payload(
        &fx,
        "PostToolUse",
        "Read",
        input.clone(),
        Some(read_response(&fx, "src/core.py", 1, 3, 3)),
    );
    hook(&fx, "PostToolUse", &post).expect_code(0);
    let pre = payload(&fx, "PreToolUse", "Read", input, None);
    assert!(warning(&hook(&fx, "PreToolUse", &pre)).is_some());
    let config = fx.home.path().join(".config/scout/hooks.json");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(&config, r#"{"rules": {"reread": "off"}}"#).unwrap();
    assert_eq!(warning(&hook(&fx, "PreToolUse", &pre)), None);
}

fn big_tree(fx: &Fixture) {
    for i in 0..210 {
        fx.write(format!("pkg/f{i:03}.rs"), format!("fn f{i}() {{}}\n"));
    }
}

#[test]
fn an_unbudgeted_search_warns_and_a_budgeted_one_does_not() {
    let fx = in_session();
    big_tree(&fx);
    let bash = |command: &str| {
        let p = payload(&fx, "PreToolUse", "Bash", json!({"command": command}), None);
        warning(&hook(&fx, "PreToolUse", &p))
    };
    let w = bash("rg -n 'fn f1'").expect("unbudgeted rg warns");
    assert!(w.contains("scout search 'fn f1'"), "{w}");
    assert!(bash("grep -rn 'fn f1' .").is_some());
    for budgeted in [
        "rg -n -m 3 'fn f1'",
        "rg -l 'fn f1'",
        "rg 'fn f1' pkg",
        "rg 'fn f1' | head -20",
    ] {
        assert_eq!(bash(budgeted), None, "{budgeted}");
    }
    let grep = |input: Value| {
        let p = payload(&fx, "PreToolUse", "Grep", input, None);
        warning(&hook(&fx, "PreToolUse", &p))
    };
    assert!(grep(json!({"pattern": "fn f1", "output_mode": "content", "-n": true})).is_some());
    assert_eq!(
        grep(json!({"pattern": "fn f1", "output_mode": "content", "head_limit": 20})),
        None
    );
    assert_eq!(
        grep(json!({"pattern": "fn f1"})),
        None,
        "file names are a limit"
    );
}

#[test]
fn a_small_tree_gets_no_search_warning() {
    let fx = in_session();
    widget_uses(&fx);
    let p = payload(
        &fx,
        "PreToolUse",
        "Bash",
        json!({"command": "rg Widget"}),
        None,
    );
    assert_eq!(warning(&hook(&fx, "PreToolUse", &p)), None);
}

/// Exit 0, no stdout, no stderr.
fn quiet(run: &Run) {
    run.expect_code(0);
    assert_eq!(run.stdout(), "", "{}", run.describe());
    assert_eq!(run.stderr(), "", "{}", run.describe());
}

#[test]
fn every_failure_exits_0_silently_with_one_log_line() {
    let fx = in_session();
    widget_uses(&fx);
    let read = payload(
        &fx,
        "PostToolUse",
        "Read",
        json!({"file_path": fx.root().join("src/core.py")}),
        Some(read_response(&fx, "src/core.py", 1, 3, 3)),
    );
    let cases: Vec<(Vec<&str>, Vec<u8>)> = vec![
        (vec!["hook", "PostToolUse"], b"{not json".to_vec()),
        (vec!["hook", "PostToolUse"], b"".to_vec()),
        (vec!["hook", "Stop"], read.to_string().into_bytes()),
        (vec!["hook"], read.to_string().into_bytes()),
        (
            vec!["hook", "PostToolUse", "--bogus"],
            read.to_string().into_bytes(),
        ),
        (vec!["hook", "PreToolUse"], read.to_string().into_bytes()),
    ];
    for (i, (args, stdin)) in cases.iter().enumerate() {
        quiet(&fx.run_with_stdin(args, stdin));
        assert_eq!(
            log_lines(&fx).len(),
            i + 1,
            "{args:?}: {:?}",
            log_lines(&fx)
        );
    }
    // A broken configuration file.
    let config = fx.home.path().join(".config/scout/hooks.json");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(&config, "{\"rules\": ").unwrap();
    quiet(&hook(&fx, "PostToolUse", &read));
    let log = log_lines(&fx);
    assert_eq!(log.len(), cases.len() + 1);
    assert!(log.last().unwrap().contains("hooks.json"), "{log:?}");
    std::fs::remove_file(&config).unwrap();
    // A memory file locked by another process.
    let seen = fx.home.path().join("state/scout/seen");
    std::fs::create_dir_all(&seen).unwrap();
    quiet(&hook(&fx, "PostToolUse", &read));
    let lock_path = std::fs::read_dir(&seen)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "lock"))
        .expect("a lock file");
    let lock = std::fs::File::create(&lock_path).unwrap();
    lock.lock().unwrap();
    let before = log_lines(&fx).len();
    quiet(&hook(&fx, "PostToolUse", &read));
    drop(lock);
    assert_eq!(log_lines(&fx).len(), before + 1, "{:?}", log_lines(&fx));
    // An unreadable memory file: not a scout file, so it is not trusted.
    let memory = lock_path.with_extension("json");
    std::fs::write(&memory, "\0garbage").unwrap();
    let pre = payload(
        &fx,
        "PreToolUse",
        "Read",
        json!({"file_path": fx.root().join("src/core.py")}),
        None,
    );
    quiet(&hook(&fx, "PreToolUse", &pre));
    assert_eq!(log_lines(&fx).len(), before + 2);
    // A state directory that cannot be written (as on a full disk).
    let mut blocked = Fixture::new();
    blocked.set_env("SCOUT_SESSION_ID", SESSION);
    widget_uses(&blocked);
    std::fs::write(blocked.home.path().join("state"), "a file, not a directory").unwrap();
    let read = payload(
        &blocked,
        "PostToolUse",
        "Read",
        json!({"file_path": blocked.root().join("src/core.py")}),
        Some(read_response(&blocked, "src/core.py", 1, 3, 3)),
    );
    quiet(&hook(&blocked, "PostToolUse", &read));
}

#[test]
fn a_missing_file_or_another_tool_is_no_failure() {
    let fx = in_session();
    widget_uses(&fx);
    let missing = payload(
        &fx,
        "PreToolUse",
        "Read",
        json!({"file_path": fx.root().join("nope.py")}),
        None,
    );
    quiet(&hook(&fx, "PreToolUse", &missing));
    let edit = payload(
        &fx,
        "PostToolUse",
        "Edit",
        json!({"file_path": fx.root().join("src/core.py"), "old_string": "a", "new_string": "b"}),
        Some(json!({"success": true})),
    );
    quiet(&hook(&fx, "PostToolUse", &edit));
    assert!(log_lines(&fx).is_empty(), "{:?}", log_lines(&fx));
}

/// `payload` as a subagent sends it: the lead's session id, plus
/// `agent_id` and `agent_type`.
fn from_agent(mut p: Value, agent: &str, call: &str) -> Value {
    p["agent_id"] = json!(agent);
    p["agent_type"] = json!("general-purpose");
    p["tool_use_id"] = json!(call);
    p
}

fn read_post(fx: &Fixture) -> Value {
    payload(
        fx,
        "PostToolUse",
        "Read",
        json!({"file_path": fx.root().join("src/core.py")}),
        Some(read_response(fx, "src/core.py", 1, 3, 3)),
    )
}

fn read_pre(fx: &Fixture) -> Value {
    payload(
        fx,
        "PreToolUse",
        "Read",
        json!({"file_path": fx.root().join("src/core.py")}),
        None,
    )
}

#[test]
fn two_subagents_and_the_lead_do_not_share_memory() {
    let fx = in_session();
    widget_uses(&fx);
    hook(
        &fx,
        "PostToolUse",
        &from_agent(read_post(&fx), "agent-a", "toolu_a1"),
    )
    .expect_code(0);
    // agent-a has these lines; agent-b and the lead do not.
    let pre = read_pre(&fx);
    assert!(warning(&hook(
        &fx,
        "PreToolUse",
        &from_agent(pre.clone(), "agent-a", "toolu_a2")
    ))
    .is_some());
    assert_eq!(
        warning(&hook(
            &fx,
            "PreToolUse",
            &from_agent(pre.clone(), "agent-b", "toolu_b1")
        )),
        None
    );
    assert_eq!(warning(&hook(&fx, "PreToolUse", &pre)), None);
    // The lead's search (no pending note) does not collapse the subagent's read.
    let search = fx.run(&["search", "Widget"]);
    assert!(
        !search.stdout().contains("already shown"),
        "{}",
        search.describe()
    );
}

/// The hook's PreToolUse for a Bash call of `command` by `agent` (lead
/// when `None`).
fn bash_pre(fx: &Fixture, command: &str, agent: Option<&str>, call: &str) -> Value {
    let p = payload(
        fx,
        "PreToolUse",
        "Bash",
        json!({"command": command, "description": "search"}),
        None,
    );
    match agent {
        Some(agent) => from_agent(p, agent, call),
        None => {
            let mut p = p;
            p["tool_use_id"] = json!(call);
            p
        }
    }
}

fn bash_post(fx: &Fixture, command: &str, agent: Option<&str>, call: &str) -> Value {
    let mut p = bash_pre(fx, command, agent, call);
    p["hook_event_name"] = json!("PostToolUse");
    p["tool_response"] =
        json!({"stdout": "", "stderr": "", "interrupted": false, "isImage": false});
    p
}

#[test]
fn a_scout_run_by_a_subagent_uses_that_subagents_memory() {
    let fx = in_session();
    widget_uses(&fx);
    hook(
        &fx,
        "PostToolUse",
        &from_agent(read_post(&fx), "agent-a", "toolu_a1"),
    )
    .expect_code(0);
    let command = "scout search Widget";
    quiet(&hook(
        &fx,
        "PreToolUse",
        &bash_pre(&fx, command, Some("agent-a"), "toolu_a2"),
    ));
    // While agent-a's Bash call is running, scout inside it is agent-a's.
    let search = fx.run(&["search", "Widget"]);
    search.expect_stdout_has("src/core.py  (2x) [def]: 2 already shown, unchanged\n  seen 1: class Widget:\n  seen 3: return Widget()\n");
    quiet(&hook(
        &fx,
        "PostToolUse",
        &bash_post(&fx, command, Some("agent-a"), "toolu_a2"),
    ));
    // Once it ended, a scout is the lead's again, whose memory lacks them.
    let lead = fx.run(&["search", "Widget"]);
    assert!(
        !lead
            .stdout()
            .contains("src/core.py  (2x) [def]: 2 already shown"),
        "{}",
        lead.describe()
    );
}

#[test]
fn when_two_agents_could_be_running_scout_it_neither_collapses_nor_records() {
    let fx = in_session();
    widget_uses(&fx);
    hook(&fx, "PostToolUse", &read_post(&fx)).expect_code(0);
    let command = "scout search Widget";
    quiet(&hook(
        &fx,
        "PreToolUse",
        &bash_pre(&fx, command, None, "toolu_l1"),
    ));
    quiet(&hook(
        &fx,
        "PreToolUse",
        &bash_pre(&fx, command, Some("agent-a"), "toolu_a1"),
    ));
    let unsure = fx.run(&["search", "Widget"]);
    unsure.expect_code(0);
    assert!(
        !unsure.stdout().contains("already shown"),
        "{}",
        unsure.describe()
    );
    let memory = fx.run(&["memory", "show"]);
    memory.expect_code(2);
    memory.expect_stderr_has("scout cannot tell which one runs it");
    fx.run(&["doctor"])
        .expect_stdout_has("ok    session: two agents' commands");
    // A failed call closes its note too.
    let mut failed = bash_post(&fx, command, Some("agent-a"), "toolu_a1");
    failed["hook_event_name"] = json!("PostToolUseFailure");
    failed.as_object_mut().unwrap().remove("tool_response");
    failed["error"] = json!("Exit code 1");
    quiet(&hook(&fx, "PostToolUseFailure", &failed));
    // Now only the lead's call is open: its memory collapses core.py, and
    // the unsure search recorded nothing (m00.py shows in full).
    let lead = fx.run(&["search", "Widget"]);
    lead.expect_stdout_has("src/core.py  (2x) [def]: 2 already shown, unchanged\n  seen 1: class Widget:\n  seen 3: return Widget()\n");
    assert_eq!(
        lead.header_field("already_shown").as_deref(),
        Some("2"),
        "{}",
        lead.describe()
    );
    // Arguments tell two agents' scout calls apart.
    quiet(&hook(
        &fx,
        "PreToolUse",
        &bash_pre(&fx, "scout search spin", Some("agent-b"), "toolu_b1"),
    ));
    let still_lead = fx.run(&["search", "Widget"]);
    still_lead.expect_stdout_has("src/core.py  (2x) [def]: 2 already shown");
}

#[test]
fn scout_read_joins_the_memory_and_again_shows_everything() {
    let fx = in_session();
    let body: String = (1..=30).map(|i| format!("line {i}\n")).collect();
    fx.write("notes.txt", &body);
    let first = fx.run(&["read", "notes.txt", "--range", "1:10"]);
    first.expect_code(0);
    assert_eq!(first.lines().len(), 11, "{}", first.describe());
    let second = fx.run(&["read", "notes.txt", "--range", "1:20"]);
    second.expect_code(0);
    assert_eq!(
        second.lines()[1],
        "1-10: already in this session's context, unchanged (10 lines): scout read notes.txt --range 1:10 --again"
    );
    assert_eq!(second.lines()[2], "11: line 11");
    let again = fx.run(&["read", "notes.txt", "--range", "1:20", "--again"]);
    assert_eq!(again.lines().len(), 21, "{}", again.describe());
    // What the harness's Read returned collapses too, and what scout read
    // printed is in the memory (for a later search to collapse).
    fx.write(
        "src/core.py",
        "class Widget:\n    def spin(self):\n        return Widget()\n",
    );
    hook(&fx, "PostToolUse", &read_post(&fx)).expect_code(0);
    let read = fx.run(&["read", "src/core.py"]);
    read.expect_stdout_has("1-3: already in this session's context");
    let memory = fx.run(&["memory", "show"]);
    memory.expect_stdout_has("notes.txt  20 lines: 1-20");
    // Outside a session nothing collapses.
    let mut outside = Fixture::new();
    outside.env.clear();
    outside.write("notes.txt", &body);
    outside.run(&["read", "notes.txt"]).expect_code(0);
    assert_eq!(outside.run(&["read", "notes.txt"]).lines().len(), 31);
}

#[test]
fn session_start_exports_the_session_id_to_later_bash_commands() {
    // Not in a session by environment: as in Claude Code's Bash tool.
    let mut fx = Fixture::new();
    widget_uses(&fx);
    let env_file = fx.home.path().join("session-env/hook-0.sh");
    std::fs::create_dir_all(env_file.parent().unwrap()).unwrap();
    fx.set_env("CLAUDE_ENV_FILE", &env_file);
    let start = json!({
        "session_id": SESSION, "transcript_path": "/t.jsonl", "cwd": fx.root(),
        "hook_event_name": "SessionStart", "source": "startup", "model": "claude-opus-4"
    });
    quiet(&hook(&fx, "SessionStart", &start));
    quiet(&hook(&fx, "SessionStart", &start));
    let exported = std::fs::read_to_string(&env_file).unwrap();
    assert_eq!(exported, format!("export SCOUT_SESSION_ID={SESSION}\n"));
    hook(&fx, "PostToolUse", &read_post(&fx)).expect_code(0);
    // What Claude Code does before each Bash command: source the file.
    let output = fx
        .command(&[])
        .env_remove("CLAUDE_ENV_FILE")
        .after_sourcing(&env_file, &["search", "Widget"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("src/core.py  (2x) [def]: 2 already shown, unchanged\n  seen 1: class Widget:\n  seen 3: return Widget()\n"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Without CLAUDE_ENV_FILE there is nowhere to export to: logged.
    let bare = in_session();
    quiet(&hook(&bare, "SessionStart", &start));
    assert_eq!(log_lines(&bare).len(), 1, "{:?}", log_lines(&bare));
}

/// Runs `scout ARGS` through `sh`, after sourcing `env_file`.
trait AfterSourcing {
    fn after_sourcing(&mut self, env_file: &std::path::Path, args: &[&str]) -> &mut Self;
}

impl AfterSourcing for std::process::Command {
    fn after_sourcing(&mut self, env_file: &std::path::Path, args: &[&str]) -> &mut Self {
        let mut shell = std::process::Command::new("/bin/sh");
        shell
            .arg("-c")
            .arg(format!(". '{}' && exec \"$0\" \"$@\"", env_file.display()));
        shell.arg(self.get_program()).args(args);
        if let Some(dir) = self.get_current_dir() {
            shell.current_dir(dir);
        }
        shell.env_clear();
        for (k, v) in self.get_envs() {
            if let Some(v) = v {
                shell.env(k, v);
            }
        }
        *self = shell;
        self
    }
}

#[test]
fn a_full_stdout_is_logged_and_still_exit_0() {
    let fx = in_session();
    widget_uses(&fx);
    hook(&fx, "PostToolUse", &read_post(&fx)).expect_code(0);
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let mut child = fx
        .command(&["hook", "PreToolUse"])
        .stdin(std::process::Stdio::piped())
        .stdout(full)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(read_pre(&fx).to_string().as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(output.stderr, b"");
    let log = log_lines(&fx);
    assert_eq!(log.len(), 1, "{log:?}");
    assert!(log[0].contains("writing the answer"), "{log:?}");
}
