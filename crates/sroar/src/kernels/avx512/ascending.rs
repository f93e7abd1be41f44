#![allow(unsafe_code, reason = "AVX-512 intrinsics and the target_feature functions of this tier")]
//! AVX-512 check that a `u16` array is strictly increasing, counting its
//! runs of consecutive values: the AVX2 method (saturated gaps against a
//! load one value back, an overlapping last vector) on 32 lanes, with the
//! gap-1 lanes counted through a compare mask. Arrays of at most 32 values,
//! the common case in sparse data, take one masked load and a lane shift.

use core::arch::x86_64::*;

const W: usize = 32;

#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn load32(a: &[[u8; 2]], i: usize) -> __m512i {
    let c: &[[u8; 2]; W] = a[i..i + W].try_into().expect("32 values");
    // SAFETY: `c` is 64 readable bytes; unaligned load.
    unsafe { _mm512_loadu_si512(c.as_ptr().cast()) }
}

/// Saturated gaps `a[j] - a[j - 1]` of the 32 pairs ending at
/// `a[j..j + 32]` (`j >= 1`): 0 where the array does not increase.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn gaps32(a: &[[u8; 2]], j: usize) -> __m512i {
    _mm512_subs_epu16(load32(a, j), load32(a, j - 1))
}

/// Lane `i` takes lane `i - 1` (lane 0 keeps its own value; it is masked).
static PREV: [u16; W] = {
    let mut t = [0u16; W];
    let mut i = 1;
    while i < W {
        t[i] = i as u16 - 1;
        i += 1;
    }
    t
};

/// `a.len() <= 32`.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn ascending_runs_short(a: &[[u8; 2]]) -> Option<u32> {
    let n = a.len();
    let values = (u64::from(u32::MAX) >> (W - n)) as u32;
    // SAFETY: the mask enables exactly the `n` lanes of `a`, which are
    // readable; masked-off lanes are not accessed.
    let cur = unsafe { _mm512_maskz_loadu_epi16(values, a.as_ptr().cast()) };
    // SAFETY: `PREV` is 64 readable bytes; unaligned load.
    let idx = unsafe { _mm512_loadu_si512(PREV.as_ptr().cast()) };
    let gaps = _mm512_subs_epu16(cur, _mm512_permutexvar_epi16(idx, cur));
    // Lane `i` holds the pair `(a[i - 1], a[i])`.
    let pairs = values & !1;
    if _mm512_mask_cmpeq_epi16_mask(pairs, gaps, _mm512_setzero_si512()) != 0 {
        return None;
    }
    let steps = _mm512_mask_cmpeq_epi16_mask(pairs, gaps, _mm512_set1_epi16(1));
    Some(n as u32 - steps.count_ones())
}

/// `a.len() > 32`.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn ascending_runs_avx512(a: &[[u8; 2]]) -> Option<u32> {
    let n = a.len();
    let one = _mm512_set1_epi16(1);
    let mut least = _mm512_set1_epi16(-1);
    // Per lane, the gaps equal to 1. A strictly increasing array has at most
    // 65536 values, so no lane passes 2048; a longer array may wrap the
    // counts, but `least` then holds a zero gap and the answer is `None`.
    let mut steps = _mm512_setzero_si512();
    let mut j = 1;
    while j + W <= n {
        let g = gaps32(a, j);
        least = _mm512_min_epu16(least, g);
        steps = _mm512_mask_add_epi16(steps, _mm512_cmpeq_epi16_mask(g, one), steps, one);
        j += W;
    }
    // The last vector overlaps the loop's: only its top `n - j` lanes are new.
    let g = gaps32(a, n - W);
    least = _mm512_min_epu16(least, g);
    let fresh = (u64::from(u32::MAX) << (W - (n - j))) as u32;
    let last = _mm512_cmpeq_epi16_mask(g, one) & fresh;
    steps = _mm512_mask_add_epi16(steps, last, steps, one);
    if _mm512_cmpeq_epi16_mask(least, _mm512_setzero_si512()) != 0 {
        return None;
    }
    let steps = _mm512_reduce_add_epi32(_mm512_madd_epi16(steps, one)) as u32;
    // Runs = values - pairs that continue a run (n <= 65536 here).
    Some(n as u32 - steps)
}

