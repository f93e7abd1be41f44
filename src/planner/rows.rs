//! Row counts of the set-returning functions over one set, for the planner: exact
//! when the set is known at plan time (a literal, or a parameter's value in a custom
//! plan); for a column, from its statistics where they tell; otherwise the declared
//! `ROWS` stands.

use sroar_pg_macros::sql_fn;

use crate::pg::{Expr, SupportRequest};
use crate::read;

/// `rb_iterate(s)` returns one row per element: the header's cardinality, or for a
/// column the average set size ANALYZE measured (the last number of its
/// `elem_count_histogram`).
#[sql_fn]
fn rb_iterate_support(req: SupportRequest) -> Expr {
    req.estimate_rows(
        |set| read::plan_time_header(set).map(|h| h.cardinality as f64),
        |stats| {
            stats
                .count_histogram
                .last()
                .map(|&average| f64::from(average).max(1.0))
        },
    )
}

/// `rb_runs(s)` returns one row per run of consecutive elements, which only the
/// containers tell: they are read (the planner reads a constant once per plan).
#[sql_fn]
fn rb_runs_support(req: SupportRequest) -> Expr {
    req.estimate_rows(
        |set| read::plan_time_view(set).map(|v| v.runs().count() as f64),
        |_| None,
    )
}
