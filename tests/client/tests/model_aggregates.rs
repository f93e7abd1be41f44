//! Property tests against the set model: The aggregates and their support functions (as tests/sql/08_aggregates).
//! `set_model` holds the model and the generators.

mod set_model;

use set_model::*;

/// The aggregates of this build over roaring64, with the operation each computes
/// and whether it gives the cardinality.
fn set_aggregates(c: &mut Client) -> Vec<(&'static str, Op, bool)> {
    [
        ("rb_or_agg", Op::Or, false),
        ("rb_and_agg", Op::And, false),
        ("rb_xor_agg", Op::Xor, false),
        ("rb_or_cardinality_agg", Op::Or, true),
        ("rb_and_cardinality_agg", Op::And, true),
        ("rb_xor_cardinality_agg", Op::Xor, true),
    ]
    .into_iter()
    .filter(|(name, _, _)| exists(c, &format!("{name}(roaring64)")))
    .collect()
}

/// Aggregates, if the extension has them: over several sets with NULL rows, over
/// only NULL rows and zero rows (NULL), by group, with FILTER and DISTINCT, as
/// running and sliding window aggregates, and with the result used several times.
#[test]
fn aggregates() {
    let mut c = connect();
    let aggs = set_aggregates(&mut c);
    let build_agg = exists(&mut c, "rb_build_agg(int8)");
    if aggs.is_empty() && !build_agg {
        eprintln!("no roaring64 aggregates in this build: nothing to test");
        return;
    }
    drop(c);
    let strat = prop::collection::vec(prop::option::weighted(0.8, set()), 0..7);
    run_cases("aggregates", cases().div_ceil(2), strat, |c, sets| {
        let bytes: Vec<Option<Vec<u8>>> = sets
            .iter()
            .map(|s| s.as_ref().map(|s| build(c, s).0))
            .collect();
        let rows_sql = "FROM unnest($1::bytea[]) WITH ORDINALITY AS t(b, n)";
        for &(agg, op, card) in &aggs {
            let call = format!("{agg}(b::roaring64)");
            // Over all rows, over the odd rows (FILTER), over zero rows, DISTINCT, and
            // the result used several times.
            let sql = if card {
                format!(
                    "SELECT {call}, {agg}(b::roaring64) FILTER (WHERE n % 2 = 1),
                            (SELECT {agg}(r) FROM (SELECT '{{1}}'::roaring64 r WHERE false) z),
                            {agg}(DISTINCT b::roaring64)
                     {rows_sql}"
                )
            } else {
                format!(
                    "SELECT rb_to_array(x), rb_to_array(f), z IS NULL, rb_to_array(d),
                            x IS NULL OR (x::bytea = rb_build(rb_to_array(x))::bytea
                                          AND x | x = x AND rb_cardinality(x) = cardinality(rb_to_array(x)))
                     FROM (SELECT {call} AS x, {agg}(b::roaring64) FILTER (WHERE n % 2 = 1) AS f,
                                  (SELECT {agg}(r) FROM (SELECT '{{1}}'::roaring64 r WHERE false) z) AS z,
                                  {agg}(DISTINCT b::roaring64) AS d
                           {rows_sql} OFFSET 0) q"
                )
            };
            let row = c.query_one(&sql, &[&bytes]).unwrap();
            let all = op.fold(&sets);
            let odd = op.fold(
                sets.iter()
                    .enumerate()
                    .filter(|(i, _)| i % 2 == 0)
                    .map(|(_, s)| s),
            );
            let mut distinct: Vec<Option<Set>> = sets.clone();
            distinct.sort();
            distinct.dedup();
            let dist = op.fold(&distinct);
            if card {
                let len = |s: Option<Set>| s.map(|s| s.len() as i64);
                assert_eq!(
                    row.get::<_, Option<i64>>(0),
                    len(all.clone()),
                    "{agg} over {sets:?}"
                );
                assert_eq!(row.get::<_, Option<i64>>(1), len(odd), "{agg} FILTER");
                assert_eq!(row.get::<_, Option<i64>>(2), None, "{agg} over zero rows");
                assert_eq!(row.get::<_, Option<i64>>(3), len(dist), "{agg} DISTINCT");
            } else {
                let arr = |s: Option<Set>| s.as_ref().map(vec_of);
                assert_eq!(
                    row.get::<_, Option<Vec<i64>>>(0),
                    arr(all.clone()),
                    "{agg} over {sets:?}"
                );
                assert_eq!(row.get::<_, Option<Vec<i64>>>(1), arr(odd), "{agg} FILTER");
                assert!(row.get::<_, bool>(2), "{agg} over zero rows is NULL");
                assert_eq!(
                    row.get::<_, Option<Vec<i64>>>(3),
                    arr(dist),
                    "{agg} DISTINCT"
                );
                assert!(
                    row.get::<_, bool>(4),
                    "{agg}: the result is canonical and reusable"
                );
            }

            // By group: rows n % 2 = 0 and n % 2 = 1.
            let value = if card {
                call.clone()
            } else {
                format!("rb_to_array({call})")
            };
            let rows = c
                .query(
                    &format!("SELECT (n % 2)::int4, {value} {rows_sql} GROUP BY 1 ORDER BY 1"),
                    &[&bytes],
                )
                .unwrap();
            for r in rows {
                let g: i32 = r.get(0);
                let members = sets
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| (i + 1) % 2 == g as usize)
                    .map(|(_, s)| s);
                let expect = op.fold(members);
                if card {
                    assert_eq!(
                        r.get::<_, Option<i64>>(1),
                        expect.map(|s| s.len() as i64),
                        "{agg} group {g}"
                    );
                } else {
                    assert_eq!(
                        r.get::<_, Option<Vec<i64>>>(1),
                        expect.as_ref().map(vec_of),
                        "{agg} group {g}"
                    );
                }
            }

            // An aggregate of the aggregates of the groups (states from another
            // aggregate as input rows).
            if !card {
                let nested: Option<Vec<i64>> = c
                    .query_one(
                        &format!(
                            "SELECT rb_to_array({agg}(x))
                             FROM (SELECT {call} AS x {rows_sql} GROUP BY n % 3) q"
                        ),
                        &[&bytes],
                    )
                    .unwrap()
                    .get(0);
                assert_eq!(nested, all.as_ref().map(vec_of), "{agg} of {agg} by group");
            }

            // Window aggregates: running (prefixes), and a sliding frame of two rows.
            for (frame, width) in [
                (
                    "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW",
                    usize::MAX,
                ),
                ("ROWS BETWEEN 1 PRECEDING AND CURRENT ROW", 2),
            ] {
                let window = format!("{call} OVER (ORDER BY n {frame})");
                let value = if card {
                    window
                } else {
                    format!("rb_to_array({window})")
                };
                let sql = format!("SELECT n::int4, {value} {rows_sql} ORDER BY n");
                let rows = c.query(&sql, &[&bytes]).unwrap();
                assert_eq!(rows.len(), sets.len());
                for r in rows {
                    let n = r.get::<_, i32>(0) as usize;
                    let lo = n.saturating_sub(width);
                    let expect = op.fold(&sets[lo..n]);
                    if card {
                        assert_eq!(
                            r.get::<_, Option<i64>>(1),
                            expect.map(|s| s.len() as i64),
                            "{agg} {frame} row {n}"
                        );
                    } else {
                        assert_eq!(
                            r.get::<_, Option<Vec<i64>>>(1),
                            expect.as_ref().map(vec_of),
                            "{agg} {frame} row {n}"
                        );
                    }
                }
            }
        }
        if build_agg {
            let values: Vec<Option<i64>> = sets
                .iter()
                .flat_map(|s| match s {
                    Some(s) => s.iter().map(|&x| Some(x)).collect::<Vec<_>>(),
                    None => vec![None],
                })
                .collect();
            let expect: Option<Vec<i64>> = values
                .iter()
                .any(Option::is_some)
                .then(|| vec_of(&values.iter().flatten().copied().collect()));
            let row = c
                .query_one(
                    "SELECT rb_to_array(rb_build_agg(x)),
                            (SELECT rb_build_agg(y) IS NULL FROM (SELECT 1::int8 y WHERE false) z)
                     FROM unnest($1::int8[]) x",
                    &[&values],
                )
                .unwrap();
            assert_eq!(row.get::<_, Option<Vec<i64>>>(0), expect, "rb_build_agg");
            assert!(row.get::<_, bool>(1), "rb_build_agg over zero rows is NULL");
        }
    });
}

