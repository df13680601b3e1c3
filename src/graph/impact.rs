//! `--impact`: the target's callers, their callers… level by level, each
//! level's dependents the named definitions around the calls of the level
//! above, tests marked; where the walk stopped is said.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use anyhow::Result;

use super::{cache, callers_with, graph_lang, resolve, Dependent, Level, Scope, Site, Target};
use crate::defs::{Def, DefKind};
use crate::paths::path_of;
use crate::rg::{Rg, SearchFlags};
use resolve::Files;

/// `--depth`'s default for `--impact`.
pub const DEFAULT_DEPTH: u32 = 2;

/// Dependents a level of `--impact` follows at most: past them the walk
/// stops and says so.
pub const LEVEL_CAP: usize = 40;

/// `--impact`: the target's callers, their callers… to `depth` levels,
/// each level's dependents the named definitions around the sites of the
/// level above. The page quotes every level's sites.
pub fn impact(
    rg: &Rg,
    flags: &SearchFlags,
    target: Target,
    depth: u32,
    cache_dir: Option<PathBuf>,
    max_files: Option<usize>,
    proven_only: bool,
) -> Result<Scope> {
    let files = Files::new(target.lang, cache::FactsCache::new(cache_dir));
    let mut scope = callers_with(
        rg,
        flags,
        target.clone(),
        &files,
        true,
        max_files,
        proven_only,
    )?;
    let mut seen: BTreeSet<(PathBuf, u32)> =
        BTreeSet::from([(target.canon.clone(), target.def.name_line)]);
    let mut frontier = dependents_of(&scope.attributed, &files);
    let mut level = 1;
    loop {
        frontier.retain(|(_, canon, d)| match &d.def {
            Some(def) => seen.insert((canon.clone(), def.name_line)),
            None => true,
        });
        if frontier.is_empty() {
            break;
        }
        scope.levels.push(Level {
            depth: level,
            dependents: frontier.iter().map(|(_, _, d)| d.clone()).collect(),
        });
        if level >= depth {
            let further = frontier.iter().filter(|(_, _, d)| d.def.is_some()).count();
            if further > 0 {
                scope.stopped = Some(format!(
                    "stopped at --depth {depth}: the callers of {further} {} at level {level} were not looked for",
                    if further == 1 { "definition" } else { "definitions" }
                ));
            }
            break;
        }
        if frontier.len() > LEVEL_CAP {
            scope.stopped = Some(format!(
                "stopped at level {level}: {} definitions, more than {LEVEL_CAP} to follow",
                frontier.len()
            ));
            break;
        }
        let mut next = Vec::new();
        for (path, canon, dependent) in &frontier {
            let Some(def) = &dependent.def else {
                continue;
            };
            let Some(facts) = files.get(canon) else {
                continue;
            };
            let sub = Target {
                spec: format!("{}#{}", String::from_utf8_lossy(path), def.name),
                path: path.clone(),
                canon: canon.clone(),
                lang: graph_lang(path, target.lang).unwrap_or(target.lang),
                def: def.clone(),
                lines: vec![def.name_line],
                owner: resolve::owner_of(def).map(str::to_string),
                is_static: facts.statics.contains(&def.short),
                c_definers: Vec::new(),
                c_renames: Vec::new(),
            };
            let found = callers_with(rg, flags, sub, &files, true, max_files, proven_only)?;
            scope.files_unread += found.files_unread;
            scope.files_budget = scope.files_budget.or(found.files_budget);
            scope.left_by_name.extend(found.left_by_name);
            next.extend(dependents_of(&found.attributed, &files));
            for (file, sites) in found.attributed {
                let known = scope.attributed.entry(file).or_default();
                for site in sites {
                    if !known.iter().any(|s| s.line == site.line) {
                        known.push(site);
                    }
                }
                known.sort_by_key(|s| (s.line, s.start));
            }
        }
        frontier = merge_dependents(next);
        level += 1;
        if frontier.is_empty() {
            scope.stopped = Some(format!(
                "level {level}: nothing calls the definitions of level {}",
                level - 1
            ));
        }
    }
    Ok(scope)
}

/// The named definitions around attributed sites, one per definition.
fn dependents_of(
    attributed: &BTreeMap<Vec<u8>, Vec<Site>>,
    files: &Files,
) -> Vec<(Vec<u8>, PathBuf, Dependent)> {
    let mut out = Vec::new();
    for (path, sites) in attributed {
        let Ok(canon) = std::fs::canonicalize(path_of(path)) else {
            continue;
        };
        let Some(facts) = files.get(&canon) else {
            continue;
        };
        let test = is_test_code(path);
        let mut by_def: BTreeMap<Option<u32>, (Option<Def>, u64)> = BTreeMap::new();
        for site in sites {
            let def = dependent_at(&facts.defs, site.line).cloned();
            let entry = by_def
                .entry(def.as_ref().map(|d| d.name_line))
                .or_insert((def, 0));
            entry.1 += 1;
        }
        for (_, (def, sites)) in by_def {
            out.push((
                path.clone(),
                canon.clone(),
                Dependent {
                    path: path.clone(),
                    def,
                    test,
                    sites,
                },
            ));
        }
    }
    out
}

