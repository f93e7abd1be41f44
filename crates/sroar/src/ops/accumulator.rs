//! Streaming n-way operations: views are added one at a time into a keyed map of
//! owned scratch containers, then finished into a [`Writer`]. The inputs need not
//! outlive the call that adds them (a database aggregate's inputs do not).

use std::collections::BTreeMap;

use super::pair::{load_words, Slices};
use super::walk::seek;
use crate::container::bitmap::WORDS;
use crate::container::{Container, ARRAY_MAX};
use crate::kernels::{array, array_bitmap, bitmap, run};
use crate::view::RoaringView;
use crate::writer::Writer;

/// An owned scratch container.
#[derive(Clone, Debug)]
pub(crate) enum Acc {
    /// At most [`ARRAY_MAX`] sorted, distinct lows, little-endian so that the
    /// array kernels read them directly.
    Lows(Vec<[u8; 2]>),
    /// Any set, as 1024 words.
    Words(Box<[u64; WORDS]>),
}

/// Replaces `dst` with `src` encoded little-endian.
fn encode(dst: &mut Vec<[u8; 2]>, src: &[u16]) {
    dst.clear();
    dst.extend(src.iter().map(|v| v.to_le_bytes()));
}

fn words_of(lows: &[u16]) -> Box<[u64; WORDS]> {
    let mut w = Box::new([0u64; WORDS]);
    for &v in lows {
        w[usize::from(v >> 6)] |= 1 << (v & 63);
    }
    w
}

impl Acc {
    /// The container `c` as a scratch container.
    pub(crate) fn from_container(c: Container<'_>, card: u32) -> Acc {
        match Slices::of(c) {
            Slices::Array(x) => Acc::Lows(x.to_vec()),
            Slices::Bitmap(x) => {
                let mut w = Box::new([0u64; WORDS]);
                load_words(&mut w, x);
                Acc::Words(w)
            }
            Slices::Run(_) if card <= ARRAY_MAX => {
                Acc::Lows(c.iter().map(u16::to_le_bytes).collect())
            }
            Slices::Run(x) => {
                let mut w = Box::new([0u64; WORDS]);
                run::set_into(x, &mut w);
                Acc::Words(w)
            }
        }
    }

    /// Switches to the bitmap form and returns its words.
    fn words(&mut self) -> &mut [u64; WORDS] {
        if let Acc::Lows(l) = self {
            let mut w = Box::new([0u64; WORDS]);
            array_bitmap::set_into(l, &mut w);
            *self = Acc::Words(w);
        }
        match self {
            Acc::Words(w) => w,
            Acc::Lows(_) => unreachable!("converted above"),
        }
    }

    /// Stores the sorted lows in `tmp` in the array form, or in the bitmap form
    /// when they are too many.
    fn set_lows(&mut self, tmp: &[u16]) {
        if tmp.len() > ARRAY_MAX as usize {
            *self = Acc::Words(words_of(tmp));
        } else if let Acc::Lows(l) = self {
            encode(l, tmp);
        } else {
            let mut l = Vec::with_capacity(tmp.len());
            encode(&mut l, tmp);
            *self = Acc::Lows(l);
        }
    }

    /// `self ∪= c`.
    pub(crate) fn or(&mut self, c: Container<'_>, tmp: &mut Vec<u16>) {
        if let (Acc::Lows(l), Slices::Array(x)) = (&*self, Slices::of(c)) {
            tmp.clear();
            array::union(l, x, tmp);
            return self.set_lows(tmp);
        }
        let w = self.words();
        match Slices::of(c) {
            Slices::Array(x) => array_bitmap::set_into(x, w),
            Slices::Bitmap(x) => bitmap::or_assign(w, x),
            Slices::Run(x) => run::set_into(x, w),
        }
    }

