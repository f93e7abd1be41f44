//! Run lists: `&[[u8; 4]]`, each `start: u16 LE, len_minus_1: u16 LE`.
//!
//! Inputs must be sorted and non-overlapping (adjacent runs are accepted).
//! Outputs `(start, len - 1)` are appended to `out` and are maximal: sorted
//! and separated by at least one absent value. The set operations are scalar:
//! run counts are small and the work is branchy. [`checked_card`], the check
//! of every stored run list, is dispatched.

use super::scalar::array::gallop;
use super::scalar::bitmap::WORDS;

pub use super::scalar::run::bounds;
use super::scalar::run::{array_driven, for_each_hit, gallop_runs, FEW_VALUES};
use super::dispatch::kernels;

/// The output of a run kernel: runs pushed in order of their starts, each merged
/// into the previous one when they touch or overlap. The last run stays in
/// registers until a run that does not touch it shows that it is complete.
struct Sink<'a> {
    out: &'a mut Vec<(u16, u16)>,
    /// Runs are written at `out[base + pos]`, in slots sized up front, so that
    /// a push stores into the slice and the vector's length is set once.
    base: usize,
    pos: usize,
    open: bool,
    start: u32,
    end: u32,
}

impl<'a> Sink<'a> {
    /// A sink for at most `bound` runs.
    #[inline(always)]
    fn new(out: &'a mut Vec<(u16, u16)>, bound: usize) -> Self {
        let base = out.len();
        out.resize(base + bound, (0, 0));
        Sink {
            out,
            base,
            pos: 0,
            open: false,
            start: 0,
            end: 0,
        }
    }

    /// Adds `start..=end`; `start` must not precede the previous run's start.
    #[inline(always)]
    fn push(&mut self, start: u32, end: u32) {
        if self.open {
            if start <= self.end + 1 {
                self.end = self.end.max(end);
                return;
            }
            self.flush();
        }
        (self.open, self.start, self.end) = (true, start, end);
    }

    /// Adds the value `v`, which must be above the last run's end: it joins that
    /// run when it touches it. Without a branch: whether an array's values
    /// touch is unpredictable. The open run is stored at once and stays
    /// stored when the next value starts a run.
    #[inline(always)]
    fn push_value(&mut self, v: u32) {
        debug_assert!(!self.open || v > self.end);
        let starts = v > self.end + 1;
        let at = self.base + self.pos;
        self.out[at] = (self.start as u16, self.end.wrapping_sub(self.start) as u16);
        self.pos += usize::from(starts & self.open);
        self.start = if starts || !self.open { v } else { self.start };
        self.end = v;
        self.open = true;
    }

    /// Adds `start..=end` by symmetric difference with the runs so far; `start`
    /// must not precede the previous run's start, so only the last run can
    /// overlap it.
    #[inline(always)]
    fn push_exclusive(&mut self, start: u32, end: u32) {
        if !self.open || start > self.end {
            return self.push(start, end);
        }
        // Overlap: what is left is `self.start..start` and the part of the two
        // runs past the shorter one.
        let (low, high) = (self.end.min(end), self.end.max(end));
        if start > self.start {
            self.end = start - 1;
            self.flush();
        }
        (self.open, self.start, self.end) = (low < high, low + 1, high);
    }

