//! Run lists: `&[[u8; 4]]`, each `start: u16 LE, len_minus_1: u16 LE`.
//!
//! Inputs must be sorted and non-overlapping (adjacent runs are accepted).
//! Outputs `(start, len - 1)` are appended to `out` and are maximal: sorted
//! and separated by at least one absent value. Scalar only: run counts are
//! small and the work is branchy.

use super::array::scalar::gallop;
use super::bitmap::{scalar::set_range, WORDS};

/// Start and inclusive end of run `r`, as `u32`.
#[inline(always)]
pub fn bounds(r: [u8; 4]) -> (u32, u32) {
    let start = u16::from_le_bytes([r[0], r[1]]) as u32;
    let len_minus_1 = u16::from_le_bytes([r[2], r[3]]) as u32;
    (start, start + len_minus_1)
}

/// Appends the run `start..=end` to `out`, merging it into the last run when
/// they touch or overlap (`start` must not precede the last run's start).
#[inline]
fn push_run(out: &mut Vec<(u16, u16)>, floor: usize, start: u32, end: u32) {
    if out.len() > floor {
        let last = out.last_mut().expect("non-empty");
        let last_end = last.0 as u32 + last.1 as u32;
        if start <= last_end + 1 {
            if end > last_end {
                last.1 = (end - last.0 as u32) as u16;
            }
            return;
        }
    }
    out.push((start as u16, (end - start) as u16));
}

/// `a ∩ b`.
pub fn intersect(a: &[[u8; 4]], b: &[[u8; 4]], out: &mut Vec<(u16, u16)>) {
    let floor = out.len();
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (sa, ea) = bounds(a[i]);
        let (sb, eb) = bounds(b[j]);
        let (s, e) = (sa.max(sb), ea.min(eb));
        if s <= e {
            push_run(out, floor, s, e);
        }
        if ea < eb {
            i += 1;
        } else {
            j += 1;
        }
    }
}

/// `a ∪ b`.
pub fn union(a: &[[u8; 4]], b: &[[u8; 4]], out: &mut Vec<(u16, u16)>) {
    let floor = out.len();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let take_a = j >= b.len() || (i < a.len() && bounds(a[i]).0 <= bounds(b[j]).0);
        let (s, e) = if take_a {
            i += 1;
            bounds(a[i - 1])
        } else {
            j += 1;
            bounds(b[j - 1])
        };
        push_run(out, floor, s, e);
    }
}

/// `a ⊕ b`.
///
/// The symmetric difference changes membership exactly where one input does and
/// the other does not: the merged boundary lists (starts and ends + 1) of both
/// inputs, with equal boundaries cancelling each other.
pub fn xor(a: &[[u8; 4]], b: &[[u8; 4]], out: &mut Vec<(u16, u16)>) {
    let floor = out.len();
    let (mut x, mut y) = (boundaries(a).peekable(), boundaries(b).peekable());
    let mut open: Option<u32> = None;
    loop {
        let p = match (x.peek(), y.peek()) {
            (Some(&p), Some(&q)) if p <= q => x.next(),
            (Some(_), Some(_)) => y.next(),
            (Some(_), None) => x.next(),
            (None, _) => y.next(),
        };
        let Some(p) = p else { break };
        match open {
            None => {
                // Opening where the last run ended: the two boundaries cancel.
                let last = out.last().filter(|_| out.len() > floor).copied();
                open = Some(match last {
                    Some((s, l)) if u32::from(s) + u32::from(l) + 1 == p => {
                        out.pop();
                        u32::from(s)
                    }
                    _ => p,
                });
            }
            Some(start) => {
                if p > start {
                    out.push((start as u16, (p - 1 - start) as u16));
                }
                open = None;
            }
        }
    }
}

/// The starts and ends + 1 of `runs`, in order.
#[inline(always)]
fn boundaries(runs: &[[u8; 4]]) -> impl Iterator<Item = u32> + '_ {
    runs.iter().flat_map(|r| {
        let (s, e) = bounds(*r);
        [s, e + 1]
    })
}

/// `a \ b`: each run of `a` minus the runs of `b` that overlap it.
pub fn difference(a: &[[u8; 4]], b: &[[u8; 4]], out: &mut Vec<(u16, u16)>) {
    let floor = out.len();
    let mut j = 0;
    for r in a {
        let (s, e) = bounds(*r);
        let mut cur = s;
        while j < b.len() && bounds(b[j]).1 < cur {
            j += 1;
        }
        while let Some(&rb) = b.get(j) {
            let (bs, be) = bounds(rb);
            if bs > e {
                break;
            }
            if bs > cur {
                push_run(out, floor, cur, bs - 1);
            }
            cur = cur.max(be + 1);
            if be > e {
                // `rb` reaches into the next runs of `a`: keep it.
                break;
            }
            j += 1;
        }
        if cur <= e {
            push_run(out, floor, cur, e);
        }
    }
}

/// `|a ∩ b|`.
pub fn intersect_count(a: &[[u8; 4]], b: &[[u8; 4]]) -> u32 {
    let (mut i, mut j, mut n) = (0, 0, 0u32);
    while i < a.len() && j < b.len() {
        let (sa, ea) = bounds(a[i]);
        let (sb, eb) = bounds(b[j]);
        let (s, e) = (sa.max(sb), ea.min(eb));
        if s <= e {
            n += e - s + 1;
        }
        if ea < eb {
            i += 1;
        } else {
            j += 1;
        }
    }
    n
}

