//! The definition first, on every page (#24): rg's own lines in the
//! page's order, the name's own declaration before its members and before
//! test helpers, remembered lines listed where they collapse, `-l` in the
//! pages' order, imports quoted after real uses.

use crate::util::{Fixture, Run};

/// Paths of a page's file blocks, in order.
fn paths(run: &Run) -> Vec<String> {
    run.files().into_iter().map(|(path, _, _)| path).collect()
}

/// Every file of a search, page after page (`-l` or the ranked view).
fn all_pages(fx: &Fixture, args: &[&str]) -> Vec<String> {
    let first = fx.run(args);
    first.expect_code(0);
    let pages: usize = first
        .header_field("page")
        .and_then(|p| p.split('/').nth(1).map(str::to_string))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no page=N/M\n{}", first.describe()));
    let mut files = paths(&first);
    for page in 2..=pages {
        let page = page.to_string();
        let mut argv = args.to_vec();
        argv.extend(["--page", &page]);
        files.extend(paths(&fx.run(&argv)));
    }
    files
}

#[test]
fn regression_24_rg_lines_printed_instead_of_a_page_come_in_the_page_order() {
    let fx = Fixture::new();
    // The caller's path sorts before the definer's: rg (and the old sort
    // by path) prints the call first.
    fx.write(
        "a_app.py",
        "from z_core import parse_config\n\nparse_config('x')\n",
    );
    fx.write("z_core.py", "def parse_config(path):\n    return path\n");
    let run = fx.run(&["search", "parse_config"]);
    run.expect_code(0);
    assert!(!run.stdout().starts_with("query: "), "{}", run.describe());
    let mut expected: Vec<Vec<u8>> = fx
        .rg_lines(&["-F", "-e", "parse_config", "."])
        .into_iter()
        .map(|l| l.strip_prefix(b"./").unwrap_or(&l).to_vec())
        .collect();
    let printed: Vec<Vec<u8>> = run
        .stdout()
        .lines()
        .map(|l| l.as_bytes().to_vec())
        .collect();
    // Exactly rg's lines ...
    expected.sort();
    let mut sorted = printed.clone();
    sorted.sort();
    assert_eq!(sorted, expected, "{}", run.describe());
    // ... the definer's first, each file's in line order.
    run.expect_lines(&[
        "z_core.py:1:def parse_config(path):",
        "a_app.py:1:from z_core import parse_config",
        "a_app.py:3:parse_config('x')",
    ]);
}

/// A Go tree where `Appender` is an interface in one file and a method in
/// many, some of them test helpers with more uses than the interface's.
fn appender_tree(fx: &Fixture) {
    fx.write(
        "storage/interface.go",
        "package storage\n\ntype Appendable interface {\n\tAppender() Appender\n}\n\n\
         // An Appender adds samples.\ntype Appender interface {\n\tAppend() error\n}\n",
    );
    let uses: String = (0..12)
        .map(|i| format!("\tvar a{i} storage.Appender = h.Appender()\n"))
        .collect();
    for dir in ["aaa/head", "util/teststorage", "tsdb"] {
        fx.write(
            format!("{dir}/appender.go"),
            format!(
                "package x\n\nfunc (h *Head) Appender() storage.Appender {{\n\treturn nil\n}}\n\n\
                 func use(h *Head) {{\n{uses}}}\n"
            ),
        );
    }
    for i in 0..30 {
        fx.write(
            format!("cmd/c{i:02}.go"),
            format!("package cmd\n\nfunc run{i}(a storage.Appender) {{ a.Append() }}\n"),
        );
    }
}

