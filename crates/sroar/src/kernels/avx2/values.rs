#![allow(unsafe_code)]
//! AVX2 value output: four consecutive values per 256-bit store.

use core::arch::x86_64::*;

#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn fill_consecutive_avx2(out: &mut [u64], first: u64) {
    let (chunks, rest) = out.as_chunks_mut::<4>();
    let mut v = _mm256_add_epi64(
        _mm256_set1_epi64x(first as i64),
        _mm256_setr_epi64x(0, 1, 2, 3),
    );
    let step = _mm256_set1_epi64x(4);
    for c in chunks.iter_mut() {
        // SAFETY: `c` is 32 writable bytes; unaligned store.
        unsafe { _mm256_storeu_si256(c.as_mut_ptr().cast(), v) };
        v = _mm256_add_epi64(v, step);
    }
    let done = 4 * chunks.len() as u64;
    crate::kernels::values::scalar::fill_consecutive(rest, first.wrapping_add(done));
}

/// `out[k] = first + k`.
pub(super) fn fill_consecutive(out: &mut [u64], first: u64) {
    // SAFETY: only reachable through the AVX2 table, which the dispatcher hands
    // out only after detecting the enabled features.
    unsafe { fill_consecutive_avx2(out, first) }
}
