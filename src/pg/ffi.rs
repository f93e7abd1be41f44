#![allow(
    unsafe_code,
    reason = "declares PostgreSQL symbols that pgrx does not bind, or binds with a guard we avoid"
)]
//! PostgreSQL's own symbols, declared here: those pgrx's bindings lack, and one it
//! binds that is called without pgrx's per-call guard on purpose.

use pgrx::pg_sys;

// PostgreSQL's byte hash (common/hashfn.c), exported by the server but not in pgrx's
// bindings. It cannot raise an error, so it needs no guard.
unsafe extern "C" {
    #[link_name = "hash_bytes"]
    fn hash_bytes_c(k: *const u8, keylen: i32) -> u32;
    #[link_name = "hash_bytes_extended"]
    fn hash_bytes_extended_c(k: *const u8, keylen: i32, seed: u64) -> u64;
}

/// PostgreSQL's `hash_bytes` of `bytes` (the seeding of the built-in hash opclasses).
pub fn hash_bytes(bytes: &[u8]) -> u32 {
    // SAFETY: hash_bytes reads exactly `len` bytes from a valid pointer.
    unsafe { hash_bytes_c(bytes.as_ptr(), bytes.len() as i32) }
}

/// PostgreSQL's `hash_bytes_extended` of `bytes` with `seed`.
pub fn hash_bytes_extended(bytes: &[u8], seed: u64) -> u64 {
    // SAFETY: as in `hash_bytes`.
    unsafe { hash_bytes_extended_c(bytes.as_ptr(), bytes.len() as i32, seed) }
}

/// PostgreSQL's multirange value (utils/multirangetypes.h), only passed by pointer.
#[repr(C)]
pub(super) struct MultirangeType {
    _opaque: [u8; 0],
}

// utils/multirangetypes.h, which pgrx's bindings do not include. Both can raise an
// error, so every call goes through pg_guard_ffi_boundary.
unsafe extern "C-unwind" {
    pub(super) fn make_multirange(
        mltrngtypoid: pg_sys::Oid,
        rangetyp: *mut pg_sys::TypeCacheEntry,
        range_count: i32,
        ranges: *mut *mut pg_sys::RangeType,
    ) -> *mut MultirangeType;
    pub(super) fn multirange_deserialize(
        rangetyp: *mut pg_sys::TypeCacheEntry,
        range: *const MultirangeType,
        range_count: *mut i32,
        ranges: *mut *mut *mut pg_sys::RangeType,
    );
}

// PostgreSQL's own symbol, called without pgrx's per-call guard (a sigsetjmp,
// which costs as much as storing the row): `srf::materialize_rows` guards a whole
// batch of calls at once instead.
unsafe extern "C-unwind" {
    #[link_name = "tuplestore_putvalues"]
    pub(super) fn tuplestore_putvalues_unguarded(
        state: *mut pg_sys::Tuplestorestate,
        tdesc: pg_sys::TupleDesc,
        values: *mut pg_sys::Datum,
        isnull: *mut bool,
    );
}
