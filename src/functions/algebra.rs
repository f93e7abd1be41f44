//! Set algebra between two sets: results, their cardinalities without building them,
//! and the predicates behind @>, <@ and &&.

use pgrx::prelude::*;

use crate::datum::{raw_arg, roaring_arg, Roaring, RoaringOut};
use crate::errors;
use crate::functions::one_set;

#[pg_extern(sql = false)]
fn rb_and(a: Roaring, b: Roaring) -> RoaringOut {
    sroar::and_writer(a.view(), b.view()).into()
}

#[pg_extern(sql = false)]
fn rb_or(a: Roaring, b: Roaring) -> RoaringOut {
    sroar::or_writer(a.view(), b.view()).into()
}

#[pg_extern(sql = false)]
fn rb_xor(a: Roaring, b: Roaring) -> RoaringOut {
    sroar::xor_writer(a.view(), b.view()).into()
}

#[pg_extern(sql = false)]
fn rb_andnot(a: Roaring, b: Roaring) -> RoaringOut {
    sroar::andnot_writer(a.view(), b.view()).into()
}

#[pg_extern(sql = false)]
fn rb_and_cardinality(a: Roaring, b: Roaring) -> i64 {
    sroar::and_len(a.view(), b.view()) as i64
}

#[pg_extern(sql = false)]
fn rb_or_cardinality(a: Roaring, b: Roaring) -> i64 {
    sroar::or_len(a.view(), b.view()) as i64
}

#[pg_extern(sql = false)]
fn rb_xor_cardinality(a: Roaring, b: Roaring) -> i64 {
    sroar::xor_len(a.view(), b.view()) as i64
}

#[pg_extern(sql = false)]
fn rb_andnot_cardinality(a: Roaring, b: Roaring) -> i64 {
    sroar::andnot_len(a.view(), b.view()) as i64
}

/// |A ∩ B| / |A ∪ B|, NULL when both are empty.
#[pg_extern(sql = false)]
fn rb_jaccard(a: Roaring, b: Roaring) -> Option<f64> {
    let (a, b) = (a.view(), b.view());
    let both = sroar::and_len(a, b);
    let either = a.len() + b.len() - both;
    (either > 0).then(|| both as f64 / either as f64)
}

/// a @> b: every element of b is in a.
#[pg_extern(sql = false)]
fn rb_contains_all(a: Roaring, b: Roaring) -> bool {
    sroar::is_subset(b.view(), a.view())
}

/// a <@ b: every element of a is in b.
#[pg_extern(sql = false)]
fn rb_contained_by(a: Roaring, b: Roaring) -> bool {
    sroar::is_subset(a.view(), b.view())
}

/// x <@ r: the element is in the set.
#[pg_extern(sql = false)]
fn rb_int8_contained_by(fcinfo: pg_sys::FunctionCallInfo) -> bool {
    // x <@ r: the commutator of r @> x, answered the same way.
    let (Some(x), Some(r)) = (raw_arg(fcinfo, 0), roaring_arg(fcinfo, 1)) else {
        errors::invalid_parameter("a NULL argument to a STRICT function")
    };
    one_set::contains(fcinfo, &r, x.value() as i64)
}

#[pg_extern(sql = false)]
fn rb_intersects(a: Roaring, b: Roaring) -> bool {
    sroar::intersects(a.view(), b.view())
}
