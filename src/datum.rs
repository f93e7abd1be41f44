#![allow(
    unsafe_code,
    reason = "the one module that reads and writes varlena memory"
)]
//! The only code that touches varlena: reading a `roaring64` argument in place (whole,
//! or only a prefix when the value is TOASTed), and handing back a result written once
//! into a palloc'd value of exactly the right size.

use core::marker::PhantomData;

use pgrx::callconv::{Arg, ArgAbi, BoxRet, FcInfo};
use pgrx::datum::{Datum, FromDatum};
use pgrx::pg_sys;
use pgrx::varlena::{set_varsize_4b, varlena_to_byte_slice};
use sroar::{Encode, RoaringView, Writer};

use crate::errors;

/// A `roaring64` argument, not yet detoasted: functions that need only the header or
/// one container read only those bytes of a large TOASTed value.
pub struct Roaring<'fcx> {
    datum: pg_sys::Datum,
    _call: PhantomData<&'fcx [u8]>,
}

impl<'fcx> Roaring<'fcx> {
    /// The datum as the caller passed it (a varlena or an expanded object's pointer).
    pub fn raw(&self) -> pg_sys::Datum {
        self.datum
    }

    /// The length of the value's bytes, read from its pointer or header alone (a
    /// TOASTed value is not fetched; an aggregate's state reports its flat size).
    pub fn byte_len(&self) -> usize {
        // SAFETY: the datum is a non-null varlena of our type (see `bytes`);
        // toast_raw_datum_size reads only its header or TOAST pointer, or asks an
        // expanded object its flat size.
        unsafe { pg_sys::toast_raw_datum_size(self.datum) - pg_sys::VARHDRSZ }
    }

    /// The whole value, detoasted if it has to be (the copy lives as long as the call).
    pub fn bytes(&self) -> &'fcx [u8] {
        // SAFETY: the datum is a non-null varlena of our type (ArgAbi only builds
        // `Roaring` from non-null arguments declared roaring64 in SQL); detoasting
        // returns a pointer into memory that lives for the rest of the call.
        unsafe { varlena_to_byte_slice(pg_sys::pg_detoast_datum_packed(self.datum.cast_mut_ptr())) }
    }

    /// The value as a view, without re-validating it. Its header is read first, so
    /// that a value of another format version is an error, not a misreading.
    pub fn view(&self) -> RoaringView<'fcx> {
        stored_view(self.bytes())
    }

    /// The first `len` bytes of the value (fewer if it is shorter). On a TOASTed value
    /// stored uncompressed this fetches only the chunks that hold them.
    pub fn prefix(&self, len: usize) -> &'fcx [u8] {
        self.slice(0, len)
    }

    /// Bytes `[offset, offset + len)` of the value (fewer where it ends), fetching
    /// only the TOAST chunks that hold them when the value is out of line.
    pub fn slice(&self, offset: usize, len: usize) -> &'fcx [u8] {
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
    pub fn toasted_uncompressed_len(&self) -> Option<usize> {
        let ext = self.on_disk()?;
        let stored = ext.va_extinfo & ((1 << pg_sys::VARLENA_EXTSIZE_BITS) - 1);
        (stored as i64 >= i64::from(ext.va_rawsize) - pg_sys::VARHDRSZ as i64)
            .then_some(stored as usize)
    }

    /// What names the stored bytes of an out-of-line value: its TOAST relation, value
    /// id and sizes. Stored values never change in place, so within a query the same
    /// key always means the same bytes.
    pub fn toast_key(&self) -> Option<[u32; 4]> {
        let ext = self.on_disk()?;
        Some([
            ext.va_toastrelid.to_u32(),
            ext.va_valueid.to_u32(),
            ext.va_extinfo,
            ext.va_rawsize as u32,
        ])
    }

    /// The TOAST pointer of a value stored out of line on disk.
    fn on_disk(&self) -> Option<pg_sys::varatt_external> {
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
}

