//! Questions about one set answered from its header, or from a few directory
//! entries and one container: on a large value stored out of line (TOASTed,
//! uncompressed) they read those byte ranges only, a few chunks of the value
//! instead of all of it.

use pgrx::prelude::*;
use sroar::{Header, PartialReadError, HEADER_MAX_LEN};

use crate::datum::{stored_view, strict_int8_arg, strict_roaring_arg, Roaring};
use crate::{errors, int8, value_cache};

/// The header alone: on a large TOASTed value, only its first chunk is fetched.
pub(crate) fn header(r: &Roaring) -> Header {
    sroar::header_from_prefix(r.prefix(HEADER_MAX_LEN)).unwrap_or_else(|e| errors::stored_value(e))
}

/// Out-of-line values up to this size are read whole: one TOAST index scan for all
/// their chunks costs less than the three or four scans of a partial read (a
/// directory search, a count, a container), each of which fetches a chunk anew.
/// Read whole, a set read again and again stays with the call site for the rest of
/// the query (`value_cache`), so a join probing the same sets reads each only a few
/// times.
const READ_WHOLE_UP_TO: usize = 64 << 10;

/// Whether `r` is stored out of line, uncompressed and large enough that reading a
/// few byte ranges of it beats reading it whole.
pub(crate) fn read_in_parts(r: &Roaring) -> bool {
    r.toasted_uncompressed_len()
        .is_some_and(|len| len > READ_WHOLE_UP_TO)
}

/// The roaring64 argument 0 and the int8 argument 1 of a STRICT function.
fn args<'fcx>(fcinfo: pg_sys::FunctionCallInfo) -> (Roaring<'fcx>, i64) {
    (strict_roaring_arg(fcinfo, 0), strict_int8_arg(fcinfo, 1))
}

/// `by_ranges` over TOAST slices of a large out-of-line value, else `in_memory` over
/// the whole value.
fn answer<'fcx, T>(
    fcinfo: pg_sys::FunctionCallInfo,
    r: &Roaring<'fcx>,
    by_ranges: impl FnOnce(&mut dyn FnMut(usize, usize) -> &'fcx [u8]) -> Result<T, PartialReadError>,
    in_memory: impl FnOnce(sroar::RoaringView<'fcx>) -> T,
) -> T {
    match r.toasted_uncompressed_len() {
        Some(_) if read_in_parts(r) => by_ranges(&mut |offset, len| r.slice(offset, len))
            .unwrap_or_else(|e| errors::stored_value(e)),
        Some(_) => in_memory(stored_view(value_cache::whole(fcinfo, r))),
        None => in_memory(r.view()),
    }
}

#[pg_extern(sql = false)]
fn rb_cardinality(r: Roaring) -> i64 {
    match crate::aggregates::state_cardinality(r.raw()) {
        Some(len) => len as i64,
        None => header(&r).cardinality as i64,
    }
}

#[pg_extern(sql = false)]
fn rb_is_empty(r: Roaring) -> bool {
    header(&r).cardinality == 0
}

#[pg_extern(sql = false)]
fn rb_min(r: Roaring) -> Option<i64> {
    let h = header(&r);
    (h.cardinality > 0).then(|| int8::to_i64(h.min))
}

#[pg_extern(sql = false)]
fn rb_max(r: Roaring) -> Option<i64> {
    let h = header(&r);
    (h.cardinality > 0).then(|| int8::to_i64(h.max))
}

/// Whether `r` holds `x`: the few byte ranges it needs of a large stored value, the
/// whole of a smaller one.
pub(crate) fn contains(fcinfo: pg_sys::FunctionCallInfo, r: &Roaring<'_>, x: i64) -> bool {
    let x = int8::to_u64(x);
    answer(
        fcinfo,
        r,
        |f| sroar::contains_from_ranges(f, x),
        |v| v.contains(x),
    )
}

/// rb_contains(r, x) and r @> x.
#[pg_extern(sql = false)]
fn rb_contains_int8(fcinfo: pg_sys::FunctionCallInfo) -> bool {
    let (r, x) = args(fcinfo);
    contains(fcinfo, &r, x)
}

/// The number of elements <= x.
#[pg_extern(sql = false)]
fn rb_rank(fcinfo: pg_sys::FunctionCallInfo) -> i64 {
    let (r, x) = args(fcinfo);
    let x = int8::to_u64(x);
    answer(fcinfo, &r, |f| sroar::rank_from_ranges(f, x), |v| v.rank(x)) as i64
}

/// The 0-based position of x, or -1 when absent.
#[pg_extern(sql = false)]
fn rb_index(fcinfo: pg_sys::FunctionCallInfo) -> i64 {
    let (r, x) = args(fcinfo);
    let x = int8::to_u64(x);
    answer(
        fcinfo,
        &r,
        |f| sroar::index_from_ranges(f, x),
        |v| v.index(x),
    )
    .map_or(-1, |i| i as i64)
}

/// The k-th smallest element (0-based), NULL when k is out of range.
#[pg_extern(sql = false)]
fn rb_select(fcinfo: pg_sys::FunctionCallInfo) -> Option<i64> {
    let (r, k) = args(fcinfo);
    let k = u64::try_from(k).ok()?;
    answer(
        fcinfo,
        &r,
        |f| sroar::select_from_ranges(f, k),
        |v| v.select(k),
    )
    .map(int8::to_i64)
}
