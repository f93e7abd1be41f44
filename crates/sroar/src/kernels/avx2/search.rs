#![allow(unsafe_code, reason = "AVX2 intrinsics and the target_feature functions of this tier")]
//! AVX2 lower bound over LE `u64` keys: branchless binary search down to a
//! window of [`W`] entries, then one vector compare of the window.

use core::arch::x86_64::*;

use crate::kernels::scalar::search as scalar;

const W: usize = 16;

#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn lower_bound_keys_avx2(entries: &[[u8; 8]], target: u64) -> usize {
    let (base, _) = scalar::narrow(entries, target, W);
    // Entries before `base` are < target and entries from `base + n` on are
    // >= target, so counting the entries < target in any W-window that starts
    // at or before `base` (and inside the slice) gives the answer.
    let start = base.min(entries.len() - W);
    let window: &[[u8; 8]; W] = entries[start..start + W].try_into().expect("window");
    let bias = _mm256_set1_epi64x(i64::MIN);
    let t = _mm256_xor_si256(_mm256_set1_epi64x(target as i64), bias);
    let mut count = 0u32;
    for quad in window.chunks_exact(4) {
        // SAFETY: `quad` is 4 entries = 32 readable bytes; unaligned load.
        let v = unsafe { _mm256_loadu_si256(quad.as_ptr().cast()) };
        // Unsigned compare via signed compare of sign-flipped values.
        let lt = _mm256_cmpgt_epi64(t, _mm256_xor_si256(v, bias));
        count += (_mm256_movemask_pd(_mm256_castsi256_pd(lt)) as u32).count_ones();
    }
    start + count as usize
}

/// Index of the first entry `>= target`.
pub(super) fn lower_bound_keys(entries: &[[u8; 8]], target: u64) -> usize {
    if entries.len() < W {
        return scalar::lower_bound_keys(entries, target);
    }
    // SAFETY: only reachable through the AVX2 table, which the dispatcher
    // hands out only after detecting every feature enabled above.
    unsafe { lower_bound_keys_avx2(entries, target) }
}
