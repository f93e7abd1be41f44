//! The directory: where each container's key, cardinality and payload are, as
//! four arrays of fixed-width fields after the header (FORMAT.md).
//!
//! * keys: `key - key_0` in `kw` bytes, where `key_0 = min >> 16` and `kw` is the
//!   width of the last key's difference (0 for one container);
//! * cardinalities: `card - 1` in 0, 1 or 2 bytes, the width of the largest;
//! * offsets of payloads 1..n, halved (payloads are all of even size), in 1, 2 or
//!   4 bytes; payload 0 starts the payload area. None are stored when every
//!   container is an array of at most 256 values: payload `i` then starts at twice
//!   the values before it, which the counts and at most 63 one-byte cardinalities
//!   give;
//! * counts: the values before container `64 k`, for `k = 1..=(n - 1) / 64`, in
//!   the width of the cardinality, so that rank and select skip whole blocks.
//!
//! A container's kind is not stored: the canonical rule (FORMAT.md) makes it a
//! function of its cardinality and its payload size.

use core::hint::select_unpredictable;

use super::header::{read_le, width_of, Header, Parsed};
use crate::container::bitmap::BITMAP_BYTES;
use crate::container::Kind;

/// One more than the largest key (keys are 48-bit).
pub const KEY_LIMIT: u64 = 1 << 48;
/// Containers per block of the counts array.
pub(crate) const BLOCK: usize = 64;

/// Where the parts of a buffer are, from its header alone: enough to read any
/// field of the directory without looking at the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Shape {
    pub(crate) header: Header,
    /// Key of container 0 (`min >> 16`).
    pub(crate) key0: u64,
    /// Widths of a key, a cardinality, an offset (0: none stored) and a count, in
    /// bytes.
    pub(crate) kw: u8,
    pub(crate) card_w: u8,
    pub(crate) ow: u8,
    pub(crate) cw: u8,
    /// The low `kw` bytes set.
    pub(crate) key_mask: u64,
    /// The low `card_w` bytes set.
    pub(crate) card_mask: u16,
    /// The low `ow` bytes set.
    pub(crate) offset_mask: u32,
    /// Byte positions of the arrays and of the payload area.
    pub(crate) keys: u32,
    pub(crate) cards: u32,
    pub(crate) offsets: u32,
    pub(crate) counts: u32,
    pub(crate) payload: u32,
}

impl Shape {
    /// The shape of a buffer with header `p`; `None` when its directory would not
    /// end before `limit` (the buffer's length, or an upper bound on it).
    #[inline(always)]
    pub(crate) fn new(p: &Parsed, limit: usize) -> Option<Shape> {
        let h = p.header;
        let n = h.n as u64;
        let kw = width_of((h.max >> 16) - (h.min >> 16)) as u64;
        let (ow, card_w) = (u64::from(p.ow), u64::from(p.card_w));
        let cw = width_of(h.cardinality).max(1) as u64;
        let keys = p.len as u64;
        let cards = keys + n * kw;
        let offsets = cards + card_w * n;
        let counts = offsets + n.saturating_sub(1) * ow;
        let payload = counts + (n.saturating_sub(1) / BLOCK as u64) * cw;
        // Positions are kept as u32 (every buffer is below 2^30 bytes): a larger
        // one is no shape of a buffer this crate reads.
        if payload > limit as u64 || payload > u64::from(u32::MAX) {
            return None;
        }
        Some(Shape {
            header: h,
            key0: h.min >> 16,
            kw: kw as u8,
            key_mask: (1u64 << (8 * kw)) - 1,
            card_w: card_w as u8,
            card_mask: ((1u32 << (8 * card_w)) - 1) as u16,
            offset_mask: ((1u64 << (8 * ow)) - 1) as u32,
            ow: ow as u8,
            cw: cw as u8,
            keys: keys as u32,
            cards: cards as u32,
            offsets: offsets as u32,
            counts: counts as u32,
            payload: payload as u32,
        })
    }

    /// Number of containers.
    #[inline]
    pub(crate) fn n(&self) -> usize {
        self.header.n as usize
    }

