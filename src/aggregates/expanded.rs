#![allow(unsafe_code)]
//! The aggregate state as a read/write expanded object (PostgreSQL's expanded-datum
//! API, the mechanism that lets array_append grow an array in place inside an
//! aggregate). The state type stays `roaring64`, so Citus and parallel plans can ship
//! partial states, yet no row re-encodes the state:
//!
//! - each state and everything it holds is allocated in its call site's arena, a
//!   direct child of the aggregate context shared by all groups (`super::arena`),
//!   so nodeAgg adopts the object without copying, memory accounting sees it, and
//!   resetting the aggregate context frees it with nothing left behind (no
//!   Rust-heap memory);
//! - the transition function changes the object in place and returns the same
//!   read/write pointer, which nodeAgg takes as "changed in place";
//! - flattening (for output, a window's result, a parallel worker's partial state)
//!   sizes the canonical bytes once and writes them straight into PostgreSQL's buffer.

use core::ptr::NonNull;

use pgrx::pg_sys;
use pgrx::prelude::*;
use sroar::ops::{AndAccumulator, BuildAccumulator, XorAccumulator};
use sroar::RoaringView;

use super::palloc::PallocAlloc;
use crate::errors;

/// What an aggregate accumulates.
pub enum Accumulator {
    /// Union (rb_or_agg, rb_build_agg): small sets and single values are buffered
    /// raw and sorted once when the state is sized; dense sets go to containers.
    Or(BuildAccumulator<PallocAlloc>),
    And(AndAccumulator<PallocAlloc>),
    Xor(XorAccumulator<PallocAlloc>),
}

impl Accumulator {
    pub fn add(&mut self, v: RoaringView<'_>) {
        match self {
            Accumulator::Or(a) => a.add(v),
            Accumulator::And(a) => a.add(v),
            Accumulator::Xor(a) => a.add(v),
        }
    }

    pub fn len(&mut self) -> u64 {
        match self {
            Accumulator::Or(a) => a.len(),
            Accumulator::And(a) => a.len(),
            Accumulator::Xor(a) => a.len(),
        }
    }

    fn encoded_len(&mut self) -> Result<usize, sroar::CapacityError> {
        match self {
            Accumulator::Or(a) => a.encoded_len(),
            Accumulator::And(a) => a.encoded_len(),
            Accumulator::Xor(a) => a.encoded_len(),
        }
    }

    fn write_into(&self, out: &mut [u8]) -> Result<(), sroar::CapacityError> {
        match self {
            Accumulator::Or(a) => a.write_into(out),
            Accumulator::And(a) => a.write_into(out),
            Accumulator::Xor(a) => a.write_into(out),
        }
    }
}

/// The expanded object: PostgreSQL's header first, as the API requires.
#[repr(C)]
struct ExpandedRoaring {
    hdr: pg_sys::ExpandedObjectHeader,
    acc: Accumulator,
}

// palloc guarantees 8-byte alignment only.
const _: () = assert!(align_of::<ExpandedRoaring>() <= 8);

static METHODS: pg_sys::ExpandedObjectMethods = pg_sys::ExpandedObjectMethods {
    get_flat_size: Some(get_flat_size),
    flatten_into: Some(flatten_into),
};

/// A handle on one aggregate state. It is valid while the aggregate context that
/// owns it lives, which spans every call of the aggregate that hands it to us.
pub struct State(NonNull<ExpandedRoaring>);

impl State {
    /// A new, empty state allocated in `arena` (see `super::arena`): a direct child
    /// of the aggregate context, so that nodeAgg adopts the object as it is.
    pub fn create(
        arena: pg_sys::MemoryContext,
        make: impl FnOnce(PallocAlloc) -> Accumulator,
    ) -> State {
        // SAFETY: arena is a live context that outlives the object (it is the
        // object's own context as far as PostgreSQL knows); the object is palloc'd
        // there (8-aligned, see the assertion above), its header initialized by
        // EOH_init_header, and its accumulator written before any read.
        unsafe {
            let obj = pg_sys::MemoryContextAlloc(arena, size_of::<ExpandedRoaring>())
                as *mut ExpandedRoaring;
            pg_sys::EOH_init_header(&raw mut (*obj).hdr, &METHODS, arena);
            (&raw mut (*obj).acc).write(make(PallocAlloc::new(arena)));
            State(NonNull::new_unchecked(obj))
        }
    }

