//! Streaming n-way operations: views are added (or single values inserted) one at
//! a time into a keyed store of owned scratch containers, then encoded once. The
//! inputs need not outlive the call that adds them (a database aggregate's inputs
//! do not).
//!
//! Every accumulator is generic over an [`Allocator`]: the key map, the scratch
//! containers, the key order and every scratch buffer are allocated through it, and
//! nothing else is, so a caller can keep the whole state in its own memory pool (a
//! PostgreSQL memory context) and free it with the pool. [`Global`] is the default.
//!
//! Containers stay in scratch form until the end (FastOr): a union into a bitmap
//! scratch container is a plain word-wise OR, with no popcount. Sizing the output
//! ([`OrAccumulator::encoded_len`]) counts each changed container's values and runs
//! once and caches them with the key order until the next change, so that
//! [`OrAccumulator::write_into`] writes the canonical buffer straight into the
//! caller's memory without counting again.

use allocator_api2::alloc::{Allocator, Global};
use allocator_api2::boxed::Box;
use allocator_api2::vec::Vec;
use hashbrown::HashMap;

use super::key_hash::KeyHash;
use super::pair::{load_words, Slices};
use super::walk::seek;
use crate::container::bitmap::WORDS;
use crate::container::{array::count_runs_sorted, canonical_kind, payload_len};
use crate::container::{Container, Kind, ARRAY_MAX};
use crate::format::directory::{encode_descr, encode_key_entry};
use crate::format::{Header, HEADER_LEN, MAX_LEN};
use crate::kernels::{array, array_bitmap, bitmap, run};
use crate::view::RoaringView;
use crate::writer::{CapacityError, Writer};

/// An owned scratch container.
#[derive(Clone, Debug)]
pub(crate) enum Acc<A: Allocator + Clone = Global> {
    /// At most [`ARRAY_MAX`] sorted, distinct lows, little-endian so that the
    /// array kernels read them directly.
    Lows(Vec<[u8; 2], A>),
    /// Any set, as 1024 words.
    Words(Box<[u64; WORDS], A>),
}

#[inline]
fn low(e: [u8; 2]) -> u16 {
    u16::from_le_bytes(e)
}

#[inline]
fn has(w: &[u64; WORDS], v: u16) -> bool {
    w[usize::from(v >> 6)] >> (v & 63) & 1 != 0
}

/// Sets bit `v`; true when it was clear.
#[inline]
fn set(w: &mut [u64; WORDS], v: u16) -> bool {
    let (word, mask) = (&mut w[usize::from(v >> 6)], 1u64 << (v & 63));
    let new = *word & mask == 0;
    *word |= mask;
    new
}

fn zeroed<A: Allocator>(alloc: A) -> Box<[u64; WORDS], A> {
    Box::new_in([0; WORDS], alloc)
}

/// The values of serialized runs, in descending order.
fn run_values_rev(x: &[[u8; 4]]) -> impl Iterator<Item = u16> + '_ {
    x.iter().rev().flat_map(|r| {
        let (lo, hi) = run::bounds(*r);
        (lo..=hi).rev().map(|v| v as u16)
    })
}

/// `l ∪= x` (when `keep_common`) or `l ⊕= x`, in place. `x` yields exactly `m`
/// strictly descending values. The merge runs from the back of `l` grown by `m`,
/// so it needs no scratch buffer.
fn merge_lows<A: Allocator>(
    l: &mut Vec<[u8; 2], A>,
    x: impl Iterator<Item = u16>,
    m: usize,
    keep_common: bool,
) {
    let n = l.len();
    l.resize(n + m, [0; 2]);
    // `l[..i]` is still unread; the result is written downwards below `k`. The
    // values of `x` not yet written are at least `k - i`, so `k > i` while any is
    // left and no unread value is overwritten.
    let (mut i, mut k) = (n, n + m);
    for b in x {
        while i > 0 && low(l[i - 1]) > b {
            k -= 1;
            i -= 1;
            l[k] = l[i];
        }
        if i > 0 && low(l[i - 1]) == b {
            i -= 1;
            if keep_common {
                k -= 1;
                l[k] = b.to_le_bytes();
            }
        } else {
            k -= 1;
            l[k] = b.to_le_bytes();
        }
    }
    // What is left of `l` lies below every value of `x`.
    let start = k - i;
    l.copy_within(0..i, start);
    l.copy_within(start..n + m, 0);
    l.truncate(n + m - start);
}

