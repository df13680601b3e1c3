//! all-MiniLM-L6-v2's forward pass: a 6-layer BERT of width 384 (12 heads
//! of 32, feed-forward 1536, GELU), then sentence-transformers' pooling:
//! the mean of every token's last hidden state, L2-normalised.
//!
//! Texts are packed, not padded: a batch is one matrix of all its tokens,
//! so the linear layers (nearly all the work) see no padding at all and
//! only attention looks at where each text starts and ends.

use std::collections::HashMap;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::sync::Mutex;

use anyhow::{bail, Context, Result};
use safetensors::tensor::{Metadata, TensorInfo};
use safetensors::Dtype;

use super::matmul::{add_product_transposed, Weight};
use super::wordpiece::MAX_TOKENS;
use super::Precision;

/// The width of the model, and of every vector.
pub const DIM: usize = 384;
const HEADS: usize = 12;
const HEAD_DIM: usize = DIM / HEADS;
const FEED_FORWARD: usize = 1536;
const LAYERS: usize = 6;
const LAYER_NORM_EPS: f32 = 1e-12;

/// A linear layer: `weight` is `[out, in]`, as stored.
struct Linear {
    weight: Weight,
    bias: Vec<f32>,
}

impl Linear {
    /// `out = input · weightᵀ + bias` over `rows` rows.
    fn apply(&self, input: &[f32], rows: usize, out: &mut Vec<f32>) {
        out.clear();
        for _ in 0..rows {
            out.extend_from_slice(&self.bias);
        }
        self.weight.add_product(out, input, rows);
    }
}

struct Norm {
    gain: Vec<f32>,
    bias: Vec<f32>,
}

impl Norm {
    /// Normalises each row of `x` in place.
    fn apply(&self, x: &mut [f32]) {
        for row in x.chunks_exact_mut(DIM) {
            let mean = sum8(row.iter().copied()) / DIM as f32;
            let var = sum8(row.iter().map(|v| (v - mean) * (v - mean))) / DIM as f32;
            let scale = 1.0 / (var + LAYER_NORM_EPS).sqrt();
            for ((v, g), b) in row.iter_mut().zip(&self.gain).zip(&self.bias) {
                *v = (*v - mean) * scale * g + b;
            }
        }
    }
}

struct Layer {
    /// Query, key and value in one product: `[3·DIM, DIM]`.
    qkv: Linear,
    attention_out: Linear,
    attention_norm: Norm,
    up: Linear,
    down: Linear,
    out_norm: Norm,
}

/// The model's weights, as `f32`.
pub struct Bert {
    words: WordTable,
    positions: Vec<f32>,
    /// Token type 0's embedding (every token is of type 0).
    token_type: Vec<f32>,
    embedding_norm: Norm,
    layers: Vec<Layer>,
}

/// The word embeddings, read from the weights file a row at a time as
/// texts need them: they are half the file, and a question needs a dozen
/// of their 30,522 rows.
struct WordTable {
    file: File,
    /// Where the table's first row starts in the file.
    offset: u64,
    rows: usize,
    read: Mutex<HashMap<u32, Box<[f32]>>>,
}

impl WordTable {
    /// Calls `each` with the row of every id of `ids`, in order.
    fn rows(&self, ids: &[u32], mut each: impl FnMut(&[f32])) -> Result<()> {
        let mut read = self.read.lock().unwrap_or_else(|e| e.into_inner());
        for &id in ids {
            if let std::collections::hash_map::Entry::Vacant(slot) = read.entry(id) {
                if id as usize >= self.rows {
                    bail!("token id {id} is past the vocabulary's {} rows", self.rows);
                }
                let mut row = vec![0.0f32; DIM];
                read_f32s(
                    &self.file,
                    self.offset + (id as u64) * (DIM as u64) * 4,
                    &mut row,
                )?;
                slot.insert(row.into_boxed_slice());
            }
            each(&read[&id]);
        }
        Ok(())
    }
}

