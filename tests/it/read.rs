//! `scout read`: definitions and line ranges of one file, numbered, within
//! a budget; and its errors.

use crate::util::Fixture;

const RUST: &str = "\
use std::fmt;

pub struct Server {
    port: u16,
}

impl Server {
    pub fn handle(&self) -> u16 {
        self.port
    }
}

impl fmt::Display for Server {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, \"{}\", self.port)
    }
}

pub fn handle() {}
";

#[test]
fn a_rust_method_in_an_impl_is_shown_with_its_header() {
    let fx = Fixture::new();
    fx.write("src/server.rs", RUST);
    let run = fx.run(&["read", "src/server.rs", "--symbol", "Server::handle"]);
    run.expect_code(0);
    assert_eq!(
        run.stdout(),
        "src/server.rs  method Server::handle (8-10)\n\
         8:     pub fn handle(&self) -> u16 {\n\
         9:         self.port\n\
         10:     }\n",
        "{}",
        run.describe()
    );
}

/// #54: `Type.method` names a Rust method as `--callers-of` and `edit`
/// take it; it said "no definition".
#[test]
fn regression_54_a_rust_method_is_named_type_dot_method_too() {
    let fx = Fixture::new();
    fx.write("src/server.rs", RUST);
    let colons = fx.run(&["read", "src/server.rs", "--symbol", "Server::handle"]);
    let dot = fx.run(&["read", "src/server.rs", "--symbol", "Server.handle"]);
    dot.expect_code(0);
    assert_eq!(dot.stdout(), colons.stdout(), "{}", dot.describe());
}

/// The doc comment and attributes right above a definition come with it;
/// a blank line ends them.
#[test]
fn doc_comments_and_attributes_above_a_definition_are_shown() {
    let fx = Fixture::new();
    fx.write(
        "src/parse.rs",
        "// file header\n\n/// Parses the arguments.\n/// Never fails.\n#[inline]\npub fn parse_args() -> u8 {\n    0\n}\n",
    );
    let run = fx.run(&["read", "src/parse.rs", "--symbol", "parse_args"]);
    run.expect_code(0);
    assert_eq!(
        run.stdout(),
        "src/parse.rs  function parse_args (5-8), comments and attributes from 3\n\
         3: /// Parses the arguments.\n\
         4: /// Never fails.\n\
         5: #[inline]\n\
         6: pub fn parse_args() -> u8 {\n\
         7:     0\n\
         8: }\n",
        "{}",
        run.describe()
    );
}

#[test]
fn every_definition_with_the_name_is_shown_in_file_order() {
    let fx = Fixture::new();
    fx.write("src/server.rs", RUST);
    let run = fx.run(&["read", "src/server.rs", "--symbol", "handle"]);
    run.expect_code(0);
    assert_eq!(
        run.stdout(),
        "src/server.rs  method Server::handle (8-10)\n\
         8:     pub fn handle(&self) -> u16 {\n\
         9:         self.port\n\
         10:     }\n\
         src/server.rs  function handle (19-19)\n\
         19: pub fn handle() {}\n",
        "{}",
        run.describe()
    );
}

#[test]
fn a_python_method_in_a_nested_class() {
    let fx = Fixture::new();
    fx.write(
        "app/models.py",
        "class Outer:\n    class Inner:\n        def run(self):\n            return 1\n\n    def other(self):\n        pass\n",
    );
    let run = fx.run(&["read", "app/models.py", "--symbol", "run"]);
    run.expect_code(0);
    assert_eq!(
        run.stdout(),
        "app/models.py  method Outer.Inner.run (3-4)\n\
         3:         def run(self):\n\
         4:             return 1\n",
        "{}",
        run.describe()
    );
    let qualified = fx.run(&["read", "app/models.py", "--symbol", "Outer.Inner.run"]);
    qualified.expect_code(0);
    assert_eq!(qualified.stdout(), run.stdout());
}

#[test]
fn a_go_method_with_a_receiver() {
    let fx = Fixture::new();
    fx.write(
        "server.go",
        "package main\n\ntype Server struct{ n int }\n\nfunc (s *Server) Handle() int {\n\treturn s.n\n}\n",
    );
    let run = fx.run(&["read", "server.go", "--symbol", "Handle"]);
    run.expect_code(0);
    assert_eq!(
        run.stdout(),
        "server.go  method Server.Handle (5-7)\n5: func (s *Server) Handle() int {\n6: \treturn s.n\n7: }\n",
        "{}",
        run.describe()
    );
}

#[test]
fn a_typescript_arrow_constant() {
    let fx = Fixture::new();
    fx.write(
        "web/util.ts",
        "import x from 'x';\n\nexport const double = (n: number): number => {\n  return n * 2;\n};\n",
    );
    let run = fx.run(&["read", "web/util.ts", "--symbol", "double"]);
    run.expect_code(0);
    let out = run.stdout();
    assert!(
        out.starts_with("web/util.ts  function double (3-5)\n3: export const double"),
        "{}",
        run.describe()
    );
    assert!(out.ends_with("5: };\n"), "{}", run.describe());
}

