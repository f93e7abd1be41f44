//! Sets as toggle points: the sorted values at which membership flips, each
//! run's start and the value past its end. The toggle points of `a ⊕ b` are
//! the symmetric difference of those of `a` and `b`, so a symmetric difference
//! of run lists (or of runs and an array) is one merge of sorted `u16` lists,
//! which the tier's array kernel does with SIMD, instead of a walk whose
//! every step branches on which input comes next. The difference and the
//! union of runs and an array become such a merge too, once the tier's run
//! blocks have picked the array's values inside the runs (`runs ⊕ (runs ∩
//! array)`) or outside them (`runs ⊕ (array \ runs)`).
//!
//! The point 65536 (past a run that ends at 65535) does not fit in a `u16`, and
//! is dropped: toggles are paired from the left, so an odd count means that
//! the last run reaches 65535.

use super::dispatch::kernels;
use super::scalar::run::bounds;
use super::table::Kernels;

/// Buffers for the toggle points of both inputs, kept between containers, and
/// the tier whose kernels pick the values and merge the points.
pub struct Toggles {
    a: Vec<[u8; 2]>,
    b: Vec<[u8; 2]>,
    x: Vec<u16>,
    /// The array's values inside the runs (for the difference) or outside
    /// them (for the union).
    inside: Vec<u16>,
    k: &'static Kernels,
}

impl Default for Toggles {
    /// Merging with the dispatched tier.
    fn default() -> Self {
        Self::with_kernels(kernels())
    }
}

/// The fewest runs (or values) on each side for which the merge of toggle
/// points beats the walk. Below it, building the lists costs more than the
/// branches it saves (measured on the real datasets: 8 and 16 were alike, 32
/// slower on census-income_srt).
pub const MIN_LEN: usize = 16;

impl Toggles {
    /// Merging with `k`'s kernels (for tests of every tier).
    pub fn with_kernels(k: &'static Kernels) -> Self {
        Toggles {
            a: Vec::new(),
            b: Vec::new(),
            x: Vec::new(),
            inside: Vec::new(),
            k,
        }
    }

    /// `a ⊕ b` for run lists, appended to `out` as maximal runs; `false` (and
    /// nothing appended) when a list's runs touch or overlap, which only the
    /// walk in [`super::run::xor`] accepts.
    pub fn run_xor(&mut self, a: &[[u8; 4]], b: &[[u8; 4]], out: &mut Vec<(u16, u16)>) -> bool {
        if !of_runs(self.k, a, &mut self.a) || !of_runs(self.k, b, &mut self.b) {
            return false;
        }
        self.finish(out);
        true
    }

    /// `runs ⊕ array`, as [`Toggles::run_xor`].
    pub fn run_array_xor(
        &mut self,
        runs: &[[u8; 4]],
        values: &[[u8; 2]],
        out: &mut Vec<(u16, u16)>,
    ) -> bool {
        self.xor_values(runs, values.iter().map(|v| u16::from_le_bytes(*v)), out)
    }

    /// `runs \ array`, as [`Toggles::run_xor`]: `runs ⊕ (runs ∩ array)`, the
    /// values inside the runs found by the tier's blocks, then the holes they
    /// punch merged in as toggle points.
    pub fn run_array_difference(
        &mut self,
        runs: &[[u8; 4]],
        values: &[[u8; 2]],
        out: &mut Vec<(u16, u16)>,
    ) -> bool {
        // Taken out and put back, to be read while the other buffers fill.
        let mut inside = core::mem::take(&mut self.inside);
        inside.clear();
        (self.k.run_array_intersect)(runs, values, &mut inside);
        let done = self.xor_values(runs, inside.iter().copied(), out);
        self.inside = inside;
        done
    }

