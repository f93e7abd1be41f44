//! Property tests against the set model: Order, grouping and the GIN index (as tests/sql/07_opclass).
//! `set_model` holds the model and the generators.

mod set_model;

use set_model::*;

/// Sorting (btree), DISTINCT and GROUP BY (hash and sort) over several related sets.
#[test]
fn order_and_grouping_of_many_sets() {
    let strat = (
        set(),
        prop::collection::vec((set(), any::<u8>(), any::<u64>()), 1..7),
    );
    run("order", strat, |c, (a, others)| {
        let mut sets = vec![a.clone()];
        for (b, k, seed) in others {
            let base = sets[(seed % sets.len() as u64) as usize].clone();
            sets.push(related(&base, b, k, seed));
        }
        let bytes: Vec<Vec<u8>> = sets.iter().map(|s| build(c, s).0).collect();
        let rows = c
            .query(
                "SELECT (n - 1)::int4 FROM unnest($1::bytea[]) WITH ORDINALITY AS t(b, n)
                 ORDER BY b::roaring64, n",
                &[&bytes],
            )
            .unwrap();
        let got: Vec<usize> = rows.iter().map(|r| r.get::<_, i32>(0) as usize).collect();
        let mut expect: Vec<usize> = (0..sets.len()).collect();
        expect.sort_by(|&i, &j| vec_of(&sets[i]).cmp(&vec_of(&sets[j])).then(i.cmp(&j)));
        assert_eq!(got, expect, "ORDER BY roaring64");

        let distinct: BTreeSet<&Set> = sets.iter().collect();
        for setting in ["SET enable_hashagg = off", "SET enable_sort = off"] {
            c.batch_execute(setting).unwrap();
            let n: i64 = c
                .query_one(
                    "SELECT count(*) FROM (SELECT b::roaring64 FROM unnest($1::bytea[]) b GROUP BY 1) t",
                    &[&bytes],
                )
                .unwrap()
                .get(0);
            c.batch_execute("RESET enable_hashagg; RESET enable_sort")
                .unwrap();
            assert_eq!(n, distinct.len() as i64, "GROUP BY with {setting}");
        }

        // Self-joins on equality: hash join, merge join and nested loop agree with
        // the model (the number of pairs of equal sets).
        let pairs = sets
            .iter()
            .map(|x| sets.iter().filter(|y| *y == x).count())
            .sum::<usize>() as i64;
        for (method, off) in [
            (
                "Hash Join",
                "SET enable_mergejoin = off; SET enable_nestloop = off",
            ),
            (
                "Merge Join",
                "SET enable_hashjoin = off; SET enable_nestloop = off",
            ),
            (
                "Nested Loop",
                "SET enable_hashjoin = off; SET enable_mergejoin = off",
            ),
        ] {
            c.batch_execute(off).unwrap();
            let sql = "SELECT count(*) FROM unnest($1::bytea[]) x JOIN unnest($1::bytea[]) y
                       ON x::roaring64 = y::roaring64";
            let plan: Vec<String> = c
                .query(&format!("EXPLAIN (COSTS OFF) {sql}"), &[&bytes])
                .unwrap()
                .iter()
                .map(|r| r.get(0))
                .collect();
            let n: i64 = c.query_one(sql, &[&bytes]).unwrap().get(0);
            c.batch_execute("RESET enable_hashjoin; RESET enable_mergejoin; RESET enable_nestloop")
                .unwrap();
            assert!(
                plan.iter().any(|l| l.contains(method)),
                "{method}: {plan:?}"
            );
            assert_eq!(n, pairs, "{method}");
        }
    });
}

/// A GIN index answers @>, <@, &&, = and @> int8 as the model does, empty sets and
/// NULLs included.
#[test]
fn gin_index_answers_like_the_model() {
    let strat = (
        prop::collection::vec(prop::option::weighted(0.9, set()), 1..7),
        set(),
        any::<u8>(),
        any::<u64>(),
        prop::collection::vec(any::<u64>(), 1..4),
    );
    run_cases(
        "gin",
        cases().div_ceil(2),
        strat,
        |c, (rows, other, kind, seed, probe_seeds)| {
            let bytes: Vec<Option<Vec<u8>>> = rows
                .iter()
                .map(|s| s.as_ref().map(|s| build(c, s).0))
                .collect();
            c.batch_execute(
                "DROP TABLE IF EXISTS pg_temp.g;
             CREATE TEMP TABLE g (id int, r roaring64);
             CREATE INDEX g_gin ON g USING gin (r);",
            )
            .unwrap();
            c.execute(
            "INSERT INTO g SELECT n, b::roaring64 FROM unnest($1::bytea[]) WITH ORDINALITY AS t(b, n)",
            &[&bytes],
        )
        .unwrap();
            c.batch_execute("SET enable_seqscan = off").unwrap();
            // The query set: related to one of the rows, or to nothing.
            let base = rows[(seed % rows.len() as u64) as usize]
                .clone()
                .unwrap_or_default();
            let q = related(&base, other, kind, seed);
            let nq = build(c, &q);
            let plan: Vec<String> = c
                .query(
                    "EXPLAIN (COSTS OFF) SELECT id FROM g WHERE r @> $1::roaring64",
                    &[&nq],
                )
                .unwrap()
                .iter()
                .map(|r| r.get(0))
                .collect();
            assert!(
                plan.iter().any(|l| l.contains("g_gin")),
                "GIN used: {plan:?}"
            );
            let ids = |c: &mut Client, op: &str| -> Vec<i32> {
                let mut v: Vec<i32> = c
                    .query(
                        &format!("SELECT id FROM g WHERE r {op} $1::roaring64"),
                        &[&nq],
                    )
                    .unwrap()
                    .iter()
                    .map(|r| r.get(0))
                    .collect();
                v.sort_unstable();
                v
            };
            let expect = |f: &dyn Fn(&Set) -> bool| -> Vec<i32> {
                rows.iter()
                    .enumerate()
                    .filter(|(_, s)| s.as_ref().is_some_and(f))
                    .map(|(i, _)| i as i32 + 1)
                    .collect()
            };
            assert_eq!(ids(c, "@>"), expect(&|s| q.is_subset(s)), "r @> {q:?}");
            assert_eq!(ids(c, "<@"), expect(&|s| s.is_subset(&q)), "r <@ {q:?}");
            assert_eq!(ids(c, "&&"), expect(&|s| !s.is_disjoint(&q)), "r && {q:?}");
            assert_eq!(ids(c, "="), expect(&|s| *s == q), "r = {q:?}");
            for x in probes(&base, &probe_seeds) {
                let mut got: Vec<i32> = c
                    .query("SELECT id FROM g WHERE r @> $1::int8", &[&x])
                    .unwrap()
                    .iter()
                    .map(|r| r.get(0))
                    .collect();
                got.sort_unstable();
                assert_eq!(got, expect(&|s| s.contains(&x)), "r @> {x}");
            }
            c.batch_execute("RESET enable_seqscan").unwrap();
        },
    );
}
