//! Elements one at a time: add, remove, iterate, slice. (Rank, position and
//! select are questions about one set: `one_set.rs`.)

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
