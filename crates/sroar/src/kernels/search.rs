//! Searches in sorted little-endian arrays.

use super::dispatch::kernels;

/// Index of the first entry `>= target` in `entries` (sorted ascending LE
/// `u64`s); `entries.len()` when there is none.
#[inline]
pub fn lower_bound_keys(entries: &[[u8; 8]], target: u64) -> usize {
    (kernels().lower_bound_keys)(entries, target)
}

/// Index of the first element `>= x` in a sorted `u16` array.
#[cfg(any(test, feature = "internals"))]
#[inline]
pub fn lower_bound_u16(array: &[[u8; 2]], x: u16) -> usize {
    super::scalar::search::lower_bound_u16(array, x)
}

