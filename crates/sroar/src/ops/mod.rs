//! Set algebra over serialized bitmaps: every operation reads its inputs in place
//! and produces canonical output through a [`Writer`](crate::Writer).
//!
//! | operation | files |
//! |---|---|
//! | `a ∩ b`, `a ∪ b`, `a ⊕ b`, `a \ b` | `and.rs`, `or.rs`, `xor.rs`, `andnot.rs` |
//! | their cardinalities | `len.rs` |
//! | tests | `intersects.rs`, `subset.rs`, `order.rs` |
//! | n-way | `or_many.rs`, `and_many.rs`, `accumulate/` |
//!
//! Users reach them as methods of [`RoaringView`] (`a.and(&b)`, `a.and_len(&b)`,
//! `a.is_subset(&b)`, ...), as the operators `&`, `|`, `^` and `-` on views, and as
//! [`SetOp`] (`SetOp::And.apply(a, b)`: a [`Writer`](crate::Writer), for a caller
//! that sizes and writes the result into its own memory).
//!
//! Below the operations, `walk.rs` merges two directories (visiting the keys in
//! order and stopping when the visitor breaks), and `pair.rs` turns a container
//! pair into kernel slices and holds the shared scratch space and the few mixed
//! helpers the kernels lack. Each operation's per-key `match` covers all nine
//! container kind pairs. Containers present in only one input are copied verbatim:
//! a valid view holds only canonical containers, so the copy is canonical too.

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

pub use accumulate::{Accumulator, SetOp};
use accumulate::XorAccumulator;
pub(crate) use and::{and_len_lookup, and_lookup};
pub use and::{and, and_writer, are_disjoint_by_headers};
pub use and_many::{and_many, and_many_len};
pub use andnot::{andnot, andnot_splice, andnot_writer};
pub use intersects::intersects;
pub use len::{and_len, andnot_len, or_len, xor_len};
pub use or::{or, or_splice, or_splice_over, or_writer};
pub use or_many::{or_many, or_many_len};
pub use order::cmp;
pub use subset::{is_subset, is_subset_by_headers};
pub use xor::{xor, xor_writer};
pub(crate) use walk::seek;

mod methods;