    /// `runs ∪ array`, as [`Toggles::run_xor`]: `runs ⊕ (array \ runs)`, the
    /// values outside the runs found by the tier's blocks, then merged in as
    /// toggle points.
    pub fn run_array_union(
        &mut self,
        runs: &[[u8; 4]],
        values: &[[u8; 2]],
        out: &mut Vec<(u16, u16)>,
    ) -> bool {
        let mut outside = core::mem::take(&mut self.inside);
        outside.clear();
        (self.k.array_run_difference)(values, runs, &mut outside);
        let done = if outside.is_empty() {
            // The runs hold every value (common in sorted columns): they are
            // the union, when valid.
            let valid = (self.k.run_checked_card)(runs).is_some();
            if valid {
                out.extend(runs.iter().map(|r| {
                    let (s, e) = bounds(*r);
                    (s as u16, (e - s) as u16)
                }));
            }
            valid
        } else {
            self.xor_values(runs, outside.iter().copied(), out)
        };
        self.inside = outside;
        done
    }

    fn xor_values(
        &mut self,
        runs: &[[u8; 4]],
        values: impl ExactSizeIterator<Item = u16>,
        out: &mut Vec<(u16, u16)>,
    ) -> bool {
        if !of_runs(self.k, runs, &mut self.a) {
            return false;
        }
        of_array(values, &mut self.b);
        self.finish(out);
        true
    }

    fn finish(&mut self, out: &mut Vec<(u16, u16)>) {
        self.x.clear();
        (self.k.array_xor)(&self.a, &self.b, &mut self.x);
        to_runs(&self.x, out);
    }
}

/// Replaces `out` with the toggle points of `runs`; `false` unless each run
/// ends by 65535 and starts past the end of the one before, by at least one
/// value (the check of stored run lists, `k.run_checked_card`).
fn of_runs(k: &Kernels, runs: &[[u8; 4]], out: &mut Vec<[u8; 2]>) -> bool {
    if (k.run_checked_card)(runs).is_none() {
        return false;
    }
    out.clear();
    out.resize(2 * runs.len(), [0; 2]);
    for (d, r) in out.as_chunks_mut::<2>().0.iter_mut().zip(runs) {
        // `start | len_minus_1 << 16` becomes `start | (start + len) << 16`
        // in one 32-bit add, which the compiler vectorizes.
        let x = u32::from_le_bytes(*r);
        let [a, b, c, e] = x.wrapping_add(x << 16).wrapping_add(1 << 16).to_le_bytes();
        *d = [[a, b], [c, e]];
    }
    // The point past a run that ends at 65535 (only the last can) is dropped.
    if runs.last().is_some_and(|r| bounds(*r).1 == 65535) {
        out.pop();
    }
    true
}

/// Replaces `out` with the toggle points of a strictly increasing array: the
/// first value of each stretch of consecutive values and the value past its
/// last.
fn of_array(mut values: impl ExactSizeIterator<Item = u16>, out: &mut Vec<[u8; 2]>) {
    out.clear();
    let n = values.len();
    let Some(first) = values.next() else {
        return;
    };
    out.resize(2 * n, [0; 2]);
    let first = u32::from(first);
    out[0] = (first as u16).to_le_bytes();
    let (mut pos, mut next) = (1, first + 1);
    for v in values {
        let v = u32::from(v);
        // A gap ends the stretch at `next` and starts one at `v`; both
        // points are written, and kept only on a gap, so the loop does not
        // branch.
        let gap = usize::from(v != next);
        out[pos] = (next as u16).to_le_bytes();
        pos += gap;
        out[pos] = (v as u16).to_le_bytes();
        pos += gap;
        next = v + 1;
    }
    out[pos] = (next as u16).to_le_bytes();
    pos += usize::from(next < 65536);
    out.truncate(pos);
}

/// Appends the runs between pairs of toggle points.
fn to_runs(points: &[u16], out: &mut Vec<(u16, u16)>) {
    let (pairs, last) = points.as_chunks::<2>();
    out.extend(pairs.iter().map(|&[s, past]| (s, past.wrapping_sub(s).wrapping_sub(1))));
    if let [s] = last {
        out.push((*s, 65535 - *s));
    }
}
