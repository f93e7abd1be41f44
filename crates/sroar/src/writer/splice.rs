//! A set written as most of another: an edit or a union with a small set copies the
//! containers it does not touch straight from the base into the result, and only
//! the touched ones pass through a [`Writer`].
//!
//! A [`Writer`] holds every payload in its own arena and copies them once more into
//! the caller's memory; for one id added to a 700 kB set that is two copies of
//! 700 kB and two fresh allocations of that size, where the change is one container.
//! A splice is sized from the base's directory alone and writes each kept payload
//! once, into the caller's memory.

use super::Writer;
use crate::format::directory::Directory;
use crate::format::encode::{CapacityError, Encode, Encoder, Layout, Plan};
use crate::view::RoaringView;

/// A set being written as runs of a base set's containers, kept verbatim, and
/// containers written anew between them (keys ascending throughout). It is sized
/// and written through [`Encode`], with no intermediate buffer for the kept part.
#[derive(Debug)]
pub struct Splice<'a> {
    base: RoaringView<'a>,
    dir: Directory<'a>,
    /// Blocks of base containers `from..to`, each placed after the first `after`
    /// containers of `new`.
    kept: Vec<Kept>,
    /// The next base container not yet kept or dropped.
    next: usize,
    new: Writer,
    plan: Option<Plan>,
}

#[derive(Clone, Copy, Debug)]
struct Kept {
    from: usize,
    to: usize,
    after: usize,
}

/// One container of the result, from wherever it comes.
#[derive(Clone, Copy)]
enum Part {
    Base(usize),
    New(usize),
}

impl<'a> Splice<'a> {
    /// A splice over `base` that keeps nothing yet.
    pub(crate) fn new(base: RoaringView<'a>) -> Self {
        Splice {
            base,
            dir: base.directory(),
            kept: Vec::new(),
            next: 0,
            new: Writer::new(),
            plan: None,
        }
    }

    /// Containers `range` of `base`, as a set of their own.
    pub(crate) fn of_containers(base: RoaringView<'a>, range: core::ops::Range<usize>) -> Self {
        let mut sp = Splice::new(base);
        sp.next = range.start;
        sp.keep_to(range.end);
        sp
    }

    /// Keeps the base's containers from the next undecided one up to `to`
    /// (excluded), after the containers written so far.
    pub(crate) fn keep_to(&mut self, to: usize) {
        if to <= self.next {
            return;
        }
        let after = self.new.container_count();
        match self.kept.last_mut() {
            Some(k) if k.to == self.next && k.after == after => k.to = to,
            _ => self.kept.push(Kept {
                from: self.next,
                to,
                after,
            }),
        }
        self.next = to;
    }

    /// Keeps the base's containers up to `to` and drops container `to` (an edit
    /// writes its new version, if any, through [`Splice::writer`]).
    pub(crate) fn replace(&mut self, to: usize) {
        self.keep_to(to);
        self.next = to + 1;
    }

    /// Room for `bytes` of new payload: a writer that grows by doubling copies its
    /// payloads again at each step.
    pub(crate) fn reserve(&mut self, bytes: usize) {
        self.new.arena.reserve(bytes);
    }

    /// Where new containers go, in key order with the kept ones.
    pub(crate) fn writer(&mut self) -> &mut Writer {
        &mut self.new
    }

    /// Keeps the rest of the base: the splice is complete.
    pub(crate) fn finish(mut self) -> Self {
        self.keep_to(self.dir.len());
        self
    }

    /// The result's containers in order.
    fn parts(&self) -> impl Iterator<Item = Part> + '_ {
        let mut written = 0;
        self.kept
            .iter()
            .flat_map(move |k| {
                let new = (written..k.after).map(Part::New);
                written = k.after;
                new.chain((k.from..k.to).map(Part::Base))
            })
            .chain((self.kept.last().map_or(0, |k| k.after)..self.new.container_count()).map(Part::New))
    }

    /// The key, cardinality and payload length of one part.
    fn shape(&self, p: Part) -> (u64, u32, usize) {
        match p {
            Part::Base(i) => (
                self.dir.key(i),
                self.dir.card(i),
                self.dir.start(i + 1) - self.dir.start(i),
            ),
            Part::New(j) => {
                let e = self.new.entries[j];
                (e.key, e.card, self.new.entry_end(j) - e.start as usize)
            }
        }
    }

    /// The smallest (`first`) or largest value of one part.
    fn bound(&self, p: Part, first: bool) -> u64 {
        match p {
            Part::Base(i) if first && i == 0 => self.base.min().unwrap_or(0),
            Part::Base(i) if !first && i + 1 == self.dir.len() => self.base.max().unwrap_or(0),
            Part::Base(i) => {
                let c = self.base.container_at(&self.dir, i);
                let low = if first { c.min() } else { c.max() };
                self.dir.key(i) << 16 | u64::from(low.unwrap_or(0))
            }
            Part::New(_) if first => self.new.min,
            Part::New(_) => self.new.max,
        }
    }

    fn plan(&self) -> Plan {
        let mut l = Layout::new();
        let (mut first, mut last) = (None, None);
        let mut prev = None;
        for (n, p) in self.parts().enumerate() {
            if n % 4096 == 4095 {
                crate::interrupt::check();
            }
            let (key, card, len) = self.shape(p);
            debug_assert!(prev < Some(key), "sroar: spliced keys out of order");
            prev = Some(key);
            l.push(key, card, len);
            first.get_or_insert(p);
            last = Some(p);
        }
        if let (Some(first), Some(last)) = (first, last) {
            l.bounds(self.bound(first, true), self.bound(last, false));
        }
        l.plan()
    }

    /// Number of values.
    pub fn len(&self) -> u64 {
        let kept: u64 = self
            .kept
            .iter()
            .map(|k| self.dir.card_prefix(k.to) - self.dir.card_prefix(k.from))
            .sum();
        kept + self.new.len()
    }

    /// True when the result is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The encoded set, owned.
    pub fn into_roaring(mut self) -> Result<crate::Roaring, CapacityError> {
        let mut out = vec![0; Encode::encoded_len(&mut self)?];
        Encode::write_into(&self, &mut out)?;
        Ok(crate::Roaring::from_canonical(out))
    }
}

impl Encode for Splice<'_> {
    fn encoded_len(&mut self) -> Result<usize, CapacityError> {
        let plan = self.plan();
        self.plan = Some(plan);
        plan.len()
    }

    fn write_into(&self, out: &mut [u8]) -> Result<(), CapacityError> {
        let plan = self.plan.unwrap_or_else(|| self.plan());
        let mut e = Encoder::new(out, &plan)?;
        let bytes = self.base.as_bytes();
        for (n, p) in self.parts().enumerate() {
            if n % 4096 == 4095 {
                crate::interrupt::check();
            }
            let (key, card, len) = self.shape(p);
            let (kind, from) = match p {
                Part::Base(i) => (self.dir.slot(i).0, &bytes[self.dir.start(i)..][..len]),
                Part::New(j) => {
                    let entry = self.new.entries[j];
                    (entry.kind, self.new.payload(j))
                }
            };
            e.container(key, card, kind, len).copy_from_slice(from);
        }
        Ok(())
    }
}
