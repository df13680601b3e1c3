//! scout's tokenizer against the reference one (Hugging Face
//! `tokenizers`, which the model was trained through) on real strings:
//! the same ids for every one, or the test fails naming the first
//! differences.
//!
//! Ignored by default: it needs the reference's ids, which
//! tests/fixtures/encoder/tokens.py writes from strings read on this
//! machine (the Python standard library, the crate sources in
//! ~/.cargo/registry), and the vocabulary. `.ci/run` runs it so:
//!
//! ```sh
//! python tests/fixtures/encoder/tokens.py DIR /tmp/tokens.jsonl
//! SCOUT_TOKENS=/tmp/tokens.jsonl SCOUT_ENCODER_DIR=DIR \
//!     cargo test --test it tokenizer:: -- --ignored
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use scout::encoder::wordpiece::WordPiece;
use serde::Deserialize;

/// One line of tokens.py's output.
#[derive(Deserialize)]
struct Case {
    kind: String,
    text: String,
    ids: Vec<u32>,
}

/// Differences printed in full, at most.
const SHOWN: usize = 20;

fn var(name: &str, what: &str) -> PathBuf {
    std::env::var_os(name)
        .map(PathBuf::from)
        .unwrap_or_else(|| panic!("{name} names {what} (see this file's doc comment)"))
}

#[test]
#[ignore = "needs the reference's ids: SCOUT_TOKENS and SCOUT_ENCODER_DIR"]
fn ids_match_the_reference_tokenizer() {
    let tokens = var("SCOUT_TOKENS", "tokens.py's output");
    let vocab = var("SCOUT_ENCODER_DIR", "the encoder's directory").join(scout::encoder::VOCAB);
    let tokenizer = WordPiece::from_vocab(&std::fs::read_to_string(&vocab).unwrap()).unwrap();
    let cases: Vec<Case> = std::fs::read_to_string(&tokens)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", tokens.display()))
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert!(
        cases.iter().filter(|c| c.kind != "generated").count() >= 100_000,
        "fewer than 100,000 real strings in {}",
        tokens.display()
    );

    let started = Instant::now();
    let ours: Vec<Vec<u32>> = cases.iter().map(|c| tokenizer.encode(&c.text)).collect();
    let elapsed = started.elapsed();

    // Per kind: (strings, differing).
    let mut kinds: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut shown = Vec::new();
    for (case, ours) in cases.iter().zip(&ours) {
        let kind = kinds.entry(&case.kind).or_default();
        kind.0 += 1;
        if *ours != case.ids {
            kind.1 += 1;
            if shown.len() < SHOWN {
                shown.push(format!(
                    "{} {:?} {:?}\n  scout:     {ours:?}\n  reference: {:?}",
                    case.kind,
                    case.text,
                    case.text.chars().map(|c| c as u32).collect::<Vec<_>>(),
                    case.ids
                ));
            }
        }
    }
    let summary: Vec<String> = kinds
        .iter()
        .map(|(kind, (n, differ))| format!("{kind}: {differ} of {n} differ"))
        .collect();
    eprintln!(
        "{} strings tokenized in {:.2} s; {}",
        cases.len(),
        elapsed.as_secs_f64(),
        summary.join(", ")
    );
    assert!(
        shown.is_empty(),
        "scout's ids differ from the reference's ({}); the first:\n{}",
        summary.join(", "),
        shown.join("\n")
    );
}
