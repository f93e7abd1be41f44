#![allow(
    unsafe_code,
    reason = "writes int8[] values in place in palloc'd memory"
)]
//! `int8[]` results written in place: the array's header, then its elements, in one
//! palloc'd value of exactly its size, so every size up to PostgreSQL's limit works
//! with no intermediate copy.

use pgrx::pg_sys;
use pgrx::varlena::set_varsize_4b;

use super::entry::{Call, IntoRet};
use crate::errors;

/// A one-dimensional `int8[]` without NULLs, allocated and headed: fill [`data`]
/// with the elements' bit patterns (`sroar::to_signed_bits`), then return it.
///
/// [`data`]: Int8Array::data
pub struct Int8Array {
    datum: pg_sys::Datum,
    data: *mut u64,
    len: usize,
}

impl Int8Array {
    /// The elements, to fill.
    pub fn data(&mut self) -> &mut [u64] {
        if self.len == 0 {
            return &mut [];
        }
        // SAFETY: `data` points at `len` u64 slots of the palloc'd array (see
        // `int8_array`), borrowed mutably through `self`.
        unsafe { core::slice::from_raw_parts_mut(self.data, self.len) }
    }
}

impl IntoRet for Int8Array {
    fn into_ret(self, _call: Call<'_>) -> Option<pg_sys::Datum> {
        Some(self.datum)
    }
}

/// Header bytes of a one-dimensional array without NULLs: `ArrayType`, one dimension
/// and one lower bound, MAXALIGNed (`ARR_OVERHEAD_NONULLS(1)`).
const ARRAY_HEADER: usize = 24;

/// Allocates an `int8[]` of `n` elements in the current memory context, failing with
/// 54000 before allocating when it would pass PostgreSQL's value limit.
pub fn int8_array(n: u64) -> Int8Array {
    let total = n.saturating_mul(8).saturating_add(ARRAY_HEADER as u64);
    if total > errors::MAX_VALUE_BYTES as u64 {
        errors::too_large(total);
    }
    if n == 0 {
        // SAFETY: construct_empty_array returns a palloc'd empty array or raises.
        let empty = unsafe { pg_sys::construct_empty_array(pg_sys::INT8OID) };
        return Int8Array {
            datum: pg_sys::Datum::from(empty),
            data: core::ptr::null_mut(),
            len: 0,
        };
    }
    // SAFETY: palloc returns `total` writable bytes, 8-aligned, or raises an error.
    // The header (ArrayType, then dims[0] and lbound[0]) is written before anyone can
    // read the value, and `data` covers exactly the n int8 slots after it, which
    // every caller fills before the array is returned.
    unsafe {
        let ptr = pg_sys::palloc(total as usize) as *mut u8;
        let arr = ptr as *mut pg_sys::ArrayType;
        set_varsize_4b(arr as *mut pg_sys::varlena, total as i32);
        (*arr).ndim = 1;
        (*arr).dataoffset = 0;
        (*arr).elemtype = pg_sys::INT8OID;
        let dims = ptr.add(size_of::<pg_sys::ArrayType>()) as *mut i32;
        *dims = n as i32;
        *dims.add(1) = 1;
        Int8Array {
            datum: pg_sys::Datum::from(ptr),
            data: ptr.add(ARRAY_HEADER) as *mut u64,
            len: n as usize,
        }
    }
}
