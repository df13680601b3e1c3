//! JavaScript and TypeScript: calls, `new`, JSX elements,
//! `import`/`require`/re-exports, class heritage, declared and
//! constructed types.

use tree_sitter::Node;

use super::*;

impl Walk<'_> {
    pub(super) fn js(&mut self, node: Node) {
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
                            self.receiver(object)
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
                            let callee = self.receiver(object);
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
                            let callee = self.receiver(object);
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
            "return_statement" => self.js_return(node),
            "import_statement" => self.js_import(node),
            "export_statement" => {
                let mut cursor = node.walk();
                let default = node.children(&mut cursor).any(|c| c.kind() == "default");
                if default {
                    let named = node
                        .child_by_field_name("declaration")
                        .and_then(|d| d.child_by_field_name("name"))
                        .or_else(|| {
                            node.child_by_field_name("value")
                                .filter(|v| v.kind() == "identifier")
                        });
                    if let Some(name) = named {
                        self.facts.default_export = Some(self.text(name).to_string());
                    }
                }
                self.js_reexport(node);
            }
            "variable_declarator" => self.js_declarator(node),
            "formal_parameters" => {
                // JavaScript's plain parameters: locals of unknown type.
                let scope = self.scope_of(node);
                let names = self.identifiers(node);
                for name in names {
                    self.bind(&name, "", scope);
                }
            }
            "arrow_function" | "catch_clause" | "for_in_statement" => {
                // `x => x()`, `catch (x)`, `for (const x of xs)`.
                let field = match node.kind() {
                    "arrow_function" | "catch_clause" => "parameter",
                    _ => "left",
                };
                if let Some(param) = node
                    .child_by_field_name(field)
                    .filter(|p| p.kind() == "identifier")
                {
                    let name = self.text(param).to_string();
                    self.bind(&name, "", (line_of(node), end_line_of(node)));
                }
            }
            "required_parameter" | "optional_parameter" => {
                let Some(pattern) = node.child_by_field_name("pattern") else {
                    return;
                };
                if pattern.kind() != "identifier" {
                    return;
                }
                let ty = node
                    .child_by_field_name("type")
                    .map(|t| self.type_name(t))
                    .unwrap_or_default();
                let name = self.text(pattern).to_string();
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
                    let mut ty = self.constructed(right);
                    if ty.is_empty() {
                        ty = self.type_of_name(right);
                    }
                    // TypeScript checks what a field declared with a type
                    // is given: an assignment keeps the declared type, but
                    // for a `new` of a class (maybe a subclass of it).
                    let declared = right.kind() != "new_expression"
                        && matches!(self.lang, Lang::TypeScript | Lang::Tsx)
                        && self.chain(left).is_some_and(|chain| {
                            let name = chain.join(".");
                            self.facts
                                .bindings
                                .iter()
                                .any(|b| b.name == name && !b.ty.is_empty())
                        });
                    if left.kind() == "member_expression" && !declared {
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

    /// A `return` in a function with no declared return type: the
    /// function returns an instance of the class it constructs (`static
    /// forApp() { return new Registry(); }`) when every `return` of it
    /// constructs that class.
    fn js_return(&mut self, node: Node) {
        let mut function = node.parent();
        while let Some(f) = function {
            if matches!(
                f.kind(),
                "function_declaration"
                    | "method_definition"
                    | "arrow_function"
                    | "function_expression"
                    | "function"
                    | "generator_function_declaration"
                    | "class_body"
            ) {
                break;
            }
            function = f.parent();
        }
        let Some(function) = function.filter(|f| {
            matches!(f.kind(), "function_declaration" | "method_definition")
                && f.child_by_field_name("return_type").is_none()
        }) else {
            return;
        };
        let Some(name) = function.child_by_field_name("name") else {
            return;
        };
        let line = line_of(name);
        let ty = node
            .named_child(0)
            .filter(|v| v.kind() == "new_expression")
            .map(|v| self.constructed(v))
            .filter(|ty| !ty.is_empty());
        match self.constructs.iter_mut().find(|(l, _)| *l == line) {
            Some((_, seen)) => {
                if *seen != ty {
                    *seen = None;
                }
            }
            None => self.constructs.push((line, ty)),
        }
    }

    /// The class an expression builds: `new T(...)`, or the function a
    /// call's result comes from (`f()`: typed by what `f` returns).
    pub(super) fn constructed(&self, value: Node) -> String {
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

    pub(super) fn js_import(&mut self, node: Node) {
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

    pub(super) fn js_reexport(&mut self, node: Node) {
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
                    from: 1,
                    to: u32::MAX,
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
                from: 1,
                to: u32::MAX,
            });
        }
    }

    pub(super) fn js_declarator(&mut self, node: Node) {
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
        let line = line_of(name);
        let name = self.text(name).to_string();
        // `const f = () => ...` at the top level is a definition, not a
        // local that shadows one.
        if !self.defines(&name, line) {
            self.bind(&name, &ty, self.scope_of(node));
        }
    }

    /// The module of `require('./m')`.
    pub(super) fn required(&self, value: Node) -> Option<String> {
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
}
