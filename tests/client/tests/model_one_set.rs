//! Property tests against the set model: Questions about one set (as tests/sql/02_scalar).
//! `set_model` holds the model and the generators.

mod set_model;

use set_model::*;

/// One set: header functions, membership, rank, index, select, iteration, stats.
#[test]
fn one_set_functions() {
    let strat = (
        set(),
        prop::collection::vec(any::<u64>(), 0..12),
        prop::collection::vec(any::<i64>(), 0..4),
    );
    run("scalars", strat, |c, (a, seeds, extra_ks)| {
        let v = vec_of(&a);
        let native = build(c, &a);
        let row = c
            .query_one(
                "SELECT rb_cardinality($1), rb_is_empty($1), rb_min($1), rb_max($1),
                        rb_stats($1)::text, octet_length($1::bytea), sroar_version()",
                &[&native],
            )
            .unwrap();
        assert_eq!(row.get::<_, i64>(0), a.len() as i64);
        assert_eq!(row.get::<_, bool>(1), a.is_empty());
        assert_eq!(row.get::<_, Option<i64>>(2), a.first().copied());
        assert_eq!(row.get::<_, Option<i64>>(3), a.last().copied());
        let stats: String = row.get(4);
        let containers: BTreeSet<u64> = a.iter().map(|&x| ((x as u64) ^ (1 << 63)) >> 16).collect();
        for needle in [
            format!("\"cardinality\": {}", a.len()),
            format!("\"containers\": {}", containers.len()),
            format!("\"bytes\": {}", row.get::<_, i32>(5)),
            "\"format_version\": 3".to_owned(),
        ] {
            assert!(stats.contains(&needle), "{needle} in {stats}");
        }
        assert!(row.get::<_, String>(6).contains("format version 3"));

        // Membership, rank and index of probes.
        let xs = probes(&a, &seeds);
        let rows = c
            .query(
                "SELECT x, rb_contains($1, x), $1 @> x, x <@ $1, roaring64_int8_contained_by(x, $1),
                        rb_rank($1, x), rb_index($1, x)
                 FROM unnest($2::int8[]) WITH ORDINALITY AS t(x, n) ORDER BY n",
                &[&native, &xs],
            )
            .unwrap();
        assert_eq!(rows.len(), xs.len());
        for r in rows {
            let x: i64 = r.get(0);
            let member = a.contains(&x);
            for i in 1..=4 {
                assert_eq!(r.get::<_, bool>(i), member, "membership col {i} of {x}");
            }
            let rank = a.range(..=x).count() as i64;
            assert_eq!(r.get::<_, i64>(5), rank, "rb_rank of {x}");
            let index = if member { rank - 1 } else { -1 };
            assert_eq!(r.get::<_, i64>(6), index, "rb_index of {x}");
        }

        // Select at interesting ranks.
        let n = a.len() as i64;
        let mut ks = vec![-1, 0, 1, n - 1, n, n + 1, i64::MIN, i64::MAX, n / 2];
        ks.extend(extra_ks.iter().map(|k| k.rem_euclid(n.max(1) + 2) - 1));
        let rows = c
            .query(
                "SELECT k, rb_select($1, k) FROM unnest($2::int8[]) WITH ORDINALITY AS t(k, n) ORDER BY n",
                &[&native, &ks],
            )
            .unwrap();
        for r in rows {
            let k: i64 = r.get(0);
            let expect = usize::try_from(k).ok().and_then(|k| v.get(k).copied());
            assert_eq!(r.get::<_, Option<i64>>(1), expect, "rb_select({k})");
        }

        // Iteration, streamed.
        let rows = c
            .query("SELECT v FROM rb_iterate($1) AS v", &[&native])
            .unwrap();
        let it: Vec<i64> = rows.iter().map(|r| r.get(0)).collect();
        assert_eq!(it, v, "rb_iterate");

        // The same set stored in a table: large values are TOASTed out of line
        // (uncompressed, by default), where the header functions and rb_contains
        // read slices; also stored compressed (extended) and inline (main).
        c.batch_execute(
            "DROP TABLE IF EXISTS pg_temp.stored;
             CREATE TEMP TABLE stored (e roaring64, c roaring64, m roaring64);
             ALTER TABLE stored ALTER COLUMN c SET STORAGE extended,
                                ALTER COLUMN m SET STORAGE main;",
        )
        .unwrap();
        c.execute(
            "INSERT INTO stored VALUES ($1::roaring64, $1::roaring64, $1::roaring64)",
            &[&native],
        )
        .unwrap();
        let out_of_line: bool = c
            .query_one(
                "SELECT octet_length(e::bytea) < 2100
                          OR (SELECT pg_relation_size(reltoastrelid) > 0 FROM pg_class
                              WHERE oid = 'pg_temp.stored'::regclass)
                 FROM stored",
                &[],
            )
            .unwrap()
            .get(0);
        assert!(out_of_line, "large values are stored out of line");
        for col in ["e", "c", "m"] {
            let row = c
                .query_one(
                    &format!(
                        "SELECT rb_cardinality({col}), rb_is_empty({col}), rb_min({col}),
                                rb_max({col}), {col}::bytea
                         FROM stored"
                    ),
                    &[],
                )
                .unwrap();
            let what = format!("stored ({col})");
            assert_eq!(
                row.get::<_, i64>(0),
                a.len() as i64,
                "{what} rb_cardinality"
            );
            assert_eq!(row.get::<_, bool>(1), a.is_empty(), "{what} rb_is_empty");
            assert_eq!(
                row.get::<_, Option<i64>>(2),
                a.first().copied(),
                "{what} rb_min"
            );
            assert_eq!(
                row.get::<_, Option<i64>>(3),
                a.last().copied(),
                "{what} rb_max"
            );
            assert_eq!(row.get::<_, Vec<u8>>(4), native.0, "{what} bytes");
            let rows = c
                .query(
                    &format!(
                        "SELECT x, rb_contains({col}, x), {col} @> x, x <@ {col},
                                rb_rank({col}, x), rb_index({col}, x)
                         FROM stored, unnest($1::int8[]) WITH ORDINALITY AS t(x, n) ORDER BY n"
                    ),
                    &[&xs],
                )
                .unwrap();
            assert_eq!(rows.len(), xs.len());
            for r in rows {
                let x: i64 = r.get(0);
                let member = a.contains(&x);
                for i in 1..=3 {
                    assert_eq!(
                        r.get::<_, bool>(i),
                        member,
                        "{what} membership col {i} of {x}"
                    );
                }
                let rank = a.range(..=x).count() as i64;
                assert_eq!(r.get::<_, i64>(4), rank, "{what} rb_rank of {x}");
                let index = if member { rank - 1 } else { -1 };
                assert_eq!(r.get::<_, i64>(5), index, "{what} rb_index of {x}");
            }
        }
    });
}
