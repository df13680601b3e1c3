//! Definitions in a source file, from its tree-sitter syntax tree.
//!
//! This module owns parsing a file and listing what it defines: functions,
//! methods, classes, structs, traits, impls, modules, types, macros,
//! constants and properties, each with its kind, its name (qualified where
//! the language makes that natural: `Server.handle`, `Foo::fmt`,
//! `impl Display for Foo`), its line range and the line of its name. It
//! answers two questions for ranking and paging: which definition encloses
//! a line ([`enclosing`]) and whether a line defines a given name
//! ([`defines_on_line`]).
//!
//! It leaves to others: choosing the language of a path ([`Lang`]), reading
//! files and caching results (the caller), and the lexical fallback for
//! files this module cannot parse (`rank::lexical`).
//!
//! The walk is a single pre-order pass over the tree with small
//! per-language tables of node kinds (`langs`); it does not use tree-sitter
//! queries, whose compilation alone costs milliseconds per language and
//! whose C/C++ captures end at the signature. Closures and lambdas are not
//! definitions: a line inside one belongs to the function around it.

mod around;
pub mod cache;
mod langs;

pub use around::{around, AROUND_RULES};

#[cfg(test)]
mod tests;

use std::cell::RefCell;

use serde::{Deserialize, Serialize};
use tree_sitter::{Node, Parser, Tree};

use crate::lang::Lang;

pub(crate) use langs::grammar;
use langs::{Scope, Spec};

/// Sources larger than this many bytes are not parsed: [`extract`] returns
/// no definitions and the caller falls back to lexical rules. Parsing time
/// and tree memory grow with size, and files this large are almost always
/// generated.
pub const MAX_PARSE_BYTES: usize = 2 * 1024 * 1024;

/// The version of the extraction rules. Cached definitions ([`cache`])
/// made under another version are ignored and rebuilt, so bump this
/// whenever a change here or in `langs` can change what [`extract`]
/// returns for some file.
pub const RULES_VERSION: u32 = 6;

/// What a definition is. [`DefKind::label`] is the word shown to users,
/// and its serialized form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DefKind {
    /// A free function, or one nested in another function.
    Function,
    /// A function inside a class, struct, trait, impl, interface or object,
    /// including constructors and Go methods with receivers.
    Method,
    /// A class, or a class-like object (Kotlin `object`, Java/C# `record`).
    Class,
    /// A struct or union.
    Struct,
    /// An enum (also Kotlin `enum class`).
    Enum,
    /// A Rust trait or PHP trait.
    Trait,
    /// An interface (also Java annotation types).
    Interface,
    /// A Rust `impl` block.
    Impl,
    /// A module or namespace.
    Module,
    /// A type alias or other named type (Go `type X int`, C `typedef`,
    /// C++ `using X = ...`, C# delegates).
    Type,
    /// A macro (`macro_rules!`, C `#define`).
    Macro,
    /// A named constant or static at file or class level.
    Constant,
    /// A property at file or class level (C#, Kotlin).
    Property,
    /// A variable bound at file level (`let x = 1` in a JavaScript module,
    /// `registry = {}` in a Python one, Go `var Pool = sync.Pool{}`).
    Variable,
}

impl DefKind {
    /// Every kind, in declaration order (the index is the kind's code in
    /// the definitions cache).
    pub const ALL: [DefKind; 14] = [
        DefKind::Function,
        DefKind::Method,
        DefKind::Class,
        DefKind::Struct,
        DefKind::Enum,
        DefKind::Trait,
        DefKind::Interface,
        DefKind::Impl,
        DefKind::Module,
        DefKind::Type,
        DefKind::Macro,
        DefKind::Constant,
        DefKind::Property,
        DefKind::Variable,
    ];

