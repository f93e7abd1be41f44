//! Restriction estimates of the containment and overlap operators, from the element
//! statistics ANALYZE stores (`stats`), in the way `arraycontsel` estimates
//! `int8[]`: elements independent of one another, each in a row with its measured
//! frequency, or, when it is not among the most common, with the mean frequency of
//! those that are not. A constant set is read in place, never decoded: the common
//! elements are looked up in it, and the rest counted from its cardinality.
//!
//! | clause | estimate |
//! |---|---|
//! | `col @> x`, `x <@ col` | the frequency of `x` |
//! | `col @> s` | the product of the frequencies of the elements of `s` |
//! | `col && s` | one minus the product of their complements |
//! | `col <@ s` | over the histogram of set sizes, `p^size`, `p` the share of element occurrences that fall in `s` |
//! | `i <@ s`, `s @> i` (`i` an int8 column) | the frequencies of its most common values in `s`, and the mean frequency of its other values for the rest of `s` (as `= ANY` of an array) |

use sroar::RoaringView;
use sroar_pg_macros::sql_fn;

use super::cost;
use crate::int8::to_u64;
use crate::pg::{
    ColumnStats, Expr, IndexClause, IndexedArg, JoinRestriction, Operand, Restriction,
    SupportRequest,
};
use crate::read::{plan_time_header, plan_time_view};

/// Where the other side is only known at run time, or nothing is known of the
/// column: PostgreSQL's own defaults for containment (`contsel`'s 0.001 is for
/// geometric types; `arraycontsel` uses 0.005) and overlap.
const DEFAULT_CONTAIN: f64 = 0.005;
const DEFAULT_OVERLAP: f64 = 0.005;
/// Without element statistics, the frequency taken for an element.
const DEFAULT_ELEMENT_FREQ: f64 = 0.005;
/// A join of two set columns, or of columns without statistics: `contjoinsel`'s.
const DEFAULT_JOIN: f64 = 0.001;

