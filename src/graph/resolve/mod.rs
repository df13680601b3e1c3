//! The cascade that attributes one call site: to the target definition,
//! to another definition (which), or to neither ("cannot tell", and why).
//! Each step is a stated reason: the enclosing scope and the same file,
//! by range; imports and module paths; receivers whose type the code
//! states (`self`/`this` in the class, `Type.f`, a variable built by
//! `Type(...)`, a declared parameter, variable or field); the language's
//! package rules (Go's package directory, Java's enclosing class, C's one
//! global namespace).

mod c;
mod go;
mod java;
mod python;

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::facts::{self, Binding, Call, Callee, Facts};
use super::modules::{self, Place};
use super::Target;
use crate::defs::{Def, DefKind};
use crate::lang::Lang;

/// Where a call was attributed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The target, proven by scope, import or declared type; the reason
    /// is the cascade's step.
    Target(&'static str),
    /// The target by a name alone: the tree's only definition of the
    /// method called on a receiver of unknown type, or a type or base
    /// that has the target's type's name where the graph cannot find the
    /// definition. Counted apart from the proven calls, and left out by
    /// `--proven-only`.
    ByName(&'static str),
    /// Another definition, in the file at the path (canonical).
    Other { path: PathBuf, def: Def },
    /// Something that is not a definition in the tree (a module outside
    /// it, a builtin, a method of another type).
    Outside(String),
    /// The cascade cannot settle it; why.
    CannotTell(&'static str),
}

/// What a name stands for at a line of a file.
#[derive(Clone, Debug)]
enum Meaning {
    Module(Place),
    /// A definition (function, class) in a file.
    Def(PathBuf, Def),
    /// A value whose type is named (to resolve in the file it was met in).
    Instance(String, PathBuf),
    /// `self`/`this` inside the class named so, in that file.
    SelfOf(PathBuf, String),
    /// A local (variable, parameter, loop variable) of unknown type: it
    /// shadows the file's definitions and imports of its name.
    Value,
    Unknown,
}

/// The files' facts, read on demand and kept for the whole attribution.
pub struct Files {
    facts: RefCell<HashMap<PathBuf, Option<Rc<Facts>>>>,
    /// Modules already resolved, by the file and the module as written:
    /// every call through an import asks again.
    places: RefCell<HashMap<(PathBuf, String), Place>>,
    /// Java names already looked up, by the directory they were met in
    /// (which, with the target, fixes the source roots) and the name.
    java: RefCell<HashMap<(PathBuf, String), Option<Meaning>>>,
    /// The `.go` files of each Go package directory met, by name: every
    /// method looked up on a Go type lists its package.
    go_dirs: RefCell<HashMap<PathBuf, Rc<[PathBuf]>>>,
    pub lang: Lang,
    cache: super::cache::FactsCache,
}

impl Files {
    pub fn new(lang: Lang, cache: super::cache::FactsCache) -> Files {
        Files {
            facts: RefCell::new(HashMap::new()),
            places: RefCell::new(HashMap::new()),
            java: RefCell::new(HashMap::new()),
            go_dirs: RefCell::new(HashMap::new()),
            lang,
            cache,
        }
    }

    /// [`modules::resolve`], remembered.
    pub fn place(&self, lang: Lang, from: &Path, module: &str) -> Place {
        let key = (from.to_path_buf(), module.to_string());
        if let Some(place) = self.places.borrow().get(&key) {
            return place.clone();
        }
        let place = modules::resolve(lang, from, module);
        self.places.borrow_mut().insert(key, place.clone());
        place
    }

    /// The `.go` files of the directory `dir`, by name, listed once.
    fn go_files(&self, dir: &Path) -> Rc<[PathBuf]> {
        if let Some(files) = self.go_dirs.borrow().get(dir) {
            return files.clone();
        }
        let listed = match crate::paths::within_bound(dir) {
            true => std::fs::read_dir(dir),
            false => Err(std::io::ErrorKind::PermissionDenied.into()),
        };
        let mut files: Vec<PathBuf> = listed
            .map(|entries| {
                entries
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|e| e == "go"))
                    .collect()
            })
            .unwrap_or_default();
        files.sort();
        let files: Rc<[PathBuf]> = files.into();
        self.go_dirs
            .borrow_mut()
            .insert(dir.to_path_buf(), files.clone());
        files
    }

    /// The disk cache the files' facts come from.
    pub fn cache(&self) -> &super::cache::FactsCache {
        &self.cache
    }

    pub fn insert(&self, path: PathBuf, facts: Rc<Facts>) {
        self.facts.borrow_mut().insert(path, Some(facts));
    }

    /// The facts of the file at canonical `path`, parsed on first use.
    pub fn get(&self, path: &Path) -> Option<Rc<Facts>> {
        if let Some(found) = self.facts.borrow().get(path) {
            return found.clone();
        }
        // A confined request reads no file outside its roots, whatever
        // imports it ([`crate::paths::bound_to`]).
        if !crate::paths::within_bound(path) {
            return None;
        }
        let lang = crate::lang::Lang::from_path(path.as_os_str().as_encoded_bytes())
            .map(|l| facts::parse_lang(l, path.as_os_str().as_encoded_bytes()));
        let parsed = match lang {
            Some(lang) if super::same_family(lang, self.lang) => {
                self.cache.facts(path, lang).map(Rc::new)
            }
            _ => None,
        };
        self.facts
            .borrow_mut()
            .insert(path.to_path_buf(), parsed.clone());
        parsed
    }
}

/// The attribution of calls in one file, with the target and the files.
pub struct Resolver<'a> {
    pub target: &'a Target,
    pub files: &'a Files,
    /// Whether the target is the only definition of its name in the
    /// files that spell it (all of them read), and the name is not one
    /// that library types have too ([`LIBRARY_METHODS`]): a method call
    /// on a receiver of unknown type is then the target, by name.
    pub unique_name: bool,
    /// How deep [`Resolver::class_of`] is in itself: a type written in
    /// terms of itself (`ctx = ctx.copy()`) would recurse without end.
    pub depth: Cell<u32>,
}

