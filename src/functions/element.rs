//! Elements one at a time: add, remove, rank, position, select, iterate, slice.

use pgrx::prelude::*;

use crate::datum::{Roaring, RoaringOut};
use crate::errors;
use crate::int8;

fn u64s(values: Array<i64>) -> Vec<u64> {
    values
        .iter()
        .map(|v| int8::to_u64(v.unwrap_or_else(|| errors::null_element())))
        .collect()
}

#[pg_extern(sql = false)]
fn rb_add(r: Roaring, x: i64) -> RoaringOut {
    r.view().insert(int8::to_u64(x)).into()
}

#[pg_extern(sql = false)]
fn rb_add_int8_first(x: i64, r: Roaring) -> RoaringOut {
    r.view().insert(int8::to_u64(x)).into()
}

#[pg_extern(sql = false)]
fn rb_add_many(r: Roaring, values: Array<i64>) -> RoaringOut {
    r.view().insert_many(&u64s(values)).into()
}

#[pg_extern(sql = false)]
fn rb_remove(r: Roaring, x: i64) -> RoaringOut {
    r.view().remove(int8::to_u64(x)).into()
}

#[pg_extern(sql = false)]
fn rb_remove_many(r: Roaring, values: Array<i64>) -> RoaringOut {
    r.view().remove_many(&u64s(values)).into()
}

/// The number of elements <= x.
#[pg_extern(sql = false)]
fn rb_rank(r: Roaring, x: i64) -> i64 {
    r.view().rank(int8::to_u64(x)) as i64
}

/// The 0-based position of x, or -1 when absent.
#[pg_extern(sql = false)]
fn rb_index(r: Roaring, x: i64) -> i64 {
    r.view().index(int8::to_u64(x)).map_or(-1, |i| i as i64)
}

/// The k-th smallest element (0-based), NULL when k is out of range.
#[pg_extern(sql = false)]
fn rb_select(r: Roaring, k: i64) -> Option<i64> {
    let k = u64::try_from(k).ok()?;
    r.view().select(k).map(int8::to_i64)
}

/// Every element, ascending, one row at a time: never materializes an array.
#[pg_extern(sql = false)]
fn rb_iterate<'fcx>(r: Roaring<'fcx>) -> SetOfIterator<'fcx, i64> {
    SetOfIterator::new(r.view().iter().map(int8::to_i64))
}

/// The elements at ranks [offset, offset + limit).
#[pg_extern(sql = false)]
fn rb_slice(r: Roaring, offset: i64, limit: i64) -> RoaringOut {
    if offset < 0 || limit < 0 {
        errors::invalid_parameter(format!(
            "rb_slice offset and limit must not be negative (got offset {offset}, limit {limit})"
        ));
    }
    let view = r.view();
    if limit == 0 || offset as u64 >= view.len() {
        return sroar::empty().into();
    }
    let last_rank = (offset as u64)
        .saturating_add(limit as u64 - 1)
        .min(view.len() - 1);
    match (view.select(offset as u64), view.select(last_rank)) {
        (Some(first), Some(last)) => view.range(first..=last).into(),
        _ => sroar::empty().into(),
    }
}

/// Every element plus delta; elements that would leave the int8 domain are dropped.
/// The sign flip is a translation by 2^63, so adding delta commutes with it.
#[pg_extern(sql = false)]
fn rb_shift(r: Roaring, delta: i64) -> RoaringOut {
    r.view().shift(i128::from(delta)).into()
}
