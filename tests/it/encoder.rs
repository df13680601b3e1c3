//! The sentence encoder with its real weights: its vectors against the
//! reference's, and `scout index` / `scout smart` over them.
//!
//! Ignored by default: they need the weights, which `.ci/run` fetches
//! with `./install.sh --encoder-only` and names in SCOUT_ENCODER_DIR:
//!
//! ```sh
//! SCOUT_ENCODER_DIR=DIR cargo test --test it encoder:: -- --ignored
//! ```
//!
//! The weight-free behaviour (no encoder, a corrupt one) is tested in
//! tests/it/meaning.rs.

use std::path::PathBuf;

use crate::util::Fixture;
use scout::encoder::{Encoder, Precision, DIM};
use serde_json::Value;

fn encoder_dir() -> PathBuf {
    let dir = std::env::var_os("SCOUT_ENCODER_DIR")
        .map(PathBuf::from)
        .expect("SCOUT_ENCODER_DIR names the encoder's directory (./install.sh --encoder-only)");
    assert!(
        scout::encoder::installed(&dir),
        "no encoder in {}",
        dir.display()
    );
    dir
}

#[test]
#[ignore = "needs the encoder's weights: SCOUT_ENCODER_DIR"]
fn vectors_match_the_reference_to_within_a_thousandth_of_cosine() {
    let reference: Value = serde_json::from_str(
        &std::fs::read_to_string("tests/fixtures/encoder/reference.json").unwrap(),
    )
    .unwrap();
    let sentences = reference["sentences"].as_array().unwrap();
    assert!(sentences.len() >= 10);
    let texts: Vec<String> = sentences
        .iter()
        .map(|s| s["text"].as_str().unwrap().to_string())
        .collect();
    // The CPU's fastest products (bfloat16 where it has AVX-512 BF16)
    // and f32 throughout.
    for precision in [Precision::Fastest, Precision::F32] {
        let encoder = Encoder::load_with(&encoder_dir(), precision).unwrap();
        // One batch for all, and each alone: packing texts together must
        // not change any of them.
        let together = encoder.embed(&texts).unwrap();
        for (i, sentence) in sentences.iter().enumerate() {
            let text = &texts[i];
            let ids: Vec<u32> = sentence["ids"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap() as u32)
                .collect();
            assert_eq!(encoder.tokens(text), ids, "token ids of {text:?}");
            let want: Vec<f32> = sentence["vector"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap() as f32)
                .collect();
            assert_eq!(want.len(), DIM);
            let alone = encoder.embed(std::slice::from_ref(text)).unwrap().remove(0);
            for got in [together[i], alone] {
                let cosine: f32 = got.iter().zip(&want).map(|(a, b)| a * b).sum();
                assert!(
                    cosine > 1.0 - 1e-3,
                    "cosine {cosine} for {text:?} at {precision:?} (bf16 {})",
                    encoder.bf16()
                );
            }
        }
    }
}

/// A tree where the answer to a question shares none of its words.
fn tree() -> Fixture {
    let mut fx = Fixture::new();
    fx.set_env("SCOUT_ENCODER_DIR", encoder_dir());
    fx.write(
        "net/pause.py",
        "def next_delay(previous):\n    \"\"\"Double the pause, up to a ceiling.\"\"\"\n    return min(previous * 2, 30)\n",
    )
    .write(
        "io/settings.py",
        "def read_settings(path):\n    \"\"\"Read the configuration file at path.\"\"\"\n    return open(path).read()\n",
    )
    .write(
        "ui/colors.py",
        "def blend(a, b):\n    \"\"\"Mix two colours half and half.\"\"\"\n    return (a + b) / 2\n",
    )
    .write(
        "jobs/queue.py",
        "def attempt(job):\n    \"\"\"Run the job once; wait for it.\"\"\"\n    return job.run()\n",
    );
    age(&fx);
    fx
}

