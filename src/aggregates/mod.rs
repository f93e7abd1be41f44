#![allow(
    unsafe_code,
    reason = "the internal-state aggregate hands its state's pointer back to it"
)]
//! Aggregates whose state type is `roaring64_state`, binary-identical to `roaring64`,
//! held during aggregation as a read/write expanded object (see `expanded`):
//! rb_or_agg, rb_and_agg, rb_xor_agg, rb_build_agg and the cardinality forms. The
//! combine function is the transition function on two states, so core parallel
//! aggregation and Citus split them without serial functions; the state type's own
//! text form (base64) is what Citus ships between nodes.

mod arena;
mod expanded;
mod palloc;

use pgrx::prelude::*;
use sroar::SetOp;

use crate::datum::{raw_arg, roaring_arg, RawDatum, RoaringOut};
use crate::fmgr::fmgr_function;
use crate::int8;
use arena::{agg_context, arena};
use expanded::State;

/// The state to change in place: ours and adopted by this aggregate, or a new one
/// that starts from the incoming value (a flat state, or NULL). Once adopted, a
/// state is always handed back as it came, so the executor never deletes it on its
/// own (its arena is shared; see `arena`).
fn state_for(
    fcinfo: pg_sys::FunctionCallInfo,
    aggcontext: pg_sys::MemoryContext,
    op: SetOp,
) -> State {
    if let Some(s) = raw_arg(fcinfo, 0).and_then(State::from_datum) {
        if s.is_owned_by(aggcontext) {
            // Ours and adopted: nodeAgg hands the same object back every row.
            return s;
        }
    }
    let mut fresh = State::create(arena(fcinfo, aggcontext), op);
    if let Some(old) = roaring_arg(fcinfo, 0) {
        fresh.acc().add(old.view());
    }
    fresh
}

/// The cardinality of an aggregate's result still held as its state (an
/// aggregate's result handed to rb_cardinality, as in `rb_cardinality(rb_or_agg(r))`),
/// read without writing the set out; None for any other value.
pub fn state_cardinality(datum: pg_sys::Datum) -> Option<u64> {
    State::from_datum(datum).map(|mut s| s.acc().len())
}

/// One transition step: the state absorbs the roaring64 in argument 1.
fn transition(fcinfo: pg_sys::FunctionCallInfo, op: SetOp) -> Option<pg_sys::Datum> {
    let value = roaring_arg(fcinfo, 1);
    let Some(aggcontext) = agg_context(fcinfo) else {
        // Called as a plain function: the same operation on flat values.
        return match (roaring_arg(fcinfo, 0), value) {
            (Some(a), Some(b)) => {
                let out: RoaringOut = op.apply(a.view(), b.view()).into();
                Some(out.into_datum_raw())
            }
            (Some(_), None) => raw_arg(fcinfo, 0),
            (None, _) => raw_arg(fcinfo, 1),
        };
    };
    let Some(value) = value else {
        // NULL rows are skipped: the state (possibly still NULL) is unchanged.
        return raw_arg(fcinfo, 0);
    };
    let mut state = state_for(fcinfo, aggcontext, op);
    let acc = state.acc();
    // Nothing can come back into an empty intersection: skip reading the row.
    if !acc.is_settled() {
        acc.add(value.view());
    }
    Some(state.rw_datum())
}

// The transition functions run once per row: they are plain fmgr entry points
// (see `crate::fmgr`). The combine functions are the same symbols.
fmgr_function!(
    rb_or_trans_wrapper,
    pg_finfo_rb_or_trans_wrapper,
    or_transition
);
fmgr_function!(
    rb_and_trans_wrapper,
    pg_finfo_rb_and_trans_wrapper,
    and_transition
);
fmgr_function!(
    rb_xor_trans_wrapper,
    pg_finfo_rb_xor_trans_wrapper,
    xor_transition
);
fmgr_function!(
    rb_build_trans_wrapper,
    pg_finfo_rb_build_trans_wrapper,
    build_transition
);

