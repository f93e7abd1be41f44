#![allow(
    unsafe_code,
    reason = "defines C entry points that PostgreSQL calls through its function manager"
)]
//! C entry points called straight by PostgreSQL's function manager, for functions
//! that run once per row and do little each time (the aggregates' support
//! functions, rb_iterate), and the protocols of set-returning functions (a row
//! per call, or a tuplestore filled at once). pgrx's `#[pg_extern]` wrapper
//! switches memory contexts and builds its argument iterator on every call; on a
//! row that an intersection already emptied that cost more than the function
//! itself (about 20 ns a row, against 6 ns for pg_roaringbitmap's whole
//! transition). These keep pgrx's guard, so a Rust panic still becomes a
//! PostgreSQL ERROR, and nothing else.

/// `fmgr_function!(sym, pg_finfo_sym, f)` defines the version-1 C function `sym`
/// (the name the SQL script gives after `MODULE_PATHNAME`) and its info record;
/// it calls `f(fcinfo) -> Option<pg_sys::Datum>`, where `None` is SQL NULL.
macro_rules! fmgr_function {
    ($sym:ident, $finfo:ident, $f:path) => {
        #[allow(
            unsafe_code,
            reason = "a C entry point, whose symbol PostgreSQL looks up"
        )]
        #[unsafe(no_mangle)]
        #[doc(hidden)]
        pub extern "C" fn $finfo() -> &'static ::pgrx::pg_sys::Pg_finfo_record {
            const V1: ::pgrx::pg_sys::Pg_finfo_record =
                ::pgrx::pg_sys::Pg_finfo_record { api_version: 1 };
            &V1
        }

        #[allow(
            unsafe_code,
            reason = "a C entry point, whose symbol PostgreSQL looks up"
        )]
        #[doc(hidden)]
        #[::pgrx::pg_guard]
        #[unsafe(no_mangle)]
        pub unsafe extern "C-unwind" fn $sym(
            fcinfo: ::pgrx::pg_sys::FunctionCallInfo,
        ) -> ::pgrx::pg_sys::Datum {
            $crate::fmgr::return_datum(fcinfo, $f(fcinfo))
        }
    };
}
pub(crate) use fmgr_function;

/// Sets the call's NULL flag from `result` and returns its datum.
pub fn return_datum(
    fcinfo: pgrx::pg_sys::FunctionCallInfo,
    result: Option<pgrx::pg_sys::Datum>,
) -> pgrx::pg_sys::Datum {
    // SAFETY: fcinfo is the current call's, valid for its duration.
    unsafe { (*fcinfo).isnull = result.is_none() };
    result.unwrap_or(pgrx::pg_sys::Datum::from(0usize))
}