/// How many types deep a receiver's type is followed.
const MAX_TYPE_DEPTH: u32 = 24;

/// Method names that the standard libraries' types (lists, maps,
/// strings, promises, streams, threads...) define: a receiver of unknown
/// type calling one may well be one of those, however few definitions
/// the tree has.
pub const LIBRARY_METHODS: &[&str] = &[
    "add", "addAll", "append", "apply", "bind", "call", "cancel", "catch", "clear", "clone",
    "close", "contains", "copy", "count", "debug", "decode", "delete", "emit", "encode", "end",
    "entries", "equals", "error", "execute", "extend", "filter", "find", "finally", "flush",
    "forEach", "format", "get", "has", "hashCode", "index", "indexOf", "info", "init", "insert",
    "items", "iter", "join", "keys", "length", "load", "lock", "log", "map", "match", "next", "on",
    "open", "parse", "pop", "push", "put", "read", "reduce", "remove", "render", "replace",
    "reset", "resolve", "run", "save", "send", "set", "shift", "size", "slice", "sort", "split",
    "start", "stop", "test", "then", "toString", "unlock", "update", "values", "wait", "warn",
    "write",
];

/// Python's builtins a project may also define (`open`, `print`, ...).
const PYTHON_BUILTINS: &[&str] = &[
    "abs",
    "all",
    "any",
    "bool",
    "callable",
    "dict",
    "dir",
    "enumerate",
    "eval",
    "exec",
    "filter",
    "float",
    "format",
    "getattr",
    "hasattr",
    "hash",
    "id",
    "input",
    "int",
    "isinstance",
    "iter",
    "len",
    "list",
    "map",
    "max",
    "min",
    "next",
    "object",
    "open",
    "print",
    "range",
    "repr",
    "reversed",
    "round",
    "set",
    "setattr",
    "sorted",
    "str",
    "sum",
    "super",
    "tuple",
    "type",
    "vars",
    "zip",
];

const GO_BUILTINS: &[&str] = &[
    "append", "cap", "clear", "close", "complex", "copy", "delete", "imag", "len", "make", "max",
    "min", "new", "panic", "print", "println", "real", "recover",
];

/// The class a method definition belongs to (`Server` for
/// `Server.handle`, `Foo` for `Foo::fmt`).
pub fn owner_of(def: &Def) -> Option<&str> {
    if def.kind != DefKind::Method {
        return None;
    }
    let name = &def.name;
    let cut = name.len().checked_sub(def.short.len())?;
    let owner = name[..cut]
        .strip_suffix("::")
        .or_else(|| name[..cut].strip_suffix('.'))
        .or_else(|| name[..cut].strip_suffix('#'))?;
    Some(owner)
}

/// The last segment of a dotted or `::` name.
fn last(name: &str) -> &str {
    name.rsplit(['.', ':']).next().unwrap_or(name)
}

fn is_type_like(kind: DefKind) -> bool {
    matches!(
        kind,
        DefKind::Class
            | DefKind::Struct
            | DefKind::Enum
            | DefKind::Trait
            | DefKind::Interface
            | DefKind::Type
    )
}

impl<'a> Resolver<'a> {
    fn lang(&self) -> Lang {
        self.files.lang
    }

    /// Whether `def` in the file at `path` is the target.
    fn is_target(&self, path: &Path, def: &Def) -> bool {
        path == self.target.canon && self.target.lines.contains(&def.name_line)
    }

    /// A method call on a receiver the graph cannot type: the target by
    /// name when the name is unique ([`Resolver::unique_name`]), else
    /// "cannot tell" and `why`.
    fn by_unique_name(&self, why: &'static str) -> Verdict {
        if self.unique_name {
            Verdict::ByName("the tree's only definition of the name")
        } else {
            Verdict::CannotTell(why)
        }
    }

    fn verdict_for(&self, path: &Path, def: &Def, reason: &'static str) -> Verdict {
        if self.is_target(path, def) {
            Verdict::Target(reason)
        } else {
            Verdict::Other {
                path: path.to_path_buf(),
                def: def.clone(),
            }
        }
    }

    /// Attributes one call in the file at `path` with `facts`.
    pub fn attribute(&self, path: &Path, facts: &Facts, call: &Call) -> Verdict {
        let verdict = self.cascade(path, facts, call);
        if self.lang() == Lang::Java {
            self.by_arity(verdict, call)
        } else {
            verdict
        }
    }

    /// A Java call settled to a method with overloads (same class, same
    /// name): the one overload whose parameter count is the call's
    /// argument count, else "cannot tell".
    fn by_arity(&self, verdict: Verdict, call: &Call) -> Verdict {
        let (file, def) = match &verdict {
            Verdict::Target(_) | Verdict::ByName(_) => {
                (self.target.canon.clone(), self.target.def.clone())
            }
            Verdict::Other { path, def } => (path.clone(), def.clone()),
            _ => return verdict,
        };
        let Some(facts) = self.files.get(&file) else {
            return verdict;
        };
        let overloads: Vec<&Def> = facts.defs.iter().filter(|d| d.name == def.name).collect();
        if overloads.len() < 2 {
            return verdict;
        }
        let arity = |d: &Def| {
            facts
                .arities
                .iter()
                .find(|(line, _)| *line == d.name_line)
                .and_then(|(_, n)| *n)
        };
        let fits: Vec<&Def> = match call.args {
            Some(args) => overloads
                .iter()
                .copied()
                .filter(|d| arity(d) == Some(args))
                .collect(),
            None => Vec::new(),
        };
        // A varargs overload takes any count: with one, nothing is sure.
        let open = overloads.iter().any(|d| arity(d).is_none());
        match (fits.as_slice(), open) {
            ([one], false) if self.is_target(&file, one) => match verdict {
                Verdict::Other { .. } => {
                    Verdict::Target("an overload of its class, by its argument count")
                }
                kept => kept,
            },
            ([one], false) => Verdict::Other {
                path: file,
                def: (*one).clone(),
            },
            _ => Verdict::CannotTell("overloads the call's argument count does not tell apart"),
        }
    }

