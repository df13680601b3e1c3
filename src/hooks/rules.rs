//! The hook rules. Each one looks at a tool call before it runs and may
//! return a warning for the agent; none can block a call (scout never
//! answers a hook with a block or a permission decision).
//!
//! - `reread`: the call reads lines the session already has, from a file
//!   unchanged since ([`reread`]).
//! - `unbudgeted-search`: rg, `grep -r` or the harness's Grep over the
//!   whole working tree with no limit, in a tree of at least
//!   [`MIN_TRACKED_FILES`] files ([`unbudgeted_bash`], [`unbudgeted_grep`]).
//!
//! Which rules are on is [`super::config`]'s. These functions only read
//! the tree (the git index's header, or a bounded walk); the memory they
//! judge against is handed to them.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::payload::GrepInput;
use super::shell_line::{self, Word};
use crate::session::{self, Memory, Stamp};
use crate::shell;

/// Below this many tracked files a whole-tree search is cheap enough:
/// `unbudgeted-search` stays quiet.
pub const MIN_TRACKED_FILES: u64 = 200;

/// The share of a read already in context that makes it a reread: at
/// least half of the lines asked for.
fn is_reread(asked: u64, had: u64) -> bool {
    had > 0 && had * 2 >= asked
}

/// `reread`: a warning when at least half of `wanted` (sorted inclusive
/// line ranges of the file keyed `key`, now stamped `stamp`) is in the
/// session's memory from a time the file had the same size and mtime.
/// `shown_as` is the path as the agent would recognise it.
pub fn reread(
    memory: &Memory,
    key: &str,
    shown_as: &str,
    stamp: Stamp,
    wanted: &[(u64, u64)],
    now: SystemTime,
) -> Option<String> {
    let had = memory.seen(key, stamp)?;
    let asked: u64 = wanted.iter().map(|&(a, b)| b - a + 1).sum();
    let overlap = intersect(wanted, had);
    let count: u64 = overlap.iter().map(|&(a, b)| b - a + 1).sum();
    if !is_reread(asked, count) {
        return None;
    }
    let when = memory
        .files
        .get(key)
        .map(|f| f.shown_at)
        .filter(|&at| at > 0)
        .map(|at| {
            let at = UNIX_EPOCH + Duration::from_secs(at);
            format!(
                "read {} ago",
                ago(now.duration_since(at).unwrap_or_default())
            )
        })
        .unwrap_or_else(|| "read earlier".into());
    let noun = if count == 1 { "line" } else { "lines" };
    Some(format!(
        "scout reread: {noun} {} of {shown_as} {} already in this session's context ({when}; the file has not changed since). Use what you have instead of reading {} again.",
        ranges_text(&overlap),
        if count == 1 { "is" } else { "are" },
        if count == 1 { "it" } else { "them" },
    ))
}

/// `1-40, 52, 60-71`, at most six ranges then `…`.
pub fn ranges_text(ranges: &[(u64, u64)]) -> String {
    let mut parts: Vec<String> = ranges
        .iter()
        .take(6)
        .map(|&(a, b)| crate::render::scope::line_range(a, b))
        .collect();
    if ranges.len() > 6 {
        parts.push("…".into());
    }
    parts.join(", ")
}

/// `12 s`, `4 min`, `2 h`.
fn ago(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..60 => format!("{s} s"),
        60..7200 => format!("{} min", s / 60),
        _ => format!("{} h", s / 3600),
    }
}

/// The lines in both sets of sorted, merged inclusive ranges.
fn intersect(a: &[(u64, u64)], b: &[(u64, u64)]) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    for &(a0, a1) in a {
        for &(b0, b1) in b {
            let (lo, hi) = (a0.max(b0), a1.min(b1));
            if lo <= hi {
                out.push((lo, hi));
            }
        }
    }
    session::merge(out)
}

