//! The same pages over two rg's (#26): with `SCOUT_SECOND_RG` naming a
//! second rg (CI: a current ripgrep beside the distro's), every command
//! below prints byte-identical stdout, stderr and exit status over the
//! rg on PATH and over the second, through rg's plain records and through
//! its `--json` events. Ignored unless asked for, since it needs the
//! second rg: `.ci/run` runs it with `-- --ignored`.

use crate::util;

use crate::util::Fixture;

/// Masks the header's milliseconds, which no two runs share.
fn masked(text: &[u8]) -> String {
    let text = String::from_utf8_lossy(text);
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let mut words: Vec<String> = Vec::new();
        for word in line.split(' ') {
            let ms = word
                .strip_suffix("ms")
                .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
            words.push(if ms { "Nms".into() } else { word.to_string() });
        }
        let line = words.join(" ");
        // "elapsed_ms":12
        let line = match line.find("\"elapsed_ms\":") {
            Some(at) => {
                let rest = &line[at + 13..];
                let digits = rest.chars().take_while(char::is_ascii_digit).count();
                format!("{}\"elapsed_ms\":N{}", &line[..at], &rest[digits..])
            }
            None => line,
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[test]
#[ignore = "needs SCOUT_SECOND_RG, a second rg to compare with (.ci/run sets it)"]
fn regression_26_pages_counts_and_exit_codes_are_the_same_over_two_rgs() {
    let second = std::env::var_os("SCOUT_SECOND_RG")
        .expect("SCOUT_SECOND_RG names the second rg (see .ci/run)");
    let first = util::rg_dir().join("rg");
    let fx = Fixture::new();
    fx.write(
        "src/config.py",
        "import json\n\n\ndef load(path):\n    with open(path) as f:\n        return json.load(f)\n\n\nclass Config:\n    def load(self, path):\n        self.data = load(path)\n        return self\n",
    );
    fx.write(
        "src/app.ts",
        "import { load } from './loader';\nexport class App {\n  render(): void { load('a'); }\n}\nconst Load_x = load('LOAD');\n",
    );
    fx.write(
        "src/loader.ts",
        "export function load(p: string) { return p; }\n",
    );
    fx.write(
        "docs/notes.md",
        "Load the config; loading, loader, unload.\nwordload-load\n",
    );
    fx.write("bin/data.bin", b"load\x00\x01\x02load\n".as_slice());
    let commands: Vec<Vec<&str>> = vec![
        vec!["search", "load"],
        vec!["search", "load", "--json"],
        vec!["search", "-w", "load"],
        vec!["search", "-i", "LOAD"],
        vec!["search", "lo+ad", "-l"],
        vec!["search", "load", "--budget-tokens", "80", "--page", "2"],
        vec!["search", r"\w+", "src"],
        vec!["search", "load", "bin/data.bin"],
        vec!["search", "two words here"],
        vec!["search", "--structural", "--lang", "python", "load($A)"],
        vec!["search", "--callers-of", "src/config.py#load"],
        vec!["grep", "load", "--output-mode", "content", "-C", "1"],
        vec!["grep", "load", "--output-mode", "count"],
        vec!["grep", "-w", "load", "--output-mode", "content"],
        vec!["files", "*.ts"],
        vec!["smart", "where is the config loaded"],
        vec!["search", "nothing-matches-this"],
        vec!["search", "(unclosed"],
        vec!["grep", "(unclosed", "--output-mode", "content"],
        vec!["call", r#"{"mode": "content", "pattern": "(unclosed"}"#],
        vec![
            "call",
            r#"{"mode": "search", "query": "load", "kind": "symbol"}"#,
        ],
    ];
    for args in &commands {
        let mut outcomes = Vec::new();
        for rg in [first.as_os_str(), second.as_os_str()] {
            for output in ["", "json"] {
                let mut cmd = fx.command(args);
                cmd.env("SCOUT_RG", rg).env("SCOUT_RG_OUTPUT", output);
                let out = cmd.output().expect("scout runs");
                outcomes.push((
                    format!("{} {output:?}", std::path::Path::new(rg).display()),
                    out.status.code(),
                    masked(&out.stdout),
                    masked(&out.stderr),
                ));
            }
        }
        let (name, code, stdout, stderr) = &outcomes[0];
        for (other, other_code, other_stdout, other_stderr) in &outcomes[1..] {
            assert_eq!(
                (code, stdout, stderr),
                (other_code, other_stdout, other_stderr),
                "{args:?}: {name} and {other} differ"
            );
        }
    }
}
