//! AVX2 tier (x86-64 with AVX2, POPCNT, BMI1, BMI2, LZCNT).
//!
//! The safe wrappers in the submodules call `#[target_feature]` functions;
//! they are only reachable through [`table`], which needs an [`Avx2Proof`]
//! that the dispatcher creates only after runtime detection.

mod array;
mod array_bitmap;
mod ascending;
mod bitmap;
mod compact;
mod run;
mod skewed;
mod values;

use super::scalar;
use super::table::{Avx2Proof, Kernels, Tier};

static TABLE: Kernels = Kernels {
    tier: Tier::Avx2,
    array_intersect: array::intersect,
    array_intersect_count: array::intersect_count,
    array_intersects: array::intersects,
    array_union: skewed::union,
    array_xor: skewed::xor,
    array_difference: array::difference,
    bitmap_op_into: bitmap::op_into,
    bitmap_op_count: bitmap::op_count,
    bitmap_intersects: bitmap::intersects,
    bitmap_or_assign: bitmap::or_assign,
    bitmap_popcount: bitmap::popcount,
    bitmap_count_runs: bitmap::count_runs,
    bitmap_to_array: bitmap::to_array,
    array_ascending_runs: ascending::ascending_runs,
    array_runs_into: scalar::array::runs_into,
    bitmap_card_and_runs: bitmap::card_and_runs,
    fill_consecutive: values::fill_consecutive,
    bits_into: values::bits_into,
    run_checked_card: run::checked_card,
    run_array_intersect: run::run_array_intersect,
    run_array_count: run::run_array_count,
    array_run_difference: run::array_run_difference,
    run_set_into: run::set_into,
    array_bitmap_intersect: array_bitmap::intersect,
    array_bitmap_difference: array_bitmap::difference,
    array_bitmap_set_into: array_bitmap::set_into,
    array_bitmap_set_into_bytes: array_bitmap::set_into_bytes,
    array_bitmap_clear_from: array_bitmap::clear_from,
    array_bitmap_flip_into: array_bitmap::flip_into,
};

/// The AVX2 table; the proof shows the CPU supports it.
pub(in crate::kernels) fn table(_proof: Avx2Proof) -> &'static Kernels {
    &TABLE
}
