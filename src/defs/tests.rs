//! Tests for `defs`: per language, the definition enclosing chosen lines
//! of a realistic sample (`samples/`, one file per language; line numbers
//! below are 1-based lines of those files).

use super::*;

/// `kind name start-end` of a definition, or `-` for none.
fn describe(def: Option<&Def>) -> String {
    match def {
        Some(d) => format!(
            "{} {} {}-{}",
            d.kind.label(),
            d.name,
            d.start_line,
            d.end_line
        ),
        None => "-".to_string(),
    }
}

fn listing(defs: &[Def]) -> String {
    defs.iter()
        .map(|d| format!("  {} (name on {})\n", describe(Some(d)), d.name_line))
        .collect()
}

/// Asserts the definition enclosing each line of `source`.
fn check(lang: Lang, source: &str, expected: &[(u32, &str)]) {
    let defs = extract(lang, source.as_bytes());
    for &(line, want) in expected {
        let got = describe(enclosing(&defs, line));
        assert_eq!(
            got,
            want,
            "{lang:?} line {line}; definitions:\n{}",
            listing(&defs)
        );
    }
}

const RUST: &str = include_str!("samples/rust.rs");
const PYTHON: &str = include_str!("samples/python.py");
const JAVASCRIPT: &str = include_str!("samples/javascript.js");
const TYPESCRIPT: &str = include_str!("samples/typescript.ts");
const TSX: &str = include_str!("samples/tsx.tsx");
const GO: &str = include_str!("samples/go.go");
const RUBY: &str = include_str!("samples/ruby.rb");
const JAVA: &str = include_str!("samples/Java.java");
const KOTLIN: &str = include_str!("samples/kotlin.kt");
const CSHARP: &str = include_str!("samples/csharp.cs");
const CSHARP_FILE_SCOPED: &str = include_str!("samples/csharp_file_scoped.cs");
const C: &str = include_str!("samples/c.c");
const CPP: &str = include_str!("samples/cpp.cpp");
const PHP: &str = include_str!("samples/php.php");
const LUA: &str = include_str!("samples/lua.lua");
const LUAU: &str = include_str!("samples/luau.luau");
const SWIFT: &str = include_str!("samples/swift.swift");
const SCALA: &str = include_str!("samples/scala.scala");
const ELIXIR: &str = include_str!("samples/elixir.ex");
const HASKELL: &str = include_str!("samples/haskell.hs");
const ZIG: &str = include_str!("samples/zig.zig");
const BASH: &str = include_str!("samples/bash.sh");
const DART: &str = include_str!("samples/dart.dart");

/// Every sample with its language.
const SAMPLES: [(Lang, &str); 23] = [
    (Lang::Rust, RUST),
    (Lang::Python, PYTHON),
    (Lang::JavaScript, JAVASCRIPT),
    (Lang::TypeScript, TYPESCRIPT),
    (Lang::Tsx, TSX),
    (Lang::Go, GO),
    (Lang::Ruby, RUBY),
    (Lang::Java, JAVA),
    (Lang::Kotlin, KOTLIN),
    (Lang::CSharp, CSHARP),
    (Lang::CSharp, CSHARP_FILE_SCOPED),
    (Lang::C, C),
    (Lang::Cpp, CPP),
    (Lang::Php, PHP),
    (Lang::Lua, LUA),
    (Lang::Luau, LUAU),
    (Lang::Swift, SWIFT),
    (Lang::Scala, SCALA),
    (Lang::Elixir, ELIXIR),
    (Lang::Haskell, HASKELL),
    (Lang::Zig, ZIG),
    (Lang::Bash, BASH),
    (Lang::Dart, DART),
];

#[test]
fn rust_items_impls_and_trait_methods() {
    check(
        Lang::Rust,
        RUST,
        &[
            (1, "-"),
            (5, "struct Point 5-10"), // `#[derive]` starts the range
            (8, "struct Point 5-10"),
            (12, "impl impl Point<T> 12-19"),
            (15, "method Point::new 13-18"), // inside a closure
            (21, "impl impl fmt::Display for Point<i32> 21-25"),
            (23, "method Point::fmt 22-24"),
            (28, "method Shape::area 28-28"),
            (30, "method Shape::name 29-31"),
            (32, "trait Shape 27-32"),
            (34, "enum Kind 34-34"),
            (36, "constant MAX 36-36"),
            (37, "constant NAME 37-37"),
            (38, "type Pair 38-38"),
            (42, "macro square 40-44"),
            (48, "function nested 48-48"),
            (49, "function helper 47-50"),
            (51, "module inner 46-51"),
            (54, "method Point::drop 54-54"),
        ],
    );
}

