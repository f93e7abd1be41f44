//! Array containers: a sorted, strictly ascending list of `u16` low parts.

/// A borrowed array container: `len` little-endian `u16`s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArrayView<'a> {
    lows: &'a [[u8; 2]],
}

impl<'a> ArrayView<'a> {
    /// The values as stored: sorted little-endian `u16`s, for the kernels.
    #[inline]
    pub(crate) fn lows(&self) -> &'a [[u8; 2]] {
        self.lows
    }

    /// A view over the payload bytes (an odd trailing byte is ignored).
    pub fn new(bytes: &'a [u8]) -> Self {
        ArrayView {
            lows: bytes.as_chunks::<2>().0,
        }
    }

    /// The payload bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.lows.as_flattened()
    }

    /// Number of values.
    #[inline]
    pub fn len(&self) -> usize {
        self.lows.len()
    }

    /// True when there are no values.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.lows.is_empty()
    }

    /// The `i`-th value. Panics when `i >= len()`.
    #[inline]
    pub fn get(&self, i: usize) -> u16 {
        u16::from_le_bytes(self.lows[i])
    }

    /// Number of values `< low`.
    #[inline]
    pub fn rank_lt(&self, low: u16) -> usize {
        self.lows.partition_point(|b| u16::from_le_bytes(*b) < low)
    }

    /// Whether `low` is present.
    ///
    /// A branchless quaternary search narrows the array to a window of
    /// `CONTAINS_WINDOW` values, which are then all compared at once (the
    /// comparisons are independent, so they vectorize instead of waiting on one
    /// load after another).
    // Always inlined: a point query is a few loads, and a call (which the two
    // `contains` paths of a view got) cost census-income 6%.
    #[inline(always)]
    pub fn contains(&self, low: u16) -> bool {
        const W: usize = CONTAINS_WINDOW;
        let lows = self.lows;
        if lows.len() <= W {
            return any_equal(lows, low);
        }
        let mut base = 0usize;
        let mut n = lows.len();
        while n >= W {
            // Three pivots splitting `base..base + n` in quarters, loaded
            // independently: half the levels of a binary search, so half the
            // chain of dependent loads. `c` pivots are < low; the first value
            // >= low is then in `base + c q..=base + c q + q` (or up to
            // `base + n` for c = 3), inside the new range in every case.
            let q = n / 4;
            let below = |k: usize| usize::from(u16::from_le_bytes(lows[base + k * q]) < low);
            let c = below(1) + below(2) + below(3);
            base += c * q;
            n -= 3 * q;
        }
        // Values before `base` are < low and values from `base + n` on are
        // >= low, so the first value >= low is in `base..=base + n` (n < W):
        // inside any W-window that starts at or before `base` and ends after
        // `base + n` or at the end of the array.
        let start = base.min(lows.len() - W);
        let window: &[[u8; 2]; W] = lows[start..start + W].try_into().expect("window");
        any_equal(window, low)
    }

    /// Number of values `<= low`.
    pub fn rank(&self, low: u16) -> usize {
        self.lows.partition_point(|b| u16::from_le_bytes(*b) <= low)
    }

    /// The `k`-th smallest value (0-based).
    pub fn select(&self, k: usize) -> Option<u16> {
        self.lows.get(k).map(|b| u16::from_le_bytes(*b))
    }

    /// Smallest value.
    pub fn min(&self) -> Option<u16> {
        self.lows.first().map(|b| u16::from_le_bytes(*b))
    }

    /// Largest value.
    pub fn max(&self) -> Option<u16> {
        self.lows.last().map(|b| u16::from_le_bytes(*b))
    }

    /// Ascending, double-ended iterator over the values.
    pub fn iter(&self) -> ArrayIter<'a> {
        ArrayIter {
            lows: self.lows.iter(),
        }
    }

    /// Iterator over the values `>= low`.
    pub fn iter_from(&self, low: u16) -> ArrayIter<'a> {
        ArrayIter {
            lows: self.lows[self.rank_lt(low)..].iter(),
        }
    }

    /// Number of maximal runs of consecutive values.
    pub fn count_runs(&self) -> u32 {
        count_runs_sorted(self.iter())
    }

    /// Sets the bit of every value in a 65536-bit scratch bitmap.
    pub fn or_into(&self, words: &mut [u64; 1024]) {
        for low in self.iter() {
            words[usize::from(low >> 6)] |= 1 << (low & 63);
        }
    }
}

