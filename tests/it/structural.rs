//! `scout search --structural` (#13): ast-grep patterns on fixture trees,
//! one test per pattern family of the issue on a realistic snippet, then
//! the page's flags (-l, --json, --page, session memory, --again, attached
//! code, rg's file selection) and the refusals.

use crate::util;

use crate::util::Fixture;

fn structural(fx: &Fixture, lang: &str, pattern: &str) -> util::Run {
    fx.run(&["search", "--structural", "--lang", lang, pattern])
}

#[test]
fn a_rust_method_chain_is_matched_across_lines_and_shown_by_its_range() {
    let fx = Fixture::new();
    fx.write(
        "src/config.rs",
        "use std::fs;\n\npub fn load(path: &str) -> Config {\n    let text = fs::read_to_string(path)\n        .unwrap();\n    toml::from_str(&text).unwrap()\n}\n\npub fn name() -> String {\n    // x.unwrap() in a comment is not code\n    String::from(\"unwrap\")\n}\n",
    );
    let run = structural(&fx, "rust", "$X.unwrap()");
    run.expect_code(0);
    assert_eq!(
        run.header_field("matches").as_deref(),
        Some("2"),
        "{}",
        run.describe()
    );
    assert_eq!(
        run.header_field("files").as_deref(),
        Some("1"),
        "{}",
        run.describe()
    );
    assert_eq!(
        run.header_field("parsed").as_deref(),
        Some("1"),
        "{}",
        run.describe()
    );
    run.expect_stdout_has("  function load (3-7)\n    4-5:     let text = fs::read_to_string(path)\n    6:     toml::from_str(&text).unwrap()\n");
    assert!(!run.stdout().contains("10:"), "{}", run.describe());
}

#[test]
fn a_rust_macro_pattern_matches_every_invocation() {
    let fx = Fixture::new();
    fx.write(
        "src/main.rs",
        "fn main() {\n    println!(\"start\");\n    let n = 3;\n    println!(\"{} items\", n);\n    eprintln!(\"done\");\n}\n",
    );
    let run = structural(&fx, "rs", "println!($$$)");
    run.expect_code(0);
    assert_eq!(
        run.header_field("matches").as_deref(),
        Some("2"),
        "{}",
        run.describe()
    );
    run.expect_stdout_has(
        "    2:     println!(\"start\");\n    4:     println!(\"{} items\", n);\n",
    );
}

#[test]
fn typescript_generics_and_jsx_elements_match_in_tsx() {
    let fx = Fixture::new();
    fx.write(
        "src/App.tsx",
        "import { useState } from \"react\";\n\nexport function App() {\n  const [rows, setRows] = useState<Row[]>([]);\n  const [open, setOpen] = useState(false);\n  return <Table rows={rows} onSort={setRows} />;\n}\n",
    );
    let generic = structural(&fx, "tsx", "useState<$T>($$$A)");
    generic.expect_code(0);
    assert_eq!(
        generic.header_field("matches").as_deref(),
        Some("1"),
        "{}",
        generic.describe()
    );
    generic.expect_stdout_has("4:   const [rows, setRows] = useState<Row[]>([]);");
    let jsx = structural(&fx, "tsx", "<Table $$$PROPS />");
    jsx.expect_code(0);
    jsx.expect_stdout_has("6:   return <Table rows={rows} onSort={setRows} />;");
}

#[test]
fn python_decorators_and_except_clauses_match() {
    let fx = Fixture::new();
    fx.write(
        "pkg/cache.py",
        "import functools\n\n@functools.lru_cache(maxsize=128)\ndef lookup(key):\n    try:\n        return table[key]\n    except Exception:\n        pass\n\n@staticmethod\ndef other():\n    try:\n        go()\n    except ValueError:\n        pass\n",
    );
    let decorator = structural(&fx, "py", "@functools.lru_cache($$$)");
    decorator.expect_code(0);
    decorator.expect_stdout_has("3: @functools.lru_cache(maxsize=128)");
    assert_eq!(decorator.header_field("matches").as_deref(), Some("1"));
    let except = structural(&fx, "python", "except Exception: pass");
    except.expect_code(0);
    assert_eq!(
        except.header_field("matches").as_deref(),
        Some("1"),
        "{}",
        except.describe()
    );
    except.expect_stdout_has("function lookup (3-8)\n    7-8:     except Exception:");
}

