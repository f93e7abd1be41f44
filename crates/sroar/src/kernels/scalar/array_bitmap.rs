//! A sorted `u16` array (`&[[u8; 2]]`) against a bitmap (serialized
//! `&[[u8; 8]]` of [`WORDS`] words, or an in-memory `[u64; 1024]`), one word
//! load per value. The loops are always inlined: the testing ones into their
//! callers, and the setting, clearing and flipping ones also into the x86 tiers'
//! BMI2 copies (see `avx2/array_bitmap.rs`).

use super::bitmap::{words, WORDS};

#[inline(always)]
fn test(bitmap: &[[u8; 8]; WORDS], v: u16) -> bool {
    (u64::from_le_bytes(bitmap[(v >> 6) as usize]) >> (v & 63)) & 1 != 0
}

/// Appends the values of `array` for which `keep(v)` holds to `out`, without a
/// branch per value: about half the values pass on real data, which a filter
/// would mispredict.
#[inline(always)]
fn compact(array: &[[u8; 2]], out: &mut Vec<u16>, keep: impl Fn(u16) -> bool) {
    let base = out.len();
    out.resize(base + array.len(), 0);
    let dst = &mut out[base..];
    let mut k = 0;
    for (i, e) in array.iter().enumerate() {
        let v = u16::from_le_bytes(*e);
        // `k <= i`, so the store stays in bounds.
        dst[k.min(i)] = v;
        k += usize::from(keep(v));
    }
    out.truncate(base + k);
}

/// Values of `array` that are set in `bitmap`, appended to `out`.
#[inline(always)]
pub fn intersect(array: &[[u8; 2]], bitmap: &[[u8; 8]], out: &mut Vec<u16>) {
    let bitmap = words(bitmap);
    compact(array, out, |v| test(bitmap, v));
}

/// Number of values of `array` set in `bitmap`.
#[inline(always)]
pub fn intersect_count(array: &[[u8; 2]], bitmap: &[[u8; 8]]) -> u32 {
    let bitmap = words(bitmap);
    array
        .iter()
        .map(|e| test(bitmap, u16::from_le_bytes(*e)) as u32)
        .sum()
}

/// Whether some value of `array` is set in `bitmap`.
#[inline(always)]
pub fn intersects(array: &[[u8; 2]], bitmap: &[[u8; 8]]) -> bool {
    let bitmap = words(bitmap);
    array.iter().any(|e| test(bitmap, u16::from_le_bytes(*e)))
}

/// Values of `array` not set in `bitmap`, appended to `out`.
#[inline(always)]
pub fn difference(array: &[[u8; 2]], bitmap: &[[u8; 8]], out: &mut Vec<u16>) {
    let bitmap = words(bitmap);
    compact(array, out, |v| !test(bitmap, v));
}

/// Sets the values of `array` in `words`.
#[inline(always)]
pub fn set_into(array: &[[u8; 2]], words: &mut [u64; WORDS]) {
    for e in array {
        let v = u16::from_le_bytes(*e);
        words[(v >> 6) as usize] |= 1 << (v & 63);
    }
}

/// [`set_into`] on a serialized bitmap's bytes (little-endian words, at any
/// alignment): the writer sets the values straight into its output.
#[inline(always)]
pub fn set_into_bytes(array: &[[u8; 2]], words: &mut [[u8; 8]; WORDS]) {
    for e in array {
        let v = u16::from_le_bytes(*e);
        let w = &mut words[(v >> 6) as usize];
        *w = (u64::from_le_bytes(*w) | 1 << (v & 63)).to_le_bytes();
    }
}

/// Clears the values of `array` from `words`.
#[inline(always)]
pub fn clear_from(array: &[[u8; 2]], words: &mut [u64; WORDS]) {
    for e in array {
        let v = u16::from_le_bytes(*e);
        words[(v >> 6) as usize] &= !(1 << (v & 63));
    }
}

/// Flips the values of `array` in `words`.
#[inline(always)]
pub fn flip_into(array: &[[u8; 2]], words: &mut [u64; WORDS]) {
    for e in array {
        let v = u16::from_le_bytes(*e);
        words[(v >> 6) as usize] ^= 1 << (v & 63);
    }
}
