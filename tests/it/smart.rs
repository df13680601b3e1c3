//! `scout smart` against the real rg on fixture trees.

use crate::util;

use crate::util::Fixture;

/// A small tree where the answer to "where are expired keys removed" is a
/// function named for its mechanism, not for the question's words, next to
/// distractors: a test, a doc page, a translation, and code that merely
/// mentions the words.
fn tree() -> Fixture {
    let fx = Fixture::new();
    fx.write(
        "src/expire.c",
        "#include <time.h>\n\n\
         /* Delete every key whose time to live has passed, a few at a time. */\n\
         void activeExpireCycle(int type) {\n    deleteExpiredKeys(type);\n}\n\n\
         int keyCount(void) {\n    return 0;\n}\n",
    )
    .write(
        "src/db.c",
        "/* Look a key up for reading. */\nrobj *lookupKeyRead(redisDb *db, robj *key) {\n    return lookupKey(db, key);\n}\n",
    )
    .write(
        "tests/expire_test.c",
        "/* Test that expired keys are deleted. */\nvoid testExpiredKeysDeleted(void) {\n    deleteExpiredKeys(0);\n}\n",
    )
    .write(
        "docs/expire.md",
        "# Expire\n\nExpired keys are deleted by a background cycle that removes expired keys.\n",
    )
    .write(
        "locale/de.po",
        "msgid \"expired keys are deleted\"\nmsgstr \"abgelaufene Schlüssel werden gelöscht\"\n",
    );
    fx
}

