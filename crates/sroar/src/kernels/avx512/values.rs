#![allow(unsafe_code, reason = "AVX-512 intrinsics and the target_feature functions of this tier")]
//! AVX-512 value output: eight consecutive values per 512-bit store.

use core::arch::x86_64::*;

#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn fill_consecutive_avx512(out: &mut [u64], first: u64) {
    let (chunks, rest) = out.as_chunks_mut::<8>();
    let iota = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
    let mut v = _mm512_add_epi64(_mm512_set1_epi64(first as i64), iota);
    let step = _mm512_set1_epi64(8);
    for c in chunks.iter_mut() {
        // SAFETY: `c` is 64 writable bytes; unaligned store.
        unsafe { _mm512_storeu_si512(c.as_mut_ptr().cast(), v) };
        v = _mm512_add_epi64(v, step);
    }
    let done = 8 * chunks.len() as u64;
    crate::kernels::scalar::values::fill_consecutive(rest, first.wrapping_add(done));
}

/// `out[k] = first + k`.
pub(super) fn fill_consecutive(out: &mut [u64], first: u64) {
    // SAFETY: only reachable through the AVX-512 table, which the dispatcher
    // hands out only after detecting the enabled features.
    unsafe { fill_consecutive_avx512(out, first) }
}
