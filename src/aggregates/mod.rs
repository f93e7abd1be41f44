//! Aggregates whose state type is `roaring64_state`, binary-identical to `roaring64`,
//! held during aggregation as a read/write expanded object (`crate::pg`'s `State`):
//! rb_or_agg, rb_and_agg, rb_xor_agg, rb_build_agg and the cardinality forms. The
//! combine function is the transition function on two states, so core parallel
//! aggregation and Citus split them without serial functions; the state type's own
//! text form (base64) is what Citus ships between nodes.
//!
//! Once adopted, a state is always handed back as it came, so the executor never
//! deletes it on its own (its arena is shared by every group's state).

use sroar::SetOp;
use sroar_pg_macros::sql_fn;

use crate::int8;
use crate::pg::{AggContext, Call, State, StateArg, StateOut};
use crate::read::Stored;

/// The state to change in place: ours and adopted by this aggregate, or a new one
/// that starts from the incoming value (a flat state, or NULL).
fn state_for(agg: AggContext<'_>, state: Option<StateArg<'_>>, op: SetOp) -> State {
    if let Some(s) = state.and_then(|a| a.state()) {
        if agg.adopts(&s) {
            // Ours and adopted: nodeAgg hands the same object back every row.
            return s;
        }
    }
    let mut fresh = agg.new_state(op);
    if let Some(old) = state {
        fresh.acc().add(old.view());
    }
    fresh
}

/// One transition step: the state absorbs `value`.
fn transition<'fcx>(
    call: Call<'fcx>,
    state: Option<StateArg<'fcx>>,
    value: Option<Stored<'fcx>>,
    op: SetOp,
) -> Option<StateOut<'fcx>> {
    let Some(agg) = AggContext::of(call) else {
        // Called as a plain function: the same operation on flat values.
        return match (state, value) {
            (Some(a), Some(b)) => Some(StateOut::Value(op.apply(a.view(), b.view()).into())),
            (Some(a), None) => Some(StateOut::Unchanged(a)),
            (None, b) => b.map(|b| StateOut::Value(b.into())),
        };
    };
    let Some(value) = value else {
        // NULL rows are skipped: the state (possibly still NULL) is unchanged.
        return state.map(StateOut::Unchanged);
    };
    let mut state = state_for(agg, state, op);
    let acc = state.acc();
    // Nothing can come back into an empty intersection: skip reading the row.
    if !acc.is_settled() {
        acc.add(value.view());
    }
    Some(StateOut::Changed(state))
}

// The transition functions run once per row. The combine functions are the same
// symbols.

#[sql_fn]
fn rb_or_trans<'fcx>(
    call: Call<'fcx>,
    state: Option<StateArg<'fcx>>,
    value: Option<Stored<'fcx>>,
) -> Option<StateOut<'fcx>> {
    transition(call, state, value, SetOp::Or)
}

#[sql_fn]
fn rb_and_trans<'fcx>(
    call: Call<'fcx>,
    state: Option<StateArg<'fcx>>,
    value: Option<Stored<'fcx>>,
) -> Option<StateOut<'fcx>> {
    transition(call, state, value, SetOp::And)
}

#[sql_fn]
fn rb_xor_trans<'fcx>(
    call: Call<'fcx>,
    state: Option<StateArg<'fcx>>,
    value: Option<Stored<'fcx>>,
) -> Option<StateOut<'fcx>> {
    transition(call, state, value, SetOp::Xor)
}

/// rb_build_agg(int8): the state absorbs one element per row.
#[sql_fn]
fn rb_build_trans<'fcx>(
    call: Call<'fcx>,
    state: Option<StateArg<'fcx>>,
    value: Option<i64>,
) -> Option<StateOut<'fcx>> {
    let Some(value) = value else {
        return state.map(StateOut::Unchanged);
    };
    let x = int8::to_u64(value);
    let Some(agg) = AggContext::of(call) else {
        return Some(StateOut::Value(
            match state {
                Some(a) => a.view().insert(x),
                None => sroar::Roaring::from_sorted(&[x]),
            }
            .into(),
        ));
    };
    let mut state = state_for(agg, state, SetOp::Or);
    state.acc().insert(x);
    Some(StateOut::Changed(state))
}

/// The final function of rb_or_agg, rb_and_agg, rb_xor_agg and rb_build_agg: the
/// state is a roaring64 already (the two types share their bytes), so it is handed
/// on as it is, read-only, and PostgreSQL flattens it once where it stores the result.
#[sql_fn]
fn rb_state_final(state: Option<StateArg>) -> Option<StateOut> {
    state.map(|a| match a.state() {
        Some(s) => StateOut::Final(s),
        None => StateOut::Unchanged(a),
    })
}

/// The cardinality of an aggregate's result still held as its state (an
/// aggregate's result handed to rb_cardinality, as in `rb_cardinality(rb_or_agg(r))`),
/// read without writing the set out; None for any other value.
pub fn state_cardinality(state: Option<State>) -> Option<u64> {
    state.map(|mut s| s.acc().len())
}

/// The final function of the cardinality aggregates: the state's cardinality,
/// expanded (read-only) or flat (after a parallel combine).
#[sql_fn]
fn rb_cardinality_final(state: Option<StateArg>) -> Option<i64> {
    let a = state?;
    let len = state_cardinality(a.state()).unwrap_or_else(|| a.view().len());
    Some(len as i64)
}
