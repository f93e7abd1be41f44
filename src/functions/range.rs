//! Value ranges: half-open [start, end) in int8 order, or an int8range.

use std::ops::Bound;

use pgrx::datum::Range;
use sroar::{CapacityError, Roaring};
use sroar_pg_macros::sql_fn;

use crate::errors;
use crate::int8::{self, half_open, range_bounds};
use crate::pg::{RoaringOut, SetOf, Value};
use crate::read::Stored;

type Bounds = (Bound<u64>, Bound<u64>);

fn from_range(b: Bounds) -> RoaringOut {
    ranged(sroar::Roaring::from_range(b))
}

/// A set built from a range: one too large says why ("the whole range is one run"
/// reads like it should fit).
fn ranged(r: Result<Roaring, CapacityError>) -> RoaringOut {
    r.unwrap_or_else(|e| errors::range_too_large(e.needed))
        .into()
}

#[sql_fn]
fn rb_from_range(start: i64, end: i64) -> RoaringOut {
    from_range(half_open(start, end))
}

#[sql_fn]
fn rb_from_int8range(r: Range<i64>) -> RoaringOut {
    from_range(range_bounds(&r))
}

#[sql_fn]
fn rb_range(r: Stored, start: i64, end: i64) -> RoaringOut {
    r.view().range(half_open(start, end)).into()
}

#[sql_fn]
fn rb_range_int8range(r: Stored, range: Range<i64>) -> RoaringOut {
    r.view().range(range_bounds(&range)).into()
}

#[sql_fn]
fn rb_range_cardinality(r: Stored, start: i64, end: i64) -> i64 {
    r.view().range_cardinality(half_open(start, end)) as i64
}

#[sql_fn]
fn rb_range_cardinality_int8range(r: Stored, range: Range<i64>) -> i64 {
    r.view().range_cardinality(range_bounds(&range)) as i64
}

#[sql_fn]
fn rb_contains_range(r: Stored, start: i64, end: i64) -> bool {
    r.view().contains_range(half_open(start, end))
}

#[sql_fn]
fn rb_contains_int8range(r: Stored, range: Range<i64>) -> bool {
    r.view().contains_range(range_bounds(&range))
}

#[sql_fn]
fn rb_fill(r: Stored, start: i64, end: i64) -> RoaringOut {
    ranged(r.view().fill(half_open(start, end)))
}

#[sql_fn]
fn rb_fill_int8range(r: Stored, range: Range<i64>) -> RoaringOut {
    ranged(r.view().fill(range_bounds(&range)))
}

#[sql_fn]
fn rb_clear(r: Stored, start: i64, end: i64) -> RoaringOut {
    r.view().clear(half_open(start, end)).into()
}

#[sql_fn]
fn rb_clear_int8range(r: Stored, range: Range<i64>) -> RoaringOut {
    r.view().clear(range_bounds(&range)).into()
}

#[sql_fn]
fn rb_flip(r: Stored, start: i64, end: i64) -> RoaringOut {
    ranged(r.view().flip(half_open(start, end)))
}

#[sql_fn]
fn rb_flip_int8range(r: Stored, range: Range<i64>) -> RoaringOut {
    ranged(r.view().flip(range_bounds(&range)))
}

/// The runs of one rb_runs call still to return.
struct RunRows(sroar::Runs<'static>);

impl Iterator for RunRows {
    type Item = (i64, i64);

    fn next(&mut self) -> Option<(i64, i64)> {
        self.0
            .next()
            .map(|(first, last)| (int8::to_i64(first), int8::to_i64(last)))
    }
}

/// The maximal runs of consecutive elements, ascending: (first, last) inclusive.
#[sql_fn]
fn rb_runs(r: Value) -> SetOf<RunRows> {
    SetOf::new(r, |view| RunRows(view.runs()))
}