#[test]
fn statements_match_in_languages_whose_grammar_needs_a_function_body() {
    let fx = Fixture::new();
    fx.write(
        "cmd/run.go",
        "package main\n\nimport \"fmt\"\n\nfunc run() error {\n\tf, err := open(\"x\")\n\tif err != nil {\n\t\treturn err\n\t}\n\tdefer f.Close()\n\tfmt.Println(\"ok\")\n\treturn nil\n}\n",
    );
    fx.write(
        "src/alloc.c",
        "#include <stdlib.h>\nint main(void) {\n    char *p = malloc(10);\n    if (p == NULL) return 1;\n    zfree(p);\n    return 0;\n}\n",
    );
    fx.write(
        "src/Main.java",
        "class Main {\n    void check(int x) {\n        if (x < 0) throw new IllegalArgumentException(\"neg\");\n        System.out.println(x);\n    }\n}\n",
    );
    fx.write(
        "src/Prog.cs",
        "class Prog {\n    void Run() {\n        var items = new List<int>();\n        Console.WriteLine(items.Count);\n    }\n}\n",
    );
    fx.write(
        "web/index.php",
        "<?php\nfunction total($items) {\n    $sum = count($items);\n    return $sum;\n}\n",
    );
    fx.write(
        "src/move.cpp",
        "#include <utility>\nvoid f(std::string s) {\n    auto t = std::move(s);\n}\n",
    );
    for (lang, pattern, line) in [
        (
            "go",
            "if err != nil { return $E }",
            "7-9: \tif err != nil {",
        ),
        ("go", "fmt.Println($$$)", "11: \tfmt.Println(\"ok\")"),
        ("go", "defer $X.Close()", "10: \tdefer f.Close()"),
        ("c", "malloc($N)", "3:     char *p = malloc(10);"),
        ("c", "return $X;", "4:     if (p == NULL) return 1;"),
        // Read alone, `zfree($P)` is a declaration of $P with type zfree.
        ("c", "zfree($P)", "5:     zfree(p);"),
        ("c++", "std::move($X)", "3:     auto t = std::move(s);"),
        (
            "java",
            "System.out.println($X)",
            "4:         System.out.println(x);",
        ),
        (
            "java",
            "throw new $E($$$);",
            "3:         if (x < 0) throw new IllegalArgumentException(\"neg\");",
        ),
        (
            "cs",
            "var $X = new $T();",
            "3:         var items = new List<int>();",
        ),
        ("php", "return $X;", "4:     return $sum;"),
        ("php", "$sum = count($A);", "3:     $sum = count($items);"),
    ] {
        let run = structural(&fx, lang, pattern);
        assert_eq!(run.code(), 0, "{lang} {pattern}: {}", run.describe());
        assert!(
            run.stdout().contains(line),
            "{lang} {pattern}: {}",
            run.describe()
        );
        assert_eq!(
            run.header_field("files").as_deref(),
            Some("1"),
            "{lang} {pattern}: {}",
            run.describe()
        );
    }
}

#[test]
fn a_pattern_that_does_not_parse_says_where_and_gives_an_example() {
    let fx = Fixture::new();
    fx.write("a.rs", "fn f() { x.unwrap(); }\n");
    let run = structural(&fx, "rust", "$X.unwrap(");
    run.expect_code(2);
    run.expect_stderr_has("the pattern does not parse as rust code\n  $X.unwrap(\n           ^ the parse went wrong here\nexample that works: scout search --structural --lang rust '$X.unwrap()'");
    let several = structural(&fx, "js", "a(); b();");
    several.expect_code(2);
    several.expect_stderr_has("does not parse as one javascript node");
}

#[test]
fn metavariables_eaten_by_the_shell_get_the_quoting_hint() {
    let fx = Fixture::new();
    fx.write("a.rs", "fn f() { x.unwrap(); }\n");
    // What `scout search --structural --lang rust "$X.unwrap()"` passes
    // when X is unset.
    let run = structural(&fx, "rust", ".unwrap()");
    run.expect_code(2);
    run.expect_stderr_has("hint: the shell may have replaced $NAME in the pattern before scout saw it; quote the pattern in single quotes");
}

