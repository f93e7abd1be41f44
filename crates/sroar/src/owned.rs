#![allow(
    unsafe_code,
    reason = "a view of bytes validated when the value was made, without validating again"
)]
//! [`Roaring`]: an owned, validated buffer, for code that keeps or ships a set rather
//! than reading one in place. With the `serde` feature it serializes as its native
//! bytes (a byte string in binary formats, an array of numbers in JSON) and
//! deserializes with full validation.

use core::ops::RangeBounds;

use crate::format::encode::{CapacityError, Encode};
use crate::format::FormatError;
use crate::iter::Iter;
use crate::view::RoaringView;

/// An owned sroar buffer, validated when it was made: what every operation that
/// produces a set returns. [`Roaring::view`] answers every query in place.
///
/// ```
/// use sroar::Roaring;
///
/// let a: Roaring = [1u64, 5, 1 << 40].into_iter().collect();
/// let b = Roaring::from_range(4..8).unwrap();
/// let both = a.view() & b.view();
/// assert_eq!(both.iter().collect::<Vec<_>>(), [5]);
/// assert_eq!(a.view().or_len(&b.view()), 6);
/// assert!(Roaring::from_sorted(&[5]).unwrap().view().is_subset(&a.view()));
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Roaring(Vec<u8>);

impl Roaring {
    /// Takes `bytes` after validating them as [`RoaringView::from_bytes`] does.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Self, FormatError> {
        RoaringView::from_bytes(&bytes)?;
        Ok(Roaring(bytes))
    }

    /// A buffer this crate wrote (canonical and valid by construction).
    pub(crate) fn from_canonical(bytes: Vec<u8>) -> Self {
        debug_assert!(RoaringView::from_bytes(&bytes).is_ok());
        Roaring(bytes)
    }

    /// The empty set.
    pub fn new() -> Self {
        Roaring(crate::builder::empty())
    }

    /// The set of `values`, which should be sorted ascending (duplicates are
    /// allowed; an unsorted slice is sorted in a copy).
    pub fn from_sorted(values: &[u64]) -> Result<Self, CapacityError> {
        crate::builder::from_sorted(values).map(Roaring)
    }

    /// The set of the values an iterator yields, in any order.
    pub fn from_values(values: impl IntoIterator<Item = u64>) -> Result<Self, CapacityError> {
        crate::builder::from_values(values).map(Roaring)
    }

    /// Every value of `range`.
    pub fn from_range(range: impl RangeBounds<u64>) -> Result<Self, CapacityError> {
        crate::builder::from_range(range).map(Roaring)
    }

    /// The values of the inclusive runs `(first, last)`, sorted and apart.
    ///
    /// # Panics
    /// If a run has `first > last`, or runs are unsorted or overlap.
    pub fn from_runs(runs: &[(u64, u64)]) -> Result<Self, CapacityError> {
        crate::runs::from_runs(runs).map(Roaring)
    }

    /// The set of signed values, held in their stored form
    /// ([`to_stored`](crate::to_stored)), so that the set's order is theirs.
    pub fn from_signed(values: impl IntoIterator<Item = i64>) -> Result<Self, CapacityError> {
        crate::signed::from_signed(values).map(Roaring)
    }

    /// Number of values.
    pub fn len(&self) -> u64 {
        self.view().len()
    }

    /// True when the set is empty.
    pub fn is_empty(&self) -> bool {
        self.view().is_empty()
    }

    /// Whether the set holds `x`.
    pub fn contains(&self, x: u64) -> bool {
        self.view().contains(x)
    }

    /// The values in ascending order.
    pub fn iter(&self) -> Iter<'_> {
        self.view().iter()
    }

    /// The set as a view, for every query.
    pub fn view(&self) -> RoaringView<'_> {
        // SAFETY (contract of from_bytes_unchecked): the bytes were validated when
        // this value was made and are never changed.
        unsafe { RoaringView::from_bytes_unchecked(&self.0) }
    }

    /// The native bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The native bytes, owned.
    pub fn into_bytes(self) -> Vec<u8> {
        self.0
    }
}

