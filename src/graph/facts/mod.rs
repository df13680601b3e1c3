//! What one source file tells the code graph: its definitions (through
//! [`crate::defs`]), the calls it makes, what it imports, the types its
//! variables, parameters and fields are declared or built with, and the
//! bases of its classes. One pre-order walk of the file's syntax tree, with
//! a small table of node kinds per language; nothing here resolves a name
//! (that is [`super::resolve`]'s job) or reads another file.
//!
//! Lines are 1-based; a call's `start..end` are byte columns of its name in
//! its line (for quoting the line cut around it).

use serde::{Deserialize, Serialize};
use tree_sitter::Node;

mod c;
mod go;
mod java;
mod js;
mod python;
mod rust;

use crate::defs::{self, Def};
use crate::lang::Lang;

/// How a call names what it calls.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Callee {
    /// `f(...)`.
    Bare,
    /// `new F(...)` (and a Rust struct literal is not one).
    New,
    /// A JSX element `<F ...>`: a call of the component `F`.
    Jsx,
    /// `a.b.f(...)`, `self.f(...)`, `this.scene.f(...)`, `pkg.F(...)`: the
    /// receiver as a chain of plain names (`["a", "b"]`, `["self"]`).
    Member(Vec<String>),
    /// `a::b::f(...)`, `Self::f(...)`, `Type::f(...)` (Rust): the path.
    Path(Vec<String>),
    /// `super().f(...)`, `super.f(...)`.
    Super,
    /// A method on what a call returns: `doc.body().f(...)` is
    /// `Returned(["doc"], "body")`, `make().f(...)` `Returned([], "make")`.
    Returned(Vec<String>, String),
    /// A method on a receiver no chain of names spells (`f().g()`,
    /// `xs[0].g()`, `(a as B).g()`).
    Dynamic,
}

/// One call site.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Call {
    /// 1-based line of the called name.
    pub line: u32,
    /// Byte columns of the called name in its line.
    pub start: u32,
    pub end: u32,
    /// The called name, as written (an alias where one was imported).
    pub name: String,
    pub callee: Callee,
    /// Java: how many arguments it passes, which tells overloads apart.
    #[serde(default)]
    pub args: Option<u32>,
    /// Byte offsets in the file of the call's whole node (`a.f(x)`, `new
    /// F()`, `<F />`): what a structural match must be, or hold the name
    /// outside its captures, to be this call. The name's own bytes where
    /// no parser read the call (the lexical calls).
    pub node: (u32, u32),
}

/// One imported name, or a module bound to a name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Import {
    /// The name it binds in this file (`m` in `import a.b as m`); empty
    /// for a glob (`from m import *`, `use a::*`, `export * from`).
    pub local: String,
    /// The module as written: `a.b`, `..pkg`, `./util`, `crate::a::b`,
    /// `github.com/x/y`, `java.util`, `util.h`.
    pub module: String,
    /// The name taken from the module (`load` in `from m import load as
    /// l`); `None` when the module itself is bound.
    pub name: Option<String>,
    /// A re-export (`export { a } from './x'`, `pub use`): other files may
    /// import the name from this one.
    pub reexport: bool,
    pub line: u32,
    /// The lines the import binds over: the whole file (1 to `u32::MAX`),
    /// or the function or inline module it stands in.
    pub from: u32,
    pub to: u32,
}

impl Import {
    /// Whether the import binds at the file's top level.
    pub fn top_level(&self) -> bool {
        self.from <= 1 && self.to == u32::MAX
    }
}

/// A name whose type the code states: a parameter or variable with a
/// declared type, one built by `new T(...)`, `T(...)` or `T::new(...)`,
/// `self`/a Go receiver in a method of `T`, or a field (`self.scene`,
/// `this.scene`: `name` holds both parts) declared or assigned in a class.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Binding {
    pub name: String,
    /// The type's name as written, without its wrappers (`app.Scene` for
    /// `*app.Scene`, `Scene` for `Optional[Scene]` and `&mut Scene`).
    pub ty: String,
    /// The lines where the name has that type: the function, impl or
    /// class it is declared in (the whole file at the top level).
    pub from: u32,
    pub to: u32,
    /// The line of the statement that binds it: of two bindings of a
    /// name over the same lines, the later holds from there (`x = Foo()`
    /// ... `x = Bar()`).
    #[serde(default)]
    pub at: u32,
}

