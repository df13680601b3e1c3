//! `scout search` against the real rg on fixture trees.
//!
//! One test per topic; the invariants of docs/design.md (I1–I6) each have a test
//! that fails when the invariant is broken.

use crate::util;

use std::collections::BTreeSet;

use crate::util::{Fixture, Run};

/// (extension, a definition of `fetchRecords`, a usage line)
const LANGUAGES: &[(&str, &str, &str)] = &[
    ("rs", "pub fn fetchRecords(limit: usize) -> Vec<u8> {\n    Vec::new()\n}\n", "    let rows = fetchRecords(10);\n"),
    ("py", "def fetchRecords(limit):\n    return []\n", "rows = fetchRecords(10)\n"),
    ("ts", "export function fetchRecords(limit: number): number[] {\n  return [];\n}\n", "const rows = fetchRecords(10);\n"),
    ("tsx", "export const fetchRecords = (limit: number) => {\n  return [];\n};\n", "const rows = fetchRecords(10);\n"),
    ("js", "async function fetchRecords(limit) {\n  return [];\n}\n", "const rows = await fetchRecords(10);\n"),
    ("go", "func (s *Store) fetchRecords(limit int) []byte {\n\treturn nil\n}\n", "\trows := s.fetchRecords(10)\n"),
    ("java", "class Store {\n    public List<String> fetchRecords(int limit) {\n        return null;\n    }\n}\n", "        List<String> rows = store.fetchRecords(10);\n"),
    ("kt", "class Store {\n    fun fetchRecords(limit: Int): List<String> = emptyList()\n}\n", "    val rows = store.fetchRecords(10)\n"),
    ("cs", "class Store {\n    public async Task<int> fetchRecords(int limit) {\n        return 0;\n    }\n}\n", "        var rows = await store.fetchRecords(10);\n"),
    ("c", "int\nfetchRecords(int limit)\n{\n    return 0;\n}\n", "    int rows = fetchRecords(10);\n"),
    ("cpp", "std::vector<int> Store::fetchRecords(int limit) {\n    return {};\n}\n", "    auto rows = store.fetchRecords(10);\n"),
    ("rb", "class Store\n  def fetchRecords(limit)\n    []\n  end\nend\n", "rows = store.fetchRecords(10)\n"),
    ("php", "<?php\nclass Store {\n    public function fetchRecords($limit) {\n        return [];\n    }\n}\n", "$rows = $store->fetchRecords(10);\n"),
    ("lua", "local function fetchRecords(limit)\n  return {}\nend\n", "local rows = fetchRecords(10)\n"),
];

#[test]
fn per_language_the_definition_comes_first_with_a_def_mark() {
    for (ext, definition, usage) in LANGUAGES {
        let fx = Fixture::new();
        fx.write(format!("store/records.{ext}"), definition);
        for i in 0..6 {
            // Usage files have more hits than the definition file.
            fx.write(format!("app/use_{i}.{ext}"), usage.repeat(5));
        }
        let run = fx.run(&["search", "fetchRecords", "--budget-tokens", "0"]);
        run.expect_code(0);
        let files = run.files();
        assert!(!files.is_empty(), "{}", run.describe());
        assert_eq!(
            files[0].0,
            format!("store/records.{ext}"),
            "language {ext}\n{}",
            run.describe()
        );
        assert!(files[0].2, "no [def] mark for {ext}\n{}", run.describe());
        assert!(
            files[1..].iter().all(|f| !f.2),
            "a usage file marked [def] for {ext}\n{}",
            run.describe()
        );
    }
}

#[test]
fn a_name_defined_in_several_files_ranks_all_of_them_above_usages() {
    let fx = Fixture::new();
    fx.write("a/one.py", "def handler():\n    pass\n");
    fx.write("z/two.ts", "export function handler() {}\n");
    for i in 0..8 {
        fx.write(format!("m/use_{i}.py"), "handler()\n".repeat(20));
    }
    let run = fx.run(&["search", "handler", "--budget-tokens", "0"]);
    let files = run.files();
    let defs: Vec<bool> = files.iter().map(|f| f.2).collect();
    assert_eq!(&defs[..2], &[true, true], "{}", run.describe());
    assert!(defs[2..].iter().all(|d| !d), "{}", run.describe());
}

fn usage_tree(fx: &Fixture, files: usize) {
    fx.write(
        "src/core.rs",
        "pub struct Widget {}\nimpl Widget {\n    pub fn new() -> Widget { Widget {} }\n}\n",
    );
    for i in 0..files {
        let body: String = (0..(i % 7 + 1))
            .map(|j| format!("let w{j} = Widget::new(); // use {i}.{j}\n"))
            .collect();
        fx.write(format!("src/m{i:03}.rs"), body);
    }
}

#[test]
fn counters_equal_rgs_whatever_the_page_shows() {
    let fx = Fixture::new();
    usage_tree(&fx, 80);
    let run = fx.run(&["search", "Widget", "--budget-tokens", "300"]);
    run.expect_code(0);
    let (hits, files) = fx.rg_counts(&["-F", "-e", "Widget"]);
    assert_eq!(
        run.header_field("hits").unwrap(),
        hits.to_string(),
        "{}",
        run.describe()
    );
    assert_eq!(
        run.header_field("files").unwrap(),
        files.to_string(),
        "{}",
        run.describe()
    );
    let json = fx
        .run(&["search", "Widget", "--json", "--budget-tokens", "300"])
        .json();
    assert_eq!(json["hits"], hits);
    assert_eq!(json["files"], files);
}

#[test]
fn pages_together_show_every_file_exactly_once() {
    let fx = Fixture::new();
    usage_tree(&fx, 80);
    let first = fx.run(&["search", "Widget", "--budget-tokens", "250"]);
    let pages: usize = first
        .header_field("page")
        .unwrap()
        .split('/')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        pages > 3,
        "the fixture should need several pages\n{}",
        first.describe()
    );
    let mut seen = Vec::new();
    for page in 1..=pages {
        let run = fx.run(&[
            "search",
            "Widget",
            "--budget-tokens",
            "250",
            "--page",
            &page.to_string(),
        ]);
        run.expect_code(0);
        seen.extend(run.files().into_iter().map(|f| f.0));
        if page < pages {
            assert!(
                run.stdout().contains(&format!(
                    "scout search Widget --budget-tokens 250 --page {}",
                    page + 1
                )),
                "no next-page command\n{}",
                run.describe()
            );
        }
    }
    let unique: BTreeSet<_> = seen.iter().cloned().collect();
    assert_eq!(unique.len(), seen.len(), "a file appeared on two pages");
    let rg_files: BTreeSet<String> = String::from_utf8(fx.rg(&["-l", "-F", "-e", "Widget"]).stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(unique, rg_files);
    let past = fx.run(&[
        "search",
        "Widget",
        "--budget-tokens",
        "250",
        "--page",
        &(pages + 1).to_string(),
    ]);
    past.expect_code(2);
    assert!(
        past.stderr().contains("there is no page"),
        "{}",
        past.describe()
    );
}

#[test]
fn i1_anchorless_patterns_print_real_rg_lines_and_announce_the_cut() {
    let fx = Fixture::new();
    usage_tree(&fx, 40);
    for pattern in ["[a-z]{2,}", r"\w+\s*\(", r"\d+"] {
        let run = fx.run(&["search", pattern]);
        run.expect_code(0);
        let real: BTreeSet<Vec<u8>> = fx.rg_lines(&["-e", pattern]).into_iter().collect();
        for line in run
            .output
            .stdout
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
        {
            assert!(
                real.contains(line),
                "not an rg line: {:?}\n{}",
                String::from_utf8_lossy(line),
                run.describe()
            );
        }
    }
    let capped = fx.run(&["search", "[a-z]{2,}", "--passthrough-cap", "500"]);
    capped.expect_code(0);
    assert!(capped.output.stdout.len() <= 500);
    assert!(
        capped.output.stdout.ends_with(b"\n"),
        "cut mid-line\n{}",
        capped.describe()
    );
    assert!(
        capped.stderr().contains("cut at 500 bytes"),
        "{}",
        capped.describe()
    );
    assert!(
        capped.stderr().contains("rg -n --no-heading"),
        "{}",
        capped.describe()
    );
}

/// One line longer than the whole cap (minified code, a certificate) must
/// not leave the passthrough empty: it is cut around its match, and the
/// lines after it are still shown.
#[test]
fn i1_a_line_longer_than_the_cap_is_cut_not_dropped() {
    let fx = Fixture::new();
    let mut huge = "a".repeat(150_000);
    huge.push_str("xx_here");
    huge.push_str(&"b".repeat(50_000));
    huge.push('\n');
    fx.write("a_min.js", huge);
    fx.write("b.txt", "one xx\r\ntwo xx\n");
    let run = fx.run(&["search", "x{2}"]);
    run.expect_code(0);
    let out = run.output.stdout.clone();
    let first = out.split(|&b| b == b'\n').next().unwrap();
    let first = String::from_utf8_lossy(first);
    assert!(first.starts_with("a_min.js:1:…"), "{first}");
    assert!(first.contains("xx_here"), "{first}");
    assert!(
        first.ends_with(&format!(" [cut {} of 200007 bytes]", 200_007 - 200)),
        "{first}"
    );
    // The lines after it are rg's, byte for byte (CR included).
    assert!(
        out.ends_with(b"b.txt:1:one xx\r\nb.txt:2:two xx\n"),
        "{}",
        run.describe()
    );
    run.expect_stderr_has("3 of 3 matching lines");
    run.expect_stderr_has("1 of them cut to 200 bytes around the match");
}

