//! Questions about one set answered from its header, or from one container.

use pgrx::prelude::*;
use sroar::{Header, HEADER_LEN};

use crate::datum::Roaring;
use crate::int8;

/// The header alone: on a large TOASTed value, only its first chunk is fetched.
fn header(r: &Roaring) -> Header {
    sroar::header_from_prefix(r.prefix(HEADER_LEN))
        .unwrap_or_else(|e| crate::errors::invalid_binary(e))
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

/// On a large value stored out of line, reads the header, the key entries, two
/// descriptors and one container (or one word of a bitmap), not the whole value.
#[pg_extern(sql = false)]
fn rb_contains_int8(r: Roaring, x: i64) -> bool {
    let x = int8::to_u64(x);
    if r.is_toasted_uncompressed() {
        sroar::contains_from_ranges(|offset, len| r.slice(offset, len), x)
            .unwrap_or_else(|e| crate::errors::invalid_binary(e))
    } else {
        r.view().contains(x)
    }
}
