//! `scout smart` and `scout index` without the sentence encoder, or with
//! a broken one: words only, said in the header; a corrupt or partial
//! weights file is an error naming it. (With the real weights:
//! tests/it/encoder.rs.)

use crate::util::Fixture;

fn tree() -> Fixture {
    let fx = Fixture::new();
    fx.write(
        "src/retry.rs",
        "/// Retry the request with a longer wait after each failure.\nfn retry_request() {}\n",
    );
    fx
}

const QUESTION: &str = "wait longer after each failed attempt";

#[test]
fn without_the_encoder_smart_ranks_by_words_and_says_so() {
    let mut fx = tree();
    let empty = tempfile::tempdir().unwrap();
    fx.set_env("SCOUT_ENCODER_DIR", empty.path());
    let run = fx.run(&["smart", QUESTION]);
    run.expect_code(0);
    run.expect_stdout_has(
        "meaning: off, ranked by words only (no encoder installed: scout doctor says how)\n",
    );
    run.expect_stdout_has("src/retry.rs:2");
    let json = fx.run(&["smart", QUESTION, "--json"]).json();
    assert_eq!(json["meaning"]["state"], "off");
    assert!(json["hits"][0].get("meaning").is_none(), "{json}");

    let words = fx.run(&["smart", QUESTION, "--words-only"]);
    words.expect_stdout_has("meaning: off, ranked by words only (--words-only)\n");
}

#[test]
fn a_corrupt_or_partial_weights_file_is_an_error_naming_it() {
    let mut fx = tree();
    let dir = tempfile::tempdir().unwrap();
    let weights = dir.path().join("model.safetensors");
    fx.set_env("SCOUT_ENCODER_DIR", dir.path());
    // Not a safetensors file at all.
    std::fs::write(&weights, b"<html>404 Not Found</html>").unwrap();
    let run = fx.run(&["smart", QUESTION]);
    run.expect_code(2);
    run.expect_stderr_has(&format!(
        "the encoder's weights {} are corrupt or incomplete",
        weights.display()
    ));
    // A whole header whose data was cut short, as an interrupted copy
    // leaves it.
    let header = br#"{"embeddings.word_embeddings.weight":{"dtype":"F32","shape":[30522,384],"data_offsets":[0,46881792]}}"#;
    let mut partial = (header.len() as u64).to_le_bytes().to_vec();
    partial.extend_from_slice(header);
    partial.extend_from_slice(&[0u8; 4096]);
    std::fs::write(&weights, &partial).unwrap();
    let run = fx.run(&["smart", QUESTION]);
    run.expect_code(2);
    run.expect_stderr_has("are corrupt or incomplete");
    assert!(!run.stderr().contains("panicked"), "{}", run.stderr());
    // `scout index` says the same.
    let index = fx.run(&["index"]);
    index.expect_code(2);
    index.expect_stderr_has(&weights.display().to_string());
}

#[test]
fn index_without_the_encoder_says_how_to_install_it() {
    let mut fx = tree();
    let empty = tempfile::tempdir().unwrap();
    fx.set_env("SCOUT_ENCODER_DIR", empty.path());
    let run = fx.run(&["index"]);
    run.expect_code(2);
    run.expect_stderr_has(&format!(
        "no sentence encoder in {}: ./install.sh --encoder-only installs it",
        empty.path().display()
    ));
    assert!(run.stdout().is_empty());
}

#[test]
fn doctor_says_whether_the_encoder_is_there_and_how_to_install_it() {
    let mut fx = tree();
    let dir = tempfile::tempdir().unwrap();
    fx.set_env("SCOUT_ENCODER_DIR", dir.path());
    let run = fx.run(&["doctor"]);
    run.expect_code(0);
    run.expect_stdout_has(&format!(
        "warn  encoder: not installed in {}: scout smart ranks by words only\n      fix: ./install.sh --encoder-only",
        dir.path().display()
    ));
    std::fs::write(dir.path().join("model.safetensors"), b"garbage").unwrap();
    let run = fx.run(&["doctor"]);
    run.expect_code(1);
    run.expect_stdout_has("fail  encoder: the encoder's weights ");
}
