//! `scout mcp` (#25): the real binary spoken to over JSON-RPC on its
//! stdin and stdout, as an MCP client speaks to it.

use crate::util;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use crate::util::Fixture;
use serde_json::{json, Value};

/// A client connection to one `scout mcp` process.
struct Client {
    child: Child,
    /// `None` once the client closed the session.
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line the server wrote, in order.
    seen: Vec<Value>,
    next_id: u64,
}

impl Client {
    /// Starts `scout mcp` in the fixture's tree and completes the
    /// handshake; `capabilities` are the client's.
    fn start(fx: &Fixture, capabilities: Value) -> Client {
        Client::start_in(fx.command(&["mcp"]), capabilities)
    }

    fn start_in(mut command: Command, capabilities: Value) -> Client {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("scout mcp starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut client = Client {
            child,
            stdin: Some(stdin),
            lines,
            seen: Vec::new(),
            next_id: 1,
        };
        let init = client.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": capabilities,
                   "clientInfo": {"name": "scout-tests", "version": "0"}}),
        );
        let answer = client.answer(init);
        assert_eq!(answer["result"]["serverInfo"]["name"], "scout", "{answer}");
        client.notify("notifications/initialized", json!({}));
        client
    }

    fn send(&mut self, message: Value) {
        self.write_line(&message.to_string());
    }

    /// Writes one line to the server, as it is.
    fn write_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("the session is open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Closes the session (the server's stdin) and waits for the server.
    fn close(mut self) -> std::process::ExitStatus {
        self.stdin = None;
        self.child.wait().unwrap()
    }

    /// Sends a request; returns its id.
    fn request(&mut self, method: &str, params: Value) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next line the server writes, within `wait`.
    fn next(&mut self, wait: Duration) -> Option<Value> {
        let line = self.lines.recv_timeout(wait).ok()?;
        let value: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("not a JSON-RPC message ({e}): {line:?}"));
        assert_eq!(value["jsonrpc"], "2.0", "{line}");
        self.seen.push(value.clone());
        Some(value)
    }

    /// The response to request `id` (answering any `roots/list` request
    /// of the server with `roots` on the way).
    fn answer(&mut self, id: u64) -> Value {
        self.answer_with_roots(id, &[])
    }

    fn answer_with_roots(&mut self, id: u64, roots: &[String]) -> Value {
        if let Some(done) = self
            .seen
            .iter()
            .find(|m| m["id"] == id && m.get("method").is_none())
        {
            return done.clone();
        }
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            let Some(message) = self.next(Duration::from_secs(30)) else {
                break;
            };
            if message["method"] == "roots/list" {
                let list: Vec<Value> = roots.iter().map(|uri| json!({"uri": uri})).collect();
                let id = message["id"].clone();
                self.send(json!({"jsonrpc": "2.0", "id": id, "result": {"roots": list}}));
                continue;
            }
            if message["id"] == id && message.get("method").is_none() {
                return message;
            }
        }
        panic!("no answer to request {id}; saw {:?}", self.seen);
    }

    /// Calls a tool and waits for its result.
    fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let id = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        let answer = self.answer(id);
        answer["result"].clone()
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether the server makes its Linux-only calls (each call's thread in
/// its own root); not when the suite runs as on macOS
/// (`SCOUT_INTERNAL_PORTABLE`, which `util::passed_on` hands scout).
fn linux_calls() -> bool {
    std::env::var_os("SCOUT_INTERNAL_PORTABLE").is_none()
}

/// The text content of a tool result.
fn text(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text content: {result}"))
        .to_string()
}

/// A page's header milliseconds, which vary by run.
fn masked(text: &str) -> String {
    regex::Regex::new(r" \d+ms\b")
        .unwrap()
        .replace_all(text, " Nms")
        .into_owned()
}

fn tree(fx: &Fixture) {
    fx.write(
        "src/core.py",
        "class Widget:\n    def spin(self):\n        return Widget()\n",
    );
    for i in 0..30 {
        fx.write(
            format!("src/m{i:02}.py"),
            format!(
                "from core import Widget\nw = Widget()  # use {i} of the widget in this module\n"
            ),
        );
    }
}

#[test]
fn tools_list_is_small_and_names_the_five_tools() {
    let fx = Fixture::new();
    let mut client = Client::start(&fx, json!({}));
    let id = client.request("tools/list", json!({}));
    let answer = client.answer(id);
    // The whole response, as it sits in the model's context (#25).
    let bytes = answer.to_string().len();
    assert!(bytes <= 2_500, "tools/list is {bytes} bytes");
    let tools = answer["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["search", "smart", "grep", "files", "read"]);
    for tool in tools {
        assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
        assert_eq!(tool["outputSchema"]["type"], "object", "{tool}");
        assert!(!tool["description"].as_str().unwrap().is_empty());
    }
}

#[test]
fn allow_edit_adds_a_destructive_edit_tool_and_plain_mcp_refuses_it() {
    let fx = Fixture::new();
    fx.write("a.py", "print(1)\n");
    let mut plain = Client::start(&fx, json!({}));
    let id = plain.request(
        "tools/call",
        json!({"name": "edit", "arguments": {"old": "1", "new": "2", "path": "a.py"}}),
    );
    let refused = plain.answer(id);
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("--allow-edit"),
        "{refused}"
    );
    assert_eq!(
        std::fs::read_to_string(fx.root().join("a.py")).unwrap(),
        "print(1)\n"
    );

    let mut client = Client::start_in(fx.command(&["mcp", "--allow-edit"]), json!({}));
    let id = client.request("tools/list", json!({}));
    let answer = client.answer(id);
    let tools = answer["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["search", "smart", "grep", "files", "read", "edit"]);
    let edit = &tools[5];
    assert_eq!(edit["annotations"]["destructiveHint"], true, "{edit}");
    assert_eq!(edit["annotations"]["readOnlyHint"], false, "{edit}");
    let id = client.request(
        "tools/call",
        json!({"name": "edit", "arguments": {"old": "1", "new": "2", "path": "a.py"}}),
    );
    let result = client.answer(id);
    assert_eq!(result["result"]["structuredContent"]["exit"], 0, "{result}");
    assert!(
        result["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("+1: print(2)"),
        "{result}"
    );
    assert_eq!(
        std::fs::read_to_string(fx.root().join("a.py")).unwrap(),
        "print(2)\n"
    );
}

#[test]
fn the_protocol_version_is_negotiated() {
    let fx = Fixture::new();
    // A client that speaks 2025-06-18 gets it (Client::start checks the
    // handshake); one from the future is offered a version the server
    // speaks.
    drop(Client::start(&fx, json!({})));
    let mut child = fx
        .command(&["mcp"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(
        stdin,
        "{}",
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
               "params": {"protocolVersion": "2099-01-01", "capabilities": {},
                          "clientInfo": {"name": "t", "version": "0"}}})
    )
    .unwrap();
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    let line = String::from_utf8_lossy(&output.stdout);
    let answer: Value = serde_json::from_str(line.lines().next().unwrap()).unwrap();
    let version = answer["result"]["protocolVersion"].as_str().unwrap();
    assert!(
        version.starts_with("20") && version != "2099-01-01",
        "{answer}"
    );
}

#[test]
fn each_tool_answers_the_commands_text_and_its_json() {
    let fx = Fixture::new();
    tree(&fx);
    let mut client = Client::start(&fx, json!({}));
    let cases = [
        (
            "search",
            json!({"query": "Widget", "again": true}),
            vec!["search", "--again", "-e", "Widget"],
        ),
        (
            "smart",
            json!({"query": "spin the widget"}),
            vec!["smart", "spin the widget"],
        ),
        (
            "grep",
            json!({"pattern": "class", "output_mode": "content"}),
            vec!["grep", "--output-mode", "content", "class"],
        ),
        (
            "files",
            json!({"pattern": "*.py", "limit": 2}),
            vec!["files", "*.py", "--limit", "2"],
        ),
        (
            "read",
            json!({"path": "src/core.py", "symbol": "spin"}),
            vec!["read", "src/core.py", "--symbol", "spin"],
        ),
    ];
    for (tool, arguments, argv) in cases {
        let result = client.call(tool, arguments.clone());
        assert_eq!(result["isError"], false, "{tool}: {result}");
        let printed = fx.run(&argv);
        assert_eq!(
            masked(&text(&result)),
            masked(&printed.stdout()),
            "{tool} {arguments}"
        );
        let structured = &result["structuredContent"];
        assert_eq!(structured["exit"], printed.code(), "{tool}: {structured}");
        assert!(
            structured.get("text").is_none(),
            "{tool}: the text is the content"
        );
    }
    let search = client.call("search", json!({"query": "Widget", "again": true}));
    let document = &search["structuredContent"]["result"];
    assert_eq!(document["hits"], 62);
    assert_eq!(document["results"][0]["path"], "src/core.py");
}

#[test]
fn errors_are_tool_results_worded_as_on_the_command_line() {
    let fx = Fixture::new();
    tree(&fx);
    let mut client = Client::start(&fx, json!({}));
    // `--kind auto` reads `(Widget` as code (#34); as a regex it is bad.
    let regex = client.call("search", json!({"query": "(Widget", "kind": "regex"}));
    assert_eq!(regex["isError"], true, "{regex}");
    assert!(
        text(&regex).contains("use -F: scout search -F '(Widget'"),
        "{regex}"
    );
    let missing = client.call("grep", json!({"pattern": "x", "path": "nope"}));
    assert_eq!(missing["isError"], true, "{missing}");
    let cli = fx.run(&["grep", "x", "nope"]);
    assert!(
        cli.stderr().contains(&text(&missing)),
        "{missing}\n{}",
        cli.describe()
    );
    let unknown = client.call("search", json!({"query": "x", "colour": "red"}));
    assert_eq!(unknown["isError"], true);
    assert!(
        text(&unknown).contains("unknown field \"colour\""),
        "{unknown}"
    );
    // A tool that does not exist is a protocol error.
    let id = client.request("tools/call", json!({"name": "nope", "arguments": {}}));
    let answer = client.answer(id);
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
}

#[test]
fn paths_outside_the_roots_are_refused_naming_them() {
    let fx = Fixture::new();
    tree(&fx);
    std::fs::create_dir_all(fx.root().join("elsewhere")).unwrap();
    std::fs::write(fx.root().join("elsewhere/secret.py"), "Widget = 1\n").unwrap();
    std::os::unix::fs::symlink(fx.root().join("elsewhere"), fx.root().join("src/link")).unwrap();
    let root = fx.root().join("src");
    let uri = format!("file://{}", root.display());
    let mut client = Client::start(&fx, json!({"roots": {"listChanged": true}}));
    let id = client.request(
        "tools/call",
        json!({"name": "search", "arguments": {"query": "Widget"}}),
    );
    let inside = client.answer_with_roots(id, std::slice::from_ref(&uri));
    let page = text(&inside["result"]);
    // Relative to the root the client gave: src/, not the server's cwd.
    assert!(page.starts_with("core.py:1:class Widget:\n"), "{page}");
    assert!(!page.contains("secret"), "{page}");
    // The call's thread worked there; the process stayed where it was
    // started (the kernel's view of its main thread). Without the
    // Linux-only calls (as on macOS), the process moved there instead.
    let process_cwd = std::fs::read_link(format!("/proc/{}/cwd", client.child.id())).unwrap();
    let expected = if linux_calls() { fx.root() } else { &root };
    assert_eq!(process_cwd, expected.canonicalize().unwrap());
    for outside in ["../elsewhere", "link", "/etc"] {
        let result = client.call("read", json!({"path": outside}));
        assert_eq!(result["isError"], true, "{outside}: {result}");
        let message = text(&result);
        assert!(
            message.contains("outside the roots") && message.contains(&root.display().to_string()),
            "{outside}: {message}"
        );
    }
    // The file of a PATH#SYMBOL or PATH:LINE is a path too.
    for spec in ["../elsewhere/secret.py#Widget", "/etc/passwd:1"] {
        let result = client.call("search", json!({"callers_of": spec}));
        assert_eq!(result["isError"], true, "{spec}: {result}");
        assert!(
            text(&result).contains("outside the roots"),
            "{spec}: {result}"
        );
    }
    // A working directory of the request's own would take every relative
    // path out of the roots' reach: it is not a tool's parameter.
    let moved = client.call("search", json!({"query": "Widget", "cwd": "/"}));
    assert_eq!(moved["isError"], true, "{moved}");
    assert!(text(&moved).contains("unknown field \"cwd\""), "{moved}");
    // Nor may a call become another request than its tool's: a read-only
    // server's files tool asked to edit.
    fx.write("src/edit-me.py", "a = 1\n");
    let smuggled = client.call(
        "files",
        json!({"mode": "edit", "old": "a = 1", "new": "a = 2", "path": "edit-me.py"}),
    );
    assert_eq!(smuggled["isError"], true, "{smuggled}");
    assert!(
        text(&smuggled).contains("unknown field \"mode\""),
        "{smuggled}"
    );
    assert_eq!(
        std::fs::read_to_string(fx.root().join("src/edit-me.py")).unwrap(),
        "a = 1\n"
    );
    let page = text(&client.call("search", json!({"query": "Widget"})));
    assert!(!page.contains("secret"), "{page}");
}

#[test]
fn a_repeated_search_in_one_connection_prints_only_what_is_new() {
    let fx = Fixture::new();
    tree(&fx);
    let mut client = Client::start(&fx, json!({}));
    let first = text(&client.call("search", json!({"query": "Widget"})));
    let second = text(&client.call("search", json!({"query": "Widget"})));
    assert!(second.len() < first.len(), "{first}\n{second}");
    assert!(second.contains("already shown"), "{second}");
    let again = text(&client.call("search", json!({"query": "Widget", "again": true})));
    assert_eq!(masked(&again), masked(&first));
    // Another connection has a memory of its own.
    let mut other = Client::start(&fx, json!({}));
    let fresh = text(&other.call("search", json!({"query": "Widget"})));
    assert_eq!(masked(&fresh), masked(&first));
}

/// A fixture whose rg takes 30 seconds to start, leaving a marked
/// `sleep` process while it waits.
fn slow_rg(fx: &mut Fixture, marker: &str) {
    let script = rg_script(fx, &format!("sleep {marker}\nexec RG \"$@\""));
    fx.set_env("SCOUT_RG", script);
}

/// An rg in the fixture's root that runs `body` (`RG` standing for the
/// real rg), and the real rg for `--version`.
fn rg_script(fx: &Fixture, body: &str) -> std::path::PathBuf {
    let real = util::rg_dir().join("rg");
    let real = real.display().to_string();
    let script = fx.root().join("fake-rg");
    let body = body.replace("RG", &real);
    std::fs::write(
        &script,
        format!("#!/bin/sh\ncase \"$*\" in *--version*) exec {real} \"$@\";; esac\n{body}\n"),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// Whether a process whose command line holds `marker` is running.
fn running(marker: &str) -> bool {
    std::fs::read_dir("/proc").unwrap().flatten().any(|entry| {
        std::fs::read(entry.path().join("cmdline"))
            .map(|cmd| String::from_utf8_lossy(&cmd).contains(marker))
            .unwrap_or(false)
    })
}

#[test]
fn a_cancelled_call_stops_its_rg_and_others_are_served_meanwhile() {
    let mut fx = Fixture::new();
    tree(&fx);
    let marker = format!("30.{}", std::process::id());
    slow_rg(&mut fx, &marker);
    let mut client = Client::start(&fx, json!({}));
    let slow = client.request(
        "tools/call",
        json!({"name": "search", "arguments": {"query": "Widget"}, "_meta": {"progressToken": "p1"}}),
    );
    // While the slow search waits, another call is answered.
    let read = client.call("read", json!({"path": "src/core.py", "range": "1"}));
    assert_eq!(
        text(&read),
        "src/core.py  (1-1 of 3 lines)\n1: class Widget:\n"
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    while !running(&marker) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(running(&marker), "the slow rg never started");
    // The call is answered in the server's process: no `scout call`
    // child runs it.
    let child = format!("{}\u{0}call", env!("CARGO_BIN_EXE_scout"));
    assert!(!running(&child), "a scout call child runs the search");
    // It asked for progress: it hears that the search is still running.
    let mut progress = None;
    while progress.is_none() && Instant::now() < deadline {
        if let Some(message) = client.next(Duration::from_secs(3)) {
            if message["method"] == "notifications/progress" {
                progress = Some(message);
            }
        }
    }
    let progress = progress.expect("a progress notification");
    assert_eq!(progress["params"]["progressToken"], "p1", "{progress}");
    client.notify(
        "notifications/cancelled",
        json!({"requestId": slow, "reason": "test"}),
    );
    let deadline = Instant::now() + Duration::from_secs(5);
    while running(&marker) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        !running(&marker),
        "the cancelled search's rg is still running"
    );
    // The server still serves, and never answered the cancelled call.
    let after = client.call("read", json!({"path": "src/core.py", "range": "1"}));
    assert_eq!(text(&after), text(&read));
    assert!(!client
        .seen
        .iter()
        .any(|m| m["id"] == slow && m.get("result").is_some()));
}

#[test]
fn a_call_in_new_roots_is_served_while_one_in_the_old_still_runs() {
    if !linux_calls() {
        // Without them the process moves to a call's root, and a call in
        // another waits: `where_a_thread_cannot_have_a_directory_...`.
        eprintln!("skipped: calls in different roots take turns here");
        return;
    }
    let fx = Fixture::new();
    fx.write("slow/a.py", "Widget = 1\n");
    fx.write("fast/b.py", "Widget = 2\n");
    // rg waits 4 seconds when it runs in slow/ (a sleep marked apart
    // from the other tests').
    let marker = format!("4.{}", std::process::id());
    let real = util::rg_dir().join("rg");
    let script = fx.root().join("slow-rg");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ncase \"$(pwd -P)\" in */slow) sleep {marker};; esac\nexec {} \"$@\"\n",
            real.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut command = fx.command(&["mcp"]);
    command.env("SCOUT_RG", &script);
    let mut client = Client::start_in(command, json!({"roots": {"listChanged": true}}));
    let uri = |dir: &str| {
        format!(
            "file://{}",
            fx.root().join(dir).canonicalize().unwrap().display()
        )
    };
    let slow = client.request(
        "tools/call",
        json!({"name": "search", "arguments": {"query": "Widget"}}),
    );
    let asked = client.next(Duration::from_secs(10)).expect("roots/list");
    assert_eq!(asked["method"], "roots/list", "{asked}");
    client.send(
        json!({"jsonrpc": "2.0", "id": asked["id"], "result": {"roots": [{"uri": uri("slow")}]}}),
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    while !running(&marker) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(running(&marker), "the slow rg never started");
    client.notify("notifications/roots/list_changed", json!({}));
    // The notification is handled apart from the calls: once a quick
    // call (a read, no rg) has had the server ask for the roots again,
    // the new ones hold.
    let asked = |client: &Client| {
        client
            .seen
            .iter()
            .filter(|m| m["method"] == "roots/list")
            .count()
    };
    let deadline = Instant::now() + Duration::from_secs(10);
    while asked(&client) < 2 && Instant::now() < deadline {
        let read = client.request(
            "tools/call",
            json!({"name": "read", "arguments": {"path": "b.py", "range": "1"}}),
        );
        client.answer_with_roots(read, &[uri("fast")]);
    }
    assert_eq!(asked(&client), 2, "the roots were not asked again");
    let fast = client.request(
        "tools/call",
        json!({"name": "search", "arguments": {"query": "Widget"}}),
    );
    let answer = client.answer_with_roots(fast, &[uri("fast")]);
    assert!(
        text(&answer["result"]).starts_with("b.py:1:Widget = 2\n"),
        "{answer}"
    );
    // Answered in its own root while the call in the old one still runs.
    assert!(running(&marker), "the slow call ended first");
    // Which then reads its files in its own root, not the newer one.
    let answer = client.answer(slow);
    assert!(
        text(&answer["result"]).starts_with("a.py:1:Widget = 1\n"),
        "{answer}"
    );
}

#[test]
fn where_a_thread_cannot_have_a_directory_of_its_own_the_process_moves() {
    // As in a container whose seccomp profile refuses unshare.
    let fx = Fixture::new();
    tree(&fx);
    let mut command = fx.command(&["mcp"]);
    command.env("SCOUT_INTERNAL_NO_UNSHARE", "1");
    let mut client = Client::start_in(command, json!({"roots": {"listChanged": true}}));
    let root = fx.root().join("src").canonicalize().unwrap();
    let id = client.request(
        "tools/call",
        json!({"name": "search", "arguments": {"query": "Widget"}}),
    );
    let uri = format!("file://{}", root.display());
    let answer = client.answer_with_roots(id, &[uri]);
    let page = text(&answer["result"]);
    assert!(page.starts_with("core.py:1:class Widget:\n"), "{page}");
    let process_cwd = std::fs::read_link(format!("/proc/{}/cwd", client.child.id())).unwrap();
    assert_eq!(process_cwd, root);
}

#[test]
fn a_search_takes_several_paths_each_inside_the_roots() {
    let fx = Fixture::new();
    tree(&fx);
    fx.write("docs/a.md", "Widget docs\n");
    fx.write("other/b.py", "Widget = 2\n");
    let mut client = Client::start(&fx, json!({}));
    let result = client.call(
        "search",
        json!({"query": "Widget", "path": ["docs", "other"]}),
    );
    let page = text(&result);
    assert!(
        page.contains("docs/a.md") && page.contains("other/b.py"),
        "{page}"
    );
    assert!(!page.contains("src/"), "{page}");
    let escape = client.call(
        "search",
        json!({"query": "Widget", "path": ["docs", "../x"]}),
    );
    assert_eq!(escape["isError"], true, "{escape}");
}

#[test]
fn concurrent_calls_on_one_connection_leave_one_valid_memory() {
    let fx = Fixture::new();
    tree(&fx);
    let mut client = Client::start(&fx, json!({}));
    // Five pages of one search at once, each of other files.
    let page = |n: u64| json!({"query": "Widget", "budget_tokens": 150, "page": n});
    let ids: Vec<u64> = (1..=5)
        .map(|n| {
            client.request(
                "tools/call",
                json!({"name": "search", "arguments": page(n)}),
            )
        })
        .collect();
    for id in ids {
        let answer = client.answer(id);
        assert_eq!(answer["result"]["isError"], false, "{answer}");
        assert!(text(&answer["result"]).starts_with("query: "), "{answer}");
    }
    // Each remembered what it showed: every page again collapses all of
    // it, with no warning of a memory that could not be read.
    for n in 1..=5 {
        let again = client.call("search", page(n));
        let shown = text(&again);
        assert!(
            shown.contains("already shown") && !shown.contains("warning"),
            "{shown}"
        );
        assert_eq!(again["structuredContent"]["result"]["shown"], 0, "{again}");
    }
}

/// A search rg refuses is a tool error (`isError: true`), worded as the
/// command line words it, never an empty page (#34).
#[test]
fn regression_34_a_search_rg_refuses_is_a_tool_error() {
    let fx = Fixture::new();
    tree(&fx);
    let mut client = Client::start(&fx, json!({}));
    for (arguments, said) in [
        (
            json!({"query": "Widget", "glob": "["}),
            "error parsing glob '['",
        ),
        (
            json!({"query": "Widget", "type": "nolang"}),
            "unrecognized file type: nolang",
        ),
    ] {
        let result = client.call("search", arguments.clone());
        assert_eq!(result["isError"], true, "{arguments}: {result}");
        assert!(text(&result).contains(said), "{arguments}: {result}");
    }
}

/// A query that starts with '-' is the query over MCP too (#34).
#[test]
fn regression_34_a_query_that_starts_with_a_dash_is_the_query() {
    let fx = Fixture::new();
    fx.write("app/Repo.php", "<?php\n$rows = $query->where('id', 1);\n");
    let mut client = Client::start(&fx, json!({}));
    let result = client.call("search", json!({"query": "->where(", "kind": "literal"}));
    assert_eq!(result["isError"], false, "{result}");
    assert!(text(&result).contains("app/Repo.php"), "{result}");
}

#[test]
fn pages_over_mcp_name_tool_calls_not_commands() {
    let fx = Fixture::new();
    tree(&fx);
    let mut client = Client::start(&fx, json!({}));
    let arguments = json!({"query": "Widget", "budget_tokens": 150});
    let first = client.call("search", arguments.clone());
    let page = text(&first);
    assert!(
        page.contains(
            r#" files not shown: search {"budget_tokens":150,"page":2,"query":"Widget"}"#
        ),
        "{page}"
    );
    // A file's lines not quoted are a grep call; the repro stays rg's
    // command, whose counts are the page's (the grep tool also searches
    // hidden files).
    assert!(
        page.contains(
            r#"+1 line not quoted in these files: grep {"output_mode":"content","path":"FILE","pattern":"Widget"}"#
        ),
        "{page}"
    );
    assert!(
        page.contains("repro: rg -n --no-heading -F -e Widget"),
        "{page}"
    );
    assert!(!page.contains("scout search"), "{page}");
    // The JSON's next is the tool's arguments: the call to make.
    let next = &first["structuredContent"]["result"]["next"];
    assert_eq!(
        next,
        &json!({"query": "Widget", "budget_tokens": 150, "page": 2})
    );
    let second = client.call("search", next.clone());
    assert_eq!(second["structuredContent"]["result"]["page"], 2, "{second}");
    // The grep call it names prints the lines of one file.
    let grep = client.call(
        "grep",
        json!({"pattern": "Widget", "output_mode": "content", "path": "src/core.py"}),
    );
    assert_eq!(grep["structuredContent"]["total"], 2, "{grep}");
    // grep's next page and read's lines not shown, likewise.
    let lines = client.call(
        "grep",
        json!({"pattern": "Widget", "output_mode": "content", "head_limit": 5}),
    );
    assert!(
        text(&lines).contains(
            r#"next page: grep {"head_limit":5,"offset":5,"output_mode":"content","pattern":"Widget"}]"#
        ),
        "{lines}"
    );
    let read = client.call("read", json!({"path": "src/core.py", "budget_tokens": 5}));
    assert!(
        text(&read)
            .contains(r#"lines not shown: read {"budget_tokens":5,"path":"src/core.py","range":"#),
        "{read}"
    );
    let missing = client.call("read", json!({"path": "src/core.py", "symbol": "nope"}));
    assert!(
        text(&missing).contains("its definitions:") && !text(&missing).contains("scout read"),
        "{missing}"
    );
    // On the command line the same page names commands, as before.
    let read = fx
        .run(&["read", "src/core.py", "--budget-tokens", "5"])
        .stdout();
    assert!(
        read.contains("lines not shown: scout read src/core.py --range "),
        "{read}"
    );
    let printed = fx
        .run(&["search", "Widget", "--budget-tokens", "150"])
        .stdout();
    assert!(
        printed.contains(" files not shown: scout search Widget --budget-tokens 150 --page 2"),
        "{printed}"
    );
    assert!(
        printed.contains("repro: rg -n --no-heading -F -e Widget"),
        "{printed}"
    );
}

/// #51: every path-bearing field of every tool, read as its command will
/// read it: `..`, absolute paths, `#` and `:LINE` in directory names,
/// symlinked files and directories, `~` and NUL are refused naming the
/// field, and nothing from outside the roots reaches the answer. (The
/// server had checked `callers_of` by splitting at `#` first while the
/// graph reads `PATH:LINE` first, so `a#b/../../outside/secret.py:1`
/// read a file outside its root.)
#[test]
fn regression_51_no_field_of_any_tool_reaches_outside_the_roots() {
    let fx = Fixture::new();
    let outside = "def hidden_fn():\n    return 'SECRET_TOKEN'\n";
    fx.write("outside/secret.py", outside);
    fx.write("repo/a#b/inside.py", "def inside_fn():\n    return 1\n");
    fx.write("repo/x:1/inside.py", "def inside_fn():\n    return 1\n");
    fx.write(
        "repo/app.py",
        "def hidden_fn():\n    return 2\n\nhidden_fn()\n",
    );
    let repo = fx.root().join("repo");
    std::os::unix::fs::symlink("../outside/secret.py", repo.join("link.py")).unwrap();
    std::os::unix::fs::symlink("../outside", repo.join("linkdir")).unwrap();
    let absolute = fx.root().join("outside/secret.py").display().to_string();
    let paths: Vec<String> = vec![
        "../outside/secret.py".into(),
        absolute.clone(),
        "a#b/../../outside/secret.py".into(),
        "x:1/../../outside/secret.py".into(),
        "link.py".into(),
        "linkdir".into(),
        "linkdir/secret.py".into(),
        "~/secret.py".into(),
        "inside\u{0}.py".into(),
    ];
    let specs: Vec<String> = vec![
        "../outside/secret.py#hidden_fn".into(),
        format!("{absolute}#hidden_fn"),
        "a#b/../../outside/secret.py:1".into(),
        "x:1/../../outside/secret.py#hidden_fn".into(),
        "link.py#hidden_fn".into(),
        "linkdir/secret.py:1".into(),
        "~/secret.py#hidden_fn".into(),
        "app\u{0}.py#hidden_fn".into(),
    ];
    let globs = ["../**", "/etc/**", "!../outside/**"];
    // tool, its required arguments, its path fields, spec fields, glob fields.
    type Fields = &'static [&'static str];
    let tools: [(&str, Value, Fields, Fields, Fields); 6] = [
        (
            "search",
            json!({"query": "hidden_fn"}),
            &["path"],
            &["callers_of", "impact"],
            &["glob"],
        ),
        (
            "smart",
            json!({"query": "hidden function"}),
            &["path"],
            &[],
            &["glob"],
        ),
        (
            "grep",
            json!({"pattern": "SECRET"}),
            &["path"],
            &[],
            &["glob"],
        ),
        (
            "files",
            json!({"pattern": "*.py"}),
            &["path"],
            &[],
            &["pattern"],
        ),
        ("read", json!({"path": "app.py"}), &["path"], &[], &[]),
        (
            "edit",
            json!({"old": "return", "new": "yield", "all": true}),
            &["path"],
            &["callers_of", "impact", "symbol"],
            &["glob"],
        ),
    ];
    let uri = format!("file://{}", repo.display());
    let mut client = Client::start_in(
        fx.command(&["mcp", "--allow-edit"]),
        json!({"roots": {"listChanged": true}}),
    );
    let first = client.request(
        "tools/call",
        json!({"name": "read", "arguments": {"path": "app.py"}}),
    );
    let answer = client.answer_with_roots(first, std::slice::from_ref(&uri));
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    let mut checked = 0;
    for (tool, required, path_fields, spec_fields, glob_fields) in tools {
        let cases = path_fields
            .iter()
            .flat_map(|f| paths.iter().map(move |v| (*f, v.clone())))
            .chain(
                spec_fields
                    .iter()
                    .flat_map(|f| specs.iter().map(move |v| (*f, v.clone()))),
            )
            .chain(
                glob_fields
                    .iter()
                    .flat_map(|f| globs.iter().map(move |v| (*f, v.to_string()))),
            );
        for (field, value) in cases {
            let mut arguments = required.clone();
            arguments[field] = json!(value);
            if field == "symbol" {
                arguments = json!({"symbol": value, "with": "def hidden_fn():\n    return 3\n"});
            }
            let result = client.call(tool, arguments.clone());
            let context = format!("{tool} {arguments}: {result}");
            assert_eq!(result["isError"], true, "{context}");
            assert_eq!(
                result["structuredContent"]["error"]["field"], field,
                "{context}"
            );
            let message = text(&result);
            assert!(message.starts_with(&format!("{field} ")), "{context}");
            assert!(!message.contains("SECRET_TOKEN"), "{context}");
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
    // Nothing was written, inside or out.
    assert_eq!(
        std::fs::read_to_string(fx.root().join("outside/secret.py")).unwrap(),
        outside
    );
    assert!(std::fs::read_to_string(repo.join("app.py"))
        .unwrap()
        .contains("return 2"));
    // The same fields inside the root are served.
    for (tool, arguments) in [
        ("search", json!({"callers_of": "a#b/inside.py#inside_fn"})),
        ("search", json!({"callers_of": "x:1/inside.py:1"})),
        ("read", json!({"path": "a#b/inside.py"})),
        ("grep", json!({"pattern": "inside_fn", "glob": "x:1/**"})),
    ] {
        let result = client.call(tool, arguments.clone());
        assert_eq!(result["isError"], false, "{tool} {arguments}: {result}");
    }
}

/// #51: what the graph reads on its own stays inside the roots too: a
/// call in the root bound by its import to a module outside it is not
/// followed there, and the page names nothing of it.
#[test]
fn regression_51_the_graph_follows_no_import_out_of_the_roots() {
    let fx = Fixture::new();
    fx.write("secret.py", "def shared():\n    return 'SECRET_TOKEN'\n");
    fx.write("repo/lib.py", "def shared():\n    return 1\n");
    fx.write("repo/app.py", "from secret import shared\n\nshared()\n");
    let repo = fx.root().join("repo");
    // Served from the fixture's root, the import reaches secret.py.
    let unbound = fx.run(&["search", "--callers-of", "repo/lib.py#shared"]);
    unbound.expect_code(1);
    assert!(
        unbound.stderr().contains("secret.py:1"),
        "{}",
        unbound.describe()
    );
    let uri = format!("file://{}", repo.display());
    let mut client = Client::start(&fx, json!({"roots": {"listChanged": true}}));
    let id = client.request(
        "tools/call",
        json!({"name": "search", "arguments": {"callers_of": "lib.py#shared"}}),
    );
    let answer = client.answer_with_roots(id, std::slice::from_ref(&uri));
    let page = text(&answer["result"]);
    assert!(
        page.contains("callers-of: function shared (lib.py:1)"),
        "{page}"
    );
    assert!(!page.contains("secret.py"), "{page}");
}

/// #51: a confined edit refuses a file with several hard links: another
/// name of it may lie outside the roots, and writing it in place would
/// write there.
#[test]
fn regression_51_a_confined_edit_refuses_a_hard_linked_file() {
    let fx = Fixture::new();
    fx.write("repo/a.py", "x = 1\n");
    std::fs::hard_link(fx.root().join("repo/a.py"), fx.root().join("outside.py")).unwrap();
    let uri = format!("file://{}", fx.root().join("repo").display());
    let mut client = Client::start_in(
        fx.command(&["mcp", "--allow-edit"]),
        json!({"roots": {"listChanged": true}}),
    );
    let id = client.request(
        "tools/call",
        json!({"name": "edit", "arguments": {"old": "1", "new": "2", "path": "a.py"}}),
    );
    let answer = client.answer_with_roots(id, std::slice::from_ref(&uri));
    let result = &answer["result"];
    assert_eq!(result["isError"], true, "{answer}");
    assert!(text(result).contains("a.py has 2 hard links"), "{answer}");
    assert_eq!(
        std::fs::read_to_string(fx.root().join("outside.py")).unwrap(),
        "x = 1\n"
    );
}

/// #54: a no-match search reached the model as `warning:` lines (what the
/// command line writes to stderr to keep stdout empty); it is the answer.
#[test]
fn regression_54_a_search_with_no_match_answers_what_it_searched() {
    let fx = Fixture::new();
    tree(&fx);
    let mut client = Client::start(&fx, json!({}));
    let result = client.call(
        "search",
        json!({"query": "zzz_absent", "callers_of": "src/core.py#Widget.spin"}),
    );
    assert_eq!(result["isError"], false, "{result}");
    let page = text(&result);
    assert!(page.starts_with("no match\nquery: zzz_absent"), "{page}");
    assert!(page.contains("callers-of: method Widget.spin"), "{page}");
    assert!(!page.contains("warning:"), "{page}");
    assert_eq!(
        result["structuredContent"]["warnings"],
        json!([]),
        "{result}"
    );
    assert_eq!(result["structuredContent"]["exit"], 1, "{result}");
}

/// #54: a line that is not JSON got no answer; JSON-RPC asks for a parse
/// error (-32700, `id` null), and the connection goes on.
#[test]
fn regression_54_a_line_that_is_not_json_gets_a_parse_error() {
    let fx = Fixture::new();
    tree(&fx);
    let mut client = Client::start(&fx, json!({}));
    client.write_line("this is not json {");
    let error = client.next(Duration::from_secs(10)).expect("an answer");
    assert_eq!(error["error"]["code"], -32700, "{error}");
    assert_eq!(error["id"], Value::Null, "{error}");
    let result = client.call("read", json!({"path": "src/core.py", "range": "1"}));
    assert_eq!(result["isError"], false, "{result}");
}

/// #54 item 9: one request is cut into the same pages over MCP and by
/// `scout call` (and on the command line), whatever the budget: a page
/// number carries from one surface to another. (The footer's commands,
/// a tool call on one and a command on the other, had been weighed as
/// written.)
#[test]
fn regression_54_every_surface_cuts_the_same_pages() {
    let fx = Fixture::new();
    tree(&fx);
    fx.write(
        "src/long_names_here/deeper/widget_factory.py",
        "def make():\n    return Widget()\n",
    );
    let mut client = Client::start(&fx, json!({}));
    // The files and lines of a search document's page.
    let shown = |document: &Value| -> Vec<(String, Vec<u64>)> {
        document["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let lines = r["lines"].as_array().unwrap();
                let numbers = lines.iter().map(|l| l["line"].as_u64().unwrap()).collect();
                (r["path"].as_str().unwrap().to_string(), numbers)
            })
            .collect()
    };
    let mut compared = 0;
    for budget in [150, 220, 300, 450, 700] {
        for (query, extra) in [
            ("Widget", json!({})),
            ("widget", json!({"ignore_case": true})),
            ("use", json!({"glob": "src/**"})),
        ] {
            let mut page = 1;
            loop {
                let mut arguments =
                    json!({"query": query, "budget_tokens": budget, "page": page, "again": true});
                for (k, v) in extra.as_object().unwrap() {
                    arguments[k] = v.clone();
                }
                let over_mcp = client.call("search", arguments.clone());
                let mut request = arguments.clone();
                request["mode"] = json!("search");
                // `scout call` spells the tool's `ignore_case` as the flag.
                if let Some(i) = request.as_object_mut().unwrap().remove("ignore_case") {
                    request["-i"] = i;
                }
                let by_call = fx.run(&["call", &request.to_string()]);
                let mcp_doc = &over_mcp["structuredContent"]["result"];
                let call_doc = &by_call.json()["result"];
                let what = format!(
                    "{arguments}\nMCP: {}\ncall: {}",
                    text(&over_mcp),
                    by_call.describe()
                );
                assert_eq!(mcp_doc["pages"], call_doc["pages"], "{what}");
                assert_eq!(shown(mcp_doc), shown(call_doc), "{what}");
                let (budget_arg, page_arg) = (budget.to_string(), page.to_string());
                let mut argv = vec!["search", query, "--budget-tokens", &budget_arg];
                argv.extend(["--page", &page_arg]);
                argv.extend(["--again", "--json"]);
                if extra.get("ignore_case").is_some() {
                    argv.push("-i");
                }
                if let Some(glob) = extra.get("glob").and_then(Value::as_str) {
                    argv.extend(["-g", glob]);
                }
                let typed = fx.run(&argv);
                assert_eq!(
                    shown(mcp_doc),
                    shown(&typed.json()),
                    "{what}\n{}",
                    typed.describe()
                );
                compared += 1;
                if page >= call_doc["pages"].as_u64().unwrap() as usize {
                    break;
                }
                page += 1;
            }
        }
    }
    assert!(compared > 30, "{compared} pages compared");
}

/// One cell of the README's exit-status table: a command line that exits
/// with `code`, and the same request over `scout call` and MCP where
/// those transports can say it.
struct Cell {
    command: &'static str,
    code: i32,
    argv: Vec<&'static str>,
    /// The `scout call` request.
    call: Option<Value>,
    /// The MCP tool and its arguments.
    tool: Option<(&'static str, Value)>,
    /// Run with an rg that does not finish (and a 1-second timeout).
    slow: bool,
    /// Run in an agent session.
    session: bool,
}

fn cell(command: &'static str, code: i32, argv: &[&'static str]) -> Cell {
    Cell {
        command,
        code,
        argv: argv.to_vec(),
        call: None,
        tool: None,
        slow: false,
        session: false,
    }
}

impl Cell {
    fn call(mut self, request: Value) -> Cell {
        self.call = Some(request);
        self
    }

    fn tool(mut self, name: &'static str, arguments: Value) -> Cell {
        self.tool = Some((name, arguments));
        self
    }
}

/// The README's per-command exit table: command -> the codes it gives
/// (cells that are not `—`).
fn readme_exit_table() -> std::collections::BTreeMap<String, Vec<i32>> {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme
        .find("| command | 0 | 1 | 2 | 3 |")
        .expect("the exit table");
    let mut table = std::collections::BTreeMap::new();
    for row in readme[start..].lines().skip(2) {
        if !row.starts_with('|') {
            break;
        }
        let cells: Vec<&str> = row.split(" | ").collect();
        let codes: Vec<i32> = (0..4)
            .filter(|&c| cells[c as usize + 1].trim_end_matches(" |") != "—")
            .collect();
        for name in cells[0].trim_start_matches("| ").split(", ") {
            table.insert(name.trim_matches('`').to_string(), codes.clone());
        }
    }
    table
}

/// #54: the README's table of exit codes, per command and transport,
/// is what the binary does: every cell it fills is run here (on the
/// command line, and through `scout call` and MCP where they can ask it),
/// and every code run here is in the table.
#[test]
fn exit_codes_are_the_readme_table() {
    let mut fx = Fixture::new();
    fx.write(
        "src/app.py",
        "def load(x):\n    return x\n\nclass Store:\n    def put(self):\n        pass\n",
    );
    fx.write("src/use.py", "load(1)\n");
    fx.write("logo.png", b"\x89PNG\r\n\x1a\n\0\0\0binary");
    let search = |q: &str| json!({"mode": "search", "query": q});
    let cells = vec![
        cell("search", 0, &["search", "load"]).call(search("load")).tool("search", json!({"query": "load"})),
        cell("search", 1, &["search", "zzz"]).call(search("zzz")).tool("search", json!({"query": "zzz"})),
        cell("search", 2, &["search", "(", "--kind", "regex"])
            .call(json!({"mode": "search", "query": "(", "kind": "regex"}))
            .tool("search", json!({"query": "(", "kind": "regex"})),
        cell("search", 2, &["search", "load", "-g", "none/**"])
            .call(json!({"mode": "search", "query": "load", "glob": "none/**"}))
            .tool("search", json!({"query": "load", "glob": "none/**"})),
        cell("search", 3, &["search", "load", "src", "nope"])
            .call(json!({"mode": "search", "query": "load", "path": ["src", "nope"]}))
            .tool("search", json!({"query": "load", "path": ["src", "nope"]})),
        cell("smart", 0, &["smart", "load things", "--words-only"]),
        cell("smart", 1, &["smart", "zzqq wwxx", "--words-only"]),
        cell("smart", 2, &["smart", "where is it?"])
            .call(json!({"mode": "smart", "query": "where is it?"}))
            .tool("smart", json!({"query": "where is it?"})),
        cell("smart", 3, &["smart", "load things", "--words-only", "src", "nope"]),
        cell("grep", 0, &["grep", "load"])
            .call(json!({"mode": "content", "pattern": "load"}))
            .tool("grep", json!({"pattern": "load"})),
        cell("grep", 1, &["grep", "zzz"])
            .call(json!({"mode": "content", "pattern": "zzz"}))
            .tool("grep", json!({"pattern": "zzz"})),
        cell("grep", 1, &["grep", "load", "--output-mode", "content", "--offset", "9"])
            .call(json!({"mode": "content", "pattern": "load", "output_mode": "content", "offset": 9}))
            .tool("grep", json!({"pattern": "load", "output_mode": "content", "offset": 9})),
        cell("grep", 2, &["grep", "("])
            .call(json!({"mode": "content", "pattern": "("}))
            .tool("grep", json!({"pattern": "("})),
        Cell {
            slow: true,
            ..cell("grep", 3, &["grep", "load", "--timeout", "1"])
                .call(json!({"mode": "content", "pattern": "load", "timeout": 1}))
                .tool("grep", json!({"pattern": "load"}))
        },
        cell("files", 0, &["files", "*.py"])
            .call(json!({"mode": "files", "pattern": "*.py"}))
            .tool("files", json!({"pattern": "*.py"})),
        cell("files", 1, &["files", "*.zz"])
            .call(json!({"mode": "files", "pattern": "*.zz"}))
            .tool("files", json!({"pattern": "*.zz"})),
        cell("files", 2, &["files", "*.py", "nope"])
            .call(json!({"mode": "files", "pattern": "*.py", "path": "nope"}))
            .tool("files", json!({"pattern": "*.py", "path": "nope"})),
        Cell {
            slow: true,
            ..cell("files", 3, &["files", "*.py", "--timeout", "1"])
                .call(json!({"mode": "files", "pattern": "*.py", "timeout": 1}))
                .tool("files", json!({"pattern": "*.py"}))
        },
        cell("read", 0, &["read", "src/app.py", "--symbol", "load"])
            .call(json!({"mode": "read", "path": "src/app.py", "symbol": "load"}))
            .tool("read", json!({"path": "src/app.py", "symbol": "load"})),
        cell("read", 1, &["read", "src/app.py", "--symbol", "nope"])
            .call(json!({"mode": "read", "path": "src/app.py", "symbol": "nope"}))
            .tool("read", json!({"path": "src/app.py", "symbol": "nope"})),
        cell("read", 2, &["read", "logo.png"])
            .call(json!({"mode": "read", "path": "logo.png"}))
            .tool("read", json!({"path": "logo.png"})),
        cell("edit", 0, &["edit", "--old", "return x", "--new", "return x", "--dry-run", "src/app.py"])
            .call(json!({"mode": "edit", "old": "return x", "new": "return x", "dry_run": true, "path": "src/app.py"})),
        cell("edit", 1, &["edit", "--old", "zzz", "--new", "y", "src/app.py"])
            .call(json!({"mode": "edit", "old": "zzz", "new": "y", "path": "src/app.py"})),
        cell("edit", 2, &["edit", "--old", "x", "--new", "y", "src/app.py", "nope.py"])
            .call(json!({"mode": "edit", "old": "x", "new": "y", "path": ["src/app.py", "nope.py"]})),
        // `index` 0 needs the encoder's weights: tests/it/encoder.rs.
        cell("index", 2, &["index", "nope"]),
        Cell {
            session: true,
            ..cell("memory", 0, &["memory", "show"])
        },
        cell("memory", 2, &["memory", "show"]),
        cell("doctor", 2, &["doctor", "--bogus"]),
        cell("setup", 0, &["setup", "agents-md"]),
        cell("setup", 2, &["setup", "bogus"]),
        cell("hook", 0, &["hook", "PreToolUse"]),
        cell("man", 0, &["man"]),
        cell("man", 2, &["man", "--bogus"]),
        cell("completions", 0, &["completions", "bash"]),
        cell("completions", 2, &["completions", "nope"]),
        cell("call", 2, &["call", "{\"mode\": \"bogus\"}"]),
        cell("mcp", 2, &["mcp", "--bogus"]),
    ];
    // Cells checked elsewhere, with the test that runs them.
    let elsewhere = [
        (
            "index",
            0,
            "encoder.rs: index_embeds_what_changed_and_smart_uses_what_it_has",
        ),
        (
            "doctor",
            0,
            "doctor.rs: doctor's checks in a sound environment",
        ),
        ("doctor", 1, "doctor.rs: a failing check"),
        ("mcp", 0, "below: a client that closes the session"),
    ];
    let table = readme_exit_table();
    let mut run_here: std::collections::BTreeSet<(String, i32)> = cells
        .iter()
        .map(|c| (c.command.to_string(), c.code))
        .collect();
    run_here.extend(elsewhere.iter().map(|(c, code, _)| (c.to_string(), *code)));
    // `call` answers as its modes' commands do: every code.
    run_here.extend((0..4).map(|code| ("call".to_string(), code)));
    for (command, codes) in &table {
        for &code in codes {
            assert!(
                run_here.contains(&(command.clone(), code)),
                "the README says `{command}` exits {code}: no cell runs it"
            );
        }
    }
    for (command, code) in &run_here {
        assert!(
            table.get(command).is_some_and(|codes| codes.contains(code)),
            "`{command}` exits {code}, which the README's table does not say"
        );
    }
    // An rg that prints its lines, then never ends.
    let slow_rg = rg_script(&fx, "RG \"$@\"\nsleep 30");
    let mut client = Client::start(&fx, json!({}));
    fx.set_env("SCOUT_RG", &slow_rg);
    fx.set_env("SCOUT_TIMEOUT_SECONDS", "1");
    let mut slow_client = Client::start(&fx, json!({}));
    fx.env.clear();
    for cell in &cells {
        let mut fx_env = Vec::new();
        if cell.slow {
            fx_env.push(("SCOUT_RG", slow_rg.clone().into_os_string()));
        }
        if cell.session {
            fx_env.push(("SCOUT_SESSION_ID", "exit-table".into()));
        }
        let what = format!("`{}` {:?}", cell.command, cell.argv);
        let mut command = fx.command(&cell.argv);
        command.envs(fx_env.iter().cloned());
        let output = command.stdin(Stdio::null()).output().unwrap();
        assert_eq!(
            output.status.code(),
            Some(cell.code),
            "{what}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        if let Some(request) = &cell.call {
            let mut command = fx.command(&["call", &request.to_string()]);
            command.envs(fx_env.iter().cloned());
            let output = command.output().unwrap();
            let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
            assert_eq!(
                output.status.code(),
                Some(cell.code),
                "{what} by call: {answer}"
            );
            assert_eq!(answer["exit"], cell.code, "{what} by call: {answer}");
        }
        if let Some((tool, arguments)) = &cell.tool {
            let client = if cell.slow {
                &mut slow_client
            } else {
                &mut client
            };
            let result = client.call(tool, arguments.clone());
            assert_eq!(
                result["structuredContent"]["exit"], cell.code,
                "{what} over MCP: {result}"
            );
            assert_eq!(
                result["isError"],
                cell.code == 2,
                "{what} over MCP: {result}"
            );
        }
    }
    // `mcp` 0: a client that closes the session.
    drop(slow_client);
    let status = client.close();
    assert_eq!(
        status.code(),
        Some(0),
        "scout mcp after the client closed stdin"
    );
}
