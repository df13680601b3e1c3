//! Per-language tables: which syntax nodes are definitions, of what kind,
//! and where their names are.
//!
//! Each language is one `match` on node kinds (the names in the grammar's
//! `node-types.json`). The walk itself, naming within classes and the
//! line arithmetic live in the parent module.

use std::borrow::Cow;

use tree_sitter::Node;

use super::DefKind;
use crate::lang::Lang;

/// The grammar for a language. Plain Lua uses the Luau grammar: Luau is a
/// superset of Lua 5.1 (Lua 5.3 bitwise operators and 5.2 `goto` are not
/// parsed, and recovery keeps the definitions around them).
pub(crate) fn grammar(lang: Lang) -> tree_sitter::Language {
    let function = match lang {
        Lang::Rust => tree_sitter_rust::LANGUAGE,
        Lang::Python => tree_sitter_python::LANGUAGE,
        Lang::JavaScript => tree_sitter_javascript::LANGUAGE,
        Lang::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT,
        Lang::Tsx => tree_sitter_typescript::LANGUAGE_TSX,
        Lang::Go => tree_sitter_go::LANGUAGE,
        Lang::Ruby => tree_sitter_ruby::LANGUAGE,
        Lang::Java => tree_sitter_java::LANGUAGE,
        Lang::Kotlin => tree_sitter_kotlin_ng::LANGUAGE,
        Lang::CSharp => tree_sitter_c_sharp::LANGUAGE,
        Lang::C => tree_sitter_c::LANGUAGE,
        Lang::Cpp => tree_sitter_cpp::LANGUAGE,
        Lang::Php => tree_sitter_php::LANGUAGE_PHP,
        Lang::Lua | Lang::Luau => tree_sitter_luau::LANGUAGE,
        Lang::Swift => tree_sitter_swift::LANGUAGE,
        Lang::Scala => tree_sitter_scala::LANGUAGE,
        Lang::Elixir => tree_sitter_elixir::LANGUAGE,
        Lang::Haskell => tree_sitter_haskell::LANGUAGE,
        Lang::Zig => tree_sitter_zig::LANGUAGE,
        Lang::Bash => tree_sitter_bash::LANGUAGE,
        Lang::Dart => tree_sitter_dart::LANGUAGE,
    };
    function.into()
}

/// What a definition is for the definitions inside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Scope {
    /// A class-like body: functions inside are methods, and names inside
    /// are qualified by this definition's name.
    Members,
    /// A function body (or a constant's value): functions inside are plain
    /// nested functions; constants, properties and functions held in
    /// variables inside are locals, not definitions.
    Body,
    /// A namespace or module: changes nothing for what is inside.
    Transparent,
}

/// A node recognised as a definition, before it is named in context.
pub(super) struct Spec<'t> {
    /// The kind; a `Function` directly inside a `Members` scope becomes a
    /// `Method`.
    pub kind: DefKind,
    /// The node holding the name: its text is the name unless `text` says
    /// otherwise, and its first line is the definition's name line.
    pub name: Node<'t>,
    /// The name, when it is not the text of `name` (`impl Display for Foo`).
    pub text: Option<String>,
    /// The unqualified name, when it is not the last segment of the name.
    pub short: Option<String>,
    /// The name is already qualified (`Foo::bar`, `M.f`, a Go receiver):
    /// the enclosing class does not prefix it.
    pub qualified: bool,
    /// The separator between the owner and this name, when not the
    /// language's usual one (Ruby `def self.x` is `Foo.x`, not `Foo#x`).
    pub separator: Option<&'static str>,
    /// Prefix for members' names, when not this definition's own name.
    pub owner: Option<String>,
    pub scope: Scope,
    /// Counts only outside function bodies (constants, properties,
    /// functions held in variables).
    pub outside_bodies: bool,
    /// A function held in a variable (`const f = () => ...`): inside a
    /// body it is a local, yet the code graph counts it as a definition.
    pub local_function: bool,
    /// The definition runs to the end of its parent, not of its own node
    /// (C# `namespace X;`, PHP `namespace X;` without braces).
    pub to_parent_end: bool,
}

impl<'t> Spec<'t> {
    fn new(kind: DefKind, name: Node<'t>) -> Spec<'t> {
        let scope = if kind.has_members() {
            Scope::Members
        } else if kind == DefKind::Module {
            Scope::Transparent
        } else {
            Scope::Body
        };
        Spec {
            kind,
            name,
            text: None,
            short: None,
            qualified: false,
            separator: None,
            owner: None,
            scope,
            outside_bodies: matches!(kind, DefKind::Constant | DefKind::Property),
            local_function: false,
            to_parent_end: false,
        }
    }

    /// A binding at file level (a module's `const`, a Python module's
    /// assignment, a Go `var`): a definition whose initializer is its
    /// range and names nothing inside it (`api.get` in `const api = {
    /// get() {} }` is named by the object, not by this frame).
    fn binding(kind: DefKind, name: Node<'t>) -> Spec<'t> {
        let mut spec = Spec::new(kind, name);
        spec.scope = Scope::Transparent;
        spec.outside_bodies = true;
        spec
    }

    /// A block that adds to a type declared elsewhere (Rust `impl`, Swift
    /// `extension`, Haskell `instance`), titled `text` and named for
    /// `base`, the type: its members are `base`'s.
    fn extending(name: Node<'t>, text: String, base: String) -> Spec<'t> {
        let mut spec = Spec::new(DefKind::Impl, name).qualified();
        spec.text = Some(text);
        spec.short = Some(base.clone());
        spec.owner = Some(base);
        spec
    }

    fn qualified(mut self) -> Self {
        self.qualified = true;
        self
    }

    fn outside_bodies(mut self) -> Self {
        self.outside_bodies = true;
        self
    }
}

/// A definition named by its `name` field.
fn by_name(node: Node, kind: DefKind) -> Option<Spec> {
    Some(Spec::new(kind, node.child_by_field_name("name")?))
}

/// The definition `node` stands for, if any. Only named nodes are passed.
pub(super) fn classify<'t>(lang: Lang, node: Node<'t>, src: &[u8]) -> Option<Spec<'t>> {
    match lang {
        Lang::Rust => rust(node, src),
        Lang::Python => python(node, src),
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => javascript(node, src),
        Lang::Go => go(node, src),
        Lang::Ruby => ruby(node, src),
        Lang::Java => java(node),
        Lang::Kotlin => kotlin(node, src),
        Lang::CSharp => csharp(node, src),
        Lang::C | Lang::Cpp => c_family(node, src),
        Lang::Php => php(node),
        Lang::Lua | Lang::Luau => lua(node),
        Lang::Swift => swift(node, src),
        Lang::Scala => scala(node, src),
        Lang::Elixir => elixir(node, src),
        Lang::Haskell => haskell(node, src),
        Lang::Zig => zig(node, src),
        Lang::Bash => bash(node, src),
        Lang::Dart => dart(node, src),
    }
}

fn rust<'t>(node: Node<'t>, src: &[u8]) -> Option<Spec<'t>> {
    let kind = match node.kind() {
        "function_item" | "function_signature_item" => DefKind::Function,
        "struct_item" | "union_item" => DefKind::Struct,
        "enum_item" => DefKind::Enum,
        "trait_item" => DefKind::Trait,
        "mod_item" => DefKind::Module,
        "type_item" => DefKind::Type,
        "macro_definition" => DefKind::Macro,
        "const_item" | "static_item" => DefKind::Constant,
        "impl_item" => {
            let ty = node.child_by_field_name("type")?;
            let base = rust_base_type(ty, src);
            let text = match node.child_by_field_name("trait") {
                Some(tr) => format!("impl {} for {}", text(tr, src), text(ty, src)),
                None => format!("impl {}", text(ty, src)),
            };
            return Some(Spec::extending(ty, text, base));
        }
        _ => return None,
    };
    by_name(node, kind)
}

