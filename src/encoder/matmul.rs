//! The one matrix product the encoder needs, over the `gemm` crate: its
//! kernels pick AVX-512, AVX2 or SSE at run time, so one binary is fast on
//! every x86-64 machine. `gemm::gemm` takes raw pointers; this module is
//! the crate's only `unsafe`, behind a function whose slices are checked.
#![allow(unsafe_code)]

/// `out[m×n] += lhs[m×k] · weightᵀ`, where `weight` is `n×k`: a linear
/// layer's `[out, in]` matrix as PyTorch stores it. All row-major.
///
/// # Panics
/// When a slice's length is not the product of its dimensions.
pub fn add_product_transposed(
    out: &mut [f32],
    lhs: &[f32],
    weight: &[f32],
    m: usize,
    n: usize,
    k: usize,
) {
    assert_eq!(out.len(), m * n, "output is not m×n");
    assert_eq!(lhs.len(), m * k, "left operand is not m×k");
    assert_eq!(weight.len(), n * k, "weight is not n×k");
    if m == 0 || n == 0 || k == 0 {
        return;
    }
    // SAFETY: the assertions above make every element the strides reach
    // lie inside its slice: `out` (m rows of n, row stride n), `lhs` (m
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

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    #[should_panic(expected = "weight is not n×k")]
    fn refuses_a_weight_of_the_wrong_size() {
        let mut out = [0.0f32; 2];
        add_product_transposed(&mut out, &[1.0, 2.0], &[1.0, 2.0, 3.0], 1, 2, 2);
    }
}
