//! Questions about one set answered from its header, or from one container.

use pgrx::prelude::*;
use sroar::format::{Header, HEADER_LEN};

use crate::datum::Roaring;
use crate::int8;

/// The header alone: on a large TOASTed value, only its first chunk is fetched.
fn header(r: &Roaring) -> Header {
    let prefix = r.prefix(HEADER_LEN);
    match <&[u8; HEADER_LEN]>::try_from(prefix) {
        Ok(bytes) => Header::read(bytes),
        Err(_) => crate::errors::invalid_binary("value is shorter than the roaring64 header"),
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
    r.view().contains(int8::to_u64(x))
}
