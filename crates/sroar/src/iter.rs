//! Iteration over a view: ascending, double-ended, seekable and batched.

use crate::container::{array, bitmap, run, ContainerIter, Kind};
use crate::view::RoaringView;

impl<'a> RoaringView<'a> {
    /// Ascending iterator over the values; `.rev()` iterates descending.
    pub fn iter(&self) -> Iter<'a> {
        Iter::new(*self)
    }

    /// Ascending iterator over the values `>= x`.
    pub fn iter_from(&self, x: u64) -> Iter<'a> {
        Iter::from(*self, x)
    }
}

impl<'a> IntoIterator for &RoaringView<'a> {
    type Item = u64;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

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
    /// written; 0 means the iterator is exhausted (or `out` is empty). Slots of
    /// `out` past those may be overwritten (the SIMD decoders write whole vectors).
    pub fn next_batch(&mut self, out: &mut [u64]) -> usize {
        let want = out
            .len()
            .min(usize::try_from(self.remaining).unwrap_or(usize::MAX));
        let out = &mut out[..want];
        let mut n = 0;
        if let Some((high, it)) = &mut self.front {
            n = it.next_batch(*high, out);
            if n < want {
                // A container iterator stops short only when it is exhausted.
                self.front = None;
            }
        }
        if n < want {
            n += self.decode_containers(&mut out[n..]);
            if n < want {
                // Out of containers: nothing is left, whatever the count said.
                self.remaining = 0;
                return n;
            }
        }
        self.remaining -= n as u64;
        n
    }

    /// Decodes whole containers from `next_front` on straight from the directory
    /// and the payload bytes into `out`; the first container that does not fit in
    /// what is left of `out` becomes the front iterator and fills the rest. The
    /// front iterator must be empty. Returns the number of values written, less
    /// than `out.len()` only when the containers run out.
    ///
    /// A whole container is decoded only when it fits, and `out` is never longer
    /// than the count of values left, so a container the back cursor has started
    /// on is never decoded whole: it goes through an iterator bounded by `out`.
    fn decode_containers(&mut self, out: &mut [u64]) -> usize {
        let bytes = self.view.as_bytes();
        let dir = self.view.directory();
        let mut n = 0;
        let mut i = self.next_front;
        // Each payload starts where the one before ends (see `slot_from`).
        let mut next_start = dir.start(i);
        while n < out.len() && i < dir.len() {
            let (high, card) = (dir.key(i) << 16, dir.card(i) as usize);
            let rest = &mut out[n..];
            if card <= rest.len() {
                let dst = &mut rest[..card];
                let (kind, start, end) = dir.slot_from(i, next_start);
                next_start = end;
                let payload = &bytes[start..end];
                match kind {
                    Kind::Array => array::widen_into(payload, high, dst),
                    Kind::Bitmap => bitmap::decode_into(payload, high, dst),
                    Kind::Run => run::decode_into(payload, high, dst),
                }
                n += card;
                i += 1;
            } else {
                let mut it = self.view.container(i).1.iter();
                n += it.next_batch(high, rest);
                self.front = Some((high, it));
                i += 1;
                break;
            }
        }
        self.next_front = i;
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

    fn count(self) -> usize {
        usize::try_from(self.remaining).expect("count fits in usize")
    }

    /// Folds through [`Iter::next_batch`]: the values are decoded a batch at a
    /// time, not one `next` at a time.
    fn fold<B, F>(mut self, init: B, mut f: F) -> B
    where
        F: FnMut(B, u64) -> B,
    {
        let mut buf = [0u64; 256];
        let mut acc = init;
        loop {
            let n = self.next_batch(&mut buf);
            if n == 0 {
                return acc;
            }
            for &x in &buf[..n] {
                acc = f(acc, x);
            }
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