    /// Our state behind `datum`, if it is one of our expanded objects (read/write or
    /// read-only); a flat roaring64 or anything else gives None.
    pub fn from_datum(datum: pg_sys::Datum) -> Option<State> {
        let p = datum.cast_mut_ptr::<u8>();
        // SAFETY: `datum` is a non-null varlena argument: its first byte is readable.
        // An external varlena (first byte 0x01 on little-endian) has a tag byte next;
        // an expanded one then holds an unaligned ExpandedObjectHeader pointer, whose
        // methods field tells ours from others.
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
            let eoh = (p.add(2) as *const *mut pg_sys::ExpandedObjectHeader).read_unaligned();
            if !core::ptr::eq((*eoh).eoh_methods, &METHODS) {
                return None;
            }
            Some(State(NonNull::new_unchecked(eoh as *mut ExpandedRoaring)))
        }
    }

    /// Whether nodeAgg will adopt this object as the new transition value: its
    /// context (the arena) must be a direct child of the aggregate context.
    pub fn is_owned_by(&self, aggcontext: pg_sys::MemoryContext) -> bool {
        // SAFETY: the object and its context are live (see `State`); the parent field
        // is read directly to spare a guarded FFI call per row.
        unsafe { (*(*self.0.as_ptr()).hdr.eoh_context).parent == aggcontext }
    }

    pub fn acc(&mut self) -> &mut Accumulator {
        // SAFETY: the object is live (see `State`) and PostgreSQL does not touch the
        // accumulator; one handle is used at a time within a call.
        unsafe { &mut (*self.0.as_ptr()).acc }
    }

    /// The object's own address, as an `internal` transition value (the plain
    /// internal-state aggregate kept for comparison).
    pub fn internal_datum(&self) -> pg_sys::Datum {
        pg_sys::Datum::from(self.0.as_ptr())
    }

    /// The state behind an `internal` transition value made by `internal_datum`.
    ///
    /// # Safety
    /// `datum` must come from `internal_datum` within the same aggregate.
    pub unsafe fn from_internal(datum: pg_sys::Datum) -> State {
        // SAFETY: guaranteed by the caller.
        State(unsafe { NonNull::new_unchecked(datum.cast_mut_ptr()) })
    }

    /// The canonical bytes as a new varlena in the current memory context.
    pub fn flatten(&mut self) -> pg_sys::Datum {
        let len = self
            .acc()
            .encoded_len()
            .unwrap_or_else(|e| errors::too_large(e.needed));
        let out = crate::datum::palloc_varlena(len);
        if let Err(e) = self.acc().write_into(out.data) {
            errors::too_large(e.needed);
        }
        out.datum
    }

    /// The read/write datum, to return from a transition function.
    pub fn rw_datum(&self) -> pg_sys::Datum {
        // SAFETY: the header is live and initialized; eoh_rw_ptr is its R/W pointer.
        unsafe { pg_sys::Datum::from((*self.0.as_ptr()).hdr.eoh_rw_ptr.as_ptr()) }
    }
}

#[pg_guard]
unsafe extern "C-unwind" fn get_flat_size(eohptr: *mut pg_sys::ExpandedObjectHeader) -> usize {
    // SAFETY: PostgreSQL calls this only for objects whose methods are ours.
    let acc = unsafe { &mut (*(eohptr as *mut ExpandedRoaring)).acc };
    let len = acc
        .encoded_len()
        .unwrap_or_else(|e| errors::too_large(e.needed));
    let total = len + pg_sys::VARHDRSZ;
    if total > errors::MAX_VALUE_BYTES {
        errors::too_large(total as u64);
    }
    total
}

#[pg_guard]
unsafe extern "C-unwind" fn flatten_into(
    eohptr: *mut pg_sys::ExpandedObjectHeader,
    result: *mut core::ffi::c_void,
    allocated_size: usize,
) {
    // SAFETY: PostgreSQL passes our object and a buffer of the size get_flat_size
    // returned, which the accumulator cached; the data bytes follow the 4-byte header.
    unsafe {
        let acc = &(*(eohptr as *mut ExpandedRoaring)).acc;
        pgrx::varlena::set_varsize_4b(result.cast(), allocated_size as i32);
        let data = core::slice::from_raw_parts_mut(
            (result as *mut u8).add(pg_sys::VARHDRSZ),
            allocated_size - pg_sys::VARHDRSZ,
        );
        if let Err(e) = acc.write_into(data) {
            errors::too_large(e.needed);
        }
    }
}
