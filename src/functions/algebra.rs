//! Set algebra between two sets: results, their cardinalities without building them,
//! and the predicates behind @>, <@ and &&.

use pgrx::prelude::*;

use crate::datum::{stored_view, strict_int8_arg, strict_roaring_arg, Roaring, RoaringOut};
use crate::functions::one_set;
use crate::value_cache;
use sroar::RoaringView;

/// The two roaring64 arguments of a STRICT function as views. A stored set this call
/// site reads again and again in the query (a join of every pair) comes from
/// `value_cache` after its first reads.
fn pair<'fcx>(fcinfo: pg_sys::FunctionCallInfo) -> (RoaringView<'fcx>, RoaringView<'fcx>) {
    let (a, b) = (strict_roaring_arg(fcinfo, 0), strict_roaring_arg(fcinfo, 1));
    views(fcinfo, &a, &b)
}

fn views<'fcx>(
    fcinfo: pg_sys::FunctionCallInfo,
    a: &Roaring<'fcx>,
    b: &Roaring<'fcx>,
) -> (RoaringView<'fcx>, RoaringView<'fcx>) {
    (
        stored_view(value_cache::whole(fcinfo, a)),
        stored_view(value_cache::whole(fcinfo, b)),
    )
}

/// `a ⊆ b`, from the two headers alone where they decide it and one of the sets is
/// large, stored out of line and not read often by this call site (its first chunk
/// instead of all of it), else from the whole sets.
fn is_subset(fcinfo: pg_sys::FunctionCallInfo, a: &Roaring<'_>, b: &Roaring<'_>) -> bool {
    let in_parts = |r: &Roaring| one_set::read_in_parts(r) && !value_cache::read_often(fcinfo, r);
    let (a_in_parts, b_in_parts) = (in_parts(a), in_parts(b));
    if a_in_parts || b_in_parts {
        let header = |r: &Roaring| match value_cache::kept(fcinfo, r) {
            Some(bytes) => stored_view(bytes).header(),
            None => one_set::header(r),
        };
        if let Some(answer) = sroar::is_subset_by_headers(&header(a), &header(b)) {
            if a_in_parts {
                value_cache::count_partial_read(fcinfo, a);
            }
            if b_in_parts {
                value_cache::count_partial_read(fcinfo, b);
            }
            return answer;
        }
    }
    let (a, b) = views(fcinfo, a, b);
    sroar::is_subset(a, b)
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
    let (a, b) = (strict_roaring_arg(fcinfo, 0), strict_roaring_arg(fcinfo, 1));
    is_subset(fcinfo, &b, &a)
}

/// a <@ b: every element of a is in b.
#[pg_extern(sql = false)]
fn rb_contained_by(fcinfo: pg_sys::FunctionCallInfo) -> bool {
    let (a, b) = (strict_roaring_arg(fcinfo, 0), strict_roaring_arg(fcinfo, 1));
    is_subset(fcinfo, &a, &b)
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
