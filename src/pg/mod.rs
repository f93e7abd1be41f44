//! The floor of the extension: the only code that touches PostgreSQL's memory and C
//! interfaces (`unsafe`, `pg_sys`, the function-call record). Everything above it,
//! `read`, `functions/`, `aggregates/` and `opclass/`, is safe Rust over the types
//! this module exports.
//!
//! | module | holds |
//! |---|---|
//! | `entry` | the call, its arguments and results: what `#[sql_fn]` generates calls to |
//! | `value` | a `roaring64` argument before it is read: its size, its bytes, its TOAST pointer; a detoasted copy of it that the call owns (`Owned`) |
//! | `results` | values written once into palloc'd memory: `roaring64`, bytea, cstring |
//! | `arrays` | `int8[]` results written in place |
//! | `srf` | the protocols of set-returning functions (a row per call, or a tuplestore) |
//! | `cache` | the per-call-site table in `fn_extra` that keeps stored values for a query |
//! | `alloc`, `arena`, `expanded` | aggregate states: palloc'd, in a shared arena, as expanded objects |
//! | `gin` | GIN's support-function protocol (C pointers passed as `internal`) |
//! | `multirange` | `int8multirange` in and out |
//! | `receive` | a binary receive function's buffer |
//! | `variadic` | the sets of a `VARIADIC "any"` call, type-checked |
//! | `analyze` | ANALYZE's typanalyze protocol: a column's sample, and the element statistics added to the standard ones |
//! | `selectivity` | the restriction estimator protocol: a clause's column statistics and its other side |
//! | `support` | planner support requests: calls routed to `VARIADIC "any"` twins, row counts of set-returning functions |
//! | `compat` | what differs between PostgreSQL majors (one body per C signature) |
//! | `ffi` | PostgreSQL symbols that pgrx does not bind, or that are called unguarded on purpose |

mod alloc;
mod analyze;
mod arena;
mod arrays;
mod cache;
mod compat;
mod entry;
mod expanded;
mod ffi;
mod gin;
mod multirange;
mod receive;
mod results;
mod selectivity;
mod srf;
mod support;
mod value;
mod variadic;

pub use analyze::{AnalyzeRequest, ColumnSample, ElementStats};
pub use arrays::{int8_array, Int8Array};
pub use cache::{CallSite, Entry as CacheEntry};
pub use entry::{Arg, Call, FromArg, IntoRet, FINFO_V1};
pub use expanded::{AggContext, State, StateArg, StateOut};
pub use ffi::{hash_bytes, hash_bytes_extended};
pub use gin::{
    search_mode, GinCheck, GinExtra, GinFlags, GinKeys, GinOptions, GinPlan, GinQuery, OutArg,
};
pub use multirange::{multirange_runs, Int8Multirange, MultirangeArg};
pub use receive::ReceiveBuffer;
pub use results::{
    palloc_cstring, release_kept_buffers_at_transaction_end, Bytea, CStringOut, MaybeRoaring,
    RoaringOut,
};
pub use selectivity::{ColumnStats, JoinRestriction, Operand, Restriction};
pub use srf::SetOf;
pub use support::{Expr, IndexClause, IndexedArg, SupportRequest};
pub use value::{stored_view, Detoasted, Owned, Value};
pub use variadic::{variadic_sets, SetArg};

/// The version-1 info record type every entry point returns from its `pg_finfo_*`.
pub type FinfoRecord = pgrx::pg_sys::Pg_finfo_record;

/// An ERROR with a DETAIL and a HINT (pgrx's `ereport!` takes a DETAIL only).
pub fn error_with_hint(
    code: pgrx::PgSqlErrorCode,
    message: String,
    detail: &str,
    hint: String,
) -> ! {
    pgrx::pg_sys::panic::ErrorReport::new(code, message, pgrx::function_name!())
        .set_detail(detail)
        .set_hint(hint)
        .report(pgrx::PgLogLevel::ERROR);
    unreachable!("an ERROR report does not return")
}

/// Lets statement_timeout and cancel requests stop long loops.
pub fn check_for_interrupts() {
    pgrx::check_for_interrupts!();
}
