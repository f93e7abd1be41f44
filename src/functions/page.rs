//! Keyset pagination: the next `n` elements after a given one, ascending, or before
//! it, descending, so that a feed or a posting list is paged without offsets. Each
//! reads only the elements it returns (a seek, then `n` steps), and descending
//! iteration.

use sroar::RoaringView;
use sroar_pg_macros::sql_fn;

use crate::errors;
use crate::int8;
use crate::pg::{check_for_interrupts, int8_array, Int8Array};
use crate::read::Stored;

fn count(n: i64) -> u64 {
    if n < 0 {
        errors::invalid_parameter(format!(
            "the number of elements must not be negative (got {n})"
        ));
    }
    n as u64
}

/// The `n` elements of `view` from rank `first` on (fewer where the set ends),
/// ascending, written into a new int8[].
fn ascending_from_rank(view: RoaringView<'_>, first: u64, n: u64) -> Int8Array {
    let n = n.min(view.len().saturating_sub(first));
    let mut out = int8_array(n);
    if n > 0 {
        let start = view.select(first).unwrap_or(u64::MAX);
        let mut iter = view.iter_from(start);
        for chunk in out.data().chunks_mut(1 << 16) {
            let got = iter.next_batch(chunk);
            debug_assert_eq!(got, chunk.len());
            sroar::to_signed_bits(chunk);
            check_for_interrupts();
        }
    }
    out
}

/// The `n` elements below rank `end` (ranks `[end - n, end)`), descending.
fn descending_below_rank(view: RoaringView<'_>, end: u64, n: u64) -> Int8Array {
    let n = n.min(end);
    let mut out = ascending_from_rank(view, end - n, n);
    out.data().reverse();
    out
}

/// rb_first(r, n): the `n` smallest elements, ascending.
#[sql_fn]
fn rb_first(r: Stored, n: i64) -> Int8Array {
    ascending_from_rank(r.view(), 0, count(n))
}

/// rb_last(r, n): the `n` largest elements, descending.
#[sql_fn]
fn rb_last(r: Stored, n: i64) -> Int8Array {
    let view = r.view();
    descending_below_rank(view, view.len(), count(n))
}

/// rb_after(r, x, n): the `n` smallest elements greater than `x`, ascending.
#[sql_fn]
fn rb_after(r: Stored, x: i64, n: i64) -> Int8Array {
    let n = count(n);
    let view = r.view();
    ascending_from_rank(view, view.rank(int8::to_u64(x)), n)
}

/// rb_before(r, x, n): the `n` largest elements less than `x`, descending.
#[sql_fn]
fn rb_before(r: Stored, x: i64, n: i64) -> Int8Array {
    let n = count(n);
    let view = r.view();
    descending_below_rank(view, view.rank_lt(int8::to_u64(x)), n)
}