    /// The lower-case word for this kind: `"function"`, `"method"`, ...
    pub fn label(self) -> &'static str {
        match self {
            DefKind::Function => "function",
            DefKind::Method => "method",
            DefKind::Class => "class",
            DefKind::Struct => "struct",
            DefKind::Enum => "enum",
            DefKind::Trait => "trait",
            DefKind::Interface => "interface",
            DefKind::Impl => "impl",
            DefKind::Module => "module",
            DefKind::Type => "type",
            DefKind::Macro => "macro",
            DefKind::Constant => "constant",
            DefKind::Property => "property",
            DefKind::Variable => "variable",
        }
    }

    /// A constant or a variable: a name bound to a value, whose meaning
    /// is the value's, not something to call into.
    pub fn is_binding(self) -> bool {
        matches!(self, DefKind::Constant | DefKind::Variable)
    }

    /// Whether definitions inside this one are its members (qualified by
    /// its name, functions becoming methods).
    fn has_members(self) -> bool {
        matches!(
            self,
            DefKind::Class
                | DefKind::Struct
                | DefKind::Enum
                | DefKind::Trait
                | DefKind::Interface
                | DefKind::Impl
                | DefKind::Type
        )
    }
}

/// One definition in a file.
///
/// Lines are 1-based and inclusive: `start_line <= name_line <= end_line`.
/// The range starts at leading decorators, attributes, `template <...>`
/// and `export` when the language attaches them to the definition; it
/// does not include doc comments.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Def {
    /// What it is; a function inside a class-like definition is a method.
    pub kind: DefKind,
    /// The name as shown: qualified by the enclosing class, impl or
    /// receiver where natural (`Server.handle`, `Foo::fmt`, `Foo#bar`,
    /// `impl Display for Foo`, `M:m`). Whitespace runs are one space.
    pub name: String,
    /// The unqualified name (`handle`, `fmt`, `bar`, `Foo` for an impl of
    /// `Foo`, `m`): what a query for the name matches.
    pub short: String,
    /// First line of the definition (1-based).
    pub start_line: u32,
    /// Last line of the definition (1-based, inclusive).
    pub end_line: u32,
    /// Line of the name identifier (1-based); may follow `start_line`
    /// when decorators, attributes or a return type come first.
    pub name_line: u32,
}

impl Def {
    /// Whether 1-based `line` lies within this definition's range.
    pub fn contains(&self, line: u32) -> bool {
        self.start_line <= line && line <= self.end_line
    }

    /// `KIND NAME` as shown to users (`function parse_args`,
    /// `method Server.handle`), the kind left out when the name already
    /// starts with it (`impl Display for Foo`, not `impl impl ...`).
    pub fn title(&self) -> String {
        match self.title_label() {
            Some(label) => format!("{label} {}", self.name),
            None => self.name.clone(),
        }
    }

    /// The kind's label when [`Def::title`] puts it before the name, `None`
    /// when the name starts with it already: the title without a copy.
    pub fn title_label(&self) -> Option<&'static str> {
        if self.kind == DefKind::Impl {
            // `impl Display for Foo`, `extension Foo`, `instance Show T`:
            // the name carries the language's own keyword.
            return None;
        }
        let label = self.kind.label();
        match self.name.strip_prefix(label) {
            Some(rest) if rest.starts_with(' ') => None,
            _ => Some(label),
        }
    }
}

/// All definitions in a file, in order of start line (outer before inner
/// on ties).
///
/// Never fails: a file that does not parse cleanly yields what the parser
/// recovered, and a source larger than [`MAX_PARSE_BYTES`] yields nothing.
/// Uses one parser per thread, so callers may extract in parallel.
pub fn extract(lang: Lang, source: &[u8]) -> Vec<Def> {
    if source.len() > MAX_PARSE_BYTES {
        return Vec::new();
    }
    let source = langs::prepare(lang, source);
    match parse(lang, &source) {
        Some(tree) => collect(lang, &tree, &source, &|_| true, false),
        None => Vec::new(),
    }
}

/// [`extract`], with the syntax tree the definitions were read from, for
/// a caller that walks the same tree again (the code graph): one
/// parse, not two. For the graph, a function held in a local variable
/// (`const onSave = () => ...` in a component) is a definition too: a
/// target of its own, whose calls in the function around bind to it. The
/// tree is `None` where [`extract`] parses none (a
/// source past [`MAX_PARSE_BYTES`], a grammar that does not load) or
/// parses a prepared copy of the source (Lua).
pub fn extract_with_tree(lang: Lang, source: &[u8]) -> (Vec<Def>, Option<Tree>) {
    if source.len() > MAX_PARSE_BYTES || lang == Lang::Lua {
        return (extract(lang, source), None);
    }
    match parse(lang, source) {
        Some(tree) => (collect(lang, &tree, source, &|_| true, true), Some(tree)),
        None => (Vec::new(), None),
    }
}

