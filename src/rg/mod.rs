//! Everything scout knows about ripgrep: where the binary is, its version,
//! the command line for a search (which is also the printed `repro:` line),
//! the JSON events and plain records it prints, the spans of a match in a
//! plain line, and what its exit codes and stderr mean.
//!
//! Nothing outside this module spells an rg flag or parses rg's output.

mod cancel;
mod command;
pub mod config;
mod event;
mod fast;
mod lines;
mod matcher;
mod process;
mod records;

pub use cancel::Cancel;
pub use command::{parse_count_line, FilesFlags, GrepFlags, GrepOutput, RgCommand, SearchFlags};
pub use event::{parse_event, RgEvent, Stats};
pub use lines::{run_lines, Ending, LineSink, LinesOutcome};
pub use matcher::Matcher;
pub use process::{
    newline_refusal, nothing_searched, run_paced, run_plain, run_streaming, Flow, RgOutcome,
};
pub use records::{is_stopped_notice, Record, RecordReader};

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The environment variable that names the rg binary to use.
pub const RG_ENV: &str = "SCOUT_RG";

/// The rg binary scout will run.
#[derive(Debug, Clone)]
pub struct Rg {
    /// Absolute path, or the path given in `SCOUT_RG`.
    pub path: PathBuf,
    /// Where the path came from.
    pub source: RgSource,
    /// Set for a request that may be cancelled (an MCP call): its rg
    /// processes can then be stopped ([`Cancel`]).
    pub cancel: Option<Cancel>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RgSource {
    Env,
    Path,
}

/// Why rg cannot be used. Each message says what to do next.
#[derive(Debug)]
pub enum RgError {
    /// Not on PATH and `SCOUT_RG` unset.
    NotFound,
    /// `SCOUT_RG` names something that does not exist or cannot be run.
    EnvNotRunnable(PathBuf, String),
    /// The binary ran but is not ripgrep, or its `--json` is broken.
    NotRipgrep(PathBuf, String),
}

/// Whether rg will read a config file (`RIPGREP_CONFIG_PATH`), whose
/// flags can change the layout of its plain output but not of `--json`.
pub fn config_in_effect() -> bool {
    config_in_effect_in(&crate::dirs::process_env)
}

/// [`config_in_effect`] in the environment `env`.
pub fn config_in_effect_in(env: crate::dirs::OsEnvLookup<'_>) -> bool {
    env("RIPGREP_CONFIG_PATH").is_some_and(|v| !v.is_empty())
}

/// The environment variable that chooses which of rg's outputs the ranked
/// search reads: `json` forces its `--json` events, anything else (or
/// unset) lets scout read the plain records where they can serve. Both
/// print the same page; `bench/invariants.py` checks that they do.
pub const OUTPUT_ENV: &str = "SCOUT_RG_OUTPUT";

/// Whether `SCOUT_RG_OUTPUT=json` asks for rg's `--json` events.
pub fn json_forced() -> bool {
    json_forced_in(&crate::dirs::process_env)
}

/// [`json_forced`] in the environment `env`.
pub fn json_forced_in(env: crate::dirs::OsEnvLookup<'_>) -> bool {
    env(OUTPUT_ENV).is_some_and(|v| v == "json")
}

/// How to install rg, shared by errors and `doctor`.
pub const INSTALL_HINT: &str = "install ripgrep (Debian/Ubuntu: `sudo apt-get install ripgrep`, \
macOS: `brew install ripgrep`, anywhere with Rust: `cargo install ripgrep`), \
or set SCOUT_RG to the path of an rg binary";

/// The oldest ripgrep major version scout does not warn about: 14 and
/// 15 give the same pages as 13, faster (BENCHMARKS.md).
pub const CURRENT_MAJOR: u32 = 14;

/// How to get a current ripgrep, for the warning about an old one.
pub const UPGRADE_HINT: &str = "cargo install --locked ripgrep (then put ~/.cargo/bin before the \
system's directory on PATH, or set SCOUT_RG=~/.cargo/bin/rg), or the package manager's ripgrep \
where it is 14 or newer";

/// The major version of a `ripgrep X.Y.Z ...` line (`rg --version`'s
/// first line).
pub fn major_version(line: &str) -> Option<u32> {
    let version = line.strip_prefix("ripgrep ")?;
    version.split(['.', ' ']).next()?.parse().ok()
}

impl std::fmt::Display for RgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RgError::NotFound => write!(f, "rg (ripgrep) was not found on PATH; {INSTALL_HINT}"),
            RgError::EnvNotRunnable(path, why) => write!(
                f,
                "SCOUT_RG={} cannot be run ({why}); point it at an rg binary or unset it",
                path.display()
            ),
            RgError::NotRipgrep(path, why) => write!(
                f,
                "{} does not behave like ripgrep ({why}); {INSTALL_HINT}",
                path.display()
            ),
        }
    }
}

