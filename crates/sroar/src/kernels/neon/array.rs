#![allow(
    unsafe_code,
    reason = "NEON intrinsics and the target_feature functions of this tier"
)]
//! NEON sorted-array kernels, on 8 × u16 vectors: this tier's lane operations for
//! the shared block algorithms (`array_blocks.rs`, the same as the AVX2 tier's),
//! with NEON's missing `movemask` replaced by a lane-bit `and` + `addv`, `pshufb`
//! by `tbl` and `alignr` by `ext`.
//!
//! Short inputs and very different sizes fall back to the scalar kernels.

use core::arch::aarch64::*;
use core::mem::MaybeUninit;

use crate::kernels::array_blocks::{append_with, block_tier, lanes8};
use crate::kernels::array_tails::{use_blocks, COMPACT};
use crate::kernels::scalar::array as scalar;

/// Bit `k` in lane `k`: `and` with a compare result then `addv` gives the 8-bit
/// lane mask (NEON has no `movemask`).
const LANE_BITS: [u16; 8] = [1, 2, 4, 8, 16, 32, 64, 128];

/// This tier's lanes: one 128-bit vector.
#[derive(Clone, Copy)]
struct Neon(uint16x8_t);

lanes8! {
    Neon = "neon";

    fn load8(s: &[[u8; 2]], i: usize) -> Self {
        let c: &[[u8; 2]; 8] = s[i..i + 8].try_into().expect("8 values");
        // SAFETY: `c` is 16 readable bytes; `ld1` of bytes needs no alignment (the
        // input may sit at an odd address). Little-endian only, so the lanes are
        // the values.
        Neon(vreinterpretq_u16_u8(unsafe { vld1q_u8(c.as_ptr().cast()) }))
    }
    fn store8(dst: &mut [MaybeUninit<u16>], pos: usize, v: Self) {
        let c: &mut [MaybeUninit<u16>; 8] = (&mut dst[pos..pos + 8]).try_into().expect("8 slots");
        // SAFETY: `c` is 16 writable bytes aligned for `u16` (`MaybeUninit` may be
        // overwritten).
        unsafe { vst1q_u16(c.as_mut_ptr().cast(), v.0) }
    }
    fn compact(v: Self, mask: u32) -> Self {
        let c: &[u8; 16] = &COMPACT[(mask & 0xff) as usize];
        // SAFETY: `c` is 16 readable bytes.
        let control = unsafe { vld1q_u8(c.as_ptr()) };
        Neon(vreinterpretq_u16_u8(vqtbl1q_u8(vreinterpretq_u8_u16(v.0), control)))
    }
    fn mask(v: Self) -> u32 {
        // SAFETY: `LANE_BITS` is 16 readable bytes, aligned for `u16`.
        let bits = unsafe { vld1q_u16(LANE_BITS.as_ptr()) };
        vaddvq_u16(vandq_u16(v.0, bits)) as u32
    }
    fn eq(a: Self, b: Self) -> Self { Neon(vceqq_u16(a.0, b.0)) }
    fn or(a: Self, b: Self) -> Self { Neon(vorrq_u16(a.0, b.0)) }
    fn min(a: Self, b: Self) -> Self { Neon(vminq_u16(a.0, b.0)) }
    fn max(a: Self, b: Self) -> Self { Neon(vmaxq_u16(a.0, b.0)) }
    fn rotate1(v: Self) -> Self { Neon(vextq_u16::<1>(v.0, v.0)) }
    fn shift_in1(old: Self, new: Self) -> Self { Neon(vextq_u16::<7>(old.0, new.0)) }
    fn shift_in2(old: Self, new: Self) -> Self { Neon(vextq_u16::<6>(old.0, new.0)) }
    fn all_ones() -> Self { Neon(vdupq_n_u16(u16::MAX)) }
    fn select(take_a: bool, a: Self, b: Self) -> Self {
        Neon(vbslq_u16(vdupq_n_u16((take_a as u16).wrapping_neg()), a.0, b.0))
    }
}

block_tier!(Neon, "neon");
