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
}

/// A full rg argument list (without the binary).
#[derive(Debug, Clone)]
pub struct RgCommand {
    pub args: Vec<OsString>,
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

    /// The command scout runs: `rg --json ...`.
    pub fn json(&self) -> RgCommand {
        let mut args: Vec<OsString> = vec!["--json".into()];
        args.extend(self.common());
        RgCommand { args }
    }

    /// Plain `rg -n` output, in a deterministic order (`--sort path`), for
    /// passthrough and for printing rg's own lines when they are smaller.
    pub fn plain(&self) -> RgCommand {
        let mut args: Vec<OsString> = vec!["-n".into(), "--no-heading".into()];
        args.push("--sort".into());
        args.push("path".into());
        args.extend(self.common());
        RgCommand { args }
    }

    /// The `repro:` line: the plain rg command with the same counts.
    pub fn repro(&self) -> String {
        let mut words = vec!["rg".to_string(), "-n".into(), "--no-heading".into()];
        words.extend(
            self.common()
                .iter()
                .map(|a| shell::quote(a.as_encoded_bytes())),
        );
        words.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn repro_quotes_what_a_shell_would_split() {
        let flags = SearchFlags {
            patterns: vec!["fn main(".into()],
            globs: vec!["!*.md".into()],
            ..SearchFlags::default()
        };
        assert_eq!(flags.repro(), "rg -n --no-heading -g '!*.md' -e 'fn main('");
    }
}