#[test]
fn python_classes_nested_classes_and_decorators() {
    check(
        Lang::Python,
        PYTHON,
        &[
            (1, "-"),
            (3, "constant MAX 3-3"),
            (7, "function plain 6-7"),
            (10, "function cached 10-16"), // the first decorator
            (12, "function cached 10-16"),
            (14, "function cached 10-16"), // inside a lambda
            (20, "class Server 19-40"),
            (22, "class Server 19-40"),
            (25, "method Server.__init__ 24-25"),
            (27, "method Server.address 27-29"),
            (31, "class Server.Config 31-35"),
            (34, "function helper 33-34"),
            (35, "method Server.Config.load 32-35"),
            (39, "method Server.handle 37-40"),
        ],
    );
}

#[test]
fn javascript_functions_in_consts_classes_and_prototypes() {
    check(
        Lang::JavaScript,
        JAVASCRIPT,
        &[
            (1, "-"),
            (4, "function add 3-5"),
            (8, "function mul 7-9"),
            (12, "function gen 11-13"),
            (16, "class Widget 15-32"),
            (18, "method Widget.onClick 17-19"),
            (24, "method Widget.constructor 21-26"), // inside an arrow callback
            (29, "method Widget.render 28-31"),      // a local arrow is no definition
            (35, "method Widget.prototype.legacy 34-36"),
            (40, "method module.exports.helper 39-41"),
            (42, "method module.exports.other 42-42"),
            (48, "method actionZoom.perform 47-49"), // an argument of the call
            (53, "function local 52-54"),            // an object inside is local
            (58, "method actions.pan.start 58-58"),  // through an outer key
            (60, "method actions.zoom.perform 60-60"),
            (61, "method \"quoted-key\" 61-61"), // a string key: its bare name
            (63, "method boot 63-63"),           // `(window).app`: no plain name
            (65, "method getDimensions 65-65"),  // an awaited call's result
            (66, "method subtle 66-66"),         // no variable holds it
            (67, "method m 67-67"),              // nine keys deep
            (68, "method eight.a.b.c.d.e.f.g.h.m 68-68"),
        ],
    );
}

#[test]
fn typescript_interfaces_types_enums_and_decorated_classes() {
    check(
        Lang::TypeScript,
        TYPESCRIPT,
        &[
            (2, "method Shape.area 2-2"),
            (3, "interface Shape 1-4"),
            (6, "type Id 6-6"),
            (9, "enum Color 8-11"),
            (13, "class Circle 13-27"), // the decorator
            (17, "method Circle.constructor 17-17"),
            (19, "method Circle.area 19-22"), // the method's decorator
            (21, "method Circle.area 19-22"),
            (25, "method Circle.handler 24-26"),
            (30, "method Base.run 30-30"),
            (33, "module Geo 33-37"),
            (35, "function dist 34-36"),
            (39, "function ext 39-39"),
            (41, "function typed 41-41"),
            (45, "method handlers.onSave 44-46"), // through `satisfies`
            (50, "method store.reset 50-50"),     // an argument of `new`
        ],
    );
}

#[test]
fn tsx_components() {
    check(
        Lang::Tsx,
        TSX,
        &[
            (1, "-"),
            (3, "type Props 3-3"),
            (8, "function Header 5-12"), // inside an arrow in JSX
            (15, "function Footer 14-16"),
            (19, "function App 18-20"),
        ],
    );
}

#[test]
fn go_functions_types_and_methods_with_receivers() {
    check(
        Lang::Go,
        GO,
        &[
            (1, "-"),
            (5, "constant MaxConns 5-5"),
            (8, "constant A 8-8"),
            (13, "struct Server 12-14"),
            (17, "method Handler.Serve 17-17"),
            (20, "type ID 20-20"),
            (23, "struct List 22-24"),
            (28, "function New 26-32"),         // inside a closure
            (35, "method Server.Handle 34-37"), // pointer receiver
            (39, "method Server.Addr 39-39"),   // value receiver
            (42, "method List.Push 41-43"),     // generic pointer receiver
            (46, "method List.Len 45-47"),      // generic value receiver
        ],
    );
}

