//! Elements one at a time: add, remove, iterate, slice. (Rank, position and
//! select are questions about one set: `one_set.rs`.)

use pgrx::datum::Array;
use sroar::{RoaringView, Splice};
use sroar_pg_macros::sql_fn;

use crate::errors;
use crate::int8;
use crate::pg::{RoaringOut, SetOf, Value};
use crate::read::Stored;

fn u64s(values: Array<i64>) -> Vec<u64> {
    values
        .iter()
        .enumerate()
        .map(|(i, v)| int8::to_u64(v.unwrap_or_else(|| errors::null_element(i + 1))))
        .collect()
}

/// The edit's result, or the set as it came when the edit changes nothing (every
/// add present, every remove absent): an UPDATE that sets a column to it then keeps
/// the stored value where it is, with no new TOAST chunks or their WAL.
fn edited(r: Stored<'_>, edit: Splice<'_>) -> RoaringOut {
    if edit.is_base() {
        r.into()
    } else {
        edit.into()
    }
}

#[sql_fn]
fn rb_add(r: Stored, x: i64) -> RoaringOut {
    edited(r, r.view().with_inserted(&[int8::to_u64(x)]))
}

#[sql_fn]
fn rb_add_int8_first(x: i64, r: Stored) -> RoaringOut {
    edited(r, r.view().with_inserted(&[int8::to_u64(x)]))
}

#[sql_fn]
fn rb_add_many(r: Stored, values: Array<i64>) -> RoaringOut {
    edited(r, r.view().with_inserted(&u64s(values)))
}

#[sql_fn]
fn rb_remove(r: Stored, x: i64) -> RoaringOut {
    edited(r, r.view().with_removed(&[int8::to_u64(x)]))
}

#[sql_fn]
fn rb_remove_many(r: Stored, values: Array<i64>) -> RoaringOut {
    edited(r, r.view().with_removed(&u64s(values)))
}

/// A batch of changes to one set in one pass: `removes` out, then `adds` in (an
/// element in both ends up in the set). NULL arrays change nothing, and a NULL set
/// is the empty one, so that an upsert or a batch with no adds or no removes for a
/// set needs no coalesce. A set with no changes is returned unread.
#[sql_fn]
fn rb_apply(
    r: Option<Stored>,
    adds: Option<Array<i64>>,
    removes: Option<Array<i64>>,
) -> RoaringOut {
    let (adds, removes) = (
        adds.map(u64s).unwrap_or_default(),
        removes.map(u64s).unwrap_or_default(),
    );
    match r {
        Some(r) if adds.is_empty() && removes.is_empty() => r.into(),
        Some(r) => edited(r, r.view().with_changes(&adds, &removes)),
        None => sroar::Roaring::new()
            .view()
            .with_changes(&adds, &removes)
            .into(),
    }
}

/// The rows of one rb_iterate call still to return: values decoded a batch at a
/// time, since a row costs the executor far more than the function.
struct Rows {
    iter: sroar::Iter<'static>,
    descending: bool,
    batch: [u64; 256],
    next: usize,
    len: usize,
}

impl Rows {
    fn ascending(view: RoaringView<'static>) -> Rows {
        Rows::new(view, false)
    }

    fn descending(view: RoaringView<'static>) -> Rows {
        Rows::new(view, true)
    }

    fn new(view: RoaringView<'static>, descending: bool) -> Rows {
        Rows {
            iter: view.iter(),
            descending,
            batch: [0; 256],
            next: 0,
            len: 0,
        }
    }
}

impl Iterator for Rows {
    type Item = i64;

    fn next(&mut self) -> Option<i64> {
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
        Some(int8::to_i64(v))
    }
}

// rb_iterate(r) and rb_iterate(r, descending): every element, one row at a time,
// never an array; in FROM, all rows go into the scan's tuplestore at once.
#[sql_fn]
fn rb_iterate(r: Value) -> SetOf<Rows> {
    SetOf::new(r, Rows::ascending)
}

#[sql_fn]
fn rb_iterate_ordered(r: Value, descending: bool) -> SetOf<Rows> {
    SetOf::new(
        r,
        if descending {
            Rows::descending
        } else {
            Rows::ascending
        },
    )
}

/// The elements at ranks [offset, offset + limit).
#[sql_fn]
fn rb_slice(r: Stored, offset: i64, limit: i64) -> RoaringOut {
    if offset < 0 || limit < 0 {
        errors::invalid_parameter(format!(
            "rb_slice offset and limit must not be negative (got offset {offset}, limit {limit})"
        ));
    }
    let view = r.view();
    if limit == 0 || offset as u64 >= view.len() {
        return sroar::Roaring::new().into();
    }
    let last_rank = (offset as u64)
        .saturating_add(limit as u64 - 1)
        .min(view.len() - 1);
    match (view.select(offset as u64), view.select(last_rank)) {
        (Some(first), Some(last)) => view.range(first..=last).into(),
        _ => sroar::Roaring::new().into(),
    }
}

/// Every element plus delta; elements that would leave the int8 domain are dropped.
/// The sign flip is a translation by 2^63, so adding delta commutes with it.
#[sql_fn]
fn rb_shift(r: Stored, delta: i64) -> RoaringOut {
    r.view().shift(i128::from(delta)).into()
}
