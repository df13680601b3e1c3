#!/usr/bin/env python3
"""Tests of bench.py's definition oracle (benchlib.build_oracle), no
network, no build.

    python3 bench/test_oracle.py
    python3 -m unittest bench/test_oracle.py

The declaration regexes (Swift, Scala, Zig, Dart, and the Haskell and
Elixir additions to ctags) are run on hand-written files: every line says
which names it declares, so each line is a positive or a negative case.
Then build_oracle runs on a temporary tree: with `--oracle regex` (rg
only), and with universal-ctags when it is installed (skipped otherwise),
which must not leave Swift files without definitions and must drop what
ctags 5.9 mis-tags in Elixir, Haskell and Sh. Needs rg on PATH.
"""

import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402

# (line, names it declares). Locals, calls, aliases, keyword-less fields
# and the insides of strings declare nothing.
SWIFT = [
    ("import NIOCore", []),
    ("public let globalLimit = 4", ["globalLimit"]),
    ("@available(macOS 10.15, *)", []),
    ("public final class Pool: Sendable {", ["Pool"]),
    ("    static let shared = Pool()", ["shared"]),
    ("    private(set) var count: Int = 0", ["count"]),
    ("    public init(size: Int) {", ["init"]),
    ("        let local = size", []),
    ("        var other = 0", []),
    ("    }", []),
    ("    @inlinable", []),
    ("    public func lease(for key: String) -> Int {", ["lease"]),
    ("        guard let value = cache[key] else { return 0 }", []),
    ("        if let x = value { print(x) }", []),
    ("        return value", []),
    ("    }", []),
    ("    class func make() -> Pool { Pool(size: 1) }", ["make"]),
    ("    func `default`() {}", ["default"]),
    ("    func `two words`() {}", []),
    ("}", []),
    ("enum State {", ["State"]),
    ("    case idle, running(Int)", []),
    ("    indirect case nested(State)", []),
    ("    var isIdle: Bool {", ["isIdle"]),
    ("        switch self {", []),
    ("        case .idle: return true", []),
    ("        default: return false", []),
    ("        }", []),
    ("    }", []),
    ("}", []),
    ("enum Mode { case fast, slow }", ["Mode"]),
    ("extension Pool {", ["Pool"]),
    ("    typealias Key = String", ["Key"]),
    ("}", []),
    ("protocol Leasing {", ["Leasing"]),
    ("    associatedtype Item", ["Item"]),
    ("    var limit: Int { get }", ["limit"]),
    ("}", []),
    ('let template = """', ["template"]),
    ("    func notCode() {}", []),
    ('    """', []),
]

SCALA = [
    ("package cats.data", []),
    ("import cats.Monad", []),
    ("sealed abstract class Chain[+A] {", ["Chain"]),
    ("  val size: Int = 0", ["size"]),
    ("  private[this] var rights: List[A] = Nil", ["rights"]),
    ("  final def map[B](f: A => B): Chain[B] = {", ["map"]),
    ("    val local = 1", []),
    ("    def helper(x: Int) = x", ["helper"]),
    ("    local", []),
    ("  }", []),
    ('  override def toString: String = "Chain"', ["toString"]),
    ("  def this(x: Int) = this()", []),
    ("  def `two words`(x: Int) = x", []),
    ("}", []),
    ("object Chain extends ChainInstances {", ["Chain"]),
    ("  type Aux[A] = Chain[A]", ["Aux"]),
    ("  case object Empty extends Chain[Nothing]", ["Empty"]),
    ("  final case class Wrap[A](a: A) extends Chain[A]", ["Wrap"]),
    ("  implicit val catsDataMonadForChain: Monad[Chain] = new Monad[Chain] {",
     ["catsDataMonadForChain"]),
    ("    val notAMember = 1", []),
    ("    def pure[A](a: A): Chain[A] = ???", ["pure"]),
    ("  }", []),
    ('  @deprecated("use map", "2.0") def oldMap = 1', ["oldMap"]),
    ("  private[data] lazy val cached = 1", ["cached"]),
    ("  x match {", []),
    ("    case Some(v) => v", []),
    ("  }", []),
    ("}", []),
    ("package object syntax {", ["syntax"]),
    ("  val all = 1", ["all"]),
    ("}", []),
    ("enum Color {", ["Color"]),
    ("  case Red, Green", []),
    ("  case Rgb(r: Int)", []),
    ("}", []),
    ("given intShow: Show[Int] with {}", ["intShow"]),
]

