//! Total validation of a buffer: one O(len) pass that accepts exactly the
//! canonical encodings, returns an error for anything else, and never panics.

use core::fmt;

use super::directory::{decode_descr, decode_key_entry, layout};
use super::header::{Header, HEADER_LEN, MAGIC, MAX_LEN, VERSION};
use crate::container::{bitmap::BITMAP_BYTES, canonical_kind, Kind};
use crate::kernels::dispatch::{kernels, Kernels};

/// Why a buffer is not a valid canonical sroar bitmap.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FormatError {
    /// The buffer is shorter than the 40-byte header.
    TooShort {
        /// Buffer length.
        len: usize,
    },
    /// The buffer is 2^30 bytes or longer.
    TooLong {
        /// Buffer length.
        len: usize,
    },
    /// The first four bytes are not "SR64".
    BadMagic,
    /// The version byte is not one this crate reads.
    UnsupportedVersion(u8),
    /// The flags byte is not zero.
    NonZeroFlags(u8),
    /// The reserved bytes 6..8 are not zero.
    NonZeroReserved,
    /// The header's total length differs from the buffer length.
    LengthMismatch {
        /// Length in the header.
        header: u32,
        /// Actual buffer length.
        actual: usize,
    },
    /// The directory of `n` containers does not fit in the buffer.
    DirectoryOverflow {
        /// Number of containers in the header.
        n: u32,
        /// Buffer length.
        len: usize,
    },
    /// A container's key is not greater than the previous one's.
    KeysNotIncreasing {
        /// Container index.
        index: usize,
    },
    /// A descriptor holds type code 0.
    BadContainerType {
        /// Container index.
        index: usize,
    },
    /// A payload offset is not where packing puts it.
    BadOffset {
        /// Container index.
        index: usize,
        /// Offset packing requires.
        expected: u64,
        /// Offset found in the descriptor.
        found: u32,
    },
    /// A payload runs past the end of the buffer.
    PayloadOutOfBounds {
        /// Container index.
        index: usize,
        /// Payload offset.
        offset: u64,
    },
    /// A run payload's size is not a positive multiple of 4.
    BadRunPayloadSize {
        /// Container index.
        index: usize,
        /// Payload size in bytes.
        size: u64,
    },
    /// A cardinality in the directory differs from the payload's.
    CardinalityMismatch {
        /// Container index.
        index: usize,
        /// Cardinality in the directory.
        declared: u32,
        /// Cardinality of the payload.
        actual: u64,
    },
    /// Array values are not strictly increasing.
    ArrayNotIncreasing {
        /// Container index.
        index: usize,
        /// Byte offset of the offending value.
        offset: usize,
    },
    /// A run extends past 65535.
    RunOverflow {
        /// Container index.
        index: usize,
        /// Byte offset of the run.
        offset: usize,
    },
    /// A run overlaps, touches or precedes the previous run.
    RunsNotSeparated {
        /// Container index.
        index: usize,
        /// Byte offset of the run.
        offset: usize,
    },
    /// A container is not of the kind the canonical rule picks.
    NonCanonicalKind {
        /// Container index.
        index: usize,
        /// Kind stored.
        found: Kind,
        /// Kind the rule picks.
        expected: Kind,
    },
    /// Bytes follow the last payload.
    TrailingBytes {
        /// Where the last payload ends.
        end: u64,
        /// Buffer length.
        len: usize,
    },
    /// The header's cardinality differs from the containers'.
    CardinalityHeader {
        /// Header value.
        header: u64,
        /// Sum over the containers.
        actual: u64,
    },
    /// The header's min differs from the smallest value.
    MinHeader {
        /// Header value.
        header: u64,
        /// Smallest value (0 when empty).
        actual: u64,
    },
    /// The header's max differs from the largest value.
    MaxHeader {
        /// Header value.
        header: u64,
        /// Largest value (0 when empty).
        actual: u64,
    },
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FormatError::*;
        f.write_str("invalid sroar bitmap: ")?;
        match self {
            TooShort { len } => write!(f, "{len} bytes is shorter than the 40-byte header"),
            TooLong { len } => write!(f, "{len} bytes is not below the 2^30-byte limit"),
            BadMagic => f.write_str("bytes 0..4 are not the magic \"SR64\""),
            UnsupportedVersion(v) => write!(f, "unsupported format version {v} (byte 4)"),
            NonZeroFlags(v) => write!(f, "flags byte 5 is {v}, must be 0"),
            NonZeroReserved => f.write_str("reserved bytes 6..8 are not 0"),
            LengthMismatch { header, actual } => {
                write!(f, "header says {header} bytes (byte 12) but the buffer has {actual}")
            }
            DirectoryOverflow { n, len } => {
                write!(f, "directory of {n} containers does not fit in {len} bytes")
            }
            KeysNotIncreasing { index } => {
                write!(f, "container {index}: key not greater than the previous key")
            }
            BadContainerType { index } => write!(f, "container {index}: type code 0"),
            BadOffset {
                index,
                expected,
                found,
            } => write!(
                f,
                "container {index}: payload offset {found}, expected {expected}"
            ),
            PayloadOutOfBounds { index, offset } => write!(
                f,
                "container {index}: payload at byte {offset} runs past the end"
            ),
            BadRunPayloadSize { index, size } => write!(
                f,
                "container {index}: run payload of {size} bytes is not a positive multiple of 4"
            ),
            CardinalityMismatch {
                index,
                declared,
                actual,
            } => write!(
                f,
                "container {index}: directory says {declared} values, payload holds {actual}"
            ),
            ArrayNotIncreasing { index, offset } => write!(
                f,
                "container {index}: array value at byte {offset} is not greater than the previous one"
            ),
            RunOverflow { index, offset } => {
                write!(f, "container {index}: run at byte {offset} extends past 65535")
            }
            RunsNotSeparated { index, offset } => write!(
                f,
                "container {index}: run at byte {offset} overlaps or touches the previous run"
            ),
            NonCanonicalKind {
                index,
                found,
                expected,
            } => write!(
                f,
                "container {index}: stored as {}, canonical form is {}",
                found.name(),
                expected.name()
            ),
            TrailingBytes { end, len } => {
                write!(f, "payloads end at byte {end} but the buffer has {len} bytes")
            }
            CardinalityHeader { header, actual } => write!(
                f,
                "header cardinality {header} (byte 16) differs from the contents' {actual}"
            ),
            MinHeader { header, actual } => {
                write!(f, "header min {header} (byte 24) differs from the smallest value {actual}")
            }
            MaxHeader { header, actual } => {
                write!(f, "header max {header} (byte 32) differs from the largest value {actual}")
            }
        }
    }
}

