//! The matrix products the encoder needs. In `f32`, over the `gemm`
//! crate, whose kernels pick AVX-512, AVX2 or SSE at run time, so one
//! binary is fast on every x86-64 machine; and for the linear layers, on
//! a CPU with AVX-512 BF16, a kernel of its own over `vdpbf16ps`. `gemm`
//! takes raw pointers and the kernel loads vectors from slices: this
//! module is the crate's only `unsafe`, behind functions whose slices and
//! CPU features are checked.
#![allow(unsafe_code)]

use super::Precision;

/// `a × b`, which a slice of that many elements must hold; panics where
/// the product does not fit a `usize` (in a release build a plain `*`
/// wraps, and a check against the wrapped product would pass).
fn elements(a: usize, b: usize, what: &str) -> usize {
    a.checked_mul(b)
        .unwrap_or_else(|| panic!("{what}: {a}×{b} elements overflow usize"))
}

/// `out[m×n] += lhs[m×k] · weightᵀ`, where `weight` is `n×k`: a linear
/// layer's `[out, in]` matrix as PyTorch stores it. All row-major.
///
/// # Panics
/// When a slice's length is not the product of its dimensions, or a
/// product of dimensions overflows.
pub fn add_product_transposed(
    out: &mut [f32],
    lhs: &[f32],
    weight: &[f32],
    m: usize,
    n: usize,
    k: usize,
) {
    assert_eq!(out.len(), elements(m, n, "output"), "output is not m×n");
    assert_eq!(
        lhs.len(),
        elements(m, k, "left operand"),
        "left operand is not m×k"
    );
    assert_eq!(weight.len(), elements(n, k, "weight"), "weight is not n×k");
    if m == 0 || n == 0 || k == 0 {
        return;
    }
    // SAFETY: the assertions above (on products that did not overflow)
    // make every element the strides reach lie inside its slice: `out` (m rows of n, row stride n), `lhs` (m
    // rows of k, row stride k) and the right operand read from `weight`
    // as k×n with column stride k and row stride 1, the largest index
    // being (n-1)·k + (k-1) < n·k. `out` is borrowed mutably, so it
    // overlaps neither input.
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            out.as_mut_ptr(),
            1,
            n as isize,
            true,
            lhs.as_ptr(),
            1,
            k as isize,
            weight.as_ptr(),
            k as isize,
            1,
            1.0,
            1.0,
            false,
            false,
            false,
            gemm::Parallelism::None,
        );
    }
}

/// Rows from which a product is worth bfloat16: packing a weight costs
/// about as much as multiplying a few dozen rows by it, and a question
/// alone is a few tokens, so it stays in `f32` and packs nothing. (The
/// bfloat16 kernel is x86-64's alone: elsewhere only the tests, which
/// check every form on both sides of it, read it.)
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub const BF16_FROM_ROWS: usize = 32;

/// A linear layer's weight, `n×k` (`[out, in]`). On a CPU with AVX-512
/// BF16 (AMD Zen 4 and later, Intel Cooper Lake, Sapphire Rapids and
/// later), a product of [`BF16_FROM_ROWS`] rows or more is done in
/// bfloat16 with `vdpbf16ps`, which does twice the multiply-adds of an
/// `f32` FMA per instruction, over a copy of the weight packed for it at
/// its first such product; every other product in `f32`, through `gemm`.
pub struct Weight {
    n: usize,
    k: usize,
    weight: Vec<f32>,
    /// Whether products may be in bfloat16: asked for, and the CPU and
    /// the shape allow it.
    bf16: bool,
    #[cfg(target_arch = "x86_64")]
    packed: std::sync::OnceLock<Vec<u32>>,
}

impl Weight {
    /// `weight`, `n×k` row-major, multiplied at `precision`.
    ///
    /// # Panics
    /// When `weight` is not `n×k`.
    pub fn new(weight: Vec<f32>, n: usize, k: usize, precision: Precision) -> Weight {
        assert_eq!(weight.len(), elements(n, k, "weight"), "weight is not n×k");
        #[cfg(target_arch = "x86_64")]
        let bf16 = precision == Precision::Fastest && bf16::fits(n, k) && bf16::available();
        #[cfg(not(target_arch = "x86_64"))]
        let bf16 = {
            let _ = precision;
            false
        };
        Weight {
            n,
            k,
            weight,
            bf16,
            #[cfg(target_arch = "x86_64")]
            packed: std::sync::OnceLock::new(),
        }
    }

    /// Whether its larger products are in bfloat16.
    pub fn bf16(&self) -> bool {
        self.bf16
    }

