//! Streaming union over the container store.

use allocator_api2::alloc::{Allocator, Global};

use super::scratch::{Acc, FULL};
use super::store::{Entry, Store};
use crate::view::RoaringView;
use crate::writer::{CapacityError, Writer};

/// Streaming union: `add` views and `insert` values in any order, then size the
/// output with [`encoded_len`](Self::encoded_len) and write it with
/// [`write_into`](Self::write_into), or [`finish`](Self::finish). The store of
/// `BuildAccumulator`, which users reach as `Accumulator::new(SetOp::Or)`; its unit
/// tests are in `tests.rs` beside it.
#[derive(Clone, Debug)]
pub struct OrAccumulator<A: Allocator + Clone = Global> {
    store: Store<A>,
    /// The key and slot `insert` touched last, to skip the lookup for the next
    /// value of the same container (slots are never removed here).
    #[cfg(test)]
    last: Option<(u64, u32)>,
}

impl OrAccumulator {
    /// An accumulator of the empty set, in the global allocator.
    pub fn new() -> Self {
        Self::new_in(Global)
    }
}

impl Default for OrAccumulator {
    fn default() -> Self {
        Self::new()
    }
}

impl<A: Allocator + Clone> OrAccumulator<A> {
    /// An accumulator of the empty set whose state is allocated through `alloc`.
    pub fn new_in(alloc: A) -> Self {
        OrAccumulator {
            store: Store::new_in(alloc),
            #[cfg(test)]
            last: None,
        }
    }

    /// Adds the values of `v`. Containers are combined in scratch form: nothing
    /// is encoded or counted here.
    pub fn add(&mut self, v: RoaringView<'_>) {
        self.store.add(v, Entry::or);
    }

    /// Adds `value`; true when it was not there yet. (Values reach a union through
    /// `BuildAccumulator`, which buffers them; this path is the unit tests'.)
    #[cfg(test)]
    pub fn insert(&mut self, value: u64) -> bool {
        let (key, lo) = (value >> 16, value as u16);
        let i = match self.last {
            Some((k, i)) if k == key => i,
            _ => match self.store.index.get(&key) {
                Some(&i) => i,
                None => {
                    let mut l = allocator_api2::vec::Vec::with_capacity_in(4, self.store.alloc.clone());
                    l.push(lo.to_le_bytes());
                    let i = self.store.push(key, Acc::Lows(l), 1, true);
                    self.last = Some((key, i));
                    self.store.summary = None;
                    return true;
                }
            },
        };
        self.last = Some((key, i));
        let e = &mut self.store.slots[i as usize];
        if !e.acc.insert(lo) {
            return false;
        }
        e.runs = super::scratch::UNKNOWN;
        if e.card != super::scratch::UNKNOWN {
            e.card += 1;
        }
        self.store.summary = None;
        true
    }

    /// Adds `values`, which must be sorted ascending and distinct (checked only in
    /// debug builds; unsorted input gives a wrong set, never unsafety), one key
    /// lookup per container.
    pub fn insert_sorted(&mut self, values: &[u64]) {
        debug_assert!(values.windows(2).all(|w| w[0] < w[1]));
        if values.is_empty() {
            return;
        }
        self.store.summary = None;
        for (i, chunk) in values.chunk_by(|a, b| a >> 16 == b >> 16).enumerate() {
            if i % 4096 == 4095 {
                crate::interrupt::check();
            }
            let key = chunk[0] >> 16;
            match self.store.get_mut(key) {
                Some(e) if e.card == FULL => {}
                Some(e) => {
                    e.acc.or_sorted(chunk);
                    e.changed();
                }
                None => {
                    let acc = Acc::from_sorted_in(chunk, self.store.alloc.clone());
                    let card = match &acc {
                        Acc::Lows(l) => l.len() as u32,
                        Acc::Words(_) => chunk.len() as u32,
                    };
                    self.store.push(key, acc, card, true);
                }
            }
        }
    }

    /// True when no value was added.
    pub fn is_empty(&self) -> bool {
        self.store.slots.is_empty()
    }

    /// Number of containers accumulated so far.
    #[cfg(test)]
    pub fn container_count(&self) -> usize {
        self.store.slots.len()
    }

    shared_methods!("OrAccumulator");
}

encode_by_store!(OrAccumulator);