/// The bytes of a stored roaring64 (an argument, or an element of a roaring64[]) as
/// a view, without re-validating them. The header is read first, so that a value of
/// another format version is an error, not a misreading.
pub fn stored_view(bytes: &[u8]) -> RoaringView<'_> {
    if let Err(e) = sroar::header_from_prefix(bytes) {
        errors::stored_value(e);
    }
    // SAFETY (contract of from_bytes_unchecked): every roaring64 value was validated
    // when it entered the database (text, binary and bytea input all validate), and
    // every function of ours writes canonical buffers; the header says it is of this
    // format version.
    unsafe { RoaringView::from_bytes_unchecked(bytes) }
}

impl Roaring<'_> {
    /// A roaring64 from a raw argument datum, for support functions whose argument
    /// types vary (GIN's query argument).
    ///
    /// # Safety
    /// `datum` must be a non-null roaring64 datum that outlives the call.
    pub unsafe fn from_raw(datum: pg_sys::Datum) -> Self {
        Roaring {
            datum,
            _call: PhantomData,
        }
    }
}

impl FromDatum for Roaring<'_> {
    unsafe fn from_polymorphic_datum(
        datum: pg_sys::Datum,
        is_null: bool,
        _typoid: pg_sys::Oid,
    ) -> Option<Self> {
        (!is_null && !datum.is_null()).then_some(Roaring {
            datum,
            _call: PhantomData,
        })
    }
}

// SAFETY: the datum is only read as a varlena, which every roaring64 value is.
unsafe impl<'fcx> ArgAbi<'fcx> for Roaring<'fcx> {
    unsafe fn unbox_arg_unchecked(arg: Arg<'_, 'fcx>) -> Self {
        let index = arg.index();
        // SAFETY: the caller (pgrx's wrapper) guarantees the argument has our type.
        unsafe { arg.unbox_arg_using_from_datum() }
            .unwrap_or_else(|| errors::invalid_parameter(format!("argument {index} is NULL")))
    }
}

