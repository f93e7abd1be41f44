//! Set algebra over serialized bitmaps: every operation reads its inputs in place
//! and produces canonical output through a [`Writer`](crate::Writer).
//!
//! | operation | files | forms |
//! |---|---|---|
//! | `a ∩ b`, `a ∪ b`, `a ⊕ b`, `a \ b` | `and.rs`, `or.rs`, `xor.rs`, `andnot.rs` | [`and`](and()), [`and_writer`], … |
//! | their cardinalities | `len.rs` | [`and_len`], [`or_len`], [`xor_len`], [`andnot_len`] |
//! | tests | `intersects.rs`, `subset.rs`, `order.rs` | [`intersects`](intersects()), [`is_subset`], [`eq`], [`cmp`] |
//! | n-way | `or_many.rs`, `and_many.rs`, `accumulate/` | [`or_many`], [`and_many`], [`OrAccumulator`], [`AndAccumulator`], [`XorAccumulator`], [`BuildAccumulator`] |
//!
//! Below the operations, `walk.rs` merges two directories (visiting the keys in
//! order and stopping when the visitor breaks), and `pair.rs` turns a container
//! pair into kernel slices and holds the shared scratch space and the few mixed
//! helpers the [`kernels`](crate::kernels) lack. Each operation's per-key `match`
//! covers all nine container kind pairs.
//!
//! Each producing operation has two forms: `op_writer(a, b) -> Writer`, which
//! leaves the caller to size a buffer with [`Writer::encoded_len`](crate::Writer::encoded_len)
//! and fill it with [`Writer::write_into`](crate::Writer::write_into), and
//! `op(a, b) -> Result<Vec<u8>, CapacityError>`. Containers present in only one
//! input are copied verbatim: a valid view holds only canonical containers, so
//! the copy is canonical too.
//!
//! ```
//! use sroar::{from_sorted, ops, RoaringView};
//!
//! let (x, y) = (from_sorted(&[1, 2, 3, 1 << 40]).unwrap(), from_sorted(&[2, 3, 4]).unwrap());
//! let (a, b) = (RoaringView::from_bytes(&x).unwrap(), RoaringView::from_bytes(&y).unwrap());
//! let both = ops::and(a, b).unwrap();
//! assert_eq!(RoaringView::from_bytes(&both).unwrap().iter().collect::<Vec<_>>(), [2, 3]);
//! assert_eq!((ops::and_len(a, b), ops::or_len(a, b)), (2, 5));
//! assert!(ops::intersects(a, b) && !ops::is_subset(a, b));
//! assert_eq!(ops::cmp(a, b), std::cmp::Ordering::Less);
//!
//! // Sizing the output once, as a caller with its own allocator does.
//! let w = ops::or_writer(a, b);
//! let mut buf = vec![0u8; w.encoded_len().unwrap()];
//! w.write_into(&mut buf).unwrap();
//! assert_eq!(RoaringView::from_bytes(&buf).unwrap().len(), 5);
//! ```

mod accumulate;
mod and;
mod and_many;
mod andnot;
mod intersects;
mod key_hash;
mod len;
mod meet;
mod or;
mod or_many;
mod order;
mod pair;
mod subset;
mod walk;
mod xor;

pub use accumulate::{
    Accumulator, AndAccumulator, BuildAccumulator, OrAccumulator, SetOp, XorAccumulator,
};
pub use and::{and, and_writer, are_disjoint_by_headers};
pub use and_many::and_many;
pub use andnot::{andnot, andnot_writer};
pub use intersects::intersects;
pub use len::{and_len, andnot_len, or_len, xor_len};
pub use or::{or, or_writer};
pub use or_many::or_many;
pub use order::{cmp, eq};
pub use subset::{is_subset, is_subset_by_headers};
pub use xor::{xor, xor_writer};
