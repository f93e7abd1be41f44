#![allow(unsafe_code, reason = "AVX2 intrinsics and the target_feature functions of this tier")]
//! AVX2 bitmap kernels: 256-bit word operations, Harley–Seal carry-save
//! adders with Mula's nibble-lookup (`vpshufb`) popcount, and table-driven
//! bit extraction.

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use crate::kernels::bitmap_tiers::bitmap_tier;
use crate::kernels::scalar::bitmap::words;
use crate::kernels::scalar::bitmap::{BitOp, CAP_BLOCK, WORDS};


#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn load_bytes(q: &[[u8; 8]; 4]) -> __m256i {
    // SAFETY: `q` is 32 readable bytes; unaligned load.
    unsafe { _mm256_loadu_si256(q.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn load_words(q: &[u64; 4]) -> __m256i {
    // SAFETY: `q` is 32 readable bytes; unaligned load.
    unsafe { _mm256_loadu_si256(q.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn store_words(q: &mut [u64; 4], v: __m256i) {
    // SAFETY: `q` is 32 writable bytes; unaligned store.
    unsafe { _mm256_storeu_si256(q.as_mut_ptr().cast(), v) }
}

#[inline]
fn quad<T>(s: &[T], i: usize) -> &[T; 4] {
    s[i..i + 4].try_into().expect("4 elements")
}

#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn apply<const OP: u8>(a: __m256i, b: __m256i) -> __m256i {
    match OP {
        AND => _mm256_and_si256(a, b),
        OR => _mm256_or_si256(a, b),
        XOR => _mm256_xor_si256(a, b),
        _ => _mm256_andnot_si256(b, a),
    }
}

/// Per-64-bit-lane popcount (Mula): byte counts by nibble lookup, summed per
/// lane with `vpsadbw`.
#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn popcnt_lanes(v: __m256i) -> __m256i {
    let lookup = _mm256_setr_epi8(
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3,
        3, 4,
    );
    let low = _mm256_set1_epi8(0x0f);
    let lo = _mm256_and_si256(v, low);
    let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(v), low);
    let bytes = _mm256_add_epi8(
        _mm256_shuffle_epi8(lookup, lo),
        _mm256_shuffle_epi8(lookup, hi),
    );
    _mm256_sad_epu8(bytes, _mm256_setzero_si256())
}

#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn hsum(v: __m256i) -> u32 {
    let s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    (_mm_cvtsi128_si64(s) + _mm_extract_epi64::<1>(s)) as u32
}

/// Carry-save adder: `(carry, sum)` of three bit vectors.
#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn csa(a: __m256i, b: __m256i, c: __m256i) -> (__m256i, __m256i) {
    let u = _mm256_xor_si256(a, b);
    let carry = _mm256_or_si256(_mm256_and_si256(a, b), _mm256_and_si256(u, c));
    (carry, _mm256_xor_si256(u, c))
}

/// Number of set bits in the [`VECTORS`] vectors `v(0)`, `v(1)`, … (each
/// index asked once, in increasing order): Harley–Seal carry-save adders over 16 vectors at a
/// time, so that only one vector in 16 goes through the Mula popcount.
#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn harley_seal(v: impl FnMut(usize) -> __m256i) -> u32 {
    harley_seal_in(0..VECTORS, v)
}

/// [`harley_seal`] of the vectors `v(k)` for `k` in `range` (a multiple of 16
/// long).
#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn harley_seal_in(range: core::ops::Range<usize>, mut v: impl FnMut(usize) -> __m256i) -> u32 {
    let z = _mm256_setzero_si256();
    let (mut ones, mut twos, mut fours, mut eights) = (z, z, z, z);
    let mut total = z;
    for i in range.step_by(16) {
        let mut eights_pair = [z; 2];
        for (half, e) in eights_pair.iter_mut().enumerate() {
            let k = i + 8 * half;
            let (twos_a, o) = csa(ones, v(k), v(k + 1));
            let (twos_b, o) = csa(o, v(k + 2), v(k + 3));
            let (fours_a, t) = csa(twos, twos_a, twos_b);
            let (twos_a, o) = csa(o, v(k + 4), v(k + 5));
            let (twos_b, o) = csa(o, v(k + 6), v(k + 7));
            let (fours_b, t) = csa(t, twos_a, twos_b);
            let (eights_x, f) = csa(fours, fours_a, fours_b);
            ones = o;
            twos = t;
            fours = f;
            *e = eights_x;
        }
        let (sixteens, e) = csa(eights, eights_pair[0], eights_pair[1]);
        eights = e;
        total = _mm256_add_epi64(total, popcnt_lanes(sixteens));
    }
    total = _mm256_slli_epi64::<4>(total);
    total = _mm256_add_epi64(total, _mm256_slli_epi64::<3>(popcnt_lanes(eights)));
    total = _mm256_add_epi64(total, _mm256_slli_epi64::<2>(popcnt_lanes(fours)));
    total = _mm256_add_epi64(total, _mm256_slli_epi64::<1>(popcnt_lanes(twos)));
    total = _mm256_add_epi64(total, popcnt_lanes(ones));
    hsum(total)
}

