#![allow(
    unsafe_code,
    reason = "a view of bytes validated when the value was made, without validating again"
)]
//! [`Roaring`]: an owned, validated buffer, for code that keeps or ships a set rather
//! than reading one in place. With the `serde` feature it serializes as its native
//! bytes (a byte string in binary formats, an array of numbers in JSON) and
//! deserializes with full validation.

use crate::format::FormatError;
use crate::view::RoaringView;

/// An owned sroar buffer, validated when it was made.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Roaring(Vec<u8>);

impl Roaring {
    /// Takes `bytes` after validating them as [`RoaringView::from_bytes`] does.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Self, FormatError> {
        RoaringView::from_bytes(&bytes)?;
        Ok(Roaring(bytes))
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