/// `l ∩= x`, in place, galloping through the longer side.
fn intersect_lows<A: Allocator>(l: &mut Vec<[u8; 2], A>, x: &[[u8; 2]]) {
    let mut k = 0;
    if array::scalar::should_gallop(x.len(), l.len()) {
        let mut i = 0;
        for &e in x {
            i += l[i..].partition_point(|&f| low(f) < low(e));
            if i == l.len() {
                break;
            }
            if l[i] == e {
                l[k] = e;
                k += 1;
                i += 1;
            }
        }
    } else {
        let gallop = array::scalar::should_gallop(l.len(), x.len());
        let mut j = 0;
        for i in 0..l.len() {
            let v = low(l[i]);
            if gallop {
                j += x[j..].partition_point(|&f| low(f) < v);
            } else {
                while j < x.len() && low(x[j]) < v {
                    j += 1;
                }
            }
            if j == x.len() {
                break;
            }
            if low(x[j]) == v {
                l[k] = l[i];
                k += 1;
                j += 1;
            }
        }
    }
    l.truncate(k);
}

/// Calls `f` with each set bit of `words`, in increasing order.
fn for_each_bit(words: &[u64; WORDS], mut f: impl FnMut(u16)) {
    for (i, &w) in words.iter().enumerate() {
        let mut x = w;
        while x != 0 {
            f((i as u32 * 64 + x.trailing_zeros()) as u16);
            x &= x - 1;
        }
    }
}

/// Calls `f(start, end)` with each maximal run of set bits, in increasing order.
fn for_each_run_words(words: &[u64; WORDS], mut f: impl FnMut(u16, u16)) {
    let (mut carry, mut start) = (0u64, 0u32);
    for (i, &w) in words.iter().enumerate() {
        // A set bit of `t` marks where a run starts (bit set in `w`) or where
        // the one before ended (bit clear).
        let mut t = w ^ (w << 1 | carry);
        carry = w >> 63;
        while t != 0 {
            let b = t.trailing_zeros();
            let p = i as u32 * 64 + b;
            if w >> b & 1 != 0 {
                start = p;
            } else {
                f(start as u16, (p - 1) as u16);
            }
            t &= t - 1;
        }
    }
    if carry != 0 {
        f(start as u16, 0xFFFF);
    }
}

/// Calls `f(start, end)` with each maximal run of sorted lows.
fn for_each_run_lows(l: &[[u8; 2]], mut f: impl FnMut(u16, u16)) {
    let mut it = l.iter().map(|&e| low(e));
    let Some(first) = it.next() else {
        return;
    };
    let (mut s, mut e) = (first, first);
    for v in it {
        if u32::from(v) == u32::from(e) + 1 {
            e = v;
        } else {
            f(s, e);
            (s, e) = (v, v);
        }
    }
    f(s, e);
}

/// Writes runs given to the closure `runs` as `(start, len_minus_1)` pairs.
fn put_runs(out: &mut [u8], runs: impl FnOnce(&mut dyn FnMut(u16, u16))) {
    let mut dst = out.as_chunks_mut::<4>().0.iter_mut();
    runs(&mut |s, e| {
        let d = dst
            .next()
            .expect("sroar: run count cached for this payload");
        let ([s0, s1], [l0, l1]) = (s.to_le_bytes(), (e - s).to_le_bytes());
        *d = [s0, s1, l0, l1];
    });
}

