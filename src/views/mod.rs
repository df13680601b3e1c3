//! What the faithful views (`scout grep`, `scout files`) share: the time
//! limit, the output cap, where the searched path is printed from, the
//! splitting of `--glob` lists, the newest-first order of files, and the
//! command for the next page.
//!
//! Running rg is `rg`'s business; each view's own rules live in
//! [`grep`] and [`files`]. [`read`], the reading view, prints one
//! definition or a line range of one file.

pub mod files;
pub mod grep;
pub mod read;

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::time::{Duration, SystemTime};

use anyhow::{bail, Result};

use crate::shell;

/// The environment variable holding the default time limit, in seconds.
pub const TIMEOUT_ENV: &str = "SCOUT_TIMEOUT_SECONDS";

/// The time limit when neither `--timeout` nor [`TIMEOUT_ENV`] says one.
pub const DEFAULT_TIMEOUT_SECONDS: f64 = 20.0;

/// Most bytes of results a view prints; past it the output is cut at the
/// last complete line, with a marker saying how to see the rest.
pub const MAX_OUTPUT_BYTES: usize = 20 * 1024 * 1024;

/// Reads one environment variable (`None` when unset or not UTF-8).
/// Settings are resolved through this, so tests can pass their own.
pub type EnvLookup<'a> = &'a dyn Fn(&str) -> Option<String>;

/// The time limit: `--timeout` when given, else [`TIMEOUT_ENV`], else
/// [`DEFAULT_TIMEOUT_SECONDS`]. 0 means no limit.
pub fn resolve_timeout(flag: Option<f64>, env: EnvLookup<'_>) -> Result<Option<Duration>> {
    let (seconds, source) = match flag {
        Some(seconds) => (seconds, "--timeout".to_string()),
        None => match env(TIMEOUT_ENV).filter(|v| !v.trim().is_empty()) {
            Some(value) => match value.trim().parse::<f64>() {
                Ok(seconds) => (seconds, format!("{TIMEOUT_ENV}={value}")),
                Err(_) => bail!(
                    "{TIMEOUT_ENV}={value:?} is not a number of seconds; set it to e.g. 20, or unset it"
                ),
            },
            None => (DEFAULT_TIMEOUT_SECONDS, String::new()),
        },
    };
    if !seconds.is_finite() || seconds < 0.0 {
        bail!("{source}: the time limit must be a number of seconds, 0 or more (0 = no limit)");
    }
    // A limit past a year is no different from one year, and one past
    // `Duration` or `Instant` panicked (`--timeout 1e300`).
    Ok((seconds > 0.0).then(|| Duration::from_secs_f64(seconds.min(MAX_TIMEOUT_SECONDS))))
}

/// The longest time limit kept as given (a year, in seconds); longer ones
/// are cut to it.
pub const MAX_TIMEOUT_SECONDS: f64 = 365.0 * 24.0 * 60.0 * 60.0;

/// Reads a yes/no environment variable: `0`, `false`, `no` and `off` (any
/// case) are no, any other non-empty value is yes, unset is `default`.
pub fn env_flag(env: EnvLookup<'_>, name: &str, default: bool) -> bool {
    match env(name) {
        Some(value) if !value.trim().is_empty() => !matches!(
            value.trim().to_ascii_lowercase().as_str(),
            "0" | "false" | "no" | "off"
        ),
        _ => default,
    }
}

/// Splits a `--glob` value into globs: on whitespace and commas, except
/// inside braces, so `*.{ts,tsx}` stays one glob and `*.rs, *.toml` is two.
pub fn split_globs(value: &str) -> Vec<String> {
    let mut globs = Vec::new();
    let mut current = String::new();
    let mut depth = 0usize;
    let mut escaped = false;
    for c in value.chars() {
        if escaped {
            current.push(c);
            escaped = false;
            continue;
        }
        match c {
            '\\' => {
                escaped = true;
                current.push(c);
            }
            '{' => {
                depth += 1;
                current.push(c);
            }
            '}' => {
                depth = depth.saturating_sub(1);
                current.push(c);
            }
            ',' if depth == 0 => globs.push(std::mem::take(&mut current)),
            c if c.is_whitespace() && depth == 0 => globs.push(std::mem::take(&mut current)),
            c => current.push(c),
        }
    }
    globs.push(current);
    globs.retain(|g| !g.is_empty());
    globs
}

