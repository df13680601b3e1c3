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
use tree_sitter::{Node, Parser};

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
    let defs = defs::extract(lang, source);
    if source.len() > defs::MAX_PARSE_BYTES {
        return Facts::default();
    }
    let mut parser = Parser::new();
    if parser.set_language(&defs::grammar(lang)).is_err() {
        return Facts {
            defs,
            ..Facts::default()
        };
    }
    let Some(tree) = parser.parse(source, None) else {
        return Facts {
            defs,
            ..Facts::default()
        };
    };
    let mut walk = Walk {
        lang,
        src: source,
        facts: Facts {
            defs,
            ..Facts::default()
        },
        pending: Vec::new(),
    };
    let mut cursor = tree.walk();
    'walk: loop {
        let node = cursor.node();
        if node.is_named() {
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

struct Walk<'s> {
    lang: Lang,
    src: &'s [u8],
    facts: Facts,
    /// Python `return NAME` / `yield NAME`: the function's name line, the
    /// name, and the function's lines, settled after the walk.
    pending: Vec<(u32, String, u32, u32)>,
}

/// A 0-based row as a 1-based line.
fn line_of(node: Node) -> u32 {
    node.start_position().row as u32 + 1
}

fn end_line_of(node: Node) -> u32 {
    node.end_position().row as u32 + 1
}