/// Fills `out` with the little-endian `f32`s at `offset` of `file`.
fn read_f32s(file: &File, offset: u64, out: &mut [f32]) -> Result<()> {
    file.read_exact_at(bytemuck::cast_slice_mut(out), offset)
        .context("cannot read the weights")?;
    // A no-op on little-endian machines, where every CPU scout runs on is.
    for v in out.iter_mut() {
        *v = f32::from_bits(u32::from_le(v.to_bits()));
    }
    Ok(())
}

/// The tensors of a safetensors file, read by name with their shapes
/// checked.
struct Tensors<'a> {
    file: &'a File,
    metadata: Metadata,
    /// Where the data starts: after the header's length and the header.
    data: u64,
    precision: Precision,
}

impl Tensors<'_> {
    fn info(&self, name: &str, shape: &[usize]) -> Result<&TensorInfo> {
        let info = self
            .metadata
            .info(name)
            .with_context(|| format!("no tensor {name}"))?;
        if info.dtype != Dtype::F32 || info.shape != shape {
            bail!(
                "tensor {name} is {:?} {:?}, not F32 {shape:?}",
                info.dtype,
                info.shape
            );
        }
        Ok(info)
    }

    fn get(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>> {
        let info = self.info(name, shape)?;
        let mut out = vec![0.0f32; shape.iter().product()];
        read_f32s(self.file, self.data + info.data_offsets.0 as u64, &mut out)
            .with_context(|| format!("tensor {name}"))?;
        Ok(out)
    }

    /// A linear layer's weight and bias, as `f32`s.
    fn linear_parts(&self, name: &str, out: usize, inp: usize) -> Result<(Vec<f32>, Vec<f32>)> {
        Ok((
            self.get(&format!("{name}.weight"), &[out, inp])?,
            self.get(&format!("{name}.bias"), &[out])?,
        ))
    }

    fn linear(&self, name: &str, out: usize, inp: usize) -> Result<Linear> {
        let (weight, bias) = self.linear_parts(name, out, inp)?;
        Ok(Linear {
            weight: Weight::new(weight, out, inp, self.precision),
            bias,
        })
    }

    fn norm(&self, name: &str) -> Result<Norm> {
        Ok(Norm {
            gain: self.get(&format!("{name}.weight"), &[DIM])?,
            bias: self.get(&format!("{name}.bias"), &[DIM])?,
        })
    }
}

/// A header larger than this is not a model's (this one's is 9 KB).
const MAX_HEADER: u64 = 16 << 20;

impl Bert {
    /// The model from a safetensors file as the package ships it (names
    /// without a `bert.` prefix). The header is checked against the
    /// file's length, so a file cut short is an error here, not later.
    pub fn load(file: File, precision: Precision) -> Result<Bert> {
        let len = file
            .metadata()
            .context("cannot read the file's size")?
            .len();
        let mut head = [0u8; 8];
        file.read_exact_at(&mut head, 0)
            .context("not a safetensors file: shorter than its header's length")?;
        let header_len = u64::from_le_bytes(head);
        if header_len > MAX_HEADER || 8 + header_len > len {
            bail!("not a safetensors file: its header would be {header_len} bytes of {len}");
        }
        let mut header = vec![0u8; header_len as usize];
        file.read_exact_at(&mut header, 8)
            .context("cannot read the header")?;
        let metadata: Metadata =
            serde_json::from_slice(&header).context("not a safetensors file: its header")?;
        let expected = 8 + header_len + metadata.data_len() as u64;
        if expected != len {
            bail!("the file is {len} bytes where its header describes {expected}: cut short or padded");
        }
        let tensors = Tensors {
            file: &file,
            metadata,
            data: 8 + header_len,
            precision,
        };
        let name = "embeddings.word_embeddings.weight";
        let vocab = tensors
            .metadata
            .info(name)
            .with_context(|| format!("no tensor {name}"))?
            .shape
            .first()
            .copied()
            .unwrap_or(0);
        let words = tensors.info(name, &[vocab, DIM])?.data_offsets.0 as u64 + tensors.data;
        let positions = tensors.get("embeddings.position_embeddings.weight", &[512, DIM])?;
        let types = tensors.get("embeddings.token_type_embeddings.weight", &[2, DIM])?;
        let mut layers = Vec::with_capacity(LAYERS);
        for l in 0..LAYERS {
            let p = format!("encoder.layer.{l}");
            let [q, k, v] = ["query", "key", "value"]
                .map(|n| tensors.linear_parts(&format!("{p}.attention.self.{n}"), DIM, DIM));
            let (q, k, v) = (q?, k?, v?);
            layers.push(Layer {
                qkv: Linear {
                    weight: Weight::new([q.0, k.0, v.0].concat(), 3 * DIM, DIM, precision),
                    bias: [q.1, k.1, v.1].concat(),
                },
                attention_out: tensors.linear(&format!("{p}.attention.output.dense"), DIM, DIM)?,
                attention_norm: tensors.norm(&format!("{p}.attention.output.LayerNorm"))?,
                up: tensors.linear(&format!("{p}.intermediate.dense"), FEED_FORWARD, DIM)?,
                down: tensors.linear(&format!("{p}.output.dense"), DIM, FEED_FORWARD)?,
                out_norm: tensors.norm(&format!("{p}.output.LayerNorm"))?,
            });
        }
        let embedding_norm = tensors.norm("embeddings.LayerNorm")?;
        Ok(Bert {
            words: WordTable {
                file,
                offset: words,
                rows: vocab,
                read: Mutex::new(HashMap::new()),
            },
            positions,
            token_type: types[..DIM].to_vec(),
            embedding_norm,
            layers,
        })
    }