/// A class (struct, interface) and the names of the types it extends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Class {
    /// The class's name as [`Def::name`] has it (`Outer.Inner`).
    pub name: String,
    pub line: u32,
    /// Its bases, as written (`base.Model`, `Base`).
    pub bases: Vec<String>,
}

/// Everything the graph takes from one file.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Facts {
    pub defs: Vec<Def>,
    pub calls: Vec<Call>,
    pub imports: Vec<Import>,
    pub bindings: Vec<Binding>,
    pub classes: Vec<Class>,
    /// The package clause (Go `package x`, Java `package a.b`).
    pub package: Option<String>,
    /// Names of the file's `static` functions (C): invisible to other files.
    pub statics: Vec<String>,
    /// What functions return, where the code says: a return type, or
    /// (Python) the type of the variable every `return`/`yield` of a name
    /// gives back.
    #[serde(default)]
    pub returns: Vec<Returns>,
    /// Python parameters without a type (a pytest fixture's name, say),
    /// with the lines of their function.
    #[serde(default)]
    pub params: Vec<Binding>,
    /// Name lines of Python functions decorated as pytest fixtures.
    #[serde(default)]
    pub fixtures: Vec<u32>,
    /// JavaScript/TypeScript: the name `export default` gives.
    #[serde(default)]
    pub default_export: Option<String>,
    /// Java: each method's and constructor's name line and parameter
    /// count (none for varargs, which take any number).
    #[serde(default)]
    pub arities: Vec<(u32, Option<u32>)>,
    /// Go: the file's `//go:build` expression.
    #[serde(default)]
    pub build: Option<String>,
    /// C: object-like macros that rename a function, `(name, replacement)`
    /// for `#define sdsnewlen hi_sdsnewlen`: a call of `name` in a file
    /// that includes this one calls `replacement`.
    #[serde(default)]
    pub macros: Vec<(String, String)>,
    /// C: headers included by the include path, `<sdscompat.h>` as
    /// `sdscompat.h` (those with quotes are [`Facts::imports`]).
    #[serde(default)]
    pub system_includes: Vec<String>,
}

/// A function's returned type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Returns {
    /// The function's name line.
    pub line: u32,
    /// The type as written ([`Binding::ty`]'s form).
    pub ty: String,
}

/// The grammar the graph parses `path` with: a C tree's headers are C.
pub fn parse_lang(lang: Lang, path: &[u8]) -> Lang {
    if lang == Lang::Cpp && path.ends_with(b".h") {
        Lang::C
    } else {
        lang
    }
}

/// The facts of a source in `lang`. A source larger than
/// [`defs::MAX_PARSE_BYTES`] or that does not parse yields none.
pub fn extract(lang: Lang, source: &[u8]) -> Facts {
    if source.len() > defs::MAX_PARSE_BYTES {
        return Facts::default();
    }
    // One parse: the definitions and the walk below read the same tree.
    let (defs, tree) = defs::extract_with_tree(lang, source);
    let mut walk = Walk {
        lang,
        src: source,
        facts: Facts {
            defs,
            ..Facts::default()
        },
        pending: Vec::new(),
        constructs: Vec::new(),
        import_scope: (1, u32::MAX),
        at: 0,
        node: (0, 0),
    };
    if !super::graphed(lang) {
        walk.lexical_calls();
        return walk.facts;
    }
    let Some(tree) = tree else {
        return walk.facts;
    };
    let mut cursor = tree.walk();
    'walk: loop {
        let node = cursor.node();
        if node.is_named() {
            walk.at = line_of(node);
            walk.node = (node.start_byte() as u32, node.end_byte() as u32);
            walk.visit(node);
        }
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                continue 'walk;
            }
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    for (line, ty) in std::mem::take(&mut walk.constructs) {
        if let Some(ty) = ty.filter(|_| !walk.facts.returns.iter().any(|r| r.line == line)) {
            walk.facts.returns.push(Returns { line, ty });
        }
    }
    let pending = std::mem::take(&mut walk.pending);
    for (line, name, from, to) in pending {
        if walk.facts.returns.iter().any(|r| r.line == line) {
            continue;
        }
        let ty = walk
            .facts
            .bindings
            .iter()
            .filter(|b| b.name == name && b.from >= from && b.to <= to && !b.ty.is_empty())
            .map(|b| b.ty.clone())
            .next();
        if let Some(ty) = ty {
            walk.facts.returns.push(Returns { line, ty });
        }
    }
    walk.facts
}

