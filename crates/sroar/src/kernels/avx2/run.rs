#![allow(unsafe_code, reason = "AVX2 intrinsics and the target_feature functions of this tier")]
//! AVX2 run-list kernels: the check of a stored run list (eight runs per step,
//! each compared with the run before it through a second load one run back;
//! the last few runs go through the scalar loop), and an array's values inside
//! or outside the runs, 16 values a block ([`array_blocks`]).

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

/// Values of a sorted array inside a run list, 16 values a block: each block is
/// compared against every run that meets it (`max` and `min` against the run's
/// bounds), so a run costs the same few instructions whether it holds none of
/// the values or all of them, and nothing branches on the data but the walk
/// to the next run. The scalar kernel gallops twice per run instead. The
/// AVX-512 tier does the same on 32-value blocks (`avx512/run_array.rs`).
mod array_blocks {
    use core::arch::x86_64::*;
    use core::mem::MaybeUninit;

    use crate::kernels::array_blocks::append_with;
    use crate::kernels::avx2::compact::store_kept;
    use crate::kernels::scalar::run::{self as scalar, bounds};

    const W: usize = 16;

    /// Whether the blocks apply: the AVX-512 tier's rule (enough values, at
    /// least one run per 16 values, at most 16 runs a value).
    fn applies(runs: &[[u8; 4]], array: &[[u8; 2]]) -> bool {
        array.len() >= scalar::FEW_VALUES
            && runs.len() <= 16 * array.len()
            && 16 * runs.len() >= array.len()
    }

    fn get(s: &[[u8; 2]], i: usize) -> u32 {
        u32::from(u16::from_le_bytes(s[i]))
    }

    /// Calls `emit(block, mask)` for each whole 16-value block of `array`, with
    /// the lanes inside some run set in `mask`. Returns where it stopped, `(i,
    /// j)`: the values from `array[i]` on are left, and no run before `runs[j]`
    /// holds any of them.
    #[inline]
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    fn blocks(
        runs: &[[u8; 4]],
        array: &[[u8; 2]],
        mut emit: impl FnMut(__m256i, u32),
    ) -> (usize, usize) {
        let (mut i, mut j) = (0, 0);
        while i + W <= array.len() {
            let (first, last) = (get(array, i), get(array, i + W - 1));
            // Runs that end before the block hold none of its values.
            while j < runs.len() && bounds(runs[j]).1 < first {
                j += 1;
            }
            if j == runs.len() {
                break;
            }
            let c: &[[u8; 2]; W] = array[i..i + W].try_into().expect("16 values");
            // SAFETY: `c` is 32 readable bytes; unaligned load.
            let va = unsafe { _mm256_loadu_si256(c.as_ptr().cast()) };
            let mut inside = _mm256_setzero_si256();
            let mut k = j;
            while let Some(&r) = runs.get(k) {
                let (s, e) = bounds(r);
                if s > last {
                    break;
                }
                let s = _mm256_set1_epi16(s as u16 as i16);
                let e = _mm256_set1_epi16(e as u16 as i16);
                let from = _mm256_cmpeq_epi16(_mm256_max_epu16(va, s), va);
                let to = _mm256_cmpeq_epi16(_mm256_min_epu16(va, e), va);
                inside = _mm256_or_si256(inside, _mm256_and_si256(from, to));
                k += 1;
            }
            // Packing leaves lanes 0-7 in bits 0-7 and lanes 8-15 in bits 16-23.
            let m = _mm256_movemask_epi8(_mm256_packs_epi16(inside, inside)) as u32;
            emit(va, (m & 0xff) | (m >> 8 & 0xff00));
            // The last run met may reach into the next block.
            j = j.max(k.saturating_sub(1));
            i += W;
        }
        (i, j)
    }

