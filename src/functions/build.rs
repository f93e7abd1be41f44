//! Building sets from arrays and back.

use pgrx::prelude::*;

use crate::datum::{palloc_int8_array, ArrayDatum, Roaring, RoaringOut};
use crate::errors;
use crate::io::from_int8s;

/// rb_build(int8[]) and the int8[] → roaring64 cast.
#[pg_extern(sql = false)]
fn rb_build(values: Array<i64>) -> RoaringOut {
    from_int8s(
        values
            .iter()
            .map(|v| v.unwrap_or_else(|| errors::null_element())),
    )
}

/// The int4[] → roaring64 cast.
#[pg_extern(sql = false)]
fn rb_build_int4(values: Array<i32>) -> RoaringOut {
    from_int8s(
        values
            .iter()
            .map(|v| i64::from(v.unwrap_or_else(|| errors::null_element()))),
    )
}

/// rb_to_array(roaring64) and the roaring64 → int8[] cast: ascending int8 values,
/// decoded in batches straight into the array's data, then given their sign.
#[pg_extern(sql = false)]
fn rb_to_array(r: Roaring) -> ArrayDatum {
    let view = r.view();
    let out = palloc_int8_array(view.len());
    let mut iter = view.iter();
    for chunk in out.data.chunks_mut(1 << 16) {
        let n = iter.next_batch(chunk);
        sroar::to_signed_bits(&mut chunk[..n]);
        pgrx::check_for_interrupts!();
    }
    ArrayDatum(out.datum)
}
