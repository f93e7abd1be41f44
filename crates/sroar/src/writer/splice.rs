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
use crate::container::bitmap::BITMAP_BYTES;
use crate::container::{canonical_kind, Container, Kind};
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
    /// Base bitmaps with values added, written as the base's bytes with those bits
    /// set: a union with a few scattered ids touches most bitmaps of a large set,
    /// and passing each through the writer would copy it twice more.
    patches: Vec<Patch>,
    /// The added values of every patch, in order.
    patch_lows: Vec<u16>,
    plan: Option<Plan>,
}

/// Containers of at most this many values are added to a base bitmap value by value;
/// larger ones go through the writer's scratch bitmap, which cost less already at the
/// ~600 values per container of a 50k-id set against an 876k-id one.
const ADD_ONE_BY_ONE_UP_TO: u16 = 64;

/// A base bitmap container (kept alone in its [`Kept`] block) with the values
/// `patch_lows[lows]` added, `card` values in all.
#[derive(Clone, Debug)]
struct Patch {
    lows: core::ops::Range<usize>,
    card: u32,
}

#[derive(Clone, Copy, Debug)]
struct Kept {
    from: usize,
    to: usize,
    after: usize,
    /// The block's one container, patched by `patches[p]`.
    patch: Option<usize>,
}

/// One container of the result, from wherever it comes.
#[derive(Clone, Copy)]
enum Part {
    Base(usize),
    New(usize),
    /// Base container `.0` patched by `patches[.1]`.
    Patched(usize, usize),
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
            patches: Vec::new(),
            patch_lows: Vec::new(),
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
            Some(k) if k.to == self.next && k.after == after && k.patch.is_none() => k.to = to,
            _ => self.kept.push(Kept {
                from: self.next,
                to,
                after,
                patch: None,
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

    /// Adds the values of `values` (a small container) to base container `i` in
    /// place when that is a bitmap that stays one (its canonical kind changes only if
    /// added values join runs until fewer than a bitmap's are left); false, with
    /// nothing done, when the caller must write the union itself. Containers before
    /// `i` not yet decided are kept.
    pub(crate) fn add_to_bitmap(&mut self, i: usize, values: Container<'_>) -> bool {
        let Container::Bitmap(b) = self.base.container_at(&self.dir, i) else {
            return false;
        };
        // Values tested one by one: for a bitmap's worth, ORing words costs less.
        if values.len() > usize::from(ADD_ONE_BY_ONE_UP_TO) {
            return false;
        }
        let start = self.patch_lows.len();
        let (mut card, mut runs_gained, mut prev) = (self.dir.card(i), 0i64, None);
        for v in values.iter() {
            if b.contains(v) {
                continue;
            }
            // Values come in ascending order: the left neighbour may be one added
            // just before, the right one only a base value.
            let left = v > 0 && (prev == Some(v - 1) || b.contains(v - 1));
            let right = v < u16::MAX && b.contains(v + 1);
            runs_gained += 1 - i64::from(left) - i64::from(right);
            card += 1;
            prev = Some(v);
            self.patch_lows.push(v);
        }
        // A canonical bitmap has runs enough to stay one unless added values join
        // some: only then are its runs counted.
        if runs_gained < 0
            && canonical_kind(card, (i64::from(b.count_runs()) + runs_gained) as u32) != Kind::Bitmap
        {
            self.patch_lows.truncate(start);
            return false;
        }
        if self.patch_lows.len() > start {
            self.keep_to(i);
            self.kept.push(Kept {
                from: i,
                to: i + 1,
                after: self.new.container_count(),
                patch: Some(self.patches.len()),
            });
            self.patches.push(Patch {
                lows: start..self.patch_lows.len(),
                card,
            });
            self.next = i + 1;
        }
        true
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
                let patch = k.patch;
                new.chain((k.from..k.to).map(move |i| match patch {
                    Some(p) => Part::Patched(i, p),
                    None => Part::Base(i),
                }))
            })
            .chain((self.kept.last().map_or(0, |k| k.after)..self.new.container_count()).map(Part::New))
    }

    /// The key, cardinality and payload length of one part.
    fn shape(&self, p: Part) -> (u64, u32, usize) {
        match p {
            Part::Base(i) => (self.dir.key(i), self.dir.card(i), self.dir.payload_len(i)),
            Part::New(j) => {
                let e = self.new.entries[j];
                (e.key, e.card, self.new.entry_end(j) - e.start as usize)
            }
            Part::Patched(i, p) => (self.dir.key(i), self.patches[p].card, BITMAP_BYTES),
        }
    }

