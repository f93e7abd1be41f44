//! Questions about one set answered from its header, or from a few directory
//! entries and one container: on a large value stored out of line (TOASTed,
//! uncompressed) they read those byte ranges only, a few chunks of the value
//! instead of all of it.

use pgrx::prelude::*;
use sroar::{Header, PartialReadError, HEADER_MAX_LEN};

use crate::datum::Roaring;
use crate::{errors, int8};

/// The header alone: on a large TOASTed value, only its first chunk is fetched.
fn header(r: &Roaring) -> Header {
    sroar::header_from_prefix(r.prefix(HEADER_MAX_LEN)).unwrap_or_else(|e| errors::stored_value(e))
}

/// `by_ranges` over TOAST slices of an out-of-line value, else `in_memory` over the
/// whole value.
fn answer<'fcx, T>(
    r: &Roaring<'fcx>,
    by_ranges: impl FnOnce(&mut dyn FnMut(usize, usize) -> &'fcx [u8]) -> Result<T, PartialReadError>,
    in_memory: impl FnOnce(sroar::RoaringView<'fcx>) -> T,
) -> T {
    if r.is_toasted_uncompressed() {
        by_ranges(&mut |offset, len| r.slice(offset, len))
            .unwrap_or_else(|e| errors::stored_value(e))
    } else {
        in_memory(r.view())
    }
}

#[pg_extern(sql = false)]
fn rb_cardinality(r: Roaring) -> i64 {
    header(&r).cardinality as i64
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

#[pg_extern(sql = false)]
fn rb_contains_int8(r: Roaring, x: i64) -> bool {
    let x = int8::to_u64(x);
    answer(&r, |f| sroar::contains_from_ranges(f, x), |v| v.contains(x))
}

/// The number of elements <= x.
#[pg_extern(sql = false)]
fn rb_rank(r: Roaring, x: i64) -> i64 {
    let x = int8::to_u64(x);
    answer(&r, |f| sroar::rank_from_ranges(f, x), |v| v.rank(x)) as i64
}

/// The 0-based position of x, or -1 when absent.
#[pg_extern(sql = false)]
fn rb_index(r: Roaring, x: i64) -> i64 {
    let x = int8::to_u64(x);
    answer(&r, |f| sroar::index_from_ranges(f, x), |v| v.index(x)).map_or(-1, |i| i as i64)
}

/// The k-th smallest element (0-based), NULL when k is out of range.
#[pg_extern(sql = false)]
fn rb_select(r: Roaring, k: i64) -> Option<i64> {
    let k = u64::try_from(k).ok()?;
    answer(&r, |f| sroar::select_from_ranges(f, k), |v| v.select(k)).map(int8::to_i64)
}
