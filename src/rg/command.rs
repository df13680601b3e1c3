//! The rg command line of a search.
//!
//! One list of arguments serves twice: with `--json` it is what scout runs,
//! with `-n --no-heading` it is the `repro:` line a person can paste to see
//! rg's own answer with the same counts.

use std::ffi::OsString;

use crate::shell;

/// What to search for and where, in rg's own terms.
#[derive(Debug, Clone, Default)]
pub struct SearchFlags {
    /// Patterns, each passed after `-e` so that a leading `-` is never a flag.
    pub patterns: Vec<String>,
    /// `-F`: patterns are literal strings.
    pub fixed_strings: bool,
    /// `-i`.
    pub ignore_case: bool,
    /// `-w`.
    pub word: bool,
    /// `-g GLOB`, in order (rg semantics, `!` excludes).
    pub globs: Vec<String>,
    /// `--type NAME`, in order.
    pub types: Vec<String>,
    /// `--hidden`.
    pub hidden: bool,
    /// Paths to search; empty means rg's default (the current directory,
    /// printed without a `./` prefix).
    pub paths: Vec<OsString>,
    /// `--with-filename` in rg's plain lines (and the `repro:` line), for
    /// a search left with one file of the several paths typed (the others
    /// missing): rg names the files when it is given more than one path,
    /// whether or not they exist.
    pub with_filename: bool,
}

/// File types of scout's languages that not every rg defines (rg 13 has
/// neither), defined with `--type-add` wherever they are asked for:
/// adding a glob a type already has changes nothing.
const TYPES_DEFINED_HERE: [(&str, &str); 2] = [("tsx", "tsx:*.tsx"), ("luau", "luau:*.luau")];

/// A full rg argument list (without the binary), and where rg runs.
#[derive(Debug, Clone)]
pub struct RgCommand {
    pub args: Vec<OsString>,
    /// The directory rg runs in; `None` is scout's own. rg anchors a
    /// `-g` glob holding a `/` at its working directory, so a listing
    /// whose globs are anchored at PATH runs in PATH.
    pub cwd: Option<OsString>,
}

impl SearchFlags {
    fn common(&self) -> Vec<OsString> {
        let mut args: Vec<OsString> = Vec::new();
        if self.fixed_strings {
            args.push("-F".into());
        }
        if self.ignore_case {
            args.push("-i".into());
        }
        if self.word {
            args.push("-w".into());
        }
        for glob in &self.globs {
            args.push("-g".into());
            args.push(glob.into());
        }
        for ty in &self.types {
            if let Some((_, definition)) = TYPES_DEFINED_HERE.iter().find(|(name, _)| name == ty) {
                args.push("--type-add".into());
                args.push(definition.into());
            }
            args.push("--type".into());
            args.push(ty.into());
        }
        if self.hidden {
            args.push("--hidden".into());
        }
        for pattern in &self.patterns {
            args.push("-e".into());
            args.push(pattern.into());
        }
        if self
            .paths
            .iter()
            .any(|p| p.as_encoded_bytes().first() == Some(&b'-'))
        {
            args.push("--".into());
        }
        args.extend(self.paths.iter().cloned());
        args
    }

    /// `rg --files` with the same file selection as the search (globs,
    /// types, `--hidden`, ignore files, paths) and no pattern: the files
    /// the structural search parses, one path a line, as the search would
    /// print them.
    pub fn file_list(&self) -> RgCommand {
        let mut args: Vec<OsString> = vec!["--files".into()];
        args.extend(
            SearchFlags {
                patterns: Vec::new(),
                fixed_strings: false,
                ignore_case: false,
                word: false,
                ..self.clone()
            }
            .common(),
        );
        RgCommand { args, cwd: None }
    }

    /// `rg -l`: the files with a match, one path a line, with the same
    /// file selection (the code graph's candidate files).
    pub fn files_with_matches(&self) -> RgCommand {
        let mut args: Vec<OsString> = vec!["-l".into()];
        args.extend(self.common());
        RgCommand { args, cwd: None }
    }

    /// The command scout runs: `rg --json ...`.
    pub fn json(&self) -> RgCommand {
        let mut args: Vec<OsString> = vec!["--json".into()];
        args.extend(self.common());
        RgCommand { args, cwd: None }
    }

