//! Many sets at once, from a `roaring64[]` (or a VARIADIC list): their union,
//! intersection and symmetric difference with no intermediate values, and one set's
//! intersection sizes with each of many (retention and funnel counts).

use pgrx::datum::Array;
use sroar::{Accumulator, RoaringView, SetOp};
use sroar_pg_macros::sql_fn;

use crate::pg::{check_for_interrupts, stored_view, MaybeRoaring};
use crate::read::Stored;

/// A `roaring64[]` argument.
type Sets<'a> = Array<'a, &'a [u8]>;

/// The sets of `sets`, or None when one of them is NULL: like the two-set functions,
/// an unknown set gives an unknown result.
fn views<'b>(sets: &'b Sets<'_>) -> Option<Vec<RoaringView<'b>>> {
    sets.iter().map(|s| s.map(stored_view)).collect()
}

fn combined(sets: Sets<'_>, op: SetOp) -> MaybeRoaring {
    let views = views(&sets)?;
    // An intersection of no sets is undefined.
    if op == SetOp::And && views.is_empty() {
        return None;
    }
    Some(op.many(&views).into())
}

fn cardinality(sets: Sets<'_>, op: SetOp) -> Option<i64> {
    let views = views(&sets)?;
    if op == SetOp::And && views.is_empty() {
        return None;
    }
    let mut acc = Accumulator::new(op);
    for v in views {
        if acc.is_settled() {
            break;
        }
        acc.add(v);
    }
    Some(acc.len() as i64)
}

#[sql_fn]
fn rb_or_many(sets: Sets) -> MaybeRoaring {
    combined(sets, SetOp::Or)
}

#[sql_fn]
fn rb_and_many(sets: Sets) -> MaybeRoaring {
    combined(sets, SetOp::And)
}

#[sql_fn]
fn rb_xor_many(sets: Sets) -> MaybeRoaring {
    combined(sets, SetOp::Xor)
}

#[sql_fn]
fn rb_or_cardinality_many(sets: Sets) -> Option<i64> {
    cardinality(sets, SetOp::Or)
}

#[sql_fn]
fn rb_and_cardinality_many(sets: Sets) -> Option<i64> {
    cardinality(sets, SetOp::And)
}

#[sql_fn]
fn rb_xor_cardinality_many(sets: Sets) -> Option<i64> {
    cardinality(sets, SetOp::Xor)
}

/// `|base ∩ s|` for each `s` of `sets`, in order (NULL for a NULL element): the base
/// is read once, whatever the number of sets.
#[sql_fn]
fn rb_and_cardinality_each(base: Stored, sets: Sets) -> Vec<Option<i64>> {
    let base = base.view();
    sets.iter()
        .enumerate()
        .map(|(i, s)| {
            if i % 1024 == 1023 {
                check_for_interrupts();
            }
            s.map(|s| base.and_len(&stored_view(s)) as i64)
        })
        .collect()
}