#[test]
fn ruby_modules_classes_and_singleton_methods() {
    check(
        Lang::Ruby,
        RUBY,
        &[
            (1, "-"),
            (3, "module Shop 3-34"),
            (5, "class Shop::Cart 4-26"),
            (8, "method Shop::Cart#initialize 7-9"),
            (12, "method Shop::Cart.build 11-13"),
            (17, "method Shop::Cart#total 15-19"), // inside a block
            (23, "method Shop::Cart.registry 22-24"), // `class << self`
            (29, "method Shop.version 28-30"),
            (32, "method Shop#helper 32-33"),
            (37, "method Shop::Item#price 37-37"),
            (41, "function top_level 40-42"),
        ],
    );
}

#[test]
fn java_nested_classes_methods_and_lambdas() {
    check(
        Lang::Java,
        JAVA,
        &[
            (1, "-"),
            (5, "class Repo 5-44"), // the annotation
            (7, "class Repo 5-44"),
            (10, "method Repo.Repo 9-11"),
            (16, "method Repo.find 13-19"), // inside a lambda
            (22, "class Repo.Node 21-24"),
            (23, "method Repo.Node.visit 23-23"),
            (27, "method Repo.Visitor.accept 27-27"),
            (28, "interface Repo.Visitor 26-28"),
            (30, "method Repo.State.isOpen 30-30"),
            (34, "method Repo.Pair.Pair 33-35"),
            (40, "method run 40-41"), // of an anonymous class
            (42, "method Repo.anon 38-43"),
        ],
    );
}

#[test]
fn kotlin_classes_objects_and_members() {
    check(
        Lang::Kotlin,
        KOTLIN,
        &[
            (1, "-"),
            (5, "constant MAX 5-5"),
            (8, "method Shape.area 8-8"),
            (11, "enum Color 11-11"),
            (13, "class Point 13-13"),
            (16, "property Circle.name 16-16"),
            (18, "method Circle.constructor 18-18"),
            (22, "method Circle.area 20-25"), // inside a lambda
            (28, "method Circle.Inner.deep 28-28"),
            (31, "class Circle 15-34"),
            (32, "method Circle.unit 32-32"), // companion object
            (38, "method Registry.register 37-39"),
            (42, "type Shapes 42-42"),
            (44, "function second 44-44"),
            (47, "function main 46-49"),
        ],
    );
}

#[test]
fn csharp_namespaces_classes_and_members() {
    check(
        Lang::CSharp,
        CSHARP,
        &[
            (1, "-"),
            (4, "module Shop.Core 3-45"),
            (5, "class Cart 5-31"), // the attribute
            (8, "property Cart.Count 8-8"),
            (11, "method Cart.Cart 10-12"),
            (18, "method Cart.Add 14-21"), // inside a lambda
            (20, "function Local 20-20"),
            (23, "method Cart.operator + 23-23"),
            (25, "method Cart.~Cart 25-25"),
            (29, "method Cart.Node.Visit 29-29"),
            (35, "method IStore.Save 35-35"),
            (38, "struct Point 38-38"),
            (40, "enum Color 40-40"),
            (42, "class Person 42-42"),
            (44, "type Handler 44-44"),
        ],
    );
    check(
        Lang::CSharp,
        CSHARP_FILE_SCOPED,
        &[(2, "module Shop 1-6"), (5, "method Order.Place 5-5")],
    );
}

#[test]
fn c_functions_including_return_type_on_its_own_line() {
    check(
        Lang::C,
        C,
        &[
            (1, "-"),
            (3, "macro MAX 3-3"),
            (4, "macro SQUARE 4-4"),
            (7, "struct point 6-9"),
            (12, "type size_t2 11-13"),
            (15, "type callback 15-15"),
            (17, "enum color 17-17"),
            (19, "function parse_args 19-25"), // `static int` alone
            (21, "function parse_args 19-25"), // K&R parameter declarations
            (27, "function name_of 27-31"),
            (34, "function main 33-36"),
            (38, "-"), // a prototype is no definition
        ],
    );
}

