//! Difference of two views.

use core::ops::ControlFlow;

use super::and::disjoint_ranges;
use super::pair::{for_each_run_word, subset_writer, is_full, same, toggles, Scratch, Slices};
use super::meet::{meet, Test};
use super::walk::{common_at, merge, Slot, Step};
use crate::container::bitmap::BITMAP_BYTES;
use crate::container::Container;
use crate::kernels::bitmap::BitOp;
use crate::kernels::toggles::MIN_LEN;
use crate::kernels::{array, array_bitmap, bitmap, run};
use crate::view::RoaringView;
use crate::writer::{CapacityError, Splice, Writer};

/// `a \ b`, as an unfinished [`Writer`]. Keys of `a` that `b` lacks are copied
/// verbatim.
pub fn andnot_writer(a: RoaringView<'_>, b: RoaringView<'_>) -> Writer {
    let mut w = subset_writer(a);
    if disjoint_ranges(a, b) {
        for (key, c) in a.containers() {
            w.push_container(key, c);
        }
        return w;
    }
    let mut s = Scratch::new();
    merge(a, b, |step| match step {
        Step::Left(x) => w.push_counted_container(x.key, x.c, x.card),
        Step::Right(_) => {}
        Step::Both(x, y) => andnot_into(x.key, x.c, y.c, &mut w, &mut s),
    });
    w
}

/// `a \\ b` as a splice over `a`: its containers whose keys `b` lacks are copied
/// once, straight into the result, and the directories are walked by galloping,
/// so a small `b` costs little more than that copy.
pub fn andnot_splice<'a>(a: RoaringView<'a>, b: RoaringView<'a>) -> Splice<'a> {
    let mut sp = Splice::new(a);
    if disjoint_ranges(a, b) {
        return sp.finish();
    }
    let (da, db) = (a.directory(), b.directory());
    sp.reserve(a.payload_len().min(db.len() * BITMAP_BYTES));
    let mut s = Scratch::new();
    let _ = common_at(&da, &db, |i, j| {
        let (x, y) = (Slot::at(a, &da, i), Slot::at(b, &db, j));
        // Removing only absent values keeps the container as it is.
        if meet(&mut Test, x, y) {
            sp.replace(i);
            andnot_into(x.key, x.c, y.c, sp.writer(), &mut s);
        }
        ControlFlow::Continue(())
    });
    sp.finish()
}

/// `a \ b`, encoded.
pub fn andnot(a: RoaringView<'_>, b: RoaringView<'_>) -> Result<Vec<u8>, CapacityError> {
    // Nothing of `a` is removed: its canonical bytes are the result's.
    if disjoint_ranges(a, b) {
        return Ok(a.as_bytes().to_vec());
    }
    andnot_writer(a, b).into_vec()
}

/// Pushes `a \ b` as container `key` (nothing when it is empty).
pub(crate) fn andnot_into(
    key: u64,
    a: Container<'_>,
    b: Container<'_>,
    w: &mut Writer,
    s: &mut Scratch,
) {
    if same(a, b) || is_full(b) {
        return;
    }
    s.ready();
    match (Slices::of(a), Slices::of(b)) {
        (Slices::Array(x), Slices::Array(y)) => {
            s.lows.clear();
            array::difference(x, y, &mut s.lows);
            w.push_sorted_lows(key, &s.lows);
        }
        (Slices::Array(x), Slices::Bitmap(y)) => {
            s.lows.clear();
            array_bitmap::difference(x, y, &mut s.lows);
            w.push_sorted_lows(key, &s.lows);
        }
        (Slices::Array(x), Slices::Run(y)) => {
            s.lows.clear();
            run::array_run_difference(x, y, &mut s.lows);
            w.push_sorted_lows(key, &s.lows);
        }
        (Slices::Bitmap(x), Slices::Array(y)) => {
            let words = s.load(x);
            array_bitmap::clear_from(y, words);
            w.push_bitmap(key, words);
        }
        (Slices::Bitmap(x), Slices::Bitmap(y)) => {
            let words = s.words();
            let card = bitmap::op_into(BitOp::AndNot, x, y, words);
            w.push_counted_bitmap(key, words, card);
        }
        (Slices::Bitmap(x), Slices::Run(y)) => {
            let words = s.load(x);
            for r in y {
                let (lo, hi) = run::bounds(*r);
                bitmap::clear_range(words, lo, hi);
            }
            w.push_bitmap(key, words);
        }
        (Slices::Run(x), Slices::Array(y)) => {
            s.runs.clear();
            let toggled = x.len().min(y.len()) >= MIN_LEN
                && toggles(&mut s.toggles).run_array_difference(x, y, &mut s.runs);
            if !toggled {
                run::run_array_difference(x, y, &mut s.runs);
            }
            w.push_maximal_runs(key, &s.runs);
        }
        (Slices::Run(x), Slices::Bitmap(y)) => {
            // The runs' words, minus the bitmap: `runs & !bitmap` word by word.
            let words = s.words();
            words.fill(0);
            run::set_into(x, words);
            let _ = for_each_run_word(y, x, |i, m| {
                words[i] &= !m;
                ControlFlow::Continue(())
            });
            w.push_bitmap(key, words);
        }
        (Slices::Run(x), Slices::Run(y)) => {
            s.runs.clear();
            run::difference(x, y, &mut s.runs);
            w.push_maximal_runs(key, &s.runs);
        }
    }
}
