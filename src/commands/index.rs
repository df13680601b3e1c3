//! `scout index [PATH...]`: embeds every definition of the tree's code
//! files with the sentence encoder, so that `scout smart` finds every
//! vector cached. The cache is [`crate::smart::vectors`]'; what is
//! embedded and how is [`crate::smart::meaning`]'s.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use anyhow::{bail, Result};

use crate::cli::IndexArgs;
use crate::defs::cache::DefsCache;
use crate::encoder::Encoder;
use crate::exit::ExitStatus;
use crate::rg::{Rg, SearchFlags};
use crate::smart::listing::tree_files;
use crate::smart::meaning::{embed_missing, Embedded, Embedder};
use crate::smart::vectors::{Key, VectorStore};

/// How often a progress line is written on a pipe.
const PIPE_EVERY: Duration = Duration::from_secs(5);

/// Runs `scout index`: a progress line on stderr (redrawn on a terminal,
/// every few seconds on a pipe), one summary line on `out`.
pub fn run(args: &IndexArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<ExitStatus> {
    if args.background {
        // Lowest priority: the agent's own work comes first. Failing to
        // lower it only means running at the normal one.
        let _ = rustix::process::setpriority_process(None, 19);
        let mut quiet = args.clone();
        quiet.background = false;
        return run_quietly(&quiet);
    }
    let started = Instant::now();
    let (paths, missing) = crate::paths::existing_paths(args.paths.clone())?;
    let rg = Rg::from_env()?;
    let Some(dir) = crate::encoder::dir() else {
        bail!("no directory for the sentence encoder: set SCOUT_ENCODER_DIR or HOME");
    };
    if !crate::encoder::installed(&dir) {
        bail!(
            "no sentence encoder in {}: ./install.sh --encoder-only installs it (scout doctor says more)",
            dir.display()
        );
    }
    let encoder = Encoder::load(&dir)?;
    for skipped in &missing {
        writeln!(err, "{}", skipped.message())?;
    }
    let flags = args.files.flags(paths);
    let cache_dir = crate::dirs::cache_dir();
    let lock = TreeLock::take(cache_dir.as_deref(), &flags, Wait::Yes);
    if let Some(Taken { waited: true, .. }) = lock {
        writeln!(
            err,
            "index: another scout index was embedding this tree; went on once it finished"
        )?;
    }
    // Listed now, whatever is remembered: the listing smart then finds.
    let files = tree_files(&rg, &flags, cache_dir.as_deref())?.files;
    let store = VectorStore::new(cache_dir.clone());
    let keys: Vec<&Key> = files.iter().map(|f| &f.key).collect();
    let mut covered = vec![false; files.len()];
    let stored = store.read(&keys, |i, _| covered[i] = true);
    let (cached_files, cached_units) = (stored.files, stored.units);
    let to_embed = files.len() - cached_files;
    let terminal = std::io::stderr().is_terminal();
    let embedding = Instant::now();
    let mut last_line = embedding;
    let order: Vec<usize> = (0..files.len()).collect();
    let defs = DefsCache::new(cache_dir);
    let embedder = Embedder {
        encoder: &encoder,
        vectors: &store,
        defs: &defs,
    };
    let done = embed_missing(
        &embedder,
        &files,
        &order,
        &mut covered,
        |_, _| {},
        |so_far| {
            let now = Instant::now();
            if terminal {
                let line = progress(so_far, to_embed, embedding.elapsed(), true);
                let _ = write!(err, "\r{line}\x1b[K");
            } else if now - last_line >= PIPE_EVERY {
                let line = progress(so_far, to_embed, embedding.elapsed(), false);
                let _ = writeln!(err, "{line}");
                last_line = now;
            }
        },
    )?;
    if terminal && done.files > 0 {
        writeln!(err)?;
    }
    let compacted = store.compact_stale();
    let seconds = embedding.elapsed().as_secs_f64();
    let rate = if done.units > 0 && seconds > 0.0 {
        format!(" ({:.0} definitions/s)", done.units as f64 / seconds)
    } else {
        String::new()
    };
    let (bytes, stores) = store.size_on_disk();
    writeln!(
        out,
        "index: {} code files, {} definitions with vectors: {} embedded now in {} files{rate}, {} cached before; {:.1}s; vectors: {} in {stores} store{}{}",
        files.len(),
        cached_units + done.units,
        done.units,
        done.files,
        cached_units,
        started.elapsed().as_secs_f64(),
        megabytes(bytes),
        if stores == 1 { "" } else { "s" },
        if compacted > 0 { format!(" ({compacted} compacted)") } else { String::new() },
    )?;
    Ok(if missing.is_empty() {
        ExitStatus::Shown
    } else {
        ExitStatus::Partial
    })
}

/// `scout index --background`: no output, and nothing done when another
/// index holds the tree's lock.
fn run_quietly(args: &IndexArgs) -> Result<ExitStatus> {
    let flags = args.files.flags(args.paths.clone());
    let cache_dir = crate::dirs::cache_dir();
    let Some(Taken { lock, .. }) = TreeLock::take(cache_dir.as_deref(), &flags, Wait::No) else {
        return Ok(ExitStatus::Shown);
    };
    // `run` takes the lock again: release ours first. Another index may
    // start in between; `run` then waits for it, and finds its work done.
    drop(lock);
    run(args, &mut std::io::sink(), &mut std::io::sink())
}

/// Whether [`TreeLock::take`] waits for another holder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wait {
    Yes,
    No,
}

