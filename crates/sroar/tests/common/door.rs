//! The free-function forms these tests are written in, each one call of the crate's
//! public API (the root door), so that the tests check what a user can reach: a
//! missing re-export fails to compile here.

use std::ops::RangeBounds;

use sroar::{CapacityError, Roaring, RoaringView};

/// The buffer of `values` (sorted ascending; duplicates allowed).
pub fn from_sorted(values: &[u64]) -> Result<Vec<u8>, CapacityError> {
    Roaring::from_sorted(values).map(Vec::from)
}

/// The buffer of `values`, in any order.
pub fn from_unsorted(values: &[u64]) -> Result<Vec<u8>, CapacityError> {
    Roaring::from_values(values.iter().copied()).map(Vec::from)
}

/// The buffer of the values an iterator yields.
pub fn from_values(values: impl IntoIterator<Item = u64>) -> Result<Vec<u8>, CapacityError> {
    Roaring::from_values(values).map(Vec::from)
}

/// The buffer of every value of `range`.
pub fn from_range(range: impl RangeBounds<u64>) -> Result<Vec<u8>, CapacityError> {
    Roaring::from_range(range).map(Vec::from)
}

/// The buffer of the empty set.
pub fn empty() -> Vec<u8> {
    Roaring::new().into()
}

/// The set algebra as free functions of two views.
pub mod ops {
    use std::cmp::Ordering;

    use sroar::{CapacityError, Header, RoaringView, SetOp, Splice, Writer};

    pub fn and(a: RoaringView<'_>, b: RoaringView<'_>) -> Result<Vec<u8>, CapacityError> {
        a.and(&b).map(Vec::from)
    }
    pub fn or(a: RoaringView<'_>, b: RoaringView<'_>) -> Result<Vec<u8>, CapacityError> {
        a.or(&b).map(Vec::from)
    }
    pub fn xor(a: RoaringView<'_>, b: RoaringView<'_>) -> Result<Vec<u8>, CapacityError> {
        a.xor(&b).map(Vec::from)
    }
    pub fn andnot(a: RoaringView<'_>, b: RoaringView<'_>) -> Result<Vec<u8>, CapacityError> {
        a.andnot(&b).map(Vec::from)
    }
    pub fn and_writer(a: RoaringView<'_>, b: RoaringView<'_>) -> Writer {
        Writer::and(a, b)
    }
    pub fn or_writer(a: RoaringView<'_>, b: RoaringView<'_>) -> Writer {
        Writer::or(a, b)
    }
    pub fn xor_writer(a: RoaringView<'_>, b: RoaringView<'_>) -> Writer {
        Writer::xor(a, b)
    }
    pub fn andnot_writer(a: RoaringView<'_>, b: RoaringView<'_>) -> Writer {
        Writer::andnot(a, b)
    }
    pub fn or_splice<'a>(a: RoaringView<'a>, b: RoaringView<'a>) -> Splice<'a> {
        Splice::or(a, b)
    }

