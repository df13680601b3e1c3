//! Where an import leads: from a module as a file writes it (`..pkg.x`,
//! `./util`, `@/lib/x`, `crate::a::b`, `github.com/x/y`, `a.b.C`, `x.h`)
//! to the file or directory that holds it, by the language's own rules
//! and the project files that steer them (`tsconfig.json` paths,
//! `Cargo.toml`, `go.mod`). Only the file system is read; nothing here
//! parses source.

use std::path::{Path, PathBuf};

use crate::lang::Lang;
use crate::paths::within_bound;

/// Where a module is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A source file (canonical path).
    File(PathBuf),
    /// A directory that is the module (a Go package; canonical path).
    Dir(PathBuf),
    /// Outside the tree: a package of the standard library or a
    /// dependency (the module as written).
    External(String),
    /// Relative, or under the project's own aliases, but no file is there.
    Missing(String),
}

/// Resolves `module` as written in the file at `from` (canonical).
pub fn resolve(lang: Lang, from: &Path, module: &str) -> Place {
    let dir = from.parent().unwrap_or(Path::new("/"));
    match lang {
        Lang::Python => python(dir, module),
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => js(dir, module),
        Lang::Rust => rust(from, module),
        Lang::Go => go(dir, module),
        Lang::Java => java(from, module),
        Lang::C | Lang::Cpp => c(dir, module),
        _ => Place::External(module.to_string()),
    }
}

/// `path` canonical, when it is within the thread's bound
/// ([`crate::paths::within_bound`]) before and after its links resolve.
fn canonical(path: &Path) -> Option<PathBuf> {
    if !within_bound(path) {
        return None;
    }
    std::fs::canonicalize(path).ok().filter(|p| within_bound(p))
}

/// The directory above `dir`, while it is within the thread's bound: the
/// walks up to a project file stop at the roots of a confined request.
fn up(dir: &Path) -> Option<&Path> {
    dir.parent().filter(|p| within_bound(p))
}

fn first_file(candidates: impl IntoIterator<Item = PathBuf>) -> Option<PathBuf> {
    candidates
        .into_iter()
        .find(|p| within_bound(p) && p.is_file())
        .and_then(|p| canonical(&p))
}

// ---- Python ----

fn python_at(base: &Path, dotted: &str) -> Option<PathBuf> {
    let mut path = base.to_path_buf();
    for part in dotted.split('.').filter(|p| !p.is_empty()) {
        path.push(part);
    }
    if dotted.is_empty() {
        return first_file([path.join("__init__.py")]);
    }
    first_file([
        path.with_extension("py"),
        path.join("__init__.py"),
        path.with_extension("pyi"),
        path.join("__init__.pyi"),
    ])
}

fn python(dir: &Path, module: &str) -> Place {
    let dots = module.chars().take_while(|&c| c == '.').count();
    if dots > 0 {
        let mut base = dir.to_path_buf();
        for _ in 1..dots {
            base.pop();
        }
        return python_at(&base, &module[dots..])
            .map_or_else(|| Place::Missing(module.to_string()), Place::File);
    }
    // Absolute: from the roots a program run in the tree would have on
    // its path: the directory above the file's top package, its
    // ancestors, and a `src/` beside each (the src layout).
    let mut root = dir;
    while root.join("__init__.py").is_file() {
        match up(root) {
            Some(up) => root = up,
            None => break,
        }
    }
    let mut at = Some(root);
    while let Some(base) = at {
        for candidate in [base.to_path_buf(), base.join("src")] {
            if let Some(file) = python_at(&candidate, module) {
                return Place::File(file);
            }
        }
        at = up(base).filter(|p| p.as_os_str().len() > 1);
    }
    Place::External(module.to_string())
}

// ---- JavaScript, TypeScript ----

const JS_EXTENSIONS: [&str; 8] = ["ts", "tsx", "d.ts", "js", "jsx", "mjs", "cjs", "mts"];

