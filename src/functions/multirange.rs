#![allow(
    unsafe_code,
    reason = "builds and reads int8multirange through C functions pgrx does not bind"
)]
//! int8multirange ↔ roaring64. Written in Rust, not SQL: a SQL-language body that
//! calls other functions by name runs whatever the caller's search_path finds first,
//! so a hostile schema could replace them, and an install into another schema
//! could not find them at all.

use pgrx::callconv::{BoxRet, FcInfo};
use pgrx::datum::Datum;
use pgrx::prelude::*;

use crate::datum::{Roaring, RoaringOut};
use crate::errors;
use crate::int8;

/// PostgreSQL's multirange value (utils/multirangetypes.h), only passed by pointer.
#[repr(C)]
struct MultirangeType {
    _opaque: [u8; 0],
}

// utils/multirangetypes.h, which pgrx's bindings do not include. Both can raise an
// error, so every call goes through pg_guard_ffi_boundary (see `guarded`).
extern "C-unwind" {
    fn make_multirange(
        mltrngtypoid: pg_sys::Oid,
        rangetyp: *mut pg_sys::TypeCacheEntry,
        range_count: i32,
        ranges: *mut *mut pg_sys::RangeType,
    ) -> *mut MultirangeType;
    fn multirange_deserialize(
        rangetyp: *mut pg_sys::TypeCacheEntry,
        range: *const MultirangeType,
        range_count: *mut i32,
        ranges: *mut *mut *mut pg_sys::RangeType,
    );
}

/// Runs `f`, a call into PostgreSQL that may raise an error, behind pgrx's guard,
/// which turns the error into a Rust panic that pgrx reports as that error.
///
/// # Safety
/// As for `pg_sys::ffi::pg_guard_ffi_boundary`: the main thread only.
unsafe fn guarded<T>(f: impl FnOnce() -> T) -> T {
    // SAFETY: forwarded to the caller.
    unsafe { pg_sys::ffi::pg_guard_ffi_boundary(f) }
}

/// An int8multirange result, built by PostgreSQL's own make_multirange.
struct Int8Multirange(pg_sys::Datum);

// SAFETY: the datum is a complete int8multirange palloc'd in the call's context.
unsafe impl BoxRet for Int8Multirange {
    unsafe fn box_into<'fcx>(self, fcinfo: &mut FcInfo<'fcx>) -> Datum<'fcx> {
        // SAFETY: a valid by-reference datum of the declared return type.
        unsafe { fcinfo.return_raw_datum(self.0) }
    }
}

pgrx::impl_sql_translatable!(Int8Multirange, "int8multirange");

/// int8range's type cache entry, with its range support loaded.
fn int8range_typcache() -> *mut pg_sys::TypeCacheEntry {
    // SAFETY: lookup_type_cache returns a cache entry that lives for the backend's
    // life, or raises an error.
    unsafe { pg_sys::lookup_type_cache(pg_sys::INT8RANGEOID, pg_sys::TYPECACHE_RANGE_INFO as i32) }
}

/// The set's maximal runs as an int8multirange: a run that ends at the largest int8
/// has no exclusive upper bound, so it becomes `[first,)`.
#[pg_extern(sql = false)]
fn rb_to_multirange(r: Roaring) -> Int8Multirange {
    let view = r.view();
    let count = view.runs().count();
    // An int8multirange spends at least 17 bytes on each range (flags and bounds).
    let bytes = (count as u64).saturating_mul(17).saturating_add(16);
    if count > i32::MAX as usize || bytes > errors::MAX_VALUE_BYTES as u64 {
        errors::too_large(bytes);
    }
    let typcache = int8range_typcache();
    // SAFETY: palloc returns room for `count` pointers or raises an error; each slot
    // is written below before make_multirange reads it; make_range gets valid
    // bounds of int8range's element type (int8, by value).
    unsafe {
        let ranges = pg_sys::palloc(count.max(1) * size_of::<*mut pg_sys::RangeType>())
            as *mut *mut pg_sys::RangeType;
        for (i, (first, last)) in view.runs().enumerate() {
            if i % 65536 == 65535 {
                pgrx::check_for_interrupts!();
            }
            let mut lower = pg_sys::RangeBound {
                val: pg_sys::Datum::from(int8::to_i64(first)),
                infinite: false,
                inclusive: true,
                lower: true,
            };
            let mut upper = pg_sys::RangeBound {
                val: pg_sys::Datum::from(int8::to_i64(last).wrapping_add(1)),
                infinite: last == u64::MAX,
                inclusive: false,
                lower: false,
            };
            *ranges.add(i) = pg_sys::make_range(typcache, &mut lower, &mut upper, false);
        }
        let mr =
            guarded(|| make_multirange(pg_sys::INT8MULTIRANGEOID, typcache, count as i32, ranges));
        Int8Multirange(pg_sys::Datum::from(mr))
    }
}

/// The set of the values of an int8multirange.
#[pg_extern(sql = false)]
fn roaring64_from_multirange(fcinfo: pg_sys::FunctionCallInfo) -> RoaringOut {
    let typcache = int8range_typcache();
    let mut runs = Vec::new();
    // SAFETY: argument 0 is a non-null int8multirange (the function is STRICT and
    // declared on that type), detoasted here; multirange_deserialize returns
    // `count` valid range pointers, each read with int8range's type cache.
    unsafe {
        let arg = pgrx::fcinfo::pg_getarg_datum_raw(fcinfo, 0);
        let mr = pg_sys::pg_detoast_datum(arg.cast_mut_ptr()) as *const MultirangeType;
        let mut count = 0i32;
        let mut ranges: *mut *mut pg_sys::RangeType = core::ptr::null_mut();
        guarded(|| multirange_deserialize(typcache, mr, &mut count, &mut ranges));
        runs.reserve(count as usize);
        for i in 0..count as usize {
            if i % 65536 == 65535 {
                pgrx::check_for_interrupts!();
            }
            let mut lower = pg_sys::RangeBound::default();
            let mut upper = pg_sys::RangeBound::default();
            let mut empty = false;
            pg_sys::range_deserialize(typcache, *ranges.add(i), &mut lower, &mut upper, &mut empty);
            if empty {
                continue;
            }
            let bound = |b: &pg_sys::RangeBound, infinite: i64, step: i64| {
                if b.infinite {
                    Some(infinite)
                } else {
                    let v = b.val.value() as i64;
                    if b.inclusive {
                        Some(v)
                    } else {
                        v.checked_add(step)
                    }
                }
            };
            let (Some(lo), Some(hi)) = (bound(&lower, i64::MIN, 1), bound(&upper, i64::MAX, -1))
            else {
                continue;
            };
            if lo <= hi {
                runs.push((int8::to_u64(lo), int8::to_u64(hi)));
            }
        }
    }
    sroar::from_runs(&runs).into()
}