/// `Foo` for `Foo<T>`, `a::Foo`, `&Foo`, `&mut a::Foo<T>`.
fn rust_base_type(mut ty: Node, src: &[u8]) -> String {
    loop {
        let inner = match ty.kind() {
            "generic_type" => ty.child_by_field_name("type"),
            "scoped_type_identifier" => ty.child_by_field_name("name"),
            "reference_type" | "pointer_type" => ty.child_by_field_name("type"),
            _ => None,
        };
        match inner {
            Some(inner) => ty = inner,
            None => return text(ty, src),
        }
    }
}

fn python<'t>(node: Node<'t>, src: &[u8]) -> Option<Spec<'t>> {
    match node.kind() {
        "function_definition" => by_name(node, DefKind::Function),
        "class_definition" => by_name(node, DefKind::Class),
        // `NAMESPACE = "x"`, `LEVELS: dict[str, int] = {...}`, `log =
        // logging.getLogger(...)` at module level, also under a module-level
        // `if`, `try` or `with`; not in a class or a function, not a tuple.
        "assignment" => {
            let name = node.child_by_field_name("left")?;
            if name.kind() != "identifier" || !python_module_level(node) {
                return None;
            }
            Some(Spec::binding(constant_by_case(text(name, src)), name))
        }
        _ => None,
    }
}

/// Whether a Python assignment stands at module level: its statement is
/// the module's, or inside blocks of module-level `if`, `try`, `with`.
fn python_module_level(assignment: Node) -> bool {
    let Some(mut at) = assignment
        .parent()
        .filter(|p| p.kind() == "expression_statement")
    else {
        return false;
    };
    while let Some(parent) = at.parent() {
        match parent.kind() {
            "module" => return true,
            "block" | "if_statement" | "elif_clause" | "else_clause" | "try_statement"
            | "except_clause" | "finally_clause" | "with_statement" => at = parent,
            _ => return false,
        }
    }
    false
}

/// A constant when spelled as one (`MAX_SIZE`, `NAMESPACE`), else a
/// variable: the language does not say, its convention does.
fn constant_by_case(name: String) -> DefKind {
    let upper = name.bytes().any(|b| b.is_ascii_uppercase());
    if upper && !name.bytes().any(|b| b.is_ascii_lowercase()) {
        DefKind::Constant
    } else {
        DefKind::Variable
    }
}