    /// `self ⊕= c`.
    pub(crate) fn xor(&mut self, c: Container<'_>, tmp: &mut Vec<u16>) {
        if let (Acc::Lows(l), Slices::Array(x)) = (&*self, Slices::of(c)) {
            tmp.clear();
            array::xor(l, x, tmp);
            return self.set_lows(tmp);
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

    /// `self ∩= c`. A result of at most [`ARRAY_MAX`] values takes the array form.
    pub(crate) fn and(&mut self, c: Container<'_>, tmp: &mut Vec<u16>) {
        tmp.clear();
        match (&mut *self, Slices::of(c)) {
            (Acc::Lows(l), Slices::Array(x)) => array::intersect(l, x, tmp),
            (Acc::Lows(l), Slices::Bitmap(x)) => array_bitmap::intersect(l, x, tmp),
            (Acc::Lows(l), Slices::Run(x)) => run::run_array_intersect(x, l, tmp),
            (Acc::Words(w), Slices::Array(x)) => tmp.extend(
                x.iter()
                    .map(|e| u16::from_le_bytes(*e))
                    .filter(|&v| w[usize::from(v >> 6)] >> (v & 63) & 1 != 0),
            ),
            (Acc::Words(w), Slices::Bitmap(x)) => {
                for (o, e) in w.iter_mut().zip(x) {
                    *o &= u64::from_le_bytes(*e);
                }
                return self.shrink(tmp);
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
                return self.shrink(tmp);
            }
        }
        self.set_lows(tmp);
    }

    /// Moves a bitmap form of at most [`ARRAY_MAX`] values to the array form.
    fn shrink(&mut self, tmp: &mut Vec<u16>) {
        if let Acc::Words(w) = self {
            if bitmap::popcount(w) <= ARRAY_MAX {
                tmp.clear();
                bitmap::to_array(w, tmp);
                self.set_lows(tmp);
            }
        }
    }

    /// True when no value is left.
    pub(crate) fn is_empty(&self) -> bool {
        match self {
            Acc::Lows(l) => l.is_empty(),
            Acc::Words(w) => w.iter().all(|&x| x == 0),
        }
    }

    /// Pushes the values as container `key`, in canonical form (nothing if empty).
    pub(crate) fn push(&self, key: u64, w: &mut Writer, tmp: &mut Vec<u16>) {
        match self {
            Acc::Lows(l) => {
                tmp.clear();
                tmp.extend(l.iter().map(|e| u16::from_le_bytes(*e)));
                w.push_sorted_lows(key, tmp);
            }
            Acc::Words(words) => w.push_bitmap(key, words),
        }
    }
}

/// Finishes a keyed map of scratch containers into a writer.
fn finish(map: &BTreeMap<u64, Acc>, tmp: &mut Vec<u16>) -> Writer {
    let payload = map
        .values()
        .map(|a| match a {
            Acc::Lows(l) => 2 * l.len(),
            Acc::Words(_) => 8 * WORDS,
        })
        .sum();
    let mut w = Writer::with_capacity(map.len(), payload);
    for (&key, acc) in map {
        acc.push(key, &mut w, tmp);
    }
    w
}

/// Streaming union: `add` views one at a time, then `finish`.
///
/// ```
/// use sroar::{from_sorted, ops::OrAccumulator, RoaringView};
///
/// let (x, y) = (from_sorted(&[1, 2]).unwrap(), from_sorted(&[2, 1 << 40]).unwrap());
/// let mut acc = OrAccumulator::new();
/// acc.add(RoaringView::from_bytes(&x).unwrap());
/// acc.add(RoaringView::from_bytes(&y).unwrap());
/// let out = acc.finish().into_vec().unwrap();
/// assert_eq!(RoaringView::from_bytes(&out).unwrap().iter().collect::<Vec<_>>(), [1, 2, 1 << 40]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct OrAccumulator {
    map: BTreeMap<u64, Acc>,
    tmp: Vec<u16>,
}

impl OrAccumulator {
    /// An accumulator of the empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the values of `v`.
    pub fn add(&mut self, v: RoaringView<'_>) {
        let dir = v.directory();
        for i in 0..dir.len() {
            let (key, c) = v.container(i);
            match self.map.get_mut(&key) {
                Some(acc) => acc.or(c, &mut self.tmp),
                None => {
                    self.map.insert(key, Acc::from_container(c, dir.card(i)));
                }
            }
        }
    }

    /// Number of containers accumulated so far.
    pub fn container_count(&self) -> usize {
        self.map.len()
    }

    /// The union of everything added, as an unfinished [`Writer`].
    pub fn finish(mut self) -> Writer {
        finish(&self.map, &mut self.tmp)
    }
}

/// Streaming symmetric difference: the values added an odd number of times.
#[derive(Clone, Debug, Default)]
pub struct XorAccumulator {
    map: BTreeMap<u64, Acc>,
    tmp: Vec<u16>,
}

impl XorAccumulator {
    /// An accumulator of the empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Flips the values of `v`.
    pub fn add(&mut self, v: RoaringView<'_>) {
        let dir = v.directory();
        for i in 0..dir.len() {
            let (key, c) = v.container(i);
            match self.map.get_mut(&key) {
                Some(acc) => acc.xor(c, &mut self.tmp),
                None => {
                    self.map.insert(key, Acc::from_container(c, dir.card(i)));
                }
            }
        }
    }

    /// The symmetric difference of everything added, as an unfinished [`Writer`]
    /// (containers that cancelled out are dropped).
    pub fn finish(mut self) -> Writer {
        finish(&self.map, &mut self.tmp)
    }
}

/// Streaming intersection. It only shrinks: once [`AndAccumulator::is_empty`]
/// says so, callers can stop reading inputs.
///
/// Before the first `add` the accumulator stands for "no constraint yet";
/// finishing it then gives the empty set.
#[derive(Clone, Debug, Default)]
pub struct AndAccumulator {
    map: BTreeMap<u64, Acc>,
    started: bool,
    tmp: Vec<u16>,
}

impl AndAccumulator {
    /// An accumulator with no input yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Intersects with the values of `v`.
    pub fn add(&mut self, v: RoaringView<'_>) {
        let dir = v.directory();
        if !self.started {
            self.started = true;
            for i in 0..dir.len() {
                let (key, c) = v.container(i);
                self.map.insert(key, Acc::from_container(c, dir.card(i)));
            }
            return;
        }
        let tmp = &mut self.tmp;
        let mut j = 0;
        // `retain` visits the keys in ascending order, so one cursor seeks forward.
        self.map.retain(|&key, acc| {
            j = seek(&dir, j, key);
            if j == dir.len() || dir.key(j) != key {
                return false;
            }
            acc.and(v.container(j).1, tmp);
            !acc.is_empty()
        });
    }

    /// True once an input has been added and the intersection is empty: no later
    /// input can change the result.
    pub fn is_empty(&self) -> bool {
        self.started && self.map.is_empty()
    }

    /// The intersection of everything added, as an unfinished [`Writer`].
    pub fn finish(mut self) -> Writer {
        finish(&self.map, &mut self.tmp)
    }
}