impl std::error::Error for RgError {}

impl Rg {
    /// Finds rg: `SCOUT_RG` when set (and non-empty), else the first `rg`
    /// on `PATH`. Does not run it; [`Rg::version`] does.
    pub fn locate(env_value: Option<OsString>, path_var: Option<OsString>) -> Result<Rg, RgError> {
        if let Some(value) = env_value.filter(|v| !v.is_empty()) {
            let path = PathBuf::from(value);
            let resolved = if path.components().count() > 1 {
                path.clone()
            } else {
                find_on_path(path.as_os_str(), path_var.as_deref()).unwrap_or(path.clone())
            };
            if !is_executable(&resolved) {
                return Err(RgError::EnvNotRunnable(
                    path,
                    "no executable file at that path".into(),
                ));
            }
            return Ok(Rg {
                path: resolved,
                source: RgSource::Env,
                cancel: None,
            });
        }
        find_on_path("rg".as_ref(), path_var.as_deref())
            .map(|path| Rg {
                path,
                source: RgSource::Path,
                cancel: None,
            })
            .ok_or(RgError::NotFound)
    }

    /// Finds rg from the process environment.
    pub fn from_env() -> Result<Rg, RgError> {
        Rg::in_env(&crate::dirs::process_env)
    }

    /// Finds rg from the environment `env` (`SCOUT_RG`, `PATH`).
    pub fn in_env(env: crate::dirs::OsEnvLookup<'_>) -> Result<Rg, RgError> {
        Rg::locate(env(RG_ENV), env("PATH"))
    }

    /// Whether the request this rg runs for was cancelled: the work after
    /// its rg would be thrown away, and stops.
    pub fn cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(Cancel::is_cancelled)
    }

    /// Runs `rg --version` and returns its first line (`ripgrep 14.1.0 ...`).
    /// Fails when the binary does not run or does not say it is ripgrep.
    pub fn version(&self) -> Result<String, RgError> {
        let output = Command::new(&self.path)
            .arg("--version")
            .output()
            .map_err(|e| RgError::EnvNotRunnable(self.path.clone(), e.to_string()))?;
        let stdout = String::from_utf8_lossy(&output.stdout);
        let first = stdout.lines().next().unwrap_or("").trim().to_string();
        if !output.status.success() || !first.starts_with("ripgrep") {
            let said = if first.is_empty() {
                format!("`--version` exited with {}", output.status)
            } else {
                format!("`--version` printed {first:?}")
            };
            return Err(RgError::NotRipgrep(self.path.clone(), said));
        }
        Ok(first)
    }

    /// Every `rg` on PATH, in PATH order (for `doctor`), each named once
    /// (`/bin` and `/usr/bin` are often one directory).
    pub fn all_on_path(path_var: Option<&std::ffi::OsStr>) -> Vec<PathBuf> {
        let mut found: Vec<PathBuf> = Vec::new();
        for candidate in on_path("rg".as_ref(), path_var) {
            let real = std::fs::canonicalize(&candidate).unwrap_or(candidate);
            if !found.contains(&real) {
                found.push(real);
            }
        }
        found
    }
}

/// The executables named `name` in the directories of `path_var`, in
/// order (relative entries are not resolved against the working
/// directory, as a shell would not for a name without a slash).
fn on_path(name: &std::ffi::OsStr, path_var: Option<&std::ffi::OsStr>) -> Vec<PathBuf> {
    match path_var {
        Some(paths) => which::which_in_global(name, Some(paths))
            .map(|found| found.collect())
            .unwrap_or_default(),
        None => Vec::new(),
    }
}

fn find_on_path(name: &std::ffi::OsStr, path_var: Option<&std::ffi::OsStr>) -> Option<PathBuf> {
    which::which_in_global(name, Some(path_var?)).ok()?.next()
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_major_version_of_each_rg_version_line() {
        assert_eq!(major_version("ripgrep 13.0.0"), Some(13));
        assert_eq!(major_version("ripgrep 14.1.1 (rev 4649aa9700)"), Some(14));
        assert_eq!(major_version("ripgrep 15.2.0"), Some(15));
        assert_eq!(major_version("rg 13"), None);
    }

    #[test]
    fn locate_reports_not_found_on_an_empty_path() {
        let dir = tempfile::tempdir().unwrap();
        let err = Rg::locate(None, Some(dir.path().as_os_str().to_owned())).unwrap_err();
        assert!(matches!(err, RgError::NotFound));
        assert!(err.to_string().contains("apt-get install ripgrep"));
    }

    #[test]
    fn locate_prefers_scout_rg_and_rejects_a_missing_file() {
        let err = Rg::locate(Some("/nonexistent/rg".into()), None).unwrap_err();
        assert!(matches!(err, RgError::EnvNotRunnable(..)), "{err}");
        assert!(err.to_string().contains("SCOUT_RG"));
    }
}