/// The clause, once the column side and the operator's direction are known.
enum Clause<'a> {
    HasElement(i64),
    HasAll(RoaringView<'a>),
    HasAny(RoaringView<'a>),
    Within(RoaringView<'a>),
    /// An int8 column's value is in the set.
    ValueIn(RoaringView<'a>),
    Empty,
    Unknown,
}

/// `@>`: the left side holds the right.
#[sql_fn]
fn roaring64_contains_sel(req: Restriction) -> f64 {
    contains(req)
}

/// `<@`: the left side is held by the right.
#[sql_fn]
fn roaring64_contained_sel(req: Restriction) -> f64 {
    contained(req)
}

/// `&&`.
#[sql_fn]
fn roaring64_overlap_sel(req: Restriction) -> f64 {
    overlaps(req)
}

/// `@>` between the rows of two tables. An int8 column against a set column:
/// a pair matches when the id is among the set's, `average size / distinct ids`
/// (with their statistics); two sets: `contjoinsel`'s constant.
#[sql_fn]
fn roaring64_contains_joinsel(req: JoinRestriction) -> f64 {
    req.estimate(DEFAULT_JOIN, |left, right| id_in_set_join(right, left))
}

/// `<@` between the rows of two tables (see `roaring64_contains_joinsel`).
#[sql_fn]
fn roaring64_contained_joinsel(req: JoinRestriction) -> f64 {
    req.estimate(DEFAULT_JOIN, id_in_set_join)
}

/// `id <@ set` for a pair of rows, `id` an int8 column and `set` a roaring64 one.
fn id_in_set_join(id: &ColumnStats, set: &ColumnStats) -> f64 {
    if !id.is_int8 || set.is_int8 {
        return DEFAULT_JOIN;
    }
    let Some(&average) = set.count_histogram.last() else {
        return DEFAULT_JOIN;
    };
    let per_id = (1.0 - id.null_frac) / id.n_distinct.max(1.0);
    (f64::from(average) * per_id * (1.0 - set.null_frac)).min(1.0)
}

fn contains(req: Restriction) -> f64 {
    req.estimate(DEFAULT_CONTAIN, |col, col_left, other| {
        estimate(
            col,
            clause(col, other, if col_left { Op::Holds } else { Op::HeldBy }),
            DEFAULT_CONTAIN,
        )
    })
}

fn contained(req: Restriction) -> f64 {
    req.estimate(DEFAULT_CONTAIN, |col, col_left, other| {
        estimate(
            col,
            clause(col, other, if col_left { Op::HeldBy } else { Op::Holds }),
            DEFAULT_CONTAIN,
        )
    })
}

fn overlaps(req: Restriction) -> f64 {
    req.estimate(DEFAULT_OVERLAP, |col, _, other| {
        estimate(col, clause(col, other, Op::Meets), DEFAULT_OVERLAP)
    })
}

// The functions behind the operators answer the planner for their function forms
// as the operators do (GIN strategies: 1 `&&`, 2 `@>`, 3 `<@`, 5 `@> int8`), give
// an int8 column's btree index the set's elements, and cost a call by the size of
// the sets it reads (`cost`).

/// `rb_contains(set, x)`, behind `set @> x`.
#[sql_fn]
fn rb_contains_int8_support(req: SupportRequest) -> Expr {
    req.operator_support(
        contains,
        |arg, set, rows| match arg {
            IndexedArg::Set(0) => Some(IndexClause::Operator(5)),
            IndexedArg::Int8(1) => Some(int8_clause(set, rows)),
            _ => None,
        },
        cost::membership,
    )
}

/// `roaring64_int8_contained_by(x, set)`, behind `x <@ set`.
#[sql_fn]
fn roaring64_int8_contained_by_support(req: SupportRequest) -> Expr {
    req.operator_support(
        contained,
        |arg, set, rows| match arg {
            IndexedArg::Set(1) => Some(IndexClause::Operator(5)),
            IndexedArg::Int8(0) => Some(int8_clause(set, rows)),
            _ => None,
        },
        cost::membership,
    )
}

/// `rb_contains(a, b)`, behind `a @> b`.
#[sql_fn]
fn rb_contains_support(req: SupportRequest) -> Expr {
    req.operator_support(
        contains,
        |arg, _, _| match arg {
            IndexedArg::Set(0) => Some(IndexClause::Operator(2)),
            IndexedArg::Set(_) => Some(IndexClause::Operator(3)),
            IndexedArg::Int8(_) => None,
        },
        cost::set_test,
    )
}

/// `roaring64_contained_by(a, b)`, behind `a <@ b`.
#[sql_fn]
fn roaring64_contained_by_support(req: SupportRequest) -> Expr {
    req.operator_support(
        contained,
        |arg, _, _| match arg {
            IndexedArg::Set(0) => Some(IndexClause::Operator(3)),
            IndexedArg::Set(_) => Some(IndexClause::Operator(2)),
            IndexedArg::Int8(_) => None,
        },
        cost::set_test,
    )
}

/// `rb_intersects(a, b)`, behind `a && b`.
#[sql_fn]
fn rb_intersects_support(req: SupportRequest) -> Expr {
    req.operator_support(
        overlaps,
        |arg, _, _| match arg {
            IndexedArg::Set(_) => Some(IndexClause::Operator(1)),
            IndexedArg::Int8(_) => None,
        },
        cost::set_test,
    )
}

/// A set the planner knows searches an int8 column's btree index element by
/// element when it holds up to this many ids, or this share of the table's rows;
/// a larger one by its range. The planner costs an array condition built at run
/// time as ten searches: a set of 100,000 ids of a 200,000-row table was searched
/// 100,000 times (69 ms) where a scan took 30 ms, while 100,000 ids of 20M rows
/// take 0.8 s element by element against 1.0 s for the scan. A range is costed by
/// what it spans (a spread set: the whole table, and the scan is chosen).
const INT8_ANY_UP_TO: f64 = 10_000.0;
const INT8_ANY_SHARE: f64 = 0.02;

/// The condition an int8 column's btree index gets from a set: its elements, or,
/// for a large set the planner knows, its `[min, max]` (lossy: rows are rechecked).
fn int8_clause(set: Option<crate::pg::Value<'_>>, table_rows: f64) -> IndexClause {
    match set.and_then(plan_time_header) {
        Some(h) if h.cardinality as f64 > INT8_ANY_UP_TO.max(INT8_ANY_SHARE * table_rows) => {
            IndexClause::Int8Range(crate::int8::to_i64(h.min), crate::int8::to_i64(h.max))
        }
        _ => IndexClause::Int8AnyOf,
    }
}

/// What the clause asks of the column side.
#[derive(Clone, Copy)]
enum Op {
    Holds,
    HeldBy,
    Meets,
}

fn clause<'a>(col: &ColumnStats, other: Operand<'a>, op: Op) -> Clause<'a> {
    let set = match other {
        Operand::Null => return Clause::Empty,
        Operand::Unknown => return Clause::Unknown,
        Operand::Element(x) => {
            return match (op, col.is_int8) {
                (Op::Holds, false) => Clause::HasElement(x),
                _ => Clause::Unknown,
            };
        }
        Operand::Set(v) => match plan_time_header(v).and_then(|_| plan_time_view(v)) {
            Some(view) => view,
            None => return Clause::Unknown,
        },
    };
    match (op, col.is_int8) {
        (Op::HeldBy, true) => Clause::ValueIn(set),
        (_, true) => Clause::Unknown,
        (Op::Holds, false) => Clause::HasAll(set),
        (Op::HeldBy, false) => Clause::Within(set),
        (Op::Meets, false) => Clause::HasAny(set),
    }
}

fn estimate(col: &ColumnStats, clause: Clause<'_>, default: f64) -> f64 {
    let non_null = 1.0 - col.null_frac;
    let sel = match clause {
        Clause::Empty => return 0.0,
        Clause::Unknown => return default,
        Clause::ValueIn(set) => return value_in(col, &set),
        Clause::HasElement(x) => Elements::of(col).freq(x),
        Clause::HasAll(set) => {
            if set.is_empty() {
                1.0
            } else {
                let e = Elements::of(col);
                let (matched, others) = e.split(&set);
                matched.iter().product::<f64>() * e.rest.powf(others)
            }
        }
        Clause::HasAny(set) => {
            let e = Elements::of(col);
            let (matched, others) = e.split(&set);
            let none =
                matched.iter().map(|f| 1.0 - f).product::<f64>() * (1.0 - e.rest).powf(others);
            1.0 - none
        }
        Clause::Within(set) => within(col, &set),
    };
    sel * non_null
}

/// The element frequencies of a `roaring64` column.
struct Elements<'a> {
    common: &'a [(i64, f32)],
    /// The frequency taken for an element not in `common`.
    rest: f64,
}