/// Sets every file's modification time to a fixed one in the past, but
/// for files already older: those keep theirs, so that only files written
/// since look changed; then waits for the tree to settle (the vector
/// cache does not store a file changed in the last moments, #34).
fn age(fx: &Fixture) {
    let recent = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    let old = std::time::UNIX_EPOCH
        + std::time::Duration::from_secs(1_700_000_000 + walk(fx.root()).len() as u64);
    for path in walk(fx.root()) {
        if std::fs::metadata(&path).unwrap().modified().unwrap() < recent {
            continue;
        }
        std::fs::File::options()
            .append(true)
            .open(&path)
            .unwrap()
            .set_modified(old)
            .unwrap();
    }
    fx.settle();
}

const QUESTION: &str = "wait longer after each failed attempt";

#[test]
#[ignore = "needs the encoder's weights: SCOUT_ENCODER_DIR"]
fn a_definition_sharing_no_word_with_the_question_is_found_by_meaning() {
    let fx = tree();
    let words = fx.run(&["smart", QUESTION, "--words-only", "--json"]);
    let hits = words.json()["hits"].as_array().unwrap().clone();
    assert!(
        hits.iter().all(|h| h["path"] != "net/pause.py"),
        "words alone cannot find it: {}",
        words.stdout()
    );
    assert_eq!(words.json()["meaning"]["state"], "off");

    let run = fx.run(&["smart", QUESTION]);
    run.expect_code(0);
    let text = run.stdout();
    assert!(
        text.contains("meaning: on, 4 definitions of all 4 code files\n"),
        "{text}"
    );
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains(". net/pause.py:1  function next_delay"))
        .unwrap_or_else(|| panic!("net/pause.py is a hit: {text}"));
    let why = lines[at + 1];
    assert!(
        why.starts_with("    why: close in meaning to the question: 0."),
        "only its meaning scored: {why}"
    );

    // The vectors are cached: a second run embeds nothing, and prints
    // the same page (I5: what the cache holds is never on it).
    let again = fx.run(&["smart", QUESTION, "--json"]);
    let meaning = &again.json()["meaning"];
    assert_eq!(
        (meaning["covered"].as_u64(), meaning["embedded"].as_u64()),
        (Some(4), Some(0))
    );
    assert_eq!(
        fx.run(&["smart", QUESTION]).stdout_masked(),
        run.stdout_masked()
    );
}

/// [`tree`] with 2,000 more files, none of them code: too many to list.
fn large_tree() -> Fixture {
    let fx = tree();
    for n in 0..2_000 {
        fx.write(format!("notes/{n}.txt"), "nothing to see\n");
    }
    age(&fx);
    fx
}

/// #54 item 12: a large tree is compared among its candidates, cold or
/// warm, indexed or not; the page is the same each time.
#[test]
#[ignore = "needs the encoder's weights: SCOUT_ENCODER_DIR"]
fn a_large_tree_is_compared_among_its_candidates_indexed_or_not() {
    let fx = large_tree();
    let first = fx.run(&["smart", QUESTION]);
    first.expect_code(0);
    assert!(
        first.stdout().contains("meaning: on, 1 definition of 1 of 1 candidate code file (1 of them whole); a tree this large is compared among its candidates"),
        "{}",
        first.stdout()
    );
    let listings = fx.home.path().join("cache/scout/listings");
    assert!(
        !listings.exists() || walk(&listings).is_empty(),
        "nothing listed, nothing remembered"
    );
    let json = fx.run(&["smart", QUESTION, "--json"]);
    let meaning = &json.json()["meaning"];
    assert_eq!(
        (
            &meaning["files"],
            meaning["candidate_files"].as_u64(),
            meaning["covered"].as_u64(),
            meaning["embedded"].as_u64()
        ),
        (&Value::Null, Some(1), Some(1), Some(0)),
        "the candidate was stored by the first question: {meaning}"
    );
    // `scout index` stores every file: the answer is the same.
    fx.run(&["index"]).expect_code(0);
    let indexed = fx.run(&["smart", QUESTION]);
    assert_eq!(indexed.stdout_masked(), first.stdout_masked());
}

