//! Rust: calls and paths, `use`/`mod`, `impl` receivers, declared and
//! constructed types, struct fields.

use tree_sitter::Node;

use super::*;

impl Walk<'_> {
    pub(super) fn rust(&mut self, node: Node) {
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
                        let callee = self.receiver(value);
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
                // `fn for_app(..) -> Self` in an impl: the impl's type.
                let returns_self = node
                    .child_by_field_name("return_type")
                    .is_some_and(|t| self.type_name(t) == "Self");
                let impl_type = std::iter::successors(node.parent(), |n| n.parent())
                    .find(|n| n.kind() == "impl_item")
                    .and_then(|i| i.child_by_field_name("type"))
                    .map(|t| self.type_name(t));
                if let (true, Some(ty), Some(name)) =
                    (returns_self, impl_type, node.child_by_field_name("name"))
                {
                    self.returns(name, ty);
                }
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
                        at: self.at,
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
    pub(super) fn rust_path(&self, node: Node) -> Vec<String> {
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

    pub(super) fn rust_use(&mut self, node: Node, prefix: &[String], line: u32) {
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
    pub(super) fn rust_constructed(&self, value: Node) -> String {
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
}