#[test]
fn only_the_languages_files_are_parsed_with_the_text_searchs_file_selection() {
    let fx = Fixture::new();
    fx.write(".ignore", "target/\n");
    fx.write("src/a.rs", "fn a() { x.unwrap(); }\n");
    fx.write("tests/t.rs", "fn t() { y.unwrap(); }\n");
    fx.write("target/gen.rs", "fn g() { z.unwrap(); }\n");
    fx.write(".hidden/h.rs", "fn h() { w.unwrap(); }\n");
    fx.write("notes.py", "x.unwrap()\n");
    fx.write("README.md", "x.unwrap()\n");
    let all = structural(&fx, "rust", "$X.unwrap()");
    assert_eq!(
        all.header_field("parsed").as_deref(),
        Some("2"),
        "{}",
        all.describe()
    );
    assert_eq!(all.header_field("matches").as_deref(), Some("2"));
    let globbed = fx.run(&[
        "search",
        "--structural",
        "--lang",
        "rust",
        "-g",
        "!tests/**",
        "$X.unwrap()",
    ]);
    assert_eq!(
        globbed.header_field("files").as_deref(),
        Some("1"),
        "{}",
        globbed.describe()
    );
    let hidden = fx.run(&[
        "search",
        "--structural",
        "--lang",
        "rust",
        "--hidden",
        "$X.unwrap()",
    ]);
    assert_eq!(
        hidden.header_field("parsed").as_deref(),
        Some("3"),
        "{}",
        hidden.describe()
    );
    let path = fx.run(&[
        "search",
        "--structural",
        "--lang",
        "rust",
        "$X.unwrap()",
        "tests",
    ]);
    assert_eq!(path.files().len(), 1, "{}", path.describe());
    assert!(path.stdout().contains("tests/t.rs"), "{}", path.describe());
}

#[test]
fn the_page_is_budgeted_paginated_and_accounted_like_a_text_search() {
    let fx = Fixture::new();
    for i in 0..30 {
        let body: String = (0..6)
            .map(|j| format!("    let v{j} = input{j}.parse::<u32>().unwrap();\n"))
            .collect();
        fx.write(
            format!("src/m{i:02}.rs"),
            format!("fn f{i}() {{\n{body}}}\n"),
        );
    }
    let run = fx.run(&[
        "search",
        "--structural",
        "--lang",
        "rust",
        "--budget-tokens",
        "400",
        "$X.unwrap()",
    ]);
    run.expect_code(0);
    assert_eq!(run.header_field("matches").as_deref(), Some("180"));
    assert_eq!(run.header_field("files").as_deref(), Some("30"));
    run.expect_stdout_has("files not shown: scout search --structural --lang rust --budget-tokens 400 '$X.unwrap()' --page 2");
    run.expect_stdout_has("lines not quoted in these files: scout search --structural --lang rust --budget-tokens 0 -m 10000 --again -e '$X.unwrap()' FILE");
    let json = fx.run(&[
        "search",
        "--structural",
        "--lang",
        "rust",
        "--budget-tokens",
        "400",
        "--json",
        "$X.unwrap()",
    ]);
    let doc = json.json();
    assert_eq!(doc["kind"], "structural");
    assert_eq!(doc["lang"], "rust");
    assert_eq!(doc["parsed"], 30);
    assert_eq!(doc["matches"], 180);
    let shown = doc["shown"].as_u64().unwrap();
    let left_out = doc["left_out"].as_u64().unwrap();
    assert_eq!(shown + left_out, doc["hits"].as_u64().unwrap(), "I6: {doc}");
    let second = fx.run(&[
        "search",
        "--structural",
        "--lang",
        "rust",
        "--budget-tokens",
        "400",
        "--page",
        "2",
        "$X.unwrap()",
    ]);
    second.expect_code(0);
    assert_ne!(run.files(), second.files());
    let listed = fx.run(&[
        "search",
        "--structural",
        "--lang",
        "rust",
        "-l",
        "--budget-tokens",
        "0",
        "$X.unwrap()",
    ]);
    assert_eq!(listed.files().len(), 30, "{}", listed.describe());
    assert!(
        !listed.stdout().contains(".parse::<u32>()"),
        "{}",
        listed.describe()
    );
    // The repro line prints every match.
    let repro = fx.run(&[
        "search",
        "--structural",
        "--lang",
        "rust",
        "--budget-tokens",
        "0",
        "-m",
        "10000",
        "--again",
        "-e",
        "$X.unwrap()",
    ]);
    assert_eq!(
        repro.stdout().matches(".unwrap();").count(),
        180,
        "{}",
        repro.describe()
    );
}

#[test]
fn a_repeated_structural_search_collapses_what_the_session_saw_unless_again() {
    let mut fx = Fixture::new();
    fx.set_env("SCOUT_SESSION_ID", "structural-1");
    fx.write(
        "src/a.rs",
        "fn a() {\n    x.unwrap();\n    y.unwrap();\n}\n",
    );
    fx.write("src/b.rs", "fn b() {\n    z.unwrap();\n}\n");
    let first = structural(&fx, "rust", "$X.unwrap()");
    first.expect_code(0);
    let second = structural(&fx, "rust", "$X.unwrap()");
    assert!(
        second.stdout_masked().len() < first.stdout_masked().len(),
        "{}\n{}",
        first.describe(),
        second.describe()
    );
    second.expect_stdout_has("src/a.rs  (2x): 2 already shown, unchanged: 2, 3");
    assert_eq!(
        first.header_field("matches"),
        second.header_field("matches")
    );
    let again = fx.run(&[
        "search",
        "--structural",
        "--lang",
        "rust",
        "--again",
        "$X.unwrap()",
    ]);
    again.expect_stdout_has("    2:     x.unwrap();");
}