ZIG = [
    ('const std = @import("std");', []),
    ("const Allocator = std.mem.Allocator;", []),
    ("pub const max_size = 1024;", ["max_size"]),
    ("var counter: u32 = 0;", ["counter"]),
    ("pub fn main() !void {", ["main"]),
    ("    const local = 1;", []),
    ("    var x: u32 = 0;", []),
    ("    for ([_]struct { bool, u8 }{.{ true, 1 }}) |pair| {", []),
    ("        const inner = pair;", []),
    ("    }", []),
    ("}", []),
    ("pub const Pool = struct {", ["Pool"]),
    ("    const Self = @This();", ["Self"]),
    ("    items: []u8,", []),
    ("    pub fn init(allocator: Allocator) Pool {", ["init"]),
    ("        _ = allocator;", []),
    ("        return .{ .items = &.{} };", []),
    ("    }", []),
    ("    inline fn helper() void {}", ["helper"]),
    ("};", []),
    ("pub const State = enum(u8) {", ["State"]),
    ("    idle,", []),
    ("    running = 2,", []),
    ("    _,", []),
    ("    pub fn is_idle(s: State) bool {", ["is_idle"]),
    ("        return s == .idle;", []),
    ("    }", []),
    ("};", []),
    ("const Mode = enum { fast, slow };", ["Mode"]),
    ("fn Generic(comptime T: type) type {", ["Generic"]),
    ("    return struct {", []),
    ("        value: T,", []),
    ("        pub const zero: T = 0;", ["zero"]),
    ("    };", []),
    ("}", []),
    ("export fn c_entry() void {}", ["c_entry"]),
    ('test "pool works" {', []),
    ("    const t = 1;", []),
    ("}", []),
]

DART = [
    ("import 'dart:async';", []),
    ("const defaultPort = 8080;", ["defaultPort"]),
    ("final _registry = <String, Client>{};", ["_registry"]),
    ("typedef Handler = Future<void> Function(Request);", ["Handler"]),
    ("Future<void> main() async {", ["main"]),
    ("  final client = Client();", []),
    ("  late String name;", []),
    ("  print(client);", []),
    ("  void helper(int x) {", ["helper"]),
    ("  }", []),
    ("  return helper(1);", []),
    ("}", []),
    ("abstract interface class Client {", ["Client"]),
    ("  factory Client() => _create();", ["Client"]),
    ("  Client.named(this.port);", ["named"]),
    ("  static const int maxRetries = 3;", ["maxRetries"]),
    ("  final int port;", ["port"]),
    ("  String label = '';", []),
    ("  Future<Response> get(Uri url);", ["get"]),
    ("  String get host => 'localhost';", ["host"]),
    ("  set host(String value) {}", ["host"]),
    ("  @override", []),
    ("  String toString() => 'Client';", ["toString"]),
    ("  void Function(int)? onData;", []),
    ("  bool operator ==(Object other) => true;", []),
    ("}", []),
    ("mixin Retry on Client {", ["Retry"]),
    ("  int retries() => 3;", ["retries"]),
    ("}", []),
    ("extension ClientX on Client {", ["ClientX"]),
    ("  bool get isLocal => true;", ["isLocal"]),
    ("}", []),
    ("extension on String {", []),
    ("}", []),
    ("extension type Meters(int value) {", ["Meters"]),
    ("  Meters.zero() : value = 0;", ["zero"]),
    ("}", []),
    ("enum Status {", ["Status"]),
    ("  active('a'),", []),
    ("  closed('c');", []),
    ("  const Status(this.code);", ["Status"]),
    ("  final String code;", ["code"]),
    ("  bool isOpen() => this == active;", ["isOpen"]),
    ("}", []),
    ("enum Color { red, green }", ["Color"]),
    ("class NSHttp$Methods {}", ["NSHttp$Methods"]),
]

# What the declaration regex adds to ctags 5.9 in Haskell and Elixir.
HASKELL = [
    ("module Foo.Bar where", []),
    ("class Show a => Pretty a where", ["Pretty"]),
    ("  pretty :: a -> String", ["pretty"]),
    ("  prettyList, prettyMany :: [a] -> String", ["prettyList", "prettyMany"]),
    ("  pretty = show", []),
    ("instance Pretty Int where", []),
    ("  pretty = show", []),
    ("helper :: Int -> Int", []),
]

ELIXIR = [
    ("defmodule Foo do", []),
    ("  defguard is_even(x) when rem(x, 2) == 0", ["is_even"]),
    ("  defguardp is_small?(x) when x < 10", ["is_small?"]),
    ("  require Record", []),
    ("  Record.defrecord(:user, name: nil)", ["user"]),
    ("  defrecordp :point, [:x, :y]", ["point"]),
    ('  @doc """', []),
    ("  defguard not_code(x) when x", []),
    ('  """', []),
    ("end", []),
]