impl Default for Roaring {
    fn default() -> Self {
        Roaring::new()
    }
}

/// A set equals the bytes that encode it (the format is canonical).
impl PartialEq<Vec<u8>> for Roaring {
    fn eq(&self, other: &Vec<u8>) -> bool {
        self.0 == *other
    }
}

impl PartialEq<Roaring> for Vec<u8> {
    fn eq(&self, other: &Roaring) -> bool {
        *self == other.0
    }
}

impl AsRef<[u8]> for Roaring {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl From<Roaring> for Vec<u8> {
    fn from(r: Roaring) -> Vec<u8> {
        r.0
    }
}

impl<'a> From<&'a Roaring> for RoaringView<'a> {
    fn from(r: &'a Roaring) -> RoaringView<'a> {
        r.view()
    }
}

impl<'a> IntoIterator for &'a Roaring {
    type Item = u64;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// Copied as it is: the bytes are canonical already.
impl Encode for Roaring {
    fn encoded_len(&mut self) -> Result<usize, CapacityError> {
        Ok(self.0.len())
    }

    fn write_into(&self, out: &mut [u8]) -> Result<(), CapacityError> {
        out.copy_from_slice(&self.0);
        Ok(())
    }
}

impl Extend<u64> for Roaring {
    /// Adds the values (in any order). Panics only if the set would reach the
    /// 2^30-byte limit of a buffer.
    fn extend<I: IntoIterator<Item = u64>>(&mut self, values: I) {
        let values: Vec<u64> = values.into_iter().collect();
        if values.is_empty() {
            return;
        }
        *self = self
            .view()
            .insert_many(&values)
            .expect("sroar: set within the 2^30-byte limit");
    }
}

impl core::fmt::Debug for Roaring {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_set()
            .entries(self.view().iter().take(16))
            .finish()?;
        let len = self.view().len();
        if len > 16 {
            write!(f, " ({len} values)")?;
        }
        Ok(())
    }
}

impl TryFrom<Vec<u8>> for Roaring {
    type Error = FormatError;

    fn try_from(bytes: Vec<u8>) -> Result<Self, FormatError> {
        Roaring::from_bytes(bytes)
    }
}

impl FromIterator<u64> for Roaring {
    /// The set of the values, in any order. Panics only if the set would reach the
    /// 2^30-byte limit of a buffer.
    fn from_iter<I: IntoIterator<Item = u64>>(values: I) -> Self {
        let values: Vec<u64> = values.into_iter().collect();
        Roaring(
            crate::builder::from_unsorted(&values).expect("sroar: set within the 2^30-byte limit"),
        )
    }
}

#[cfg(feature = "serde")]
mod serde_impl {
    use super::Roaring;
    use serde::de::{Error, SeqAccess, Visitor};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    impl Serialize for Roaring {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(&self.0)
        }
    }

    struct BytesVisitor;

    impl<'de> Visitor<'de> for BytesVisitor {
        type Value = Roaring;

        fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.write_str("the native bytes of a sroar bitmap")
        }

        fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Roaring, E> {
            Roaring::from_bytes(v.to_vec()).map_err(E::custom)
        }

        fn visit_byte_buf<E: Error>(self, v: Vec<u8>) -> Result<Roaring, E> {
            Roaring::from_bytes(v).map_err(E::custom)
        }

        // JSON and other text formats carry bytes as a sequence of numbers.
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Roaring, A::Error> {
            let mut bytes = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 20));
            while let Some(b) = seq.next_element::<u8>()? {
                bytes.push(b);
            }
            Roaring::from_bytes(bytes).map_err(A::Error::custom)
        }
    }

    impl<'de> Deserialize<'de> for Roaring {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Roaring, D::Error> {
            d.deserialize_byte_buf(BytesVisitor)
        }
    }
}
