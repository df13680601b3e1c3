//! `--callers-of` and `--impact` (#23): the code graph on fixture trees,
//! one test per language and per way the trackers of call-graph tools
//! show them going wrong (calls in anonymous callbacks, two same-named
//! definitions in one file, a free `append` credited with `xs.append`,
//! bindings across languages), then the refusals and the page's flags.

use std::collections::BTreeSet;

use crate::util::Fixture;

/// The attributed sites (`path:line`) and the "cannot tell" ones of a
/// `--callers-of` run over the whole tree, unbudgeted.
fn callers(fx: &Fixture, spec: &str) -> (BTreeSet<String>, BTreeSet<String>, serde_json::Value) {
    let run = fx.run(&[
        "search",
        "--callers-of",
        spec,
        "--json",
        "--budget-tokens",
        "0",
        "-m",
        "1000",
        "--again",
    ]);
    assert!(run.code() == 0 || run.code() == 1, "{}", run.describe());
    let json = run.json();
    let mut sites = BTreeSet::new();
    for result in json["results"].as_array().unwrap() {
        let path = result["path"].as_str().unwrap();
        for line in result["lines"].as_array().unwrap() {
            sites.insert(format!("{path}:{}", line["line"]));
        }
    }
    let unsettled = json["scope"]["cannot_tell"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| format!("{}:{}", u["path"].as_str().unwrap(), u["line"]))
        .collect();
    (sites, unsettled, json)
}

/// The calls of the JSON's `scope` settled by a name alone: `path:line
/// reason`.
fn by_name(json: &serde_json::Value) -> BTreeSet<String> {
    json["scope"]["by_name"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            let (path, line) = (u["path"].as_str().unwrap(), &u["line"]);
            format!("{path}:{line} {}", u["reason"].as_str().unwrap())
        })
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

#[test]
fn python_a_function_s_callers_through_imports_aliases_modules_and_callbacks() {
    let fx = Fixture::new();
    fx.write("pkg/__init__.py", "from .config import load\n");
    fx.write(
        "pkg/config.py",
        "import json\n\n\ndef load(path):\n    with open(path) as f:\n        return json.load(f)\n\n\nclass Config:\n    def load(self, path):\n        self.data = load(path)\n        return self\n",
    );
    fx.write(
        "pkg/app.py",
        "from pkg.config import load, Config\nfrom pkg import config as cfg\n\n\ndef main(items):\n    data = load('a.json')\n    c = Config()\n    c.load('b.json')\n    extra = list(map(lambda p: load(p), items))\n    cfg.load('c.json')\n    items.append(1)\n    return data, extra\n",
    );
    fx.write(
        "tests/test_app.py",
        "from pkg.config import load as l\nfrom pkg import load as again\n\ndef test_load():\n    assert l('t.json')\n    assert again('u.json')\n",
    );
    // Another language spelling the same name binds nothing.
    fx.write("web/load.js", "function load(p) {}\nload('x');\n");
    let (sites, unsettled, json) = callers(&fx, "pkg/config.py#load");
    assert_eq!(
        sites,
        set(&[
            "pkg/app.py:6",
            "pkg/app.py:9",
            "pkg/app.py:10",
            "pkg/config.py:11",
            "tests/test_app.py:5",
            "tests/test_app.py:6",
        ]),
        "{json:#}"
    );
    assert!(unsettled.is_empty(), "{json:#}");
    // The method `c.load` and json's `load` are someone else's.
    let elsewhere = json["scope"]["elsewhere"].to_string();
    assert!(elsewhere.contains("from json"), "{elsewhere}");
    assert!(elsewhere.contains("Config"), "{elsewhere}");
}

#[test]
fn python_a_method_by_its_receiver_s_class_and_unknown_receivers_apart() {
    let fx = Fixture::new();
    fx.write(
        "store.py",
        "class Store:\n    def get(self, key):\n        return self.peek(key)\n\n    def peek(self, key):\n        return None\n\n\nclass Cache(Store):\n    def warm(self):\n        self.get('a')\n\n\nclass Other:\n    def get(self, key):\n        return 1\n\n    def run(self):\n        return self.get('b')\n",
    );
    fx.write(
        "use.py",
        "from store import Store, Other\n\n\ndef f(s: Store, o: Other, anything):\n    s.get('x')\n    o.get('y')\n    anything.get('z')\n    Store().get('w')\n    d = {}\n    d.get('k')\n",
    );
    let (sites, unsettled, json) = callers(&fx, "store.py#Store.get");
    // `Store().get('w')`: a method of a new Store.
    assert_eq!(
        sites,
        set(&["store.py:11", "use.py:5", "use.py:8"]),
        "{json:#}"
    );
    // A receiver the parser cannot type is "cannot tell", never a caller.
    assert!(unsettled.contains("use.py:7"), "{json:#}");
    assert!(unsettled.contains("use.py:10"), "{json:#}");
    assert!(!sites.contains("store.py:19") && !sites.contains("use.py:6"));
}

#[test]
fn typescript_imports_tsconfig_paths_jsx_new_and_fields() {
    let fx = Fixture::new();
    fx.write(
        "tsconfig.json",
        "{\n  // comments are allowed\n  \"compilerOptions\": { \"baseUrl\": \".\", \"paths\": { \"@/*\": [\"src/*\"] } },\n}\n",
    );
    fx.write(
        "src/scene.ts",
        "export class Scene {\n  render(): void {}\n}\nexport function render(s: Scene) {\n  s.render();\n}\n",
    );
    fx.write("src/index.ts", "export * from './scene';\n");
    fx.write(
        "src/app.tsx",
        "import { render, Scene } from '@/scene';\nimport * as lib from './index';\nimport { Section } from './section';\n\nclass App {\n  private scene: Scene;\n  constructor() { this.scene = new Scene(); }\n  draw() {\n    this.scene.render();\n    [1, 2].map(() => render(this.scene));\n    lib.render(this.scene);\n    return <Section title=\"x\" />;\n  }\n}\n",
    );
    fx.write(
        "src/section.tsx",
        "export function Section(props: { title: string }) {\n  return null;\n}\n",
    );
    let (sites, _, json) = callers(&fx, "src/scene.ts#render");
    assert_eq!(
        sites,
        set(&["src/app.tsx:10", "src/app.tsx:11"]),
        "{json:#}"
    );
    let (sites, _, json) = callers(&fx, "src/scene.ts#Scene.render");
    assert_eq!(sites, set(&["src/app.tsx:9", "src/scene.ts:5"]), "{json:#}");
    let (sites, _, json) = callers(&fx, "src/section.tsx#Section");
    assert_eq!(sites, set(&["src/app.tsx:12"]), "{json:#}");
    let (sites, _, json2) = callers(&fx, "src/scene.ts#Scene");
    assert_eq!(sites, set(&["src/app.tsx:7"]), "{json:#} {json2:#}");
}

#[test]
fn two_same_named_definitions_in_one_file_stay_apart() {
    let fx = Fixture::new();
    fx.write(
        "a.js",
        "function outer() {\n  function helper() { return 1; }\n  return helper();\n}\n\nfunction other() {\n  function helper() { return 2; }\n  return helper();\n}\n",
    );
    let run = fx.run(&["search", "--callers-of", "a.js#helper"]);
    run.expect_code(2).expect_stderr_has("defines it 2 times");
    run.expect_stderr_has("(2)").expect_stderr_has("(7)");
    let (sites, _, json) = callers(&fx, "a.js:2");
    assert_eq!(sites, set(&["a.js:3"]), "{json:#}");
    let (sites, _, json) = callers(&fx, "a.js:7");
    assert_eq!(sites, set(&["a.js:8"]), "{json:#}");
}

#[test]
fn go_same_package_imports_and_typed_receivers() {
    let fx = Fixture::new();
    fx.write("go.mod", "module example.com/app\n\ngo 1.21\n");
    fx.write(
        "store/store.go",
        "package store\n\ntype DB struct{}\n\nfunc (d *DB) Query(q string) error { return nil }\n\nfunc Open() *DB { return &DB{} }\n",
    );
    fx.write(
        "store/util.go",
        "package store\n\nfunc reopen() *DB {\n\treturn Open()\n}\n",
    );
    fx.write(
        "web/handler.go",
        "package web\n\nimport \"example.com/app/store\"\n\ntype Server struct {\n\tdb *store.DB\n}\n\nfunc (s *Server) Handle() {\n\ts.db.Query(\"x\")\n\tdb := store.Open()\n\tdb.Query(\"y\")\n\tgo func() { store.Open() }()\n}\n\nfunc Open() {}\n\nfunc local() { Open() }\n",
    );
    let (sites, _, json) = callers(&fx, "store/store.go#Open");
    assert_eq!(
        sites,
        set(&["store/util.go:4", "web/handler.go:11", "web/handler.go:13"]),
        "{json:#}"
    );
    let (sites, _, json) = callers(&fx, "store/store.go#DB.Query");
    assert!(sites.contains("web/handler.go:10"), "{json:#}");
    assert!(!sites.contains("web/handler.go:18"), "{json:#}");
}