    /// The search as plain records (`rg/records`): the path ended by a
    /// NUL on every line, whatever the paths given. Only for an rg that
    /// reads no config file (see [`config_in_effect`](super::config_in_effect)),
    /// which could add columns, context or colour to this format.
    pub fn records(&self) -> RgCommand {
        let mut args: Vec<OsString> = ["-n", "--no-heading", "--with-filename", "--null"]
            .iter()
            .map(OsString::from)
            .collect();
        args.extend(self.common());
        RgCommand { args, cwd: None }
    }

    /// [`records`](Self::records) in a deterministic order (`--sort path`),
    /// for passthrough.
    pub fn sorted_records(&self) -> RgCommand {
        let mut command = self.records();
        command.args.splice(0..0, ["--sort".into(), "path".into()]);
        command
    }

    /// Plain `rg -n` output, in a deterministic order (`--sort path`), for
    /// passthrough and for printing rg's own lines when they are smaller.
    pub fn plain(&self) -> RgCommand {
        let mut args: Vec<OsString> = vec!["-n".into(), "--no-heading".into()];
        if self.with_filename {
            args.push("--with-filename".into());
        }
        args.push("--sort".into());
        args.push("path".into());
        args.extend(self.common());
        RgCommand { args, cwd: None }
    }

    /// The `repro:` line: the plain rg command with the same counts.
    pub fn repro(&self) -> String {
        let mut words = vec!["rg".to_string(), "-n".into(), "--no-heading".into()];
        if self.with_filename {
            words.push("--with-filename".into());
        }
        words.extend(
            self.common()
                .iter()
                .map(|a| shell::quote(a.as_encoded_bytes())),
        );
        words.join(" ")
    }
}

impl RgCommand {
    /// The same command run on one thread (`-j1`), for the retry after rg
    /// could not start its worker threads.
    pub fn single_threaded(&self) -> RgCommand {
        let mut args: Vec<OsString> = vec!["-j1".into()];
        args.extend(self.args.iter().cloned());
        RgCommand {
            args,
            cwd: self.cwd.clone(),
        }
    }

    /// The command as a shell line, starting with `rg` (with
    /// `cd DIR && ` before it when it runs elsewhere): what the tests
    /// compare.
    #[cfg(test)]
    pub fn shell_line(&self) -> String {
        let mut words = Vec::new();
        if let Some(dir) = &self.cwd {
            words.extend([
                "cd".to_string(),
                shell::quote(dir.as_encoded_bytes()),
                "&&".into(),
            ]);
        }
        words.push("rg".to_string());
        words.extend(self.args.iter().map(|a| shell::quote(a.as_encoded_bytes())));
        words.join(" ")
    }
}

/// Version-control folders the faithful views never list or search.
pub const VCS_DIRS: [&str; 6] = [".git", ".hg", ".svn", ".bzr", ".jj", ".sl"];

/// Lines longer than this many bytes are cut by rg (`--max-columns`), with
/// its ` [... omitted end of long line]` marker after the kept part.
pub const MAX_COLUMNS: usize = 500;

/// What `scout grep` asks rg to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GrepOutput {
    /// Matching lines (and context), `path:line:text`, in path order.
    Lines,
    /// `-l`: the paths of matching files.
    FilesWithMatches,
    /// `-c`: `path:count` of matching lines per file.
    Count,
}

/// The rg command line of `scout grep`: rg's own semantics for every
/// flag, plain output, version-control folders excluded, hidden files
/// searched, ignore files respected.
#[derive(Debug, Clone)]
pub struct GrepFlags {
    /// The pattern, passed after `-e` so that a leading `-` is never a flag.
    pub pattern: String,
    pub output: GrepOutput,
    /// Context lines after and before each match (`-A`, `-B`), for
    /// [`GrepOutput::Lines`] only.
    pub after: usize,
    pub before: usize,
    /// `-n`, for [`GrepOutput::Lines`] only.
    pub line_number: bool,
    /// `-i`.
    pub ignore_case: bool,
    /// `-U --multiline-dotall`: patterns may span lines and `.` matches a
    /// newline.
    pub multiline: bool,
    /// `--type NAME`, in order.
    pub types: Vec<String>,
    /// `-g GLOB`, in order (rg semantics, `!` excludes).
    pub globs: Vec<String>,
    /// The file or directory to search; `None` is the current directory
    /// (paths printed without a `./` prefix).
    pub path: Option<OsString>,
}

