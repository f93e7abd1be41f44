#![allow(unsafe_code, reason = "NEON intrinsics and the target_feature functions of this tier")]
//! NEON lower bound over LE `u64` keys: branchless binary search down to a
//! window of [`W`] entries, then one compare per pair of the window.

use core::arch::aarch64::*;

use crate::kernels::scalar::search as scalar;

const W: usize = 16;

#[target_feature(enable = "neon")]
fn lower_bound_keys_neon(entries: &[[u8; 8]], target: u64) -> usize {
    let (base, _) = scalar::narrow(entries, target, W);
    // Entries before `base` are < target and entries from `base + n` on are
    // >= target, so counting the entries < target in any W-window that starts
    // at or before `base` (and inside the slice) gives the answer.
    let start = base.min(entries.len() - W);
    let window: &[[u8; 8]; W] = entries[start..start + W].try_into().expect("window");
    let t = vdupq_n_u64(target);
    // A true compare is all ones (-1): subtracting it counts.
    let mut count = vdupq_n_u64(0);
    for pair in window.as_chunks::<2>().0 {
        // SAFETY: `pair` is 16 readable bytes; `ld1` of bytes needs no
        // alignment. Little-endian only, so the lanes are the keys.
        let v = vreinterpretq_u64_u8(unsafe { vld1q_u8(pair.as_ptr().cast()) });
        count = vsubq_u64(count, vcltq_u64(v, t));
    }
    start + vaddvq_u64(count) as usize
}

/// Index of the first entry `>= target`.
pub(super) fn lower_bound_keys(entries: &[[u8; 8]], target: u64) -> usize {
    if entries.len() < W {
        return scalar::lower_bound_keys(entries, target);
    }
    // SAFETY: only reachable through the NEON table, which the dispatcher
    // hands out only after detecting NEON.
    unsafe { lower_bound_keys_neon(entries, target) }
}