    /// Number of entries of the counts array.
    #[inline]
    pub(crate) fn blocks(&self) -> usize {
        self.n().saturating_sub(1) / BLOCK
    }

    /// For a set of one or two containers (most small sets): the index of the
    /// container whose key is `key`, if any, from the fields, with no
    /// [`Directory`] cut and no search. `bytes` is the buffer of this shape.
    ///
    /// An operation on such sets is mostly fixed cost, and a directory's general
    /// reads (the search's cases by key width, the start of container `i` by its
    /// cases) were most of it: 144 instructions a `contains` on dimension_003,
    /// where a one-container set needs a compare and a load.
    #[inline(always)]
    pub(crate) fn pair_index(&self, bytes: &[u8], key: u64) -> Option<usize> {
        debug_assert!(matches!(self.n(), 1 | 2));
        let rel = key.wrapping_sub(self.key0);
        // Key 0's difference is 0, stored only as a width.
        if rel == 0 {
            Some(0)
        } else if self.n() == 2 && rel == self.pair_rel_key1(bytes) {
            Some(1)
        } else {
            None
        }
    }

    /// The key of container `i` of a set of one or two containers.
    #[inline(always)]
    pub(crate) fn pair_key(&self, bytes: &[u8], i: usize) -> u64 {
        if i == 0 {
            self.key0
        } else {
            self.key0 + self.pair_rel_key1(bytes)
        }
    }

    /// `key(1) - key(0)` of a set of two containers.
    #[inline(always)]
    fn pair_rel_key1(&self, bytes: &[u8]) -> u64 {
        read_le(bytes, self.keys as usize + usize::from(self.kw), usize::from(self.kw))
    }

    /// Container `i` of a set of one or two containers (`i < n`), from the
    /// fields, as [`Self::pair_index`].
    #[inline(always)]
    pub(crate) fn pair_place(&self, bytes: &[u8], i: usize) -> Place {
        debug_assert!(matches!(self.n(), 1 | 2) && i < self.n());
        let two = self.n() == 2;
        // One 2-byte load and a mask for every width, as `Directory::card`: at
        // least 2 payload bytes follow the cardinalities.
        let card = |j: usize| {
            let at = self.cards as usize + j * usize::from(self.card_w);
            u32::from(u16::from_le_bytes([bytes[at], bytes[at + 1]]) & self.card_mask) + 1
        };
        let payload = self.payload as usize;
        let split = if !two {
            bytes.len()
        } else if self.implied_offsets() {
            payload + 2 * card(0) as usize
        } else {
            payload + 2 * read_le(bytes, self.offsets as usize, usize::from(self.ow)) as usize
        };
        let (start, end) = if i == 0 { (payload, split) } else { (split, bytes.len()) };
        let card = card(i);
        Place {
            key: self.pair_key(bytes, i),
            card,
            kind: kind_of(card, end - start),
            start,
            end,
        }
    }

    /// True when no offsets are stored: every container is an array of at most
    /// 256 values, whose payload starts at twice the values before it.
    #[inline(always)]
    pub(crate) fn implied_offsets(&self) -> bool {
        self.ow == 0
    }
}

/// Where a container is and what it holds, as a directory says: its key, its
/// cardinality, its kind and its payload's byte range.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Place {
    pub(crate) key: u64,
    pub(crate) card: u32,
    pub(crate) kind: Kind,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// The kind of a container from its cardinality and payload size, by the
/// canonical rule: an array is `2 card` bytes and a bitmap 8192; a run container
/// that would be as large as either is not canonical, so any other size is runs.
#[inline]
pub(crate) fn kind_of(card: u32, size: usize) -> Kind {
    if card <= 4096 {
        if size == 2 * card as usize {
            Kind::Array
        } else {
            Kind::Run
        }
    } else if size == BITMAP_BYTES {
        Kind::Bitmap
    } else {
        Kind::Run
    }
}

