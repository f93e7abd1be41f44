//! Searches in sorted little-endian arrays.

/// Index of the first element `>= x` in a sorted `u16` array.
#[cfg(feature = "internals")]
#[inline]
pub fn lower_bound_u16(array: &[[u8; 2]], x: u16) -> usize {
    super::scalar::search::lower_bound_u16(array, x)
}

