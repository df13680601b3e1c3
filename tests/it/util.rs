//! The integration tests' one harness: fixture trees in temporary
//! directories, and the real `scout` binary run against the real `rg` with
//! a cleared environment and a private home; explicit modification times,
//! and fake rgs for failures the real one cannot be made to show on demand
//! (a hang, EAGAIN). Failures print the command, its cwd, the tree, stdout
//! and stderr.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use scout::stamp::Stamp;

/// What a test run passes on to every scout it starts, whatever else it
/// clears: `SCOUT_INTERNAL_PORTABLE`, with which `.ci/run` runs the whole
/// suite the way scout runs where its Linux-only calls do not exist
/// (macOS).
pub fn passed_on() -> Vec<(&'static str, OsString)> {
    let name = "SCOUT_INTERNAL_PORTABLE";
    std::env::var_os(name)
        .map(|v| (name, v))
        .into_iter()
        .collect()
}

/// A fixture tree and the environment scout runs in.
pub struct Fixture {
    pub dir: tempfile::TempDir,
    /// HOME and the XDG directories, outside the searched tree.
    pub home: tempfile::TempDir,
    /// PATH for scout: the directory holding the real rg, unless removed.
    pub path_var: OsString,
    pub env: Vec<(String, OsString)>,
}

/// The directory of the real `rg`, found on the test process's PATH.
pub fn rg_dir() -> PathBuf {
    let path = std::env::var_os("PATH").expect("PATH is set");
    std::env::split_paths(&path)
        .find(|d| d.join("rg").is_file())
        .expect("rg must be installed to run the integration tests (./install.sh or apt-get install ripgrep)")
}

/// PATH for scout: the real rg's directory first, then the system's
/// (the shell tools fake rgs and agents' commands run: `sleep`, `sh`),
/// unless rg lives there already. An rg built by cargo (#26: the tests run
/// against the distro's rg and a current one) is alone in its directory.
pub fn test_path() -> OsString {
    let rg = rg_dir();
    let mut dirs = vec![rg.clone()];
    for system in ["/usr/bin", "/bin"] {
        let system = PathBuf::from(system);
        let same =
            |a: &Path, b: &Path| std::fs::canonicalize(a).ok() == std::fs::canonicalize(b).ok();
        if system.is_dir() && !dirs.iter().any(|d| same(d, &system)) {
            dirs.push(system);
        }
    }
    std::env::join_paths(dirs).expect("plain directories join")
}

/// `n` distinct made-up words (`qzaaqz`, `qzabqz`, ...) that no stemmer,
/// stop list or vocabulary changes: a pasted paragraph, for tests of
/// long questions.
pub fn made_up_words(n: usize) -> Vec<String> {
    let letter = |i: usize| char::from(b'a' + (i % 26) as u8);
    (0..n)
        .map(|i| format!("qz{}{}qz", letter(i / 26), letter(i)))
        .collect()
}

