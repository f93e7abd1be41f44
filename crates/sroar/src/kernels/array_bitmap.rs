//! Mixed kernels: a sorted `u16` array (`&[[u8; 2]]`) against a bitmap
//! (serialized `&[[u8; 8]]` of [`WORDS`] words, or an in-memory
//! `[u64; 1024]`). Each array value costs one word load and a bit test or
//! set, which gathers do not beat (an AVX2 version with two 4-lane gathers per
//! 8 values ran at half the scalar loop's speed on Zen 3; BENCHMARKS.md).
//! Counting and testing are scalar and inlined; the rest dispatch: the x86
//! tiers compile setting, clearing and flipping with BMI2, and filter 8 values
//! at a time with one compacting shuffle (`avx2/array_bitmap.rs`). Only x86
//! has such filters, so elsewhere (NEON) filtering is the scalar loop inlined,
//! not an indirect call: through the table, the scalar loop made `andnot` 5-8%
//! slower (x86 scalar tier, census-income and weather_sept_85). On x86 the
//! filters go through the table on every tier: giving the scalar tier the same
//! inlined loop behind a check cost the AVX2 tier up to 5% on `andnot`.

use super::dispatch::kernels;
use super::scalar::array_bitmap as scalar;
use super::scalar::bitmap::WORDS;

/// Values of `array` that are set in `bitmap`, appended to `out`.
#[inline]
pub fn intersect(array: &[[u8; 2]], bitmap: &[[u8; 8]], out: &mut Vec<u16>) {
    #[cfg(target_arch = "x86_64")]
    return (kernels().array_bitmap_intersect)(array, bitmap, out);
    #[cfg(not(target_arch = "x86_64"))]
    scalar::intersect(array, bitmap, out)
}

/// Number of values of `array` set in `bitmap`.
#[inline]
pub fn intersect_count(array: &[[u8; 2]], bitmap: &[[u8; 8]]) -> u32 {
    scalar::intersect_count(array, bitmap)
}

/// Whether some value of `array` is set in `bitmap`.
#[inline]
pub fn intersects(array: &[[u8; 2]], bitmap: &[[u8; 8]]) -> bool {
    scalar::intersects(array, bitmap)
}

/// Values of `array` not set in `bitmap`, appended to `out`.
#[inline]
pub fn difference(array: &[[u8; 2]], bitmap: &[[u8; 8]], out: &mut Vec<u16>) {
    #[cfg(target_arch = "x86_64")]
    return (kernels().array_bitmap_difference)(array, bitmap, out);
    #[cfg(not(target_arch = "x86_64"))]
    scalar::difference(array, bitmap, out)
}

/// Sets the values of `array` in `words`.
#[inline]
pub fn set_into(array: &[[u8; 2]], words: &mut [u64; WORDS]) {
    (kernels().array_bitmap_set_into)(array, words)
}

/// Sets the values of `array` in the serialized bitmap `words`.
#[inline]
pub fn set_into_bytes(array: &[[u8; 2]], words: &mut [[u8; 8]; WORDS]) {
    (kernels().array_bitmap_set_into_bytes)(array, words)
}

/// Clears the values of `array` from `words`.
#[inline]
pub fn clear_from(array: &[[u8; 2]], words: &mut [u64; WORDS]) {
    (kernels().array_bitmap_clear_from)(array, words)
}

/// Flips the values of `array` in `words`.
#[inline]
pub fn flip_into(array: &[[u8; 2]], words: &mut [u64; WORDS]) {
    (kernels().array_bitmap_flip_into)(array, words)
}
