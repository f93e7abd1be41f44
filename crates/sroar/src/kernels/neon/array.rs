#![allow(unsafe_code)]
//! NEON sorted-array kernels, on 8 × u16 vectors; the same algorithms as
//! the AVX2 tier (`avx2/array.rs`), with NEON's missing `movemask` replaced
//! by a lane-bit `and` + `addv`, and `pshufb` by `tbl`:
//!
//! * intersection: an 8-block of `a` is compared against all 8 rotations
//!   (`ext`) of an 8-block of `b`; matches are compacted with a `tbl` table;
//! * union: a min/max rotation network merging two sorted 8-vectors, with
//!   on-the-fly deduplication;
//! * symmetric difference: the same merge, keeping the lanes that equal
//!   neither neighbour (so each output vector lags one lane behind);
//! * difference: the intersection's block compare, keeping the lanes of `a`
//!   that found no match.
//!
//! Tails (fewer than 8 values) and very different sizes fall back to the
//! scalar kernels. The scalar ends of the union and xor (`merge3`,
//! `xor_tail`) are copies of the AVX2 tier's, which is compiled on x86 only.

use core::arch::aarch64::*;
use core::mem::MaybeUninit;

use crate::kernels::array::scalar;
use crate::kernels::array_tails::{merge3, use_blocks, xor_tail, Last, COMPACT};

/// Bit `k` in lane `k`: `and` with a compare result then `addv` gives the
/// 8-bit lane mask (NEON has no `movemask`).
const LANE_BITS: [u16; 8] = [1, 2, 4, 8, 16, 32, 64, 128];

#[inline(always)]
fn get(s: &[[u8; 2]], i: usize) -> u16 {
    u16::from_le_bytes(s[i])
}

#[inline]
#[target_feature(enable = "neon")]
fn load8(s: &[[u8; 2]], i: usize) -> uint16x8_t {
    let c: &[[u8; 2]; 8] = s[i..i + 8].try_into().expect("8 values");
    // SAFETY: `c` is 16 readable bytes; `ld1` of bytes needs no alignment
    // (the input may sit at an odd address). Little-endian only, so the
    // lanes are the values.
    vreinterpretq_u16_u8(unsafe { vld1q_u8(c.as_ptr().cast()) })
}

#[inline]
#[target_feature(enable = "neon")]
fn mask8(eq: uint16x8_t) -> u32 {
    // SAFETY: `LANE_BITS` is 16 readable bytes, aligned for `u16`.
    let bits = unsafe { vld1q_u16(LANE_BITS.as_ptr()) };
    vaddvq_u16(vandq_u16(eq, bits)) as u32
}

#[inline]
#[target_feature(enable = "neon")]
fn compact(v: uint16x8_t, mask: u32) -> uint16x8_t {
    let c: &[u8; 16] = &COMPACT[(mask & 0xff) as usize];
    // SAFETY: `c` is 16 readable bytes.
    let control = unsafe { vld1q_u8(c.as_ptr()) };
    vreinterpretq_u16_u8(vqtbl1q_u8(vreinterpretq_u8_u16(v), control))
}

#[inline]
#[target_feature(enable = "neon")]
fn store8(dst: &mut [MaybeUninit<u16>], pos: usize, v: uint16x8_t) {
    let c: &mut [MaybeUninit<u16>; 8] = (&mut dst[pos..pos + 8]).try_into().expect("8 slots");
    // SAFETY: `c` is 16 writable bytes aligned for `u16` (`MaybeUninit` may
    // be overwritten).
    unsafe { vst1q_u16(c.as_mut_ptr().cast(), v) }
}

#[inline]
#[target_feature(enable = "neon")]
fn lanes(v: uint16x8_t) -> [u16; 8] {
    let mut buf = [0u16; 8];
    // SAFETY: `buf` is 16 writable bytes aligned for `u16`.
    unsafe { vst1q_u16(buf.as_mut_ptr(), v) };
    buf
}

/// Bit `k` set iff lane `k` of `va` equals some lane of `vb`.
#[inline]
#[target_feature(enable = "neon")]
fn match_mask(va: uint16x8_t, vb: uint16x8_t) -> u32 {
    let mut r = vceqq_u16(va, vb);
    r = vorrq_u16(r, vceqq_u16(va, vextq_u16::<1>(vb, vb)));
    r = vorrq_u16(r, vceqq_u16(va, vextq_u16::<2>(vb, vb)));
    r = vorrq_u16(r, vceqq_u16(va, vextq_u16::<3>(vb, vb)));
    r = vorrq_u16(r, vceqq_u16(va, vextq_u16::<4>(vb, vb)));
    r = vorrq_u16(r, vceqq_u16(va, vextq_u16::<5>(vb, vb)));
    r = vorrq_u16(r, vceqq_u16(va, vextq_u16::<6>(vb, vb)));
    r = vorrq_u16(r, vceqq_u16(va, vextq_u16::<7>(vb, vb)));
    mask8(r)
}