#[test]
fn regression_24_the_names_own_declaration_leads_its_members_and_test_helpers() {
    let fx = Fixture::new();
    appender_tree(&fx);
    for lexical in [false, true] {
        let mut args = vec!["search", "Appender"];
        if lexical {
            args.push("--lexical");
        }
        let run = fx.run(&args);
        run.expect_code(0);
        let files = paths(&run);
        assert_eq!(files[0], "storage/interface.go", "{}", run.describe());
        // Its own declaration is quoted first in the file, before the
        // interface member of the same name.
        let out = run.stdout();
        let block: Vec<&str> = out
            .lines()
            .skip_while(|l| !l.starts_with("storage/interface.go"))
            .skip(1)
            .take_while(|l| l.starts_with(' '))
            .filter(|l| l.trim_start().starts_with(char::is_numeric))
            .collect();
        assert!(
            block[0]
                .trim_start()
                .starts_with("8: type Appender interface"),
            "{block:?}\n{}",
            run.describe()
        );
        assert!(
            block.iter().any(|l| l.contains("4: \tAppender() Appender")),
            "{}",
            run.describe()
        );
        // Source that defines it as a method, then the test helper.
        let at = |path: &str| files.iter().position(|f| f == path).unwrap();
        assert!(
            at("aaa/head/appender.go") < at("util/teststorage/appender.go")
                && at("tsdb/appender.go") < at("util/teststorage/appender.go"),
            "{}",
            run.describe()
        );
        let defining = run.files().iter().filter(|(_, _, def)| *def).count();
        assert_eq!(defining, 4, "{}", run.describe());
    }
}

#[test]
fn regression_24_a_collapsed_file_lists_the_lines_it_already_showed() {
    let mut fx = Fixture::new();
    fx.set_env("SCOUT_SESSION_ID", "definition-first-1");
    let long = "x".repeat(300);
    let mut body = String::from("def spin_widget():\n    pass\n");
    for i in 0..11 {
        body.push_str(&format!("spin_widget()  # call {i} {long}\n"));
    }
    fx.write("src/core.py", &body);
    for i in 0..20 {
        fx.write(format!("src/u{i:02}.py"), format!("spin_widget()  # {i}\n"));
    }
    let first = fx.run(&["search", "spin_widget", "-m", "12"]);
    first.expect_code(0);
    let second = fx.run(&["search", "spin_widget", "-m", "12"]);
    second.expect_code(0);
    assert!(
        second.stdout_masked().len() < first.stdout_masked().len(),
        "{}\n{}",
        first.describe(),
        second.describe()
    );
    let out = second.stdout();
    let block: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("src/core.py"))
        .take(11)
        .collect();
    assert_eq!(
        block[0],
        "src/core.py  (12x) [def]: 12 already shown, unchanged",
        "{}",
        second.describe()
    );
    assert_eq!(block[1], "  seen 1: def spin_widget():");
    // Long lines are cut short after their start, with a marker.
    assert_eq!(
        block[2],
        format!("  seen 3: spin_widget()  # call 0 {}…", "x".repeat(48 - 24))
    );
    assert!(block[8].starts_with("  seen 9: spin_widget()  # call 6 "));
    assert_eq!(block[9], "  +4 more already shown");
    // The counters still add up.
    assert_eq!(first.header_field("hits"), second.header_field("hits"));
    assert_eq!(second.header_field("already_shown").as_deref(), Some("32"));
}

#[test]
fn regression_24_dash_l_lists_the_files_in_the_order_of_the_pages() {
    let fx = Fixture::new();
    // The lexical rules take the `def` inside a docstring for a
    // definition (and the file has more uses); the parser knows better,
    // and reorders the page it shows.
    let mut doc = String::from(
        "\"\"\"How to call it:\ndef parse_config(path):\n\"\"\"\n\ndef helper():\n    pass\n",
    );
    for i in 0..8 {
        doc.push_str(&format!("parse_config('{i}')\n"));
    }
    fx.write("a_doc.py", &doc);
    fx.write("b_core.py", "def parse_config(path):\n    return path\n");
    for i in 0..60 {
        fx.write(
            format!("m/u{i:02}.py"),
            format!("from b_core import parse_config\nparse_config({i})\nparse_config({i} + 1)\n"),
        );
    }
    let page = fx.run(&["search", "parse_config"]);
    let ranked = all_pages(&fx, &["search", "parse_config"]);
    assert_eq!(ranked[0], "b_core.py", "{}", page.describe());
    let listed = all_pages(&fx, &["search", "parse_config", "-l"]);
    assert_eq!(listed, ranked);
    // With a smaller budget, over several pages of both.
    let listed = all_pages(
        &fx,
        &["search", "parse_config", "-l", "--budget-tokens", "300"],
    );
    let ranked = all_pages(&fx, &["search", "parse_config", "--budget-tokens", "300"]);
    assert!(
        ranked.len() == 62 && listed == ranked,
        "{listed:?}\n{ranked:?}"
    );
}

