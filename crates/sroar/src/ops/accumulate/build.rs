//! Building a set one value (or one small set) at a time, as `rb_build_agg` and
//! `rb_or_agg` do: values are appended to a buffer and sorted once, not inserted
//! one by one into containers.
//!
//! A small set (the common case: one set per user, a few ids each) never leaves the
//! buffer: it is sorted and deduplicated when it is sized, and written straight from
//! the sorted slice ([`SortedValues`]). A large one moves into an
//! [`OrAccumulator`] a sorted batch at a time, so the buffer stays bounded at
//! [`FLUSH_AT`] values whatever the input's size.

use allocator_api2::alloc::{Allocator, Global};
use allocator_api2::vec::Vec;

use super::or::OrAccumulator;
use crate::format::encode::Encode;
use crate::sorted::SortedValues;
use crate::view::RoaringView;
use crate::writer::{CapacityError, Writer};

/// The buffer's size, in values, at which it moves into the container store
/// (512 kB of `u64`s).
pub const FLUSH_AT: usize = 1 << 16;

/// Sets of at most this many values go to the buffer.
const SPARSE_SET: u64 = 64;
/// Sets of at most this many values per container, on average, go to the buffer.
const SPARSE_PER_CONTAINER: u64 = 8;

/// Streaming build of a set from values in any order, with duplicates: `insert`
/// values (and `add` whole sets), then size the result with
/// [`encoded_len`](Self::encoded_len) and write it with
/// [`write_into`](Self::write_into). The union behind `Accumulator::new(SetOp::Or)`:
///
/// ```
/// use sroar::{Accumulator, Encode, RoaringView, SetOp};
///
/// let mut acc = Accumulator::new(SetOp::Or);
/// for v in [7, 1 << 40, 7, 3] {
///     acc.insert(v);
/// }
/// assert_eq!(acc.len(), 3);
/// let mut out = vec![0; acc.encoded_len().unwrap()];
/// acc.write_into(&mut out).unwrap();
/// assert_eq!(RoaringView::from_bytes(&out).unwrap().iter().collect::<Vec<_>>(), [3, 7, 1 << 40]);
/// ```
#[derive(Clone, Debug)]
pub struct BuildAccumulator<A: Allocator + Clone = Global> {
    /// Values not yet in `store`, in arrival order unless `sorted`.
    buffer: Vec<u64, A>,
    /// The buffer is sorted ascending and holds no duplicate.
    sorted: bool,
    /// Everything flushed so far; empty for a set that fits the buffer.
    store: OrAccumulator<A>,
}

impl BuildAccumulator {
    /// An accumulator of the empty set, in the global allocator.
    pub fn new() -> Self {
        Self::new_in(Global)
    }
}

impl Default for BuildAccumulator {
    fn default() -> Self {
        Self::new()
    }
}

impl<A: Allocator + Clone> BuildAccumulator<A> {
    /// An accumulator of the empty set whose state is allocated through `alloc`.
    pub fn new_in(alloc: A) -> Self {
        BuildAccumulator {
            buffer: Vec::new_in(alloc.clone()),
            sorted: true,
            store: OrAccumulator::new_in(alloc),
        }
    }

    /// Adds `value` (a duplicate is dropped when the set is sized).
    #[inline]
    pub fn insert(&mut self, value: u64) {
        if self.buffer.len() == FLUSH_AT {
            self.flush();
        }
        if self.buffer.capacity() == 0 {
            // Room for a few values at once: most sets are small.
            self.buffer.reserve(8);
        }
        self.sorted &= self.buffer.last().is_none_or(|&last| last < value);
        self.buffer.push(value);
    }

    /// Adds every value of `v`: a small or sparse set value by value into the
    /// buffer (scattered ids cost 8 bytes each there, against a whole scratch
    /// container each in the store), a dense one container by container.
    pub fn add(&mut self, v: RoaringView<'_>) {
        let (len, containers) = (v.len(), v.container_count() as u64);
        if len <= SPARSE_SET || len <= SPARSE_PER_CONTAINER * containers {
            if self.buffer.len() as u64 + len > FLUSH_AT as u64 {
                self.flush();
            }
            if len as usize <= FLUSH_AT {
                self.buffer.reserve(len as usize);
                let mut iter = v.iter();
                let mut batch = [0u64; 256];
                loop {
                    let n = iter.next_batch(&mut batch);
                    if n == 0 {
                        break;
                    }
                    // Values of a set arrive ascending: the buffer stays sorted
                    // when they all come after what it holds.
                    self.sorted &= self.buffer.last().is_none_or(|&last| last < batch[0]);
                    self.buffer.extend_from_slice(&batch[..n]);
                }
                return;
            }
        }
        self.flush();
        self.store.add(v);
    }

    /// True when no value was added.
    pub fn is_empty(&self) -> bool {
        self.buffer.is_empty() && self.store.is_empty()
    }

    /// Number of distinct values added (sorts the buffer if it has to).
    pub fn len(&mut self) -> u64 {
        if self.store.is_empty() {
            self.sort();
            self.buffer.len() as u64
        } else {
            self.flush();
            self.store.len()
        }
    }