/// Where the block loop stopped: `a[i..]` and `b[j..]` are left, and the
/// lanes of `va` (= `a[i..i + 8]`) in `mask` matched in `b[..j]`.
struct Pending {
    i: usize,
    j: usize,
    va: uint16x8_t,
    mask: u32,
}

/// Block intersection of `a` and `b` (both at least 8 long). Calls
/// `emit(block, mask)` for each finished 8-block of `a` with the mask of its
/// lanes found in `b`; stops (returning `None`) when `emit` returns false.
#[inline]
#[target_feature(enable = "neon")]
fn block_core(
    a: &[[u8; 2]],
    b: &[[u8; 2]],
    mut emit: impl FnMut(uint16x8_t, u32) -> bool,
) -> Option<Pending> {
    let (mut i, mut j) = (0, 0);
    let mut va = load8(a, 0);
    let mut vb = load8(b, 0);
    let mut amax = get(a, 7);
    let mut bmax = get(b, 7);
    let mut acc = 0u32;
    loop {
        acc |= match_mask(va, vb);
        if amax <= bmax {
            if !emit(va, acc) {
                return None;
            }
            acc = 0;
            i += 8;
            let advance_b = amax == bmax;
            if advance_b {
                j += 8;
            }
            if i + 8 > a.len() {
                break;
            }
            va = load8(a, i);
            amax = get(a, i + 7);
            if advance_b {
                if j + 8 > b.len() {
                    break;
                }
                vb = load8(b, j);
                bmax = get(b, j + 7);
            }
        } else {
            j += 8;
            if j + 8 > b.len() {
                break;
            }
            vb = load8(b, j);
            bmax = get(b, j + 7);
        }
    }
    Some(Pending {
        i,
        j,
        va,
        mask: acc,
    })
}

#[target_feature(enable = "neon")]
fn intersect_neon(a: &[[u8; 2]], b: &[[u8; 2]], dst: &mut [MaybeUninit<u16>]) -> usize {
    let mut pos = 0;
    let p = block_core(a, b, |va, mask| {
        store8(dst, pos, compact(va, mask));
        pos += mask.count_ones() as usize;
        true
    })
    .expect("never stopped");
    // Pending matches are < b[p.j], so they precede the tail's matches.
    let l = lanes(p.va);
    for (k, &x) in l.iter().enumerate() {
        if p.mask >> k & 1 != 0 {
            dst[pos].write(x);
            pos += 1;
        }
    }
    scalar::for_each_common(&a[p.i..], &b[p.j..], |x| {
        dst[pos].write(x);
        pos += 1;
        true
    });
    pos
}

#[target_feature(enable = "neon")]
fn intersect_count_neon(a: &[[u8; 2]], b: &[[u8; 2]]) -> u32 {
    let mut n = 0;
    let p = block_core(a, b, |_, mask| {
        n += mask.count_ones();
        true
    })
    .expect("never stopped");
    n + p.mask.count_ones() + scalar::intersect_count(&a[p.i..], &b[p.j..])
}

#[target_feature(enable = "neon")]
fn intersects_neon(a: &[[u8; 2]], b: &[[u8; 2]]) -> bool {
    match block_core(a, b, |_, mask| mask == 0) {
        None => true,
        Some(p) => p.mask != 0 || scalar::intersects(&a[p.i..], &b[p.j..]),
    }
}

/// `a ∩ b`, appended to `out`.
pub(super) fn intersect(a: &[[u8; 2]], b: &[[u8; 2]], out: &mut Vec<u16>) {
    if !use_blocks(a, b) {
        return scalar::intersect(a, b, out);
    }
    let cap = a.len().min(b.len()) + 8;
    out.reserve(cap);
    let len = out.len();
    // SAFETY: only reachable through the NEON table, which the dispatcher
    // hands out only after detecting NEON.
    let n = unsafe { intersect_neon(a, b, &mut out.spare_capacity_mut()[..cap]) };
    // SAFETY: `intersect_neon` wrote the first `n` spare slots (a contiguous
    // prefix), and `n <= cap <= capacity - len`.
    unsafe { out.set_len(len + n) }
}

