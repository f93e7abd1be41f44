#![allow(unsafe_code, reason = "AVX-512 intrinsics and the target_feature functions of this tier")]
//! AVX-512 lookups of a short sorted array's values in a much longer one (the
//! sizes the other tiers gallop at): the long array's block maxima, one per 32
//! values and at most 128 of them, sit in four vectors. A value's block is the
//! number of maxima below it (four compares), and one compare of that block
//! says whether it is there. Each value is looked up on its own, so the
//! lookups overlap in the pipeline, where galloping chains each search on the
//! last one and branches at every step.
//!
//! A union or symmetric difference of such arrays copies the long one a
//! block at a time and puts each short value in place (`insert`).

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use super::merge::{load, store};
use crate::kernels::scalar::array::GALLOP_RATIO;

const W: usize = 32;
/// Blocks of the longest array: 4096 values.
const BLOCKS: usize = 128;

/// A long sorted array, indexed by its block maxima.
struct Index<'a> {
    long: &'a [[u8; 2]],
    maxima: [__m512i; BLOCKS / W],
    /// The last block, padded with copies of the last value.
    last: [[u8; 2]; W],
    blocks: usize,
}

impl<'a> Index<'a> {
    /// `long` holds 1 to 4096 values.
    #[inline]
    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
    )]
    fn new(long: &'a [[u8; 2]]) -> Self {
        let n = long.len();
        let blocks = n.div_ceil(W);
        // Above every value: blocks past the end are never below one.
        let mut max = [[0xff; 2]; BLOCKS];
        for (k, m) in max[..blocks].iter_mut().enumerate() {
            *m = long[(W * k + W - 1).min(n - 1)];
        }
        let maxima = core::array::from_fn(|q| load(&max, W * q));
        let mut last = [long[n - 1]; W];
        let tail = &long[W * (blocks - 1)..];
        last[..tail.len()].copy_from_slice(tail);
        Index {
            long,
            maxima,
            last,
            blocks,
        }
    }

    /// Whether `x` is in the long array.
    #[inline]
    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
    )]
    fn contains(&self, x: u16) -> bool {
        let vx = _mm512_set1_epi16(x as i16);
        // The blocks whose largest value is below `x`: those before its block.
        let k = self
            .maxima
            .iter()
            .map(|&m| _mm512_cmplt_epu16_mask(m, vx).count_ones() as usize)
            .sum::<usize>();
        let block = match k {
            k if k + 1 < self.blocks => load(self.long, W * k),
            k if k + 1 == self.blocks => load(&self.last, 0),
            _ => return false,
        };
        _mm512_cmpeq_epi16_mask(block, vx) != 0
    }
}

/// Whether `short` against `long` takes these lookups: sizes the other tiers
/// gallop at, and more than one value to amortize the index on.
pub(super) fn applies(short: &[[u8; 2]], long: &[[u8; 2]]) -> bool {
    short.len() >= 2 && long.len() >= 512 && long.len() / GALLOP_RATIO > short.len() && long.len() <= BLOCKS * W
}

/// Appends the values of `short` that are (`KEEP_FOUND`) or are not in `long`.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
pub(super) fn filter<const KEEP_FOUND: bool>(
    short: &[[u8; 2]],
    long: &[[u8; 2]],
    out: &mut Vec<u16>,
) {
    let index = Index::new(long);
    out.reserve(short.len());
    let len = out.len();
    let dst = &mut out.spare_capacity_mut()[..short.len()];
    // Each value is written, and kept by moving past it: whether it is found
    // is unpredictable.
    let mut n = 0;
    for e in short {
        let x = u16::from_le_bytes(*e);
        dst[n].write(x);
        n += usize::from(index.contains(x) == KEEP_FOUND);
    }
    // SAFETY: the first `n` spare slots were written, and `n <= short.len()`,
    // which was reserved.
    unsafe { out.set_len(len + n) }
}

/// How many values of `short` are in `long`.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
pub(super) fn count(short: &[[u8; 2]], long: &[[u8; 2]]) -> u32 {
    let index = Index::new(long);
    short
        .iter()
        .map(|e| u32::from(index.contains(u16::from_le_bytes(*e))))
        .sum()
}