#[test]
fn cpp_namespaces_classes_templates_and_out_of_class_methods() {
    check(
        Lang::Cpp,
        CPP,
        &[
            (1, "-"),
            (5, "module detail 4-11"),
            (6, "function max 6-9"), // `template <typename T>`
            (8, "function max 6-9"),
            (14, "class Shape 13-26"),
            (15, "method Shape::Shape 15-15"),
            (16, "method Shape::~Shape 16-16"),
            (17, "class Shape 13-26"), // a pure virtual declaration
            (19, "method Shape::operator== 19-19"),
            (23, "method Shape::Cache::clear 23-23"),
            (28, "class Box 28-37"),
            (33, "method Box::area 31-36"), // inside a lambda
            (39, "struct Point 39-39"),
            (41, "type Points 41-41"),
            (42, "module geo 3-43"),
            (46, "method geo::Shape::helper 45-46"),
            (49, "method Circle::area 48-50"),
            (52, "method Circle::~Circle 52-52"),
            (54, "-"), // an anonymous namespace
            (55, "function hidden 55-55"),
        ],
    );
}

#[test]
fn php_namespaces_classes_traits_and_functions() {
    check(
        Lang::Php,
        PHP,
        &[
            (1, "-"),
            (5, "module App\\Models 3-52"),
            (9, "method HasName::name 9-9"),
            (14, "method Greets::greet 14-14"),
            (17, "class User 17-41"), // the attribute
            (22, "constant User::TABLE 22-22"),
            (25, "method User::__construct 24-26"),
            (31, "method User::find 28-35"), // inside a closure
            (33, "method User::find 28-35"), // an arrow function
            (39, "method User::name 37-40"),
            (46, "method Suit::color 46-46"),
            (51, "function helper 49-52"),
        ],
    );
}

#[test]
fn lua_local_module_and_method_functions_despite_lua_5_3_syntax() {
    check(
        Lang::Lua,
        LUA,
        &[
            (1, "-"),
            (5, "function helper 4-6"),
            (9, "function M.add 8-10"),
            (14, "method M:method 12-17"), // a function value inside is local
            (20, "function M.other 19-21"),
            (26, "function global_fn 23-29"), // `goto continue`, `::continue::`
            (32, "function bits 31-33"),      // bitwise operators
            (37, "function after_bits 35-39"),
            (41, "-"),
        ],
    );
}

#[test]
fn luau_types_and_typed_functions() {
    check(
        Lang::Luau,
        LUAU,
        &[
            (1, "-"),
            (2, "type Point 2-2"),
            (3, "type Map 3-3"),
            (9, "function Class.new 8-11"),
            (14, "method Class:move 13-15"),
            (18, "function typed 17-19"),
        ],
    );
}

#[test]
fn swift_types_extensions_protocols_and_properties() {
    check(
        Lang::Swift,
        SWIFT,
        &[
            (1, "-"),
            (3, "constant maxRetries 3-3"),
            (4, "variable registry 4-4"),
            (6, "-"), // a doc comment is not in the range
            (8, "property Point.x 8-8"),
            (12, "method Point.init 11-15"), // `let scale` is a local
            (18, "method Point.distance 17-19"),
            (21, "method Point.origin 21-21"),
            (25, "property Shape.area 25-25"),
            (26, "method Shape.describe 26-26"),
            (29, "class Canvas 29-42"), // the attribute starts the range
            (31, "property Canvas.shapes 31-31"),
            (35, "function helper 35-35"),
            (40, "method Canvas.deinit 39-41"),
            (45, "enum Direction 44-54"), // enum cases are not definitions
            (50, "property Direction.opposite 48-53"),
            (57, "property Point.description 57-57"),
            (58, "impl extension Point 56-58"),
            (62, "method Counter.increment 62-62"),
            (65, "type Pair 65-65"),
            (68, "function topLevel 67-70"),
        ],
    );
}