    /// Whether its linear layers multiply in bfloat16.
    pub fn bf16(&self) -> bool {
        self.layers[0].qkv.weight.bf16()
    }

    /// The vocabulary size the word embeddings cover.
    pub fn vocab(&self) -> usize {
        self.words.rows
    }

    /// One normalised vector per text; `texts` are token ids, each at most
    /// [`MAX_TOKENS`] long. An error only when the weights file cannot be
    /// read any more, or an id is past the vocabulary.
    pub fn embed(&self, texts: &[Vec<u32>]) -> Result<Vec<[f32; DIM]>> {
        let lens: Vec<usize> = texts.iter().map(Vec::len).collect();
        let rows: usize = lens.iter().sum();
        let mut x = Vec::with_capacity(rows * DIM);
        for ids in texts {
            assert!(ids.len() <= MAX_TOKENS, "a text of {} tokens", ids.len());
            let mut p = 0;
            self.words.rows(ids, |word| {
                let position = &self.positions[p * DIM..][..DIM];
                x.extend(
                    word.iter()
                        .zip(position)
                        .zip(&self.token_type)
                        .map(|((w, p), t)| w + p + t),
                );
                p += 1;
            })?;
        }
        self.embedding_norm.apply(&mut x);
        let (mut qkv, mut context, mut y, mut hidden) =
            (Vec::new(), vec![0.0; rows * DIM], Vec::new(), Vec::new());
        for layer in &self.layers {
            layer.qkv.apply(&x, rows, &mut qkv);
            attend(&qkv, &lens, &mut context);
            layer.attention_out.apply(&context, rows, &mut y);
            add_assign(&mut y, &x);
            layer.attention_norm.apply(&mut y);
            std::mem::swap(&mut x, &mut y);
            layer.up.apply(&x, rows, &mut hidden);
            gelu_all(&mut hidden);
            layer.down.apply(&hidden, rows, &mut y);
            add_assign(&mut y, &x);
            layer.out_norm.apply(&mut y);
            std::mem::swap(&mut x, &mut y);
        }
        let mut out = Vec::with_capacity(texts.len());
        let mut start = 0;
        for &len in &lens {
            let mut mean = [0.0f32; DIM];
            for row in x[start * DIM..(start + len) * DIM].chunks_exact(DIM) {
                mean.iter_mut().zip(row).for_each(|(m, v)| *m += v);
            }
            let norm = mean.iter().map(|v| v * v).sum::<f32>().sqrt();
            if norm > 0.0 {
                mean.iter_mut().for_each(|m| *m /= norm);
            }
            out.push(mean);
            start += len;
        }
        Ok(out)
    }
}

