//! The standard portable format of RoaringFormatSpec, "64-bit extension": export
//! to and import from the bytes that CRoaring (`roaring64_bitmap_portable_serialize`),
//! roaring-rs (`RoaringTreemap::serialize_into`), Java and Go exchange.
//!
//! ```text
//! u64   number of buckets
//! then per bucket, by ascending high 32 bits:
//!   u32   high 32 bits of the bucket's values
//!   a 32-bit portable roaring bitmap of the low 32 bits:
//!     u32 12346, u32 size                        (no run container), or
//!     u32 12347 | (size - 1) << 16, run flags    ((size + 7) / 8 bytes)
//!     size × (u16 key, u16 cardinality - 1)
//!     size × u32 offset from the cookie          (omitted for 12347 with size < 4)
//!     payloads: array 2·card bytes, bitmap 8192 bytes,
//!               run u16 nruns then nruns × (u16 start, u16 len - 1)
//! ```
//!
//! Without a run flag a container's kind follows from its cardinality: up to 4096
//! values is an array, more is a bitmap.
//!
//! # Container kinds on export
//! [`RoaringView::to_portable`](crate::RoaringView::to_portable) stores each container in the kind the reference implementations
//! pick after run optimization ([`portable_kind`]), so its output is byte-identical to
//! CRoaring's `roaring64_bitmap_run_optimize` + `roaring64_bitmap_portable_serialize`
//! and to roaring-rs's `RoaringTreemap::optimize` + `serialize_into` for a set built
//! from values. The portable sizes count 2 bytes of run count that a sroar run
//! payload does not have, so the portable rule differs from
//! [`canonical_kind`](crate::container::canonical_kind) in one case: a container of
//! `2r + 1 <= 4096` values in `r` runs is a run container in sroar and an array in
//! the portable format. The writer converts it.
//!
//! # Signed values
//! A database's `bigint` set is stored sign-toggled ([`to_stored`](crate::to_stored)),
//! while the portable bytes other systems keep for it hold each value's 64-bit
//! pattern (pg_roaringbitmap's `roaringbitmap64` does so). [`PortableFormat::Signed64`]
//! converts between the two directly, in one pass:
//! toggling the sign bit rotates the portable buckets (those of negative values
//! come first once stored) and relabels them, and keeps every container as it is.
//!
//! # Import
//! [`Writer::from_portable`](crate::Writer::from_portable) checks everything (layout, order, cardinalities, offsets, trailing
//! bytes), returns a [`PortableError`] naming the byte where the input went wrong, and
//! never panics. Containers of any kind are accepted and stored canonically.
//!
//! ```
//! use sroar::{looks_like_portable, PortableFormat, Roaring};
//!
//! let ours = Roaring::from_sorted(&[1, 2, 3, 1 << 40]).unwrap();
//! let portable = ours.view().to_portable(PortableFormat::Unsigned64).unwrap();
//! assert!(looks_like_portable(&portable) && !looks_like_portable(ours.as_bytes()));
//! assert_eq!(Roaring::from_portable(&portable, PortableFormat::Unsigned64).unwrap(), ours);
//! ```

mod error;
mod format;
mod read;
mod write;

pub use error::PortableError;
pub use format::PortableFormat;

use crate::container::bitmap::BITMAP_BYTES;
use crate::container::{Kind, ARRAY_MAX};

/// Cookie of a 32-bit portable bitmap with no run container.
pub const SERIAL_COOKIE_NO_RUNCONTAINER: u32 = 12346;
/// Low 16 bits of the cookie of a 32-bit portable bitmap with run containers.
pub const SERIAL_COOKIE: u16 = 12347;
/// With [`SERIAL_COOKIE`], offsets are stored only from this many containers on.
pub const NO_OFFSET_THRESHOLD: usize = 4;

/// Fewest bytes a bucket takes: its key and an empty no-run bitmap (cookie, size).
const MIN_BUCKET_LEN: usize = 12;