/// The definitions holding any of `lines` (1-based, ascending) in a file
/// already parsed with `grammar(lang)`, as [`extract`] gives them, and
/// some beside them: for the structural search, which parses every file
/// once and reuses that tree for the headings of its matches. The
/// walk enters only the nodes holding one of the lines, so it costs the
/// paths down to the matches, not the whole tree; every definition
/// holding a line is on such a path. `None` where the tree cannot serve
/// and [`extract`] must parse (Lua's source is prepared before parsing; a
/// source past [`MAX_PARSE_BYTES`] has no definitions).
pub fn from_tree(lang: Lang, tree: &Tree, source: &[u8], lines: &[u64]) -> Option<Vec<Def>> {
    if lang == Lang::Lua {
        return None;
    }
    if source.len() > MAX_PARSE_BYTES {
        return Some(Vec::new());
    }
    let holds_a_line = |node: Node| {
        let first = node.start_position().row as u64 + 1;
        let last = node.end_position().row as u64 + 1;
        let after = lines.partition_point(|&line| line < first);
        lines.get(after).is_some_and(|&line| line <= last)
    };
    Some(collect(lang, tree, source, &holds_a_line, false))
}

/// Whether a line (trimmed) belongs to the definition below it in
/// `lang`: a comment, a decorator or annotation, an attribute. A shebang
/// or a Rust inner attribute (`#!`) belongs to the file, and a C
/// preprocessor line (`#if`, `#define`) to none: `#` starts a comment
/// only where the language says so. `scout read --symbol` shows such
/// lines with the definition; `scout edit PATH#SYMBOL --with` keeps or
/// replaces them together.
pub fn is_preamble(lang: Lang, line: &[u8]) -> bool {
    let prefixes: &[&str] = match lang {
        Lang::Python => &["#", "@"],
        Lang::Ruby => &["#"],
        Lang::Lua | Lang::Luau => &["--"],
        Lang::Rust => &["//", "/*", "*", "#["],
        Lang::CSharp => &["//", "/*", "*", "["],
        Lang::Php => &["//", "/*", "*", "#"],
        Lang::C | Lang::Cpp => &["//", "/*", "*", "[["],
        Lang::Go => &["//", "/*", "*"],
        Lang::Java
        | Lang::Kotlin
        | Lang::JavaScript
        | Lang::TypeScript
        | Lang::Tsx
        | Lang::Swift
        | Lang::Scala
        | Lang::Dart => &["//", "/*", "*", "@"],
        Lang::Zig => &["//"],
        Lang::Elixir => &["#", "@doc", "@spec", "@impl", "@deprecated", "@since"],
        Lang::Bash => &["#"],
        Lang::Haskell => &["--", "{-"],
    };
    !line.starts_with(b"#!") && prefixes.iter().any(|p| line.starts_with(p.as_bytes()))
}

/// The innermost definition whose range holds 1-based `line` (a
/// definition's own first line counts as inside it). `defs` must be in the
/// order [`extract`] returns.
pub fn enclosing(defs: &[Def], line: u32) -> Option<&Def> {
    // Ranges nest, so among those holding the line the innermost is the
    // one starting last; on equal starts `extract` puts the inner one last.
    let candidates = defs.partition_point(|d| d.start_line <= line);
    defs[..candidates].iter().rev().find(|d| d.contains(line))
}

/// Whether a definition named `name` (unqualified, case-sensitive) has its
/// name on 1-based `line`: how the tests check [`extract`]'s name lines.
/// An impl block of `Foo` counts for `Foo` (not for the trait it
/// implements): it is where Foo's methods are defined, and ctags and the
/// lexical rules count it too.
#[cfg(test)]
pub fn defines_on_line(defs: &[Def], line: u32, name: &str) -> bool {
    defs.iter().any(|d| d.name_line == line && d.short == name)
}