#[test]
fn rust_module_paths_uses_and_methods() {
    let fx = Fixture::new();
    fx.write("Cargo.toml", "[package]\nname = \"x\"\n");
    fx.write("src/lib.rs", "pub mod parse;\npub mod run;\n");
    fx.write(
        "src/parse.rs",
        "pub struct Parser;\n\nimpl Parser {\n    pub fn new() -> Parser { Parser }\n    pub fn parse(&self) {}\n}\n\npub fn parse(s: &str) {}\n",
    );
    fx.write(
        "src/run.rs",
        "use crate::parse::{self, Parser};\n\nfn go(p: &Parser) {\n    parse::parse(\"a\");\n    crate::parse::parse(\"b\");\n    p.parse();\n    let q = Parser::new();\n    q.parse();\n    let v: Vec<u8> = Vec::new();\n    std::mem::drop(v);\n}\n\nfn parse() {}\n\nfn here() { parse(); }\n",
    );
    let (sites, _, json) = callers(&fx, "src/parse.rs#parse");
    assert_eq!(sites, set(&["src/run.rs:4", "src/run.rs:5"]), "{json:#}");
    let (sites, _, json) = callers(&fx, "src/parse.rs#Parser::parse");
    assert_eq!(sites, set(&["src/run.rs:6", "src/run.rs:8"]), "{json:#}");
}

#[test]
fn java_enclosing_class_imports_and_declared_types() {
    let fx = Fixture::new();
    fx.write(
        "src/a/Parser.java",
        "package a;\n\npublic class Parser {\n  public void parse() {}\n  void again() { parse(); }\n}\n",
    );
    fx.write(
        "src/b/Use.java",
        "package b;\n\nimport a.Parser;\n\nclass Use {\n  private Parser p;\n  void parse() {}\n  void m(Parser q, Object o) {\n    p.parse();\n    q.parse();\n    parse();\n    new Parser().parse();\n  }\n}\n",
    );
    let (sites, unsettled, json) = callers(&fx, "src/a/Parser.java#Parser.parse");
    assert_eq!(
        sites,
        set(&[
            "src/a/Parser.java:5",
            "src/b/Use.java:9",
            "src/b/Use.java:10",
            // `new Parser().parse()`: a method of a new Parser.
            "src/b/Use.java:12"
        ]),
        "{json:#}"
    );
    // `parse()` in Use is Use's own.
    assert!(!sites.contains("src/b/Use.java:11") && !unsettled.contains("src/b/Use.java:11"));
}

#[test]
fn c_one_global_namespace_with_static_functions_apart() {
    let fx = Fixture::new();
    fx.write("util.h", "int helper(int x);\n");
    fx.write(
        "util.c",
        "#include \"util.h\"\nint helper(int x) { return x; }\n",
    );
    fx.write(
        "main.c",
        "#include \"util.h\"\nint main(void) { return helper(1); }\n",
    );
    fx.write(
        "other.c",
        "static int helper(int x) { return 0; }\nint f(void) { return helper(2); }\n",
    );
    let (sites, _, json) = callers(&fx, "util.c#helper");
    assert_eq!(sites, set(&["main.c:2"]), "{json:#}");
}

#[test]
fn an_unknown_symbol_lists_the_file_s_definitions_and_exits_2() {
    let fx = Fixture::new();
    fx.write(
        "a.py",
        "def load():\n    pass\n\nclass C:\n    def load(self):\n        pass\n",
    );
    fx.run(&["search", "--callers-of", "a.py#lod"])
        .expect_code(2)
        .expect_stderr_has("function load (1)")
        .expect_stderr_has("method C.load (5)");
    fx.run(&["search", "--callers-of", "a.py"])
        .expect_code(2)
        .expect_stderr_has("PATH#SYMBOL");
    fx.run(&["search", "--callers-of", "missing.py#x"])
        .expect_code(2);
    // The plain name is the top-level function, not the method.
    let (_, _, json) = callers(&fx, "a.py#load");
    assert_eq!(json["scope"]["target"]["kind"], "function", "{json:#}");
}

#[test]
fn python_overload_stubs_are_one_symbol() {
    let fx = Fixture::new();
    fx.write(
        "a.py",
        "from typing import overload\n\n@overload\ndef conv(x: int) -> int: ...\n@overload\ndef conv(x: str) -> str: ...\ndef conv(x):\n    return x\n\nconv(1)\n",
    );
    let (sites, _, json) = callers(&fx, "a.py#conv");
    assert_eq!(sites, set(&["a.py:10"]), "{json:#}");
}

#[test]
fn impact_walks_levels_and_marks_tests() {
    let fx = Fixture::new();
    fx.write("core.py", "def base():\n    return 1\n");
    fx.write(
        "mid.py",
        "from core import base\n\ndef middle():\n    return base()\n",
    );
    fx.write(
        "top.py",
        "from mid import middle\n\ndef top():\n    return middle()\n",
    );
    fx.write(
        "tests/test_mid.py",
        "from mid import middle\n\ndef test_middle():\n    assert middle()\n",
    );
    let run = fx.run(&["search", "--impact", "core.py#base", "--again"]);
    run.expect_code(0)
        .expect_stdout_has("level 1 (callers): 1 dependent: mid.py:3 function middle")
        .expect_stdout_has("level 2: 2 dependents")
        .expect_stdout_has("tests/test_mid.py:3 function test_middle [test]")
        .expect_stdout_has("top.py:3 function top")
        .expect_stdout_has("stopped at --depth 2");
    let run = fx.run(&[
        "search",
        "--impact",
        "core.py#base",
        "--depth",
        "1",
        "--json",
        "--again",
    ]);
    let json = run.json();
    assert_eq!(
        json["scope"]["levels"].as_array().unwrap().len(),
        1,
        "{json:#}"
    );
}

#[test]
fn a_pattern_keeps_only_the_attributed_calls_it_matches() {
    let fx = Fixture::new();
    fx.write(
        "a.py",
        "def load(p):\n    pass\n\nload('x.json')\nload('y.toml')\n",
    );
    fx.write("b.py", "def load(p):\n    pass\n\nload('z.json')\n");
    let run = fx.run(&["search", "json", "--callers-of", "a.py#load", "--again"]);
    run.expect_code(0)
        .expect_stdout_has("4: load('x.json')")
        .expect_stdout_has("not matched by the pattern: 1 attributed line");
    assert!(!run.stdout().contains("z.json"), "{}", run.describe());
    assert!(!run.stdout().contains("y.toml"), "{}", run.describe());
    // Structural: the same filter before the matcher.
    let run = fx.run(&[
        "search",
        "--structural",
        "--lang",
        "python",
        "load($A)",
        "--callers-of",
        "a.py#load",
        "--again",
    ]);
    run.expect_code(0).expect_stdout_has("a.py");
    assert!(!run.stdout().contains("b.py  ("), "{}", run.describe());
}

#[test]
fn python_a_src_layout_package_and_a_method_inherited_through_a_dotted_type() {
    let fx = Fixture::new();
    fx.write(
        "src/lib/__init__.py",
        "from .app import App\nfrom . import json\n",
    );
    fx.write(
        "src/lib/base.py",
        "class Scaffold:\n    def post(self, rule):\n        return rule\n",
    );
    fx.write(
        "src/lib/app.py",
        "from .base import Scaffold\n\n\nclass App(Scaffold):\n    pass\n",
    );
    fx.write(
        "src/lib/json/__init__.py",
        "import json as _json\n\n\ndef dumps(obj):\n    return _json.dumps(obj)\n",
    );
    fx.write(
        "tests/test_app.py",
        "import lib\n\n\ndef test_post():\n    app = lib.App()\n    app.post('/')\n    lib.json.dumps(1)\n",
    );
    let (sites, _, json) = callers(&fx, "src/lib/base.py#Scaffold.post");
    assert_eq!(sites, set(&["tests/test_app.py:6"]), "{json:#}");
    // `import json` inside the package is the standard library's, not
    // the package's own `json`.
    let (sites, _, json) = callers(&fx, "src/lib/json/__init__.py#dumps");
    assert_eq!(sites, set(&["tests/test_app.py:7"]), "{json:#}");
}

#[test]
fn scout_call_takes_callers_of_and_an_empty_pattern_keeps_paths_as_paths() {
    let fx = Fixture::new();
    fx.write("lib/a.py", "def load():\n    pass\n");
    fx.write("app/b.py", "from lib.a import load\nload()\n");
    fx.write("other/c.py", "from lib.a import load\nload()\n");
    let run = fx.run(&[
        "call",
        r#"{"mode": "search", "callers_of": "lib/a.py#load", "path": "app"}"#,
    ]);
    run.expect_code(0);
    let json = run.json();
    let paths: Vec<&str> = json["result"]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["app/b.py"], "{json:#}");
    assert_eq!(json["result"]["scope"]["attributed"], 1, "{json:#}");
    let run = fx.run(&[
        "search",
        "--callers-of",
        "lib/a.py#load",
        "-e",
        "",
        "other",
        "--again",
    ]);
    run.expect_code(0).expect_stdout_has("other/c.py");
    assert!(!run.stdout().contains("app/b.py"), "{}", run.describe());
    fx.run(&[
        "call",
        r#"{"mode": "search", "callers_of": "lib/a.py#load", "impact": "lib/a.py#load"}"#,
    ])
    .expect_code(2);
}

#[test]
fn a_receiver_typed_by_what_a_function_returns_or_a_pytest_fixture_gives() {
    let fx = Fixture::new();
    fx.write(
        "app/core.py",
        "class App:\n    def context(self):\n        return self\n\n\ndef create_app():\n    app = App()\n    return app\n\n\ndef typed() -> App:\n    return App()\n",
    );
    fx.write(
        "tests/conftest.py",
        "import pytest\nfrom app.core import create_app\n\n\n@pytest.fixture\ndef app():\n    app = create_app()\n    yield app\n",
    );
    fx.write(
        "tests/test_core.py",
        "from app.core import create_app, typed\n\n\ndef test_fixture(app):\n    app.context()\n\n\ndef test_made():\n    made = create_app()\n    made.context()\n    other = typed()\n    other.context()\n\n\ndef test_unknown(client):\n    client.context()\n",
    );
    let (sites, _, json) = callers(&fx, "app/core.py#App.context");
    assert_eq!(
        sites,
        set(&[
            "tests/test_core.py:5",
            "tests/test_core.py:10",
            "tests/test_core.py:12",
            "tests/test_core.py:16"
        ]),
        "{json:#}"
    );
    // No fixture named `client`: its receiver stays untyped, and the
    // call is the target's by its name alone (the tree's only
    // `context`), never proven.
    assert_eq!(json["scope"]["proven"], 3, "{json:#}");
    assert_eq!(
        by_name(&json),
        set(&["tests/test_core.py:16 the tree's only definition of the name"])
    );
}