/// `unbudgeted-search` for a shell command run in `cwd`: a warning for
/// its first rg or `grep -r` over the whole tree with no limit.
pub fn unbudgeted_bash(command: &str, cwd: &Path) -> Option<String> {
    let pipelines = shell_line::parse(command)?;
    for pipeline in &pipelines {
        let (first, rest) = pipeline.stages.split_first()?;
        // After `cd DIR` the search covers DIR only: scoped, as by a path.
        let texts = first.texts();
        if texts.first() == Some(&"cd") {
            if texts.get(1).is_some_and(|d| !is_whole_tree(d, cwd)) {
                return None;
            }
            continue;
        }
        let limited_later = rest.iter().any(|s| {
            s.words.first().is_some_and(|w| {
                let name = w.text.rsplit('/').next().unwrap_or(&w.text);
                matches!(name, "head" | "tail" | "wc" | "less" | "more")
            })
        });
        if limited_later || pipeline.stages.last().is_some_and(|s| s.stdout_to_file) {
            continue;
        }
        let words: Vec<&Word> = first
            .words
            .iter()
            .skip_while(|w| w.text.contains('=') && !w.text.starts_with('-'))
            .collect();
        let Some(name) = words.first() else { continue };
        let name = name.text.rsplit('/').next().unwrap_or(&name.text);
        let pattern = match name {
            "rg" => whole_tree_search(&words[1..], RG, cwd, false),
            "grep" | "egrep" | "fgrep" => whole_tree_search(&words[1..], GREP, cwd, true),
            _ => None,
        };
        if let Some(pattern) = pattern {
            let typed = shell::join(first.words.iter().map(|w| w.text.as_bytes()));
            return warn_if_large(cwd, &typed, &pattern);
        }
    }
    None
}

/// `unbudgeted-search` for the harness's Grep tool: content output with
/// no `head_limit`, path (other than the working tree itself), glob or
/// type. Its default output, file names, is a limit (`-l`).
pub fn unbudgeted_grep(input: &GrepInput, cwd: &Path) -> Option<String> {
    if input.output_mode.as_deref() != Some("content")
        || input.head_limit.is_some()
        || input.glob.is_some()
        || input.file_type.is_some()
        || input
            .path
            .as_deref()
            .is_some_and(|p| !is_whole_tree(p, cwd))
        || input.pattern.is_empty()
    {
        return None;
    }
    let typed = format!(
        "Grep {} (output_mode content)",
        shell::quote(input.pattern.as_bytes())
    );
    warn_if_large(cwd, &typed, &input.pattern)
}

/// The options of one search tool, as far as the rule needs them.
struct SearchTool {
    /// Short options taking a value.
    short_values: &'static str,
    /// Long options taking a value (without `=`).
    long_values: &'static [&'static str],
    /// Options that limit the output or the files searched.
    limits: &'static [&'static str],
    /// Options that make grep recurse.
    recursive: &'static [&'static str],
}

const RG: SearchTool = SearchTool {
    short_values: "efgtTmABCMjdEr",
    long_values: &[
        "--regexp",
        "--file",
        "--glob",
        "--iglob",
        "--type",
        "--type-not",
        "--max-count",
        "--after-context",
        "--before-context",
        "--context",
        "--max-columns",
        "--threads",
        "--max-depth",
        "--encoding",
        "--color",
        "--colors",
        "--sort",
        "--sortr",
        "--replace",
        "--pre",
        "--pre-glob",
        "--path-separator",
        "--type-add",
        "--type-clear",
        "--ignore-file",
        "--max-filesize",
        "--dfa-size-limit",
        "--regex-size-limit",
        "--engine",
        "--context-separator",
        "--field-context-separator",
        "--field-match-separator",
    ],
    limits: &[
        "-m",
        "--max-count",
        "-l",
        "--files-with-matches",
        "-L",
        "--files-without-match",
        "-c",
        "--count",
        "--count-matches",
        "-q",
        "--quiet",
        "--files",
        "-g",
        "--glob",
        "--iglob",
        "-t",
        "--type",
        "-T",
        "--type-not",
        "--type-list",
        "-h",
        "--help",
        "-V",
        "--version",
    ],
    recursive: &[],
};

const GREP: SearchTool = SearchTool {
    short_values: "efmABCdD",
    long_values: &[
        "--regexp",
        "--file",
        "--max-count",
        "--after-context",
        "--before-context",
        "--context",
        "--directories",
        "--devices",
        "--include",
        "--exclude",
        "--exclude-dir",
        "--exclude-from",
        "--color",
        "--colour",
        "--label",
        "--binary-files",
    ],
    limits: &[
        "-m",
        "--max-count",
        "-l",
        "--files-with-matches",
        "-L",
        "--files-without-match",
        "-c",
        "--count",
        "-q",
        "--quiet",
        "--silent",
        "--include",
        "--exclude",
        "--exclude-dir",
        "--help",
        "-V",
        "--version",
    ],
    recursive: &["-r", "-R", "--recursive", "--dereference-recursive"],
};