#[test]
fn regression_24_an_import_is_quoted_after_the_real_uses() {
    let fx = Fixture::new();
    fx.write("src/core.py", "def parse_config(path):\n    return path\n");
    fx.write(
        "src/app.py",
        "from core import parse_config\n\n\ndef main():\n    return parse_config('x')\n",
    );
    let run = fx.run(&["search", "parse_config", "-m", "1", "--json"]);
    run.expect_code(0);
    let app = run.json_result("src/app.py");
    assert_eq!(app["lines"][0]["line"], 5, "{}", run.describe());
}

/// A TypeScript tree where the importers of `parseHeader` and `resetAll`
/// use them more often than their definitions do, and `resetAllCaches`
/// (another name, holding `resetAll`) uses it most.
fn case_tree(fx: &Fixture) {
    fx.write(
        "src/header.ts",
        "export const parseHeader = (raw: string): string => {\n  return raw.trim();\n};\n",
    );
    fx.write(
        "src/reset.ts",
        "export function resetAll() {\n  return 0;\n}\n",
    );
    fx.write(
        "src/caches.ts",
        "export function resetAllCaches() {\n  resetAll();\n  resetAll();\n  resetAll();\n  return resetAll();\n}\n",
    );
    for i in 0..40 {
        fx.write(
            format!("src/use{i}.ts"),
            format!(
                "import {{ parseHeader }} from \"./header\";\nimport {{ resetAll }} from \"./reset\";\n\
                 export function f{i}() {{\n  parseHeader(\"a\"); parseHeader(\"b\");\n  resetAll(); resetAll();\n  \
                 return parseHeader(\"c\") + resetAll();\n}}\n"
            ),
        );
    }
}

#[test]
fn regression_34_dash_i_knows_the_definition_in_any_case() {
    let fx = Fixture::new();
    case_tree(&fx);
    for (typed, defining) in [
        ("parseheader", "src/header.ts"),
        ("PARSEHEADER", "src/header.ts"),
        ("resetall", "src/reset.ts"),
    ] {
        let run = fx.run(&["search", "-i", typed]);
        run.expect_code(0);
        let files = run.files();
        assert_eq!(
            files.first().map(|(p, _, def)| (p.as_str(), *def)),
            Some((defining, true)),
            "-i {typed}\n{}",
            run.describe()
        );
        // The same file, marked the same way, as the query typed in the
        // file's own case finds it.
        let json = fx.run(&["search", "-i", typed, "--json"]);
        assert_eq!(json.json()["results"][0]["path"], defining, "{typed}");
    }
    // `resetAllCaches` holds `resetAll` most often, but does not define it.
    let run = fx.run(&["search", "-i", "resetall"]);
    let files: Vec<String> = run.files().into_iter().map(|(p, _, _)| p).collect();
    let caches = files.iter().position(|p| p == "src/caches.ts").unwrap();
    assert!(caches > 0, "{}", run.describe());
    assert!(
        !run.files()[caches].2,
        "caches.ts is marked as defining resetall\n{}",
        run.describe()
    );
}

