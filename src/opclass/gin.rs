#![allow(unsafe_code)]
//! GIN support: the keys of a roaring64 value are its elements, stored as int8 and
//! compared with the core btint8cmp (STORAGE int8), as intarray's GIN opclass does.
//!
//! | strategy | operator | candidate rows | exact? |
//! |---|---|---|---|
//! | 1 | `&&`            | any query element present | yes |
//! | 2 | `@> roaring64`  | every query element present (an empty query matches all) | yes |
//! | 3 | `<@ roaring64`  | any query element present, or the row is empty | recheck |
//! | 4 | `=`             | every query element present (empty query: empty rows) | recheck |
//! | 5 | `@> int8`       | the element present | yes |
//!
//! The functions take `fcinfo` and read their arguments raw: GIN passes C pointers
//! (`int32 *nkeys`, `bool *recheck`, ...) as `internal`, and the query of strategy 5 is
//! an int8 by value, not a roaring64.

use pgrx::fcinfo::pg_getarg_datum_raw;
use pgrx::prelude::*;

use crate::datum::Roaring;
use crate::errors;
use crate::int8;

const OVERLAP: i16 = 1;
const CONTAINS: i16 = 2;
const CONTAINED_BY: i16 = 3;
const EQUAL: i16 = 4;
const CONTAINS_ELEMENT: i16 = 5;

/// The elements of `r` as a palloc'd array of int8 datums, and their number.
fn element_keys(r: &Roaring) -> (*mut pg_sys::Datum, i32) {
    let view = r.view();
    let n = view.len();
    let bytes = n.saturating_mul(size_of::<pg_sys::Datum>() as u64);
    if bytes > errors::MAX_VALUE_BYTES as u64 || n > i32::MAX as u64 {
        errors::too_large(bytes);
    }
    if n == 0 {
        return (core::ptr::null_mut(), 0);
    }
    // SAFETY: palloc returns room for n datums or raises an error; exactly n are written.
    let keys = unsafe {
        let ptr = pg_sys::palloc(bytes as usize) as *mut pg_sys::Datum;
        core::slice::from_raw_parts_mut(ptr, n as usize)
    };
    let mut iter = view.iter();
    let mut batch = [0u64; 1024];
    let mut at = 0;
    loop {
        let got = iter.next_batch(&mut batch);
        if got == 0 {
            break;
        }
        for (slot, &v) in keys[at..at + got].iter_mut().zip(&batch[..got]) {
            *slot = pg_sys::Datum::from(int8::to_i64(v));
        }
        at += got;
        pgrx::check_for_interrupts!();
    }
    (keys.as_mut_ptr(), n as i32)
}

/// Writes `value` through the C pointer passed as argument `num`.
///
/// # Safety
/// Argument `num` must be a valid, aligned pointer to a `T`.
unsafe fn set_out_arg<T>(fcinfo: pg_sys::FunctionCallInfo, num: usize, value: T) {
    // SAFETY: guaranteed by the caller (GIN's calling convention).
    unsafe { *pg_getarg_datum_raw(fcinfo, num).cast_mut_ptr::<T>() = value };
}

/// extractValue(roaring64, internal int32 *nkeys, internal bool **nullFlags)
#[pg_extern(sql = false)]
fn roaring64_gin_extract_value(fcinfo: pg_sys::FunctionCallInfo) -> pgrx::datum::Internal {
    // SAFETY: GIN calls this with a non-null roaring64 and a valid int32 *nkeys.
    unsafe {
        let r = Roaring::from_raw(pg_getarg_datum_raw(fcinfo, 0));
        let (keys, n) = element_keys(&r);
        set_out_arg::<i32>(fcinfo, 1, n);
        pgrx::datum::Internal::from(Some(pg_sys::Datum::from(keys)))
    }
}

/// extractQuery(query, internal int32 *nkeys, int2 strategy, internal bool **pmatch,
/// internal Pointer **extra, internal bool **nullFlags, internal int32 *searchMode)
#[pg_extern(sql = false)]
fn roaring64_gin_extract_query(fcinfo: pg_sys::FunctionCallInfo) -> pgrx::datum::Internal {
    // SAFETY: GIN passes the query of the operator's right-hand type, and valid
    // pointers for nkeys (arg 1) and searchMode (arg 6); strategy is an int2 by value.
    unsafe {
        let query = pg_getarg_datum_raw(fcinfo, 0);
        let strategy = pg_getarg_datum_raw(fcinfo, 2).value() as i16;
        if strategy == CONTAINS_ELEMENT {
            let key = pg_sys::palloc(size_of::<pg_sys::Datum>()) as *mut pg_sys::Datum;
            *key = query;
            set_out_arg::<i32>(fcinfo, 1, 1);
            return pgrx::datum::Internal::from(Some(pg_sys::Datum::from(key)));
        }
        let (keys, n) = element_keys(&Roaring::from_raw(query));
        set_out_arg::<i32>(fcinfo, 1, n);
        let mode = match strategy {
            CONTAINS if n == 0 => pg_sys::GIN_SEARCH_MODE_ALL,
            CONTAINED_BY => pg_sys::GIN_SEARCH_MODE_INCLUDE_EMPTY,
            EQUAL if n == 0 => pg_sys::GIN_SEARCH_MODE_INCLUDE_EMPTY,
            OVERLAP | CONTAINS | EQUAL => pg_sys::GIN_SEARCH_MODE_DEFAULT,
            other => errors::invalid_parameter(format!("unknown roaring64 GIN strategy {other}")),
        };
        set_out_arg::<i32>(fcinfo, 6, mode as i32);
        pgrx::datum::Internal::from(Some(pg_sys::Datum::from(keys)))
    }
}

/// consistent(internal bool check[], int2 strategy, query, int4 nkeys,
/// internal extra, internal bool *recheck, internal queryKeys, internal nullFlags)
#[pg_extern(sql = false)]
fn roaring64_gin_consistent(fcinfo: pg_sys::FunctionCallInfo) -> bool {
    // SAFETY: GIN passes check[nkeys] and a valid bool *recheck.
    unsafe {
        let strategy = pg_getarg_datum_raw(fcinfo, 1).value() as i16;
        let nkeys = pg_getarg_datum_raw(fcinfo, 3).value() as i32;
        let check = pg_getarg_datum_raw(fcinfo, 0).cast_mut_ptr::<bool>();
        let check: &[bool] = if nkeys > 0 {
            core::slice::from_raw_parts(check, nkeys as usize)
        } else {
            &[]
        };
        let (matches, recheck) = match strategy {
            OVERLAP => (check.iter().any(|&c| c), false),
            CONTAINS | CONTAINS_ELEMENT => (check.iter().all(|&c| c), false),
            CONTAINED_BY => (true, true),
            EQUAL => (check.iter().all(|&c| c), true),
            other => errors::invalid_parameter(format!("unknown roaring64 GIN strategy {other}")),
        };
        set_out_arg::<bool>(fcinfo, 5, recheck);
        matches
    }
}
