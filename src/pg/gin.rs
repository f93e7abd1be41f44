#![allow(
    unsafe_code,
    reason = "GIN's support functions pass C pointers (nkeys, check[], extra_data) as internal"
)]
//! GIN's support-function protocol: the C pointers GIN passes as `internal`
//! arguments, as typed parameters, and the palloc'd arrays it expects back. The
//! opclass's logic (which keys, what a match means) is `crate::opclass::gin`'s.

use core::marker::PhantomData;

use pgrx::pg_sys;

use super::entry::{Arg, Call, FromArg, IntoRet};
use super::value::Value;
use crate::errors;

/// A palloc'd array of `n` values of plain data, which `fill` must write whole.
fn palloc_fill<T: Copy>(n: usize, fill: impl FnOnce(&mut [T])) -> *mut T {
    let bytes = n.saturating_mul(size_of::<T>());
    if bytes > errors::MAX_VALUE_BYTES {
        errors::too_large(bytes as u64);
    }
    // SAFETY: palloc returns `bytes` writable bytes (at least 1), 8-aligned, which
    // suits every `T` used here; `fill` writes every element before anyone reads it.
    unsafe {
        let ptr = pg_sys::palloc(bytes.max(1)) as *mut T;
        fill(core::slice::from_raw_parts_mut(ptr, n));
        ptr
    }
}

/// A palloc'd array of `values.len()` copies.
fn palloc_copy<T: Copy>(values: &[T]) -> *mut T {
    palloc_fill(values.len(), |out| out.copy_from_slice(values))
}

/// A pointer GIN passes for the function to write through (`int32 *nkeys`,
/// `bool *recheck`, `int32 *searchMode`).
pub struct OutArg<T>(*mut T);

impl<'fcx, T> FromArg<'fcx> for OutArg<T> {
    fn from_arg(arg: Arg<'fcx>) -> Self {
        OutArg(arg.strict_datum().cast_mut_ptr())
    }
}

impl<T> OutArg<T> {
    pub fn set(&self, value: T) {
        // SAFETY: GIN passes a valid, aligned pointer at this position (the contract
        // of the argument's declaration).
        unsafe { *self.0 = value };
    }
}

/// The keys of a value or a query: a palloc'd array of int8 datums.
pub struct GinKeys(pg_sys::Datum);

impl GinKeys {
    /// The keys, written straight into GIN's array, with their count written to
    /// `nkeys`.
    pub fn new(keys: impl ExactSizeIterator<Item = i64>, nkeys: &OutArg<i32>) -> GinKeys {
        let len = keys.len();
        let n = i32::try_from(len).unwrap_or_else(|_| errors::too_large(len as u64));
        let out = palloc_fill(len, |out: &mut [pg_sys::Datum]| {
            for (d, k) in out.iter_mut().zip(keys) {
                *d = pg_sys::Datum::from(k);
            }
        });
        nkeys.set(n);
        GinKeys(pg_sys::Datum::from(out))
    }
}

impl IntoRet for GinKeys {
    fn into_ret(self, _call: Call<'_>) -> Option<pg_sys::Datum> {
        Some(self.0)
    }
}

/// extractQuery's query argument: an int8 or a roaring64, by strategy.
pub struct GinQuery<'fcx> {
    datum: pg_sys::Datum,
    _call: PhantomData<&'fcx ()>,
}

impl<'fcx> FromArg<'fcx> for GinQuery<'fcx> {
    fn from_arg(arg: Arg<'fcx>) -> Self {
        GinQuery {
            datum: arg.strict_datum(),
            _call: PhantomData,
        }
    }
}

impl<'fcx> GinQuery<'fcx> {
    /// The query of an operator whose right-hand type is int8 (by value).
    pub fn int8(&self) -> i64 {
        self.datum.value() as i64
    }

    /// The query of an operator whose right-hand type is roaring64.
    pub fn set(&self) -> Value<'fcx> {
        // SAFETY: GIN passes the operator's right-hand argument, a non-null
        // roaring64 for every strategy but the int8 one, alive for the call.
        unsafe { Value::from_datum(self.datum) }
    }
}

/// extractQuery's `Pointer **extra_data` and `bool **pmatch`: per-key data for GIN
/// to hand back to consistent and comparePartial.
pub struct GinExtra<T>(*mut *mut *const T);

impl<'fcx, T> FromArg<'fcx> for GinExtra<T> {
    fn from_arg(arg: Arg<'fcx>) -> Self {
        GinExtra(arg.strict_datum().cast_mut_ptr())
    }
}

impl<T: Copy> GinExtra<T> {
    /// Gives every key the same `plan` (a palloc'd copy): consistent reads it back
    /// whole through [`GinExtra::plan`].
    pub fn set_plan(&self, plan: &[T]) {
        let copy = palloc_copy(plan) as *const T;
        let per_key = palloc_copy(&vec![copy; plan.len()]);
        // SAFETY: GIN passes a valid `Pointer **` at this position.
        unsafe { *self.0 = per_key };
    }
}

/// consistent's `Pointer *extra_data`: what extractQuery set with
/// [`GinExtra::set_plan`], or null.
pub struct GinPlan<'fcx, T> {
    per_key: *const *const T,
    _call: PhantomData<&'fcx T>,
}