/// 256-bit vectors in a bitmap.
const VECTORS: usize = WORDS / 4;

#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn op_into_avx2<const OP: u8>(
    a: &[[u8; 8]; WORDS],
    b: &[[u8; 8]; WORDS],
    out: &mut [u64; WORDS],
) -> u32 {
    harley_seal(|k| {
        let i = 4 * k;
        let v = apply::<OP>(load_bytes(quad(a, i)), load_bytes(quad(b, i)));
        store_words((&mut out[i..i + 4]).try_into().expect("4 words"), v);
        v
    })
}

#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn op_count_avx2<const OP: u8>(a: &[[u8; 8]; WORDS], b: &[[u8; 8]; WORDS]) -> u32 {
    harley_seal(|k| apply::<OP>(load_bytes(quad(a, 4 * k)), load_bytes(quad(b, 4 * k))))
}

#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn intersects_avx2(a: &[[u8; 8]; WORDS], b: &[[u8; 8]; WORDS]) -> bool {
    for i in (0..WORDS).step_by(16) {
        let mut acc = _mm256_setzero_si256();
        for k in (i..i + 16).step_by(4) {
            let v = _mm256_and_si256(load_bytes(quad(a, k)), load_bytes(quad(b, k)));
            acc = _mm256_or_si256(acc, v);
        }
        if _mm256_testz_si256(acc, acc) == 0 {
            return true;
        }
    }
    false
}

#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn or_assign_avx2(acc: &mut [u64; WORDS], b: &[[u8; 8]; WORDS]) -> u32 {
    harley_seal(|k| {
        let i = 4 * k;
        let q: &mut [u64; 4] = (&mut acc[i..i + 4]).try_into().expect("4 words");
        let v = _mm256_or_si256(load_words(q), load_bytes(quad(b, i)));
        store_words(q, v);
        v
    })
}

#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn popcount_avx2(w: &[u64; WORDS]) -> u32 {
    harley_seal(|k| load_words(quad(w, 4 * k)))
}

/// Number of maximal runs of the bitmap `b`, whose vectors `load` reads.
#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn count_runs_of<T>(b: &[T; WORDS], cap: u32, load: impl Fn(&[T; 4]) -> __m256i) -> u32 {
    // Run starts: set bits whose lower neighbour is clear. The lower
    // neighbours of a vector's words come from a second load one word lower,
    // where shifting the previous vector in took a cross-lane and an in-lane
    // shuffle (2% of census-income's and weather_sept_85's unions on this
    // tier); the first vector has a zero below it.
    let starts = |k| {
        let cur = load(quad(b, 4 * k));
        let lower = if k == 0 {
            let mid = _mm256_permute2x128_si256::<0x21>(_mm256_setzero_si256(), cur);
            _mm256_alignr_epi8::<8>(cur, mid)
        } else {
            load(quad(b, 4 * k - 1))
        };
        let below = _mm256_or_si256(_mm256_slli_epi64::<1>(cur), _mm256_srli_epi64::<63>(lower));
        _mm256_andnot_si256(below, cur)
    };
    // A Harley–Seal count per block of `CAP_BLOCK` words, to stop at the cap:
    // most bitmap results reach it a third of the way in (census-income's and
    // weather_sept_85's `or` and `xor` 6-9% faster on this tier, validating
    // them 22-35%).
    let block = CAP_BLOCK / 4;
    let mut runs = 0;
    for first in (0..VECTORS).step_by(block) {
        runs += harley_seal_in(first..first + block, starts);
        if runs >= cap {
            break;
        }
    }
    runs
}

#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn count_runs_avx2(w: &[u64; WORDS], cap: u32) -> u32 {
    count_runs_of(w, cap, |q| load_words(q))
}

#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn card_and_runs_avx2(b: &[[u8; 8]; WORDS], cap: u32) -> (u32, u32) {
    // Two passes: the second reads the 8 KiB from L1, and one Harley–Seal
    // state per count keeps the code shared with `popcount`/`count_runs`.
    let card = harley_seal(|k| load_bytes(quad(b, 4 * k)));
    (card, count_runs_of(b, cap, |q| load_bytes(q)))
}

bitmap_tier! {
    features = "avx2,popcnt,bmi1,bmi2,lzcnt",
    op_into = op_into_avx2,
    op_count = op_count_avx2,
    intersects = intersects_avx2,
    or_assign = or_assign_avx2,
    popcount = popcount_avx2,
    count_runs = count_runs_avx2,
    card_and_runs = card_and_runs_avx2,
}

