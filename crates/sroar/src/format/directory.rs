//! The container directory: `keys: [u64; n]` then `descr: [u32; n]`.
//!
//! A key entry is `(key48 << 16) | (cardinality - 1)`; a descriptor is
//! `(type << 30) | offset`.

use super::header::HEADER_LEN;
use core::hint::select_unpredictable;

use crate::container::Kind;

/// Mask of the 30-bit payload offset in a descriptor.
pub const OFFSET_MASK: u32 = (1 << 30) - 1;
/// One more than the largest key (keys are 48-bit).
pub const KEY_LIMIT: u64 = 1 << 48;

/// Encodes a key entry. `card` must be in `1..=65536`.
#[inline]
pub fn encode_key_entry(key: u64, card: u32) -> u64 {
    debug_assert!(key < KEY_LIMIT && (1..=65536).contains(&card));
    (key << 16) | u64::from(card - 1)
}

/// Decodes a key entry into `(key, cardinality)`.
#[inline]
pub fn decode_key_entry(entry: u64) -> (u64, u32) {
    (entry >> 16, (entry & 0xFFFF) as u32 + 1)
}

/// Encodes a descriptor. `offset` must be below 2^30.
#[inline]
pub fn encode_descr(kind: Kind, offset: u32) -> u32 {
    debug_assert!(offset <= OFFSET_MASK);
    (kind.code() << 30) | offset
}

/// Decodes a descriptor into `(type code, offset)`.
#[inline]
pub fn decode_descr(descr: u32) -> (u32, u32) {
    (descr >> 30, descr & OFFSET_MASK)
}

/// Byte range of the key entries and of the descriptors for `n` containers.
#[inline]
pub(crate) fn layout(n: usize) -> (usize, usize, usize) {
    let keys = HEADER_LEN;
    let descrs = keys + 8 * n;
    let payloads = descrs + 4 * n;
    (keys, descrs, payloads)
}

/// A borrowed directory: the key entries and descriptors of a buffer.
#[derive(Clone, Copy, Debug)]
pub struct Directory<'a> {
    keys: &'a [[u8; 8]],
    descrs: &'a [[u8; 4]],
}

impl<'a> Directory<'a> {
    /// The directory of `n` containers in `bytes`. Panics if `bytes` is too short.
    pub fn new(bytes: &'a [u8], n: usize) -> Self {
        let (k, d, p) = layout(n);
        Directory {
            keys: bytes[k..d].as_chunks::<8>().0,
            descrs: bytes[d..p].as_chunks::<4>().0,
        }
    }

    /// Number of containers.
    #[inline]
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// True when there are no containers.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The raw key entry of container `i`.
    #[inline]
    pub fn entry(&self, i: usize) -> u64 {
        u64::from_le_bytes(self.keys[i])
    }

    /// The 48-bit key of container `i`.
    #[inline]
    pub fn key(&self, i: usize) -> u64 {
        self.entry(i) >> 16
    }

    /// The cardinality of container `i`.
    #[inline]
    pub fn card(&self, i: usize) -> u32 {
        decode_key_entry(self.entry(i)).1
    }

    /// The decoded descriptor `(type code, offset)` of container `i`.
    #[inline]
    pub fn descr(&self, i: usize) -> (u32, u32) {
        decode_descr(u32::from_le_bytes(self.descrs[i]))
    }

    /// Index of the first container whose key is `>= key`: a binary search for the
    /// first entry `>= key << 16`. Returns `len()` when there is none.
    #[inline]
    pub fn lower_bound(&self, key: u64) -> usize {
        if key >= KEY_LIMIT {
            return self.len();
        }
        let target = key << 16;
        let keys = self.keys;
        if keys.is_empty() {
            return 0;
        }
        let below = |i: usize| u64::from_le_bytes(keys[i]) < target;
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

    /// Sum of the cardinalities of containers `0..end`.
    pub fn card_prefix(&self, end: usize) -> u64 {
        self.keys[..end]
            .iter()
            .map(|e| (u64::from_le_bytes(*e) & 0xFFFF) + 1)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        let e = encode_key_entry(KEY_LIMIT - 1, 65536);
        assert_eq!(e, u64::MAX);
        assert_eq!(decode_key_entry(e), (KEY_LIMIT - 1, 65536));
        assert_eq!(decode_key_entry(encode_key_entry(5, 1)), (5, 1));
        let d = encode_descr(Kind::Run, OFFSET_MASK);
        assert_eq!(decode_descr(d), (3, OFFSET_MASK));
    }

    #[test]
    fn lower_bound_searches_entries() {
        let mut bytes = vec![0u8; HEADER_LEN];
        let keys = [1u64, 5, 9];
        for k in keys {
            bytes.extend_from_slice(&encode_key_entry(k, 65536).to_le_bytes());
        }
        bytes.extend_from_slice(&[0u8; 12]);
        let dir = Directory::new(&bytes, 3);
        assert_eq!(dir.lower_bound(0), 0);
        assert_eq!(dir.lower_bound(1), 0);
        assert_eq!(dir.lower_bound(2), 1);
        assert_eq!(dir.lower_bound(9), 2);
        assert_eq!(dir.lower_bound(10), 3);
        assert_eq!(dir.lower_bound(u64::MAX), 3);
        assert_eq!(dir.search(5), Ok(1));
        assert_eq!(dir.search(6), Err(2));
        assert_eq!(dir.card_prefix(2), 2 * 65536);
    }

    #[test]
    fn lower_bound_matches_partition_point() {
        // Sizes on both sides of the quaternary phase's threshold (16), keys
        // spaced by 3 so every probe between, on and around them is tried.
        for n in 0..70usize {
            let keys: Vec<u64> = (0..n as u64).map(|k| 3 * k + 1).collect();
            let mut bytes = vec![0u8; HEADER_LEN];
            for &k in &keys {
                bytes.extend_from_slice(&encode_key_entry(k, 1 + (k % 7) as u32).to_le_bytes());
            }
            bytes.extend(core::iter::repeat_n(0u8, 4 * n));
            let dir = Directory::new(&bytes, n);
            for probe in 0..3 * n as u64 + 3 {
                let expect = keys.partition_point(|&k| k < probe);
                assert_eq!(dir.lower_bound(probe), expect, "n {n} probe {probe}");
            }
        }
    }
}
