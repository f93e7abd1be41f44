//! Value ranges: half-open [start, end) in int8 order, or an int8range.

use std::ops::Bound;

use pgrx::prelude::*;

use crate::datum::{Roaring, RoaringOut};
use crate::int8::{half_open, range_bounds};

type Bounds = (Bound<u64>, Bound<u64>);

fn from_range(b: Bounds) -> RoaringOut {
    sroar::from_range(b).into()
}

#[pg_extern(sql = false)]
fn rb_from_range(start: i64, end: i64) -> RoaringOut {
    from_range(half_open(start, end))
}

#[pg_extern(sql = false)]
fn rb_from_int8range(r: Range<i64>) -> RoaringOut {
    from_range(range_bounds(&r))
}

#[pg_extern(sql = false)]
fn rb_range(r: Roaring, start: i64, end: i64) -> RoaringOut {
    r.view().range(half_open(start, end)).into()
}

#[pg_extern(sql = false)]
fn rb_range_int8range(r: Roaring, range: Range<i64>) -> RoaringOut {
    r.view().range(range_bounds(&range)).into()
}

#[pg_extern(sql = false)]
fn rb_range_cardinality(r: Roaring, start: i64, end: i64) -> i64 {
    r.view().range_cardinality(half_open(start, end)) as i64
}

#[pg_extern(sql = false)]
fn rb_range_cardinality_int8range(r: Roaring, range: Range<i64>) -> i64 {
    r.view().range_cardinality(range_bounds(&range)) as i64
}

#[pg_extern(sql = false)]
fn rb_contains_range(r: Roaring, start: i64, end: i64) -> bool {
    r.view().contains_range(half_open(start, end))
}

#[pg_extern(sql = false)]
fn rb_contains_int8range(r: Roaring, range: Range<i64>) -> bool {
    r.view().contains_range(range_bounds(&range))
}

#[pg_extern(sql = false)]
fn rb_fill(r: Roaring, start: i64, end: i64) -> RoaringOut {
    r.view().fill(half_open(start, end)).into()
}

#[pg_extern(sql = false)]
fn rb_fill_int8range(r: Roaring, range: Range<i64>) -> RoaringOut {
    r.view().fill(range_bounds(&range)).into()
}

#[pg_extern(sql = false)]
fn rb_clear(r: Roaring, start: i64, end: i64) -> RoaringOut {
    r.view().clear(half_open(start, end)).into()
}

#[pg_extern(sql = false)]
fn rb_clear_int8range(r: Roaring, range: Range<i64>) -> RoaringOut {
    r.view().clear(range_bounds(&range)).into()
}

#[pg_extern(sql = false)]
fn rb_flip(r: Roaring, start: i64, end: i64) -> RoaringOut {
    r.view().flip(half_open(start, end)).into()
}

#[pg_extern(sql = false)]
fn rb_flip_int8range(r: Roaring, range: Range<i64>) -> RoaringOut {
    r.view().flip(range_bounds(&range)).into()
}

/// The maximal runs of consecutive elements, ascending: (first, last) inclusive.
#[pg_extern(sql = false)]
fn rb_runs<'fcx>(r: Roaring<'fcx>) -> TableIterator<'fcx, (name!(first, i64), name!(last, i64))> {
    use crate::int8::to_i64;
    TableIterator::new(
        r.view()
            .runs()
            .map(|(first, last)| (to_i64(first), to_i64(last))),
    )
}
