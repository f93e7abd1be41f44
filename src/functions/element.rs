//! Elements one at a time: add, remove, iterate, slice. (Rank, position and
//! select are questions about one set: `one_set.rs`.)

use pgrx::prelude::*;

use crate::datum::{strict_bool_arg, strict_roaring_arg, Roaring, RoaringOut};
use crate::errors;
use crate::fmgr::{fmgr_function, set_returning};
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

// rb_iterate(r) and rb_iterate(r, descending): every element, one row at a time,
// never an array. A row costs the executor far more than the function, so these
// are plain entry points that decode values a batch at a time, and hand them over
// one per call or, in FROM, all into the scan's tuplestore (`fmgr::set_returning`).
fmgr_function!(rb_iterate_wrapper, pg_finfo_rb_iterate_wrapper, iterate);
fmgr_function!(
    rb_iterate_ordered_wrapper,
    pg_finfo_rb_iterate_ordered_wrapper,
    iterate_ordered
);

/// The rows of one rb_iterate call still to return.
struct Rows {
    iter: sroar::Iter<'static>,
    descending: bool,
    batch: [u64; 256],
    next: usize,
    len: usize,
}

impl Rows {
    fn next(&mut self) -> Option<pg_sys::Datum> {
        if self.next == self.len {
            self.len = if self.descending {
                let mut n = 0;
                for (slot, v) in self.batch.iter_mut().zip(self.iter.by_ref().rev()) {
                    *slot = v;
                    n += 1;
                }
                n
            } else {
                self.iter.next_batch(&mut self.batch)
            };
            self.next = 0;
            if self.len == 0 {
                return None;
            }
        }
        let v = self.batch[self.next];
        self.next += 1;
        Some(pg_sys::Datum::from(int8::to_i64(v)))
    }
}

fn iterate(fcinfo: pg_sys::FunctionCallInfo) -> Option<pg_sys::Datum> {
    iterate_in(fcinfo, false)
}

fn iterate_ordered(fcinfo: pg_sys::FunctionCallInfo) -> Option<pg_sys::Datum> {
    iterate_in(fcinfo, strict_bool_arg(fcinfo, 1))
}

fn iterate_in(fcinfo: pg_sys::FunctionCallInfo, descending: bool) -> Option<pg_sys::Datum> {
    set_returning(
        fcinfo,
        || Rows {
            // The value is read (detoasted, if it has to be) where the state lives:
            // the multi-call context until the set ends, or this call when the
            // rows all go into a tuplestore now.
            iter: strict_roaring_arg::<'static>(fcinfo, 0).view().iter(),
            descending,
            batch: [0; 256],
            next: 0,
            len: 0,
        },
        Rows::next,
    )
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
