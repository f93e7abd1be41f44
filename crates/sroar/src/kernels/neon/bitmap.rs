#![allow(unsafe_code, reason = "NEON intrinsics and the target_feature functions of this tier")]
//! NEON bitmap kernels: 128-bit word operations; popcount with `cnt` (per
//! byte), summed into 16-bit lanes with `uadalp`.

use core::arch::aarch64::*;

use crate::kernels::bitmap_tiers::bitmap_tier;
use crate::kernels::scalar::bitmap::words;
use crate::kernels::scalar::bitmap::{BitOp, WORDS};


/// 128-bit vectors in a bitmap.
const VECTORS: usize = WORDS / 2;

#[inline]
fn pair<T>(s: &[T], i: usize) -> &[T; 2] {
    s[i..i + 2].try_into().expect("2 elements")
}

#[inline]
#[target_feature(enable = "neon")]
fn load_bytes(q: &[[u8; 8]; 2]) -> uint8x16_t {
    // SAFETY: `q` is 16 readable bytes; `ld1` of bytes needs no alignment.
    unsafe { vld1q_u8(q.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "neon")]
fn load_words(q: &[u64; 2]) -> uint8x16_t {
    // SAFETY: `q` is 16 readable bytes, aligned for `u64`.
    vreinterpretq_u8_u64(unsafe { vld1q_u64(q.as_ptr()) })
}

#[inline]
#[target_feature(enable = "neon")]
fn store_words(q: &mut [u64; 2], v: uint8x16_t) {
    // SAFETY: `q` is 16 writable bytes, aligned for `u64`. The module is
    // compiled for little-endian only, so byte order and word order agree.
    unsafe { vst1q_u64(q.as_mut_ptr(), vreinterpretq_u64_u8(v)) }
}

#[inline]
#[target_feature(enable = "neon")]
fn apply<const OP: u8>(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
    match OP {
        AND => vandq_u8(a, b),
        OR => vorrq_u8(a, b),
        XOR => veorq_u8(a, b),
        _ => vbicq_u8(a, b),
    }
}

/// Number of set bits in the [`VECTORS`] vectors `v(0)`, `v(1)`, … (each
/// asked once, in increasing order). Byte counts of four vectors (at most 32
/// per lane) are added as bytes, then widened pairwise into 16-bit lanes,
/// which hold at most 512 × 16 = 8192.
#[inline]
#[target_feature(enable = "neon")]
fn count(mut v: impl FnMut(usize) -> uint8x16_t) -> u32 {
    let mut acc = vdupq_n_u16(0);
    for k in (0..VECTORS).step_by(4) {
        let c01 = vaddq_u8(vcntq_u8(v(k)), vcntq_u8(v(k + 1)));
        let c23 = vaddq_u8(vcntq_u8(v(k + 2)), vcntq_u8(v(k + 3)));
        acc = vpadalq_u8(acc, vaddq_u8(c01, c23));
    }
    vaddlvq_u16(acc)
}

#[target_feature(enable = "neon")]
fn op_into_neon<const OP: u8>(
    a: &[[u8; 8]; WORDS],
    b: &[[u8; 8]; WORDS],
    out: &mut [u64; WORDS],
) -> u32 {
    count(|k| {
        let i = 2 * k;
        let v = apply::<OP>(load_bytes(pair(a, i)), load_bytes(pair(b, i)));
        store_words((&mut out[i..i + 2]).try_into().expect("2 words"), v);
        v
    })
}

#[target_feature(enable = "neon")]
fn op_count_neon<const OP: u8>(a: &[[u8; 8]; WORDS], b: &[[u8; 8]; WORDS]) -> u32 {
    count(|k| apply::<OP>(load_bytes(pair(a, 2 * k)), load_bytes(pair(b, 2 * k))))
}

#[target_feature(enable = "neon")]
fn intersects_neon(a: &[[u8; 8]; WORDS], b: &[[u8; 8]; WORDS]) -> bool {
    // One horizontal test per 16 words: early exit without a reduction per
    // vector.
    for i in (0..WORDS).step_by(16) {
        let mut acc = vdupq_n_u8(0);
        for k in (i..i + 16).step_by(2) {
            acc = vorrq_u8(
                acc,
                vandq_u8(load_bytes(pair(a, k)), load_bytes(pair(b, k))),
            );
        }
        if vmaxvq_u32(vreinterpretq_u32_u8(acc)) != 0 {
            return true;
        }
    }
    false
}

#[target_feature(enable = "neon")]
fn or_assign_neon(acc: &mut [u64; WORDS], b: &[[u8; 8]; WORDS]) -> u32 {
    count(|k| {
        let i = 2 * k;
        let q: &mut [u64; 2] = (&mut acc[i..i + 2]).try_into().expect("2 words");
        let v = vorrq_u8(load_words(q), load_bytes(pair(b, i)));
        store_words(q, v);
        v
    })
}

#[target_feature(enable = "neon")]
fn popcount_neon(w: &[u64; WORDS]) -> u32 {
    count(|k| load_words(pair(w, 2 * k)))
}

/// Number of maximal runs in the vectors `load(0)`, `load(1)`, … (the
/// bitmap's words in order).
#[inline]
#[target_feature(enable = "neon")]
fn count_runs_with(mut load: impl FnMut(usize) -> uint8x16_t) -> u32 {
    // Run starts: set bits whose lower neighbour is clear. The lower
    // neighbour words of [cur0, cur1] are [prev1, cur0] (`count` asks for the
    // vectors in order, so `prev` is the previous vector).
    let mut prev = vdupq_n_u64(0);
    count(|k| {
        let cur = vreinterpretq_u64_u8(load(k));
        let lower = vextq_u64::<1>(prev, cur);
        let below = vorrq_u64(vshlq_n_u64::<1>(cur), vshrq_n_u64::<63>(lower));
        prev = cur;
        vreinterpretq_u8_u64(vbicq_u64(cur, below))
    })
}

#[target_feature(enable = "neon")]
fn count_runs_neon(w: &[u64; WORDS], _cap: u32) -> u32 {
    count_runs_with(|k| load_words(pair(w, 2 * k)))
}

#[target_feature(enable = "neon")]
fn card_and_runs_neon(b: &[[u8; 8]; WORDS], _cap: u32) -> (u32, u32) {
    // Two passes, as in the AVX2 tier: the second reads the 8 KiB from L1, and
    // every run is counted.
    let card = count(|k| load_bytes(pair(b, 2 * k)));
    (card, count_runs_with(|k| load_bytes(pair(b, 2 * k))))
}

bitmap_tier! {
    features = "neon",
    op_into = op_into_neon,
    op_count = op_count_neon,
    intersects = intersects_neon,
    or_assign = or_assign_neon,
    popcount = popcount_neon,
    count_runs = count_runs_neon,
    card_and_runs = card_and_runs_neon,
}
