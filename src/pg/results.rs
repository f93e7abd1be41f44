#![allow(
    unsafe_code,
    reason = "writes results into palloc'd varlena and cstring memory"
)]
//! Results written once into memory PostgreSQL allocated: a `roaring64` sized first
//! and written straight into its value, a bytea, a cstring. Every size is checked
//! against PostgreSQL's 1 GB value limit before anything is allocated (54000).

use pgrx::pg_sys;
use pgrx::varlena::set_varsize_4b;
use sroar::{Encode, Splice, Writer};

use super::entry::{Call, IntoRet};
use crate::errors::{self, MAX_VALUE_BYTES};

/// A writer's buffer of up to this many bytes, once its result is copied into the
/// value, is kept for the next writer until the transaction ends: a statement that
/// makes many large results (`rb_or` per group) then writes each where the last
/// one was, not into fresh memory that costs a page fault per 4 kB (the commit
/// that added it has the figures).
const KEEP_WRITER_BYTES: usize = 64 << 20;

/// Frees the writer buffer kept by [`RoaringOut::into_datum`] when a transaction
/// ends (commits, aborts or prepares), so that none outlives it.
pub fn release_kept_buffers_at_transaction_end() {
    #[pgrx::pg_guard]
    unsafe extern "C-unwind" fn release(
        _event: pg_sys::XactEvent::Type,
        _arg: *mut core::ffi::c_void,
    ) {
        Writer::release_spare();
    }
    // SAFETY: called once, from _PG_init; the callback is a plain function that
    // lives as long as the library and touches no PostgreSQL state.
    unsafe { pg_sys::RegisterXactCallback(Some(release), core::ptr::null_mut()) }
}

/// A `roaring64` result: written once into a palloc'd value of exactly its size.
pub enum RoaringOut {
    /// Not yet encoded: sized and written straight into the result value.
    Writer(Writer),
    /// Already encoded by the core crate (copied once).
    Bytes(Vec<u8>),
    /// The caller's own argument, returned as it came.
    Datum(pg_sys::Datum),
}

impl From<Writer> for RoaringOut {
    fn from(w: Writer) -> Self {
        RoaringOut::Writer(w)
    }
}

/// A core-crate result: a value over PostgreSQL's limit becomes 54000.
impl From<Result<Vec<u8>, sroar::CapacityError>> for RoaringOut {
    fn from(r: Result<Vec<u8>, sroar::CapacityError>) -> Self {
        RoaringOut::Bytes(r.unwrap_or_else(|e| errors::too_large(e.needed)))
    }
}

/// A core-crate result: a value over PostgreSQL's limit becomes 54000.
impl From<Result<sroar::Roaring, sroar::CapacityError>> for RoaringOut {
    fn from(r: Result<sroar::Roaring, sroar::CapacityError>) -> Self {
        RoaringOut::Bytes(r.unwrap_or_else(|e| errors::too_large(e.needed)).into())
    }
}

impl From<sroar::Roaring> for RoaringOut {
    fn from(r: sroar::Roaring) -> Self {
        RoaringOut::Bytes(r.into())
    }
}

impl From<Vec<u8>> for RoaringOut {
    fn from(b: Vec<u8>) -> Self {
        RoaringOut::Bytes(b)
    }
}

/// A result spliced from an input: written now, while the input it copies from is
/// still borrowed.
impl From<Splice<'_>> for RoaringOut {
    fn from(mut s: Splice<'_>) -> Self {
        RoaringOut::Datum(palloc_value(&mut s))
    }
}

/// A copy of an argument changed in place into the result.
impl From<super::Owned<'_>> for RoaringOut {
    fn from(v: super::Owned<'_>) -> Self {
        RoaringOut::Datum(v.into_datum())
    }
}

impl From<super::Value<'_>> for RoaringOut {
    fn from(v: super::Value<'_>) -> Self {
        RoaringOut::Datum(v.datum())
    }
}

impl RoaringOut {
    pub(super) fn into_datum(self) -> pg_sys::Datum {
        match self {
            RoaringOut::Writer(mut w) => {
                let d = palloc_value(&mut w);
                w.recycle(KEEP_WRITER_BYTES);
                d
            }
            RoaringOut::Bytes(mut b) => palloc_value(&mut b),
            RoaringOut::Datum(d) => d,
        }
    }
}

impl IntoRet for RoaringOut {
    fn into_ret(self, _call: Call<'_>) -> Option<pg_sys::Datum> {
        Some(self.into_datum())
    }
}

/// A `roaring64` result that may be SQL NULL (an intersection of no sets).
pub type MaybeRoaring = Option<RoaringOut>;

/// The one way a `roaring64` value is made: sized, allocated in the current memory
/// context at exactly that size (54000 before allocating beyond PostgreSQL's
/// limit), and written once.
pub(super) fn palloc_value(set: &mut impl Encode) -> pg_sys::Datum {
    let len = set
        .encoded_len()
        .unwrap_or_else(|e| errors::too_large(e.needed));
    let out = palloc_varlena(len);
    if let Err(e) = set.write_into(out.data) {
        errors::too_large(e.needed)
    }
    out.datum
}

/// The size of `set` as a value, header included, for a caller that allocates it
/// (an expanded object's flat size); 54000 beyond PostgreSQL's limit.
pub(super) fn value_size(set: &mut impl Encode) -> usize {
    let len = set
        .encoded_len()
        .unwrap_or_else(|e| errors::too_large(e.needed));
    let total = len + pg_sys::VARHDRSZ;
    if total > MAX_VALUE_BYTES {
        errors::too_large(total as u64);
    }
    total
}

