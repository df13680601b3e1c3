//! Java: method invocations, `new`, the package and imports, class bases, declared types.

use tree_sitter::Node;

use super::*;

impl Walk<'_> {
    /// Records how many arguments `node` (a method invocation or a
    /// `new`) passes, on the call just recorded for its `name`.
    fn count_args(&mut self, node: Node, name: Node) {
        let Some(args) = node.child_by_field_name("arguments") else {
            return;
        };
        let at = name.start_position();
        if let Some(call) = self.facts.calls.last_mut() {
            if call.line == at.row as u32 + 1 && call.start == at.column as u32 {
                call.args = Some(args.named_child_count() as u32);
            }
        }
    }

    pub(super) fn java(&mut self, node: Node) {
        match node.kind() {
            "method_invocation" => {
                let Some(name) = node.child_by_field_name("name") else {
                    return;
                };
                let callee = match node.child_by_field_name("object") {
                    None => Callee::Bare,
                    Some(object) if object.kind() == "super" => Callee::Super,
                    Some(object) => self.receiver(object),
                };
                self.call(name, callee);
                self.count_args(node, name);
            }
            "object_creation_expression" => {
                let Some(ty) = node.child_by_field_name("type") else {
                    return;
                };
                let ty = match ty.kind() {
                    "generic_type" => ty.named_child(0).unwrap_or(ty),
                    _ => ty,
                };
                if ty.kind() == "scoped_type_identifier" {
                    // `new Outer.Inner()`: the class `Inner` of `Outer`.
                    let count = ty.named_child_count() as u32;
                    let Some(last) = ty.named_child(count.saturating_sub(1)) else {
                        return;
                    };
                    let outer: Vec<String> = (0..count.saturating_sub(1))
                        .filter_map(|i| ty.named_child(i))
                        .map(|n| self.text(n).to_string())
                        .collect();
                    self.call(last, Callee::Member(outer));
                    self.count_args(node, last);
                    return;
                }
                if ty.kind() == "type_identifier" {
                    self.call(ty, Callee::New);
                    self.count_args(node, ty);
                }
            }
            "package_declaration" => {
                if let Some(name) = node.named_child(0) {
                    self.facts.package = Some(self.text(name).to_string());
                }
            }
            "method_declaration" | "constructor_declaration" => {
                if node.kind() == "method_declaration" {
                    self.declared_return(node, "type");
                }
                let (Some(name), Some(params)) = (
                    node.child_by_field_name("name"),
                    node.child_by_field_name("parameters"),
                ) else {
                    return;
                };
                let mut cursor = params.walk();
                let kinds: Vec<&str> = params
                    .named_children(&mut cursor)
                    .map(|p| p.kind())
                    .collect();
                let arity = (!kinds.contains(&"spread_parameter"))
                    .then(|| kinds.iter().filter(|k| **k == "formal_parameter").count() as u32);
                self.facts.arities.push((line_of(name), arity));
            }
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

    pub(super) fn class_scope_java(&self, node: Node) -> (u32, u32) {
        let mut at = node.parent();
        while let Some(n) = at {
            if n.kind().ends_with("_declaration") && n.kind() != "field_declaration" {
                return (line_of(n), end_line_of(n));
            }
            at = n.parent();
        }
        (1, u32::MAX)
    }
}
