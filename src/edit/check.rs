//! What refuses an edit before anything is written (exit 2): a file
//! outside the directory edited, a read-only file or directory, a file
//! with several hard links in a confined request, and a
//! change that makes a file parse worse than it did (more ERROR or
//! MISSING nodes in its new tree than in its old one). Every file is
//! checked, and every refusal named, before the first write.

use std::path::Path;

use anyhow::{bail, Result};

use super::change::FileChange;
use crate::shell;

/// Checks every changed file; the error names each refusal.
pub fn ensure_writable(changes: &[&FileChange], cwd: &Path) -> Result<()> {
    let root = std::fs::canonicalize(cwd)?;
    let mut problems = Vec::new();
    for change in changes {
        let shown = shell::quote(&change.path);
        if !change.real.starts_with(&root) {
            problems.push(format!(
                "{shown} is outside the directory edited ({}): run scout edit from a directory that holds it",
                root.display()
            ));
            continue;
        }
        // A hard link is the same file under every name, some of which
        // may lie outside the roots a confined request may write.
        if change.stamp.links > 1 && crate::paths::bounded() {
            problems.push(format!(
                "{shown} has {} hard links, and a confined request (scout mcp's roots, a request's cwd) cannot tell where the others are: edit it from a shell",
                change.stamp.links
            ));
            continue;
        }
        if change.stamp.mode & 0o222 == 0
            || rustix::fs::access(&change.real, rustix::fs::Access::WRITE_OK).is_err()
        {
            problems.push(format!("{shown} is read-only"));
            continue;
        }
        let dir = change.real.parent().unwrap_or(Path::new("/"));
        let dir_mode = std::fs::metadata(dir).map(|m| {
            use std::os::unix::fs::PermissionsExt;
            m.permissions().mode()
        });
        let dir_writable = dir_mode.is_ok_and(|mode| mode & 0o222 != 0)
            && rustix::fs::access(dir, rustix::fs::Access::WRITE_OK).is_ok();
        if !dir_writable {
            problems.push(format!(
                "{shown}: its directory {} is read-only (the new file is renamed into it)",
                dir.display()
            ));
        }
    }
    if !problems.is_empty() {
        bail!("{}\nnothing written", problems.join("\n"));
    }
    Ok(())
}

/// Parses every changed file's old and new bytes (on every core); a file
/// whose new tree has more syntax errors than its old one is refused,
/// with the line of the first new error.
pub fn ensure_parses(changes: &[&FileChange]) -> Result<()> {
    let problems: Vec<Option<String>> = crate::workers::map_on_cores(changes, |change| {
        let lang = change.lang?;
        let after = crate::defs::syntax_errors(lang, &change.after)?;
        if after.is_empty() {
            return None;
        }
        let before = crate::defs::syntax_errors(lang, &change.before)?;
        if after.len() <= before.len() {
            return None;
        }
        // The first error on a changed line, else the first one.
        let line = after
            .iter()
            .find(|line| {
                change
                    .hunks
                    .iter()
                    .any(|h| (h.new_start..=h.new_end()).contains(line))
            })
            .or(after.first())
            .copied()
            .unwrap_or(1);
        let text = change
            .after
            .split(|&b| b == b'\n')
            .nth(line as usize - 1)
            .map(|l| String::from_utf8_lossy(l.trim_ascii()).into_owned())
            .unwrap_or_default();
        Some(format!(
            "{}:{line}: the edit would not parse as {} ({} syntax errors after it, {} before): {text}",
            String::from_utf8_lossy(&change.path),
            lang.name(),
            after.len(),
            before.len()
        ))
    });
    let problems: Vec<String> = problems.into_iter().flatten().collect();
    if !problems.is_empty() {
        bail!("{}\nnothing written", problems.join("\n"));
    }
    Ok(())
}