/// The pattern of a search over the whole tree with no limit, or `None`
/// (a limit, a path, a glob or type, an expansion, not recursive grep).
fn whole_tree_search(
    args: &[&Word],
    tool: SearchTool,
    cwd: &Path,
    needs_recursion: bool,
) -> Option<String> {
    let mut flags: Vec<String> = Vec::new();
    let mut explicit_patterns = Vec::new();
    let mut positionals = Vec::new();
    let mut i = 0;
    let mut options_done = false;
    while i < args.len() {
        let arg = args[i];
        i += 1;
        let text = arg.text.as_str();
        if options_done || !text.starts_with('-') || text == "-" {
            if !arg.literal {
                return None;
            }
            positionals.push(text.to_string());
            continue;
        }
        if text == "--" {
            options_done = true;
            continue;
        }
        if text.starts_with("--") {
            let (name, inline) = match text.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (text, None),
            };
            let value = if tool.long_values.contains(&name) && inline.is_none() {
                let v = args.get(i)?.text.clone();
                i += 1;
                Some(v)
            } else {
                inline
            };
            if name == "--directories" && value.as_deref() == Some("recurse") {
                flags.push("-r".into());
            }
            if name == "--regexp" {
                explicit_patterns.extend(value);
            }
            flags.push(name.to_string());
            continue;
        }
        let letters = &text[1..];
        for (at, letter) in letters.char_indices() {
            flags.push(format!("-{letter}"));
            if tool.short_values.contains(letter) {
                let rest = &letters[at + letter.len_utf8()..];
                let value = if rest.is_empty() {
                    let v = args.get(i)?.text.clone();
                    i += 1;
                    v
                } else {
                    rest.to_string()
                };
                if letter == 'e' {
                    explicit_patterns.push(value.clone());
                }
                if letter == 'd' && needs_recursion && value == "recurse" {
                    flags.push("-r".into());
                }
                break;
            }
        }
    }
    if flags
        .iter()
        .any(|f| tool.limits.contains(&f.as_str()) || f == "-f" || f == "--file")
    {
        return None;
    }
    if needs_recursion && !flags.iter().any(|f| tool.recursive.contains(&f.as_str())) {
        return None;
    }
    let (pattern, paths) = if explicit_patterns.is_empty() {
        let (pattern, paths) = positionals.split_first()?;
        (pattern.clone(), paths.to_vec())
    } else {
        (explicit_patterns.join("|"), positionals)
    };
    paths
        .iter()
        .all(|p| is_whole_tree(p, cwd))
        .then_some(pattern)
}

/// Whether a search path names the whole working tree.
fn is_whole_tree(path: &str, cwd: &Path) -> bool {
    let trimmed = path.trim_end_matches('/');
    matches!(trimmed, "" | "." | "./.") || Path::new(trimmed) == cwd
}

/// The warning, unless the tree has fewer than [`MIN_TRACKED_FILES`].
fn warn_if_large(cwd: &Path, typed: &str, pattern: &str) -> Option<String> {
    let files = tracked_files(cwd, MIN_TRACKED_FILES);
    if files < MIN_TRACKED_FILES {
        return None;
    }
    let size = if files > MIN_TRACKED_FILES {
        format!("all {files} tracked files")
    } else {
        format!("{MIN_TRACKED_FILES}+ files")
    };
    let quoted = shell::quote(pattern.as_bytes());
    Some(format!(
        "scout unbudgeted-search: `{typed}` searches {size} with no limit, so every match lands in your context. Within a budget: `scout search {quoted}` (a ranked page, definitions first, exact counts, what was left out) or `scout grep {quoted} --output-mode content` (the matching lines, paginated); or add -m N, -l, -c, a path, a glob or a type, or pipe into head."
    ))
}

/// How many files the tree at `cwd` tracks: the entry count in the git
/// index's header (no process spawned), else regular files found by a
/// walk that stops at `enough`.
pub fn tracked_files(cwd: &Path, enough: u64) -> u64 {
    if let Some(count) = git_index_entries(cwd) {
        return count;
    }
    let mut count = 0;
    let mut dirs: Vec<PathBuf> = vec![cwd.to_path_buf()];
    let mut visited = 0;
    while let Some(dir) = dirs.pop() {
        visited += 1;
        if visited > 4096 {
            break;
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_file() {
                count += 1;
                if count >= enough {
                    return count;
                }
            } else if kind.is_dir() && !entry.file_name().as_encoded_bytes().starts_with(b".") {
                dirs.push(entry.path());
            }
        }
    }
    count
}