/// Whether `a ∩ b` is non-empty.
pub fn intersects(a: &[[u8; 4]], b: &[[u8; 4]]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (sa, ea) = bounds(a[i]);
        let (sb, eb) = bounds(b[j]);
        if sa.max(sb) <= ea.min(eb) {
            return true;
        }
        if ea < eb {
            i += 1;
        } else {
            j += 1;
        }
    }
    false
}

/// Calls `f(lo, hi)` with the index range of `array` inside each run, in
/// order, skipping empty ranges.
#[inline(always)]
fn for_each_hit(runs: &[[u8; 4]], array: &[[u8; 2]], mut f: impl FnMut(usize, usize) -> bool) {
    let mut i = 0;
    for r in runs {
        if i >= array.len() {
            return;
        }
        let (s, e) = bounds(*r);
        i = gallop(array, i, s as u16);
        let mut k = i;
        while k < array.len() && u16::from_le_bytes(array[k]) as u32 <= e {
            k += 1;
        }
        if k > i && !f(i, k) {
            return;
        }
        i = k;
    }
}

/// Values of `array` inside some run, appended to `out`.
pub fn run_array_intersect(runs: &[[u8; 4]], array: &[[u8; 2]], out: &mut Vec<u16>) {
    for_each_hit(runs, array, |lo, hi| {
        out.extend(array[lo..hi].iter().map(|e| u16::from_le_bytes(*e)));
        true
    });
}

/// Number of values of `array` inside some run.
pub fn run_array_count(runs: &[[u8; 4]], array: &[[u8; 2]]) -> u32 {
    let mut n = 0;
    for_each_hit(runs, array, |lo, hi| {
        n += (hi - lo) as u32;
        true
    });
    n
}

/// Whether some value of `array` is inside some run.
pub fn run_array_intersects(runs: &[[u8; 4]], array: &[[u8; 2]]) -> bool {
    let mut hit = false;
    for_each_hit(runs, array, |_, _| {
        hit = true;
        false
    });
    hit
}

/// `runs ∪ array`: the array's values outside the runs join as one-value runs.
pub fn run_array_union(runs: &[[u8; 4]], array: &[[u8; 2]], out: &mut Vec<(u16, u16)>) {
    let floor = out.len();
    let mut values = array
        .iter()
        .map(|e| u32::from(u16::from_le_bytes(*e)))
        .peekable();
    for r in runs {
        let (s, e) = bounds(*r);
        while let Some(v) = values.next_if(|&v| v < s) {
            push_run(out, floor, v, v);
        }
        push_run(out, floor, s, e);
        while values.next_if(|&v| v <= e).is_some() {}
    }
    values.for_each(|v| push_run(out, floor, v, v));
}

/// `runs ⊕ array`: each array value inside a run punches a hole in it, each one
/// outside joins as a one-value run (merged with the runs it touches).
pub fn run_array_xor(runs: &[[u8; 4]], array: &[[u8; 2]], out: &mut Vec<(u16, u16)>) {
    let floor = out.len();
    let mut values = array
        .iter()
        .map(|e| u32::from(u16::from_le_bytes(*e)))
        .peekable();
    for r in runs {
        let (s, e) = bounds(*r);
        while let Some(v) = values.next_if(|&v| v < s) {
            push_run(out, floor, v, v);
        }
        let mut cur = s;
        while let Some(v) = values.next_if(|&v| v <= e) {
            if v > cur {
                push_run(out, floor, cur, v - 1);
            }
            cur = v + 1;
        }
        if cur <= e {
            push_run(out, floor, cur, e);
        }
    }
    values.for_each(|v| push_run(out, floor, v, v));
}

/// `runs \ array`: each array value inside a run punches a hole in it.
pub fn run_array_difference(runs: &[[u8; 4]], array: &[[u8; 2]], out: &mut Vec<(u16, u16)>) {
    let floor = out.len();
    let mut i = 0;
    for r in runs {
        let (s, e) = bounds(*r);
        // Array values below this run fall between runs: they punch nothing.
        i = gallop(array, i, s as u16);
        let mut cur = s;
        while let Some(v) = array.get(i).map(|e| u32::from(u16::from_le_bytes(*e))) {
            if v > e {
                break;
            }
            if v > cur {
                push_run(out, floor, cur, v - 1);
            }
            cur = v + 1;
            i += 1;
        }
        if cur <= e {
            push_run(out, floor, cur, e);
        }
    }
}

/// `array \ runs`: the array's values outside every run, appended to `out`.
pub fn array_run_difference(array: &[[u8; 2]], runs: &[[u8; 4]], out: &mut Vec<u16>) {
    let mut prev = 0;
    for_each_hit(runs, array, |lo, hi| {
        out.extend(array[prev..lo].iter().map(|e| u16::from_le_bytes(*e)));
        prev = hi;
        true
    });
    out.extend(array[prev..].iter().map(|e| u16::from_le_bytes(*e)));
}

/// Sets every run in `words`.
pub fn set_into(runs: &[[u8; 4]], words: &mut [u64; WORDS]) {
    for r in runs {
        let (s, e) = bounds(*r);
        set_range(words, s, e);
    }
}

/// Whether `low` is inside some run (binary search).
pub fn contains(runs: &[[u8; 4]], low: u16) -> bool {
    let low = low as u32;
    // Number of runs starting at or before `low`.
    let k = runs.partition_point(|r| bounds(*r).0 <= low);
    k > 0 && bounds(runs[k - 1]).1 >= low
}

/// Number of values in the runs.
pub fn card(runs: &[[u8; 4]]) -> u32 {
    runs.iter()
        .map(|r| u16::from_le_bytes([r[2], r[3]]) as u32 + 1)
        .sum()
}
