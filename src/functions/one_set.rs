//! Questions about one set answered from its header, or from a few directory
//! entries and one container: on a large value stored out of line (TOASTed,
//! uncompressed) they read those byte ranges only, a few chunks of the value
//! instead of all of it (`crate::read` decides).

use sroar::Partial;
use sroar_pg_macros::sql_fn;

use crate::aggregates::state_cardinality;
use crate::int8;
use crate::read::Stored;

#[sql_fn]
fn rb_cardinality(r: Stored) -> i64 {
    state_cardinality(r.state()).unwrap_or_else(|| r.header().cardinality) as i64
}

#[sql_fn]
fn rb_is_empty(r: Stored) -> bool {
    r.header().cardinality == 0
}

#[sql_fn]
fn rb_min(r: Stored) -> Option<i64> {
    let h = r.header();
    (h.cardinality > 0).then(|| int8::to_i64(h.min))
}

#[sql_fn]
fn rb_max(r: Stored) -> Option<i64> {
    let h = r.header();
    (h.cardinality > 0).then(|| int8::to_i64(h.max))
}

/// Whether `r` holds `x`: the few byte ranges it needs of a large stored value, the
/// whole of a smaller one.
pub(crate) fn contains(r: &Stored<'_>, x: i64) -> bool {
    let x = int8::to_u64(x);
    r.answer(|f| Partial::new(f).contains(x), |v| v.contains(x))
}

/// rb_contains(r, x) and r @> x.
#[sql_fn]
fn rb_contains_int8(r: Stored, x: i64) -> bool {
    contains(&r, x)
}

/// The number of elements <= x.
#[sql_fn]
fn rb_rank(r: Stored, x: i64) -> i64 {
    let x = int8::to_u64(x);
    r.answer(|f| Partial::new(f).rank(x), |v| v.rank(x)) as i64
}

/// The 0-based position of x, or -1 when absent.
#[sql_fn]
fn rb_index(r: Stored, x: i64) -> i64 {
    let x = int8::to_u64(x);
    r.answer(|f| Partial::new(f).index(x), |v| v.index(x))
        .map_or(-1, |i| i as i64)
}

/// The k-th smallest element (0-based), NULL when k is out of range.
#[sql_fn]
fn rb_select(r: Stored, k: i64) -> Option<i64> {
    let k = u64::try_from(k).ok()?;
    r.answer(|f| Partial::new(f).select(k), |v| v.select(k))
        .map(int8::to_i64)
}