/// Whether some value of `short` is in `long`.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
pub(super) fn any(short: &[[u8; 2]], long: &[[u8; 2]]) -> bool {
    let index = Index::new(long);
    short
        .iter()
        .any(|e| index.contains(u16::from_le_bytes(*e)))
}

/// Whether a short input of `short` values (under a block, or far shorter than
/// the other) may take [`insert`] against a long one of `long`: some values,
/// against a long array of a few blocks.
pub(super) fn inserts(short: usize, long: usize) -> bool {
    short > 0 && long >= INSERT_MIN_LONG
}

/// The shortest long array [`insert`] takes: below two blocks, a scalar merge
/// of the few values is as quick.
const INSERT_MIN_LONG: usize = 2 * W;

/// `short ∪ long` (`KEEP_COMMON`) or `short ⊕ long`, appended to `out`: the
/// long array is copied 32 values a step, and each short value is put in its
/// place with one compare of the block it falls in. Galloping instead searched
/// for each value and then copied the stretch before it: the searches' chains
/// of dependent loads cost more than the copy (664 of weather_sept_85's
/// 1,558 array unions are 9 values on average against 1,361).
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
pub(super) fn insert<const KEEP_COMMON: bool>(
    short: &[[u8; 2]],
    long: &[[u8; 2]],
    out: &mut Vec<u16>,
) {
    let (n, cap) = (long.len(), short.len() + long.len());
    out.reserve(cap);
    let len = out.len();
    let dst = &mut out.spare_capacity_mut()[..cap];
    // `pos - j` counts the short values written so far, so `pos + (n - j)`
    // never passes `cap`: every store below stays in `dst`.
    let (mut j, mut pos) = (0, 0);
    for e in short {
        let x = u16::from_le_bytes(*e);
        while j + W <= n && u16::from_le_bytes(long[j + W - 1]) < x {
            store(dst, pos, load(long, j));
            j += W;
            pos += W;
        }
        // The values below `x` in the next block (or what is left): a prefix.
        let v = load_part(long, j);
        let below = _mm512_cmplt_epu16_mask(v, _mm512_set1_epi16(x as i16)) & part_mask(n - j);
        let p = below.count_ones() as usize;
        store_part(dst, pos, v, p);
        j += p;
        pos += p;
        // Written either way, and kept unless a symmetric difference finds it
        // in both: which one it is, is unpredictable.
        let found = j < n && long[j] == *e;
        j += usize::from(found);
        dst[pos].write(x);
        pos += usize::from(KEEP_COMMON || !found);
    }
    while j < n {
        let p = (n - j).min(W);
        store_part(dst, pos, load_part(long, j), p);
        j += p;
        pos += p;
    }
    // SAFETY: the first `pos` spare slots were written, and `pos <= cap`,
    // which was reserved.
    unsafe { out.set_len(len + pos) }
}

/// The lanes of the `left` values of a block, when fewer than 32 are left.
#[inline]
fn part_mask(left: usize) -> u32 {
    if left >= W {
        u32::MAX
    } else {
        (1 << left) - 1
    }
}

/// `s[i..]`, up to 32 values; lanes past the end are zero.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn load_part(s: &[[u8; 2]], i: usize) -> __m512i {
    let rest = &s[i..];
    // SAFETY: the mask selects the lanes of `rest`, which are readable; a
    // masked load does not touch the others.
    unsafe { _mm512_maskz_loadu_epi16(part_mask(rest.len()), rest.as_ptr().cast()) }
}

/// Stores the first `n` lanes of `v` at `dst[pos..]`.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn store_part(dst: &mut [MaybeUninit<u16>], pos: usize, v: __m512i, n: usize) {
    let room = &mut dst[pos..pos + n];
    // SAFETY: the mask selects the lanes of `room`, which are writable; a
    // masked store does not touch the others.
    unsafe { _mm512_mask_storeu_epi16(room.as_mut_ptr().cast(), part_mask(room.len()), v) }
}
