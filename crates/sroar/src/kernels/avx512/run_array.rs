#![allow(unsafe_code, reason = "AVX-512 intrinsics and the target_feature functions of this tier")]
//! AVX-512 values of a sorted array inside a run list: each 32-value block of
//! the array is compared against every run that meets it (one compare with
//! the start, one masked compare with the end), so each run costs the same few
//! instructions whether it holds none of the values or all of them. The scalar
//! kernel gallops twice per run instead, and branches at every step.

use core::arch::x86_64::*;

use super::array::{load32, store_packed};
use crate::kernels::scalar::run::{self as scalar, bounds};

const W: usize = 32;

/// Whether the blocks apply: enough values to fill some of a block, at least
/// two runs a block (a few long runs are cheaper to gallop over, and the
/// values between them are copied whole), and not so many more runs than
/// values that stepping over every run would cost more than galloping through
/// them. Measured on the real datasets: without the lower bound census1881
/// `and` was 9% slower; upper bounds of 4 and 16 runs a value were alike, 2
/// was 5-7% slower on the `_srt` sets.
fn applies(runs: &[[u8; 4]], array: &[[u8; 2]]) -> bool {
    array.len() >= scalar::FEW_VALUES && runs.len() <= 16 * array.len() && 16 * runs.len() >= array.len()
}

/// Calls `emit(block, mask)` for each 32-value block of `array`, with the lanes
/// inside some run set in `mask`. The last block's missing lanes are loaded as
/// zeros and never set. Stops when the runs end, and returns where: the values
/// from there on are outside every run.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn blocks(runs: &[[u8; 4]], array: &[[u8; 2]], mut emit: impl FnMut(__m512i, u32, u32)) -> usize {
    let n = array.len();
    let (mut i, mut j) = (0, 0);
    while i < n {
        let end = (i + W).min(n);
        let first = u32::from(u16::from_le_bytes(array[i]));
        let last = u32::from(u16::from_le_bytes(array[end - 1]));
        // Runs that end before the block hold none of its values.
        while j < runs.len() && bounds(runs[j]).1 < first {
            j += 1;
        }
        if j == runs.len() {
            return i;
        }
        let (va, valid) = if end - i == W {
            (load32(array[i..end].try_into().expect("32 values")), u32::MAX)
        } else {
            let tail = &array[i..end];
            let valid = (1u32 << tail.len()) - 1;
            // SAFETY: the mask enables exactly the `tail.len()` lanes that
            // `tail` holds; a masked load reads no other lane.
            (unsafe { _mm512_maskz_loadu_epi16(valid, tail.as_ptr().cast()) }, valid)
        };
        let mut inside = 0u32;
        let mut k = j;
        while let Some(&r) = runs.get(k) {
            let (s, e) = bounds(r);
            if s > last {
                break;
            }
            let from = _mm512_cmpge_epu16_mask(va, _mm512_set1_epi16(s as u16 as i16));
            inside |= _mm512_mask_cmple_epu16_mask(from, va, _mm512_set1_epi16(e as u16 as i16));
            k += 1;
        }
        emit(va, inside & valid, valid);
        // The last run met may reach into the next block.
        j = j.max(k.saturating_sub(1));
        i = end;
    }
    n
}

#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn intersect_avx512(runs: &[[u8; 4]], array: &[[u8; 2]], out: &mut Vec<u16>) {
    // A block's packed store writes 32 lanes, wherever its values end.
    let cap = array.len() + W;
    out.reserve(cap);
    let len = out.len();
    let dst = &mut out.spare_capacity_mut()[..cap];
    let mut pos = 0;
    blocks(runs, array, |va, inside, _| {
        pos += store_packed(dst, pos, va, inside);
    });
    // SAFETY: the first `pos` spare slots were written, and `pos` is at most
    // `array.len()`, which `cap` covers.
    unsafe { out.set_len(len + pos) }
}

#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn count_avx512(runs: &[[u8; 4]], array: &[[u8; 2]]) -> u32 {
    let mut n = 0;
    blocks(runs, array, |_, inside, _| n += inside.count_ones());
    n
}

#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn difference_avx512(array: &[[u8; 2]], runs: &[[u8; 4]], out: &mut Vec<u16>) {
    let cap = array.len() + W;
    out.reserve(cap);
    let len = out.len();
    let dst = &mut out.spare_capacity_mut()[..cap];
    let mut pos = 0;
    let rest = blocks(runs, array, |va, inside, valid| {
        pos += store_packed(dst, pos, va, !inside & valid);
    });
    for (d, v) in dst[pos..].iter_mut().zip(&array[rest..]) {
        d.write(u16::from_le_bytes(*v));
    }
    pos += array.len() - rest;
    // SAFETY: the first `pos` spare slots were written (the blocks' values,
    // then the rest), and `pos` is at most `array.len()`, which `cap` covers.
    unsafe { out.set_len(len + pos) }
}

/// The values of `array` inside some run, appended to `out`.
pub(super) fn intersect(runs: &[[u8; 4]], array: &[[u8; 2]], out: &mut Vec<u16>) {
    if !applies(runs, array) {
        return scalar::array_intersect(runs, array, out);
    }
    // SAFETY: only reachable through the AVX-512 table, which the dispatcher
    // hands out only after detecting every feature enabled above.
    unsafe { intersect_avx512(runs, array, out) }
}

/// How many values of `array` are inside some run.
pub(super) fn count(runs: &[[u8; 4]], array: &[[u8; 2]]) -> u32 {
    if !applies(runs, array) {
        return scalar::array_count(runs, array);
    }
    // SAFETY: as in `intersect`.
    unsafe { count_avx512(runs, array) }
}

/// The values of `array` outside every run, appended to `out`.
pub(super) fn difference(array: &[[u8; 2]], runs: &[[u8; 4]], out: &mut Vec<u16>) {
    if !applies(runs, array) {
        return scalar::array_difference(array, runs, out);
    }
    // SAFETY: as in `intersect`.
    unsafe { difference_avx512(array, runs, out) }
}
