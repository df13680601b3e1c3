//! What the code graph made of the calls of a name (`--callers-of`,
//! `--impact`), as the page's footer says it and as the JSON's
//! `scope` object.
//!
//! ```text
//! callers-of: method Cache.load (src/config.py:12): 7 calls attributed (1 by name), in 4 files
//!   by name: 1 call: src/e.py:5 the tree's only definition of the name (--proven-only leaves it out)
//!   other definitions: 3 calls: src/b.py:40 load (2), from json.load (1)
//!   cannot tell: 2 calls: src/c.py:88 a method on a receiver of unknown type; src/d.py:9 …
//! ```
//!
//! `--impact` adds one line per level (`level 1 (callers): …`, tests
//! marked `[test]`) and, when the walk stopped short, why. Each list is
//! cut at [`LIST_MAX_BYTES`], saying how many it left out; the JSON lists
//! everything.
//!
//! The JSON object (a field of the search document, present only with
//! one of the two flags):
//!
//! ```json
//! "scope": {"mode": "callers-of",
//!           "target": {"path": "src/config.py", "name": "load", "kind": "function", "line": 12},
//!           "by_name_only": false, "files_listed": 9, "files_read": 9,
//!           "files_unread": 0, "files_budget": null,
//!           "attributed": 7, "proven": 6, "proven_only": false, "not_matched": 0,
//!           "by_name": [{"path": "src/e.py", "line": 5, "reason": "the tree's only definition of the name"}],
//!           "reasons": [{"reason": "imported", "count": 5}, ...],
//!           "elsewhere": [{"path": "src/b.py", "line": 40, "name": "load", "count": 2},
//!                         {"reason": "from json.load", "count": 1}],
//!           "cannot_tell": [{"path": "src/c.py", "line": 88, "reason": "..."}],
//!           "levels": [{"level": 1, "dependents": [{"path": "src/a.py", "name": "main", "kind": "function", "line": 3, "test": false, "sites": 1}]}],
//!           "stopped": null}
//! ```
//!
//! - `attributed` counts call sites (a line with two calls counts two);
//!   the page's `hits` count the lines among them the pattern matched.
//!   Of those, `proven` are settled by scope, import or declared type;
//!   the others by a name alone, each in `by_name` with its path, line
//!   and rule. With `--proven-only` (`proven_only: true`) those are left
//!   out of `attributed` and `by_name` lists what was left.
//! - `files_unread`: files of the target's language that spell the name
//!   and were not read, past `files_budget` (`--graph-files`; null when
//!   nothing was left); the footer says so, and how to read them all.
//! - `not_matched`: attributed lines the search's pattern did not match.
//! - `elsewhere`: calls attributed to another definition (its `path`,
//!   `line` and `name`), or to something outside the tree (`reason`).
//! - `cannot_tell`: every call the cascade could not settle, with why.
//! - `levels`: `--impact` only (empty otherwise).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::page::scope::{Elsewhere, Scope, Unsettled};

/// Bytes one list of the footer (other definitions, cannot tell, one
/// level) may take, at most.
pub const LIST_MAX_BYTES: usize = 400;

/// Joins `items` with `sep` while they fit in [`LIST_MAX_BYTES`] (the
/// first always does), then says how many were left out.
fn bounded(items: impl ExactSizeIterator<Item = String>, sep: &str) -> String {
    let total = items.len();
    let mut out = String::new();
    let mut named = 0;
    for item in items {
        if named > 0 && out.len() + sep.len() + item.len() > LIST_MAX_BYTES {
            break;
        }
        if named > 0 {
            out.push_str(sep);
        }
        out.push_str(&item);
        named += 1;
    }
    if named < total {
        out.push_str(&format!(" (+{} more; --json lists all)", total - named));
    }
    out
}

/// "1 call", "2 calls".
pub(crate) fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Lines `a` to `b` (1-based, inclusive): `12`, or `12-40`.
pub(crate) fn line_range(a: u64, b: u64) -> String {
    if a == b {
        a.to_string()
    } else {
        format!("{a}-{b}")
    }
}