/// A sum over eight running totals, which the compiler can keep in
/// vector registers (one running total is a chain of dependent adds).
fn sum8(values: impl Iterator<Item = f32>) -> f32 {
    let mut acc = [0.0f32; 8];
    for (i, v) in values.enumerate() {
        acc[i % 8] += v;
    }
    acc.iter().sum()
}

fn add_assign(y: &mut [f32], x: &[f32]) {
    y.iter_mut().zip(x).for_each(|(y, x)| *y += x);
}

/// Self-attention of each text over its own tokens: `qkv` holds each
/// token's query, key and value (`3·DIM` a row), `context` receives each
/// token's attended values (`DIM` a row). Each text's heads are copied
/// into contiguous blocks first, so that both products of each head are
/// matrix products too.
fn attend(qkv: &[f32], lens: &[usize], context: &mut [f32]) {
    let scale = 1.0 / (HEAD_DIM as f32).sqrt();
    let (mut q, mut k, mut vt) = (Vec::new(), Vec::new(), Vec::new());
    let (mut scores, mut out) = (Vec::new(), Vec::new());
    let mut start = 0;
    for &len in lens {
        let rows = &qkv[start * 3 * DIM..(start + len) * 3 * DIM];
        for h in 0..HEADS {
            let at = h * HEAD_DIM;
            // q, k: len × HEAD_DIM (q pre-scaled); vt: HEAD_DIM × len.
            q.clear();
            k.clear();
            vt.clear();
            vt.resize(HEAD_DIM * len, 0.0);
            for (t, row) in rows.chunks_exact(3 * DIM).enumerate() {
                q.extend(row[at..at + HEAD_DIM].iter().map(|v| v * scale));
                k.extend_from_slice(&row[DIM + at..DIM + at + HEAD_DIM]);
                for (d, v) in row[2 * DIM + at..2 * DIM + at + HEAD_DIM]
                    .iter()
                    .enumerate()
                {
                    vt[d * len + t] = *v;
                }
            }
            scores.clear();
            scores.resize(len * len, 0.0);
            add_product_transposed(&mut scores, &q, &k, len, len, HEAD_DIM);
            for row in scores.chunks_exact_mut(len) {
                let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                let mut sum = 0.0;
                for s in row.iter_mut() {
                    *s = (*s - max).exp();
                    sum += *s;
                }
                let inv = 1.0 / sum;
                row.iter_mut().for_each(|s| *s *= inv);
            }
            out.clear();
            out.resize(len * HEAD_DIM, 0.0);
            add_product_transposed(&mut out, &scores, &vt, len, HEAD_DIM, len);
            for (t, o) in out.chunks_exact(HEAD_DIM).enumerate() {
                context[(start + t) * DIM + at..][..HEAD_DIM].copy_from_slice(o);
            }
        }
        start += len;
    }
}

/// GELU with the error function, as BERT's `gelu` is, in place over
/// `x`: in the widest vector instructions the CPU has (chosen at run
/// time by `pulp`), a fifth of the forward pass when it was scalar.
fn gelu_all(x: &mut [f32]) {
    struct Gelu<'a>(&'a mut [f32]);
    impl pulp::WithSimd for Gelu<'_> {
        type Output = ();
        #[inline(always)]
        fn with_simd<S: pulp::Simd>(self, simd: S) {
            let (head, tail) = S::as_mut_simd_f32s(self.0);
            for v in head {
                *v = gelu_lanes(simd, *v);
            }
            for v in tail {
                *v = gelu(*v);
            }
        }
    }
    pulp::Arch::new().dispatch(Gelu(x));
}