fn js_file(path: &Path) -> Option<PathBuf> {
    if within_bound(path) && path.is_file() {
        return canonical(path);
    }
    let name = path.file_name()?.to_string_lossy().into_owned();
    let mut candidates: Vec<PathBuf> = JS_EXTENSIONS
        .iter()
        .map(|ext| path.with_file_name(format!("{name}.{ext}")))
        .collect();
    // `./x.js` written for `./x.ts` (ESM TypeScript).
    if let Some(stem) = name
        .strip_suffix(".js")
        .or_else(|| name.strip_suffix(".jsx"))
    {
        candidates.push(path.with_file_name(format!("{stem}.ts")));
        candidates.push(path.with_file_name(format!("{stem}.tsx")));
    }
    candidates.extend(
        JS_EXTENSIONS
            .iter()
            .map(|ext| path.join(format!("index.{ext}"))),
    );
    first_file(candidates)
}

fn js(dir: &Path, module: &str) -> Place {
    if module.starts_with('.') {
        return js_file(&dir.join(module))
            .map_or_else(|| Place::Missing(module.to_string()), Place::File);
    }
    if let Some(config) = tsconfig(dir) {
        for (pattern, targets, base) in &config {
            let rest = match pattern.strip_suffix('*') {
                Some(prefix) => match module.strip_prefix(prefix) {
                    Some(rest) => rest,
                    None => continue,
                },
                None if pattern == module => "",
                None => continue,
            };
            for target in targets {
                let target = target.replacen('*', rest, 1);
                if let Some(file) = js_file(&base.join(target)) {
                    return Place::File(file);
                }
            }
            return Place::Missing(module.to_string());
        }
    }
    Place::External(module.to_string())
}

/// `compilerOptions.paths` of the nearest `tsconfig.json` or
/// `jsconfig.json` above `dir` (following one `extends`), each pattern
/// with its targets and the directory they are relative to; with only a
/// `baseUrl`, `*` maps to it.
type PathMap = Vec<(String, Vec<String>, PathBuf)>;

fn tsconfig(dir: &Path) -> Option<PathMap> {
    let mut at = Some(dir).filter(|d| within_bound(d));
    while let Some(d) = at {
        for name in ["tsconfig.json", "jsconfig.json"] {
            let file = d.join(name);
            if file.is_file() {
                let mut map = read_paths(&file, 0);
                map.sort_by_key(|(p, _, _)| std::cmp::Reverse(p.len()));
                return Some(map);
            }
        }
        at = up(d);
    }
    None
}

