//! Writing out values: iteration hands the caller 64-bit values in batches.

use super::dispatch::kernels;

/// Runs shorter than this are written with the inline loop: a dispatched call
/// costs more than it saves on a few values.
pub const DISPATCH_MIN: usize = 16;

/// `out[k] = first + k` (wrapping) for every slot of `out`.
#[inline]
pub fn fill_consecutive(out: &mut [u64], first: u64) {
    if out.len() < DISPATCH_MIN {
        return scalar::fill_consecutive(out, first);
    }
    (kernels().fill_consecutive)(out, first)
}

/// Writes the set bits of whole words of `words`, from the first on, as
/// `base + 64 * i + bit` (`i` the word's index in `words`; `base` a multiple of 64)
/// into `out`, ascending, and stops before the first word whose bits do not all
/// fit in what is left of `out`. Returns `(words consumed, values written)`.
/// Up to 8 slots of `out` past the values written may be overwritten (a SIMD
/// tier writes whole vectors).
#[inline]
pub fn bits_into(words: &[[u8; 8]], base: u64, out: &mut [u64]) -> (usize, usize) {
    (kernels().bits_into)(words, base, out)
}

/// Portable implementations (also the reference for the SIMD tiers).
pub mod scalar {
    /// [`super::bits_into`]: a `tzcnt` per set bit.
    pub fn bits_into(words: &[[u8; 8]], base: u64, out: &mut [u64]) -> (usize, usize) {
        let mut n = 0;
        for (i, w) in words.iter().enumerate() {
            let mut w = u64::from_le_bytes(*w);
            let c = w.count_ones() as usize;
            if c > out.len() - n {
                return (i, n);
            }
            let word_base = base.wrapping_add(64 * i as u64);
            for slot in &mut out[n..n + c] {
                *slot = word_base | u64::from(w.trailing_zeros());
                w &= w.wrapping_sub(1);
            }
            n += c;
        }
        (words.len(), n)
    }

    /// `out[k] = first + k` (wrapping).
    #[inline]
    pub fn fill_consecutive(out: &mut [u64], first: u64) {
        for (k, slot) in out.iter_mut().enumerate() {
            *slot = first.wrapping_add(k as u64);
        }
    }
}
