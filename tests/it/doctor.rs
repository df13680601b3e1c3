//! `scout doctor` and `scout --version` against real and broken setups.

use crate::util;

use crate::util::Fixture;

#[test]
fn doctor_is_ok_with_a_working_rg() {
    let fx = Fixture::new();
    fx.write("src/a.rs", "fn main() {}\n");
    let run = fx.run(&["doctor"]);
    run.expect_code(0);
    let out = run.stdout();
    assert!(
        out.lines()
            .any(|l| l.starts_with("ok    rg: ") && l.contains("--json works")),
        "{}",
        run.describe()
    );
    assert!(out.contains("ok    state: "), "{}", run.describe());
    assert!(
        out.contains("ok    tree: 1 searchable file, "),
        "{}",
        run.describe()
    );
    assert!(!out.contains("fail"), "{}", run.describe());
    assert!(!out.contains("rg output"), "{}", run.describe());
}

#[test]
fn doctor_warns_when_searches_must_read_rgs_json() {
    let mut fx = Fixture::new();
    fx.set_env("SCOUT_RG_OUTPUT", "json");
    let run = fx.run(&["doctor"]);
    run.expect_code(0);
    assert!(
        run.stdout().contains(
            "warn  rg output: SCOUT_RG_OUTPUT=json is set: searches read rg's --json events"
        ),
        "{}",
        run.describe()
    );
}

#[test]
fn doctor_fails_with_the_install_fix_when_rg_is_missing() {
    let mut fx = Fixture::new();
    fx.path_var = fx.root().join("no-bin").into_os_string();
    let run = fx.run(&["doctor"]);
    run.expect_code(1);
    let out = run.stdout();
    assert!(
        out.contains("fail  rg: rg (ripgrep) was not found on PATH"),
        "{}",
        run.describe()
    );
    assert!(out.contains("fix: install ripgrep"), "{}", run.describe());
}

#[test]
fn doctor_fails_when_scout_rg_is_not_ripgrep() {
    let mut fx = Fixture::new();
    fx.set_env("SCOUT_RG", "/bin/echo");
    let run = fx.run(&["doctor"]);
    run.expect_code(1);
    let out = run.stdout();
    assert!(
        out.contains("fail  rg: /bin/echo does not behave like ripgrep"),
        "{}",
        run.describe()
    );
    assert!(
        out.contains("fix: point SCOUT_RG at a ripgrep binary, or unset it"),
        "{}",
        run.describe()
    );

    fx.env.clear();
    fx.set_env("SCOUT_RG", "/nonexistent/rg");
    let run = fx.run(&["doctor"]);
    run.expect_code(1);
    assert!(
        run.stdout()
            .contains("SCOUT_RG=/nonexistent/rg cannot be run"),
        "{}",
        run.describe()
    );
}

#[test]
fn doctor_names_the_agent_session() {
    let mut fx = Fixture::new();
    fx.set_env("CLAUDE_CODE_SESSION_ID", "abc123");
    let run = fx.run(&["doctor"]);
    assert!(
        run.stdout()
            .contains("ok    session: CLAUDE_CODE_SESSION_ID=abc123"),
        "{}",
        run.describe()
    );
}

#[test]
fn doctor_json_has_the_same_checks() {
    let mut fx = Fixture::new();
    let good = fx.run(&["doctor", "--json"]).json();
    assert_eq!(good["ok"], true);
    assert!(good["checks"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["name"] == "rg" && c["status"] == "ok"));
    fx.path_var = fx.root().join("no-bin").into_os_string();
    let bad = fx.run(&["doctor", "--json"]);
    bad.expect_code(1);
    let doc = bad.json();
    assert_eq!(doc["ok"], false);
    let rg = doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "rg")
        .unwrap()
        .clone();
    assert_eq!(rg["status"], "fail");
    assert!(rg["fix"]
        .as_str()
        .unwrap()
        .contains("apt-get install ripgrep"));
}

#[test]
fn version_names_the_rg_it_would_use() {
    let fx = Fixture::new();
    let run = fx.run(&["--version"]);
    run.expect_code(0);
    assert!(
        run.stdout()
            .starts_with(&format!("scout {}\nrg: ", env!("CARGO_PKG_VERSION"))),
        "{}",
        run.describe()
    );
    assert!(run.stdout().contains("(ripgrep "), "{}", run.describe());
}

#[test]
fn every_command_has_help_with_an_example_and_completions_work() {
    let fx = Fixture::new();
    for command in ["search", "doctor", "completions"] {
        let run = fx.run(&[command, "--help"]);
        run.expect_code(0);
        assert!(run.stdout().contains("Examples:"), "{}", run.describe());
    }
    let run = fx.run(&["completions", "bash"]);
    run.expect_code(0);
    assert!(run.stdout().contains("scout"), "{}", run.describe());
    let bad = fx.run(&["search", "--kind", "fuzzy", "x"]);
    bad.expect_code(2);
}

#[test]
fn regression_26_doctor_warns_about_an_rg_older_than_14_with_the_upgrade() {
    let real = util::rg_dir().join("rg");
    for (version, warns) in [("13.0.0", true), ("14.1.1", false), ("15.2.0", false)] {
        let mut fx = Fixture::new();
        fx.write("src/a.rs", "fn main() {}\n");
        // The real rg, claiming another version.
        let wrapper = fx.home.path().join(format!("rg-{version}"));
        std::fs::write(
            &wrapper,
            format!(
                "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'ripgrep {version}'; exit 0; fi\nexec {} \"$@\"\n",
                real.display()
            ),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
        fx.set_env("SCOUT_RG", &wrapper);
        let run = fx.run(&["doctor"]);
        run.expect_code(0);
        let out = run.stdout();
        assert_eq!(out.contains("warn  rg version"), warns, "{version}: {out}");
        if warns {
            assert!(out.contains("cargo install --locked ripgrep"), "{out}");
        }
    }
}

/// #56: doctor names the platform and what differs there: on Linux each
/// MCP call's thread works in its own root, unless the Linux-only calls
/// are off (as on macOS, which `SCOUT_INTERNAL_PORTABLE` stands for).
#[test]
fn doctor_names_the_platform_and_what_differs_there() {
    let mut fx = Fixture::new();
    let platform = |fx: &Fixture| {
        let doc = fx.run(&["doctor", "--json"]).json();
        doc["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == "platform")
            .cloned()
            .expect("a platform check")
    };
    let check = platform(&fx);
    assert_eq!(check["status"], "ok", "{check}");
    let detail = check["detail"].as_str().unwrap().to_string();
    assert!(
        detail.starts_with(&format!("linux {}:", std::env::consts::ARCH)),
        "{detail}"
    );
    let portable = std::env::var_os("SCOUT_INTERNAL_PORTABLE").is_some();
    assert_eq!(detail.contains("side by side"), !portable, "{detail}");
    fx.set_env("SCOUT_INTERNAL_PORTABLE", "1");
    let check = platform(&fx);
    assert!(
        check["detail"]
            .as_str()
            .unwrap()
            .contains("one root at a time"),
        "{check}"
    );
}
