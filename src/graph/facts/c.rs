//! C: calls, `#include "..."`, `static` functions.

use tree_sitter::Node;

use super::*;

impl Walk<'_> {
    pub(super) fn c(&mut self, node: Node) {
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
            "declaration" => {
                // A local of a function (a function pointer named like a
                // function, say) shadows the global of that name.
                let scope = self.scope_of(node);
                if scope == (1, u32::MAX) {
                    return;
                }
                let mut cursor = node.walk();
                let declarators: Vec<Node> = node
                    .children_by_field_name("declarator", &mut cursor)
                    .collect();
                for mut declarator in declarators {
                    loop {
                        if declarator.kind() == "identifier" {
                            let name = self.text(declarator).to_string();
                            self.bind(&name, "", scope);
                            break;
                        }
                        let inner = declarator.child_by_field_name("declarator").or_else(|| {
                            (declarator.kind() == "parenthesized_declarator")
                                .then(|| declarator.named_child(0))
                                .flatten()
                        });
                        match inner {
                            Some(inner) => declarator = inner,
                            None => break,
                        }
                    }
                }
            }
            "preproc_include" => {
                if let Some(path) = node.child_by_field_name("path") {
                    if path.kind() == "string_literal" {
                        let module = unquote(self.text(path)).to_string();
                        self.import("", &module, None, line_of(node));
                    } else if path.kind() == "system_lib_string" {
                        let header = self.text(path).trim_matches(['<', '>']).to_string();
                        self.facts.system_includes.push(header);
                    }
                }
            }
            "preproc_def" => {
                // `#define sdsnewlen hi_sdsnewlen`: a function renamed.
                let (Some(name), Some(value)) = (
                    node.child_by_field_name("name"),
                    node.child_by_field_name("value"),
                ) else {
                    return;
                };
                let (name, value) = (self.text(name), self.text(value).trim());
                let identifier = value
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                    && value.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                if identifier && value != name {
                    self.facts
                        .macros
                        .push((name.to_string(), value.to_string()));
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
