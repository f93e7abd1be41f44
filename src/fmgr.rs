#![allow(
    unsafe_code,
    reason = "defines C entry points that PostgreSQL calls through its function manager"
)]
//! C entry points called straight by PostgreSQL's function manager, for functions
//! that run once per row and do little each time (the aggregates' support
//! functions, rb_iterate), and the value-per-call protocol of set-returning
//! functions. pgrx's `#[pg_extern]` wrapper switches memory contexts and builds its
//! argument iterator on every call; on a row that an intersection already emptied
//! that cost more than the function itself (about 20 ns a row, against 6 ns for
//! pg_roaringbitmap's whole transition). These keep pgrx's guard, so a Rust panic
//! still becomes a PostgreSQL ERROR, and nothing else.

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

/// One row of a value-per-call set-returning function (PostgreSQL's `SRF_*`
/// protocol), for functions that return many rows and do little for each: on the
/// first call `first` makes the state, in the call's multi-call memory context
/// (where it and whatever `first` allocates live until the set ends); each call
/// then returns what `next` gives, and the set ends when it gives None. The state
/// must own no memory outside PostgreSQL's: a set left unread (a LIMIT) is never
/// dropped, only freed with its context.
pub fn value_per_call<S>(
    fcinfo: pgrx::pg_sys::FunctionCallInfo,
    first: impl FnOnce() -> S,
    next: impl FnOnce(&mut S) -> Option<pgrx::pg_sys::Datum>,
) -> Option<pgrx::pg_sys::Datum> {
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
            || (*rsinfo).allowedModes & pg_sys::SetFunctionReturnMode::SFRM_ValuePerCall as i32 == 0
        {
            crate::errors::set_not_accepted();
        }
        if (*(*fcinfo).flinfo).fn_extra.is_null() {
            let funcctx = pg_sys::init_MultiFuncCall(fcinfo);
            let old = pg_sys::MemoryContextSwitchTo((*funcctx).multi_call_memory_ctx);
            let state = pg_sys::palloc(size_of::<S>().max(1)) as *mut S;
            state.write(first());
            (*funcctx).user_fctx = state.cast();
            pg_sys::MemoryContextSwitchTo(old);
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
