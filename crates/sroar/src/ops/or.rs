//! Union of two views.

use super::pair::{is_full, same, toggles, union_writer, Scratch, Slices};
use super::walk::{merge, seek, Step};
use crate::container::bitmap::BITMAP_BYTES;
use crate::container::{Container, ARRAY_MAX};
use crate::kernels::bitmap::BitOp;
use crate::kernels::toggles::MIN_LEN;
use crate::kernels::{array, array_bitmap, bitmap, run};
use crate::view::RoaringView;
use crate::writer::{CapacityError, Splice, Writer};

/// `a ∪ b`, as an unfinished [`Writer`]. Keys held by one view only are copied
/// verbatim.
pub fn or_writer(a: RoaringView<'_>, b: RoaringView<'_>) -> Writer {
    // A reservation, not a bound: a union can outgrow its inputs (an array's
    // isolated values merged into a long run make a run container bigger than both).
    let mut w = union_writer(a, b);
    let mut s = Scratch::new();
    merge(a, b, |step| match step {
        Step::Left(x) | Step::Right(x) => w.push_counted_container(x.key, x.c, x.card),
        Step::Both(x, y) => or_into(x.key, x.c, y.c, &mut w, &mut s),
    });
    w
}

/// `a ∪ b` as a splice over the input with more payload: its containers that the
/// other input lacks are copied once, straight into the result.
pub fn or_splice<'a>(a: RoaringView<'a>, b: RoaringView<'a>) -> Splice<'a> {
    if a.payload_len() >= b.payload_len() {
        or_splice_over(a, b)
    } else {
        or_splice_over(b, a)
    }
}

/// `base ∪ other` as a splice over `base`, whatever their sizes.
pub fn or_splice_over<'a>(base: RoaringView<'a>, other: RoaringView<'a>) -> Splice<'a> {
    let mut sp = Splice::new(base);
    let (dir, od) = (base.directory(), other.directory());
    sp.reserve(other.payload_len() + base.payload_len().min(od.len() * BITMAP_BYTES));
    let mut s = Scratch::new();
    let mut i = 0;
    for j in 0..od.len() {
        let key = od.key(j);
        i = seek(&dir, i, key);
        let c = other.container_at(&od, j);
        if i < dir.len() && dir.key(i) == key {
            let kept = base.container_at(&dir, i);
            if same(kept, c) || is_full(kept) {
                continue;
            }
            if sp.add_to_bitmap(i, c) {
                i += 1;
                continue;
            }
            sp.replace(i);
            or_into(key, kept, c, sp.writer(), &mut s);
            i += 1;
        } else {
            sp.keep_to(i);
            sp.writer().push_container(key, c);
        }
    }
    sp.finish()
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
    s.ready();
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
            w.push_bitmap_with(key, y, |words| {
                array_bitmap::set_into_bytes(x, words)
            });
        }
        (Slices::Array(x), Slices::Run(y)) | (Slices::Run(y), Slices::Array(x)) => {
            s.runs.clear();
            // A sparse array against many runs is left to the walk, which
            // stores the runs between its values in blocks: the toggle points
            // cost a pass over every run.
            let toggled = y.len().min(x.len()) >= MIN_LEN
                && !run::union_is_array_driven(y, x)
                && toggles(&mut s.toggles).run_array_union(y, x, &mut s.runs);
            if !toggled {
                run::run_array_union(y, x, &mut s.runs);
            }
            w.push_maximal_runs(key, &s.runs);
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
            w.push_maximal_runs(key, &s.runs);
        }
    }
}
