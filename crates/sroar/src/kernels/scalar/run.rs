//! The scalar tier of the kernels over run lists: portable Rust, the
//! reference every SIMD tier is tested against, and the fallback of short inputs.

use super::array::gallop;
use super::bitmap::{set_range, WORDS};

/// Arrays shorter than this are intersected with runs here, by every tier:
/// the SIMD blocks would be mostly padding, and the dispatch's indirect call
/// costs as much as the work.
pub const FEW_VALUES: usize = 8;

/// Start and inclusive end of run `r`, as `u32`.
#[inline(always)]
pub fn bounds(r: [u8; 4]) -> (u32, u32) {
    let start = u16::from_le_bytes([r[0], r[1]]) as u32;
    let len_minus_1 = u16::from_le_bytes([r[2], r[3]]) as u32;
    (start, start + len_minus_1)
}
/// The cardinality of a valid stored run list (`run::checked_card`), without a
/// branch per run (an invalid list is
/// rare, and only needs to be found, not located).
pub fn checked_card(runs: &[[u8; 4]]) -> Option<u32> {
    let mut ok = true;
    let mut card = 0u32;
    let mut next_min = 0u32;
    for r in runs {
        let (s, e) = bounds(*r);
        ok &= s >= next_min && e <= 65535;
        card = card.wrapping_add(e - s + 1);
        next_min = e + 2;
    }
    ok.then_some(card)
}

/// Index of the first run in `runs[from..]` whose `key` (its start or its
/// end) is at least `x`, by exponential then binary search from `from`: a
/// small array against a long run list steps over many runs at once.
#[inline]
pub(crate) fn gallop_runs(runs: &[[u8; 4]], from: usize, x: u32, key: impl Fn((u32, u32)) -> u32) -> usize {
    let at = |i: usize| key(bounds(runs[i]));
    let n = runs.len();
    if from >= n || at(from) >= x {
        return from;
    }
    // Invariant: runs[lo] is below x.
    let (mut lo, mut step) = (from, 1usize);
    let hi = loop {
        let probe = lo + step;
        if probe >= n {
            break n;
        }
        if at(probe) >= x {
            break probe;
        }
        lo = probe;
        step <<= 1;
    };
    lo + 1 + runs[lo + 1..hi].partition_point(|r| key(bounds(*r)) < x)
}

/// Whether to walk the array and gallop through the runs, rather than walk
/// the runs, when the runs outnumber the array's values by more than `ratio`
/// (a sparse array against a run container of a dense column). Measured on
/// the real datasets: 1 for the intersections, which only test each value,
/// and 4 for the union, which also writes every run out.
#[inline(always)]
pub(crate) fn array_driven(runs: &[[u8; 4]], array: &[[u8; 2]], ratio: usize) -> bool {
    array.len() * ratio < runs.len()
}

/// Calls `f(lo, hi)` with the index range of `array` inside each run, in
/// order, skipping empty ranges (a run split into adjacent pieces may give
/// adjacent ranges). Walks the runs, or, when they outnumber the values, the
/// array, galloping through the runs.
#[inline(always)]
pub(crate) fn for_each_hit(runs: &[[u8; 4]], array: &[[u8; 2]], mut f: impl FnMut(usize, usize) -> bool) {
    if array_driven(runs, array, 1) {
        let (mut i, mut j) = (0, 0);
        while let Some(e) = array.get(i) {
            let v = u32::from(u16::from_le_bytes(*e));
            // The first run that ends at or after `v`: `v` is in it or before it.
            j = gallop_runs(runs, j, v, |(_, end)| end);
            let Some(&r) = runs.get(j) else { return };
            let (s, e) = bounds(r);
            if s > v {
                i = gallop(array, i, s as u16);
                continue;
            }
            let k = if e >= 65535 {
                array.len()
            } else {
                gallop(array, i, e as u16 + 1)
            };
            if !f(i, k) {
                return;
            }
            (i, j) = (k, j + 1);
        }
        return;
    }
    let mut i = 0;
    for r in runs {
        if i >= array.len() {
            return;
        }
        let (s, e) = bounds(*r);
        i = gallop(array, i, s as u16);
        // The end by galloping too: a long run can hold thousands of the values.
        let k = if e >= 65535 {
            array.len()
        } else {
            gallop(array, i, e as u16 + 1)
        };
        if k > i && !f(i, k) {
            return;
        }
        i = k;
    }
}

/// Values of `array` inside some run, appended to `out`.
pub fn array_intersect(runs: &[[u8; 4]], array: &[[u8; 2]], out: &mut Vec<u16>) {
    for_each_hit(runs, array, |lo, hi| {
        out.extend(array[lo..hi].iter().map(|e| u16::from_le_bytes(*e)));
        true
    });
}

/// Number of values of `array` inside some run.
pub fn array_count(runs: &[[u8; 4]], array: &[[u8; 2]]) -> u32 {
    let mut n = 0;
    for_each_hit(runs, array, |lo, hi| {
        n += (hi - lo) as u32;
        true
    });
    n
}

/// `array \ runs`: the array's values outside every run, appended to `out`.
pub fn array_difference(array: &[[u8; 2]], runs: &[[u8; 4]], out: &mut Vec<u16>) {
    let mut prev = 0;
    for_each_hit(runs, array, |lo, hi| {
        out.extend(array[prev..lo].iter().map(|e| u16::from_le_bytes(*e)));
        prev = hi;
        true
    });
    out.extend(array[prev..].iter().map(|e| u16::from_le_bytes(*e)));
}

/// Runs at least this many words apart on average are set without a branch per
/// run by [`set_into`]: they seldom share a word.
const WORDS_PER_RUN: usize = 4;

/// Sets every run in `words`.
///
/// A few runs lie far apart and cross a word boundary now and then, at random:
/// a branch on "one word or two" mispredicts on them (wikileaks-noquotes' union
/// of 90 lists of 25 short runs per key spent 37% here). So a run within two words
/// is two ORs whose masks are picked without a branch, and only a run over more
/// than two words, rare and predictable, takes a loop. Many runs pack several to
/// a word, where the two ORs would make each run wait on two stores to that word
/// (census-income_srt's `or_many` took 1.1x as long): they take the branch,
/// which mostly goes one way there.
///
/// # Panics
/// If a run passes 65535, on the index (an assert naming the run kept its
/// bounds on the stack: two more stores a run in a loop bound by its stores).
#[inline(always)]
pub fn set_into(runs: &[[u8; 4]], words: &mut [u64; WORDS]) {
    let (Some(head), Some(tail)) = (runs.first(), runs.last()) else {
        return;
    };
    let span = ((bounds(*tail).1 >> 6) as usize).saturating_sub((bounds(*head).0 >> 6) as usize) + 1;
    if runs.len() * WORDS_PER_RUN > span {
        for r in runs {
            let (s, e) = bounds(*r);
            set_range(words, s, e);
        }
        return;
    }
    for r in runs {
        let (s, e) = bounds(*r);
        let (ws, we) = ((s >> 6) as usize, (e >> 6) as usize);
        let first = !0u64 << (s & 63);
        let last = !0u64 >> (63 - (e & 63));
        // In one word both ORs set `first & last`.
        let one = ws == we;
        words[ws] |= first & if one { last } else { !0 };
        words[we] |= last & if one { first } else { !0 };
        if we > ws + 1 {
            words[ws + 1..we].fill(!0);
        }
    }
}