/// What to hand rg for the PATH operand so that it prints paths relative
/// to `cwd` when PATH is inside it, and absolute paths when it is not.
/// `None` means `cwd` itself (rg then prints `a.rs`, not `./a.rs`).
pub fn rg_operand(cwd: &Path, path: &OsStr) -> Option<OsString> {
    let absolute = crate::paths::lexical(&cwd.join(path));
    let relative = |root: &Path, target: &Path| -> Option<OsString> {
        target
            .strip_prefix(root)
            .ok()
            .map(|rest| rest.as_os_str().to_os_string())
    };
    let inside = relative(&crate::paths::lexical(cwd), &absolute).or_else(|| {
        // A symlinked cwd or PATH: compare where they really are.
        let real_cwd = cwd.canonicalize().ok()?;
        let real = absolute.canonicalize().ok()?;
        relative(&real_cwd, &real)
    });
    match inside {
        Some(rest) if rest.is_empty() => None,
        Some(rest) => Some(rest),
        None => Some(absolute.into_os_string()),
    }
}

/// The command line typed (`argv`, `scout` first), with every `FLAG N` /
/// `FLAG=N` (and `--color WHEN`) removed and `FLAG value` appended: the
/// command for the next page.
pub fn command_with(argv: &[OsString], flag: &str, value: &str) -> String {
    // Without --color, which changes nothing shown.
    let mut words = shell::words_without_any(argv, &[flag, "--color"]);
    words.push(flag.as_bytes());
    words.push(value.as_bytes());
    shell::join(words)
}

/// Paths (relative to the current directory, or absolute), newest
/// modification time first, ties by path: one deterministic order, so
/// pages never skip or repeat a file. A path that cannot be read any more
/// sorts last.
pub fn newest_first(paths: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
    let modified = |path: &[u8]| {
        Path::new(OsStr::from_bytes(path))
            .metadata()
            .and_then(|m| m.modified())
            .unwrap_or(SystemTime::UNIX_EPOCH)
    };
    let mut stamped: Vec<(SystemTime, Vec<u8>)> =
        paths.into_iter().map(|p| (modified(&p), p)).collect();
    stamped.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    stamped.into_iter().map(|(_, path)| path).collect()
}

