//! Signed 64-bit values (SQL's `bigint`, most id columns) over the unsigned order the
//! format stores.
//!
//! Toggling the sign bit maps one order onto the other: `i64::MIN` ↦ 0, -1 ↦ 2^63 - 1,
//! 0 ↦ 2^63, `i64::MAX` ↦ `u64::MAX`. So min, max, rank, select, ranges and iteration
//! of a stored set follow signed order with no translation beyond this one XOR.
//! sroar_pg stores every `roaring64` this way; a client that writes native bytes for
//! it (binary COPY) uses the same map. [`RoaringView::toggle_top_bit`] applies it to a
//! whole set, and the portable format has signed forms
//! ([`from_portable_signed`](crate::from_portable_signed)).

use crate::builder::from_sorted;
use crate::owned::Roaring;
use crate::view::RoaringView;
use crate::writer::{CapacityError, Writer};

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

/// Turns stored values into the bit patterns of their signed values, in place (for
/// a batch decoded straight into an `i64` array's memory).
#[inline]
pub fn to_signed_bits(values: &mut [u64]) {
    for v in values {
        *v ^= SIGN;
    }
}

/// Builds the buffer of a set of signed values given in any order, with duplicates.
///
/// ```
/// use sroar::{to_signed, Roaring};
///
/// let set = Roaring::from_signed([5, -1, 5, i64::MIN]).unwrap();
/// let back: Vec<i64> = set.iter().map(to_signed).collect();
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

/// The same questions in the signed domain, for callers that speak SQL's `bigint`
/// (the clients): each applies the map on the way in and out, nothing else.
///
/// ```
/// use sroar::Roaring;
///
/// let set = Roaring::from_signed([-1, 0, i64::MAX]).unwrap();
/// let view = set.view();
/// assert!(view.contains_signed(-1));
/// assert_eq!(view.min_signed(), Some(-1));
/// assert_eq!(view.rank_signed(0), 2);
/// assert_eq!(view.select_signed(2), Some(i64::MAX));
/// assert_eq!(view.iter_signed().collect::<Vec<_>>(), [-1, 0, i64::MAX]);
/// ```
impl<'a> RoaringView<'a> {
    /// Whether `x` is in the set.
    pub fn contains_signed(&self, x: i64) -> bool {
        self.contains(to_stored(x))
    }

    /// The smallest value, in signed order.
    pub fn min_signed(&self) -> Option<i64> {
        self.min().map(to_signed)
    }

    /// The largest value, in signed order.
    pub fn max_signed(&self) -> Option<i64> {
        self.max().map(to_signed)
    }

    /// How many values are at most `x`.
    pub fn rank_signed(&self, x: i64) -> u64 {
        self.rank(to_stored(x))
    }

    /// The value of 0-based rank `k`.
    pub fn select_signed(&self, k: u64) -> Option<i64> {
        self.select(k).map(to_signed)
    }

    /// The values in ascending signed order.
    pub fn iter_signed(&self) -> impl DoubleEndedIterator<Item = i64> + 'a {
        self.iter().map(to_signed)
    }
}

/// The key bit that the sign bit of a value is in.
const KEY_TOP: u64 = 1 << 47;

impl RoaringView<'_> {
    /// The buffer of `{ v ^ 2^63 : v in self }`.
    pub fn toggle_top_bit(&self) -> Result<Roaring, CapacityError> {
        let n = self.container_count();
        let split = self.directory().lower_bound(KEY_TOP);
        let mut w = Writer::with_capacity(n, self.as_bytes().len());
        for (key, c) in self.containers_in(split..n).chain(self.containers_in(0..split)) {
            w.push_container(key ^ KEY_TOP, c);
        }
        w.into_roaring()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::from_sorted;
    use crate::RoaringView;

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

    #[test]
    fn toggles_every_value_and_stays_canonical() {
        let cases: [&[u64]; 4] = [
            &[],
            &[0, 1, 65536, (1 << 63) - 1],
            &[1 << 63, u64::MAX - 1, u64::MAX],
            &[0, 5, 1 << 47 << 16, (1 << 63) + 7, u64::MAX],
        ];
        for values in cases {
            let bytes = from_sorted(values).unwrap();
            let view = RoaringView::from_bytes(&bytes).unwrap();
            let toggled = view.toggle_top_bit().unwrap();
            let mut expected: Vec<u64> = values.iter().map(|v| v ^ (1 << 63)).collect();
            expected.sort_unstable();
            assert_eq!(toggled, from_sorted(&expected).unwrap(), "{values:?}");
            let back = RoaringView::from_bytes(toggled.as_bytes())
                .unwrap()
                .toggle_top_bit()
                .unwrap();
            assert_eq!(back, bytes);
        }
    }
}
