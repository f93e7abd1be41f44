//! AVX-512 tier (F, BW, VL, VPOPCNTDQ, VBMI2, plus everything of AVX2).
//!
//! Kernels without an AVX-512 version use the AVX2 ones. As for AVX2, the
//! safe wrappers are only reachable through [`table`], which needs an
//! [`Avx512Proof`] from the dispatcher's runtime detection.

mod array;
mod ascending;
mod bitmap;
mod merge;
mod run_array;
mod skewed;
mod values;

use std::sync::OnceLock;

use super::table::{Avx512Proof, Kernels, Tier};

/// The AVX2 table, for the kernels (and short inputs) AVX-512 leaves to it.
static FALLBACK: OnceLock<&'static Kernels> = OnceLock::new();

#[inline]
fn fallback() -> &'static Kernels {
    FALLBACK
        .get()
        .expect("set before the AVX-512 table is handed out")
}

/// The AVX-512 table; the proof shows the CPU supports it.
pub(in crate::kernels) fn table(proof: Avx512Proof) -> &'static Kernels {
    static TABLE: OnceLock<Kernels> = OnceLock::new();
    let avx2 = *FALLBACK.get_or_init(|| super::avx2::table(proof.avx2()));
    TABLE.get_or_init(|| Kernels {
        tier: Tier::Avx512,
        array_intersect: array::intersect,
        array_intersect_count: array::intersect_count,
        array_intersects: array::intersects,
        array_difference: array::difference,
        array_union: merge::union,
        array_xor: merge::xor,
        bitmap_op_into: bitmap::op_into,
        bitmap_op_count: bitmap::op_count,
        bitmap_intersects: bitmap::intersects,
        bitmap_or_assign: bitmap::or_assign,
        bitmap_popcount: bitmap::popcount,
        bitmap_count_runs: bitmap::count_runs,
        bitmap_to_array: bitmap::to_array,
        bitmap_card_and_runs: bitmap::card_and_runs,
        fill_consecutive: values::fill_consecutive,
        array_ascending_runs: ascending::ascending_runs,
        array_runs_into: ascending::runs_into,
        run_array_intersect: run_array::intersect,
        run_array_count: run_array::count,
        array_run_difference: run_array::difference,
        ..*avx2
    })
}