    /// Adds a slice of a run list, whose first start must not precede the
    /// previous run's start. Only its first run can touch what came before, so
    /// when its runs are separated (as in every stored list) the ones between
    /// the first and the last are stored in one loop, with no merge step; the
    /// last stays open for what comes next.
    #[inline]
    fn push_stored(&mut self, runs: &[[u8; 4]]) {
        let [first, middle @ .., last] = runs else {
            if let [r] = runs {
                let (s, e) = bounds(*r);
                self.push(s, e);
            }
            return;
        };
        let (s, e) = bounds(*first);
        self.push(s, e);
        let (mut prev_end, mut separated) = (self.end, true);
        let at = self.base + self.pos + 1;
        for (d, r) in self.out[at..at + middle.len()].iter_mut().zip(middle) {
            let (s, e) = bounds(*r);
            separated &= s > prev_end + 1;
            prev_end = e;
            *d = (s as u16, (e - s) as u16);
        }
        let (ls, le) = bounds(*last);
        if separated && ls > prev_end + 1 {
            self.flush();
            self.pos += middle.len();
            (self.start, self.end) = (ls, le);
        } else {
            // Adjacent input runs (accepted by the kernels): merge one by one.
            for r in middle.iter().chain([last]) {
                let (s, e) = bounds(*r);
                self.push(s, e);
            }
        }
    }

    #[inline(always)]
    fn flush(&mut self) {
        self.out[self.base + self.pos] = (self.start as u16, (self.end - self.start) as u16);
        self.pos += 1;
    }
}

impl Drop for Sink<'_> {
    fn drop(&mut self) {
        if self.open {
            self.flush();
        }
        self.out.truncate(self.base + self.pos);
    }
}

/// Calls `f(start, end)` with each non-empty overlap of a run of `a` and a run
/// of `b`, in increasing order, until `f` returns `false`; returns `false` iff
/// stopped early.
#[inline(always)]
fn for_each_overlap(a: &[[u8; 4]], b: &[[u8; 4]], mut f: impl FnMut(u32, u32) -> bool) -> bool {
    let (Some(&fa), Some(&fb)) = (a.first(), b.first()) else {
        return true;
    };
    let ((mut sa, mut ea), (mut sb, mut eb)) = (bounds(fa), bounds(fb));
    let (mut i, mut j) = (0, 0);
    // Only the list that advances is reloaded: the branch predicts well on
    // real run lists, while a branch-free step would chain every load on it.
    loop {
        let (s, e) = (sa.max(sb), ea.min(eb));
        if s <= e && !f(s, e) {
            return false;
        }
        if ea < eb {
            i += 1;
            let Some(&r) = a.get(i) else { break };
            (sa, ea) = bounds(r);
        } else {
            j += 1;
            let Some(&r) = b.get(j) else { break };
            (sb, eb) = bounds(r);
        }
    }
    true
}

/// `a ∩ b`.
// Inlinable into the intersection's run step: whether it was inlined there
// followed how the code fell into codegen units, and the call cost 12% of
// `and` on dimension_033 (sets of one-run containers).
#[inline]
pub fn intersect(a: &[[u8; 4]], b: &[[u8; 4]], out: &mut Vec<(u16, u16)>) {
    let mut sink = Sink::new(out, a.len() + b.len() + 1);
    for_each_overlap(a, b, |s, e| {
        sink.push(s, e);
        true
    });
}

/// Passes the runs of `a` and `b` to `push` in order of their starts, and
/// returns the rest of the list that lasts longer.
///
/// `x` holds the lower next start; every run of `x` that starts by `y`'s next
/// one is taken before the lists swap. Sorted data comes in clumps from one
/// side, so the inner loop's exit is the one unpredictable branch, where a
/// plain merge pays one for every run.
#[inline(always)]
fn merge_by_start<'r>(
    a: &'r [[u8; 4]],
    b: &'r [[u8; 4]],
    mut push: impl FnMut(u32, u32),
) -> &'r [[u8; 4]] {
    let (mut x, mut y) = (a, b);
    if let (Some(&ra), Some(&rb)) = (a.first(), b.first()) {
        if bounds(rb).0 < bounds(ra).0 {
            (x, y) = (b, a);
        }
    }
    while let (Some(&rx), Some(&ry)) = (x.first(), y.first()) {
        let limit = bounds(ry).0;
        let (s, e) = bounds(rx);
        push(s, e);
        let mut k = 1;
        while let Some(&r) = x.get(k) {
            let (s, e) = bounds(r);
            if s > limit {
                break;
            }
            push(s, e);
            k += 1;
        }
        x = &x[k..];
        std::mem::swap(&mut x, &mut y);
    }
    if x.is_empty() {
        y
    } else {
        x
    }
}