/// JavaScript, TypeScript and TSX (the TypeScript grammars extend the
/// JavaScript one, so one table serves all three).
fn javascript<'t>(node: Node<'t>, src: &[u8]) -> Option<Spec<'t>> {
    let is_function_value = |value: Option<Node>| {
        value.is_some_and(|v| {
            matches!(
                v.kind(),
                "arrow_function" | "function_expression" | "function" | "generator_function"
            )
        })
    };
    match node.kind() {
        "function_declaration" | "generator_function_declaration" | "function_signature" => {
            by_name(node, DefKind::Function)
        }
        "class_declaration" | "abstract_class_declaration" => by_name(node, DefKind::Class),
        "method_definition" => {
            let spec = by_name(node, DefKind::Method)?;
            // A method of an object literal inside a function is a local.
            match node.parent().filter(|p| p.kind() == "object") {
                Some(object) => Some(object_member(spec, object, src).outside_bodies()),
                None => Some(spec),
            }
        }
        "method_signature" | "abstract_method_signature" => by_name(node, DefKind::Method),
        "interface_declaration" => by_name(node, DefKind::Interface),
        "type_alias_declaration" => by_name(node, DefKind::Type),
        "enum_declaration" => by_name(node, DefKind::Enum),
        "internal_module" | "module" => by_name(node, DefKind::Module),
        "variable_declarator" => {
            let name = node.child_by_field_name("name")?;
            if name.kind() != "identifier" {
                return None;
            }
            let value = node.child_by_field_name("value");
            let kind = if is_function_value(value) {
                DefKind::Function
            } else if value.is_some_and(|v| v.kind() == "class") {
                DefKind::Class
            } else {
                return script_binding(node, name, value, src);
            };
            let mut spec = Spec::new(kind, name).outside_bodies();
            spec.local_function = kind == DefKind::Function;
            Some(spec)
        }
        "public_field_definition" | "field_definition" => {
            let name = node
                .child_by_field_name("name")
                .or_else(|| node.child_by_field_name("property"))?;
            if !is_function_value(node.child_by_field_name("value")) {
                return None;
            }
            Some(Spec::new(DefKind::Method, name))
        }
        "pair" => {
            let key = node.child_by_field_name("key")?;
            if key.kind() != "property_identifier"
                || !is_function_value(node.child_by_field_name("value"))
            {
                return None;
            }
            let spec = Spec::new(DefKind::Method, key).outside_bodies();
            Some(match node.parent().filter(|p| p.kind() == "object") {
                Some(object) => object_member(spec, object, src),
                None => spec,
            })
        }
        "assignment_expression" => {
            // `Foo.prototype.bar = function () {}`, `exports.f = () => {}`,
            // `this.parse = function (s) {}` in a constructor function,
            // `$scope.save = async function () {}` in a controller: a
            // function stored under a member's name is defined there,
            // wherever the assignment stands. `exports.x = 1` is a
            // definition too (the module's own), at the top level.
            let left = node.child_by_field_name("left")?;
            let function = is_function_value(node.child_by_field_name("right"));
            match left.kind() {
                "identifier" if function => Some(
                    Spec::new(DefKind::Function, left)
                        .qualified()
                        .outside_bodies(),
                ),
                "member_expression" => {
                    let object = left.child_by_field_name("object")?;
                    let property = left.child_by_field_name("property")?;
                    if object.kind() == "this" && function {
                        return Some(Spec::new(DefKind::Method, property));
                    }
                    let on_prototype = object
                        .child_by_field_name("property")
                        .is_some_and(|p| &src[p.byte_range()] == b"prototype");
                    let exported =
                        matches!(&src[object.byte_range()], b"exports" | b"module.exports");
                    let kind = match (function, on_prototype) {
                        (true, true) => DefKind::Method,
                        (true, false) => DefKind::Function,
                        (false, _) if exported => {
                            return Some(Spec::new(DefKind::Constant, left).qualified())
                        }
                        (false, _) => return None,
                    };
                    Some(Spec::new(kind, left).qualified())
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// A module's own binding: `export const Action = {...}`, `const Ctx =
/// createContext(...)`, `let count = 0`, `declare const VERSION: string`,
/// directly in the module (not in a block, a function or a namespace). A
/// `require(...)` brings a name in, as `import` does: not a definition.
fn script_binding<'t>(
    declarator: Node<'t>,
    name: Node<'t>,
    value: Option<Node>,
    src: &[u8],
) -> Option<Spec<'t>> {
    let declaration = declarator.parent()?;
    let mut at = declaration.parent()?;
    while matches!(at.kind(), "export_statement" | "ambient_declaration") {
        at = at.parent()?;
    }
    if at.kind() != "program" {
        return None;
    }
    if value.is_some_and(|v| src[v.byte_range()].starts_with(b"require(")) {
        return None;
    }
    let constant = declaration.kind() == "lexical_declaration"
        && declaration
            .child(0)
            .is_some_and(|keyword| keyword.kind() == "const");
    let kind = if constant {
        DefKind::Constant
    } else {
        DefKind::Variable
    };
    Some(Spec::binding(kind, name))
}

/// A method of an object literal, named after the object where the object
/// has a name: `api.get` for `const api = { get() {} }`, `actionZoom.perform`
/// for `const actionZoom = register({ perform: () => {} })`,
/// `module.exports.helper` for `module.exports = { helper() {} }`,
/// `actions.pan.start` for `const actions = { pan: { start() {} } }`. A
/// method named by a string or a computed key keeps its bare name, as does
/// one in an object [`object_name`] cannot name.
fn object_member<'t>(mut spec: Spec<'t>, object: Node<'t>, src: &[u8]) -> Spec<'t> {
    if spec.name.kind() != "property_identifier" {
        return spec;
    }
    if let Some(owner) = object_name(object, src) {
        let short = text(spec.name, src);
        spec.text = Some(format!("{owner}.{short}"));
        spec.short = Some(short);
        spec.qualified = true;
    }
    spec
}

/// Keys of nested objects a name climbs through, at most; past them the
/// method keeps its bare name.
const OBJECT_DEPTH: usize = 8;

/// The name an object literal is known by: the variable or property it is
/// assigned to, directly, as the one argument of a call or `new`
/// (`register({…})`, which hands the object back), through `as`,
/// `satisfies`, `!` or parentheses, or as the value of a key of an outer
/// object that has such a name (`actions.pan` in `const actions = { pan:
/// {…} }`). Anything else (an awaited call's result, a second argument, an
/// object no variable holds) gives no name: a guessed owner would mislead.
fn object_name(object: Node, src: &[u8]) -> Option<String> {
    let mut keys: Vec<String> = Vec::new();
    let mut at = object.parent()?;
    let owner = loop {
        match at.kind() {
            "as_expression"
            | "satisfies_expression"
            | "parenthesized_expression"
            | "type_assertion"
            | "non_null_expression" => at = at.parent()?,
            "arguments" if at.named_child_count() == 1 => {
                at = at
                    .parent()
                    .filter(|c| matches!(c.kind(), "call_expression" | "new_expression"))?
                    .parent()?;
            }
            "pair" if keys.len() < OBJECT_DEPTH => {
                let key = at
                    .child_by_field_name("key")
                    .filter(|k| k.kind() == "property_identifier")?;
                keys.push(text(key, src));
                at = at.parent().filter(|o| o.kind() == "object")?.parent()?;
            }
            "variable_declarator" => break plain_path(at.child_by_field_name("name")?, src)?,
            "assignment_expression" => break plain_path(at.child_by_field_name("left")?, src)?,
            _ => return None,
        }
    };
    Some(
        keys.into_iter()
            .rev()
            .fold(owner, |path, key| format!("{path}.{key}")),
    )
}

/// The text of an identifier or of a chain of them (`module.exports`,
/// `this.state`); `None` for anything else (`(window as any).app`,
/// `a[0]`), which would make a name no one types.
fn plain_path(node: Node, src: &[u8]) -> Option<String> {
    let path = text(node, src);
    let plain = path.split('.').all(|part| {
        !part.is_empty()
            && part
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
    });
    (matches!(node.kind(), "identifier" | "member_expression") && plain).then_some(path)
}

fn go<'t>(node: Node<'t>, src: &[u8]) -> Option<Spec<'t>> {
    match node.kind() {
        "function_declaration" => by_name(node, DefKind::Function),
        "method_declaration" => {
            let name = node.child_by_field_name("name")?;
            let mut spec = Spec::new(DefKind::Method, name);
            if let Some(receiver) = go_receiver(node, src) {
                spec.text = Some(format!("{receiver}.{}", text(name, src)));
                spec.short = Some(text(name, src));
            }
            Some(spec.qualified())
        }
        "method_elem" => by_name(node, DefKind::Method),
        "type_spec" | "type_alias" => {
            let kind = match node.child_by_field_name("type").map(|t| t.kind()) {
                Some("struct_type") => DefKind::Struct,
                Some("interface_type") => DefKind::Interface,
                _ => DefKind::Type,
            };
            by_name(node, kind)
        }
        "const_spec" => by_name(node, DefKind::Constant),
        // `var Pool = sync.Pool{...}`, also in a `var (...)` group, at
        // package level.
        "var_spec" => {
            let mut declaration = node.parent()?;
            if declaration.kind() == "var_spec_list" {
                declaration = declaration.parent()?;
            }
            if declaration.parent()?.kind() != "source_file" {
                return None;
            }
            Some(Spec::binding(
                DefKind::Variable,
                node.child_by_field_name("name")?,
            ))
        }
        _ => None,
    }
}

/// The receiver's type name: `Server` for `(s *Server)`, `List` for
/// `(l List[T])`.
fn go_receiver(method: Node, src: &[u8]) -> Option<String> {
    let receiver = method.child_by_field_name("receiver")?;
    let mut cursor = receiver.walk();
    let param = receiver
        .named_children(&mut cursor)
        .find(|c| c.kind() == "parameter_declaration")?;
    let mut ty = param.child_by_field_name("type")?;
    loop {
        ty = match ty.kind() {
            "pointer_type" => ty.named_child(0)?,
            "generic_type" => ty.child_by_field_name("type")?,
            "parenthesized_type" => ty.named_child(0)?,
            _ => return Some(text(ty, src)),
        };
    }
}

fn ruby<'t>(node: Node<'t>, src: &[u8]) -> Option<Spec<'t>> {
    match node.kind() {
        "method" => {
            let mut spec = by_name(node, DefKind::Function)?;
            // `class << self; def x` defines a singleton method, like `def self.x`.
            let mut parent = node.parent();
            if parent.is_some_and(|p| p.kind() == "body_statement") {
                parent = parent.and_then(|p| p.parent());
            }
            if parent.is_some_and(|p| p.kind() == "singleton_class") {
                spec.separator = Some(".");
            }
            Some(spec)
        }
        "singleton_method" => {
            let mut spec = by_name(node, DefKind::Method)?;
            let object = node.child_by_field_name("object")?;
            let object = text(object, src);
            if object == "self" {
                spec.separator = Some(".");
            } else {
                spec.text = Some(format!("{object}.{}", text(spec.name, src)));
                spec.short = Some(text(spec.name, src));
                spec = spec.qualified();
            }
            Some(spec)
        }
        "class" => by_name(node, DefKind::Class),
        // `VERSION = "1.0"`, `DEFAULTS = {...}` in a file, class or module.
        "assignment" => {
            let left = node.child_by_field_name("left")?;
            (left.kind() == "constant").then(|| Spec::binding(DefKind::Constant, left))
        }
        "module" => {
            let mut spec = by_name(node, DefKind::Module)?;
            // Methods of a Ruby module are its members (mixins).
            spec.scope = Scope::Members;
            Some(spec)
        }
        _ => None,
    }
}

