//! The total order of roaring64: the ascending element sequences compared
//! lexicographically, a proper prefix first (the order int8[] comparison gives).
//! Equality is byte equality, because every stored value is canonical: values of
//! different lengths differ, which their TOAST pointers tell without a fetch.

use std::cmp::Ordering;

use pgrx::prelude::*;

use crate::datum::Roaring;

fn order(a: &Roaring, b: &Roaring) -> Ordering {
    sroar::cmp(a.view(), b.view())
}

#[pg_extern(sql = false)]
fn roaring64_cmp(a: Roaring, b: Roaring) -> i32 {
    order(&a, &b) as i32
}

#[pg_extern(sql = false)]
fn roaring64_eq(a: Roaring, b: Roaring) -> bool {
    a.byte_len() == b.byte_len() && a.bytes() == b.bytes()
}

#[pg_extern(sql = false)]
fn roaring64_ne(a: Roaring, b: Roaring) -> bool {
    !roaring64_eq(a, b)
}

#[pg_extern(sql = false)]
fn roaring64_lt(a: Roaring, b: Roaring) -> bool {
    order(&a, &b).is_lt()
}

#[pg_extern(sql = false)]
fn roaring64_le(a: Roaring, b: Roaring) -> bool {
    order(&a, &b).is_le()
}

#[pg_extern(sql = false)]
fn roaring64_gt(a: Roaring, b: Roaring) -> bool {
    order(&a, &b).is_gt()
}

#[pg_extern(sql = false)]
fn roaring64_ge(a: Roaring, b: Roaring) -> bool {
    order(&a, &b).is_ge()
}