#[test]
fn i2_the_page_is_never_larger_than_plain_rg() {
    let fx = Fixture::new();
    usage_tree(&fx, 30);
    fx.write("lone.py", "x = 1\n\ndef rare_thing():\n    pass\n");
    for query in ["rare_thing", "Widget", "new", "use 1", "fn new"] {
        let run = fx.run(&["search", query]);
        // Attached code (a separate `code:` section) is not part of the
        // comparison: it is what the agent would otherwise read next.
        let stdout = run.stdout();
        let evidence = stdout.split("\ncode: ").next().unwrap();
        let plain = fx.rg(&["-n", "-F", "-e", query]).stdout.len();
        assert!(
            evidence.len() <= plain,
            "{query}: {} > {plain}\n{}",
            evidence.len(),
            run.describe()
        );
    }
    // A rare name: rg's own line is smaller than any page, so it is
    // printed, followed by the code of the one definition holding it.
    let run = fx.run(&["search", "rare_thing"]);
    assert_eq!(
        run.stdout(),
        "lone.py:3:def rare_thing():\ncode: lone.py  function rare_thing (3-4)\n3: def rare_thing():\n4:     pass\n"
    );
}

#[test]
fn matches_are_grouped_under_their_enclosing_definition() {
    let fx = Fixture::new();
    let mut source = String::from("class Store:\n    def load(self):\n        return fetch_rows(1)\n\n    def save(self):\n        fetch_rows(2)\n        return None\n\nfetch_rows(3)\n");
    source.push_str(&"\n".repeat(5));
    fx.write("store.py", &source);
    fx.write("rows.py", "def fetch_rows(n):\n    return [n]\n");
    for i in 0..3 {
        fx.write(format!("use{i}.py"), "fetch_rows(0)\n".repeat(6));
    }
    let run = fx.run(&["search", "fetch_rows", "--explain"]);
    run.expect_code(0);
    let out = run.stdout();
    assert!(
        out.contains("rows.py  (1x) [def]\n  score "),
        "{}",
        run.describe()
    );
    assert!(
        out.contains("  function fetch_rows (1-2)\n    1: def fetch_rows(n):\n"),
        "{}",
        run.describe()
    );
    assert!(
        out.contains("store.py  (3x)\n  score ")
            && out.contains("  method Store.load (2-3)\n    3:         return fetch_rows(1)\n  method Store.save (5-7)\n    6:         fetch_rows(2)\n  9: fetch_rows(3)\n"),
        "{}",
        run.describe()
    );
    let store = fx
        .run(&["search", "fetch_rows", "--json"])
        .json_result("store.py");
    assert_eq!(store["lines"][0]["symbol"]["name"], "Store.load");
    assert_eq!(store["lines"][0]["symbol"]["kind"], "method");
    assert_eq!(store["lines"][0]["symbol"]["start"], 2);
    assert_eq!(store["lines"][0]["symbol"]["end"], 3);
    assert!(store["lines"][2]["symbol"].is_null());
}

/// A file past the page's parse budget (256 KB) is not parsed whole, yet
/// its lines still show under the definitions that hold them, with the
/// ranges and qualified names a whole parse gives: the blocks around each
/// line are parsed alone.
#[test]
fn a_file_too_large_to_parse_whole_still_has_headings() {
    let fx = Fixture::new();
    let mut source = String::new();
    for i in 0..9000 {
        source.push_str(&format!("def filler_{i}(x):\n    return x + {i}\n\n"));
    }
    let class_at = source.lines().count() + 1;
    source.push_str("class Store:\n    def save(self, rows):\n        for row in rows:\n            fetch_rows(row)\n        return None\n");
    assert!(source.len() > 256 * 1024);
    fx.write("big.py", &source);
    // Uses enough that a ranked page is smaller than rg's lines.
    let line = format!("rows = fetch_rows(0)  # {}\n", "a long comment ".repeat(6));
    for i in 0..6 {
        fx.write(format!("use{i}.py"), line.repeat(30));
    }
    let run = fx.run(&["search", "fetch_rows"]);
    run.expect_code(0);
    let (save, call) = (class_at + 1, class_at + 3);
    assert!(
        run.stdout().contains(&format!(
            "  method Store.save ({save}-{end})\n    {call}:             fetch_rows(row)\n",
            end = class_at + 4
        )),
        "{}",
        run.describe()
    );
    let big = fx
        .run(&["search", "fetch_rows", "--json"])
        .json_result("big.py");
    let symbol = &big["lines"][0]["symbol"];
    assert_eq!(symbol["name"], "Store.save");
    assert_eq!(symbol["start"], save);
}

#[test]
fn lexical_mode_parses_nothing() {
    let fx = Fixture::new();
    fx.write(
        "rows.py",
        "def fetch_rows(n):\n    return [n]\n\nfetch_rows(1)\n",
    );
    let run = fx.run(&["search", "fetch_rows", "--lexical", "--explain"]);
    run.expect_code(0);
    assert!(
        run.stdout().contains("rows.py  (2x) [def]\n"),
        "{}",
        run.describe()
    );
    assert!(
        !run.stdout().contains("function fetch_rows"),
        "{}",
        run.describe()
    );
    assert!(!run.stdout().contains("code: "), "{}", run.describe());
    assert!(!fx.home.path().join("cache/scout/defs").exists());
}

#[test]
fn the_parser_finds_definitions_the_lexical_rules_miss() {
    let fx = Fixture::new();
    // A Go method whose signature spans lines: the name's line alone does
    // not look like a definition, the parser knows it is one.
    fx.write(
        "store.go",
        "package store\n\nfunc (s *Store)\nLoadAll(limit int) error {\n\treturn nil\n}\n",
    );
    for i in 0..10 {
        fx.write(format!("use{i}.go"), "\ts.LoadAll(1)\n".repeat(4));
    }
    let doc = fx.run(&["search", "LoadAll", "--json"]).json();
    let first = &doc["results"][0];
    assert_eq!(first["path"], "store.go", "{doc}");
    assert_eq!(first["def"], true);
    assert_eq!(first["lines"][0]["def"], true);
}

#[test]
fn code_is_attached_when_every_match_is_in_one_or_two_short_definitions() {
    let fx = Fixture::new();
    let body: String = (0..30).map(|i| format!("    step_{i} = {i}\n")).collect();
    fx.write("calc.py", format!("def compute_total(n):\n    return n\n\ndef report():\n    compute_total(0)\n{body}    return None\n"));
    let run = fx.run(&["search", "compute_total"]);
    run.expect_code(0);
    let out = run.stdout();
    let code_at = out.find("code: calc.py  function compute_total (1-2)\n1: def compute_total(n):\n2:     return n\n").unwrap_or_else(|| panic!("{}", run.describe()));
    assert!(
        out[code_at..].contains("code: calc.py  function report (4-36)\n4: def report():\n"),
        "{}",
        run.describe()
    );
    let doc = fx.run(&["search", "compute_total", "--json"]).json();
    assert_eq!(doc["code"].as_array().unwrap().len(), 2, "{doc}");
    assert_eq!(doc["code"][1]["lines"].as_array().unwrap().len(), 33);
    // Three definitions: no code.
    fx.write("more.py", "def other():\n    compute_total(1)\n");
    let run = fx.run(&["search", "compute_total"]);
    assert!(!run.stdout().contains("code: "), "{}", run.describe());
}

#[test]
fn i4_quotes_are_byte_identical_or_marked_cuts() {
    let fx = Fixture::new();
    let long = format!("{}needle_token{}\n", "a".repeat(30_000), "b".repeat(20_000));
    fx.write("big.txt", format!("short needle_token line\n{long}"));
    for i in 0..30 {
        fx.write(format!("f{i}.txt"), "x needle_token y\n".repeat(3));
    }
    let run = fx.run(&["search", "needle_token", "--json", "--budget-tokens", "0"]);
    run.expect_code(0);
    let doc = run.json();
    let mut checked = 0;
    for result in doc["results"].as_array().unwrap() {
        let content = std::fs::read(fx.root().join(result["path"].as_str().unwrap())).unwrap();
        let lines: Vec<&[u8]> = content.split(|&b| b == b'\n').collect();
        for quote in result["lines"].as_array().unwrap() {
            let n = quote["line"].as_u64().unwrap() as usize;
            let text = quote["text"].as_str().unwrap().as_bytes();
            let before = quote["cut_before"].as_u64().unwrap() as usize;
            let after = quote["cut_after"].as_u64().unwrap() as usize;
            let line = lines[n - 1];
            assert_eq!(&line[before..line.len() - after], text);
            checked += 1;
        }
    }
    assert!(checked > 30);
    let text = fx.run(&["search", "needle_token", "-g", "big.txt"]);
    let cut_line = text
        .stdout()
        .lines()
        .find(|l| l.starts_with("  2: "))
        .unwrap()
        .to_string();
    assert!(
        cut_line.len() < 300,
        "a 50 KB line must be cut: {}",
        cut_line.len()
    );
    assert!(cut_line.contains("needle_token"));
    assert!(
        cut_line.ends_with(&format!(
            " [cut {} of {} bytes]",
            long.len() - 1 - 200,
            long.len() - 1
        )),
        "{cut_line}"
    );
}

/// The `LINE: TEXT` quotes of a text page (ranked files or attached
/// code), as (path, line number, text bytes).
fn page_quotes(stdout: &[u8]) -> Vec<(String, usize, Vec<u8>)> {
    let mut path = String::new();
    let mut quotes = Vec::new();
    for line in stdout.split(|&b| b == b'\n') {
        let text = String::from_utf8_lossy(line);
        if let Some(rest) = text.strip_prefix("code: ") {
            path = rest.split("  ").next().unwrap().to_string();
            continue;
        }
        if !line.starts_with(b" ") && !line.first().is_some_and(u8::is_ascii_digit) {
            if let Some((head, _)) = text.split_once("  (") {
                path = head.to_string();
            }
            continue;
        }
        let trimmed = line.trim_ascii_start();
        let Some(colon) = trimmed.windows(2).position(|w| w == b": ") else {
            continue;
        };
        let Ok(number) = std::str::from_utf8(&trimmed[..colon]).unwrap().parse() else {
            continue;
        };
        quotes.push((path.clone(), number, trimmed[colon + 2..].to_vec()));
    }
    quotes
}