impl<A: Allocator + Clone> Acc<A> {
    /// The container `c` (of `card` values) as a scratch container.
    pub(crate) fn from_container_in(c: Container<'_>, card: u32, alloc: A) -> Self {
        match Slices::of(c) {
            Slices::Array(x) => {
                let mut l = Vec::with_capacity_in(x.len(), alloc);
                l.extend_from_slice(x);
                Acc::Lows(l)
            }
            Slices::Bitmap(x) => {
                let mut w = zeroed(alloc);
                load_words(&mut w, x);
                Acc::Words(w)
            }
            Slices::Run(x) if card <= ARRAY_MAX => {
                let mut l = Vec::with_capacity_in(card as usize, alloc);
                for r in x {
                    let (lo, hi) = run::bounds(*r);
                    l.extend((lo..=hi).map(|v| (v as u16).to_le_bytes()));
                }
                Acc::Lows(l)
            }
            Slices::Run(x) => {
                let mut w = zeroed(alloc);
                run::set_into(x, &mut w);
                Acc::Words(w)
            }
        }
    }

    /// Switches to the bitmap form and returns its words.
    fn words(&mut self) -> &mut [u64; WORDS] {
        if let Acc::Lows(l) = self {
            let mut w = zeroed(l.allocator().clone());
            array_bitmap::set_into(l, &mut w);
            *self = Acc::Words(w);
        }
        match self {
            Acc::Words(w) => w,
            Acc::Lows(_) => unreachable!("converted above"),
        }
    }

    /// Adds `v`; true when it was not there.
    fn insert(&mut self, v: u16) -> bool {
        if let Acc::Lows(l) = self {
            match l.binary_search_by(|&e| low(e).cmp(&v)) {
                Ok(_) => return false,
                Err(i) if l.len() < ARRAY_MAX as usize => {
                    l.insert(i, v.to_le_bytes());
                    return true;
                }
                Err(_) => {}
            }
        }
        set(self.words(), v)
    }

    /// `self ∪= c`, where `c` holds `card` values. The bitmap form is not counted.
    fn or(&mut self, c: Container<'_>, card: u32) {
        if let Acc::Lows(l) = self {
            if l.len() + card as usize <= ARRAY_MAX as usize {
                match Slices::of(c) {
                    Slices::Array(x) => {
                        return merge_lows(l, x.iter().rev().map(|&e| low(e)), x.len(), true)
                    }
                    Slices::Run(x) => return merge_lows(l, run_values_rev(x), card as usize, true),
                    Slices::Bitmap(_) => {}
                }
            }
        }
        let w = self.words();
        match Slices::of(c) {
            Slices::Array(x) => array_bitmap::set_into(x, w),
            Slices::Bitmap(x) => {
                bitmap::or_assign(w, x);
            }
            Slices::Run(x) => run::set_into(x, w),
        }
    }

    /// `self ∪= chunk`: the values of one container (this key's), sorted ascending
    /// and distinct. The bitmap form is not counted.
    fn or_sorted(&mut self, chunk: &[u64]) {
        if let Acc::Lows(l) = self {
            if l.len() + chunk.len() <= ARRAY_MAX as usize {
                return merge_lows(l, chunk.iter().rev().map(|&v| v as u16), chunk.len(), true);
            }
        }
        let w = self.words();
        for &v in chunk {
            set(w, v as u16);
        }
    }

    /// A scratch container of one key's values, sorted ascending and distinct.
    fn from_sorted_in(chunk: &[u64], alloc: A) -> Self {
        if chunk.len() <= ARRAY_MAX as usize {
            let mut l = Vec::with_capacity_in(chunk.len(), alloc);
            l.extend(chunk.iter().map(|&v| (v as u16).to_le_bytes()));
            Acc::Lows(l)
        } else {
            let mut w = zeroed(alloc);
            for &v in chunk {
                set(&mut w, v as u16);
            }
            Acc::Words(w)
        }
    }

    /// `self ⊕= c`, where `c` holds `card` values. The bitmap form is not counted.
    fn xor(&mut self, c: Container<'_>, card: u32) {
        if let Acc::Lows(l) = self {
            if l.len() + card as usize <= ARRAY_MAX as usize {
                match Slices::of(c) {
                    Slices::Array(x) => {
                        return merge_lows(l, x.iter().rev().map(|&e| low(e)), x.len(), false)
                    }
                    Slices::Run(x) => {
                        return merge_lows(l, run_values_rev(x), card as usize, false)
                    }
                    Slices::Bitmap(_) => {}
                }
            }
        }
        let w = self.words();
        match Slices::of(c) {
            Slices::Array(x) => array_bitmap::flip_into(x, w),
            Slices::Bitmap(x) => {
                for (o, e) in w.iter_mut().zip(x) {
                    *o ^= u64::from_le_bytes(*e);
                }
            }
            Slices::Run(x) => {
                for r in x {
                    let (lo, hi) = run::bounds(*r);
                    bitmap::flip_range(w, lo, hi);
                }
            }
        }
    }

