//! Iteration over a view: ascending, double-ended, seekable and batched.

use crate::container::ContainerIter;
use crate::view::RoaringView;

/// Iterator over the values of a [`RoaringView`].
///
/// The front and back cursors move independently over the containers; a count of
/// the values left stops them before they cross.
#[derive(Clone, Debug)]
pub struct Iter<'a> {
    view: RoaringView<'a>,
    /// Next container to open at the front.
    next_front: usize,
    front: Option<(u64, ContainerIter<'a>)>,
    /// One past the next container to open at the back.
    next_back: usize,
    back: Option<(u64, ContainerIter<'a>)>,
    remaining: u64,
}

impl<'a> Iter<'a> {
    pub(crate) fn new(view: RoaringView<'a>) -> Self {
        Iter {
            view,
            next_front: 0,
            front: None,
            next_back: view.container_count(),
            back: None,
            remaining: view.len(),
        }
    }

    pub(crate) fn from(view: RoaringView<'a>, x: u64) -> Self {
        let mut it = Self::new(view);
        let dir = view.directory();
        let i = dir.lower_bound(x >> 16);
        it.next_front = i;
        if i < dir.len() && dir.key(i) == x >> 16 {
            let (key, c) = view.container(i);
            it.front = Some((key << 16, c.iter_from(x as u16)));
            it.next_front = i + 1;
        }
        it.remaining = view.len() - view.rank_lt(x);
        it
    }

    /// Number of values left.
    pub fn remaining(&self) -> u64 {
        self.remaining
    }

    /// Opens the next front container; false when there is none.
    fn advance_front(&mut self) -> bool {
        if self.next_front >= self.view.container_count() {
            self.remaining = 0;
            return false;
        }
        let (key, c) = self.view.container(self.next_front);
        self.next_front += 1;
        self.front = Some((key << 16, c.iter()));
        true
    }

    /// Decodes up to `out.len()` next values into `out` and returns how many were
    /// written; 0 means the iterator is exhausted (or `out` is empty).
    pub fn next_batch(&mut self, out: &mut [u64]) -> usize {
        let want = out
            .len()
            .min(usize::try_from(self.remaining).unwrap_or(usize::MAX));
        let mut n = 0;
        while n < want {
            if let Some((high, it)) = &mut self.front {
                let got = it.next_batch(*high, &mut out[n..want]);
                n += got;
                if got > 0 {
                    continue;
                }
            }
            if !self.advance_front() {
                break;
            }
        }
        self.remaining = self.remaining.saturating_sub(n as u64);
        n
    }
}

impl Iterator for Iter<'_> {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        if self.remaining == 0 {
            return None;
        }
        loop {
            if let Some((high, it)) = &mut self.front {
                if let Some(low) = it.next() {
                    self.remaining -= 1;
                    return Some(*high | u64::from(low));
                }
            }
            if !self.advance_front() {
                return None;
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match usize::try_from(self.remaining) {
            Ok(n) => (n, Some(n)),
            Err(_) => (usize::MAX, None),
        }
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<u64> {
        if self.remaining == 0 {
            return None;
        }
        loop {
            if let Some((high, it)) = &mut self.back {
                if let Some(low) = it.next_back() {
                    self.remaining -= 1;
                    return Some(*high | u64::from(low));
                }
            }
            if self.next_back == 0 {
                self.remaining = 0;
                return None;
            }
            self.next_back -= 1;
            let (key, c) = self.view.container(self.next_back);
            self.back = Some((key << 16, c.iter()));
        }
    }
}
