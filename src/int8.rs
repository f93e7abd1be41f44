//! The order-preserving map between SQL int8 values and the u64 values the core crate
//! stores.
//!
//! Users see int8 order (negative values first); the crate sees plain u64 order.
//! The map itself is the crate's (`sroar::to_stored`, `sroar::to_signed`); this
//! module turns SQL's bounds and ranges into stored bounds.

use std::ops::Bound;

use pgrx::datum::{Range, RangeBound};

/// The stored u64 of an int8 value.
#[inline]
pub fn to_u64(x: i64) -> u64 {
    sroar::to_stored(x)
}

/// The int8 value of a stored u64.
#[inline]
pub fn to_i64(v: u64) -> i64 {
    sroar::to_signed(v)
}

/// The u64 bounds of the half-open int8 range [start, end); `start >= end` is empty.
pub fn half_open(start: i64, end: i64) -> (Bound<u64>, Bound<u64>) {
    if start >= end {
        return EMPTY;
    }
    (Bound::Included(to_u64(start)), Bound::Excluded(to_u64(end)))
}

/// The u64 bounds of an int8range: an unbounded side reaches int8 min or max.
pub fn range_bounds(r: &Range<i64>) -> (Bound<u64>, Bound<u64>) {
    let (Some(lower), Some(upper)) = (r.lower(), r.upper()) else {
        return EMPTY;
    };
    let lower = match lower {
        RangeBound::Infinite => Bound::Unbounded,
        RangeBound::Inclusive(l) => Bound::Included(to_u64(*l)),
        RangeBound::Exclusive(l) => Bound::Excluded(to_u64(*l)),
    };
    let upper = match upper {
        RangeBound::Infinite => Bound::Unbounded,
        RangeBound::Inclusive(u) => Bound::Included(to_u64(*u)),
        RangeBound::Exclusive(u) => Bound::Excluded(to_u64(*u)),
    };
    (lower, upper)
}

/// An empty range: [0, 0).
const EMPTY: (Bound<u64>, Bound<u64>) = (Bound::Included(0), Bound::Excluded(0));