#[test]
fn typescript_and_go_receivers_typed_by_a_function_s_declared_return() {
    let fx = Fixture::new();
    fx.write(
        "src/store.ts",
        "export class Store {\n  clear(): void {}\n}\nexport function makeStore(): Store {\n  return new Store();\n}\n",
    );
    fx.write(
        "src/use.ts",
        "import { makeStore } from './store';\nconst s = makeStore();\ns.clear();\nconst m = new Map();\nm.clear();\n",
    );
    let (sites, unsettled, json) = callers(&fx, "src/store.ts#Store.clear");
    assert_eq!(sites, set(&["src/use.ts:3"]), "{json:#}");
    assert!(unsettled.contains("src/use.ts:5") || !sites.contains("src/use.ts:5"));
    fx.write("go.mod", "module example.com/app\n");
    fx.write(
        "db/db.go",
        "package db\n\ntype DB struct{}\n\nfunc (d *DB) Close() {}\n\nfunc Open() *DB { return &DB{} }\n\nfunc Dial(addr string) (*DB, error) { return &DB{}, nil }\n\nfunc Test(name string) (db *DB) { return &DB{} }\n",
    );
    fx.write(
        "main.go",
        "package main\n\nimport \"example.com/app/db\"\n\nfunc main() {\n\tconn := db.Open()\n\tconn.Close()\n\tother, err := db.Dial(\"x\")\n\tother.Close()\n\t_ = err\n\tnamed := db.Test(\"t\")\n\tnamed.Close()\n}\n",
    );
    // A single result, the value of `(T, error)`, a named result: each a
    // receiver of its declared type, proven.
    let (sites, _, json) = callers(&fx, "db/db.go#DB.Close");
    assert_eq!(
        sites,
        set(&["main.go:7", "main.go:9", "main.go:12"]),
        "{json:#}"
    );
    assert_eq!(json["scope"]["proven"], 3, "{json:#}");
}

#[test]
fn java_source_roots_nested_classes_static_imports_and_inherited_methods() {
    let fx = Fixture::new();
    fx.write(
        "src/main/java/org/x/nodes/Node.java",
        "package org.x.nodes;\n\npublic abstract class Node {\n  public boolean hasAttr(String k) { return false; }\n}\n",
    );
    fx.write(
        "src/main/java/org/x/nodes/Text.java",
        "package org.x.nodes;\n\npublic class Text extends Node {\n  public static class Range {}\n  public Text(String s) {}\n}\n",
    );
    fx.write(
        "src/main/java/org/x/util/Sel.java",
        "package org.x.util;\n\npublic class Sel {\n  public static void check(String s) {}\n}\n",
    );
    fx.write(
        "src/test/java/org/x/nodes/TextTest.java",
        "package org.x.nodes;\n\nimport static org.x.util.Sel.check;\nimport org.x.util.Sel;\n\nclass TextTest {\n  void t() {\n    Text t = new Text(\"a\");\n    t.hasAttr(\"k\");\n    Text.Range r = new Text.Range();\n    check(\"x\");\n    Sel.check(\"y\");\n  }\n}\n",
    );
    let (sites, _, json) = callers(&fx, "src/main/java/org/x/nodes/Node.java#Node.hasAttr");
    assert_eq!(
        sites,
        set(&["src/test/java/org/x/nodes/TextTest.java:9"]),
        "{json:#}"
    );
    let (sites, _, json) = callers(&fx, "src/main/java/org/x/nodes/Text.java#Text");
    assert_eq!(
        sites,
        set(&["src/test/java/org/x/nodes/TextTest.java:8"]),
        "{json:#}"
    );
    let (sites, _, json) = callers(&fx, "src/main/java/org/x/nodes/Text.java#Text.Range");
    assert_eq!(
        sites,
        set(&["src/test/java/org/x/nodes/TextTest.java:10"]),
        "{json:#}"
    );
    let (sites, _, json) = callers(&fx, "src/main/java/org/x/util/Sel.java#Sel.check");
    assert_eq!(
        sites,
        set(&[
            "src/test/java/org/x/nodes/TextTest.java:11",
            "src/test/java/org/x/nodes/TextTest.java:12"
        ]),
        "{json:#}"
    );
}

#[test]
fn a_method_on_what_a_call_returns_is_typed_by_the_declared_return() {
    let fx = Fixture::new();
    fx.write(
        "src/Doc.java",
        "class Body {\n  void own() {}\n}\n\nclass Doc {\n  Body body() { return new Body(); }\n  void own() {}\n}\n",
    );
    fx.write(
        "src/Use.java",
        "class Use {\n  void m(Doc doc) {\n    doc.body().own();\n    doc.own();\n  }\n}\n",
    );
    let (sites, _, json) = callers(&fx, "src/Doc.java#Body.own");
    assert_eq!(sites, set(&["src/Use.java:3"]), "{json:#}");
    let (sites, _, json) = callers(&fx, "src/Doc.java#Doc.own");
    assert_eq!(sites, set(&["src/Use.java:4"]), "{json:#}");
    fx.write(
        "web/a.ts",
        "export class Store { clear(): void {} }\nexport function make(): Store { return new Store(); }\nmake().clear();\nnew Map().clear();\n",
    );
    let (sites, _, json) = callers(&fx, "web/a.ts#Store.clear");
    assert_eq!(sites, set(&["web/a.ts:3"]), "{json:#}");
}

#[test]
fn regression_23_a_local_of_the_name_shadows_the_function() {
    let fx = Fixture::new();
    fx.write(
        "pkg/config.py",
        "def load(path):\n    return path\n\n\ndef use_param(load):\n    return load('x')\n\n\ndef use_local():\n    load = lambda p: p\n    return load('y')\n\n\ndef real():\n    return load('w')\n\n\ndef loop():\n    for load in [print]:\n        load('loop')\n",
    );
    let (sites, _, json) = callers(&fx, "pkg/config.py:1");
    assert_eq!(sites, set(&["pkg/config.py:15"]), "{json:#}");
    fx.write(
        "web/a.js",
        "export function load(x) { return x; }\nload(1);\n[1].forEach(load => load(3));\ntry {} catch (load) { load(4); }\nfor (const load of []) load(5);\n",
    );
    let (sites, _, json) = callers(&fx, "web/a.js#load");
    assert_eq!(sites, set(&["web/a.js:2"]), "{json:#}");
    fx.write("go.mod", "module example.com/app\n");
    fx.write(
        "store/store.go",
        "package store\n\ntype DB struct{}\n\nfunc (d *DB) Get(k string) {}\n\nfunc Get(k string) {}\n",
    );
    fx.write(
        "cmd/main.go",
        "package main\n\nimport \"example.com/app/store\"\n\nfunc main(stores []*store.DB) {\n\tstore.Get(\"a\")\n\tfor _, store := range stores {\n\t\tstore.Get(\"loop\")\n\t}\n}\n",
    );
    let (sites, _, json) = callers(&fx, "store/store.go#Get");
    assert_eq!(sites, set(&["cmd/main.go:6"]), "{json:#}");
    fx.write("c/util.c", "int helper(int x) { return x; }\n");
    fx.write(
        "c/main.c",
        "int helper(int x);\nint f(void) { return helper(1); }\nint g(void) { int (*helper)(int) = 0; return helper(2); }\n",
    );
    let (sites, _, json) = callers(&fx, "c/util.c#helper");
    assert_eq!(sites, set(&["c/main.c:2"]), "{json:#}");
}

#[test]
fn regression_23_an_import_binds_within_its_function_or_inline_module() {
    let fx = Fixture::new();
    fx.write("pkg/__init__.py", "");
    fx.write("pkg/config.py", "def load(p):\n    return p\n");
    fx.write(
        "pkg/app.py",
        "from pkg.config import load\n\n\ndef a():\n    load('a')\n\n\ndef later():\n    from json import loads as load\n    load('b')\n",
    );
    let (sites, _, json) = callers(&fx, "pkg/config.py#load");
    assert_eq!(sites, set(&["pkg/app.py:5"]), "{json:#}");
    fx.write("Cargo.toml", "[package]\nname = \"x\"\n");
    fx.write("src/lib.rs", "pub mod a;\npub mod b;\nuse crate::a::load;\n\npub fn run() {\n    load();\n}\n\n#[cfg(test)]\nmod tests {\n    use crate::b::load;\n    #[test]\n    fn t() { load(); }\n}\n");
    fx.write("src/a.rs", "pub fn load() {}\n");
    fx.write("src/b.rs", "pub fn load() {}\n");
    let (sites, _, json) = callers(&fx, "src/a.rs#load");
    assert_eq!(sites, set(&["src/lib.rs:6"]), "{json:#}");
    let (sites, _, json) = callers(&fx, "src/b.rs#load");
    assert_eq!(sites, set(&["src/lib.rs:13"]), "{json:#}");
}