    /// Length of the canonical encoding of the set. Sorts the buffer, or moves it
    /// into the store, so that [`write_into`](Self::write_into) only writes.
    pub fn encoded_len(&mut self) -> Result<usize, CapacityError> {
        if self.store.is_empty() {
            self.sort();
            SortedValues::new_unchecked(&self.buffer).encoded_len()
        } else {
            self.flush();
            self.store.encoded_len()
        }
    }

    /// Writes the canonical encoding into `out`, whose length must be
    /// [`encoded_len`](Self::encoded_len).
    ///
    /// # Panics
    /// If values were added since the last [`encoded_len`](Self::encoded_len) (or
    /// it was never called), or if `out.len()` differs from it.
    pub fn write_into(&self, out: &mut [u8]) -> Result<(), CapacityError> {
        if self.store.is_empty() {
            assert!(
                self.sorted,
                "sroar: encoded_len must be called after the last change, before write_into"
            );
            SortedValues::new_unchecked(&self.buffer).write_into(out)
        } else {
            assert!(
                self.buffer.is_empty(),
                "sroar: encoded_len must be called after the last change, before write_into"
            );
            self.store.write_into(out)
        }
    }

    /// The set, as an unfinished [`Writer`] (allocated globally).
    pub fn finish(mut self) -> Writer {
        self.flush();
        self.store.finish()
    }

    fn sort(&mut self) {
        if !self.sorted {
            self.buffer.sort_unstable();
            self.buffer.dedup();
            self.sorted = true;
        }
    }

    /// Moves the buffer into the store.
    fn flush(&mut self) {
        if self.buffer.is_empty() {
            return;
        }
        self.sort();
        self.store.insert_sorted(&self.buffer);
        self.buffer.clear();
        crate::interrupt::check();
    }
}

impl<A: Allocator + Clone> Encode for BuildAccumulator<A> {
    fn encoded_len(&mut self) -> Result<usize, CapacityError> {
        BuildAccumulator::encoded_len(self)
    }

    fn write_into(&self, out: &mut [u8]) -> Result<(), CapacityError> {
        BuildAccumulator::write_into(self, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn encode(acc: &mut BuildAccumulator) -> std::vec::Vec<u8> {
        let mut out = vec![0u8; acc.encoded_len().unwrap()];
        acc.write_into(&mut out).unwrap();
        out
    }

    #[test]
    fn matches_a_model_across_flushes() {
        // A deterministic spread: small keys, keys near 2^32 and 2^48, and the top.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut model = BTreeSet::new();
        let mut acc = BuildAccumulator::new();
        for i in 0..(3 * FLUSH_AT + 123) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = match i % 5 {
                0 => x % 70_000,
                1 => (1 << 32) + x % 200_000,
                2 => (1 << 48) - 5 + x % 10,
                3 => u64::MAX - x % 3,
                _ => x,
            };
            acc.insert(v);
            model.insert(v);
        }
        assert_eq!(acc.len(), model.len() as u64);
        let bytes = encode(&mut acc);
        let expected = crate::builder::from_sorted(&model.iter().copied().collect::<std::vec::Vec<_>>());
        assert_eq!(bytes, expected.unwrap());
        assert_eq!(acc.finish().into_vec().unwrap(), bytes);
    }

    #[test]
    fn sparse_and_dense_sets_union_like_a_model() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut model = BTreeSet::new();
        let mut acc = BuildAccumulator::new();
        for i in 0..3000 {
            let set: std::vec::Vec<u64> = match i % 4 {
                // Scattered ids (buffered), some at the edges of the key space.
                0 => (0..3).map(|_| next()).collect(),
                1 => vec![0, 1 << 16, 1 << 32, 1 << 48, u64::MAX],
                // A dense range and a bitmap-like stripe (to the store).
                2 => (0..2000).map(|k| (i as u64) * 1000 + k).collect(),
                _ => (0..10_000)
                    .map(|k| (1 << 40) + 3 * k + i as u64 % 3)
                    .collect(),
            };
            let bytes = crate::builder::from_unsorted(&set).unwrap();
            acc.add(RoaringView::from_bytes(&bytes).unwrap());
            model.extend(set);
            if i % 7 == 0 {
                acc.insert(i as u64 * 65_537);
                model.insert(i as u64 * 65_537);
            }
        }
        assert_eq!(acc.len(), model.len() as u64);
        let expected = crate::builder::from_sorted(&model.iter().copied().collect::<std::vec::Vec<_>>());
        assert_eq!(encode(&mut acc), expected.unwrap());
    }

    #[test]
    fn small_sets_stay_in_the_buffer_and_sets_merge() {
        let mut acc = BuildAccumulator::new();
        assert!(acc.is_empty());
        assert_eq!(encode(&mut acc), crate::builder::empty());
        for v in [5, 0, 5, 1 << 16] {
            acc.insert(v);
        }
        assert!(acc.store.is_empty());
        assert_eq!(
            encode(&mut acc),
            crate::builder::from_sorted(&[0, 5, 1 << 16]).unwrap()
        );
        let other = crate::builder::from_sorted(&[1, 5, u64::MAX]).unwrap();
        acc.add(RoaringView::from_bytes(&other).unwrap());
        acc.insert(2);
        assert_eq!(acc.len(), 6);
        assert_eq!(
            encode(&mut acc),
            crate::builder::from_sorted(&[0, 1, 2, 5, 1 << 16, u64::MAX]).unwrap()
        );
    }
}