CASES = {"Swift": SWIFT, "Scala": SCALA, "Zig": ZIG, "Dart": DART,
         "Haskell": HASKELL, "Elixir": ELIXIR}


class DeclarationRegexes(unittest.TestCase):
    def test_each_line_declares_what_it_says(self):
        for language, case in CASES.items():
            with self.subTest(language=language):
                text = "\n".join(line for line, _ in case) + "\n"
                want = sorted((no, name) for no, (_, names) in enumerate(case, 1)
                              for name in names)
                got = sorted(bl.scan_declarations(text, language))
                self.assertEqual(got, want, "\n".join(
                    "%d: %s" % (no, case[no - 1][0])
                    for no, _ in sorted(set(got) ^ set(want))))

    def test_extensions_name_languages(self):
        self.assertEqual([bl.decl_language(p) for p in (
            b"a.swift", b"b.scala", "build.sbt", b"s.sc", b"x.zig", b"y.dart",
            b"z.hs", b"w.exs", b"v.py")],
            ["Swift", "Scala", "Scala", "Scala", "Zig", "Dart", "Haskell",
             "Elixir", None])


FILES = {
    "Sources/Pool.swift": "public final class Pool {\n    func leaseOne() {}\n}\n",
    "lib/worker.ex": ('defmodule App.Worker do\n  @moduledoc """\n'
                      '  defmodule Example do\n  """\n  def run_job(x), do: x\n'
                      '  defimpl Enumerable, for: App.Worker do\n  end\n'
                      '  test "run_job" do\n  end\nend\n'),
    "src/App/Query.hs": "module App.Query where\n\nrunQuery :: Int\nrunQuery = 1\n",
    "s.sh": ('say() {\n  echo "ok"\n}\nusage() {\n  echo "\n'
             '  --challenge-alias <domain.tld>    The challenge domain alias'
             ' for DNS alias mode.\n'
             '"\n}\n_err "$(printf "Fatal error: acme API function call : %s" "$v")"\n'),
}
IDENTS = ["Pool", "leaseOne", "Worker", "Example", "run_job", "Enumerable",
          "Query", "App", "runQuery", "say", "mode", "call"]


class BuildOracle(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not shutil.which("rg"):
            raise unittest.SkipTest("rg is not on PATH")
        cls.repo = tempfile.mkdtemp(prefix="scout-test-oracle-")
        for rel, text in FILES.items():
            path = os.path.join(cls.repo, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as fh:
                fh.write(text)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.repo, ignore_errors=True)

    def oracle(self, use):
        said = []
        name, defs = bl.build_oracle(self.repo, IDENTS, use, log=said.append)
        self.assertEqual(sorted(defs), sorted(IDENTS))
        return name, {k: sorted(v) for k, v in defs.items()}, said

    def test_regex_oracle_covers_swift(self):
        name, defs, said = self.oracle("regex")
        self.assertEqual(name, "keyword-regex + declaration-regex")
        self.assertIn("declaration regex for Swift files", said[0])
        self.assertEqual(defs["Pool"], [(b"Sources/Pool.swift", 1)])
        self.assertEqual(defs["leaseOne"], [(b"Sources/Pool.swift", 2)])

    def test_ctags_oracle_covers_swift_and_drops_mistags(self):
        if not bl.find_ctags():
            self.skipTest("universal-ctags is not installed")
        name, defs, said = self.oracle("ctags")
        self.assertEqual(name, "universal-ctags + declaration-regex")
        self.assertIn("declaration regex for Swift files", said[0])
        self.assertIn("universal-ctags for Elixir/Haskell/Sh files", said[0])
        want = {
            "Pool": [(b"Sources/Pool.swift", 1)],
            "leaseOne": [(b"Sources/Pool.swift", 2)],
            "Worker": [(b"lib/worker.ex", 1)],
            "Example": [],      # inside @moduledoc
            "run_job": [(b"lib/worker.ex", 5)],
            "Enumerable": [],   # defimpl does not define the protocol
            "Query": [(b"src/App/Query.hs", 1)],
            "App": [],          # not the module's own name
            "runQuery": [(b"src/App/Query.hs", 4)],
            "say": [(b"s.sh", 1)],
            "mode": [],         # ctags's "alias" in a help text
            "call": [],         # ctags's "function" in an error message
        }
        self.assertEqual(defs, want)


if __name__ == "__main__":
    unittest.main()