/// [`gelu`] over one vector's lanes.
#[inline(always)]
fn gelu_lanes<S: pulp::Simd>(simd: S, x: S::f32s) -> S::f32s {
    let z = simd.mul_f32s(x, simd.splat_f32s(std::f32::consts::FRAC_1_SQRT_2));
    let z = simd.min_f32s(
        simd.max_f32s(z, simd.splat_f32s(-ERF_RANGE)),
        simd.splat_f32s(ERF_RANGE),
    );
    let z2 = simd.mul_f32s(z, z);
    let mut p = simd.splat_f32s(ERF_P[0]);
    for &c in &ERF_P[1..] {
        p = simd.mul_add_f32s(p, z2, simd.splat_f32s(c));
    }
    let mut q = simd.splat_f32s(ERF_Q[0]);
    for &c in &ERF_Q[1..] {
        q = simd.mul_add_f32s(q, z2, simd.splat_f32s(c));
    }
    let erf = simd.div_f32s(simd.mul_f32s(z, p), q);
    let half_x = simd.mul_f32s(x, simd.splat_f32s(0.5));
    simd.mul_add_f32s(half_x, erf, half_x)
}

/// GELU of one value: `x·Φ(x)`, with [`erf`].
fn gelu(x: f32) -> f32 {
    0.5 * x * (1.0 + erf(x * std::f32::consts::FRAC_1_SQRT_2))
}

/// Beyond ±4, erf is ±1 in `f32`.
const ERF_RANGE: f32 = 4.0;
/// [`erf`]'s numerator and denominator, in x², highest power first.
const ERF_P: [f32; 7] = [
    -2.726_142_3e-10,
    2.770_681_4e-8,
    -2.101_024e-6,
    -5.692_506_5e-5,
    -7.349_906_3e-4,
    -2.954_6e-3,
    -1.609_603_3e-2,
];
const ERF_Q: [f32; 5] = [
    -1.456_607_2e-5,
    -2.133_740_6e-4,
    -1.682_827e-3,
    -7.373_329e-3,
    -1.426_474e-2,
];

/// The error function to within about 1e-7: a rational approximation
/// on [-4, 4] with no branch.
fn erf(x: f32) -> f32 {
    let x = x.clamp(-ERF_RANGE, ERF_RANGE);
    let x2 = x * x;
    let p = ERF_P[1..].iter().fold(ERF_P[0], |p, &c| p * x2 + c);
    let q = ERF_Q[1..].iter().fold(ERF_Q[0], |q, &c| q * x2 + c);
    x * p / q
}

#[cfg(test)]
mod tests {
    use super::*;

    /// erf by Simpson's rule in f64: slow, plainly right.
    fn erf_reference(x: f64) -> f64 {
        let n = 20_000;
        let h = x / n as f64;
        let f = |t: f64| (-t * t).exp();
        let mut sum = f(0.0) + f(x);
        for i in 1..n {
            sum += f(i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
        }
        sum * h / 3.0 * 2.0 / std::f64::consts::PI.sqrt()
    }

    #[test]
    fn erf_is_within_a_millionth_of_the_integral() {
        let mut worst = 0.0f64;
        for i in -600..=600 {
            let x = i as f64 / 100.0;
            worst = worst.max((erf(x as f32) as f64 - erf_reference(x)).abs());
        }
        assert!(worst < 1e-6, "worst error {worst:e}");
    }

    #[test]
    fn gelu_is_within_a_millionth_of_its_definition_in_every_lane() {
        let xs: Vec<f32> = (-1200..=1200).map(|i| i as f32 / 100.0 + 0.003).collect();
        let mut lanes = xs.clone();
        gelu_all(&mut lanes);
        let mut worst = 0.0f64;
        for (&x, &y) in xs.iter().zip(&lanes) {
            let x = x as f64;
            let exact = 0.5 * x * (1.0 + erf_reference(x / std::f64::consts::SQRT_2));
            worst = worst.max((y as f64 - exact).abs());
            worst = worst.max((gelu(x as f32) as f64 - exact).abs());
        }
        assert!(worst < 1e-6, "worst error {worst:e}");
    }

    #[test]
    fn attention_over_one_token_returns_its_value() {
        // One text of one token: attention is the value itself.
        let mut qkv = vec![0.0f32; 3 * DIM];
        for (i, v) in qkv[2 * DIM..].iter_mut().enumerate() {
            *v = i as f32;
        }
        let mut context = vec![0.0; DIM];
        attend(&qkv, &[1], &mut context);
        assert_eq!(context, qkv[2 * DIM..]);
    }
}