#[test]
fn scala_templates_objects_packages_and_vals() {
    check(
        Lang::Scala,
        SCALA,
        &[
            (3, "module com.example.shapes 1-47"), // the package holds the file
            (5, "constant DefaultName 5-5"),
            (9, "method Shape.area 9-9"),
            (14, "property Circle.Pi 14-14"),
            (16, "method Circle.area 15-18"), // `val squared` is a local
            (22, "property Circle.created 22-22"),
            (23, "method Circle.unit 23-23"), // the companion object
            (24, "property Circle.ordering 24-24"),
            (27, "class Animal 27-27"),
            (31, "enum Color 29-32"),
            (34, "type Registry 34-34"),
            (36, "constant defaultShape 36-36"),
            (38, "function diameter 38-38"),
            (41, "function helper 41-41"),
            (42, "function topLevel 40-43"),
            (46, "method util.clamp 46-46"),
        ],
    );
}

#[test]
fn elixir_modules_functions_clauses_and_attributes() {
    check(
        Lang::Elixir,
        ELIXIR,
        &[
            (5, "module Shop.Cart 1-36"), // `defmodule` in a heredoc is text
            (9, "constant Shop.Cart.max_items 9-9"),
            (10, "type Shop.Cart.item 10-10"),
            (12, "module Shop.Cart 1-36"), // `defstruct` names nothing
            (14, "method Shop.Cart.new 14-14"),
            (17, "method Shop.Cart.add 16-21"), // two clauses, one definition
            (20, "method Shop.Cart.add 16-21"),
            (24, "method Shop.Cart.count 23-25"),
            (28, "macro Shop.Cart.is_full 27-29"),
            (34, "method Shop.Cart.Line.total 34-34"),
            (35, "module Shop.Cart.Line 31-35"),
            (39, "method Shop.Priced.price 39-39"),
            (38, "interface Shop.Priced 38-40"),
            (43, "method Shop.Priced.Shop.Cart.price 43-43"),
            (44, "impl defimpl Shop.Priced for Shop.Cart 42-44"),
            (47, "method Shop.Util.size 47-47"),
            (48, "method Shop.Util.is_small 48-48"),
        ],
    );
}

#[test]
fn haskell_signatures_and_equations_are_one_function() {
    check(
        Lang::Haskell,
        HASKELL,
        &[
            (1, "-"),
            (7, "module Data.Shape 2-42"),
            (11, "function Circle 11-11"), // a data constructor
            (13, "type Shape 10-13"),
            (15, "function Name 15-15"),
            (17, "type Registry 17-17"),
            (20, "function maxSize 19-20"),
            (22, "function area 22-26"),
            (26, "function area 22-26"), // `helper` in `where` is a local
            (29, "method Describe.describe 29-30"),
            (33, "method Shape.describe 33-34"),
            (32, "impl instance Describe Shape 32-34"),
            (38, "function scale 36-39"),
            (41, "function (<+>) 41-41"),
        ],
    );
}

#[test]
fn zig_containers_bound_by_const_functions_and_tests() {
    check(
        Lang::Zig,
        ZIG,
        &[
            (1, "-"), // an `@import` brings a name in
            (3, "constant max_items 3-3"),
            (4, "variable counter 4-4"),
            (8, "struct Point 7-19"),        // fields are not definitions
            (12, "method Point.init 11-14"), // `const scale` is a local
            (17, "method Point.norm 16-18"),
            (22, "enum Color 21-28"),
            (26, "method Color.isRed 25-27"),
            (30, "type Error 30-30"),
            (37, "function len 36-38"),
            (34, "function List 32-40"),
            (43, "function helper 42-45"),
            (48, "function test \"point init\" 47-50"),
        ],
    );
}

#[test]
fn bash_functions_aliases_and_file_level_variables() {
    check(
        Lang::Bash,
        BASH,
        &[
            (1, "-"),
            (4, "constant VERSION 4-4"),
            (5, "constant DEPLOY_HOME 5-5"),
            (6, "constant LOG_FILE 6-6"),
            (7, "constant TARGETS 7-7"),
            (10, "function log 9-12"), // `local level` is a local
            (16, "function helper 16-16"),
            (17, "function deploy_one 14-18"),
            (21, "function cleanup 20-22"),
            (24, "function dl 24-24"),
            (28, "function main 26-30"),
            (32, "-"),
        ],
    );
}