    fn patched_lows(&self, p: usize) -> &[u16] {
        &self.patch_lows[self.patches[p].lows.clone()]
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
            Part::Patched(i, p) => {
                let c = self.base.container_at(&self.dir, i);
                let lows = self.patched_lows(p);
                let low = if first {
                    c.min().into_iter().chain(lows.first().copied()).min()
                } else {
                    c.max().into_iter().chain(lows.last().copied()).max()
                };
                self.dir.key(i) << 16 | u64::from(low.unwrap_or(0))
            }
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

    /// When the result has the base's length and layout (every change set bits in
    /// the base's bitmaps; no container was added or replaced): the edit that turns
    /// a copy of the base into the result, for a caller that owns one. Applied to
    /// that copy, it saves writing the whole result anew.
    pub fn in_place(&self) -> Option<InPlace> {
        let plan = self.plan.unwrap_or_else(|| self.plan());
        let len = plan.len().ok()?;
        // The payloads keep their sizes, so equal lengths mean equal heads.
        if len != self.base.as_bytes().len() {
            return None;
        }
        let mut head = vec![0u8; plan.head_len()];
        let mut e = Encoder::head_only(&mut head, &plan);
        for (n, p) in self.parts().enumerate() {
            if n % 4096 == 4095 {
                crate::interrupt::check();
            }
            let (key, card, size) = self.shape(p);
            // A new container's payload is not in the base: no edit then.
            e.container(key, card, self.dir.kind(self.base_index(p)?), size);
        }
        let bits = self
            .kept
            .iter()
            .filter_map(|k| Some((self.dir.start(k.from), k.patch?)))
            .flat_map(|(at, p)| {
                self.patched_lows(p)
                    .iter()
                    .map(move |&v| (at + usize::from(v / 8), 1u8 << (v % 8)))
            })
            .collect();
        Some(InPlace { len, head, bits })
    }

    /// The base container a part comes from (None for a new one).
    fn base_index(&self, p: Part) -> Option<usize> {
        match p {
            Part::Base(i) | Part::Patched(i, _) => Some(i),
            Part::New(_) => None,
        }
    }

    /// Whether the result is the base itself: every container kept, in one block,
    /// and none written anew or patched (an edit whose adds were all present and
    /// whose removes all absent). A caller holding the base's stored form can
    /// return it instead of writing a copy: PostgreSQL then keeps the stored
    /// value of an updated row where it is, with no new TOAST chunks.
    pub fn is_base(&self) -> bool {
        if self.new.container_count() != 0 || !self.patches.is_empty() {
            return false;
        }
        match self.kept.as_slice() {
            [] => self.dir.is_empty(),
            [k] => k.from == 0 && k.to == self.dir.len() && k.patch.is_none(),
            _ => false,
        }
    }

    /// Number of values.
    pub fn len(&self) -> u64 {
        let kept: u64 = self
            .kept
            .iter()
            .map(|k| match k.patch {
                Some(p) => u64::from(self.patches[p].card),
                None => self.dir.card_prefix(k.to) - self.dir.card_prefix(k.from),
            })
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
        // Where the next base container's payload starts, if the last part came
        // from the base: kept containers follow one another, and finding a start
        // afresh sums the cardinalities before it when no offsets are stored.
        let mut next = (usize::MAX, 0);
        for (n, p) in self.parts().enumerate() {
            if n % 4096 == 4095 {
                crate::interrupt::check();
            }
            let (key, card, len) = self.shape(p);
            let (kind, from) = match p {
                Part::Base(i) | Part::Patched(i, _) => {
                    let start = if next.0 == i {
                        next.1
                    } else {
                        self.dir.start(i)
                    };
                    debug_assert_eq!(start, self.dir.start(i));
                    next = (i + 1, start + len);
                    (self.dir.kind(i), &bytes[start..][..len])
                }
                Part::New(j) => {
                    let entry = self.new.entries[j];
                    (entry.kind, self.new.payload(j))
                }
            };
            let out = e.container(key, card, kind, len);
            out.copy_from_slice(from);
            if let Part::Patched(_, p) = p {
                // A bitmap's bytes are its 64-bit words in little-endian order:
                // value v is bit v % 8 of byte v / 8.
                for &v in self.patched_lows(p) {
                    out[usize::from(v / 8)] |= 1 << (v % 8);
                }
            }
        }
        Ok(())
    }
}

/// The edit that turns a copy of a splice's base into its result ([`Splice::in_place`]):
/// a new header and directory of the same length, and bits to set in the payloads.
#[derive(Debug)]
pub struct InPlace {
    len: usize,
    head: Vec<u8>,
    /// Byte offsets and the bits to set there.
    bits: Vec<(usize, u8)>,
}

impl InPlace {
    /// Makes `bytes`, a copy of the splice's base, the splice's result.
    ///
    /// # Panics
    /// If `bytes` is not as long as the base.
    pub fn apply(&self, bytes: &mut [u8]) {
        assert_eq!(bytes.len(), self.len, "sroar: not a copy of the splice's base");
        bytes[..self.head.len()].copy_from_slice(&self.head);
        for &(at, bit) in &self.bits {
            bytes[at] |= bit;
        }
    }
}
