//! The total order of roaring64: the ascending element sequences compared
//! lexicographically, a proper prefix first (the order int8[] comparison gives).
//! Equality is byte equality, because every stored value is canonical: values of
//! different lengths differ, which their TOAST pointers tell without a fetch.

use std::cmp::Ordering;

use sroar_pg_macros::sql_fn;

use crate::read::Stored;

fn order(a: &Stored, b: &Stored) -> Ordering {
    a.view().compare(&b.view())
}

#[sql_fn]
fn roaring64_cmp(a: Stored, b: Stored) -> i32 {
    order(&a, &b) as i32
}

#[sql_fn]
fn roaring64_eq(a: Stored, b: Stored) -> bool {
    a.byte_len() == b.byte_len() && a.bytes() == b.bytes()
}

#[sql_fn]
fn roaring64_ne(a: Stored, b: Stored) -> bool {
    !roaring64_eq(a, b)
}

#[sql_fn]
fn roaring64_lt(a: Stored, b: Stored) -> bool {
    order(&a, &b).is_lt()
}

#[sql_fn]
fn roaring64_le(a: Stored, b: Stored) -> bool {
    order(&a, &b).is_le()
}

#[sql_fn]
fn roaring64_gt(a: Stored, b: Stored) -> bool {
    order(&a, &b).is_gt()
}

#[sql_fn]
fn roaring64_ge(a: Stored, b: Stored) -> bool {
    order(&a, &b).is_ge()
}
