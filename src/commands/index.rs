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
use crate::smart::meaning::{embed_missing, tree_files, Embedded, Embedder};
use crate::smart::vectors::{UnitVector, VectorCache};

/// How often a progress line is written on a pipe.
const PIPE_EVERY: Duration = Duration::from_secs(5);

/// Runs `scout index`: a progress line on stderr (redrawn on a terminal,
/// every few seconds on a pipe), one summary line on `out`.
pub fn run(args: &IndexArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<ExitStatus> {
    let started = Instant::now();
    let (paths, missing) = crate::search::settings::existing_paths(args.paths.clone())?;
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
    let flags = SearchFlags {
        globs: args.globs.clone(),
        types: args.types.clone(),
        hidden: args.hidden,
        paths,
        ..SearchFlags::default()
    };
    let files = tree_files(&rg, &flags)?;
    let cache_dir = crate::dirs::cache_dir();
    let cache = VectorCache::new(cache_dir.clone());
    let mut have: Vec<Option<Vec<UnitVector>>> =
        files.iter().map(|f| cache.get(&f.stamp)).collect();
    let cached_files = have.iter().filter(|h| h.is_some()).count();
    let cached_units: usize = have.iter().flatten().map(Vec::len).sum();
    let to_embed = files.len() - cached_files;
    let terminal = std::io::stderr().is_terminal();
    let embedding = Instant::now();
    let mut last_line = embedding;
    let order: Vec<usize> = (0..files.len()).collect();
    let defs = DefsCache::new(cache_dir);
    let embedder = Embedder {
        encoder: &encoder,
        vectors: &cache,
        defs: &defs,
    };
    let done = embed_missing(&embedder, &files, &order, &mut have, None, |so_far| {
        let now = Instant::now();
        if terminal {
            let _ = write!(err, "\r{}\x1b[K", progress(so_far, to_embed, embedding));
        } else if now - last_line >= PIPE_EVERY {
            let _ = writeln!(err, "{}", progress(so_far, to_embed, embedding));
            last_line = now;
        }
    })?;
    if terminal && done.files > 0 {
        writeln!(err)?;
    }
    let seconds = embedding.elapsed().as_secs_f64();
    let rate = if done.units > 0 && seconds > 0.0 {
        format!(" ({:.0} definitions/s)", done.units as f64 / seconds)
    } else {
        String::new()
    };
    writeln!(
        out,
        "index: {} code files, {} definitions with vectors: {} embedded now in {} files{rate}, {} cached before; {:.1}s",
        files.len(),
        cached_units + done.units,
        done.units,
        done.files,
        cached_units,
        started.elapsed().as_secs_f64()
    )?;
    Ok(if missing.is_empty() {
        ExitStatus::Shown
    } else {
        ExitStatus::Partial
    })
}

/// `index: 120/3,400 files, 1,234 definitions embedded, 510/s`.
fn progress(so_far: Embedded, total: usize, since: Instant) -> String {
    let seconds = since.elapsed().as_secs_f64().max(1e-3);
    format!(
        "index: {}/{} files, {} definitions embedded, {:.0}/s",
        so_far.files,
        total,
        so_far.units,
        so_far.units as f64 / seconds
    )
}
