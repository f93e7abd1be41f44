#![allow(
    unsafe_code,
    reason = "the planner's restriction estimator protocol: PlannerInfo, clause lists, pg_statistic slots"
)]
//! Restriction estimators: what the planner passes one (`PlannerInfo`, the
//! operator, its two arguments, the relation), read into the column's statistics
//! and the other side's value, so that the estimate itself is safe Rust
//! (`crate::planner`).

use core::marker::PhantomData;

use pgrx::pg_sys;

use super::entry::{Arg, FromArg};
use super::value::Value;

/// The call of a restriction estimator: `(internal, oid, internal, int4)`.
pub struct Restriction<'fcx> {
    root: *mut pg_sys::PlannerInfo,
    args: *mut pg_sys::List,
    var_relid: i32,
    _call: PhantomData<&'fcx ()>,
}

impl<'fcx> FromArg<'fcx> for Restriction<'fcx> {
    fn from_arg(arg: Arg<'fcx>) -> Self {
        // SAFETY: a restriction estimator is called with its four arguments, of the
        // types declared (`internal, oid, internal, int4`).
        let (args, relid) = unsafe { (Arg::new(arg.call(), 2), Arg::new(arg.call(), 3)) };
        Restriction {
            root: arg.strict_datum().cast_mut_ptr(),
            args: args.strict_datum().cast_mut_ptr(),
            var_relid: relid.strict_datum().value() as i32,
            _call: PhantomData,
        }
    }
}

impl Restriction<'_> {
    /// The restriction a support function's selectivity request describes.
    pub(super) fn new(
        root: *mut pg_sys::PlannerInfo,
        args: *mut pg_sys::List,
        var_relid: i32,
    ) -> Self {
        Restriction {
            root,
            args,
            var_relid,
            _call: PhantomData,
        }
    }
}

/// The call of a join estimator: `(internal, oid, internal, int2, internal)`.
pub struct JoinRestriction<'fcx> {
    root: *mut pg_sys::PlannerInfo,
    args: *mut pg_sys::List,
    sjinfo: *mut pg_sys::SpecialJoinInfo,
    _call: PhantomData<&'fcx ()>,
}

impl<'fcx> FromArg<'fcx> for JoinRestriction<'fcx> {
    fn from_arg(arg: Arg<'fcx>) -> Self {
        // SAFETY: a join estimator is called with its five arguments, of the types
        // declared (`internal, oid, internal, int2, internal`).
        let (args, sjinfo) = unsafe { (Arg::new(arg.call(), 2), Arg::new(arg.call(), 4)) };
        JoinRestriction {
            root: arg.strict_datum().cast_mut_ptr(),
            args: args.strict_datum().cast_mut_ptr(),
            sjinfo: sjinfo
                .datum()
                .map_or(core::ptr::null_mut(), |d| d.cast_mut_ptr()),
            _call: PhantomData,
        }
    }
}

impl JoinRestriction<'_> {
    /// The join clause's estimate by `estimate`, given the statistics of its left
    /// and right arguments.
    pub fn estimate(
        self,
        default: f64,
        estimate: impl FnOnce(&ColumnStats, &ColumnStats) -> f64,
    ) -> f64 {
        // SAFETY: the planner's PlannerInfo, argument list and join info for this
        // clause; both vardata are released after their statistics are copied out.
        let sel = unsafe {
            let mut left = pg_sys::VariableStatData::default();
            let mut right = pg_sys::VariableStatData::default();
            let mut reversed = false;
            pg_sys::get_join_variables(
                self.root,
                self.args,
                self.sjinfo,
                &mut left,
                &mut right,
                &mut reversed,
            );
            let (l, r) = (column_stats(&mut left), column_stats(&mut right));
            release(&mut left);
            release(&mut right);
            // `reversed` tells which side of the join each is from; the first is
            // the operator's left argument either way.
            estimate(&l, &r)
        };
        if sel.is_nan() {
            default
        } else {
            sel.clamp(0.0, 1.0)
        }
    }
}

