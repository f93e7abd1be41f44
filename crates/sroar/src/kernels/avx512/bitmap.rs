#![allow(unsafe_code, reason = "AVX-512 intrinsics and the target_feature functions of this tier")]
//! AVX-512 bitmap kernels: 512-bit word operations, `vpopcntq` counts, and
//! VBMI2 `vpcompressw` bit extraction.

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use crate::kernels::bitmap_tiers::bitmap_tier;
use crate::kernels::scalar::bitmap::words;
use crate::kernels::scalar::bitmap::{BitOp, CAP_BLOCK, WORDS};


#[inline]
fn oct<T>(s: &[T], i: usize) -> &[T; 8] {
    s[i..i + 8].try_into().expect("8 elements")
}

#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn load_bytes(q: &[[u8; 8]; 8]) -> __m512i {
    // SAFETY: `q` is 64 readable bytes; unaligned load.
    unsafe { _mm512_loadu_si512(q.as_ptr().cast()) }
}

#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn load_words(q: &[u64; 8]) -> __m512i {
    // SAFETY: `q` is 64 readable bytes; unaligned load.
    unsafe { _mm512_loadu_si512(q.as_ptr().cast()) }
}

#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn store_words(q: &mut [u64; 8], v: __m512i) {
    // SAFETY: `q` is 64 writable bytes; unaligned store.
    unsafe { _mm512_storeu_si512(q.as_mut_ptr().cast(), v) }
}

#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn apply<const OP: u8>(a: __m512i, b: __m512i) -> __m512i {
    match OP {
        AND => _mm512_and_si512(a, b),
        OR => _mm512_or_si512(a, b),
        XOR => _mm512_xor_si512(a, b),
        _ => _mm512_andnot_si512(b, a),
    }
}

#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn op_into_avx512<const OP: u8>(
    a: &[[u8; 8]; WORDS],
    b: &[[u8; 8]; WORDS],
    out: &mut [u64; WORDS],
) -> u32 {
    let mut acc = _mm512_setzero_si512();
    for i in (0..WORDS).step_by(8) {
        let v = apply::<OP>(load_bytes(oct(a, i)), load_bytes(oct(b, i)));
        store_words((&mut out[i..i + 8]).try_into().expect("8 words"), v);
        acc = _mm512_add_epi64(acc, _mm512_popcnt_epi64(v));
    }
    _mm512_reduce_add_epi64(acc) as u32
}

#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn op_count_avx512<const OP: u8>(a: &[[u8; 8]; WORDS], b: &[[u8; 8]; WORDS]) -> u32 {
    let mut acc = _mm512_setzero_si512();
    for i in (0..WORDS).step_by(8) {
        let v = apply::<OP>(load_bytes(oct(a, i)), load_bytes(oct(b, i)));
        acc = _mm512_add_epi64(acc, _mm512_popcnt_epi64(v));
    }
    _mm512_reduce_add_epi64(acc) as u32
}

#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn intersects_avx512(a: &[[u8; 8]; WORDS], b: &[[u8; 8]; WORDS]) -> bool {
    for i in (0..WORDS).step_by(32) {
        let mut acc = _mm512_setzero_si512();
        for k in (i..i + 32).step_by(8) {
            let v = _mm512_and_si512(load_bytes(oct(a, k)), load_bytes(oct(b, k)));
            acc = _mm512_or_si512(acc, v);
        }
        if _mm512_test_epi64_mask(acc, acc) != 0 {
            return true;
        }
    }
    false
}

#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn or_assign_avx512(acc: &mut [u64; WORDS], b: &[[u8; 8]; WORDS]) -> u32 {
    let mut card = _mm512_setzero_si512();
    for i in (0..WORDS).step_by(8) {
        let q: &mut [u64; 8] = (&mut acc[i..i + 8]).try_into().expect("8 words");
        let v = _mm512_or_si512(load_words(q), load_bytes(oct(b, i)));
        store_words(q, v);
        card = _mm512_add_epi64(card, _mm512_popcnt_epi64(v));
    }
    _mm512_reduce_add_epi64(card) as u32
}

#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn popcount_avx512(w: &[u64; WORDS]) -> u32 {
    let mut acc = _mm512_setzero_si512();
    for i in (0..WORDS).step_by(8) {
        acc = _mm512_add_epi64(acc, _mm512_popcnt_epi64(load_words(oct(w, i))));
    }
    _mm512_reduce_add_epi64(acc) as u32
}

/// Set bits of `cur` whose lower neighbour is clear (run starts); lane `k` of
/// `lower` is the word below lane `k` of `cur`.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn run_starts(cur: __m512i, lower: __m512i) -> __m512i {
    _mm512_andnot_si512(_mm512_shldi_epi64::<1>(cur, lower), cur)
}

/// The words below those of the 8 words at `i` of a bitmap: a second load one
/// word lower, which takes a load port, where shifting the previous vector in
/// (`valignq`) took the shuffle port the popcounts need (counting result
/// bitmaps is 5% of census-income's and weather_sept_85's unions). The first
/// vector has a zero below it.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn lower_words<T>(b: &[T; WORDS], i: usize, cur: __m512i) -> __m512i {
    const { assert!(size_of::<T>() == 8, "a bitmap word") };
    if i == 0 {
        _mm512_alignr_epi64::<7>(cur, _mm512_setzero_si512())
    } else {
        // SAFETY: `b[i - 1..i + 7]` is 64 readable bytes (`T` is 8 bytes);
        // unaligned load.
        unsafe { _mm512_loadu_si512(oct(b, i - 1).as_ptr().cast()) }
    }
}

