//! What the code graph made of a name's calls (`--callers-of`,
//! `--impact`): the target, the attributed sites, what went elsewhere or
//! could not be told. The graph builds a [`Scope`]; pages state it.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Serialize;

use crate::defs::Def;
use crate::lang::Lang;

/// The definition whose dependents are asked for.
#[derive(Debug, Clone)]
pub struct Target {
    /// The spec as typed.
    pub spec: String,
    /// The file as given, and its canonical path.
    pub path: Vec<u8>,
    pub canon: PathBuf,
    /// The grammar the file is read with.
    pub lang: Lang,
    /// The definition (the implementation, among overload declarations).
    pub def: Def,
    /// Name lines of every declaration that is this symbol (overload
    /// stubs and signatures, then the implementation).
    pub lines: Vec<u32>,
    /// The class the method belongs to, as its definitions name it.
    pub owner: Option<String>,
    /// C: the function is `static` (invisible to other files).
    pub is_static: bool,
    /// C: files with a non-static definition of the name (canonical).
    pub c_definers: Vec<PathBuf>,
    /// C: files that `#define` the name as another function's
    /// (canonical), with that function's name.
    pub c_renames: Vec<(PathBuf, String)>,
}

/// One call site attributed to the target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    /// 1-based line, and byte columns of the called name in it.
    pub line: u32,
    pub start: u32,
    pub end: u32,
    /// The cascade's step that settled it.
    pub reason: &'static str,
    /// Settled by a name alone (the cascade's by-name verdict), not proven.
    pub by_name: bool,
    /// Byte offsets in the file of the call's whole node (the graph's
    /// `Call::node`): a structural match is scoped by it, not by its line.
    pub node: (u32, u32),
}

/// A call site the cascade could not settle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unsettled {
    pub path: String,
    pub line: u32,
    pub reason: &'static str,
}

/// Calls attributed elsewhere, grouped by where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Elsewhere {
    /// The other definition's file and name line, and its name; or,
    /// for what is not a definition in the tree, `reason` alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub count: u64,
}

/// One definition that depends on the target, at some level of
/// `--impact`.
#[derive(Debug, Clone)]
pub struct Dependent {
    /// The file as rg printed it.
    pub path: Vec<u8>,
    /// The enclosing named definition; `None` for calls at a file's top
    /// level (a script, a module's set-up code).
    pub def: Option<Def>,
    pub test: bool,
    /// Call sites of the level above inside it.
    pub sites: u64,
}

/// One level of `--impact`: 1 for the target's callers, 2 for theirs…
#[derive(Debug, Clone)]
pub struct Level {
    pub depth: u32,
    pub dependents: Vec<Dependent>,
}

/// What the graph made of every call of the name in the files that spell
/// it.
#[derive(Debug, Clone)]
pub struct Scope {
    pub target: Target,
    /// `--impact` (else `--callers-of`).
    pub impact: bool,
    /// Attributed sites by file (the path as rg printed it), in line order.
    pub attributed: BTreeMap<Vec<u8>, Vec<Site>>,
    pub elsewhere: Vec<Elsewhere>,
    pub cannot_tell: Vec<Unsettled>,
    /// `--proven-only`: the calls attributed by name alone are left out
    /// of `attributed`, and listed here.
    pub proven_only: bool,
    pub left_by_name: Vec<Unsettled>,
    /// Files rg listed for spelling the name, and of those, files read in
    /// the target's language family.
    pub files_listed: u64,
    pub files_read: u64,
    /// Files of the family left unread by the budget (`--graph-files`),
    /// and that budget when it left some (with `--impact`, summed over
    /// the levels).
    pub files_unread: u64,
    pub files_budget: Option<usize>,
    /// Set when the language has no graph: calls are matched by name.
    pub by_name_only: bool,
    /// `--impact`: the levels walked, and why the walk stopped short.
    pub levels: Vec<Level>,
    pub stopped: Option<String>,
    /// Attributed lines the search pattern did not match (set by
    /// the graph's tallies).
    pub not_matched: u64,
    /// `--impact` with paths: the tree the walk searched instead (the
    /// page keeps the paths).
    pub walked: Option<String>,
}

impl Scope {
    pub fn attributed_count(&self) -> u64 {
        self.attributed.values().map(|s| s.len() as u64).sum()
    }

    /// The attributed calls settled by a name alone (none with
    /// `--proven-only`: they are left out).
    pub fn by_name(&self) -> impl Iterator<Item = (&Vec<u8>, &Site)> {
        self.attributed
            .iter()
            .flat_map(|(path, sites)| sites.iter().map(move |s| (path, s)))
            .filter(|(_, s)| s.by_name)
    }
}