/// #34: a CRLF file's `\r` was dropped from ranked pages, `--json` text
/// and attached code, while rg's lines (passthrough, or rg's own lines
/// when smaller) keep it (I4: every quoted line is the file's, byte for
/// byte, as rg prints it).
#[test]
fn regression_34_crlf_lines_keep_their_cr_on_every_page() {
    let fx = Fixture::new();
    fx.write(
        "src/config.rs",
        "pub fn load_config() -> u8 {\r\n    7\r\n}\r\n",
    );
    for i in 0..30 {
        fx.write(
            format!("src/use{i:02}.rs"),
            format!("let c{i} = load_config(); // a use, long enough to make rg's output long\r\n")
                .repeat(3),
        );
    }
    let file_line = |path: &str, n: usize| -> Vec<u8> {
        let content = std::fs::read(fx.root().join(path)).unwrap();
        content.split(|&b| b == b'\n').nth(n - 1).unwrap().to_vec()
    };
    // The ranked text page.
    let run = fx.run(&["search", "load_config"]);
    run.expect_code(0);
    assert!(run.stdout().starts_with("query: "), "{}", run.describe());
    let quotes = page_quotes(&run.output.stdout);
    assert!(quotes.len() > 5, "{}", run.describe());
    for (path, n, text) in &quotes {
        assert_eq!(
            String::from_utf8_lossy(text),
            String::from_utf8_lossy(&file_line(path, *n)),
            "{path}:{n}\n{}",
            run.describe()
        );
        assert!(text.ends_with(b"\r"), "{path}:{n}");
    }
    // The same text in rg's own lines.
    let rg = fx.rg_lines(&["-F", "-e", "load_config"]);
    let (path, n, text) = &quotes[0];
    let mut expected = format!("{path}:{n}:").into_bytes();
    expected.extend_from_slice(text);
    assert!(
        rg.contains(&expected),
        "{:?}",
        String::from_utf8_lossy(&expected)
    );
    // --json text.
    let doc = fx.run(&["search", "load_config", "--json"]).json();
    let mut checked = 0;
    for result in doc["results"].as_array().unwrap() {
        let path = result["path"].as_str().unwrap();
        for quote in result["lines"].as_array().unwrap() {
            let n = quote["line"].as_u64().unwrap() as usize;
            let text = quote["text"].as_str().unwrap().as_bytes();
            assert_eq!(text, &file_line(path, n)[..], "{path}:{n}");
            checked += 1;
        }
    }
    assert!(checked > 5, "{doc}");
    // Attached code, after rg's own lines (a rare name).
    fx.write(
        "calc.py",
        "def compute_total(n):\r\n    return n\r\n\r\ndef report():\r\n    compute_total(0)\r\n",
    );
    let run = fx.run(&["search", "compute_total"]);
    run.expect_code(0);
    run.expect_stdout_has(
        "code: calc.py  function compute_total (1-2)\n1: def compute_total(n):\r\n2:     return n\r\n",
    );
    let doc = fx.run(&["search", "compute_total", "--json"]).json();
    assert_eq!(
        doc["code"][0]["lines"][0]["text"], "def compute_total(n):\r",
        "{doc}"
    );
    // A structural match's quote.
    let doc = fx
        .run(&[
            "search",
            "--structural",
            "--lang",
            "rust",
            "load_config()",
            "--json",
        ])
        .json();
    let first = &doc["results"][0]["lines"][0];
    assert!(
        first["text"]
            .as_str()
            .unwrap()
            .ends_with("load_config(); // a use, long enough to make rg's output long\r"),
        "{doc}"
    );
}

#[test]
fn i5_identical_runs_print_identical_bytes() {
    let fx = Fixture::new();
    usage_tree(&fx, 120);
    let first = fx.run(&["search", "Widget", "--budget-tokens", "400"]);
    for _ in 0..4 {
        let again = fx.run(&["search", "Widget", "--budget-tokens", "400"]);
        assert_eq!(first.stdout_masked(), again.stdout_masked());
    }
    let json_a = fx.run(&["search", "Widget", "--json"]).json();
    let json_b = fx.run(&["search", "Widget", "--json"]).json();
    assert_eq!(json_a["results"], json_b["results"]);
}

#[test]
fn text_and_json_lay_out_the_same_page() {
    // The next-page command is part of the footer the layout reserves room
    // for; --json must not make it longer and shift the page.
    let fx = Fixture::new();
    usage_tree(&fx, 90);
    for budget in ["200", "350", "900"] {
        let text = fx.run(&["search", "Widget", "--budget-tokens", budget]);
        let doc = fx
            .run(&["search", "Widget", "--budget-tokens", budget, "--json"])
            .json();
        assert_eq!(
            text.header_field("shown").unwrap(),
            doc["shown"].to_string(),
            "budget {budget}"
        );
        let text_files: Vec<String> = text.files().into_iter().map(|f| f.0).collect();
        let json_files: Vec<String> = doc["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["path"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(text_files, json_files, "budget {budget}");
        assert_eq!(
            doc["next"],
            format!("scout search Widget --budget-tokens {budget} --json --page 2")
        );
    }
}

#[test]
fn i6_shown_and_left_out_add_up_to_hits() {
    let fx = Fixture::new();
    usage_tree(&fx, 50);
    for budget in ["150", "1500", "0"] {
        let doc = fx
            .run(&["search", "Widget", "--json", "--budget-tokens", budget])
            .json();
        let mut shown = 0;
        for result in doc["results"].as_array().unwrap() {
            let (h, s, a, l) = (
                &result["hits"],
                &result["shown"],
                &result["already_shown"],
                &result["left_out"],
            );
            assert_eq!(
                h.as_u64().unwrap(),
                s.as_u64().unwrap() + a.as_u64().unwrap() + l.as_u64().unwrap(),
                "{result}"
            );
            assert_eq!(
                result["lines"].as_array().unwrap().len() as u64,
                s.as_u64().unwrap()
            );
            shown += s.as_u64().unwrap();
        }
        assert_eq!(doc["shown"], shown);
        assert_eq!(
            doc["hits"].as_u64().unwrap(),
            doc["shown"].as_u64().unwrap()
                + doc["already_shown"].as_u64().unwrap()
                + doc["left_out"].as_u64().unwrap()
        );
    }
}

#[test]
fn the_text_page_accounts_for_what_it_left_out() {
    let fx = Fixture::new();
    usage_tree(&fx, 60);
    let run = fx.run(&["search", "Widget", "--budget-tokens", "300"]);
    let out = run.stdout();
    let lines_shown = out
        .lines()
        .filter(|l| {
            l.starts_with("  ")
                && l.trim_start()
                    .split(':')
                    .next()
                    .unwrap()
                    .parse::<u64>()
                    .is_ok()
        })
        .count() as u64;
    let files = run.files();
    let hits_on_page: u64 = files.iter().map(|f| f.1).sum();
    let not_quoted: u64 = out
        .lines()
        .find_map(|l| {
            let (n, rest) = l.strip_prefix('+')?.split_once(' ')?;
            (rest.starts_with("lines not quoted") || rest.starts_with("line not quoted"))
                .then(|| n.parse().unwrap())
        })
        .unwrap_or(0);
    assert_eq!(lines_shown + not_quoted, hits_on_page, "{}", run.describe());
    assert_eq!(run.header_field("shown").unwrap(), lines_shown.to_string());
    assert!(
        out.contains("repro: rg -n --no-heading -F -e Widget"),
        "{}",
        run.describe()
    );
}

#[test]
fn one_line_not_quoted_is_one_line() {
    let fx = Fixture::new();
    usage_tree(&fx, 60);
    let mut counts = Vec::new();
    for budget in (100..=400).step_by(20) {
        let run = fx.run(&["search", "Widget", "--budget-tokens", &budget.to_string()]);
        let Some(line) = run
            .stdout()
            .lines()
            .find(|l| l.contains("not quoted"))
            .map(str::to_string)
        else {
            continue;
        };
        let (n, rest) = line[1..].split_once(' ').unwrap();
        let n: u64 = n.parse().unwrap();
        let word = if n == 1 {
            "line not quoted"
        } else {
            "lines not quoted"
        };
        assert!(rest.starts_with(word), "budget {budget}: {line}");
        counts.push(n);
    }
    // The sweep meets the singular (a budget of 180 leaves one line).
    assert!(counts.contains(&1), "{counts:?}");
    assert!(counts.iter().any(|&n| n > 1), "{counts:?}");
}

#[test]
fn definitions_not_on_the_page_are_named_in_a_note() {
    let fx = Fixture::new();
    // Files whose matching lines outweigh the page, so the page is
    // printed (I2); few enough that their places fit in the note's
    // room, a quarter of the budget (more would be named as one brace
    // expression).
    let calls = "    target(first_argument, second_argument, third_argument)\n".repeat(4);
    for i in 0..20 {
        fx.write(
            format!("d{i:02}.py"),
            format!("x = 1\ndef target():\n    return {i}\n{calls}"),
        );
    }
    let run = fx.run(&["search", "target", "--budget-tokens", "300"]);
    let out = run.stdout();
    let on_page = run.files();
    assert!(on_page.iter().all(|f| f.2), "{}", run.describe());
    let note = out
        .lines()
        .find(|l| l.starts_with("note: "))
        .unwrap_or_else(|| panic!("no note\n{}", run.describe()));
    let rest = 20 - on_page.len();
    assert!(
        note.starts_with(&format!(
            "note: {rest} more files define it, on other pages: "
        )),
        "{note}"
    );
    // Each named definition comes with its line; the first is the next in rank order.
    let next = format!("d{:02}.py:2", on_page.len());
    assert!(note.contains(&next), "{note}");
    let named = note.matches(".py:2").count();
    assert!(named > 5 && named <= rest, "{note}");
    if named < rest {
        assert!(
            note.ends_with(&format!("(+{} more)", rest - named)),
            "{note}"
        );
    }
}

#[test]
fn regression_54_a_small_budget_is_not_spent_on_naming_definitions_elsewhere() {
    // 60 files define the name: the note naming those on other pages
    // reserved 1 KB of a 1.2 KB budget, and the search was refused as
    // too small for one line. The note now takes a quarter of it.
    // Paths with no common shape, so that the note names them one by one
    // (brace expressions would not be shorter).
    let fx = Fixture::new();
    let words = [
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
        "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra",
        "tango", "uniform", "victor", "whiskey", "xray", "yankee", "zulu",
    ];
    let calls = "    target(first_argument, second_argument, third_argument)\n".repeat(4);
    for i in 0..60 {
        let word = |k: usize| words[(i * k) % words.len()];
        fx.write(
            format!(
                "{}_{}/{}{i}/handlers_{}.py",
                word(1),
                word(7),
                word(3),
                word(5)
            ),
            format!("def target():\n    return {i}\n{calls}"),
        );
    }
    let run = fx.run(&["search", "target", "--budget-tokens", "300"]);
    run.expect_code(0);
    assert!(run.stdout().len() <= 1200, "{}", run.describe());
    assert!(!run.files().is_empty(), "{}", run.describe());
    assert!(run.stdout().contains("note: "), "{}", run.describe());
}

/// bash brace expansion of `a/{b,c}/{d,e}.rs` (no nesting).
fn expand_braces(text: &str) -> Vec<String> {
    let Some(open) = text.find('{') else {
        return vec![text.to_string()];
    };
    let close = open + text[open..].find('}').expect("closing brace");
    text[open + 1..close]
        .split(',')
        .flat_map(|alt| {
            expand_braces(&text[close + 1..])
                .into_iter()
                .map(move |rest| format!("{}{alt}{rest}", &text[..open]))
        })
        .collect()
}

/// Generated bindings: one name defined in every file of every
/// architecture. Too many to name one by one, all are named as brace
/// expressions that expand to exactly the files that define it.
#[test]
fn many_definitions_are_named_as_brace_expressions() {
    let fx = Fixture::new();
    let mut defining = Vec::new();
    for arch in ["aarch64", "arm", "mips64", "powerpc", "riscv64", "x86_64"] {
        for module in [
            "general", "ioctl", "net", "netlink", "prctl", "ptrace", "system", "xdp",
        ] {
            let path = format!("gen/{arch}/{module}.rs");
            fx.write(&path, "pub type kernel_word = u64;\n");
            defining.push(path);
        }
    }
    fx.write("gen/x86_64/bootparam.rs", "pub type kernel_word = u64;\n");
    defining.push("gen/x86_64/bootparam.rs".to_string());
    fx.write("src/use.rs", "let w: kernel_word = 0;\n");
    let run = fx.run(&["search", "kernel_word", "--budget-tokens", "400"]);
    run.expect_code(0);
    let on_page = run.files();
    let note = run
        .lines()
        .into_iter()
        .find(|l| l.starts_with("note: "))
        .unwrap_or_else(|| panic!("no note\n{}", run.describe()));
    let prefix = format!(
        "note: {} more files define it, on other pages; all {} that do: ",
        defining.len() - on_page.len(),
        defining.len()
    );
    let exprs = note
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("{note}\n{}", run.describe()));
    let mut named: Vec<String> = exprs.split(", ").flat_map(expand_braces).collect();
    named.sort();
    defining.sort();
    assert_eq!(named, defining, "{note}");
    assert!(note.len() < 400, "{note}");
}

