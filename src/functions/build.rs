//! Building sets from arrays and back.

use pgrx::datum::Array;
use sroar_pg_macros::sql_fn;

use crate::errors;
use crate::pg::{check_for_interrupts, int8_array, Int8Array, RoaringOut};
use crate::read::Stored;

/// Builds a set from int8 values given in any order, with duplicates.
fn from_int8s(values: impl IntoIterator<Item = i64>) -> RoaringOut {
    sroar::Roaring::from_signed(values).into()
}

/// rb_build(int8[]) and the int8[] → roaring64 cast.
#[sql_fn]
fn rb_build(values: Array<i64>) -> RoaringOut {
    from_int8s(
        values
            .iter()
            .enumerate()
            .map(|(i, v)| v.unwrap_or_else(|| errors::null_element(i + 1))),
    )
}

/// The int4[] → roaring64 cast.
#[sql_fn]
fn rb_build_int4(values: Array<i32>) -> RoaringOut {
    from_int8s(
        values
            .iter()
            .enumerate()
            .map(|(i, v)| i64::from(v.unwrap_or_else(|| errors::null_element(i + 1)))),
    )
}

/// rb_to_array(roaring64) and the roaring64 → int8[] cast: ascending int8 values,
/// decoded in batches straight into the array's data, then given their sign.
#[sql_fn]
fn rb_to_array(r: Stored) -> Int8Array {
    let view = r.view();
    let mut out = int8_array(view.len());
    let mut iter = view.iter();
    for chunk in out.data().chunks_mut(1 << 16) {
        let n = iter.next_batch(chunk);
        sroar::to_signed_bits(&mut chunk[..n]);
        check_for_interrupts();
    }
    out
}