/// The transition and final functions of the aggregates, called as plain functions
/// on flat values: the same operation; a NULL side gives the other side.
#[test]
fn aggregate_support_functions_as_plain_functions() {
    let mut c = connect();
    if !exists(&mut c, "rb_or_trans(roaring64_state, roaring64)") {
        eprintln!("no aggregate support functions in this build: nothing to test");
        return;
    }
    drop(c);
    let strat = (
        prop::option::weighted(0.8, set()),
        prop::option::weighted(0.8, set()),
        prop::option::of(any::<i64>()),
    );
    run("trans", strat, |c, (a, b, x)| {
        let na = a.as_ref().map(|s| build(c, s).0);
        let nb = b.as_ref().map(|s| build(c, s).0);
        let row = c
            .query_one(
                "SELECT rb_to_array(rb_or_trans(s, b)::roaring64),
                        rb_to_array(rb_and_trans(s, b)::roaring64),
                        rb_to_array(rb_xor_trans(s, b)::roaring64),
                        rb_to_array(rb_build_trans(s, $3::int8)::roaring64),
                        rb_cardinality_final(s),
                        rb_to_array(rb_or_combine(s, b::roaring64_state)::roaring64),
                        rb_to_array(rb_and_combine(s, b::roaring64_state)::roaring64),
                        rb_to_array(rb_xor_combine(s, b::roaring64_state)::roaring64),
                        rb_to_array(rb_state_final(s)),
                        rb_state_final(s)::text::roaring64_state::roaring64 = a
                 FROM (SELECT a, a::roaring64_state AS s, b
                       FROM (SELECT $1::bytea::roaring64 AS a, $2::bytea::roaring64 AS b) v) p",
                &[&na, &nb, &x],
            )
            .unwrap();
        let pair = [a.clone(), b.clone()];
        for (i, op) in [Op::Or, Op::And, Op::Xor].into_iter().enumerate() {
            assert_eq!(
                row.get::<_, Option<Vec<i64>>>(i),
                op.fold(&pair).as_ref().map(vec_of),
                "{op:?}_trans({a:?}, {b:?})"
            );
        }
        let built = match (&a, x) {
            (Some(a), Some(x)) => Some(a.iter().copied().chain([x]).collect::<Set>()),
            (None, Some(x)) => Some(Set::from([x])),
            (a, None) => a.clone(),
        };
        assert_eq!(
            row.get::<_, Option<Vec<i64>>>(3),
            built.as_ref().map(vec_of),
            "rb_build_trans"
        );
        assert_eq!(
            row.get::<_, Option<i64>>(4),
            a.as_ref().map(|s| s.len() as i64),
            "rb_cardinality_final"
        );
        for (i, op) in [Op::Or, Op::And, Op::Xor].into_iter().enumerate() {
            assert_eq!(
                row.get::<_, Option<Vec<i64>>>(5 + i),
                op.fold(&pair).as_ref().map(vec_of),
                "{op:?}_combine({a:?}, {b:?})"
            );
        }
        assert_eq!(
            row.get::<_, Option<Vec<i64>>>(8),
            a.as_ref().map(vec_of),
            "rb_state_final"
        );
        assert_eq!(
            row.get::<_, Option<bool>>(9),
            a.as_ref().map(|_| true),
            "state text round trip"
        );
    });
}