/// The definitions `name` names: by their whole name (`Type.method`,
/// `Type::method` and `Type#method` as `Type.method`), else, for a plain name, by their
/// own; else, for `outer.inner` (`Class.method.inner`), the definitions
/// named `inner` inside those `outer` names: a closure, a function in a
/// function.
pub fn named<'d>(defs: &'d [Def], name: &str) -> Vec<&'d Def> {
    let dotted = |d: &Def| d.name.replace("::", ".").replace('#', ".");
    let exact: Vec<&Def> = defs.iter().filter(|d| dotted(d) == name).collect();
    if !exact.is_empty() {
        return exact;
    }
    let Some((outer, inner)) = name.rsplit_once('.') else {
        return defs.iter().filter(|d| d.short == name).collect();
    };
    let outers = named(defs, outer);
    defs.iter()
        .filter(|d| {
            d.short == inner
                && outers.iter().any(|o| {
                    o.name_line != d.name_line
                        && o.start_line <= d.start_line
                        && d.end_line <= o.end_line
                })
        })
        .collect()
}

/// The 1-based lines on which `defs` define `name`, as [`defines_on_line`]
/// decides.
pub fn definition_lines(defs: &[Def], name: &str) -> Vec<u64> {
    defs.iter()
        .filter(|d| d.short == name)
        .map(|d| u64::from(d.name_line))
        .collect()
}

thread_local! {
    /// One parser per thread, with the grammar it was last given.
    static PARSER: RefCell<(Parser, Option<Lang>)> = RefCell::new((Parser::new(), None));
}

/// Parses `source` with this thread's parser; `None` if the grammar could
/// not be loaded (an ABI mismatch, caught by the tests).
fn parse(lang: Lang, source: &[u8]) -> Option<Tree> {
    parse_ranges(lang, source, &[])
}

/// [`parse`], reading only the bytes of `ranges` (in order, apart) as one
/// text, at their places in `source`; none means all of it.
fn parse_ranges(lang: Lang, source: &[u8], ranges: &[tree_sitter::Range]) -> Option<Tree> {
    PARSER.with(|cell| {
        let (parser, current) = &mut *cell.borrow_mut();
        if *current != Some(lang) {
            parser.set_language(&langs::grammar(lang)).ok()?;
            *current = Some(lang);
        }
        if !ranges.is_empty() {
            parser.set_included_ranges(ranges).ok()?;
        }
        let tree = parser.parse(source, None);
        if tree.is_none() {
            parser.reset();
        }
        if !ranges.is_empty() {
            // The next parse reads a whole source again.
            let _ = parser.set_included_ranges(&[]);
        }
        tree
    })
}

/// The syntax errors of `source` as `lang`'s parser reads it: how many
/// ERROR and MISSING nodes its tree holds, and the 1-based line of each
/// (in tree order); `None` when it could not be parsed at all.
pub fn syntax_errors(lang: Lang, source: &[u8]) -> Option<Vec<u64>> {
    let tree = parse(lang, source)?;
    let mut lines = Vec::new();
    let mut cursor = tree.walk();
    let mut descend = true;
    loop {
        let node = cursor.node();
        if descend && (node.is_error() || node.is_missing()) {
            lines.push(node.start_position().row as u64 + 1);
        }
        if descend && node.has_error() && cursor.goto_first_child() {
            continue;
        }
        if cursor.goto_next_sibling() {
            descend = true;
            continue;
        }
        if !cursor.goto_parent() {
            break;
        }
        descend = false;
    }
    Some(lines)
}

/// A definition being walked through, for naming what is inside it.
struct Frame {
    /// `Node::id` of the definition's node: the frame ends with it.
    node: usize,
    scope: Scope,
    /// Prefix for members' names (`Server`, `Foo` for `impl Display for Foo`).
    owner: String,
}

