//! Set algebra between two sets: results, their cardinalities without building them,
//! and the predicates behind @>, <@ and &&.

use pgrx::prelude::*;

use crate::datum::{stored_view, strict_int8_arg, strict_roaring_arg, Roaring, RoaringOut};
use crate::functions::one_set;
use crate::value_cache;
use sroar::{Header, RoaringView};

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

/// What `decide` tells from the two headers alone, or None when the whole sets
/// must be read. Where one set is stored out of line and not read often by this
/// call site, its header is read first (a first chunk instead of all of it), as
/// long as headers keep answering the call site
/// ([`value_cache::headers_worth_trying`]): pairs of sets far apart, or of very
/// different sizes, are answered without reading them, and a join where headers
/// rarely answer stops paying for the extra read after a few calls.
fn by_headers<T>(
    fcinfo: pg_sys::FunctionCallInfo,
    a: &Roaring<'_>,
    b: &Roaring<'_>,
    decide: impl FnOnce(&Header, &Header) -> Option<T>,
) -> Option<T> {
    // The cheap tests first: most calls of a call site where headers stopped
    // answering, or of sets stored inline, end here.
    let toasted = |r: &Roaring| r.toast_key().is_some();
    if !(toasted(a) || toasted(b)) || !value_cache::headers_worth_trying(fcinfo) {
        return None;
    }
    let out_of_line = |r: &Roaring| toasted(r) && !value_cache::read_often(fcinfo, r);
    let (a_out, b_out) = (out_of_line(a), out_of_line(b));
    if !(a_out || b_out) {
        return None;
    }
    let header = |r: &Roaring| match value_cache::kept(fcinfo, r) {
        Some(bytes) => stored_view(bytes).header(),
        None => one_set::header(r),
    };
    let answer = decide(&header(a), &header(b));
    value_cache::count_header_try(fcinfo, answer.is_some());
    if answer.is_some() {
        if a_out {
            value_cache::count_partial_read(fcinfo, a);
        }
        if b_out {
            value_cache::count_partial_read(fcinfo, b);
        }
    }
    answer
}

/// `a ⊆ b`, from the two headers where they decide it ([`by_headers`]), else from
/// the whole sets.
fn is_subset(fcinfo: pg_sys::FunctionCallInfo, a: &Roaring<'_>, b: &Roaring<'_>) -> bool {
    by_headers(fcinfo, a, b, sroar::is_subset_by_headers).unwrap_or_else(|| {
        let (a, b) = views(fcinfo, a, b);
        sroar::is_subset(a, b)
    })
}

/// The two cardinalities, when the headers prove the sets disjoint ([`by_headers`]):
/// then every function of the pair but the set-valued unions follows from them.
fn disjoint_cards(
    fcinfo: pg_sys::FunctionCallInfo,
    a: &Roaring<'_>,
    b: &Roaring<'_>,
) -> Option<(u64, u64)> {
    by_headers(fcinfo, a, b, |x, y| {
        sroar::are_disjoint_by_headers(x, y).then_some((x.cardinality, y.cardinality))
    })
}

/// The two roaring64 arguments of a STRICT function, unread.
fn args<'fcx>(fcinfo: pg_sys::FunctionCallInfo) -> (Roaring<'fcx>, Roaring<'fcx>) {
    (strict_roaring_arg(fcinfo, 0), strict_roaring_arg(fcinfo, 1))
}

#[pg_extern(sql = false)]
fn rb_and(fcinfo: pg_sys::FunctionCallInfo) -> RoaringOut {
    let (a, b) = args(fcinfo);
    if disjoint_cards(fcinfo, &a, &b).is_some() {
        return sroar::Writer::new().into();
    }
    let (a, b) = views(fcinfo, &a, &b);
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
    let (a, b) = args(fcinfo);
    if disjoint_cards(fcinfo, &a, &b).is_some() {
        return 0;
    }
    let (a, b) = views(fcinfo, &a, &b);
    sroar::and_len(a, b) as i64
}

#[pg_extern(sql = false)]
fn rb_or_cardinality(fcinfo: pg_sys::FunctionCallInfo) -> i64 {
    let (a, b) = args(fcinfo);
    if let Some((x, y)) = disjoint_cards(fcinfo, &a, &b) {
        return (x + y) as i64;
    }
    let (a, b) = views(fcinfo, &a, &b);
    sroar::or_len(a, b) as i64
}

#[pg_extern(sql = false)]
fn rb_xor_cardinality(fcinfo: pg_sys::FunctionCallInfo) -> i64 {
    let (a, b) = args(fcinfo);
    if let Some((x, y)) = disjoint_cards(fcinfo, &a, &b) {
        return (x + y) as i64;
    }
    let (a, b) = views(fcinfo, &a, &b);
    sroar::xor_len(a, b) as i64
}

#[pg_extern(sql = false)]
fn rb_andnot_cardinality(fcinfo: pg_sys::FunctionCallInfo) -> i64 {
    let (a, b) = args(fcinfo);
    if let Some((x, _)) = disjoint_cards(fcinfo, &a, &b) {
        return x as i64;
    }
    let (a, b) = views(fcinfo, &a, &b);
    sroar::andnot_len(a, b) as i64
}

/// |A ∩ B| / |A ∪ B|, NULL when both are empty.
#[pg_extern(sql = false)]
fn rb_jaccard(fcinfo: pg_sys::FunctionCallInfo) -> Option<f64> {
    let (a, b) = args(fcinfo);
    let (both, either) = match disjoint_cards(fcinfo, &a, &b) {
        Some((x, y)) => (0, x + y),
        None => {
            let (a, b) = views(fcinfo, &a, &b);
            let both = sroar::and_len(a, b);
            (both, a.len() + b.len() - both)
        }
    };
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
    let (a, b) = args(fcinfo);
    if disjoint_cards(fcinfo, &a, &b).is_some() {
        return false;
    }
    let (a, b) = views(fcinfo, &a, &b);
    sroar::intersects(a, b)
}