pgrx::impl_sql_translatable!(Roaring<'_>, "roaring64");

/// A `roaring64` result: written once into a palloc'd value of exactly its size.
pub enum RoaringOut {
    /// Not yet encoded: sized and written straight into the result value.
    Writer(Writer),
    /// Already encoded by the core crate (copied once).
    Bytes(Vec<u8>),
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

impl From<Vec<u8>> for RoaringOut {
    fn from(b: Vec<u8>) -> Self {
        RoaringOut::Bytes(b)
    }
}

impl RoaringOut {
    /// The result as a datum, for functions that return raw datums.
    pub fn into_datum_raw(self) -> pg_sys::Datum {
        self.into_varlena()
    }

    fn into_varlena(self) -> pg_sys::Datum {
        match self {
            RoaringOut::Writer(mut w) => palloc_value(&mut w),
            RoaringOut::Bytes(mut b) => palloc_value(&mut b),
        }
    }
}

/// The one way a `roaring64` value is made: sized, allocated in the current memory
/// context at exactly that size (54000 before allocating beyond PostgreSQL's
/// limit), and written once.
pub fn palloc_value(set: &mut impl Encode) -> pg_sys::Datum {
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
pub fn value_size(set: &mut impl Encode) -> usize {
    let len = set
        .encoded_len()
        .unwrap_or_else(|e| errors::too_large(e.needed));
    let total = len + pg_sys::VARHDRSZ;
    if total > errors::MAX_VALUE_BYTES {
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
pub unsafe fn write_value(out: *mut core::ffi::c_void, size: usize, set: &impl Encode) {
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

/// The header of the expanded object behind `datum`, when `datum` is a pointer to
/// one (read/write or read-only) rather than a varlena.
pub fn expanded_object(datum: pg_sys::Datum) -> Option<*mut pg_sys::ExpandedObjectHeader> {
    let p = datum.cast_mut_ptr::<u8>();
    // SAFETY: `datum` is a non-null varlena argument, so its first byte is
    // readable. An external varlena (first byte 0x01 on little-endian) has a tag
    // byte next; an expanded one then holds an unaligned ExpandedObjectHeader
    // pointer.
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

// SAFETY: the datum returned is a complete varlena allocated in the current (call)
// memory context.
unsafe impl BoxRet for RoaringOut {
    unsafe fn box_into<'fcx>(self, fcinfo: &mut FcInfo<'fcx>) -> Datum<'fcx> {
        let datum = self.into_varlena();
        // SAFETY: a valid by-reference datum for the declared return type.
        unsafe { fcinfo.return_raw_datum(datum) }
    }
}

pgrx::impl_sql_translatable!(RoaringOut, "roaring64");

/// A palloc'd varlena with `len` data bytes and its header set: fill `data`, then
/// return `datum`.
pub struct VarlenaOut<'mcx> {
    pub datum: pg_sys::Datum,
    pub data: &'mcx mut [u8],
}

/// Allocates a varlena of `len` data bytes in the current memory context, failing
/// with 54000 before allocating when it would pass PostgreSQL's value limit.
pub fn palloc_varlena<'mcx>(len: usize) -> VarlenaOut<'mcx> {
    let total = len.saturating_add(pg_sys::VARHDRSZ);
    if total > errors::MAX_VALUE_BYTES {
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
    pub fn truncate(&mut self, len: usize) {
        assert!(len <= self.data.len(), "truncate grows a varlena");
        // SAFETY: the datum is the 4-byte-header varlena allocated by palloc_varlena,
        // and the new size is within the allocation.
        unsafe { set_varsize_4b(self.datum.cast_mut_ptr(), (len + pg_sys::VARHDRSZ) as i32) };
    }
}

/// A palloc'd C string of `len` bytes (and its NUL), in the current memory context,
/// for text output written in place.
pub fn palloc_cstring<'mcx>(len: usize, write: impl FnOnce(&mut [u8])) -> &'mcx core::ffi::CStr {
    if len >= errors::MAX_VALUE_BYTES {
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
        core::ffi::CStr::from_bytes_with_nul(buf)
            .unwrap_or_else(|_| errors::invalid_parameter("text output contains a NUL byte"))
    }
}

/// A palloc'd one-dimensional `int8[]` with its header set: fill `data` with the
/// elements' bit patterns, then return `datum` (through [`ArrayDatum`]).
pub struct Int8ArrayOut<'mcx> {
    pub datum: pg_sys::Datum,
    pub data: &'mcx mut [u64],
}

/// Header bytes of a one-dimensional array without NULLs: `ArrayType`, one dimension
/// and one lower bound, MAXALIGNed (`ARR_OVERHEAD_NONULLS(1)`).
const ARRAY_HEADER: usize = 24;

/// Allocates an `int8[]` of `n` elements in the current memory context, failing with
/// 54000 before allocating when it would pass PostgreSQL's value limit. The array is
/// written in place, so every size up to that limit works (no intermediate copy).
pub fn palloc_int8_array<'mcx>(n: u64) -> Int8ArrayOut<'mcx> {
    let total = n.saturating_mul(8).saturating_add(ARRAY_HEADER as u64);
    if total > errors::MAX_VALUE_BYTES as u64 {
        errors::too_large(total);
    }
    if n == 0 {
        // SAFETY: construct_empty_array returns a palloc'd empty array or raises.
        let empty = unsafe { pg_sys::construct_empty_array(pg_sys::INT8OID) };
        return Int8ArrayOut {
            datum: pg_sys::Datum::from(empty),
            data: &mut [],
        };
    }
    // SAFETY: palloc returns `total` writable bytes, 8-aligned, or raises an error.
    // The header (ArrayType, then dims[0] and lbound[0]) is written before anyone can
    // read the value, and `data` covers exactly the n int8 slots after it.
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
        let data = core::slice::from_raw_parts_mut(ptr.add(ARRAY_HEADER) as *mut u64, n as usize);
        Int8ArrayOut {
            datum: pg_sys::Datum::from(ptr),
            data,
        }
    }
}

/// An array result datum, returned as it is.
pub struct ArrayDatum(pub pg_sys::Datum);

// SAFETY: the datum is a complete array palloc'd in the call's memory context.
unsafe impl BoxRet for ArrayDatum {
    unsafe fn box_into<'fcx>(self, fcinfo: &mut FcInfo<'fcx>) -> Datum<'fcx> {
        // SAFETY: a valid by-reference datum of the declared return type.
        unsafe { fcinfo.return_raw_datum(self.0) }
    }
}

pgrx::impl_sql_translatable!(ArrayDatum, "int8[]");

/// A bytea result datum, returned as it is.
pub struct ByteaDatum(pub pg_sys::Datum);

// SAFETY: the datum is a complete bytea palloc'd in the call's memory context.
unsafe impl BoxRet for ByteaDatum {
    unsafe fn box_into<'fcx>(self, fcinfo: &mut FcInfo<'fcx>) -> Datum<'fcx> {
        // SAFETY: a valid by-reference datum of the declared return type.
        unsafe { fcinfo.return_raw_datum(self.0) }
    }
}