#[test]
fn no_match_lists_the_definitions_and_exits_1() {
    let fx = Fixture::new();
    fx.write("src/server.rs", RUST);
    let run = fx.run(&["read", "src/server.rs", "--symbol", "serve"]);
    run.expect_code(1);
    assert_eq!(
        run.stdout(),
        "no definition named serve in src/server.rs; its definitions:\n\
         struct Server (3-5)\n\
         impl Server (7-11)\n\
         method Server::handle (8-10)\n\
         impl fmt::Display for Server (13-17)\n\
         method Server::fmt (14-16)\n\
         function handle (19-19)\n",
        "{}",
        run.describe()
    );
}

#[test]
fn symbol_on_a_file_without_a_parser_suggests_range() {
    let fx = Fixture::new();
    fx.write("notes.txt", "handle this\n");
    let run = fx.run(&["read", "notes.txt", "--symbol", "handle"]);
    run.expect_code(2);
    let err = run.stderr();
    assert!(
        err.contains("no parser for this file type"),
        "{}",
        run.describe()
    );
    assert!(err.contains("rust, python"), "{}", run.describe());
    assert!(err.contains("--range"), "{}", run.describe());
    assert!(run.stdout().is_empty(), "{}", run.describe());
}

#[test]
fn ranges_in_every_form() {
    let fx = Fixture::new();
    let text: String = (1..=10).map(|i| format!("l{i}\n")).collect();
    fx.write("f.txt", &text);
    let cases: [(&str, &str); 5] = [
        ("3:4", "f.txt  (3-4 of 10 lines)\n3: l3\n4: l4\n"),
        ("9:", "f.txt  (9-10 of 10 lines)\n9: l9\n10: l10\n"),
        (":2", "f.txt  (1-2 of 10 lines)\n1: l1\n2: l2\n"),
        ("5", "f.txt  (5-5 of 10 lines)\n5: l5\n"),
        ("9:400", "f.txt  (9-10 of 10 lines)\n9: l9\n10: l10\n"),
    ];
    for (range, want) in cases {
        let run = fx.run(&["read", "f.txt", "--range", range]);
        run.expect_code(0);
        assert_eq!(run.stdout(), want, "{}", run.describe());
    }
    let whole = fx.run(&["read", "f.txt"]);
    whole.expect_code(0);
    assert!(whole
        .stdout()
        .starts_with("f.txt  (1-10 of 10 lines)\n1: l1\n"));
    assert_eq!(whole.stdout().lines().count(), 11);
    fx.write("one.txt", "only\n");
    let one = fx.run(&["read", "one.txt", "--range", "1"]);
    assert_eq!(
        one.stdout(),
        "one.txt  (1-1 of 1 line)\n1: only\n",
        "{}",
        one.describe()
    );
}

#[test]
fn bad_ranges_exit_2_saying_why() {
    let fx = Fixture::new();
    fx.write("f.txt", "a\nb\nc\n");
    let past = fx.run(&["read", "f.txt", "--range", "7:9"]);
    past.expect_code(2);
    assert!(
        past.stderr().contains("the file has 3 lines"),
        "{}",
        past.describe()
    );
    for bad in ["x", "0:2", "3:1", ":"] {
        let run = fx.run(&["read", "f.txt", "--range", bad]);
        run.expect_code(2);
        assert!(run.stderr().contains("expected A:B"), "{}", run.describe());
        assert!(run.stdout().is_empty(), "{}", run.describe());
    }
    let both = fx.run(&["read", "f.txt", "--range", "1:2", "--symbol", "a"]);
    both.expect_code(2);
}

#[test]
fn past_the_budget_the_last_line_is_the_exact_command_for_the_rest() {
    let fx = Fixture::new();
    let text: String = (1..=1000)
        .map(|i| format!("line {i} of a long file\n"))
        .collect();
    fx.write("src/big.txt", &text);
    let run = fx.run(&["read", "src/big.txt"]);
    run.expect_code(0);
    let out = run.stdout();
    assert!(out.len() <= 1500 * 4, "{} bytes", out.len());
    let lines: Vec<&str> = out.lines().collect();
    let shown = lines.len() - 2;
    assert_eq!(
        *lines.last().unwrap(),
        format!(
            "+{} lines not shown: scout read src/big.txt --range {}:1000",
            1000 - shown,
            shown + 1
        ),
        "{}",
        run.describe()
    );
    assert_eq!(
        lines[shown],
        format!("{shown}: line {shown} of a long file")
    );

    // The command given shows the next lines, and so on to the end.
    let next = fx.run(&[
        "read",
        "src/big.txt",
        "--range",
        &format!("{}:1000", shown + 1),
    ]);
    next.expect_code(0);
    let first = next.stdout().lines().nth(1).unwrap().to_string();
    assert_eq!(
        first,
        format!("{}: line {} of a long file", shown + 1, shown + 1)
    );

    let all = fx.run(&["read", "src/big.txt", "--budget-tokens", "0"]);
    assert_eq!(all.stdout().lines().count(), 1001);
}