/// The lock, held, and whether another index held it first.
struct Taken {
    lock: TreeLock,
    waited: bool,
}

/// An exclusive lock per indexed tree (the absolute paths and file
/// selection), so that two indexes of one tree do not embed the same files
/// twice over: `<cache>/vectors/.index-HASH.lock`, held for the process's
/// life (the kernel releases it when the process ends, however it ends).
struct TreeLock(#[allow(dead_code)] std::fs::File);
// The file is held only for its lock.

impl TreeLock {
    /// The lock of `flags`' tree; `None` when there is no cache directory
    /// or the lock file cannot be made (indexing goes on unlocked), or,
    /// with [`Wait::No`], when another process holds it.
    fn take(cache_dir: Option<&std::path::Path>, flags: &SearchFlags, wait: Wait) -> Option<Taken> {
        use rustix::fs::{flock, FlockOperation};
        let dir = cache_dir?.join(crate::smart::vectors::SUBDIR);
        std::fs::create_dir_all(&dir).ok()?;
        let cwd = std::env::current_dir().ok()?;
        let mut key = Vec::new();
        let roots: Vec<std::path::PathBuf> = if flags.paths.is_empty() {
            vec![cwd.clone()]
        } else {
            flags.paths.iter().map(|p| cwd.join(p)).collect()
        };
        for part in roots
            .iter()
            .map(|r| r.as_os_str().as_encoded_bytes().to_vec())
            .chain(
                flags
                    .globs
                    .iter()
                    .chain(&flags.types)
                    .map(|s| s.as_bytes().to_vec()),
            )
        {
            key.extend_from_slice(&part);
            key.push(0);
        }
        key.push(u8::from(flags.hidden));
        let hash = crate::hash::fnv1a64(&key);
        let file = std::fs::File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join(format!(".index-{hash:016x}.lock")))
            .ok()?;
        let waited = match flock(&file, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => false,
            Err(_) if wait == Wait::No => return None,
            Err(_) => {
                flock(&file, FlockOperation::LockExclusive).ok()?;
                true
            }
        };
        Some(Taken {
            lock: TreeLock(file),
            waited,
        })
    }
}

/// The width of the progress bar, in characters.
const BAR_WIDTH: usize = 24;

/// `index: 120/3400 files, 1234 definitions embedded, 510/s, 0:55 left`
/// (the time left once a file is done); with `bar` (on a terminal), a bar
/// of the files before it.
fn progress(so_far: Embedded, total: usize, elapsed: Duration, bar: bool) -> String {
    let seconds = elapsed.as_secs_f64().max(1e-3);
    let left = match so_far.files.min(total) {
        0 => String::new(),
        done => {
            let left = (seconds * (total - done) as f64 / done as f64).round() as u64;
            format!(", {}:{:02} left", left / 60, left % 60)
        }
    };
    let counts = format!(
        "{}/{} files, {} definitions embedded, {:.0}/s",
        so_far.files,
        total,
        so_far.units,
        so_far.units as f64 / seconds
    );
    if !bar {
        return format!("index: {counts}{left}");
    }
    let done = so_far.files.min(total);
    let filled = (done * BAR_WIDTH).checked_div(total).unwrap_or(BAR_WIDTH);
    format!(
        "index: [{}{}] {counts}{left}",
        "#".repeat(filled),
        " ".repeat(BAR_WIDTH - filled)
    )
}

/// `12.3 MB`, `456 KB`.
pub fn megabytes(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MB", bytes as f64 / f64::from(1 << 20))
    } else {
        format!("{} KB", bytes.div_ceil(1 << 10))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn so_far(files: usize, units: usize) -> Embedded {
        Embedded { files, units }
    }

    #[test]
    fn a_pipe_gets_the_counts() {
        assert_eq!(
            progress(so_far(120, 1020), 3400, Duration::from_secs(2), false),
            "index: 120/3400 files, 1020 definitions embedded, 510/s, 0:55 left"
        );
    }

    #[test]
    fn a_terminal_gets_a_bar_and_the_time_left() {
        assert_eq!(
            progress(so_far(100, 500), 400, Duration::from_secs(30), true),
            "index: [######                  ] 100/400 files, 500 definitions embedded, 17/s, 1:30 left"
        );
        // Nothing done yet: an empty bar and no guess; all done: a full one.
        assert!(progress(so_far(0, 0), 400, Duration::ZERO, true)
            .starts_with(&format!("index: [{}] 0/400", " ".repeat(BAR_WIDTH))));
        assert!(
            progress(so_far(400, 2000), 400, Duration::from_secs(4), true)
                .starts_with(&format!("index: [{}] 400/400", "#".repeat(BAR_WIDTH)))
        );
    }
}
