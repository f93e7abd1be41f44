#![allow(
    unsafe_code,
    reason = "the set-returning protocol: ReturnSetInfo, multi-call contexts, tuplestores"
)]
//! Set-returning functions of a stored set: the rows of an iterator made from the
//! set's view.
//!
//! Where the caller prefers a materialized set (a function in FROM, whose scan
//! stores every row before reading the first), every row goes into a tuplestore in
//! one loop, without a function call per row, under one pgrx guard per batch of
//! rows. Elsewhere (the target list, where a LIMIT may stop early) one-column rows
//! come one per call (PostgreSQL's `SRF_*` protocol): the iterator lives in the
//! call's multi-call memory context until the set ends, so it must own no memory
//! outside PostgreSQL's, since a set left unread is never dropped, only freed with
//! its context. Rows of several columns are always materialized.

use pg_sys::SetFunctionReturnMode::{
    SFRM_Materialize, SFRM_Materialize_Preferred, SFRM_Materialize_Random, SFRM_ValuePerCall,
};
use pgrx::pg_sys;
use sroar::RoaringView;

use super::entry::{Call, IntoRet};
use super::ffi::tuplestore_putvalues_unguarded;
use super::results::RoaringOut;
use super::value::{stored_view, Value};

/// A row of one or two columns, int8 or a value already made.
pub trait Int8Rows {
    /// Whether rows can come one per call (one column).
    const VALUE_PER_CALL: bool;
    /// Writes the row's columns into `out` (as many as the row has).
    fn put(self, out: &mut [pg_sys::Datum; 2]);
}

impl Int8Rows for i64 {
    const VALUE_PER_CALL: bool = true;
    fn put(self, out: &mut [pg_sys::Datum; 2]) {
        out[0] = pg_sys::Datum::from(self);
    }
}

impl Int8Rows for (i64, i64) {
    const VALUE_PER_CALL: bool = false;
    fn put(self, out: &mut [pg_sys::Datum; 2]) {
        out[0] = pg_sys::Datum::from(self.0);
        out[1] = pg_sys::Datum::from(self.1);
    }
}

/// An int8 and a `roaring64` made by the row's iterator (in the call's memory
/// context, which the tuplestore outlives: it copies each row).
impl Int8Rows for (i64, RoaringOut) {
    const VALUE_PER_CALL: bool = false;
    fn put(self, out: &mut [pg_sys::Datum; 2]) {
        out[0] = pg_sys::Datum::from(self.0);
        out[1] = self.1.into_datum();
    }
}

/// The rows of `make(view of the set)`, returned as the call's set.
pub struct SetOf<'fcx, I> {
    set: Value<'fcx>,
    make: Make<I>,
}

