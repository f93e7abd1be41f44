//! Union of two views.

use super::pair::{disjoint_writer, is_full, same, Scratch, Slices};
use super::walk::{merge, Step};
use crate::container::{Container, ARRAY_MAX};
use crate::kernels::bitmap::BitOp;
use crate::kernels::{array, array_bitmap, bitmap, run};
use crate::view::RoaringView;
use crate::writer::{CapacityError, Writer};

/// `a ∪ b`, as an unfinished [`Writer`]. Keys held by one view only are copied
/// verbatim.
pub fn or_writer(a: RoaringView<'_>, b: RoaringView<'_>) -> Writer {
    // A reservation, not a bound: a union can outgrow its inputs (an array's
    // isolated values merged into a long run make a run container bigger than both).
    let mut w = disjoint_writer(&[a, b]);
    let mut s = Scratch::new();
    merge(a, b, |step| match step {
        Step::Left(x) | Step::Right(x) => w.push_container(x.key, x.c),
        Step::Both(x, y) => or_into(x.key, x.c, y.c, &mut w, &mut s),
    });
    w
}

/// `a ∪ b`, encoded.
pub fn or(a: RoaringView<'_>, b: RoaringView<'_>) -> Result<Vec<u8>, CapacityError> {
    or_writer(a, b).into_vec()
}

/// Pushes `a ∪ b` as container `key`.
pub(crate) fn or_into(
    key: u64,
    a: Container<'_>,
    b: Container<'_>,
    w: &mut Writer,
    s: &mut Scratch,
) {
    if same(a, b) || is_full(a) {
        return w.push_container(key, a);
    }
    if is_full(b) {
        return w.push_container(key, b);
    }
    match (Slices::of(a), Slices::of(b)) {
        (Slices::Array(x), Slices::Array(y)) if x.len() + y.len() > ARRAY_MAX as usize => {
            // Probably a bitmap: set both arrays' bits instead of merging them.
            let words = s.words();
            words.fill(0);
            array_bitmap::set_into(x, words);
            array_bitmap::set_into(y, words);
            w.push_bitmap(key, words);
        }
        (Slices::Array(x), Slices::Array(y)) => {
            s.lows.clear();
            array::union(x, y, &mut s.lows);
            w.push_sorted_lows(key, &s.lows);
        }
        (Slices::Array(x), Slices::Bitmap(y)) | (Slices::Bitmap(y), Slices::Array(x)) => {
            let words = s.load(y);
            array_bitmap::set_into(x, words);
            w.push_bitmap(key, words);
        }
        (Slices::Array(x), Slices::Run(y)) | (Slices::Run(y), Slices::Array(x)) => {
            s.runs.clear();
            run::run_array_union(y, x, &mut s.runs);
            w.push_runs(key, &s.runs);
        }
        (Slices::Bitmap(x), Slices::Bitmap(y)) => {
            let words = s.words();
            let card = bitmap::op_into(BitOp::Or, x, y, words);
            w.push_counted_bitmap(key, words, card);
        }
        (Slices::Bitmap(x), Slices::Run(y)) | (Slices::Run(y), Slices::Bitmap(x)) => {
            let words = s.load(x);
            run::set_into(y, words);
            w.push_bitmap(key, words);
        }
        (Slices::Run(x), Slices::Run(y)) => {
            s.runs.clear();
            run::union(x, y, &mut s.runs);
            w.push_runs(key, &s.runs);
        }
    }
}
