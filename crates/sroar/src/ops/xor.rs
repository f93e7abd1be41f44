//! Symmetric difference of two views.

use super::pair::{same, toggles, union_writer, Scratch, Slices};
use super::walk::{merge, Step};
use crate::container::{Container, ARRAY_MAX};
use crate::kernels::bitmap::BitOp;
use crate::kernels::toggles::MIN_LEN;
use crate::kernels::{array, array_bitmap, bitmap, run};
use crate::view::RoaringView;
use crate::writer::{CapacityError, Writer};

/// `a ⊕ b`, as an unfinished [`Writer`]. Keys held by one view only are copied
/// verbatim.
pub fn xor_writer(a: RoaringView<'_>, b: RoaringView<'_>) -> Writer {
    // A reservation, not a bound (see `or_writer`).
    let mut w = union_writer(a, b);
    let mut s = Scratch::new();
    merge(a, b, |step| match step {
        Step::Left(x) | Step::Right(x) => w.push_counted_container(x.key, x.c, x.card),
        Step::Both(x, y) => xor_into(x.key, x.c, y.c, &mut w, &mut s),
    });
    w
}

/// `a ⊕ b`, encoded.
pub fn xor(a: RoaringView<'_>, b: RoaringView<'_>) -> Result<Vec<u8>, CapacityError> {
    xor_writer(a, b).into_vec()
}

/// Pushes `a ⊕ b` as container `key` (nothing when it is empty).
// Not inlined: inlined, it made the step closure of `xor_writer` too large to
// be inlined into the key merge, whose every step then paid a call (12-19% of
// `xor` on sets of small containers).
#[inline(never)]
pub(crate) fn xor_into(
    key: u64,
    a: Container<'_>,
    b: Container<'_>,
    w: &mut Writer,
    s: &mut Scratch,
) {
    if same(a, b) {
        return;
    }
    s.ready();
    match (Slices::of(a), Slices::of(b)) {
        (Slices::Array(x), Slices::Array(y)) if x.len() + y.len() > ARRAY_MAX as usize => {
            // Probably a bitmap: flip both arrays' bits instead of merging them.
            let words = s.words();
            words.fill(0);
            array_bitmap::flip_into(x, words);
            array_bitmap::flip_into(y, words);
            w.push_bitmap(key, words);
        }
        (Slices::Array(x), Slices::Array(y)) => {
            s.lows.clear();
            array::xor(x, y, &mut s.lows);
            w.push_sorted_lows(key, &s.lows);
        }
        (Slices::Array(x), Slices::Bitmap(y)) | (Slices::Bitmap(y), Slices::Array(x)) => {
            let words = s.load(y);
            array_bitmap::flip_into(x, words);
            w.push_bitmap(key, words);
        }
        (Slices::Array(x), Slices::Run(y)) | (Slices::Run(y), Slices::Array(x)) => {
            s.runs.clear();
            if !(y.len().min(x.len()) >= MIN_LEN && toggles(&mut s.toggles).run_array_xor(y, x, &mut s.runs)) {
                run::run_array_xor(y, x, &mut s.runs);
            }
            w.push_maximal_runs(key, &s.runs);
        }
        (Slices::Bitmap(x), Slices::Bitmap(y)) => {
            let words = s.words();
            let card = bitmap::op_into(BitOp::Xor, x, y, words);
            w.push_counted_bitmap(key, words, card);
        }
        (Slices::Bitmap(x), Slices::Run(y)) | (Slices::Run(y), Slices::Bitmap(x)) => {
            let words = s.load(x);
            for r in y {
                let (lo, hi) = run::bounds(*r);
                bitmap::flip_range(words, lo, hi);
            }
            w.push_bitmap(key, words);
        }
        (Slices::Run(x), Slices::Run(y)) => {
            s.runs.clear();
            if !(x.len().min(y.len()) >= MIN_LEN && toggles(&mut s.toggles).run_xor(x, y, &mut s.runs)) {
                run::xor(x, y, &mut s.runs);
            }
            w.push_maximal_runs(key, &s.runs);
        }
    }
}