/// A usage error read from a pipe (an agent) carries no terminal escape
/// codes.
#[test]
fn a_bad_flag_is_exit_2_in_plain_text() {
    let fx = Fixture::new();
    let run = fx.run(&["search", "Widget", "--no-such-flag"]);
    run.expect_code(2);
    run.expect_stderr_has("unexpected argument '--no-such-flag'");
    assert!(
        !run.output.stderr.contains(&0x1b),
        "escape codes on a pipe:\n{}",
        run.describe()
    );
}

#[test]
fn json_output_follows_the_documented_schema() {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Doc {
        query: String,
        kind: String,
        fallback: Option<String>,
        hits: u64,
        matches: u64,
        files: u64,
        shown: u64,
        already_shown: u64,
        left_out: u64,
        page: u64,
        pages: u64,
        tokens: u64,
        elapsed_ms: u64,
        repro: String,
        next: Option<String>,
        defs_not_on_page: Vec<String>,
        results: Vec<FileResult>,
        code: Vec<Code>,
    }
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct FileResult {
        path: String,
        hits: u64,
        matches: u64,
        shown: u64,
        already_shown: u64,
        left_out: u64,
        score: i64,
        signals: Vec<Signal>,
        def: bool,
        binary: bool,
        lines: Vec<Line>,
    }
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Signal {
        signal: String,
        points: i64,
    }
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Line {
        line: u64,
        text: String,
        cut_before: u64,
        cut_after: u64,
        def: bool,
        symbol: Option<Symbol>,
    }
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Symbol {
        kind: String,
        name: String,
        start: u32,
        end: u32,
    }
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Code {
        path: String,
        symbol: Symbol,
        lines: Vec<CodeLine>,
    }
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct CodeLine {
        line: u64,
        text: String,
        cut_before: u64,
        cut_after: u64,
    }
    let fx = Fixture::new();
    usage_tree(&fx, 40);
    let run = fx.run(&["search", "Widget", "--json", "--budget-tokens", "300"]);
    run.expect_code(0);
    let doc: Doc = serde_json::from_slice(&run.output.stdout)
        .unwrap_or_else(|e| panic!("{e}\n{}", run.describe()));
    assert_eq!(doc.kind, "literal");
    assert_eq!(doc.page, 1);
    assert!(doc.pages > 1 && doc.next.is_some());
    assert!(doc.results[0].def);
}

#[test]
fn no_match_is_exit_1_with_nothing_on_stdout() {
    let fx = Fixture::new();
    usage_tree(&fx, 3);
    let run = fx.run(&["search", "absent_name_xyz"]);
    run.expect_code(1);
    assert_eq!(run.stdout(), "");
}

#[test]
fn an_invalid_regex_is_exit_2_with_rgs_reason_and_a_hint() {
    let fx = Fixture::new();
    usage_tree(&fx, 3);
    // `--kind auto` reads `Widget::new(` as code (#34: its `(` does no
    // regex work); as a regex it does not compile.
    fx.run(&["search", "Widget::new("]).expect_code(0);
    let run = fx.run(&["search", "--kind", "regex", "Widget::new("]);
    run.expect_code(2);
    assert!(
        run.stderr().contains("regex parse error"),
        "{}",
        run.describe()
    );
    assert!(
        run.stderr().contains("scout search -F 'Widget::new('"),
        "{}",
        run.describe()
    );
    fx.run(&["search", "-F", "Widget::new("]).expect_code(0);
}

#[test]
fn missing_paths_are_named_and_the_rest_is_searched() {
    let fx = Fixture::new();
    usage_tree(&fx, 3);
    let only_missing = fx.run(&["search", "Widget", "nope"]);
    only_missing.expect_code(2);
    assert!(
        only_missing
            .stderr()
            .contains("no such file or directory: nope"),
        "{}",
        only_missing.describe()
    );
    let mixed = fx.run(&["search", "Widget", "nope", "src"]);
    mixed.expect_code(3);
    assert!(mixed.stderr().contains("nope"), "{}", mixed.describe());
    assert!(
        mixed.stdout().contains("src/core.rs"),
        "{}",
        mixed.describe()
    );
}

/// #34: `scout search a nonexist file.txt` printed `1:a`: rg names the
/// files whenever it is given several paths, missing ones included, and
/// scout decided by the paths left after dropping the missing one.
#[test]
fn regression_34_a_missing_path_among_several_keeps_the_file_names() {
    let mut fx = Fixture::new();
    fx.write("file.txt", "a\nalpha_beta here\n");
    // What rg prints for the same arguments (and on stderr, the missing one).
    let rg_stdout = |pattern: &str| {
        let out = fx.rg(&["-n", "--no-heading", "-e", pattern, "nonexist", "file.txt"]);
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8(out.stdout).unwrap()
    };
    // Passthrough (no literal anchor) and rg's own lines (smaller than a
    // page): both are rg's lines.
    for pattern in ["a", "alpha_beta"] {
        let run = fx.run(&["search", pattern, "nonexist", "file.txt"]);
        run.expect_code(3).expect_stderr_has("nonexist");
        assert_eq!(run.stdout(), rg_stdout(pattern), "\n{}", run.describe());
        assert!(
            run.stdout().starts_with("file.txt:"),
            "\n{}",
            run.describe()
        );
    }
    // The JSON's repro line prints what the page printed.
    let doc = fx
        .run(&["search", "alpha_beta", "nonexist", "file.txt", "--json"])
        .json();
    assert_eq!(
        doc["repro"],
        "rg -n --no-heading --with-filename -F -e alpha_beta file.txt"
    );
    // One file typed alone is still unnamed, as in rg.
    fx.run(&["search", "a", "file.txt"])
        .expect_code(0)
        .expect_lines(&["1:a", "2:alpha_beta here"]);
    // rg's plain lines read without records (an rg config in effect).
    fx.write(".rgconfig", "");
    let config = fx.root().join(".rgconfig");
    let expected = rg_stdout("a");
    fx.set_env("RIPGREP_CONFIG_PATH", config.as_os_str());
    let run = fx.run(&["search", "a", "nonexist", "file.txt"]);
    run.expect_code(3);
    assert_eq!(run.stdout(), expected, "\n{}", run.describe());
}

