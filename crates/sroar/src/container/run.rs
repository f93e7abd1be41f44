//! Run containers: sorted, separated runs `(start: u16, len_minus_1: u16)`.

/// A borrowed run container.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunView<'a> {
    runs: &'a [[u8; 4]],
}

impl<'a> RunView<'a> {
    /// A view over the payload bytes (trailing bytes short of a run are ignored).
    pub fn new(bytes: &'a [u8]) -> Self {
        RunView {
            runs: bytes.as_chunks::<4>().0,
        }
    }

    /// The payload bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.runs.as_flattened()
    }

    /// Number of runs.
    #[inline]
    pub fn count_runs(&self) -> u32 {
        self.runs.len() as u32
    }

    /// Run `i` as `(start, last)`, both inclusive.
    #[inline]
    pub fn run(&self, i: usize) -> (u16, u16) {
        let b = self.runs[i];
        let start = u16::from_le_bytes([b[0], b[1]]);
        let len1 = u16::from_le_bytes([b[2], b[3]]);
        (start, start.saturating_add(len1))
    }

    /// Iterator over the runs as `(start, last)`.
    pub fn runs(&self) -> impl DoubleEndedIterator<Item = (u16, u16)> + 'a {
        let v = *self;
        (0..self.runs.len()).map(move |i| v.run(i))
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.runs().map(|(s, e)| usize::from(e - s) + 1).sum()
    }

    /// True when there are no values.
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// Number of runs whose start is `<= low`.
    #[inline]
    fn runs_starting_at_or_before(&self, low: u16) -> usize {
        self.runs
            .partition_point(|b| u16::from_le_bytes([b[0], b[1]]) <= low)
    }

    /// Whether `low` is present.
    ///
    /// A branchless binary search over the run starts narrows the list to a
    /// window of `CONTAINS_WINDOW` runs, which are then all tested at once
    /// (independent tests, which vectorize, rather than a chain of loads).
    // Always inlined: a point query is a few loads, and a call (which the two
    // `contains` paths of a view got) cost census-income 6%.
    #[inline(always)]
    pub fn contains(&self, low: u16) -> bool {
        const W: usize = CONTAINS_WINDOW;
        let runs = self.runs;
        if runs.len() <= W {
            return any_covers(runs, low);
        }
        let mut base = 0usize;
        let mut n = runs.len();
        while n >= W {
            let half = n / 2;
            let b = runs[base + half];
            // A select, not a branch: random probes would mispredict it.
            base = select_unpredictable(u16::from_le_bytes([b[0], b[1]]) <= low, base + half, base);
            n -= half;
        }
        // Runs before `base` start at or before `low` (and so does run `base`
        // itself once `base` moved) and runs from `base + n` on start after it,
        // so the last run starting at or before `low` (the only one that can
        // hold it) is in `base..base + n`, n < W: inside any W-window starting
        // at or before `base` and ending at or after `base + n` or at the end.
        let start = base.min(runs.len() - W);
        let window: &[[u8; 4]; W] = runs[start..start + W].try_into().expect("window");
        any_covers(window, low)
    }

    /// Number of values `<= low`.
    pub fn rank(&self, low: u16) -> usize {
        let i = self.runs_starting_at_or_before(low);
        let before: usize = (0..i.saturating_sub(1))
            .map(|j| {
                let (s, e) = self.run(j);
                usize::from(e - s) + 1
            })
            .sum();
        match i {
            0 => 0,
            _ => {
                let (s, e) = self.run(i - 1);
                before + usize::from(low.min(e) - s) + 1
            }
        }
    }

    /// Number of values `< low`.
    pub fn rank_lt(&self, low: u16) -> usize {
        match low.checked_sub(1) {
            Some(l) => self.rank(l),
            None => 0,
        }
    }

    /// The `k`-th smallest value (0-based).
    pub fn select(&self, k: usize) -> Option<u16> {
        let mut k = k;
        for (s, e) in self.runs() {
            let n = usize::from(e - s) + 1;
            if k < n {
                return Some(s + k as u16);
            }
            k -= n;
        }
        None
    }

    /// Smallest value.
    pub fn min(&self) -> Option<u16> {
        (!self.runs.is_empty()).then(|| self.run(0).0)
    }

    /// Largest value.
    pub fn max(&self) -> Option<u16> {
        (!self.runs.is_empty()).then(|| self.run(self.runs.len() - 1).1)
    }

    /// Ascending, double-ended iterator over the values.
    pub fn iter(&self) -> RunIter<'a> {
        let n = self.runs.len();
        RunIter {
            view: *self,
            front: 0,
            front_val: self.min().map_or(0, u32::from),
            back: n.saturating_sub(1),
            back_val: self.max().map_or(-1, i32::from),
            remaining: self.len(),
        }
    }

    /// Iterator over the values `>= low`.
    pub fn iter_from(&self, low: u16) -> RunIter<'a> {
        let mut it = self.iter();
        let i = self.runs_starting_at_or_before(low);
        if i > 0 && low <= self.run(i - 1).1 {
            it.front = i - 1;
            it.front_val = u32::from(low);
        } else if i < self.runs.len() {
            it.front = i;
            it.front_val = u32::from(self.run(i).0);
        }
        it.remaining -= self.rank_lt(low);
        it
    }

    /// Sets the bit of every value in a 65536-bit scratch bitmap.
    pub fn or_into(&self, words: &mut [u64; 1024]) {
        for (s, e) in self.runs() {
            super::bitmap::set_range(words, s, e);
        }
    }
}