#[test]
#[ignore = "needs the encoder's weights: SCOUT_ENCODER_DIR"]
fn a_small_count_compares_the_definitions_the_words_ranked_first_in_many_files() {
    // Six files, each with two definitions that hold the question's
    // words and a third that does not: twelve units the words rank, and
    // six that only a whole file's embedding would reach.
    let mut fx = Fixture::new();
    fx.set_env("SCOUT_ENCODER_DIR", encoder_dir());
    for n in 0..6 {
        fx.write(
            format!("jobs/q{n}.py"),
            format!(
                "def retry_job_{n}(job):\n    \"\"\"Retry the failed job.\"\"\"\n    return job\n\n\
                 def failed_job_{n}(job):\n    \"\"\"Whether the job failed.\"\"\"\n    return job\n\n\
                 def colour_{n}(c):\n    return c\n"
            ),
        );
    }
    age(&fx);
    let question = "retry a failed job";
    let ask = |units: &str| {
        let run = fx.run(&[
            "smart",
            question,
            "--meaning-units",
            units,
            "--max-results",
            "40",
            "--json",
        ]);
        run.expect_code(0);
        run.json()
    };
    let meaning_of = |page: &Value| {
        let m = &page["meaning"];
        (
            m["units"].as_u64(),
            m["embedded"].as_u64(),
            m["covered"].as_u64(),
            m["partly"].as_u64(),
        )
    };
    // The cosine each hit was given, by path and line.
    let similarities = |page: &Value| -> std::collections::BTreeMap<String, String> {
        page["hits"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|h| {
                let why = h["why"].as_str().unwrap();
                let at = why.find("close in meaning to the question: ")?;
                Some((
                    format!("{}:{}", h["path"], h["line"]),
                    why[at..].to_string(),
                ))
            })
            .collect()
    };
    // The words' first units, from every file, before any whole file.
    let short = ask("12");
    assert_eq!(
        meaning_of(&short),
        (Some(12), Some(12), Some(0), Some(6)),
        "{}",
        short["meaning"]
    );
    let compared = similarities(&short);
    assert_eq!(compared.len(), 12, "{compared:?}");
    assert!(
        compared.keys().all(|k| !k.contains(":9")),
        "no colour_N (line 9) was compared: {compared:?}"
    );
    let text = fx
        .run(&["smart", question, "--meaning-units", "12"])
        .stdout();
    assert!(
        text.contains("meaning: on, 12 definitions of 6 of 6 code files (0 of them whole); the others were not compared (--meaning-units sets how many are)"),
        "{text}"
    );
    // A file's vectors are stored whole or not at all: none is, so the
    // same question compares the same units again, embedding them again.
    let again = ask("12");
    assert_eq!(meaning_of(&again), meaning_of(&short));
    assert_eq!(ask("0")["meaning"]["units"].as_u64(), Some(0));
    // By default the files follow whole, each unit counts once, and each
    // unit embedded alone had the vector its file's embedding gives.
    let long = ask("256");
    assert_eq!(
        meaning_of(&long),
        (Some(18), Some(18), Some(6), Some(0)),
        "{}",
        long["meaning"]
    );
    let all = similarities(&long);
    for (at, why) in &compared {
        assert_eq!(all.get(at), Some(why), "{at}");
    }
}

