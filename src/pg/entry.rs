#![allow(
    unsafe_code,
    reason = "reads arguments from, and sets results in, PostgreSQL's function-call record"
)]
//! What every entry point is made of. `#[sql_fn]` (crates/sroar_pg_macros) turns a
//! plain Rust function into a version-1 C function that makes a [`Call`], reads each
//! SQL argument into its parameter through [`FromArg`], and returns the function's
//! result through [`IntoRet`]. pgrx's guard around it turns a Rust panic into a
//! PostgreSQL ERROR and nothing else: no argument iterator, no memory-context switch,
//! so a function called once per row costs what its body costs.

use core::ffi::CStr;
use core::marker::PhantomData;

use pgrx::datum::{Array, FromDatum, IntoDatum, Range, UnboxDatum};
use pgrx::pg_sys;

use crate::errors;

/// The info record of every version-1 C function.
pub static FINFO_V1: pg_sys::Pg_finfo_record = pg_sys::Pg_finfo_record { api_version: 1 };

/// One call of a SQL function; `'fcx` is the call's duration.
#[derive(Clone, Copy)]
pub struct Call<'fcx> {
    fcinfo: pg_sys::FunctionCallInfo,
    _call: PhantomData<&'fcx ()>,
}

impl<'fcx> Call<'fcx> {
    /// # Safety
    /// `fcinfo` must be the current call's, valid for `'fcx`.
    pub unsafe fn new(fcinfo: pg_sys::FunctionCallInfo) -> Self {
        Call {
            fcinfo,
            _call: PhantomData,
        }
    }

    pub(super) fn fcinfo(self) -> pg_sys::FunctionCallInfo {
        self.fcinfo
    }

    /// Sets the call's NULL flag from `result` and returns its datum.
    pub fn finish(self, result: Option<pg_sys::Datum>) -> pg_sys::Datum {
        // SAFETY: fcinfo is the current call's, valid for its duration.
        unsafe { (*self.fcinfo).isnull = result.is_none() };
        result.unwrap_or(pg_sys::Datum::from(0usize))
    }
}

/// Argument `index` of a call.
#[derive(Clone, Copy)]
pub struct Arg<'fcx> {
    call: Call<'fcx>,
    index: usize,
}

impl<'fcx> Arg<'fcx> {
    /// # Safety
    /// `index` must be below the call's argument count, and the argument's SQL type
    /// must be the one the `FromArg` implementation that reads it expects.
    pub unsafe fn new(call: Call<'fcx>, index: usize) -> Self {
        Arg { call, index }
    }

    pub fn call(self) -> Call<'fcx> {
        self.call
    }

    /// The raw datum, None when SQL NULL.
    pub(super) fn datum(self) -> Option<pg_sys::Datum> {
        // SAFETY: fcinfo is the current call's and `index` is below its argument
        // count (the promise of `Arg::new`).
        unsafe {
            let arg = *(*self.call.fcinfo).args.as_ptr().add(self.index);
            (!arg.isnull).then_some(arg.value)
        }
    }

    /// The raw datum of an argument a STRICT function never gets as NULL.
    pub(super) fn strict_datum(self) -> pg_sys::Datum {
        self.datum().unwrap_or_else(|| {
            errors::invalid_parameter(format!("argument {} is NULL", self.index))
        })
    }
}

/// How a parameter of a `#[sql_fn]` is read from its SQL argument. A NULL argument is
/// an error (SQLSTATE 22023) for every type but `Option<T>`, which reads it as None.
pub trait FromArg<'fcx>: Sized {
    fn from_arg(arg: Arg<'fcx>) -> Self;
}

impl<'fcx, T: FromArg<'fcx>> FromArg<'fcx> for Option<T> {
    fn from_arg(arg: Arg<'fcx>) -> Self {
        arg.datum().map(|_| T::from_arg(arg))
    }
}

/// Types read by pgrx's own `FromDatum` (none of them asks for the argument's type oid).
macro_rules! from_datum_args {
    ($($t:ty),* $(,)?) => {$(
        impl<'fcx> FromArg<'fcx> for $t {
            fn from_arg(arg: Arg<'fcx>) -> Self {
                // SAFETY: the argument has this SQL type (the promise of `Arg::new`)
                // and is not NULL; by-reference values are detoasted into memory
                // that lives for the call.
                unsafe { <$t as FromDatum>::from_datum(arg.strict_datum(), false) }
                    .unwrap_or_else(|| errors::invalid_parameter(format!("argument {} is NULL", arg.index)))
            }
        }
    )*};
}

from_datum_args!(i16, i32, i64, bool, f64, &'fcx [u8], &'fcx CStr, Range<i64>);

impl<'fcx, T: UnboxDatum> FromArg<'fcx> for Array<'fcx, T> {
    fn from_arg(arg: Arg<'fcx>) -> Self {
        // SAFETY: as in `from_datum_args`: an array of T, detoasted for the call.
        unsafe { <Array<'fcx, T> as FromDatum>::from_datum(arg.strict_datum(), false) }
            .unwrap_or_else(|| errors::invalid_parameter(format!("argument {} is NULL", arg.index)))
    }
}

/// How a `#[sql_fn]`'s result becomes the call's result: a datum, or None for NULL.
pub trait IntoRet {
    fn into_ret(self, call: Call<'_>) -> Option<pg_sys::Datum>;
}

impl<T: IntoRet> IntoRet for Option<T> {
    fn into_ret(self, call: Call<'_>) -> Option<pg_sys::Datum> {
        self.and_then(|v| v.into_ret(call))
    }
}

/// Types returned through pgrx's own `IntoDatum` (by value, or copied into a new
/// palloc'd value in the call's memory context).
macro_rules! into_datum_results {
    ($($t:ty),* $(,)?) => {$(
        impl IntoRet for $t {
            fn into_ret(self, _call: Call<'_>) -> Option<pg_sys::Datum> {
                self.into_datum()
            }
        }
    )*};
}

into_datum_results!(
    i16,
    i32,
    i64,
    bool,
    f64,
    String,
    std::ffi::CString,
    &[u8],
    pgrx::JsonB,
    Vec<Option<i64>>
);
