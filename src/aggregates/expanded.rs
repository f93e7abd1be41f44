#![allow(
    unsafe_code,
    reason = "PostgreSQL's expanded-object API: a C struct whose header PostgreSQL reads"
)]
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
use sroar::{Accumulator, SetOp};

use super::palloc::PallocAlloc;
use crate::datum;

/// The expanded object: PostgreSQL's header first, as the API requires.
#[repr(C)]
struct ExpandedRoaring {
    hdr: pg_sys::ExpandedObjectHeader,
    acc: Accumulator<PallocAlloc>,
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
    pub fn create(arena: pg_sys::MemoryContext, op: SetOp) -> State {
        // SAFETY: arena is a live context that outlives the object (it is the
        // object's own context as far as PostgreSQL knows); the object is palloc'd
        // there (8-aligned, see the assertion above), its header initialized by
        // EOH_init_header, and its accumulator written before any read.
        unsafe {
            let obj = pg_sys::MemoryContextAlloc(arena, size_of::<ExpandedRoaring>())
                as *mut ExpandedRoaring;
            pg_sys::EOH_init_header(&raw mut (*obj).hdr, &METHODS, arena);
            (&raw mut (*obj).acc).write(Accumulator::new_in(op, PallocAlloc::new(arena)));
            State(NonNull::new_unchecked(obj))
        }
    }

    /// Our state behind `datum`, if it is one of our expanded objects (read/write or
    /// read-only); a flat roaring64 or anything else gives None.
    pub fn from_datum(datum: pg_sys::Datum) -> Option<State> {
        let eoh = datum::expanded_object(datum)?;
        // SAFETY: an expanded object's header is live while its datum is; its
        // methods field tells ours from others, and ours are ExpandedRoaring.
        unsafe {
            core::ptr::eq((*eoh).eoh_methods, &METHODS)
                .then(|| State(NonNull::new_unchecked(eoh as *mut ExpandedRoaring)))
        }
    }

    /// Whether nodeAgg will adopt this object as the new transition value: its
    /// context (the arena) must be a direct child of the aggregate context.
    pub fn is_owned_by(&self, aggcontext: pg_sys::MemoryContext) -> bool {
        // SAFETY: the object and its context are live (see `State`); the parent field
        // is read directly to spare a guarded FFI call per row.
        unsafe { (*(*self.0.as_ptr()).hdr.eoh_context).parent == aggcontext }
    }

    pub fn acc(&mut self) -> &mut Accumulator<PallocAlloc> {
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
        datum::palloc_value(self.acc())
    }

    /// The read-only datum, to hand the state on as a value that nobody may change.
    pub fn ro_datum(&self) -> pg_sys::Datum {
        // SAFETY: the header is live and initialized; eoh_ro_ptr is its R/O pointer.
        unsafe { pg_sys::Datum::from((*self.0.as_ptr()).hdr.eoh_ro_ptr.as_ptr()) }
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
    datum::value_size(unsafe { &mut (*(eohptr as *mut ExpandedRoaring)).acc })
}

#[pg_guard]
unsafe extern "C-unwind" fn flatten_into(
    eohptr: *mut pg_sys::ExpandedObjectHeader,
    result: *mut core::ffi::c_void,
    allocated_size: usize,
) {
    // SAFETY: PostgreSQL passes our object and a buffer of the size get_flat_size
    // returned, which the accumulator cached (nothing changed it in between).
    unsafe {
        let acc = &(*(eohptr as *mut ExpandedRoaring)).acc;
        datum::write_value(result, allocated_size, acc);
    }
}
