#![allow(unsafe_code, reason = "AVX-512 intrinsics and the target_feature functions of this tier")]
//! AVX-512 sorted-array intersection and difference: a 32-block of `a` (one
//! zmm of u16) is compared against broadcasts of each value of a 16-block of
//! `b` (`vpcmpeqw` into a mask; `vp2intersect` is not assumed); the matched
//! (intersection) or unmatched (difference) lanes are packed with VBMI2
//! `vpcompressw`. Short inputs (and the tails of the difference) go to the
//! AVX2 tier; a few values against a long array are looked up by its block
//! maxima (`skewed.rs`), and other very different sizes go to the scalar
//! galloping kernels. (A branchless block advance was tried and was slower:
//! it serializes the loads. Padding the last blocks to drop the
//! scalar ends, as the union does, measured from 5% faster to 5% slower
//! depending on the set, so the ends stay.)
//!
//! Union and symmetric difference merge instead (`merge.rs`).

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use crate::kernels::array_tails::difference_tail;
use super::skewed;
use crate::kernels::scalar::array as scalar;

const B: usize = 32;
/// Values of `b` broadcast per step.
const BB: usize = 16;

#[inline(always)]
fn get(s: &[[u8; 2]], i: usize) -> u16 {
    u16::from_le_bytes(s[i])
}

#[inline]
fn block<const N: usize>(s: &[[u8; 2]], i: usize) -> &[[u8; 2]; N] {
    s[i..i + N].try_into().expect("N values")
}

#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
pub(super) fn load32(c: &[[u8; 2]; B]) -> __m512i {
    // SAFETY: `c` is 64 readable bytes; unaligned load.
    unsafe { _mm512_loadu_si512(c.as_ptr().cast()) }
}

#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
pub(super) fn store_packed(dst: &mut [MaybeUninit<u16>], pos: usize, v: __m512i, mask: u32) -> usize {
    let packed = _mm512_maskz_compress_epi16(mask, v);
    let c: &mut [MaybeUninit<u16>; B] = (&mut dst[pos..pos + B]).try_into().expect("32 slots");
    // SAFETY: `c` is 64 writable bytes (`MaybeUninit` may be overwritten).
    unsafe { _mm512_storeu_si512(c.as_mut_ptr().cast(), packed) };
    mask.count_ones() as usize
}

/// Bit `k` set iff lane `k` of `va` equals some value of `b`.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn match_mask(va: __m512i, b: &[[u8; 2]; BB]) -> u32 {
    let mut m = 0u32;
    for e in b {
        m |= _mm512_cmpeq_epi16_mask(va, _mm512_set1_epi16(u16::from_le_bytes(*e) as i16));
    }
    m
}

/// See the AVX2 version: `a[i..]`, `b[j..]` are left and the lanes of `va`
/// (= `a[i..i + 32]`) in `mask` matched in `b[..j]`.
struct Pending {
    i: usize,
    j: usize,
    va: __m512i,
    mask: u32,
}

#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn block_core(
    a: &[[u8; 2]],
    b: &[[u8; 2]],
    mut emit: impl FnMut(__m512i, u32) -> bool,
) -> Option<Pending> {
    let (mut i, mut j) = (0, 0);
    let mut va = load32(block::<B>(a, 0));
    let mut bb = block::<BB>(b, 0);
    let mut amax = get(a, B - 1);
    let mut bmax = get(b, BB - 1);
    let mut acc = 0u32;
    loop {
        acc |= match_mask(va, bb);
        if amax <= bmax {
            if !emit(va, acc) {
                return None;
            }
            acc = 0;
            i += B;
            let advance_b = amax == bmax;
            if advance_b {
                j += BB;
            }
            if i + B > a.len() {
                break;
            }
            va = load32(block::<B>(a, i));
            amax = get(a, i + B - 1);
            if advance_b {
                if j + BB > b.len() {
                    break;
                }
                bb = block::<BB>(b, j);
                bmax = get(b, j + BB - 1);
            }
        } else {
            j += BB;
            if j + BB > b.len() {
                break;
            }
            bb = block::<BB>(b, j);
            bmax = get(b, j + BB - 1);
        }
    }
    Some(Pending {
        i,
        j,
        va,
        mask: acc,
    })
}

#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn intersect_avx512(a: &[[u8; 2]], b: &[[u8; 2]], dst: &mut [MaybeUninit<u16>]) -> usize {
    let mut pos = 0;
    let p = block_core(a, b, |va, mask| {
        pos += store_packed(dst, pos, va, mask);
        true
    })
    .expect("never stopped");
    // Pending matches are < b[p.j], so they precede the tail's matches.
    pos += store_packed(dst, pos, p.va, p.mask);
    scalar::for_each_common(&a[p.i..], &b[p.j..], |x| {
        dst[pos].write(x);
        pos += 1;
        true
    });
    pos
}

