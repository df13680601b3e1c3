//! Paths named on the command line (or in a JSON request) that can be
//! searched or read: a regular file, a directory, or a symlink to one.
//! A FIFO, a socket or a device is never handed to rg nor opened: rg
//! (and a plain `read`) would wait on it forever.

use std::ffi::OsString;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
#[cfg(target_os = "linux")]
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{PoisonError, RwLock, RwLockReadGuard};

use anyhow::{bail, Result};

use crate::shell;

thread_local! {
    /// The directories the calling thread's reads beyond the tree are
    /// confined to ([`bound_to`]); `None`: no bound.
    static BOUND: std::cell::RefCell<Option<std::rc::Rc<[PathBuf]>>> =
        const { std::cell::RefCell::new(None) };
}

/// The calling thread's reads confined to some directories, while this
/// is held ([`bound_to`]).
#[must_use = "the bound holds only while this is held"]
pub struct Bound {
    previous: Option<std::rc::Rc<[PathBuf]>>,
}

impl Drop for Bound {
    fn drop(&mut self) {
        let previous = self.previous.take();
        BOUND.with(|bound| *bound.borrow_mut() = previous);
    }
}

/// Confines what the calling thread reads on its own initiative (the
/// code graph's walk up to a `tsconfig.json`, `Cargo.toml` or `go.mod`,
/// the module an import names, the facts of its file) to `roots`
/// (canonical directories): a request served for an MCP client's roots
/// reads nothing outside them, whatever its files import. What the
/// request names is checked before (`request::confine`); threads it
/// starts read only what it hands them.
pub fn bound_to(roots: &[PathBuf]) -> Bound {
    let roots: std::rc::Rc<[PathBuf]> = roots.into();
    let previous = BOUND.with(|bound| bound.borrow_mut().replace(roots));
    Bound { previous }
}

/// Whether the calling thread's reads and writes are confined
/// ([`bound_to`]).
pub fn bounded() -> bool {
    BOUND.with(|bound| bound.borrow().is_some())
}

/// Whether the calling thread may read `path` (absolute, its links
/// resolved) under its bound: every path where it has none. A relative
/// path is judged from the thread's working directory.
pub fn within_bound(path: &Path) -> bool {
    BOUND.with(|bound| {
        let bound = bound.borrow();
        let Some(roots) = bound.as_deref() else {
            return true;
        };
        let absolute;
        let path = if path.is_relative() {
            absolute = std::env::current_dir().unwrap_or_default().join(path);
            absolute.as_path()
        } else {
            path
        };
        roots.iter().any(|root| path.starts_with(root))
    })
}

/// Set in the environment, makes [`work_in`] take its fallback, as where
/// `unshare` is refused, so that the tests can serve requests that way.
/// Undocumented for users; it does nothing else.
#[cfg(target_os = "linux")]
pub const NO_UNSHARE_ENV: &str = "SCOUT_INTERNAL_NO_UNSHARE";

/// Set in the environment, makes scout do without every Linux-only call
/// it makes (`unshare` for a thread's own working directory,
/// `memfd_create` for rg's stderr, a wider pipe for rg's output) and take
/// the portable way it takes on other systems (macOS), so that the Linux
/// test suite runs those ways too. Undocumented for users.
#[cfg(target_os = "linux")]
pub const PORTABLE_ENV: &str = "SCOUT_INTERNAL_PORTABLE";

/// Whether scout makes its Linux-only calls: unless
/// [`PORTABLE_ENV`] is set (read once).
#[cfg(target_os = "linux")]
pub fn linux_calls() -> bool {
    static LINUX: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *LINUX.get_or_init(|| std::env::var_os(PORTABLE_ENV).is_none())
}

/// Where the calling thread works, while this is held ([`work_in`]).
#[must_use = "the directory is the thread's only while this is held"]
pub struct Workdir {
    /// `None`: the thread's own. Else the process's, shared with the
    /// threads that work in the same directory: the fallback where
    /// `unshare` is refused.
    _process: Option<RwLockReadGuard<'static, Option<PathBuf>>>,
}

/// Makes `dir` the working directory of the calling thread alone: the
/// process's, and every other thread's, stay where they are. What the
/// thread opens by a relative path, the rg it spawns and the threads it
/// starts then resolve from `dir`. A request served inside a longer-lived
/// process (`scout mcp`) takes its directory so, and requests in
/// different directories run side by side.
///
/// Each call gives the thread a context of its own anew (`unshare(2)`
/// with `CLONE_FS`, a copy only when another thread still shares it), so
/// a thread it started for an earlier request, still running, stays in
/// that request's directory. Where the kernel refuses (a container's
/// seccomp profile without `CAP_SYS_ADMIN`: `EPERM`), the process's
/// directory moves instead, and the calls in another directory wait for
/// those holding it ([`Workdir`]).
/// Other systems (macOS) have no such call: there, the process's
/// directory moves, as where the kernel refuses.
pub fn work_in(dir: &Path) -> std::io::Result<Workdir> {
    #[cfg(target_os = "linux")]
    if linux_calls() && std::env::var_os(NO_UNSHARE_ENV).is_none() {
        if let Some(workdir) = unshared_in(dir)? {
            return Ok(workdir);
        }
    }
    process_in(dir)
}