fn java(node: Node) -> Option<Spec> {
    let kind = match node.kind() {
        "class_declaration" | "record_declaration" => DefKind::Class,
        "interface_declaration" | "annotation_type_declaration" => DefKind::Interface,
        "enum_declaration" => DefKind::Enum,
        "method_declaration" | "constructor_declaration" | "compact_constructor_declaration" => {
            DefKind::Method
        }
        _ => return None,
    };
    by_name(node, kind)
}

fn kotlin<'t>(node: Node<'t>, src: &[u8]) -> Option<Spec<'t>> {
    match node.kind() {
        "class_declaration" => {
            let mut kind = DefKind::Class;
            let mut cursor = node.walk();
            for child in node.children(&mut cursor) {
                match child.kind() {
                    "interface" => kind = DefKind::Interface,
                    "modifiers" if text(child, src).split(' ').any(|m| m == "enum") => {
                        kind = DefKind::Enum;
                    }
                    _ => {}
                }
            }
            by_name(node, kind)
        }
        "object_declaration" => by_name(node, DefKind::Class),
        "function_declaration" => by_name(node, DefKind::Function),
        "secondary_constructor" => {
            let keyword = first_child_of_kind(node, "constructor")?;
            Some(Spec::new(DefKind::Method, keyword))
        }
        "property_declaration" => {
            let variable = first_child_of_kind(node, "variable_declaration")?;
            let name = first_child_of_kind(variable, "identifier")?;
            let constant = first_child_of_kind(node, "modifiers")
                .is_some_and(|m| text(m, src).split(' ').any(|m| m == "const"));
            let kind = if constant {
                DefKind::Constant
            } else {
                DefKind::Property
            };
            Some(Spec::new(kind, name))
        }
        // The grammar files the alias's name under `type`, its first child
        // of that field.
        "type_alias" => Some(Spec::new(DefKind::Type, node.child_by_field_name("type")?)),
        _ => None,
    }
}

fn csharp<'t>(node: Node<'t>, src: &[u8]) -> Option<Spec<'t>> {
    let kind = match node.kind() {
        "namespace_declaration" => DefKind::Module,
        "file_scoped_namespace_declaration" => {
            let mut spec = by_name(node, DefKind::Module)?;
            spec.to_parent_end = true;
            return Some(spec);
        }
        "class_declaration" | "record_declaration" => DefKind::Class,
        "struct_declaration" => DefKind::Struct,
        "interface_declaration" => DefKind::Interface,
        "enum_declaration" => DefKind::Enum,
        "method_declaration" | "constructor_declaration" => DefKind::Method,
        "destructor_declaration" => {
            let name = node.child_by_field_name("name")?;
            let mut spec = Spec::new(DefKind::Method, name);
            spec.text = Some(format!("~{}", text(name, src)));
            return Some(spec);
        }
        "local_function_statement" => DefKind::Function,
        "property_declaration" => DefKind::Property,
        "delegate_declaration" => DefKind::Type,
        "operator_declaration" | "conversion_operator_declaration" => {
            let field = if node.kind() == "operator_declaration" {
                "operator"
            } else {
                "type"
            };
            let operator = node.child_by_field_name(field)?;
            let mut spec = Spec::new(DefKind::Method, operator);
            spec.text = Some(format!("operator {}", text(operator, src)));
            spec.short = Some("operator".to_string());
            return Some(spec);
        }
        _ => return None,
    };
    by_name(node, kind)
}

/// C and C++ (the C++ grammar extends the C one).
fn c_family<'t>(node: Node<'t>, src: &[u8]) -> Option<Spec<'t>> {
    match node.kind() {
        "declaration" => c_global(node, src),
        "function_definition" => {
            let name = declarator_name(node.child_by_field_name("declarator")?)?;
            let spec = Spec::new(DefKind::Function, name);
            // `void Foo::bar() {}`: a method defined out of its class.
            Some(if name.kind() == "qualified_identifier" {
                let mut spec = spec.qualified();
                spec.kind = DefKind::Method;
                spec
            } else {
                spec
            })
        }
        "struct_specifier" | "union_specifier" | "class_specifier" | "enum_specifier" => {
            node.child_by_field_name("body")?;
            let kind = match node.kind() {
                "class_specifier" => DefKind::Class,
                "enum_specifier" => DefKind::Enum,
                _ => DefKind::Struct,
            };
            by_name(node, kind)
        }
        "type_definition" => {
            let name = declarator_name(node.child_by_field_name("declarator")?)?;
            Some(Spec::new(DefKind::Type, name))
        }
        "alias_declaration" | "concept_definition" => by_name(node, DefKind::Type),
        "namespace_definition" => by_name(node, DefKind::Module),
        "preproc_def" | "preproc_function_def" => by_name(node, DefKind::Macro),
        _ => None,
    }
}

/// A variable defined at file or namespace level: `static const int X =
/// 1;`, `int counter;`, `char *names[] = {...};` (the first declarator's
/// name). Not: `extern` declarations and prototypes, which define nothing.
fn c_global<'t>(node: Node<'t>, src: &[u8]) -> Option<Spec<'t>> {
    let parent = node.parent()?;
    let at_file_level = match parent.kind() {
        "translation_unit" => true,
        "declaration_list" => parent
            .parent()
            .is_some_and(|p| matches!(p.kind(), "namespace_definition" | "linkage_specification")),
        _ => false,
    };
    if !at_file_level {
        return None;
    }
    let mut constant = false;
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        match (child.kind(), &src[child.byte_range()]) {
            ("storage_class_specifier", b"extern") => return None,
            ("type_qualifier", b"const" | b"constexpr") => constant = true,
            _ => {}
        }
    }
    let mut declarator = node.child_by_field_name("declarator")?;
    if declarator.kind() == "init_declarator" {
        declarator = declarator.child_by_field_name("declarator")?;
    }
    let mut inner = declarator;
    while let Some(next) = inner.child_by_field_name("declarator") {
        if inner.kind() == "function_declarator" {
            return None;
        }
        inner = next;
    }
    if inner.kind() != "identifier" || declarator.kind() == "function_declarator" {
        return None;
    }
    let kind = if constant {
        DefKind::Constant
    } else {
        DefKind::Variable
    };
    Some(Spec::binding(kind, inner))
}