#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn intersect_count_avx512(a: &[[u8; 2]], b: &[[u8; 2]]) -> u32 {
    let mut n = 0;
    let p = block_core(a, b, |_, mask| {
        n += mask.count_ones();
        true
    })
    .expect("never stopped");
    n + p.mask.count_ones() + scalar::intersect_count(&a[p.i..], &b[p.j..])
}

#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn intersects_avx512(a: &[[u8; 2]], b: &[[u8; 2]]) -> bool {
    match block_core(a, b, |_, mask| mask == 0) {
        None => true,
        Some(p) => p.mask != 0 || scalar::intersects(&a[p.i..], &b[p.j..]),
    }
}

/// Whether to use 32-blocks (else: AVX2 tier, which itself falls back to the
/// scalar galloping kernels for very different sizes).
fn use_blocks(a: &[[u8; 2]], b: &[[u8; 2]]) -> bool {
    let (s, l) = (a.len().min(b.len()), a.len().max(b.len()));
    a.len() >= B && b.len() >= BB && !scalar::should_gallop(s, l)
}

/// `a ∩ b`, appended to `out`.
pub(super) fn intersect(a: &[[u8; 2]], b: &[[u8; 2]], out: &mut Vec<u16>) {
    if !use_blocks(a, b) {
        let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
        if skewed::applies(short, long) {
            // SAFETY: AVX-512 features detected (see below).
            return unsafe { skewed::filter::<true>(short, long, out) };
        }
        return (super::fallback().array_intersect)(a, b, out);
    }
    let cap = a.len().min(b.len()) + B;
    out.reserve(cap);
    let len = out.len();
    // SAFETY: only reachable through the AVX-512 table, which the dispatcher
    // hands out only after detecting every feature enabled above.
    let n = unsafe { intersect_avx512(a, b, &mut out.spare_capacity_mut()[..cap]) };
    // SAFETY: `intersect_avx512` wrote the first `n` spare slots (a
    // contiguous prefix), and `n <= cap <= capacity - len`.
    unsafe { out.set_len(len + n) }
}

/// `|a ∩ b|`.
pub(super) fn intersect_count(a: &[[u8; 2]], b: &[[u8; 2]]) -> u32 {
    if !use_blocks(a, b) {
        let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
        if skewed::applies(short, long) {
            // SAFETY: AVX-512 features detected (see `intersect`).
            return unsafe { skewed::count(short, long) };
        }
        return (super::fallback().array_intersect_count)(a, b);
    }
    // SAFETY: AVX-512 features detected (see `intersect`).
    unsafe { intersect_count_avx512(a, b) }
}

/// Whether `a ∩ b` is non-empty.
pub(super) fn intersects(a: &[[u8; 2]], b: &[[u8; 2]]) -> bool {
    if !use_blocks(a, b) {
        let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
        if skewed::applies(short, long) {
            // SAFETY: AVX-512 features detected (see `intersect`).
            return unsafe { skewed::any(short, long) };
        }
        return (super::fallback().array_intersects)(a, b);
    }
    // SAFETY: AVX-512 features detected (see `intersect`).
    unsafe { intersects_avx512(a, b) }
}

/// Writes the 32-blocks of `a` that `block_core` finishes, without their
/// lanes found in `b`; returns how many values it wrote and where the blocks
/// stopped (see `array_tails::difference_tail`).
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn difference_avx512(
    a: &[[u8; 2]],
    b: &[[u8; 2]],
    dst: &mut [MaybeUninit<u16>],
) -> (usize, usize, usize, u32) {
    let mut pos = 0;
    let p = block_core(a, b, |va, mask| {
        pos += store_packed(dst, pos, va, !mask);
        true
    })
    .expect("never stopped");
    (pos, p.i, p.j, p.mask)
}

/// `a \ b`, appended to `out`.
pub(super) fn difference(a: &[[u8; 2]], b: &[[u8; 2]], out: &mut Vec<u16>) {
    if !use_blocks(a, b) {
        if skewed::applies(a, b) {
            // SAFETY: AVX-512 features detected (see `intersect`).
            return unsafe { skewed::filter::<false>(a, b, out) };
        }
        return (super::fallback().array_difference)(a, b, out);
    }
    let cap = a.len() + B;
    out.reserve(cap);
    let len = out.len();
    // SAFETY: AVX-512 features detected (see `intersect`).
    let (n, i, j, mask) = unsafe { difference_avx512(a, b, &mut out.spare_capacity_mut()[..cap]) };
    // SAFETY: `difference_avx512` wrote the first `n` spare slots (a
    // contiguous prefix), and `n <= cap <= capacity - len`.
    unsafe { out.set_len(len + n) }
    let rest = super::fallback().array_difference;
    difference_tail::<B>(a, b, (i, j, mask), out, rest);
}