impl GrepFlags {
    /// The command scout runs.
    ///
    /// Matching lines come in `--sort path` order, which is deterministic
    /// (rg's parallel order is not), so `--offset` pages never skip or
    /// repeat a line. Files and counts are sorted by scout afterwards, so
    /// those searches run on all of rg's threads.
    pub fn command(&self) -> RgCommand {
        let mut args: Vec<OsString> = vec![
            "--no-config".into(),
            "--color".into(),
            "never".into(),
            "--no-heading".into(),
            "--hidden".into(),
        ];
        match self.output {
            GrepOutput::Lines => {
                args.extend(["--sort".into(), "path".into()]);
                args.push(if self.line_number { "-n" } else { "-N" }.into());
                if self.after > 0 {
                    args.extend(["-A".into(), self.after.to_string().into()]);
                }
                if self.before > 0 {
                    args.extend(["-B".into(), self.before.to_string().into()]);
                }
                args.extend([
                    "--max-columns".into(),
                    MAX_COLUMNS.to_string().into(),
                    "--max-columns-preview".into(),
                ]);
            }
            GrepOutput::FilesWithMatches => args.push("-l".into()),
            GrepOutput::Count => args.extend(["-c".into(), "--with-filename".into()]),
        }
        if self.ignore_case {
            args.push("-i".into());
        }
        if self.multiline {
            args.extend(["-U".into(), "--multiline-dotall".into()]);
        }
        for ty in &self.types {
            args.extend(["--type".into(), ty.into()]);
        }
        for glob in &self.globs {
            args.extend(["-g".into(), glob.into()]);
        }
        args.extend(vcs_exclusions());
        args.extend(["-e".into(), self.pattern.clone().into()]);
        args.extend(path_args(self.path.as_ref()));
        RgCommand { args, cwd: None }
    }
}

/// The rg command lines of `scout files`.
#[derive(Debug, Clone)]
pub struct FilesFlags {
    /// The glob file paths must match (rg `-g` semantics: without a `/`
    /// it matches a file name at any depth, with one it is anchored at the
    /// listed directory).
    pub glob: String,
    /// `--no-ignore`: list files that ignore files would skip.
    pub no_ignore: bool,
    /// `--hidden`: list hidden files and descend into hidden folders.
    pub hidden: bool,
    /// The directory to list; `None` is the current directory. rg runs in
    /// it, with no path operand, so that a glob holding a `/` is anchored
    /// there (rg anchors `-g` globs at its working directory, not at the
    /// path it is given); [`FilesFlags::full_path`] puts it back in
    /// front of what rg lists.
    pub path: Option<OsString>,
}

impl FilesFlags {
    fn base(&self) -> Vec<OsString> {
        let mut args: Vec<OsString> = vec!["--no-config".into(), "--files".into()];
        if self.no_ignore {
            args.push("--no-ignore".into());
        }
        if self.hidden {
            args.push("--hidden".into());
        }
        args
    }

    /// `rg --files -g GLOB`: the files matching the glob.
    ///
    /// An rg glob that matches a file overrides ignore files and hidden
    /// rules for that file, so this list alone may hold ignored or hidden
    /// files; [`FilesFlags::allowed`] says which of them to keep.
    pub fn matching(&self) -> RgCommand {
        let mut args = self.base();
        args.extend(["-g".into(), self.glob.clone().into()]);
        args.extend(vcs_exclusions());
        RgCommand {
            args,
            cwd: self.path.clone(),
        }
    }

    /// `rg --files` without the glob: every file the ignore and hidden
    /// settings allow. `None` when they allow everything (then
    /// [`FilesFlags::matching`] needs no filter).
    pub fn allowed(&self) -> Option<RgCommand> {
        if self.no_ignore && self.hidden {
            return None;
        }
        let mut args = self.base();
        args.extend(vcs_exclusions());
        Some(RgCommand {
            args,
            cwd: self.path.clone(),
        })
    }

