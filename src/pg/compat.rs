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