/// How the rows are made from the set's view: plain functions, so that nothing
/// the rows need lives outside PostgreSQL's memory.
enum Make<I> {
    Plain(fn(RoaringView<'static>) -> I),
    WithArg(fn(RoaringView<'static>, u32) -> I, u32),
}

impl<'fcx, I> SetOf<'fcx, I> {
    /// `make` builds the rows from the set's view; it runs once per set, where the
    /// set's bytes live as long as the rows (see the module's documentation).
    pub fn new(set: Value<'fcx>, make: fn(RoaringView<'static>) -> I) -> Self {
        SetOf {
            set,
            make: Make::Plain(make),
        }
    }

    /// [`SetOf::new`] for rows that depend on one more argument of the call.
    pub fn with_arg(set: Value<'fcx>, arg: u32, make: fn(RoaringView<'static>, u32) -> I) -> Self {
        SetOf {
            set,
            make: Make::WithArg(make, arg),
        }
    }

    fn rows(&self) -> I {
        let bytes = self.set.bytes();
        // SAFETY: the bytes are read (detoasted, if they have to be) now, into the
        // current memory context: the multi-call context until the set ends, or this
        // call when every row goes into a tuplestore now. The rows never outlive it.
        let bytes: &'static [u8] = unsafe { &*(bytes as *const [u8]) };
        match self.make {
            Make::Plain(make) => make(stored_view(bytes)),
            Make::WithArg(make, arg) => make(stored_view(bytes), arg),
        }
    }
}

impl<I> IntoRet for SetOf<'_, I>
where
    I: Iterator,
    I::Item: Int8Rows,
{
    fn into_ret(self, call: Call<'_>) -> Option<pg_sys::Datum> {
        let fcinfo = call.fcinfo();
        // SAFETY: fcinfo is the current call's; resultinfo is null or a node.
        let rsinfo = unsafe { (*fcinfo).resultinfo as *mut pg_sys::ReturnSetInfo };
        // SAFETY: as above; the fields read are those of a ReturnSetInfo node.
        let (allowed, described) = unsafe {
            if rsinfo.is_null() || (*rsinfo).type_ != pg_sys::NodeTag::T_ReturnSetInfo {
                crate::errors::set_not_accepted();
            }
            ((*rsinfo).allowedModes, !(*rsinfo).expectedDesc.is_null())
        };
        let materialize = if I::Item::VALUE_PER_CALL {
            let both = (SFRM_Materialize | SFRM_Materialize_Preferred) as i32;
            allowed & both == both && described
        } else {
            allowed & SFRM_Materialize as i32 != 0 && described
        };
        if materialize {
            let mut rows = self.rows();
            // SAFETY: the current call's rsinfo, allowing materialize mode, with an
            // expected descriptor of the rows' int8 columns (the SQL declaration).
            unsafe { materialize_rows(rsinfo, || rows.next()) };
            return None;
        }
        if !I::Item::VALUE_PER_CALL || allowed & SFRM_ValuePerCall as i32 == 0 {
            crate::errors::set_not_accepted();
        }
        // SAFETY: fcinfo is the current call's, made by an executor node that allows
        // value-per-call results (checked above).
        unsafe { value_per_call(fcinfo, rsinfo, || self.rows()) }
    }
}

/// One row per call: the iterator lives in the multi-call memory context.
///
/// # Safety
/// `fcinfo` and `rsinfo` are the current call's, allowing value-per-call mode.
unsafe fn value_per_call<I>(
    fcinfo: pg_sys::FunctionCallInfo,
    rsinfo: *mut pg_sys::ReturnSetInfo,
    first: impl FnOnce() -> I,
) -> Option<pg_sys::Datum>
where
    I: Iterator,
    I::Item: Int8Rows,
{
    // SAFETY: init_MultiFuncCall keeps the FuncCallContext in flinfo->fn_extra, as
    // the SRF macros read it. The state is palloc'd in multi_call_memory_ctx, which
    // lives until end_MultiFuncCall (or the query's end), so the pointer in
    // user_fctx stays valid across calls.
    unsafe {
        if (*(*fcinfo).flinfo).fn_extra.is_null() {
            start_set(fcinfo, first);
        }
        // What per_MultiFuncCall returns, read here: every call of pg_sys goes
        // through pgrx's error guard (a sigsetjmp), which cost more than the row.
        let funcctx = (*(*fcinfo).flinfo).fn_extra as *mut pg_sys::FuncCallContext;
        let state = (*funcctx).user_fctx as *mut I;
        match (*state).next() {
            Some(row) => {
                let mut out = [pg_sys::Datum::from(0usize); 2];
                row.put(&mut out);
                (*rsinfo).isDone = pg_sys::ExprDoneCond::ExprMultipleResult;
                Some(out[0])
            }
            None => {
                core::ptr::drop_in_place(state);
                pg_sys::end_MultiFuncCall(fcinfo, funcctx);
                (*rsinfo).isDone = pg_sys::ExprDoneCond::ExprEndResult;
                None
            }
        }
    }
}

/// The first call of a value-per-call set: its state, in the multi-call memory
/// context. Out of line, so that the frame of every later call stays small (a
/// state of a few kB would otherwise be reserved, and probed, on each row's stack).
///
/// # Safety
/// `fcinfo` is the current call's, with no multi-call context yet.
#[inline(never)]
unsafe fn start_set<S>(fcinfo: pg_sys::FunctionCallInfo, first: impl FnOnce() -> S) {
    // SAFETY: as the caller promises; see `value_per_call`.
    unsafe {
        let funcctx = pg_sys::init_MultiFuncCall(fcinfo);
        let old = pg_sys::MemoryContextSwitchTo((*funcctx).multi_call_memory_ctx);
        let state = pg_sys::palloc(size_of::<S>().max(1)) as *mut S;
        state.write(first());
        (*funcctx).user_fctx = state.cast();
        pg_sys::MemoryContextSwitchTo(old);
    }
}

/// Rows gathered before they are stored under one guard.
const BATCH: usize = 256;

/// Stores every row `next` gives in a new tuplestore and hands it to the caller
/// (materialize mode).
///
/// # Safety
/// `rsinfo` is the current call's, allowing materialize mode, with an expected
/// descriptor of the rows' int8 columns.
#[inline(never)]
unsafe fn materialize_rows<R: Int8Rows>(
    rsinfo: *mut pg_sys::ReturnSetInfo,
    mut next: impl FnMut() -> Option<R>,
) {
    // SAFETY: as the caller promises. The store and its descriptor are made in the
    // query's memory, as the executor reads them after this call; the descriptor
    // is a copy, since the executor frees the one it is given.
    let (store, desc) = unsafe {
        let old = pg_sys::MemoryContextSwitchTo((*(*rsinfo).econtext).ecxt_per_query_memory);
        let random = (*rsinfo).allowedModes & SFRM_Materialize_Random as i32 != 0;
        let store = pg_sys::tuplestore_begin_heap(random, false, pg_sys::work_mem);
        let desc = pg_sys::CreateTupleDescCopy((*rsinfo).expectedDesc);
        pg_sys::MemoryContextSwitchTo(old);
        (store, desc)
    };
    let mut batch = [[pg_sys::Datum::from(0usize); 2]; BATCH];
    loop {
        let mut n = 0;
        while n < BATCH {
            let Some(row) = next() else { break };
            row.put(&mut batch[n]);
            n += 1;
        }
        // SAFETY: store and desc were made above; the guarded closure only calls
        // PostgreSQL (no Rust value to drop, nothing that panics), so an ERROR
        // raised inside it returns to pgrx's guard and becomes a Rust panic.
        unsafe {
            pg_sys::ffi::pg_guard_ffi_boundary(|| {
                let mut isnull = [false; 2];
                for row in &mut batch[..n] {
                    tuplestore_putvalues_unguarded(
                        store,
                        desc,
                        row.as_mut_ptr(),
                        isnull.as_mut_ptr(),
                    );
                }
            });
        }
        if n < BATCH {
            break;
        }
        super::check_for_interrupts();
    }
    // SAFETY: the current call's rsinfo.
    unsafe {
        (*rsinfo).returnMode = SFRM_Materialize;
        (*rsinfo).setResult = store;
        (*rsinfo).setDesc = desc;
    }
}
