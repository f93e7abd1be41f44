//! Streaming symmetric difference over the container store.

use allocator_api2::alloc::{Allocator, Global};

use super::store::{Entry, Store};
use crate::view::RoaringView;
use crate::writer::{CapacityError, Writer};

/// Streaming symmetric difference: the values added an odd number of times.
#[derive(Clone, Debug)]
pub struct XorAccumulator<A: Allocator + Clone = Global> {
    store: Store<A>,
}

impl XorAccumulator {
    /// An accumulator of the empty set, in the global allocator.
    pub fn new() -> Self {
        Self::new_in(Global)
    }
}

impl Default for XorAccumulator {
    fn default() -> Self {
        Self::new()
    }
}

impl<A: Allocator + Clone> XorAccumulator<A> {
    /// An accumulator of the empty set whose state is allocated through `alloc`.
    pub fn new_in(alloc: A) -> Self {
        XorAccumulator {
            store: Store::new_in(alloc),
        }
    }

    /// Flips the values of `v`. Containers that cancel out are kept, empty, until
    /// the end, and are not encoded.
    pub fn add(&mut self, v: RoaringView<'_>) {
        self.store.add(v, Entry::xor);
    }

    /// True when the current result is empty (counts changed bitmap containers).
    pub fn is_empty(&self) -> bool {
        self.store.slots.iter().all(|e| e.card() == 0)
    }

    shared_methods!("XorAccumulator");
}

encode_by_store!(XorAccumulator);
