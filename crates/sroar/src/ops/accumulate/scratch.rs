//! Scratch containers: a key's values while an accumulator works on them, as a
//! sorted array of lows (at most 4096) or as 1024 words, with the operations that
//! combine them with a stored container in place.

use allocator_api2::alloc::{Allocator, Global};
use allocator_api2::boxed::Box;
use allocator_api2::vec::Vec;

use crate::container::bitmap::WORDS;
use crate::container::{array::count_runs_sorted, Container, Kind, ARRAY_MAX, RUNS_CAP};
use crate::kernels::{array, array_bitmap, bitmap, in_place, run};
use crate::ops::pair::{load_words, Slices};
use crate::writer::Writer;

/// The cardinality of a full container: every low value.
pub(crate) const FULL: u32 = 1 << 16;

/// A count not known since the last change.
pub(super) const UNKNOWN: u32 = u32::MAX;

/// An owned scratch container.
#[derive(Clone, Debug)]
pub(crate) enum Acc<A: Allocator + Clone = Global> {
    /// At most [`ARRAY_MAX`] sorted, distinct lows, little-endian so that the
    /// array kernels read them directly.
    Lows(Vec<[u8; 2], A>),
    /// Any set, as 1024 words.
    Words(Box<[u64; WORDS], A>),
}

/// From this many lows on, an array scratch container takes the bitmap form rather
/// than merge in a container much smaller than itself. A merge costs the array's
/// whole length, setting bits costs only the incoming values, and in an aggregate
/// small rows keep coming: the union of 600 sets of 150 values grew each array to
/// 4096 one short merge at a time, 14 ms where bits take 1 ms. Below the threshold,
/// and for inputs of comparable size, the array stays: it is smaller (2 bytes per
/// value against 8 kB), which matters to GROUP BY with many small groups.
const EAGER_WORDS: usize = 256;

/// Whether `self` (an array of `len` lows) should merge `card` more values as an
/// array rather than take the bitmap form.
#[inline]
fn merge_as_array(len: usize, card: usize) -> bool {
    len + card <= ARRAY_MAX as usize && (len < EAGER_WORDS || 4 * card >= len)
}

std::thread_local! {
    /// Where [`union_into`] merges and a bitmap's values are gathered before they
    /// are written, reused from call to call: an aggregate merges once per row and
    /// container.
    static VALUES: core::cell::RefCell<std::vec::Vec<u16>> = const {
        core::cell::RefCell::new(std::vec::Vec::new())
    };
}

/// Room for any array result and the slack a SIMD kernel reserves past it: the
/// buffer is allocated once per thread, never per call.
const VALUES_ROOM: usize = 2 * ARRAY_MAX as usize;

/// Runs `f` on the thread's empty values buffer.
fn with_values<R>(f: impl FnOnce(&mut std::vec::Vec<u16>) -> R) -> R {
    VALUES.with_borrow_mut(|values| {
        values.clear();
        if values.capacity() < VALUES_ROOM {
            values.reserve_exact(VALUES_ROOM);
        }
        f(values)
    })
}

/// An array at least 1/8 of the length of the one it merges into goes through
/// [`union_into`]; a smaller one merges in place, where copying the whole array
/// twice would cost more than the merge (many sets of a few values per container).
const SIMD_MERGE_RATIO: usize = 8;

/// `l ∪= x` for two arrays of at most [`ARRAY_MAX`] values together, through the
/// dispatched (SIMD) union kernel: several times faster than merging in place,
/// which must go value by value.
fn union_into<A: Allocator>(l: &mut Vec<[u8; 2], A>, x: &[[u8; 2]]) {
    with_values(|merged| {
        array::union(l, x, merged);
        // A union only grows `l`: zero the new tail, then copy the whole result
        // at once (allocator_api2's `extend_from_slice` pushes value by value).
        l.resize(merged.len(), [0; 2]);
        copy_lows(l, merged);
    });
}

