//! Many sets at once, from a `roaring64[]` (or a VARIADIC list): their union,
//! intersection and symmetric difference with no intermediate values, and one set's
//! intersection sizes with each of many (retention and funnel counts).

use pgrx::prelude::*;
use sroar::{Accumulator, RoaringView, SetOp};

use crate::datum::{palloc_value, stored_view, RawDatum, Roaring, RoaringOut};

/// The sets of `sets`, or None when one of them is NULL: like the two-set functions,
/// an unknown set gives an unknown result.
fn views<'b>(sets: &'b Array<'_, &[u8]>) -> Option<Vec<RoaringView<'b>>> {
    sets.iter().map(|s| s.map(stored_view)).collect()
}

fn combined<'a>(sets: Array<'a, &'a [u8]>, op: SetOp) -> RawDatum {
    let Some(views) = views(&sets) else {
        return RawDatum(None);
    };
    let out: RoaringOut = match op {
        // An intersection of no sets is undefined.
        SetOp::And if views.is_empty() => return RawDatum(None),
        SetOp::And => sroar::and_many(&views).into(),
        SetOp::Or => sroar::or_many(&views).into(),
        SetOp::Xor => {
            let mut acc = Accumulator::new(SetOp::Xor);
            for v in &views {
                acc.add(*v);
            }
            return RawDatum(Some(palloc_value(&mut acc)));
        }
    };
    RawDatum(Some(out.into_datum_raw()))
}

fn cardinality<'a>(sets: Array<'a, &'a [u8]>, op: SetOp) -> Option<i64> {
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

#[pg_extern(sql = false)]
fn rb_or_many<'a>(sets: Array<'a, &'a [u8]>) -> RawDatum {
    combined(sets, SetOp::Or)
}

#[pg_extern(sql = false)]
fn rb_and_many<'a>(sets: Array<'a, &'a [u8]>) -> RawDatum {
    combined(sets, SetOp::And)
}

#[pg_extern(sql = false)]
fn rb_xor_many<'a>(sets: Array<'a, &'a [u8]>) -> RawDatum {
    combined(sets, SetOp::Xor)
}

#[pg_extern(sql = false)]
fn rb_or_cardinality_many<'a>(sets: Array<'a, &'a [u8]>) -> Option<i64> {
    cardinality(sets, SetOp::Or)
}

#[pg_extern(sql = false)]
fn rb_and_cardinality_many<'a>(sets: Array<'a, &'a [u8]>) -> Option<i64> {
    cardinality(sets, SetOp::And)
}

#[pg_extern(sql = false)]
fn rb_xor_cardinality_many<'a>(sets: Array<'a, &'a [u8]>) -> Option<i64> {
    cardinality(sets, SetOp::Xor)
}

/// `|base ∩ s|` for each `s` of `sets`, in order (NULL for a NULL element): the base
/// is read once, whatever the number of sets.
#[pg_extern(sql = false)]
fn rb_and_cardinality_each<'a>(base: Roaring<'a>, sets: Array<'a, &'a [u8]>) -> Vec<Option<i64>> {
    let base = base.view();
    sets.iter()
        .enumerate()
        .map(|(i, s)| {
            if i % 1024 == 1023 {
                pgrx::check_for_interrupts!();
            }
            s.map(|s| sroar::and_len(base, stored_view(s)) as i64)
        })
        .collect()
}
