//! Streaming intersection over the container store.

use allocator_api2::alloc::{Allocator, Global};

use super::scratch::Acc;
use super::scratch::UNKNOWN;
use super::store::Store;
use crate::ops::walk::seek;
use crate::view::RoaringView;
use crate::writer::{CapacityError, Writer};

/// Streaming intersection. It only shrinks: once [`AndAccumulator::is_empty`]
/// says so, callers can stop reading inputs.
///
/// Before the first `add` the accumulator stands for "no constraint yet";
/// finishing it then gives the empty set.
#[derive(Clone, Debug)]
pub struct AndAccumulator<A: Allocator + Clone = Global> {
    /// Slots in key order, all non-empty; the index is not used.
    store: Store<A>,
    started: bool,
}

impl AndAccumulator {
    /// An accumulator with no input yet, in the global allocator.
    pub fn new() -> Self {
        Self::new_in(Global)
    }
}

impl Default for AndAccumulator {
    fn default() -> Self {
        Self::new()
    }
}

impl<A: Allocator + Clone> AndAccumulator<A> {
    /// An accumulator with no input yet whose state is allocated through `alloc`.
    pub fn new_in(alloc: A) -> Self {
        AndAccumulator {
            store: Store::new_in(alloc),
            started: false,
        }
    }

    /// Intersects with the values of `v`, in place.
    pub fn add(&mut self, v: RoaringView<'_>) {
        let dir = v.directory();
        let store = &mut self.store;
        store.summary = None;
        if !self.started {
            self.started = true;
            store.slots.reserve(dir.len());
            for (i, (key, c)) in v.containers().enumerate() {
                let acc = Acc::from_container_in(c, dir.card(i), store.alloc.clone());
                store.push(key, acc, dir.card(i), false);
            }
            return;
        }
        store.ordered = false;
        let mut j = 0;
        // The slots are in key order, so one cursor seeks forward.
        store.slots.retain_mut(|e| {
            j = seek(&dir, j, e.key);
            if j == dir.len() || dir.key(j) != e.key {
                return false;
            }
            e.card = e.acc.intersect(v.container(j).1);
            e.runs = UNKNOWN;
            e.card != 0
        });
    }

    /// True once an input has been added and the intersection is empty: no later
    /// input can change the result. (Before any input the result is empty too,
    /// but this is false: `len() == 0` is the plain test.)
    pub fn is_empty(&self) -> bool {
        self.started && self.store.slots.is_empty()
    }

    /// Number of containers left.
    pub fn container_count(&self) -> usize {
        self.store.slots.len()
    }

    shared_methods!("AndAccumulator");
}

encode_by_store!(AndAccumulator);