/// The sum of at most 64 bytes, eight at a time in 16-bit lanes (a vectorized
/// sum of a slice this short spends its time getting in and out of the loop).
#[inline(always)]
fn byte_sum(bytes: &[u8]) -> usize {
    const LOW: u64 = 0x00ff_00ff_00ff_00ff;
    debug_assert!(bytes.len() <= BLOCK);
    let (words, tail) = bytes.as_chunks::<8>();
    // Each lane gains at most 510 a word, and the four lanes' sum of 8 words
    // (16,320) stays below 2^16.
    let lanes = words.iter().fold(0u64, |acc, w| {
        let w = u64::from_le_bytes(*w);
        acc + (w & LOW) + (w >> 8 & LOW)
    });
    let words_sum = (lanes.wrapping_mul(0x0001_0001_0001_0001) >> 48) as usize;
    words_sum + tail.iter().map(|&c| usize::from(c)).sum::<usize>()
}

/// Directories of up to this many 1- or 2-byte keys are searched by a linear count.
const LINEAR_KEYS: usize = 128;

/// The `W`-byte little-endian integer `b`.
#[inline(always)]
fn le<const W: usize>(b: &[u8; W]) -> u64 {
    let mut x = [0u8; 8];
    x[..W].copy_from_slice(b);
    u64::from_le_bytes(x)
}

/// A borrowed directory: its arrays cut from a buffer once, so that each read is
/// one bounds check and one load of a constant size.
#[derive(Clone, Copy, Debug)]
pub struct Directory<'a> {
    bytes: &'a [u8],
    s: Shape,
    /// `n * kw` bytes.
    keys: &'a [u8],
    /// From the cardinalities to the buffer's end: at least `n * card_w + 2`
    /// bytes, so that any cardinality is one 2-byte load and a mask.
    cards: &'a [u8],
    /// From the offsets to the buffer's end.
    offsets_to_end: &'a [u8],
}

impl<'a> Directory<'a> {
    /// The directory of a buffer whose shape is `s`. Cheap, for it is built for
    /// every query: one check that the directory ends inside the buffer, then the
    /// arrays are cut without further checks.
    ///
    /// # Panics
    /// If the shape's directory does not end inside `bytes` (a shape [`Shape::new`]
    /// made for these bytes always does).
    #[inline(always)]
    #[allow(unsafe_code, reason = "cuts the directory's arrays without checks the shape makes redundant")]
    pub(crate) fn new(bytes: &'a [u8], s: Shape) -> Self {
        assert!(s.payload as usize <= bytes.len(), "sroar: shape of another buffer");
        // The positions are running sums (`Shape::new`), so they ascend:
        // keys <= cards <= offsets <= counts <= payload.
        debug_assert!(s.keys <= s.cards && s.cards <= s.offsets && s.offsets <= s.counts);
        debug_assert!(s.counts <= s.payload);
        let at = |from: u32, to: usize| {
            // SAFETY: `from <= to <= bytes.len()`: the positions ascend up to
            // `payload`, which the assertion above puts inside the buffer.
            unsafe { bytes.get_unchecked(from as usize..to) }
        };
        Directory {
            bytes,
            s,
            keys: at(s.keys, s.cards as usize),
            cards: at(s.cards, bytes.len()),
            offsets_to_end: at(s.offsets, bytes.len()),
        }
    }

    /// Number of containers.
    #[inline]
    pub fn len(&self) -> usize {
        self.s.n()
    }


    /// True when there are no containers.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `key(i) - key(0)`: one unaligned load and a mask, the same code for every
    /// key width (a match on the width would be an indirect jump, mispredicted
    /// when a walk reads two directories of different widths in turn). Keys near
    /// the end of a small buffer (two one-value arrays take 4 bytes after their
    /// keys) are read the slower way.
    #[inline(always)]
    fn rel_key(&self, i: usize) -> u64 {
        if self.s.kw == 0 {
            return 0;
        }
        let at = self.s.keys as usize + i * usize::from(self.s.kw);
        match self.bytes.get(at..at + 8) {
            Some(chunk) => {
                let chunk: &[u8; 8] = chunk.try_into().expect("8 bytes");
                u64::from_le_bytes(*chunk) & self.s.key_mask
            }
            None => read_le(self.bytes, at, usize::from(self.s.kw)),
        }
    }

