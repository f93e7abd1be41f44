//! NEON tier (aarch64 Advanced SIMD, 128-bit vectors).
//!
//! NEON is part of the aarch64 baseline, but the tier still goes through
//! detection like the x86 tiers: the safe wrappers in the submodules call
//! `#[target_feature(enable = "neon")]` functions and are only reachable
//! through [`table`], which needs a [`NeonProof`].
//!
//! Kernels without a NEON version come from the scalar table (`..SCALAR`).

mod array;
mod bitmap;
mod values;

use super::table::{Kernels, NeonProof, Tier, SCALAR};

static TABLE: Kernels = Kernels {
    tier: Tier::Neon,
    array_intersect: array::intersect,
    array_intersect_count: array::intersect_count,
    array_intersects: array::intersects,
    array_union: array::union,
    array_xor: array::xor,
    array_difference: array::difference,
    bitmap_op_into: bitmap::op_into,
    bitmap_op_count: bitmap::op_count,
    bitmap_intersects: bitmap::intersects,
    bitmap_or_assign: bitmap::or_assign,
    bitmap_popcount: bitmap::popcount,
    bitmap_count_runs: bitmap::count_runs,
    bitmap_card_and_runs: bitmap::card_and_runs,
    fill_consecutive: values::fill_consecutive,
    ..SCALAR
};

/// The NEON table; the proof shows the CPU supports it.
pub(in crate::kernels) fn table(_proof: NeonProof) -> &'static Kernels {
    &TABLE
}