/// The name at the bottom of a C/C++ declarator chain: `foo` in
/// `*(*foo)(int)`, `Foo::bar` in `Foo::bar(int) const`.
fn declarator_name(mut declarator: Node) -> Option<Node> {
    loop {
        match declarator.kind() {
            "function_declarator"
            | "pointer_declarator"
            | "reference_declarator"
            | "array_declarator"
            | "parenthesized_declarator"
            | "attributed_declarator" => {
                declarator = declarator
                    .child_by_field_name("declarator")
                    .or_else(|| declarator.named_child(0))?;
            }
            "identifier"
            | "field_identifier"
            | "type_identifier"
            | "qualified_identifier"
            | "destructor_name"
            | "operator_name"
            | "template_function"
            | "primitive_type" => {
                return Some(declarator);
            }
            _ => return None,
        }
    }
}

fn php(node: Node) -> Option<Spec> {
    let kind = match node.kind() {
        "function_definition" => DefKind::Function,
        "method_declaration" => DefKind::Method,
        "class_declaration" => DefKind::Class,
        "interface_declaration" => DefKind::Interface,
        "trait_declaration" => DefKind::Trait,
        "enum_declaration" => DefKind::Enum,
        "namespace_definition" => {
            let mut spec = by_name(node, DefKind::Module)?;
            spec.to_parent_end = node.child_by_field_name("body").is_none();
            return Some(spec);
        }
        // `const X = 1;` in a file or a class (`A::X`).
        "const_element" => {
            let name = first_child_of_kind(node, "name")?;
            return Some(Spec::binding(DefKind::Constant, name));
        }
        _ => return None,
    };
    by_name(node, kind)
}

/// Lua and Luau (one grammar).
fn lua(node: Node) -> Option<Spec> {
    match node.kind() {
        "function_declaration" => {
            let name = node.child_by_field_name("name")?;
            Some(match name.kind() {
                "method_index_expression" => {
                    let mut spec = Spec::new(DefKind::Method, name).qualified();
                    spec.kind = DefKind::Method;
                    spec
                }
                _ => Spec::new(DefKind::Function, name).qualified(),
            })
        }
        "assignment_statement" => {
            // `M.f = function() end`, `local f = function() end`.
            let names = first_child_of_kind(node, "variable_list")?;
            let values = first_child_of_kind(node, "expression_list")?;
            if names.named_child_count() != 1 {
                return None;
            }
            let name = names.named_child(0)?;
            if values.named_child(0)?.kind() != "function_definition" {
                // `local M = {}`, `VERSION = "1.0"`, `M.x = 1` in the chunk.
                let mut at = node.parent()?;
                if at.kind() == "variable_declaration" {
                    at = at.parent()?;
                }
                // A chunk the parser could not finish holds its statements
                // in an error node (the root, when nothing else parsed).
                if at.is_error() {
                    match at.parent() {
                        Some(parent) => at = parent,
                        None => return Some(Spec::binding(DefKind::Variable, name).qualified()),
                    }
                }
                return (at.kind() == "chunk")
                    .then(|| Spec::binding(DefKind::Variable, name).qualified());
            }
            Some(
                Spec::new(DefKind::Function, name)
                    .qualified()
                    .outside_bodies(),
            )
        }
        "type_definition" => {
            let name = node.child_by_field_name("name")?;
            let name = if name.kind() == "generic_type" {
                name.named_child(0)?
            } else {
                name
            };
            Some(Spec::new(DefKind::Type, name))
        }
        _ => None,
    }
}

/// Swift: one `class_declaration` node holds classes, structs, enums,
/// actors and extensions, told apart by its `declaration_kind` token.
/// Properties are definitions in a type or at file level (`let` a
/// constant, `var` a variable there), locals in a function. Enum cases
/// are not definitions, as enum variants are not elsewhere.
fn swift<'t>(node: Node<'t>, src: &[u8]) -> Option<Spec<'t>> {
    match node.kind() {
        "class_declaration" => {
            let keyword = node.child_by_field_name("declaration_kind")?;
            let kind = match keyword.kind() {
                "struct" => DefKind::Struct,
                "enum" => DefKind::Enum,
                "extension" => {
                    // `extension Foo: P { ... }` adds to Foo: its members
                    // are Foo's, as those of a Rust `impl Foo`.
                    let ty = node.child_by_field_name("name")?;
                    let base = last_segment(&text(ty, src)).to_string();
                    let title = format!("extension {}", text(ty, src));
                    return Some(Spec::extending(ty, title, base));
                }
                _ => DefKind::Class,
            };
            by_name(node, kind)
        }
        "protocol_declaration" => by_name(node, DefKind::Interface),
        "function_declaration" | "protocol_function_declaration" => {
            by_name(node, DefKind::Function)
        }
        "init_declaration" | "deinit_declaration" | "subscript_declaration" => {
            let mut cursor = node.walk();
            let keyword = node
                .children(&mut cursor)
                .find(|c| matches!(c.kind(), "init" | "deinit" | "subscript"));
            Some(Spec::new(DefKind::Function, keyword?))
        }
        "typealias_declaration" | "associatedtype_declaration" => by_name(node, DefKind::Type),
        "macro_declaration" => Some(Spec::new(
            DefKind::Macro,
            first_child_of_kind(node, "simple_identifier")?,
        )),
        "property_declaration" | "protocol_property_declaration" => {
            let pattern = node.child_by_field_name("name")?;
            let name = pattern.child_by_field_name("bound_identifier")?;
            if node.parent().is_some_and(|p| p.kind() == "source_file") {
                let binding = first_child_of_kind(node, "value_binding_pattern")?;
                let kind = if text(binding, src) == "let" {
                    DefKind::Constant
                } else {
                    DefKind::Variable
                };
                return Some(Spec::binding(kind, name));
            }
            Some(Spec::new(DefKind::Property, name))
        }
        _ => None,
    }
}

/// Scala 2 and 3. `object` is a class-like definition, as Kotlin's is. A
/// `val` or `var` is a property in a template (class, trait, object), a
/// binding at file level and a local in a body; `given` instances count
/// as `val`s. A package clause without braces holds the rest of the file.
fn scala<'t>(node: Node<'t>, src: &[u8]) -> Option<Spec<'t>> {
    match node.kind() {
        "class_definition" | "object_definition" => by_name(node, DefKind::Class),
        "trait_definition" => by_name(node, DefKind::Trait),
        "enum_definition" => by_name(node, DefKind::Enum),
        "package_object" => {
            let mut spec = by_name(node, DefKind::Module)?;
            spec.scope = Scope::Members;
            Some(spec)
        }
        "function_definition" | "function_declaration" => by_name(node, DefKind::Function),
        "type_definition" => by_name(node, DefKind::Type),
        "package_clause" => {
            let mut spec = by_name(node, DefKind::Module)?;
            spec.short = Some(text(spec.name, src));
            spec.to_parent_end = node.child_by_field_name("body").is_none();
            Some(spec)
        }
        "val_definition" | "var_definition" | "val_declaration" | "var_declaration"
        | "given_definition" => {
            let name = node
                .child_by_field_name("name")
                .or_else(|| node.child_by_field_name("pattern"))
                .filter(|n| n.kind() == "identifier")?;
            if node
                .parent()
                .is_some_and(|p| p.kind() == "compilation_unit")
            {
                let kind = if node.kind().starts_with("var") {
                    DefKind::Variable
                } else {
                    DefKind::Constant
                };
                return Some(Spec::binding(kind, name));
            }
            Some(Spec::new(DefKind::Property, name))
        }
        _ => None,
    }
}

