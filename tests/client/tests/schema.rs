//! sroar_pg installed into a schema of its own (`CREATE EXTENSION sroar_pg SCHEMA s`)
//! works with that schema off the search_path, through schema-qualified names:
//! the type, functions, operators, casts (int8multirange both ways, whose functions
//! once resolved names on the search_path), aggregates and operator classes. The
//! same holds under an empty search_path, which pg_restore and autovacuum use.

use sroar_pg_client_tests::{connect_db, drop_db, recreate_db};

#[test]
fn works_from_a_schema_off_the_search_path() {
    let db = "sroar_schema";
    recreate_db(db);
    let mut c = connect_db(db);
    c.batch_execute("CREATE SCHEMA s; CREATE EXTENSION sroar_pg SCHEMA s")
        .unwrap();
    for search_path in ["public", "''"] {
        c.batch_execute(&format!("SET search_path = {search_path}"))
            .unwrap();
        let row = c
            .query_one(
                "SELECT s.rb_cardinality('{1,2,3}'::s.roaring64),
                        ('{1,2}'::s.roaring64 OPERATOR(s.|) '{3}'::s.roaring64)::text,
                        '{1,2,3}'::s.roaring64 OPERATOR(s.@>) 2::int8,
                        s.rb_to_multirange('{1,2,3,10}')::text,
                        ('{[5,8)}'::pg_catalog.int8multirange::s.roaring64)::text,
                        ('{[1,4),[10,11)}'::pg_catalog.int8multirange::s.roaring64
                           OPERATOR(s.=) '{1,2,3,10}'::s.roaring64),
                        (SELECT s.rb_or_agg(x)::text FROM (VALUES ('{1}'::s.roaring64), ('{2}')) t(x)),
                        (SELECT s.rb_build_agg(g)::text FROM pg_catalog.generate_series(1::int8, 3) g),
                        s.rb_to_array('{-1,5}')::text,
                        pg_catalog.array_to_string(ARRAY[5, 3]::int8[]::s.roaring64::int8[], ',')",
                &[],
            )
            .unwrap_or_else(|e| panic!("search_path {search_path}: {e:?}"));
        assert_eq!(row.get::<_, i64>(0), 3);
        assert_eq!(row.get::<_, String>(1), "{1,2,3}");
        assert!(row.get::<_, bool>(2));
        assert_eq!(row.get::<_, String>(3), "{[1,4),[10,11)}");
        assert_eq!(row.get::<_, String>(4), "{5,6,7}");
        assert!(row.get::<_, bool>(5));
        assert_eq!(row.get::<_, String>(6), "{1,2}");
        assert_eq!(row.get::<_, String>(7), "{1,2,3}");
        assert_eq!(row.get::<_, String>(8), "{-1,5}");
        assert_eq!(row.get::<_, String>(9), "3,5");
    }
    // Indexes and constraints over the casts, built and used with the schema off
    // the search_path; GIN and hash through the default operator classes.
    c.batch_execute(
        "SET search_path = '';
         CREATE TABLE public.t (id int, r s.roaring64 CHECK (s.rb_to_multirange(r) IS NOT NULL),
                                m pg_catalog.int8multirange CHECK (m::s.roaring64 IS NOT NULL));
         CREATE INDEX t_gin ON public.t USING gin (r);
         CREATE INDEX t_hash ON public.t USING hash (r);
         CREATE INDEX t_runs ON public.t ((s.rb_to_multirange(r)));
         INSERT INTO public.t SELECT g, s.rb_build(ARRAY[g, g + 1]), pg_catalog.int8multirange(pg_catalog.int8range(g, g + 2))
           FROM pg_catalog.generate_series(1, 2000) g;
         ANALYZE public.t;
         SET enable_seqscan = off;",
    )
    .unwrap();
    let n: i64 = c
        .query_one(
            "SELECT pg_catalog.count(*) FROM public.t WHERE r OPERATOR(s.@>) 1000::int8",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(n, 2);
    let plan: Vec<String> = c
        .query(
            "EXPLAIN (COSTS OFF) SELECT * FROM public.t WHERE r OPERATOR(s.@>) 1000::int8",
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert!(plan.iter().any(|l| l.contains("t_gin")), "{plan:#?}");
    drop(c);
    drop_db(db);
}