impl<'a> Elements<'a> {
    fn of(col: &'a ColumnStats) -> Self {
        // The numbers after the frequencies: least, greatest, NULL elements, then
        // the mean frequency of the others (see `stats`).
        let rest = match col.common_extra[..] {
            [min, _, _, rest, ..] => f64::from(rest.min(min)),
            [min, ..] => f64::from(min) / 2.0,
            [] if col.analyzed => 0.0,
            [] => DEFAULT_ELEMENT_FREQ,
        };
        Elements {
            common: &col.common,
            rest,
        }
    }

    fn freq(&self, x: i64) -> f64 {
        match self.common.binary_search_by_key(&x, |e| e.0) {
            Ok(i) => f64::from(self.common[i].1),
            Err(_) => self.rest,
        }
    }

    /// The frequencies of the common elements in `set`, and how many of its
    /// elements are not common.
    fn split(&self, set: &RoaringView<'_>) -> (Vec<f64>, f64) {
        let matched: Vec<f64> = self
            .common
            .iter()
            .filter(|e| set.contains(to_u64(e.0)))
            .map(|e| f64::from(e.1))
            .collect();
        let others = (set.len() - matched.len() as u64) as f64;
        (matched, others)
    }
}

/// `col <@ set`: a row of `k` elements is within the set when each of them is,
/// each with the probability `p` that an element occurrence falls in the set.
fn within(col: &ColumnStats, set: &RoaringView<'_>) -> f64 {
    let e = Elements::of(col);
    let (matched, others) = e.split(set);
    let Some((&average, sizes)) = col.count_histogram.split_last() else {
        return DEFAULT_CONTAIN;
    };
    if average <= 0.0 {
        return 1.0;
    }
    let mass = matched.iter().sum::<f64>() + others * e.rest;
    let p = (mass / f64::from(average)).clamp(0.0, 1.0);
    if sizes.is_empty() {
        return p.powf(f64::from(average));
    }
    sizes.iter().map(|&k| p.powf(f64::from(k))).sum::<f64>() / sizes.len() as f64
}

/// `i <@ set` for an int8 column `i`: its most common values in the set, and the
/// set's other elements at the mean frequency of the column's other values.
fn value_in(col: &ColumnStats, set: &RoaringView<'_>) -> f64 {
    let non_null = 1.0 - col.null_frac;
    let common_total: f64 = col.common.iter().map(|c| f64::from(c.1)).sum();
    let (mut sel, mut matched) = (0.0, 0u64);
    for &(v, f) in &col.common {
        if set.contains(to_u64(v)) {
            sel += f64::from(f);
            matched += 1;
        }
    }
    let others = (col.n_distinct - col.common.len() as f64).max(1.0);
    let each = ((non_null - common_total) / others).max(0.0);
    sel += (set.len() - matched) as f64 * each;
    sel.min(non_null)
}