/// The rows of a set-returning function of one column that returns many rows and
/// does little for each. `first` makes the state; `next` gives the next row, or
/// None when the set ends.
///
/// Where the caller prefers a materialized set (a function in FROM, whose scan
/// stores every row before reading the first), every row goes into a tuplestore in
/// one loop, without a function call per row. Elsewhere (the target list, where a
/// LIMIT may stop early) rows come one per call (PostgreSQL's `SRF_*` protocol):
/// the state lives in the call's multi-call memory context until the set ends, and
/// must own no memory outside PostgreSQL's, since a set left unread is never
/// dropped, only freed with its context.
pub fn set_returning<S>(
    fcinfo: pgrx::pg_sys::FunctionCallInfo,
    first: impl FnOnce() -> S,
    mut next: impl FnMut(&mut S) -> Option<pgrx::pg_sys::Datum>,
) -> Option<pgrx::pg_sys::Datum> {
    use pg_sys::SetFunctionReturnMode::{
        SFRM_Materialize, SFRM_Materialize_Preferred, SFRM_ValuePerCall,
    };
    use pgrx::pg_sys;
    // SAFETY: fcinfo is the current call's, made by an executor node that allows
    // value-per-call results (checked below); init_MultiFuncCall keeps the
    // FuncCallContext in flinfo->fn_extra, as the SRF macros read it. The state
    // is palloc'd in multi_call_memory_ctx, which lives until end_MultiFuncCall
    // (or the query's end), so the pointer in user_fctx stays valid across calls.
    unsafe {
        let rsinfo = (*fcinfo).resultinfo as *mut pg_sys::ReturnSetInfo;
        if rsinfo.is_null()
            || (*rsinfo).type_ != pg_sys::NodeTag::T_ReturnSetInfo
            || (*rsinfo).allowedModes & SFRM_ValuePerCall as i32 == 0
        {
            crate::errors::set_not_accepted();
        }
        let materialize = (SFRM_Materialize | SFRM_Materialize_Preferred) as i32;
        if (*rsinfo).allowedModes & materialize == materialize && !(*rsinfo).expectedDesc.is_null()
        {
            materialize_set(rsinfo, first, next);
            return None;
        }
        if (*(*fcinfo).flinfo).fn_extra.is_null() {
            start_set(fcinfo, first);
        }
        // What per_MultiFuncCall returns, read here: every call of pg_sys goes
        // through pgrx's error guard (a sigsetjmp), which cost more than the row.
        let funcctx = (*(*fcinfo).flinfo).fn_extra as *mut pg_sys::FuncCallContext;
        let state = (*funcctx).user_fctx as *mut S;
        match next(&mut *state) {
            Some(datum) => {
                (*rsinfo).isDone = pg_sys::ExprDoneCond::ExprMultipleResult;
                Some(datum)
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
unsafe fn start_set<S>(fcinfo: pgrx::pg_sys::FunctionCallInfo, first: impl FnOnce() -> S) {
    use pgrx::pg_sys;
    // SAFETY: as the caller promises; see `set_returning`.
    unsafe {
        let funcctx = pg_sys::init_MultiFuncCall(fcinfo);
        let old = pg_sys::MemoryContextSwitchTo((*funcctx).multi_call_memory_ctx);
        let state = pg_sys::palloc(size_of::<S>().max(1)) as *mut S;
        state.write(first());
        (*funcctx).user_fctx = state.cast();
        pg_sys::MemoryContextSwitchTo(old);
    }
}

/// A materialized set: the state lives for this call only.
///
/// # Safety
/// As [`materialize_rows`].
#[inline(never)]
unsafe fn materialize_set<S>(
    rsinfo: *mut pgrx::pg_sys::ReturnSetInfo,
    first: impl FnOnce() -> S,
    mut next: impl FnMut(&mut S) -> Option<pgrx::pg_sys::Datum>,
) {
    let mut state = first();
    // SAFETY: as the caller promises.
    unsafe { materialize_rows(rsinfo, || next(&mut state)) };
}

// PostgreSQL's own symbol, called without pgrx's per-call guard (a sigsetjmp,
// which costs as much as storing the row): `materialize_rows` guards a whole
// batch of calls at once instead.
unsafe extern "C-unwind" {
    #[link_name = "tuplestore_putvalues"]
    fn tuplestore_putvalues_unguarded(
        state: *mut pgrx::pg_sys::Tuplestorestate,
        tdesc: pgrx::pg_sys::TupleDesc,
        values: *mut pgrx::pg_sys::Datum,
        isnull: *mut bool,
    );
}

/// Rows gathered before they are stored under one guard.
const BATCH: usize = 256;

/// Stores every row `next` gives in a new tuplestore and hands it to the caller
/// (materialize mode).
///
/// # Safety
/// `rsinfo` is the current call's, allowing materialize mode, with an expected
/// descriptor of one column of the rows' type.
unsafe fn materialize_rows(
    rsinfo: *mut pgrx::pg_sys::ReturnSetInfo,
    mut next: impl FnMut() -> Option<pgrx::pg_sys::Datum>,
) {
    use pgrx::pg_sys;
    // SAFETY: as the caller promises. The store and its descriptor are made in the
    // query's memory, as the executor reads them after this call; the descriptor
    // is a copy, since the executor frees the one it is given.
    let (store, desc) = unsafe {
        let old = pg_sys::MemoryContextSwitchTo((*(*rsinfo).econtext).ecxt_per_query_memory);
        let random = (*rsinfo).allowedModes
            & pg_sys::SetFunctionReturnMode::SFRM_Materialize_Random as i32
            != 0;
        let store = pg_sys::tuplestore_begin_heap(random, false, pg_sys::work_mem);
        let desc = pg_sys::CreateTupleDescCopy((*rsinfo).expectedDesc);
        pg_sys::MemoryContextSwitchTo(old);
        (store, desc)
    };
    let mut batch = [pg_sys::Datum::from(0usize); BATCH];
    loop {
        let mut n = 0;
        while n < BATCH {
            let Some(d) = next() else { break };
            batch[n] = d;
            n += 1;
        }
        // SAFETY: store and desc were made above; the guarded closure only calls
        // PostgreSQL (no Rust value to drop, nothing that panics), so an ERROR
        // raised inside it returns to pgrx's guard and becomes a Rust panic.
        unsafe {
            pg_sys::ffi::pg_guard_ffi_boundary(|| {
                let mut isnull = false;
                for d in &mut batch[..n] {
                    tuplestore_putvalues_unguarded(store, desc, d, &mut isnull);
                }
            });
        }
        if n < BATCH {
            break;
        }
        crate::check_for_interrupts();
    }
    // SAFETY: the current call's rsinfo.
    unsafe {
        (*rsinfo).returnMode = pg_sys::SetFunctionReturnMode::SFRM_Materialize;
        (*rsinfo).setResult = store;
        (*rsinfo).setDesc = desc;
    }
}