/// The kind the reference implementations store a container of `card >= 1` values
/// in `nruns` runs in, after run optimization.
///
/// The serialized sizes compared are: array `2·card` (`<= 4096` values only),
/// bitmap 8192, run `2 + 4·nruns`; a run container is chosen only when strictly
/// smaller. This is CRoaring's `convert_run_optimize` (array: `if
/// (size_as_run_container >= size_as_array_container)` keep the array; bitset:
/// `if (size_as_bitset_container <= size_as_run_container)` keep the bitset, with
/// `array_container_serialized_size_in_bytes(card) = card * 2` and
/// `run_container_serialized_size_in_bytes(n) = 2 + 4 n`) and roaring-rs's
/// `Container::optimize` (`if size_as_array <= size_as_run` / `if BITMAP_BYTES <=
/// size_as_run` keep), for containers that were arrays or bitmaps before, as for
/// any set built from values.
pub fn portable_kind(card: u32, nruns: u32) -> Kind {
    let run = 2 + 4 * u64::from(nruns);
    if card <= ARRAY_MAX {
        if run < 2 * u64::from(card) {
            Kind::Run
        } else {
            Kind::Array
        }
    } else if run < BITMAP_BYTES as u64 {
        Kind::Run
    } else {
        Kind::Bitmap
    }
}

/// Portable payload size of a container stored as `kind`.
fn payload_len(kind: Kind, card: u32, nruns: u32) -> usize {
    match kind {
        Kind::Array => 2 * card as usize,
        Kind::Bitmap => BITMAP_BYTES,
        Kind::Run => 2 + 4 * nruns as usize,
    }
}

/// Size of the cookie, run flags, descriptive header and offsets of a 32-bit
/// bitmap of `size` containers.
fn header_len(size: usize, has_run: bool) -> usize {
    if has_run {
        let offsets = if size >= NO_OFFSET_THRESHOLD {
            4 * size
        } else {
            0
        };
        4 + size.div_ceil(8) + 4 * size + offsets
    } else {
        8 + 8 * size
    }
}

/// The sign bit of a bucket key (the high 32 bits of a value).
const BUCKET_SIGN: u32 = 1 << 31;