pub(super) struct Walk<'s> {
    pub(super) lang: Lang,
    pub(super) src: &'s [u8],
    pub(super) facts: Facts,
    /// Python `return NAME` / `yield NAME`: the function's name line, the
    /// name, and the function's lines, settled after the walk.
    pub(super) pending: Vec<(u32, String, u32, u32)>,
    /// JavaScript/TypeScript functions without a declared return type:
    /// the name's line and the class every `return` constructs (`return
    /// new Registry()`), `None` once one returns anything else.
    pub(super) constructs: Vec<(u32, Option<String>)>,
    /// The lines the import being read binds over ([`Import::from`]).
    pub(super) import_scope: (u32, u32),
    /// The line of the node being visited ([`Binding::at`]).
    pub(super) at: u32,
    /// The byte range of the node being visited: a call's
    /// ([`Call::node`]) when a call is recorded.
    pub(super) node: (u32, u32),
}

/// A 0-based row as a 1-based line.
pub(super) fn line_of(node: Node) -> u32 {
    node.start_position().row as u32 + 1
}

pub(super) fn end_line_of(node: Node) -> u32 {
    node.end_position().row as u32 + 1
}

impl<'s> Walk<'s> {
    pub(super) fn text(&self, node: Node) -> &'s str {
        std::str::from_utf8(&self.src[node.byte_range()]).unwrap_or("")
    }

    pub(super) fn call(&mut self, name: Node, callee: Callee) {
        let text = self.text(name);
        if text.is_empty()
            || !text
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        {
            return;
        }
        let start = name.start_position();
        self.facts.calls.push(Call {
            line: start.row as u32 + 1,
            start: start.column as u32,
            end: (start.column + name.byte_range().len()) as u32,
            name: text.to_string(),
            callee,
            args: None,
            node: self.node,
        });
    }

    pub(super) fn import(&mut self, local: &str, module: &str, name: Option<&str>, line: u32) {
        self.facts.imports.push(Import {
            local: local.to_string(),
            module: module.to_string(),
            name: name.map(str::to_string),
            reexport: false,
            line,
            from: self.import_scope.0,
            to: self.import_scope.1,
        });
    }

    /// The lines an import at `node` binds over: the function (Python,
    /// Rust) or inline module (Rust) it stands in, else the whole file.
    fn import_scope_of(&self, node: Node) -> (u32, u32) {
        let mut at = node.parent();
        while let Some(n) = at {
            let scoping = match self.lang {
                Lang::Python => n.kind() == "function_definition",
                Lang::Rust => {
                    n.kind() == "function_item"
                        || (n.kind() == "mod_item" && n.child_by_field_name("body").is_some())
                }
                _ => false,
            };
            if scoping {
                return (line_of(n), end_line_of(n));
            }
            at = n.parent();
        }
        (1, u32::MAX)
    }

    /// The range a declaration inside `node` binds over: the nearest
    /// enclosing function (or impl, class), else the whole file.
    pub(super) fn scope_of(&self, node: Node) -> (u32, u32) {
        let mut at = node.parent();
        while let Some(n) = at {
            if is_scope(self.lang, n.kind()) {
                return (line_of(n), end_line_of(n));
            }
            at = n.parent();
        }
        (1, u32::MAX)
    }

    /// The texts of `node`'s named children of kind `identifier` (plain
    /// parameters, loop variables).
    pub(super) fn identifiers(&self, node: Node) -> Vec<String> {
        let mut cursor = node.walk();
        node.named_children(&mut cursor)
            .filter(|n| n.kind() == "identifier")
            .map(|n| self.text(n).to_string())
            .collect()
    }

    /// The texts of `node`'s children in the field `field` (Go's names).
    pub(super) fn field_texts(&self, node: Node, field: &str) -> Vec<String> {
        let mut cursor = node.walk();
        node.children_by_field_name(field, &mut cursor)
            .map(|n| self.text(n).to_string())
            .collect()
    }

    /// Whether a definition named `name` has its name on `line` (a
    /// variable holding a function or a class, which the definitions
    /// count). A module's constant or variable is a binding all the
    /// same: its value's type is what its name means.
    pub(super) fn defines(&self, name: &str, line: u32) -> bool {
        self.facts
            .defs
            .iter()
            .any(|d| d.name_line == line && d.short == name && !d.kind.is_binding())
    }

    /// The type bound to the plain name `node` where it stands (a typed
    /// parameter or variable), for `self.node = node`; empty when none is
    /// known.
    pub(super) fn type_of_name(&self, node: Node) -> String {
        if node.kind() != "identifier" {
            return String::new();
        }
        let (name, line) = (self.text(node), line_of(node));
        self.facts
            .bindings
            .iter()
            .filter(|b| b.name == name && b.from <= line && line <= b.to && b.at <= line)
            .max_by_key(|b| (b.from, b.at))
            .map(|b| b.ty.clone())
            .unwrap_or_default()
    }

    /// Records `name` as bound over `scope` to a value of type `ty`; an
    /// empty `ty` is a local of unknown type, which still shadows the
    /// file's definitions and imports of that name.
    pub(super) fn bind(&mut self, name: &str, ty: &str, scope: (u32, u32)) {
        if name.is_empty() {
            return;
        }
        self.facts.bindings.push(Binding {
            name: name.to_string(),
            ty: ty.to_string(),
            from: scope.0,
            to: scope.1,
            at: self.at,
        });
    }

    /// A receiver as a chain of plain names, through the language's member
    /// access node: `None` when some part is not a name.
    pub(super) fn chain(&self, node: Node) -> Option<Vec<String>> {
        let kind = node.kind();
        match kind {
            "identifier"
            | "this"
            | "self"
            | "super"
            | "field_identifier"
            | "property_identifier"
            | "type_identifier"
            | "package_identifier" => Some(vec![self.text(node).to_string()]),
            "attribute"
            | "member_expression"
            | "selector_expression"
            | "field_access"
            | "field_expression" => {
                let (object, field) = match kind {
                    "attribute" => ("object", "attribute"),
                    "member_expression" => ("object", "property"),
                    "selector_expression" => ("operand", "field"),
                    "field_access" => ("object", "field"),
                    _ => ("value", "field"),
                };
                let mut head = self.chain(node.child_by_field_name(object)?)?;
                head.push(self.text(node.child_by_field_name(field)?).to_string());
                Some(head)
            }
            "non_null_expression" | "parenthesized_expression" => {
                let inner = node.named_child(0)?;
                self.chain(inner)
            }
            _ => None,
        }
    }

    /// How a member call's receiver is named: a chain of names, the
    /// result of a call on one ([`Callee::Returned`]), or neither.
    pub(super) fn receiver(&self, object: Node) -> Callee {
        if let Some(chain) = self.chain(object) {
            return Callee::Member(chain);
        }
        let (inner, method) = match object.kind() {
            "call" | "call_expression" => {
                let Some(function) = object.child_by_field_name("function") else {
                    return Callee::Dynamic;
                };
                match function.kind() {
                    "identifier" => (Some(Vec::new()), self.text(function).to_string()),
                    _ => match self.chain(function) {
                        Some(mut chain) if chain.len() > 1 => {
                            let method = chain.pop().unwrap_or_default();
                            (Some(chain), method)
                        }
                        _ => (None, String::new()),
                    },
                }
            }
            // `new T(...).f()`: a method on a new `T` (the inner "call" of
            // `T` is settled like `new T(...)` alone).
            "object_creation_expression" | "new_expression" => {
                let field = if object.kind() == "new_expression" {
                    "constructor"
                } else {
                    "type"
                };
                match object.child_by_field_name(field) {
                    Some(ty) if matches!(ty.kind(), "identifier" | "type_identifier") => {
                        (Some(Vec::new()), self.text(ty).to_string())
                    }
                    _ => (None, String::new()),
                }
            }
            "method_invocation" => {
                let method = object
                    .child_by_field_name("name")
                    .map(|n| self.text(n).to_string())
                    .unwrap_or_default();
                match object.child_by_field_name("object") {
                    None => (Some(Vec::new()), method),
                    Some(o) => (self.chain(o), method),
                }
            }
            _ => (None, String::new()),
        };
        match inner {
            Some(chain) if !method.is_empty() => Callee::Returned(chain, method),
            _ => Callee::Dynamic,
        }
    }

    pub(super) fn visit(&mut self, node: Node) {
        if matches!(
            node.kind(),
            "import_statement" | "import_from_statement" | "use_declaration" | "mod_item"
        ) {
            self.import_scope = self.import_scope_of(node);
        }
        match self.lang {
            Lang::Python => self.python(node),
            Lang::JavaScript | Lang::TypeScript | Lang::Tsx => self.js(node),
            Lang::Rust => self.rust(node),
            Lang::Go => self.go(node),
            Lang::Java => self.java(node),
            Lang::C => self.c(node),
            _ => {}
        }
    }

    /// For a language without a graph: every `name(` on a line, as a bare
    /// call (matched by name only, as the page says).
    fn lexical_calls(&mut self) {
        let src = self.src;
        let mut line_start = 0;
        for (row, line) in src.split(|&b| b == b'\n').enumerate() {
            let mut i = 0;
            while i < line.len() {
                let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
                if !word(line[i]) || (i > 0 && word(line[i - 1])) {
                    i += 1;
                    continue;
                }
                let start = i;
                while i < line.len() && word(line[i]) {
                    i += 1;
                }
                let mut after = i;
                while after < line.len() && line[after] == b' ' {
                    after += 1;
                }
                if line.get(after) == Some(&b'(') && !line[start].is_ascii_digit() {
                    let name = String::from_utf8_lossy(&line[start..i]).into_owned();
                    self.facts.calls.push(Call {
                        line: row as u32 + 1,
                        start: start as u32,
                        end: i as u32,
                        name,
                        callee: Callee::Bare,
                        args: None,
                        node: ((line_start + start) as u32, (line_start + i) as u32),
                    });
                }
            }
            line_start += line.len() + 1;
        }
    }

    /// The type named by an annotation: its last plain segment, through
    /// pointers, references, `Optional[...]`, generics and quotes.
    pub(super) fn type_name(&self, node: Node) -> String {
        let text = self.text(node);
        type_name_of(text)
    }

    /// Records `function`'s declared return type (its `field`).
    pub(super) fn declared_return(&mut self, function: Node, field: &str) {
        let (Some(name), Some(ty)) = (
            function.child_by_field_name("name"),
            function.child_by_field_name(field),
        ) else {
            return;
        };
        let ty = self.type_name(ty);
        self.returns(name, ty);
    }

    /// Records that the function named by `name` returns a `ty`, unless
    /// `ty` names no type a receiver could have (`Self` unresolved,
    /// `void`, `None`, Go's `error`).
    pub(super) fn returns(&mut self, name: Node, ty: String) {
        if !ty.is_empty() && !matches!(ty.as_str(), "Self" | "void" | "None" | "error") {
            let line = line_of(name);
            self.facts.returns.push(Returns { line, ty });
        }
    }

    /// The called function of a call expression, as a dotted name
    /// (`make`, `store.Open`, `a.b.build`): what a variable holding its
    /// result is typed by, once the function's return type is known. A
    /// call in the chain keeps its `()` (`tx.Bucket().Cursor`); a chain
    /// through anything else gives nothing.
    pub(super) fn callee_of(&self, value: Node) -> String {
        if value.kind() != "call_expression" {
            return String::new();
        }
        let Some(function) = value.child_by_field_name("function") else {
            return String::new();
        };
        let object = match function.kind() {
            "member_expression" => function.child_by_field_name("object"),
            "selector_expression" => function.child_by_field_name("operand"),
            _ => None,
        };
        if let Some(object) = object.filter(|o| o.kind() == "call_expression") {
            let field = function
                .child_by_field_name("property")
                .or_else(|| function.child_by_field_name("field"));
            let inner = self.callee_of(object);
            return match field {
                Some(field) if !inner.is_empty() => format!("{inner}().{}", self.text(field)),
                _ => String::new(),
            };
        }
        match function.kind() {
            "identifier" | "member_expression" | "selector_expression" | "scoped_identifier" => {
                self.type_name(function)
            }
            _ => String::new(),
        }
    }
}

