#![allow(unsafe_code, reason = "AVX-512 intrinsics and the target_feature functions of this tier")]
//! AVX-512 lower bound over LE `u64` keys: branchless binary search down to a
//! window of [`W`] entries, then unsigned 64-bit mask compares.

use core::arch::x86_64::*;

use crate::kernels::scalar::search as scalar;

const W: usize = 32;

#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn lower_bound_keys_avx512(entries: &[[u8; 8]], target: u64) -> usize {
    let (base, _) = scalar::narrow(entries, target, W);
    // As in the AVX2 tier: any in-bounds W-window starting at or before
    // `base` counts exactly the entries < target from its start.
    let start = base.min(entries.len() - W);
    let window: &[[u8; 8]; W] = entries[start..start + W].try_into().expect("window");
    let t = _mm512_set1_epi64(target as i64);
    let mut count = 0u32;
    for oct in window.chunks_exact(8) {
        // SAFETY: `oct` is 8 entries = 64 readable bytes; unaligned load.
        let v = unsafe { _mm512_loadu_si512(oct.as_ptr().cast()) };
        count += (_mm512_cmplt_epu64_mask(v, t) as u32).count_ones();
    }
    start + count as usize
}

/// Index of the first entry `>= target`.
pub(super) fn lower_bound_keys(entries: &[[u8; 8]], target: u64) -> usize {
    if entries.len() < W {
        return (super::fallback().lower_bound_keys)(entries, target);
    }
    // SAFETY: only reachable through the AVX-512 table, which the dispatcher
    // hands out only after detecting every feature enabled above.
    unsafe { lower_bound_keys_avx512(entries, target) }
}
