//! Bitmaps of exactly [`WORDS`] 64-bit words (65536 bits); bit `b` of word
//! `w` is value `64 * w + b`.
//!
//! Serialized inputs are `&[[u8; 8]]` (little-endian words, any address) and
//! must hold exactly [`WORDS`] words (checked: the kernels panic otherwise).
//! Accumulators and outputs are `&mut [u64; 1024]`.

use super::dispatch::kernels;
use super::scalar::bitmap as scalar;

pub use super::scalar::bitmap::{BitOp, WORDS};

/// `out = a op b`; returns the cardinality of `out`.
#[inline]
pub fn op_into(op: BitOp, a: &[[u8; 8]], b: &[[u8; 8]], out: &mut [u64; WORDS]) -> u32 {
    (kernels().bitmap_op_into)(op, a, b, out)
}

/// Cardinality of `a op b` (nothing is written).
#[inline]
pub fn op_count(op: BitOp, a: &[[u8; 8]], b: &[[u8; 8]]) -> u32 {
    (kernels().bitmap_op_count)(op, a, b)
}

/// Whether `a & b` is non-zero (stops early).
#[inline]
pub fn intersects(a: &[[u8; 8]], b: &[[u8; 8]]) -> bool {
    (kernels().bitmap_intersects)(a, b)
}

/// `acc |= b`; returns the cardinality of `acc` (counted in the same pass, so
/// that an n-way union can stop as soon as a container is full).
#[inline]
pub fn or_assign(acc: &mut [u64; WORDS], b: &[[u8; 8]]) -> u32 {
    (kernels().bitmap_or_assign)(acc, b)
}

/// Number of set bits.
#[inline]
pub fn popcount(words: &[u64; WORDS]) -> u32 {
    (kernels().bitmap_popcount)(words)
}

/// Number of maximal runs of set bits, counted until at least `cap`: exact
/// below `cap`, otherwise some count from `cap` up to the exact one. A tier may
/// count them all (NEON does); the x86 and scalar tiers stop at the first
/// 128-word block that reaches `cap`.
/// [`RUNS_CAP`](crate::container::RUNS_CAP) is all a container's kind needs.
#[inline]
pub fn count_runs(words: &[u64; WORDS], cap: u32) -> u32 {
    (kernels().bitmap_count_runs)(words, cap)
}

/// `(number of set bits, number of maximal runs)` of a serialized bitmap, in
/// one pass over its bytes; the runs are counted until at least `cap`, as by
/// [`count_runs`], and the set bits always in full.
#[inline]
pub fn card_and_runs(b: &[[u8; 8]], cap: u32) -> (u32, u32) {
    (kernels().bitmap_card_and_runs)(b, cap)
}

/// Appends the set bits, in increasing order, to `out`.
#[inline]
pub fn to_array(words: &[u64; WORDS], out: &mut Vec<u16>) {
    (kernels().bitmap_to_array)(words, out)
}

/// Appends, in increasing order, the positions `k` where membership changes
/// between `k - 1` and `k` (the value before 0 counts as absent): run starts
/// and ends + 1 alternate, and a run reaching 65535 has no end edge. One
/// vectorized pass to an edge bitmap, then the dispatched [`to_array`].
#[inline]
pub fn edges(words: &[u64; WORDS], out: &mut Vec<u16>) {
    to_array(&scalar::edge_words(words), out)
}

/// Appends the maximal runs `(start, len - 1)` of set bits to `out` (through
/// [`edges`]).
#[cfg(feature = "internals")]
pub fn to_runs(words: &[u64; WORDS], out: &mut Vec<(u16, u16)>) {
    let mut e = Vec::new();
    edges(words, &mut e);
    let (pairs, last) = e.as_chunks::<2>();
    out.extend(pairs.iter().map(|&[s, end]| (s, end - 1 - s)));
    if let [s] = *last {
        out.push((s, 65535 - s));
    }
}

/// Sets the bits `start..=end_inclusive` (both `< 65536`, `start <= end`).
#[cfg(feature = "internals")]
#[inline]
pub fn set_range(words: &mut [u64; WORDS], start: u32, end_inclusive: u32) {
    scalar::set_range(words, start, end_inclusive)
}

/// Clears the bits `start..=end_inclusive`.
#[inline]
pub fn clear_range(words: &mut [u64; WORDS], start: u32, end_inclusive: u32) {
    scalar::clear_range(words, start, end_inclusive)
}

/// Flips the bits `start..=end_inclusive`.
#[inline]
pub fn flip_range(words: &mut [u64; WORDS], start: u32, end_inclusive: u32) {
    scalar::flip_range(words, start, end_inclusive)
}

/// Number of set bits in `start..=end_inclusive`.
#[cfg(feature = "internals")]
#[inline]
pub fn range_count(words: &[u64; WORDS], start: u32, end_inclusive: u32) -> u32 {
    scalar::range_count(words, start, end_inclusive)
}

