#![allow(
    unsafe_code,
    reason = "reads and answers the planner's support requests (C node trees)"
)]
//! Planner support functions: the `internal` request the planner passes, and the
//! answers this extension gives to two kinds of it.
//! - `SupportRequestSimplify` on a many-set function called with its sets written
//!   out: the same call of its `VARIADIC "any"` twin (see `variadic`).
//! - `SupportRequestRows` on a set-returning function of one set: its row count,
//!   when the set is known at plan time (a constant, or a parameter's value in a
//!   custom plan), so that a join over `rb_iterate(...)` is planned for the rows it
//!   will really return rather than the declared `ROWS`.
//! - `SupportRequestSelectivity` and `SupportRequestIndexCondition` on the functions
//!   behind the containment and overlap operators: the function forms
//!   (`rb_contains(col, 42)`) are estimated as the operators are and use the same
//!   GIN index; and an int8 column filtered by a set (`id <@ s`, `s @> id`) gets a
//!   btree index condition `id = ANY(rb_to_array(s))`, the array made at run time.

use core::ffi::CStr;
use core::marker::PhantomData;

use pgrx::pg_sys;

use super::entry::{Arg, Call, FromArg, IntoRet};
use super::selectivity::{stats_of, ColumnStats, Restriction};
use super::value::Value;

/// A planner support request (the `internal` argument of a support function).
#[derive(Clone, Copy)]
pub struct SupportRequest<'fcx> {
    node: *mut pg_sys::Node,
    _call: PhantomData<&'fcx ()>,
}

impl<'fcx> FromArg<'fcx> for SupportRequest<'fcx> {
    fn from_arg(arg: Arg<'fcx>) -> Self {
        SupportRequest {
            node: arg.strict_datum().cast_mut_ptr(),
            _call: PhantomData,
        }
    }
}

/// What a support function answers: an expression, or a null pointer for "no
/// answer" (not SQL NULL: the planner calls support functions through
/// OidFunctionCall1, which refuses a NULL result).
pub struct Expr(Option<*mut pg_sys::Node>);

impl IntoRet for Expr {
    fn into_ret(self, _call: Call<'_>) -> Option<pg_sys::Datum> {
        Some(pg_sys::Datum::from(self.0.unwrap_or(core::ptr::null_mut())))
    }
}

impl SupportRequest<'_> {
    /// For a call of a `VARIADIC roaring64[]` function with its sets written out,
    /// `f(a, b, c)` (which the parser has made `f(ARRAY[a, b, c])`): the same call of
    /// `f` + `suffix`, a `VARIADIC "any"` function in the same schema, over the
    /// sets themselves. None leaves the call as it is: another request, a call with
    /// `VARIADIC arr` (an array value, not an array of the sets), or no such function.
    pub fn spread_variadic_call(self, suffix: &str) -> Expr {
        // SAFETY: see `spread`.
        Expr(unsafe { self.spread(suffix) })
    }

    /// # Safety
    /// `self` is the argument of a support function, as the planner passes it.
    unsafe fn spread(self, suffix: &str) -> Option<*mut pg_sys::Node> {
        // SAFETY: the planner passes a valid request node; every node read is
        // checked for its tag first, and the new call is palloc'd in the planner's
        // memory context, which owns the expression tree.
        unsafe {
            if (*self.node).type_ != pg_sys::NodeTag::T_SupportRequestSimplify {
                return None;
            }
            let call = (*(self.node as *mut pg_sys::SupportRequestSimplify)).fcall;
            let args = (*call).args;
            // The parser has put the sets of f(a, b, c) into ARRAY[a, b, c] and
            // marked the call VARIADIC, as it marks f(VARIADIC arr): only the
            // array expression tells them apart (f(VARIADIC ARRAY[a, b]) is f(a, b)).
            if args.is_null() || (*args).length != 1 {
                return None;
            }
            let array = (*(*args).elements).ptr_value as *mut pg_sys::Node;
            if array.is_null() || (*array).type_ != pg_sys::NodeTag::T_ArrayExpr {
                return None;
            }
            let array = array as *mut pg_sys::ArrayExpr;
            if (*array).multidims {
                return None;
            }
            let target = spread_function((*call).funcid, suffix)?;
            let spread = pg_sys::makeFuncExpr(
                target,
                (*call).funcresulttype,
                (*array).elements,
                (*call).funccollid,
                (*call).inputcollid,
                pg_sys::CoercionForm::COERCE_EXPLICIT_CALL,
            );
            (*spread).location = (*call).location;
            Some(spread as *mut pg_sys::Node)
        }
    }
}

