#![allow(
    unsafe_code,
    reason = "defines C entry points that PostgreSQL calls through its function manager"
)]
//! C entry points called straight by PostgreSQL's function manager, for functions
//! that run once per row and do little each time (the aggregates' support
//! functions). pgrx's `#[pg_extern]` wrapper switches memory contexts and builds its
//! argument iterator on every call; on a row that an intersection already emptied
//! that cost more than the function itself (about 20 ns a row, against 6 ns for
//! pg_roaringbitmap's whole transition). These keep pgrx's guard, so a Rust panic
//! still becomes a PostgreSQL ERROR, and nothing else.

/// `fmgr_function!(sym, pg_finfo_sym, f)` defines the version-1 C function `sym`
/// (the name the SQL script gives after `MODULE_PATHNAME`) and its info record;
/// it calls `f(fcinfo) -> Option<pg_sys::Datum>`, where `None` is SQL NULL.
macro_rules! fmgr_function {
    ($sym:ident, $finfo:ident, $f:path) => {
        #[unsafe(no_mangle)]
        #[doc(hidden)]
        pub extern "C" fn $finfo() -> &'static ::pgrx::pg_sys::Pg_finfo_record {
            const V1: ::pgrx::pg_sys::Pg_finfo_record =
                ::pgrx::pg_sys::Pg_finfo_record { api_version: 1 };
            &V1
        }

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