/// JavaScript methods stored under a member's name, in the forms older
/// code defines them: in a constructor function, on a prototype, on
/// `exports`, and on an object inside a function.
fn member_tree(fx: &Fixture) {
    fx.write(
        "lib/lexer.js",
        "function Lexer(input) {\n  this.input = input;\n  this.parse_token = function (s) {\n    return s.trim();\n  };\n}\n\
         Lexer.prototype.bar_thing = function (x) {\n  return x;\n};\n\
         exports.load_all = (a, b) => {\n  return a + b;\n};\n\
         module.exports.xconf_value = { a: 1 };\n\
         function install(app) {\n  app.handler_fn = async function (req) {\n    return req;\n  };\n}\n",
    );
    for i in 0..40 {
        fx.write(
            format!("src/use{i}.js"),
            format!(
                "const l = require(\"../lib/lexer\");\nfunction use{i}(app) {{\n  l.parse_token(\"a\"); l.parse_token(\"b\");\n  \
                 l.bar_thing(1); l.bar_thing(2);\n  l.load_all(1, 2); l.load_all(3, 4);\n  \
                 app.handler_fn(); app.handler_fn(l.xconf_value, l.xconf_value);\n  \
                 return l.parse_token(l.bar_thing(l.load_all(5))) + app.handler_fn() + l.xconf_value;\n}}\n"
            ),
        );
    }
}

#[test]
fn regression_34_javascript_member_assignments_are_definitions() {
    let fx = Fixture::new();
    member_tree(&fx);
    for name in [
        "parse_token",
        "bar_thing",
        "load_all",
        "xconf_value",
        "handler_fn",
    ] {
        let run = fx.run(&["search", name]);
        run.expect_code(0);
        assert_eq!(
            run.files().first().map(|(p, _, def)| (p.as_str(), *def)),
            Some(("lib/lexer.js", true)),
            "{name}\n{}",
            run.describe()
        );
    }
    // `scout read` finds them by name too.
    fx.run(&["read", "lib/lexer.js", "-s", "parse_token"])
        .expect_code(0)
        .expect_stdout_has("this.parse_token = function (s) {");
}

/// A Go package where `Command.Traverse` is defined with a receiver (as
/// code spells it, never `Command.Traverse`) and named so in docs and a
/// test, with a same-named method of another type.
fn go_package(fx: &Fixture) {
    fx.write(
        "command.go",
        "package cli\n\ntype Command struct{}\n\n// Traverse walks the tree.\nfunc (c *Command) Traverse(args []string) *Command {\n\treturn c\n}\n",
    );
    fx.write(
        "other.go",
        "package cli\n\ntype Walker struct{}\n\nfunc (w *Walker) Traverse(args []string) {}\n",
    );
    fx.write(
        "README.md",
        "Call Command.Traverse to walk.\nSee also Command.Traverse in the docs.\n",
    );
    fx.write(
        "command_test.go",
        "package cli\n\n// Command.Traverse with no args.\nfunc TestTraverse(t *testing.T) { (&Command{}).Traverse(nil) }\n",
    );
}

#[test]
fn a_qualified_names_definition_comes_before_its_matches_and_counts_in_nothing() {
    let fx = Fixture::new();
    go_package(&fx);
    let (hits, _) = fx.rg_counts(&["-F", "-e", "Command.Traverse", "."]);
    assert_eq!(hits, 3);
    // rg's own lines (the page would be larger), after the definition.
    let run = fx.run(&["search", "Command.Traverse"]);
    run.expect_code(0);
    let lines = run.lines();
    assert_eq!(
        lines[..2],
        [
            "definition: command.go  method Command.Traverse (6-8)",
            "6: func (c *Command) Traverse(args []string) *Command {",
        ],
        "{}",
        run.describe()
    );
    let mut rest = lines[2..].to_vec();
    rest.sort();
    let mut expected = fx.rg_stdout_lines(&["-n", "-F", "-e", "Command.Traverse"]);
    expected.sort();
    assert_eq!(rest, expected, "{}", run.describe());
    // The JSON: the definition apart, the counters rg's.
    let json = fx.run(&["search", "Command.Traverse", "--json"]);
    json.expect_code(0);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout()).unwrap();
    assert_eq!(doc["hits"], 3, "{doc}");
    assert_eq!(doc["files"], 2, "{doc}");
    let defs = doc["definitions"].as_array().expect("definitions");
    assert_eq!(defs.len(), 1, "{doc}");
    assert_eq!(defs[0]["path"], "command.go");
    assert_eq!(defs[0]["symbol"]["name"], "Command.Traverse");
    assert_eq!(defs[0]["lines"][0]["line"], 6);
    // The other type's `Traverse` is not `Command.Traverse`.
    assert!(!json.stdout().contains("Walker.Traverse"), "{doc}");
}