    /// `self ∩= c`, in place; returns the cardinality left. A result of at most
    /// [`ARRAY_MAX`] values takes the array form.
    pub(crate) fn intersect(&mut self, c: Container<'_>) -> u32 {
        match (&mut *self, Slices::of(c)) {
            (Acc::Lows(l), Slices::Array(x)) => intersect_lows(l, x),
            (Acc::Lows(l), Slices::Bitmap(x)) => l.retain(|&e| {
                let v = low(e);
                u64::from_le_bytes(x[usize::from(v >> 6)]) >> (v & 63) & 1 != 0
            }),
            (Acc::Lows(l), Slices::Run(x)) => {
                let mut r = 0;
                l.retain(|&e| {
                    let v = u32::from(low(e));
                    while r < x.len() && run::bounds(x[r]).1 < v {
                        r += 1;
                    }
                    r < x.len() && run::bounds(x[r]).0 <= v
                });
            }
            (Acc::Words(w), Slices::Array(x)) => {
                let mut l = Vec::with_capacity_in(x.len(), Box::allocator(w).clone());
                l.extend(x.iter().copied().filter(|&e| has(w, low(e))));
                *self = Acc::Lows(l);
            }
            (Acc::Words(w), Slices::Bitmap(x)) => {
                for (o, e) in w.iter_mut().zip(x) {
                    *o &= u64::from_le_bytes(*e);
                }
                return self.shrink();
            }
            (Acc::Words(w), Slices::Run(x)) => {
                // Clear the gaps between the runs.
                let mut next = 0u32;
                for r in x {
                    let (lo, hi) = run::bounds(*r);
                    if lo > next {
                        bitmap::clear_range(w, next, lo - 1);
                    }
                    next = hi + 1;
                }
                if next <= 0xFFFF {
                    bitmap::clear_range(w, next, 0xFFFF);
                }
                return self.shrink();
            }
        }
        self.card()
    }

    /// Moves a bitmap form of at most [`ARRAY_MAX`] values to the array form;
    /// returns the cardinality.
    fn shrink(&mut self) -> u32 {
        let Acc::Words(w) = self else {
            return self.card();
        };
        let card = bitmap::popcount(w);
        if card <= ARRAY_MAX {
            let mut l = Vec::with_capacity_in(card as usize, Box::allocator(w).clone());
            for_each_bit(w, |v| l.push(v.to_le_bytes()));
            *self = Acc::Lows(l);
        }
        card
    }

    /// True when no value is left.
    pub(crate) fn is_empty(&self) -> bool {
        match self {
            Acc::Lows(l) => l.is_empty(),
            Acc::Words(w) => w.iter().all(|&x| x == 0),
        }
    }

    /// Number of values (a popcount for the bitmap form).
    fn card(&self) -> u32 {
        match self {
            Acc::Lows(l) => l.len() as u32,
            Acc::Words(w) => bitmap::popcount(w),
        }
    }

    /// Number of maximal runs.
    fn runs(&self) -> u32 {
        match self {
            Acc::Lows(l) => count_runs_sorted(l.iter().map(|&e| low(e))),
            Acc::Words(w) => bitmap::count_runs(w),
        }
    }

    /// Smallest and largest value of a non-empty container.
    fn min_max(&self) -> (u16, u16) {
        match self {
            Acc::Lows(l) => (
                l.first().map_or(0, |&e| low(e)),
                l.last().map_or(0, |&e| low(e)),
            ),
            Acc::Words(w) => {
                let first = w.iter().position(|&x| x != 0).unwrap_or(0);
                let last = w.iter().rposition(|&x| x != 0).unwrap_or(0);
                (
                    (first as u32 * 64 + w[first].trailing_zeros().min(63)) as u16,
                    (last as u32 * 64 + 63 - w[last].leading_zeros().min(63)) as u16,
                )
            }
        }
    }