impl<'fcx, T> FromArg<'fcx> for GinPlan<'fcx, T> {
    fn from_arg(arg: Arg<'fcx>) -> Self {
        GinPlan {
            per_key: arg.datum().map_or(core::ptr::null(), |d| d.cast_mut_ptr()),
            _call: PhantomData,
        }
    }
}

impl<'fcx, T> GinPlan<'fcx, T> {
    /// The plan of `nkeys` entries, or nothing when extractQuery set none.
    pub fn plan(&self, nkeys: i32) -> &'fcx [T] {
        // SAFETY: a non-null extra_data is the per-key array of `set_plan`, each
        // entry pointing at the same plan of `nkeys` entries, palloc'd in the
        // scan's memory, which outlives the call.
        unsafe {
            if nkeys <= 0 || self.per_key.is_null() || (*self.per_key).is_null() {
                return &[];
            }
            core::slice::from_raw_parts(*self.per_key, nkeys as usize)
        }
    }
}

/// extractQuery's `bool **pmatch`: which keys are partial matches.
pub struct GinFlags(*mut *mut bool);

impl<'fcx> FromArg<'fcx> for GinFlags {
    fn from_arg(arg: Arg<'fcx>) -> Self {
        GinFlags(arg.strict_datum().cast_mut_ptr())
    }
}

impl GinFlags {
    pub fn set(&self, flags: &[bool]) {
        let copy = palloc_copy(flags);
        // SAFETY: GIN passes a valid `bool **` at this position.
        unsafe { *self.0 = copy };
    }
}

/// consistent's `bool check[]`: which query keys the indexed row has.
pub struct GinCheck<'fcx> {
    check: *const bool,
    _call: PhantomData<&'fcx bool>,
}

impl<'fcx> FromArg<'fcx> for GinCheck<'fcx> {
    fn from_arg(arg: Arg<'fcx>) -> Self {
        GinCheck {
            check: arg.strict_datum().cast_mut_ptr(),
            _call: PhantomData,
        }
    }
}

impl<'fcx> GinCheck<'fcx> {
    /// The flags of the `nkeys` query keys.
    pub fn flags(&self, nkeys: i32) -> &'fcx [bool] {
        if nkeys <= 0 {
            return &[];
        }
        // SAFETY: GIN passes check[nkeys], alive for the call.
        unsafe { core::slice::from_raw_parts(self.check, nkeys as usize) }
    }
}

/// extractQuery's search modes (`*searchMode`).
pub mod search_mode {
    use pgrx::pg_sys;

    /// Rows with at least one of the query's keys.
    pub const DEFAULT: i32 = pg_sys::GIN_SEARCH_MODE_DEFAULT as i32;
    /// Those, and rows with no key (empty sets).
    pub const INCLUDE_EMPTY: i32 = pg_sys::GIN_SEARCH_MODE_INCLUDE_EMPTY as i32;
    /// Every row.
    pub const ALL: i32 = pg_sys::GIN_SEARCH_MODE_ALL as i32;
}

/// The operator class's parameters as PostgreSQL stores them for an index
/// (`USING gin (r roaring64_ops (element_keys = 32))`): a varlena header, then the
/// values at the offsets declared by [`GinOptions::declare`].
#[repr(C)]
struct GinOptionsData {
    vl_len_: i32,
    element_keys: i32,
}

/// The `options(internal)` support function's argument: where the parameters are
/// declared.
pub struct GinOptions(*mut pg_sys::local_relopts);

impl<'fcx> FromArg<'fcx> for GinOptions {
    fn from_arg(arg: Arg<'fcx>) -> Self {
        GinOptions(arg.strict_datum().cast_mut_ptr())
    }
}

impl GinOptions {
    /// Declares `element_keys` (an int from 0 to `max`, `default` when not given).
    pub fn declare(&self, default: i32, max: i32) {
        // SAFETY: GIN passes a local_relopts being built for this operator class;
        // the names are static C strings, and the offset is the field's in the
        // struct whose size is declared.
        unsafe {
            pg_sys::init_local_reloptions(self.0, size_of::<GinOptionsData>());
            pg_sys::add_local_int_reloption(
                self.0,
                c"element_keys".as_ptr(),
                c"an array container of more elements than this gives one key, not one per element"
                    .as_ptr(),
                default,
                0,
                max,
                core::mem::offset_of!(GinOptionsData, element_keys) as i32,
            );
        }
    }

    /// The `element_keys` of the index whose support function `call` is, or
    /// `default` when the index was made without it.
    pub fn element_keys(call: Call<'_>, default: i32) -> i32 {
        // SAFETY: flinfo is the current call's; GIN attaches the index's options to
        // it as a bytea laid out as declared above (or none).
        unsafe {
            let flinfo = (*call.fcinfo()).flinfo;
            if !pg_sys::has_fn_opclass_options(flinfo) {
                return default;
            }
            let options = pg_sys::get_fn_opclass_options(flinfo) as *const GinOptionsData;
            if options.is_null() {
                default
            } else {
                (*options).element_keys
            }
        }
    }
}

/// A `void` result: a datum that is not NULL (the callers of support functions,
/// such as GIN's options one, refuse a NULL result).
impl IntoRet for () {
    fn into_ret(self, _call: Call<'_>) -> Option<pg_sys::Datum> {
        Some(pg_sys::Datum::from(0usize))
    }
}
