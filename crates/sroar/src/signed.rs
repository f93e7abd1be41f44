//! Signed 64-bit values (SQL's `bigint`, most id columns) over the unsigned order the
//! format stores.
//!
//! Toggling the sign bit maps one order onto the other: `i64::MIN` ↦ 0, -1 ↦ 2^63 - 1,
//! 0 ↦ 2^63, `i64::MAX` ↦ `u64::MAX`. So min, max, rank, select, ranges and iteration
//! of a stored set follow signed order with no translation beyond this one XOR.
//! sroar_pg stores every `roaring64` this way; a client that writes native bytes for
//! it (binary COPY) uses the same map.

use crate::builder::from_sorted;
use crate::writer::CapacityError;

const SIGN: u64 = 1 << 63;

/// The stored value of a signed one.
#[inline]
pub const fn to_stored(v: i64) -> u64 {
    (v as u64) ^ SIGN
}

/// The signed value of a stored one.
#[inline]
pub const fn to_signed(v: u64) -> i64 {
    (v ^ SIGN) as i64
}

/// Builds the buffer of a set of signed values given in any order, with duplicates.
///
/// ```
/// use sroar::{signed, RoaringView};
///
/// let bytes = signed::from_signed([5, -1, 5, i64::MIN]).unwrap();
/// let view = RoaringView::from_bytes(&bytes).unwrap();
/// let back: Vec<i64> = view.iter().map(signed::to_signed).collect();
/// assert_eq!(back, [i64::MIN, -1, 5]);
/// ```
pub fn from_signed(values: impl IntoIterator<Item = i64>) -> Result<Vec<u8>, CapacityError> {
    let mut v: Vec<u64> = values.into_iter().map(to_stored).collect();
    if !v.is_sorted() {
        v.sort_unstable();
    }
    v.dedup();
    from_sorted(&v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_is_preserved_at_the_edges() {
        let xs = [
            i64::MIN,
            i64::MIN + 1,
            -65536,
            -1,
            0,
            1,
            65536,
            1 << 48,
            i64::MAX,
        ];
        for w in xs.windows(2) {
            assert!(to_stored(w[0]) < to_stored(w[1]), "{} vs {}", w[0], w[1]);
        }
        for x in xs {
            assert_eq!(to_signed(to_stored(x)), x);
        }
        assert_eq!((to_stored(i64::MIN), to_stored(i64::MAX)), (0, u64::MAX));
        assert_eq!(to_stored(0), 1 << 63);
    }
}