/// The side of the clause that is not the column, as the planner knows it.
pub enum Operand<'a> {
    /// A `roaring64` constant (or a parameter a custom plan knows).
    Set(Value<'a>),
    /// An `int8` constant.
    Element(i64),
    /// NULL: the clause is never true.
    Null,
    /// Only known at run time (a parameter of a generic plan, a subquery, a column).
    Unknown,
}

/// The statistics of the column side of a clause.
pub struct ColumnStats {
    /// The column's type is `int8` (else `roaring64`).
    pub is_int8: bool,
    /// The fraction of NULL rows (0 without statistics).
    pub null_frac: f64,
    /// Whether ANALYZE has statistics for the column at all.
    pub analyzed: bool,
    /// For a `roaring64` column, the most common elements and their frequencies
    /// (ascending by element), then the numbers stored after them; for an `int8`
    /// column, the most common values and theirs (no numbers after).
    pub common: Vec<(i64, f32)>,
    pub common_extra: Vec<f32>,
    /// For a `roaring64` column, the histogram of set sizes, then their average.
    pub count_histogram: Vec<f32>,
    /// The number of distinct values of an int8 column (PostgreSQL's default when
    /// unknown; the row count for a unique one).
    pub n_distinct: f64,
}

impl Restriction<'_> {
    /// The clause's estimate by `estimate`, given the column's statistics, whether
    /// the column is the left argument, and the other side; `default` where the
    /// clause is not of a column and a value (a column against a column, an
    /// expression that is neither).
    pub fn estimate(
        self,
        default: f64,
        estimate: impl FnOnce(&ColumnStats, bool, Operand<'_>) -> f64,
    ) -> f64 {
        // SAFETY: the planner's PlannerInfo and argument list for this clause;
        // vardata is released (its statistics tuple freed) before returning, and
        // the slots read are copied out first.
        let sel = unsafe {
            let mut vardata = pg_sys::VariableStatData::default();
            let mut other: *mut pg_sys::Node = core::ptr::null_mut();
            let mut var_on_left = false;
            if !pg_sys::get_restriction_variable(
                self.root,
                self.args,
                self.var_relid,
                &mut vardata,
                &mut other,
                &mut var_on_left,
            ) {
                return default;
            }
            let stats = column_stats(&mut vardata);
            let operand = operand(self.root, other);
            let sel = estimate(&stats, var_on_left, operand);
            release(&mut vardata);
            sel
        };
        if sel.is_nan() {
            default
        } else {
            sel.clamp(0.0, 1.0)
        }
    }
}

/// The other side, reduced to a constant where the planner can.
///
/// # Safety
/// `root` and `other` are the current planning's.
unsafe fn operand<'a>(root: *mut pg_sys::PlannerInfo, other: *mut pg_sys::Node) -> Operand<'a> {
    // SAFETY: the node is checked for its tag before it is read as a Const; a
    // Const's value lives in the planner's memory for the planning.
    unsafe {
        let node = pg_sys::estimate_expression_value(root, other);
        if node.is_null() || (*node).type_ != pg_sys::NodeTag::T_Const {
            return Operand::Unknown;
        }
        let c = node as *mut pg_sys::Const;
        if (*c).constisnull {
            Operand::Null
        } else if (*c).consttype == pg_sys::INT8OID || (*c).constbyval {
            // By value: an int8 (or a domain over it), never a roaring64 varlena.
            Operand::Element((*c).constvalue.value() as i64)
        } else {
            Operand::Set(Value::from_datum((*c).constvalue))
        }
    }
}

/// The statistics of an expression (a column's, from ANALYZE; none for others).
///
/// # Safety
/// `root` and `node` are the current planning's.
pub(super) unsafe fn stats_of(
    root: *mut pg_sys::PlannerInfo,
    node: *mut pg_sys::Node,
) -> ColumnStats {
    // SAFETY: the caller's contract; vardata is released after its statistics are
    // copied out.
    unsafe {
        let mut vardata = pg_sys::VariableStatData::default();
        pg_sys::examine_variable(root, node, 0, &mut vardata);
        let stats = column_stats(&mut vardata);
        release(&mut vardata);
        stats
    }
}