/// Writes `set` as a value into memory PostgreSQL allocated: `size` bytes, as
/// [`value_size`] returned (an expanded object being flattened).
///
/// # Safety
/// `out` must point to `size` writable bytes, and `size` must be what
/// [`value_size`] returned for `set`, unchanged since.
pub(super) unsafe fn write_value(out: *mut core::ffi::c_void, size: usize, set: &impl Encode) {
    // SAFETY: guaranteed by the caller; the data bytes follow the 4-byte header.
    unsafe {
        set_varsize_4b(out.cast(), size as i32);
        let data = core::slice::from_raw_parts_mut(
            (out as *mut u8).add(pg_sys::VARHDRSZ),
            size - pg_sys::VARHDRSZ,
        );
        if let Err(e) = set.write_into(data) {
            errors::too_large(e.needed);
        }
    }
}

/// A palloc'd varlena with `len` data bytes and its header set: fill `data`, then
/// return `datum`.
pub(super) struct VarlenaOut<'mcx> {
    pub datum: pg_sys::Datum,
    pub data: &'mcx mut [u8],
}

/// Allocates a varlena of `len` data bytes in the current memory context, failing
/// with 54000 before allocating when it would pass PostgreSQL's value limit.
pub(super) fn palloc_varlena<'mcx>(len: usize) -> VarlenaOut<'mcx> {
    let total = len.saturating_add(pg_sys::VARHDRSZ);
    if total > MAX_VALUE_BYTES {
        errors::too_large(total as u64);
    }
    // SAFETY: palloc returns `total` writable bytes or raises an error; the header is
    // set before anyone can read the value, and `data` covers exactly the bytes after
    // the 4-byte header. The memory lives as long as the current memory context, which
    // outlives the call that returns it.
    unsafe {
        let ptr = pg_sys::palloc(total) as *mut pg_sys::varlena;
        set_varsize_4b(ptr, total as i32);
        let data = core::slice::from_raw_parts_mut((ptr as *mut u8).add(pg_sys::VARHDRSZ), len);
        VarlenaOut {
            datum: pg_sys::Datum::from(ptr),
            data,
        }
    }
}

impl VarlenaOut<'_> {
    /// Keeps only the first `len` data bytes (at most as many as were allocated), for
    /// a writer that knows the exact size only once it is done.
    fn truncate(&mut self, len: usize) {
        assert!(len <= self.data.len(), "truncate grows a varlena");
        // SAFETY: the datum is the 4-byte-header varlena allocated by palloc_varlena,
        // and the new size is within the allocation.
        unsafe { set_varsize_4b(self.datum.cast_mut_ptr(), (len + pg_sys::VARHDRSZ) as i32) };
    }
}

/// A varlena result (bytea, or `roaring64` bytes a writer sized itself) written in
/// place: `write` gets exactly `len` bytes and fills them.
pub struct Bytea(pg_sys::Datum);

impl Bytea {
    /// A value of `len` bytes that `write` fills.
    pub fn write(len: usize, write: impl FnOnce(&mut [u8])) -> Bytea {
        let out = palloc_varlena(len);
        write(out.data);
        Bytea(out.datum)
    }

    /// A value of at most `capacity` bytes: `write` fills a prefix and says how long
    /// it is, or fails with `E` (nothing is kept then but the allocation, which goes
    /// with the call's memory context).
    pub fn write_prefix<E>(
        capacity: usize,
        write: impl FnOnce(&mut [u8]) -> Result<usize, E>,
    ) -> Result<Bytea, E> {
        let mut out = palloc_varlena(capacity);
        let len = write(out.data)?;
        out.truncate(len);
        Ok(Bytea(out.datum))
    }

    /// The value as a `roaring64` result (the two share their representation).
    pub fn into_roaring(self) -> RoaringOut {
        RoaringOut::Datum(self.0)
    }
}

impl IntoRet for Bytea {
    fn into_ret(self, _call: Call<'_>) -> Option<pg_sys::Datum> {
        Some(self.0)
    }
}

/// A palloc'd C string result, written in place.
pub struct CStringOut(pg_sys::Datum);

impl IntoRet for CStringOut {
    fn into_ret(self, _call: Call<'_>) -> Option<pg_sys::Datum> {
        Some(self.0)
    }
}

/// A palloc'd C string of `len` bytes (and its NUL), in the current memory context,
/// for text output written in place; `write` must not write a NUL byte.
pub fn palloc_cstring(len: usize, write: impl FnOnce(&mut [u8])) -> CStringOut {
    if len >= MAX_VALUE_BYTES {
        errors::too_large(len as u64 + 1);
    }
    // SAFETY: palloc returns len + 1 writable bytes or raises an error; the bytes are
    // written before the string is read, and the memory lives as long as the current
    // memory context, which outlives the call that returns it.
    unsafe {
        let ptr = pg_sys::palloc(len + 1) as *mut u8;
        let buf = core::slice::from_raw_parts_mut(ptr, len + 1);
        write(&mut buf[..len]);
        buf[len] = 0;
        if buf[..len].contains(&0) {
            errors::invalid_parameter("text output contains a NUL byte");
        }
        CStringOut(pg_sys::Datum::from(ptr))
    }
}
