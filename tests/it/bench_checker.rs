//! The bench's own checkers, run against the built binary (#28): a
//! checker that cries wolf hides the day it is right. Needs python3 and
//! rg, which CI installs.

use std::process::Command;

#[test]
fn regression_28_invariants_checker_on_a_passthrough_page_of_one_file() {
    let scout = assert_cmd::cargo::cargo_bin("scout");
    let bench = concat!(env!("CARGO_MANIFEST_DIR"), "/bench/test_invariants.py");
    let output = Command::new("python3")
        .arg(bench)
        .env("SCOUT", &scout)
        .output()
        .expect("python3 runs the bench's checker tests");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "bench/test_invariants.py failed:\n{stderr}"
    );
    // Every test ran: none skipped for want of the binary.
    assert!(
        stderr.contains("OK") && !stderr.contains("skipped"),
        "{stderr}"
    );
}

#[test]
fn the_definition_oracle_reads_the_languages_ctags_does_not() {
    let bench = concat!(env!("CARGO_MANIFEST_DIR"), "/bench/test_oracle.py");
    let output = Command::new("python3")
        .arg(bench)
        .output()
        .expect("python3 runs the oracle's tests");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "bench/test_oracle.py failed:\n{stderr}"
    );
    assert!(stderr.contains("OK"), "{stderr}");
}