/// A cheap look at the first bytes: could `bytes` be in the portable format?
///
/// True when the leading `u64` bucket count is plausible for the length (0 buckets
/// only for exactly 8 bytes; otherwise at most one bucket per 12 bytes) and the
/// first bucket starts with a 32-bit portable cookie. A sroar buffer never passes:
/// read as a bucket count, its first 8 bytes ("SR64", version 1, zero flags) are
/// at least 2^32, far more buckets than any buffer below 2^30 bytes holds. A `true`
/// is no promise that [`Roaring::from_portable`](crate::Roaring::from_portable) accepts the bytes.
pub fn looks_like_portable(bytes: &[u8]) -> bool {
    let Some(head) = bytes.first_chunk::<8>() else {
        return false;
    };
    let count = u64::from_le_bytes(*head);
    if count == 0 {
        return bytes.len() == 8;
    }
    if count > ((bytes.len() - 8) / MIN_BUCKET_LEN) as u64 {
        return false;
    }
    match bytes.get(12..16) {
        Some(c) => {
            let cookie = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            cookie == SERIAL_COOKIE_NO_RUNCONTAINER || cookie as u16 == SERIAL_COOKIE
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::container::canonical_kind;
    use crate::view::RoaringView;
    use crate::writer::Writer;
    use PortableFormat::{Signed64 as I64, Unsigned64 as U64};

    #[test]
    fn portable_rule_against_canonical() {
        // The one difference: 2r + 1 values in r runs, at most 4096 values.
        for card in 1..=ARRAY_MAX {
            for nruns in [card / 2, card.div_ceil(2), (card - 1) / 2, card / 2 + 1] {
                if nruns == 0 || nruns > card {
                    continue;
                }
                let ours = canonical_kind(card, nruns);
                let theirs = portable_kind(card, nruns);
                if card == 2 * nruns + 1 {
                    assert_eq!((ours, theirs), (Kind::Run, Kind::Array), "{card} {nruns}");
                } else {
                    assert_eq!(ours, theirs, "{card} {nruns}");
                }
            }
        }
        for card in [4097, 5000, 65536] {
            for nruns in [1, 2046, 2047, 2048, 2049] {
                assert_eq!(canonical_kind(card, nruns), portable_kind(card, nruns));
            }
        }
        assert_eq!(portable_kind(3, 1), Kind::Array);
        assert_eq!(portable_kind(4, 1), Kind::Run);
        assert_eq!(portable_kind(4096, 2047), Kind::Run);
        assert_eq!(portable_kind(4096, 2048), Kind::Array);
        assert_eq!(portable_kind(4097, 2047), Kind::Run);
        assert_eq!(portable_kind(4097, 2048), Kind::Bitmap);
    }

    #[test]
    fn signed_forms_equal_the_bit_patterns_portable_bytes() {
        let cases: [&[i64]; 6] = [
            &[],
            &[0],
            &[-1],
            &[i64::MIN, -65537, -65536, -1, 0, 1, 65535, 65536, 1 << 40, i64::MAX],
            &[-5, -4, -3, 7, 8, 9],
            &[i64::MIN, i64::MIN + 1, (1 << 32) - 1, 1 << 32],
        ];
        let mut big: std::vec::Vec<i64> = (-70_000..70_000).collect();
        big.extend((0..5000).map(|k| (k << 33) - (1 << 60)));
        for values in cases.iter().copied().chain([&big[..]]) {
            let stored: std::vec::Vec<u64> = values.iter().map(|&v| crate::to_stored(v)).collect();
            let ours = crate::builder::from_unsorted(&stored).unwrap();
            let view = RoaringView::from_bytes(&ours).unwrap();
            let patterns: std::vec::Vec<u64> = values.iter().map(|&v| v as u64).collect();
            let theirs = crate::builder::from_unsorted(&patterns).unwrap();
            let expected = RoaringView::from_bytes(&theirs).unwrap().to_portable(U64).unwrap();
            assert_eq!(view.to_portable(I64).unwrap(), expected, "{} values", values.len());
            assert_eq!(view.portable_len(I64), Some(expected.len()));
            let mut out = vec![0u8; expected.len()];
            view.write_portable_into(I64, &mut out);
            assert_eq!(out, expected);
            let back = Writer::from_portable(&expected, I64).unwrap().into_vec().unwrap();
            assert_eq!(back, ours, "{} values", values.len());
        }
    }

    #[test]
    fn signed_import_reports_errors_as_the_plain_one() {
        let stored: std::vec::Vec<u64> = [-3i64, 5, 1 << 40].iter().map(|&v| crate::to_stored(v)).collect();
        let view_bytes = crate::builder::from_sorted(&stored).unwrap();
        let good = RoaringView::from_bytes(&view_bytes).unwrap().to_portable(I64).unwrap();
        for cut in 0..good.len() {
            let bad = &good[..cut];
            assert_eq!(
                Writer::from_portable(bad, I64).err(),
                Writer::from_portable(bad, U64).err(),
                "truncated to {cut}"
            );
        }
        let mut extra = good.clone();
        extra.push(0);
        assert!(Writer::from_portable(&extra, I64).is_err());
    }

    #[test]
    fn empty() {
        let b = crate::builder::empty();
        let v = RoaringView::from_bytes(&b).unwrap();
        assert_eq!(v.to_portable(U64).unwrap(), [0; 8]);
        assert!(looks_like_portable(&[0; 8]));
        assert!(!looks_like_portable(&b));
        assert_eq!(Writer::from_portable(&[0; 8], U64).unwrap().into_vec().unwrap(), b);
    }
}
