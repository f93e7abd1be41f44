//! The scalar tier: every kernel in portable Rust, with no `unsafe`. The dispatched
//! functions of the sibling modules fall back to these, the SIMD tiers use them for
//! short inputs and tails, and the tier tests take them as the reference.

pub mod array;
pub mod array_bitmap;
pub mod bitmap;
pub mod run;
pub mod search;
pub mod values;
