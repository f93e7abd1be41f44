#![allow(
    unsafe_code,
    reason = "reads varlena memory: headers, TOAST pointers, detoasted bytes"
)]
//! A `roaring64` argument before anything of it is read: a varlena that may be
//! inline, compressed, stored out of line (TOASTed) or an aggregate state's
//! expanded object. What to read of it, and when, is `crate::read`'s decision; this
//! type only does the reading.

use core::marker::PhantomData;

use pgrx::pg_sys;
use pgrx::varlena::{vardata_any, varlena_to_byte_slice, varsize_any_exhdr};
use sroar::RoaringView;

use super::entry::{Arg, FromArg};

/// A non-NULL `roaring64` datum of the current call; `'fcx` is the call's duration.
#[derive(Clone, Copy)]
pub struct Value<'fcx> {
    datum: pg_sys::Datum,
    _call: PhantomData<&'fcx [u8]>,
}

impl<'fcx> FromArg<'fcx> for Value<'fcx> {
    fn from_arg(arg: Arg<'fcx>) -> Self {
        Value {
            datum: arg.strict_datum(),
            _call: PhantomData,
        }
    }
}

impl<'fcx> Value<'fcx> {
    /// # Safety
    /// `datum` must be a non-null `roaring64` (or `roaring64_state`) datum that
    /// lives for `'fcx`.
    pub(super) unsafe fn from_datum(datum: pg_sys::Datum) -> Self {
        Value {
            datum,
            _call: PhantomData,
        }
    }

    pub(super) fn datum(self) -> pg_sys::Datum {
        self.datum
    }

    /// The length of the value's bytes, read from its pointer or header alone (a
    /// TOASTed value is not fetched; an aggregate's state reports its flat size).
    pub fn byte_len(self) -> usize {
        // SAFETY: a non-null varlena of our type (see `Value`); toast_raw_datum_size
        // reads only its header or TOAST pointer, or asks an expanded object its
        // flat size.
        unsafe { pg_sys::toast_raw_datum_size(self.datum) - pg_sys::VARHDRSZ }
    }

    /// The whole value, detoasted if it has to be (the copy lives as long as the call).
    pub fn bytes(self) -> &'fcx [u8] {
        // SAFETY: a non-null varlena of our type; detoasting returns a pointer into
        // memory that lives for the rest of the call.
        unsafe { varlena_to_byte_slice(pg_sys::pg_detoast_datum_packed(self.datum.cast_mut_ptr())) }
    }

    /// The whole value, detoasted if it has to be, for as long as the result is
    /// held: a copy detoasting made is freed when it is dropped, so that a call
    /// reading many large values one after another reuses memory instead of holding
    /// them all.
    pub fn detoast(self) -> Detoasted<'fcx> {
        let datum = self.datum.cast_mut_ptr::<pg_sys::varlena>();
        // SAFETY: as in `bytes`.
        let ptr = unsafe { pg_sys::pg_detoast_datum_packed(datum) };
        Detoasted {
            ptr,
            copy: ptr != datum,
            _call: PhantomData,
        }
    }

    /// Bytes `[offset, offset + len)` of the value (fewer where it ends), fetching
    /// only the TOAST chunks that hold them when the value is out of line.
    pub fn slice(self, offset: usize, len: usize) -> &'fcx [u8] {
        let (Ok(offset), Ok(len)) = (i32::try_from(offset), i32::try_from(len)) else {
            return &[];
        };
        // SAFETY: as in `bytes`; pg_detoast_datum_slice returns a fresh varlena of at
        // most `len` data bytes that lives for the rest of the call.
        unsafe {
            varlena_to_byte_slice(pg_sys::pg_detoast_datum_slice(
                self.datum.cast_mut_ptr(),
                offset,
                len,
            ))
        }
    }

    /// The length of the value when it is stored out of line and uncompressed, where
    /// reading a few slices costs a few chunks instead of the whole value.
    pub fn toasted_uncompressed_len(self) -> Option<usize> {
        let ext = self.on_disk()?;
        let stored = ext.va_extinfo & ((1 << pg_sys::VARLENA_EXTSIZE_BITS) - 1);
        (stored as i64 >= i64::from(ext.va_rawsize) - pg_sys::VARHDRSZ as i64)
            .then_some(stored as usize)
    }

    /// What names the stored bytes of an out-of-line value: its TOAST relation, value
    /// id and sizes. Stored values never change in place, so within a query the same
    /// key always means the same bytes.
    pub fn toast_key(self) -> Option<[u32; 4]> {
        let ext = self.on_disk()?;
        Some([
            ext.va_toastrelid.to_u32(),
            ext.va_valueid.to_u32(),
            ext.va_extinfo,
            ext.va_rawsize as u32,
        ])
    }

    /// The TOAST pointer of a value stored out of line on disk.
    fn on_disk(self) -> Option<pg_sys::varatt_external> {
        let p = self.datum.cast_mut_ptr::<u8>();
        // SAFETY: a non-null varlena; an external one (first byte 0x01) has its tag
        // next and, for VARTAG_ONDISK, an unaligned varatt_external after that.
        unsafe {
            if *p != 0x01 || u32::from(*p.add(1)) != pg_sys::vartag_external::VARTAG_ONDISK {
                return None;
            }
            Some((p.add(2) as *const pg_sys::varatt_external).read_unaligned())
        }
    }

    /// The header of the expanded object behind the datum, when it is a pointer to
    /// one (read/write or read-only) rather than a varlena.
    pub(super) fn expanded_object(self) -> Option<*mut pg_sys::ExpandedObjectHeader> {
        let p = self.datum.cast_mut_ptr::<u8>();
        // SAFETY: a non-null varlena, so its first byte is readable. An external
        // varlena (first byte 0x01 on little-endian) has a tag byte next; an
        // expanded one then holds an unaligned ExpandedObjectHeader pointer.
        unsafe {
            if p.is_null() || *p != 0x01 {
                return None;
            }
            let tag = u32::from(*p.add(1));
            if tag != pg_sys::vartag_external::VARTAG_EXPANDED_RW
                && tag != pg_sys::vartag_external::VARTAG_EXPANDED_RO
            {
                return None;
            }
            Some((p.add(2) as *const *mut pg_sys::ExpandedObjectHeader).read_unaligned())
        }
    }
}

