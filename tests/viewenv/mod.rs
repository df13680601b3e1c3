//! Test support for the faithful views (`grep`, `files`, `call`): a fresh
//! temporary tree, the real `scout` binary (assert_cmd) run in it with a
//! cleared environment (PATH, a private HOME and XDG directories), explicit
//! modification times, and fake rg binaries for failures real rg cannot be
//! made to show on demand (a hang, EAGAIN). Failed assertions print the
//! command, its cwd, the tree, stdout and stderr.

#![allow(dead_code)] // each test file uses part of this

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, SystemTime};

use assert_cmd::Command;

/// A temporary tree and the environment scout runs in.
pub struct Env {
    dir: tempfile::TempDir,
    /// `dir/tree`: the working directory of every run.
    pub root: PathBuf,
    vars: Vec<(String, OsString)>,
}

/// The real rg, found on the test process's PATH.
pub fn real_rg() -> PathBuf {
    let path = std::env::var_os("PATH").expect("PATH is set");
    std::env::split_paths(&path)
        .map(|d| d.join("rg"))
        .find(|p| p.is_file())
        .expect("rg must be installed to run the integration tests")
}

impl Env {
    pub fn new() -> Env {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("tree");
        for sub in ["tree", "home", "cache", "state", "config", "bin"] {
            std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        }
        Env {
            dir,
            root,
            vars: Vec::new(),
        }
    }

    /// The temporary directory holding the tree (outside the cwd).
    pub fn outside(&self) -> &Path {
        self.dir.path()
    }

    /// Writes a file under the tree, creating its parents.
    pub fn write(&self, rel: &str, content: impl AsRef<[u8]>) -> &Env {
        let path = self.root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
        self
    }

    /// Sets a file's modification time to `seconds` after the epoch.
    pub fn touch(&self, rel: &str, seconds: u64) -> &Env {
        let file = std::fs::File::options()
            .write(true)
            .open(self.root.join(rel))
            .unwrap();
        file.set_modified(SystemTime::UNIX_EPOCH + Duration::from_secs(seconds))
            .unwrap();
        self
    }

    pub fn set(&mut self, key: &str, value: impl Into<OsString>) -> &mut Env {
        self.vars.push((key.to_string(), value.into()));
        self
    }

    /// Installs a fake rg (a shell script) and points SCOUT_RG at it.
    /// `$REAL_RG` in the script is the real rg.
    pub fn fake_rg(&mut self, script: &str) -> &mut Env {
        use std::os::unix::fs::PermissionsExt;
        let path = self.dir.path().join("bin/fake-rg");
        let text = format!("#!/bin/sh\nREAL_RG='{}'\n{script}\n", real_rg().display());
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        self.set("SCOUT_RG", path.into_os_string())
    }

    /// Runs `git init` in the tree (so rg honours `.gitignore`).
    pub fn git_init(&self) -> &Env {
        let status = std::process::Command::new("git")
            .args(["init", "-q", "."])
            .current_dir(&self.root)
            .env("HOME", self.dir.path().join("home"))
            .status()
            .expect("git runs");
        assert!(status.success());
        self
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::cargo_bin("scout").unwrap();
        cmd.args(args)
            .current_dir(&self.root)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap())
            .env("HOME", self.dir.path().join("home"))
            .env("XDG_CACHE_HOME", self.dir.path().join("cache"))
            .env("XDG_STATE_HOME", self.dir.path().join("state"))
            .env("XDG_CONFIG_HOME", self.dir.path().join("config"));
        for (key, value) in &self.vars {
            cmd.env(key, value);
        }
        cmd
    }

    /// Runs scout with `args` in the tree.
    pub fn run(&self, args: &[&str]) -> Run {
        self.run_with_stdin(args, "")
    }

    /// Runs scout with `args` in the tree, feeding `stdin`.
    pub fn run_with_stdin(&self, args: &[&str], stdin: &str) -> Run {
        let output = self
            .command(args)
            .write_stdin(stdin.as_bytes().to_vec())
            .output()
            .expect("scout runs");
        Run {
            args: args.iter().map(|s| s.to_string()).collect(),
            cwd: self.root.clone(),
            output,
        }
    }

    /// Runs the real rg in the tree, returning its stdout lines.
    pub fn rg_lines(&self, args: &[&str]) -> Vec<String> {
        let output = std::process::Command::new(real_rg())
            .args(args)
            .current_dir(&self.root)
            .env_clear()
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .map(str::to_string)
            .collect()
    }
}

/// A finished scout run.
pub struct Run {
    pub args: Vec<String>,
    pub cwd: PathBuf,
    pub output: Output,
}

impl Run {
    pub fn code(&self) -> i32 {
        self.output.status.code().unwrap_or(-1)
    }

    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.output.stdout).into_owned()
    }

    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.output.stderr).into_owned()
    }

    /// stdout's lines.
    pub fn lines(&self) -> Vec<String> {
        self.stdout().lines().map(str::to_string).collect()
    }

    /// stdout's lines that are results (not the bracketed notes).
    pub fn results(&self) -> Vec<String> {
        self.lines()
            .into_iter()
            .filter(|l| !l.starts_with('['))
            .collect()
    }

    /// stdout's bracketed notes.
    pub fn notes(&self) -> Vec<String> {
        self.lines()
            .into_iter()
            .filter(|l| l.starts_with('['))
            .collect()
    }

    /// Everything a failure message needs.
    pub fn describe(&self) -> String {
        let mut tree = Vec::new();
        walk(&self.cwd, &self.cwd, &mut tree);
        tree.sort();
        let stdout = self.stdout();
        let stdout = if stdout.len() > 4000 {
            format!("{}... ({} bytes)\n", &stdout[..4000], stdout.len())
        } else {
            stdout
        };
        format!(
            "command: scout {}\ncwd: {}\ntree: {}\nexit: {:?}\n--- stdout\n{}--- stderr\n{}",
            self.args
                .iter()
                .map(|a| format!("'{a}'"))
                .collect::<Vec<_>>()
                .join(" "),
            self.cwd.display(),
            if tree.len() > 40 {
                format!("{} entries", tree.len())
            } else {
                tree.join(" ")
            },
            self.output.status.code(),
            stdout,
            self.stderr()
        )
    }

    /// Asserts the exit code, printing everything when it differs.
    pub fn expect_code(&self, code: i32) -> &Run {
        assert_eq!(self.code(), code, "\n{}", self.describe());
        self
    }

    /// Asserts that stdout's lines are exactly `expected`.
    pub fn expect_lines(&self, expected: &[&str]) -> &Run {
        assert_eq!(self.lines(), expected, "\n{}", self.describe());
        self
    }

    /// Asserts that stdout contains `needle`.
    pub fn expect_stdout_has(&self, needle: &str) -> &Run {
        assert!(
            self.stdout().contains(needle),
            "stdout lacks {needle:?}\n{}",
            self.describe()
        );
        self
    }

    /// Asserts that stderr contains `needle`.
    pub fn expect_stderr_has(&self, needle: &str) -> &Run {
        assert!(
            self.stderr().contains(needle),
            "stderr lacks {needle:?}\n{}",
            self.describe()
        );
        self
    }

    /// stdout as one JSON value.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.output.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e})\n{}", self.describe()))
    }
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let rel = path.strip_prefix(root).unwrap().display().to_string();
        if path.is_dir() {
            out.push(format!("{rel}/"));
            walk(root, &path, out);
        } else {
            out.push(rel);
        }
    }
}