#[test]
fn regression_23_rust_types_of_one_name_in_two_modules_stay_apart() {
    let fx = Fixture::new();
    fx.write("Cargo.toml", "[package]\nname = \"x\"\n");
    fx.write("src/lib.rs", "pub mod a;\npub mod b;\n");
    fx.write(
        "src/a.rs",
        "pub struct Config;\nimpl Config {\n    pub fn new() -> Config { Config }\n}\npub fn make() { let c = Config::new(); }\n",
    );
    fx.write(
        "src/b.rs",
        "pub struct Config;\nimpl Config {\n    pub fn new() -> Config { Config }\n}\npub fn make() { let c = Config::new(); }\n",
    );
    let (sites, _, json) = callers(&fx, "src/a.rs#Config::new");
    assert_eq!(sites, set(&["src/a.rs:5"]), "{json:#}");
}

#[test]
fn regression_23_the_footer_shows_when_nothing_is_attributed_and_repro_keeps_no_pattern() {
    let fx = Fixture::new();
    fx.write("a.py", "def load():\n    pass\n");
    fx.write("b.py", "def load():\n    pass\n\nload()\n");
    let run = fx.run(&["search", "--callers-of", "a.py#load", "--again"]);
    // Exit 1 means nothing on stdout (#34): the graph's account is on
    // stderr.
    run.expect_code(1);
    assert_eq!(run.stdout(), "", "{}", run.describe());
    for line in [
        "callers-of: function load (a.py:1): 0 calls attributed",
        "other definitions: 1 call: b.py:1 load (1)",
        "repro: scout search --callers-of 'a.py#load' --budget-tokens 0 -m 10000 --again -e ''",
    ] {
        assert!(run.stderr().contains(line), "{line}\n{}", run.describe());
    }
    // A language without a graph lists the calls spelled `name(`, and says so.
    fx.write("r/a.rb", "def load(x)\n  x\nend\n\nload(1)\n");
    let run = fx.run(&["search", "--callers-of", "r/a.rb#load", "--again"]);
    run.expect_code(0)
        .expect_stdout_has("5: load(1)")
        .expect_stdout_has("matched by name only");
    assert!(!run.stdout().contains("1: def load"), "{}", run.describe());
}

#[test]
fn regression_23_specs_a_top_level_name_a_default_import_depth_and_impact_paths() {
    let fx = Fixture::new();
    fx.write(
        "a.js",
        "function load() {}\nfunction outer() {\n  function load() {}\n  return load();\n}\nload();\n",
    );
    let (sites, _, json) = callers(&fx, "a.js#load");
    assert_eq!(sites, set(&["a.js:6"]), "{json:#}");
    fx.write(
        "ui/Button.tsx",
        "export default function Button() { return 1; }\n",
    );
    fx.write(
        "ui/App.tsx",
        "import Btn from './Button';\nexport const x = <Btn />;\nBtn();\n",
    );
    let (sites, _, json) = callers(&fx, "ui/Button.tsx#Button");
    assert_eq!(sites, set(&["ui/App.tsx:2", "ui/App.tsx:3"]), "{json:#}");
    fx.run(&["search", "--callers-of", "a.js#load", "--depth", "2"])
        .expect_code(2)
        .expect_stderr_has("--depth goes with --impact");
    fx.run(&["search", "--impact", "a.js#load", "--depth", "0"])
        .expect_code(2)
        .expect_stderr_has("--depth starts at 1");
    fx.write(
        "m.py",
        "def base():\n    return 1\n\n\ndef top():\n    return base()\n",
    );
    fx.write(
        "tests/test_m.py",
        "from m import top\n\n\ndef test_top():\n    top()\n",
    );
    let run = fx.run(&[
        "search",
        "--impact",
        "m.py#base",
        "-e",
        "",
        "tests",
        "--again",
    ]);
    run.expect_code(0)
        .expect_stdout_has("tests/test_m.py")
        .expect_stdout_has("function test_top [test]")
        .expect_stdout_has("the walk searched .");
    assert!(
        !run.stdout().lines().any(|l| l.starts_with("m.py  (")),
        "{}",
        run.describe()
    );
}

#[test]
fn regression_23_a_function_held_in_a_top_level_const_is_its_own_definition() {
    let fx = Fixture::new();
    fx.write(
        "src/a.ts",
        "export const helper = (n: number) => n;\nhelper(1);\nfunction f() {\n  const helper = () => 0;\n  return helper();\n}\n",
    );
    fx.write("src/b.ts", "import { helper } from './a';\nhelper(2);\n");
    let (sites, _, json) = callers(&fx, "src/a.ts#helper");
    assert_eq!(sites, set(&["src/a.ts:2", "src/b.ts:2"]), "{json:#}");
}

/// #34: a file put in place with the old one's size and mtime (`cp -p`,
/// `rsync -t`, `tar -x`) kept its cached facts, and `--callers-of`
/// reported a call on a line that now read `y = 10000`.
#[test]
fn regression_34_a_file_replaced_with_its_size_and_mtime_is_read_again() {
    let fx = Fixture::new();
    fx.write("lib.py", "def load(path):\n    return path\n");
    fx.write(
        "app.py",
        "from lib import load\n\n\ndef main():\n    load('a')\n",
    );
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for file in ["lib.py", "app.py"] {
        fx.set_mtime(file, hour_ago);
    }
    fx.settle();
    let (sites, _, json) = callers(&fx, "lib.py#load");
    assert_eq!(sites, set(&["app.py:5"]), "{json:#}");
    fx.replace_keeping_mtime(
        "app.py",
        "from lib import load\n\n\ndef main():\n    y = 10000\n",
    );
    let (sites, unsettled, json) = callers(&fx, "lib.py#load");
    assert!(sites.is_empty() && unsettled.is_empty(), "{json:#}");
}

