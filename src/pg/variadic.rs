#![allow(
    unsafe_code,
    reason = "reads the argument types and datums of a VARIADIC \"any\" call"
)]
//! The sets given to a `VARIADIC "any"` function (`support` holds the planner
//! support that routes calls to one). Declared over `"any"` rather than
//! `roaring64[]`, a function gets its arguments as the executor has them: `rb_or_args(a.s, b.s, c.s)`
//! builds no array, where `rb_or(a.s, b.s, c.s)` over `VARIADIC roaring64[]` first
//! detoasts every set and copies it into a new array (a third of the call's time on
//! five sets of 3.7 MB). Users call `rb_or`, whose signature resolves untyped
//! literals and overloads as before; its support function turns a call with the
//! sets written out into the same call of `rb_or_args` at plan time.
//!
//! `"any"` takes any type, so each argument's type is checked here: `roaring64`,
//! `roaring64_state` (the same bytes), a domain over either, or a text literal,
//! which is read as `roaring64` text input is.

use core::ffi::CStr;

use pgrx::datum::FromDatum;
use pgrx::pg_sys;

use super::entry::Call;
use super::value::Value;
use crate::errors;

/// One set of the call, as given.
pub enum SetArg<'fcx> {
    /// A `roaring64` (or `roaring64_state`) datum, not yet read.
    Stored(Value<'fcx>),
    /// An untyped literal or a `text`: `roaring64` text input.
    Text(&'fcx str),
}

/// The sets of the current call, in order; None for a NULL one.
pub fn variadic_sets<'fcx>(call: Call<'fcx>) -> Vec<Option<SetArg<'fcx>>> {
    let fcinfo = call.fcinfo();
    // SAFETY: fcinfo is the current call's; flinfo and its expression are the
    // executor's, and get_fn_expr_* only read them.
    let (nargs, flinfo) = unsafe { ((*fcinfo).nargs as usize, (*fcinfo).flinfo) };
    // SAFETY: as above: get_fn_expr_variadic reads the call's expression.
    let spread = unsafe { pg_sys::get_fn_expr_variadic(flinfo) };
    let types = Types::lookup(flinfo);
    let arg = |i: usize| {
        // SAFETY: i is below nargs, the number of arguments fcinfo holds.
        let a = unsafe { *(*fcinfo).args.as_ptr().add(i) };
        (!a.isnull).then_some(a.value)
    };
    if spread {
        // rb_or(VARIADIC arr): the one argument is an array of sets.
        let Some(datum) = (nargs == 1).then(|| arg(0)).flatten() else {
            return vec![None];
        };
        let elem = types.element_of(0);
        if !types.is_set(elem) {
            not_a_set(1, elem);
        }
        return elements(datum, elem)
            .into_iter()
            // SAFETY: a non-null element of a roaring64[] that lives for the call.
            .map(|d| d.map(|d| SetArg::Stored(unsafe { Value::from_datum(d) })))
            .collect();
    }
    (0..nargs)
        .map(|i| {
            let datum = arg(i)?;
            let ty = types.of(i);
            Some(if types.is_set(ty) {
                // SAFETY: a non-null roaring64 datum (its type was checked), an
                // argument of the current call.
                SetArg::Stored(unsafe { Value::from_datum(datum) })
            } else if ty == pg_sys::UNKNOWNOID {
                // SAFETY: an unknown-type literal is a cstring datum of the call.
                let s = unsafe { CStr::from_ptr(datum.cast_mut_ptr()) };
                SetArg::Text(
                    s.to_str().unwrap_or_else(|_| {
                        errors::invalid_text("", 1, "input is not valid UTF-8")
                    }),
                )
            } else if ty == pg_sys::TEXTOID {
                // SAFETY: a non-null text datum of the call, detoasted for it.
                let s = unsafe { <&'fcx str as FromDatum>::from_datum(datum, false) };
                SetArg::Text(s.unwrap_or(""))
            } else {
                not_a_set(i + 1, ty)
            })
        })
        .collect()
}

/// The elements of a non-null array datum of element type `elem`, None for NULL
/// ones, pointing into the array detoasted for the call.
fn elements(datum: pg_sys::Datum, elem: pg_sys::Oid) -> Vec<Option<pg_sys::Datum>> {
    let (mut len, mut byval, mut align) = (0i16, false, 0 as core::ffi::c_char);
    let (mut values, mut nulls, mut n) = (core::ptr::null_mut(), core::ptr::null_mut(), 0);
    // SAFETY: datum is a non-null array of `elem` (its type was checked); the detoasted
    // copy and the arrays deconstruct_array returns are palloc'd in the call's memory
    // context and read only within it.
    unsafe {
        pg_sys::get_typlenbyvalalign(elem, &mut len, &mut byval, &mut align);
        let array = pg_sys::pg_detoast_datum(datum.cast_mut_ptr()) as *mut pg_sys::ArrayType;
        pg_sys::deconstruct_array(
            array,
            elem,
            len.into(),
            byval,
            align,
            &mut values,
            &mut nulls,
            &mut n,
        );
        (0..n as usize)
            .map(|i| (!*nulls.add(i)).then(|| *values.add(i)))
            .collect()
    }
}

