//! Where two containers of the same key meet: the one match over the nine container
//! kind pairs of an intersection, driving a sink that turns each pair's
//! intersection into what the caller wants. [`Write`] pushes it into a
//! [`Writer`], [`Count`] counts it, [`Test`] answers whether it is empty, each with
//! the kernel form that costs least (a result, a count, or a test that stops at the
//! first shared value).

use core::ops::ControlFlow;

use super::pair::{for_each_run_word, is_full, same, Scratch, Slices};
use super::walk::Slot;
use crate::container::Container;
use crate::kernels::bitmap::BitOp;
use crate::kernels::{array, array_bitmap, bitmap, run};
use crate::writer::Writer;

/// What the intersection of one container pair becomes. The arguments are the
/// two containers' payloads as kernel slices; the pair's key is the caller's.
pub(crate) trait Meet {
    type Out;
    /// One container holds all of the other: the intersection is `c`, of `card`
    /// values.
    fn whole(&mut self, key: u64, c: Container<'_>, card: u32) -> Self::Out;
    fn arrays(&mut self, key: u64, x: &[[u8; 2]], y: &[[u8; 2]]) -> Self::Out;
    fn array_bitmap(&mut self, key: u64, x: &[[u8; 2]], y: &[[u8; 8]]) -> Self::Out;
    fn array_run(&mut self, key: u64, x: &[[u8; 2]], y: &[[u8; 4]]) -> Self::Out;
    fn bitmaps(&mut self, key: u64, x: &[[u8; 8]], y: &[[u8; 8]]) -> Self::Out;
    fn bitmap_run(&mut self, key: u64, x: &[[u8; 8]], y: &[[u8; 4]]) -> Self::Out;
    fn runs(&mut self, key: u64, x: &[[u8; 4]], y: &[[u8; 4]]) -> Self::Out;
}

/// The intersection of two non-empty containers of one key, into `m`.
#[inline]
pub(crate) fn meet<M: Meet>(m: &mut M, a: Slot<'_>, b: Slot<'_>) -> M::Out {
    let key = a.key;
    // The cardinalities first: they are at hand, and most pairs differ there,
    // which saves a call to compare their bytes.
    if (a.card == b.card && same(a.c, b.c)) || is_full(b.c) {
        return m.whole(key, a.c, a.card);
    }
    if is_full(a.c) {
        return m.whole(key, b.c, b.card);
    }
    match (Slices::of(a.c), Slices::of(b.c)) {
        (Slices::Array(x), Slices::Array(y)) => m.arrays(key, x, y),
        (Slices::Array(x), Slices::Bitmap(y)) | (Slices::Bitmap(y), Slices::Array(x)) => {
            m.array_bitmap(key, x, y)
        }
        (Slices::Array(x), Slices::Run(y)) | (Slices::Run(y), Slices::Array(x)) => {
            m.array_run(key, x, y)
        }
        (Slices::Bitmap(x), Slices::Bitmap(y)) => m.bitmaps(key, x, y),
        (Slices::Bitmap(x), Slices::Run(y)) | (Slices::Run(y), Slices::Bitmap(x)) => {
            m.bitmap_run(key, x, y)
        }
        (Slices::Run(x), Slices::Run(y)) => m.runs(key, x, y),
    }
}

/// Pushes each pair's intersection into a [`Writer`] (nothing when it is empty).
pub(crate) struct Write<'w> {
    pub(crate) w: &'w mut Writer,
    pub(crate) s: Scratch,
}