use core::hint::select_unpredictable;

/// Number of runs [`RunView::contains`] tests at once at the end of its binary
/// search.
pub const CONTAINS_WINDOW: usize = 8;

/// Whether any of `runs` holds `low`, testing all of them (no early exit):
/// `low - start` (wrapping) is at most the run's length - 1 exactly when
/// `start <= low <= start + len - 1`.
#[inline(always)]
fn any_covers(runs: &[[u8; 4]], low: u16) -> bool {
    runs.iter().fold(false, |found, r| {
        let start = u16::from_le_bytes([r[0], r[1]]);
        let len1 = u16::from_le_bytes([r[2], r[3]]);
        found | (low.wrapping_sub(start) <= len1)
    })
}

/// Writes every value of the run payload starting at `payload` (trailing bytes
/// past the container are allowed and not read), each ORed with `high`, into
/// `out`, whose length must be the container's cardinality.
///
/// # Panics
/// If the runs hold more values than `out` has room for (a corrupt buffer).
#[inline]
pub fn decode_into(payload: &[u8], high: u64, out: &mut [u64]) {
    let mut n = 0;
    for r in payload.as_chunks::<4>().0 {
        if n >= out.len() {
            break;
        }
        let start = u16::from_le_bytes([r[0], r[1]]);
        let len = usize::from(u16::from_le_bytes([r[2], r[3]])) + 1;
        let base = high | u64::from(start);
        for (k, slot) in out[n..n + len].iter_mut().enumerate() {
            *slot = base + k as u64;
        }
        n += len;
    }
}

/// Iterator over a run container.
///
/// The front and back cursors move independently; `remaining` stops them before
/// they cross.
#[derive(Clone, Debug)]
pub struct RunIter<'a> {
    view: RunView<'a>,
    front: usize,
    front_val: u32,
    back: usize,
    back_val: i32,
    remaining: usize,
}

impl RunIter<'_> {
    /// Number of values left.
    pub fn remaining(&self) -> usize {
        self.remaining
    }

    /// Moves the front cursor to a run that still has values; false at the end.
    #[inline]
    fn settle_front(&mut self) -> bool {
        if self.front_val > u32::from(self.view.run(self.front).1) {
            if self.front + 1 >= self.view.runs.len() {
                self.remaining = 0;
                return false;
            }
            self.front += 1;
            self.front_val = u32::from(self.view.run(self.front).0);
        }
        true
    }

    /// Writes up to `out.len()` next values, each ORed with `high`, and returns how
    /// many were written.
    pub fn next_batch(&mut self, high: u64, out: &mut [u64]) -> usize {
        let want = out.len().min(self.remaining);
        let mut n = 0;
        while n < want {
            if !self.settle_front() {
                return n;
            }
            let last = u32::from(self.view.run(self.front).1);
            let take = ((last - self.front_val + 1) as usize).min(want - n);
            let base = high | u64::from(self.front_val);
            crate::kernels::values::fill_consecutive(&mut out[n..n + take], base);
            self.front_val += take as u32;
            n += take;
            self.remaining -= take;
        }
        n
    }
}

