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
use sroar::{Accumulator, RoaringView, SetOp};

use super::alloc::PallocAlloc;
use super::arena::{agg_context, arena};
use super::entry::{Arg, Call, FromArg, IntoRet};
use super::results::{value_size, write_value, RoaringOut};
use super::value::{stored_view, Value};

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
    fn create(arena: pg_sys::MemoryContext, op: SetOp) -> State {
        // SAFETY: arena is a live context that outlives the object (it is the
        // object's own context as far as PostgreSQL knows); the object is palloc'd
        // there (8-aligned, see the assertion above), its header initialized by
        // EOH_init_header, and its accumulator written before any read. The
        // accumulator's allocator uses the same context, which outlives it.
        unsafe {
            let obj = pg_sys::MemoryContextAlloc(arena, size_of::<ExpandedRoaring>())
                as *mut ExpandedRoaring;
            pg_sys::EOH_init_header(&raw mut (*obj).hdr, &METHODS, arena);
            (&raw mut (*obj).acc).write(Accumulator::new_in(op, PallocAlloc::new(arena)));
            State(NonNull::new_unchecked(obj))
        }
    }

    /// Our state behind `value`, if it is one of our expanded objects (read/write or
    /// read-only); a flat roaring64 or anything else gives None.
    pub fn of(value: Value<'_>) -> Option<State> {
        let eoh = value.expanded_object()?;
        // SAFETY: an expanded object's header is live while its datum is; its
        // methods field tells ours from others, and ours are ExpandedRoaring.
        unsafe {
            core::ptr::eq((*eoh).eoh_methods, &METHODS)
                .then(|| State(NonNull::new_unchecked(eoh as *mut ExpandedRoaring)))
        }
    }

    pub fn acc(&mut self) -> &mut Accumulator<PallocAlloc> {
        // SAFETY: the object is live (see `State`) and PostgreSQL does not touch the
        // accumulator; one handle is used at a time within a call.
        unsafe { &mut (*self.0.as_ptr()).acc }
    }

    fn context(&self) -> pg_sys::MemoryContext {
        // SAFETY: the object is live (see `State`); its header names its context.
        unsafe { (*self.0.as_ptr()).hdr.eoh_context }
    }

    /// The read-only datum, to hand the state on as a value that nobody may change.
    fn ro_datum(&self) -> pg_sys::Datum {
        // SAFETY: the header is live and initialized; eoh_ro_ptr is its R/O pointer.
        unsafe { pg_sys::Datum::from((*self.0.as_ptr()).hdr.eoh_ro_ptr.as_ptr()) }
    }

    /// The read/write datum, to return from a transition function.
    fn rw_datum(&self) -> pg_sys::Datum {
        // SAFETY: the header is live and initialized; eoh_rw_ptr is its R/W pointer.
        unsafe { pg_sys::Datum::from((*self.0.as_ptr()).hdr.eoh_rw_ptr.as_ptr()) }
    }
}

/// The aggregate context of a call from an aggregate or a window aggregate: where
/// its states live.
#[derive(Clone, Copy)]
pub struct AggContext<'fcx> {
    call: Call<'fcx>,
    cx: pg_sys::MemoryContext,
}

impl<'fcx> AggContext<'fcx> {
    /// The call's aggregate context; None when the function is called as a plain
    /// function.
    pub fn of(call: Call<'fcx>) -> Option<Self> {
        agg_context(call.fcinfo()).map(|cx| AggContext { call, cx })
    }

    /// A new, empty state in this context's arena.
    pub fn new_state(&self, op: SetOp) -> State {
        State::create(arena(self.call.fcinfo(), self.cx), op)
    }

    /// Whether nodeAgg adopts `state` as the new transition value as it is: its
    /// context (the arena) must be a direct child of the aggregate context.
    pub fn adopts(&self, state: &State) -> bool {
        // SAFETY: the state's context is live (see `State`); the parent field is
        // read directly to spare a guarded FFI call per row.
        unsafe { (*state.context()).parent == self.cx }
    }
}

/// A `roaring64_state` argument: one of our expanded objects, or a flat value.
#[derive(Clone, Copy)]
pub struct StateArg<'fcx>(Value<'fcx>);

impl<'fcx> FromArg<'fcx> for StateArg<'fcx> {
    fn from_arg(arg: Arg<'fcx>) -> Self {
        StateArg(Value::from_arg(arg))
    }
}

impl<'fcx> StateArg<'fcx> {
    /// Our expanded state behind the argument, if it is one.
    pub fn state(&self) -> Option<State> {
        State::of(self.0)
    }

    /// The argument read as a set (an expanded object is flattened into a copy).
    pub fn view(&self) -> RoaringView<'fcx> {
        stored_view(self.0.bytes())
    }
}

/// What an aggregate support function returns.
pub enum StateOut<'fcx> {
    /// The state, changed in place (read/write).
    Changed(State),
    /// The state, handed on as a value nobody may change (read-only).
    Final(State),
    /// The argument, returned as it came (unchanged).
    Unchanged(StateArg<'fcx>),
    /// A new flat value.
    Value(RoaringOut),
}

impl IntoRet for StateOut<'_> {
    fn into_ret(self, _call: Call<'_>) -> Option<pg_sys::Datum> {
        Some(match self {
            StateOut::Changed(s) => s.rw_datum(),
            StateOut::Final(s) => s.ro_datum(),
            StateOut::Unchanged(a) => a.0.datum(),
            StateOut::Value(v) => v.into_datum(),
        })
    }
}

#[pg_guard]
unsafe extern "C-unwind" fn get_flat_size(eohptr: *mut pg_sys::ExpandedObjectHeader) -> usize {
    // SAFETY: PostgreSQL calls this only for objects whose methods are ours.
    value_size(unsafe { &mut (*(eohptr as *mut ExpandedRoaring)).acc })
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
        write_value(result, allocated_size, acc);
    }
}