/// Module attributes that are the language's own (`@doc`, `@spec`, ...):
/// uses, not constants the module defines.
const ELIXIR_ATTRIBUTES: &[&str] = &[
    "moduledoc",
    "doc",
    "typedoc",
    "spec",
    "impl",
    "behaviour",
    "derive",
    "callback",
    "macrocallback",
    "optional_callbacks",
    "before_compile",
    "after_compile",
    "after_verify",
    "on_definition",
    "on_load",
    "compile",
    "deprecated",
    "dialyzer",
    "enforce_keys",
    "external_resource",
    "file",
    "vsn",
    "since",
    "nifs",
    "tag",
    "moduletag",
    "describetag",
];

/// Elixir, whose grammar sees every definition as a call: `defmodule`
/// and `defprotocol` hold their functions (named `Mod.fun`, as Elixir
/// spells them), `def`, `defp`, `defdelegate`, `defguard` and Nx's `defn`
/// are functions, `defmacro` macros, `@type` types and other module
/// attributes (`@timeout 5_000`) constants. A function's clauses are one
/// definition (`merge_clauses`).
fn elixir<'t>(node: Node<'t>, src: &[u8]) -> Option<Spec<'t>> {
    match node.kind() {
        "call" => {
            let target = node.child_by_field_name("target")?;
            let keyword = &src[target.byte_range()];
            // Most calls are not definitions: only `def...` is looked into.
            if target.kind() != "identifier" || !keyword.starts_with(b"def") {
                return None;
            }
            let arguments = first_child_of_kind(node, "arguments")?;
            let first = arguments.named_child(0)?;
            let kind = match keyword {
                b"defmodule" | b"defprotocol" => {
                    if first.kind() != "alias" {
                        return None;
                    }
                    let kind = if keyword == b"defprotocol" {
                        DefKind::Interface
                    } else {
                        DefKind::Module
                    };
                    let mut spec = Spec::new(kind, first);
                    spec.scope = Scope::Members;
                    return Some(spec);
                }
                b"defimpl" => {
                    let protocol = text(first, src);
                    let target = elixir_keyword(arguments, "for", src);
                    let mut spec = Spec::new(DefKind::Impl, first).qualified();
                    spec.text = Some(match &target {
                        Some(target) => format!("defimpl {protocol} for {target}"),
                        None => format!("defimpl {protocol}"),
                    });
                    spec.short = Some(last_segment(target.as_deref().unwrap_or(&protocol)).into());
                    spec.owner = Some(match &target {
                        Some(target) => format!("{protocol}.{target}"),
                        None => protocol,
                    });
                    return Some(spec);
                }
                b"def" | b"defp" | b"defdelegate" | b"defguard" | b"defguardp" | b"defn"
                | b"defnp" => DefKind::Function,
                b"defmacro" | b"defmacrop" => DefKind::Macro,
                _ => return None,
            };
            Some(Spec::new(kind, elixir_head_name(first)?))
        }
        // `@type t :: ...`, `@timeout 5_000`.
        "unary_operator" => {
            let operand = node.child_by_field_name("operand")?;
            if src.get(node.start_byte()) != Some(&b'@') || operand.kind() != "call" {
                return None;
            }
            let attribute = operand.child_by_field_name("target")?;
            let name = text(attribute, src);
            let arguments = first_child_of_kind(operand, "arguments")?;
            match name.as_str() {
                "type" | "typep" | "opaque" => {
                    let head = arguments.named_child(0)?;
                    let head = if head.kind() == "binary_operator" {
                        head.child_by_field_name("left")?
                    } else {
                        head
                    };
                    Some(Spec::new(DefKind::Type, elixir_head_name(head)?))
                }
                _ if ELIXIR_ATTRIBUTES.contains(&name.as_str()) => None,
                _ => Some(Spec::new(DefKind::Constant, attribute)),
            }
        }
        _ => None,
    }
}

/// The name in a definition's head: `f` in `f`, `f(a)`, `f(a) when a > 0`.
fn elixir_head_name(head: Node) -> Option<Node> {
    match head.kind() {
        "identifier" => Some(head),
        "call" => head
            .child_by_field_name("target")
            .filter(|t| t.kind() == "identifier"),
        "binary_operator" => elixir_head_name(head.child_by_field_name("left")?),
        _ => None,
    }
}

/// The value of keyword `key:` among a call's arguments (`for: Foo`).
fn elixir_keyword(arguments: Node, key: &str, src: &[u8]) -> Option<String> {
    let keywords = first_child_of_kind(arguments, "keywords")?;
    let mut cursor = keywords.walk();
    for pair in keywords.named_children(&mut cursor) {
        let (Some(k), Some(value)) = (
            pair.child_by_field_name("key"),
            pair.child_by_field_name("value"),
        ) else {
            continue;
        };
        if text(k, src).trim_end_matches([':', ' ']) == key {
            return Some(text(value, src));
        }
    }
    None
}

/// Haskell: a function's type signature and its equations are one
/// definition (`merge_clauses`), named on the signature's line. `data`,
/// `newtype`, `type` and type families are types, and a data type's
/// constructors functions (they are, in Haskell). `class` is a class
/// whose signatures are its methods; `instance C T` adds to `T` as a Rust
/// impl does. The module header holds the file. Bindings in `where` and
/// `let` are locals.
fn haskell<'t>(node: Node<'t>, src: &[u8]) -> Option<Spec<'t>> {
    match node.kind() {
        "function" | "signature" => {
            let name = node.child_by_field_name("name")?;
            Some(Spec::new(DefKind::Function, name).outside_bodies())
        }
        // `limit = 100`: a value is a function of no arguments.
        "bind" => {
            let name = node
                .child_by_field_name("name")
                .filter(|n| n.kind() == "variable")?;
            Some(Spec::new(DefKind::Function, name).outside_bodies())
        }
        "data_type" | "newtype" | "type_synonym" | "type_family" | "data_family" => {
            by_name(node, DefKind::Type)
        }
        "data_constructor" | "gadt_constructor" | "newtype_constructor" => {
            let name = match node.kind() {
                "data_constructor" => node
                    .child_by_field_name("constructor")?
                    .child_by_field_name("name")?,
                _ => node.child_by_field_name("name")?,
            };
            Some(Spec::new(DefKind::Function, name).qualified())
        }
        "class" => by_name(node, DefKind::Class),
        "instance" => {
            let class = node.child_by_field_name("name")?;
            let ty = node.child_by_field_name("patterns")?;
            let base = text(ty.named_child(0)?, src);
            let base = last_segment(&base).to_string();
            let title = format!("instance {} {}", text(class, src), text(ty, src));
            Some(Spec::extending(class, title, base))
        }
        "header" => {
            let module = node.child_by_field_name("module")?;
            let mut spec = Spec::new(DefKind::Module, module);
            spec.short = Some(text(module, src));
            spec.to_parent_end = true;
            Some(spec)
        }
        _ => None,
    }
}