    /// [`Resolver::attribute`] before overloads are told apart.
    fn cascade(&self, path: &Path, facts: &Facts, call: &Call) -> Verdict {
        match &call.callee {
            Callee::Bare | Callee::New | Callee::Jsx => self.bare(path, facts, call),
            Callee::Member(chain) => self.member(path, facts, call, chain),
            Callee::Path(segments) => self.path_call(path, facts, call, segments),
            Callee::Super => self.super_call(path, facts, call),
            Callee::Returned(chain, method) => {
                let meaning = self.returned(path, facts, call.line, chain, method);
                self.on_meaning(meaning, call)
            }
            Callee::Dynamic => {
                if self.target.owner.is_some() {
                    self.by_unique_name("a method on an expression the parser cannot type")
                } else {
                    Verdict::Outside("a method or function pointer, not the function".into())
                }
            }
        }
    }

    /// The innermost class-like definition whose range holds `line`.
    fn enclosing_class<'f>(&self, facts: &'f Facts, line: u32) -> Option<&'f Def> {
        facts
            .defs
            .iter()
            .filter(|d| d.contains(line) && (is_type_like(d.kind) || d.kind == DefKind::Impl))
            .max_by_key(|d| d.start_line)
    }

    /// The class a method around `line` belongs to, by its name.
    fn class_around(&self, facts: &Facts, line: u32) -> Option<String> {
        let method = facts
            .defs
            .iter()
            .filter(|d| d.contains(line) && d.kind == DefKind::Method)
            .max_by_key(|d| d.start_line);
        if let Some(owner) = method.and_then(owner_of) {
            return Some(owner.to_string());
        }
        self.enclosing_class(facts, line).map(|d| match d.kind {
            DefKind::Impl => d.short.clone(),
            _ => d.name.clone(),
        })
    }

    /// The innermost binding of `name` whose range holds `line`; of
    /// several over the same lines, the last one bound at or before
    /// `line` (a name rebound holds from its line to the next binding),
    /// else the first.
    fn binding<'f>(&self, facts: &'f Facts, name: &str, line: u32) -> Option<&'f Binding> {
        let holding = || {
            facts
                .bindings
                .iter()
                .filter(move |b| b.name == name && b.from <= line && line <= b.to)
        };
        let inner = holding().min_by_key(|b| (b.to - b.from, std::cmp::Reverse(b.from)))?;
        let same = || holding().filter(|b| (b.from, b.to) == (inner.from, inner.to));
        same()
            .filter(|b| b.at <= line)
            .max_by_key(|b| b.at)
            .or_else(|| same().min_by_key(|b| b.at))
    }

    /// What `name` stands for at `line` of the file.
    fn meaning(&self, path: &Path, facts: &Facts, name: &str, line: u32, depth: u32) -> Meaning {
        if depth > 6 {
            return Meaning::Unknown;
        }
        let lang = self.lang();
        if matches!(name, "self" | "this" | "cls") && !(lang == Lang::Python && name == "this") {
            if lang == Lang::Go {
                // A Go receiver is a binding like any other.
            } else if let Some(class) = self.class_around(facts, line) {
                return Meaning::SelfOf(path.to_path_buf(), class);
            }
        }
        if let Some(binding) = self.binding(facts, name, line) {
            // A file-level assignment of a call's result to a name the
            // file also defines (`load = cache(load)`) leaves the
            // definition the answer; a loop variable or a plain value
            // shadows it.
            let file_level = binding.from <= 1 && binding.to == u32::MAX;
            let redefined = file_level
                && !binding.ty.is_empty()
                && facts.defs.iter().any(|d| {
                    d.short == name && !d.kind.is_binding() && parent_of(&facts.defs, d).is_none()
                });
            if !redefined {
                if binding.ty.is_empty() {
                    return Meaning::Value;
                }
                if binding.ty != name {
                    return Meaning::Instance(binding.ty.clone(), path.to_path_buf());
                }
            }
        }
        if lang == Lang::Python
            && facts
                .params
                .iter()
                .any(|p| p.name == name && p.from <= line && line <= p.to)
        {
            // An untyped parameter: a pytest fixture of that name gives
            // its value, when one is defined here or in a conftest.py
            // above; else it is a local of unknown type.
            return self.fixture(path, facts, name).unwrap_or(Meaning::Value);
        }
        // A definition visible here: top level, or nested in a definition
        // holding the line; members only where the language lets a bare
        // name reach them (not here: see `bare`). A constant or variable
        // is what its binding says it holds, above, not a definition to
        // call into.
        let in_python_function = lang == Lang::Python
            && facts
                .defs
                .iter()
                .any(|f| matches!(f.kind, DefKind::Function | DefKind::Method) && f.contains(line));
        let visible = facts
            .defs
            .iter()
            .filter(|d| d.short == name && d.kind != DefKind::Method && d.kind != DefKind::Impl)
            .filter(|d| !d.kind.is_binding())
            .filter(|d| match parent_of(&facts.defs, d) {
                None => true,
                // Java's nested classes are members, named from anywhere
                // in the file.
                Some(p) => {
                    (p.contains(line) && !is_type_like(p.kind))
                        || (lang == Lang::Java && is_type_like(d.kind))
                }
            })
            .max_by_key(|d| {
                // Python looks a global up when the function runs, once
                // the module has defined every one: inside a function the
                // module's last definition of the name wins, and one of
                // the enclosing function's own before it.
                let global = in_python_function && parent_of(&facts.defs, d).is_none();
                (d.start_line <= line || global, !global, d.start_line)
            });
        if let Some(def) = visible {
            return Meaning::Def(path.to_path_buf(), def.clone());
        }
        // The innermost import of the name in scope here (a function's or
        // an inline module's own before the file's), the last of equals.
        if let Some(import) = facts
            .imports
            .iter()
            .enumerate()
            .filter(|(_, i)| i.local == name && !i.local.is_empty())
            .filter(|(_, i)| i.from <= line && line <= i.to)
            .min_by_key(|(at, i)| (i.to - i.from, std::cmp::Reverse(*at)))
            .map(|(_, i)| i)
        {
            return self.imported(path, &import.module, import.name.as_deref(), name, depth);
        }
        // Globs: `from m import *`, `use m::*`, Java `import a.b.*`.
        for import in facts
            .imports
            .iter()
            .filter(|i| i.local.is_empty() && !i.reexport)
            .filter(|i| i.from <= line && line <= i.to)
        {
            if lang == Lang::C || lang == Lang::Go {
                continue;
            }
            if lang == Lang::Java {
                if let Some(found) = self.java_class(path, &format!("{}.{name}", import.module)) {
                    return found;
                }
                continue;
            }
            let place = self.files.place(lang, path, &import.module);
            if let Some(found) = self.export(&place, name, depth + 1) {
                return found;
            }
        }
        match lang {
            Lang::Go => self.same_package(path, facts, name),
            Lang::Java => self.java_same_package(path, name),
            _ => Meaning::Unknown,
        }
    }

    /// The class an instance of `ty` (met in the file at `file`, near
    /// `line`) is of: the type itself, or what a function of that name
    /// returns (`app = create_app()`), followed a few functions deep.
    fn class_of(&self, file: &Path, ty: &str, line: u32, depth: u32) -> Meaning {
        if self.depth.get() >= MAX_TYPE_DEPTH {
            return Meaning::Unknown;
        }
        self.depth.set(self.depth.get() + 1);
        let meaning = self.class_of_inner(file, ty, line, depth);
        self.depth.set(self.depth.get() - 1);
        meaning
    }

    fn class_of_inner(&self, file: &Path, ty: &str, line: u32, depth: u32) -> Meaning {
        let Some(facts) = self.files.get(file) else {
            return Meaning::Unknown;
        };
        match self.resolve_chain(file, &facts, ty, line) {
            Meaning::Def(def_file, def)
                if matches!(def.kind, DefKind::Function | DefKind::Method) && depth < 3 =>
            {
                let Some(def_facts) = self.files.get(&def_file) else {
                    return Meaning::Unknown;
                };
                match def_facts.returns.iter().find(|r| r.line == def.name_line) {
                    Some(r) => self.class_of(&def_file, &r.ty.clone(), def.name_line, depth + 1),
                    None => Meaning::Unknown,
                }
            }
            other => other,
        }
    }

    /// What `import` (module, name) binds, followed through re-exports.
    fn imported(
        &self,
        from: &Path,
        module: &str,
        name: Option<&str>,
        local: &str,
        depth: u32,
    ) -> Meaning {
        if self.lang() == Lang::Java {
            let dotted = match name {
                Some(name) => format!("{module}.{name}"),
                None => module.to_string(),
            };
            return self
                .java_class(from, &dotted)
                .unwrap_or(Meaning::Module(Place::External(dotted)));
        }
        let place = self.files.place(self.lang(), from, module);
        let Some(name) = name else {
            return Meaning::Module(place);
        };
        // `import D from './m'`: what the module exports as its default
        // (`export default function Button`), else, by convention, the
        // definition of the local name.
        let default = match (&place, name) {
            (Place::File(file), "default") => {
                self.files.get(file).and_then(|f| f.default_export.clone())
            }
            _ => None,
        };
        let name = match (name, default.as_deref()) {
            ("default", Some(exported)) => exported,
            ("default", None) => local,
            (name, _) => name,
        };
        if self.lang() == Lang::Python {
            // `from pkg import sub`: a module, when there is one.
            if let Place::File(file) = &place {
                if file.ends_with("__init__.py") {
                    let sub = self.files.place(Lang::Python, file, &format!(".{name}"));
                    if matches!(sub, Place::File(_)) {
                        return Meaning::Module(sub);
                    }
                }
            }
        }
        if self.lang() == Lang::Rust {
            if let Place::File(file) = &place {
                // `use crate::a::b` where `b` is a module file.
                let sub = self.files.place(Lang::Rust, file, &format!("self::{name}"));
                if matches!(sub, Place::File(_)) {
                    return Meaning::Module(sub);
                }
            }
        }
        match self.export(&place, name, depth + 1) {
            Some(found) => found,
            None => match place {
                Place::External(m) => Meaning::Module(Place::External(format!("{m}.{name}"))),
                // A relative or aliased module with no file: not settled.
                _ => Meaning::Unknown,
            },
        }
    }

    /// The top-level `name` of the module at `place`: defined there, or
    /// imported or re-exported into it (followed). A constant or variable
    /// there is a value, not a definition to call into.
    fn export(&self, place: &Place, name: &str, depth: u32) -> Option<Meaning> {
        let file = match place {
            Place::File(file) => file,
            Place::Dir(dir) => {
                return self.in_package_dir(dir, name, None);
            }
            _ => return None,
        };
        let facts = self.files.get(file)?;
        if let Some(def) = facts.defs.iter().find(|d| {
            d.short == name
                && d.name == d.short
                && d.kind != DefKind::Impl
                && d.kind != DefKind::Method
                && !d.kind.is_binding()
        }) {
            return Some(Meaning::Def(file.clone(), def.clone()));
        }
        if depth > 6 {
            return Some(Meaning::Unknown);
        }
        let reexports = |i: &&facts::Import| {
            i.top_level()
                && match self.lang() {
                    Lang::Python | Lang::Rust => true,
                    _ => i.reexport,
                }
        };
        if let Some(import) = facts
            .imports
            .iter()
            .filter(reexports)
            .find(|i| i.local == name)
        {
            return Some(self.imported(file, &import.module, import.name.as_deref(), name, depth));
        }
        for import in facts
            .imports
            .iter()
            .filter(reexports)
            .filter(|i| i.local.is_empty())
        {
            let place = self.files.place(self.lang(), file, &import.module);
            if let Some(found) = self.export(&place, name, depth + 1) {
                return Some(found);
            }
        }
        None
    }

    /// A top-level definition of `name` in the Go package directory
    /// `dir` (of package `package` when given), from its `.go` files.
    fn in_package_dir(&self, dir: &Path, name: &str, package: Option<&str>) -> Option<Meaning> {
        // A name defined once per platform (`mmap` in `x_unix.go` and
        // `x_windows.go`): the file the host builds.
        let mut first = None;
        for file in self.files.go_files(dir).iter() {
            let Some(facts) = self.files.get(file) else {
                continue;
            };
            if package.is_some_and(|p| facts.package.as_deref() != Some(p)) {
                continue;
            }
            if let Some(def) = facts.defs.iter().find(|d| {
                d.short == name
                    && d.name == d.short
                    && d.kind != DefKind::Method
                    && !d.kind.is_binding()
            }) {
                if go::builds_here(file, facts.build.as_deref()) {
                    return Some(Meaning::Def(file.clone(), def.clone()));
                }
                first.get_or_insert_with(|| Meaning::Def(file.clone(), def.clone()));
            }
        }
        first
    }

    /// The method `name` that the Go type `class` (in the file at
    /// `path`) defines in some file of its package.
    fn go_own_method(&self, path: &Path, class: &str, name: &str) -> Option<Verdict> {
        let (file, def) = self.own_method(path, class, name)?;
        Some(self.verdict_for(&file, &def, "a method of its type"))
    }

    /// The method `name` that the class `class` (defined in the file at
    /// `path`) defines itself: in that file, or for Go in any file of
    /// its package.
    fn own_method(&self, path: &Path, class: &str, name: &str) -> Option<(PathBuf, Def)> {
        let files: Rc<[PathBuf]> = if self.lang() == Lang::Go {
            self.files.go_files(path.parent()?)
        } else {
            Rc::from([path.to_path_buf()])
        };
        files.iter().find_map(|file| {
            let facts = self.files.get(file)?;
            let def = facts.defs.iter().find(|d| {
                d.kind == DefKind::Method
                    && d.short == name
                    && owner_of(d).map(last) == Some(last(class))
            })?;
            Some((file.clone(), def.clone()))
        })
    }

    fn same_package(&self, path: &Path, facts: &Facts, name: &str) -> Meaning {
        let dir = path.parent().unwrap_or(Path::new("/"));
        self.in_package_dir(dir, name, facts.package.as_deref())
            .unwrap_or(Meaning::Unknown)
    }

    /// A bare call `f(...)`, `new F(...)`, `<F>`.
    fn bare(&self, path: &Path, facts: &Facts, call: &Call) -> Verdict {
        let lang = self.lang();
        if lang == Lang::Java && call.callee == Callee::Bare {
            // A bare call in Java is a method of the class around it (or
            // of its bases); else a static import.
            if let Some(class) = self.class_around(facts, call.line) {
                let verdict = self.method_of(path, &class, &call.name, 0);
                if matches!(
                    verdict,
                    Verdict::Target(_) | Verdict::ByName(_) | Verdict::Other { .. }
                ) {
                    return verdict;
                }
            }
        }
        match self.meaning(path, facts, &call.name, call.line, 0) {
            Meaning::Def(file, def) => {
                let reason = if file == path {
                    "defined in the same file"
                } else {
                    "imported"
                };
                self.verdict_for(&file, &def, reason)
            }
            Meaning::Module(Place::External(m)) => Verdict::Outside(format!("from {m}")),
            Meaning::Module(_) => Verdict::CannotTell("a module called as a function"),
            Meaning::Instance(..) | Meaning::SelfOf(..) => {
                Verdict::Outside("a variable holding a callable".into())
            }
            Meaning::Value => Verdict::Outside("a local variable of that name".into()),
            Meaning::Unknown => self.unknown_bare(path, facts, call),
        }
    }

    fn unknown_bare(&self, path: &Path, facts: &Facts, call: &Call) -> Verdict {
        let name = call.name.as_str();
        match self.lang() {
            Lang::Python if PYTHON_BUILTINS.contains(&name) => {
                Verdict::Outside("a Python builtin".into())
            }
            Lang::Go if GO_BUILTINS.contains(&name) => Verdict::Outside("a Go builtin".into()),
            Lang::C => self.c_global(path, facts),
            Lang::Go => Verdict::CannotTell("not defined in its package"),
            _ => Verdict::CannotTell("not defined or imported in the file"),
        }
    }

    /// The method `name` of the class named `class` (as its definition
    /// names it) in the file at `path`, through its bases.
    fn method_of(&self, path: &Path, class: &str, name: &str, depth: u32) -> Verdict {
        let target = self.target;
        if path == target.canon && target.owner.as_deref() == Some(class) {
            return Verdict::Target(if depth == 0 {
                "a method of its class"
            } else {
                "inherited from its class"
            });
        }
        let Some(facts) = self.files.get(path) else {
            return Verdict::CannotTell("the class's file cannot be read");
        };
        if let Some(def) = facts
            .defs
            .iter()
            .find(|d| d.kind == DefKind::Method && d.short == name && owner_of(d) == Some(class))
        {
            return self.verdict_for(path, def, "a method of its class");
        }
        if depth > 4 {
            return Verdict::CannotTell("a deep class hierarchy");
        }
        let bases: Vec<String> = facts
            .classes
            .iter()
            .find(|c| c.name == class)
            .map(|c| c.bases.clone())
            .unwrap_or_default();
        if self.lang() == Lang::Go && !bases.is_empty() {
            // A Go type's own methods live in any file of its package, and
            // hide those its embedded fields promote.
            if let Some(verdict) = self.go_own_method(path, class, name) {
                return verdict;
            }
        }
        let line = facts
            .classes
            .iter()
            .find(|c| c.name == class)
            .map_or(1, |c| c.line);
        let mut unresolved = false;
        for base in &bases {
            if matches!(base.as_str(), "object" | "Object") {
                continue;
            }
            match self.resolve_chain(path, &facts, base, line) {
                Meaning::Def(file, def) if is_type_like(def.kind) => {
                    match self.method_of(&file, &def.name, name, depth + 1) {
                        Verdict::Target(_) => return Verdict::Target("inherited from its class"),
                        v @ (Verdict::Other { .. } | Verdict::ByName(_)) => return v,
                        _ => unresolved = true,
                    }
                }
                Meaning::Module(Place::External(m)) => {
                    return Verdict::Outside(format!("inherited from {m}"));
                }
                _ => unresolved = true,
            }
        }
        if unresolved {
            if target.owner.as_deref().map(last) == bases.iter().map(|b| last(b)).next() {
                return Verdict::ByName("a base of the class's name the graph cannot resolve");
            }
            return Verdict::CannotTell("inherited from a base the graph cannot resolve");
        }
        if self.lang() == Lang::Rust || self.lang() == Lang::Go {
            // Methods live in impls and files of their own: the type is
            // the target's when it is the same definition, or, where the
            // graph cannot find one of the two, when it has its name.
            return self.same_type(path, &facts, last(class), 1, "a method of its type");
        }
        Verdict::CannotTell("the class defines no such method")
    }

    /// Where the type named `name` (in the file at `path`, near `line`) is
    /// defined, when the graph can find it.
    fn type_def(
        &self,
        path: &Path,
        facts: &Facts,
        name: &str,
        line: u32,
    ) -> Option<(PathBuf, u32)> {
        match self.resolve_chain(path, facts, name, line) {
            Meaning::Def(file, def) if is_type_like(def.kind) => Some((file, def.name_line)),
            _ => None,
        }
    }

    /// Whether the type named `name` where a call stands is the target's
    /// own type (Rust, Go): the same definition when both are found, else
    /// the same name.
    fn same_type(
        &self,
        path: &Path,
        facts: &Facts,
        name: &str,
        line: u32,
        reason: &'static str,
    ) -> Verdict {
        let here = self.type_def(path, facts, name, line);
        self.type_verdict(here, name, reason)
    }

    /// Whether the type named `name`, defined at `here` (file and name
    /// line) when the graph found it, is the target's own type: the same
    /// definition when both are found, else the same name (by name only).
    fn type_verdict(
        &self,
        here: Option<(PathBuf, u32)>,
        name: &str,
        reason: &'static str,
    ) -> Verdict {
        let Some(owner) = self.target.owner.as_deref().map(last) else {
            return Verdict::Outside(format!("a method of {name}"));
        };
        if owner != last(name) {
            return Verdict::Outside(format!("a method of {name}"));
        }
        let there = self
            .files
            .get(&self.target.canon)
            .and_then(|f| self.type_def(&self.target.canon, &f, owner, self.target.def.name_line));
        match (here, there) {
            (Some(a), Some(b)) if a != b => Verdict::Outside(format!(
                "a method of another {name} ({}:{})",
                super::display(&a.0),
                a.1
            )),
            (Some(_), Some(_)) => Verdict::Target(reason),
            // One of the two types is not found: the same name only.
            _ => Verdict::ByName("a type of the target's type's name"),
        }
    }

    /// A dotted name (`m.Base`, `Base`) resolved from the file's scope.
    /// A part written as a call (`tx.Bucket().Cursor`) stands for what
    /// the function it names returns.
    fn resolve_chain(&self, path: &Path, facts: &Facts, chain: &str, line: u32) -> Meaning {
        let mut meaning = Meaning::Unknown;
        for (i, part) in chain.split('.').enumerate() {
            let (name, called) = match part.strip_suffix("()") {
                Some(name) => (name, true),
                None => (part, false),
            };
            meaning = if i == 0 {
                self.meaning(path, facts, name, line, 0)
            } else {
                self.step(meaning, name, line)
            };
            if called {
                meaning = self.result_of(meaning);
            }
        }
        meaning
    }

    /// What calling the function `meaning` names gives: an instance of
    /// its written return type, or a new instance of a class.
    fn result_of(&self, meaning: Meaning) -> Meaning {
        match meaning {
            Meaning::Def(file, def) if is_type_like(def.kind) => Meaning::Instance(def.name, file),
            Meaning::Def(file, def) => {
                let returned = self.files.get(&file).and_then(|facts| {
                    let r = facts.returns.iter().find(|r| r.line == def.name_line)?;
                    Some(r.ty.clone())
                });
                match returned {
                    Some(ty) => Meaning::Instance(ty, file),
                    None => Meaning::Unknown,
                }
            }
            _ => Meaning::Unknown,
        }
    }

    /// `meaning.part`.
    fn step(&self, meaning: Meaning, part: &str, line: u32) -> Meaning {
        match meaning {
            Meaning::Module(place) => match &place {
                Place::External(m) => Meaning::Module(Place::External(format!("{m}.{part}"))),
                _ => {
                    if self.lang() == Lang::Python {
                        if let Place::File(file) = &place {
                            let sub = self.files.place(Lang::Python, file, &format!(".{part}"));
                            if file.ends_with("__init__.py") && matches!(sub, Place::File(_)) {
                                return Meaning::Module(sub);
                            }
                        }
                    }
                    self.export(&place, part, 1).unwrap_or(Meaning::Unknown)
                }
            },
            Meaning::SelfOf(file, class) => self.member_of(&file, &class, part, line, 0),
            // An instance's field is the one its class declares: looked up
            // from a line inside the class, where `this.x` is bound.
            Meaning::Instance(ty, file) => match self.class_of(&file, &ty, line, 0) {
                Meaning::Def(class_file, def) if is_type_like(def.kind) => {
                    self.member_of(&class_file, &def.name, part, def.name_line, 0)
                }
                _ => Meaning::Unknown,
            },
            // `Registry.for_app`: a method of the class, as a function
            // whose declared return types what it gives.
            Meaning::Def(file, def) if is_type_like(def.kind) => {
                let Some(facts) = self.files.get(&file) else {
                    return Meaning::Unknown;
                };
                let method = facts.defs.iter().find(|d| {
                    d.kind == DefKind::Method
                        && d.short == part
                        && owner_of(d).map(last) == Some(last(&def.name))
                });
                match method {
                    Some(method) => Meaning::Def(file.clone(), method.clone()),
                    None => Meaning::Unknown,
                }
            }
            Meaning::Def(..) | Meaning::Value | Meaning::Unknown => Meaning::Unknown,
        }
    }

    /// The member `part` of the class named `class` in `file`, seen from
    /// `line` (inside the class, or a method of it): a field typed where
    /// it is declared or set, or a method (`tx.CreateBucket` in `b, err :=
    /// tx.CreateBucket(...)`, whose return type is what the call gives);
    /// else the same member of its bases (`this.elements` in a subclass).
    fn member_of(&self, file: &Path, class: &str, part: &str, line: u32, depth: u32) -> Meaning {
        let Some(facts) = self.files.get(file) else {
            return Meaning::Unknown;
        };
        for field in [format!("self.{part}"), format!("this.{part}")] {
            if let Some(b) = self.binding(&facts, &field, line) {
                if !b.ty.is_empty() {
                    return Meaning::Instance(b.ty.clone(), file.to_path_buf());
                }
            }
        }
        let struct_field = format!("{}.{part}", last(class));
        if let Some(b) = facts.bindings.iter().find(|b| b.name == struct_field) {
            return Meaning::Instance(b.ty.clone(), file.to_path_buf());
        }
        if let Some((file, def)) = self.own_method(file, class, part) {
            return Meaning::Def(file, def);
        }
        if depth > 4
            || !matches!(
                self.lang(),
                Lang::TypeScript | Lang::Tsx | Lang::JavaScript | Lang::Python
            )
        {
            return Meaning::Unknown;
        }
        let Some(declared) = facts.classes.iter().find(|c| c.name == class) else {
            return Meaning::Unknown;
        };
        for base in &declared.bases {
            if let Meaning::Def(base_file, def) =
                self.resolve_chain(file, &facts, base, declared.line)
            {
                if is_type_like(def.kind) {
                    let found =
                        self.member_of(&base_file, &def.name, part, def.name_line, depth + 1);
                    if !matches!(found, Meaning::Unknown) {
                        return found;
                    }
                }
            }
        }
        Meaning::Unknown
    }

    /// `a.b.f(...)`.
    fn member(&self, path: &Path, facts: &Facts, call: &Call, chain: &[String]) -> Verdict {
        let mut meaning = self.meaning(path, facts, &chain[0], call.line, 0);
        if self.lang() == Lang::Java && matches!(meaning, Meaning::Unknown) && chain.len() > 1 {
            // `a.b.C.m()`: a class named by its package.
            if let Some(class) = self.java_class(path, &chain.join(".")) {
                return self.on_meaning(class, call);
            }
        }
        for part in &chain[1..] {
            meaning = self.step(meaning, part, call.line);
        }
        self.on_meaning(meaning, call)
    }

    /// What the receiver of `x.f()` is, when `x` is a call
    /// (`chain.method(...)`): an instance of the type the called
    /// definition returns, when the graph can tell which it is and its
    /// return type is written (or, in Python, returned by a variable).
    fn returned(
        &self,
        path: &Path,
        facts: &Facts,
        line: u32,
        chain: &[String],
        method: &str,
    ) -> Meaning {
        let inner = Call {
            line,
            start: 0,
            end: 0,
            name: method.to_string(),
            callee: if chain.is_empty() {
                Callee::Bare
            } else {
                Callee::Member(chain.to_vec())
            },
            args: None,
            node: (0, 0),
        };
        let (file, def) = match self.attribute(path, facts, &inner) {
            Verdict::Target(_) => (self.target.canon.clone(), self.target.def.clone()),
            Verdict::Other { path, def } => (path, def),
            _ => return Meaning::Unknown,
        };
        if is_type_like(def.kind) {
            // `T().f()`, `new T().f()`: a method of a new `T`.
            return Meaning::Def(file, def);
        }
        let Some(def_facts) = self.files.get(&file) else {
            return Meaning::Unknown;
        };
        match def_facts.returns.iter().find(|r| r.line == def.name_line) {
            Some(r) => Meaning::Instance(r.ty.clone(), file.clone()),
            None => Meaning::Unknown,
        }
    }

    /// A method call `call` on a receiver that means `meaning`.
    fn on_meaning(&self, meaning: Meaning, call: &Call) -> Verdict {
        let free = self.target.owner.is_none();
        match meaning {
            Meaning::Module(Place::External(m)) => Verdict::Outside(format!("from {m}")),
            Meaning::Module(place) => match self.export(&place, &call.name, 1) {
                Some(Meaning::Def(file, def)) => {
                    self.verdict_for(&file, &def, "through its module")
                }
                Some(Meaning::Module(Place::External(m))) => Verdict::Outside(format!("from {m}")),
                _ => Verdict::CannotTell("the module does not define it"),
            },
            Meaning::Def(file, def) if is_type_like(def.kind) => {
                // `Outer.Inner(...)`, `new Outer.Inner()`: a nested class.
                let nested = format!("{}.{}", def.name, call.name);
                let inner = self.files.get(&file).and_then(|f| {
                    f.defs
                        .iter()
                        .find(|d| d.name == nested && is_type_like(d.kind))
                        .cloned()
                });
                match inner {
                    Some(inner) => self.verdict_for(&file, &inner, "a class nested in its class"),
                    None => self.method_of(&file, &def.name, &call.name, 0),
                }
            }
            Meaning::Def(..) => Verdict::CannotTell("an attribute of a function"),
            Meaning::SelfOf(file, class) => {
                if free {
                    return Verdict::Outside("a method, not the function".into());
                }
                self.method_of(&file, &class, &call.name, 0)
            }
            Meaning::Instance(ty, file) => {
                if free {
                    return Verdict::Outside(format!("a method of {ty}, not the function"));
                }
                match self.class_of(&file, &ty, call.line, 0) {
                    Meaning::Def(class_file, def) if is_type_like(def.kind) => {
                        match self.method_of(&class_file, &def.name, &call.name, 0) {
                            Verdict::Target(_) => {
                                Verdict::Target("a receiver of its declared type")
                            }
                            other => other,
                        }
                    }
                    Meaning::Module(Place::External(m)) => {
                        Verdict::Outside(format!("a method of {m}"))
                    }
                    _ => {
                        let by_name = matches!(self.lang(), Lang::Rust | Lang::Go);
                        // `b, err := tx.CreateBucket()` with `tx` untyped:
                        // `tx.CreateBucket` names no type but a call on a
                        // variable, whose result the graph does not know.
                        let from_a_call = || {
                            let head = ty.split(['.', ':']).next().unwrap_or_default();
                            self.files
                                .get(&file)
                                .is_some_and(|f| self.binding(&f, head, call.line).is_some())
                        };
                        if self.target.owner.as_deref().map(last) == Some(last(&ty)) {
                            Verdict::ByName("a declared type of the target's type's name")
                        } else if from_a_call() {
                            Verdict::CannotTell("a receiver from a call the graph cannot follow")
                        } else if by_name {
                            Verdict::Outside(format!("a method of {ty}"))
                        } else {
                            Verdict::CannotTell("a receiver of a type the graph cannot resolve")
                        }
                    }
                }
            }
            Meaning::Value | Meaning::Unknown => {
                if free {
                    Verdict::Outside("a method on a value, not the function".into())
                } else {
                    self.by_unique_name("a method on a receiver of unknown type")
                }
            }
        }
    }

    /// `super().f(...)`, `super.f(...)`: the bases of the class around.
    fn super_call(&self, path: &Path, facts: &Facts, call: &Call) -> Verdict {
        let Some(class) = self.class_around(facts, call.line) else {
            return Verdict::CannotTell("super outside a class");
        };
        let Some(info) = facts.classes.iter().find(|c| c.name == class) else {
            return Verdict::CannotTell("a class without bases the parser can see");
        };
        for base in &info.bases {
            if let Meaning::Def(file, def) = self.resolve_chain(path, facts, base, info.line) {
                if is_type_like(def.kind) {
                    return self.method_of(&file, &def.name, &call.name, 0);
                }
            }
        }
        Verdict::CannotTell("a base the graph cannot resolve")
    }

    /// Rust `a::b::f(...)`, `Self::f(...)`, `Type::f(...)`.
    fn path_call(&self, path: &Path, facts: &Facts, call: &Call, segments: &[String]) -> Verdict {
        let free = self.target.owner.is_none();
        let Some(head) = segments.first() else {
            return self.bare(path, facts, call);
        };
        let ty = if head == "Self" {
            self.binding(facts, "Self", call.line).map(|b| b.ty.clone())
        } else if segments
            .last()
            .is_some_and(|s| s.starts_with(|c: char| c.is_ascii_uppercase()))
        {
            segments.last().cloned()
        } else {
            None
        };
        if let Some(ty) = ty {
            if free {
                return Verdict::Outside(format!("an associated function of {ty}"));
            }
            if head != "Self" && segments.len() > 1 {
                // `other::Config::load()`: the type the path names, in
                // the module it names, not the file's own `Config`.
                let prefix = &segments[..segments.len() - 1];
                let module = self.module_path(path, facts, prefix, call.line);
                let named = match &module {
                    Meaning::Module(Place::External(m)) => {
                        return Verdict::Outside(format!("an associated function of {m}::{ty}"));
                    }
                    Meaning::Module(place) => self.export(place, &ty, 1),
                    _ => None,
                };
                if let Some(Meaning::Def(file, def)) = named {
                    if is_type_like(def.kind) {
                        return self.type_verdict(
                            Some((file, def.name_line)),
                            &ty,
                            "an associated function of its type, by its module path",
                        );
                    }
                }
            }
            return self.same_type(
                path,
                facts,
                &ty,
                call.line,
                "an associated function of its type",
            );
        }
        let module = self.module_path(path, facts, segments, call.line);
        match module {
            Meaning::Module(Place::External(m)) => Verdict::Outside(format!("from {m}")),
            Meaning::Module(place) => match self.export(&place, &call.name, 1) {
                Some(Meaning::Def(file, def)) => {
                    self.verdict_for(&file, &def, "by its module path")
                }
                _ => Verdict::CannotTell("the module path does not lead to a definition"),
            },
            _ => Verdict::CannotTell("a path the graph cannot resolve"),
        }
    }

    /// What the Rust path `segments` (`crate::a::b`, `m::sub`) names
    /// from the file at `path`: its head as a module or a name, then the
    /// rest.
    fn module_path(&self, path: &Path, facts: &Facts, segments: &[String], line: u32) -> Meaning {
        let Some(head) = segments.first() else {
            return Meaning::Unknown;
        };
        if matches!(head.as_str(), "crate" | "self" | "super") {
            Meaning::Module(self.files.place(Lang::Rust, path, &segments.join("::")))
        } else {
            // Modules and functions are apart in Rust: a path's head is an
            // imported module before it is a local function.
            // The import in scope where the path stands: a function's own
            // `use` before the file's.
            let import = facts
                .imports
                .iter()
                .filter(|i| i.local == *head && i.from <= line && line <= i.to)
                .max_by_key(|i| (i.from, i.line));
            let mut meaning = match import {
                Some(i) => {
                    // `use crate::a as m`: the module `a`, when it is one.
                    let module = i.name.as_deref().map(|name| {
                        self.files
                            .place(Lang::Rust, path, &format!("{}::{name}", i.module))
                    });
                    match module {
                        Some(place @ Place::File(_)) => Meaning::Module(place),
                        _ => self.imported(path, &i.module, i.name.as_deref(), head, 0),
                    }
                }
                None => self.meaning(path, facts, head, line, 0),
            };
            for part in &segments[1..] {
                meaning = match meaning {
                    Meaning::Module(Place::File(file)) => {
                        let sub = self
                            .files
                            .place(Lang::Rust, &file, &format!("self::{part}"));
                        if matches!(sub, Place::File(_)) {
                            Meaning::Module(sub)
                        } else {
                            self.step(Meaning::Module(Place::File(file)), part, line)
                        }
                    }
                    other => self.step(other, part, line),
                };
            }
            match meaning {
                Meaning::Unknown => Meaning::Module(Place::External(segments.join("::"))),
                other => other,
            }
        }
    }
}

/// The `.go` files of the directory `dir`, in path order.
/// The innermost definition strictly around `def`.
pub(super) fn parent_of<'f>(defs: &'f [Def], def: &Def) -> Option<&'f Def> {
    defs.iter()
        .filter(|d| {
            d.start_line <= def.start_line
                && def.end_line <= d.end_line
                && !(d.start_line == def.start_line
                    && d.end_line == def.end_line
                    && d.name == def.name)
        })
        .max_by_key(|d| (d.start_line, std::cmp::Reverse(d.end_line)))
}