#[test]
fn dart_classes_members_constructors_and_extensions() {
    check(
        Lang::Dart,
        DART,
        &[
            (1, "-"),
            (5, "constant maxShapes 5-5"),
            (6, "variable registry 6-6"),
            (10, "method Shape.area 10-10"), // abstract getter
            (11, "method Shape.describe 11-11"),
            (15, "property Circle.radius 15-15"),
            (18, "method Circle.Circle 18-18"),
            (19, "method Circle.unit 19-19"), // a named constructor
            (20, "method Circle.fromJson 20-20"),
            (24, "method Circle.area 22-26"), // `final squared` is a local
            (28, "method Circle.scale 28-28"),
            (30, "method Circle.operator + 30-30"),
            (34, "method Named.name 34-34"),
            (41, "method Color.isRed 41-41"),
            (45, "method CircleX.diameter 45-45"),
            (48, "type Callback 48-48"),
            (51, "function helper 51-51"),
            (52, "function main 50-53"),
        ],
    );
}

#[test]
fn lua_rewrite_keeps_length_lines_strings_and_comments() {
    let source = "goto x ::x:: a & b | c ~ d ~= e << 1 -- & ::y::\ns = '|' .. [[~]]";
    let prepared = langs::prepare(Lang::Lua, source.as_bytes());
    assert_eq!(
        std::str::from_utf8(&prepared).unwrap(),
        "             a + b + c - d ~= e +  1 -- & ::y::\ns = '|' .. [[~]]"
    );
    assert!(matches!(
        langs::prepare(Lang::Luau, b"a & b"),
        std::borrow::Cow::Borrowed(_)
    ));
}

#[test]
fn defines_on_line_uses_the_name_line_and_the_unqualified_name() {
    let python = extract(Lang::Python, PYTHON.as_bytes());
    assert!(defines_on_line(&python, 12, "cached"));
    assert!(!defines_on_line(&python, 10, "cached")); // the decorator line
    assert!(defines_on_line(&python, 37, "handle")); // `Server.handle`
    assert!(!defines_on_line(&python, 37, "Server.handle"));
    assert!(!defines_on_line(&python, 38, "handle"));

    let c = extract(Lang::C, C.as_bytes());
    assert!(defines_on_line(&c, 20, "parse_args"));
    assert!(!defines_on_line(&c, 19, "parse_args"));

    let rust = extract(Lang::Rust, RUST.as_bytes());
    assert!(defines_on_line(&rust, 7, "Point"));
    assert!(defines_on_line(&rust, 12, "Point")); // `impl<T> Point<T>`: Point's methods
    assert!(defines_on_line(&rust, 21, "Point")); // `impl fmt::Display for Point<i32>`
    assert!(!defines_on_line(&rust, 21, "Display"));
    assert!(defines_on_line(&rust, 22, "fmt"));

    let go = extract(Lang::Go, GO.as_bytes());
    assert!(defines_on_line(&go, 34, "Handle"));

    let lua = extract(Lang::Lua, LUA.as_bytes());
    assert!(defines_on_line(&lua, 12, "method"));
    assert!(defines_on_line(&lua, 8, "add"));
}

#[test]
fn definitions_come_in_start_order_outer_first() {
    for (lang, source) in SAMPLES {
        let defs = extract(lang, source.as_bytes());
        assert!(!defs.is_empty(), "{lang:?}");
        for pair in defs.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            assert!(
                (a.start_line, std::cmp::Reverse(a.end_line))
                    <= (b.start_line, std::cmp::Reverse(b.end_line)),
                "{lang:?}:\n{}",
                listing(&defs)
            );
        }
        for d in &defs {
            assert!(
                d.start_line <= d.name_line && d.name_line <= d.end_line,
                "{lang:?} {d:?}"
            );
            assert!(
                !d.short.is_empty() && d.name.contains(&d.short),
                "{lang:?} {d:?}"
            );
        }
    }
}

