//! The keyed store of scratch containers every accumulator keeps, with the cached
//! layout of its result: sized once after the last change, then written straight
//! into the caller's memory through the one encoder.

use allocator_api2::alloc::Allocator;
use allocator_api2::vec::Vec;
use hashbrown::HashMap;

use super::scratch::{Acc, FULL, UNKNOWN};
use crate::container::bitmap::WORDS;
use crate::container::{canonical_kind, payload_len, Container, Kind};
use crate::format::encode::{Encoder, Layout, Plan};
use crate::ops::key_hash::KeyHash;
use crate::view::RoaringView;
use crate::writer::{CapacityError, Writer};


/// One key's scratch container with its cached summary.
#[derive(Clone, Debug)]
pub(super) struct Entry<A: Allocator + Clone> {
    pub(super) key: u64,
    pub(super) acc: Acc<A>,
    /// Cardinality, or [`UNKNOWN`].
    pub(super) card: u32,
    /// Number of maximal runs (counted until at least
    /// [`RUNS_CAP`](crate::container::RUNS_CAP)), or [`UNKNOWN`].
    pub(super) runs: u32,
}

impl<A: Allocator + Clone> Entry<A> {
    pub(super) fn new(key: u64, acc: Acc<A>, card: u32) -> Self {
        Entry {
            key,
            acc,
            card,
            runs: UNKNOWN,
        }
    }

    /// Forgets the counts after a change the counts were not kept through.
    pub(super) fn changed(&mut self) {
        self.runs = UNKNOWN;
        self.card = match &self.acc {
            Acc::Lows(l) => l.len() as u32,
            Acc::Words(_) => UNKNOWN,
        };
    }

    /// `acc ∪= c` (`card` values). A full container stays full whatever comes, so
    /// it reads no more input: unions of dense sets fill many of their containers
    /// early on.
    pub(super) fn or(&mut self, c: Container<'_>, card: u32) {
        if self.card != FULL {
            self.card = self.acc.or(c, card);
            self.runs = UNKNOWN;
        }
    }

    /// `acc ⊕= c` (`card` values).
    pub(super) fn xor(&mut self, c: Container<'_>, card: u32) {
        self.acc.xor(c, card);
        self.changed();
    }

    pub(super) fn card(&self) -> u32 {
        if self.card == UNKNOWN {
            self.acc.card()
        } else {
            self.card
        }
    }

    /// Counts what is unknown.
    pub(super) fn summarize(&mut self) {
        if self.card == UNKNOWN {
            self.card = self.acc.card();
        }
        if self.runs == UNKNOWN {
            self.runs = self.acc.runs();
        }
    }

    /// Canonical kind and payload length; the counts must be known.
    pub(super) fn kind(&self) -> (Kind, usize) {
        let kind = canonical_kind(self.card, self.runs);
        (kind, payload_len(kind, self.card, self.runs))
    }
}

/// The keyed scratch containers shared by the three accumulators, with the cached
/// encoding plan.
#[derive(Clone, Debug)]
pub(super) struct Store<A: Allocator + Clone> {
    pub(super) slots: Vec<Entry<A>, A>,
    /// Key to slot (unused by [`AndAccumulator`], whose slots stay in key order).
    pub(super) index: HashMap<u64, u32, KeyHash, A>,
    /// Slots in key order, valid when `ordered`.
    pub(super) order: Vec<u32, A>,
    pub(super) ordered: bool,
    /// Where the result goes, valid until the next change.
    pub(super) summary: Option<Plan>,
    pub(super) alloc: A,
}

impl<A: Allocator + Clone> Store<A> {
    pub(super) fn new_in(alloc: A) -> Self {
        Store {
            slots: Vec::new_in(alloc.clone()),
            index: HashMap::with_hasher_in(KeyHash::new(), alloc.clone()),
            order: Vec::new_in(alloc.clone()),
            ordered: true,
            summary: None,
            alloc,
        }
    }

    /// The slot of `key`, through the index.
    pub(super) fn get_mut(&mut self, key: u64) -> Option<&mut Entry<A>> {
        let i = *self.index.get(&key)?;
        Some(&mut self.slots[i as usize])
    }

    /// Appends a new key; `indexed` enters it in the index. Returns its slot.
    pub(super) fn push(&mut self, key: u64, acc: Acc<A>, card: u32, indexed: bool) -> u32 {
        let i = self.slots.len() as u32;
        self.slots.push(Entry::new(key, acc, card));
        if indexed {
            self.index.insert(key, i);
        }
        self.ordered = false;
        i
    }