/// The `VARIADIC "any"` function named after function `funcid` plus `suffix`, in
/// its schema.
///
/// # Safety
/// Called within a transaction (catalog lookups).
unsafe fn spread_function(funcid: pg_sys::Oid, suffix: &str) -> Option<pg_sys::Oid> {
    // SAFETY: catalog lookups of an existing function; the names are palloc'd
    // cstrings, and makeString keeps the pointers it is given.
    unsafe {
        let name = CStr::from_ptr(pg_sys::get_func_name(funcid))
            .to_str()
            .ok()?;
        let schema = pg_sys::get_namespace_name(pg_sys::get_func_namespace(funcid));
        let target = std::ffi::CString::new(format!("{name}{suffix}")).ok()?;
        let mut names = pgrx::PgList::<pg_sys::Node>::new();
        names.push(pg_sys::makeString(schema).cast());
        names.push(pg_sys::makeString(pg_sys::pstrdup(target.as_ptr())).cast());
        let any = [pg_sys::ANYOID];
        let oid = pg_sys::LookupFuncName(names.into_pg(), 1, any.as_ptr(), true);
        (oid != pg_sys::InvalidOid).then_some(oid)
    }
}

impl<'fcx> SupportRequest<'fcx> {
    /// For a row-count request on a call of a STRICT set-returning function whose
    /// first argument is a `roaring64`: when the planner knows its value, `rows` of
    /// it, and no rows for a NULL; otherwise `from_stats` of the statistics of the
    /// argument (a column's, from ANALYZE). None where neither answers (another
    /// request, no statistics), which leaves the function's declared `ROWS`.
    pub fn estimate_rows(
        self,
        rows: impl FnOnce(Value<'fcx>) -> Option<f64>,
        from_stats: impl FnOnce(&ColumnStats) -> Option<f64>,
    ) -> Expr {
        // SAFETY: see `first_arg`; the request node is the planner's, and its
        // `rows` field is what the planner reads back.
        unsafe {
            if (*self.node).type_ != pg_sys::NodeTag::T_SupportRequestRows {
                return Expr(None);
            }
            let req = self.node as *mut pg_sys::SupportRequestRows;
            let estimate = match first_arg((*req).root, (*req).node) {
                None => return Expr(None),
                Some(FirstArg::Null) => Some(0.0),
                Some(FirstArg::Known(value)) => rows(value),
                Some(FirstArg::Expression(_)) if (*req).root.is_null() => None,
                Some(FirstArg::Expression(arg)) => from_stats(&stats_of((*req).root, arg)),
            };
            match estimate {
                Some(n) => {
                    (*req).rows = n;
                    Expr(Some(self.node))
                }
                None => Expr(None),
            }
        }
    }
}

/// The first argument of a call, as the planner knows it.
enum FirstArg<'fcx> {
    Null,
    Known(Value<'fcx>),
    /// Only known at run time (a column, a generic plan's parameter).
    Expression(*mut pg_sys::Node),
}

/// The first argument of `call` (a function or operator call): its value when the
/// planner can reduce it to a constant (a literal, an immutable expression of
/// literals, a parameter whose value a custom plan knows), else the expression.
///
/// # Safety
/// `root` (which may be null) and `call` come from a planner support request of the
/// current planning; the returned value lives as long as the planner's memory.
unsafe fn first_arg<'fcx>(
    root: *mut pg_sys::PlannerInfo,
    call: *mut pg_sys::Node,
) -> Option<FirstArg<'fcx>> {
    // SAFETY: every node is checked for its tag before it is read as that node;
    // estimate_expression_value returns a new node (or the same) in the planner's
    // memory context, and takes a null root.
    unsafe {
        if call.is_null() {
            return None;
        }
        let args = match (*call).type_ {
            pg_sys::NodeTag::T_FuncExpr => (*(call as *mut pg_sys::FuncExpr)).args,
            pg_sys::NodeTag::T_OpExpr => (*(call as *mut pg_sys::OpExpr)).args,
            _ => return None,
        };
        if args.is_null() || (*args).length < 1 {
            return None;
        }
        let expr = (*(*args).elements).ptr_value as *mut pg_sys::Node;
        let arg = pg_sys::estimate_expression_value(root, expr);
        if arg.is_null() || (*arg).type_ != pg_sys::NodeTag::T_Const {
            return Some(FirstArg::Expression(expr));
        }
        let arg = arg as *mut pg_sys::Const;
        if (*arg).constisnull {
            return Some(FirstArg::Null);
        }
        Some(FirstArg::Known(Value::from_datum((*arg).constvalue)))
    }
}

