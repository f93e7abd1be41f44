//! Answers read from a few byte ranges of a buffer, for callers that can fetch
//! ranges without loading the whole value (PostgreSQL TOAST slices).
//!
//! The header answers the cardinality, min and max from its first
//! [`HEADER_MAX_LEN`] bytes. Membership, rank and select read the header, a few
//! directory entries found by bisection, and one container: O(log n) ranges of a
//! buffer of n containers. The buffer is trusted (it was validated when stored),
//! but short or inconsistent ranges give an error, never a panic or an
//! out-of-bounds read.

use core::marker::PhantomData;

use crate::container::{array::ArrayView, run::RunView, Container, Kind};
use crate::format::directory::{kind_of, Shape, BLOCK};
use crate::format::header::{read_le, HeaderError, HEADER_MAX_LEN};
use crate::format::Header;
use crate::owned::Roaring;
use crate::view::RoaringView;

/// Why ranges of a stored value could not answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartialReadError {
    /// A range the buffer does not hold, or a directory that disagrees with
    /// itself.
    Corrupt,
    /// The buffer is of a format version this crate does not read.
    UnsupportedVersion(u8),
}

impl core::fmt::Display for PartialReadError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PartialReadError::Corrupt => f.write_str("the stored roaring64 value is truncated or corrupt"),
            PartialReadError::UnsupportedVersion(v) => write!(
                f,
                "the stored roaring64 value is of format version {v}; this build reads version {}",
                crate::format::VERSION
            ),
        }
    }
}

impl std::error::Error for PartialReadError {}

type Result<T> = core::result::Result<T, PartialReadError>;
use PartialReadError::Corrupt;

/// The header from the first bytes of a buffer (up to [`HEADER_MAX_LEN`] of them).
pub fn header(prefix: &[u8]) -> Result<Header> {
    Ok(shape(prefix)?.header)
}

impl Header {
    /// The header from the first bytes of a buffer (up to [`HEADER_MAX_LEN`] of
    /// them): a large stored value answers its cardinality, min and max from its
    /// first bytes alone.
    ///
    /// ```
    /// use sroar::{Header, Roaring, HEADER_MAX_LEN};
    ///
    /// let set = Roaring::from_sorted(&[3, 1 << 40]).unwrap();
    /// let bytes = set.as_bytes();
    /// let h = Header::from_prefix(&bytes[..HEADER_MAX_LEN.min(bytes.len())]).unwrap();
    /// assert_eq!((h.cardinality, h.min, h.max), (2, 3, 1 << 40));
    /// ```
    pub fn from_prefix(prefix: &[u8]) -> Result<Header> {
        header(prefix)
    }
}

/// Questions about a buffer answered from a few byte ranges of it, which `fetch`
/// returns (`fetch(offset, len)`: at most `len` bytes from `offset`, fewer where the
/// buffer ends), for callers that can read ranges without loading the whole value
/// (PostgreSQL TOAST slices). The buffer is trusted (it was validated when stored),
/// but short or inconsistent ranges give an error, never a panic.
///
/// ```
/// use sroar::{Partial, Roaring};
///
/// let set = Roaring::from_sorted(&[1, 5, 1 << 40]).unwrap();
/// let bytes = set.as_bytes();
/// let mut partial = Partial::new(|offset: usize, len: usize| {
///     let end = (offset + len).min(bytes.len());
///     &bytes[offset.min(end)..end]
/// });
/// assert_eq!(partial.rank(5), Ok(2));
/// assert_eq!(partial.select(2), Ok(Some(1 << 40)));
/// assert_eq!(partial.contains(4), Ok(false));
/// ```
pub struct Partial<F> {
    fetch: F,
}

impl<'a, F: FnMut(usize, usize) -> &'a [u8]> Partial<F> {
    /// Reads through `fetch`.
    pub fn new(fetch: F) -> Self {
        Partial { fetch }
    }

    /// Whether the set holds `x`.
    pub fn contains(&mut self, x: u64) -> Result<bool> {
        contains(&mut self.fetch, x)
    }

    /// The number of values `<= x`.
    pub fn rank(&mut self, x: u64) -> Result<u64> {
        rank(&mut self.fetch, x)
    }

