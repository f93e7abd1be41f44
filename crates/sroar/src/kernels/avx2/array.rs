#![allow(
    unsafe_code,
    reason = "AVX2 intrinsics and the target_feature functions of this tier"
)]
//! AVX2 sorted-array kernels, on 8 × u16 vectors (VEX-encoded SSE): this tier's
//! lane operations for the shared block algorithms (`array_blocks.rs`), with
//! `pshufb` compaction, `alignr` rotations and `movemask` lane masks.
//!
//! Short inputs and very different sizes fall back to the scalar kernels.

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use super::compact;
use crate::kernels::array_blocks::{append_with, block_tier, lanes8};
use crate::kernels::array_tails::use_blocks;
use crate::kernels::scalar::array as scalar;

/// This tier's lanes: one 128-bit vector.
#[derive(Clone, Copy)]
struct Avx2(__m128i);

lanes8! {
    Avx2 = "avx2,popcnt,bmi1,bmi2,lzcnt";

    fn load8(s: &[[u8; 2]], i: usize) -> Self {
        let c: &[[u8; 2]; 8] = s[i..i + 8].try_into().expect("8 values");
        // SAFETY: `c` is 16 readable bytes; unaligned load.
        Avx2(unsafe { _mm_loadu_si128(c.as_ptr().cast()) })
    }
    fn store8(dst: &mut [MaybeUninit<u16>], pos: usize, v: Self) { compact::store8(dst, pos, v.0) }
    fn compact(v: Self, mask: u32) -> Self { Avx2(compact::compact8(v.0, mask)) }
    // Packing the 16-bit lanes to bytes first leaves one mask bit per lane.
    fn mask(v: Self) -> u32 { _mm_movemask_epi8(_mm_packs_epi16(v.0, _mm_setzero_si128())) as u32 }
    fn eq(a: Self, b: Self) -> Self { Avx2(_mm_cmpeq_epi16(a.0, b.0)) }
    fn or(a: Self, b: Self) -> Self { Avx2(_mm_or_si128(a.0, b.0)) }
    fn min(a: Self, b: Self) -> Self { Avx2(_mm_min_epu16(a.0, b.0)) }
    fn max(a: Self, b: Self) -> Self { Avx2(_mm_max_epu16(a.0, b.0)) }
    fn rotate1(v: Self) -> Self { Avx2(_mm_alignr_epi8::<2>(v.0, v.0)) }
    fn shift_in1(old: Self, new: Self) -> Self { Avx2(_mm_alignr_epi8::<14>(new.0, old.0)) }
    fn shift_in2(old: Self, new: Self) -> Self { Avx2(_mm_alignr_epi8::<12>(new.0, old.0)) }
    fn all_ones() -> Self { Avx2(_mm_set1_epi16(-1)) }
    fn select(take_a: bool, a: Self, b: Self) -> Self {
        Avx2(_mm_blendv_epi8(b.0, a.0, _mm_set1_epi16(-(take_a as i16))))
    }
    // SSE4.2's string compare does all 64 lane pairs in one instruction, where
    // the rotations take 7 shuffles, 8 compares and 7 ors (CRoaring's choice
    // too). Explicit lengths, since a zero lane would end an implicit string.
    fn match_mask(va: Self, vb: Self) -> u32 {
        const ANY_WORD: i32 = _SIDD_UWORD_OPS | _SIDD_CMP_EQUAL_ANY | _SIDD_BIT_MASK;
        _mm_cvtsi128_si32(_mm_cmpestrm::<ANY_WORD>(vb.0, 8, va.0, 8)) as u32
    }
}

block_tier!(Avx2, "avx2,popcnt,bmi1,bmi2,lzcnt");
