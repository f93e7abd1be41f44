//! Zero-decode serialized 64-bit roaring bitmaps.
//!
//! A sroar bitmap is one little-endian byte buffer (see `FORMAT.md`); every
//! operation reads it in place, at any address, with no decode step.
//!
//! ```
//! use sroar::{from_sorted, RoaringView};
//!
//! let bytes = from_sorted(&[1, 5, 1 << 40]).unwrap();
//! let view = RoaringView::from_bytes(&bytes).unwrap();
//! assert!(view.contains(5));
//! assert_eq!(view.rank(5), 2);
//! let bigger = view.insert(7).unwrap();
//! assert_eq!(RoaringView::from_bytes(&bigger).unwrap().len(), 4);
//! ```
//!
//! Queries are methods of [`RoaringView`]; every operation that produces a set
//! returns a new canonical buffer (`Vec<u8>`), or a [`CapacityError`] when it would
//! reach 2^30 bytes. This file is the crate's one door: everything a user needs is
//! re-exported here, and the modules behind it are private (the crate's own tests,
//! benchmarks and fuzz targets reach them through the `internals` feature).
//!
//! | what | items |
//! |---|---|
//! | reading a buffer | [`RoaringView`], [`Iter`], [`Runs`], [`Container`] and its views, [`Stats`] |
//! | keeping or shipping one | [`Roaring`], an owned validated buffer (serde with the `serde` feature) |
//! | building one | [`from_sorted`], [`from_unsorted`], [`from_values`], [`from_range`], [`from_runs`], [`empty`], [`Writer`], [`SortedValues`]; [`Encode`] writes any of them into the caller's memory |
//! | set algebra | [`and`], [`or`], [`xor`], [`andnot`] (and `_writer` forms), [`and_len`], [`or_len`], [`xor_len`], [`andnot_len`], [`intersects`], [`are_disjoint_by_headers`], [`is_subset`], [`is_subset_by_headers`], [`eq`], [`cmp`], [`or_many`], [`and_many`] |
//! | streaming | [`Accumulator`] of a [`SetOp`] chosen at run time; [`OrAccumulator`], [`AndAccumulator`], [`XorAccumulator`], [`BuildAccumulator`] |
//! | reading a few byte ranges (TOAST slices) | [`header_from_prefix`], [`contains_from_ranges`], [`rank_from_ranges`], [`index_from_ranges`], [`select_from_ranges`] |
//! | the standard portable format | [`to_portable`], [`from_portable`], [`portable_len`], [`write_portable_into`], [`from_portable_writer`], [`looks_like_portable`]; of signed values: [`from_portable_signed`], [`write_portable_signed_into`], [`to_portable_signed`]; the 32-bit format: [`from_portable32_writer`], [`portable32_len`], [`write_portable32_into`] |
//! | signed values (SQL `bigint`) | [`to_stored`], [`to_signed`], [`to_signed_bits`], [`from_signed`] |
//! | SIMD tiers | [`Tier`], [`tier`], [`set_tier`], [`reset_tier`], [`available_tiers`] |
//! | cancellation | [`set_interrupt_hook`] |

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
    builder, container, edit, format, iter, kernels, ops, partial, portable, range, runs, shift,
    signed, sorted, stats, view, writer,
);
mod interrupt;
mod owned;

pub use builder::{empty, from_range, from_sorted, from_unsorted, from_values};
pub use container::{
    ArrayIter, ArrayView, BitmapIter, BitmapView, Container, Kind, RunIter, RunView, ARRAY_MAX,
};
pub use format::encode::Encode;
pub use format::{version_of, FormatError, Header, HEADER_MAX_LEN, VERSION as FORMAT_VERSION};
pub use interrupt::set_interrupt_hook;
pub use iter::Iter;
pub use kernels::{available_tiers, reset_tier, set_tier, tier, Tier, Unsupported};
pub use ops::{
    and, and_len, and_many, and_writer, andnot, andnot_len, andnot_writer, are_disjoint_by_headers,
    cmp, eq, intersects, is_subset, is_subset_by_headers, or, or_len, or_many, or_writer, xor,
    xor_len, xor_writer, Accumulator, AndAccumulator, BuildAccumulator, OrAccumulator, SetOp,
    XorAccumulator,
};
pub use owned::Roaring;
pub use partial::{
    contains as contains_from_ranges, header as header_from_prefix, index as index_from_ranges,
    rank as rank_from_ranges, select as select_from_ranges, PartialReadError,
};
pub use portable::{
    from_portable, from_portable32_writer, from_portable_signed, from_portable_writer,
    looks_like_portable, portable32_len, portable_len, to_portable, to_portable_signed,
    write_portable32_into, write_portable_into, write_portable_signed_into, PortableError,
};
pub use runs::{from_runs, Runs};
pub use signed::{from_signed, to_signed, to_signed_bits, to_stored};
pub use sorted::SortedValues;
pub use stats::{KindStats, Stats};
pub use view::RoaringView;
pub use writer::{CapacityError, Writer};