/// Words with at most this many bits are extracted bit by bit.
const SPARSE_WORD: u32 = 10;

/// `DECODE[b]`: the positions of the set bits of byte `b`, then zeros.
static DECODE: [[u16; 8]; 256] = {
    let mut t = [[0u16; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if b & (1 << bit) != 0 {
                t[b][k] = bit as u16;
                k += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

/// Writes the set bits to `dst` (which needs popcount + 8 slots) one byte
/// at a time: the byte's bit positions come from [`DECODE`], plus the byte's
/// base value; returns how many.
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn to_array_avx2(w: &[u64; WORDS], dst: &mut [MaybeUninit<u16>]) -> usize {
    let eight = _mm_set1_epi16(8);
    let mut pos = 0usize;
    for (i, &x) in w.iter().enumerate() {
        if x == 0 {
            continue;
        }
        if x.count_ones() <= SPARSE_WORD {
            // Few bits: one `tzcnt` + `blsr` per bit beats eight table steps.
            let mut x = x;
            while x != 0 {
                dst[pos].write(((i as u32) << 6 | x.trailing_zeros()) as u16);
                pos += 1;
                x &= x - 1;
            }
            continue;
        }
        let mut base = _mm_set1_epi16((i << 6) as i16);
        for byte in x.to_le_bytes() {
            let d: &[u16; 8] = &DECODE[byte as usize];
            // SAFETY: `d` is 16 readable bytes; unaligned load.
            let bits = unsafe { _mm_loadu_si128(d.as_ptr().cast()) };
            let v = _mm_add_epi16(bits, base);
            let c: &mut [MaybeUninit<u16>; 8] =
                (&mut dst[pos..pos + 8]).try_into().expect("8 slots");
            // SAFETY: `c` is 16 writable bytes (`MaybeUninit` may be
            // overwritten); unaligned store.
            unsafe { _mm_storeu_si128(c.as_mut_ptr().cast(), v) };
            pos += byte.count_ones() as usize;
            base = _mm_add_epi16(base, eight);
        }
    }
    pos
}

/// Bitmaps with at most this many set bits (an array's worth: every bitmap
/// that becomes an array, and every edge bitmap of a run result) are
/// extracted by the scalar kernel, four `tzcnt` a word without a branch: the
/// table steps and per-word branches below cost more there (in-process A/B on
/// a Xeon, AVX2 tier: wikileaks-noquotes `or_many` 1.11x, census1881_srt
/// `or_many` 1.32x, census-income `and` 1.10x, no operation slower).
const SPARSE_BITS: usize = 4096;

/// Above this many set bits (two a word on average), most non-empty words hold
/// more than four, and the scalar kernel's loop for the rest mispredicts: the
/// edges of wikileaks-noquotes' unions have 4 to 8 bits in half their words.
const BUSY_BITS: usize = 2048;

/// Values written without looking for every word of a bitmap of more than
/// [`BUSY_BITS`] bits: 7 ends the loop on 95% of the words of wikileaks-noquotes'
/// union edges, where 4 left 28% looping and 8 cost a write too many
/// (in-process A/B on a Xeon, AVX2 tier, wikileaks-noquotes `or_many`: 8 over 4
/// 1.13x, 6 over 8 1.06x, 7 over 6 1.02x, 5 over 6 0.88x).
const BUSY_FIRST: usize = 7;

/// The scalar extraction, built with this tier's POPCNT and BMI1.
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn to_array_sparse(w: &[u64; WORDS], bits: usize, out: &mut Vec<u16>) {
    use crate::kernels::scalar::bitmap::{to_array_counted_inline, FIRST_BITS};
    if bits > BUSY_BITS {
        to_array_counted_inline::<BUSY_FIRST>(w, bits, out)
    } else {
        to_array_counted_inline::<FIRST_BITS>(w, bits, out)
    }
}

/// Appends the set bits to `out`.
pub(super) fn to_array(w: &[u64; WORDS], out: &mut Vec<u16>) {
    let bits = popcount(w) as usize;
    if bits <= SPARSE_BITS {
        // SAFETY: AVX2 features detected (see `op_into`).
        return unsafe { to_array_sparse(w, bits, out) };
    }
    let cap = bits + 8;
    out.reserve(cap);
    let len = out.len();
    // SAFETY: AVX2 features detected (see `op_into`).
    let n = unsafe { to_array_avx2(w, &mut out.spare_capacity_mut()[..cap]) };
    // SAFETY: `to_array_avx2` wrote the first `n` spare slots (a contiguous
    // prefix), and `n <= cap <= capacity - len`.
    unsafe { out.set_len(len + n) }
}