/// `Some(runs)` when `a` is strictly increasing, else `None`.
pub(super) fn ascending_runs(a: &[[u8; 2]]) -> Option<u32> {
    if a.len() <= W {
        // SAFETY: only reachable through the AVX-512 table, which the
        // dispatcher hands out only after detecting every feature enabled
        // above.
        return unsafe { ascending_runs_short(a) };
    }
    // SAFETY: AVX-512 features detected (see above).
    unsafe { ascending_runs_avx512(a) }
}

/// The runs of `a`, 16 values a step, in two passes over `dst`. The first
/// compresses each run's start into a 32-bit lane as `start | index << 16`
/// (the start lanes are the values that do not follow their neighbour by one);
/// the second turns the index into the length less one, which is the next
/// run's index less this one's less one (runs of strictly increasing values
/// are consecutive), with `a.len()` after the last. Lengths wrap to 16 bits,
/// as the index of a 65,536-value run's end does.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn runs_into_avx512(a: &[[u8; 2]], dst: &mut [[u8; 4]]) -> usize {
    let n = a.len();
    // Lane `i` takes lane `i - 1`; lane 0 takes its own value, which it does
    // not follow by one, so the first value starts a run.
    let prev_lane = _mm256_setr_epi16(0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14);
    let iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    let one = _mm256_set1_epi16(1);
    let mut k = 0;
    for i in (0..n).step_by(16) {
        let valid = (u32::MAX >> (32 - (n - i).min(16))) as u16;
        let at = |j: usize| a[j..].as_ptr().cast::<i16>();
        // SAFETY: the mask enables the lanes of `a[j..j + 16]` that exist.
        let load = |j| unsafe { _mm256_maskz_loadu_epi16(valid, at(j)) };
        let cur = load(i);
        let prev = if i == 0 {
            _mm256_permutexvar_epi16(prev_lane, cur)
        } else {
            load(i - 1)
        };
        let starts = _mm256_mask_cmpneq_epi16_mask(valid, cur, _mm256_add_epi16(prev, one));
        let index = _mm512_slli_epi32::<16>(_mm512_add_epi32(iota, _mm512_set1_epi32(i as i32)));
        let packed = _mm512_or_si512(_mm512_cvtepu16_epi32(cur), index);
        let runs = _mm512_maskz_compress_epi32(starts, packed);
        let c: &mut [[u8; 4]; 16] = (&mut dst[k..k + 16]).try_into().expect("16 slots");
        // SAFETY: `c` is 64 writable bytes; unaligned store.
        unsafe { _mm512_storeu_si512(c.as_mut_ptr().cast(), runs) };
        k += starts.count_ones() as usize;
    }
    dst[k] = ((n as u32) << 16).to_le_bytes();
    let low = _mm512_set1_epi32(0xFFFF);
    let one = _mm512_set1_epi32(1);
    for r in (0..k).step_by(16) {
        let next: &[[u8; 4]; 16] = dst[r + 1..r + 17].try_into().expect("16 slots");
        // SAFETY: `next` is 64 readable bytes; unaligned load.
        let next = unsafe { _mm512_loadu_si512(next.as_ptr().cast()) };
        let c: &mut [[u8; 4]; 16] = (&mut dst[r..r + 16]).try_into().expect("16 slots");
        // SAFETY: `c` is 64 readable bytes; unaligned load.
        let cur = unsafe { _mm512_loadu_si512(c.as_ptr().cast()) };
        let len = _mm512_sub_epi32(
            _mm512_sub_epi32(_mm512_srli_epi32::<16>(next), _mm512_srli_epi32::<16>(cur)),
            one,
        );
        let runs = _mm512_or_si512(_mm512_and_si512(cur, low), _mm512_slli_epi32::<16>(len));
        // SAFETY: `c` is 64 writable bytes; unaligned store.
        unsafe { _mm512_storeu_si512(c.as_mut_ptr().cast(), runs) };
    }
    k
}

/// Writes the maximal runs of the strictly increasing, non-empty `a` to `dst`
/// (room for them and 16 more); returns how many.
pub(super) fn runs_into(a: &[[u8; 2]], dst: &mut [[u8; 4]]) -> usize {
    // SAFETY: AVX-512 features detected (see `ascending_runs`).
    unsafe { runs_into_avx512(a, dst) }
}