/// [`work_in`] by `unshare(CLONE_FS)`; `None` where the kernel refuses
/// it (once refused, not asked again).
#[cfg(target_os = "linux")]
#[allow(unsafe_code)] // one call, its SAFETY below (Cargo.toml's lints)
fn unshared_in(dir: &Path) -> std::io::Result<Option<Workdir>> {
    use rustix::io::Errno;
    static REFUSED: AtomicBool = AtomicBool::new(false);
    if REFUSED.load(Ordering::Relaxed) {
        return Ok(None);
    }
    // SAFETY: with `FS` alone, unshare gives this thread a copy of its
    // root, working directory and umask, and changes nothing else; file
    // descriptors stay shared (the flag that separates them, `FILES`, is
    // what `unshare_unsafe` warns of).
    match unsafe { rustix::thread::unshare_unsafe(rustix::thread::UnshareFlags::FS) } {
        Ok(()) => {
            std::env::set_current_dir(dir)?;
            Ok(Some(Workdir { _process: None }))
        }
        Err(e) if e == Errno::PERM || e == Errno::NOSYS => {
            REFUSED.store(true, Ordering::Relaxed);
            Ok(None)
        }
        Err(e) => Err(e.into()),
    }
}

/// [`work_in`]'s fallback: the process's directory moved to `dir`, once
/// no thread holds it elsewhere.
fn process_in(dir: &Path) -> std::io::Result<Workdir> {
    static HELD: RwLock<Option<PathBuf>> = RwLock::new(None);
    let dir = std::path::absolute(dir)?;
    loop {
        let held = HELD.read().unwrap_or_else(PoisonError::into_inner);
        if held.as_deref() == Some(dir.as_path()) {
            return Ok(Workdir {
                _process: Some(held),
            });
        }
        drop(held);
        let mut moving = HELD.write().unwrap_or_else(PoisonError::into_inner);
        if moving.as_deref() != Some(dir.as_path()) {
            std::env::set_current_dir(&dir)?;
            *moving = Some(dir.clone());
        }
    }
}

/// `path` with its `.` and `..` parts resolved by their words alone,
/// without the file system: `a/./b/../c` is `a/c`. A path as the user
/// sees it stays so (no symlink is resolved away), and one file named
/// `app.py` from its directory and `../app.py` from a subdirectory has
/// one key in the session memory.
pub fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// What a special file is, for messages; `None` for a regular file, a
/// directory, or a path that does not exist (or cannot be looked at:
/// rg says why).
pub fn special_kind(path: &Path) -> Option<&'static str> {
    let kind = std::fs::metadata(path).ok()?.file_type();
    if kind.is_fifo() {
        Some("a FIFO (named pipe)")
    } else if kind.is_socket() {
        Some("a socket")
    } else if kind.is_char_device() {
        Some("a character device")
    } else if kind.is_block_device() {
        Some("a block device")
    } else {
        None
    }
}

/// A requested path that is not searched: missing, or a FIFO, socket or
/// device (which rg would wait on forever). Named on stderr; the
/// exit status is 3.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub path: OsString,
    /// `no such file or directory`, `a FIFO (named pipe), not a file or
    /// directory`, ...
    pub why: String,
}

impl Skipped {
    /// `scout: PATH: WHY (not searched)`.
    pub fn message(&self) -> String {
        format!(
            "scout: {}: {} (not searched)",
            shell::quote(self.path.as_encoded_bytes()),
            self.why
        )
    }
}

/// The requested paths that can be searched, and those that cannot
/// (missing, or special files); an error when none can.
pub fn existing_paths(mut paths: Vec<OsString>) -> Result<(Vec<OsString>, Vec<Skipped>)> {
    let mut skipped = Vec::new();
    paths.retain(|p| {
        let path = Path::new(p);
        let why = if path.symlink_metadata().is_err() {
            Some("no such file or directory".to_string())
        } else if path.metadata().is_err() {
            Some("a broken symbolic link (what it names does not exist)".to_string())
        } else {
            special_kind(path).map(|kind| format!("{kind}, not a file or directory"))
        };
        if let Some(why) = &why {
            skipped.push(Skipped {
                path: p.clone(),
                why: why.clone(),
            });
        }
        why.is_none()
    });
    if paths.is_empty() && !skipped.is_empty() {
        let quoted = |s: &Skipped| shell::quote(s.path.as_encoded_bytes());
        if skipped.iter().all(|s| s.why == "no such file or directory") {
            let names: Vec<String> = skipped.iter().map(quoted).collect();
            bail!(
                "no such file or directory: {}; nothing to search",
                names.join(", ")
            );
        }
        let names: Vec<String> = skipped
            .iter()
            .map(|s| format!("{}: {}", quoted(s), s.why))
            .collect();
        bail!("{}; nothing to search", names.join(", "));
    }
    Ok((paths, skipped))
}