#[test]
#[ignore = "needs the encoder's weights: SCOUT_ENCODER_DIR"]
fn a_file_whose_units_the_words_ranked_all_is_stored_whole() {
    // A file of one definition and a script without any: the words rank
    // every unit of both, so both are stored, and a script's one unit is
    // found by meaning at the line the words' hit points at.
    let mut fx = Fixture::new();
    fx.set_env("SCOUT_ENCODER_DIR", encoder_dir());
    fx.write(
        "jobs/retry.py",
        "def retry_failed_job(job):\n    \"\"\"Run a failed job again.\"\"\"\n    return job.run()\n",
    )
    .write(
        "scripts/rerun.py",
        "import sys\n\nprint('starting')\nfor job in sys.argv:\n    print('retry failed job', job)\n",
    );
    age(&fx);
    let question = "retry a failed job";
    let short = fx.run(&["smart", question, "--meaning-units", "2", "--json"]);
    short.expect_code(0);
    let meaning = &short.json()["meaning"];
    assert_eq!(
        (
            meaning["units"].as_u64(),
            meaning["covered"].as_u64(),
            meaning["partly"].as_u64()
        ),
        (Some(2), Some(2), Some(0)),
        "{meaning}"
    );
    // The script's hit, which its meaning must have scored.
    let script_why = |page: &Value| -> String {
        let hit = page["hits"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["path"] == "scripts/rerun.py")
            .unwrap_or_else(|| panic!("the script is a hit: {page}"));
        hit["why"].as_str().unwrap().to_string()
    };
    let why = script_why(&short.json());
    assert!(why.contains("close in meaning to the question"), "{why}");
    // Stored: compared again from the store alone.
    let cached = fx.run(&["smart", question, "--meaning-units", "2", "--json"]);
    let again = cached.json();
    assert_eq!(
        (
            again["meaning"]["units"].as_u64(),
            again["meaning"]["embedded"].as_u64()
        ),
        (Some(2), Some(0))
    );
    let why = script_why(&again);
    assert!(
        why.contains("close in meaning to the question"),
        "a stored script's vector serves its unit too: {why}"
    );
}

#[test]
#[ignore = "needs the encoder's weights: SCOUT_ENCODER_DIR"]
fn index_embeds_what_changed_and_smart_uses_what_it_has() {
    let fx = tree();
    let first = fx.run(&["index"]);
    first.expect_code(0);
    assert!(
        first.stdout().starts_with(
            "index: 4 code files, 4 definitions with vectors: 4 embedded now in 4 files"
        ),
        "{}",
        first.stdout()
    );
    fx.write(
        "ui/colors.py",
        "def blend(a, b):\n    return (a + b) / 2\n\ndef darken(c):\n    return c / 2\n",
    );
    age(&fx);
    let second = fx.run(&["index"]);
    assert!(
        second
            .stdout()
            .contains("5 definitions with vectors: 2 embedded now in 1 files"),
        "only the changed file: {}",
        second.stdout()
    );
    // smart compares the same units whatever is cached, and embeds
    // only what the index has not.
    fx.write("net/extra.py", "def jitter(d):\n    return d\n");
    age(&fx);
    let run = fx.run(&["smart", QUESTION, "--json"]);
    assert_eq!(
        run.json()["meaning"]["embedded"].as_u64(),
        Some(1),
        "{}",
        run.stdout()
    );
    let run = fx.run(&["smart", QUESTION]);
    assert!(
        run.stdout()
            .contains("meaning: on, 6 definitions of all 5 code files\n"),
        "{}",
        run.stdout()
    );
}

#[test]
#[ignore = "needs the encoder's weights: SCOUT_ENCODER_DIR"]
fn the_remembered_listing_never_hides_a_file_from_the_meaning_search() {
    let fx = tree();
    // A directory whose one file is hidden: rg lists nothing there.
    fx.write("empty/deeper/.keep", "");
    age(&fx);
    fx.run(&["index"]).expect_code(0);
    let listings = fx.home.path().join("cache/scout/listings");
    assert_eq!(
        walk(&listings)
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "listing"))
            .count(),
        1,
        "index remembers the listing"
    );
    let before = fx.run(&["smart", QUESTION]);
    assert!(
        before
            .stdout()
            .contains("4 definitions of all 4 code files"),
        "{}",
        before.stdout()
    );
    // A file where no listed file is (no watched stamp moves), one in a
    // listed directory, and one gone.
    fx.write("empty/deeper/late.py", "def later(x):\n    return x\n");
    age(&fx);
    let run = fx.run(&["smart", QUESTION]);
    assert!(
        run.stdout().contains("5 definitions of all 5 code files"),
        "{}",
        run.stdout()
    );
    fx.write("net/more.py", "def more(x):\n    return x\n");
    std::fs::remove_file(fx.root().join("ui/colors.py")).unwrap();
    age(&fx);
    let run = fx.run(&["smart", QUESTION]);
    assert!(
        run.stdout().contains("5 definitions of all 5 code files"),
        "{}",
        run.stdout()
    );
}