#[test]
fn code_is_attached_when_the_matches_sit_in_one_short_definition() {
    let fx = Fixture::new();
    fx.write("src/lib.rs", "pub fn parse(s: &str) -> u32 {\n    let n = s.trim();\n    n.parse().unwrap()\n}\n\npub fn other() {}\n");
    let run = structural(&fx, "rust", "$X.unwrap()");
    run.expect_stdout_has("code: src/lib.rs  function parse (1-4)\n1: pub fn parse(s: &str) -> u32 {\n2:     let n = s.trim();\n3:     n.parse().unwrap()\n4: }\n");
}

#[test]
fn text_flags_and_bad_languages_are_refused_saying_why() {
    let fx = Fixture::new();
    fx.write("a.rs", "fn f() { x.unwrap(); }\n");
    for (flag, why) in [
        (
            "-F",
            "-F does not apply with --structural: a structural pattern is matched as code",
        ),
        ("-i", "-i does not apply with --structural"),
        ("-w", "-w does not apply with --structural"),
    ] {
        let run = fx.run(&[
            "search",
            "--structural",
            "--lang",
            "rust",
            flag,
            "$X.unwrap()",
        ]);
        run.expect_code(2);
        run.expect_stderr_has(why);
    }
    let unknown = structural(&fx, "cobol", "$X");
    unknown.expect_code(2);
    unknown.expect_stderr_has("unknown language \"cobol\"; the languages are rust, python, javascript, typescript, tsx, go, ruby, java, kotlin, csharp, c, cpp, php, lua, luau, swift, scala, elixir, haskell, zig, bash, dart");
    let none = fx.run(&["search", "--structural", "$X.unwrap()"]);
    none.expect_code(2);
    // Without --structural, --lang is still --type.
    let typed = fx.run(&["search", "unwrap", "--lang", "rust"]);
    typed.expect_code(0);
}

#[test]
fn no_match_is_exit_one_and_prints_nothing() {
    let fx = Fixture::new();
    fx.write("a.rs", "fn f() { x.expect(\"y\"); }\n");
    let run = structural(&fx, "rust", "$X.unwrap()");
    run.expect_code(1);
    assert_eq!(run.stdout(), "");
    // A pattern that parses but lost its metavariables to the shell
    // (`"foo($$$)"`: $$ is the shell's process id).
    let eaten = structural(&fx, "rust", "foo(31337)");
    eaten.expect_code(1);
    eaten.expect_stderr_has(
        "hint: no match; if the shell replaced $NAME in the pattern, quote it in single quotes",
    );
}

/// A file lacking a word the pattern spells out is not parsed (#13); the
/// words are the pattern's own, so none comes from the context it was
/// parsed in (C's `void _() {`, Go's `func _() {`), and keywords that
/// PHP reads in any case do not count.
#[test]
fn files_are_skipped_only_for_lacking_a_word_the_pattern_itself_spells() {
    let fx = Fixture::new();
    fx.write(
        "src/free.c",
        "int main(int argc) {\n    zfree(argc);\n    return 0;\n}\n",
    );
    fx.write("src/other.c", "int main(void) {\n    free(p);\n}\n");
    fx.write(
        "vars.go",
        "package main\n\nimport \"fmt\"\n\nvar s = fmt.Sprintf(\"%d\", 1)\n",
    );
    fx.write("up.php", "<?php\nFUNCTION f($x) {\n    RETURN $x;\n}\n");
    let c = structural(&fx, "c", "zfree($P)");
    c.expect_code(0);
    assert_eq!(
        c.header_field("matches").as_deref(),
        Some("1"),
        "{}",
        c.describe()
    );
    // A skipped file still counts as searched.
    assert_eq!(
        c.header_field("parsed").as_deref(),
        Some("2"),
        "{}",
        c.describe()
    );
    c.expect_stdout_has("2:     zfree(argc);");
    let go = structural(&fx, "go", "fmt.Sprintf($$$)");
    go.expect_code(0);
    go.expect_stdout_has("5: var s = fmt.Sprintf(\"%d\", 1)");
    let php = structural(&fx, "php", "return $X;");
    php.expect_code(0);
    php.expect_stdout_has("3:     RETURN $x;");
}