#[test]
fn a_qualified_name_with_no_match_shows_its_definition_and_exits_0() {
    let fx = Fixture::new();
    fx.write(
        "src/Routing/RouteContext.php",
        "<?php\nclass RouteContext\n{\n    public static function fromRequest($request): self\n    {\n        return new self();\n    }\n}\n",
    );
    let run = fx.run(&["search", "RouteContext::fromRequest"]);
    run.expect_code(0);
    assert!(
        run.stdout()
            .starts_with("query: RouteContext::fromRequest  kind=literal  hits=0 files=0"),
        "{}",
        run.describe()
    );
    run.expect_stdout_has(
        "definition: src/Routing/RouteContext.php  method RouteContext::fromRequest (4-7)\n4:     public static function fromRequest($request): self\n",
    );
    // A name nothing defines and nothing spells is still no match.
    fx.run(&["search", "RouteContext::toRequest"])
        .expect_code(1)
        .expect_lines(&[]);
}

#[test]
fn a_module_file_is_its_owner_and_a_match_holding_the_definition_ranks_as_one() {
    let fx = Fixture::new();
    fx.write("json/__init__.py", "def dumps(obj):\n    return str(obj)\n");
    fx.write("app.py", "import json\n\nprint(json.dumps({}))\n");
    // C++ spells its out-of-class definitions qualified: rg finds it.
    fx.write(
        "skiplist.cc",
        "int SkipList::RandomHeight() {\n  return 1;\n}\n",
    );
    fx.write("db.cc", "int h = list.SkipList::RandomHeight();\n");
    let run = fx.run(&["search", "json.dumps"]);
    run.expect_code(0);
    run.expect_stdout_has(
        "definition: json/__init__.py  function dumps (1-2)\n1: def dumps(obj):\n",
    );
    let run = fx.run(&["search", "SkipList::RandomHeight"]);
    run.expect_code(0);
    assert!(!run.stdout().contains("definition:"), "{}", run.describe());
    // A receiver qualifies nothing; `-l` and later pages list matches only.
    fx.write(
        "svc.py",
        "class Svc:\n    def connect(self):\n        self.connect()\n",
    );
    let run = fx.run(&["search", "self.connect"]);
    assert!(!run.stdout().contains("definition:"), "{}", run.describe());
    let run = fx.run(&["search", "json.dumps", "-l"]);
    assert!(!run.stdout().contains("definition:"), "{}", run.describe());
    // A regex's text is not a name.
    let run = fx.run(&["search", "json.dumps", "--kind", "regex"]);
    assert!(!run.stdout().contains("definition:"), "{}", run.describe());
}

#[test]
fn a_name_inside_a_longer_query_is_a_definition_only_where_the_query_matches() {
    let fx = Fixture::new();
    // The test method shares the last segment's name: it defines
    // `new_type`, but its line is no match of `Types.new_type`.
    fx.write(
        "tests/test_types.py",
        "class TypesTest:\n    def new_type(self):\n        t = Types.new_type(1)\n",
    );
    fx.write(
        "app.py",
        "from types_ import Types\n\nx = Types.new_type(2)\n",
    );
    let run = fx.run(&["search", "Types.new_type", "--json"]);
    run.expect_code(0);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout()).unwrap();
    assert_eq!(doc["hits"], 2, "{doc}");
    for result in doc["results"].as_array().unwrap() {
        assert_eq!(result["def"], false, "{doc}");
        for line in result["lines"].as_array().unwrap() {
            let text = line["text"].as_str().unwrap();
            assert!(
                text.contains("Types.new_type"),
                "{text:?} is no match\n{doc}"
            );
        }
    }
}