#[test]
#[ignore = "needs the encoder's weights: SCOUT_ENCODER_DIR"]
fn vectors_made_at_the_repository_root_serve_a_search_from_below_it() {
    let fx = tree();
    std::fs::create_dir(fx.root().join(".git")).unwrap();
    fx.run(&["index"]).expect_code(0);
    // From `net/`, rg prints `pause.py`; its text still names
    // `net/pause.py`, so the cached vector is the one to use.
    let below = fx
        .command(&["smart", QUESTION, "--json"])
        .current_dir(fx.root().join("net"))
        .output()
        .unwrap();
    let answer: serde_json::Value = serde_json::from_slice(&below.stdout).unwrap();
    let meaning = &answer["meaning"];
    assert_eq!(
        (meaning["covered"].as_u64(), meaning["embedded"].as_u64()),
        (Some(1), Some(0)),
        "{answer}"
    );
    // And from a path that climbs back in, the same.
    let around = fx
        .command(&["smart", QUESTION, "--json", "../net"])
        .current_dir(fx.root().join("ui"))
        .output()
        .unwrap();
    let answer: serde_json::Value = serde_json::from_slice(&around.stdout).unwrap();
    assert_eq!(answer["meaning"]["embedded"].as_u64(), Some(0), "{answer}");
}