impl Iterator for RunIter<'_> {
    type Item = u16;

    fn next(&mut self) -> Option<u16> {
        if self.remaining == 0 || !self.settle_front() {
            return None;
        }
        let v = self.front_val as u16;
        self.front_val += 1;
        self.remaining -= 1;
        Some(v)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl DoubleEndedIterator for RunIter<'_> {
    fn next_back(&mut self) -> Option<u16> {
        if self.remaining == 0 {
            return None;
        }
        if self.back_val < i32::from(self.view.run(self.back).0) {
            if self.back == 0 {
                self.remaining = 0;
                return None;
            }
            self.back -= 1;
            self.back_val = i32::from(self.view.run(self.back).1);
        }
        let v = self.back_val as u16;
        self.back_val -= 1;
        self.remaining -= 1;
        Some(v)
    }
}

impl ExactSizeIterator for RunIter<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(runs: &[(u16, u16)]) -> Vec<u8> {
        runs.iter()
            .flat_map(|(s, l)| s.to_le_bytes().into_iter().chain(l.to_le_bytes()))
            .collect()
    }

    #[test]
    fn queries_and_iterators() {
        let b = bytes(&[(0, 2), (10, 0), (65530, 5)]);
        let r = RunView::new(&b);
        assert_eq!(r.len(), 10);
        assert_eq!(r.count_runs(), 3);
        assert!(r.contains(0) && r.contains(2) && !r.contains(3) && r.contains(65535));
        assert_eq!(r.rank(1), 2);
        assert_eq!(r.rank(9), 3);
        assert_eq!(r.rank(10), 4);
        assert_eq!(r.rank(65535), 10);
        assert_eq!(r.rank_lt(0), 0);
        assert_eq!(r.select(3), Some(10));
        assert_eq!(r.select(9), Some(65535));
        assert_eq!(r.select(10), None);
        assert_eq!((r.min(), r.max()), (Some(0), Some(65535)));
        let all: Vec<u16> = r.iter().collect();
        assert_eq!(all, [0, 1, 2, 10, 65530, 65531, 65532, 65533, 65534, 65535]);
        let mut rev: Vec<u16> = r.iter().rev().collect();
        rev.reverse();
        assert_eq!(all, rev);
        assert_eq!(r.iter_from(3).collect::<Vec<_>>()[..2], [10, 65530]);
        assert_eq!(r.iter_from(1).count(), 9);
        let mut it = r.iter();
        assert_eq!(it.next(), Some(0));
        assert_eq!(it.next_back(), Some(65535));
        let mut out = [0u64; 16];
        assert_eq!(it.next_batch(0, &mut out), 8);
        assert_eq!(out[..8], [1, 2, 10, 65530, 65531, 65532, 65533, 65534]);
        assert_eq!(it.next(), None);
    }

    #[test]
    fn contains_every_size() {
        // Run counts up to and past the window; runs of 1 and 2 values with
        // gaps of 2, the last one ending at 65535.
        for n in 0..60u16 {
            let mut runs: Vec<(u16, u16)> = (0..n).map(|k| (5 * k, k % 2)).collect();
            if n > 0 {
                runs.push((65533, 2));
            }
            let b = bytes(&runs);
            let r = RunView::new(&b);
            let model = |x: u16| runs.iter().any(|&(s, l)| s <= x && x - s <= l);
            for x in (0..5 * n + 5).chain(65528..=65535) {
                assert_eq!(r.contains(x), model(x), "runs {} probe {x}", runs.len());
            }
        }
    }
}