impl<'s> Walk<'s> {
    fn text(&self, node: Node) -> &'s str {
        std::str::from_utf8(&self.src[node.byte_range()]).unwrap_or("")
    }

    fn call(&mut self, name: Node, callee: Callee) {
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
        });
    }

    fn import(&mut self, local: &str, module: &str, name: Option<&str>, line: u32) {
        self.facts.imports.push(Import {
            local: local.to_string(),
            module: module.to_string(),
            name: name.map(str::to_string),
            reexport: false,
            line,
        });
    }

    /// The range a declaration inside `node` binds over: the nearest
    /// enclosing function (or impl, class), else the whole file.
    fn scope_of(&self, node: Node) -> (u32, u32) {
        let mut at = node.parent();
        while let Some(n) = at {
            if is_scope(self.lang, n.kind()) {
                return (line_of(n), end_line_of(n));
            }
            at = n.parent();
        }
        (1, u32::MAX)
    }

    fn bind(&mut self, name: &str, ty: &str, scope: (u32, u32)) {
        if name.is_empty() || ty.is_empty() {
            return;
        }
        self.facts.bindings.push(Binding {
            name: name.to_string(),
            ty: ty.to_string(),
            from: scope.0,
            to: scope.1,
        });
    }

    /// A receiver as a chain of plain names, through the language's member
    /// access node: `None` when some part is not a name.
    fn chain(&self, node: Node) -> Option<Vec<String>> {
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

    fn visit(&mut self, node: Node) {
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

    /// The type named by an annotation: its last plain segment, through
    /// pointers, references, `Optional[...]`, generics and quotes.
    fn type_name(&self, node: Node) -> String {
        let text = self.text(node);
        type_name_of(text)
    }

    /// Records `function`'s declared return type (its `field`).
    fn declared_return(&mut self, function: Node, field: &str) {
        let (Some(name), Some(ty)) = (
            function.child_by_field_name("name"),
            function.child_by_field_name(field),
        ) else {
            return;
        };
        let ty = self.type_name(ty);
        if !ty.is_empty() && !matches!(ty.as_str(), "Self" | "void" | "None" | "error") {
            let line = line_of(name);
            self.facts.returns.push(Returns { line, ty });
        }
    }

    /// The called function of a call expression, as a dotted name
    /// (`make`, `store.Open`, `a.b.build`): what a variable holding its
    /// result is typed by, once the function's return type is known.
    fn callee_of(&self, value: Node) -> String {
        if value.kind() != "call_expression" {
            return String::new();
        }
        let Some(function) = value.child_by_field_name("function") else {
            return String::new();
        };
        match function.kind() {
            "identifier" | "member_expression" | "selector_expression" | "scoped_identifier" => {
                self.type_name(function)
            }
            _ => String::new(),
        }
    }

    // ---- Python ----

    fn python(&mut self, node: Node) {
        match node.kind() {
            "call" => {
                let Some(function) = node.child_by_field_name("function") else {
                    return;
                };
                match function.kind() {
                    "identifier" => self.call(function, Callee::Bare),
                    "attribute" => {
                        let (Some(object), Some(attr)) = (
                            function.child_by_field_name("object"),
                            function.child_by_field_name("attribute"),
                        ) else {
                            return;
                        };
                        let callee = if object.kind() == "call"
                            && object
                                .child_by_field_name("function")
                                .is_some_and(|f| self.text(f) == "super")
                        {
                            Callee::Super
                        } else {
                            self.chain(object).map_or(Callee::Dynamic, Callee::Member)
                        };
                        self.call(attr, callee);
                    }
                    _ => {}
                }
            }
            "import_statement" => {
                let line = line_of(node);
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    match child.kind() {
                        "dotted_name" => {
                            let module = self.text(child);
                            let local = module.split('.').next().unwrap_or(module);
                            // `import a.b` binds `a`; `a.b.f()` spells the rest.
                            self.import(local, local, None, line);
                        }
                        "aliased_import" => {
                            if let (Some(name), Some(alias)) = (
                                child.child_by_field_name("name"),
                                child.child_by_field_name("alias"),
                            ) {
                                let (module, alias) = (self.text(name), self.text(alias));
                                self.import(alias, module, None, line);
                            }
                        }
                        _ => {}
                    }
                }
            }
            "import_from_statement" => {
                let line = line_of(node);
                let Some(module) = node.child_by_field_name("module_name") else {
                    return;
                };
                let module = self.text(module).replace(' ', "");
                let mut cursor = node.walk();
                let mut any = false;
                for child in node.children_by_field_name("name", &mut cursor) {
                    any = true;
                    match child.kind() {
                        "dotted_name" => {
                            let name = self.text(child);
                            self.import(name, &module, Some(name), line);
                        }
                        "aliased_import" => {
                            if let (Some(name), Some(alias)) = (
                                child.child_by_field_name("name"),
                                child.child_by_field_name("alias"),
                            ) {
                                let (name, alias) = (self.text(name), self.text(alias));
                                self.import(alias, &module, Some(name), line);
                            }
                        }
                        _ => {}
                    }
                }
                let mut cursor = node.walk();
                if !any
                    && node
                        .named_children(&mut cursor)
                        .any(|c| c.kind() == "wildcard_import")
                {
                    self.import("", &module, None, line);
                }
            }
            "class_definition" => {
                let Some(name) = node.child_by_field_name("name") else {
                    return;
                };
                let mut bases = Vec::new();
                if let Some(list) = node.child_by_field_name("superclasses") {
                    let mut cursor = list.walk();
                    for base in list.named_children(&mut cursor) {
                        if matches!(base.kind(), "identifier" | "attribute") {
                            bases.push(self.text(base).to_string());
                        }
                    }
                }
                self.class(name, bases);
            }
            "function_definition" => {
                let Some(name) = node.child_by_field_name("name") else {
                    return;
                };
                let line = line_of(name);
                if let Some(ty) = node.child_by_field_name("return_type") {
                    let ty = self.type_name(ty);
                    if !ty.is_empty() && ty != "None" {
                        self.facts.returns.push(Returns { line, ty });
                    }
                }
                let decorated = node
                    .parent()
                    .filter(|p| p.kind() == "decorated_definition")
                    .is_some_and(|p| {
                        let head = &self.src[p.start_byte()..name.start_byte()];
                        head.windows(7).any(|w| w == b"fixture")
                    });
                if decorated {
                    self.facts.fixtures.push(line);
                }
                if let Some(params) = node.child_by_field_name("parameters") {
                    let scope = (line_of(node), end_line_of(node));
                    let mut cursor = params.walk();
                    let plain: Vec<String> = params
                        .named_children(&mut cursor)
                        .filter(|p| p.kind() == "identifier")
                        .map(|p| self.text(p).to_string())
                        .collect();
                    for name in plain {
                        self.facts.params.push(Binding {
                            name,
                            ty: String::new(),
                            from: scope.0,
                            to: scope.1,
                        });
                    }
                }
            }
            "return_statement" | "yield" => {
                let Some(value) = node.named_child(0).filter(|v| v.kind() == "identifier") else {
                    return;
                };
                let mut at = node.parent();
                while let Some(n) = at {
                    if n.kind() == "function_definition" {
                        if let Some(name) = n.child_by_field_name("name") {
                            let entry = (
                                line_of(name),
                                self.text(value).to_string(),
                                line_of(n),
                                end_line_of(n),
                            );
                            self.pending.push(entry);
                        }
                        break;
                    }
                    if n.kind() == "lambda" || n.kind() == "class_definition" {
                        break;
                    }
                    at = n.parent();
                }
            }
            "typed_parameter" | "typed_default_parameter" => {
                let name = node
                    .child_by_field_name("name")
                    .or_else(|| node.named_child(0))
                    .filter(|n| n.kind() == "identifier");
                if let (Some(name), Some(ty)) = (name, node.child_by_field_name("type")) {
                    let (name, ty) = (self.text(name).to_string(), self.type_name(ty));
                    self.bind(&name, &ty, self.scope_of(node));
                }
            }
            "assignment" => {
                let Some(left) = node.child_by_field_name("left") else {
                    return;
                };
                let ty = match node.child_by_field_name("type") {
                    Some(ty) => self.type_name(ty),
                    None => match node.child_by_field_name("right") {
                        Some(right) if right.kind() == "call" => right
                            .child_by_field_name("function")
                            .map(|f| self.type_name(f))
                            .unwrap_or_default(),
                        _ => String::new(),
                    },
                };
                self.bind_target(left, &ty);
            }
            _ => {}
        }
    }

    /// Binds an assignment's target: a name over its function, or a field
    /// (`self.x`, `this.x`) over its class.
    fn bind_target(&mut self, left: Node, ty: &str) {
        match left.kind() {
            "identifier" => {
                let name = self.text(left).to_string();
                self.bind(&name, ty, self.scope_of(left));
            }
            "attribute" | "member_expression" | "field_expression" => {
                if let Some(chain) = self.chain(left) {
                    if chain.len() == 2 && matches!(chain[0].as_str(), "self" | "this") {
                        let scope = self.class_scope(left);
                        self.bind(&chain.join("."), ty, scope);
                    }
                }
            }
            _ => {}
        }
    }

    /// The lines of the class around `node` (the whole file outside one).
    fn class_scope(&self, node: Node) -> (u32, u32) {
        let mut at = node.parent();
        while let Some(n) = at {
            if matches!(
                n.kind(),
                "class_definition" | "class_declaration" | "class" | "abstract_class_declaration"
            ) {
                return (line_of(n), end_line_of(n));
            }
            at = n.parent();
        }
        (1, u32::MAX)
    }

    fn class(&mut self, name: Node, bases: Vec<String>) {
        let line = line_of(name);
        let short = self.text(name);
        let full = self
            .facts
            .defs
            .iter()
            .find(|d| d.name_line == line && d.short == short)
            .map_or_else(|| short.to_string(), |d| d.name.clone());
        self.facts.classes.push(Class {
            name: full,
            line,
            bases,
        });
    }

    // ---- JavaScript, TypeScript ----

    fn js(&mut self, node: Node) {
        match node.kind() {
            "call_expression" => {
                let Some(function) = node.child_by_field_name("function") else {
                    return;
                };
                match function.kind() {
                    "identifier" => {
                        if self.text(function) == "require" {
                            return;
                        }
                        self.call(function, Callee::Bare);
                    }
                    "member_expression" => {
                        let (Some(object), Some(property)) = (
                            function.child_by_field_name("object"),
                            function.child_by_field_name("property"),
                        ) else {
                            return;
                        };
                        let callee = if object.kind() == "super" {
                            Callee::Super
                        } else {
                            self.chain(object).map_or(Callee::Dynamic, Callee::Member)
                        };
                        self.call(property, callee);
                    }
                    _ => {}
                }
            }
            "new_expression" => {
                let Some(constructor) = node.child_by_field_name("constructor") else {
                    return;
                };
                match constructor.kind() {
                    "identifier" => self.call(constructor, Callee::New),
                    "member_expression" => {
                        if let (Some(object), Some(property)) = (
                            constructor.child_by_field_name("object"),
                            constructor.child_by_field_name("property"),
                        ) {
                            let callee = self.chain(object).map_or(Callee::Dynamic, Callee::Member);
                            self.call(property, callee);
                        }
                    }
                    _ => {}
                }
            }
            "jsx_opening_element" | "jsx_self_closing_element" => {
                let Some(name) = node.child_by_field_name("name") else {
                    return;
                };
                match name.kind() {
                    "identifier"
                        if self
                            .text(name)
                            .starts_with(|c: char| c.is_ascii_uppercase()) =>
                    {
                        self.call(name, Callee::Jsx);
                    }
                    "member_expression" | "nested_identifier" => {
                        if let (Some(object), Some(property)) = (
                            name.child_by_field_name("object")
                                .or_else(|| name.named_child(0)),
                            name.child_by_field_name("property")
                                .or_else(|| name.named_child(1)),
                        ) {
                            let callee = self.chain(object).map_or(Callee::Dynamic, Callee::Member);
                            self.call(property, callee);
                        }
                    }
                    _ => {}
                }
            }
            "function_declaration"
            | "method_definition"
            | "function_signature"
            | "method_signature" => self.declared_return(node, "return_type"),
            "import_statement" => self.js_import(node),
            "export_statement" => self.js_reexport(node),
            "variable_declarator" => self.js_declarator(node),
            "required_parameter" | "optional_parameter" => {
                let (Some(pattern), Some(ty)) = (
                    node.child_by_field_name("pattern"),
                    node.child_by_field_name("type"),
                ) else {
                    return;
                };
                if pattern.kind() != "identifier" {
                    return;
                }
                let (name, ty) = (self.text(pattern).to_string(), self.type_name(ty));
                let mut cursor = node.walk();
                let field = node
                    .children(&mut cursor)
                    .any(|c| c.kind() == "accessibility_modifier" || c.kind() == "readonly");
                if field {
                    let scope = self.class_scope(node);
                    self.bind(&format!("this.{name}"), &ty, scope);
                }
                self.bind(&name, &ty, self.scope_of(node));
            }
            "public_field_definition" | "field_definition" => {
                let Some(name) = node
                    .child_by_field_name("name")
                    .or_else(|| node.child_by_field_name("property"))
                else {
                    return;
                };
                let ty = match node.child_by_field_name("type") {
                    Some(ty) => self.type_name(ty),
                    None => node
                        .child_by_field_name("value")
                        .map(|v| self.constructed(v))
                        .unwrap_or_default(),
                };
                let name = format!("this.{}", self.text(name));
                let scope = self.class_scope(node);
                self.bind(&name, &ty, scope);
            }
            "assignment_expression" => {
                if let (Some(left), Some(right)) = (
                    node.child_by_field_name("left"),
                    node.child_by_field_name("right"),
                ) {
                    let ty = self.constructed(right);
                    if left.kind() == "member_expression" {
                        self.bind_target(left, &ty);
                    }
                }
            }
            "class_declaration" | "class" | "abstract_class_declaration" => {
                let Some(name) = node.child_by_field_name("name") else {
                    return;
                };
                let mut bases = Vec::new();
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    if child.kind() != "class_heritage" {
                        continue;
                    }
                    let mut inner = child.walk();
                    for clause in child.named_children(&mut inner) {
                        let value = if clause.kind() == "extends_clause" {
                            clause.child_by_field_name("value")
                        } else if matches!(clause.kind(), "identifier" | "member_expression") {
                            // JavaScript: `class A extends B` without a clause node.
                            Some(clause)
                        } else {
                            None
                        };
                        if let Some(value) = value {
                            bases.push(self.text(value).to_string());
                        }
                    }
                }
                self.class(name, bases);
            }
            _ => {}
        }
    }

    /// The class an expression builds: `new T(...)`, or the function a
    /// call's result comes from (`f()`: typed by what `f` returns).
    fn constructed(&self, value: Node) -> String {
        match value.kind() {
            "new_expression" => value
                .child_by_field_name("constructor")
                .map(|c| self.type_name(c))
                .unwrap_or_default(),
            "await_expression" => value
                .named_child(0)
                .map(|v| self.constructed(v))
                .unwrap_or_default(),
            _ => self.callee_of(value),
        }
    }

    fn js_import(&mut self, node: Node) {
        let line = line_of(node);
        let Some(source) = node.child_by_field_name("source") else {
            return;
        };
        let module = unquote(self.text(source)).to_string();
        let mut cursor = node.walk();
        let Some(clause) = node
            .named_children(&mut cursor)
            .find(|c| c.kind() == "import_clause")
        else {
            return;
        };
        let mut cursor = clause.walk();
        for part in clause.named_children(&mut cursor) {
            match part.kind() {
                "identifier" => {
                    let local = self.text(part);
                    self.import(local, &module, Some("default"), line);
                }
                "namespace_import" => {
                    if let Some(name) = part.named_child(0) {
                        let local = self.text(name);
                        self.import(local, &module, None, line);
                    }
                }
                "named_imports" => {
                    let mut inner = part.walk();
                    for spec in part.named_children(&mut inner) {
                        if spec.kind() != "import_specifier" {
                            continue;
                        }
                        let Some(name) = spec.child_by_field_name("name") else {
                            continue;
                        };
                        let name = unquote(self.text(name));
                        let local = spec
                            .child_by_field_name("alias")
                            .map_or(name, |a| self.text(a));
                        self.import(local, &module, Some(name), line);
                    }
                }
                _ => {}
            }
        }
    }

    fn js_reexport(&mut self, node: Node) {
        let line = line_of(node);
        let Some(source) = node.child_by_field_name("source") else {
            return;
        };
        let module = unquote(self.text(source)).to_string();
        let mut cursor = node.walk();
        let clause = node
            .named_children(&mut cursor)
            .find(|c| c.kind() == "export_clause");
        let Some(clause) = clause else {
            // `export * from './x'` (or `export * as ns from`, which binds
            // a namespace no call names directly).
            let mut cursor = node.walk();
            if !node
                .named_children(&mut cursor)
                .any(|c| c.kind() == "namespace_export")
            {
                self.facts.imports.push(Import {
                    local: String::new(),
                    module,
                    name: None,
                    reexport: true,
                    line,
                });
            }
            return;
        };
        let mut cursor = clause.walk();
        for spec in clause.named_children(&mut cursor) {
            if spec.kind() != "export_specifier" {
                continue;
            }
            let Some(name) = spec.child_by_field_name("name") else {
                continue;
            };
            let name = unquote(self.text(name)).to_string();
            let local = spec
                .child_by_field_name("alias")
                .map_or(name.clone(), |a| unquote(self.text(a)).to_string());
            self.facts.imports.push(Import {
                local,
                module: module.clone(),
                name: Some(name),
                reexport: true,
                line,
            });
        }
    }

    fn js_declarator(&mut self, node: Node) {
        let Some(name) = node.child_by_field_name("name") else {
            return;
        };
        let value = node.child_by_field_name("value");
        // `const x = require('./m')`, `const { a, b: c } = require('./m')`.
        if let Some(module) = value.and_then(|v| self.required(v)) {
            let line = line_of(node);
            match name.kind() {
                "identifier" => {
                    let local = self.text(name);
                    self.import(local, &module, None, line);
                }
                "object_pattern" => {
                    let mut cursor = name.walk();
                    for part in name.named_children(&mut cursor) {
                        match part.kind() {
                            "shorthand_property_identifier_pattern" => {
                                let local = self.text(part);
                                self.import(local, &module, Some(local), line);
                            }
                            "pair_pattern" => {
                                if let (Some(key), Some(value)) = (
                                    part.child_by_field_name("key"),
                                    part.child_by_field_name("value"),
                                ) {
                                    let (key, local) = (self.text(key), self.text(value));
                                    self.import(local, &module, Some(key), line);
                                }
                            }
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
            return;
        }
        if name.kind() != "identifier" {
            return;
        }
        let ty = match node.child_by_field_name("type") {
            Some(ty) => self.type_name(ty),
            None => value.map(|v| self.constructed(v)).unwrap_or_default(),
        };
        let name = self.text(name).to_string();
        self.bind(&name, &ty, self.scope_of(node));
    }

    /// The module of `require('./m')`.
    fn required(&self, value: Node) -> Option<String> {
        if value.kind() != "call_expression" {
            return None;
        }
        let function = value.child_by_field_name("function")?;
        if self.text(function) != "require" {
            return None;
        }
        let args = value.child_by_field_name("arguments")?;
        let first = args.named_child(0)?;
        (first.kind() == "string").then(|| unquote(self.text(first)).to_string())
    }

    // ---- Rust ----

    fn rust(&mut self, node: Node) {
        match node.kind() {
            "call_expression" => {
                let Some(mut function) = node.child_by_field_name("function") else {
                    return;
                };
                if function.kind() == "generic_function" {
                    match function.child_by_field_name("function") {
                        Some(inner) => function = inner,
                        None => return,
                    }
                }
                match function.kind() {
                    "identifier" => self.call(function, Callee::Bare),
                    "scoped_identifier" => {
                        let Some(name) = function.child_by_field_name("name") else {
                            return;
                        };
                        let path = function
                            .child_by_field_name("path")
                            .map(|p| self.rust_path(p))
                            .unwrap_or_default();
                        self.call(name, Callee::Path(path));
                    }
                    "field_expression" => {
                        let (Some(value), Some(field)) = (
                            function.child_by_field_name("value"),
                            function.child_by_field_name("field"),
                        ) else {
                            return;
                        };
                        let callee = self.chain(value).map_or(Callee::Dynamic, Callee::Member);
                        self.call(field, callee);
                    }
                    _ => {}
                }
            }
            "use_declaration" => {
                let line = line_of(node);
                let reexport = {
                    let mut cursor = node.walk();
                    let public = node
                        .children(&mut cursor)
                        .any(|c| c.kind() == "visibility_modifier");
                    public
                };
                if let Some(argument) = node.child_by_field_name("argument") {
                    let before = self.facts.imports.len();
                    self.rust_use(argument, &[], line);
                    for import in &mut self.facts.imports[before..] {
                        import.reexport = reexport;
                    }
                }
            }
            "mod_item" if node.child_by_field_name("body").is_none() => {
                // `mod f;`: the module file `f.rs` beside (or below) this one.
                if let Some(name) = node.child_by_field_name("name") {
                    let name = self.text(name);
                    self.import(name, &format!("self::{name}"), None, line_of(node));
                }
            }
            "function_item" | "function_signature_item" => {
                self.declared_return(node, "return_type");
            }
            "impl_item" => {
                if let Some(ty) = node.child_by_field_name("type") {
                    let ty = self.type_name(ty);
                    let scope = (line_of(node), end_line_of(node));
                    self.bind("self", &ty, scope);
                    self.bind("Self", &ty, scope);
                }
            }
            "parameter" => {
                if let (Some(pattern), Some(ty)) = (
                    node.child_by_field_name("pattern"),
                    node.child_by_field_name("type"),
                ) {
                    if pattern.kind() == "identifier" {
                        let (name, ty) = (self.text(pattern).to_string(), self.type_name(ty));
                        self.bind(&name, &ty, self.scope_of(node));
                    }
                }
            }
            "let_declaration" => {
                let Some(pattern) = node.child_by_field_name("pattern") else {
                    return;
                };
                if pattern.kind() != "identifier" {
                    return;
                }
                let ty = match node.child_by_field_name("type") {
                    Some(ty) => self.type_name(ty),
                    None => node
                        .child_by_field_name("value")
                        .map(|v| self.rust_constructed(v))
                        .unwrap_or_default(),
                };
                let name = self.text(pattern).to_string();
                self.bind(&name, &ty, self.scope_of(node));
            }
            "field_declaration" => {
                // `struct S { scene: Scene }`: `self.scene` inside S's impls.
                let (Some(name), Some(ty)) = (
                    node.child_by_field_name("name"),
                    node.child_by_field_name("type"),
                ) else {
                    return;
                };
                let owner = node
                    .parent()
                    .and_then(|list| list.parent())
                    .and_then(|s| s.child_by_field_name("name"))
                    .map(|n| self.text(n).to_string());
                if let Some(owner) = owner {
                    let (name, ty) = (self.text(name).to_string(), self.type_name(ty));
                    self.facts.bindings.push(Binding {
                        name: format!("{owner}.{name}"),
                        ty,
                        from: 0,
                        to: 0,
                    });
                }
            }
            "trait_item" | "struct_item" | "enum_item" => {
                if let Some(name) = node.child_by_field_name("name") {
                    self.class(name, Vec::new());
                }
            }
            _ => {}
        }
    }

    /// A Rust path's segments: `crate::a::b` is `["crate", "a", "b"]`.
    fn rust_path(&self, node: Node) -> Vec<String> {
        match node.kind() {
            "scoped_identifier" | "scoped_type_identifier" => {
                let mut path = node
                    .child_by_field_name("path")
                    .map(|p| self.rust_path(p))
                    .unwrap_or_default();
                if let Some(name) = node.child_by_field_name("name") {
                    path.push(self.text(name).to_string());
                }
                path
            }
            "generic_type" => node
                .child_by_field_name("type")
                .map(|t| self.rust_path(t))
                .unwrap_or_default(),
            _ => vec![self.text(node).to_string()],
        }
    }

    fn rust_use(&mut self, node: Node, prefix: &[String], line: u32) {
        let join = |path: &[String]| path.join("::");
        match node.kind() {
            "identifier" | "scoped_identifier" | "self" | "crate" | "super" => {
                let mut path = prefix.to_vec();
                path.extend(self.rust_path(node));
                let Some(name) = path.pop() else {
                    return;
                };
                if name == "self" {
                    // `use a::b::{self}` binds the module `b`.
                    if let Some(module) = path.last().cloned() {
                        self.import(&module, &join(&path), None, line);
                    }
                    return;
                }
                self.import(&name, &join(&path), Some(&name), line);
            }
            "use_as_clause" => {
                let (Some(path), Some(alias)) = (
                    node.child_by_field_name("path"),
                    node.child_by_field_name("alias"),
                ) else {
                    return;
                };
                let mut full = prefix.to_vec();
                full.extend(self.rust_path(path));
                let alias = self.text(alias).to_string();
                if let Some(name) = full.pop() {
                    self.import(&alias, &join(&full), Some(&name), line);
                }
            }
            "scoped_use_list" => {
                let mut full = prefix.to_vec();
                if let Some(path) = node.child_by_field_name("path") {
                    full.extend(self.rust_path(path));
                }
                if let Some(list) = node.child_by_field_name("list") {
                    self.rust_use(list, &full, line);
                }
            }
            "use_list" => {
                let mut cursor = node.walk();
                let items: Vec<Node> = node.named_children(&mut cursor).collect();
                for item in items {
                    self.rust_use(item, prefix, line);
                }
            }
            "use_wildcard" => {
                let mut full = prefix.to_vec();
                if let Some(path) = node.named_child(0) {
                    full.extend(self.rust_path(path));
                }
                self.import("", &join(&full), None, line);
            }
            _ => {}
        }
    }

    /// The type a Rust expression builds: `T::new(...)`, `T { .. }`,
    /// `&T::new(..)`; else nothing.
    fn rust_constructed(&self, value: Node) -> String {
        match value.kind() {
            "struct_expression" => value
                .child_by_field_name("name")
                .map(|n| self.type_name(n))
                .unwrap_or_default(),
            "reference_expression" => value
                .child_by_field_name("value")
                .map(|v| self.rust_constructed(v))
                .unwrap_or_default(),
            "call_expression" => {
                let Some(function) = value.child_by_field_name("function") else {
                    return String::new();
                };
                if function.kind() == "identifier" {
                    return self.text(function).to_string();
                }
                if function.kind() != "scoped_identifier" {
                    return String::new();
                }
                let name = function
                    .child_by_field_name("name")
                    .map(|n| self.text(n))
                    .unwrap_or("");
                let path = function
                    .child_by_field_name("path")
                    .map(|p| self.rust_path(p))
                    .unwrap_or_default();
                // Constructors by convention return Self.
                let constructor = name == "new" || name == "default" || name.starts_with("with_");
                match path.last() {
                    Some(ty) if constructor && ty.starts_with(|c: char| c.is_ascii_uppercase()) => {
                        ty.clone()
                    }
                    // `module::make()`: typed by what `make` returns.
                    Some(_) if !constructor => self.type_name(function),
                    _ => String::new(),
                }
            }
            _ => String::new(),
        }
    }

    // ---- Go ----

    fn go(&mut self, node: Node) {
        match node.kind() {
            "call_expression" => {
                let Some(function) = node.child_by_field_name("function") else {
                    return;
                };
                match function.kind() {
                    "identifier" => self.call(function, Callee::Bare),
                    "selector_expression" => {
                        let (Some(operand), Some(field)) = (
                            function.child_by_field_name("operand"),
                            function.child_by_field_name("field"),
                        ) else {
                            return;
                        };
                        let callee = self.chain(operand).map_or(Callee::Dynamic, Callee::Member);
                        self.call(field, callee);
                    }
                    _ => {}
                }
            }
            "function_declaration" | "method_declaration" => {
                self.declared_return(node, "result");
            }
            "package_clause" => {
                if let Some(name) = node.named_child(0) {
                    self.facts.package = Some(self.text(name).to_string());
                }
            }
            "import_spec" => {
                let Some(path) = node.child_by_field_name("path") else {
                    return;
                };
                let module = unquote(self.text(path)).to_string();
                let local = match node.child_by_field_name("name") {
                    Some(name) if name.kind() == "dot" => String::new(),
                    Some(name) => self.text(name).to_string(),
                    None => go_package_name(&module).to_string(),
                };
                self.import(&local, &module, None, line_of(node));
            }
            "parameter_declaration" => {
                let Some(ty) = node.child_by_field_name("type") else {
                    return;
                };
                let ty = self.type_name(ty);
                let scope = self.scope_of(node);
                let mut cursor = node.walk();
                let names: Vec<String> = node
                    .children_by_field_name("name", &mut cursor)
                    .map(|n| self.text(n).to_string())
                    .collect();
                for name in names {
                    self.bind(&name, &ty, scope);
                }
            }
            "var_spec" => {
                let scope = self.scope_of(node);
                let ty = node
                    .child_by_field_name("type")
                    .map(|t| self.type_name(t))
                    .or_else(|| {
                        node.child_by_field_name("value")
                            .and_then(|v| v.named_child(0))
                            .map(|v| self.go_constructed(v))
                    })
                    .unwrap_or_default();
                let mut cursor = node.walk();
                let names: Vec<String> = node
                    .children_by_field_name("name", &mut cursor)
                    .map(|n| self.text(n).to_string())
                    .collect();
                for name in names {
                    self.bind(&name, &ty, scope);
                }
            }
            "short_var_declaration" => {
                let (Some(left), Some(right)) = (
                    node.child_by_field_name("left"),
                    node.child_by_field_name("right"),
                ) else {
                    return;
                };
                let scope = self.scope_of(node);
                let mut lc = left.walk();
                let mut rc = right.walk();
                let pairs: Vec<(Node, Node)> = left
                    .named_children(&mut lc)
                    .zip(right.named_children(&mut rc))
                    .collect();
                for (name, value) in pairs {
                    if name.kind() == "identifier" {
                        let (name, ty) = (self.text(name).to_string(), self.go_constructed(value));
                        self.bind(&name, &ty, scope);
                    }
                }
            }
            "field_declaration" => {
                let Some(ty) = node.child_by_field_name("type") else {
                    return;
                };
                let owner = node
                    .parent()
                    .and_then(|list| list.parent())
                    .and_then(|st| st.parent())
                    .filter(|spec| spec.kind() == "type_spec")
                    .and_then(|spec| spec.child_by_field_name("name"))
                    .map(|n| self.text(n).to_string());
                let Some(owner) = owner else {
                    return;
                };
                let ty = self.type_name(ty);
                let mut cursor = node.walk();
                let names: Vec<String> = node
                    .children_by_field_name("name", &mut cursor)
                    .map(|n| self.text(n).to_string())
                    .collect();
                for name in names {
                    self.facts.bindings.push(Binding {
                        name: format!("{owner}.{name}"),
                        ty: ty.clone(),
                        from: 0,
                        to: 0,
                    });
                }
            }
            _ => {}
        }
    }

    /// The type a Go expression builds: `T{...}`, `&T{...}`, `new(T)`.
    fn go_constructed(&self, value: Node) -> String {
        match value.kind() {
            "composite_literal" => value
                .child_by_field_name("type")
                .map(|t| self.type_name(t))
                .unwrap_or_default(),
            "unary_expression" => value
                .child_by_field_name("operand")
                .map(|v| self.go_constructed(v))
                .unwrap_or_default(),
            "call_expression" => {
                let function = value.child_by_field_name("function");
                if function.is_some_and(|f| self.text(f) == "new") {
                    return value
                        .child_by_field_name("arguments")
                        .and_then(|a| a.named_child(0))
                        .map(|t| self.type_name(t))
                        .unwrap_or_default();
                }
                self.callee_of(value)
            }
            _ => String::new(),
        }
    }

    // ---- Java ----

    fn java(&mut self, node: Node) {
        match node.kind() {
            "method_invocation" => {
                let Some(name) = node.child_by_field_name("name") else {
                    return;
                };
                let callee = match node.child_by_field_name("object") {
                    None => Callee::Bare,
                    Some(object) if object.kind() == "super" => Callee::Super,
                    Some(object) => self.chain(object).map_or(Callee::Dynamic, Callee::Member),
                };
                self.call(name, callee);
            }
            "object_creation_expression" => {
                let Some(ty) = node.child_by_field_name("type") else {
                    return;
                };
                let ty = match ty.kind() {
                    "generic_type" => ty.named_child(0).unwrap_or(ty),
                    _ => ty,
                };
                let ty = match ty.kind() {
                    "scoped_type_identifier" => ty
                        .named_child(ty.named_child_count().saturating_sub(1) as u32)
                        .unwrap_or(ty),
                    _ => ty,
                };
                if ty.kind() == "type_identifier" {
                    self.call(ty, Callee::New);
                }
            }
            "package_declaration" => {
                if let Some(name) = node.named_child(0) {
                    self.facts.package = Some(self.text(name).to_string());
                }
            }
            "method_declaration" => self.declared_return(node, "type"),
            "import_declaration" => {
                let line = line_of(node);
                let mut cursor = node.walk();
                let children: Vec<Node> = node.children(&mut cursor).collect();
                let glob = children.iter().any(|c| c.kind() == "asterisk");
                let Some(path) = children
                    .iter()
                    .find(|c| matches!(c.kind(), "scoped_identifier" | "identifier"))
                else {
                    return;
                };
                let path = self.text(*path).to_string();
                if glob {
                    self.import("", &path, None, line);
                } else if let Some((module, name)) = path.rsplit_once('.') {
                    self.import(name, module, Some(name), line);
                }
            }
            "class_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "record_declaration" => {
                let Some(name) = node.child_by_field_name("name") else {
                    return;
                };
                let mut bases = Vec::new();
                if let Some(superclass) = node.child_by_field_name("superclass") {
                    if let Some(ty) = superclass.named_child(0) {
                        bases.push(self.type_name(ty));
                    }
                }
                for field in ["interfaces", "extends"] {
                    if let Some(list) = node.child_by_field_name(field) {
                        let text = self.text(list);
                        for part in text
                            .trim_start_matches("implements")
                            .trim_start_matches("extends")
                            .split(',')
                        {
                            let ty = type_name_of(part);
                            if !ty.is_empty() {
                                bases.push(ty);
                            }
                        }
                    }
                }
                self.class(name, bases);
            }
            "local_variable_declaration" | "field_declaration" => {
                let Some(ty) = node.child_by_field_name("type") else {
                    return;
                };
                let declared = self.type_name(ty);
                let field = node.kind() == "field_declaration";
                let scope = if field {
                    self.class_scope_java(node)
                } else {
                    self.scope_of(node)
                };
                let mut cursor = node.walk();
                let declarators: Vec<Node> = node
                    .children_by_field_name("declarator", &mut cursor)
                    .collect();
                for declarator in declarators {
                    let Some(name) = declarator.child_by_field_name("name") else {
                        continue;
                    };
                    let ty = if declared == "var" {
                        declarator
                            .child_by_field_name("value")
                            .filter(|v| v.kind() == "object_creation_expression")
                            .and_then(|v| v.child_by_field_name("type"))
                            .map(|t| self.type_name(t))
                            .unwrap_or_default()
                    } else {
                        declared.clone()
                    };
                    let name = self.text(name).to_string();
                    if field {
                        self.bind(&format!("this.{name}"), &ty, scope);
                    }
                    self.bind(&name, &ty, scope);
                }
            }
            "formal_parameter" => {
                if let (Some(ty), Some(name)) = (
                    node.child_by_field_name("type"),
                    node.child_by_field_name("name"),
                ) {
                    let (name, ty) = (self.text(name).to_string(), self.type_name(ty));
                    self.bind(&name, &ty, self.scope_of(node));
                }
            }
            _ => {}
        }
    }

    fn class_scope_java(&self, node: Node) -> (u32, u32) {
        let mut at = node.parent();
        while let Some(n) = at {
            if n.kind().ends_with("_declaration") && n.kind() != "field_declaration" {
                return (line_of(n), end_line_of(n));
            }
            at = n.parent();
        }
        (1, u32::MAX)
    }

    // ---- C ----

    fn c(&mut self, node: Node) {
        match node.kind() {
            "call_expression" => {
                let Some(function) = node.child_by_field_name("function") else {
                    return;
                };
                match function.kind() {
                    "identifier" => self.call(function, Callee::Bare),
                    "field_expression" => {
                        if let Some(field) = function.child_by_field_name("field") {
                            self.call(field, Callee::Dynamic);
                        }
                    }
                    _ => {}
                }
            }
            "preproc_include" => {
                if let Some(path) = node.child_by_field_name("path") {
                    if path.kind() == "string_literal" {
                        let module = unquote(self.text(path)).to_string();
                        self.import("", &module, None, line_of(node));
                    }
                }
            }
            "function_definition" => {
                let mut cursor = node.walk();
                let is_static = node
                    .children(&mut cursor)
                    .any(|c| c.kind() == "storage_class_specifier" && self.text(c) == "static");
                if !is_static {
                    return;
                }
                let mut declarator = node.child_by_field_name("declarator");
                while let Some(d) = declarator {
                    if d.kind() == "identifier" {
                        let name = self.text(d).to_string();
                        self.facts.statics.push(name);
                        break;
                    }
                    declarator = d.child_by_field_name("declarator");
                }
            }
            _ => {}
        }
    }
}

/// Whether a node of `kind` is a scope a local declaration binds over.
fn is_scope(lang: Lang, kind: &str) -> bool {
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
fn unquote(text: &str) -> &str {
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
        extract(lang, src.as_bytes())
            .calls
            .into_iter()
            .map(|c| (c.line, c.name, c.callee))
            .collect()
    }

    #[test]
    fn python_calls_imports_and_types() {
        let src = "import a.b as m\nfrom .x import load as l, run\nfrom y import *\n\nclass C(Base, m.Mixin):\n    def f(self, s: Scene):\n        self.g()\n        s.draw()\n        l()\n        m.load()\n        super().f()\n        q = Parser()\n        q.parse()\n        self.scene = Scene()\n";
        let facts = extract(Lang::Python, src.as_bytes());
        let calls: Vec<(u32, String, Callee)> = facts
            .calls
            .iter()
            .map(|c| (c.line, c.name.clone(), c.callee.clone()))
            .collect();
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
        let ty = |name: &str| {
            facts
                .bindings
                .iter()
                .find(|b| b.name == name)
                .map(|b| b.ty.clone())
        };
        assert_eq!(ty("s").as_deref(), Some("Scene"));
        assert_eq!(ty("q").as_deref(), Some("Parser"));
        assert_eq!(ty("self.scene").as_deref(), Some("Scene"));
    }

    #[test]
    fn javascript_calls_in_callbacks_jsx_and_imports() {
        let src = "import D, { a as b, c } from './m';\nimport * as ns from '../n';\nconst { r } = require('./r');\nexport { z } from './z';\nexport * from './all';\nxs.map(x => b(x));\nconst el = <Section title=\"t\" />;\nnew Scene();\nns.f();\nclass K extends Base {\n  private scene: Scene;\n  m() { this.scene.draw(); }\n}\n";
        let facts = extract(Lang::Tsx, src.as_bytes());
        let calls: Vec<(u32, String, Callee)> = facts
            .calls
            .iter()
            .map(|c| (c.line, c.name.clone(), c.callee.clone()))
            .collect();
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
        let calls: Vec<(u32, String, Callee)> = facts
            .calls
            .iter()
            .map(|c| (c.line, c.name.clone(), c.callee.clone()))
            .collect();
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
        let ty = |name: &str| {
            facts
                .bindings
                .iter()
                .find(|b| b.name == name)
                .map(|b| b.ty.clone())
        };
        assert_eq!(ty("self").as_deref(), Some("S"));
        assert_eq!(ty("p").as_deref(), Some("Parser"));
        assert_eq!(ty("q").as_deref(), Some("Query"));
        assert_eq!(ty("S.g").as_deref(), Some("Graph"));
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
        let ty = |name: &str| {
            facts
                .bindings
                .iter()
                .find(|b| b.name == name)
                .map(|b| b.ty.clone())
        };
        assert_eq!(ty("s").as_deref(), Some("S"));
        assert_eq!(ty("x").as_deref(), Some("Engine"));
        assert_eq!(ty("S.db").as_deref(), Some("DB"));
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