impl std::error::Error for FormatError {}

// One bounds check and one load each: the directory walk calls these per
// container.
#[inline]
fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(w)
}

#[inline]
fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

/// Checks that `bytes` is a canonical sroar buffer; returns its header.
///
/// Every index below is bounds-checked beforehand, so this never panics.
pub fn validate(bytes: &[u8]) -> Result<Header, FormatError> {
    let len = bytes.len();
    let Some(head) = bytes.first_chunk::<HEADER_LEN>() else {
        return Err(FormatError::TooShort { len });
    };
    if len >= MAX_LEN {
        return Err(FormatError::TooLong { len });
    }
    if head[0..4] != MAGIC {
        return Err(FormatError::BadMagic);
    }
    if head[4] != VERSION {
        return Err(FormatError::UnsupportedVersion(head[4]));
    }
    if head[5] != 0 {
        return Err(FormatError::NonZeroFlags(head[5]));
    }
    if head[6..8] != [0, 0] {
        return Err(FormatError::NonZeroReserved);
    }
    let h = Header::read(head);
    if h.total_len as usize != len {
        return Err(FormatError::LengthMismatch {
            header: h.total_len,
            actual: len,
        });
    }
    let n = h.n as usize;
    if (HEADER_LEN as u64) + 12 * u64::from(h.n) > len as u64 {
        return Err(FormatError::DirectoryOverflow { n: h.n, len });
    }
    let (keys_at, descr_at, payload_at) = layout(n);
    // Looked up once: most containers are small, so the lookup would show.
    let kernels = kernels();
    let mut expected = payload_at as u64;
    let mut card_sum = 0u64;
    let mut first = None;
    let mut last = 0u64;
    let mut prev_key = None;
    for index in 0..n {
        if index % 4096 == 4095 {
            crate::interrupt::check();
        }
        let entry = u64_at(bytes, keys_at + 8 * index);
        let (key, card) = decode_key_entry(entry);
        if prev_key.is_some_and(|p| key <= p) {
            return Err(FormatError::KeysNotIncreasing { index });
        }
        prev_key = Some(key);
        let (code, offset) = decode_descr(u32_at(bytes, descr_at + 4 * index));
        let kind = Kind::from_code(code).ok_or(FormatError::BadContainerType { index })?;
        if u64::from(offset) != expected {
            return Err(FormatError::BadOffset {
                index,
                expected,
                found: offset,
            });
        }
        let start = offset as usize;
        let size = match kind {
            Kind::Array => 2 * card as usize,
            Kind::Bitmap => BITMAP_BYTES,
            Kind::Run => {
                let end = if index + 1 < n {
                    u64::from(decode_descr(u32_at(bytes, descr_at + 4 * (index + 1))).1)
                } else {
                    len as u64
                };
                let size = end.wrapping_sub(offset as u64);
                if end <= offset as u64 || size % 4 != 0 {
                    return Err(FormatError::BadRunPayloadSize {
                        index,
                        size: end.saturating_sub(offset as u64),
                    });
                }
                size as usize
            }
        };
        if start + size > len {
            return Err(FormatError::PayloadOutOfBounds {
                index,
                offset: expected,
            });
        }
        let payload = &bytes[start..start + size];
        let (actual, nruns, lo, hi) = match kind {
            Kind::Array => check_array(kernels, payload, index, start)?,
            Kind::Bitmap => check_bitmap(kernels, payload),
            Kind::Run => check_runs(kernels, payload, index, start)?,
        };
        if actual != u64::from(card) {
            return Err(FormatError::CardinalityMismatch {
                index,
                declared: card,
                actual,
            });
        }
        let canon = canonical_kind(card, nruns);
        if canon != kind {
            return Err(FormatError::NonCanonicalKind {
                index,
                found: kind,
                expected: canon,
            });
        }
        card_sum += actual;
        let high = key << 16;
        first.get_or_insert(high | u64::from(lo));
        last = high | u64::from(hi);
        expected += size as u64;
    }
    if expected != len as u64 {
        return Err(FormatError::TrailingBytes { end: expected, len });
    }
    if h.cardinality != card_sum {
        return Err(FormatError::CardinalityHeader {
            header: h.cardinality,
            actual: card_sum,
        });
    }
    let min = first.unwrap_or(0);
    if h.min != min {
        return Err(FormatError::MinHeader {
            header: h.min,
            actual: min,
        });
    }
    if h.max != last {
        return Err(FormatError::MaxHeader {
            header: h.max,
            actual: last,
        });
    }
    Ok(h)
}