    /// The key of container `i` of a buffer not yet validated: a read that does
    /// not assume what follows the keys.
    #[inline(always)]
    pub(crate) fn key_unvalidated(&self, i: usize) -> u64 {
        let kw = usize::from(self.s.kw);
        self.s.key0 + read_le(self.bytes, self.s.keys as usize + i * kw, kw)
    }

    /// The 48-bit key of container `i`.
    #[inline(always)]
    pub fn key(&self, i: usize) -> u64 {
        self.s.key0 + self.rel_key(i)
    }

    /// The cardinality of container `i`: one 2-byte load and a mask, the same
    /// code for every width. A non-empty buffer has at least 2 bytes of payload
    /// after its cardinalities.
    #[inline(always)]
    pub fn card(&self, i: usize) -> u32 {
        let at = i * usize::from(self.s.card_w);
        let pair: &[u8; 2] = self.cards[at..at + 2].try_into().expect("2 bytes");
        u32::from(u16::from_le_bytes(*pair) & self.s.card_mask) + 1
    }

    /// Where the payload of container `i` starts, in bytes from the buffer's start
    /// (`i == len()` gives the buffer's end).
    #[inline(always)]
    pub(crate) fn start(&self, i: usize) -> usize {
        if i == 0 {
            return self.s.payload as usize;
        }
        if i >= self.len() {
            return self.bytes.len();
        }
        if self.s.implied_offsets() {
            return self.s.payload as usize + 2 * self.implied_prefix(i);
        }
        // One 4-byte load and a mask for every width (a match would be an
        // indirect jump): at least 4 payload bytes follow the offsets, for there
        // are two containers or more when any offset is stored.
        let at = (i - 1) * usize::from(self.s.ow);
        let word: &[u8; 4] = self.offsets_to_end[at..at + 4].try_into().expect("4 bytes");
        self.s.payload as usize + 2 * (u32::from_le_bytes(*word) & self.s.offset_mask) as usize
    }

    /// Values in containers `0..i` (`0 < i < len()`) of a directory with no
    /// stored offsets: [`Self::card_prefix`], without reading the counts when
    /// every container holds one value.
    #[inline(always)]
    fn implied_prefix(&self, i: usize) -> usize {
        if self.s.card_w == 0 {
            return i;
        }
        self.card_prefix(i) as usize
    }

    /// [`Self::start`] of container `i`, given that container `from <= i` starts
    /// at `start`: without stored offsets, a few containers ahead are reached by
    /// their cardinalities, where [`Self::start`] sums up to 63 of them.
    #[inline(always)]
    pub(crate) fn start_ahead(&self, from: usize, start: usize, i: usize) -> usize {
        debug_assert!(from <= i && start == self.start(from));
        if self.s.implied_offsets() && i - from <= 4 {
            return start + (from..i).map(|j| 2 * self.card(j) as usize).sum::<usize>();
        }
        self.start(i)
    }

    /// The payload length of container `i`, in bytes. Without stored offsets every
    /// container is an array of 2 bytes per value, so this needs no sum over the
    /// containers before it, where [`Self::start`] does.
    #[inline(always)]
    pub(crate) fn payload_len(&self, i: usize) -> usize {
        if self.s.implied_offsets() {
            return 2 * self.card(i) as usize;
        }
        self.start(i + 1) - self.start(i)
    }

    /// The kind of container `i`, without finding where its payload starts.
    #[inline(always)]
    pub(crate) fn kind(&self, i: usize) -> Kind {
        kind_of(self.card(i), self.payload_len(i))
    }

    /// The kind of container `i` and its payload's byte range.
    #[inline(always)]
    pub(crate) fn slot(&self, i: usize) -> (Kind, usize, usize) {
        self.slot_from(i, self.start(i))
    }

    /// [`Self::slot`], given where container `i` starts: a walk in directory order
    /// knows it, for each payload starts where the one before ends, and so skips
    /// the sum of cardinalities that finding a start costs when no offsets are
    /// stored.
    #[inline(always)]
    pub(crate) fn slot_from(&self, i: usize, start: usize) -> (Kind, usize, usize) {
        debug_assert_eq!(start, self.start(i));
        if self.s.implied_offsets() {
            return (Kind::Array, start, start + 2 * self.card(i) as usize);
        }
        let end = self.start(i + 1);
        (kind_of(self.card(i), end - start), start, end)
    }