    /// `out[m×n] += lhs[m×k] · weightᵀ`.
    ///
    /// # Panics
    /// When a slice's length is not the product of its dimensions.
    pub fn add_product(&self, out: &mut [f32], lhs: &[f32], m: usize) {
        #[cfg(target_arch = "x86_64")]
        if self.bf16 && m >= BF16_FROM_ROWS {
            assert_eq!(
                out.len(),
                elements(m, self.n, "output"),
                "output is not m×n"
            );
            assert_eq!(
                lhs.len(),
                elements(m, self.k, "left operand"),
                "left operand is not m×k"
            );
            let packed = self
                .packed
                .get_or_init(|| bf16::pack(&self.weight, self.n, self.k));
            bf16::add_product(out, lhs, packed, m, self.n, self.k);
            return;
        }
        add_product_transposed(out, lhs, &self.weight, m, self.n, self.k);
    }
}

/// The bfloat16 product: a weight packed once, the left operand rounded to
/// bfloat16 at each product, every sum kept in `f32`.
#[cfg(target_arch = "x86_64")]
mod bf16 {
    use std::arch::x86_64::*;

    /// Outputs per vector.
    const LANES: usize = 16;
    /// Rows of the left operand per tile; a tile's 2×ROWS sums stay in
    /// registers, beside the two weight vectors and one broadcast.
    const ROWS: usize = 6;

    /// Whether the CPU has every feature the kernel's `target_feature`
    /// attribute turns on: `avx512f` and `avx512bf16` as written, and
    /// what they imply (`avx512bw`; `avx2`, `fma`, `f16c`, and `avx` and
    /// the SSE levels under them), so that no instruction the compiler
    /// may choose there is missing.
    pub fn available() -> bool {
        is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512bf16")
            && is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("fma")
            && is_x86_feature_detected!("f16c")
            && is_x86_feature_detected!("avx")
            && is_x86_feature_detected!("sse4.2")
            && is_x86_feature_detected!("sse4.1")
            && is_x86_feature_detected!("ssse3")
            && is_x86_feature_detected!("sse3")
    }

    /// Whether the kernel takes these shapes: tiles of 32 outputs, pairs
    /// of inputs.
    pub fn fits(n: usize, k: usize) -> bool {
        n > 0 && n.is_multiple_of(2 * LANES) && k > 0 && k.is_multiple_of(2)
    }

    /// `x` rounded to the nearest bfloat16 (ties to even), in the low 16
    /// bits.
    pub fn round(x: f32) -> u32 {
        let bits = x.to_bits();
        if x.is_nan() {
            // Quiet, as the CPU's conversion makes it; rounding could
            // carry a NaN's payload into an infinity.
            return (bits >> 16) | 0x40;
        }
        bits.wrapping_add(0x7fff + ((bits >> 16) & 1)) >> 16
    }

    /// `weight` (`n×k`) as `[n/16][k/2][16]` pairs: each 32-bit lane holds
    /// one output's inputs `2p` (low half) and `2p + 1` (high half).
    pub fn pack(weight: &[f32], n: usize, k: usize) -> Vec<u32> {
        let mut packed = Vec::with_capacity(n * k / 2);
        for block in 0..n / LANES {
            for p in 0..k / 2 {
                for lane in 0..LANES {
                    let row = &weight[(block * LANES + lane) * k..][..k];
                    packed.push(round(row[2 * p]) | round(row[2 * p + 1]) << 16);
                }
            }
        }
        packed
    }

    /// # Panics
    /// When the CPU lacks a feature the kernel uses, or the shapes are
    /// not the kernel's ([`fits`]) or not the slices'.
    pub fn add_product(out: &mut [f32], lhs: &[f32], packed: &[u32], m: usize, n: usize, k: usize) {
        // Checked in release builds too: the kernels' soundness rests on
        // the CPU's features, and their reads on these shapes.
        assert!(available(), "the CPU lacks AVX-512 BF16");
        assert!(
            fits(n, k),
            "{n}×{k} is not a shape the bfloat16 kernel takes"
        );
        assert_eq!(packed.len(), super::elements(n, k / 2, "packed weight"));
        assert!(lhs.len().is_multiple_of(2));
        // SAFETY: `available()` holds (asserted above): the CPU has every
        // feature `pairs_of` is compiled for.
        let pairs = unsafe { pairs_of(lhs) };
        let kp = k / 2;
        let mut row = 0;
        while row < m {
            let rows = (m - row).min(ROWS);
            let a = &pairs[row * kp..(row + rows) * kp];
            let o = &mut out[row * n..(row + rows) * n];
            // SAFETY: `available()` holds (asserted above): the CPU has
            // the instructions `tile` is compiled for; `tile` checks its
            // slices against its shapes itself.
            unsafe {
                match rows {
                    6 => tile::<6>(o, a, packed, n, kp),
                    5 => tile::<5>(o, a, packed, n, kp),
                    4 => tile::<4>(o, a, packed, n, kp),
                    3 => tile::<3>(o, a, packed, n, kp),
                    2 => tile::<2>(o, a, packed, n, kp),
                    _ => tile::<1>(o, a, packed, n, kp),
                }
            }
            row += rows;
        }
    }

