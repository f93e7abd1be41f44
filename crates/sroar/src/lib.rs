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
//! reach 2^30 bytes.

pub mod builder;
pub mod container;
pub mod edit;
pub mod format;
mod interrupt;
pub mod iter;
pub mod kernels;
pub mod ops;
pub mod partial;
pub mod portable;
pub mod range;
pub mod runs;
pub mod shift;
mod sign;
pub mod signed;
pub mod sorted;
pub mod stats;
pub mod view;
pub mod writer;

pub use builder::{empty, from_range, from_sorted, from_unsorted, from_values};
pub use container::{Container, Kind};
pub use format::FormatError;
pub use interrupt::set_interrupt_hook;
pub use iter::Iter;
pub use ops::{AndAccumulator, BuildAccumulator, OrAccumulator, XorAccumulator};
pub use portable::{from_portable, looks_like_portable, to_portable, PortableError};
pub use runs::{from_runs, Runs};
pub use sorted::SortedValues;
pub use stats::{KindStats, Stats};
pub use view::RoaringView;
pub use writer::{CapacityError, Writer};
