//! The rooms of `src/` import only downward (docs/design.md, "Layout"): each
//! top-level module may name, by a `crate::` path, only the modules listed
//! after it in [`LAYERS`]. Every `crate::NAME` in a room counts: `use`
//! lines, paths in code, doc links and tests alike. A new upward import,
//! or a new module left out of the table, fails here with the file and
//! line that named it.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use regex::Regex;

/// The top-level modules of `src/`, highest first. Each may import only
/// those after it.
const LAYERS: &[&str] = &[
    // Property tests over every reader of outside bytes (tests only).
    "fuzz",
    // Transports: the MCP server over the request layer.
    "mcp",
    // One JSON request in, one answer out (`scout call` and MCP).
    "request",
    // One module per verb: settings to a pipeline call, an outcome to an
    // exit status.
    "commands",
    "man",
    // clap's flags, and their resolution into each view's settings.
    "cli",
    // Agent integrations: configs written by `scout setup`, hooks.
    "setup",
    "hooks",
    // The faithful views: files, grep, read.
    "views",
    // The pipelines.
    "edit",
    "search",
    "smart",
    "graph",
    "structural",
    // Pages drawn as text or JSON, from the page model below.
    "render",
    "page",
    // Foundations.
    "defs",
    "session",
    "encoder",
    "lang",
    "rg",
    "paths",
    "cache",
    "stamp",
    "hash",
    "bytes",
    "dirs",
    "exit",
    "shell",
    "workers",
    "testing",
];

/// The crate root's files: they declare the rooms and may use any.
const ROOTS: &[&str] = &["lib.rs", "main.rs"];

/// One `crate::NAME` naming another room.
#[derive(Debug)]
struct Import {
    from: String,
    to: String,
    file: PathBuf,
    line: usize,
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The room a file of `src/` belongs to: its first component, without
/// `.rs`; `None` for the crate root's own files.
fn room_of(relative: &Path) -> Option<String> {
    let first = relative.components().next()?.as_os_str().to_str()?;
    if ROOTS.contains(&first) {
        return None;
    }
    Some(first.trim_end_matches(".rs").to_string())
}

/// Every room each `crate::` path of `text` names, with its line:
/// `crate::a::b`, and each first name of a `crate::{a::x, b}` group.
fn named_rooms(text: &str) -> Vec<(String, usize)> {
    let path = Regex::new(r"\bcrate::([a-z_][a-z0-9_]*)").unwrap();
    let group = Regex::new(r"\bcrate::\{").unwrap();
    let line_of = |at: usize| text[..at].matches('\n').count() + 1;
    let mut named: Vec<(String, usize)> = path
        .captures_iter(text)
        .map(|c| (c[1].to_string(), line_of(c.get(0).unwrap().start())))
        .collect();
    for m in group.find_iter(text) {
        let mut depth = 1;
        let mut first = true;
        let mut word = String::new();
        for (offset, ch) in text[m.end()..].char_indices() {
            if depth == 1 && first && (ch.is_ascii_alphanumeric() || ch == '_') {
                word.push(ch);
                continue;
            }
            if !word.is_empty() {
                named.push((std::mem::take(&mut word), line_of(m.end() + offset)));
                first = false;
            }
            match ch {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 1 => first = true,
                _ => {}
            }
            if depth == 0 {
                break;
            }
        }
    }
    named
}

fn imports() -> Vec<Import> {
    let root = src();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files.sort();
    let mut found = Vec::new();
    for file in files {
        let relative = file.strip_prefix(&root).unwrap().to_path_buf();
        let Some(from) = room_of(&relative) else {
            continue;
        };
        let text = fs::read_to_string(&file).unwrap();
        for (to, line) in named_rooms(&text) {
            if to != from {
                found.push(Import {
                    from: from.clone(),
                    to,
                    file: relative.clone(),
                    line,
                });
            }
        }
    }
    found
}

fn rank(room: &str) -> Option<usize> {
    LAYERS.iter().position(|r| *r == room)
}

#[test]
fn rooms_import_only_the_rooms_below_them() {
    let upward: Vec<String> = imports()
        .iter()
        .filter(|i| match (rank(&i.from), rank(&i.to)) {
            (Some(from), Some(to)) => to < from,
            _ => false,
        })
        .map(|i| {
            format!(
                "src/{}:{}: {} names crate::{}, a room above it",
                i.file.display(),
                i.line,
                i.from,
                i.to
            )
        })
        .collect();
    assert!(
        upward.is_empty(),
        "upward imports (tests/it/layers.rs lists the layers):\n{}",
        upward.join("\n")
    );
}

#[test]
fn every_room_has_a_place_in_the_layers() {
    let root = src();
    let mut rooms: Vec<String> = fs::read_dir(&root)
        .unwrap()
        .flatten()
        .filter_map(|e| room_of(Path::new(&e.file_name())))
        .filter(|r| !r.starts_with('.'))
        .collect();
    rooms.sort();
    let missing: Vec<&String> = rooms.iter().filter(|r| rank(r).is_none()).collect();
    assert!(
        missing.is_empty(),
        "rooms not in tests/it/layers.rs's LAYERS: {missing:?}"
    );
    let gone: Vec<&&str> = LAYERS
        .iter()
        .filter(|r| !rooms.iter().any(|room| room == *r))
        .collect();
    assert!(
        gone.is_empty(),
        "LAYERS names rooms src/ does not have: {gone:?}"
    );
}

#[test]
fn no_cycle_among_the_rooms() {
    // Implied by the order, but said on its own: a cycle is what the
    // layers exist to prevent, and this names it whatever the table says.
    let mut edges: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for i in imports() {
        edges.entry(i.from).or_default().push(i.to);
    }
    fn visit(
        room: &str,
        edges: &BTreeMap<String, Vec<String>>,
        path: &mut Vec<String>,
        done: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|r| r == room) {
            let mut cycle = path[at..].to_vec();
            cycle.push(room.to_string());
            return Some(cycle);
        }
        if done.iter().any(|r| r == room) {
            return None;
        }
        path.push(room.to_string());
        for next in edges.get(room).into_iter().flatten() {
            if let Some(cycle) = visit(next, edges, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.push(room.to_string());
        None
    }
    let mut done = Vec::new();
    for room in edges.keys() {
        let cycle = visit(room, &edges, &mut Vec::new(), &mut done);
        assert!(
            cycle.is_none(),
            "rooms in a cycle: {}",
            cycle.unwrap().join(" -> ")
        );
    }
}

#[test]
fn the_scan_sees_paths_groups_and_doc_links() {
    let text = "use crate::a::b;\nuse crate::{c::d, e, f::{g, h}};\n/// [`x`](crate::y::z)\n";
    let named: Vec<(String, usize)> = named_rooms(text);
    let names: Vec<&str> = named.iter().map(|(n, _)| n.as_str()).collect();
    for expected in ["a", "c", "e", "f", "y"] {
        assert!(names.contains(&expected), "{expected} in {names:?}");
    }
    assert!(!names.contains(&"g") && !names.contains(&"d"), "{names:?}");
    assert!(named.contains(&("y".to_string(), 3)));
}