    /// Stores the lanes of `va` in `mask` at `dst[pos..]`, in order, one half
    /// at a time; returns how many.
    #[inline]
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    fn store_packed(dst: &mut [MaybeUninit<u16>], pos: usize, va: __m256i, mask: u32) -> usize {
        let halves = [_mm256_castsi256_si128(va), _mm256_extracti128_si256::<1>(va)];
        let low = store_kept(dst, pos, halves[0], mask);
        low + store_kept(dst, pos + low, halves[1], mask >> 8)
    }

    /// The blocks' values that `keep(mask)` selects, appended to `out`; returns
    /// where the blocks stopped (see [`blocks`]).
    fn append_filtered(
        runs: &[[u8; 4]],
        array: &[[u8; 2]],
        out: &mut Vec<u16>,
        keep: impl Fn(u32) -> u32,
    ) -> (usize, usize) {
        #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
        fn filter(
            runs: &[[u8; 4]],
            array: &[[u8; 2]],
            dst: &mut [MaybeUninit<u16>],
            keep: impl Fn(u32) -> u32,
        ) -> (usize, (usize, usize)) {
            let mut pos = 0;
            let stop = blocks(runs, array, |va, inside| {
                pos += store_packed(dst, pos, va, keep(inside));
            });
            (pos, stop)
        }
        let mut stop = (0, 0);
        // SAFETY: only reachable through the AVX2 table, which the dispatcher
        // hands out only after detecting the enabled features; `filter` writes
        // a contiguous prefix of its room (`array.len() + 8`: each half-block
        // store writes 8 lanes past its values) and returns its length.
        unsafe {
            append_with(out, array.len() + 8, |dst| {
                let (n, s) = filter(runs, array, dst, keep);
                stop = s;
                n
            })
        }
        stop
    }

    /// The values of `array` inside some run, appended to `out`.
    pub(in crate::kernels::avx2) fn intersect(
        runs: &[[u8; 4]],
        array: &[[u8; 2]],
        out: &mut Vec<u16>,
    ) {
        if !applies(runs, array) {
            return scalar::array_intersect(runs, array, out);
        }
        let (i, j) = append_filtered(runs, array, out, |m| m);
        scalar::array_intersect(&runs[j..], &array[i..], out);
    }

    /// How many values of `array` are inside some run.
    pub(in crate::kernels::avx2) fn count(runs: &[[u8; 4]], array: &[[u8; 2]]) -> u32 {
        if !applies(runs, array) {
            return scalar::array_count(runs, array);
        }
        let mut n = 0;
        // SAFETY: only reachable through the AVX2 table, which the dispatcher
        // hands out only after detecting the enabled features.
        let (i, j) = unsafe { blocks(runs, array, |_, inside| n += inside.count_ones()) };
        n + scalar::array_count(&runs[j..], &array[i..])
    }

    /// The values of `array` outside every run, appended to `out`.
    pub(in crate::kernels::avx2) fn difference(
        array: &[[u8; 2]],
        runs: &[[u8; 4]],
        out: &mut Vec<u16>,
    ) {
        if !applies(runs, array) {
            return scalar::array_difference(array, runs, out);
        }
        let (i, j) = append_filtered(runs, array, out, |m| !m & 0xffff);
        scalar::array_difference(&array[i..], &runs[j..], out);
    }
}

pub(super) use array_blocks::{count as run_array_count, difference as array_run_difference, intersect as run_array_intersect};

/// [`scalar::run::set_into`](crate::kernels::scalar::run::set_into) compiled
/// with BMI2 (in-process A/B on a Xeon, `or_many`: census-income_srt 1.06x,
/// wikileaks-noquotes 1.04x, weather_sept_85 1.02x).
pub(super) fn set_into(runs: &[[u8; 4]], words: &mut [u64; 1024]) {
    #[target_feature(enable = "bmi1,bmi2")]
    fn inner(runs: &[[u8; 4]], words: &mut [u64; 1024]) {
        crate::kernels::scalar::run::set_into(runs, words)
    }
    // SAFETY: only reachable through the AVX2 table, which the dispatcher
    // hands out only after detecting the enabled features.
    unsafe { inner(runs, words) }
}
