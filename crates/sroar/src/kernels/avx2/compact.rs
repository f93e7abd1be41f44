#![allow(unsafe_code, reason = "AVX2 intrinsics of this tier")]
//! Writing the chosen lanes of 8 × u16, in order: the last step of every AVX2
//! filter (array ∩ array, array ∩ bitmap, array ∩ runs and their differences).
//!
//! One `pshufb` moves the kept lanes to the front and one 16-byte store writes
//! all 8; the lanes past the kept ones are scratch, which the next store
//! overwrites and the caller's length leaves out. So `dst` needs 8 slots from
//! `pos` even when fewer are kept.

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use crate::kernels::array_tails::COMPACT;

/// `v` with its lanes set in `mask` (the low 8 bits) moved to the front, in order.
#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
pub(super) fn compact8(v: __m128i, mask: u32) -> __m128i {
    let c: &[u8; 16] = &COMPACT[(mask & 0xff) as usize];
    // SAFETY: `c` is 16 readable bytes; unaligned load.
    _mm_shuffle_epi8(v, unsafe { _mm_loadu_si128(c.as_ptr().cast()) })
}

/// Stores the 8 lanes of `v` at `dst[pos..pos + 8]`.
#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
pub(super) fn store8(dst: &mut [MaybeUninit<u16>], pos: usize, v: __m128i) {
    let d: &mut [MaybeUninit<u16>; 8] = (&mut dst[pos..pos + 8]).try_into().expect("8 slots");
    // SAFETY: `d` is 16 writable bytes (`MaybeUninit` may be overwritten);
    // unaligned store.
    unsafe { _mm_storeu_si128(d.as_mut_ptr().cast(), v) }
}

/// Stores the lanes of `v` set in `mask` (the low 8 bits) at `dst[pos..]`, in
/// order; returns how many. Writes 8 slots from `pos`.
#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
pub(super) fn store_kept(dst: &mut [MaybeUninit<u16>], pos: usize, v: __m128i, mask: u32) -> usize {
    store8(dst, pos, compact8(v, mask));
    (mask & 0xff).count_ones() as usize
}