fn elsewhere_item(e: &Elsewhere) -> String {
    match (&e.path, e.line, &e.name, &e.reason) {
        (Some(path), Some(line), Some(name), _) => format!("{path}:{line} {name} ({})", e.count),
        (_, _, _, Some(reason)) => format!("{reason} ({})", e.count),
        _ => format!("({})", e.count),
    }
}

fn unsettled_item(u: &Unsettled) -> String {
    format!("{}:{} {}", u.path, u.line, u.reason)
}

/// The calls settled by a name alone: attributed, or left out by
/// `--proven-only`; in path and line order.
fn by_name(scope: &Scope) -> Vec<Unsettled> {
    if scope.proven_only {
        return scope.left_by_name.clone();
    }
    scope
        .by_name()
        .map(|(path, site)| Unsettled {
            path: String::from_utf8_lossy(path).into_owned(),
            line: site.line,
            reason: site.reason,
        })
        .collect()
}

/// The footer's lines for `scope`, each ending in a newline.
pub fn text(scope: &Scope) -> String {
    let mode = if scope.impact { "impact" } else { "callers-of" };
    let attributed = scope.attributed_count();
    let how = if scope.by_name_only {
        "matched by name only"
    } else {
        "attributed"
    };
    let by_name = by_name(scope);
    let of_them = if by_name.is_empty() || scope.proven_only {
        String::new()
    } else {
        format!(" ({} by name)", by_name.len())
    };
    let mut out = format!(
        "{mode}: {}: {} {how}{of_them}, in {}",
        scope.target.title(),
        plural(attributed, "call", "calls"),
        plural(scope.attributed.len() as u64, "file", "files"),
    );
    if scope.by_name_only {
        out.push_str(&format!(
            " (no code graph for {}: any `{}(` is listed)",
            scope.target.lang.name(),
            scope.target.def.short
        ));
    }
    out.push('\n');
    if scope.files_unread > 0 {
        let budget = scope.files_budget.unwrap_or_default();
        let per = if scope.impact {
            " per definition followed"
        } else {
            ""
        };
        out.push_str(&format!(
            "  not read: {} that spell the name, past the budget of {budget}{per} (the nearest to the definition are read first); calls there are not counted: --graph-files 0 reads them all\n",
            plural(scope.files_unread, "file", "files"),
        ));
    }
    if !by_name.is_empty() {
        let calls = by_name.len() as u64;
        let list = bounded(by_name.iter().map(unsettled_item), "; ");
        if scope.proven_only {
            out.push_str(&format!(
                "  left out, by name only (--proven-only): {}: {list}\n",
                plural(calls, "call", "calls")
            ));
        } else {
            let it = if calls == 1 { "it" } else { "them" };
            out.push_str(&format!(
                "  by name: {}: {list} (--proven-only leaves {it} out)\n",
                plural(calls, "call", "calls")
            ));
        }
    }
    if scope.not_matched > 0 {
        out.push_str(&format!(
            "  not matched by the pattern: {}\n",
            plural(scope.not_matched, "attributed line", "attributed lines")
        ));
    }
    if !scope.elsewhere.is_empty() {
        let calls: u64 = scope.elsewhere.iter().map(|e| e.count).sum();
        out.push_str(&format!(
            "  other definitions: {}: {}\n",
            plural(calls, "call", "calls"),
            bounded(scope.elsewhere.iter().map(elsewhere_item), ", ")
        ));
    }
    if !scope.cannot_tell.is_empty() && !scope.by_name_only {
        out.push_str(&format!(
            "  cannot tell: {}: {}\n",
            plural(scope.cannot_tell.len() as u64, "call", "calls"),
            bounded(scope.cannot_tell.iter().map(unsettled_item), "; ")
        ));
    }
    for level in &scope.levels {
        let name = if level.depth == 1 {
            "level 1 (callers)".to_string()
        } else {
            format!("level {}", level.depth)
        };
        let items = level.dependents.iter().map(|d| {
            let path = String::from_utf8_lossy(&d.path);
            let test = if d.test { " [test]" } else { "" };
            match &d.def {
                Some(def) => format!("{path}:{} {}{test}", def.name_line, def.title()),
                None => format!("{path} (top level){test}"),
            }
        });
        out.push_str(&format!(
            "  {name}: {}: {}\n",
            plural(level.dependents.len() as u64, "dependent", "dependents"),
            bounded(items, ", ")
        ));
    }
    if let Some(stopped) = &scope.stopped {
        out.push_str(&format!("  {stopped}\n"));
    }
    if let Some(walked) = &scope.walked {
        out.push_str(&format!(
            "  the walk searched {walked}; the page holds the calls under the paths given\n"
        ));
    }
    out
}

