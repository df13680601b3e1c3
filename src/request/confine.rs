//! The confinement of a request to its roots (an MCP client's roots, or
//! a `scout call` request's own `cwd`): every path-bearing field, read
//! the way the command will read it, must lie inside one of them once
//! `..` and symlinks are resolved. One function judges every field of
//! every mode, so that no transport checks a spec one way and the
//! command reads it another (`a#b/../../x.py:1` is `PATH:LINE` to the
//! graph, so it is `PATH:LINE` here too).
//!
//! | field | read as |
//! |---|---|
//! | `path` (one, or an array) | a path |
//! | `callers_of`, `impact`, an edit's `symbol` | `PATH#SYMBOL` or `PATH:LINE` ([`SymbolSpec::parse`]): its path |
//! | `glob`, a `files` request's `pattern` | globs, each relative: no `..` part, not absolute |
//! | `cwd` | a path |
//!
//! A path holding a NUL byte, or starting with `~` (which scout does not
//! expand), is refused too, naming the field.

use std::path::{Component, Path, PathBuf};

use super::{Problem, Request};
use crate::graph::SymbolSpec;

/// How a field's text is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reading {
    Path,
    Spec,
    Glob,
}

impl Request {
    /// Every path-bearing field of the request and its text, with how
    /// the command reads it.
    fn named_paths(&self) -> Vec<(&'static str, &str, Reading)> {
        use Reading::*;
        let named: Vec<(&'static str, Option<&str>, Reading)> = match self {
            Request::Files(r) => vec![
                ("path", r.path.as_deref(), Path),
                ("pattern", Some(&r.pattern), Glob),
            ],
            Request::Content(r) => vec![
                ("path", r.path.as_deref(), Path),
                ("glob", r.glob.as_deref(), Glob),
            ],
            Request::Search(r) => with_paths(
                &r.path,
                [
                    ("glob", r.glob.as_deref(), Glob),
                    ("callers_of", r.callers_of.as_deref(), Spec),
                    ("impact", r.impact.as_deref(), Spec),
                ],
            ),
            Request::Smart(r) => vec![
                ("path", r.path.as_deref(), Path),
                ("glob", r.glob.as_deref(), Glob),
            ],
            Request::Read(r) => vec![("path", Some(&r.path), Path)],
            Request::Edit(r) => with_paths(
                &r.path,
                [
                    ("glob", r.glob.as_deref(), Glob),
                    ("callers_of", r.callers_of.as_deref(), Spec),
                    ("impact", r.impact.as_deref(), Spec),
                    ("symbol", r.symbol.as_deref(), Spec),
                ],
            ),
        };
        named
            .into_iter()
            .filter_map(|(field, text, reading)| Some((field, text?, reading)))
            .collect()
    }
}

/// A search's or an edit's `path` (every one of them), then its other
/// fields.
fn with_paths<'r>(
    paths: &'r Option<super::Paths>,
    rest: impl IntoIterator<Item = (&'static str, Option<&'r str>, Reading)>,
) -> Vec<(&'static str, Option<&'r str>, Reading)> {
    paths
        .iter()
        .flat_map(super::Paths::all)
        .map(|path| ("path", Some(path), Reading::Path))
        .chain(rest)
        .collect()
}

/// Checks every path-bearing field of `request`, relative paths read
/// from `base`, against `roots` (canonical directories); the error names
/// the first field at fault.
pub(super) fn ensure_confined(
    request: &Request,
    roots: &[PathBuf],
    base: &Path,
) -> Result<(), Problem> {
    let outside = |field: &str, text: &str| {
        let names: Vec<String> = roots.iter().map(|r| r.display().to_string()).collect();
        Problem::about(
            field,
            format!(
                "{field} {text:?} is outside the roots this server may read: {}",
                names.join(", ")
            ),
            &[],
        )
    };
    if let Some(cwd) = request.cwd() {
        ensure_plain("cwd", cwd)?;
        if !inside(roots, &resolved(base, Path::new(cwd))) {
            return Err(outside("cwd", cwd));
        }
    }
    let base = match request.cwd() {
        Some(cwd) => base.join(cwd),
        None => base.to_path_buf(),
    };
    for (field, text, reading) in request.named_paths() {
        match reading {
            Reading::Path => {
                ensure_plain(field, text)?;
                if !inside(roots, &resolved(&base, Path::new(text))) {
                    return Err(outside(field, text));
                }
            }
            Reading::Spec => {
                ensure_plain(field, text)?;
                // A spec that does not parse reads nothing: the command
                // refuses it, saying what it expects.
                let Ok(spec) = SymbolSpec::parse(text) else {
                    continue;
                };
                ensure_plain(field, &spec.path.to_string_lossy())?;
                if !inside(roots, &resolved(&base, Path::new(&spec.path))) {
                    return Err(outside(field, text));
                }
            }
            Reading::Glob => {
                for glob in crate::views::split_globs(text) {
                    let glob = glob.strip_prefix('!').unwrap_or(&glob);
                    let path = Path::new(glob);
                    if path.is_absolute()
                        || path.components().any(|c| c == Component::ParentDir)
                        || glob.contains('\0')
                    {
                        return Err(Problem::about(
                            field,
                            format!("{field} {text:?}: a glob here is relative to the roots, with no `..` part and no leading `/`"),
                            &[],
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

/// Refuses a path with a NUL byte, or one starting with `~`.
fn ensure_plain(field: &str, text: &str) -> Result<(), Problem> {
    if text.contains('\0') {
        return Err(Problem::about(
            field,
            format!("{field} {text:?} holds a NUL byte, which no path can"),
            &[],
        ));
    }
    if text.starts_with('~') {
        return Err(Problem::about(
            field,
            format!("{field} {text:?}: `~` is not expanded here; give the path itself, relative to the root or absolute"),
            &[],
        ));
    }
    Ok(())
}

/// Whether `path` (absolute, resolved) lies in one of `roots`.
fn inside(roots: &[PathBuf], path: &Path) -> bool {
    roots.iter().any(|root| path.starts_with(root))
}

/// `path` read from `base`, as the file system will read it: the longest
/// leading part that exists with its symlinks and `..` resolved, then
/// the rest (which does not exist, so no link can hide in it) resolved
/// by its words alone.
pub(crate) fn resolved(base: &Path, path: &Path) -> PathBuf {
    let joined = base.join(path);
    let parts: Vec<Component> = joined.components().collect();
    for split in (1..=parts.len()).rev() {
        let head: PathBuf = parts[..split].iter().collect();
        let Ok(real) = std::fs::canonicalize(&head) else {
            continue;
        };
        let rest: PathBuf = parts[split..].iter().collect();
        return crate::paths::lexical(&real.join(rest));
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_resolves_through_what_exists_then_by_its_words() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir_all(root.join("repo/src")).unwrap();
        std::fs::create_dir_all(root.join("outside")).unwrap();
        std::os::unix::fs::symlink(root.join("outside"), root.join("repo/out")).unwrap();
        let repo = root.join("repo");
        assert_eq!(resolved(&repo, Path::new("src/../src")), repo.join("src"));
        assert_eq!(resolved(&repo, Path::new("missing/../x")), repo.join("x"));
        assert_eq!(
            resolved(&repo, Path::new("out/x.py")),
            root.join("outside/x.py")
        );
        // `out/..` is the outside directory's parent, as the kernel reads it.
        assert_eq!(
            resolved(&repo, Path::new("out/../secret")),
            root.join("secret")
        );
        assert_eq!(
            resolved(&repo, Path::new("/etc/../etc")),
            PathBuf::from("/etc")
        );
    }
}