    /// A path the listing printed (relative to the listed directory) as
    /// rg prints it when given that directory as its operand: `PATH/FILE`.
    pub fn full_path(&self, listed: &[u8]) -> Vec<u8> {
        let Some(dir) = &self.path else {
            return listed.to_vec();
        };
        let dir = dir.as_encoded_bytes();
        let mut full = Vec::with_capacity(dir.len() + 1 + listed.len());
        full.extend_from_slice(dir);
        if !dir.ends_with(b"/") {
            full.push(b'/');
        }
        full.extend_from_slice(listed);
        full
    }

    /// A line rg wrote to stderr while listing, with the folder it names
    /// as it would name it given the listed directory as its operand:
    /// `./locked: Permission denied` becomes `PATH/locked: ...`.
    pub fn full_warning(&self, line: &str) -> String {
        let (tag, rest) = match line.strip_prefix("rg: ") {
            Some(rest) => ("rg: ", rest),
            None => ("", line),
        };
        match (&self.path, rest.strip_prefix("./")) {
            (Some(_), Some(inside)) => format!(
                "{tag}{}",
                String::from_utf8_lossy(&self.full_path(inside.as_bytes()))
            ),
            _ => line.to_string(),
        }
    }
}

/// `-g !DIR` for each version-control folder, given after any user glob
/// so that they win (rg: the later glob takes precedence).
fn vcs_exclusions() -> Vec<OsString> {
    VCS_DIRS
        .iter()
        .flat_map(|dir| ["-g".into(), format!("!{dir}").into()])
        .collect()
}

/// The path operand, after `--` so that a leading `-` is never a flag.
fn path_args(path: Option<&OsString>) -> Vec<OsString> {
    match path {
        Some(path) => vec!["--".into(), path.clone()],
        None => Vec::new(),
    }
}

/// Splits a line of `rg -c --with-filename` output into path and count.
/// The count follows the last `:`, so paths holding `:` split correctly.
pub fn parse_count_line(line: &[u8]) -> Option<(&[u8], u64)> {
    let colon = line.iter().rposition(|&b| b == b':')?;
    let count = std::str::from_utf8(&line[colon + 1..]).ok()?.parse().ok()?;
    Some((&line[..colon], count))
}

/// A line of [`GrepOutput::Lines`] output split into rg's fields, so that
/// each can be coloured (nothing else depends on the split).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContentLine<'a> {
    /// The path, when rg names files.
    pub path: Option<&'a [u8]>,
    /// The line number, as digits, under `-n`.
    pub number: Option<&'a [u8]>,
    /// A matching line (`:` after its fields), not a context line (`-`).
    pub matching: bool,
    pub text: &'a [u8],
}

