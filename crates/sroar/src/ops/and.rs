//! Intersection of two views.

use core::ops::ControlFlow;

use super::pair::{for_each_run_word, is_full, payload_bytes, same, Scratch, Slices};
use super::walk::common;
use crate::container::Container;
use crate::kernels::bitmap::BitOp;
use crate::kernels::{array, array_bitmap, bitmap, run};
use crate::view::RoaringView;
use crate::writer::{CapacityError, Writer};

/// `a ∩ b`, as an unfinished [`Writer`] (size a buffer with
/// [`Writer::encoded_len`], then [`Writer::write_into`] it).
///
/// Only the keys both views hold are visited, galloping through the larger
/// directory.
pub fn and_writer(a: RoaringView<'_>, b: RoaringView<'_>) -> Writer {
    // Checked first, so that an empty result reserves nothing.
    if disjoint_ranges(a, b) {
        return Writer::new();
    }
    // A reservation, not a bound: the intersection is usually no bigger than the
    // smaller input.
    let mut w = Writer::with_capacity(
        a.container_count().min(b.container_count()),
        payload_bytes(a).min(payload_bytes(b)),
    );
    let mut s = Scratch::new();
    let _ = common(a, b, |x, y| {
        and_into(x.key, x.c, y.c, &mut w, &mut s);
        ControlFlow::Continue(())
    });
    w
}

/// `a ∩ b`, encoded.
pub fn and(a: RoaringView<'_>, b: RoaringView<'_>) -> Result<Vec<u8>, CapacityError> {
    and_writer(a, b).into_vec()
}

/// Whether the value ranges `[min, max]` of the two views do not overlap (true
/// when either is empty).
pub(crate) fn disjoint_ranges(a: RoaringView<'_>, b: RoaringView<'_>) -> bool {
    match (a.min(), a.max(), b.min(), b.max()) {
        (Some(a0), Some(a1), Some(b0), Some(b1)) => a1 < b0 || b1 < a0,
        _ => true,
    }
}

/// Pushes `a ∩ b` as container `key` (nothing when it is empty).
pub(crate) fn and_into(
    key: u64,
    a: Container<'_>,
    b: Container<'_>,
    w: &mut Writer,
    s: &mut Scratch,
) {
    if same(a, b) || is_full(b) {
        return w.push_container(key, a);
    }
    if is_full(a) {
        return w.push_container(key, b);
    }
    match (Slices::of(a), Slices::of(b)) {
        (Slices::Array(x), Slices::Array(y)) => {
            s.lows.clear();
            array::intersect(x, y, &mut s.lows);
            w.push_sorted_lows(key, &s.lows);
        }
        (Slices::Array(x), Slices::Bitmap(y)) | (Slices::Bitmap(y), Slices::Array(x)) => {
            s.lows.clear();
            array_bitmap::intersect(x, y, &mut s.lows);
            w.push_sorted_lows(key, &s.lows);
        }
        (Slices::Array(x), Slices::Run(y)) | (Slices::Run(y), Slices::Array(x)) => {
            s.lows.clear();
            run::run_array_intersect(y, x, &mut s.lows);
            w.push_sorted_lows(key, &s.lows);
        }
        (Slices::Bitmap(x), Slices::Bitmap(y)) => {
            let words = s.words();
            let card = bitmap::op_into(BitOp::And, x, y, words);
            w.push_counted_bitmap(key, words, card);
        }
        (Slices::Bitmap(x), Slices::Run(y)) | (Slices::Run(y), Slices::Bitmap(x)) => {
            let words = s.words();
            words.fill(0);
            let _ = for_each_run_word(x, y, |i, m| {
                words[i] |= m;
                ControlFlow::Continue(())
            });
            w.push_bitmap(key, words);
        }
        (Slices::Run(x), Slices::Run(y)) => {
            s.runs.clear();
            run::intersect(x, y, &mut s.runs);
            w.push_runs(key, &s.runs);
        }
    }
}