#[test]
#[ignore = "needs the encoder's weights: SCOUT_ENCODER_DIR"]
fn concurrent_indexes_leave_a_whole_cache() {
    let fx = tree();
    for i in 0..30 {
        fx.write(
            format!("pkg/m{i}.py"),
            format!("def handler_{i}(request):\n    \"\"\"Answer request number {i}.\"\"\"\n    return {i}\n"),
        );
    }
    age(&fx);
    let mut spawned: Vec<_> = (0..3)
        .map(|_| {
            fx.command(&["index"])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in &mut spawned {
        assert!(child.wait().unwrap().success());
    }
    let run = fx.run(&["smart", QUESTION, "--json"]);
    let meaning = &run.json()["meaning"];
    assert_eq!(meaning["covered"].as_u64(), Some(34), "{meaning}");
    assert_eq!(meaning["units"].as_u64(), Some(34), "{meaning}");
    assert_eq!(meaning["embedded"].as_u64(), Some(0), "{meaning}");
}

/// #35: `scout index` stopped by a kill keeps what it had stored (it
/// appends a record per file as it goes), a rerun embeds only the rest,
/// and `scout doctor` states the store's size.
#[test]
#[ignore = "needs the encoder's weights: SCOUT_ENCODER_DIR"]
fn an_index_killed_midway_resumes_where_it_stopped() {
    let fx = tree();
    // Past one group of 256 texts, the first append.
    const FILES: usize = 300;
    for i in 0..FILES {
        fx.write(
            format!("pkg/m{i}.py"),
            format!("def handler_{i}(request):\n    \"\"\"Answer request number {i}.\"\"\"\n    return {i}\n"),
        );
    }
    age(&fx);
    let stored = || stored_bytes(&fx);
    let mut child = fx
        .command(&["index"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Killed once its first group of files is stored.
    let started = std::time::Instant::now();
    while stored() < 10_000 && started.elapsed() < std::time::Duration::from_secs(120) {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success(), "the index finished before it was killed");
    let total = FILES + 4;
    let resumed = fx.run(&["index"]);
    resumed.expect_code(0);
    let out = resumed.stdout();
    let number = |before: &str| -> usize {
        let at = out
            .find(before)
            .unwrap_or_else(|| panic!("{before:?} in {out}"));
        out[..at].rsplit(' ').next().unwrap().parse().unwrap()
    };
    let (now, cached) = (number(" embedded now"), number(" cached before"));
    assert!(cached > 0 && now > 0, "{out}");
    assert_eq!(now + cached, total, "{out}");
    assert!(
        out.starts_with(&format!(
            "index: {total} code files, {total} definitions with vectors"
        )),
        "{out}"
    );
    assert!(out.contains("in 1 store"), "{out}");
    let doctor = fx.run(&["doctor"]);
    assert!(
        doctor.stdout().contains("vectors: ")
            && doctor.stdout().contains("in 1 store (one per repository)"),
        "{}",
        doctor.stdout()
    );
}

#[test]
#[ignore = "needs the encoder's weights: SCOUT_ENCODER_DIR"]
fn weights_without_their_vocabulary_are_an_error_naming_the_file() {
    let mut fx = tree();
    let partial = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(
        encoder_dir().join("model.safetensors"),
        partial.path().join("model.safetensors"),
    )
    .unwrap();
    fx.set_env("SCOUT_ENCODER_DIR", partial.path());
    let run = fx.run(&["smart", QUESTION]);
    run.expect_code(2);
    run.expect_stderr_has(&format!(
        "cannot read the encoder's vocabulary {}",
        partial.path().join("vocab.txt").display()
    ));
}

/// Bytes of the fixture's vector stores.
fn stored_bytes(fx: &Fixture) -> u64 {
    std::fs::read_dir(fx.home.path().join("cache/scout/vectors"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".store"))
        .filter_map(|e| e.metadata().ok())
        .map(|m| m.len())
        .sum()
}

fn walk(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

#[test]
#[ignore = "needs the encoder's weights: SCOUT_ENCODER_DIR"]
fn session_start_indexes_the_tree_in_the_background_once() {
    let mut fx = tree();
    let env_file = tempfile::NamedTempFile::new().unwrap();
    fx.set_env("CLAUDE_ENV_FILE", env_file.path());
    let start = serde_json::json!({
        "session_id": "s1", "transcript_path": "/t.jsonl", "cwd": fx.root(),
        "hook_event_name": "SessionStart", "source": "startup"
    });
    let payload = start.to_string();
    // Two sessions start at once: one index runs, the other leaves.
    for _ in 0..2 {
        fx.run_with_stdin(&["hook", "SessionStart"], payload.as_bytes())
            .expect_code(0);
    }
    // The index is done when its store holds the four files, which it
    // appends as one group of about 1.8 KB (a question would embed what
    // is missing itself, and tell nothing).
    let stored = || stored_bytes(&fx);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while stored() < 1_500 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let run = fx.run(&["smart", QUESTION, "--json"]);
    let meaning = &run.json()["meaning"];
    assert_eq!(
        (meaning["covered"].as_u64(), meaning["embedded"].as_u64()),
        (Some(4), Some(0)),
        "the background index embedded the tree: {meaning}"
    );
    // Off when asked.
    fx.set_env("SCOUT_INDEX_ON_START", "0");
    fx.write("net/more.py", "def more():\n    return 1\n");
    age(&fx);
    fx.run_with_stdin(&["hook", "SessionStart"], payload.as_bytes())
        .expect_code(0);
    std::thread::sleep(std::time::Duration::from_secs(2));
    let run = fx.run(&["smart", QUESTION, "--json"]);
    assert_eq!(
        run.json()["meaning"]["embedded"].as_u64(),
        Some(1),
        "no index embedded the new file"
    );
}