    /// `x` (of even length) rounded to bfloat16, two to a `u32`: the
    /// first in the low half, as the kernel reads them.
    #[target_feature(enable = "avx512f,avx512bf16")]
    fn pairs_of(x: &[f32]) -> Vec<u32> {
        let mut pairs = vec![0u32; x.len() / 2];
        let mut chunks = x.chunks_exact(LANES);
        for (from, to) in chunks.by_ref().zip(pairs.chunks_exact_mut(LANES / 2)) {
            // SAFETY: `from` is 16 f32s and `to` 8 u32s, one vector each.
            unsafe {
                let v = _mm512_loadu_ps(from.as_ptr());
                let halves = std::mem::transmute::<__m256bh, __m256i>(_mm512_cvtneps_pbh(v));
                _mm256_storeu_si256(to.as_mut_ptr().cast(), halves);
            }
        }
        let done = x.len() / LANES * (LANES / 2);
        for (to, p) in pairs[done..]
            .iter_mut()
            .zip(chunks.remainder().chunks_exact(2))
        {
            *to = round(p[0]) | round(p[1]) << 16;
        }
        pairs
    }

    /// `out[R×n] += a[R×kp pairs] · packed`, 32 outputs at a time.
    #[target_feature(enable = "avx512f,avx512bf16")]
    fn tile<const R: usize>(out: &mut [f32], a: &[u32], packed: &[u32], n: usize, kp: usize) {
        assert!(
            Some(out.len()) == R.checked_mul(n)
                && Some(a.len()) == R.checked_mul(kp)
                && Some(packed.len()) == n.checked_mul(kp)
        );
        for pair in 0..n / (2 * LANES) {
            let w0 = &packed[2 * pair * kp * LANES..][..kp * LANES];
            let w1 = &packed[(2 * pair + 1) * kp * LANES..][..kp * LANES];
            let mut sums = [[_mm512_setzero_ps(); 2]; R];
            for p in 0..kp {
                let v0 = load(&w0[p * LANES..][..LANES]);
                let v1 = load(&w1[p * LANES..][..LANES]);
                for (r, sum) in sums.iter_mut().enumerate() {
                    let x = as_bf16(_mm512_set1_epi32(a[r * kp + p] as i32));
                    sum[0] = _mm512_dpbf16_ps(sum[0], x, v0);
                    sum[1] = _mm512_dpbf16_ps(sum[1], x, v1);
                }
            }
            for (r, sum) in sums.iter().enumerate() {
                let at = r * n + 2 * pair * LANES;
                for (half, s) in sum.iter().enumerate() {
                    let dst = &mut out[at + half * LANES..][..LANES];
                    // SAFETY: `dst` is 16 f32s, the width of one vector.
                    unsafe {
                        let old = _mm512_loadu_ps(dst.as_ptr());
                        _mm512_storeu_ps(dst.as_mut_ptr(), _mm512_add_ps(old, *s));
                    }
                }
            }
        }
    }

    /// 16 pairs as one vector of 32 bfloat16s.
    #[target_feature(enable = "avx512f,avx512bf16")]
    fn load(lanes: &[u32]) -> __m512bh {
        assert_eq!(lanes.len(), LANES);
        // SAFETY: `lanes` is 16 u32s, the width of one vector.
        as_bf16(unsafe { _mm512_loadu_si512(lanes.as_ptr().cast()) })
    }

