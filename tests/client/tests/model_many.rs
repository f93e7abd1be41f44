//! Property tests against the set model: Many sets at once, and keyset pages (as tests/sql/12_many_and_pages).
//! `set_model` holds the model and the generators.

mod set_model;

use set_model::*;

/// Many sets at once and retention counts, against the model: rb_or, rb_and and
/// rb_xor over VARIADIC arrays (and their cardinalities), and rb_and_cardinality_each.
#[test]
fn many_sets_at_once() {
    let mut c = connect();
    if !exists(&mut c, "rb_or(roaring64[])") {
        eprintln!("no n-way functions in this build: nothing to test");
        return;
    }
    drop(c);
    let strat = (set(), prop::collection::vec(set(), 0..5));
    run("many", strat, |c, (base, sets)| {
        let raws: Vec<Vec<u8>> = sets.iter().map(|s| build(c, s).0).collect();
        let base_raw = build(c, &base).0;
        let row = c
            .query_one(
                "SELECT rb_to_array(rb_or(VARIADIC s)), rb_to_array(rb_and(VARIADIC s)),
                        rb_to_array(rb_xor(VARIADIC s)), rb_or_cardinality(VARIADIC s),
                        rb_and_cardinality(VARIADIC s), rb_xor_cardinality(VARIADIC s),
                        rb_and_cardinality_each($2::bytea::roaring64, s)
                 FROM (SELECT coalesce(array_agg(b::roaring64 ORDER BY i), '{}') AS s
                       FROM unnest($1::bytea[]) WITH ORDINALITY u(b, i)) p",
                &[&raws, &base_raw],
            )
            .unwrap();
        let rows: Vec<Option<Set>> = sets.iter().cloned().map(Some).collect();
        let expect_or = Op::Or.fold(&rows).unwrap_or_default();
        let expect_xor = Op::Xor.fold(&rows).unwrap_or_default();
        let expect_and = Op::And.fold(&rows);
        assert_eq!(
            row.get::<_, Vec<i64>>(0),
            vec_of(&expect_or),
            "rb_or({sets:?})"
        );
        assert_eq!(
            row.get::<_, Option<Vec<i64>>>(1),
            expect_and.as_ref().map(vec_of),
            "rb_and"
        );
        assert_eq!(row.get::<_, Vec<i64>>(2), vec_of(&expect_xor), "rb_xor");
        assert_eq!(
            row.get::<_, i64>(3),
            expect_or.len() as i64,
            "rb_or_cardinality"
        );
        assert_eq!(
            row.get::<_, Option<i64>>(4),
            expect_and.map(|s| s.len() as i64),
            "rb_and_cardinality"
        );
        assert_eq!(
            row.get::<_, i64>(5),
            expect_xor.len() as i64,
            "rb_xor_cardinality"
        );
        let each: Vec<i64> = sets
            .iter()
            .map(|s| base.intersection(s).count() as i64)
            .collect();
        assert_eq!(row.get::<_, Vec<i64>>(6), each, "rb_and_cardinality_each");
    });
}

/// Keyset pagination against the model: the next `n` after a pivot (one of the
/// set's elements, a neighbour, or an edge value), the `n` before it, and the first
/// and last `n`.
#[test]
fn pages_after_and_before() {
    let mut c = connect();
    if !exists(&mut c, "rb_after(roaring64, int8, int8)") {
        eprintln!("no paging functions in this build: nothing to test");
        return;
    }
    drop(c);
    let pivot = prop_oneof![
        Just(i64::MIN),
        Just(i64::MAX),
        Just(0i64),
        Just(-1i64),
        Just(1i64 << 16),
        Just(1i64 << 32),
        any::<i64>(),
    ];
    let strat = (
        set(),
        pivot,
        any::<prop::sample::Index>(),
        0..5i64,
        0..3000i64,
    );
    run("pages", strat, |c, (s, pivot, at, delta, n)| {
        // Half the time the pivot is an element of the set, or next to one.
        let x = match (s.is_empty(), at.index(2)) {
            (false, 0) => s
                .iter()
                .nth(at.index(s.len()))
                .unwrap()
                .saturating_add(delta - 2),
            _ => pivot,
        };
        let raw = build(c, &s).0;
        let row = c
            .query_one(
                "SELECT rb_after(r, $2, $3), rb_before(r, $2, $3), rb_first(r, $3), rb_last(r, $3)
                 FROM (SELECT $1::bytea::roaring64 AS r) p",
                &[&raw, &x, &n],
            )
            .unwrap();
        let n = n as usize;
        let after: Vec<i64> = s
            .range((std::ops::Bound::Excluded(x), std::ops::Bound::Unbounded))
            .copied()
            .take(n)
            .collect();
        let before: Vec<i64> = s.range(..x).rev().copied().take(n).collect();
        let first: Vec<i64> = s.iter().copied().take(n).collect();
        let last: Vec<i64> = s.iter().rev().copied().take(n).collect();
        assert_eq!(row.get::<_, Vec<i64>>(0), after, "rb_after(_, {x}, {n})");
        assert_eq!(row.get::<_, Vec<i64>>(1), before, "rb_before(_, {x}, {n})");
        assert_eq!(row.get::<_, Vec<i64>>(2), first, "rb_first(_, {n})");
        assert_eq!(row.get::<_, Vec<i64>>(3), last, "rb_last(_, {n})");
    });
}
