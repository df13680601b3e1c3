//! `scout mcp` driven by the official MCP Python SDK's client (#25):
//! `tests/mcp_sdk/client.py`, run with the Python that `SCOUT_MCP_PYTHON`
//! names (one with the `mcp` package installed; `.ci/run` makes it).
//! Ignored by a plain `cargo test`: CI runs it with `--ignored`.

use crate::util;

use crate::util::Fixture;
use serde_json::Value;

#[test]
#[ignore = "needs the MCP Python SDK: SCOUT_MCP_PYTHON=python-with-mcp cargo test --test it mcp_sdk:: -- --ignored"]
fn the_official_python_client_lists_and_calls_every_tool() {
    let python = std::env::var_os("SCOUT_MCP_PYTHON")
        .expect("SCOUT_MCP_PYTHON names a Python with the `mcp` package");
    let fx = Fixture::new();
    fx.write(
        "src/core.py",
        "class Widget:\n    def spin(self):\n        return Widget()\n",
    );
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp_sdk/client.py");
    let output = std::process::Command::new(python)
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_scout"))
        .arg(fx.root())
        .env("PATH", util::test_path())
        .output()
        .expect("the client runs");
    assert!(
        output.status.success(),
        "client failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let seen: Value = serde_json::from_slice(&output.stdout).expect("one JSON object");
    assert_eq!(seen["server"], "scout");
    assert_eq!(
        seen["tools"],
        serde_json::json!(["search", "smart", "grep", "files", "read"])
    );
    assert!(seen["output_schemas"]
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t == "object"));
    let results = &seen["results"];
    for tool in ["search", "smart", "grep", "files", "read"] {
        assert_eq!(results[tool]["is_error"], false, "{tool}: {seen}");
        assert_eq!(results[tool]["exit"], 0, "{tool}: {seen}");
    }
    let text = |tool: &str| results[tool]["text"].as_str().unwrap().to_string();
    assert!(
        text("search").starts_with("src/core.py:1:class Widget:\n"),
        "{seen}"
    );
    assert!(
        text("smart").contains("src/core.py:2  method Widget.spin"),
        "{seen}"
    );
    assert_eq!(text("grep"), "src/core.py:1:class Widget:\n");
    assert_eq!(text("files"), "src/core.py\n");
    assert!(
        text("read").starts_with("src/core.py  method Widget.spin (2-3)\n2:     def spin(self):")
    );
    assert_eq!(seen["error"]["is_error"], true);
    assert!(
        seen["error"]["text"].as_str().unwrap().contains("use -F"),
        "{seen}"
    );
}

#[test]
#[ignore = "needs the MCP Inspector CLI: SCOUT_MCP_INSPECTOR=path/to/mcp-inspector cargo test --test it mcp_sdk:: -- --ignored"]
fn the_inspector_cli_lists_and_calls_a_tool() {
    let inspector = std::env::var_os("SCOUT_MCP_INSPECTOR")
        .expect("SCOUT_MCP_INSPECTOR names the mcp-inspector binary");
    let fx = Fixture::new();
    fx.write("src/core.py", "class Widget:\n    pass\n");
    let inspect = |args: &[&str]| -> Value {
        let output = std::process::Command::new(&inspector)
            .arg("--cli")
            .arg(env!("CARGO_BIN_EXE_scout"))
            .arg("mcp")
            .args(args)
            .current_dir(fx.root())
            .env(
                "PATH",
                format!(
                    "{}:{}",
                    std::env::var("PATH").unwrap_or_default(),
                    util::test_path().to_string_lossy()
                ),
            )
            .output()
            .expect("the inspector runs");
        assert!(
            output.status.success(),
            "{args:?}:\n{}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        serde_json::from_slice(&output.stdout).expect("the inspector prints JSON")
    };
    let list = inspect(&["--method", "tools/list"]);
    let names: Vec<&str> = list["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["search", "smart", "grep", "files", "read"]);
    let call = inspect(&[
        "--method",
        "tools/call",
        "--tool-name",
        "search",
        "--tool-arg",
        "query=Widget",
    ]);
    assert_eq!(call["isError"], false, "{call}");
    let text = call["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("src/core.py:1:class Widget:\n"), "{call}");
    assert_eq!(call["structuredContent"]["result"]["hits"], 1, "{call}");
}
