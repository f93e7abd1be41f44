#![allow(
    unsafe_code,
    reason = "calls the PostgreSQL functions whose C signatures differ between majors"
)]
//! What differs between the PostgreSQL majors sroar_pg builds for (15 to 18), in one
//! place: each function here has one body per C signature, chosen by the `pgNN`
//! feature, and the rest of the floor calls it. Nothing above `src/pg` sees a major.

use pgrx::pg_sys;

/// `make_range`: PostgreSQL 16 added a soft-error context (`escontext`), which is
/// NULL here, so a bad range raises an error as it did before.
///
/// # Safety
/// `typcache` is a range type's cache entry and the bounds are valid values of its
/// element type.
pub unsafe fn make_range(
    typcache: *mut pg_sys::TypeCacheEntry,
    lower: &mut pg_sys::RangeBound,
    upper: &mut pg_sys::RangeBound,
) -> *mut pg_sys::RangeType {
    #[cfg(feature = "pg15")]
    // SAFETY: the caller's contract; `empty` is false.
    unsafe {
        pg_sys::make_range(typcache, lower, upper, false)
    }
    #[cfg(not(feature = "pg15"))]
    // SAFETY: the caller's contract; `empty` is false and a NULL escontext raises.
    unsafe {
        pg_sys::make_range(typcache, lower, upper, false, std::ptr::null_mut())
    }
}

/// The column's statistics target, which PostgreSQL 17 moved from the attribute's
/// catalog row into `VacAttrStats` (after `std_typanalyze`, either is resolved: the
/// default target in place of -1).
///
/// # Safety
/// `stats` is ANALYZE's VacAttrStats for a column, after `std_typanalyze`.
#[allow(clippy::useless_conversion, reason = "an i32 on 15, an i16 on 16")]
pub unsafe fn stat_target(stats: *mut pg_sys::VacAttrStats) -> i32 {
    #[cfg(any(feature = "pg15", feature = "pg16"))]
    // SAFETY: the caller's contract; `attr` is the column's pg_attribute row.
    unsafe {
        i32::from((*(*stats).attr).attstattarget)
    }
    #[cfg(not(any(feature = "pg15", feature = "pg16")))]
    // SAFETY: the caller's contract.
    unsafe {
        (*stats).attstattarget
    }
}
