//! Go: calls, the package clause and imports, receivers, declared and
//! composite-literal types, struct fields.

use tree_sitter::Node;

use super::*;

impl Walk<'_> {
    pub(super) fn go(&mut self, node: Node) {
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
                        let callee = self.receiver(operand);
                        self.call(field, callee);
                    }
                    _ => {}
                }
            }
            "function_declaration" | "method_declaration" => {
                match node.child_by_field_name("result") {
                    // `(*T, error)`, `(db *DB)`, `(t T, err error)`: the
                    // first result is the value a caller's `x, err :=`
                    // or `x :=` holds.
                    Some(results) if results.kind() == "parameter_list" => {
                        let first = results.named_child(0);
                        let (Some(name), Some(first)) = (node.child_by_field_name("name"), first)
                        else {
                            return;
                        };
                        let ty = first.child_by_field_name("type").unwrap_or(first);
                        let ty = self.type_name(ty);
                        self.returns(name, ty);
                    }
                    _ => self.declared_return(node, "result"),
                }
            }
            "package_clause" => {
                if let Some(name) = node.named_child(0) {
                    self.facts.package = Some(self.text(name).to_string());
                }
                // The build constraint stands among the comments above it.
                let head = String::from_utf8_lossy(&self.src[..node.start_byte()]);
                self.facts.build = head
                    .lines()
                    .find_map(|l| l.trim().strip_prefix("//go:build "))
                    .map(|e| e.trim().to_string());
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
                let names = self.field_texts(node, "name");
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
                let names = self.field_texts(node, "name");
                for name in names {
                    self.bind(&name, &ty, scope);
                }
            }
            "range_clause" => {
                // `for _, x := range xs`: locals of unknown type.
                let Some(left) = node.child_by_field_name("left") else {
                    return;
                };
                // Go's loop variables live in the `for` statement.
                let scope = node
                    .parent()
                    .map_or_else(|| self.scope_of(node), |f| (line_of(f), end_line_of(f)));
                let names = self.identifiers(left);
                for name in names {
                    self.bind(&name, "", scope);
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
                let names = self.field_texts(node, "name");
                if names.is_empty() && !ty.is_empty() {
                    // `struct { *Base; ... }`: an embedded field, whose
                    // methods the struct has too, as a base's.
                    let line = line_of(node);
                    match self.facts.classes.iter_mut().find(|c| c.name == owner) {
                        Some(class) => class.bases.push(ty),
                        None => self.facts.classes.push(Class {
                            name: owner,
                            line,
                            bases: vec![ty],
                        }),
                    }
                    return;
                }
                for name in names {
                    self.facts.bindings.push(Binding {
                        name: format!("{owner}.{name}"),
                        ty: ty.clone(),
                        from: 0,
                        to: 0,
                        at: self.at,
                    });
                }
            }
            _ => {}
        }
    }

    /// The type a Go expression builds: `T{...}`, `&T{...}`, `new(T)`.
    pub(super) fn go_constructed(&self, value: Node) -> String {
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
}