/// Whether a node of `kind` is a scope a local declaration binds over.
pub(super) fn is_scope(lang: Lang, kind: &str) -> bool {
    match lang {
        Lang::Python => matches!(kind, "function_definition" | "lambda"),
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => matches!(
            kind,
            "function_declaration"
                | "function_expression"
                | "arrow_function"
                | "method_definition"
                | "generator_function_declaration"
                | "function"
        ),
        Lang::Rust => matches!(kind, "function_item" | "closure_expression"),
        Lang::Go => matches!(
            kind,
            "function_declaration" | "method_declaration" | "func_literal"
        ),
        Lang::Java => matches!(
            kind,
            "method_declaration" | "constructor_declaration" | "lambda_expression"
        ),
        Lang::C => kind == "function_definition",
        _ => false,
    }
}

/// A type's name from its written form: the last plain segment, through
/// `*`, `&`, `mut`, `Optional[...]`, `T | None`, generics and quotes.
pub fn type_name_of(text: &str) -> String {
    let mut text = text.trim().trim_start_matches(':').trim();
    text = text.trim_matches(|c| c == '"' || c == '\'');
    for prefix in ["Optional[", "typing.Optional["] {
        if let Some(inner) = text.strip_prefix(prefix) {
            text = inner.trim_end_matches(']');
        }
    }
    // `Scene | None`, `Scene | undefined`: the first alternative.
    if let Some((first, _)) = text.split_once('|') {
        text = first.trim();
    }
    let text = text.trim_start_matches(['*', '&', ' ']);
    let text = text.strip_prefix("mut ").unwrap_or(text);
    let text = text.strip_prefix("dyn ").unwrap_or(text);
    // Generics: `List<Scene>` is a List, `Box<Scene>` a Box.
    let head = text.split(['<', '[', '(', ' ']).next().unwrap_or("");
    // The dotted path is kept (`flask.Flask`, `store.DB`): the cascade
    // resolves its head through the file's imports.
    let head = head.replace("::", ".");
    let plain = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_');
    if head.split('.').all(plain) {
        head
    } else {
        String::new()
    }
}