/// A duration for people: `20s`, `0.5s`, `1.25s`.
pub fn seconds(duration: Duration) -> String {
    let text = format!("{:.3}", duration.as_secs_f64());
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text}s")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_split_on_spaces_and_commas_but_not_inside_braces() {
        assert_eq!(split_globs("*.{ts,tsx}"), ["*.{ts,tsx}"]);
        assert_eq!(split_globs("*.rs,*.toml"), ["*.rs", "*.toml"]);
        assert_eq!(
            split_globs("*.rs, *.toml  !vendor/**"),
            ["*.rs", "*.toml", "!vendor/**"]
        );
        assert_eq!(
            split_globs("src/**/*.{js,jsx} *.{a,{b,c}},x"),
            ["src/**/*.{js,jsx}", "*.{a,{b,c}}", "x"]
        );
        assert_eq!(split_globs(r"a\,b,c"), [r"a\,b", "c"]);
        assert!(split_globs(" , ").is_empty());
    }

    #[test]
    fn timeout_comes_from_the_flag_then_the_environment() {
        let none = |_: &str| None;
        let env = |_: &str| Some("2.5".to_string());
        let bad = |_: &str| Some("soon".to_string());
        assert_eq!(
            resolve_timeout(None, &none).unwrap(),
            Some(Duration::from_secs(20))
        );
        assert_eq!(
            resolve_timeout(None, &env).unwrap(),
            Some(Duration::from_millis(2500))
        );
        assert_eq!(
            resolve_timeout(Some(1.0), &env).unwrap(),
            Some(Duration::from_secs(1))
        );
        assert_eq!(resolve_timeout(Some(0.0), &none).unwrap(), None);
        assert!(resolve_timeout(Some(-1.0), &none).is_err());
        assert!(resolve_timeout(Some(f64::NAN), &none).is_err());
        let message = resolve_timeout(None, &bad).unwrap_err().to_string();
        assert!(message.contains(TIMEOUT_ENV), "{message}");
    }

    /// Found by the property tests: `--timeout 1e300` (or a
    /// request's `"timeout":1e300`) panicked converting to a Duration.
    #[test]
    fn regression_a_huge_timeout_is_a_year_not_a_panic() {
        let none = |_: &str| None;
        let year = Duration::from_secs_f64(MAX_TIMEOUT_SECONDS);
        for seconds in [1e300, f64::MAX, 1e19, MAX_TIMEOUT_SECONDS * 2.0] {
            assert_eq!(resolve_timeout(Some(seconds), &none).unwrap(), Some(year));
        }
        // The deadline a view computes from it must not overflow.
        let _ = std::time::Instant::now() + year;
        let year = Some(year);
        assert!(resolve_timeout(Some(f64::INFINITY), &none).is_err());
        let env = |_: &str| Some("1e308".to_string());
        assert_eq!(resolve_timeout(None, &env).unwrap(), year);
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config {
            cases: if std::env::var_os("PROPTEST_CASES").is_some() {
                proptest::test_runner::Config::default().cases
            } else {
                64
            },
            failure_persistence: None,
            ..Default::default()
        })]

        /// Any number, any environment text: a limit or an error, never
        /// a panic, and a deadline that can be computed.
        #[test]
        fn any_timeout_resolves_or_fails(
            seconds in proptest::option::of(proptest::num::f64::ANY),
            text in proptest::option::of(proptest::prelude::any::<String>()),
        ) {
            let env = move |_: &str| text.clone();
            if let Ok(Some(limit)) = resolve_timeout(seconds, &env) {
                let _ = std::time::Instant::now() + limit;
            }
        }
    }

    #[test]
    fn env_flags_read_zero_and_false_as_no() {
        for (value, expected) in [("0", false), ("false", false), ("OFF", false), ("1", true)] {
            let env = move |_: &str| Some(value.to_string());
            assert_eq!(env_flag(&env, "X", true), expected, "{value}");
        }
        assert!(env_flag(&|_: &str| None, "X", true));
        assert!(!env_flag(&|_: &str| Some(String::new()), "X", false));
    }

    #[test]
    fn operands_are_relative_inside_the_cwd_and_absolute_outside() {
        let cwd = Path::new("/work/repo");
        assert_eq!(rg_operand(cwd, OsStr::new(".")), None);
        assert_eq!(rg_operand(cwd, OsStr::new("/work/repo/")), None);
        assert_eq!(
            rg_operand(cwd, OsStr::new("/work/repo/src")),
            Some("src".into())
        );
        assert_eq!(
            rg_operand(cwd, OsStr::new("./src/../lib")),
            Some("lib".into())
        );
        assert_eq!(
            rg_operand(cwd, OsStr::new("../other")),
            Some("/work/other".into())
        );
    }

    #[test]
    fn the_next_page_command_replaces_the_offset() {
        let argv: Vec<OsString> = [
            "/bin/scout",
            "grep",
            "a b",
            "--offset",
            "5",
            "--offset=7",
            "src",
        ]
        .iter()
        .map(OsString::from)
        .collect();
        assert_eq!(
            command_with(&argv, "--offset", "250"),
            "scout grep 'a b' src --offset 250"
        );
    }

    #[test]
    fn seconds_drop_trailing_zeros() {
        assert_eq!(seconds(Duration::from_secs(20)), "20s");
        assert_eq!(seconds(Duration::from_millis(1)), "0.001s");
        assert_eq!(seconds(Duration::from_millis(1250)), "1.25s");
    }
}