#[test]
fn the_definition_that_answers_comes_first_with_its_why() {
    let fx = tree();
    let run = fx.run(&["smart", "where are expired keys deleted?"]);
    run.expect_code(0);
    let out = run.stdout();
    // Three header lines: the counts, the concepts, the meaning search.
    let first = out.lines().nth(3).unwrap_or_default();
    assert!(
        first.starts_with(" 1. src/expire.c:4  function activeExpireCycle (4-6)"),
        "{}",
        run.describe()
    );
    let why = out.lines().nth(4).unwrap_or_default();
    assert!(why.starts_with("    why: "), "{why}");
    assert!(
        why.contains(r#"doc "Delete every key whose time to live has passed, a few at a time." ← "keys", "deleted""#),
        "{why}"
    );
    assert!(
        why.contains("name activeExpireCycle ← \"expired\""),
        "{why}"
    );
}

#[test]
fn tests_docs_and_translations_rank_below_code_and_say_why() {
    let fx = tree();
    let run = fx.run(&["smart", "where are expired keys deleted?", "--json"]);
    run.expect_code(0);
    let doc = run.json();
    let hits = doc["hits"].as_array().unwrap();
    let paths: Vec<&str> = hits.iter().map(|h| h["path"].as_str().unwrap()).collect();
    let code = paths.iter().position(|p| *p == "src/expire.c").unwrap();
    for other in ["tests/expire_test.c", "docs/expire.md", "locale/de.po"] {
        if let Some(at) = paths.iter().position(|p| p == &other) {
            assert!(at > code, "{other} above the code: {paths:?}");
            let why = hits[at]["why"].as_str().unwrap();
            assert!(why.contains("ranked down"), "{other}: {why}");
        }
    }
    // Asking for tests lifts the prior against them.
    let run = fx.run(&[
        "smart",
        "which test checks that expired keys are deleted",
        "--json",
    ]);
    let doc = run.json();
    assert_eq!(
        doc["hits"][0]["path"],
        "tests/expire_test.c",
        "{}",
        run.describe()
    );
}

#[test]
fn json_has_concepts_candidates_hits_and_repro() {
    let fx = tree();
    let run = fx.run(&[
        "smart",
        "where are expired keys deleted?",
        "--json",
        "--max-results",
        "2",
    ]);
    run.expect_code(0);
    let doc = run.json();
    let concepts: Vec<&str> = doc["concepts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["word"].as_str().unwrap())
        .collect();
    assert_eq!(concepts, ["expired", "keys", "deleted"]);
    let deleted = &doc["concepts"][2];
    assert_eq!(deleted["stem"], "delet");
    assert!(deleted["related"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r == "remove"));
    assert_eq!(doc["hits"].as_array().unwrap().len(), 2);
    // Every unit with a matching word counts, not only those shown.
    assert!(doc["candidates"]["matched"].as_u64().unwrap() > 2, "{doc}");
    let hit = &doc["hits"][0];
    assert_eq!(hit["rank"], 1);
    assert_eq!(hit["line"], 4);
    assert_eq!(hit["def"]["kind"], "function");
    assert_eq!(hit["def"]["name"], "activeExpireCycle");
    assert_eq!(hit["def"]["start"], 4);
    assert_eq!(hit["def"]["end"], 6);
    let fields: Vec<&str> = hit["signals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["name", "doc", "path", "body"]);
    // The candidate set: every file holding a form, of those rg searched.
    assert_eq!(doc["candidates"]["searched"], 5);
    assert_eq!(doc["candidates"]["files"], 5);
    let repro = doc["repro"].as_str().unwrap();
    assert!(
        repro.starts_with("rg -c -e '[dD]eadlin|DEADLIN|"),
        "{repro}"
    );
    // `delet` holds `del`, which matches wherever it does: left out.
    assert!(
        repro.contains("|[dD]el|DEL|") && !repro.contains("[dD]elet"),
        "{repro}"
    );
    // The repro line lists the same candidate files.
    let args: Vec<String> = shell_words(repro);
    let refs: Vec<&str> = args[1..].iter().map(String::as_str).collect();
    let out = fx.rg(&refs);
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 5);
}

/// Splits a repro line of simple single-quoted words.
fn shell_words(line: &str) -> Vec<String> {
    line.split(' ')
        .map(|w| w.trim_matches('\'').to_string())
        .collect()
}

#[test]
fn same_tree_same_question_same_bytes_apart_from_the_milliseconds() {
    let fx = tree();
    let mask = |s: String| {
        s.lines()
            .map(|l| match l.rfind("tok ") {
                Some(at) if l.starts_with("smart: ") => l[..at].to_string(),
                _ => l.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let a = mask(
        fx.run(&["smart", "where are expired keys deleted?"])
            .stdout(),
    );
    let b = mask(
        fx.run(&["smart", "where are expired keys deleted?"])
            .stdout(),
    );
    assert_eq!(a, b);
}

#[test]
fn a_character_named_in_words_is_found_as_its_literal() {
    let fx = Fixture::new();
    fx.write(
        "src/names.rs",
        "/// Whether a file name is hidden.\nfn is_hidden(name: &str) -> bool {\n    name.starts_with('.')\n}\n\n\
         /// Whether a file name is long.\nfn is_long(name: &str) -> bool {\n    name.len() > 80\n}\n",
    );
    let run = fx.run(&[
        "smart",
        "is a file name hidden because it starts with a dot",
        "--json",
    ]);
    let doc = run.json();
    assert_eq!(doc["hits"][0]["line"], 2, "{}", run.describe());
    let why = doc["hits"][0]["why"].as_str().unwrap();
    assert!(why.contains(r#""dot"~'.'"#), "{why}");
    let repro = doc["repro"].as_str().unwrap();
    assert!(
        repro.contains(r"'\''\.'\''"),
        "the literal is in rg's pass: {repro}"
    );
}

#[test]
fn related_forms_count_less_and_are_named_as_such() {
    let fx = Fixture::new();
    fx.write(
        "a.py",
        "def unlink_all(paths):\n    \"\"\"Unlink every path.\"\"\"\n",
    )
    .write(
        "b.py",
        "def delete_all(paths):\n    \"\"\"Delete every path.\"\"\"\n",
    );
    let run = fx.run(&["smart", "delete all paths", "--json"]);
    let doc = run.json();
    assert_eq!(
        doc["hits"][0]["path"],
        "b.py",
        "the word as typed first: {}",
        run.describe()
    );
    assert_eq!(doc["hits"][1]["path"], "a.py");
    let why = doc["hits"][1]["why"].as_str().unwrap();
    assert!(why.contains(r#""delete"~"unlink""#), "{why}");
}

#[test]
fn the_budget_cuts_hits_and_says_so() {
    let fx = Fixture::new();
    for i in 0..30 {
        fx.write(
            format!("m{i:02}.rs"),
            format!("/// Parse the config file number {i}.\nfn parse_config_{i}() {{}}\n"),
        );
    }
    let run = fx.run(&[
        "smart",
        "parse the config file",
        "--max-results",
        "30",
        "--budget-tokens",
        "200",
    ]);
    run.expect_code(0);
    let out = run.stdout();
    assert!(out.len() <= 200 * 4, "{} bytes:\n{out}", out.len());
    assert!(out.contains("more hits cut by the token budget"), "{out}");
}

#[test]
fn a_pasted_page_of_text_is_looked_for_by_its_first_words_within_the_budget() {
    let fx = tree();
    // 200 distinct words after the question's own: a log pasted whole.
    let filler = util::made_up_words(200);
    let question = format!("expired keys deleted {}", filler.join(" "));
    let run = fx.run(&["smart", &question, "--budget-tokens", "400"]);
    run.expect_code(0);
    let out = run.stdout();
    assert!(out.len() <= 400 * 4, "{} bytes:\n{out}", out.len());
    let concepts = out.lines().nth(1).unwrap_or("");
    assert!(
        concepts.starts_with("concepts: expired")
            && concepts.ends_with(&format!("(+{} more words, not looked for)", 200 + 3 - 16)),
        "{out}"
    );
    assert!(out.contains("src/expire.c"), "{out}");
    let repro = out.lines().find(|l| l.starts_with("repro: ")).unwrap();
    assert!(
        repro.contains("[qQ]zaaqz") && !repro.contains("[qQ]zanqz"),
        "{repro}"
    );
    let json = fx.run(&["smart", &question, "--json"]);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout()).unwrap();
    assert_eq!(doc["concepts"].as_array().map(Vec::len), Some(16));
    assert_eq!(doc["unused"][0], "qzanqz");
}

#[test]
fn no_hit_is_exit_1_and_a_question_of_stop_words_is_exit_2() {
    let fx = tree();
    fx.run(&["smart", "zebra giraffe"]).expect_code(1);
    fx.run(&["smart", "where is it?"])
        .expect_code(2)
        .expect_stderr_has("no word to look for");
    fx.run(&["smart", "   "])
        .expect_code(2)
        .expect_stderr_has("the question is empty");
}

#[test]
fn paths_globs_and_types_narrow_the_candidates() {
    let fx = tree();
    let run = fx.run(&["smart", "expired keys deleted", "src", "--json"]);
    let doc = run.json();
    assert_eq!(doc["candidates"]["searched"], 2, "{}", run.describe());
    let run = fx.run(&["smart", "expired keys deleted", "-g", "!src/**", "--json"]);
    let doc = run.json();
    assert!(doc["hits"]
        .as_array()
        .unwrap()
        .iter()
        .all(|h| !h["path"].as_str().unwrap().starts_with("src/")));
    let run = fx.run(&["smart", "expired keys deleted", "--type", "md", "--json"]);
    let doc = run.json();
    assert_eq!(doc["hits"][0]["path"], "docs/expire.md");
    fx.run(&["smart", "expired keys", "nope"])
        .expect_code(2)
        .expect_stderr_has("no such file");
}

/// A scripted fake agent: a shell script under the fixture's hidden
/// `.agent/` (rg does not search it), returned as the command for
/// `SCOUT_SMART_AGENT`.
fn fake_agent(fx: &Fixture, name: &str, script: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let rel = format!(".agent/{name}");
    fx.write(&rel, format!("#!/bin/sh\n{script}"));
    let path = fx.root().join(rel);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn agent_runs_read_only_scout_commands_and_answers_in_hits() {
    let mut fx = tree();
    let agent = fake_agent(
        &fx,
        "agent.sh",
        r#"read -r question
case "$question" in *'"question":"where are expired keys deleted"'*) ;; *) exit 9;; esac
echo '{"run": ["search", "activeExpireCycle", "-l"]}'
read -r reply
case "$reply" in *'src/expire.c'*) ;; *) exit 8;; esac
echo '{"run": ["call", "{}"]}'
read -r refused
case "$refused" in *'only these scout commands may run'*) ;; *) exit 7;; esac
echo '{"answer": {"hits": [{"path": "src/expire.c", "line": 4, "why": "activeExpireCycle deletes expired keys"}]}}'
"#,
    );
    fx.set_env("SCOUT_SMART_AGENT", agent);
    let run = fx.run(&["smart", "where are expired keys deleted", "--agent"]);
    run.expect_code(0);
    let out = run.stdout();
    assert!(out.contains("turns: 3  hits: 1"), "{}", run.describe());
    assert!(
        out.contains(" 1. src/expire.c:4\n    why: activeExpireCycle deletes expired keys\n"),
        "{out}"
    );
    let run = fx.run(&[
        "smart",
        "where are expired keys deleted",
        "--agent",
        "--json",
    ]);
    let doc = run.json();
    assert_eq!(doc["hits"][0]["path"], "src/expire.c");
    assert_eq!(doc["turns"], 3);
}

#[test]
fn an_agent_answer_that_does_not_validate_is_exit_2_saying_why() {
    let mut fx = tree();
    let agent = fake_agent(
        &fx,
        "bad.sh",
        "read -r q\necho '{\"answer\": {\"hits\": [{\"path\": \"src/expire.c\", \"line\": 4}]}}'\n",
    );
    fx.set_env("SCOUT_SMART_AGENT", agent);
    fx.run(&["smart", "expired keys", "--agent"])
        .expect_code(2)
        .expect_stderr_has("the agent's answer is invalid: hit 1: \"why\" is missing");
}

#[test]
fn an_agent_gets_at_most_8_turns() {
    let mut fx = tree();
    let agent = fake_agent(
        &fx,
        "loop.sh",
        "read -r q\nwhile true; do echo '{\"run\": [\"files\", \"*.c\"]}'; read -r reply || exit 0; done\n",
    );
    fx.set_env("SCOUT_SMART_AGENT", agent);
    fx.run(&["smart", "expired keys", "--agent"])
        .expect_code(2)
        .expect_stderr_has("took 8 turns without an answer");
}

#[test]
fn an_agent_that_hangs_is_stopped_at_the_time_limit() {
    let mut fx = tree();
    let agent = fake_agent(&fx, "hang.sh", "read -r q\nexec sleep 60\n");
    fx.set_env("SCOUT_SMART_AGENT", agent);
    fx.set_env("SCOUT_SMART_AGENT_TIMEOUT", "1");
    let started = std::time::Instant::now();
    fx.run(&["smart", "expired keys", "--agent"])
        .expect_code(2)
        .expect_stderr_has("the agent gave no answer within 1 s (after 0 turns); it was stopped");
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    fx.set_env("SCOUT_SMART_AGENT_TIMEOUT", "soon");
    fx.run(&["smart", "expired keys", "--agent"])
        .expect_code(2)
        .expect_stderr_has(
            "SCOUT_SMART_AGENT_TIMEOUT=\"soon\": give the agent's time limit in whole seconds",
        );
}

#[test]
fn no_configured_agent_says_how_to_configure_one() {
    let fx = tree();
    fx.run(&["smart", "expired keys", "--agent"])
        .expect_code(2)
        .expect_stderr_has("no agent configured; set SCOUT_SMART_AGENT");
}

/// A question that starts with '-' is the question, not clap's error
/// (#34); `-e QUESTION` takes one too, every positional then a PATH.
#[test]
fn regression_34_a_question_that_starts_with_a_dash_is_the_question() {
    let fx = Fixture::new();
    fx.write(
        "src/push.py",
        "def force_push(remote):\n    \"\"\"Push with --force to the remote.\"\"\"\n    return remote\n",
    );
    for args in [
        &["smart", "--force push"][..],
        &["smart", "-e", "--force push", "src"],
    ] {
        fx.run(args).expect_code(0).expect_stdout_has("src/push.py");
    }
}

/// #34: `scout smart` named the definition a file had before it was
/// replaced by a file of the same size under the same mtime.
#[test]
fn regression_34_a_file_replaced_with_its_size_and_mtime_is_ranked_as_it_is() {
    let fx = Fixture::new();
    fx.write("a.rs", "fn first() {\n    widget(1);\n}\n");
    fx.set_mtime(
        "a.rs",
        std::time::SystemTime::now() - std::time::Duration::from_secs(3600),
    );
    fx.settle();
    let name = |fx: &Fixture| {
        let run = fx.run(&["smart", "first widget", "--json"]);
        run.json()["hits"][0]["def"]["name"].clone()
    };
    assert_eq!(name(&fx), "first");
    fx.replace_keeping_mtime("a.rs", "fn other() {\n    widget(1);\n}\n");
    assert_eq!(name(&fx), "other");
}

/// #54: a question nothing answers exited 1 with its page on stdout; the
/// page goes to stderr, stdout stays empty.
#[test]
fn regression_54_a_question_with_no_hit_leaves_stdout_empty() {
    let fx = tree();
    let run = fx.run(&["smart", "qzxvbn frobnicate"]);
    run.expect_code(1).expect_stderr_has("hits: 0");
    assert_eq!(run.stdout(), "", "{}", run.describe());
}

/// #54: an agent that stops reading before the question is written made
/// the write fail with a broken pipe, which scout read as its own stdout
/// closing: exit 0, nothing said, in about one run of three. It is always
/// exit 2 with the reason.
#[test]
fn regression_54_an_agent_that_stops_reading_is_an_error_every_time() {
    let mut fx = tree();
    fx.set_env("SCOUT_SMART_AGENT", "exec 0<&-; sleep 0.05");
    for _ in 0..8 {
        let run = fx.run(&["smart", "--agent", "how is the config loaded"]);
        run.expect_code(2);
        assert!(run.stderr().contains("the agent"), "{}", run.describe());
    }
}

/// A tree where one file holds three functions about the question and
/// three other files hold one each.
fn crowded_tree() -> Fixture {
    let fx = Fixture::new();
    fx.write(
        "src/retry.py",
        "def schedule_retry(job):\n    \"\"\"Schedule a retry of a failed job after a backoff.\"\"\"\n    return backoff(job)\n\n\
         def retry_backoff(job):\n    \"\"\"The backoff before a failed job is retried.\"\"\"\n    return 2 ** job.attempts\n\n\
         def retry_limit(job):\n    \"\"\"How many times a failed job is retried.\"\"\"\n    return 5\n",
    )
    .write(
        "src/queue.py",
        "def requeue_failed(job):\n    \"\"\"Put a failed job back on the queue for a retry.\"\"\"\n    queue.append(job)\n",
    )
    .write(
        "src/worker.py",
        "def run_job(job):\n    \"\"\"Run a job; a failed job is handed to the retry scheduler.\"\"\"\n    job.run()\n",
    )
    .write(
        "src/log.py",
        "def log_failure(job):\n    \"\"\"Log a failed job before its retry.\"\"\"\n    print(job)\n",
    );
    fx
}

#[test]
fn hits_name_distinct_files_and_fold_a_files_next_best_under_its_first() {
    let fx = crowded_tree();
    let question = "how is a failed job retried";
    let paths_of = |doc: &serde_json::Value| -> Vec<String> {
        doc["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["path"].as_str().unwrap().to_string())
            .collect()
    };
    // Four places for four files: each file once, retry.py's other two
    // functions folded under its hit.
    let run = fx.run(&[
        "smart",
        question,
        "--json",
        "--words-only",
        "--max-results",
        "4",
    ]);
    run.expect_code(0);
    let doc = run.json();
    let paths = paths_of(&doc);
    let mut distinct = paths.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(
        (paths.len(), distinct.len()),
        (4, 4),
        "{paths:?}\n{}",
        run.describe()
    );
    // The file-level list is the hits' files, in their order.
    let files: Vec<String> = doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    assert_eq!(files, paths);
    let hits = doc["hits"].as_array().unwrap();
    let retry = hits.iter().find(|h| h["path"] == "src/retry.py").unwrap();
    let mut names: Vec<&str> = retry["also"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["def"]["name"].as_str().unwrap())
        .collect();
    names.push(retry["def"]["name"].as_str().unwrap());
    names.sort();
    assert_eq!(names, ["retry_backoff", "retry_limit", "schedule_retry"]);
    let text = fx.run(&["smart", question, "--words-only", "--max-results", "4"]);
    assert!(
        text.stdout()
            .lines()
            .any(|l| l.starts_with("    also here: ") && l.contains("function retry_")),
        "{}",
        text.describe()
    );
    // With places to spare, every file comes first, then the further
    // hits, each a hit of its own.
    let run = fx.run(&["smart", question, "--json", "--words-only"]);
    let paths = paths_of(&run.json());
    assert_eq!(paths.len(), 6, "{paths:?}");
    let mut first = paths[..4].to_vec();
    first.sort();
    first.dedup();
    assert_eq!(first.len(), 4, "{paths:?}");
    assert!(paths[4..].iter().all(|p| p == "src/retry.py"), "{paths:?}");
    assert!(run.json()["hits"]
        .as_array()
        .unwrap()
        .iter()
        .all(|h| h.get("also").is_none()));
}

#[test]
fn search_answers_a_question_in_words_as_smart_does_and_says_so() {
    let fx = tree();
    let question = "where are expired keys deleted?";
    let smart = fx.run(&["smart", question, "--json"]);
    let search = fx.run(&["search", question, "--json"]);
    search.expect_code(0);
    let doc = search.json();
    assert_eq!(doc["kind"], "question", "{}", search.describe());
    let places = |d: &serde_json::Value| -> Vec<(String, u64)> {
        d["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| {
                (
                    h["path"].as_str().unwrap().to_string(),
                    h["line"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(places(&doc), places(&smart.json()), "{}", search.describe());
    let text = fx.run(&["search", question]);
    text.expect_code(0);
    let header = text.stdout().lines().next().unwrap_or_default().to_string();
    assert!(
        header.starts_with("query: \"where are expired keys deleted?\"  kind=question  "),
        "{header}"
    );
    text.expect_stdout_has(
        "kind=question: ranked by meaning, as scout smart ranks it; scout search -F with the same text searches it as written",
    );
    // Asked as text, it is text: -F, or a phrase without a question's
    // shape, is searched as written.
    let literal = fx.run(&["search", "-F", question]);
    literal.expect_code(1);
    let phrase = fx.run(&["search", "Expired keys are deleted"]);
    phrase.expect_code(0);
    phrase.expect_stdout_has("docs/expire.md:3:Expired keys are deleted by a background cycle");
    assert!(
        !phrase.stdout().contains("kind=question"),
        "{}",
        phrase.describe()
    );
    // A question has one page.
    fx.run(&["search", question, "--page", "2"])
        .expect_code(2)
        .expect_stderr_has("a question in words is answered on one page");
    // Over `scout call`, the same answer.
    let call = fx.run(&[
        "call",
        &serde_json::json!({"mode": "search", "query": question}).to_string(),
    ]);
    call.expect_code(0);
    let answer = call.json();
    assert_eq!(answer["result"]["kind"], "question", "{}", call.describe());
    assert_eq!(places(&answer["result"]), places(&doc));
}

#[test]
fn smart_given_a_name_answers_as_search_does_definitions_first() {
    let fx = Fixture::new();
    fx.write(
        "src/a_user.py",
        "from policy import EvictionPolicy\n\nPOLICY = EvictionPolicy()\nEvictionPolicy.reset()\n",
    )
    .write(
        "src/policy.py",
        "class EvictionPolicy:\n    \"\"\"Which keys go first when memory is full.\"\"\"\n\n\ndef ld(a, b):\n    return 0\n",
    )
    .write("src/world.py", "def hello_world(field):\n    return field\n");
    let smart = fx.run(&["smart", "EvictionPolicy"]);
    smart.expect_code(0);
    let search = fx.run(&["search", "EvictionPolicy"]);
    assert_eq!(
        smart.stdout_masked(),
        search.stdout_masked(),
        "{}",
        smart.describe()
    );
    assert!(
        smart
            .stdout()
            .contains("src/policy.py:1:class EvictionPolicy:"),
        "{}",
        smart.describe()
    );
    // Two letters: the name as a whole word, not the letters inside
    // `world` and `field`.
    let short = fx.run(&["smart", "ld"]);
    short.expect_code(0);
    assert!(
        short
            .stdout()
            .starts_with("src/policy.py:5:def ld(a, b):\ncode: src/policy.py  function ld (5-6)\n"),
        "{}",
        short.describe()
    );
    assert!(!short.stdout().contains("world"), "{}", short.describe());
    // A lower-case word is a concept smart widens, not a name.
    let word = fx.run(&["smart", "memory"]);
    assert!(
        word.stdout().starts_with("smart: \"memory\""),
        "{}",
        word.describe()
    );
    // Over `scout call`, the hits are the page's files, the definition's
    // line first.
    let call = fx.run(&[
        "call",
        &serde_json::json!({"mode": "smart", "query": "EvictionPolicy"}).to_string(),
    ]);
    call.expect_code(0);
    let answer = call.json();
    assert_eq!(
        answer["hits"][0]["path"],
        "src/policy.py",
        "{}",
        call.describe()
    );
    assert_eq!(answer["hits"][0]["line"], 1);
    assert_eq!(answer["hits"][0]["why"], "defines EvictionPolicy");
}

#[test]
fn a_question_that_leaves_no_word_but_names_code_is_answered_for_that_name() {
    let fx = Fixture::new();
    fx.write(
        "kinds.go",
        "package kinds\n\n// IsA reports whether v is of kind k.\nfunc IsA(v, k int) bool {\n\treturn v == k\n}\n",
    )
    .write("use.go", "package kinds\n\nfunc check() bool { return IsA(1, 2) }\n");
    // `IsA` is a stop word and a letter: nothing else is left to look for.
    let name = fx.run(&["search", "IsA"]);
    name.expect_code(0);
    for asked in [
        &["smart", "how is IsA used"][..],
        &["search", "how is IsA used?"],
    ] {
        let run = fx.run(asked);
        run.expect_code(0);
        assert_eq!(
            run.stdout_masked(),
            name.stdout_masked(),
            "{}",
            run.describe()
        );
    }
    // Without a code name, such a question is still refused.
    fx.run(&["smart", "how is it used"])
        .expect_code(2)
        .expect_stderr_has("no word to look for");
}

#[test]
fn an_older_copy_a_built_bundle_and_an_example_rank_below_the_current_code() {
    let fx = Fixture::new();
    // The copies say the question's words more often than the code does.
    fx.write(
        "pkg/cache.py",
        "def evict_expired(store):\n    \"\"\"Evict expired keys.\"\"\"\n    return store\n",
    )
    .write(
        "pkg/v1/cache.py",
        "def evict_expired(store):\n    \"\"\"Evict expired keys: every expired key is evicted, expired first.\"\"\"\n    return store\n",
    )
    .write(
        "dist/cache.js",
        "function evictExpired(store) {\n  // evict expired keys; expired keys are evicted\n  return store;\n}\n",
    )
    .write(
        "examples/evict.py",
        "def evict_expired_demo(store):\n    \"\"\"Evict expired keys, then print the evicted expired keys.\"\"\"\n    return store\n",
    );
    let run = fx.run(&["smart", "how are expired keys evicted"]);
    run.expect_code(0);
    let out = run.stdout();
    let place = |path: &str| {
        out.find(&format!(". {path}:"))
            .unwrap_or_else(|| panic!("{path} not shown\n{}", run.describe()))
    };
    assert!(
        place("pkg/cache.py") < place("pkg/v1/cache.py"),
        "{}",
        run.describe()
    );
    assert!(
        place("pkg/cache.py") < place("dist/cache.js"),
        "{}",
        run.describe()
    );
    run.expect_stdout_has("ranked down ×0.5: older copy");
    run.expect_stdout_has("ranked down ×0.4: built bundle");
    assert!(
        place("pkg/cache.py") < place("examples/evict.py"),
        "{}",
        run.describe()
    );
    run.expect_stdout_has("ranked down ×0.5: example");
    // A question that names the old version asks for it.
    let legacy = fx.run(&[
        "smart",
        "how are expired keys evicted in the legacy version",
    ]);
    assert!(
        !legacy.stdout().contains("older copy"),
        "{}",
        legacy.describe()
    );
}
