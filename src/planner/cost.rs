//! The cost of a call of a function behind `@>`, `<@` or `&&` on a column, in
//! `cpu_operator_cost` units, from the column's average set size (ANALYZE's
//! `elem_count_histogram`), so that the planner weighs a sequential scan's test of
//! every row against an index's recheck of a few. Measured on sets of about 40
//! elements (inline, 150 bytes): a membership test and a set test each cost about 2
//! of an `int4eq`'s 1, reading the value included.

use crate::pg::ColumnStats;

/// Elements per unit of a read of a whole value (2 bytes each in array containers).
const ELEMENTS_PER_UNIT: f64 = 200.0;
/// Average sizes above which a membership test reads a few TOAST slices instead
/// of the whole value, and what those reads cost.
const PARTIAL_READ_FROM: f64 = 32768.0;
const PARTIAL_READ_UNITS: f64 = 300.0;

fn average_size(stats: &ColumnStats) -> Option<f64> {
    stats.count_histogram.last().map(|&a| f64::from(a))
}

/// A membership test (`s @> 42`): the value read whole while small, in a few
/// slices when large.
pub fn membership(stats: &ColumnStats) -> Option<f64> {
    let size = average_size(stats)?;
    Some(if size > PARTIAL_READ_FROM {
        PARTIAL_READ_UNITS
    } else {
        2.0 + size / ELEMENTS_PER_UNIT
    })
}

/// A test of two sets (`s @> t`, `s && t`, `s <@ t`): the value read whole.
pub fn set_test(stats: &ColumnStats) -> Option<f64> {
    Some(2.0 + average_size(stats)? / ELEMENTS_PER_UNIT)
}