#[test]
fn a_name_spelled_in_more_files_than_the_budget_reads_the_nearest_and_says_so() {
    let fx = Fixture::new();
    fx.write(
        "core/util/config.py",
        "def load(path):\n    return path\n\n\ndef reload():\n    return load('x')\n",
    );
    fx.write(
        "core/util/a_near.py",
        "from core.util.config import load\n\ndef one():\n    return load('a')\n",
    );
    fx.write(
        "core/mid.py",
        "from core.util.config import load\n\ndef two():\n    return load('b')\n",
    );
    for far in ["aaa/far1.py", "aaa/far2.py", "zzz/far3.py"] {
        fx.write(
            far,
            "from core.util.config import load\n\ndef three():\n    return load('c')\n",
        );
    }
    let budgeted = |budget: &str| {
        let run = fx.run(&[
            "search",
            "--callers-of",
            "core/util/config.py#load",
            "--graph-files",
            budget,
            "--json",
            "--budget-tokens",
            "0",
            "--again",
        ]);
        assert_eq!(run.code(), 0, "{}", run.describe());
        run.json()
    };
    let paths = |json: &serde_json::Value| -> BTreeSet<String> {
        json["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["path"].as_str().unwrap().to_string())
            .collect()
    };
    // The definition's own file, its directory, then its parent's; the
    // three far files are left and counted.
    let json = budgeted("3");
    assert_eq!(
        paths(&json),
        set(&["core/mid.py", "core/util/a_near.py", "core/util/config.py"]),
        "{json:#}"
    );
    assert_eq!(json["scope"]["files_read"], 3, "{json:#}");
    assert_eq!(json["scope"]["files_unread"], 3, "{json:#}");
    assert_eq!(json["scope"]["files_budget"], 3, "{json:#}");
    // One file: the definition's own, though a_near.py sorts before it.
    let own = budgeted("1");
    assert_eq!(paths(&own), set(&["core/util/config.py"]), "{own:#}");
    // Every file with 0; the budget named nowhere.
    let all = budgeted("0");
    assert_eq!(all["results"].as_array().unwrap().len(), 6, "{all:#}");
    assert_eq!(all["scope"]["files_unread"], 0, "{all:#}");
    assert!(all["scope"]["files_budget"].is_null(), "{all:#}");
    // The page says what it left and how to read it.
    let page = fx.run(&[
        "search",
        "--callers-of",
        "core/util/config.py#load",
        "--graph-files",
        "3",
        "--again",
    ]);
    assert_eq!(page.code(), 0, "{}", page.describe());
    assert!(
        page.stdout()
            .contains("not read: 3 files that spell the name, past the budget of 3")
            && page.stdout().contains("--graph-files 0 reads them all"),
        "{}",
        page.describe()
    );
    // Without a graph request the flag is refused.
    let alone = fx.run(&["search", "load", "--graph-files", "3"]);
    assert_eq!(alone.code(), 2, "{}", alone.describe());
    assert!(
        alone
            .stderr()
            .contains("--graph-files goes with --callers-of or --impact"),
        "{}",
        alone.describe()
    );
}

#[test]
fn a_directory_named_with_a_hash_takes_path_line_and_path_symbol() {
    let fx = Fixture::new();
    fx.write(
        "d#x/app.py",
        "def load(p):\n    return p\n\n\ndef main():\n    return load(1)\n",
    );
    for spec in ["d#x/app.py:1", "d#x/app.py#load"] {
        let (sites, _, json) = callers(&fx, spec);
        assert_eq!(sites, set(&["d#x/app.py:6"]), "{spec}: {json:#}");
    }
}

#[test]
fn regression_36_a_default_import_is_the_target_only_when_the_target_is_the_default_export() {
    let fx = Fixture::new();
    fx.write(
        "src/util.js",
        "export function helper() {\n  return 1;\n}\n\nexport default function main() {\n  return helper();\n}\n",
    );
    fx.write(
        "src/app.js",
        "import main, { helper } from \"./util\";\n\nmain();\nhelper();\n",
    );
    let (sites, _, json) = callers(&fx, "src/util.js#helper");
    assert_eq!(sites, set(&["src/app.js:4", "src/util.js:6"]), "{json:#}");
    let elsewhere = json["scope"]["elsewhere"].to_string();
    assert!(
        !elsewhere.contains("main"),
        "main() is no call of helper: {json:#}"
    );
    let (sites, _, json) = callers(&fx, "src/util.js#main");
    assert_eq!(sites, set(&["src/app.js:3"]), "{json:#}");
}

#[test]
fn regression_36_a_python_class_body_is_a_scope_of_its_own() {
    let fx = Fixture::new();
    fx.write(
        "app.py",
        "def timeout():\n    return 1\n\n\nclass Settings:\n    timeout = 30\n    later = timeout\n\n    def wait(self):\n        return timeout()\n\n\ndef run():\n    return timeout()\n",
    );
    // `timeout = 30` binds in the class body only: a method's bare
    // `timeout` (Python skips the class scope) and a module function's
    // are the function.
    let (sites, unsettled, json) = callers(&fx, "app.py#timeout");
    assert_eq!(sites, set(&["app.py:10", "app.py:14"]), "{json:#}");
    assert!(unsettled.is_empty(), "{json:#}");
}

#[test]
fn regression_36_a_python_function_calls_the_module_s_last_definition_of_a_name() {
    let fx = Fixture::new();
    fx.write(
        "app.py",
        "def helper():\n    return 1\n\n\ndef main():\n    return helper()\n\nhelper()\n\n\ndef helper():\n    return 2\n",
    );
    // Inside a function the global is looked up when it runs, after the
    // module defined both: the second. At the top level, in order: the
    // first.
    let (sites, _, json) = callers(&fx, "app.py:11");
    assert_eq!(sites, set(&["app.py:6"]), "{json:#}");
    let (sites, _, json) = callers(&fx, "app.py:1");
    assert_eq!(sites, set(&["app.py:8"]), "{json:#}");
}

#[test]
fn regression_36_a_rebound_name_holds_from_its_line_to_the_next_binding() {
    let fx = Fixture::new();
    fx.write(
        "app.py",
        "class Foo:\n    def run(self):\n        return 1\n\n\nclass Bar:\n    def run(self):\n        return 2\n\n\ndef main():\n    x = Foo()\n    x.run()\n    x = Bar()\n    x.run()\n",
    );
    let (sites, _, json) = callers(&fx, "app.py#Foo.run");
    assert_eq!(sites, set(&["app.py:13"]), "{json:#}");
    let (sites, _, json) = callers(&fx, "app.py#Bar.run");
    assert_eq!(sites, set(&["app.py:15"]), "{json:#}");
    fx.write(
        "src/lib.rs",
        "pub struct A;\npub struct B;\nimpl A {\n    pub fn new() -> A { A }\n    pub fn run(&self) {}\n}\nimpl B {\n    pub fn new() -> B { B }\n    pub fn run(&self) {}\n}\npub fn main() {\n    let x = A::new();\n    x.run();\n    let x = B::new();\n    x.run();\n}\n",
    );
    let (sites, _, json) = callers(&fx, "src/lib.rs#A::run");
    assert_eq!(sites, set(&["src/lib.rs:13"]), "{json:#}");
    let (sites, _, json) = callers(&fx, "src/lib.rs#B::run");
    assert_eq!(sites, set(&["src/lib.rs:15"]), "{json:#}");
}

#[test]
fn a_method_defined_once_is_the_call_s_by_name_apart_from_the_proven_ones() {
    let fx = Fixture::new();
    fx.write(
        "snap.py",
        "class Snapshot:\n    def to_snapshot(self):\n        return 1\n\n\nclass Other:\n    def other(self):\n        return 2\n",
    )
    .write(
        "use.py",
        "from snap import Snapshot, Other\n\n\ndef save(x, o: Other, items):\n    x.to_snapshot()\n    Snapshot().to_snapshot()\n    o.to_snapshot()\n    items.clear()\n",
    )
    .write(
        "src/snap.ts",
        "export class Snap {\n  toSnapshot() {\n    return 1;\n  }\n  clear() {}\n}\n",
    )
    .write(
        "src/use.ts",
        "import { Snap } from \"./snap\";\n\nexport function save(x, s: Snap) {\n  x.toSnapshot();\n  s.toSnapshot();\n  x.clear();\n}\n",
    )
    .write(
        "p/Snap.java",
        "package p;\n\npublic class Snap {\n    public int toSnapshot() { return 1; }\n}\n",
    )
    .write(
        "p/Use.java",
        "package p;\n\npublic class Use {\n    void save() {\n        load().toSnapshot();\n        new Snap().toSnapshot();\n    }\n}\n",
    );
    let unique = "the tree's only definition of the name";
    // Python: an untyped receiver by name; a new Snapshot proven; a
    // receiver typed as another class is not the target's at all.
    let (sites, unsettled, json) = callers(&fx, "snap.py#Snapshot.to_snapshot");
    assert_eq!(sites, set(&["use.py:5", "use.py:6"]), "{json:#}");
    assert_eq!(json["scope"]["proven"], 1, "{json:#}");
    assert_eq!(by_name(&json), set(&[&format!("use.py:5 {unique}")]));
    assert!(unsettled.contains("use.py:7"), "{json:#}");
    // TypeScript, Java: the same.
    let (sites, _, json) = callers(&fx, "src/snap.ts#Snap.toSnapshot");
    assert_eq!(sites, set(&["src/use.ts:4", "src/use.ts:5"]), "{json:#}");
    assert_eq!(by_name(&json), set(&[&format!("src/use.ts:4 {unique}")]));
    let (sites, _, json) = callers(&fx, "p/Snap.java#Snap.toSnapshot");
    assert_eq!(sites, set(&["p/Use.java:5", "p/Use.java:6"]), "{json:#}");
    assert_eq!(by_name(&json), set(&[&format!("p/Use.java:5 {unique}")]));
    // A name library types have (`clear`) is never taken by name.
    let (sites, unsettled, json) = callers(&fx, "src/snap.ts#Snap.clear");
    assert!(sites.is_empty(), "{json:#}");
    assert!(unsettled.contains("src/use.ts:6"), "{json:#}");

    // The page keeps them apart, and --proven-only leaves them out,
    // saying so; the repro line keeps the flag.
    let page = fx.run(&["search", "--callers-of", "snap.py#Snapshot.to_snapshot"]);
    page.expect_code(0)
        .expect_stdout_has("2 calls attributed (1 by name), in 1 file\n")
        .expect_stdout_has(&format!(
            "  by name: 1 call: use.py:5 {unique} (--proven-only leaves it out)\n"
        ));
    let proven = fx.run(&[
        "search",
        "--callers-of",
        "snap.py#Snapshot.to_snapshot",
        "--proven-only",
    ]);
    proven
        .expect_code(0)
        .expect_stdout_has("1 call attributed, in 1 file\n")
        .expect_stdout_has(&format!(
            "  left out, by name only (--proven-only): 1 call: use.py:5 {unique}\n"
        ))
        .expect_stdout_has("--proven-only --budget-tokens 0");
    // Not a hit (the attached code still quotes the function whole).
    assert!(
        !proven.stdout().contains("\n    5:     x.to_snapshot()"),
        "{}",
        proven.describe()
    );
    let json = fx
        .run(&[
            "call",
            r#"{"mode": "search", "callers_of": "snap.py#Snapshot.to_snapshot", "proven_only": true}"#,
        ])
        .json();
    assert_eq!(json["result"]["scope"]["attributed"], 1, "{json:#}");
    assert_eq!(json["result"]["scope"]["proven_only"], true, "{json:#}");
    // A second definition of the name: no longer unique, cannot tell.
    fx.write(
        "more.py",
        "class More:\n    def to_snapshot(self):\n        return 3\n",
    );
    let (sites, unsettled, json) = callers(&fx, "snap.py#Snapshot.to_snapshot");
    assert_eq!(sites, set(&["use.py:6"]), "{json:#}");
    assert!(unsettled.contains("use.py:5"), "{json:#}");
    // --proven-only belongs to the graph.
    fx.run(&["search", "x", "--proven-only"])
        .expect_code(2)
        .expect_stderr_has("--proven-only goes with --callers-of or --impact");
}

#[test]
fn a_receiver_typed_by_what_a_class_s_factory_method_returns() {
    let fx = Fixture::new();
    fx.write(
        "reg.py",
        "class Registry:\n    @classmethod\n    def for_app(cls, app) -> \"Registry\":\n        return cls()\n\n    @classmethod\n    def build(cls):\n        if cls:\n            return cls()\n        return None\n\n    def lookup(self, key):\n        return key\n\n    def other(self):\n        return 1\n",
    )
    .write(
        "use.py",
        "from reg import Registry\n\n\ndef f(app):\n    registry = Registry.for_app(app)\n    registry.lookup(1)\n    built = Registry.build()\n    built.lookup(2)\n    gone = Registry.missing()\n    gone.lookup(3)\n",
    )
    .write(
        "src/reg.ts",
        "export class Registry {\n  static forApp(app: string): Registry {\n    return new Registry();\n  }\n  lookup(key: string) {\n    return key;\n  }\n}\n",
    )
    .write(
        "src/use.ts",
        "import { Registry } from \"./reg\";\n\nexport function f(app: string) {\n  const registry = Registry.forApp(app);\n  registry.lookup(\"a\");\n}\n",
    )
    .write("Cargo.toml", "[package]\nname = \"x\"\nversion = \"0.1.0\"\n")
    .write(
        "src/registry.rs",
        "pub struct Registry {}\n\nimpl Registry {\n    pub fn for_app(app: &str) -> Self {\n        Registry {}\n    }\n\n    pub fn lookup(&self, key: &str) -> usize {\n        key.len()\n    }\n}\n",
    )
    .write(
        "src/main.rs",
        "mod registry;\n\nuse crate::registry::Registry;\n\nfn main() {\n    let r = Registry::for_app(\"a\");\n    r.lookup(\"k\");\n}\n",
    );
    // A classmethod annotated (as a string) or returning `cls(...)`; a
    // method the class lacks types nothing.
    let (sites, unsettled, json) = callers(&fx, "reg.py#Registry.lookup");
    assert_eq!(sites, set(&["use.py:6", "use.py:8"]), "{json:#}");
    assert_eq!(json["scope"]["proven"], 2, "{json:#}");
    assert!(unsettled.contains("use.py:10"), "{json:#}");
    // A static factory's declared return (TypeScript), `-> Self` (Rust).
    let (sites, _, json) = callers(&fx, "src/reg.ts#Registry.lookup");
    assert_eq!(sites, set(&["src/use.ts:5"]), "{json:#}");
    assert_eq!(json["scope"]["proven"], 1, "{json:#}");
    let (sites, _, json) = callers(&fx, "src/registry.rs#Registry.lookup");
    assert_eq!(sites, set(&["src/main.rs:7"]), "{json:#}");
    assert_eq!(json["scope"]["proven"], 1, "{json:#}");
}

#[test]
fn a_method_of_a_base_called_on_a_field_or_parameter_typed_by_the_base() {
    let fx = Fixture::new();
    fx.write(
        "nodes.py",
        "class BaseNode:\n    def render(self):\n        return \"\"\n\n\nclass Leaf(BaseNode):\n    def draw(self):\n        return self.render()\n\n\nclass Tree:\n    def __init__(self, node: BaseNode, made):\n        self.node = node\n        self.made = made\n\n    def show(self, other: BaseNode, leaf: Leaf):\n        self.node.render()\n        other.render()\n        leaf.render()\n        self.made.render()\n",
    )
    .write(
        "src/nodes.ts",
        "export class BaseNode {\n  render() {\n    return \"\";\n  }\n}\n\nexport class Leaf extends BaseNode {\n  draw() {\n    return this.render();\n  }\n}\n\nexport class Tree {\n  node: BaseNode;\n  kept: BaseNode;\n  constructor(node: BaseNode) {\n    this.node = node;\n    this.kept = build();\n  }\n  show(other: BaseNode, leaf: Leaf) {\n    this.node.render();\n    other.render();\n    leaf.render();\n    this.kept.render();\n  }\n}\n",
    )
    .write(
        "p/BaseNode.java",
        "package p;\n\npublic class BaseNode {\n    public String render() { return \"\"; }\n}\n",
    )
    .write(
        "p/Leaf.java",
        "package p;\n\npublic class Leaf extends BaseNode {\n    String draw() { return render(); }\n}\n",
    )
    .write(
        "p/Tree.java",
        "package p;\n\npublic class Tree {\n    private BaseNode node;\n\n    Tree(BaseNode node) { this.node = node; }\n\n    void show(Leaf leaf) {\n        node.render();\n        leaf.render();\n    }\n}\n",
    );
    // `self.node = node` takes the parameter's type; an untyped one gives
    // none (and `render` is a name library types have: cannot tell).
    let (sites, unsettled, json) = callers(&fx, "nodes.py#BaseNode.render");
    assert_eq!(
        sites,
        set(&["nodes.py:8", "nodes.py:17", "nodes.py:18", "nodes.py:19"]),
        "{json:#}"
    );
    assert_eq!(json["scope"]["proven"], 4, "{json:#}");
    assert!(unsettled.contains("nodes.py:20"), "{json:#}");
    // A TypeScript field keeps its declared type through an assignment
    // the walk cannot type.
    let (sites, _, json) = callers(&fx, "src/nodes.ts#BaseNode.render");
    assert_eq!(
        sites,
        set(&[
            "src/nodes.ts:9",
            "src/nodes.ts:21",
            "src/nodes.ts:22",
            "src/nodes.ts:23",
            "src/nodes.ts:24"
        ]),
        "{json:#}"
    );
    assert_eq!(json["scope"]["proven"], 5, "{json:#}");
    // Java: a field of the base's type, a subclass's bare call, a
    // subclass instance.
    let (sites, _, json) = callers(&fx, "p/BaseNode.java#BaseNode.render");
    assert_eq!(
        sites,
        set(&["p/Leaf.java:4", "p/Tree.java:9", "p/Tree.java:10"]),
        "{json:#}"
    );
    assert_eq!(json["scope"]["proven"], 3, "{json:#}");
}

#[test]
fn a_function_inside_a_function_is_a_target_by_its_outer_names() {
    let fx = Fixture::new();
    fx.write(
        "walk.py",
        "class Walker:\n    def walk(self, tree):\n        def _visit(node):\n            return node\n\n        for n in tree:\n            _visit(n)\n\n    def other(self, tree):\n        def _visit(node):\n            return None\n\n        _visit(tree)\n",
    )
    .write(
        "src/editor.ts",
        "export function editor() {\n  function onSave() {\n    return 1;\n  }\n  onSave();\n}\n\nexport function viewer() {\n  function onSave() {\n    return 2;\n  }\n  onSave();\n}\n",
    )
    .write("Cargo.toml", "[package]\nname = \"x\"\nversion = \"0.1.0\"\n")
    .write(
        "src/main.rs",
        "fn one() {\n    fn helper() -> u8 {\n        1\n    }\n    helper();\n}\n\nfn two() {\n    fn helper() -> u8 {\n        2\n    }\n    helper();\n}\n",
    );
    // `Class.method.inner`: the call inside that method, not the other's.
    let (sites, _, json) = callers(&fx, "walk.py#Walker.walk._visit");
    assert_eq!(sites, set(&["walk.py:7"]), "{json:#}");
    assert_eq!(json["scope"]["target"]["line"], 3, "{json:#}");
    let (sites, _, _) = callers(&fx, "walk.py#Walker.other._visit");
    assert_eq!(sites, set(&["walk.py:13"]));
    // `outer.inner` in TypeScript and Rust.
    let (sites, _, json) = callers(&fx, "src/editor.ts#viewer.onSave");
    assert_eq!(sites, set(&["src/editor.ts:12"]), "{json:#}");
    let (sites, _, json) = callers(&fx, "src/main.rs#one.helper");
    assert_eq!(sites, set(&["src/main.rs:5"]), "{json:#}");
    // The name alone is two definitions: the error says how to name one.
    fx.run(&["search", "--callers-of", "walk.py#_visit"])
        .expect_code(2)
        .expect_stderr_has("or one inside another by their names, as walk.py#outer.name");
    fx.run(&["search", "--callers-of", "walk.py#Walker.walk.missing"])
        .expect_code(2)
        .expect_stderr_has("walk.py does not define it");
}

#[test]
fn rust_a_qualified_path_keeps_its_module() {
    let fx = Fixture::new();
    let config = "pub struct Config {}\n\nimpl Config {\n    pub fn load() -> Config {\n        Config {}\n    }\n}\n";
    fx.write("Cargo.toml", "[package]\nname = \"x\"\nversion = \"0.1.0\"\n")
        .write("src/config.rs", config)
        .write("src/other.rs", config)
        .write(
            "src/main.rs",
            "mod config;\nmod other;\n\nuse crate::config::Config;\n\nfn main() {\n    other::Config::load();\n    Config::load();\n    crate::other::Config::load();\n    std::fs::read(\"x\");\n}\n",
        );
    // `other::Config` is other's Config, whatever `Config` alone names here.
    let (sites, _, json) = callers(&fx, "src/config.rs#Config::load");
    assert_eq!(sites, set(&["src/main.rs:8"]), "{json:#}");
    let (sites, _, json) = callers(&fx, "src/other.rs#Config::load");
    assert_eq!(sites, set(&["src/main.rs:7", "src/main.rs:9"]), "{json:#}");
    assert_eq!(json["scope"]["proven"], 2, "{json:#}");
}

#[test]
fn java_overloads_apart_by_their_argument_count_else_cannot_tell() {
    let fx = Fixture::new();
    fx.write(
        "p/Calc.java",
        "package p;\n\npublic class Calc {\n    public int add(int a) { return a; }\n\n    public int add(int a, int b) { return a + b; }\n\n    public int sum(int... xs) { return 0; }\n\n    public int sum(int a, int b) { return a + b; }\n\n    public Calc() {}\n\n    public Calc(int seed) {}\n}\n",
    )
    .write(
        "p/Use.java",
        "package p;\n\npublic class Use {\n    void run(Calc c) {\n        c.add(1);\n        c.add(1, 2);\n        c.sum(1, 2);\n        new Calc(3);\n        new Calc();\n    }\n}\n",
    );
    let (sites, _, json) = callers(&fx, "p/Calc.java:4");
    assert_eq!(sites, set(&["p/Use.java:5"]), "{json:#}");
    let (sites, _, json) = callers(&fx, "p/Calc.java:6");
    assert_eq!(sites, set(&["p/Use.java:6"]), "{json:#}");
    assert_eq!(json["scope"]["elsewhere"][0]["line"], 4, "{json:#}");
    // A varargs overload takes two arguments too: neither is sure.
    for sum in ["p/Calc.java:8", "p/Calc.java:10"] {
        let (sites, unsettled, json) = callers(&fx, sum);
        assert!(sites.is_empty(), "{sum}: {json:#}");
        assert!(unsettled.contains("p/Use.java:7"), "{sum}: {json:#}");
    }
}

#[test]
fn c_an_included_c_file_s_functions_are_the_includer_s_own() {
    let fx = Fixture::new();
    fx.write(
        "a/dict.c",
        "static int dictFind(int k) {\n    return k;\n}\n",
    )
    .write(
        "a/async.c",
        "#include \"dict.c\"\n\nint main(void) {\n    return dictFind(1);\n}\n",
    )
    .write("b/dict.c", "int dictFind(int k) {\n    return k + 1;\n}\n")
    .write(
        "b/use.c",
        "int dictFind(int k);\n\nint use(void) {\n    return dictFind(2);\n}\n",
    );
    // The include path decides, both ways: the static function included
    // is async.c's callee, not the tree's one external definition.
    let (sites, _, json) = callers(&fx, "a/dict.c#dictFind");
    assert_eq!(sites, set(&["a/async.c:4"]), "{json:#}");
    let (sites, _, json) = callers(&fx, "b/dict.c#dictFind");
    assert_eq!(sites, set(&["b/use.c:4"]), "{json:#}");
    assert_eq!(
        json["scope"]["elsewhere"][0]["reason"],
        "the definition in a/dict.c, which the file includes",
        "{json:#}"
    );
}

#[test]
fn rust_a_function_s_own_use_holds_in_that_function_only() {
    let fx = Fixture::new();
    fx.write("Cargo.toml", "[package]\nname = \"x\"\nversion = \"0.1.0\"\n")
        .write("src/a.rs", "pub fn go() {}\n")
        .write("src/b.rs", "pub fn go() {}\n")
        .write(
            "src/main.rs",
            "mod a;\nmod b;\n\nuse crate::b as m;\n\nfn one() {\n    use crate::a as m;\n    m::go();\n}\n\nfn two() {\n    m::go();\n}\n",
        );
    // `one`'s `use crate::a as m` holds in `one`; `two` has the file's.
    let (sites, _, json) = callers(&fx, "src/a.rs#go");
    assert_eq!(sites, set(&["src/main.rs:8"]), "{json:#}");
    let (sites, _, json) = callers(&fx, "src/b.rs#go");
    assert_eq!(sites, set(&["src/main.rs:12"]), "{json:#}");
}

#[test]
fn a_target_re_exported_under_another_name_is_found_by_that_name_too() {
    let fx = Fixture::new();
    fx.write("src/load.ts", "export function load(path: string) {\n  return path;\n}\n")
        .write("src/index.ts", "export { load as fetchIt } from \"./load\";\n")
        .write(
            "src/app.ts",
            "import { fetchIt } from \"./index\";\n\nexport function main() {\n  return fetchIt(\"a\");\n}\n",
        )
        .write(
            "src/direct.ts",
            "import { load } from \"./load\";\n\nexport function other() {\n  return load(\"b\");\n}\n",
        )
        .write(
            "src/unrelated.ts",
            "export function fetchIt(x: string) {\n  return x;\n}\nfetchIt(\"c\");\n",
        );
    // app.ts never spells `load`: it is read because index.ts re-exports
    // load as fetchIt; another file's own fetchIt is not the target.
    let (sites, _, json) = callers(&fx, "src/load.ts#load");
    assert_eq!(sites, set(&["src/app.ts:4", "src/direct.ts:4"]), "{json:#}");
}

#[test]
fn go_a_method_promoted_through_an_embedded_field_unless_the_type_has_its_own() {
    let fx = Fixture::new();
    fx.write("go.mod", "module example.com/app\n")
        .write(
            "base.go",
            "package app\n\ntype Base struct{}\n\nfunc (b *Base) Close() error { return nil }\n\ntype Wrapped struct {\n\t*Base\n\tname string\n}\n\ntype Shadow struct {\n\tBase\n}\n",
        )
        .write("shadow.go", "package app\n\nfunc (s *Shadow) Close() error { return nil }\n")
        .write(
            "use.go",
            "package app\n\nfunc use(w *Wrapped, s *Shadow) {\n\tw.Close()\n\ts.Close()\n}\n",
        );
    // Wrapped has Base's Close; Shadow's own, in another file, hides it.
    let (sites, _, json) = callers(&fx, "base.go#Base.Close");
    assert_eq!(sites, set(&["use.go:4"]), "{json:#}");
    assert_eq!(json["scope"]["proven"], 1, "{json:#}");
    let (sites, _, json) = callers(&fx, "shadow.go#Shadow.Close");
    assert_eq!(sites, set(&["use.go:5"]), "{json:#}");
}

#[test]
fn regression_36_go_receivers_typed_by_a_method_s_results_and_by_a_chain_of_calls() {
    let fx = Fixture::new();
    fx.write("go.mod", "module example.com/kv\n\ngo 1.21\n");
    fx.write(
        "tx.go",
        "package kv\n\ntype Bucket struct{}\n\nfunc (b *Bucket) Put(k, v []byte) error { return nil }\n\nfunc (b *Bucket) Cursor() *Cursor { return &Cursor{} }\n\nfunc (b *Bucket) Next() {}\n\ntype Cursor struct{}\n\nfunc (c *Cursor) Next() ([]byte, []byte) { return nil, nil }\n\ntype Tx struct{}\n\nfunc (tx *Tx) CreateBucket(name []byte) (*Bucket, error) { return &Bucket{}, nil }\n\nfunc (tx *Tx) Bucket(name []byte) *Bucket { return nil }\n",
    );
    fx.write(
        "use.go",
        "package kv\n\nfunc fill(tx *Tx) error {\n\tb, err := tx.CreateBucket(nil)\n\tif err != nil {\n\t\treturn err\n\t}\n\treturn b.Put(nil, nil)\n}\n\nfunc walk(tx *Tx) {\n\tc := tx.Bucket(nil).Cursor()\n\tfor k, _ := c.Next(); k != nil; k, _ = c.Next() {\n\t}\n}\n",
    );
    fx.write(
        "kv_test.go",
        "package kv_test\n\nimport (\n\t\"testing\"\n\n\tbolt \"example.com/kv\"\n)\n\nfunc TestPut(t *testing.T) {\n\tvar tx *bolt.Tx\n\tb, _ := tx.CreateBucket(nil)\n\tb.Put(nil, nil)\n}\n",
    );
    let (sites, _, json) = callers(&fx, "tx.go#Bucket.Put");
    assert_eq!(sites, set(&["use.go:8", "kv_test.go:12"]), "{json}");
    assert!(by_name(&json).is_empty(), "{json}");
    let (sites, _, json) = callers(&fx, "tx.go#Cursor.Next");
    assert_eq!(sites, set(&["use.go:13"]), "{json}");
    // The chain's cursor is not the bucket its first call gives.
    let (sites, _, json) = callers(&fx, "tx.go#Bucket.Next");
    assert!(sites.is_empty(), "{json}");
}

#[test]
fn regression_36_go_a_function_defined_per_platform_is_the_one_this_host_builds() {
    let fx = Fixture::new();
    fx.write("go.mod", "module example.com/m\n\ngo 1.21\n");
    let other = if cfg!(windows) { "linux" } else { "windows" };
    let here = if cfg!(windows) { "windows" } else { "unix" };
    fx.write(
        format!("mmap_{other}.go"),
        "package m\n\nfunc mmap(n int) error { return nil }\n",
    );
    // A file named for no platform, kept to others by its constraint.
    fx.write(
        "mmap_plan9ish.go",
        "//go:build plan9\n\npackage m\n\nfunc mmap(n int) error { return nil }\n",
    );
    fx.write(
        format!("mmap_{here}.go"),
        format!(
            "//go:build {here} && !plan9\n\npackage m\n\nfunc mmap(n int) error {{ return nil }}\n"
        ),
    );
    fx.write(
        "db.go",
        "package m\n\nfunc open() error {\n\treturn mmap(1)\n}\n",
    );
    let (sites, _, json) = callers(&fx, &format!("mmap_{here}.go#mmap"));
    assert_eq!(sites, set(&["db.go:4"]), "{json}");
    let (sites, _, json) = callers(&fx, &format!("mmap_{other}.go#mmap"));
    assert!(sites.is_empty(), "{json}");
    let (sites, _, json) = callers(&fx, "mmap_plan9ish.go#mmap");
    assert!(sites.is_empty(), "{json}");
}

#[test]
fn regression_36_a_name_typed_by_its_own_method_ends() {
    // `ctx = ctx.copy()`: the type of ctx is what ctx.copy returns; it
    // used to recurse until the stack overflowed.
    let fx = Fixture::new();
    fx.write(
        "ctx.py",
        "class Context:\n    def copy(self):\n        return self\n\n\ndef push(ctx):\n    ctx = ctx.copy()\n    ctx = ctx.copy()\n    return ctx\n",
    );
    let (sites, unsettled, json) = callers(&fx, "ctx.py#Context.copy");
    let both = set(&["ctx.py:7", "ctx.py:8"]);
    assert_eq!(&sites | &unsettled, both, "{json}");
}

#[test]
fn regression_36_a_function_held_in_a_component_s_const_is_a_target() {
    // TSX: `const onSave = () => ...` inside a component is the
    // component's own function; each component's call binds to its own.
    let fx = Fixture::new();
    fx.write(
        "src/Editor.tsx",
        "export function Editor() {\n  const onSave = () => {\n    return 1;\n  };\n  onSave();\n  return <button onClick={() => onSave()} />;\n}\n\nexport const Viewer = () => {\n  const onSave = async () => 2;\n  onSave();\n  return null;\n};\n\nfunction onSave() {\n  return 3;\n}\nonSave();\n",
    );
    let (sites, _, json) = callers(&fx, "src/Editor.tsx#Editor.onSave");
    assert_eq!(
        sites,
        set(&["src/Editor.tsx:5", "src/Editor.tsx:6"]),
        "{json:#}"
    );
    assert_eq!(json["scope"]["target"]["line"], 2, "{json:#}");
    let (sites, _, json) = callers(&fx, "src/Editor.tsx#Viewer.onSave");
    assert_eq!(sites, set(&["src/Editor.tsx:11"]), "{json:#}");
    // The name alone is the file's own, top-level function.
    let (sites, _, json) = callers(&fx, "src/Editor.tsx#onSave");
    assert_eq!(sites, set(&["src/Editor.tsx:18"]), "{json:#}");
    assert_eq!(json["scope"]["target"]["line"], 15, "{json:#}");
}

#[test]
fn regression_36_c_a_call_renamed_by_a_macro_in_an_included_header_is_the_other_function() {
    // redis-cli.c includes hiredis's <sdscompat.h>, whose
    // `#define sdsnewlen hi_sdsnewlen` makes its calls hiredis's.
    let fx = Fixture::new();
    fx.write(
        "src/sds.c",
        "#include \"sds.h\"\nsds sdsnewlen(const void *p, size_t n) { return 0; }\nsds sdsnew(const char *p) { return sdsnewlen(p, 1); }\n",
    )
    .write("src/sds.h", "sds sdsnewlen(const void *p, size_t n);\n")
    .write(
        "deps/hiredis/sdscompat.h",
        "#ifndef SDSCOMPAT_H\n#define SDSCOMPAT_H\n#define sdsnewlen hi_sdsnewlen\n#endif\n",
    )
    .write(
        "deps/hiredis/sds.c",
        "hisds hi_sdsnewlen(const void *p, size_t n) { return 0; }\n",
    )
    .write(
        "src/cli.c",
        "#include <hiredis.h>\n#include <sdscompat.h>\n#include <sds.h>\nvoid cli(void) { sdsnewlen(\"a\", 1); }\n",
    )
    .write(
        "src/server.c",
        "#include \"sds.h\"\nvoid serve(void) { sdsnewlen(\"a\", 1); }\n",
    );
    let (sites, unsettled, json) = callers(&fx, "src/sds.c#sdsnewlen");
    assert_eq!(sites, set(&["src/sds.c:3", "src/server.c:2"]), "{json:#}");
    assert!(unsettled.is_empty(), "{json:#}");
    let elsewhere = json["scope"]["elsewhere"].to_string();
    assert!(
        elsewhere.contains("hi_sdsnewlen, as a macro in deps/hiredis/sdscompat.h renames it"),
        "{json:#}"
    );
}

#[test]
fn regression_36_go_a_receiver_from_a_call_on_an_untyped_variable_is_cannot_tell() {
    // `tx` comes from a function the graph cannot read, so what
    // `tx.CreateBucket` gives is unknown: not "a method of tx.CreateBucket".
    let fx = Fixture::new();
    fx.write("go.mod", "module example.com/kv\n\ngo 1.21\n");
    fx.write(
        "bucket.go",
        "package kv\n\ntype Bucket struct{}\n\nfunc (b *Bucket) Put(k, v []byte) error { return nil }\n",
    );
    fx.write(
        "use.go",
        "package kv\n\nimport \"example.com/other\"\n\nfunc fill() {\n\ttx := other.Begin()\n\tb, _ := tx.CreateBucket(nil)\n\tb.Put(nil, nil)\n}\n",
    );
    let (sites, unsettled, json) = callers(&fx, "bucket.go#Bucket.Put");
    assert!(sites.is_empty(), "{json:#}");
    assert_eq!(unsettled, set(&["use.go:8"]), "{json:#}");
}

#[test]
fn regression_36_a_field_declared_in_the_class_or_its_base_types_an_instance_s_member() {
    // `delta.elements.applyTo()` on a parameter of the class's type, and
    // `this.elements.applyTo()` in a subclass: `elements` is a parameter
    // property of the base's constructor (TypeScript), `self.elements`
    // is set in the base's `__init__` (Python).
    let fx = Fixture::new();
    fx.write(
        "src/delta.ts",
        "export class ElementsDelta {\n  public applyTo(x: number): number {\n    return x;\n  }\n}\n",
    )
    .write(
        "src/store.ts",
        "import { ElementsDelta } from \"./delta\";\n\nexport class StoreDelta {\n  protected constructor(\n    public readonly elements: ElementsDelta,\n  ) {}\n\n  public static applyTo(delta: StoreDelta, e: number) {\n    return delta.elements.applyTo(e);\n  }\n}\n\nexport class HistoryDelta extends StoreDelta {\n  public apply(e: number) {\n    return this.elements.applyTo(e);\n  }\n}\n",
    )
    .write(
        "delta.py",
        "class ElementsDelta:\n    def apply_to(self, x):\n        return x\n\n\nclass Other:\n    def apply_to(self, x):\n        return None\n",
    )
    .write(
        "store.py",
        "from delta import ElementsDelta, Other\n\n\nclass StoreDelta:\n    def __init__(self, elements: ElementsDelta, other: Other):\n        self.elements = elements\n        self.other = other\n\n\ndef apply(delta: StoreDelta):\n    delta.elements.apply_to(1)\n    delta.other.apply_to(2)\n\n\nclass HistoryDelta(StoreDelta):\n    def apply(self):\n        self.elements.apply_to(3)\n",
    );
    let (sites, _, json) = callers(&fx, "src/delta.ts#ElementsDelta.applyTo");
    assert_eq!(
        sites,
        set(&["src/store.ts:9", "src/store.ts:15"]),
        "{json:#}"
    );
    assert_eq!(json["scope"]["proven"], 2, "{json:#}");
    let (sites, _, json) = callers(&fx, "delta.py#ElementsDelta.apply_to");
    assert_eq!(sites, set(&["store.py:11", "store.py:17"]), "{json:#}");
    assert_eq!(json["scope"]["proven"], 2, "{json:#}");
    let (sites, _, json) = callers(&fx, "delta.py#Other.apply_to");
    assert_eq!(sites, set(&["store.py:12"]), "{json:#}");
}

#[test]
fn regression_36_a_typescript_factory_with_no_declared_type_returns_what_it_constructs() {
    // `static forApp() { return new Registry(); }`: the variable it sets
    // is a Registry. A function whose returns differ types nothing.
    let fx = Fixture::new();
    fx.write(
        "src/reg.ts",
        "export class Registry {\n  static forApp(app: string) {\n    if (!app) {\n      return new Registry();\n    }\n    return new Registry();\n  }\n  static either(flag: boolean) {\n    if (flag) {\n      return new Registry();\n    }\n    return new Other();\n  }\n  lookup(key: string) {\n    const inner = () => {\n      return new Other();\n    };\n    return key;\n  }\n}\n\nexport class Other {\n  lookup(key: string) {\n    return key;\n  }\n}\n",
    )
    .write(
        "src/use.ts",
        "import { Registry } from \"./reg\";\n\nexport function find(app: string) {\n  const registry = Registry.forApp(app);\n  registry.lookup(\"k\");\n  const maybe = Registry.either(true);\n  maybe.lookup(\"k\");\n}\n",
    );
    let (sites, unsettled, json) = callers(&fx, "src/reg.ts#Registry.lookup");
    assert_eq!(sites, set(&["src/use.ts:5"]), "{json:#}");
    assert_eq!(json["scope"]["proven"], 1, "{json:#}");
    assert!(unsettled.contains("src/use.ts:7"), "{json:#}");
}

/// #54: a callers page kept search's three quotes a file, so a method
/// with 22 attributed calls in one file showed 3 of them on a page with
/// most of its budget unspent. Every attributed call is the answer: all
/// are quoted while the budget holds, and the rest are counted.
#[test]
fn regression_54_a_callers_page_quotes_every_call_its_budget_holds() {
    let fx = Fixture::new();
    fx.write(
        "lib.py",
        "class Store:\n    def put(self, k, v):\n        return k\n",
    );
    let calls: String = (0..22).map(|i| format!("    s.put({i}, {i})\n")).collect();
    fx.write(
        "use.py",
        format!("from lib import Store\n\ndef fill(s: Store):\n{calls}"),
    );
    let run = fx.run(&["search", "--callers-of", "lib.py#Store.put"]);
    run.expect_code(0);
    assert_eq!(
        run.header_field("shown").as_deref(),
        Some("22"),
        "{}",
        run.describe()
    );
    for i in 0..22 {
        assert!(
            run.stdout().contains(&format!("s.put({i}, {i})")),
            "{}",
            run.describe()
        );
    }
    // A small budget still holds, and says what it left out. (Its
    // footer's commands are weighed at the room any surface may spell
    // them in, #54 item 9: 120 tokens no longer hold a line.)
    let small = fx.run(&[
        "search",
        "--callers-of",
        "lib.py#Store.put",
        "--budget-tokens",
        "200",
    ]);
    small.expect_code(0);
    let shown: u64 = small.header_field("shown").unwrap().parse().unwrap();
    assert!(shown < 22, "{}", small.describe());
    assert!(
        small
            .stdout()
            .contains(&format!("+{} lines not quoted", 22 - shown)),
        "{}",
        small.describe()
    );
}

#[test]
fn a_language_scout_parses_without_reading_calls_is_refused_not_guessed() {
    // Bash calls a function without parentheses: a match of `log(` would
    // report no call, and one of the bare name every mention.
    let fx = Fixture::new();
    fx.write(
        "deploy.sh",
        "log() {\n  echo \"$1\"\n}\n\n# log is called below\nlog start\n",
    );
    fx.write("Sources/A.swift", "func load() {}\n\nload()\n");
    for (spec, lang) in [("deploy.sh#log", "bash"), ("Sources/A.swift#load", "swift")] {
        for mode in ["--callers-of", "--impact"] {
            let run = fx.run(&["search", mode, spec]);
            run.expect_code(2).expect_stderr_has(&format!(
                "scout has no code graph for {lang} and does not guess its calls"
            ));
            assert_eq!(run.stdout(), "", "{}", run.describe());
        }
    }
}
