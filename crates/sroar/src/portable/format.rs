//! The portable entry points as users call them: one each way, with the
//! [`PortableFormat`] (32 or 64 bits, values as they are or signed) as an argument.

use super::error::PortableError;
use super::read::{from_portable32_writer, from_portable_signed, from_portable_writer};
use super::write::{
    portable32_len, portable_len, write_portable32_into, write_portable_into,
    write_portable_signed_into,
};
use crate::owned::Roaring;
use crate::view::RoaringView;
use crate::writer::Writer;

/// Which standard portable format, and how its values map to the set's.
///
/// A set of SQL `bigint`s (or any `i64`s) is held in its stored form
/// ([`to_stored`](crate::to_stored)); the `Signed` formats convert to and from the
/// values' own bit patterns, as other systems keep them (pg_roaringbitmap's
/// `roaringbitmap64`, pyroaring's `BitMap64` of non-negative ids).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PortableFormat {
    /// The 64-bit format (CRoaring's `roaring64_bitmap_portable_serialize`,
    /// roaring-rs's `RoaringTreemap`), values as they are.
    Unsigned64,
    /// The 64-bit format holding the `i64` bit patterns of a signed set.
    Signed64,
    /// The 32-bit format (Java's `RoaringBitmap`, CRoaring's 32-bit bitmaps), values
    /// as they are: only sets within `0..2^32` can be written.
    Unsigned32,
    /// The 32-bit format holding the values `0..2^32` of a signed set.
    Signed32,
}

impl Writer {
    /// Reads portable bytes into a writer of their canonical containers, for a
    /// caller that sizes and writes the set into its own memory
    /// ([`Encode`](crate::Encode)). Strict: anything but exactly one valid portable
    /// bitmap is an error naming the byte where it went wrong; never panics.
    #[inline]
    pub fn from_portable(bytes: &[u8], format: PortableFormat) -> Result<Writer, PortableError> {
        match format {
            PortableFormat::Unsigned64 => from_portable_writer(bytes),
            PortableFormat::Signed64 => from_portable_signed(bytes),
            PortableFormat::Unsigned32 => from_portable32_writer(bytes, false),
            PortableFormat::Signed32 => from_portable32_writer(bytes, true),
        }
    }
}

impl Roaring {
    /// Reads portable bytes (see [`Writer::from_portable`]).
    ///
    /// ```
    /// use sroar::{looks_like_portable, PortableFormat, Roaring};
    ///
    /// let ours = Roaring::from_signed([-1, 5]).unwrap();
    /// let portable = ours.view().to_portable(PortableFormat::Signed64).unwrap();
    /// assert!(looks_like_portable(&portable));
    /// assert_eq!(Roaring::from_portable(&portable, PortableFormat::Signed64).unwrap(), ours);
    /// // Read as unsigned, -1 is the largest value.
    /// let unsigned = Roaring::from_portable(&portable, PortableFormat::Unsigned64).unwrap();
    /// assert_eq!(unsigned.view().max(), Some(u64::MAX));
    /// ```
    #[inline]
    pub fn from_portable(bytes: &[u8], format: PortableFormat) -> Result<Roaring, PortableError> {
        Ok(Writer::from_portable(bytes, format)?.into_roaring()?)
    }
}

impl RoaringView<'_> {
    /// The length of the set in the portable `format`, or None when the format
    /// cannot hold it (a value outside `0..2^32` in a 32-bit format).
    #[inline]
    pub fn portable_len(&self, format: PortableFormat) -> Option<usize> {
        match format {
            PortableFormat::Unsigned64 | PortableFormat::Signed64 => Some(portable_len(self)),
            PortableFormat::Unsigned32 => portable32_len(self, false),
            PortableFormat::Signed32 => portable32_len(self, true),
        }
    }

    /// Writes the set in the portable `format` into `out`, whose length must be
    /// [`RoaringView::portable_len`] (which must be `Some`). The 64-bit output is
    /// byte-identical to CRoaring's and roaring-rs's for the same set.
    ///
    /// # Panics
    /// If `out.len()` is not that length.
    #[inline]
    pub fn write_portable_into(&self, format: PortableFormat, out: &mut [u8]) {
        match format {
            PortableFormat::Unsigned64 => write_portable_into(self, out),
            PortableFormat::Signed64 => write_portable_signed_into(self, out),
            PortableFormat::Unsigned32 => write_portable32_into(self, false, out),
            PortableFormat::Signed32 => write_portable32_into(self, true, out),
        }
    }

    /// The set in the portable `format`, or None when the format cannot hold it.
    #[inline]
    pub fn to_portable(&self, format: PortableFormat) -> Option<Vec<u8>> {
        let mut out = vec![0u8; self.portable_len(format)?];
        self.write_portable_into(format, &mut out);
        Some(out)
    }
}
