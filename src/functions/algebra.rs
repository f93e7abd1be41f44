//! Set algebra between two sets: results, their cardinalities without building them,
//! and the predicates behind @>, <@ and &&.

use pgrx::prelude::*;

use crate::datum::{stored_view, strict_int8_arg, strict_roaring_arg, RoaringOut};
use crate::functions::one_set;
use crate::value_cache;
use sroar::RoaringView;

/// The two roaring64 arguments of a STRICT function as views. A stored set this call
/// site reads again and again in the query (a join of every pair) comes from
/// `value_cache` after its first reads.
fn pair<'fcx>(fcinfo: pg_sys::FunctionCallInfo) -> (RoaringView<'fcx>, RoaringView<'fcx>) {
    let (a, b) = (strict_roaring_arg(fcinfo, 0), strict_roaring_arg(fcinfo, 1));
    (
        stored_view(value_cache::whole(fcinfo, &a)),
        stored_view(value_cache::whole(fcinfo, &b)),
    )
}

#[pg_extern(sql = false)]
fn rb_and(fcinfo: pg_sys::FunctionCallInfo) -> RoaringOut {
    let (a, b) = pair(fcinfo);
    sroar::and_writer(a, b).into()
}

#[pg_extern(sql = false)]
fn rb_or(fcinfo: pg_sys::FunctionCallInfo) -> RoaringOut {
    let (a, b) = pair(fcinfo);
    sroar::or_writer(a, b).into()
}

#[pg_extern(sql = false)]
fn rb_xor(fcinfo: pg_sys::FunctionCallInfo) -> RoaringOut {
    let (a, b) = pair(fcinfo);
    sroar::xor_writer(a, b).into()
}

#[pg_extern(sql = false)]
fn rb_andnot(fcinfo: pg_sys::FunctionCallInfo) -> RoaringOut {
    let (a, b) = pair(fcinfo);
    sroar::andnot_writer(a, b).into()
}

#[pg_extern(sql = false)]
fn rb_and_cardinality(fcinfo: pg_sys::FunctionCallInfo) -> i64 {
    let (a, b) = pair(fcinfo);
    sroar::and_len(a, b) as i64
}

#[pg_extern(sql = false)]
fn rb_or_cardinality(fcinfo: pg_sys::FunctionCallInfo) -> i64 {
    let (a, b) = pair(fcinfo);
    sroar::or_len(a, b) as i64
}

#[pg_extern(sql = false)]
fn rb_xor_cardinality(fcinfo: pg_sys::FunctionCallInfo) -> i64 {
    let (a, b) = pair(fcinfo);
    sroar::xor_len(a, b) as i64
}

#[pg_extern(sql = false)]
fn rb_andnot_cardinality(fcinfo: pg_sys::FunctionCallInfo) -> i64 {
    let (a, b) = pair(fcinfo);
    sroar::andnot_len(a, b) as i64
}

/// |A ∩ B| / |A ∪ B|, NULL when both are empty.
#[pg_extern(sql = false)]
fn rb_jaccard(fcinfo: pg_sys::FunctionCallInfo) -> Option<f64> {
    let (a, b) = pair(fcinfo);
    let both = sroar::and_len(a, b);
    let either = a.len() + b.len() - both;
    (either > 0).then(|| both as f64 / either as f64)
}

/// a @> b: every element of b is in a.
#[pg_extern(sql = false)]
fn rb_contains_all(fcinfo: pg_sys::FunctionCallInfo) -> bool {
    let (a, b) = pair(fcinfo);
    sroar::is_subset(b, a)
}

/// a <@ b: every element of a is in b.
#[pg_extern(sql = false)]
fn rb_contained_by(fcinfo: pg_sys::FunctionCallInfo) -> bool {
    let (a, b) = pair(fcinfo);
    sroar::is_subset(a, b)
}

/// x <@ r: the element is in the set.
#[pg_extern(sql = false)]
fn rb_int8_contained_by(fcinfo: pg_sys::FunctionCallInfo) -> bool {
    // x <@ r: the commutator of r @> x, answered the same way.
    let r = strict_roaring_arg(fcinfo, 1);
    one_set::contains(fcinfo, &r, strict_int8_arg(fcinfo, 0))
}

#[pg_extern(sql = false)]
fn rb_intersects(fcinfo: pg_sys::FunctionCallInfo) -> bool {
    let (a, b) = pair(fcinfo);
    sroar::intersects(a, b)
}