pgrx::impl_sql_translatable!(ByteaDatum, "bytea");

/// The unread rest of a binary-receive buffer (a `StringInfo` passed as `internal`),
/// marked as consumed, as a receive function must.
pub fn take_stringinfo_rest<'fcx>(buf: pgrx::datum::Internal) -> &'fcx [u8] {
    let Some(datum) = buf.unwrap() else {
        errors::invalid_parameter("binary receive buffer is NULL")
    };
    // SAFETY: a type's receive function gets a valid StringInfo as its first argument;
    // `cursor <= len` and `data[..len]` is initialized; the buffer outlives the call.
    unsafe {
        let si = datum.cast_mut_ptr::<pg_sys::StringInfoData>();
        let (cursor, len) = ((*si).cursor as usize, (*si).len as usize);
        let rest = core::slice::from_raw_parts(((*si).data as *const u8).add(cursor), len - cursor);
        (*si).cursor = (*si).len;
        rest
    }
}

/// A raw result datum, or SQL NULL: what aggregate support functions return when the
/// value is an expanded object's pointer rather than a fresh varlena.
pub struct RawDatum(pub Option<pg_sys::Datum>);

// SAFETY: the datum is returned as is; callers hand back either a varlena of the
// declared type or an expanded object's read/write pointer.
unsafe impl BoxRet for RawDatum {
    unsafe fn box_into<'fcx>(self, fcinfo: &mut FcInfo<'fcx>) -> Datum<'fcx> {
        match self.0 {
            // SAFETY: see above.
            Some(d) => unsafe { fcinfo.return_raw_datum(d) },
            None => fcinfo.return_null(),
        }
    }
}

pgrx::impl_sql_translatable!(RawDatum, "roaring64");

/// Argument `i` as a raw datum, None when SQL NULL.
pub fn raw_arg(fcinfo: pg_sys::FunctionCallInfo, i: usize) -> Option<pg_sys::Datum> {
    // SAFETY: fcinfo is the current call's; `i` is below the declared argument count
    // (callers use the positions of their SQL declarations).
    unsafe {
        if pgrx::fcinfo::pg_arg_is_null(fcinfo, i) {
            None
        } else {
            Some(pgrx::fcinfo::pg_getarg_datum_raw(fcinfo, i))
        }
    }
}

/// Argument `i` of a STRICT function as a roaring64 (never NULL there).
pub fn strict_roaring_arg<'fcx>(fcinfo: pg_sys::FunctionCallInfo, i: usize) -> Roaring<'fcx> {
    roaring_arg(fcinfo, i)
        .unwrap_or_else(|| errors::invalid_parameter(format!("argument {i} is NULL")))
}

/// Argument `i` of a STRICT function as an int8 (never NULL there).
pub fn strict_int8_arg(fcinfo: pg_sys::FunctionCallInfo, i: usize) -> i64 {
    raw_arg(fcinfo, i)
        .map(|d| d.value() as i64)
        .unwrap_or_else(|| errors::invalid_parameter(format!("argument {i} is NULL")))
}

/// Argument `i` of a STRICT function as a bool (never NULL there).
pub fn strict_bool_arg(fcinfo: pg_sys::FunctionCallInfo, i: usize) -> bool {
    raw_arg(fcinfo, i)
        .map(|d| d.value() & 0xFF != 0)
        .unwrap_or_else(|| errors::invalid_parameter(format!("argument {i} is NULL")))
}

/// Argument `i` as a roaring64, None when SQL NULL.
pub fn roaring_arg<'fcx>(fcinfo: pg_sys::FunctionCallInfo, i: usize) -> Option<Roaring<'fcx>> {
    // SAFETY: argument `i` is declared roaring64 in SQL and is not NULL.
    raw_arg(fcinfo, i).map(|d| unsafe { Roaring::from_raw(d) })
}