/// `a ∪ b`.
pub fn union(a: &[[u8; 4]], b: &[[u8; 4]], out: &mut Vec<(u16, u16)>) {
    let mut sink = Sink::new(out, a.len() + b.len() + 1);
    let rest = merge_by_start(a, b, |s, e| sink.push(s, e));
    // What is left is stored runs: the bulk path.
    sink.push_stored(rest);
}

/// `a ⊕ b`: the runs of both in order of their starts, each XORed into the
/// output so far (only the last output run can overlap the next input run).
pub fn xor(a: &[[u8; 4]], b: &[[u8; 4]], out: &mut Vec<(u16, u16)>) {
    let mut sink = Sink::new(out, a.len() + b.len() + 1);
    let rest = merge_by_start(a, b, |s, e| sink.push_exclusive(s, e));
    for r in rest {
        let (s, e) = bounds(*r);
        sink.push_exclusive(s, e);
    }
}

/// `a \ b`: each run of `a` minus the runs of `b` that overlap it.
pub fn difference(a: &[[u8; 4]], b: &[[u8; 4]], out: &mut Vec<(u16, u16)>) {
    let mut sink = Sink::new(out, a.len() + b.len() + 1);
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
                sink.push(cur, bs - 1);
            }
            cur = cur.max(be + 1);
            if be > e {
                // `rb` reaches into the next runs of `a`: keep it.
                break;
            }
            j += 1;
        }
        if cur <= e {
            sink.push(cur, e);
        }
    }
}

/// `|a ∩ b|`.
pub fn intersect_count(a: &[[u8; 4]], b: &[[u8; 4]]) -> u32 {
    let mut n = 0;
    for_each_overlap(a, b, |s, e| {
        n += e - s + 1;
        true
    });
    n
}

/// Whether `a ∩ b` is non-empty.
pub fn intersects(a: &[[u8; 4]], b: &[[u8; 4]]) -> bool {
    !for_each_overlap(a, b, |_, _| false)
}

/// Values of `array` inside some run, appended to `out`.
#[inline]
pub fn run_array_intersect(runs: &[[u8; 4]], array: &[[u8; 2]], out: &mut Vec<u16>) {
    if array.len() < FEW_VALUES {
        return super::scalar::run::array_intersect(runs, array, out);
    }
    (kernels().run_array_intersect)(runs, array, out)
}