#[derive(Debug, Serialize)]
pub struct ScopeDocument {
    pub mode: &'static str,
    pub target: TargetDocument,
    pub by_name_only: bool,
    pub files_listed: u64,
    pub files_read: u64,
    pub files_unread: u64,
    pub files_budget: Option<usize>,
    pub attributed: u64,
    pub proven: u64,
    pub proven_only: bool,
    pub by_name: Vec<Unsettled>,
    pub not_matched: u64,
    pub reasons: Vec<ReasonCount>,
    pub elsewhere: Vec<Elsewhere>,
    pub cannot_tell: Vec<Unsettled>,
    pub levels: Vec<LevelDocument>,
    pub stopped: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct TargetDocument {
    pub path: String,
    pub name: String,
    pub kind: &'static str,
    pub line: u32,
}

#[derive(Debug, Serialize)]
pub struct ReasonCount {
    pub reason: &'static str,
    pub count: u64,
}

#[derive(Debug, Serialize)]
pub struct LevelDocument {
    pub level: u32,
    pub dependents: Vec<DependentDocument>,
}

#[derive(Debug, Serialize)]
pub struct DependentDocument {
    pub path: String,
    /// The enclosing definition; null for a file's top level.
    pub name: Option<String>,
    pub kind: Option<&'static str>,
    pub line: Option<u32>,
    pub test: bool,
    pub sites: u64,
}

/// The JSON's `scope` object.
pub fn document(scope: &Scope) -> ScopeDocument {
    let mut reasons: BTreeMap<&'static str, u64> = BTreeMap::new();
    for site in scope.attributed.values().flatten() {
        *reasons.entry(site.reason).or_default() += 1;
    }
    let mut reasons: Vec<ReasonCount> = reasons
        .into_iter()
        .map(|(reason, count)| ReasonCount { reason, count })
        .collect();
    reasons.sort_by(|a, b| b.count.cmp(&a.count).then(a.reason.cmp(b.reason)));
    let target = &scope.target;
    ScopeDocument {
        mode: if scope.impact { "impact" } else { "callers-of" },
        target: TargetDocument {
            path: String::from_utf8_lossy(&target.path).into_owned(),
            name: target.def.name.clone(),
            kind: target.def.kind.label(),
            line: target.def.name_line,
        },
        by_name_only: scope.by_name_only,
        files_listed: scope.files_listed,
        files_read: scope.files_read,
        files_unread: scope.files_unread,
        files_budget: scope.files_budget,
        attributed: scope.attributed_count(),
        proven: scope.attributed_count() - scope.by_name().count() as u64,
        proven_only: scope.proven_only,
        by_name: by_name(scope),
        not_matched: scope.not_matched,
        reasons,
        elsewhere: scope.elsewhere.clone(),
        cannot_tell: scope.cannot_tell.clone(),
        levels: scope
            .levels
            .iter()
            .map(|level| LevelDocument {
                level: level.depth,
                dependents: level
                    .dependents
                    .iter()
                    .map(|d| DependentDocument {
                        path: String::from_utf8_lossy(&d.path).into_owned(),
                        name: d.def.as_ref().map(|def| def.name.clone()),
                        kind: d.def.as_ref().map(|def| def.kind.label()),
                        line: d.def.as_ref().map(|def| def.name_line),
                        test: d.test,
                        sites: d.sites,
                    })
                    .collect(),
            })
            .collect(),
        stopped: scope.stopped.clone(),
    }
}
