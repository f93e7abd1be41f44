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

/// Portable implementations (also the reference for the SIMD tiers).
pub mod scalar {
    /// `out[k] = first + k` (wrapping).
    #[inline]
    pub fn fill_consecutive(out: &mut [u64], first: u64) {
        for (k, slot) in out.iter_mut().enumerate() {
            *slot = first.wrapping_add(k as u64);
        }
    }
}
