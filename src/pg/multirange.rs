#![allow(
    unsafe_code,
    reason = "builds and reads int8multirange through PostgreSQL's C functions"
)]
//! `int8multirange` in and out, through PostgreSQL's own range functions.

use pgrx::pg_sys;

use super::entry::{Arg, Call, FromArg, IntoRet};
use super::ffi::{make_multirange, multirange_deserialize, MultirangeType};
use crate::errors;

/// int8range's type cache entry, with its range support loaded.
fn int8range_typcache() -> *mut pg_sys::TypeCacheEntry {
    // SAFETY: lookup_type_cache returns a cache entry that lives for the backend's
    // life, or raises an error.
    unsafe { pg_sys::lookup_type_cache(pg_sys::INT8RANGEOID, pg_sys::TYPECACHE_RANGE_INFO as i32) }
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
pub struct Int8Multirange(pg_sys::Datum);

impl IntoRet for Int8Multirange {
    fn into_ret(self, _call: Call<'_>) -> Option<pg_sys::Datum> {
        Some(self.0)
    }
}

impl Int8Multirange {
    /// The multirange of `count` ranges `[lower, upper)`, in order and apart; an
    /// upper bound of None is infinite.
    pub fn from_ranges(count: usize, ranges: impl Iterator<Item = (i64, Option<i64>)>) -> Self {
        // An int8multirange spends at least 17 bytes on each range (flags and bounds).
        let bytes = (count as u64).saturating_mul(17).saturating_add(16);
        if count > i32::MAX as usize || bytes > errors::MAX_VALUE_BYTES as u64 {
            errors::too_large(bytes);
        }
        let typcache = int8range_typcache();
        // SAFETY: palloc returns room for `count` pointers or raises an error; each
        // slot is written below before make_multirange reads it (the iterator gives
        // `count` ranges); make_range gets valid bounds of int8range's element type
        // (int8, by value).
        unsafe {
            let slots = pg_sys::palloc(count.max(1) * size_of::<*mut pg_sys::RangeType>())
                as *mut *mut pg_sys::RangeType;
            let mut n = 0;
            for (lower, upper) in ranges.take(count) {
                if n % 65536 == 65535 {
                    super::check_for_interrupts();
                }
                let mut lower = pg_sys::RangeBound {
                    val: pg_sys::Datum::from(lower),
                    infinite: false,
                    inclusive: true,
                    lower: true,
                };
                let mut upper = pg_sys::RangeBound {
                    val: pg_sys::Datum::from(upper.unwrap_or(0)),
                    infinite: upper.is_none(),
                    inclusive: false,
                    lower: false,
                };
                *slots.add(n) = super::compat::make_range(typcache, &mut lower, &mut upper);
                n += 1;
            }
            let mr =
                guarded(|| make_multirange(pg_sys::INT8MULTIRANGEOID, typcache, n as i32, slots));
            Int8Multirange(pg_sys::Datum::from(mr))
        }
    }
}

/// An int8multirange argument.
pub struct MultirangeArg(pg_sys::Datum);

impl<'fcx> FromArg<'fcx> for MultirangeArg {
    fn from_arg(arg: Arg<'fcx>) -> Self {
        MultirangeArg(arg.strict_datum())
    }
}

/// The ranges of an int8multirange as inclusive int8 bounds `(first, last)`, in
/// order; empty ranges and ranges with no int8 in them are left out.
pub fn multirange_runs(m: MultirangeArg) -> Vec<(i64, i64)> {
    let typcache = int8range_typcache();
    let mut runs = Vec::new();
    // SAFETY: the argument is a non-null int8multirange (the function is STRICT and
    // declared on that type), detoasted here; multirange_deserialize returns
    // `count` valid range pointers, each read with int8range's type cache.
    unsafe {
        let mr = pg_sys::pg_detoast_datum(m.0.cast_mut_ptr()) as *const MultirangeType;
        let mut count = 0i32;
        let mut ranges: *mut *mut pg_sys::RangeType = core::ptr::null_mut();
        guarded(|| multirange_deserialize(typcache, mr, &mut count, &mut ranges));
        runs.reserve(count as usize);
        for i in 0..count as usize {
            if i % 65536 == 65535 {
                super::check_for_interrupts();
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
                runs.push((lo, hi));
            }
        }
    }
    runs
}
