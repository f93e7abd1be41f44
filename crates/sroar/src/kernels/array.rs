//! Sorted, strictly increasing `u16` arrays stored as little-endian pairs.
//!
//! All outputs are appended to `out` (strictly increasing). When one input is
//! more than [`GALLOP_RATIO`](super::scalar::array::GALLOP_RATIO) times longer than the other, the kernels gallop
//! (exponential search) through the longer one.

use super::dispatch::kernels;
use super::scalar::array::all_pairs;


/// `a ∩ b`, appended to `out`.
#[inline]
pub fn intersect(a: &[[u8; 2]], b: &[[u8; 2]], out: &mut Vec<u16>) {
    // The arrays of small sets (a few values a container), compared here: every
    // tier would hand them to the scalar kernel, through two indirect calls that
    // cost as much as the comparisons.
    if all_pairs(a, b) {
        return super::scalar::array::intersect(a, b, out);
    }
    (kernels().array_intersect)(a, b, out)
}

/// `|a ∩ b|`.
#[inline]
pub fn intersect_count(a: &[[u8; 2]], b: &[[u8; 2]]) -> u32 {
    if all_pairs(a, b) {
        return super::scalar::array::intersect_count(a, b);
    }
    (kernels().array_intersect_count)(a, b)
}

/// Whether `a ∩ b` is non-empty (stopping at the first common value, except
/// for short arrays, whose few compares are all made).
#[inline]
pub fn intersects(a: &[[u8; 2]], b: &[[u8; 2]]) -> bool {
    if all_pairs(a, b) {
        return super::scalar::array::intersects(a, b);
    }
    (kernels().array_intersects)(a, b)
}

/// `a ∪ b`, appended to `out`.
#[inline]
pub fn union(a: &[[u8; 2]], b: &[[u8; 2]], out: &mut Vec<u16>) {
    (kernels().array_union)(a, b, out)
}

/// `a ⊕ b` (symmetric difference), appended to `out`.
#[inline]
pub fn xor(a: &[[u8; 2]], b: &[[u8; 2]], out: &mut Vec<u16>) {
    (kernels().array_xor)(a, b, out)
}

/// `a \ b`, appended to `out`.
#[inline]
pub fn difference(a: &[[u8; 2]], b: &[[u8; 2]], out: &mut Vec<u16>) {
    (kernels().array_difference)(a, b, out)
}

/// `Some(number of maximal runs of consecutive values)` when `a` is strictly
/// increasing (`Some(0)` when empty), `None` otherwise. Reads any bytes, so it
/// can check untrusted payloads.
#[inline]
pub fn ascending_runs(a: &[[u8; 2]]) -> Option<u32> {
    (kernels().array_ascending_runs)(a)
}

/// Slots [`runs_into`] needs in `dst` beyond the runs: a tier may store whole
/// vectors past the last run.
pub const RUNS_SLACK: usize = 16;

/// Writes the maximal runs of the strictly increasing, non-empty `a` to
/// `dst` (room for its runs and [`RUNS_SLACK`] more) as `(start, length - 1)`
/// in little-endian; returns how many. The slots past them are left
/// unspecified.
///
/// # Panics
/// If `dst` is too short; `a` not strictly increasing gives unspecified runs.
#[inline]
pub fn runs_into(a: &[[u8; 2]], dst: &mut [[u8; 4]]) -> usize {
    (kernels().array_runs_into)(a, dst)
}

