//! Zero-decode serialized 64-bit roaring bitmaps.
//!
//! A sroar bitmap is one little-endian byte buffer (see `FORMAT.md`); every
//! operation reads it in place, at any address, with no decode step. Its API has the
//! shape of `std`'s `BTreeSet` and roaring-rs's `RoaringTreemap`:
//!
//! ```
//! use sroar::{Roaring, RoaringView};
//!
//! let followers = Roaring::from_sorted(&[1, 5, 1 << 40]).unwrap();
//! let bytes = followers.as_bytes();                 // what a database column stores
//! let view = RoaringView::from_bytes(bytes).unwrap(); // validated once, never decoded
//! assert!(view.contains(5));
//! assert_eq!(view.rank(5), 2);
//!
//! let others: Roaring = [5, 7].into_iter().collect();
//! assert_eq!(view.and_len(&others.view()), 1);
//! let both = view | others.view();                  // a new canonical buffer
//! assert_eq!(both.len(), 4);
//! assert_eq!(view.insert(9).unwrap().len(), 4);
//! ```
//!
//! | what | items |
//! |---|---|
//! | reading a buffer in place | [`RoaringView`]: queries, set algebra (`and`, `or_len`, `is_subset`, `&`, `|`, `^`, `-`, ...), edits that return a new set; [`Iter`], [`Runs`], [`Container`], [`Stats`] |
//! | an owned, validated set | [`Roaring`]: every producing operation returns one; `FromIterator`, `Extend`, serde with the `serde` feature |
//! | writing into the caller's memory | [`Writer`] and [`SortedValues`], sized and written through [`Encode`]; [`SetOp`] gives a writer of any operation; [`Splice`], for edits and unions with a small set, copies the untouched containers of the large input once ([`RoaringView::with_inserted`], [`Splice::or`]) |
//! | streaming (aggregates) | [`Accumulator`] of a [`SetOp`] |
//! | a few byte ranges of a stored value (TOAST slices) | [`Header::from_prefix`], [`Partial`] |
//! | the standard portable formats | [`PortableFormat`]: [`Roaring::from_portable`], [`Writer::from_portable`], [`RoaringView::to_portable`]; [`looks_like_portable`] |
//! | signed values (SQL `bigint`) | [`to_stored`], [`to_signed`], [`to_signed_bits`], [`Roaring::from_signed`]; `RoaringView`'s `*_signed` methods |
//! | `roaring64` text (`{1,-2}`, `\\x…`) | [`text`], [`Roaring::from_text`] |
//! | PostgreSQL clients | features `postgres-types` (the `postgres` and `tokio-postgres` crates) and `sqlx` |
//! | SIMD tiers | [`simd`] |
//! | cancellation | [`set_interrupt_hook`] |
//!
//! A producing operation fails with [`CapacityError`] only when its result would
//! reach 2^30 bytes; the operators `&`, `|`, `^`, `-` panic there instead.
#![cfg_attr(not(feature = "internals"), warn(missing_docs))]

/// Declares modules that are private, except under the `internals` feature, which
/// makes them public for the crate's own tests, benchmarks and fuzz targets. They
/// are not an API: what they hold may change at any time.
macro_rules! internal_modules {
    ($($name:ident),* $(,)?) => {$(
        #[cfg(feature = "internals")]
        #[doc(hidden)]
        pub mod $name;
        #[cfg(not(feature = "internals"))]
        mod $name;
    )*};
}

internal_modules!(
    builder, chunks, container, edit, format, iter, kernels, ops, partial, portable, range, runs,
    shift, signed, sorted, stats, view, writer,
);
#[cfg(any(feature = "postgres-types", feature = "sqlx"))]
mod client;
mod interrupt;
mod owned;
pub mod text;

pub use chunks::Chunks;
pub use container::{ArrayView, BitmapView, Container, Kind, RunView, ARRAY_MAX};
pub use format::encode::Encode;
pub use format::{
    version_of, FormatError, Header, HEADER_MAX_LEN, MAGIC, VERSION as FORMAT_VERSION,
};
pub use interrupt::set_interrupt_hook;
pub use iter::Iter;
pub use ops::{Accumulator, SetOp};
pub use owned::Roaring;
pub use partial::{Partial, PartialReadError};
pub use portable::{looks_like_portable, PortableError, PortableFormat};
pub use runs::Runs;
pub use signed::{to_signed, to_signed_bits, to_stored};
pub use sorted::SortedValues;
pub use stats::{KindStats, Stats};
pub use view::{Containers, RoaringView};
pub use writer::{CapacityError, InPlace, Splice, Writer};

/// SIMD tiers: the kernels run in one tier chosen at run time (`scalar`, `neon`,
/// `avx2`, `avx512`); `SROAR_SIMD=<tier>` or [`simd::set_tier`] forces one.
pub mod simd {
    pub use crate::kernels::{available_tiers, reset_tier, set_tier, tier, Tier, Unsupported};
}
