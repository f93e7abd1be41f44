//! Building sets from arrays and back.

use pgrx::prelude::*;

use crate::datum::{Roaring, RoaringOut};
use crate::errors;
use crate::int8;
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

/// rb_to_array(roaring64) and the roaring64 → int8[] cast: ascending int8 values.
#[pg_extern(sql = false)]
fn rb_to_array(r: Roaring) -> Vec<i64> {
    let view = r.view();
    // An int8[] carries a 24-byte header and 8 bytes per element.
    let bytes = view.len().saturating_mul(8).saturating_add(24);
    if bytes > errors::MAX_VALUE_BYTES as u64 {
        errors::too_large(bytes);
    }
    let mut out = Vec::with_capacity(view.len() as usize);
    let mut iter = view.iter();
    let mut batch = [0u64; 1024];
    loop {
        let n = iter.next_batch(&mut batch);
        if n == 0 {
            return out;
        }
        out.extend(batch[..n].iter().map(|&v| int8::to_i64(v)));
        pgrx::check_for_interrupts!();
    }
}
