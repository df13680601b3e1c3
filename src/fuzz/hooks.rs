//! Property tests over the hook's readers of outside bytes: the payload Claude Code writes on the hook's stdin, and the shell
//! command lines in it that scout reads for `cat`/`head`/`tail`/`sed -n`
//! reads. Arbitrary and structure-aware inputs are accepted or refused,
//! never a panic, and what is accepted stays within the file read.
//! `cargo test` runs 64 cases per property; `PROPTEST_CASES=N` runs N.

use std::path::Path;

use proptest::prelude::*;
use serde_json::{json, Value};

use crate::hooks::payload::{Payload, Tool};
use crate::hooks::{shell_line, shell_reads};

use crate::testing::proptest_config;

/// JSON values shaped like tool inputs and responses: the keys the hook
/// reads, with values of every type, nested.
fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        "\\PC{0,40}".prop_map(Value::from),
        command().prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 32, 6, |inner| {
        let key = prop::sample::select(vec![
            "file_path",
            "offset",
            "limit",
            "command",
            "timeout",
            "run_in_background",
            "pattern",
            "path",
            "glob",
            "type",
            "output_mode",
            "head_limit",
            "file",
            "startLine",
            "numLines",
            "interrupted",
            "other",
        ]);
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map(key.prop_map(str::to_string), inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Command lines built from the words and operators shell reads use.
fn command() -> impl Strategy<Value = String> {
    let word = prop::sample::select(vec![
        "cat",
        "head",
        "tail",
        "sed",
        "nl",
        "rtk",
        "read",
        "cd",
        "-n",
        "-n1",
        "+3",
        "-5",
        "10",
        "'1,5p'",
        "'2p;9,$p'",
        "\"$p\"",
        "-c",
        "--lines=4",
        "file.rs",
        "src/a b.rs",
        "|",
        "||",
        "&&",
        ";",
        ">",
        "2>&1",
        "<",
        "(",
        ")",
        "$(",
        "`",
        "\\",
        "'",
        "\"",
        "*",
        "~",
        "-",
        "--",
        "0",
        "18446744073709551615",
        "-n0",
        "--level",
        "none",
    ]);
    prop::collection::vec(word, 0..12).prop_map(|words| words.join(" "))
}

proptest! {
    #![proptest_config(proptest_config(64))]

    /// Any bytes: a payload, or an error (which the hook logs and exits 0).
    #[test]
    fn payload_bytes_parse_or_are_refused(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        if let Ok(payload) = Payload::parse(&bytes) {
            let _ = payload.tool();
            let _ = payload.read_response();
            let _ = payload.interrupted();
        }
    }

    /// Every payload with a session id is accepted whatever its tool's
    /// input and response hold, and what it says of a Read is a range of
    /// real lines.
    #[test]
    fn payloads_of_any_shape_are_read(
        tool in prop::sample::select(vec!["Read", "Bash", "Grep", "Edit"]),
        input in value(),
        response in value(),
    ) {
        let doc = json!({
            "session_id": "s", "cwd": "/nonexistent", "hook_event_name": "PostToolUse",
            "tool_name": tool, "tool_input": input, "tool_response": response,
        });
        let payload = Payload::parse(doc.to_string().as_bytes()).unwrap();
        if let Tool::Bash(bash) = payload.tool() {
            let _ = shell_reads::reads(&bash.command, Path::new("/nonexistent"));
        }
        if let Some(read) = payload.read_response() {
            prop_assert!(read.start_line >= 1);
        }
    }

    /// Any command line splits or is refused, and every read found in it
    /// resolves, for a file of any length, to sorted ranges of real lines.
    #[test]
    fn command_lines_resolve_to_lines_of_the_file(
        line in prop_oneof![command(), "\\PC{0,120}"],
        count in 0u64..5000,
    ) {
        let _ = shell_line::parse(&line);
        for read in shell_reads::reads(&line, Path::new("/nonexistent")) {
            let ranges = read.resolve(count);
            for pair in ranges.windows(2) {
                prop_assert!(pair[0].1 < pair[1].0, "{:?}", ranges);
            }
            for &(a, b) in &ranges {
                prop_assert!(1 <= a && a <= b && b <= count, "{line:?} {count}: {ranges:?}");
            }
        }
    }
}