/// `dst = values` as little-endian lows: one copy where that is the native order.
fn copy_lows(dst: &mut [[u8; 2]], values: &[u16]) {
    if cfg!(target_endian = "little") {
        dst.copy_from_slice(bytemuck::cast_slice(values));
    } else {
        for (d, v) in dst.iter_mut().zip(values) {
            *d = v.to_le_bytes();
        }
    }
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
    pub(crate) fn words(&mut self) -> &mut [u64; WORDS] {
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
    #[cfg(test)]
    pub(crate) fn insert(&mut self, v: u16) -> bool {
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

    /// `self ∪= c`, where `c` holds `card` values. Returns the cardinality of the
    /// result where it comes for free (an array merge, a bitmap union counted in the
    /// same pass, a full input), else [`UNKNOWN`].
    pub(crate) fn or(&mut self, c: Container<'_>, card: u32) -> u32 {
        if card == FULL {
            match self {
                Acc::Words(w) => w.fill(!0),
                // Whatever the array held, the result is every value.
                Acc::Lows(l) => *self = Acc::Words(Box::new_in([!0; WORDS], l.allocator().clone())),
            }
            return FULL;
        }
        if let Acc::Lows(l) = self {
            if merge_as_array(l.len(), card as usize) {
                match Slices::of(c) {
                    Slices::Array(x) if x.len() * SIMD_MERGE_RATIO >= l.len() => {
                        union_into(l, x);
                        return l.len() as u32;
                    }
                    Slices::Array(x) => {
                        in_place::merge_into(l, x.iter().rev().map(|&e| low(e)), x.len(), true);
                        return l.len() as u32;
                    }
                    Slices::Run(x) => {
                        let runs = x.iter().rev().map(|&r| {
                            let (lo, hi) = run::bounds(r);
                            (lo as u16, hi as u16)
                        });
                        in_place::union_runs_into(l, runs, card as usize);
                        return l.len() as u32;
                    }
                    Slices::Bitmap(_) => {}
                }
            }
        }
        let w = self.words();
        match Slices::of(c) {
            Slices::Array(x) => array_bitmap::set_into(x, w),
            Slices::Bitmap(x) => return bitmap::or_assign(w, x),
            Slices::Run(x) => run::set_into(x, w),
        }
        UNKNOWN
    }

    /// `self ∪= chunk`: the values of one container (this key's), sorted ascending
    /// and distinct. The bitmap form is not counted.
    pub(crate) fn or_sorted(&mut self, chunk: &[u64]) {
        if let Acc::Lows(l) = self {
            if merge_as_array(l.len(), chunk.len()) {
                return in_place::merge_into(l, chunk.iter().rev().map(|&v| v as u16), chunk.len(), true);
            }
        }
        let w = self.words();
        for &v in chunk {
            set(w, v as u16);
        }
    }

    /// A scratch container of one key's values, sorted ascending and distinct.
    pub(crate) fn from_sorted_in(chunk: &[u64], alloc: A) -> Self {
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
    pub(crate) fn xor(&mut self, c: Container<'_>, card: u32) {
        if let Acc::Lows(l) = self {
            if merge_as_array(l.len(), card as usize) {
                match Slices::of(c) {
                    Slices::Array(x) => {
                        return in_place::merge_into(l, x.iter().rev().map(|&e| low(e)), x.len(), false)
                    }
                    Slices::Run(x) => {
                        return in_place::merge_into(l, run_values_rev(x), card as usize, false)
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
            (Acc::Lows(l), Slices::Array(x)) => in_place::intersect_into(l, x),
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
    pub(crate) fn shrink(&mut self) -> u32 {
        let Acc::Words(w) = self else {
            return self.card();
        };
        let card = bitmap::popcount(w);
        if card <= ARRAY_MAX {
            let mut l = Vec::with_capacity_in(card as usize, Box::allocator(w).clone());
            in_place::for_each_bit(w, |v| l.push(v.to_le_bytes()));
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
    pub(crate) fn card(&self) -> u32 {
        match self {
            Acc::Lows(l) => l.len() as u32,
            Acc::Words(w) => bitmap::popcount(w),
        }
    }

    /// Number of maximal runs; a bitmap's are counted until at least
    /// [`RUNS_CAP`], all the container's kind needs.
    pub(crate) fn runs(&self) -> u32 {
        match self {
            // The lows are strictly ascending, so the dispatched validation kernel
            // counts their runs; the scalar count stays as the fallback it never needs.
            Acc::Lows(l) => {
                array::ascending_runs(l).unwrap_or_else(|| count_runs_sorted(l.iter().map(|&e| low(e))))
            }
            Acc::Words(w) => bitmap::count_runs(w, RUNS_CAP),
        }
    }

    /// Smallest and largest value of a non-empty container.
    pub(crate) fn min_max(&self) -> (u16, u16) {
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
    pub(crate) fn write(&self, kind: Kind, out: &mut [u8]) {
        match (self, kind) {
            (Acc::Lows(l), Kind::Array) => out.copy_from_slice(l.as_flattened()),
            (Acc::Words(w), Kind::Array) => with_values(|values| {
                bitmap::to_array(w, values);
                let dst = out.as_chunks_mut::<2>().0;
                assert_eq!(dst.len(), values.len(), "sroar: cardinality cached for this payload");
                copy_lows(dst, values);
            }),
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
            (Acc::Lows(l), Kind::Run) => put_runs(out, |f| in_place::for_each_array_run(l, f)),
            (Acc::Words(w), Kind::Run) => put_runs(out, |f| in_place::for_each_word_run(w, f)),
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
    /// Sorted, distinct lows (at most [`ARRAY_MAX`]) as a scratch container.
    pub(crate) fn from_lows(lows: &[u16]) -> Self {
        debug_assert!(lows.len() <= ARRAY_MAX as usize);
        let mut l = Vec::with_capacity(lows.len());
        l.extend(lows.iter().map(|v| v.to_le_bytes()));
        Acc::Lows(l)
    }

    /// The container `c` (of `card` values) as a scratch container.
    pub(crate) fn from_container(c: Container<'_>, card: u32) -> Self {
        Self::from_container_in(c, card, Global)
    }

    /// `self ∩= c`: the array forms go through the dispatched kernels and the
    /// caller's scratch `tmp` ([`and_many`](crate::ops::and_many)'s path).
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
        // An intersection only shrinks `l`.
        l.truncate(tmp.len());
        copy_lows(l, tmp);
    }
}

