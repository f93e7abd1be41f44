//! int8multirange ↔ roaring64. Written in Rust, not SQL: a SQL-language body that
//! calls other functions by name runs whatever the caller's search_path finds first,
//! so a hostile schema could replace them, and an install into another schema
//! could not find them at all.

use crate::int8;
use crate::pg::{multirange_runs, Int8Multirange, MultirangeArg, RoaringOut};
use crate::read::Stored;
use sroar_pg_macros::sql_fn;

/// The set's maximal runs as an int8multirange: a run that ends at the largest int8
/// has no exclusive upper bound, so it becomes `[first,)`.
#[sql_fn]
fn rb_to_multirange(r: Stored) -> Int8Multirange {
    let view = r.view();
    let ranges = view.runs().map(|(first, last)| {
        let upper = (last != u64::MAX).then(|| int8::to_i64(last).wrapping_add(1));
        (int8::to_i64(first), upper)
    });
    Int8Multirange::from_ranges(view.runs().count(), ranges)
}

/// The set of the values of an int8multirange.
#[sql_fn]
fn roaring64_from_multirange(m: MultirangeArg) -> RoaringOut {
    let runs: Vec<(u64, u64)> = multirange_runs(m)
        .into_iter()
        .map(|(lo, hi)| (int8::to_u64(lo), int8::to_u64(hi)))
        .collect();
    sroar::Roaring::from_runs(&runs).into()
}
