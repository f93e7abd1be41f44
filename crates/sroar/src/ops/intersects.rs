//! Whether two views share a value, stopping at the first shared value.

use core::ops::ControlFlow;

use super::and::disjoint_ranges;
use super::pair::{for_each_run_word, is_full, Slices};
use super::walk::common;
use crate::container::Container;
use crate::kernels::{array, array_bitmap, bitmap, run};
use crate::view::RoaringView;

/// Whether `a ∩ b` is non-empty. Stops at the first container pair that shares
/// a value, and inside it at the first shared value.
pub fn intersects(a: RoaringView<'_>, b: RoaringView<'_>) -> bool {
    if disjoint_ranges(a, b) {
        return false;
    }
    common(a, b, |x, y| {
        if containers_intersect(x.c, y.c) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .is_break()
}

/// Whether two (non-empty) containers share a value.
pub(crate) fn containers_intersect(a: Container<'_>, b: Container<'_>) -> bool {
    if is_full(a) || is_full(b) {
        return true;
    }
    match (Slices::of(a), Slices::of(b)) {
        (Slices::Array(x), Slices::Array(y)) => array::intersects(x, y),
        (Slices::Array(x), Slices::Bitmap(y)) | (Slices::Bitmap(y), Slices::Array(x)) => {
            array_bitmap::intersects(x, y)
        }
        (Slices::Array(x), Slices::Run(y)) | (Slices::Run(y), Slices::Array(x)) => {
            run::run_array_intersects(y, x)
        }
        (Slices::Bitmap(x), Slices::Bitmap(y)) => bitmap::intersects(x, y),
        (Slices::Bitmap(x), Slices::Run(y)) | (Slices::Run(y), Slices::Bitmap(x)) => {
            for_each_run_word(x, y, |_, m| {
                if m != 0 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })
            .is_break()
        }
        (Slices::Run(x), Slices::Run(y)) => run::intersects(x, y),
    }
}