/// Zig: types are values bound by `const` (`const Point = struct {...}`),
/// so a binding to a container is that container, named by the binding.
/// Other bindings are constants or variables in a file or a container and
/// locals in a function; `@import` bindings bring names in and are no
/// definitions. A test is a function named by its description (`test
/// "parses"`), so that its lines have a heading. Fields and enum members
/// are not definitions.
fn zig<'t>(node: Node<'t>, src: &[u8]) -> Option<Spec<'t>> {
    match node.kind() {
        "function_declaration" => by_name(node, DefKind::Function),
        "test_declaration" => {
            let mut cursor = node.walk();
            let name = node
                .named_children(&mut cursor)
                .find(|c| matches!(c.kind(), "string" | "identifier"))?;
            let mut spec = Spec::new(DefKind::Function, name);
            spec.text = Some(format!("test {}", text(name, src)));
            spec.short = Some(text(name, src).trim_matches('"').to_string());
            Some(spec)
        }
        "variable_declaration" => {
            let name = first_child_of_kind(node, "identifier")?;
            let mut cursor = node.walk();
            let value = node
                .named_children(&mut cursor)
                .find(|c| c.start_byte() > name.start_byte() && c.kind() != "identifier");
            let kind = match value.map(|v| v.kind()) {
                Some("struct_declaration" | "union_declaration" | "opaque_declaration") => {
                    DefKind::Struct
                }
                Some("enum_declaration") => DefKind::Enum,
                Some("error_set_declaration") => DefKind::Type,
                Some("builtin_function")
                    if value.is_some_and(|v| src[v.byte_range()].starts_with(b"@import")) =>
                {
                    return None;
                }
                _ => {
                    let constant = first_child_of_kind(node, "const").is_some();
                    let kind = if constant {
                        DefKind::Constant
                    } else {
                        DefKind::Variable
                    };
                    return Some(Spec::binding(kind, name));
                }
            };
            Some(Spec::new(kind, name))
        }
        _ => None,
    }
}

/// Bash: functions (`f() {}`, `function f {}`), aliases, and variables
/// assigned at file level (`readonly` ones constants, others by their
/// spelling). Locals and assignments in blocks or before a command
/// (`LANG=C sort`) are not definitions.
fn bash<'t>(node: Node<'t>, src: &[u8]) -> Option<Spec<'t>> {
    match node.kind() {
        "function_definition" => by_name(node, DefKind::Function),
        "variable_assignment" => {
            let name = node
                .child_by_field_name("name")
                .filter(|n| n.kind() == "variable_name")?;
            let mut at = node.parent()?;
            let mut readonly = false;
            if at.kind() == "declaration_command" {
                let keyword = at.child(0)?;
                match &src[keyword.byte_range()] {
                    b"local" => return None,
                    b"readonly" => readonly = true,
                    _ => {
                        // `declare -r X=1`, `typeset -xr X=1`.
                        let mut cursor = at.walk();
                        readonly = at.named_children(&mut cursor).any(|flag| {
                            let flag = &src[flag.byte_range()];
                            flag.starts_with(b"-") && flag.contains(&b'r')
                        });
                    }
                }
                at = at.parent()?;
            }
            if at.kind() != "program" {
                return None;
            }
            let kind = if readonly {
                DefKind::Constant
            } else {
                constant_by_case(text(name, src))
            };
            Some(Spec::binding(kind, name))
        }
        "command" => {
            let command = node.child_by_field_name("name")?;
            if &src[command.byte_range()] != b"alias" {
                return None;
            }
            let argument = node.child_by_field_name("argument")?;
            let definition = text(argument, src);
            let name = definition.split_once('=')?.0;
            if name.is_empty() {
                return None;
            }
            let mut spec = Spec::new(DefKind::Function, argument).outside_bodies();
            spec.text = Some(name.to_string());
            Some(spec)
        }
        _ => None,
    }
}

/// Dart. A member is a `method_declaration` (with a body) or a
/// `declaration` (without: abstract methods, constructors with
/// initializers, fields), named inside its signature. A named constructor
/// `Foo.bar` is `bar` of `Foo`. Top-level `const` bindings are constants
/// and other top-level variables variables; fields are properties.
fn dart<'t>(node: Node<'t>, src: &[u8]) -> Option<Spec<'t>> {
    match node.kind() {
        "class_declaration" | "mixin_declaration" | "extension_type_declaration" => {
            let name = node.child_by_field_name("name").or_else(|| {
                // `class A = B with C;`
                first_child_of_kind(node, "identifier")
            })?;
            let name = if name.kind() == "identifier" {
                name
            } else {
                first_child_of_kind(name, "identifier").unwrap_or(name)
            };
            Some(Spec::new(DefKind::Class, name))
        }
        "enum_declaration" => by_name(node, DefKind::Enum),
        "extension_declaration" => {
            let on = node.child_by_field_name("class");
            match node.child_by_field_name("name") {
                Some(name) => Some(Spec::new(DefKind::Class, name)),
                None => {
                    let ty = on?;
                    let base = text(ty, src);
                    let base = last_segment(&base).to_string();
                    let title = format!("extension on {}", text(ty, src));
                    Some(Spec::extending(ty, title, base))
                }
            }
        }
        "type_alias" => Some(Spec::new(
            DefKind::Type,
            first_child_of_kind(node, "type_identifier")
                .or_else(|| first_child_of_kind(node, "identifier"))?,
        )),
        "function_declaration" | "local_function_declaration" => {
            let signature = node
                .child_by_field_name("signature")
                .or_else(|| first_child_of_kind(node, "function_signature"))?;
            Some(Spec::new(
                DefKind::Function,
                signature.child_by_field_name("name")?,
            ))
        }
        "getter_declaration" | "setter_declaration" => {
            let signature = node.child_by_field_name("signature")?;
            Some(Spec::new(
                DefKind::Function,
                signature.child_by_field_name("name")?,
            ))
        }
        "method_declaration" | "declaration" => {
            let mut cursor = node.walk();
            let mut signature = node
                .named_children(&mut cursor)
                .find(|c| c.kind().ends_with("_signature"))?;
            if signature.kind() == "method_signature" {
                signature = signature.named_child(0)?;
            }
            dart_signature(signature, src)
        }
        "static_final_declaration" | "initialized_identifier" => {
            let name = node.child_by_field_name("name")?;
            let list = node.parent()?;
            let declaration = list.parent()?;
            if declaration.kind() == "top_level_variable_declaration" {
                let constant = src[declaration.byte_range()].starts_with(b"const ");
                let kind = if constant {
                    DefKind::Constant
                } else {
                    DefKind::Variable
                };
                return Some(Spec::binding(kind, name));
            }
            (declaration.kind() == "declaration").then(|| Spec::new(DefKind::Property, name))
        }
        _ => None,
    }
}