    /// Writes the payload of this container as `kind` into `out`, whose length is
    /// the payload's length.
    fn write(&self, kind: Kind, out: &mut [u8]) {
        match (self, kind) {
            (Acc::Lows(l), Kind::Array) => out.copy_from_slice(l.as_flattened()),
            (Acc::Words(w), Kind::Array) => {
                let mut dst = out.as_chunks_mut::<2>().0.iter_mut();
                for_each_bit(w, |v| {
                    *dst.next()
                        .expect("sroar: cardinality cached for this payload") = v.to_le_bytes()
                });
            }
            (Acc::Words(w), Kind::Bitmap) => {
                for (d, x) in out.as_chunks_mut::<8>().0.iter_mut().zip(w.iter()) {
                    *d = x.to_le_bytes();
                }
            }
            (Acc::Lows(l), Kind::Bitmap) => {
                // Not canonical for at most 4096 values; written for totality.
                out.fill(0);
                for &e in l.iter() {
                    let v = low(e);
                    out[usize::from(v >> 3)] |= 1 << (v & 7);
                }
            }
            (Acc::Lows(l), Kind::Run) => put_runs(out, |f| for_each_run_lows(l, f)),
            (Acc::Words(w), Kind::Run) => put_runs(out, |f| for_each_run_words(w, f)),
        }
    }

    /// Pushes the values as container `key`, in canonical form (nothing if empty).
    pub(crate) fn push(&self, key: u64, w: &mut Writer, tmp: &mut std::vec::Vec<u16>) {
        match self {
            Acc::Lows(l) => {
                tmp.clear();
                tmp.extend(l.iter().map(|&e| low(e)));
                w.push_sorted_lows(key, tmp);
            }
            Acc::Words(words) => w.push_bitmap(key, words),
        }
    }
}

impl Acc<Global> {
    /// The container `c` (of `card` values) as a scratch container.
    pub(crate) fn from_container(c: Container<'_>, card: u32) -> Self {
        Self::from_container_in(c, card, Global)
    }

    /// `self ∩= c`: the array forms go through the dispatched kernels and the
    /// caller's scratch `tmp` ([`and_many`](super::and_many)'s path).
    pub(crate) fn and(&mut self, c: Container<'_>, tmp: &mut std::vec::Vec<u16>) {
        let Acc::Lows(l) = self else {
            self.intersect(c);
            return;
        };
        tmp.clear();
        match Slices::of(c) {
            Slices::Array(x) => array::intersect(l, x, tmp),
            Slices::Bitmap(x) => array_bitmap::intersect(l, x, tmp),
            Slices::Run(x) => run::run_array_intersect(x, l, tmp),
        }
        l.clear();
        l.extend(tmp.iter().map(|v| v.to_le_bytes()));
    }
}

/// A count not known since the last change.
const UNKNOWN: u32 = u32::MAX;

/// One key's scratch container with its cached summary.
#[derive(Clone, Debug)]
struct Entry<A: Allocator + Clone> {
    key: u64,
    acc: Acc<A>,
    /// Cardinality, or [`UNKNOWN`].
    card: u32,
    /// Number of maximal runs, or [`UNKNOWN`].
    runs: u32,
}

impl<A: Allocator + Clone> Entry<A> {
    fn new(key: u64, acc: Acc<A>, card: u32) -> Self {
        Entry {
            key,
            acc,
            card,
            runs: UNKNOWN,
        }
    }

    /// Forgets the counts after a change the counts were not kept through.
    fn changed(&mut self) {
        self.runs = UNKNOWN;
        self.card = match &self.acc {
            Acc::Lows(l) => l.len() as u32,
            Acc::Words(_) => UNKNOWN,
        };
    }

    fn card(&self) -> u32 {
        if self.card == UNKNOWN {
            self.acc.card()
        } else {
            self.card
        }
    }

    /// Counts what is unknown.
    fn summarize(&mut self) {
        if self.card == UNKNOWN {
            self.card = self.acc.card();
        }
        if self.runs == UNKNOWN {
            self.runs = self.acc.runs();
        }
    }