/// `|a ∩ b|`.
pub(super) fn intersect_count(a: &[[u8; 2]], b: &[[u8; 2]]) -> u32 {
    if !use_blocks(a, b) {
        return scalar::intersect_count(a, b);
    }
    // SAFETY: NEON detected (see `intersect`).
    unsafe { intersect_count_neon(a, b) }
}

/// Whether `a ∩ b` is non-empty.
pub(super) fn intersects(a: &[[u8; 2]], b: &[[u8; 2]]) -> bool {
    if !use_blocks(a, b) {
        return scalar::intersects(a, b);
    }
    // SAFETY: NEON detected (see `intersect`).
    unsafe { intersects_neon(a, b) }
}

/// Merges two sorted 8-vectors: returns (8 smallest, 8 largest), sorted.
#[inline]
#[target_feature(enable = "neon")]
fn merge8(a: uint16x8_t, b: uint16x8_t) -> (uint16x8_t, uint16x8_t) {
    let mut tmp = vminq_u16(a, b);
    let mut max = vmaxq_u16(a, b);
    tmp = vextq_u16::<1>(tmp, tmp);
    let mut min = vminq_u16(tmp, max);
    max = vmaxq_u16(tmp, max);
    for _ in 0..6 {
        tmp = vextq_u16::<1>(min, min);
        min = vminq_u16(tmp, max);
        max = vmaxq_u16(tmp, max);
    }
    (vextq_u16::<1>(min, min), max)
}

/// Stores the lanes of `new` that differ from their predecessor (lane 7 of
/// `old` for lane 0) at `dst[pos..]`; returns how many.
#[inline]
#[target_feature(enable = "neon")]
fn store_unique(
    old: uint16x8_t,
    new: uint16x8_t,
    dst: &mut [MaybeUninit<u16>],
    pos: usize,
) -> usize {
    let prev = vextq_u16::<7>(old, new);
    let keep = !mask8(vceqq_u16(prev, new)) & 0xff;
    store8(dst, pos, compact(new, keep));
    keep.count_ones() as usize
}

#[target_feature(enable = "neon")]
fn union_neon(a: &[[u8; 2]], b: &[[u8; 2]], dst: &mut [MaybeUninit<u16>]) -> usize {
    let (na, nb) = (a.len() / 8, b.len() / 8);
    let (mut vmin, mut vmax) = merge8(load8(a, 0), load8(b, 0));
    let (mut ia, mut ib) = (1, 1);
    // Lane 0 of the first output is at most 65528, so never equals 0xffff.
    let mut pos = store_unique(vdupq_n_u16(u16::MAX), vmin, dst, 0);
    let mut last = vmin;
    while ia < na && ib < nb {
        // Take the vector with the smaller head: every value loaded so far is
        // then below the other input's head, so the 8 smallest are final.
        let v = if get(a, 8 * ia) <= get(b, 8 * ib) {
            ia += 1;
            load8(a, 8 * ia - 8)
        } else {
            ib += 1;
            load8(b, 8 * ib - 8)
        };
        (vmin, vmax) = merge8(v, vmax);
        pos += store_unique(last, vmin, dst, pos);
        last = vmin;
    }
    let prev = lanes(last)[7] as u32;
    merge3(&lanes(vmax), &a[8 * ia..], &b[8 * ib..], prev, dst, pos)
}

/// `a ∪ b`, appended to `out`.
pub(super) fn union(a: &[[u8; 2]], b: &[[u8; 2]], out: &mut Vec<u16>) {
    if !use_blocks(a, b) {
        return scalar::union(a, b, out);
    }
    let cap = a.len() + b.len() + 8;
    out.reserve(cap);
    let len = out.len();
    // SAFETY: NEON detected (see `intersect`).
    let n = unsafe { union_neon(a, b, &mut out.spare_capacity_mut()[..cap]) };
    // SAFETY: `union_neon` wrote the first `n` spare slots (a contiguous
    // prefix), and `n <= cap <= capacity - len`.
    unsafe { out.set_len(len + n) }
}

