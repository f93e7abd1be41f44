#![allow(unsafe_code, reason = "AVX2 intrinsics and the target_feature functions of this tier")]
//! AVX2 union and symmetric difference of a short sorted array and a long one:
//! the long array is copied 16 values a step, and each short value is put in
//! its place with one compare of the block it falls in (the AVX-512 tier's
//! `insert`, on 256-bit vectors). Short inputs went to the 8-lane merge or to
//! galloping before: the merge's rotation network costs the same per value of
//! the long array as a real merge, and each gallop chains dependent loads
//! (`or` 1.015 to 1.021 on census-income and weather_sept_85).

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use crate::kernels::scalar::array as scalar;

const W: usize = 16;

/// A sorted array's values, little-endian.
type Values<'a> = &'a [[u8; 2]];

/// `a ∪ b`, appended to `out`.
pub(super) fn union(a: &[[u8; 2]], b: &[[u8; 2]], out: &mut Vec<u16>) {
    match short_long(a, b) {
        // SAFETY: only reachable through the AVX2 table, which the dispatcher
        // hands out only after detecting every feature `insert` enables.
        Some((s, l)) => unsafe { insert::<true>(s, l, out) },
        None => super::array::union(a, b, out),
    }
}

/// `a ⊕ b`, appended to `out`.
pub(super) fn xor(a: &[[u8; 2]], b: &[[u8; 2]], out: &mut Vec<u16>) {
    match short_long(a, b) {
        // SAFETY: as in `union`.
        Some((s, l)) => unsafe { insert::<false>(s, l, out) },
        None => super::array::xor(a, b, out),
    }
}

/// The short input and the long one, when they take [`insert`]: the short one
/// under 32 values (the AVX-512 tier's bound; under 16 measured the same) or
/// so much shorter that the others gallop, the long one two blocks or more
/// (below that a scalar merge of the few values is as quick).
fn short_long<'a>(a: Values<'a>, b: Values<'a>) -> Option<(Values<'a>, Values<'a>)> {
    let (s, l) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let skewed = s.len() < 2 * W || scalar::should_gallop(s.len(), l.len());
    (skewed && !s.is_empty() && l.len() >= 2 * W).then_some((s, l))
}

/// `s[i..i + 16]`.
#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn load(s: &[[u8; 2]], i: usize) -> __m256i {
    let c: &[[u8; 2]; W] = s[i..i + W].try_into().expect("16 values");
    // SAFETY: `c` is 32 readable bytes; unaligned load.
    unsafe { _mm256_loadu_si256(c.as_ptr().cast()) }
}

/// Stores the 16 lanes of `v` at `dst[pos..pos + 16]`.
#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn store(dst: &mut [MaybeUninit<u16>], pos: usize, v: __m256i) {
    let d: &mut [MaybeUninit<u16>; W] = (&mut dst[pos..pos + W]).try_into().expect("16 slots");
    // SAFETY: `d` is 32 writable bytes (`MaybeUninit` may be overwritten);
    // unaligned store.
    unsafe { _mm256_storeu_si256(d.as_mut_ptr().cast(), v) }
}

/// `short ∪ long` (`KEEP_COMMON`) or `short ⊕ long`, appended to `out`.
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn insert<const KEEP_COMMON: bool>(short: &[[u8; 2]], long: &[[u8; 2]], out: &mut Vec<u16>) {
    let (n, cap) = (long.len(), short.len() + long.len());
    out.reserve(cap);
    let len = out.len();
    let dst = &mut out.spare_capacity_mut()[..cap];
    // `pos - j` counts the short values written so far, fewer than `short`
    // holds while one is left, so `pos + (n - j) < cap`: a block of the long
    // array stored at `pos` stays in `dst`.
    let (mut j, mut pos) = (0, 0);
    let zero = _mm256_setzero_si256();
    for e in short {
        let x = u16::from_le_bytes(*e);
        while j + W <= n && u16::from_le_bytes(long[j + W - 1]) < x {
            store(dst, pos, load(long, j));
            j += W;
            pos += W;
        }
        if j + W <= n {
            // The values below `x` in the next block: a prefix, whose lanes
            // are the ones where `x - v` does not saturate to zero. The whole
            // block is stored; what follows the prefix is written again.
            let v = load(long, j);
            let at_least = _mm256_cmpeq_epi16(_mm256_subs_epu16(_mm256_set1_epi16(x as i16), v), zero);
            let p = W - (_mm256_movemask_epi8(at_least) as u32).count_ones() as usize / 2;
            store(dst, pos, v);
            j += p;
            pos += p;
        } else {
            while j < n && u16::from_le_bytes(long[j]) < x {
                dst[pos].write(u16::from_le_bytes(long[j]));
                j += 1;
                pos += 1;
            }
        }
        // Written either way, and kept unless a symmetric difference finds it
        // in both: which one it is, is unpredictable.
        let found = j < n && long[j] == *e;
        j += usize::from(found);
        dst[pos].write(x);
        pos += usize::from(KEEP_COMMON || !found);
    }
    while j + W <= n {
        store(dst, pos, load(long, j));
        j += W;
        pos += W;
    }
    for (d, e) in dst[pos..].iter_mut().zip(&long[j..]) {
        d.write(u16::from_le_bytes(*e));
    }
    pos += n - j;
    // SAFETY: the first `pos` spare slots were written, and `pos <= cap`,
    // which was reserved.
    unsafe { out.set_len(len + pos) }
}