/// Returns `(cardinality, runs, min, max)` of a non-empty array payload.
// Inlined, so that the large `Result` is not passed back through memory
// (a store-forwarding stall per container, which shows with small arrays).
#[inline(always)]
fn check_array(
    kernels: &Kernels,
    p: &[u8],
    index: usize,
    start: usize,
) -> Result<(u64, u32, u16, u16), FormatError> {
    let vals = p.as_chunks::<2>().0;
    let (Some(first), Some(last)) = (vals.first(), vals.last()) else {
        return Ok((0, 0, 0, 0));
    };
    // One pass checks the order and counts the runs; only an invalid array
    // pays a second pass to say where it goes wrong.
    let Some(runs) = (kernels.array_ascending_runs)(vals) else {
        let i = vals
            .windows(2)
            .position(|w| u16::from_le_bytes(w[1]) <= u16::from_le_bytes(w[0]))
            .unwrap_or(0);
        return Err(FormatError::ArrayNotIncreasing {
            index,
            offset: start + 2 * (i + 1),
        });
    };
    let (lo, hi) = (u16::from_le_bytes(*first), u16::from_le_bytes(*last));
    Ok((vals.len() as u64, runs, lo, hi))
}

/// Returns `(cardinality, runs, min, max)` of a bitmap payload.
fn check_bitmap(kernels: &Kernels, p: &[u8]) -> (u64, u32, u16, u16) {
    // Exactly `BITMAP_BYTES`, the length the kernel needs.
    let words = p.as_chunks::<8>().0;
    let (card, runs) = (kernels.bitmap_card_and_runs)(words);
    // The ends are usually in the first and last words: scalar scans suffice.
    let word = |i: usize| u64::from_le_bytes(words[i]);
    let lo = words
        .iter()
        .position(|w| *w != [0; 8])
        .map(|i| (64 * i) as u16 + word(i).trailing_zeros() as u16);
    let hi = words
        .iter()
        .rposition(|w| *w != [0; 8])
        .map(|i| (64 * i + 63) as u16 - word(i).leading_zeros() as u16);
    (u64::from(card), runs, lo.unwrap_or(0), hi.unwrap_or(0))
}

/// Returns `(cardinality, runs, min, max)` of a run payload (size checked > 0).
// Inlined for the same reason as `check_array`.
#[inline(always)]
fn check_runs(
    kernels: &Kernels,
    p: &[u8],
    index: usize,
    start: usize,
) -> Result<(u64, u32, u16, u16), FormatError> {
    let runs = p.as_chunks::<4>().0;
    let (Some(first), Some(last)) = (runs.first(), runs.last()) else {
        return Ok((0, 0, 0, 0));
    };
    // One dispatched pass checks and counts; only an invalid list pays a
    // second pass to say where it goes wrong.
    let Some(card) = (kernels.run_checked_card)(runs) else {
        return Err(locate_run_error(runs, index, start));
    };
    let lo = u16::from_le_bytes([first[0], first[1]]);
    let hi =
        u16::from_le_bytes([last[0], last[1]]).wrapping_add(u16::from_le_bytes([last[2], last[3]]));
    Ok((u64::from(card), runs.len() as u32, lo, hi))
}

/// The error of the first run of an invalid run list.
#[cold]
fn locate_run_error(runs: &[[u8; 4]], index: usize, start: usize) -> FormatError {
    let mut next_min = 0u32;
    for (i, r) in runs.iter().enumerate() {
        let (s, e) = crate::kernels::run::bounds(*r);
        let offset = start + 4 * i;
        if s < next_min {
            return FormatError::RunsNotSeparated { index, offset };
        }
        if e > 65535 {
            return FormatError::RunOverflow { index, offset };
        }
        next_min = e + 2;
    }
    // The kernels agree with this loop (tests/kernels_tiers.rs); validation
    // stays total even if one did not.
    debug_assert!(false, "the run kernel rejected a valid run list");
    FormatError::RunsNotSeparated {
        index,
        offset: start,
    }
}