/// The argument of an operator's function that an index covers.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum IndexedArg {
    /// A `roaring64` argument, under a GIN index.
    Set(usize),
    /// An `int8` argument, under a btree index.
    Int8(usize),
}

/// The index condition that stands for a call.
pub enum IndexClause {
    /// `indexed OP other`, OP the index's operator of this strategy for the two
    /// types.
    Operator(u16),
    /// `indexed = ANY(rb_to_array(other))`, exact.
    Int8AnyOf,
    /// `indexed >= min AND indexed <= max`, lossy (the call is rechecked).
    Int8Range(i64, i64),
}

const GIN_AM_OID: u32 = 2742;
const BTREE_AM_OID: u32 = 403;
const BT_LESS_EQUAL_STRATEGY: i16 = 2;
const BT_EQUAL_STRATEGY: i16 = 3;
const BT_GREATER_EQUAL_STRATEGY: i16 = 4;
const INT8_ARRAY_OID: u32 = 1016;

impl SupportRequest<'_> {
    /// The answer of a containment or overlap function's support: to a selectivity
    /// request on a restriction, `selectivity` of its arguments; to an index
    /// condition request, the clause `index` gives for the indexed argument, when
    /// the other argument holds nothing of the indexed table and nothing volatile;
    /// `index` also gets the other argument's value when the planner knows it (a
    /// constant, a custom plan's parameter) and the indexed table's row count; to a
    /// cost request, the largest `cost` (in `cpu_operator_cost` units) of the
    /// statistics of its `roaring64` arguments that are not constants. None
    /// otherwise (a join's selectivity, arguments without statistics, another
    /// request).
    pub fn operator_support(
        self,
        selectivity: impl FnOnce(Restriction<'_>) -> f64,
        index: impl FnOnce(IndexedArg, Option<Value<'_>>, f64) -> Option<IndexClause>,
        cost: impl Fn(&ColumnStats) -> Option<f64>,
    ) -> Expr {
        // SAFETY: the planner passes a valid request node, whose tag is checked
        // before it is read as that request.
        unsafe {
            match (*self.node).type_ {
                pg_sys::NodeTag::T_SupportRequestSelectivity => {
                    let req = self.node as *mut pg_sys::SupportRequestSelectivity;
                    if (*req).is_join {
                        return Expr(None);
                    }
                    let r = Restriction::new((*req).root, (*req).args, (*req).varRelid);
                    (*req).selectivity = selectivity(r);
                    Expr(Some(self.node))
                }
                pg_sys::NodeTag::T_SupportRequestIndexCondition => {
                    let req = self.node as *mut pg_sys::SupportRequestIndexCondition;
                    Expr(index_condition(req, index).map(|list| list.cast()))
                }
                pg_sys::NodeTag::T_SupportRequestCost => {
                    let req = self.node as *mut pg_sys::SupportRequestCost;
                    let units = call_args((*req).node)
                        .into_iter()
                        .filter(|&arg| {
                            pg_sys::exprType(arg) != pg_sys::INT8OID
                                && (*arg).type_ != pg_sys::NodeTag::T_Const
                                && !(*req).root.is_null()
                        })
                        .filter_map(|arg| cost(&stats_of((*req).root, arg)))
                        .fold(None, |most: Option<f64>, c| {
                            Some(most.map_or(c, |m| m.max(c)))
                        });
                    match units {
                        Some(units) => {
                            (*req).per_tuple = units * pg_sys::cpu_operator_cost;
                            Expr(Some(self.node))
                        }
                        None => Expr(None),
                    }
                }
                _ => Expr(None),
            }
        }
    }
}

/// The arguments of a function or operator call (none for another node).
///
/// # Safety
/// `call` is null or a node of the current planning.
unsafe fn call_args(call: *mut pg_sys::Node) -> Vec<*mut pg_sys::Node> {
    // SAFETY: the node's tag is checked before it is read as that node; a List's
    // elements are its `length` cells.
    unsafe {
        if call.is_null() {
            return Vec::new();
        }
        let args = match (*call).type_ {
            pg_sys::NodeTag::T_FuncExpr => (*(call as *mut pg_sys::FuncExpr)).args,
            pg_sys::NodeTag::T_OpExpr => (*(call as *mut pg_sys::OpExpr)).args,
            _ => return Vec::new(),
        };
        if args.is_null() {
            return Vec::new();
        }
        (0..(*args).length as usize)
            .map(|i| (*(*args).elements.add(i)).ptr_value as *mut pg_sys::Node)
            .collect()
    }
}

/// The index clause list for `req`, or None.
///
/// # Safety
/// `req` is the planner's index condition request.
unsafe fn index_condition(
    req: *mut pg_sys::SupportRequestIndexCondition,
    rule: impl FnOnce(IndexedArg, Option<Value<'_>>, f64) -> Option<IndexClause>,
) -> Option<*mut pg_sys::List> {
    // SAFETY: the request's nodes are the planner's; each is checked for its tag
    // before it is read as that node, and every new node is palloc'd in the
    // planner's memory context, which owns the plan.
    unsafe {
        let call = (*req).node;
        let args = match (*call).type_ {
            pg_sys::NodeTag::T_FuncExpr => (*(call as *mut pg_sys::FuncExpr)).args,
            pg_sys::NodeTag::T_OpExpr => (*(call as *mut pg_sys::OpExpr)).args,
            _ => return None,
        };
        if args.is_null() || (*args).length != 2 {
            return None;
        }
        let at = usize::try_from((*req).indexarg).ok().filter(|&i| i < 2)?;
        let arg = |i: usize| (*(*args).elements.add(i)).ptr_value as *mut pg_sys::Node;
        let (indexed, other) = (arg(at), arg(1 - at));
        let index = (*req).index;
        let rel = (*index).rel;
        if pg_sys::bms_is_member((*rel).relid as i32, pg_sys::pull_varnos((*req).root, other))
            || pg_sys::contain_volatile_functions(other)
        {
            return None;
        }
        let (indexed_type, other_type) = (pg_sys::exprType(indexed), pg_sys::exprType(other));
        let am = (*index).relam.to_u32();
        let target = match (am, indexed_type == pg_sys::INT8OID) {
            (GIN_AM_OID, false) => IndexedArg::Set(at),
            (BTREE_AM_OID, true) => IndexedArg::Int8(at),
            _ => return None,
        };
        let known = pg_sys::estimate_expression_value((*req).root, other);
        let known = (!known.is_null()
            && (*known).type_ == pg_sys::NodeTag::T_Const
            && !(*(known as *mut pg_sys::Const)).constisnull
            && !(*(known as *mut pg_sys::Const)).constbyval
            && other_type != pg_sys::INT8OID)
            .then(|| Value::from_datum((*(known as *mut pg_sys::Const)).constvalue));
        let mut lossy = false;
        let mut clauses = pgrx::PgList::<pg_sys::Node>::new();
        match rule(target, known, (*rel).tuples)? {
            IndexClause::Operator(strategy) => {
                let opno = pg_sys::get_opfamily_member(
                    (*req).opfamily,
                    indexed_type,
                    other_type,
                    strategy as i16,
                );
                if opno == pg_sys::InvalidOid {
                    return None;
                }
                clauses.push(opclause(opno, indexed, other));
            }
            IndexClause::Int8AnyOf => {
                let opno = pg_sys::get_opfamily_member(
                    (*req).opfamily,
                    pg_sys::INT8OID,
                    pg_sys::INT8OID,
                    BT_EQUAL_STRATEGY,
                );
                let to_array = function_like((*req).funcid, "rb_to_array", other_type)?;
                if opno == pg_sys::InvalidOid {
                    return None;
                }
                let mut array_args = pgrx::PgList::<pg_sys::Node>::new();
                array_args.push(other);
                let array = pg_sys::makeFuncExpr(
                    to_array,
                    pg_sys::Oid::from(INT8_ARRAY_OID),
                    array_args.into_pg(),
                    pg_sys::InvalidOid,
                    pg_sys::InvalidOid,
                    pg_sys::CoercionForm::COERCE_EXPLICIT_CALL,
                );
                let any = pg_sys::palloc0(size_of::<pg_sys::ScalarArrayOpExpr>())
                    as *mut pg_sys::ScalarArrayOpExpr;
                (*any).xpr.type_ = pg_sys::NodeTag::T_ScalarArrayOpExpr;
                (*any).opno = opno;
                (*any).opfuncid = pg_sys::get_opcode(opno);
                (*any).useOr = true;
                (*any).inputcollid = pg_sys::InvalidOid;
                let mut both = pgrx::PgList::<pg_sys::Node>::new();
                both.push(indexed);
                both.push(array.cast());
                (*any).args = both.into_pg();
                (*any).location = -1;
                clauses.push(any.cast());
            }
            IndexClause::Int8Range(min, max) => {
                for (strategy, bound) in [
                    (BT_GREATER_EQUAL_STRATEGY, min),
                    (BT_LESS_EQUAL_STRATEGY, max),
                ] {
                    let opno = pg_sys::get_opfamily_member(
                        (*req).opfamily,
                        pg_sys::INT8OID,
                        pg_sys::INT8OID,
                        strategy,
                    );
                    if opno == pg_sys::InvalidOid {
                        return None;
                    }
                    let bound = pg_sys::makeConst(
                        pg_sys::INT8OID,
                        -1,
                        pg_sys::InvalidOid,
                        8,
                        pg_sys::Datum::from(bound),
                        false,
                        true,
                    );
                    clauses.push(opclause(opno, indexed, bound.cast()));
                }
                lossy = true;
            }
        }
        (*req).lossy = lossy;
        Some(clauses.into_pg())
    }
}

/// `left OP right`, a boolean operator clause.
///
/// # Safety
/// `opno` is a boolean operator of the two expressions' types, both nodes of the
/// current planning.
unsafe fn opclause(
    opno: pg_sys::Oid,
    left: *mut pg_sys::Node,
    right: *mut pg_sys::Node,
) -> *mut pg_sys::Node {
    // SAFETY: the caller's contract; make_opclause pallocs the new node.
    unsafe {
        pg_sys::make_opclause(
            opno,
            pg_sys::BOOLOID,
            false,
            left.cast(),
            right.cast(),
            pg_sys::InvalidOid,
            pg_sys::InvalidOid,
        )
        .cast()
    }
}

/// The function `name(arg_type)` in the schema of function `funcid`.
///
/// # Safety
/// Called within a transaction (catalog lookups).
unsafe fn function_like(
    funcid: pg_sys::Oid,
    name: &str,
    arg_type: pg_sys::Oid,
) -> Option<pg_sys::Oid> {
    // SAFETY: as in `spread_function`.
    unsafe {
        let schema = pg_sys::get_namespace_name(pg_sys::get_func_namespace(funcid));
        let name = std::ffi::CString::new(name).ok()?;
        let mut names = pgrx::PgList::<pg_sys::Node>::new();
        names.push(pg_sys::makeString(schema).cast());
        names.push(pg_sys::makeString(pg_sys::pstrdup(name.as_ptr())).cast());
        let args = [arg_type];
        let oid = pg_sys::LookupFuncName(names.into_pg(), 1, args.as_ptr(), true);
        (oid != pg_sys::InvalidOid).then_some(oid)
    }
}
