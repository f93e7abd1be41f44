#![allow(unsafe_code, reason = "AVX2 intrinsics and the target_feature functions of this tier")]
//! AVX2 check that a `u16` array is strictly increasing, counting its runs
//! of consecutive values (validation of untrusted payloads).
//!
//! The gaps `a[j] - a[j - 1]` are computed with saturating subtraction, so a
//! gap is 0 exactly where the array does not increase and 1 where a run
//! continues. The predecessors come from a second unaligned load one value
//! back, so pairs that straddle two vectors need no shuffles, and the last
//! vector overlaps the previous one instead of going through a scalar tail.

use core::arch::x86_64::*;

use crate::kernels::scalar::array as scalar;

#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn load8(a: &[[u8; 2]], i: usize) -> __m128i {
    let c: &[[u8; 2]; 8] = a[i..i + 8].try_into().expect("8 values");
    // SAFETY: `c` is 16 readable bytes; unaligned load.
    unsafe { _mm_loadu_si128(c.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn load16(a: &[[u8; 2]], i: usize) -> __m256i {
    let c: &[[u8; 2]; 16] = a[i..i + 16].try_into().expect("16 values");
    // SAFETY: `c` is 32 readable bytes; unaligned load.
    unsafe { _mm256_loadu_si256(c.as_ptr().cast()) }
}

/// Saturated gaps of the 8 pairs ending at `a[j..j + 8]` (`j >= 1`).
#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn gaps8(a: &[[u8; 2]], j: usize) -> __m128i {
    _mm_subs_epu16(load8(a, j), load8(a, j - 1))
}

/// Saturated gaps of the 16 pairs ending at `a[j..j + 16]` (`j >= 1`).
#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn gaps16(a: &[[u8; 2]], j: usize) -> __m256i {
    _mm256_subs_epu16(load16(a, j), load16(a, j - 1))
}

/// Sum of the eight 16-bit lanes (each below 2^15).
#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn sum8(v: __m128i) -> u32 {
    let s = _mm_madd_epi16(v, _mm_set1_epi16(1));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
    _mm_cvtsi128_si32(s) as u32
}

/// Pairs of the last vector `gaps(n - W)` that the loop did not see: it
/// stopped at `j`, so only the top `n - j` of the `W` lanes are new
/// (`movemask` gives two bits per lane).
#[inline]
fn fresh_steps(byte_mask: u32, lanes: usize, fresh: usize) -> u32 {
    (u64::from(byte_mask) >> (2 * (lanes - fresh))).count_ones() / 2
}

// In both loops `steps` counts, per lane, the gaps equal to 1 (`cmpeq` gives
// -1). A strictly increasing array has at most 65536 values, so no lane
// passes 8192; a longer array may wrap the counts, but `least` then holds a
// zero gap and the answer is `None` whatever the count.

/// `a.len()` in `9..`: 8 pairs at a time.
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn ascending_runs8(a: &[[u8; 2]]) -> Option<u32> {
    let n = a.len();
    let one = _mm_set1_epi16(1);
    let mut least = _mm_set1_epi16(-1);
    let mut steps = _mm_setzero_si128();
    let mut j = 1;
    while j + 8 <= n {
        let g = gaps8(a, j);
        least = _mm_min_epu16(least, g);
        steps = _mm_sub_epi16(steps, _mm_cmpeq_epi16(g, one));
        j += 8;
    }
    let g = gaps8(a, n - 8);
    least = _mm_min_epu16(least, g);
    let last = _mm_movemask_epi8(_mm_cmpeq_epi16(g, one)) as u32;
    let zero = _mm_cmpeq_epi16(least, _mm_setzero_si128());
    if _mm_movemask_epi8(zero) != 0 {
        return None;
    }
    // Runs = values - pairs that continue a run (n <= 65536 here).
    Some(n as u32 - sum8(steps) - fresh_steps(last, 8, n - j))
}

/// `a.len()` in `17..`: 16 pairs at a time.
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn ascending_runs16(a: &[[u8; 2]]) -> Option<u32> {
    let n = a.len();
    let one = _mm256_set1_epi16(1);
    let mut least = _mm256_set1_epi16(-1);
    let mut steps = _mm256_setzero_si256();
    let mut j = 1;
    while j + 16 <= n {
        let g = gaps16(a, j);
        least = _mm256_min_epu16(least, g);
        steps = _mm256_sub_epi16(steps, _mm256_cmpeq_epi16(g, one));
        j += 16;
    }
    let g = gaps16(a, n - 16);
    least = _mm256_min_epu16(least, g);
    let last = _mm256_movemask_epi8(_mm256_cmpeq_epi16(g, one)) as u32;
    let zero = _mm256_cmpeq_epi16(least, _mm256_setzero_si256());
    if _mm256_movemask_epi8(zero) != 0 {
        return None;
    }
    let steps = _mm_add_epi16(
        _mm256_castsi256_si128(steps),
        _mm256_extracti128_si256::<1>(steps),
    );
    Some(n as u32 - sum8(steps) - fresh_steps(last, 16, n - j))
}

/// `Some(runs)` when `a` is strictly increasing, else `None`.
pub(super) fn ascending_runs(a: &[[u8; 2]]) -> Option<u32> {
    if a.len() > 16 {
        // SAFETY: only reachable through the AVX2 table, which the dispatcher
        // hands out only after detecting every feature enabled above.
        unsafe { ascending_runs16(a) }
    } else if a.len() > 8 {
        // SAFETY: AVX2 features detected (see above).
        unsafe { ascending_runs8(a) }
    } else {
        scalar::ascending_runs(a)
    }
}