/// Walks the tree once, pre-order, without recursion (deeply nested
/// expressions must not overflow a thread's stack), entering the nodes
/// `enter` accepts (every node, for all the definitions).
/// The definitions of `tree`, entering the nodes `enter` admits; with
/// `locals`, functions held in a function's local variables too.
fn collect(
    lang: Lang,
    tree: &Tree,
    source: &[u8],
    enter: &dyn Fn(Node) -> bool,
    locals: bool,
) -> Vec<Def> {
    let mut defs = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();
    let mut cursor = tree.walk();
    'walk: loop {
        let node = cursor.node();
        let spec = if node.is_named() {
            langs::classify(lang, node, source)
        } else {
            None
        };
        if let Some(spec) = spec {
            if let Some(def) = make_def(lang, node, &spec, frames.last(), source, locals) {
                let owner = match spec.scope {
                    Scope::Members => Some(spec.owner.unwrap_or_else(|| def.name.clone())),
                    Scope::Body => Some(String::new()),
                    Scope::Transparent => None,
                };
                if let Some(owner) = owner {
                    frames.push(Frame {
                        node: node.id(),
                        scope: spec.scope,
                        owner,
                    });
                }
                defs.push(def);
            }
        }
        if enter(node) && cursor.goto_first_child() {
            continue;
        }
        loop {
            let id = cursor.node().id();
            if frames.last().is_some_and(|f| f.node == id) {
                frames.pop();
            }
            if cursor.goto_next_sibling() {
                continue 'walk;
            }
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    defs.sort_by_key(|d| (d.start_line, std::cmp::Reverse(d.end_line)));
    if matches!(lang, Lang::Haskell | Lang::Elixir) {
        merge_clauses(&mut defs);
    }
    defs
}

/// Makes a function written as several clauses one definition: Haskell's
/// type signature and equations, Elixir's `def` clauses. A definition
/// absorbs the next one outside it when that has the same name and kind
/// (what lies between, a comment or an `@doc`, joins too).
fn merge_clauses(defs: &mut Vec<Def>) {
    // Absorbed clauses are marked and dropped at the end: removing each
    // at once would be quadratic in a file of many.
    let mut kept = vec![true; defs.len()];
    let mut i = 0;
    while i < defs.len() {
        let end = defs[i].end_line;
        let next = i + defs[i..].partition_point(|d| d.start_line <= end);
        match defs.get(next) {
            Some(d)
                if kept[i] && kept[next] && d.name == defs[i].name && d.kind == defs[i].kind =>
            {
                defs[i].end_line = end.max(d.end_line);
                kept[next] = false;
            }
            _ => i += 1,
        }
    }
    let mut kept = kept.into_iter();
    defs.retain(|_| kept.next().unwrap_or(true));
}

/// Turns a classified node into a [`Def`], naming it within `frame` (the
/// innermost definition around it). `None` for a definition that does not
/// count where it stands (a constant inside a function) or has no name.
fn make_def(
    lang: Lang,
    node: Node,
    spec: &Spec,
    frame: Option<&Frame>,
    source: &[u8],
    locals: bool,
) -> Option<Def> {
    let in_body = frame.is_some_and(|f| f.scope == Scope::Body);
    if spec.outside_bodies && in_body && !(locals && spec.local_function) {
        return None;
    }
    if spec.name.is_missing() {
        return None;
    }
    let text = match &spec.text {
        Some(text) => text.clone(),
        None => langs::text(spec.name, source),
    };
    if text.is_empty() {
        return None;
    }
    let short = match &spec.short {
        Some(short) => short.clone(),
        None => langs::last_segment(&text).to_string(),
    };
    let mut kind = spec.kind;
    let mut name = text;
    if let Some(frame) = frame.filter(|f| f.scope == Scope::Members && !spec.qualified) {
        if kind == DefKind::Function {
            kind = DefKind::Method;
        }
        let sep = spec
            .separator
            .unwrap_or_else(|| langs::separator(lang, kind));
        name = format!("{}{sep}{name}", frame.owner);
    }
    let start = langs::range_start(node);
    let end_node = if spec.to_parent_end {
        node.parent().unwrap_or(node)
    } else {
        node
    };
    let end = end_node.end_position();
    // A node that ends at column 0 ends with the line break before it.
    let end_row = if end.column == 0 && end.row > node.start_position().row {
        end.row - 1
    } else {
        end.row
    };
    Some(Def {
        kind,
        name,
        short,
        start_line: line(start.start_position().row),
        end_line: line(end_row),
        name_line: line(spec.name.start_position().row),
    })
}

/// A 0-based tree-sitter row as a 1-based line number.
fn line(row: usize) -> u32 {
    u32::try_from(row).map_or(u32::MAX, |r| r.saturating_add(1))
}
