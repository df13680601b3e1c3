//! The directories an MCP client lets the server read (its roots); the
//! request layer confines every path a tool call names to them
//! (`request::confine`).

use std::path::{Path, PathBuf};

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

    /// Every root, canonical where it exists.
    pub fn paths(&self) -> &[PathBuf] {
        &self.paths
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

#[cfg(test)]
mod tests {
    use super::*;

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