fn read_paths(file: &Path, depth: u32) -> PathMap {
    if !within_bound(file) {
        return Vec::new();
    }
    let Ok(text) = std::fs::read_to_string(file) else {
        return Vec::new();
    };
    let Ok(json) = serde_json::from_str::<serde_json::Value>(&strip_json_comments(&text)) else {
        return Vec::new();
    };
    let dir = file.parent().unwrap_or(Path::new("/"));
    let options = &json["compilerOptions"];
    let base = options["baseUrl"]
        .as_str()
        .map(|b| dir.join(b))
        .unwrap_or_else(|| dir.to_path_buf());
    let mut map: PathMap = Vec::new();
    if let Some(paths) = options["paths"].as_object() {
        for (pattern, targets) in paths {
            let targets = targets
                .as_array()
                .map(|t| {
                    t.iter()
                        .filter_map(|x| x.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default();
            map.push((pattern.clone(), targets, base.clone()));
        }
    } else if options["baseUrl"].is_string() {
        map.push(("*".into(), vec!["*".into()], base.clone()));
    }
    if map.is_empty() && depth < 3 {
        if let Some(parent) = json["extends"].as_str().filter(|e| e.starts_with('.')) {
            let mut parent = dir.join(parent);
            if parent.extension().is_none() {
                parent.set_extension("json");
            }
            return read_paths(&parent, depth + 1);
        }
    }
    map
}

/// JSON with `//` and `/* */` comments and trailing commas (tsconfig's
/// dialect) as plain JSON.
fn strip_json_comments(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut in_string = false;
    while i < bytes.len() {
        let c = bytes[i];
        if in_string {
            out.push(c as char);
            if c == b'\\' && i + 1 < bytes.len() {
                out.push(bytes[i + 1] as char);
                i += 1;
            } else if c == b'"' {
                in_string = false;
            }
        } else if c == b'"' {
            in_string = true;
            out.push('"');
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
            continue;
        } else if c == b',' {
            // A trailing comma: the next non-space is a closer.
            let next = bytes[i + 1..].iter().find(|b| !b.is_ascii_whitespace());
            if !matches!(next, Some(b'}') | Some(b']')) {
                out.push(',');
            }
        } else {
            out.push(c as char);
        }
        i += 1;
    }
    // Non-ASCII bytes were pushed one by one: rebuild from the bytes.
    String::from_utf8(out.chars().map(|c| c as u8).collect()).unwrap_or_default()
}

// ---- Rust ----

/// The crate's source root (`src/`) and the directory a module file's
/// children live in: `src/a/b.rs` holds `src/a/b/`, `mod.rs`, `lib.rs`
/// and `main.rs` their own directory.
fn rust_children_dir(file: &Path) -> PathBuf {
    let dir = file.parent().unwrap_or(Path::new("/"));
    match file.file_name().and_then(|n| n.to_str()) {
        Some("mod.rs" | "lib.rs" | "main.rs") => dir.to_path_buf(),
        _ => dir.join(file.file_stem().unwrap_or_default()),
    }
}

fn rust_crate_root(file: &Path) -> Option<PathBuf> {
    let mut at = file.parent().filter(|d| within_bound(d));
    while let Some(d) = at {
        if d.join("Cargo.toml").is_file() {
            return Some(d.join("src"));
        }
        at = up(d);
    }
    None
}

/// The file of module `segments` below the directory `dir`.
fn rust_module_file(dir: &Path, segments: &[&str]) -> Option<PathBuf> {
    let mut path = dir.to_path_buf();
    for s in segments {
        path.push(s);
    }
    first_file([path.with_extension("rs"), path.join("mod.rs")])
}

fn rust(from: &Path, module: &str) -> Place {
    let segments: Vec<&str> = module.split("::").filter(|s| !s.is_empty()).collect();
    let Some((&head, rest)) = segments.split_first() else {
        return Place::File(from.to_path_buf());
    };
    let (dir, rest): (PathBuf, &[&str]) = match head {
        "crate" => match rust_crate_root(from) {
            Some(src) => {
                if rest.is_empty() {
                    return first_file([src.join("lib.rs"), src.join("main.rs")])
                        .map_or_else(|| Place::Missing(module.into()), Place::File);
                }
                (src, rest)
            }
            None => return Place::Missing(module.into()),
        },
        "self" => (rust_children_dir(from), rest),
        "super" => {
            let mut rest = rest;
            let mut ups = 1;
            while rest.first() == Some(&"super") {
                ups += 1;
                rest = &rest[1..];
            }
            // The children directory of this file's module, then up one
            // per `super`.
            let mut dir = rust_children_dir(from);
            for _ in 0..ups {
                match dir.parent() {
                    Some(up) => dir = up.to_path_buf(),
                    None => return Place::Missing(module.into()),
                }
            }
            if rest.is_empty() {
                let stem = dir
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned();
                let up = dir.parent().unwrap_or(Path::new("/"));
                return first_file([
                    up.join(format!("{stem}.rs")),
                    dir.join("mod.rs"),
                    dir.join("lib.rs"),
                    dir.join("main.rs"),
                ])
                .map_or_else(|| Place::Missing(module.into()), Place::File);
            }
            (dir, rest)
        }
        _ => return Place::External(module.to_string()),
    };
    if rest.is_empty() {
        return Place::Missing(module.into());
    }
    // The longest prefix of `rest` that is a module file; what follows
    // (a type, an inline module) is looked up in it by the caller.
    for take in (1..=rest.len()).rev() {
        if let Some(file) = rust_module_file(&dir, &rest[..take]) {
            return Place::File(file);
        }
    }
    Place::Missing(module.into())
}

/// The module path of a Rust file below its crate's `src/`
/// (`crate::a::b` for `src/a/b.rs`), when it has one.
#[cfg(test)]
pub fn rust_module_path(file: &Path) -> Option<Vec<String>> {
    let src = rust_crate_root(file)?;
    let src = canonical(&src)?;
    let rel = file.strip_prefix(&src).ok()?;
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop()?;
    match last.as_str() {
        "lib.rs" | "main.rs" | "mod.rs" => {}
        other => parts.push(other.trim_end_matches(".rs").to_string()),
    }
    Some(parts)
}

// ---- Go ----

fn go(dir: &Path, module: &str) -> Place {
    let mut at = Some(dir).filter(|d| within_bound(d));
    while let Some(d) = at {
        let file = d.join("go.mod");
        if let Ok(text) = std::fs::read_to_string(&file) {
            let name = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("module "))
                .map(|m| m.trim().trim_matches('"').to_string());
            if let Some(name) = name {
                if module == name {
                    return canonical(d).map_or(Place::Missing(module.into()), Place::Dir);
                }
                if let Some(rest) = module.strip_prefix(&format!("{name}/")) {
                    return canonical(&d.join(rest))
                        .map_or(Place::Missing(module.into()), Place::Dir);
                }
            }
            // Another module's path (a dependency, vendored or not).
            return Place::External(module.to_string());
        }
        at = up(d);
    }
    Place::External(module.to_string())
}

// ---- Java ----

/// `a.b` (a package) or `a.b.C` (a class) from a file whose own package
/// places its source root.
fn java(from: &Path, module: &str) -> Place {
    // The source root: up from the file by as many directories as its own
    // package has parts is not known here; try every ancestor.
    let mut at = from.parent().filter(|d| within_bound(d));
    let rel: PathBuf = module.split('.').collect();
    while let Some(d) = at {
        let class = d.join(&rel).with_extension("java");
        if class.is_file() {
            return canonical(&class).map_or(Place::Missing(module.into()), Place::File);
        }
        let package = d.join(&rel);
        if package.is_dir() && package.components().count() > 1 {
            if let Some(p) = canonical(&package) {
                return Place::Dir(p);
            }
        }
        at = up(d);
    }
    Place::External(module.to_string())
}

// ---- C ----

fn c(dir: &Path, module: &str) -> Place {
    first_file([dir.join(module)]).map_or_else(|| Place::External(module.to_string()), Place::File)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tsconfig_comments_and_trailing_commas_are_read() {
        let text = "{\n // a comment\n \"compilerOptions\": { /* x */ \"paths\": { \"@/*\": [\"src/*\",], }, },\n}";
        let json: serde_json::Value = serde_json::from_str(&strip_json_comments(text)).unwrap();
        assert_eq!(json["compilerOptions"]["paths"]["@/*"][0], "src/*");
        let url = "{\"a\": \"http://x//y\"}";
        assert_eq!(strip_json_comments(url), url);
    }

    #[test]
    fn modules_resolve_by_each_language_s_rules() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let write = |p: &str| {
            let path = root.join(p);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, "").unwrap();
            path
        };
        let user = write("pkg/sub/user.py");
        let util = write("pkg/util.py");
        write("pkg/__init__.py");
        assert_eq!(
            resolve(Lang::Python, &user, "..util"),
            Place::File(util.clone())
        );
        assert_eq!(resolve(Lang::Python, &user, "pkg.util"), Place::File(util));
        assert!(matches!(
            resolve(Lang::Python, &user, "json"),
            Place::External(_)
        ));

        let app = write("web/src/app.tsx");
        let lib = write("web/src/lib/index.ts");
        std::fs::write(
            root.join("web/tsconfig.json"),
            "{\"compilerOptions\": {\"baseUrl\": \".\", \"paths\": {\"@/*\": [\"src/*\"]}}}",
        )
        .unwrap();
        assert_eq!(resolve(Lang::Tsx, &app, "./lib"), Place::File(lib.clone()));
        assert_eq!(resolve(Lang::Tsx, &app, "@/lib"), Place::File(lib));
        assert!(matches!(
            resolve(Lang::Tsx, &app, "react"),
            Place::External(_)
        ));

        write("rs/Cargo.toml");
        let main = write("rs/src/lib.rs");
        let b = write("rs/src/a/b.rs");
        let c = write("rs/src/a/c.rs");
        assert_eq!(
            resolve(Lang::Rust, &main, "crate::a::b"),
            Place::File(b.clone())
        );
        assert_eq!(resolve(Lang::Rust, &b, "super::c"), Place::File(c));
        assert_eq!(
            rust_module_path(&b),
            Some(vec!["a".to_string(), "b".to_string()])
        );

        std::fs::create_dir_all(root.join("go/server")).unwrap();
        std::fs::write(root.join("go/go.mod"), "module example.com/app\n").unwrap();
        let handler = write("go/server/handler.go");
        write("go/store/db.go");
        assert_eq!(
            resolve(Lang::Go, &handler, "example.com/app/store"),
            Place::Dir(root.join("go/store"))
        );
        assert!(matches!(
            resolve(Lang::Go, &handler, "net/http"),
            Place::External(_)
        ));
    }
}
