//! Python: calls, `import`/`from`, class bases, annotated and assigned
//! types, returns, pytest fixtures.

use tree_sitter::Node;

use super::*;

impl Walk<'_> {
    pub(super) fn python(&mut self, node: Node) {
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
                            self.receiver(object)
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
                    self.returns(name, ty);
                } else if let Some(class) = self.cls_returned(node) {
                    // A classmethod's `return cls(...)`: an instance of
                    // its class (a subclass calling it makes its own).
                    self.returns(name, class);
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
                    let plain = self.identifiers(params);
                    for name in plain {
                        self.facts.params.push(Binding {
                            name,
                            ty: String::new(),
                            from: scope.0,
                            to: scope.1,
                            at: self.at,
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
            "for_statement" => {
                // Loop variables: locals of unknown type.
                if let Some(left) = node
                    .child_by_field_name("left")
                    .filter(|l| l.kind() == "identifier")
                {
                    let name = self.text(left).to_string();
                    self.bind(&name, "", self.scope_of(node));
                }
            }
            "lambda" => {
                if let Some(params) = node.child_by_field_name("parameters") {
                    let scope = (line_of(node), end_line_of(node));
                    let names = self.identifiers(params);
                    for name in names {
                        self.bind(&name, "", scope);
                    }
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
                        Some(right) => self.type_of_name(right),
                        None => String::new(),
                    },
                };
                self.bind_target(left, &ty);
            }
            _ => {}
        }
    }

    /// Binds an assignment's target: a name over its function, or a field
    /// (`self.x`, `this.x`) over its class.
    pub(super) fn bind_target(&mut self, left: Node, ty: &str) {
        match left.kind() {
            "identifier" => {
                let name = self.text(left).to_string();
                if self.defines(&name, line_of(left)) {
                    return;
                }
                match self.class_body_around(left) {
                    // A class attribute: bound in the class body only,
                    // not in its methods (a bare name there skips the
                    // class's scope), nor in the rest of the file.
                    Some(class) if self.lang == Lang::Python => {
                        for lines in self.body_outside_functions(class) {
                            self.bind(&name, ty, lines);
                        }
                    }
                    _ => self.bind(&name, ty, self.scope_of(left)),
                }
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

    /// The name of the class whose method `function` is, when the
    /// method returns `cls(...)` (its first parameter `cls`).
    fn cls_returned(&self, function: Node) -> Option<String> {
        let class = self.class_body_around(function)?;
        let params = function.child_by_field_name("parameters")?;
        let first = params.named_child(0)?;
        if first.kind() != "identifier" || self.text(first) != "cls" {
            return None;
        }
        let body = function.child_by_field_name("body")?;
        let mut stack = vec![body];
        while let Some(node) = stack.pop() {
            match node.kind() {
                "function_definition" | "lambda" | "class_definition" => continue,
                "return_statement" => {
                    let call = node.named_child(0).filter(|v| v.kind() == "call");
                    let callee = call.and_then(|c| c.child_by_field_name("function"));
                    if callee.is_some_and(|f| f.kind() == "identifier" && self.text(f) == "cls") {
                        let name = class.child_by_field_name("name")?;
                        return Some(self.text(name).to_string());
                    }
                }
                _ => {
                    let mut cursor = node.walk();
                    stack.extend(node.named_children(&mut cursor));
                }
            }
        }
        None
    }

    /// The Python class whose body holds `node` directly (no function
    /// between them).
    fn class_body_around<'t>(&self, node: Node<'t>) -> Option<Node<'t>> {
        let mut at = node.parent();
        while let Some(n) = at {
            match n.kind() {
                "class_definition" => return Some(n),
                "function_definition" | "lambda" => return None,
                _ => at = n.parent(),
            }
        }
        None
    }

    /// The lines of `class` outside the functions and classes its body
    /// defines (decorators included): where a name the body assigns is
    /// seen bare.
    fn body_outside_functions(&self, class: Node) -> Vec<(u32, u32)> {
        let (start, end) = (line_of(class), end_line_of(class));
        let mut functions: Vec<(u32, u32)> = Vec::new();
        if let Some(body) = class.child_by_field_name("body") {
            let mut cursor = body.walk();
            for child in body.named_children(&mut cursor) {
                if matches!(
                    child.kind(),
                    "function_definition" | "decorated_definition" | "class_definition"
                ) {
                    functions.push((line_of(child), end_line_of(child)));
                }
            }
        }
        let mut lines = Vec::new();
        let mut from = start;
        for (first, last) in functions {
            if first > from {
                lines.push((from, first - 1));
            }
            from = from.max(last + 1);
        }
        if from <= end {
            lines.push((from, end));
        }
        lines
    }

    /// The lines of the class around `node` (the whole file outside one).
    pub(super) fn class_scope(&self, node: Node) -> (u32, u32) {
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

    pub(super) fn class(&mut self, name: Node, bases: Vec<String>) {
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
}
