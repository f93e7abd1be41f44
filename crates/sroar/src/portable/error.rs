//! What is wrong with bytes offered as the portable format.

use core::fmt;

use crate::writer::CapacityError;

/// Why bytes are not a valid standard 64-bit portable roaring bitmap. Every
/// variant but [`PortableError::TooLarge`] names the byte offset (from the start of
/// the input) where the problem is.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PortableError {
    /// The input ends inside a field.
    Truncated {
        /// Where the field starts.
        offset: usize,
        /// The field.
        what: &'static str,
        /// Bytes the field needs.
        needed: usize,
        /// Bytes left from `offset`.
        available: usize,
    },
    /// Bytes follow the last bucket.
    TrailingBytes {
        /// Where the extra bytes start.
        offset: usize,
        /// Input length.
        len: usize,
    },
    /// The bucket count (byte 0) is more than the input could hold.
    TooManyBuckets {
        /// The bucket count.
        count: u64,
        /// The most buckets the input length allows.
        max: u64,
    },
    /// A 32-bit bitmap starts with neither cookie.
    UnknownCookie {
        /// Where the cookie is.
        offset: usize,
        /// The value found.
        cookie: u32,
    },
    /// A 32-bit bitmap declares more than 65536 containers.
    TooManyContainers {
        /// Where the count is.
        offset: usize,
        /// The count.
        count: u32,
    },
    /// Run flags are set past the last container.
    RunFlagPadding {
        /// The flag byte.
        offset: usize,
    },
    /// A bucket key is not greater than the previous bucket's.
    BucketKeyOrder {
        /// Where the key is.
        offset: usize,
        /// The key.
        key: u32,
        /// The previous bucket's key.
        previous: u32,
    },
    /// A container key is not greater than the previous one in its bucket.
    ContainerKeyOrder {
        /// Where the key is.
        offset: usize,
        /// The key.
        key: u16,
        /// The previous key.
        previous: u16,
    },
    /// A container offset is not where the payload starts.
    BadOffset {
        /// Where the offset field is.
        offset: usize,
        /// The stored offset.
        found: u32,
        /// The offset of the payload, from the bucket's cookie.
        expected: u32,
    },
    /// The payload holds a different number of values than the descriptive header.
    CardinalityMismatch {
        /// Where the payload starts.
        offset: usize,
        /// Cardinality in the descriptive header.
        declared: u32,
        /// Values in the payload.
        actual: u32,
    },
    /// An array value is not greater than the previous one.
    ArrayNotIncreasing {
        /// Where the value is.
        offset: usize,
    },
    /// A run container has no runs.
    EmptyRunContainer {
        /// Where the run count is.
        offset: usize,
    },
    /// A run ends past 65535.
    RunOverflow {
        /// Where the run is.
        offset: usize,
    },
    /// A run starts at or before the end of the previous run plus one (unsorted,
    /// overlapping or touching runs).
    RunsNotSeparated {
        /// Where the run is.
        offset: usize,
    },
    /// The set is valid but its sroar buffer would reach 2^30 bytes.
    TooLarge(CapacityError),
}

impl PortableError {
    /// The byte offset of the problem, when it has one.
    pub fn offset(&self) -> Option<usize> {
        use PortableError::*;
        match *self {
            Truncated { offset, .. }
            | TrailingBytes { offset, .. }
            | UnknownCookie { offset, .. }
            | TooManyContainers { offset, .. }
            | RunFlagPadding { offset }
            | BucketKeyOrder { offset, .. }
            | ContainerKeyOrder { offset, .. }
            | BadOffset { offset, .. }
            | CardinalityMismatch { offset, .. }
            | ArrayNotIncreasing { offset }
            | EmptyRunContainer { offset }
            | RunOverflow { offset }
            | RunsNotSeparated { offset } => Some(offset),
            TooManyBuckets { .. } => Some(0),
            TooLarge(_) => None,
        }
    }
}

impl fmt::Display for PortableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PortableError::*;
        f.write_str("invalid portable roaring bitmap: ")?;
        match self {
            Truncated {
                offset,
                what,
                needed,
                available,
            } => write!(
                f,
                "input ends in the {what} at byte {offset} ({needed} bytes needed, {available} left)"
            ),
            TrailingBytes { offset, len } => write!(
                f,
                "the last bucket ends at byte {offset} but the input has {len} bytes"
            ),
            TooManyBuckets { count, max } => write!(
                f,
                "bucket count {count} at byte 0 is more than the input can hold ({max} at most)"
            ),
            UnknownCookie { offset, cookie } => {
                write!(f, "unknown cookie {cookie} at byte {offset}")
            }
            TooManyContainers { offset, count } => write!(
                f,
                "container count {count} at byte {offset} is more than 65536"
            ),
            RunFlagPadding { offset } => write!(
                f,
                "run flag byte at byte {offset} flags containers past the last one"
            ),
            BucketKeyOrder {
                offset,
                key,
                previous,
            } => write!(
                f,
                "bucket key {key} at byte {offset} is not greater than the previous key {previous}"
            ),
            ContainerKeyOrder {
                offset,
                key,
                previous,
            } => write!(
                f,
                "container key {key} at byte {offset} is not greater than the previous key {previous}"
            ),
            BadOffset {
                offset,
                found,
                expected,
            } => write!(
                f,
                "container offset {found} at byte {offset} should be {expected}"
            ),
            CardinalityMismatch {
                offset,
                declared,
                actual,
            } => write!(
                f,
                "container at byte {offset} holds {actual} values, its header says {declared}"
            ),
            ArrayNotIncreasing { offset } => write!(
                f,
                "array value at byte {offset} is not greater than the previous value"
            ),
            EmptyRunContainer { offset } => {
                write!(f, "run container at byte {offset} has no runs")
            }
            RunOverflow { offset } => write!(f, "run at byte {offset} extends past 65535"),
            RunsNotSeparated { offset } => write!(
                f,
                "run at byte {offset} is unsorted, overlaps or touches the previous run"
            ),
            TooLarge(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PortableError {}

impl From<CapacityError> for PortableError {
    fn from(e: CapacityError) -> Self {
        PortableError::TooLarge(e)
    }
}