fn or_transition(fcinfo: pg_sys::FunctionCallInfo) -> Option<pg_sys::Datum> {
    transition(fcinfo, SetOp::Or)
}

fn and_transition(fcinfo: pg_sys::FunctionCallInfo) -> Option<pg_sys::Datum> {
    transition(fcinfo, SetOp::And)
}

fn xor_transition(fcinfo: pg_sys::FunctionCallInfo) -> Option<pg_sys::Datum> {
    transition(fcinfo, SetOp::Xor)
}

/// rb_build_agg(int8): the state absorbs one element per row.
fn build_transition(fcinfo: pg_sys::FunctionCallInfo) -> Option<pg_sys::Datum> {
    let Some(value) = raw_arg(fcinfo, 1) else {
        return raw_arg(fcinfo, 0);
    };
    let x = int8::to_u64(value.value() as i64);
    let Some(aggcontext) = agg_context(fcinfo) else {
        let out: RoaringOut = match roaring_arg(fcinfo, 0) {
            Some(a) => a.view().insert(x),
            None => sroar::from_sorted(&[x]),
        }
        .into();
        return Some(out.into_datum_raw());
    };
    let mut state = state_for(fcinfo, aggcontext, SetOp::Or);
    state.acc().insert(x);
    Some(state.rw_datum())
}

// The final function of rb_or_agg, rb_and_agg, rb_xor_agg and rb_build_agg: the
// state is a roaring64 already (the two types share their bytes), so it is handed
// on as it is, read-only, and PostgreSQL flattens it once where it stores the result.
fmgr_function!(
    rb_state_final_wrapper,
    pg_finfo_rb_state_final_wrapper,
    state_final
);

fn state_final(fcinfo: pg_sys::FunctionCallInfo) -> Option<pg_sys::Datum> {
    let datum = raw_arg(fcinfo, 0);
    datum.map(|d| State::from_datum(d).map_or(d, |s| s.ro_datum()))
}

// The final function of the cardinality aggregates: the state's cardinality,
// expanded (read-only) or flat (after a parallel combine).
fmgr_function!(
    rb_cardinality_final_wrapper,
    pg_finfo_rb_cardinality_final_wrapper,
    cardinality_final
);

fn cardinality_final(fcinfo: pg_sys::FunctionCallInfo) -> Option<pg_sys::Datum> {
    let len = match state_cardinality(raw_arg(fcinfo, 0)?) {
        Some(len) => len,
        None => roaring_arg(fcinfo, 0)?.view().len(),
    };
    Some(pg_sys::Datum::from(len as i64))
}

/// rb_or_agg_internal: the same union with an `internal` state, kept to measure the
/// expanded-object design against (see BENCHMARKS.md). It cannot be split into
/// partial aggregates by parallel plans or Citus.
#[pg_extern(sql = false)]
fn rb_or_internal_trans(fcinfo: pg_sys::FunctionCallInfo) -> pgrx::datum::Internal {
    let Some(aggcontext) = agg_context(fcinfo) else {
        crate::errors::invalid_parameter("rb_or_internal_trans must be called as an aggregate")
    };
    let Some(value) = roaring_arg(fcinfo, 1) else {
        // NULL rows are skipped: the state (possibly still NULL) is unchanged.
        return pgrx::datum::Internal::from(raw_arg(fcinfo, 0));
    };
    let mut state = match raw_arg(fcinfo, 0) {
        // SAFETY: a non-NULL internal state of this aggregate comes from internal_datum.
        Some(d) => unsafe { State::from_internal(d) },
        None => State::create(arena(fcinfo, aggcontext), SetOp::Or),
    };
    state.acc().add(value.view());
    pgrx::datum::Internal::from(Some(state.internal_datum()))
}

#[pg_extern(sql = false)]
fn rb_or_internal_final(fcinfo: pg_sys::FunctionCallInfo) -> RawDatum {
    // SAFETY: as above.
    let state = raw_arg(fcinfo, 0).map(|d| unsafe { State::from_internal(d) });
    RawDatum(state.map(|mut s| s.flatten()))
}