    /// Canonical kind and payload length; the counts must be known.
    fn kind(&self) -> (Kind, usize) {
        let kind = canonical_kind(self.card, self.runs);
        (kind, payload_len(kind, self.card, self.runs))
    }
}

/// The totals of the encoded result.
#[derive(Clone, Copy, Debug)]
struct Summary {
    len: u64,
    n: u32,
    card: u64,
    min: u64,
    max: u64,
}

/// The keyed scratch containers shared by the three accumulators, with the cached
/// encoding plan.
#[derive(Clone, Debug)]
struct Store<A: Allocator + Clone> {
    slots: Vec<Entry<A>, A>,
    /// Key to slot (unused by [`AndAccumulator`], whose slots stay in key order).
    index: HashMap<u64, u32, KeyHash, A>,
    /// Slots in key order, valid when `ordered`.
    order: Vec<u32, A>,
    ordered: bool,
    /// Valid until the next change.
    summary: Option<Summary>,
    alloc: A,
}

impl<A: Allocator + Clone> Store<A> {
    fn new_in(alloc: A) -> Self {
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
    fn get_mut(&mut self, key: u64) -> Option<&mut Entry<A>> {
        let i = *self.index.get(&key)?;
        Some(&mut self.slots[i as usize])
    }

    /// Appends a new key; `indexed` enters it in the index. Returns its slot.
    fn push(&mut self, key: u64, acc: Acc<A>, card: u32, indexed: bool) -> u32 {
        let i = self.slots.len() as u32;
        self.slots.push(Entry::new(key, acc, card));
        if indexed {
            self.index.insert(key, i);
        }
        self.ordered = false;
        i
    }

    /// Adds every container of `v`, combining those of known keys with `f`.
    fn add(&mut self, v: RoaringView<'_>, f: impl Fn(&mut Acc<A>, Container<'_>, u32)) {
        let dir = v.directory();
        if dir.is_empty() {
            return;
        }
        self.summary = None;
        for i in 0..dir.len() {
            if i % 4096 == 4095 {
                crate::interrupt::check();
            }
            let (key, c) = v.container(i);
            let card = dir.card(i);
            match self.get_mut(key) {
                Some(e) => {
                    f(&mut e.acc, c, card);
                    e.changed();
                }
                None => {
                    let acc = Acc::from_container_in(c, card, self.alloc.clone());
                    self.push(key, acc, card, true);
                }
            }
        }
    }

    fn len(&self) -> u64 {
        match self.summary {
            Some(s) => s.card,
            None => self.slots.iter().map(|e| u64::from(e.card())).sum(),
        }
    }

    fn sort(&mut self) {
        if !self.ordered {
            self.order.clear();
            self.order.extend(0..self.slots.len() as u32);
            let slots = &self.slots;
            self.order.sort_unstable_by_key(|&i| slots[i as usize].key);
            self.ordered = true;
        }
    }

    fn encoded_len(&mut self) -> Result<usize, CapacityError> {
        let s = match self.summary {
            Some(s) => s,
            None => {
                self.sort();
                let mut s = Summary {
                    len: HEADER_LEN as u64,
                    n: 0,
                    card: 0,
                    min: 0,
                    max: 0,
                };
                let mut last = None;
                for &i in self.order.iter() {
                    let e = &mut self.slots[i as usize];
                    e.summarize();
                    if e.card == 0 {
                        continue;
                    }
                    if last.is_none() {
                        s.min = e.key << 16 | u64::from(e.acc.min_max().0);
                    }
                    last = Some(i);
                    s.n += 1;
                    s.card += u64::from(e.card);
                    s.len += 12 + e.kind().1 as u64;
                }
                if let Some(i) = last {
                    let e = &self.slots[i as usize];
                    s.max = e.key << 16 | u64::from(e.acc.min_max().1);
                }
                self.summary = Some(s);
                s
            }
        };
        if s.len >= MAX_LEN as u64 {
            return Err(CapacityError { needed: s.len });
        }
        Ok(s.len as usize)
    }