    /// The 0-based position of `x`, or None when absent.
    pub fn index(&mut self, x: u64) -> Result<Option<u64>> {
        index(&mut self.fetch, x)
    }

    /// The `k`-th smallest value (0-based), or None past the end.
    pub fn select(&mut self, k: u64) -> Result<Option<u64>> {
        select(&mut self.fetch, k)
    }

    /// `other ∩ self`, reading of this set its header and directory (from the
    /// first ranges) and the containers of the keys both hold: for a small `other`
    /// against a large stored set, such as the later steps of an intersection of
    /// many sets, a few ranges instead of the whole value.
    ///
    /// ```
    /// use sroar::{Partial, Roaring};
    ///
    /// let large = Roaring::from_sorted(&(0..100_000).map(|i| i * 7).collect::<Vec<_>>()).unwrap();
    /// let bytes = large.as_bytes();
    /// let mut partial = Partial::new(|offset: usize, len: usize| {
    ///     let end = (offset + len).min(bytes.len());
    ///     &bytes[offset.min(end)..end]
    /// });
    /// let small = Roaring::from_sorted(&[6, 7, 700_000, 1 << 40]).unwrap();
    /// assert_eq!(partial.and(small.view()).unwrap().iter().collect::<Vec<_>>(), [7]);
    /// assert_eq!(partial.and_len(small.view()), Ok(1));
    /// ```
    pub fn and(&mut self, other: RoaringView<'_>) -> Result<Roaring> {
        if other.is_empty() {
            return Ok(Roaring::default());
        }
        let mut r = Remote::open(&mut self.fetch)?;
        let w = crate::ops::and_lookup(other, |key| r.lookup(key))?;
        // No bigger than `other`, so within the limit of a buffer.
        w.into_roaring().map_err(|_| Corrupt)
    }

    /// `|other ∩ self|`, reading what [`Partial::and`] reads.
    pub fn and_len(&mut self, other: RoaringView<'_>) -> Result<u64> {
        if other.is_empty() {
            return Ok(0);
        }
        let mut r = Remote::open(&mut self.fetch)?;
        crate::ops::and_len_lookup(other, |key| r.lookup(key))
    }

    /// Appends to `out`, in ascending order, the values of the containers in the
    /// ranges that `pick` chooses (given the count of containers, it gives
    /// ascending, non-overlapping ranges of container indexes; what lies past the
    /// count is ignored), and returns that count. Each range costs four reads
    /// whatever its length (its keys, cardinalities, offsets and payload): a sample
    /// of a large set's values that reads little of it.
    ///
    /// ```
    /// use sroar::{Partial, Roaring};
    ///
    /// let set = Roaring::from_sorted(&[1, 2, 1 << 20, 1 << 40]).unwrap();
    /// let bytes = set.as_bytes();
    /// let mut partial = Partial::new(|offset: usize, len: usize| {
    ///     let end = (offset + len).min(bytes.len());
    ///     &bytes[offset.min(end)..end]
    /// });
    /// let mut out = Vec::new();
    /// assert_eq!(partial.container_values(|n| [0..1, n - 1..n], &mut out), Ok(3));
    /// assert_eq!(out, [1, 2, 1 << 40]);
    /// ```
    pub fn container_values<R: IntoIterator<Item = core::ops::Range<usize>>>(
        &mut self,
        pick: impl FnOnce(usize) -> R,
        out: &mut Vec<u64>,
    ) -> Result<usize> {
        let mut r = Remote::open(&mut self.fetch)?;
        let n = r.s.n();
        let mut done = 0;
        for range in pick(n) {
            let (from, to) = (range.start.max(done), range.end.min(n));
            if from < to {
                r.range_values(from, to, out)?;
                done = to;
            }
        }
        Ok(n)
    }
}

fn shape(prefix: &[u8]) -> Result<Shape> {
    let p = Header::parse(prefix).map_err(|e| match e {
        HeaderError::Version(v) => PartialReadError::UnsupportedVersion(v),
        _ => Corrupt,
    })?;
    Shape::new(&p, usize::MAX).ok_or(Corrupt)
}