impl Meet for Write<'_> {
    type Out = ();

    fn whole(&mut self, key: u64, c: Container<'_>, card: u32) {
        self.w.push_counted_container(key, c, card);
    }

    fn arrays(&mut self, key: u64, x: &[[u8; 2]], y: &[[u8; 2]]) {
        self.s.ready();
        self.s.lows.clear();
        array::intersect(x, y, &mut self.s.lows);
        self.w.push_sorted_lows(key, &self.s.lows);
    }

    fn array_bitmap(&mut self, key: u64, x: &[[u8; 2]], y: &[[u8; 8]]) {
        self.s.ready();
        self.s.lows.clear();
        array_bitmap::intersect(x, y, &mut self.s.lows);
        self.w.push_sorted_lows(key, &self.s.lows);
    }

    fn array_run(&mut self, key: u64, x: &[[u8; 2]], y: &[[u8; 4]]) {
        self.s.ready();
        self.s.lows.clear();
        run::run_array_intersect(y, x, &mut self.s.lows);
        self.w.push_sorted_lows(key, &self.s.lows);
    }

    fn bitmaps(&mut self, key: u64, x: &[[u8; 8]], y: &[[u8; 8]]) {
        let words = self.s.words();
        let card = bitmap::op_into(BitOp::And, x, y, words);
        self.w.push_counted_bitmap(key, words, card);
    }

    fn bitmap_run(&mut self, key: u64, x: &[[u8; 8]], y: &[[u8; 4]]) {
        let words = self.s.words();
        words.fill(0);
        let _ = for_each_run_word(x, y, |i, m| {
            words[i] |= m;
            ControlFlow::Continue(())
        });
        self.w.push_bitmap(key, words);
    }

    fn runs(&mut self, key: u64, x: &[[u8; 4]], y: &[[u8; 4]]) {
        self.s.ready();
        self.s.runs.clear();
        run::intersect(x, y, &mut self.s.runs);
        self.w.push_maximal_runs(key, &self.s.runs);
    }
}

/// Counts each pair's intersection.
pub(crate) struct Count;

impl Meet for Count {
    type Out = u32;

    fn whole(&mut self, _key: u64, _c: Container<'_>, card: u32) -> u32 {
        card
    }

    fn arrays(&mut self, _key: u64, x: &[[u8; 2]], y: &[[u8; 2]]) -> u32 {
        array::intersect_count(x, y)
    }

    fn array_bitmap(&mut self, _key: u64, x: &[[u8; 2]], y: &[[u8; 8]]) -> u32 {
        array_bitmap::intersect_count(x, y)
    }

    fn array_run(&mut self, _key: u64, x: &[[u8; 2]], y: &[[u8; 4]]) -> u32 {
        run::run_array_count(y, x)
    }

    fn bitmaps(&mut self, _key: u64, x: &[[u8; 8]], y: &[[u8; 8]]) -> u32 {
        bitmap::op_count(BitOp::And, x, y)
    }

    fn bitmap_run(&mut self, _key: u64, x: &[[u8; 8]], y: &[[u8; 4]]) -> u32 {
        let mut n = 0;
        let _ = for_each_run_word(x, y, |_, m| {
            n += m.count_ones();
            ControlFlow::Continue(())
        });
        n
    }

    fn runs(&mut self, _key: u64, x: &[[u8; 4]], y: &[[u8; 4]]) -> u32 {
        run::intersect_count(x, y)
    }
}

/// Whether each pair shares a value, stopping at the first shared value.
pub(crate) struct Test;

impl Meet for Test {
    type Out = bool;

    fn whole(&mut self, _key: u64, _c: Container<'_>, _card: u32) -> bool {
        true
    }

    fn arrays(&mut self, _key: u64, x: &[[u8; 2]], y: &[[u8; 2]]) -> bool {
        array::intersects(x, y)
    }

    fn array_bitmap(&mut self, _key: u64, x: &[[u8; 2]], y: &[[u8; 8]]) -> bool {
        array_bitmap::intersects(x, y)
    }

    fn array_run(&mut self, _key: u64, x: &[[u8; 2]], y: &[[u8; 4]]) -> bool {
        run::run_array_intersects(y, x)
    }

    fn bitmaps(&mut self, _key: u64, x: &[[u8; 8]], y: &[[u8; 8]]) -> bool {
        bitmap::intersects(x, y)
    }

    fn bitmap_run(&mut self, _key: u64, x: &[[u8; 8]], y: &[[u8; 4]]) -> bool {
        for_each_run_word(x, y, |_, m| {
            if m != 0 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .is_break()
    }

    fn runs(&mut self, _key: u64, x: &[[u8; 4]], y: &[[u8; 4]]) -> bool {
        run::intersects(x, y)
    }
}
