//! The directories an MCP client lets the server read (its roots), and
//! the confinement of every path a tool call names to them (#25).

use std::path::{Component, Path, PathBuf};

/// The roots, canonical (symlinks resolved), the first one being where
/// relative paths start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Roots {
    paths: Vec<PathBuf>,
}

impl Roots {
    /// Roots from directories (canonicalized when they exist); never
    /// empty when `paths` is not.
    pub fn new(paths: Vec<PathBuf>) -> Roots {
        Roots {
            paths: paths
                .into_iter()
                .map(|p| std::fs::canonicalize(&p).unwrap_or(p))
                .collect(),
        }
    }

    /// Roots from the `file://` URIs of a `roots/list` answer; `None` when
    /// none of them is a local directory path.
    pub fn from_uris(uris: &[String]) -> Option<Roots> {
        let paths: Vec<PathBuf> = uris.iter().filter_map(|uri| file_path(uri)).collect();
        (!paths.is_empty()).then(|| Roots::new(paths))
    }

    /// Where relative paths start.
    pub fn first(&self) -> &Path {
        &self.paths[0]
    }

    /// Whether `path` (relative to the first root, or absolute) lies
    /// inside a root once `..` and symlinks are resolved; else the message
    /// saying which roots it must be under. A path that does not exist is
    /// judged by its lexical form, and left for the view to report
    /// missing.
    pub fn confine(&self, path: &str) -> Result<(), String> {
        let joined = self.first().join(path);
        let resolved = std::fs::canonicalize(&joined).unwrap_or_else(|_| lexical(&joined));
        if self.paths.iter().any(|root| resolved.starts_with(root)) {
            Ok(())
        } else {
            let roots: Vec<String> = self.paths.iter().map(|p| p.display().to_string()).collect();
            Err(format!(
                "{path:?} is outside the roots this server may read: {}",
                roots.join(", ")
            ))
        }
    }
}

/// The local path of a `file://` URI, percent-decoded.
fn file_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // `file:///x` or `file://localhost/x`.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let bytes = rest.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&h), Some(&l)) if hex(h).is_some() && hex(l).is_some() => {
                decoded.push((hex(h).unwrap_or(0) * 16 + hex(l).unwrap_or(0)) as u8);
                i += 3;
            }
            (b, _, _) => {
                decoded.push(b);
                i += 1;
            }
        }
    }
    use std::os::unix::ffi::OsStringExt;
    Some(PathBuf::from(std::ffi::OsString::from_vec(decoded)))
}

/// `path` with `.` and `..` resolved without the file system.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_inside_the_roots_pass_and_others_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::write(root.join("src/a.rs"), "fn a() {}\n").unwrap();
        std::os::unix::fs::symlink("/etc", root.join("etc-link")).unwrap();
        let roots = Roots::new(vec![root.clone()]);
        for inside in ["src", "src/a.rs", "./src/../src/a.rs", "missing.rs"] {
            assert_eq!(roots.confine(inside), Ok(()), "{inside}");
        }
        let absolute = root.join("src").display().to_string();
        assert!(roots.confine(&absolute).is_ok());
        for outside in [
            "..",
            "../x",
            "/etc/passwd",
            "etc-link",
            "etc-link/hosts",
            "src/../../x",
        ] {
            let message = roots.confine(outside).unwrap_err();
            assert!(
                message.contains("outside the roots"),
                "{outside}: {message}"
            );
            assert!(message.contains("repo"), "{message}");
        }
    }

    #[test]
    fn roots_come_from_file_uris() {
        let roots = Roots::from_uris(&[
            "https://example.com/x".to_string(),
            "file:///tmp/a%20b".to_string(),
        ])
        .unwrap();
        assert_eq!(roots.first(), Path::new("/tmp/a b"));
        assert!(Roots::from_uris(&["https://example.com".to_string()]).is_none());
    }
}