    /// Adds every container of `v`, combining those of known keys with `f`.
    pub(super) fn add(&mut self, v: RoaringView<'_>, f: impl Fn(&mut Entry<A>, Container<'_>, u32)) {
        let dir = v.directory();
        if dir.is_empty() {
            return;
        }
        self.summary = None;
        for (i, (key, c)) in v.containers().enumerate() {
            if i % 4096 == 4095 {
                crate::interrupt::check();
            }
            let card = dir.card(i);
            match self.get_mut(key) {
                Some(e) => f(e, c, card),
                None => {
                    let acc = Acc::from_container_in(c, card, self.alloc.clone());
                    self.push(key, acc, card, true);
                }
            }
        }
    }

    pub(super) fn len(&self) -> u64 {
        match self.summary {
            Some(s) => s.cardinality(),
            None => self.slots.iter().map(|e| u64::from(e.card())).sum(),
        }
    }

    pub(super) fn sort(&mut self) {
        if !self.ordered {
            self.order.clear();
            self.order.extend(0..self.slots.len() as u32);
            let slots = &self.slots;
            self.order.sort_unstable_by_key(|&i| slots[i as usize].key);
            self.ordered = true;
        }
    }

    pub(super) fn encoded_len(&mut self) -> Result<usize, CapacityError> {
        let layout = match self.summary {
            Some(l) => l,
            None => {
                self.sort();
                let mut l = Layout::new();
                let (mut first, mut last) = (None, None);
                for &i in self.order.iter() {
                    let e = &mut self.slots[i as usize];
                    e.summarize();
                    if e.card == 0 {
                        continue;
                    }
                    first.get_or_insert(i);
                    last = Some(i);
                    l.push(e.key, e.card, e.kind().1);
                }
                if let (Some(f), Some(t)) = (first, last) {
                    let (f, t) = (&self.slots[f as usize], &self.slots[t as usize]);
                    l.bounds(
                        f.key << 16 | u64::from(f.acc.min_max().0),
                        t.key << 16 | u64::from(t.acc.min_max().1),
                    );
                }
                let plan = l.plan();
                self.summary = Some(plan);
                plan
            }
        };
        layout.len()
    }

    pub(super) fn write_into(&self, out: &mut [u8]) -> Result<(), CapacityError> {
        let layout = self
            .summary
            .expect("sroar: encoded_len must be called after the last change, before write_into");
        let mut enc = Encoder::new(out, &layout)?;
        for &i in self.order.iter() {
            let e = &self.slots[i as usize];
            if e.card == 0 {
                continue;
            }
            let (kind, size) = e.kind();
            e.acc.write(kind, enc.container(e.key, e.card, kind, size));
        }
        Ok(())
    }

    pub(super) fn finish(mut self) -> Writer {
        self.sort();
        let payload = self
            .slots
            .iter()
            .map(|e| match &e.acc {
                Acc::Lows(l) => 2 * l.len(),
                Acc::Words(_) => 8 * WORDS,
            })
            .sum();
        let mut w = Writer::with_capacity(self.slots.len(), payload);
        let mut tmp = std::vec::Vec::new();
        for &i in self.order.iter() {
            let e = &self.slots[i as usize];
            e.acc.push(e.key, &mut w, &mut tmp);
        }
        w
    }
}

/// The methods every accumulator shares, over its `store`.
macro_rules! shared_methods {
    ($name:literal) => {
        /// Number of values in the current result (no encoding; counts only the
        /// bitmap containers changed since they were last counted).
        pub fn len(&self) -> u64 {
            self.store.len()
        }

        /// Length of the canonical encoding of the current result. Counts each
        /// container changed since the last call (values and runs) and sorts the
        /// keys if new ones came, then caches all that until the next change.
        pub fn encoded_len(&mut self) -> Result<usize, CapacityError> {
            self.store.encoded_len()
        }

        #[doc = concat!("Writes the canonical encoding of the current result into `out`, whose length must be [`", $name, "::encoded_len`], from the cached counts: the bytes equal `finish().into_vec()`. Allocates nothing.")]
        ///
        /// # Panics
        #[doc = concat!("If the state changed since the last [`", $name, "::encoded_len`] (or it was never called), or if `out.len()` differs from it.")]
        pub fn write_into(&self, out: &mut [u8]) -> Result<(), CapacityError> {
            self.store.write_into(out)
        }

        /// The current result, as an unfinished [`Writer`] (allocated globally).
        pub fn finish(self) -> Writer {
            self.store.finish()
        }
    };
}

/// [`Encode`](crate::format::encode::Encode) for an accumulator, over its `store`.
macro_rules! encode_by_store {
    ($t:ident) => {
        impl<A: Allocator + Clone> crate::format::encode::Encode for $t<A> {
            fn encoded_len(&mut self) -> Result<usize, CapacityError> {
                self.store.encoded_len()
            }

            fn write_into(&self, out: &mut [u8]) -> Result<(), CapacityError> {
                self.store.write_into(out)
            }
        }
    };
}

