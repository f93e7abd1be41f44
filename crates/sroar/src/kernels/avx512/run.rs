#![allow(unsafe_code)]
//! AVX-512 check of a stored run list: sixteen runs per step, each compared
//! with the run before it through a second load one run back.

use core::arch::x86_64::*;

use crate::kernels::run::bounds;

const W: usize = 16;

/// Masked load of the `runs.len() <= 16` runs as `u32` lanes (`start` in the
/// low half, `len - 1` in the high half); the other lanes are zero.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn load(runs: &[[u8; 4]]) -> __m512i {
    let lanes = (u32::from(u16::MAX) >> (W - runs.len())) as __mmask16;
    // SAFETY: the mask enables exactly the `runs.len()` lanes of `runs`, which
    // are readable; masked-off lanes are not accessed.
    unsafe { _mm512_maskz_loadu_epi32(lanes, runs.as_ptr().cast()) }
}

#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn checked_card_avx512(runs: &[[u8; 4]]) -> Option<u32> {
    let Some(&first) = runs.first() else {
        return Some(0);
    };
    let (s0, e0) = bounds(first);
    if e0 > 65535 {
        return None;
    }
    let low = _mm512_set1_epi32(0xFFFF);
    let one = _mm512_set1_epi32(1);
    let last_value = _mm512_set1_epi32(65535);
    let mut lens = _mm512_setzero_si512();
    // Lane `i` of step `j` holds the pair (runs[j + i - 1], runs[j + i]).
    let mut j = 1;
    while j < runs.len() {
        let k = (runs.len() - j).min(W);
        let lanes = (u32::from(u16::MAX) >> (W - k)) as __mmask16;
        let cur = load(&runs[j..j + k]);
        let prev = load(&runs[j - 1..j - 1 + k]);
        let start = _mm512_and_si512(cur, low);
        let len = _mm512_srli_epi32::<16>(cur);
        let end = _mm512_add_epi32(start, len);
        let prev_end = _mm512_add_epi32(_mm512_and_si512(prev, low), _mm512_srli_epi32::<16>(prev));
        // A start must be at least 2 past the previous end; lengths and ends
        // are below 2^17, so the sums cannot wrap.
        let touching = _mm512_mask_cmple_epu32_mask(lanes, start, _mm512_add_epi32(prev_end, one));
        let past_end = _mm512_mask_cmpgt_epu32_mask(lanes, end, last_value);
        if touching | past_end != 0 {
            return None;
        }
        // Valid runs hold at most 65536 values in all: the lane sums cannot wrap.
        lens = _mm512_mask_add_epi32(lens, lanes, lens, _mm512_add_epi32(len, one));
        j += W;
    }
    Some(e0 - s0 + 1 + _mm512_reduce_add_epi32(lens) as u32)
}

/// `run::checked_card`.
pub(super) fn checked_card(runs: &[[u8; 4]]) -> Option<u32> {
    // SAFETY: only reachable through the AVX-512 table, which the dispatcher
    // hands out only after detecting the enabled features.
    unsafe { checked_card_avx512(runs) }
}