/// Number of values [`ArrayView::contains`] compares at once at the end of its
/// binary search.
pub const CONTAINS_WINDOW: usize = 16;

/// Whether any of `lows` is `low`, comparing all of them (no early exit).
#[inline(always)]
fn any_equal(lows: &[[u8; 2]], low: u16) -> bool {
    lows.iter()
        .fold(false, |found, b| found | (u16::from_le_bytes(*b) == low))
}

/// Writes `high | low` for each low of an array payload into `out`, up to the
/// shorter of the two (one widening per value, which vectorizes).
#[inline]
pub fn widen_into(payload: &[u8], high: u64, out: &mut [u64]) {
    for (slot, b) in out.iter_mut().zip(payload.as_chunks::<2>().0) {
        *slot = high | u64::from(u16::from_le_bytes(*b));
    }
}

/// Number of runs in a strictly ascending sequence.
pub fn count_runs_sorted(values: impl IntoIterator<Item = u16>) -> u32 {
    let mut runs = 0;
    let mut prev: Option<u16> = None;
    for v in values {
        if prev.is_none_or(|p| u32::from(p) + 1 != u32::from(v)) {
            runs += 1;
        }
        prev = Some(v);
    }
    runs
}

/// Iterator over an array container.
#[derive(Clone, Debug)]
pub struct ArrayIter<'a> {
    lows: core::slice::Iter<'a, [u8; 2]>,
}

impl ArrayIter<'_> {
    /// Number of values left.
    pub fn remaining(&self) -> usize {
        self.lows.len()
    }

    /// Writes up to `out.len()` next values, each ORed with `high`, and returns how
    /// many were written.
    #[inline]
    pub fn next_batch(&mut self, high: u64, out: &mut [u64]) -> usize {
        let lows = self.lows.as_slice();
        let n = lows.len().min(out.len());
        widen_into(lows[..n].as_flattened(), high, &mut out[..n]);
        self.lows = lows[n..].iter();
        n
    }
}

impl Iterator for ArrayIter<'_> {
    type Item = u16;

    #[inline]
    fn next(&mut self) -> Option<u16> {
        self.lows.next().map(|b| u16::from_le_bytes(*b))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.lows.size_hint()
    }
}

impl DoubleEndedIterator for ArrayIter<'_> {
    #[inline]
    fn next_back(&mut self) -> Option<u16> {
        self.lows.next_back().map(|b| u16::from_le_bytes(*b))
    }
}

impl ExactSizeIterator for ArrayIter<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(v: &[u16]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    #[test]
    fn queries() {
        let b = bytes(&[1, 2, 3, 10, 65535]);
        let a = ArrayView::new(&b);
        assert_eq!(a.len(), 5);
        assert!(a.contains(10) && !a.contains(11) && a.contains(65535));
        assert_eq!(a.rank(0), 0);
        assert_eq!(a.rank(3), 3);
        assert_eq!(a.rank(65535), 5);
        assert_eq!(a.select(3), Some(10));
        assert_eq!(a.select(5), None);
        assert_eq!((a.min(), a.max()), (Some(1), Some(65535)));
        assert_eq!(a.iter().rev().collect::<Vec<_>>(), [65535, 10, 3, 2, 1]);
        assert_eq!(a.iter_from(4).collect::<Vec<_>>(), [10, 65535]);
        assert_eq!(a.count_runs(), 3);
        let mut w = [0u64; 1024];
        a.or_into(&mut w);
        assert_eq!(w[0], 0b1110 | (1 << 10));
        assert_eq!(w[1023], 1 << 63);
    }

    #[test]
    fn contains_every_size() {
        // Sizes up to and past the window and the quaternary phase, and the
        // largest array; lows spaced by 3 (and ending at 65535) so every probe
        // on, between and around them is tried.
        for n in (0..120usize).chain([4095, 4096]) {
            let mut lows: Vec<u16> = (0..n as u16).map(|k| 3 * k + 1).collect();
            if n > 0 {
                *lows.last_mut().unwrap() = 65535;
            }
            let b = bytes(&lows);
            let a = ArrayView::new(&b);
            for probe in (0..=3 * n as u32 + 2).chain(65530..=65535) {
                let p = probe.min(65535) as u16;
                assert_eq!(a.contains(p), lows.contains(&p), "n {n} probe {p}");
            }
        }
    }
}
