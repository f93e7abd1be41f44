//! Writing out values: iteration hands the caller 64-bit values in batches.

use super::dispatch::kernels;
use super::scalar::values as scalar;

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