/// Sorted fixed-width arrays bigger than this are bisected with one-entry reads
/// until what is left fits in one read of at most this many bytes (a few TOAST
/// chunks), so a search costs O(log n) small reads.
const WINDOW: usize = 8192;

/// A container found: its index, cardinality, kind, and payload range.
#[derive(Clone, Copy)]
struct Slot {
    i: usize,
    kind: Kind,
    start: usize,
    size: usize,
}

/// A buffer read through `fetch(offset, len)`, which returns the bytes
/// `[offset, offset + len)` (fewer where the buffer ends).
struct Remote<'a, F> {
    fetch: F,
    s: Shape,
    _bytes: PhantomData<&'a [u8]>,
}

impl<'a, F: FnMut(usize, usize) -> &'a [u8]> Remote<'a, F> {
    fn open(mut fetch: F) -> Result<Self> {
        let s = shape(fetch(0, HEADER_MAX_LEN))?;
        Ok(Remote {
            fetch,
            s,
            _bytes: PhantomData,
        })
    }

    /// Exactly `len` bytes at `at`.
    fn bytes(&mut self, at: usize, len: usize) -> Result<&'a [u8]> {
        (self.fetch)(at, len).get(..len).ok_or(Corrupt)
    }

    /// The `width`-byte integer at `at`.
    fn int(&mut self, at: usize, width: usize) -> Result<u64> {
        Ok(read_le(self.bytes(at, width)?, 0, width))
    }

    /// The partition point of the `count` sorted `width`-byte integers at `at`
    /// (the first index whose integer fails `below`), and the integer there when
    /// the last read held it.
    fn partition(
        &mut self,
        at: usize,
        count: usize,
        width: usize,
        below: impl Fn(u64) -> bool,
    ) -> Result<(usize, Option<u64>)> {
        let (mut lo, mut hi) = (0, count);
        let mut at_hi = None;
        // Invariant: entries before `lo` pass, entries from `hi` on fail.
        while (hi - lo) * width > WINDOW {
            let mid = lo + (hi - lo) / 2;
            let x = self.int(at + mid * width, width)?;
            if below(x) {
                lo = mid + 1;
            } else {
                (hi, at_hi) = (mid, Some(x));
            }
        }
        let window = self.bytes(at + lo * width, (hi - lo) * width)?;
        for i in 0..hi - lo {
            let x = read_le(window, i * width, width);
            if !below(x) {
                return Ok((lo + i, Some(x)));
            }
        }
        Ok((hi, at_hi))
    }

    /// Index of the container with `key`, if any.
    fn find(&mut self, key: u64) -> Result<Option<usize>> {
        let s = self.s;
        if s.n() == 0 || key < s.header.min >> 16 || key > s.header.max >> 16 {
            return Ok(None);
        }
        let target = key - s.key0;
        let (i, found) = self.partition(s.keys as usize, s.n(), usize::from(s.kw), |k| k < target)?;
        Ok((found == Some(target)).then_some(i))
    }

    /// The container of `key` and its cardinality, or None when the set lacks it.
    fn lookup(&mut self, key: u64) -> Result<Option<(u32, Container<'a>)>> {
        let Some(i) = self.find(key)? else {
            return Ok(None);
        };
        let card = self.cards(i, i + 1)?.get(0);
        let slot = self.slot(i, card)?;
        Ok(Some((card, self.container(slot)?)))
    }

    /// The count before block `b` (0 for block 0).
    fn block_count(&mut self, b: usize) -> Result<u64> {
        if b == 0 {
            return Ok(0);
        }
        let cw = usize::from(self.s.cw);
        self.int(self.s.counts as usize + (b - 1) * cw, cw)
    }

    /// The cardinalities of containers `from..to`.
    fn cards(&mut self, from: usize, to: usize) -> Result<Cards<'a>> {
        let w = usize::from(self.s.card_w);
        Ok(Cards {
            bytes: self.bytes(self.s.cards as usize + w * from, w * (to - from))?,
            w,
            len: to - from,
        })
    }

    /// Values in containers `0..i`, and the cardinality of container `i`: one
    /// stored count and one read of at most 64 cardinalities.
    fn prefix_and_card(&mut self, i: usize) -> Result<(u64, u32)> {
        let b = i / BLOCK;
        let count = self.block_count(b)?;
        let cards = self.cards(b * BLOCK, i + 1)?;
        let within: u64 = (0..cards.len - 1).map(|j| u64::from(cards.get(j))).sum();
        Ok((count.checked_add(within).ok_or(Corrupt)?, cards.get(cards.len - 1)))
    }

    /// Where container `i` (of `card` values) is, in one read of its offsets. The
    /// last container's size is what is left of the buffer: one byte more than the
    /// largest payload of its cardinality is asked for, and what comes back is it.
    /// Where no offsets are stored, from the values before it (`before`, asked
    /// for only then).
    fn slot(&mut self, i: usize, card: u32) -> Result<Slot> {
        let s = self.s;
        let (n, ow, payload) = (s.n(), usize::from(s.ow), s.payload as usize);
        if s.implied_offsets() {
            let before = self.prefix_and_card(i)?.0;
            return Ok(Slot {
                i,
                kind: Kind::Array,
                // A count read from a damaged value may be anything.
                start: usize::try_from(before)
                    .ok()
                    .and_then(|b| b.checked_mul(2)?.checked_add(payload))
                    .ok_or(Corrupt)?,
                size: 2 * card as usize,
            });
        }
        // Stored offsets are those of containers 1..n, halved.
        let first = i.max(1) - 1;
        let last = (i + 1).min(n - 1);
        let offsets = if last > first || i > 0 {
            self.bytes(s.offsets as usize + first * ow, (last - first) * ow)?
        } else {
            &[]
        };
        let off = |k: usize| payload + 2 * read_le(offsets, (k - 1 - first) * ow, ow) as usize;
        let start = if i == 0 { payload } else { off(i) };
        let size = if i + 1 < n {
            off(i + 1).checked_sub(start).ok_or(Corrupt)?
        } else {
            let most = if card <= 4096 { 2 * card as usize } else { 8192 };
            let got = (self.fetch)(start, most + 1).len();
            if got > most {
                return Err(Corrupt);
            }
            got
        };
        if size == 0 {
            return Err(Corrupt);
        }
        Ok(Slot {
            i,
            kind: kind_of(card, size),
            start,
            size,
        })
    }

    /// The container in `slot`, read whole (a bitmap's 8 KB too).
    fn container(&mut self, slot: Slot) -> Result<Container<'a>> {
        container_in(self.bytes(slot.start, slot.size)?, slot.kind)
    }

    /// Values `<= low` in the container in `slot`; a bitmap reads only the words up
    /// to it.
    fn rank_in(&mut self, slot: Slot, low: u16) -> Result<u64> {
        if slot.kind != Kind::Bitmap {
            return Ok(self.container(slot)?.rank(low) as u64);
        }
        let words = usize::from(low >> 6) + 1;
        let bytes = self.bytes(slot.start, 8 * words)?;
        let (w, last) = bytes.as_chunks::<8>().0.split_at(words - 1);
        let full: u64 = w.iter().map(|w| u64::from(u64::from_le_bytes(*w).count_ones())).sum();
        let mask = u64::MAX >> (63 - (low & 63));
        Ok(full + u64::from((u64::from_le_bytes(last[0]) & mask).count_ones()))
    }

    /// The key of container `i`.
    fn key(&mut self, i: usize) -> Result<u64> {
        let kw = usize::from(self.s.kw);
        Ok(self.s.key0 + self.int(self.s.keys as usize + i * kw, kw)?)
    }

    /// Appends the values of containers `from..to` (`from < to <= n`) to `out`.
    fn range_values(&mut self, from: usize, to: usize, out: &mut Vec<u64>) -> Result<()> {
        let s = self.s;
        let (n, ow, kw, payload) = (s.n(), usize::from(s.ow), usize::from(s.kw), s.payload as usize);
        let keys = self.bytes(s.keys as usize + from * kw, (to - from) * kw)?;
        let cards = self.cards(from, to)?;
        let card = |j: usize| cards.get(j);
        // Stored offsets are those of containers 1..n, halved: the starts of
        // `from..to`, and the end of the last when it is not the last container.
        // Where none are stored, the starts are twice the values before each.
        let implied = s.implied_offsets();
        let first = from.max(1);
        let last = to.min(n - 1);
        let offsets = if last >= first && !implied {
            self.bytes(s.offsets as usize + (first - 1) * ow, (last - first + 1) * ow)?
        } else {
            &[]
        };
        let mut starts = Vec::new();
        if implied {
            let before = self.prefix_and_card(from)?.0;
            let mut at = before.checked_mul(2).and_then(|b| b.checked_add(payload as u64)).ok_or(Corrupt)?;
            for j in 0..=to - from {
                starts.push(usize::try_from(at).map_err(|_| Corrupt)?);
                if j < to - from {
                    at = at.checked_add(2 * u64::from(card(j))).ok_or(Corrupt)?;
                }
            }
        }
        let start = |k: usize| {
            if implied {
                starts[k - from]
            } else if k == 0 {
                payload
            } else {
                payload + 2 * read_le(offsets, (k - first) * ow, ow) as usize
            }
        };
        let begin = start(from);
        let end = if to < n {
            start(to)
        } else {
            // The last container ends where the buffer does: one byte more than
            // its largest payload is asked for, and what comes back is it.
            let c = card(to - 1 - from);
            start(to - 1) + if c <= 4096 { 2 * c as usize } else { 8192 } + 1
        };
        let bytes = (self.fetch)(begin, end.checked_sub(begin).ok_or(Corrupt)?);
        if to < n && bytes.len() != end - begin || to == n && bytes.len() >= end - begin {
            return Err(Corrupt);
        }
        for i in from..to {
            let at = start(i).checked_sub(begin).ok_or(Corrupt)?;
            let next = if i + 1 < to {
                start(i + 1).checked_sub(begin).ok_or(Corrupt)?
            } else {
                bytes.len()
            };
            let payload = bytes.get(at..next).filter(|p| !p.is_empty()).ok_or(Corrupt)?;
            let high = (s.key0 + read_le(keys, (i - from) * kw, kw)) << 16;
            let c = container_in(payload, kind_of(card(i - from), payload.len()))?;
            out.extend(c.iter().map(|low| high | u64::from(low)));
        }
        Ok(())
    }
}