#[test]
fn an_unreadable_directory_is_exit_3_and_the_rest_is_searched() {
    use std::os::unix::fs::PermissionsExt;
    let fx = Fixture::new();
    usage_tree(&fx, 3);
    fx.write("locked/secret.rs", "Widget\n");
    std::fs::set_permissions(fx.root(), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(
        fx.root().join("locked"),
        std::fs::Permissions::from_mode(0o000),
    )
    .unwrap();
    let mut cmd = fx.command(&["search", "Widget"]);
    // root reads everything: drop to nobody where the tests run as root.
    if unsafe_free_is_root() {
        let mut wrapped = std::process::Command::new("setpriv");
        wrapped
            .args([
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                env!("CARGO_BIN_EXE_scout"),
                "search",
                "Widget",
            ])
            .current_dir(fx.root())
            .env_clear()
            .envs(util::passed_on())
            .env("PATH", util::test_path())
            .env("HOME", "/nonexistent");
        cmd = wrapped;
    }
    let output = cmd.output().unwrap();
    std::fs::set_permissions(
        fx.root().join("locked"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "stderr: {stderr}");
    assert!(stderr.contains("locked"), "{stderr}");
    assert!(String::from_utf8_lossy(&output.stdout).contains("src/core.rs"));
}

fn unsafe_free_is_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

#[test]
fn binary_files_are_counted_but_not_quoted() {
    let fx = Fixture::new();
    fx.write("blob.bin", b"header\x00\nWidget inside\n");
    fx.write("a.rs", "Widget\n".repeat(40));
    let run = fx.run(&["search", "Widget", "blob.bin", "a.rs", "--json"]);
    run.expect_code(0);
    let blob = run.json_result("blob.bin");
    assert_eq!(blob["binary"], true);
    assert_eq!(blob["lines"].as_array().unwrap().len(), 0);
    let text = fx.run(&[
        "search",
        "Widget",
        "blob.bin",
        "a.rs",
        "--budget-tokens",
        "0",
    ]);
    assert!(
        text.stdout().contains("blob.bin  (1x) [binary]"),
        "{}",
        text.describe()
    );
}

/// A NUL byte past rg's first read: rg prints the lines before it, then
/// stops with a notice. The counts are the lines rg printed.
#[test]
fn a_binary_file_found_late_keeps_the_lines_rg_printed() {
    let fx = Fixture::new();
    let mut content = "Widget line\n".repeat(20_000).into_bytes();
    content.extend_from_slice(b"\x00 Widget after the NUL\n");
    fx.write("late.dat", content);
    fx.write("a.rs", "struct Widget;\n");
    let printed = fx
        .rg_lines(&["-e", "Widget", "."])
        .iter()
        .filter(|l| l.starts_with(b"./late.dat:") && !l.windows(7).any(|w| w == b"WARNING"))
        .count() as u64;
    assert!(printed > 0 && printed < 20_000, "{printed}");
    let run = fx.run(&["search", "Widget", ".", "--json"]);
    run.expect_code(0);
    let late = run.json_result("./late.dat");
    assert_eq!(late["hits"], printed, "{}", run.describe());
    assert_eq!(late["binary"], true);
    assert_eq!(run.json()["hits"], printed + 1);
}

/// A config file can add columns and context to rg's plain output; the
/// counts must not change.
#[test]
fn an_rg_config_file_does_not_change_the_counts() {
    let mut fx = Fixture::new();
    usage_tree(&fx, 12);
    let plain = fx.run(&["search", "Widget", "--json"]).json();
    fx.write(".rgconfig", "--column\n--context=1\n--byte-offset\n");
    let config = fx.root().join(".rgconfig");
    fx.set_env("RIPGREP_CONFIG_PATH", config.as_os_str());
    let run = fx.run(&["search", "Widget", "--json"]);
    run.expect_code(0);
    let doc = run.json();
    assert_eq!(doc["hits"], plain["hits"], "{}", run.describe());
    assert_eq!(doc["results"], plain["results"]);
}

#[test]
fn a_file_name_with_a_newline_is_one_file() {
    let fx = Fixture::new();
    fx.write("two\nlines.rs", "fn widget_maker() {}\nwidget_maker();\n");
    fx.write("b.rs", "widget_maker();\n");
    let run = fx.run(&["search", "widget_maker", "--json"]);
    run.expect_code(0);
    let doc = run.json();
    assert_eq!(doc["hits"], 3, "{}", run.describe());
    let paths: Vec<&str> = doc["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["two\nlines.rs", "b.rs"]);
}

#[test]
fn non_utf8_names_and_lines_are_printed_as_their_bytes() {
    use std::os::unix::ffi::OsStrExt;
    let fx = Fixture::new();
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9.txt");
    fx.write(name, b"d\xe9j\xe0 Widget here\n");
    for i in 0..20 {
        fx.write(format!("u{i}.txt"), "Widget usage line\n".repeat(4));
    }
    let run = fx.run(&["search", "Widget", "--budget-tokens", "0"]);
    run.expect_code(0);
    let stdout = &run.output.stdout;
    assert!(
        stdout.windows(8).any(|w| w == b"caf\xe9.txt"),
        "{}",
        run.describe()
    );
    let line = b"d\xe9j\xe0 Widget here";
    assert!(
        stdout.windows(line.len()).any(|w| w == line),
        "{}",
        run.describe()
    );
}

#[test]
fn regression_54_smart_and_edit_print_a_non_utf8_name_as_its_bytes() {
    // #54 item 14: smart's text page and edit's report printed U+FFFD,
    // a path that cannot be opened.
    use std::os::unix::ffi::OsStrExt;
    let fx = Fixture::new();
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9_cache.py");
    fx.write(
        name,
        "def evict_stale_entries(cache):\n    \"\"\"Evict the stale cache entries.\"\"\"\n    return cache\n",
    );
    fx.write("other.py", "def unrelated():\n    return 1\n");
    let has =
        |run: &util::Run, bytes: &[u8]| run.output.stdout.windows(bytes.len()).any(|w| w == bytes);
    let smart = fx.run(&["smart", "evict stale cache entries"]);
    smart.expect_code(0);
    assert!(has(&smart, b"caf\xe9_cache.py:1"), "{}", smart.describe());
    // The file named as its bytes, as a shell passes it.
    let edit_run = |extra: &[&str]| {
        let mut args = vec![
            "edit",
            "--old",
            "return cache",
            "--new",
            "return dict(cache)",
        ];
        args.extend(["--dry-run"]);
        args.extend(extra);
        let output = fx.command(&args).arg(name).output().unwrap();
        util::Run {
            args: args.iter().map(|a| a.to_string()).collect(),
            cwd: fx.root().to_path_buf(),
            output,
        }
    };
    let edit = edit_run(&[]);
    edit.expect_code(0);
    assert!(
        has(&edit, b"caf\xe9_cache.py  (1 rewritten)"),
        "{}",
        edit.describe()
    );
    assert!(!has(&edit, "\u{fffd}".as_bytes()), "{}", edit.describe());
    // The JSON says the bytes too, where its text cannot.
    let json = edit_run(&["--json"]);
    let bytes: Vec<u8> = json.json()["changes"][0]["path_bytes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_u64().unwrap() as u8)
        .collect();
    assert_eq!(bytes, b"caf\xe9_cache.py", "{}", json.describe());
}

#[test]
fn without_rg_scout_says_how_to_install_it() {
    let mut fx = Fixture::new();
    usage_tree(&fx, 2);
    fx.path_var = fx.root().join("empty-bin").into_os_string();
    let run = fx.run(&["search", "Widget"]);
    run.expect_code(2);
    assert!(
        run.stderr().contains("rg (ripgrep) was not found"),
        "{}",
        run.describe()
    );
    assert!(
        run.stderr().contains("apt-get install ripgrep"),
        "{}",
        run.describe()
    );
    // help and version still work
    fx.run(&["--help"]).expect_code(0);
    let version = fx.run(&["--version"]);
    version.expect_code(0);
    assert!(
        version.stdout().contains("rg: unusable"),
        "{}",
        version.describe()
    );
}

#[test]
fn scout_rg_pointing_at_something_else_is_an_error_not_no_match() {
    let mut fx = Fixture::new();
    usage_tree(&fx, 2);
    fx.set_env("SCOUT_RG", "/bin/echo");
    let run = fx.run(&["search", "Widget"]);
    run.expect_code(2);
    assert!(
        run.stderr().contains("does not behave like ripgrep"),
        "{}",
        run.describe()
    );
}

#[test]
fn a_closed_stdout_ends_quietly() {
    let fx = Fixture::new();
    usage_tree(&fx, 300);
    let mut child = fx
        .command(&["search", "Widget", "--budget-tokens", "0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}

#[test]
fn a_phrase_with_no_literal_hit_falls_back_to_any_word() {
    let fx = Fixture::new();
    fx.write("both.py", "def parse(args):\n    return Args(args)\n");
    fx.write("one.py", "x = parse(1)\n");
    fx.write("none.py", "nothing here\n");
    let run = fx.run(&["search", "parse args", "--explain"]);
    run.expect_code(0);
    assert!(
        run.stdout()
            .contains("fallback: no line has \"parse args\""),
        "{}",
        run.describe()
    );
    let files = run.files();
    assert_eq!(
        files[0].0,
        "both.py",
        "the file with both words first\n{}",
        run.describe()
    );
    assert_eq!(files.len(), 2);
    assert!(
        run.stdout()
            .contains("repro: rg -n --no-heading -F -i -e parse -e args"),
        "{}",
        run.describe()
    );
    // When rg's lines are smaller than the page they are printed, and the
    // fallback is still said (on stderr).
    let plain = fx.run(&["search", "parse args"]);
    assert!(
        plain.stdout().starts_with("both.py:1:def parse(args):"),
        "{}",
        plain.describe()
    );
    assert!(
        plain.stderr().contains("no line has \"parse args\""),
        "{}",
        plain.describe()
    );
}

#[test]
fn flags_shared_with_rg_mean_what_they_mean_in_rg() {
    let fx = Fixture::new();
    usage_tree(&fx, 10);
    fx.write("notes.md", "widget widget\n");
    // -i
    let run = fx.run(&["search", "-i", "WIDGET", "--json"]);
    assert_eq!(
        run.json()["hits"],
        fx.rg_counts(&["-i", "-F", "-e", "WIDGET"]).0
    );
    // -g exclusion
    let run = fx.run(&["search", "-i", "widget", "-g", "!*.rs", "--json"]);
    assert_eq!(run.json()["results"][0]["path"], "notes.md");
    assert_eq!(run.json()["files"], 1);
    // --type / --lang
    let run = fx.run(&["search", "-i", "widget", "--lang", "md", "--json"]);
    assert_eq!(run.json()["files"], 1);
    // -w
    fx.write("w.txt", "Widgets Widget\n");
    let run = fx.run(&["search", "-w", "Widgets", "--json"]);
    assert_eq!(run.json()["hits"], 1);
    // -e with a leading dash
    fx.write("flags.txt", "use --verbose here\n");
    let run = fx.run(&["search", "-e", "--verbose"]);
    run.expect_code(0);
    assert!(run.stdout().contains("flags.txt"), "{}", run.describe());
    // -m caps quoted lines per file, -l lists files only
    let run = fx.run(&[
        "search",
        "Widget",
        "-m",
        "1",
        "--json",
        "--budget-tokens",
        "0",
    ]);
    assert!(run.json()["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["shown"].as_u64().unwrap() <= 1));
    let run = fx.run(&["search", "Widget", "-l", "--budget-tokens", "0"]);
    assert!(
        run.stdout().lines().all(|l| !l.starts_with("  ")),
        "{}",
        run.describe()
    );
    assert_eq!(
        run.files().len() as u64,
        fx.rg_counts(&["-F", "-e", "Widget"]).1
    );
    // hidden files only with --hidden
    fx.write(".hidden/h.rs", "Widget\n");
    let plain = fx.run(&["search", "Widget", "-l", "--json"]).json();
    let hidden = fx
        .run(&["search", "Widget", "-l", "--json", "--hidden"])
        .json();
    assert_eq!(
        hidden["files"].as_u64().unwrap(),
        plain["files"].as_u64().unwrap() + 1
    );
}

#[test]
fn explain_prints_each_files_score_and_signals() {
    let fx = Fixture::new();
    usage_tree(&fx, 10);
    let run = fx.run(&["search", "Widget", "--explain", "--budget-tokens", "0"]);
    let stdout = run.stdout();
    let score_lines: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("  score "))
        .collect();
    assert_eq!(score_lines.len(), run.files().len(), "{}", run.describe());
    assert!(score_lines[0].contains("def +100000"), "{}", run.describe());
}

#[test]
fn rgs_json_events_and_plain_records_print_the_same_page() {
    // SCOUT_RG_OUTPUT=json forces the --json reader, which otherwise runs
    // only where plain records cannot serve; both must print one page.
    let mut fx = Fixture::new();
    usage_tree(&fx, 40);
    fx.write(
        "src/wide.rs",
        format!("let x = 1; {} Widget::new();\n", "y".repeat(400)),
    );
    let queries: [&[&str]; 6] = [
        &["search", "Widget"],
        &["search", "Widget", "--json"],
        &["search", "-i", "widget", "--budget-tokens", "300"],
        &[
            "search",
            "Widget::\\w+",
            "--page",
            "2",
            "--budget-tokens",
            "200",
        ],
        &["search", "-w", "new", "-l"],
        &["search", "no such phrase here"],
    ];
    // The elapsed milliseconds are the one field that may differ.
    let outcome = |run: &Run| {
        let stdout = match serde_json::from_str::<serde_json::Value>(&run.stdout()) {
            Ok(mut doc) => {
                doc["elapsed_ms"] = 0.into();
                doc.to_string()
            }
            Err(_) => run.stdout_masked(),
        };
        (run.code(), stdout, run.stderr())
    };
    let records: Vec<_> = queries.iter().map(|q| outcome(&fx.run(q))).collect();
    fx.set_env("SCOUT_RG_OUTPUT", "json");
    for (q, expected) in queries.iter().zip(&records) {
        let run = fx.run(q);
        assert_eq!(&outcome(&run), expected, "{}", run.describe());
    }
    assert!(records[0].1.contains("src/core.rs"), "{:?}", records[0]);
}

#[test]
fn the_parser_overrules_a_lexical_definition_in_a_file_whose_definitions_are_elsewhere() {
    // `var helper = (...)` reads as a definition to the lexical rules; the
    // parser, which knows it is a local of `other` (the file defines
    // `other` and `main`), says it is not. The page decodes only the
    // definitions around its lines, and must still know that the file has
    // some (found by bench/same.py on TypeScript's vendored
    // `__createBinding`, which is a module's binding, a definition since
    // #54).
    let fx = Fixture::new();
    fx.write(
        "lib/main.js",
        "function other() {\n  var helper = (this && this.helper) || (Object.create ? 1 : 0);\n  helper(1);\n}\nfunction main() {\n  return 1;\n}\n",
    );
    fx.write("lib/use.js", "helper(2);\n");
    for _ in 0..2 {
        // Cold, then from the cache.
        let run = fx.run(&["search", "helper", "--json"]);
        let file = run.json_result("lib/main.js");
        assert_eq!(file["def"], false, "{}", run.describe());
        assert!(
            file["signals"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s["signal"] == "parser-def"),
            "{}",
            run.describe()
        );
    }
}

#[test]
fn a_name_only_in_comments_or_strings_is_no_definition_where_the_parser_reads_the_file() {
    // Each file's only line with the name reads as a definition to the
    // lexical rules; the parser, which finds no definition in the file,
    // overrules them (#54 item 16), and the real definition ranks first.
    let fx = Fixture::new();
    fx.write(
        "a_old.c",
        "/* Kept for reference:\nvoid flush_queue(int n) {\n  return;\n}\n*/\n",
    );
    fx.write(
        "z_real.c",
        "#include <stdio.h>\n\nvoid flush_queue(int n) {\n  n++;\n}\n",
    );
    fx.write(
        "b_doc.py",
        "\"\"\"Example:\n\ndef flush_queue(n):\n    pass\n\"\"\"\n",
    );
    fx.write(
        "c_tpl.js",
        "const text = `\nfunction flush_queue(n) {\n}\n`;\n",
    );
    for _ in 0..2 {
        // Cold, then from the cache.
        let run = fx.run(&["search", "flush_queue", "--json"]);
        run.expect_code(0);
        for path in ["a_old.c", "b_doc.py", "c_tpl.js"] {
            assert_eq!(
                run.json_result(path)["def"],
                false,
                "{path}\n{}",
                run.describe()
            );
        }
        assert_eq!(
            run.json_result("z_real.c")["def"],
            true,
            "{}",
            run.describe()
        );
        assert_eq!(
            run.json()["results"][0]["path"],
            "z_real.c",
            "{}",
            run.describe()
        );
    }
}

#[test]
fn module_level_bindings_are_definitions() {
    // #54 item 17: a module's own `const`, a Python module's assignment
    // and a Go package's `var` are where those names are defined.
    let fx = Fixture::new();
    fx.write(
        "use.ts",
        "import { Action } from './actions';\nAction.run();\nAction.stop();\n",
    );
    fx.write("actions.ts", "export const Action = {\n  run: 1,\n};\n");
    fx.write(
        "use.py",
        "from levels import LEVELS\nprint(LEVELS)\nprint(LEVELS)\n",
    );
    fx.write(
        "levels.py",
        "LEVELS: dict[str, int] = {\n    \"a\": 1,\n}\n",
    );
    fx.write(
        "use.go",
        "package p\n\nfunc f() {\n\tPool.Get()\n\tPool.Put(1)\n}\n",
    );
    fx.write(
        "pool.go",
        "package p\n\nvar Pool = sync.Pool{\n\tNew: nil,\n}\n",
    );
    for (name, home) in [
        ("Action", "actions.ts"),
        ("LEVELS", "levels.py"),
        ("Pool", "pool.go"),
    ] {
        let run = fx.run(&["search", name, "--json"]);
        run.expect_code(0);
        assert_eq!(run.json_result(home)["def"], true, "{}", run.describe());
        assert_eq!(run.json()["results"][0]["path"], home, "{}", run.describe());
    }
    let read = fx.run(&["read", "levels.py", "--symbol", "LEVELS"]);
    read.expect_code(0);
    assert!(read.stdout().contains("\"a\": 1,"), "{}", read.describe());
    let read = fx.run(&["read", "pool.go", "--symbol", "Pool"]);
    read.expect_code(0);
    assert!(read.stdout().contains("New: nil,"), "{}", read.describe());
}

#[test]
fn the_fallback_ranks_files_by_meaning_and_says_so() {
    let fx = Fixture::new();
    // Many lines with the common words, in a file about something else;
    // one definition named for the rare ones.
    fx.write(
        "noise.py",
        "# the config is read here and there, the file is the file\n".repeat(20),
    );
    fx.write(
        "loader.py",
        "def load_settings_file(path):\n    \"\"\"Parse the configuration file.\"\"\"\n    return path\n",
    );
    let run = fx.run(&["search", "parse the configuration file", "--explain"]);
    run.expect_code(0);
    assert!(
        run.stdout().contains(
            "fallback: no line has \"parse the configuration file\"; showing lines with any of its 4 words, case-insensitive, ranked by meaning as scout smart ranks them"
        ),
        "{}",
        run.describe()
    );
    assert_eq!(run.files()[0].0, "loader.py", "{}", run.describe());
    // --explain shows the score that ordered the files: smart's.
    let explained = run.stdout();
    let loader = explained.split("loader.py").nth(1).unwrap_or("");
    assert!(
        loader
            .lines()
            .nth(1)
            .is_some_and(|l| l.trim_start().starts_with("score ") && l.contains(": meaning +")),
        "{}",
        run.describe()
    );
}

#[test]
fn a_fallback_smart_cannot_rank_points_to_scout_smart() {
    let fx = Fixture::new();
    fx.write("a.txt", "where is it\n");
    let run = fx.run(&["search", "is where", "--explain"]);
    run.expect_code(0);
    assert!(
        run.stdout()
            .contains("case-insensitive; for a question in words, try: scout smart 'is where'"),
        "{}",
        run.describe()
    );
}

#[test]
fn a_long_question_as_a_query_is_repeated_in_part_and_the_page_keeps_its_budget() {
    let fx = Fixture::new();
    for i in 0..40 {
        fx.write(
            format!("src/m{i}.py"),
            "# the reader stops after the last record\ndef f():\n    return 1\n".repeat(3),
        );
    }
    let sentence = "where does the reader stop after the last record was read";
    let question = vec![sentence; 40].join(" ");
    let run = fx.run(&["search", &question, "--budget-tokens", "400"]);
    run.expect_code(0);
    let out = run.stdout();
    assert!(
        out.len() <= 400 * 4,
        "{} bytes over a 1,600-byte budget\n{}",
        out.len(),
        run.describe()
    );
    let lines: Vec<&str> = out.lines().collect();
    let more = question.chars().count() - 200;
    assert!(
        lines[0].starts_with("query: where does")
            && lines[0].contains(&format!("… (+{more} more characters)  kind=literal")),
        "{}",
        run.describe()
    );
    assert!(
        lines[1].contains(&format!(
            "…\" (+{more} more characters); showing lines with any of its 10 words"
        )),
        "each word once: {}",
        run.describe()
    );
    assert!(
        out.contains("files not shown: the same command with --page 2"),
        "{}",
        run.describe()
    );
    let repro = lines.iter().find(|l| l.starts_with("repro: ")).unwrap();
    assert_eq!(repro.matches("-e the ").count(), 1, "{}", run.describe());
    // A pasted paragraph of distinct words: the fallback looks for the
    // first 16, and the page still keeps its budget.
    let paragraph = util::made_up_words(300);
    let pasted = format!("{sentence} {}", paragraph.join(" "));
    let run = fx.run(&["search", &pasted, "--budget-tokens", "400"]);
    run.expect_code(0);
    let out = run.stdout();
    assert!(
        out.len() <= 400 * 4,
        "{} bytes\n{}",
        out.len(),
        run.describe()
    );
    assert!(
        out.contains("showing lines with any of its first 16 words (of 310), case-insensitive"),
        "{}",
        run.describe()
    );
    let repro = out.lines().find(|l| l.starts_with("repro: ")).unwrap();
    assert!(
        repro.contains("-e qzafqz") && !repro.contains("qzagqz"),
        "the 17th word is not looked for: {repro}"
    );
    // The JSON keeps the whole question and a runnable next command.
    let json = fx.run(&["search", &question, "--budget-tokens", "400", "--json"]);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout()).unwrap();
    assert_eq!(doc["query"], question.as_str());
    assert!(doc["next"]
        .as_str()
        .is_some_and(|n| n.contains(sentence) && n.ends_with("--json --page 2")));
}

#[test]
fn a_query_of_one_word_in_two_cases_still_falls_back() {
    let fx = Fixture::new();
    fx.write("a.rs", "fn join(p: &Path) {}\n");
    let run = fx.run(&["search", "PATH path"]);
    run.expect_code(0);
    // A page this small is printed plain; the fallback is said on stderr.
    assert!(
        run.stderr()
            .contains("no line has \"PATH path\"; showing lines with \"PATH\", case-insensitive"),
        "{}",
        run.describe()
    );
    assert!(run.stdout().contains("a.rs"), "{}", run.describe());
}

#[test]
fn a_query_with_a_control_character_keeps_the_header_on_its_lines() {
    let fx = Fixture::new();
    for i in 0..30 {
        fx.write(format!("f{i}.txt"), "the end of the line\n".repeat(4));
    }
    let run = fx.run(&["search", "the\tthe", "--budget-tokens", "300"]);
    run.expect_code(0);
    let out = run.stdout();
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("query: the\\tthe  kind="),
        "{}",
        run.describe()
    );
    assert!(
        lines[1].starts_with("fallback: ")
            && lines[1].ends_with("; for a question in words, try scout smart with it"),
        "{}",
        run.describe()
    );
    assert!(lines[2].starts_with("f"), "{}", run.describe());
}

/// Bad input is exit 2 with rg's message (or scout's), never an empty
/// page that reads as "no match" (#34): a malformed glob, an unknown
/// type, a line break in the query (whose multi-word fallback must not
/// run in its place); and the advice is what works for scout search.
#[test]
fn regression_34_bad_input_is_an_error_not_an_empty_page() {
    let fx = Fixture::new();
    fx.write("a.txt", "hello world\na\nb\n");
    for (args, said) in [
        (
            &["search", "hello", "-g", "["][..],
            "error parsing glob '['",
        ),
        (
            &["search", "hello", "-g", "[", "--json"],
            "error parsing glob '['",
        ),
        (
            &["search", "hello", "--type", "nolang"],
            "unrecognized file type: nolang",
        ),
        (&["search", "-F", "a\nb"], "holds a line break"),
        (&["search", "a\nb"], "holds a line break"),
        (
            &["search", "--kind", "regex", "a\\nb"],
            "is not allowed in a regex",
        ),
    ] {
        let run = fx.run(args);
        run.expect_code(2).expect_stderr_has(said);
        assert_eq!(run.stdout(), "", "{}", run.describe());
        assert!(
            !run.stderr().contains("no line has"),
            "no fallback for a search rg never ran\n{}",
            run.describe()
        );
    }
    let newline = fx.run(&["search", "--kind", "regex", "a\\nb"]);
    assert!(
        !newline.stderr().contains("--multiline"),
        "scout search has no --multiline\n{}",
        newline.describe()
    );
    newline.expect_stderr_has("scout grep -U");
    // What rg could search is still a page with warnings, exit 3: a path
    // that is not there is not bad input of this kind.
    fx.run(&["search", "hello", ".", "nope"])
        .expect_code(3)
        .expect_stdout_has("a.txt");
}

/// `--lang` takes every name its help lists, on a text search too, and
/// `--type` takes them as well: scout's names become rg's types (#34).
#[test]
fn regression_34_every_lang_name_works_on_a_text_search() {
    let fx = Fixture::new();
    fx.write("a.py", "hello = 1\n")
        .write("b.ts", "const hello = 2;\n")
        .write("c.tsx", "const hello = 3;\n")
        .write("d.rs", "let hello = 4;\n");
    for (flag, name, expected) in [
        ("--lang", "python", &["a.py"][..]),
        ("--lang", "py", &["a.py"]),
        ("--lang", "typescript", &["b.ts", "c.tsx"]),
        ("--lang", "tsx", &["c.tsx"]),
        ("--lang", "rust", &["d.rs"]),
        ("--type", "python", &["a.py"]),
        ("--type", "tsx", &["c.tsx"]),
    ] {
        let run = fx.run(&["search", "hello", flag, name, "-l"]);
        run.expect_code(0);
        let files: BTreeSet<String> = run.files().into_iter().map(|(path, _, _)| path).collect();
        let expected: BTreeSet<String> = expected.iter().map(|s| s.to_string()).collect();
        assert_eq!(files, expected, "{flag} {name}\n{}", run.describe());
    }
}

/// A query that starts with '-' and is not a flag of scout search is the
/// query, with flags before and after it; -e and -- keep working; a word
/// that is no flag after the query is still clap's error (#34).
#[test]
fn regression_34_a_query_that_starts_with_a_dash_is_searched() {
    let fx = Fixture::new();
    fx.write(
        "app/Repo.php",
        "<?php\n$rows = $query->where('id', 1)->get();\n",
    )
    .write(
        "docs/push.md",
        "Pass --force to overwrite.\n<!-- draft -->\n",
    )
    .write("src/sign.py", "offset = -1\n");
    for (args, line) in [
        (
            // (Without -F, `(` makes it a regex, and an invalid one: the
            // query's kind is another matter than its dash.)
            &["search", "-F", "->where("][..],
            "$rows = $query->where('id', 1)->get();",
        ),
        (&["search", "-i", "->where", "app", "--json"], "->where("),
        (&["search", "-->"], "<!-- draft -->"),
        (&["search", "-1", "--budget-tokens", "500"], "offset = -1"),
        (&["search", "--force", "docs"], "Pass --force to overwrite."),
        (
            &["search", "-e", "--force", "docs"],
            "Pass --force to overwrite.",
        ),
        (
            &["search", "--", "--force", "docs"],
            "Pass --force to overwrite.",
        ),
    ] {
        fx.run(args).expect_code(0).expect_stdout_has(line);
    }
    fx.run(&["search", "force", "--pagee", "2"])
        .expect_code(2)
        .expect_stderr_has("--page");
    let help = fx.run(&["search", "--help"]);
    help.expect_code(0);
    let said = help
        .stdout()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for needle in [
        "One that starts with '-' ('->where(', '-1', '--force') and is not a flag of scout search is the query too",
        "-e QUERY and -- QUERY work as well",
    ] {
        assert!(said.contains(needle), "{needle}\n{}", help.describe());
    }
}

/// #34: the definitions cache keyed a file by size and mtime alone, so
/// a file renamed into place with both kept was grouped under the
/// definition it no longer has.
#[test]
fn regression_34_a_file_replaced_with_its_size_and_mtime_has_its_own_definitions() {
    let fx = Fixture::new();
    fx.write("a.rs", "fn first() {\n    widget(1);\n}\n");
    fx.set_mtime(
        "a.rs",
        std::time::SystemTime::now() - std::time::Duration::from_secs(3600),
    );
    fx.settle();
    let symbol = |run: &Run| run.json()["results"][0]["lines"][0]["symbol"]["name"].clone();
    let first = fx.run(&["search", "--json", "widget"]);
    assert_eq!(symbol(&first), "first", "{}", first.describe());
    fx.replace_keeping_mtime("a.rs", "fn other() {\n    widget(1);\n}\n");
    let run = fx.run(&["search", "--json", "widget"]);
    assert_eq!(symbol(&run), "other", "{}", run.describe());
    let text = fx.run(&["search", "widget"]);
    text.expect_stdout_has("code: a.rs  function other (1-3)");
}

/// #34: a file changed within the file system's clock tick may be
/// changed again, to the same size, without its stamp moving: its
/// definitions are not stored until it has settled.
#[test]
fn regression_34_definitions_of_a_file_changed_just_now_are_not_cached() {
    let fx = Fixture::new();
    fx.write("a.rs", "fn first() {\n    widget(1);\n}\n");
    // `touch -r`'s old mtime: the file still changed just now.
    fx.set_mtime(
        "a.rs",
        std::time::SystemTime::now() - std::time::Duration::from_secs(3600),
    );
    let entries = || {
        std::fs::read_dir(fx.home.path().join("cache/scout/defs"))
            .map(|d| d.flatten().count())
            .unwrap_or(0)
    };
    fx.run(&["search", "widget"]).expect_code(0);
    assert_eq!(entries(), 0);
    fx.settle();
    fx.run(&["search", "widget"]).expect_code(0);
    assert!(entries() > 0);
}

/// #54: `--budget-tokens 4611686018427387904` (2^62) was multiplied into
/// a budget of nothing, while 2^62-1 showed everything: every count too
/// large for bytes is no limit at all.
#[test]
fn regression_54_a_huge_budget_saturates_instead_of_wrapping() {
    let fx = Fixture::new();
    for i in 0..40 {
        fx.write(
            format!("src/m{i:02}.py"),
            format!("def widget_{i}():\n    return make_widget({i})\n"),
        );
    }
    let page = |budget: &str| {
        let run = fx.run(&["search", "make_widget", "--budget-tokens", budget]);
        run.expect_code(0);
        run.stdout_masked()
    };
    let unlimited = page("0");
    assert!(unlimited.contains("src/m39.py"), "{unlimited}");
    assert_eq!(page("4611686018427387903"), unlimited);
    assert_eq!(page("4611686018427387904"), unlimited);
    assert_eq!(page("18446744073709551615"), unlimited);
}

/// #54: an exact phrase with no hit (`-F`, `-w`, `--kind literal`)
/// exited 0 with the lines holding any of its words; as with rg it is no
/// match, and stderr says what a looser search would find.
#[test]
fn regression_54_an_exact_phrase_with_no_hit_is_no_match() {
    let fx = Fixture::new();
    fx.write("a.py", "def load(path):\n    return open(path)\n");
    for flags in [&["-F"][..], &["-w"], &["--kind", "literal"]] {
        let run = fx.run(&[&["search"][..], flags, &["load zzz"]].concat());
        run.expect_code(1)
            .expect_stderr_has("no line has \"load zzz\" as asked")
            .expect_stderr_has("scout search 'load zzz'");
        assert_eq!(run.stdout(), "", "{}", run.describe());
    }
    // The automatic reading of several words still falls back.
    fx.run(&["search", "load zzz"])
        .expect_code(0)
        .expect_stdout_has("a.py");
}

/// #54: an rg config holding `--count` or `--files-with-matches` made
/// every search fail ("rg does not behave like ripgrep") while plain rg
/// worked: scout chooses rg's output, and the rest of the file still
/// applies (`--hidden` here).
#[test]
fn regression_54_an_rg_config_that_chooses_the_output_is_overruled() {
    let mut fx = Fixture::new();
    fx.write("a.py", "def needle():\n    return 1\n");
    fx.write(".hidden/b.py", "needle()\n");
    let plain = fx.run(&["search", "needle", "--hidden", "--json"]);
    plain.expect_code(0);
    for flag in ["--count", "--files-with-matches", "--json"] {
        let config = fx.home.path().join(format!("rgrc{flag}"));
        std::fs::write(&config, format!("{flag}\n--hidden\n")).unwrap();
        fx.set_env("RIPGREP_CONFIG_PATH", config.as_os_str());
        let run = fx.run(&["search", "needle", "--json"]);
        run.expect_code(0);
        let (doc, want) = (run.json(), plain.json());
        assert_eq!(doc["hits"], want["hits"], "{flag}: {}", run.describe());
        assert_eq!(doc["files"], 2, "{flag}: {}", run.describe());
        fx.run(&["grep", "needle", "--output-mode", "content"])
            .expect_code(0)
            .expect_stdout_has("a.py:1:def needle():");
    }
}

/// #54: `--budget-tokens 20` printed 90-token pages with `shown=0`, page
/// after page. A budget that shows no line is refused, naming one that
/// shows a line; that one does.
#[test]
fn regression_54_a_budget_too_small_for_a_line_says_what_is_enough() {
    let fx = Fixture::new();
    for i in 0..30 {
        fx.write(
            format!("src/module_with_a_long_name_{i:02}.py"),
            format!("def widget_{i}():\n    return make_widget({i})\n"),
        );
    }
    let run = fx.run(&["search", "make_widget", "--budget-tokens", "20"]);
    run.expect_code(2)
        .expect_stderr_has("is too small for a page");
    assert_eq!(run.stdout(), "", "{}", run.describe());
    let enough = regex::Regex::new(r"--budget-tokens (\d+) holds")
        .unwrap()
        .captures(&run.stderr())
        .map(|c| c[1].to_string())
        .unwrap_or_else(|| panic!("{}", run.describe()));
    let page = fx.run(&["search", "make_widget", "--budget-tokens", &enough]);
    page.expect_code(0);
    let shown: u64 = page.header_field("shown").unwrap().parse().unwrap();
    assert!(shown >= 1, "{}", page.describe());
}

/// #54: "nothing was searched" had four exit codes: 3 for a glob leaving
/// no file or a broken link as the only path (3 means the rest was
/// searched), 2 as "rg failed" in grep, 1 for a structural search with no
/// file of its language. It is 2, with why, in every command and over
/// `scout call`.
#[test]
fn regression_54_nothing_searched_is_exit_2_everywhere() {
    let fx = Fixture::new();
    fx.write("a.py", "def load():\n    return 1\n");
    std::os::unix::fs::symlink("missing.py", fx.root().join("broken.py")).unwrap();
    for args in [
        &["search", "load", "-g", "none/**"][..],
        &["grep", "load", "--glob", "none/**"],
        &["smart", "load things", "-g", "none/**"],
        &["search", "--structural", "--lang", "go", "fmt.Println($A)"],
        &["search", "load", "broken.py"],
    ] {
        let run = fx.run(args);
        run.expect_code(2);
        assert!(run.stderr().contains("nothing"), "{}", run.describe());
        assert_eq!(run.stdout(), "", "{}", run.describe());
    }
    let answer = fx.run(&[
        "call",
        r#"{"mode":"search","query":"load","glob":"none/**"}"#,
    ]);
    answer.expect_code(2);
    assert!(
        answer.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("nothing was searched"),
        "{}",
        answer.describe()
    );
    // One missing path beside one searched: the rest was searched, 3.
    fx.run(&["search", "load", "broken.py", "a.py"])
        .expect_code(3);
}

#[test]
fn the_seven_new_languages_group_lines_under_their_definitions() {
    // One file per language: the definition is found by the parser, the
    // file comes first, and a line inside a definition stands under it.
    let fx = Fixture::new();
    let cases: [(&str, &str, &str, &str); 7] = [
        (
            "swift/Cart.swift",
            "struct Cart {\n    var items: [Int] = []\n\n    func total() -> Int {\n        return items.count\n    }\n}\n",
            "items",
            "struct Cart (1-7)",
        ),
        (
            "scala/Cart.scala",
            "object Cart {\n  def total(items: List[Int]): Int = {\n    val n = items.size\n    n\n  }\n}\n",
            "items",
            "method Cart.total (2-5)",
        ),
        (
            "elixir/cart.ex",
            "defmodule Shop.Cart do\n  def total(items) do\n    length(items)\n  end\nend\n",
            "items",
            "method Shop.Cart.total (2-4)",
        ),
        (
            "haskell/Cart.hs",
            "module Cart where\n\ntotal :: [Int] -> Int\ntotal items =\n  length items\n",
            "items",
            "function total (3-5)",
        ),
        (
            "zig/cart.zig",
            "const Cart = struct {\n    fn total(items: []const u32) usize {\n        return items.len;\n    }\n};\n",
            "items",
            "method Cart.total (2-4)",
        ),
        (
            "bash/cart.sh",
            "total() {\n  local items=$1\n  echo \"$items\"\n}\n",
            "items",
            "function total (1-4)",
        ),
        (
            "dart/cart.dart",
            "class Cart {\n  int total(List<int> items) {\n    return items.length;\n  }\n}\n",
            "items",
            "method Cart.total (2-4)",
        ),
    ];
    for (path, source, _, _) in &cases {
        fx.write(path, source);
    }
    for (path, _, word, heading) in cases {
        let dir = path.split('/').next().unwrap();
        let run = fx.run(&["search", word, dir]);
        run.expect_code(0)
            .expect_stdout_has(&format!("  {heading}\n"));
    }
    // `read --symbol` takes the language's qualified names.
    for (path, symbol, first) in [
        ("elixir/cart.ex", "Shop.Cart.total", "  def total(items) do"),
        (
            "zig/cart.zig",
            "Cart.total",
            "    fn total(items: []const u32) usize {",
        ),
        (
            "dart/cart.dart",
            "Cart.total",
            "  int total(List<int> items) {",
        ),
    ] {
        fx.run(&["read", path, "--symbol", symbol])
            .expect_code(0)
            .expect_stdout_has(first);
    }
    // The definition comes first, before a file rg lists before it.
    fx.write(
        "elixir/a_use.ex",
        "defmodule Use do\n  def go, do: Shop.Cart.total([])\nend\n",
    );
    let run = fx.run(&["search", "total", "elixir"]);
    assert!(
        run.stdout()
            .starts_with("elixir/cart.ex:2:  def total(items) do\n"),
        "{}",
        run.describe()
    );
}