    /// Index of the first container whose key is `>= key`; `len()` when there is
    /// none.
    #[inline(always)]
    pub fn lower_bound(&self, key: u64) -> usize {
        let n = self.len();
        if n == 0 || key <= self.s.key0 {
            return 0;
        }
        if key > self.s.header.max >> 16 {
            return n;
        }
        let target = key - self.s.key0;
        // The key width as a constant in each search: the address of a probe is
        // then a shift or an `lea`, not a multiply on the chain of dependent loads.
        match self.s.kw {
            1 => self.search_keys::<1>(target),
            2 => self.search_keys::<2>(target),
            3 => self.search_keys::<3>(target),
            4 => self.search_keys::<4>(target),
            5 => self.search_keys::<5>(target),
            _ => self.search_keys::<6>(target),
        }
    }

    /// The first index whose relative key is `>= target`, with `W`-byte keys.
    #[inline(always)]
    fn search_keys<const W: usize>(&self, target: u64) -> usize {
        let keys = self.keys.as_chunks::<W>().0;
        // Small directories of narrow keys (most sets): count the keys below the
        // target in one branch-free pass, in byte or 16-bit lanes the compiler
        // vectorizes, instead of a chain of dependent loads (14.0 -> 10.6 ns per
        // `contains` on 84 containers). `target` fits in `W` bytes: callers return
        // early above the largest key.
        if W == 1 && keys.len() <= LINEAR_KEYS {
            let t = target as u8;
            // Byte lanes: at most 128 keys, so the count fits in a u8.
            let below = self.keys.iter().fold(0u8, |n, &k| n + u8::from(k < t));
            return usize::from(below);
        }
        if W == 2 && keys.len() <= LINEAR_KEYS {
            let t = target as u16;
            let pairs = self.keys.as_chunks::<2>().0;
            let below = pairs
                .iter()
                .fold(0u16, |n, k| n + u16::from(u16::from_le_bytes(*k) < t));
            return usize::from(below);
        }
        let below = |i: usize| le(&keys[i]) < target;
        // Invariant: entries before `base` are < target, entries from
        // `base + n` on are >= target, so the answer is in `base..=base + n`.
        let mut base = 0usize;
        let mut n = keys.len();
        while n >= 16 {
            // Three pivots splitting the range in quarters, loaded
            // independently: half the levels of a binary search, so half the
            // chain of dependent loads. With `c` pivots < target the answer is
            // in `base + c q..=base + c q + q` (up to `base + n` for c = 3).
            let q = n / 4;
            let c = usize::from(below(base + q))
                + usize::from(below(base + 2 * q))
                + usize::from(below(base + 3 * q));
            base += c * q;
            n -= 3 * q;
        }
        while n > 1 {
            let half = n / 2;
            // A select, not a branch: random probes would mispredict it.
            base = select_unpredictable(below(base + half), base + half, base);
            n -= half;
        }
        base + usize::from(below(base))
    }

    /// `Ok(index)` of the container with `key`, or `Err(insertion index)`.
    #[inline]
    pub fn search(&self, key: u64) -> Result<usize, usize> {
        let i = self.lower_bound(key);
        if i < self.len() && self.key(i) == key {
            Ok(i)
        } else {
            Err(i)
        }
    }

    /// The values before block `b` (`b <= blocks`): a count, or 0 for block 0.
    #[inline]
    fn block_count(&self, b: usize) -> u64 {
        if b == 0 {
            return 0;
        }
        let cw = usize::from(self.s.cw);
        read_le(self.bytes, self.s.counts as usize + (b - 1) * cw, cw)
    }

    /// Sum of the cardinalities of containers `0..end`: one count and at most 63
    /// cardinalities.
    #[inline(always)]
    pub fn card_prefix(&self, end: usize) -> u64 {
        // `end == len()` on a multiple of 64 is past the last stored count.
        let b = (end / BLOCK).min(self.s.blocks());
        let from = b * BLOCK;
        // Each cardinality is stored minus one.
        let stored: u64 = match self.s.card_w {
            0 => 0,
            1 => byte_sum(&self.cards[from..end]) as u64,
            _ => self.cards[2 * from..2 * end]
                .as_chunks::<2>()
                .0
                .iter()
                .map(|c| u64::from(u16::from_le_bytes(*c)))
                .sum(),
        };
        self.block_count(b) + (end - from) as u64 + stored
    }