impl GrepFlags {
    /// Splits one line rg printed for this search: `PATH:N:TEXT` for a
    /// matching line, `PATH-N-TEXT` for a context line, without `PATH`
    /// when `with_filename` is false (rg searching one file) and without
    /// `N` under `-N`. `None` for a `--` separator, and where the fields
    /// cannot be told apart: a context line under `-N`. rg does not
    /// escape paths, so a path holding `:7:` splits in the wrong place;
    /// only its colour is wrong then.
    pub fn split_line<'a>(&self, line: &'a [u8], with_filename: bool) -> Option<ContentLine<'a>> {
        let digits = |from: usize| {
            line[from..]
                .iter()
                .position(|b| !b.is_ascii_digit())
                .map(|n| from + n)
                .filter(|&end| end > from)
        };
        let field_end = |sep: u8| (sep == b':' || sep == b'-').then_some(sep);
        match (with_filename, self.line_number) {
            (true, true) => (1..line.len()).find_map(|i| {
                let sep = field_end(line[i])?;
                let end = digits(i + 1)?;
                (line[end] == sep).then(|| ContentLine {
                    path: Some(&line[..i]),
                    number: Some(&line[i + 1..end]),
                    matching: sep == b':',
                    text: &line[end + 1..],
                })
            }),
            (false, true) => {
                let end = digits(0)?;
                let sep = field_end(line[end])?;
                Some(ContentLine {
                    path: None,
                    number: Some(&line[..end]),
                    matching: sep == b':',
                    text: &line[end + 1..],
                })
            }
            (true, false) if self.before == 0 && self.after == 0 => {
                let colon = line.iter().position(|&b| b == b':')?;
                Some(ContentLine {
                    path: Some(&line[..colon]),
                    number: None,
                    matching: true,
                    text: &line[colon + 1..],
                })
            }
            (true, false) => None,
            (false, false) => (self.before == 0 && self.after == 0).then_some(ContentLine {
                path: None,
                number: None,
                matching: true,
                text: line,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_list_keeps_the_selection_and_drops_the_pattern() {
        let flags = SearchFlags {
            patterns: vec!["-x".into()],
            fixed_strings: true,
            globs: vec!["!tests/**".into()],
            types: vec!["rust".into()],
            hidden: true,
            paths: vec!["-src".into()],
            ..SearchFlags::default()
        };
        let args: Vec<String> = flags
            .file_list()
            .args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            args,
            [
                "--files",
                "-g",
                "!tests/**",
                "--type",
                "rust",
                "--hidden",
                "--",
                "-src"
            ]
        );
    }

    #[test]
    fn grep_puts_the_pattern_after_dash_e_and_the_path_after_double_dash() {
        let flags = GrepFlags {
            pattern: "-foo".into(),
            output: GrepOutput::Lines,
            after: 2,
            before: 1,
            line_number: true,
            ignore_case: true,
            multiline: true,
            types: vec!["rust".into()],
            globs: vec!["*.{rs,toml}".into()],
            path: Some("-dir".into()),
        };
        let line = flags.command().shell_line();
        assert_eq!(
            line,
            "rg --no-config --color never --no-heading --hidden --sort path -n -A 2 -B 1 \
             --max-columns 500 --max-columns-preview -i -U --multiline-dotall --type rust \
             -g '*.{rs,toml}' -g '!.git' -g '!.hg' -g '!.svn' -g '!.bzr' -g '!.jj' -g '!.sl' \
             -e -foo -- -dir"
        );
        let count = GrepFlags {
            output: GrepOutput::Count,
            path: None,
            ..flags
        };
        let line = count.command().shell_line();
        assert!(line.contains(" -c --with-filename "), "{line}");
        assert!(!line.contains("-A"), "{line}");
        assert!(line.ends_with("-e -foo"), "{line}");
    }

    #[test]
    fn files_filters_only_when_ignore_or_hidden_rules_apply() {
        let mut flags = FilesFlags {
            glob: "*.rs".into(),
            no_ignore: true,
            hidden: true,
            path: None,
        };
        assert_eq!(
            flags.matching().shell_line(),
            "rg --no-config --files --no-ignore --hidden -g '*.rs' -g '!.git' -g '!.hg' \
             -g '!.svn' -g '!.bzr' -g '!.jj' -g '!.sl'"
        );
        assert!(flags.allowed().is_none());
        flags.hidden = false;
        let allowed = flags.allowed().unwrap().shell_line();
        assert!(!allowed.contains("*.rs"), "{allowed}");
        assert!(allowed.contains("--no-ignore"), "{allowed}");
    }

    #[test]
    fn a_listing_of_a_path_runs_in_it_and_names_files_from_here() {
        let flags = FilesFlags {
            glob: "dir/*.h".into(),
            no_ignore: false,
            hidden: true,
            path: Some("sub".into()),
        };
        // rg anchors the glob at its working directory.
        for line in [
            flags.matching().shell_line(),
            flags.allowed().unwrap().shell_line(),
        ] {
            assert!(
                line.starts_with("cd sub && rg --no-config --files "),
                "{line}"
            );
            assert!(!line.ends_with(" sub"), "{line}");
        }
        assert_eq!(flags.full_path(b"dir/a.h"), b"sub/dir/a.h");
        assert_eq!(
            flags.full_warning("./locked: Permission denied (os error 13)"),
            "sub/locked: Permission denied (os error 13)"
        );
        assert_eq!(flags.full_warning("rg: ./x: y"), "rg: sub/x: y");
        let root = FilesFlags {
            path: Some("/".into()),
            ..flags.clone()
        };
        assert_eq!(root.full_path(b"etc/x"), b"/etc/x");
        let here = FilesFlags {
            path: None,
            ..flags
        };
        assert_eq!(here.full_path(b"dir/a.h"), b"dir/a.h");
        assert_eq!(here.full_warning("./x: y"), "./x: y");
        assert!(here.matching().cwd.is_none());
    }

    #[test]
    fn count_lines_split_at_the_last_colon() {
        assert_eq!(parse_count_line(b"a:b.rs:12"), Some((&b"a:b.rs"[..], 12)));
        assert_eq!(parse_count_line(b"nocount"), None);
        assert_eq!(parse_count_line(b"a.rs:x"), None);
    }

    #[test]
    fn pattern_goes_after_dash_e_and_paths_after_double_dash_when_needed() {
        let flags = SearchFlags {
            patterns: vec!["-foo".into()],
            fixed_strings: true,
            paths: vec!["-dir".into()],
            ..SearchFlags::default()
        };
        assert_eq!(flags.repro(), "rg -n --no-heading -F -e -foo -- -dir");
        let json: Vec<_> = flags.json().args;
        assert_eq!(json, ["--json", "-F", "-e", "-foo", "--", "-dir"]);
    }

    #[test]
    fn plain_lines_name_the_file_when_asked() {
        let flags = SearchFlags {
            patterns: vec!["x".into()],
            paths: vec!["a.rs".into()],
            with_filename: true,
            ..SearchFlags::default()
        };
        assert_eq!(
            flags.repro(),
            "rg -n --no-heading --with-filename -e x a.rs"
        );
        assert!(flags.plain().args.contains(&"--with-filename".into()));
    }

    #[test]
    fn repro_quotes_what_a_shell_would_split() {
        let flags = SearchFlags {
            patterns: vec!["fn main(".into()],
            globs: vec!["!*.md".into()],
            ..SearchFlags::default()
        };
        assert_eq!(flags.repro(), "rg -n --no-heading -g '!*.md' -e 'fn main('");
    }

    #[test]
    fn regression_34_types_rg_may_lack_are_defined_first() {
        let flags = SearchFlags {
            patterns: vec!["x".into()],
            types: vec!["py".into(), "tsx".into()],
            ..SearchFlags::default()
        };
        assert_eq!(
            flags.repro(),
            "rg -n --no-heading --type py --type-add 'tsx:*.tsx' --type tsx -e x"
        );
    }

    #[test]
    fn content_lines_split_into_rg_fields() {
        let flags = GrepFlags {
            pattern: "x".into(),
            output: GrepOutput::Lines,
            after: 1,
            before: 0,
            line_number: true,
            ignore_case: false,
            multiline: false,
            types: Vec::new(),
            globs: Vec::new(),
            path: None,
        };
        let split = |line: &'static str, with_filename| {
            flags
                .split_line(line.as_bytes(), with_filename)
                .map(|c| (c.path, c.number, c.matching, c.text))
        };
        let b = |s: &'static str| Some(s.as_bytes());
        assert_eq!(
            split("2024-notes/a-1.md:12:let x = 1-2-3;", true),
            Some((
                b("2024-notes/a-1.md"),
                b("12"),
                true,
                &b"let x = 1-2-3;"[..]
            ))
        );
        assert_eq!(
            split("src/a.rs-13-  y:1:", true),
            Some((b("src/a.rs"), b("13"), false, &b"  y:1:"[..]))
        );
        assert_eq!(split("7:x", false), Some((None, b("7"), true, &b"x"[..])));
        assert_eq!(split("--", true), None);
        let unnumbered = GrepFlags {
            line_number: false,
            after: 0,
            ..flags.clone()
        };
        assert_eq!(
            unnumbered
                .split_line(b"a.rs:x: y", true)
                .map(|c| (c.path, c.text)),
            Some((b("a.rs"), &b"x: y"[..]))
        );
        let with_context = GrepFlags {
            line_number: false,
            ..flags
        };
        assert_eq!(with_context.split_line(b"a.rs-x", true), None);
    }
}