/// Cardinalities read from a range of the directory.
struct Cards<'a> {
    /// `len * w` bytes.
    bytes: &'a [u8],
    w: usize,
    len: usize,
}

impl Cards<'_> {
    /// The `j`-th cardinality (each is stored minus one, in `w` bytes).
    fn get(&self, j: usize) -> u32 {
        read_le(self.bytes, j * self.w, self.w) as u32 + 1
    }
}

/// The container of `kind` whose payload is `bytes`.
fn container_in(bytes: &[u8], kind: Kind) -> Result<Container<'_>> {
    Ok(match kind {
        Kind::Array => Container::Array(ArrayView::new(bytes)),
        Kind::Bitmap => Container::Bitmap(crate::container::BitmapView::new(bytes).ok_or(Corrupt)?),
        Kind::Run if bytes.len().is_multiple_of(4) => Container::Run(RunView::new(bytes)),
        Kind::Run => return Err(Corrupt),
    })
}

/// Whether `x` is in the set, reading through `fetch(offset, len)`, which returns
/// the bytes `[offset, offset + len)` of the buffer (fewer if the buffer ends).
pub fn contains<'a>(fetch: impl FnMut(usize, usize) -> &'a [u8], x: u64) -> Result<bool> {
    let mut r = Remote::open(fetch)?;
    let Some(i) = r.find(x >> 16)? else {
        return Ok(false);
    };
    let card = r.cards(i, i + 1)?.get(0);
    let slot = r.slot(i, card)?;
    let low = x as u16;
    if slot.kind == Kind::Bitmap {
        // Only the word that holds `low` is needed.
        let w = r.int(slot.start + 8 * usize::from(low >> 6), 8)?;
        return Ok(w >> (low & 63) & 1 == 1);
    }
    Ok(r.container(slot)?.contains(low))
}