    pub fn or_splice_over<'a>(base: RoaringView<'a>, other: RoaringView<'a>) -> Splice<'a> {
        Splice::or_over(base, other)
    }
    pub fn andnot_splice<'a>(a: RoaringView<'a>, b: RoaringView<'a>) -> Splice<'a> {
        Splice::andnot(a, b)
    }
    pub fn and_len(a: RoaringView<'_>, b: RoaringView<'_>) -> u64 {
        a.and_len(&b)
    }
    pub fn or_len(a: RoaringView<'_>, b: RoaringView<'_>) -> u64 {
        a.or_len(&b)
    }
    pub fn xor_len(a: RoaringView<'_>, b: RoaringView<'_>) -> u64 {
        a.xor_len(&b)
    }
    pub fn andnot_len(a: RoaringView<'_>, b: RoaringView<'_>) -> u64 {
        a.andnot_len(&b)
    }
    pub fn intersects(a: RoaringView<'_>, b: RoaringView<'_>) -> bool {
        a.intersects(&b)
    }
    pub fn is_subset(a: RoaringView<'_>, b: RoaringView<'_>) -> bool {
        a.is_subset(&b)
    }
    pub fn eq(a: RoaringView<'_>, b: RoaringView<'_>) -> bool {
        a == b
    }
    pub fn cmp(a: RoaringView<'_>, b: RoaringView<'_>) -> Ordering {
        a.compare(&b)
    }
    pub fn or_many(views: &[RoaringView<'_>]) -> Writer {
        SetOp::Or.many(views)
    }
    pub fn and_many(views: &[RoaringView<'_>]) -> Writer {
        SetOp::And.many(views)
    }
    pub fn are_disjoint_by_headers(a: &Header, b: &Header) -> bool {
        a.is_disjoint_from(b)
    }
    pub fn is_subset_by_headers(a: &Header, b: &Header) -> Option<bool> {
        a.is_subset_of(b)
    }
}

/// The portable formats as free functions, through [`sroar::PortableFormat`].
pub mod portable {
    use sroar::PortableFormat::{Signed32, Signed64, Unsigned32, Unsigned64};
    use sroar::{PortableError, RoaringView, Writer};

    #[allow(unused_imports, reason = "not every test binary uses it")]
    pub use sroar::looks_like_portable;

    pub fn from_portable(bytes: &[u8]) -> Result<Vec<u8>, PortableError> {
        Ok(Writer::from_portable(bytes, Unsigned64)?.into_vec()?)
    }
    pub fn from_portable_writer(bytes: &[u8]) -> Result<Writer, PortableError> {
        Writer::from_portable(bytes, Unsigned64)
    }
    pub fn from_portable_signed(bytes: &[u8]) -> Result<Writer, PortableError> {
        Writer::from_portable(bytes, Signed64)
    }
    pub fn from_portable32_writer(bytes: &[u8], signed: bool) -> Result<Writer, PortableError> {
        Writer::from_portable(bytes, if signed { Signed32 } else { Unsigned32 })
    }
    pub fn portable_len(view: &RoaringView<'_>) -> usize {
        view.portable_len(Unsigned64)
            .expect("the 64-bit format holds every set")
    }
    pub fn portable32_len(view: &RoaringView<'_>, signed: bool) -> Option<usize> {
        view.portable_len(if signed { Signed32 } else { Unsigned32 })
    }
    pub fn to_portable(view: &RoaringView<'_>) -> Vec<u8> {
        view.to_portable(Unsigned64)
            .expect("the 64-bit format holds every set")
    }
    pub fn to_portable_signed(view: &RoaringView<'_>) -> Vec<u8> {
        view.to_portable(Signed64)
            .expect("the 64-bit format holds every set")
    }
    pub fn write_portable_into(view: &RoaringView<'_>, out: &mut [u8]) {
        view.write_portable_into(Unsigned64, out)
    }
    pub fn write_portable_signed_into(view: &RoaringView<'_>, out: &mut [u8]) {
        view.write_portable_into(Signed64, out)
    }
    pub fn write_portable32_into(view: &RoaringView<'_>, signed: bool, out: &mut [u8]) {
        view.write_portable_into(if signed { Signed32 } else { Unsigned32 }, out)
    }
}

/// Facts of the portable format's specification (RoaringFormatSpec), written here
/// from the specification rather than taken from the crate: an independent check.
pub mod spec {
    use sroar::Kind;

    /// Cookie of a 32-bit portable bitmap with no run container.
    pub const SERIAL_COOKIE_NO_RUNCONTAINER: u32 = 12346;
    /// Low 16 bits of the cookie of a 32-bit portable bitmap with run containers.
    pub const SERIAL_COOKIE: u16 = 12347;
    /// With [`SERIAL_COOKIE`], offsets are stored only from this many containers on.
    pub const NO_OFFSET_THRESHOLD: usize = 4;

    /// The kind CRoaring and roaring-rs store a container of `card >= 1` values in
    /// `nruns` runs in after run optimization: the smallest of array `2·card`
    /// (`<= 4096` values only), bitmap 8192 and run `2 + 4·nruns`, a run only when
    /// strictly smaller.
    pub fn portable_kind(card: u32, nruns: u32) -> Kind {
        let run = 2 + 4 * nruns as usize;
        if card <= 4096 {
            if run < 2 * card as usize {
                Kind::Run
            } else {
                Kind::Array
            }
        } else if run < 8192 {
            Kind::Run
        } else {
            Kind::Bitmap
        }
    }
}

/// A view of bytes a test holds.
pub fn view(bytes: &[u8]) -> RoaringView<'_> {
    RoaringView::from_bytes(bytes).expect("valid bytes")
}
