//! [`Encode`]: a set that can be written as a buffer into memory its caller owns,
//! sized first. Everything that produces a set implements it, so a caller with its
//! own allocator (PostgreSQL's palloc) has one way to size, allocate and write.

use allocator_api2::alloc::Allocator;

use crate::ops::{AndAccumulator, BuildAccumulator, OrAccumulator, XorAccumulator};
use crate::sorted::SortedValues;
use crate::writer::{CapacityError, Writer};

/// A set ready to be written as a canonical buffer.
///
/// ```
/// use sroar::{from_sorted, Encode, OrAccumulator, RoaringView};
///
/// fn write(set: &mut impl Encode) -> Vec<u8> {
///     let mut out = vec![0u8; set.encoded_len().unwrap()];
///     set.write_into(&mut out).unwrap();
///     out
/// }
/// let mut acc = OrAccumulator::new();
/// acc.insert(3);
/// assert_eq!(write(&mut acc), from_sorted(&[3]).unwrap());
/// ```
pub trait Encode {
    /// Length of the canonical buffer. It may count and cache what
    /// [`Encode::write_into`] needs, so it must be called after the last change.
    fn encoded_len(&mut self) -> Result<usize, CapacityError>;

    /// Writes the buffer into `out`, whose length must be [`Encode::encoded_len`].
    fn write_into(&self, out: &mut [u8]) -> Result<(), CapacityError>;
}

impl Encode for Writer {
    fn encoded_len(&mut self) -> Result<usize, CapacityError> {
        Writer::encoded_len(self)
    }

    fn write_into(&self, out: &mut [u8]) -> Result<(), CapacityError> {
        Writer::write_into(self, out)
    }
}

impl Encode for SortedValues<'_> {
    fn encoded_len(&mut self) -> Result<usize, CapacityError> {
        SortedValues::encoded_len(self)
    }

    fn write_into(&self, out: &mut [u8]) -> Result<(), CapacityError> {
        SortedValues::write_into(self, out)
    }
}

/// A buffer already encoded (by [`from_sorted`](crate::from_sorted) and the other
/// functions that return one): it is copied as it is.
impl Encode for Vec<u8> {
    fn encoded_len(&mut self) -> Result<usize, CapacityError> {
        Ok(self.len())
    }

    fn write_into(&self, out: &mut [u8]) -> Result<(), CapacityError> {
        out.copy_from_slice(self);
        Ok(())
    }
}

macro_rules! encode_accumulator {
    ($($t:ident),*) => {$(
        impl<A: Allocator + Clone> Encode for $t<A> {
            fn encoded_len(&mut self) -> Result<usize, CapacityError> {
                $t::encoded_len(self)
            }

            fn write_into(&self, out: &mut [u8]) -> Result<(), CapacityError> {
                $t::write_into(self, out)
            }
        }
    )*};
}

encode_accumulator!(
    OrAccumulator,
    AndAccumulator,
    XorAccumulator,
    BuildAccumulator
);