    #[target_feature(enable = "avx512f,avx512bf16")]
    fn as_bf16(v: __m512i) -> __m512bh {
        // SAFETY: both are 512 plain bits.
        unsafe { std::mem::transmute::<__m512i, __m512bh>(v) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `m·n` and `m·k` wrap to 4 in a release build: the slices of 4
    /// would pass a check against the wrapped products, and `gemm` would
    /// then walk 2^62 rows past them.
    #[test]
    #[should_panic(expected = "overflow usize")]
    fn dimensions_whose_product_overflows_are_refused() {
        let m = (1usize << 62) + 1;
        let mut out = [0.0f32; 4];
        add_product_transposed(&mut out, &[0.0; 4], &[0.0; 16], m, 4, 4);
    }

    #[test]
    fn adds_the_product_with_the_transposed_weight() {
        // lhs 2×3, weight 4×3 (4 outputs), out starts at a bias of 0.5.
        let lhs = [1.0, 2.0, 3.0, -1.0, 0.0, 2.0];
        let weight = [
            1.0, 0.0, 0.0, //
            0.0, 1.0, 0.0, //
            0.0, 0.0, 1.0, //
            1.0, 1.0, 1.0,
        ];
        let mut out = [0.5f32; 8];
        add_product_transposed(&mut out, &lhs, &weight, 2, 4, 3);
        assert_eq!(out, [1.5, 2.5, 3.5, 6.5, -0.5, 0.5, 2.5, 1.5]);
    }

    /// A weight and a left operand of small integers, which bfloat16
    /// holds exactly, so that every form must give the `f32` product.
    fn integers(len: usize, seed: usize) -> Vec<f32> {
        (0..len)
            .map(|i| ((i * 7 + seed) % 11) as f32 - 5.0)
            .collect()
    }

    #[test]
    fn every_form_gives_the_f32_product_on_every_row_count() {
        let (n, k) = (64, 6);
        let weight = integers(n * k, 3);
        let fastest = Weight::new(weight.clone(), n, k, Precision::Fastest);
        let exact = Weight::new(weight.clone(), n, k, Precision::F32);
        assert!(!exact.bf16());
        #[cfg(target_arch = "x86_64")]
        assert_eq!(fastest.bf16(), bf16::available());
        if !fastest.bf16() {
            eprintln!("no AVX-512 BF16 on this CPU: the bfloat16 kernel is not run here");
        }
        // Below the bfloat16 threshold, and from it: whole tiles of six
        // and every remainder.
        for m in (1..4).chain(BF16_FROM_ROWS..BF16_FROM_ROWS + 13) {
            let lhs = integers(m * k, m);
            let mut want = vec![0.25f32; m * n];
            add_product_transposed(&mut want, &lhs, &weight, m, n, k);
            for form in [&fastest, &exact] {
                let mut got = vec![0.25f32; m * n];
                form.add_product(&mut got, &lhs, m);
                assert_eq!(got, want, "{m} rows, bf16 {}", form.bf16());
            }
        }
    }

    #[test]
    fn the_bfloat16_product_is_within_its_rounding() {
        let (m, n, k) = (BF16_FROM_ROWS + 1, 32, 384);
        let wave = |len: usize, f: f32| (0..len).map(|i| (i as f32 * f).sin()).collect::<Vec<_>>();
        let (weight, lhs) = (wave(n * k, 0.37), wave(m * k, 0.11));
        let mut want = vec![0.0f32; m * n];
        add_product_transposed(&mut want, &lhs, &weight, m, n, k);
        let mut got = vec![0.0f32; m * n];
        Weight::new(weight.clone(), n, k, Precision::Fastest).add_product(&mut got, &lhs, m);
        // Each factor is off by at most 2^-9 of itself, so each product
        // by at most about 2^-8 of itself.
        for r in 0..m {
            for c in 0..n {
                let row = &lhs[r * k..][..k];
                let col = &weight[c * k..][..k];
                let size: f32 = row.iter().zip(col).map(|(a, b)| (a * b).abs()).sum();
                let (g, w) = (got[r * n + c], want[r * n + c]);
                assert!(
                    (g - w).abs() <= size * 2f32.powi(-8) + 1e-5,
                    "{g} against {w}"
                );
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn bfloat16_rounds_to_the_nearest_ties_to_even() {
        let bits = |x: f32| bf16::round(x) << 16;
        assert_eq!(bits(1.0), 1.0f32.to_bits());
        // Halfway between 1 and the next bfloat16, 1 + 2^-7: to the even 1.
        assert_eq!(bits(1.0 + 2f32.powi(-8)), 1.0f32.to_bits());
        // Past halfway: up.
        assert_eq!(
            bits(1.0 + 3.0 * 2f32.powi(-9)),
            (1.0 + 2f32.powi(-7)).to_bits()
        );
        // Halfway above an odd one: up, to the even.
        let odd = 1.0 + 2f32.powi(-7);
        assert_eq!(bits(odd + 2f32.powi(-8)), (1.0 + 2f32.powi(-6)).to_bits());
        assert_eq!(bits(-2.5), (-2.5f32).to_bits());
        // A NaN stays a NaN, even one whose payload would round away.
        assert!(f32::from_bits(bits(f32::from_bits(0x7f80_0001))).is_nan());
        assert!(f32::from_bits(bits(f32::from_bits(0xffff_ffff))).is_nan());
        assert_eq!(bits(f32::INFINITY), f32::INFINITY.to_bits());
    }

    #[test]
    #[should_panic(expected = "weight is not n×k")]
    fn refuses_a_weight_of_the_wrong_size() {
        let mut out = [0.0f32; 2];
        add_product_transposed(&mut out, &[1.0, 2.0], &[1.0, 2.0, 3.0], 1, 2, 2);
    }
}
