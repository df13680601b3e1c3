//! Test support for the faithful views (`grep`, `files`, `call`): a fresh
//! temporary tree, the real `scout` binary (assert_cmd) run in it with a
//! cleared environment (PATH, a private HOME and XDG directories), explicit
//! modification times, and fake rg binaries for failures real rg cannot be
//! made to show on demand (a hang, EAGAIN). Failed assertions print the
//! command, its cwd, the tree, stdout and stderr.

#![allow(dead_code)] // each test file uses part of this

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use assert_cmd::Command;

/// A temporary tree and the environment scout runs in.
pub struct Env {
    dir: tempfile::TempDir,
    /// `dir/tree`: the working directory of every run.
    pub root: PathBuf,
    vars: Vec<(String, OsString)>,
}

/// The run type and failure report are shared with the ranked view's tests.
#[path = "../util/mod.rs"]
mod util;

pub use util::Run;

/// The real rg, found on the test process's PATH.
pub fn real_rg() -> PathBuf {
    util::rg_dir().join("rg")
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
            .envs(
                std::env::var_os("SCOUT_INTERNAL_PORTABLE").map(|v| ("SCOUT_INTERNAL_PORTABLE", v)),
            )
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
