#![allow(unsafe_code, reason = "AVX2 intrinsics and the target_feature functions of this tier")]
//! AVX2 check of a stored run list: eight runs per step, each compared with the
//! run before it through a second load one run back; the last few runs go
//! through the scalar loop.

use core::arch::x86_64::*;

use crate::kernels::scalar::run::bounds;

const W: usize = 8;

#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn load(runs: &[[u8; 4]]) -> __m256i {
    let c: &[[u8; 4]; W] = runs.try_into().expect("8 runs");
    // SAFETY: `c` is 32 readable bytes; unaligned load.
    unsafe { _mm256_loadu_si256(c.as_ptr().cast()) }
}

#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn checked_card_avx2(runs: &[[u8; 4]]) -> Option<u32> {
    if runs.len() <= W {
        // No whole step: the scalar loop, without the vector set-up.
        return crate::kernels::scalar::run::checked_card(runs);
    }
    let first = runs[0];
    let (s0, e0) = bounds(first);
    if e0 > 65535 {
        return None;
    }
    let low = _mm256_set1_epi32(0xFFFF);
    let one = _mm256_set1_epi32(1);
    let last_value = _mm256_set1_epi32(65535);
    let mut lens = _mm256_setzero_si256();
    let mut bad = _mm256_setzero_si256();
    // Lane `i` of step `j` holds the pair (runs[j + i - 1], runs[j + i]).
    // Every value is below 2^17, so the signed compares are exact.
    let mut j = 1;
    while j + W <= runs.len() {
        let cur = load(&runs[j..j + W]);
        let prev = load(&runs[j - 1..j - 1 + W]);
        let start = _mm256_and_si256(cur, low);
        let len = _mm256_srli_epi32::<16>(cur);
        let end = _mm256_add_epi32(start, len);
        let prev_end = _mm256_add_epi32(_mm256_and_si256(prev, low), _mm256_srli_epi32::<16>(prev));
        // Not separated: start <= prev_end + 1, i.e. prev_end + 2 > start.
        let touching = _mm256_cmpgt_epi32(_mm256_add_epi32(prev_end, _mm256_set1_epi32(2)), start);
        let past_end = _mm256_cmpgt_epi32(end, last_value);
        bad = _mm256_or_si256(bad, _mm256_or_si256(touching, past_end));
        lens = _mm256_add_epi32(lens, _mm256_add_epi32(len, one));
        j += W;
    }
    if _mm256_testz_si256(bad, bad) == 0 {
        return None;
    }
    // The last runs, with the run before them: the scalar check of that tail.
    let tail = crate::kernels::scalar::run::checked_card(&runs[j - 1..])?;
    let (sp, ep) = bounds(runs[j - 1]);
    let mut sums = [0u32; W];
    // SAFETY: `sums` is 32 writable bytes; unaligned store.
    unsafe { _mm256_storeu_si256(sums.as_mut_ptr().cast(), lens) };
    // Valid runs hold at most 65536 values in all: no sum wraps.
    let body: u32 = sums.iter().sum();
    Some(e0 - s0 + 1 + body + tail - (ep - sp + 1))
}

/// `run::checked_card`.
pub(super) fn checked_card(runs: &[[u8; 4]]) -> Option<u32> {
    // SAFETY: only reachable through the AVX2 table, which the dispatcher hands
    // out only after detecting the enabled features.
    unsafe { checked_card_avx2(runs) }
}
