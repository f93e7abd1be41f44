#![allow(unsafe_code, reason = "NEON intrinsics and the target_feature functions of this tier")]
//! NEON value output: two consecutive values per 128-bit store.

use core::arch::aarch64::*;

#[target_feature(enable = "neon")]
fn fill_consecutive_neon(out: &mut [u64], first: u64) {
    let (pairs, rest) = out.as_chunks_mut::<2>();
    let mut v = vcombine_u64(vcreate_u64(first), vcreate_u64(first.wrapping_add(1)));
    let step = vdupq_n_u64(2);
    for p in pairs.iter_mut() {
        // SAFETY: `p` is 16 writable bytes, aligned for `u64`.
        unsafe { vst1q_u64(p.as_mut_ptr(), v) };
        v = vaddq_u64(v, step);
    }
    let done = 2 * pairs.len() as u64;
    crate::kernels::scalar::values::fill_consecutive(rest, first.wrapping_add(done));
}

/// `out[k] = first + k`.
pub(super) fn fill_consecutive(out: &mut [u64], first: u64) {
    // SAFETY: only reachable through the NEON table, which the dispatcher
    // hands out only after detecting NEON.
    unsafe { fill_consecutive_neon(out, first) }
}