/// A value's bytes, detoasted for as long as this is held (see [`Value::detoast`]).
pub struct Detoasted<'fcx> {
    ptr: *mut pg_sys::varlena,
    /// Whether `ptr` is a copy detoasting made, freed on drop.
    copy: bool,
    _call: PhantomData<&'fcx [u8]>,
}

impl<'fcx> Detoasted<'fcx> {
    /// The bytes, which cannot outlive this.
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: a varlena that lives until this is dropped (see `drop`).
        unsafe { varlena_to_byte_slice(self.ptr) }
    }

    /// The copy detoasting made, to change in place and return as the result; None
    /// when detoasting made none (the bytes are the caller's then).
    pub fn into_owned(self) -> Option<Owned<'fcx>> {
        let this = core::mem::ManuallyDrop::new(self);
        this.copy.then(|| Owned {
            ptr: this.ptr,
            _call: PhantomData,
        })
    }
}

/// A fresh palloc'd copy of a value, in the call's memory context, that nothing
/// else refers to: it may be changed and returned as the call's result (freed on
/// drop otherwise).
pub struct Owned<'fcx> {
    ptr: *mut pg_sys::varlena,
    _call: PhantomData<&'fcx [u8]>,
}

impl Owned<'_> {
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: a varlena that lives until this is dropped or returned.
        unsafe { varlena_to_byte_slice(self.ptr) }
    }

    pub fn view(&self) -> RoaringView<'_> {
        stored_view(self.bytes())
    }

    pub fn bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: the data bytes of a detoasted varlena that only `self` refers to
        // (see `Owned`), borrowed mutably through `self`.
        unsafe {
            core::slice::from_raw_parts_mut(
                vardata_any(self.ptr) as *mut u8,
                varsize_any_exhdr(self.ptr),
            )
        }
    }

    /// The copy as the call's result.
    pub(super) fn into_datum(self) -> pg_sys::Datum {
        let this = core::mem::ManuallyDrop::new(self);
        pg_sys::Datum::from(this.ptr)
    }
}

impl Drop for Owned<'_> {
    fn drop(&mut self) {
        // SAFETY: a fresh palloc'd copy that only this refers to (see `Owned`).
        unsafe { pg_sys::pfree(self.ptr.cast()) };
    }
}

impl Drop for Detoasted<'_> {
    fn drop(&mut self) {
        if self.copy {
            // SAFETY: a fresh palloc'd copy made by `Value::detoast`, which only this
            // refers to (the slices `bytes` lent are borrows of `self`).
            unsafe { pg_sys::pfree(self.ptr.cast()) };
        }
    }
}

/// The bytes of a stored roaring64 (an argument, or an element of a roaring64[]) as
/// a view, without re-validating them. The header is read first, so that a value of
/// another format version is an error, not a misreading.
pub fn stored_view(bytes: &[u8]) -> RoaringView<'_> {
    if let Err(e) = sroar::Header::from_prefix(bytes) {
        crate::errors::stored_value(e);
    }
    // SAFETY (contract of from_bytes_unchecked): every roaring64 value was validated
    // when it entered the database (text, binary and bytea input all validate), and
    // every function of ours writes canonical buffers; the header says it is of this
    // format version.
    unsafe { RoaringView::from_bytes_unchecked(bytes) }
}