/// Stores the lanes of `cur` = (lane 7 of `old`, lanes 0..=6 of `new`) that
/// equal neither neighbour in the merged stream (lane 6 of `old` before,
/// `new` after) at `dst[pos..]`; returns how many. A value occurs at most
/// twice in the stream, and then adjacently, so these are the values of
/// exactly one input. Lane 7 of `new` waits for the next vector.
#[inline]
#[target_feature(enable = "neon")]
fn store_single(
    old: uint16x8_t,
    new: uint16x8_t,
    dst: &mut [MaybeUninit<u16>],
    pos: usize,
) -> usize {
    let cur = vextq_u16::<7>(old, new);
    let prev = vextq_u16::<6>(old, new);
    let eq = vorrq_u16(vceqq_u16(cur, prev), vceqq_u16(cur, new));
    let keep = !mask8(eq) & 0xff;
    store8(dst, pos, compact(cur, keep));
    keep.count_ones() as usize
}

#[target_feature(enable = "neon")]
fn xor_neon(a: &[[u8; 2]], b: &[[u8; 2]], dst: &mut [MaybeUninit<u16>]) -> usize {
    let (na, nb) = (a.len() / 8, b.len() / 8);
    let (mut vmin, mut vmax) = merge8(load8(a, 0), load8(b, 0));
    let (mut ia, mut ib) = (1, 1);
    // The two lanes before the stream are 0xffff: the first (fake) one equals
    // its predecessor, so is dropped; lane 0 of the first output is at most
    // 65528, so never equals them.
    let mut pos = store_single(vdupq_n_u16(u16::MAX), vmin, dst, 0);
    let mut last = vmin;
    while ia < na && ib < nb {
        // As in the AVX2 tier, the vector with the smaller head is next,
        // chosen without a branch (the choice is unpredictable on
        // interleaved inputs).
        let take_a = get(a, 8 * ia) <= get(b, 8 * ib);
        let (va, vb) = (load8(a, 8 * ia), load8(b, 8 * ib));
        ia += take_a as usize;
        ib += !take_a as usize;
        let v = vbslq_u16(vdupq_n_u16((take_a as u16).wrapping_neg()), va, vb);
        (vmin, vmax) = merge8(v, vmax);
        pos += store_single(last, vmin, dst, pos);
        last = vmin;
    }
    let l = lanes(last);
    let last = Last {
        value: l[7],
        twice: l[6] == l[7],
    };
    xor_tail(last, &lanes(vmax), &a[8 * ia..], &b[8 * ib..], dst, pos)
}

/// `a ⊕ b`, appended to `out`.
pub(super) fn xor(a: &[[u8; 2]], b: &[[u8; 2]], out: &mut Vec<u16>) {
    if !use_blocks(a, b) {
        return scalar::xor(a, b, out);
    }
    let cap = a.len() + b.len() + 8;
    out.reserve(cap);
    let len = out.len();
    // SAFETY: NEON detected (see `intersect`).
    let n = unsafe { xor_neon(a, b, &mut out.spare_capacity_mut()[..cap]) };
    // SAFETY: `xor_neon` wrote the first `n` spare slots (a contiguous
    // prefix), and `n <= cap <= capacity - len`.
    unsafe { out.set_len(len + n) }
}

/// Writes the 8-blocks of `a` that `block_core` finishes, without their
/// lanes found in `b`; returns how many values it wrote and where the blocks
/// stopped: `a[i..]` is left to do against `b[j..]`, except that the lanes of
/// `a[i..i + 8]` in `mask` are already known to be in `b`.
#[target_feature(enable = "neon")]
fn difference_neon(
    a: &[[u8; 2]],
    b: &[[u8; 2]],
    dst: &mut [MaybeUninit<u16>],
) -> (usize, usize, usize, u32) {
    let mut pos = 0;
    let p = block_core(a, b, |va, mask| {
        let keep = !mask & 0xff;
        store8(dst, pos, compact(va, keep));
        pos += keep.count_ones() as usize;
        true
    })
    .expect("never stopped");
    (pos, p.i, p.j, p.mask)
}

/// `a \ b`, appended to `out`.
pub(super) fn difference(a: &[[u8; 2]], b: &[[u8; 2]], out: &mut Vec<u16>) {
    if !use_blocks(a, b) {
        return scalar::difference(a, b, out);
    }
    let cap = a.len() + 8;
    out.reserve(cap);
    let len = out.len();
    // SAFETY: NEON detected (see `intersect`).
    let (n, i, j, mask) = unsafe { difference_neon(a, b, &mut out.spare_capacity_mut()[..cap]) };
    // SAFETY: `difference_neon` wrote the first `n` spare slots (a
    // contiguous prefix), and `n <= cap <= capacity - len`.
    unsafe { out.set_len(len + n) }
    scalar::difference_tail::<8>(a, b, (i, j, mask), out, scalar::difference);
}