/// Whether the file at `path` is a test (not an example, a fixture or a
/// benchmark, which the ranking's prior puts beside tests): under a
/// `test`, `tests`, `__tests__`, `spec`, `specs` or `testing` directory,
/// or named like one (`test_x.py`, `x_test.go`, `x.test.ts`, `x.spec.js`,
/// `XTest.java`, `XTests.java`, `x_spec.rb`, `conftest.py`).
pub fn is_test_code(path: &[u8]) -> bool {
    let text = String::from_utf8_lossy(path);
    let mut parts: Vec<&str> = text.split('/').collect();
    let name = parts.pop().unwrap_or("");
    let dirs = ["test", "tests", "__tests__", "spec", "specs", "testing"];
    if parts
        .iter()
        .any(|p| dirs.iter().any(|d| p.eq_ignore_ascii_case(d)))
    {
        return true;
    }
    let stem = name.split('.').next().unwrap_or(name);
    name.starts_with("test_")
        || name == "conftest.py"
        || stem.ends_with("_test")
        || stem.ends_with("_spec")
        || stem.ends_with("Test")
        || stem.ends_with("Tests")
        || name.contains(".test.")
        || name.contains(".spec.")
}

/// The definition that depends on a call at `line`: the innermost
/// function or method around it, else the innermost definition of any
/// other kind (a class body's call, a constant's initialiser) but an impl
/// block, else none (the file's top level).
fn dependent_at(defs: &[Def], line: u32) -> Option<&Def> {
    let around = || defs.iter().filter(|d| d.contains(line));
    around()
        .filter(|d| matches!(d.kind, DefKind::Function | DefKind::Method))
        .max_by_key(|d| (d.start_line, std::cmp::Reverse(d.end_line)))
        .or_else(|| {
            around()
                .filter(|d| d.kind != DefKind::Impl)
                .max_by_key(|d| (d.start_line, std::cmp::Reverse(d.end_line)))
        })
}

fn merge_dependents(
    mut all: Vec<(Vec<u8>, PathBuf, Dependent)>,
) -> Vec<(Vec<u8>, PathBuf, Dependent)> {
    all.sort_by(|a, b| {
        (a.0.clone(), a.2.def.as_ref().map(|d| d.name_line))
            .cmp(&(b.0.clone(), b.2.def.as_ref().map(|d| d.name_line)))
    });
    let mut out: Vec<(Vec<u8>, PathBuf, Dependent)> = Vec::new();
    for item in all {
        match out.last_mut() {
            Some(last)
                if last.0 == item.0
                    && last.2.def.as_ref().map(|d| d.name_line)
                        == item.2.def.as_ref().map(|d| d.name_line) =>
            {
                last.2.sites += item.2.sites;
            }
            _ => out.push(item),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;

    #[test]
    fn a_call_depends_through_its_function_else_its_class_never_an_impl() {
        let defs = crate::defs::extract(
            Lang::Python,
            b"class K:\n    x = f()\n\n    def m(self):\n        def inner():\n            f()\n        f()\n\nf()\n",
        );
        let at = |line| dependent_at(&defs, line).map(|d| d.name.clone());
        assert_eq!(at(2).as_deref(), Some("K"));
        assert_eq!(at(6).as_deref(), Some("inner"));
        assert_eq!(at(7).as_deref(), Some("K.m"));
        assert_eq!(at(9), None);
        let rust = crate::defs::extract(Lang::Rust, b"impl S {\n    const X: u8 = f();\n}\n");
        assert!(dependent_at(&rust, 2).is_none_or(|d| d.kind != DefKind::Impl));
    }

    #[test]
    fn tests_are_marked_examples_are_not() {
        for test in [
            "tests/test_app.py",
            "pkg/foo_test.go",
            "src/a.test.ts",
            "src/__tests__/b.tsx",
            "src/test/java/org/x/NodeTest.java",
            "conftest.py",
            "spec/models/user_spec.rb",
        ] {
            assert!(is_test_code(test.as_bytes()), "{test}");
        }
        for code in [
            "examples/tutorial/flaskr/auth.py",
            "src/contest.py",
            "benches/x.rs",
            "src/attest.rs",
        ] {
            assert!(!is_test_code(code.as_bytes()), "{code}");
        }
    }
}