/// Frees the statistics tuple `examine_variable` found (`ReleaseVariableStats`).
///
/// # Safety
/// `vardata` was filled by `examine_variable` or `get_restriction_variable`.
unsafe fn release(vardata: &mut pg_sys::VariableStatData) {
    // SAFETY: the caller's contract: the tuple, when there is one, is freed by the
    // function that came with it.
    unsafe {
        if !vardata.statsTuple.is_null() {
            if let Some(free) = vardata.freefunc {
                free(vardata.statsTuple);
            }
        }
    }
}

/// The statistics ANALYZE stored for the column, copied out of its tuple.
///
/// # Safety
/// `vardata` was filled by `examine_variable` or `get_restriction_variable`.
unsafe fn column_stats(vardata: &mut pg_sys::VariableStatData) -> ColumnStats {
    // SAFETY: the caller's contract; the statistics tuple is pg_statistic's, whose
    // fixed part is a FormData_pg_statistic; get_attstatsslot copies the slot's
    // arrays, which free_attstatsslot frees after they are copied here.
    unsafe {
        let is_int8 = vardata.vartype == pg_sys::INT8OID;
        let mut isdefault = false;
        let n_distinct = if is_int8 {
            pg_sys::get_variable_numdistinct(vardata, &mut isdefault)
        } else {
            0.0
        };
        let mut stats = ColumnStats {
            is_int8,
            null_frac: 0.0,
            analyzed: false,
            common: Vec::new(),
            common_extra: Vec::new(),
            count_histogram: Vec::new(),
            n_distinct,
        };
        let tuple = vardata.statsTuple;
        if tuple.is_null() {
            return stats;
        }
        let data = (*tuple).t_data;
        let form = (data as *const u8).add(usize::from((*data).t_hoff))
            as *const pg_sys::FormData_pg_statistic;
        stats.analyzed = true;
        stats.null_frac = f64::from((*form).stanullfrac);
        let kind = if is_int8 {
            pg_sys::STATISTIC_KIND_MCV
        } else {
            pg_sys::STATISTIC_KIND_MCELEM
        };
        let flags = (pg_sys::ATTSTATSSLOT_VALUES | pg_sys::ATTSTATSSLOT_NUMBERS) as i32;
        let mut slot = pg_sys::AttStatsSlot::default();
        if pg_sys::get_attstatsslot(&mut slot, tuple, kind as i32, pg_sys::InvalidOid, flags) {
            if slot.valuetype == pg_sys::INT8OID {
                let n = slot.nvalues.max(0) as usize;
                let values = core::slice::from_raw_parts(slot.values, n);
                let numbers =
                    core::slice::from_raw_parts(slot.numbers, slot.nnumbers.max(0) as usize);
                if numbers.len() >= n {
                    stats.common = values
                        .iter()
                        .zip(numbers)
                        .map(|(v, &f)| (v.value() as i64, f))
                        .collect();
                    stats.common_extra = numbers[n..].to_vec();
                }
            }
            pg_sys::free_attstatsslot(&mut slot);
        }
        if !is_int8 {
            let mut slot = pg_sys::AttStatsSlot::default();
            let flags = pg_sys::ATTSTATSSLOT_NUMBERS as i32;
            let kind = pg_sys::STATISTIC_KIND_DECHIST as i32;
            if pg_sys::get_attstatsslot(&mut slot, tuple, kind, pg_sys::InvalidOid, flags) {
                stats.count_histogram =
                    core::slice::from_raw_parts(slot.numbers, slot.nnumbers.max(0) as usize)
                        .to_vec();
                pg_sys::free_attstatsslot(&mut slot);
            }
        }
        stats
    }
}