#[test]
fn a_50_kb_line_is_cut_to_its_first_200_bytes() {
    let fx = Fixture::new();
    let long = "y".repeat(50 * 1024);
    fx.write("min.js", format!("a\n{long}\nb\n"));
    let run = fx.run(&["read", "min.js", "--range", "2:3"]);
    run.expect_code(0);
    assert_eq!(
        run.stdout(),
        format!(
            "min.js  (2-3 of 3 lines)\n2: {}… [cut {} of {} bytes]\n3: b\n",
            "y".repeat(200),
            50 * 1024 - 200,
            50 * 1024
        )
    );
}

#[test]
fn a_missing_file_a_directory_and_a_binary_file_exit_2() {
    let fx = Fixture::new();
    fx.write("src/a.rs", "fn a() {}\n");
    fx.write("blob.bin", b"abc\0def\n");

    let missing = fx.run(&["read", "src/nope.rs"]);
    missing.expect_code(2);
    assert!(
        missing
            .stderr()
            .starts_with("scout: src/nope.rs: no such file"),
        "{}",
        missing.describe()
    );

    let dir = fx.run(&["read", "src"]);
    dir.expect_code(2);
    let err = dir.stderr();
    assert!(err.contains("src: is a directory"), "{}", dir.describe());
    assert!(
        err.contains("scout files") && err.contains("scout search"),
        "{}",
        dir.describe()
    );

    let binary = fx.run(&["read", "blob.bin"]);
    binary.expect_code(2);
    assert!(
        binary.stderr().contains("binary file"),
        "{}",
        binary.describe()
    );
    for run in [&missing, &dir, &binary] {
        assert!(run.stdout().is_empty(), "{}", run.describe());
    }
}

#[test]
fn non_utf8_lines_are_printed_as_they_are() {
    let fx = Fixture::new();
    fx.write("latin1.txt", b"caf\xe9\r\nok\n");
    let run = fx.run(&["read", "latin1.txt"]);
    run.expect_code(0);
    // The `\r` is the file's (#34).
    assert_eq!(
        run.output.stdout,
        b"latin1.txt  (1-2 of 2 lines)\n1: caf\xe9\r\n2: ok\n"
    );
}

/// #34: a CRLF file's lines lost their `\r`; every line shown is the
/// file's, byte for byte, as `scout search` and rg quote it (I4). The
/// comments above a definition are still found, and a blank `\r\n` line
/// still ends them.
#[test]
fn regression_34_crlf_lines_keep_their_cr() {
    let fx = Fixture::new();
    fx.write(
        "crlf.rs",
        "// header\r\n\r\n/// Handles it.\r\n#[inline]\r\npub fn handle() {\r\n    1\r\n}\r\n",
    );
    let run = fx.run(&["read", "crlf.rs", "--symbol", "handle"]);
    run.expect_code(0);
    assert_eq!(
        run.stdout(),
        "crlf.rs  function handle (4-7), comments and attributes from 3\n\
         3: /// Handles it.\r\n\
         4: #[inline]\r\n\
         5: pub fn handle() {\r\n\
         6:     1\r\n\
         7: }\r\n",
        "{}",
        run.describe()
    );
    let run = fx.run(&["read", "crlf.rs", "--range", "1:2"]);
    assert_eq!(
        run.stdout(),
        "crlf.rs  (1-2 of 7 lines)\n1: // header\r\n2: \r\n",
        "{}",
        run.describe()
    );
}

#[test]
fn definitions_are_cached_under_the_cache_directory() {
    let fx = Fixture::new();
    fx.write("src/server.rs", RUST);
    // A file changed in the last moments is not cached (#34).
    fx.settle();
    let entries = |fx: &Fixture| -> Vec<String> {
        match std::fs::read_dir(fx.home.path().join("cache/scout/defs")) {
            Ok(dir) => dir
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".defs"))
                .collect(),
            Err(_) => Vec::new(),
        }
    };
    fx.run(&["read", "src/server.rs", "--range", "1:2"])
        .expect_code(0);
    assert!(entries(&fx).is_empty(), "a range needs no definitions");

    let first = fx.run(&["read", "src/server.rs", "--symbol", "handle"]);
    first.expect_code(0);
    let cached = entries(&fx);
    assert_eq!(cached.len(), 1, "{}", first.describe());
    assert_eq!(cached[0].len(), "0123456789abcdef.defs".len());
    // The compact entry format of src/defs/cache.rs: magic, then fields,
    // names as length-prefixed bytes.
    let entry = std::fs::read(fx.home.path().join("cache/scout/defs").join(&cached[0])).unwrap();
    assert!(entry.starts_with(b"scout-defs\n"), "{entry:?}");
    assert!(
        entry.windows(10).any(|w| w == b"\x06\0\0\0handle"),
        "{entry:?}"
    );

    let second = fx.run(&["read", "src/server.rs", "--symbol", "handle"]);
    assert_eq!(second.stdout(), first.stdout());
}

#[test]
fn help_has_examples() {
    let fx = Fixture::new();
    let run = fx.run(&["read", "--help"]);
    run.expect_code(0);
    assert!(
        run.stdout().contains("Examples:\n  scout read"),
        "{}",
        run.describe()
    );
}