/// A path as rg printed it, as a path to open.
pub fn path_of(bytes: &[u8]) -> std::path::PathBuf {
    use std::os::unix::ffi::OsStrExt;
    std::path::PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the tests of a thread's own working directory apply: not
    /// where `work_in` moves the process instead (macOS, or the Linux
    /// suite run without its Linux-only calls), which serves one
    /// directory at a time by design.
    fn threads_have_their_own_directories() -> bool {
        #[cfg(target_os = "linux")]
        let own = linux_calls() && std::env::var_os(NO_UNSHARE_ENV).is_none();
        #[cfg(not(target_os = "linux"))]
        let own = false;
        if !own {
            eprintln!("skipped: work_in moves the process's directory here");
        }
        own
    }

    #[test]
    fn a_thread_working_in_a_directory_moves_no_other_thread() {
        if !threads_have_their_own_directories() {
            return;
        }
        /// Works in `dir`, then says where it, a thread it starts and a
        /// process it spawns are, once the other thread has moved too.
        fn work(dir: &Path, barrier: &std::sync::Barrier) -> [PathBuf; 3] {
            let _own = work_in(dir).unwrap();
            barrier.wait();
            std::fs::write("mine.txt", dir.as_os_str().as_encoded_bytes()).unwrap();
            let started = std::thread::scope(|s| {
                s.spawn(|| std::env::current_dir().unwrap()).join().unwrap()
            });
            let pwd = std::process::Command::new("pwd").output().unwrap().stdout;
            let _again = work_in(dir).unwrap(); // a second time: still its own
            barrier.wait();
            let pwd = PathBuf::from(String::from_utf8(pwd).unwrap().trim_end());
            [std::env::current_dir().unwrap(), started, pwd]
        }
        let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let process = std::env::current_dir().unwrap();
        let barrier = std::sync::Barrier::new(2);
        std::thread::scope(|scope| {
            let a = scope.spawn(|| work(one.path(), &barrier));
            let b = scope.spawn(|| work(two.path(), &barrier));
            for (dir, handle) in [(one.path(), a), (two.path(), b)] {
                for seen in handle.join().unwrap() {
                    assert_eq!(seen.canonicalize().unwrap(), dir.canonicalize().unwrap());
                }
                let written = std::fs::read(dir.join("mine.txt")).unwrap();
                assert_eq!(written, dir.as_os_str().as_encoded_bytes());
            }
        });
        assert_eq!(std::env::current_dir().unwrap(), process);
    }

    #[test]
    fn a_thread_started_for_one_directory_stays_there_when_its_starter_moves() {
        if !threads_have_their_own_directories() {
            return;
        }
        let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let (go, wait) = std::sync::mpsc::channel::<()>();
        let lingering = std::thread::scope(|scope| {
            scope
                .spawn(|| {
                    let _first = work_in(one.path()).unwrap();
                    // Started in the first directory, still running when
                    // its starter serves the next one.
                    let lingering = std::thread::spawn(move || {
                        wait.recv().unwrap();
                        std::env::current_dir().unwrap()
                    });
                    let _next = work_in(two.path()).unwrap();
                    let here = std::env::current_dir().unwrap();
                    assert_eq!(
                        here.canonicalize().unwrap(),
                        two.path().canonicalize().unwrap()
                    );
                    go.send(()).unwrap();
                    lingering
                })
                .join()
                .unwrap()
        });
        let there = lingering.join().unwrap();
        assert_eq!(
            there.canonicalize().unwrap(),
            one.path().canonicalize().unwrap()
        );
    }

    #[test]
    fn paths_resolve_their_dots_by_their_words() {
        assert_eq!(lexical(Path::new("/r/./a/../b")), PathBuf::from("/r/b"));
        assert_eq!(lexical(Path::new("./a.py")), PathBuf::from("a.py"));
    }

    #[test]
    fn devices_sockets_and_fifos_are_named_files_and_directories_not() {
        assert_eq!(
            special_kind(Path::new("/dev/zero")),
            Some("a character device")
        );
        assert_eq!(special_kind(Path::new("/")), None);
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.txt");
        std::fs::write(&file, "x").unwrap();
        assert_eq!(special_kind(&file), None);
        assert_eq!(special_kind(&dir.path().join("missing")), None);
        let socket = dir.path().join("s.sock");
        let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
        assert_eq!(special_kind(&socket), Some("a socket"));
        let fifo = dir.path().join("p");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success());
        assert_eq!(special_kind(&fifo), Some("a FIFO (named pipe)"));
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&fifo, &link).unwrap();
        assert_eq!(special_kind(&link), Some("a FIFO (named pipe)"));
    }
}