#[test]
fn enclosing_picks_the_innermost_definition() {
    let def = |kind, name: &str, start_line, end_line| Def {
        kind,
        name: name.to_string(),
        short: name.to_string(),
        start_line,
        end_line,
        name_line: start_line,
    };
    let defs = vec![
        def(DefKind::Class, "A", 1, 100),
        def(DefKind::Method, "A.f", 10, 20),
        def(DefKind::Function, "g", 12, 14),
        def(DefKind::Method, "A.h", 30, 40),
        def(DefKind::Class, "B", 30, 40), // same range: the later one is inner
    ];
    let name = |line| enclosing(&defs, line).map(|d| d.name.as_str());
    assert_eq!(name(1), Some("A"));
    assert_eq!(name(10), Some("A.f"));
    assert_eq!(name(13), Some("g"));
    assert_eq!(name(15), Some("A.f"));
    assert_eq!(name(25), Some("A"));
    assert_eq!(name(35), Some("B"));
    assert_eq!(name(100), Some("A"));
    assert_eq!(name(101), None);
    assert_eq!(enclosing(&[], 1), None);
}

#[test]
fn broken_sources_yield_what_the_parser_recovered() {
    // The first half of each sample, cut mid-line, still yields the
    // definitions that lie wholly in it, and garbage yields no panic.
    for (lang, source) in SAMPLES {
        let cut = source.len() / 2;
        let cut = (cut..source.len())
            .find(|&i| source.is_char_boundary(i))
            .unwrap();
        let half = &source[..cut];
        let all = extract(lang, source.as_bytes());
        let kept = extract(lang, half.as_bytes());
        let half_lines = u32::try_from(half.lines().count()).unwrap();
        let complete = all
            .iter()
            .filter(|d| d.end_line + 1 < half_lines && d.kind != DefKind::Module);
        for d in complete {
            assert!(
                // Unqualified: a cut-off class may no longer enclose it.
                kept.iter()
                    .any(|k| k.short == d.short && k.start_line == d.start_line),
                "{lang:?}: lost {d:?} in the first {half_lines} lines; kept:\n{}",
                listing(&kept)
            );
        }
        let garbage: Vec<u8> = (0..4000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        let _ = extract(lang, &garbage);
        let _ = extract(lang, b"}}} ))) fn class def ((( {{{ \xff\xfe");
        assert!(extract(lang, b"").is_empty());
    }
}

#[test]
fn sources_over_the_cap_are_not_parsed() {
    let big = "fn f() {}\n".repeat(MAX_PARSE_BYTES / 10 + 1);
    assert!(big.len() > MAX_PARSE_BYTES);
    assert!(extract(Lang::Rust, big.as_bytes()).is_empty());
    assert_eq!(extract(Lang::Rust, &big.as_bytes()[..100]).len(), 10);
}

#[test]
fn extraction_in_parallel_threads_matches_one_thread() {
    let expected: Vec<Vec<Def>> = SAMPLES
        .iter()
        .map(|&(lang, s)| extract(lang, s.as_bytes()))
        .collect();
    let threads: Vec<_> = (0..2)
        .map(|_| {
            std::thread::spawn(|| {
                // Twice per thread, so each thread's parser is reused
                // across languages.
                (0..2)
                    .flat_map(|_| SAMPLES.iter().map(|&(lang, s)| extract(lang, s.as_bytes())))
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    for thread in threads {
        let got = thread.join().unwrap();
        assert_eq!(got[..SAMPLES.len()], expected[..]);
        assert_eq!(got[SAMPLES.len()..], expected[..]);
    }
}

#[test]
fn every_grammar_loads() {
    for lang in Lang::ALL {
        assert!(parse(lang, b"").is_some(), "{lang:?}");
    }
}

#[test]
fn labels_are_distinct_lower_case_words() {
    let kinds = DefKind::ALL;
    let labels: std::collections::BTreeSet<_> = kinds.iter().map(|k| k.label()).collect();
    assert_eq!(labels.len(), kinds.len());
    assert!(labels
        .iter()
        .all(|l| l.bytes().all(|b| b.is_ascii_lowercase())));
}

#[test]
fn last_segment_drops_owners_and_generic_arguments() {
    assert_eq!(langs::last_segment("Foo::bar"), "bar");
    assert_eq!(langs::last_segment("M.f"), "f");
    assert_eq!(langs::last_segment("M:m"), "m");
    assert_eq!(langs::last_segment("App\\Models"), "Models");
    assert_eq!(langs::last_segment("Foo<T>"), "Foo");
    assert_eq!(langs::last_segment("Foo::operator<"), "operator<");
    assert_eq!(langs::last_segment("plain"), "plain");
}

/// The structural search reads only the definitions around its matches
/// off the tree: for any set of lines, each line's enclosing
/// definition is the one the whole walk gives.
#[test]
fn definitions_around_lines_enclose_them_as_all_definitions_do() {
    for (lang, source) in SAMPLES {
        if lang == Lang::Lua {
            continue;
        }
        let tree = parse(lang, source.as_bytes()).unwrap();
        let all = extract(lang, source.as_bytes());
        let count = source.lines().count() as u64;
        for step in [1, 3, 7, 17] {
            let lines: Vec<u64> = (1..=count).step_by(step).collect();
            let around = from_tree(lang, &tree, source.as_bytes(), &lines).unwrap();
            let listed = listing(&all);
            for def in &around {
                assert!(
                    listed.contains(&describe(Some(def))),
                    "{lang:?}: {} is not a definition",
                    describe(Some(def))
                );
            }
            for &line in &lines {
                assert_eq!(
                    describe(enclosing(&around, line as u32)),
                    describe(enclosing(&all, line as u32)),
                    "{lang:?} line {line}, every {step}th line"
                );
            }
        }
    }
}

/// `kind name lines` of every definition, one per line.
fn names(lang: Lang, source: &str) -> Vec<String> {
    extract(lang, source.as_bytes())
        .iter()
        .map(|d| {
            format!(
                "{} {} {}-{}",
                d.kind.label(),
                d.name,
                d.start_line,
                d.end_line
            )
        })
        .collect()
}

#[test]
fn file_level_bindings_are_definitions_and_locals_are_not() {
    let typescript = "declare const V: string;\nexport let x = 1, y = 2;\n\
        const fs = require('fs');\nexport const api = {\n  get() {},\n};\n\
        function f() { const local = 1; }\nif (a) { const b = 1; }\n\
        const Ctx = createContext(\n  null,\n);\n";
    assert_eq!(
        names(Lang::TypeScript, typescript),
        [
            "constant V 1-1",
            "variable x 2-2",
            "variable y 2-2",
            "constant api 4-6",
            "method api.get 5-5",
            "function f 7-7",
            "constant Ctx 9-11",
        ]
    );
    let python = "X: int = 1\nif a:\n    Y = 2\nclass C:\n    z = 1\n\
        def f():\n    w = 1\nlog = get(\n    1)\na, b = 1, 2\n";
    assert_eq!(
        names(Lang::Python, python),
        [
            "constant X 1-1",
            "constant Y 3-3",
            "class C 4-5",
            "function f 6-7",
            "variable log 8-9",
        ]
    );
    let go = "package p\nvar Pool = sync.Pool{\n}\nvar (\n\ta = 1\n\tb int\n)\n\
        func f() { var x = 1 }\n";
    assert_eq!(
        names(Lang::Go, go),
        [
            "variable Pool 2-3",
            "variable a 5-5",
            "variable b 6-6",
            "function f 8-8",
        ]
    );
    let c = "static const int X = 1;\nint counter;\nextern int e;\nint f(void);\n\
        char *names[] = {0};\nint g(void) { int z = 1; return z; }\n";
    assert_eq!(
        names(Lang::C, c),
        [
            "constant X 1-1",
            "variable counter 2-2",
            "variable names 5-5",
            "function g 6-6",
        ]
    );
    let ruby = "FOO = 1\nmodule M\n  BAR = [1]\n  def f\n    baz = 2\n  end\nend\n";
    assert_eq!(
        names(Lang::Ruby, ruby),
        [
            "constant FOO 1-1",
            "module M 2-7",
            "constant M::BAR 3-3",
            "method M#f 4-6",
        ]
    );
    let php = "<?php\nconst X = 1;\nclass A { const Y = 2; }\nfunction f() { $x = 1; }\n";
    assert_eq!(
        names(Lang::Php, php),
        [
            "constant X 2-2",
            "class A 3-3",
            "constant A::Y 3-3",
            "function f 4-4",
        ]
    );
    let lua = "local M = {}\nX = 1\nlocal a, b = 1, 2\nM.v = 3\n\
        function M.f() local q = 1 end\n";
    assert_eq!(
        names(Lang::Lua, lua),
        [
            "variable M 1-1",
            "variable X 2-2",
            "variable M.v 4-4",
            "function M.f 5-5",
        ]
    );
}
