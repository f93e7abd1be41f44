//! Total validation of a buffer: one O(len) pass that accepts exactly the
//! canonical encodings, returns an error for anything else, and never panics.

use core::fmt;

use super::directory::{kind_of, Directory, Shape, BLOCK};
use super::encode::offset_width;
use super::header::{width_of, Header, HeaderError, MAX_LEN, VERSION};
use crate::container::{canonical_kind, Kind, RUNS_CAP};
use crate::kernels::dispatch::{kernels, Kernels};

/// Why a buffer is not a valid canonical sroar bitmap.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FormatError {
    /// The buffer ends inside its header.
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
    /// The flags byte has a bit set that is not defined, or that this set
    /// does not call for.
    BadFlags(u8),
    /// A header field is over 8 bytes wide, or wider than its value needs.
    HeaderWidths,
    /// The header's counts contradict each other: no containers in a non-empty
    /// set, more containers than values, or a max past `u64::MAX`.
    HeaderCounts,
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
    /// A payload offset is not greater than the previous one, or past the end.
    OffsetsNotIncreasing {
        /// Container index.
        index: usize,
    },
    /// The offsets are stored in other than their canonical width (0 when every
    /// container is an array of at most 256 values, else the fewest of 1, 2 or
    /// 4 bytes that hold the largest).
    OffsetWidth {
        /// Width the flags say, in bytes.
        found: u8,
        /// Canonical width.
        canonical: u8,
    },
    /// The cardinalities are stored in other than the fewest bytes that hold the
    /// largest.
    CardinalityWidth {
        /// Width the flags say, in bytes.
        found: u8,
        /// Canonical width.
        canonical: u8,
    },
    /// Where no offsets are stored, the payloads the cardinalities imply do not
    /// end where the buffer does.
    PayloadLength {
        /// Where the payloads end.
        end: u64,
        /// Buffer length.
        len: usize,
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
    /// A count before a block of 64 containers differs from the containers'.
    CountMismatch {
        /// The block it is stored before.
        block: usize,
        /// The stored count.
        stored: u64,
        /// The sum of the cardinalities before the block.
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
    /// Bytes follow the empty set's header.
    TrailingBytes {
        /// Where the header ends.
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
        /// Smallest value.
        actual: u64,
    },
    /// The header's max differs from the largest value.
    MaxHeader {
        /// Header value.
        header: u64,
        /// Largest value.
        actual: u64,
    },
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FormatError::*;
        f.write_str("invalid sroar bitmap: ")?;
        match self {
            TooShort { len } => write!(f, "{len} bytes end inside the header"),
            TooLong { len } => write!(f, "{len} bytes is not below the 2^30-byte limit"),
            BadMagic => f.write_str("bytes 0..4 are not the magic \"SR64\""),
            UnsupportedVersion(v) => write!(
                f,
                "format version {v} (byte 4); this build reads version {VERSION}"
            ),
            BadFlags(v) => write!(f, "flags byte 5 is {v:#04x}"),
            HeaderWidths => f.write_str(
                "a header field is over 8 bytes wide, or wider than its value needs",
            ),
            HeaderCounts => f.write_str(
                "header counts contradict each other (containers, values, min and max)",
            ),
            DirectoryOverflow { n, len } => {
                write!(f, "directory of {n} containers does not fit in {len} bytes")
            }
            KeysNotIncreasing { index } => {
                write!(f, "container {index}: key not greater than the previous key")
            }
            OffsetsNotIncreasing { index } => write!(
                f,
                "container {index}: payload offset not after the previous one, or past the end"
            ),
            OffsetWidth { found, canonical } => write!(
                f,
                "offsets are {found} bytes wide, the canonical width is {canonical}"
            ),
            CardinalityWidth { found, canonical } => write!(
                f,
                "cardinalities are {found} bytes wide, the canonical width is {canonical}"
            ),
            PayloadLength { end, len } => write!(
                f,
                "the payloads end at byte {end} but the buffer has {len} bytes"
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
            CountMismatch {
                block,
                stored,
                actual,
            } => write!(
                f,
                "count before block {block} is {stored}, the containers before it hold {actual}"
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
                write!(f, "the empty set ends at byte {end} but the buffer has {len} bytes")
            }
            CardinalityHeader { header, actual } => write!(
                f,
                "header cardinality {header} differs from the contents' {actual}"
            ),
            MinHeader { header, actual } => {
                write!(f, "header min {header} differs from the smallest value {actual}")
            }
            MaxHeader { header, actual } => {
                write!(f, "header max {header} differs from the largest value {actual}")
            }
        }
    }
}

impl std::error::Error for FormatError {}

impl From<HeaderError> for FormatError {
    fn from(e: HeaderError) -> Self {
        match e {
            HeaderError::TooShort => FormatError::TooShort { len: 0 },
            HeaderError::BadMagic => FormatError::BadMagic,
            HeaderError::Version(v) => FormatError::UnsupportedVersion(v),
            HeaderError::Flags(v) => FormatError::BadFlags(v),
            HeaderError::Width => FormatError::HeaderWidths,
            HeaderError::Counts => FormatError::HeaderCounts,
        }
    }
}

/// Checks that `bytes` is a canonical sroar buffer; returns its shape.
///
/// Every index below is bounds-checked beforehand, so this never panics.
pub(crate) fn validate(bytes: &[u8]) -> Result<Shape, FormatError> {
    let len = bytes.len();
    if len >= MAX_LEN {
        return Err(FormatError::TooLong { len });
    }
    let parsed = Header::parse(bytes).map_err(|e| match e {
        HeaderError::TooShort => FormatError::TooShort { len },
        e => FormatError::from(e),
    })?;
    if !parsed.canonical_min() {
        return Err(FormatError::HeaderWidths);
    }
    let shape = Shape::new(&parsed, len).ok_or(FormatError::DirectoryOverflow {
        n: parsed.header.n,
        len,
    })?;
    let h = parsed.header;
    if h.cardinality == 0 {
        // The empty set is its 7-byte header, nothing more.
        return if len == parsed.len {
            Ok(shape)
        } else {
            Err(FormatError::TrailingBytes {
                end: parsed.len as u64,
                len,
            })
        };
    }
    // Every container has a payload of at least 2 bytes: reading any cardinality
    // may load the 2 bytes after the last one, and any offset the 4 bytes from it.
    if len < shape.payload as usize + 2 * shape.n().min(2) {
        return Err(FormatError::DirectoryOverflow { n: h.n, len });
    }
    let dir = Directory::new(bytes, shape);
    let n = shape.n();
    let implied = shape.implied_offsets();
    let (mut max_card, mut all_arrays) = (0u32, true);
    // Looked up once: most containers are small, so the lookup would show.
    let kernels = kernels();
    let mut card_sum = 0u64;
    let mut first = 0u64;
    let mut last = 0u64;
    let mut prev_key = 0u64;
    let mut prev_end = shape.payload as usize;
    for index in 0..n {
        if index % 4096 == 4095 {
            crate::interrupt::check();
        }
        let key = dir.key_unvalidated(index);
        if index > 0 && key <= prev_key {
            return Err(FormatError::KeysNotIncreasing { index });
        }
        prev_key = key;
        if index.is_multiple_of(BLOCK) && index > 0 {
            let stored = dir.card_prefix(index);
            if stored != card_sum {
                return Err(FormatError::CountMismatch {
                    block: index / BLOCK,
                    stored,
                    actual: card_sum,
                });
            }
        }
        // Offsets are read as stored, then checked: increasing and inside the
        // buffer, so every payload is a non-empty range of it.
        let start = prev_end;
        let card = dir.card(index);
        let end = if implied {
            start + 2 * card as usize
        } else {
            dir.start(index + 1)
        };
        if end <= start || end > len {
            return Err(if implied {
                FormatError::PayloadLength { end: end as u64, len }
            } else {
                FormatError::OffsetsNotIncreasing { index: index + 1 }
            });
        }
        prev_end = end;
        let size = end - start;
        let kind = kind_of(card, size);
        let payload = &bytes[start..end];
        let (actual, nruns, lo, hi) = match kind {
            Kind::Array => check_array(kernels, payload, index, start)?,
            Kind::Bitmap => check_bitmap(kernels, payload),
            Kind::Run => {
                if !size.is_multiple_of(4) {
                    return Err(FormatError::BadRunPayloadSize {
                        index,
                        size: size as u64,
                    });
                }
                check_runs(kernels, payload, index, start)?
            }
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
        max_card = max_card.max(card);
        all_arrays &= kind == Kind::Array;
        let high = key << 16;
        if index == 0 {
            first = high | u64::from(lo);
        }
        last = high | u64::from(hi);
    }
    if implied && prev_end != len {
        return Err(FormatError::PayloadLength { end: prev_end as u64, len });
    }
    let card_w = width_of(u64::from(max_card - 1));
    if usize::from(parsed.card_w) != card_w {
        return Err(FormatError::CardinalityWidth {
            found: parsed.card_w,
            canonical: card_w as u8,
        });
    }
    // The widest offset decides the width; canonical is the narrowest that holds it.
    let last_offset = (dir.start(n - 1) - shape.payload as usize) as u64;
    let ow = offset_width(all_arrays, card_w, last_offset);
    if usize::from(parsed.ow) != ow {
        return Err(FormatError::OffsetWidth {
            found: parsed.ow,
            canonical: ow as u8,
        });
    }
    if h.cardinality != card_sum {
        return Err(FormatError::CardinalityHeader {
            header: h.cardinality,
            actual: card_sum,
        });
    }
    if h.min != first {
        return Err(FormatError::MinHeader {
            header: h.min,
            actual: first,
        });
    }
    if h.max != last {
        return Err(FormatError::MaxHeader {
            header: h.max,
            actual: last,
        });
    }
    Ok(shape)
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

/// Returns `(cardinality, runs, min, max)` of a bitmap payload; the runs are
/// counted until at least [`RUNS_CAP`], all the canonical kind needs.
fn check_bitmap(kernels: &Kernels, p: &[u8]) -> (u64, u32, u16, u16) {
    // Exactly `BITMAP_BYTES`, the length the kernel needs.
    let words = p.as_chunks::<8>().0;
    let (card, runs) = (kernels.bitmap_card_and_runs)(words, RUNS_CAP);
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