/// The number of entries in the index of the git work tree holding `dir`.
fn git_index_entries(dir: &Path) -> Option<u64> {
    let mut at = Some(dir);
    while let Some(d) = at {
        let dot_git = d.join(".git");
        if let Ok(meta) = std::fs::metadata(&dot_git) {
            let git_dir = if meta.is_dir() {
                dot_git
            } else {
                // A linked work tree or submodule: `gitdir: PATH`.
                let text = std::fs::read_to_string(&dot_git).ok()?;
                let target = text.strip_prefix("gitdir:")?.trim();
                d.join(target)
            };
            let mut header = [0u8; 12];
            use std::io::Read;
            std::fs::File::open(git_dir.join("index"))
                .ok()?
                .read_exact(&mut header)
                .ok()?;
            if &header[..4] != b"DIRC" {
                return None;
            }
            return Some(u64::from(u32::from_be_bytes(
                header[8..12].try_into().ok()?,
            )));
        }
        at = d.parent();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::FileMemory;

    fn big_tree() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..MIN_TRACKED_FILES {
            std::fs::write(dir.path().join(format!("f{i}.txt")), "x").unwrap();
        }
        dir
    }

    #[test]
    fn unbudgeted_rg_and_grep_warn_and_budgeted_ones_do_not() {
        let dir = big_tree();
        let cwd = dir.path();
        for command in [
            "rg foo",
            "rg -n foo .",
            "rg -e foo -i",
            "grep -rn foo .",
            "grep -R foo",
            "cd . && rg -w 'a b'",
            "rg foo | sort",
        ] {
            assert!(unbudgeted_bash(command, cwd).is_some(), "{command}");
        }
        for command in [
            "rg -m 5 foo",
            "rg --max-count=5 foo",
            "rg -l foo",
            "rg -c foo",
            "rg foo src",
            "rg -g '*.rs' foo",
            "rg -t rust foo",
            "rg --files",
            "rg foo | head -20",
            "rg foo | wc -l",
            "rg foo > out.txt",
            "grep foo file.txt",
            "grep -rn foo src/",
            "grep -rl foo .",
            "grep -r --include='*.py' foo",
            "rg $PAT",
            "cat a",
            "rg -inm3 foo",
            "cd src && rg foo",
        ] {
            assert_eq!(unbudgeted_bash(command, cwd), None, "{command}");
        }
        let warning = unbudgeted_bash("rg -n useState", cwd).unwrap();
        assert!(warning.contains("scout search useState"), "{warning}");
        assert!(warning.contains("200+ files"), "{warning}");
    }

    #[test]
    fn a_small_tree_is_quiet() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a"), "x").unwrap();
        assert_eq!(unbudgeted_bash("rg foo", dir.path()), None);
    }

    #[test]
    fn grep_tool_content_with_no_limit_warns() {
        let dir = big_tree();
        let mut input = GrepInput {
            pattern: "foo".into(),
            output_mode: Some("content".into()),
            ..GrepInput::default()
        };
        assert!(unbudgeted_grep(&input, dir.path()).is_some());
        input.head_limit = Some(20);
        assert_eq!(unbudgeted_grep(&input, dir.path()), None);
        input.head_limit = None;
        input.path = Some("src".into());
        assert_eq!(unbudgeted_grep(&input, dir.path()), None);
        input.path = None;
        input.output_mode = None;
        assert_eq!(unbudgeted_grep(&input, dir.path()), None);
    }

    #[test]
    fn the_git_index_header_counts_tracked_files() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".git")).unwrap();
        let mut index = b"DIRC\0\0\0\x02".to_vec();
        index.extend_from_slice(&1234u32.to_be_bytes());
        std::fs::write(dir.path().join(".git/index"), index).unwrap();
        std::fs::create_dir_all(dir.path().join("sub")).unwrap();
        assert_eq!(tracked_files(&dir.path().join("sub"), 200), 1234);
    }

    #[test]
    fn a_reread_names_the_lines_and_when() {
        let stamp = Stamp {
            size: 10,
            mtime_ns: 7,
            ..Stamp::default()
        };
        let now = SystemTime::now();
        let at = now.duration_since(UNIX_EPOCH).unwrap().as_secs() - 240;
        let mut memory = Memory::default();
        memory.files.insert(
            "/r/a.rs".into(),
            FileMemory {
                ranges: vec![(1, 40)],
                shown_at: at,
                ..FileMemory::empty(stamp)
            },
        );
        let w = reread(&memory, "/r/a.rs", "a.rs", stamp, &[(1, 50)], now).unwrap();
        assert!(w.contains("lines 1-40 of a.rs are already"), "{w}");
        assert!(w.contains("read 4 min ago"), "{w}");
        // Mostly new lines: not a reread.
        assert_eq!(
            reread(&memory, "/r/a.rs", "a.rs", stamp, &[(30, 200)], now),
            None
        );
        // The file changed: not a reread.
        let changed = Stamp { size: 11, ..stamp };
        assert_eq!(
            reread(&memory, "/r/a.rs", "a.rs", changed, &[(1, 10)], now),
            None
        );
    }
}