/// Number of values of `array` inside some run.
#[inline]
pub fn run_array_count(runs: &[[u8; 4]], array: &[[u8; 2]]) -> u32 {
    if array.len() < FEW_VALUES {
        return super::scalar::run::array_count(runs, array);
    }
    (kernels().run_array_count)(runs, array)
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

/// Whether [`run_array_union`] walks the array, galloping through the runs:
/// when the runs outnumber its values more than four times over.
#[inline(always)]
pub fn union_is_array_driven(runs: &[[u8; 4]], array: &[[u8; 2]]) -> bool {
    array_driven(runs, array, 4)
}

/// `runs ∪ array`: the array's values outside the runs join as one-value runs;
/// those inside a run are skipped by galloping past its end. A small array
/// against many runs is walked the other way: galloping through the runs from
/// one value to the next, and storing the runs in between as one block.
pub fn run_array_union(runs: &[[u8; 4]], array: &[[u8; 2]], out: &mut Vec<(u16, u16)>) {
    let mut sink = Sink::new(out, runs.len() + array.len() + 1);
    if union_is_array_driven(runs, array) {
        // The runs between two array values go out as a block.
        let mut j = 0;
        for e in array {
            let v = u32::from(u16::from_le_bytes(*e));
            let k = gallop_runs(runs, j, v + 1, |(start, _)| start);
            sink.push_stored(&runs[j..k]);
            sink.push(v, v);
            j = k;
        }
        sink.push_stored(&runs[j..]);
        return;
    }
    let value = |i: usize| u32::from(u16::from_le_bytes(array[i]));
    let mut i = 0;
    for r in runs {
        let (s, e) = bounds(*r);
        while i < array.len() && value(i) < s {
            sink.push_value(value(i));
            i += 1;
        }
        sink.push(s, e);
        i = match u16::try_from(e + 1) {
            Ok(past) => gallop(array, i, past),
            Err(_) => array.len(),
        };
    }
    for i in i..array.len() {
        sink.push_value(value(i));
    }
}

/// `runs ⊕ array`: each array value inside a run punches a hole in it, each one
/// outside joins as a one-value run (merged with the runs it touches).
pub fn run_array_xor(runs: &[[u8; 4]], array: &[[u8; 2]], out: &mut Vec<(u16, u16)>) {
    let mut sink = Sink::new(out, runs.len() + array.len() + 1);
    let value = |i: usize| u32::from(u16::from_le_bytes(array[i]));
    let mut i = 0;
    for r in runs {
        let (s, e) = bounds(*r);
        while i < array.len() && value(i) < s {
            sink.push(value(i), value(i));
            i += 1;
        }
        let mut cur = s;
        while i < array.len() && value(i) <= e {
            let v = value(i);
            if v > cur {
                sink.push(cur, v - 1);
            }
            cur = v + 1;
            i += 1;
        }
        if cur <= e {
            sink.push(cur, e);
        }
    }
    for i in i..array.len() {
        sink.push(value(i), value(i));
    }
}

/// `runs \ array`: each array value inside a run punches a hole in it.
pub fn run_array_difference(runs: &[[u8; 4]], array: &[[u8; 2]], out: &mut Vec<(u16, u16)>) {
    let mut sink = Sink::new(out, runs.len() + array.len() + 1);
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
                sink.push(cur, v - 1);
            }
            cur = v + 1;
            i += 1;
        }
        if cur <= e {
            sink.push(cur, e);
        }
    }
}

/// `array \ runs`: the array's values outside every run, appended to `out`.
#[inline]
pub fn array_run_difference(array: &[[u8; 2]], runs: &[[u8; 4]], out: &mut Vec<u16>) {
    if array.len() < FEW_VALUES {
        return super::scalar::run::array_difference(array, runs, out);
    }
    (kernels().array_run_difference)(array, runs, out)
}

/// Sets every run in `words` (the scalar loop, compiled with BMI2 on x86: its
/// shifts by a register are one µop there, where `shl` by `cl` takes three).
///
/// # Panics
/// If a run passes 65535.
#[inline]
pub fn set_into(runs: &[[u8; 4]], words: &mut [u64; WORDS]) {
    (kernels().run_set_into)(runs, words)
}

/// Whether `low` is inside some run (binary search).
#[cfg(feature = "internals")]
pub fn contains(runs: &[[u8; 4]], low: u16) -> bool {
    let low = low as u32;
    // Number of runs starting at or before `low`.
    let k = runs.partition_point(|r| bounds(*r).0 <= low);
    k > 0 && bounds(runs[k - 1]).1 >= low
}

/// The cardinality of `runs` if it is a valid stored run list: each run ends at
/// or before 65535, and starts at least 2 past the end of the one before (so
/// runs are sorted, apart, and maximal); `None` otherwise.
#[cfg(feature = "internals")]
#[inline]
pub fn checked_card(runs: &[[u8; 4]]) -> Option<u32> {
    (super::dispatch::kernels().run_checked_card)(runs)
}


/// Number of values in the runs.
#[cfg(feature = "internals")]
pub fn card(runs: &[[u8; 4]]) -> u32 {
    runs.iter()
        .map(|r| u16::from_le_bytes([r[2], r[3]]) as u32 + 1)
        .sum()
}