impl Fixture {
    pub fn new() -> Fixture {
        Fixture {
            path_var: test_path(),
            env: Vec::new(),
            dir: tempfile::tempdir().unwrap(),
            home: tempfile::tempdir().unwrap(),
        }
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    /// Writes a file (creating parent directories).
    pub fn write(&self, rel: impl AsRef<Path>, content: impl AsRef<[u8]>) -> &Self {
        let path = self.root().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
        self
    }

    pub fn set_env(&mut self, key: &str, value: impl Into<OsString>) {
        self.env.push((key.to_string(), value.into()));
    }

    /// A directory outside the tree: the private home, its sibling in the
    /// temporary directory.
    pub fn outside(&self) -> &Path {
        self.home.path()
    }

    /// Sets the modification time of the file at `rel` to `seconds` after
    /// the epoch.
    pub fn touch(&self, rel: impl AsRef<Path>, seconds: u64) -> &Self {
        self.set_mtime(rel, UNIX_EPOCH + Duration::from_secs(seconds));
        self
    }

    /// Installs a fake rg (a shell script, outside the tree) and points
    /// `SCOUT_RG` at it; `$REAL_RG` in the script is the real rg. For
    /// failures real rg cannot be made to show on demand (a hang, EAGAIN).
    pub fn fake_rg(&mut self, script: &str) -> &mut Self {
        use std::os::unix::fs::PermissionsExt;
        let path = self.home.path().join("bin/fake-rg");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let real = rg_dir().join("rg");
        let text = format!("#!/bin/sh\nREAL_RG='{}'\n{script}\n", real.display());
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        self.set_env("SCOUT_RG", path);
        self
    }

    /// Runs `git init` in the tree, so rg honours its `.gitignore`.
    pub fn git_init(&self) -> &Self {
        let status = Command::new("git")
            .args(["init", "-q", "."])
            .current_dir(self.root())
            .env("HOME", self.home.path())
            .status()
            .expect("git runs");
        assert!(status.success());
        self
    }

    /// Sets the modification time of the file at `rel`.
    pub fn set_mtime(&self, rel: impl AsRef<Path>, time: SystemTime) {
        std::fs::File::options()
            .append(true)
            .open(self.root().join(rel))
            .unwrap()
            .set_modified(time)
            .unwrap();
    }

    /// Puts `content` in place of the file at `rel` as `cp -p`, `rsync -t`
    /// or `tar -x` do: a new file, given the old one's mtime, renamed over
    /// it (#34).
    pub fn replace_keeping_mtime(&self, rel: impl AsRef<Path>, content: impl AsRef<[u8]>) {
        let path = self.root().join(rel);
        let mtime = std::fs::metadata(&path).unwrap().modified().unwrap();
        let next = path.with_extension("replacement");
        std::fs::write(&next, content).unwrap();
        std::fs::File::options()
            .append(true)
            .open(&next)
            .unwrap()
            .set_modified(mtime)
            .unwrap();
        std::fs::rename(&next, &path).unwrap();
    }

    /// Waits until every file of the tree has settled: its mtime and its
    /// ctime, which no program can set back, are both older than
    /// [`scout::stamp::FRESH`], so the caches store what scout reads of
    /// it.
    pub fn settle(&self) {
        let latest = snapshot(self.root())
            .iter()
            .map(|(rel, _)| std::fs::metadata(self.root().join(rel)).unwrap())
            .map(|m| Stamp::of(&m))
            .map(|s| s.mtime_ns.max(s.ctime_ns))
            .max()
            .unwrap_or(0);
        let settled_at = UNIX_EPOCH
            + Duration::from_nanos(latest.max(0) as u64)
            + scout::stamp::FRESH
            + Duration::from_millis(50);
        if let Ok(wait) = settled_at.duration_since(SystemTime::now()) {
            std::thread::sleep(wait);
        }
    }

    /// The scout command, in the fixture's root, with a cleared environment.
    pub fn command(&self, args: &[&str]) -> Command {
        self.command_via(&[], args)
    }

    /// [`Fixture::command`] run by `wrapper` (a program and its first
    /// arguments, which runs scout with the rest), or by none when empty.
    pub fn command_via(&self, wrapper: &[&str], args: &[&str]) -> Command {
        let scout = env!("CARGO_BIN_EXE_scout");
        let mut cmd = match wrapper.split_first() {
            Some((program, first)) => {
                let mut cmd = Command::new(program);
                cmd.args(first).arg(scout);
                cmd
            }
            None => Command::new(scout),
        };
        cmd.args(args)
            .current_dir(self.root())
            .env_clear()
            .envs(passed_on())
            .env("PATH", &self.path_var)
            .env("HOME", self.home.path())
            .env("XDG_CACHE_HOME", self.home.path().join("cache"))
            .env("XDG_STATE_HOME", self.home.path().join("state"));
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        cmd
    }

    /// Runs scout and returns its outcome.
    pub fn run(&self, args: &[&str]) -> Run {
        let output = self.command(args).output().expect("scout runs");
        Run {
            args: args.iter().map(|s| s.to_string()).collect(),
            cwd: self.root().to_path_buf(),
            output,
        }
    }

    /// Runs scout with `stdin` as its standard input.
    pub fn run_with_stdin(&self, args: &[&str], stdin: &[u8]) -> Run {
        use std::io::Write;
        let mut child = self
            .command(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("scout runs");
        // scout may exit before reading it all (a refused command line).
        let _ = child.stdin.take().unwrap().write_all(stdin);
        let output = child.wait_with_output().expect("scout runs");
        Run {
            args: args.iter().map(|s| s.to_string()).collect(),
            cwd: self.root().to_path_buf(),
            output,
        }
    }

    /// Runs the real rg in the fixture root.
    pub fn rg(&self, args: &[&str]) -> Output {
        Command::new(rg_dir().join("rg"))
            .args(args)
            .current_dir(self.root())
            .env_clear()
            .output()
            .unwrap()
    }

    /// The lines rg prints with exactly `args`, in its order.
    pub fn rg_stdout_lines(&self, args: &[&str]) -> Vec<String> {
        String::from_utf8_lossy(&self.rg(args).stdout)
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// rg's plain `-n` lines for the same search, as a sorted list.
    pub fn rg_lines(&self, args: &[&str]) -> Vec<Vec<u8>> {
        let mut full = vec!["-n", "--no-heading"];
        full.extend_from_slice(args);
        let out = self.rg(&full);
        let mut lines: Vec<Vec<u8>> = out
            .stdout
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| l.to_vec())
            .collect();
        lines.sort();
        lines
    }

    /// (matching lines, files with matches) according to rg itself.
    pub fn rg_counts(&self, args: &[&str]) -> (u64, u64) {
        let mut full = vec!["--count", "--with-filename"];
        full.extend_from_slice(args);
        let out = self.rg(&full);
        let mut hits = 0;
        let mut files = 0;
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let n: u64 = line.rsplit(':').next().unwrap().parse().unwrap();
            hits += n;
            files += 1;
        }
        (hits, files)
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

    /// Everything a failure message needs (a long stdout or tree is cut).
    pub fn describe(&self) -> String {
        let tree: Vec<String> = walk(&self.cwd)
            .into_iter()
            .map(|p| p.strip_prefix(&self.cwd).unwrap().display().to_string())
            .collect();
        let stdout = self.stdout();
        let stdout = if stdout.len() > 4000 {
            let mut cut = 4000;
            while !stdout.is_char_boundary(cut) {
                cut -= 1;
            }
            format!("{}... ({} bytes)\n", &stdout[..cut], stdout.len())
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
                format!("{} files", tree.len())
            } else {
                tree.join(" ")
            },
            self.output.status.code(),
            stdout,
            self.stderr()
        )
    }

    /// stdout's lines.
    pub fn lines(&self) -> Vec<String> {
        self.stdout().lines().map(str::to_string).collect()
    }

    /// stdout's lines that are results (not the bracketed notes of the
    /// faithful views).
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

    /// Asserts that stdout's lines are exactly `expected`.
    pub fn expect_lines(&self, expected: &[&str]) -> &Self {
        assert_eq!(self.lines(), expected, "\n{}", self.describe());
        self
    }

    /// Asserts that stdout contains `needle`.
    pub fn expect_stdout_has(&self, needle: &str) -> &Self {
        assert!(
            self.stdout().contains(needle),
            "stdout lacks {needle:?}\n{}",
            self.describe()
        );
        self
    }

    /// Asserts that stderr contains `needle`.
    pub fn expect_stderr_has(&self, needle: &str) -> &Self {
        assert!(
            self.stderr().contains(needle),
            "stderr lacks {needle:?}\n{}",
            self.describe()
        );
        self
    }

    /// Asserts the exit code, printing everything when it differs.
    pub fn expect_code(&self, code: i32) -> &Self {
        assert_eq!(self.code(), code, "\n{}", self.describe());
        self
    }

    /// The page with the elapsed milliseconds masked (the one field that
    /// varies between identical runs).
    pub fn stdout_masked(&self) -> String {
        let text = self.stdout();
        match text.split_once('\n') {
            Some((header, rest))
                if header.starts_with("query: ") || header.starts_with("smart: ") =>
            {
                let masked: String = match header.rsplit_once(' ') {
                    Some((before, ms)) if ms.ends_with("ms") => format!("{before} _ms"),
                    _ => header.to_string(),
                };
                format!("{masked}\n{rest}")
            }
            _ => text,
        }
    }

    /// File header lines of a ranked page: (path, hits, def).
    pub fn files(&self) -> Vec<(String, u64, bool)> {
        self.stdout()
            .lines()
            .filter_map(|line| {
                if line.starts_with(' ') || line.starts_with("query: ") {
                    return None;
                }
                let (path, rest) = line.split_once("  (")?;
                let (count, marks) = rest.split_once("x)")?;
                Some((
                    path.to_string(),
                    count.parse().ok()?,
                    marks.contains("[def]"),
                ))
            })
            .collect()
    }

    /// A header field such as `hits` from `hits=12`.
    pub fn header_field(&self, name: &str) -> Option<String> {
        let header = self.stdout().lines().next()?.to_string();
        header
            .split_whitespace()
            .find_map(|w| w.strip_prefix(&format!("{name}=")).map(str::to_string))
    }

    /// The `results` entry of a `--json` search for `path`.
    pub fn json_result(&self, path: &str) -> serde_json::Value {
        let doc = self.json();
        doc["results"]
            .as_array()
            .and_then(|results| results.iter().find(|r| r["path"] == path))
            .unwrap_or_else(|| panic!("no result for {path}\n{}", self.describe()))
            .clone()
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.output.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", self.describe()))
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                out.extend(walk(&path));
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Every file under `root` (relative path, bytes), sorted.
pub fn snapshot(root: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if entry.file_type().unwrap().is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(root).unwrap().display().to_string();
                out.push((rel, std::fs::read(&path).unwrap_or_default()));
            }
        }
    }
    out.sort();
    out
}
