//! One file's change, computed whole before anything is written: its old
//! and new bytes, the stamp it had when read, and the diff hunks the
//! report shows (every changed line, numbered in the old and the new
//! file).
//!
//! What makes the change (a pattern's rewrite, a text replacement, a
//! definition replaced) is the finders' business; whether it may be
//! written is `check`'s; writing it is `write`'s.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::defs::Def;
use crate::lang::Lang;
use crate::stamp::Stamp;

/// What a file was when it was read: a change is written only over the
/// very file it was computed from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileStamp {
    /// Size, times, device and inode: a file replaced by another, or
    /// written again under its old mtime, has another stamp.
    pub stamp: Stamp,
    /// Permission bits (`st_mode & 0o7777`), kept on the new file.
    pub mode: u32,
    /// Hard links to the file (`st_nlink`): a file with more than one is
    /// written in place, so that every name keeps reaching it.
    pub links: u64,
}

impl FileStamp {
    /// The stamp of the file at `path` now (`None` when it cannot be
    /// stat'ed).
    pub fn of(path: &Path) -> Option<FileStamp> {
        let meta = std::fs::metadata(path).ok()?;
        Some(FileStamp {
            stamp: Stamp::of(&meta),
            mode: meta.mode() & 0o7777,
            links: meta.nlink(),
        })
    }

    /// Whether the file is still the one this stamp was taken of, its
    /// stamp unchanged.
    pub fn same_file(&self, now: &FileStamp) -> bool {
        self.stamp == now.stamp
    }

    /// Whether this is the stamp of the same file as `other`, by
    /// whatever name: same device and inode.
    pub fn same_inode(&self, other: &FileStamp) -> bool {
        (self.stamp.dev, self.stamp.ino) == (other.stamp.dev, other.stamp.ino)
    }
}

/// Lines of a change: `old` lines starting at old line `old_start` became
/// `new` lines starting at new line `new_start` (1-based; a side with no
/// lines names the line it stands before). Lines are kept without their
/// terminator (`\n`, and a `\r` before it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hunk {
    pub old_start: u64,
    pub old: Vec<Vec<u8>>,
    pub new_start: u64,
    pub new: Vec<Vec<u8>>,
}

impl Hunk {
    /// The last old line (`old_start` when there is none).
    pub fn old_end(&self) -> u64 {
        self.old_start + (self.old.len() as u64).saturating_sub(1)
    }

    /// The last new line (`new_start` when there is none).
    pub fn new_end(&self) -> u64 {
        self.new_start + (self.new.len() as u64).saturating_sub(1)
    }
}

/// One file's edit, ready to check and write.
#[derive(Debug, Clone)]
pub struct FileChange {
    /// The path as shown: as rg listed it, or as it was given.
    pub path: Vec<u8>,
    /// The file written: the path with every link resolved, so that a
    /// link is never replaced by a file.
    pub real: PathBuf,
    /// The grammar the file is checked with (none: no parse check).
    pub lang: Option<Lang>,
    pub before: Vec<u8>,
    pub after: Vec<u8>,
    pub stamp: FileStamp,
    /// Every changed line, in file order.
    pub hunks: Vec<Hunk>,
    /// Definitions of the old file, for the report's headings.
    pub defs: Vec<Def>,
    /// Matches found in the file (kept by the scope), rewritten, and left
    /// alone (nested in one rewritten).
    pub matches: u64,
    pub rewritten: u64,
    pub left_alone: u64,
    /// The lines matches start on, in order, each once.
    pub match_lines: Vec<u64>,
}

impl FileChange {
    /// Whether writing the change alters the file.
    pub fn changes_bytes(&self) -> bool {
        self.before != self.after
    }
}

/// The hunks turning `before` into `after`, by lines, no context.
pub fn hunks(before: &[u8], after: &[u8]) -> Vec<Hunk> {
    if before == after {
        return Vec::new();
    }
    let diff = similar::TextDiff::configure()
        .algorithm(similar::Algorithm::Myers)
        .diff_lines(before, after);
    let old_lines = diff.old_slices();
    let new_lines = diff.new_slices();
    let mut hunks: Vec<Hunk> = Vec::new();
    for op in diff.ops() {
        let (tag, old, new) = op.as_tag_tuple();
        if tag == similar::DiffTag::Equal {
            continue;
        }
        let hunk = Hunk {
            old_start: old.start as u64 + 1,
            old: old_lines[old.clone()].iter().map(|l| bare(l)).collect(),
            new_start: new.start as u64 + 1,
            new: new_lines[new.clone()].iter().map(|l| bare(l)).collect(),
        };
        // A delete next to an insert is one hunk.
        match hunks.last_mut() {
            Some(last)
                if last.old_start + last.old.len() as u64 == hunk.old_start
                    && last.new_start + last.new.len() as u64 == hunk.new_start =>
            {
                last.old.extend(hunk.old);
                last.new.extend(hunk.new);
            }
            _ => hunks.push(hunk),
        }
    }
    hunks
}

/// A line without its terminator.
fn bare(line: &[u8]) -> Vec<u8> {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line).to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_line_is_one_hunk_with_both_sides() {
        let hunks = hunks(b"a\nb\nc\n", b"a\nB\nc\n");
        assert_eq!(
            hunks,
            [Hunk {
                old_start: 2,
                old: vec![b"b".to_vec()],
                new_start: 2,
                new: vec![b"B".to_vec()],
            }]
        );
    }

    #[test]
    fn lines_added_move_the_new_numbers() {
        let hunks = hunks(b"a\nb\nc\nd\n", b"a\nb1\nb2\nc\nD\n");
        assert_eq!(hunks.len(), 2);
        assert_eq!((hunks[0].old_start, hunks[0].new_start), (2, 2));
        assert_eq!(hunks[0].new.len(), 2);
        assert_eq!((hunks[1].old_start, hunks[1].new_start), (4, 5));
        assert_eq!((hunks[1].old_end(), hunks[1].new_end()), (4, 5));
    }

    #[test]
    fn carriage_returns_and_a_missing_final_newline_are_not_shown() {
        let hunks = hunks(b"a\r\nb", b"a\r\nc");
        assert_eq!(hunks[0].old, [b"b".to_vec()]);
        assert_eq!(hunks[0].new, [b"c".to_vec()]);
        assert!(super::hunks(b"same", b"same").is_empty());
    }
}