    fn write_into(&self, out: &mut [u8]) -> Result<(), CapacityError> {
        let s = self
            .summary
            .expect("sroar: encoded_len must be called after the last change, before write_into");
        if s.len >= MAX_LEN as u64 {
            return Err(CapacityError { needed: s.len });
        }
        assert_eq!(
            out.len() as u64,
            s.len,
            "sroar: output buffer has the wrong length"
        );
        let n = s.n as usize;
        let header = Header {
            n: s.n,
            total_len: s.len as u32,
            cardinality: s.card,
            min: s.min,
            max: s.max,
        };
        let (head, rest) = out.split_at_mut(HEADER_LEN);
        header.write(head.try_into().expect("header is 40 bytes"));
        let (keys, rest) = rest.split_at_mut(8 * n);
        let (descrs, mut payload) = rest.split_at_mut(4 * n);
        let mut dst = keys
            .as_chunks_mut::<8>()
            .0
            .iter_mut()
            .zip(descrs.as_chunks_mut::<4>().0);
        let mut offset = (HEADER_LEN + 12 * n) as u32;
        for &i in self.order.iter() {
            let e = &self.slots[i as usize];
            if e.card == 0 {
                continue;
            }
            let (kind, size) = e.kind();
            let (k, d) = dst.next().expect("sroar: container count cached");
            *k = encode_key_entry(e.key, e.card).to_le_bytes();
            *d = encode_descr(kind, offset).to_le_bytes();
            let (here, rest) = payload.split_at_mut(size);
            e.acc.write(kind, here);
            payload = rest;
            offset += size as u32;
        }
        Ok(())
    }

    fn finish(mut self) -> Writer {
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

        /// The allocator the state lives in.
        pub fn allocator(&self) -> &A {
            &self.store.alloc
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

/// Streaming union: `add` views and `insert` values in any order, then size the
/// output with [`encoded_len`](Self::encoded_len) and write it with
/// [`write_into`](Self::write_into), or [`finish`](Self::finish).
///
/// ```
/// use sroar::{from_sorted, ops::OrAccumulator, RoaringView};
///
/// let (x, y) = (from_sorted(&[1, 2]).unwrap(), from_sorted(&[2, 1 << 40]).unwrap());
/// let mut acc = OrAccumulator::new();
/// acc.add(RoaringView::from_bytes(&x).unwrap());
/// acc.add(RoaringView::from_bytes(&y).unwrap());
/// acc.insert(7);
/// assert_eq!(acc.len(), 4);
/// let mut out = vec![0; acc.encoded_len().unwrap()];
/// acc.write_into(&mut out).unwrap();
/// assert_eq!(RoaringView::from_bytes(&out).unwrap().iter().collect::<Vec<_>>(), [1, 2, 7, 1 << 40]);
/// assert_eq!(acc.finish().into_vec().unwrap(), out);
/// ```
#[derive(Clone, Debug)]
pub struct OrAccumulator<A: Allocator + Clone = Global> {
    store: Store<A>,
    /// The key and slot `insert` touched last, to skip the lookup for the next
    /// value of the same container (slots are never removed here).
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
            last: None,
        }
    }

    /// Adds the values of `v`. Containers are combined in scratch form: nothing
    /// is encoded or counted here.
    pub fn add(&mut self, v: RoaringView<'_>) {
        self.store.add(v, Acc::or);
    }

    /// Adds `value`; true when it was not there yet.
    pub fn insert(&mut self, value: u64) -> bool {
        let (key, lo) = (value >> 16, value as u16);
        let i = match self.last {
            Some((k, i)) if k == key => i,
            _ => match self.store.index.get(&key) {
                Some(&i) => i,
                None => {
                    let mut l = Vec::with_capacity_in(4, self.store.alloc.clone());
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
        e.runs = UNKNOWN;
        if e.card != UNKNOWN {
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
    pub fn container_count(&self) -> usize {
        self.store.slots.len()
    }

    shared_methods!("OrAccumulator");
}

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
        self.store.add(v, Acc::xor);
    }

    /// True when the current result is empty (counts changed bitmap containers).
    pub fn is_empty(&self) -> bool {
        self.store.slots.iter().all(|e| e.card() == 0)
    }

    shared_methods!("XorAccumulator");
}

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
            for i in 0..dir.len() {
                let (key, c) = v.container(i);
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