/// The argument types of the call, and what counts as a set.
struct Types {
    flinfo: *mut pg_sys::FmgrInfo,
    roaring64: pg_sys::Oid,
    state: pg_sys::Oid,
}

impl Types {
    /// Looks up `roaring64` and `roaring64_state` in the schema of the called
    /// function, so that the extension works in any schema. The answer is kept
    /// for the backend, keyed by the function: a call per row costs no lookups, and
    /// an extension created again has new function oids.
    fn lookup(flinfo: *mut pg_sys::FmgrInfo) -> Types {
        thread_local! {
            static LAST: core::cell::Cell<Option<(pg_sys::Oid, pg_sys::Oid, pg_sys::Oid)>> =
                const { core::cell::Cell::new(None) };
        }
        // SAFETY: flinfo is the executor's, valid for the call.
        let function = unsafe { (*flinfo).fn_oid };
        let (roaring64, state) = match LAST.get() {
            Some((f, r, s)) if f == function => (r, s),
            _ => {
                // SAFETY: syscache reads, within the call's transaction.
                let found = unsafe {
                    let nsp = pg_sys::get_func_namespace(function);
                    (type_in(c"roaring64", nsp), type_in(c"roaring64_state", nsp))
                };
                LAST.set(Some((function, found.0, found.1)));
                found
            }
        };
        Types {
            flinfo,
            roaring64,
            state,
        }
    }

    /// The type of argument `i`, with domains looked through.
    fn of(&self, i: usize) -> pg_sys::Oid {
        // SAFETY: flinfo is the executor's; get_fn_expr_argtype only reads it.
        let ty = unsafe { pg_sys::get_fn_expr_argtype(self.flinfo, i as i32) };
        if self.is_set(ty) {
            return ty;
        }
        base_type(ty, i)
    }

    /// The element type of array argument `i`.
    fn element_of(&self, i: usize) -> pg_sys::Oid {
        // SAFETY: a syscache read of the argument's type.
        let elem = unsafe { pg_sys::get_element_type(self.of(i)) };
        base_type(elem, i)
    }

    fn is_set(&self, ty: pg_sys::Oid) -> bool {
        ty == self.roaring64 || ty == self.state
    }
}

/// The type named `name` in schema `nsp` (PostgreSQL 16's TypenameNspGetTypid).
///
/// # Safety
/// Called within a transaction (a syscache read).
unsafe fn type_in(name: &CStr, nsp: pg_sys::Oid) -> pg_sys::Oid {
    // SAFETY: the TYPENAMENSP cache is keyed by (name, namespace); the name is a
    // NUL-terminated string that outlives the lookup.
    unsafe {
        pg_sys::GetSysCacheOid(
            pg_sys::SysCacheIdentifier::TYPENAMENSP as i32,
            pg_sys::Anum_pg_type_oid as pg_sys::AttrNumber,
            pg_sys::Datum::from(name.as_ptr()),
            pg_sys::Datum::from(nsp),
            pg_sys::Datum::from(0usize),
            pg_sys::Datum::from(0usize),
        )
    }
}

/// `ty` with domains looked through. InvalidOid (no call expression to ask, or not
/// an array) is an error, not a cache lookup failure.
fn base_type(ty: pg_sys::Oid, i: usize) -> pg_sys::Oid {
    if ty == pg_sys::InvalidOid {
        not_a_set(i + 1, ty)
    }
    // SAFETY: a syscache read of a type that exists (the planner named it).
    unsafe { pg_sys::getBaseType(ty) }
}

/// 42804 for an argument that is not a set, naming its type.
fn not_a_set(position: usize, ty: pg_sys::Oid) -> ! {
    let name = if ty == pg_sys::InvalidOid {
        "unknown".to_owned()
    } else {
        // SAFETY: format_type_be returns a palloc'd cstring naming an existing type.
        unsafe { CStr::from_ptr(pg_sys::format_type_be(ty)) }
            .to_string_lossy()
            .into_owned()
    };
    errors::not_a_set(position, &name)
}
