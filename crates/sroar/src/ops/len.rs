//! Cardinality-only forms: nothing is materialized.
//!
//! All four come from `|a ∩ b|`, counted per shared key with the count kernels,
//! and the O(1) header cardinalities:
//! `|a ∪ b| = |a| + |b| - |a ∩ b|`, `|a ⊕ b| = |a| + |b| - 2 |a ∩ b|`,
//! `|a \ b| = |a| - |a ∩ b|`. With [`or_len`], a Jaccard index is
//! `and_len(a, b) as f64 / or_len(a, b) as f64`.

use core::ops::ControlFlow;

use super::and::disjoint_ranges;
use super::pair::{for_each_run_word, is_full, same, Slices};
use super::walk::{common, Slot};
use crate::kernels::bitmap::BitOp;
use crate::kernels::{array, array_bitmap, bitmap, run};
use crate::view::RoaringView;

/// `|a ∩ b|`.
pub fn and_len(a: RoaringView<'_>, b: RoaringView<'_>) -> u64 {
    if disjoint_ranges(a, b) {
        return 0;
    }
    let mut n = 0u64;
    let _ = common(a, b, |x, y| {
        n += u64::from(and_card(x, y));
        ControlFlow::Continue(())
    });
    n
}

/// `|a ∪ b|`.
pub fn or_len(a: RoaringView<'_>, b: RoaringView<'_>) -> u64 {
    a.len() + b.len() - and_len(a, b)
}

/// `|a ⊕ b|`.
pub fn xor_len(a: RoaringView<'_>, b: RoaringView<'_>) -> u64 {
    a.len() + b.len() - 2 * and_len(a, b)
}

/// `|a \ b|`.
pub fn andnot_len(a: RoaringView<'_>, b: RoaringView<'_>) -> u64 {
    a.len() - and_len(a, b)
}

/// `|a ∩ b|` of one container pair.
pub(crate) fn and_card(a: Slot<'_>, b: Slot<'_>) -> u32 {
    if same(a.c, b.c) || is_full(b.c) {
        return a.card;
    }
    if is_full(a.c) {
        return b.card;
    }
    match (Slices::of(a.c), Slices::of(b.c)) {
        (Slices::Array(x), Slices::Array(y)) => array::intersect_count(x, y),
        (Slices::Array(x), Slices::Bitmap(y)) | (Slices::Bitmap(y), Slices::Array(x)) => {
            array_bitmap::intersect_count(x, y)
        }
        (Slices::Array(x), Slices::Run(y)) | (Slices::Run(y), Slices::Array(x)) => {
            run::run_array_count(y, x)
        }
        (Slices::Bitmap(x), Slices::Bitmap(y)) => bitmap::op_count(BitOp::And, x, y),
        (Slices::Bitmap(x), Slices::Run(y)) | (Slices::Run(y), Slices::Bitmap(x)) => {
            let mut n = 0;
            let _ = for_each_run_word(x, y, |_, m| {
                n += m.count_ones();
                ControlFlow::Continue(())
            });
            n
        }
        (Slices::Run(x), Slices::Run(y)) => run::intersect_count(x, y),
    }
}