#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn count_runs_avx512(w: &[u64; WORDS], cap: u32) -> u32 {
    let mut acc = _mm512_setzero_si512();
    for block in (0..WORDS).step_by(CAP_BLOCK) {
        for i in (block..block + CAP_BLOCK).step_by(8) {
            let cur = load_words(oct(w, i));
            let starts = run_starts(cur, lower_words(w, i, cur));
            acc = _mm512_add_epi64(acc, _mm512_popcnt_epi64(starts));
        }
        let runs = _mm512_reduce_add_epi64(acc) as u32;
        if runs >= cap {
            return runs;
        }
    }
    _mm512_reduce_add_epi64(acc) as u32
}

#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn card_and_runs_avx512(b: &[[u8; 8]; WORDS], cap: u32) -> (u32, u32) {
    let mut card = _mm512_setzero_si512();
    let mut runs = _mm512_setzero_si512();
    let mut nruns = 0;
    let mut i = 0;
    // Most bitmap results have thousands of runs, so the cap comes about a
    // third of the way in; after it only the set bits are counted, a third of
    // the instructions a vector (1% of census-income's and weather_sept_85's
    // unions).
    while i < WORDS {
        for j in (i..i + CAP_BLOCK).step_by(8) {
            let cur = load_bytes(oct(b, j));
            let starts = run_starts(cur, lower_words(b, j, cur));
            card = _mm512_add_epi64(card, _mm512_popcnt_epi64(cur));
            runs = _mm512_add_epi64(runs, _mm512_popcnt_epi64(starts));
        }
        i += CAP_BLOCK;
        nruns = _mm512_reduce_add_epi64(runs) as u32;
        if nruns >= cap {
            break;
        }
    }
    for j in (i..WORDS).step_by(8) {
        card = _mm512_add_epi64(card, _mm512_popcnt_epi64(load_bytes(oct(b, j))));
    }
    (_mm512_reduce_add_epi64(card) as u32, nruns)
}

static IOTA: [u16; 32] = {
    let mut t = [0u16; 32];
    let mut i = 0;
    while i < 32 {
        t[i] = i as u16;
        i += 1;
    }
    t
};

/// Writes the set bits to `dst` (which needs popcount + 32 slots); returns
/// how many.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn to_array_avx512(w: &[u64; WORDS], dst: &mut [MaybeUninit<u16>]) -> usize {
    // SAFETY: `IOTA` is 64 readable bytes; unaligned load.
    let iota = unsafe { _mm512_loadu_si512(IOTA.as_ptr().cast()) };
    let step = _mm512_set1_epi16(32);
    let group_step = _mm512_set1_epi16(512);
    let mut values = iota; // 32 * k + lane, for 32-bit chunk k
    let mut pos = 0usize;
    // Eight words at a time: an empty group is skipped with one (predictable)
    // test; in a non-empty one every half-word is compressed without a branch,
    // since a branch per half-word mispredicts on mixed sparse data.
    for g in (0..WORDS).step_by(8) {
        let q = oct(w, g);
        let v = load_words(q);
        if _mm512_test_epi64_mask(v, v) == 0 {
            values = _mm512_add_epi16(values, group_step);
            continue;
        }
        for &x in q {
            for half in [x as u32, (x >> 32) as u32] {
                let packed = _mm512_maskz_compress_epi16(half, values);
                let c: &mut [MaybeUninit<u16>; 32] =
                    (&mut dst[pos..pos + 32]).try_into().expect("32 slots");
                // SAFETY: `c` is 64 writable bytes; unaligned store.
                unsafe { _mm512_storeu_si512(c.as_mut_ptr().cast(), packed) };
                pos += half.count_ones() as usize;
                values = _mm512_add_epi16(values, step);
            }
        }
    }
    pos
}

bitmap_tier! {
    features = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt",
    op_into = op_into_avx512,
    op_count = op_count_avx512,
    intersects = intersects_avx512,
    or_assign = or_assign_avx512,
    popcount = popcount_avx512,
    count_runs = count_runs_avx512,
    card_and_runs = card_and_runs_avx512,
}

/// Bitmaps with fewer set bits are extracted bit by bit.
const SPARSE_BITS: usize = 1024;

/// The scalar extraction, built with this tier's POPCNT and BMI1.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn to_array_sparse(w: &[u64; WORDS], bits: usize, out: &mut Vec<u16>) {
    use crate::kernels::scalar::bitmap::{to_array_counted_inline, FIRST_BITS};
    to_array_counted_inline::<FIRST_BITS>(w, bits, out)
}

/// Appends the set bits to `out`.
pub(super) fn to_array(w: &[u64; WORDS], out: &mut Vec<u16>) {
    let bits = popcount(w) as usize;
    // Below about 8 bits per 512-bit group a compress per half-word costs more
    // than a `tzcnt` per bit.
    if bits < SPARSE_BITS {
        // SAFETY: AVX-512 features detected (see `op_into`).
        return unsafe { to_array_sparse(w, bits, out) };
    }
    let cap = bits + 32;
    out.reserve(cap);
    let len = out.len();
    // SAFETY: AVX-512 features detected (see `op_into`).
    let n = unsafe { to_array_avx512(w, &mut out.spare_capacity_mut()[..cap]) };
    // SAFETY: `to_array_avx512` wrote the first `n` spare slots (a contiguous
    // prefix), and `n <= cap <= capacity - len`.
    unsafe { out.set_len(len + n) }
}