/// The definition a Dart member's signature names.
fn dart_signature<'t>(signature: Node<'t>, src: &[u8]) -> Option<Spec<'t>> {
    match signature.kind() {
        "function_signature" | "getter_signature" | "setter_signature" => Some(Spec::new(
            DefKind::Function,
            signature.child_by_field_name("name")?,
        )),
        "operator_signature" => {
            let operator = signature.child_by_field_name("operator")?;
            let mut spec = Spec::new(DefKind::Method, operator);
            spec.text = Some(format!("operator {}", text(operator, src)));
            spec.short = Some("operator".to_string());
            Some(spec)
        }
        "constructor_signature"
        | "factory_constructor_signature"
        | "constant_constructor_signature"
        | "redirecting_factory_constructor_signature" => {
            // `Foo(...)` is `Foo.Foo`, as Java's constructors are; the
            // named `Foo.bar(...)` is `Foo.bar`.
            let mut cursor = signature.walk();
            let names: Vec<Node> = signature
                .children_by_field_name("name", &mut cursor)
                .collect();
            let name = *names.last()?;
            Some(Spec::new(DefKind::Method, name))
        }
        _ => None,
    }
}

fn first_child_of_kind<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut cursor = node.walk();
    let found = node.children(&mut cursor).find(|c| c.kind() == kind);
    found
}

/// The node whose start is the definition's first line: `node` itself, or
/// the decorators, attributes, `template <...>`, `export`, `const` or
/// `type` that the grammar puts around or before it.
pub(super) fn range_start(node: Node) -> Node {
    let mut start = node;
    while let Some(parent) = start.parent() {
        let wraps = match parent.kind() {
            "decorated_definition"
            | "template_declaration"
            | "export_statement"
            | "ambient_declaration" => true,
            // `const f = () => {}` (JavaScript), `local f = function() end`
            // (Lua): the first declarator starts where the statement does.
            "lexical_declaration" | "variable_declaration" => parent
                .named_child(0)
                .is_some_and(|first| first.id() == start.id()),
            // Go `type X struct {...}`, `const X = 1` and `var X = 1`, not
            // in a group.
            "type_declaration" | "const_declaration" | "var_declaration" => {
                parent.named_child_count() == 1
            }
            _ => false,
        };
        if !wraps {
            break;
        }
        start = parent;
    }
    while let Some(previous) = start.prev_sibling() {
        if !matches!(previous.kind(), "attribute_item" | "decorator") {
            break;
        }
        start = previous;
    }
    start
}

/// The separator between an owner and a member's name.
pub(super) fn separator(lang: Lang, kind: DefKind) -> &'static str {
    match lang {
        Lang::Rust | Lang::Cpp | Lang::Php => "::",
        Lang::Ruby if kind == DefKind::Method => "#",
        Lang::Ruby => "::",
        _ => ".",
    }
}

/// A node's source text, lossily decoded, with whitespace runs as one
/// space.
pub(super) fn text(node: Node, src: &[u8]) -> String {
    let raw = String::from_utf8_lossy(&src[node.byte_range()]);
    let mut out = String::with_capacity(raw.len());
    for word in raw.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// The unqualified part of a name: `bar` for `Foo::bar`, `M.f`, `M:m` and
/// `Foo.prototype.bar`; `Foo` for `Foo<T>`; `operator==` stays whole.
pub(super) fn last_segment(name: &str) -> &str {
    let cut = [
        name.rfind("::").map(|i| i + 2),
        name.rfind(['.', ':', '\\']).map(|i| i + 1),
    ]
    .into_iter()
    .flatten()
    .max()
    .unwrap_or(0);
    let segment = &name[cut.min(name.len())..];
    if segment.starts_with("operator") {
        return segment;
    }
    match segment.find('<') {
        Some(i) if i > 0 => &segment[..i],
        _ => segment,
    }
}

/// The bytes to parse for `source`: the source itself, except for plain
/// Lua, where the Lua 5.2+ syntax the Luau grammar lacks is rewritten in
/// place (same length, same lines) so that it cannot derail recovery:
/// `goto name` and `::name::` become spaces; `&`, `|`, `~`, `<<`, `>>`
/// become `+`/`-`. Strings and comments are skipped. Without this, one
/// `goto continue` could hide every definition after it.
pub(super) fn prepare(lang: Lang, source: &[u8]) -> Cow<'_, [u8]> {
    if lang != Lang::Lua {
        return Cow::Borrowed(source);
    }
    let mut out = source.to_vec();
    let n = out.len();
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    while i < n {
        let b = out[i];
        let next = out.get(i + 1).copied().unwrap_or(0);
        match b {
            b'-' if next == b'-' => {
                i = match long_bracket(&out, i + 2) {
                    Some(level) => skip_long(&out, i + 2, level),
                    None => out[i..]
                        .iter()
                        .position(|&c| c == b'\n')
                        .map_or(n, |p| i + p),
                };
            }
            b'[' if long_bracket(&out, i).is_some() => {
                let level = long_bracket(&out, i).unwrap_or(0);
                i = skip_long(&out, i, level);
            }
            b'"' | b'\'' => {
                i += 1;
                while i < n && out[i] != b && out[i] != b'\n' {
                    i += if out[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'~' if next == b'=' => i += 2,
            b'~' => {
                out[i] = if next == b'-' { b'+' } else { b'-' };
                i += 1;
            }
            b'&' | b'|' => {
                out[i] = b'+';
                i += 1;
            }
            b'<' | b'>' if next == b => {
                out[i] = b'+';
                out[i + 1] = b' ';
                i += 2;
            }
            b':' if next == b':' => {
                // `:: name ::`
                let mut j = i + 2;
                while j < n && out[j] == b' ' {
                    j += 1;
                }
                let word = j;
                while j < n && is_word(out[j]) {
                    j += 1;
                }
                let has_word = j > word;
                while j < n && out[j] == b' ' {
                    j += 1;
                }
                if has_word && out[j..].starts_with(b"::") {
                    out[i..j + 2].fill(b' ');
                    i = j + 2;
                } else {
                    i += 2;
                }
            }
            _ if is_word(b) => {
                let start = i;
                while i < n && is_word(out[i]) {
                    i += 1;
                }
                let after_dot = start > 0 && matches!(out[start - 1], b'.' | b':');
                if &out[start..i] == b"goto" && !after_dot {
                    let mut j = i;
                    while j < n && matches!(out[j], b' ' | b'\t') {
                        j += 1;
                    }
                    let label = j;
                    while j < n && is_word(out[j]) {
                        j += 1;
                    }
                    if j > label && label > i {
                        out[start..j].fill(b' ');
                        i = j;
                    }
                }
            }
            _ => i += 1,
        }
    }
    Cow::Owned(out)
}

/// The level (number of `=`) of a Lua long bracket `[==[` opening at `at`.
fn long_bracket(src: &[u8], at: usize) -> Option<usize> {
    if src.get(at) != Some(&b'[') {
        return None;
    }
    let level = src[at + 1..].iter().take_while(|&&c| c == b'=').count();
    (src.get(at + 1 + level) == Some(&b'[')).then_some(level)
}

/// The index just past the `]==]` closing a long bracket of `level` opened
/// at `at`, or the end of `src`.
fn skip_long(src: &[u8], at: usize, level: usize) -> usize {
    let mut close = vec![b'='; level + 2];
    close[0] = b']';
    close[level + 1] = b']';
    let body = at + level + 2;
    src[body.min(src.len())..]
        .windows(close.len())
        .position(|w| w == close.as_slice())
        .map_or(src.len(), |p| body + p + close.len())
}