/// Number of values `<= x`, reading through `fetch` (as for [`contains`]).
pub fn rank<'a>(fetch: impl FnMut(usize, usize) -> &'a [u8], x: u64) -> Result<u64> {
    let mut r = Remote::open(fetch)?;
    let s = r.s;
    if s.n() == 0 || x < s.header.min {
        return Ok(0);
    }
    if x >= s.header.max {
        return Ok(s.header.cardinality);
    }
    let target = (x >> 16) - s.key0;
    let (i, found) = r.partition(s.keys as usize, s.n(), usize::from(s.kw), |k| k < target)?;
    if found != Some(target) {
        // Every container before `i` is below x, the rest above.
        return Ok(if i == s.n() {
            s.header.cardinality
        } else {
            r.prefix_and_card(i)?.0
        });
    }
    let (before, card) = r.prefix_and_card(i)?;
    let slot = r.slot(i, card)?;
    Ok(before + r.rank_in(slot, x as u16)?)
}

/// 0-based position of `x` in ascending order, if present, reading through
/// `fetch` (as for [`contains`]).
pub fn index<'a>(fetch: impl FnMut(usize, usize) -> &'a [u8], x: u64) -> Result<Option<u64>> {
    let mut r = Remote::open(fetch)?;
    let Some(i) = r.find(x >> 16)? else {
        return Ok(None);
    };
    let (before, card) = r.prefix_and_card(i)?;
    let slot = r.slot(i, card)?;
    let c = r.container(slot)?;
    let low = x as u16;
    Ok(c.contains(low).then(|| before + c.rank(low) as u64 - 1))
}