    /// The container that holds the `k`-th smallest value (0-based) and the rank
    /// of that value within it; `None` when `k >= cardinality`.
    pub(crate) fn locate(&self, k: u64) -> Option<(usize, u64)> {
        if k >= self.s.header.cardinality {
            return None;
        }
        // The last block whose count is <= k.
        let (mut lo, mut hi) = (0, self.s.blocks());
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if self.block_count(mid) <= k {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        let mut k = k - self.block_count(lo);
        for i in lo * BLOCK..self.len() {
            let card = u64::from(self.card(i));
            if k < card {
                return Some((i, k));
            }
            k -= card;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RoaringView;

    #[test]
    fn kinds_follow_the_canonical_rule() {
        assert_eq!(kind_of(3, 6), Kind::Array);
        assert_eq!(kind_of(3, 4), Kind::Run);
        assert_eq!(kind_of(4096, 8192), Kind::Array);
        assert_eq!(kind_of(4097, 8192), Kind::Bitmap);
        assert_eq!(kind_of(65536, 4), Kind::Run);
    }

    #[test]
    fn lower_bound_matches_partition_point() {
        // Sizes on both sides of the quaternary phase's threshold (16) and of the
        // linear count's (128 keys of 1 or 2 bytes), keys spaced by 1 or 3 so every
        // probe between, on and around them is tried, and key widths of 1 to 6 bytes.
        for base in [0u64, 1 << 20, (1 << 47) + 5] {
            for spread in [1u64, 3, 1 << 20, 1 << 40] {
                let large: &[u64] = if spread <= 3 { &[127, 128, 129, 200, 256] } else { &[] };
                for n in (0..70u64).chain(large.iter().copied()) {
                    let keys: Vec<u64> = (0..n).map(|k| base + k * spread).collect();
                    let values: Vec<u64> = keys.iter().map(|k| k << 16 | 9).collect();
                    let bytes = crate::builder::from_sorted(&values).unwrap();
                    let dir = RoaringView::from_bytes(&bytes).unwrap().directory();
                    for (i, &k) in keys.iter().enumerate() {
                        assert_eq!(dir.key(i), k);
                        for probe in [k.wrapping_sub(1), k, k + 1] {
                            let expect = keys.partition_point(|&x| x < probe);
                            assert_eq!(dir.lower_bound(probe), expect, "n {n} probe {probe}");
                        }
                    }
                    assert_eq!(dir.lower_bound(0), 0);
                    assert_eq!(dir.lower_bound(u64::MAX), n as usize);
                }
            }
        }
    }

    #[test]
    fn counts_give_prefixes_and_locations() {
        // 128 containers (whole blocks: the prefix of all of them is past the last
        // stored count), and 300 (a partial last block), of 1 to 3 values.
        for n in [64u64, 128, 300] {
            check_counts(n);
        }
    }

    fn check_counts(n: u64) {
        let values: Vec<u64> = (0..n)
            .flat_map(|k| (0..1 + k % 3).map(move |j| k << 16 | j))
            .collect();
        let bytes = crate::builder::from_sorted(&values).unwrap();
        let view = RoaringView::from_bytes(&bytes).unwrap();
        let dir = view.directory();
        let n = n as usize;
        let mut sum = 0;
        for i in 0..n {
            assert_eq!(dir.card_prefix(i), sum, "prefix {i}");
            for j in 0..u64::from(dir.card(i)) {
                assert_eq!(dir.locate(sum + j), Some((i, j)));
            }
            sum += u64::from(dir.card(i));
        }
        assert_eq!(dir.card_prefix(n), sum);
        assert_eq!(dir.locate(sum), None);
        assert_eq!(view.rank(u64::MAX), sum);
        assert_eq!(view.rank((n as u64) << 16), sum);
    }
}
