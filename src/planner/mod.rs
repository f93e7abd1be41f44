//! What the planner asks of `roaring64`: the statistics ANALYZE gathers, the
//! selectivity of its operators, and the row counts of its set-returning functions.

mod cost;
mod rows;
mod selectivity;
mod stats;