/// `'./x'` or `"./x"` without its quotes.
pub(super) fn unquote(text: &str) -> &str {
    text.trim_matches(|c| c == '"' || c == '\'' || c == '`')
}

/// The name a Go import path's package usually has: its last segment,
/// without a major-version suffix (`github.com/x/y/v2` is `y`).
pub fn go_package_name(path: &str) -> &str {
    let mut segments = path.rsplit('/');
    let last = segments.next().unwrap_or(path);
    if last.len() > 1 && last.starts_with('v') && last[1..].chars().all(|c| c.is_ascii_digit()) {
        segments.next().unwrap_or(last)
    } else {
        last
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn calls(lang: Lang, src: &str) -> Vec<(u32, String, Callee)> {
        call_list(&extract(lang, src.as_bytes()))
    }

    fn call_list(facts: &Facts) -> Vec<(u32, String, Callee)> {
        facts
            .calls
            .iter()
            .map(|c| (c.line, c.name.clone(), c.callee.clone()))
            .collect()
    }

    /// The type bound to `name`, if any.
    fn ty(facts: &Facts, name: &str) -> Option<String> {
        facts
            .bindings
            .iter()
            .find(|b| b.name == name)
            .map(|b| b.ty.clone())
    }

    #[test]
    fn python_calls_imports_and_types() {
        let src = "import a.b as m\nfrom .x import load as l, run\nfrom y import *\n\nclass C(Base, m.Mixin):\n    def f(self, s: Scene):\n        self.g()\n        s.draw()\n        l()\n        m.load()\n        super().f()\n        q = Parser()\n        q.parse()\n        self.scene = Scene()\n";
        let facts = extract(Lang::Python, src.as_bytes());
        let calls = call_list(&facts);
        assert!(calls.contains(&(7, "g".into(), Callee::Member(vec!["self".into()]))));
        assert!(calls.contains(&(9, "l".into(), Callee::Bare)));
        assert!(calls.contains(&(10, "load".into(), Callee::Member(vec!["m".into()]))));
        assert!(calls.contains(&(11, "f".into(), Callee::Super)));
        assert_eq!(facts.imports[0].local, "m");
        assert_eq!(facts.imports[0].module, "a.b");
        assert_eq!(facts.imports[1].name.as_deref(), Some("load"));
        assert_eq!(facts.imports[1].local, "l");
        assert_eq!(facts.imports[1].module, ".x");
        assert!(facts
            .imports
            .iter()
            .any(|i| i.local.is_empty() && i.module == "y"));
        assert_eq!(facts.classes[0].bases, vec!["Base", "m.Mixin"]);
        assert_eq!(ty(&facts, "s").as_deref(), Some("Scene"));
        assert_eq!(ty(&facts, "q").as_deref(), Some("Parser"));
        assert_eq!(ty(&facts, "self.scene").as_deref(), Some("Scene"));
    }

    #[test]
    fn javascript_calls_in_callbacks_jsx_and_imports() {
        let src = "import D, { a as b, c } from './m';\nimport * as ns from '../n';\nconst { r } = require('./r');\nexport { z } from './z';\nexport * from './all';\nxs.map(x => b(x));\nconst el = <Section title=\"t\" />;\nnew Scene();\nns.f();\nclass K extends Base {\n  private scene: Scene;\n  m() { this.scene.draw(); }\n}\n";
        let facts = extract(Lang::Tsx, src.as_bytes());
        let calls = call_list(&facts);
        assert!(calls.contains(&(6, "b".into(), Callee::Bare)));
        assert!(calls.contains(&(7, "Section".into(), Callee::Jsx)));
        assert!(calls.contains(&(8, "Scene".into(), Callee::New)));
        assert!(calls.contains(&(9, "f".into(), Callee::Member(vec!["ns".into()]))));
        assert!(calls.contains(&(
            12,
            "draw".into(),
            Callee::Member(vec!["this".into(), "scene".into()])
        )));
        let import = |local: &str| facts.imports.iter().find(|i| i.local == local).cloned();
        assert_eq!(import("D").unwrap().name.as_deref(), Some("default"));
        assert_eq!(import("b").unwrap().name.as_deref(), Some("a"));
        assert_eq!(import("ns").unwrap().name, None);
        assert_eq!(import("r").unwrap().module, "./r");
        assert!(import("z").unwrap().reexport);
        assert!(facts
            .imports
            .iter()
            .any(|i| i.local.is_empty() && i.module == "./all"));
        assert_eq!(facts.classes[0].bases, vec!["Base"]);
        assert!(facts
            .bindings
            .iter()
            .any(|b| b.name == "this.scene" && b.ty == "Scene"));
    }

    #[test]
    fn rust_paths_methods_and_uses() {
        let src = "use crate::a::{b, c as d};\nuse super::e::*;\nmod f;\nstruct S { g: Graph }\nimpl S {\n    fn h(&self, p: &Parser) {\n        b();\n        crate::x::y();\n        self.g.walk();\n        p.parse();\n        Self::new();\n        let q = Query::new();\n        q.run();\n    }\n}\n";
        let facts = extract(Lang::Rust, src.as_bytes());
        let calls = call_list(&facts);
        assert!(calls.contains(&(7, "b".into(), Callee::Bare)));
        assert!(calls.contains(&(
            8,
            "y".into(),
            Callee::Path(vec!["crate".into(), "x".into()])
        )));
        assert!(calls.contains(&(
            9,
            "walk".into(),
            Callee::Member(vec!["self".into(), "g".into()])
        )));
        assert!(calls.contains(&(11, "new".into(), Callee::Path(vec!["Self".into()]))));
        let import = |local: &str| facts.imports.iter().find(|i| i.local == local).cloned();
        assert_eq!(import("b").unwrap().module, "crate::a");
        assert_eq!(import("d").unwrap().name.as_deref(), Some("c"));
        assert_eq!(import("f").unwrap().module, "self::f");
        assert!(facts
            .imports
            .iter()
            .any(|i| i.local.is_empty() && i.module == "super::e"));
        assert_eq!(ty(&facts, "self").as_deref(), Some("S"));
        assert_eq!(ty(&facts, "p").as_deref(), Some("Parser"));
        assert_eq!(ty(&facts, "q").as_deref(), Some("Query"));
        assert_eq!(ty(&facts, "S.g").as_deref(), Some("Graph"));
    }

    #[test]
    fn go_java_and_c() {
        let go = "package web\nimport (\n  \"net/http\"\n  v \"github.com/x/val/v2\"\n)\ntype S struct { db *DB }\nfunc (s *S) H(w http.ResponseWriter) {\n  s.db.Query()\n  v.Check()\n  x := &Engine{}\n  x.Run()\n}\n";
        let facts = extract(Lang::Go, go.as_bytes());
        assert_eq!(facts.package.as_deref(), Some("web"));
        assert!(facts
            .imports
            .iter()
            .any(|i| i.local == "http" && i.module == "net/http"));
        assert!(facts.imports.iter().any(|i| i.local == "v"));
        assert_eq!(ty(&facts, "s").as_deref(), Some("S"));
        assert_eq!(ty(&facts, "x").as_deref(), Some("Engine"));
        assert_eq!(ty(&facts, "S.db").as_deref(), Some("DB"));
        assert_eq!(go_package_name("github.com/x/val/v2"), "val");

        let java = "package a.b;\nimport c.d.Parser;\nclass K extends Base {\n  private Parser p;\n  void m(Scene s) { p.parse(); s.draw(); run(); new Parser(); super.m(); }\n}\n";
        let calls = calls(Lang::Java, java);
        assert!(calls.contains(&(5, "parse".into(), Callee::Member(vec!["p".into()]))));
        assert!(calls.contains(&(5, "run".into(), Callee::Bare)));
        assert!(calls.contains(&(5, "Parser".into(), Callee::New)));
        assert!(calls.contains(&(5, "m".into(), Callee::Super)));

        let c = "#include \"util.h\"\nstatic int helper(void) { return 0; }\nint main(void) { helper(); s->fn(); }\n";
        let facts = extract(Lang::C, c.as_bytes());
        assert_eq!(facts.statics, vec!["helper"]);
        assert_eq!(facts.imports[0].module, "util.h");
        assert!(facts
            .calls
            .iter()
            .any(|c| c.name == "helper" && c.callee == Callee::Bare));
    }

    #[test]
    fn type_names_lose_their_wrappers() {
        for (written, name) in [
            (": Scene", "Scene"),
            ("Optional[Scene]", "Scene"),
            ("\"Scene\"", "Scene"),
            ("&mut Scene", "Scene"),
            ("*app.Scene", "app.Scene"),
            ("Scene | None", "Scene"),
            ("List<Scene>", "List"),
        ] {
            assert_eq!(type_name_of(written), name, "{written}");
        }
    }
}
