//! Whether two views share a value, stopping at the first shared value.

use core::ops::ControlFlow;

use super::and::disjoint_ranges;
use super::meet::{meet, Test};
use super::walk::common;
use crate::view::RoaringView;

/// Whether `a ∩ b` is non-empty. Stops at the first container pair that shares
/// a value, and inside it at the first shared value.
pub fn intersects(a: RoaringView<'_>, b: RoaringView<'_>) -> bool {
    if disjoint_ranges(a, b) {
        return false;
    }
    common(a, b, |x, y| {
        if meet(&mut Test, x, y) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .is_break()
}