/// The `k`-th smallest value (0-based), reading through `fetch` (as for
/// [`contains`]): a bisection of the stored counts, one block of cardinalities,
/// and one container.
pub fn select<'a>(fetch: impl FnMut(usize, usize) -> &'a [u8], k: u64) -> Result<Option<u64>> {
    let mut r = Remote::open(fetch)?;
    let s = r.s;
    if k >= s.header.cardinality {
        return Ok(None);
    }
    // Blocks 1.. whose count is <= k: the block holding the k-th value is their
    // number (block 0's count, 0, is not stored).
    let (b, _) = r.partition(s.counts as usize, s.blocks(), usize::from(s.cw), |c| c <= k)?;
    let mut rest = k - r.block_count(b)?;
    let from = b * BLOCK;
    let cards = r.cards(from, (from + BLOCK).min(s.n()))?;
    for j in 0..cards.len {
        let card = cards.get(j);
        if rest < u64::from(card) {
            let slot = r.slot(from + j, card)?;
            let low = r.container(slot)?.select(rest as usize).ok_or(Corrupt)?;
            return Ok(Some(r.key(slot.i)? << 16 | u64::from(low)));
        }
        rest -= u64::from(card);
    }
    Err(Corrupt)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::from_sorted;
    use crate::RoaringView;
    use std::cell::RefCell;

    fn sample() -> Vec<u64> {
        let mut values: Vec<u64> = (0..200_000).map(|i| i * 3).collect();
        values.extend((0..70_000).map(|i| (1 << 40) + i));
        values.extend([u64::MAX - 1, u64::MAX]);
        values.extend((0..100).map(|i| (5 << 32) + i * 1000));
        // Many small containers, so that the keys and counts are bisected.
        values.extend((0..5000u64).map(|i| (7 << 40) + (i << 16) + i % 7));
        values.sort_unstable();
        values
    }

    /// Sets of small arrays store no offsets (FORMAT.md): 5000 containers of one
    /// value (cardinalities in no bytes), or of 1 to 7 (one byte each).
    fn implied(most: u64) -> Vec<u64> {
        (0..5000u64)
            .flat_map(|i| (0..1 + i % most).map(move |j| (7 << 40) + (i << 16) + 3 * j + i % 7))
            .collect()
    }

    #[test]
    fn reads_match_the_view_and_read_little() {
        // The flags' low bits: cardinality width (bits 2-3), offset width (0-1).
        for (values, flags) in [(sample(), 0b1010), (implied(1), 0), (implied(7), 0b0100)] {
            assert_eq!(from_sorted(&values).unwrap()[5] & 15, flags);
            reads_match(&values);
        }
    }

    fn reads_match(values: &[u64]) {
        let bytes = from_sorted(values).unwrap();
        let view = RoaringView::from_bytes(&bytes).unwrap();
        let read = RefCell::new((0usize, 0usize));
        let fetch = |off: usize, len: usize| {
            let mut r = read.borrow_mut();
            r.0 += len.min(bytes.len().saturating_sub(off));
            r.1 += 1;
            &bytes[off.min(bytes.len())..(off + len).min(bytes.len())]
        };
        let mut probes = vec![
            0,
            1,
            3,
            599_997,
            600_000,
            1 << 40,
            (1 << 40) + 69_999,
            (1 << 40) + 70_000,
            (5 << 32) + 99_000,
            (5 << 32) + 99_001,
            u64::MAX,
            u64::MAX - 2,
            7 << 50,
        ];
        probes.extend((0..5000u64).step_by(97).map(|i| (7 << 40) + (i << 16) + i % 7));
        probes.extend((0..5000u64).step_by(89).map(|i| (7 << 40) + (i << 16) + 9));
        // A bitmap container and the directory windows of two bisections, in at
        // most 9 reads: header, keys (a window here), counts, cardinalities,
        // offsets, payload.
        let limit = (8192 + 2 * WINDOW + 400, 10);
        let within = |r: (usize, usize)| r.0 < limit.0 && r.1 < limit.1;
        for &probe in &probes {
            *read.borrow_mut() = (0, 0);
            assert_eq!(contains(fetch, probe), Ok(view.contains(probe)), "{probe}");
            assert!(within(*read.borrow()), "contains {probe}: {:?}", read.borrow());
            *read.borrow_mut() = (0, 0);
            assert_eq!(rank(fetch, probe), Ok(view.rank(probe)), "{probe}");
            assert!(within(*read.borrow()), "rank {probe}: {:?}", read.borrow());
            assert_eq!(index(fetch, probe), Ok(view.index(probe)), "{probe}");
        }
        for k in (0..values.len() as u64 + 2).step_by(997).chain([values.len() as u64 - 1]) {
            *read.borrow_mut() = (0, 0);
            assert_eq!(select(fetch, k), Ok(view.select(k)), "{k}");
            assert!(within(*read.borrow()), "select {k}: {:?}", read.borrow());
        }
        let h = header(&bytes[..HEADER_MAX_LEN.min(bytes.len())]).unwrap();
        assert_eq!((h.cardinality, h.min, h.max), (view.len(), values[0], values[values.len() - 1]));
        assert_eq!(header(&crate::builder::empty()).unwrap(), Header::default());
    }

    #[test]
    fn container_values_are_the_containers_values() {
        for values in [sample(), implied(1), implied(7)] {
            container_values_match(values);
        }
    }

    fn container_values_match(values: Vec<u64>) {
        let bytes = from_sorted(&values).unwrap();
        let fetch = |off: usize, len: usize| &bytes[off.min(bytes.len())..(off + len).min(bytes.len())];
        let mut all = Vec::new();
        let n = Partial::new(fetch).container_values(|n| core::iter::once(0..n), &mut all).unwrap();
        assert_eq!(all, values);
        let keys: Vec<u64> = values.iter().map(|v| v >> 16).collect::<std::collections::BTreeSet<_>>().into_iter().collect();
        assert_eq!(n, keys.len());
        // Windows of every length at many places; overlaps and what lies past the
        // end are ignored.
        for len in [1, 2, 3, 64, 65, 700] {
            for at in (0..n).step_by(97).chain([n - 1]) {
                let mut some = Vec::new();
                let picks = |n: usize| vec![at..at + len, at..at + 1, at + len + 2..n + 9];
                Partial::new(fetch).container_values(picks, &mut some).unwrap();
                let chosen: std::collections::BTreeSet<u64> =
                    keys.iter().enumerate().filter(|(i, _)| (at..at + len).contains(i) || *i >= at + len + 2).map(|(_, k)| *k).collect();
                let expect: Vec<u64> = values.iter().copied().filter(|v| chosen.contains(&(v >> 16))).collect();
                assert_eq!(some, expect, "{at} {len}");
            }
        }
        let mut some = Vec::new();
        let picks = |n: usize| (0..n).step_by(3).map(|i| i..i + 1);
        Partial::new(fetch).container_values(picks, &mut some).unwrap();
        let chosen: std::collections::BTreeSet<u64> = keys.iter().copied().step_by(3).collect();
        let expect: Vec<u64> = values.iter().copied().filter(|v| chosen.contains(&(v >> 16))).collect();
        assert_eq!(some, expect);
        let mut none = Vec::new();
        let empty = crate::builder::empty();
        let fetch = |off: usize, len: usize| &empty[off.min(empty.len())..(off + len).min(empty.len())];
        assert_eq!(Partial::new(fetch).container_values(|n| core::iter::once(0..n), &mut none), Ok(0));
        assert!(none.is_empty());
    }

    #[test]
    fn intersections_match_the_view_and_read_the_shared_keys_only() {
        let small: Vec<Vec<u64>> = vec![
            vec![],
            vec![0],
            vec![0, 3, 65_535, 1 << 16, 599_999, 1 << 32, 1 << 40, (1 << 40) + 69_999, 1 << 48, u64::MAX],
            (0..70_000).map(|i| (1 << 40) - 35_000 + i).collect(),
            (0..5000u64).step_by(7).map(|i| (7 << 40) + (i << 16) + i % 7).collect(),
            (0..5000u64).step_by(11).map(|i| (7 << 40) + (i << 16) + 1 + i % 7).collect(),
            (0..100).map(|i| (5 << 32) + i * 1000).collect(),
        ];
        for large in [sample(), implied(1), implied(7)] {
            let bytes = from_sorted(&large).unwrap();
            let view = RoaringView::from_bytes(&bytes).unwrap();
            let read = RefCell::new(0usize);
            let fetch = |off: usize, len: usize| {
                *read.borrow_mut() += len.min(bytes.len().saturating_sub(off));
                &bytes[off.min(bytes.len())..(off + len).min(bytes.len())]
            };
            for values in &small {
                let b = from_sorted(values).unwrap();
                let other = RoaringView::from_bytes(&b).unwrap();
                *read.borrow_mut() = 0;
                let got = Partial::new(fetch).and(other).unwrap();
                let read_by_and = *read.borrow();
                assert_eq!(got.as_bytes(), (view & other).as_bytes(), "{values:?}");
                *read.borrow_mut() = 0;
                assert_eq!(Partial::new(fetch).and_len(other), Ok(view.and_len(&other)));
                assert_eq!(*read.borrow(), read_by_and);
                // The header, and per key of `other` at most the directory windows
                // of a bisection and a bitmap's payload: the large set's other
                // containers are not read.
                let most = HEADER_MAX_LEN + other.container_count() * (8192 + 2 * WINDOW + 400);
                assert!(read_by_and <= most, "{read_by_and} bytes read, {most} at most");
            }
        }
    }

    #[test]
    fn short_reads_are_errors_not_panics() {
        // With offsets (a run) and without (arrays only).
        for values in [[1, 2, 3, 1 << 20, 1 << 40], [1, 5, 9, 1 << 20, 1 << 40]] {
            short_reads(&values);
        }
    }

    fn short_reads(values: &[u64]) {
        let bytes = from_sorted(values).unwrap();
        for cut in 0..bytes.len() {
            let fetch = |off: usize, len: usize| &bytes[off.min(cut)..(off + len).min(cut)];
            let _ = contains(fetch, 1 << 20);
            let _ = contains(fetch, 1 << 40);
            let _ = rank(fetch, 1 << 40);
            let _ = select(fetch, 4);
            let _ = Partial::new(fetch).container_values(|n| [0..n, 1..n], &mut Vec::new());
            let _ = Partial::new(fetch).container_values(|n| core::iter::once(n / 2..n), &mut Vec::new());
            let _ = index(fetch, 3);
            let other = from_sorted(&[1, 4, 1 << 20, 1 << 40]).unwrap();
            let other = RoaringView::from_bytes(&other).unwrap();
            let _ = Partial::new(fetch).and(other);
            let _ = Partial::new(fetch).and_len(other);
        }
        assert_eq!(header(&bytes[..5]), Err(Corrupt));
        let mut v1 = bytes.clone();
        v1[4] = 1;
        assert_eq!(header(&v1), Err(PartialReadError::UnsupportedVersion(1)));
    }
}
