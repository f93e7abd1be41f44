//! Interop with pg_roaringbitmap 1.2 installed in the same server (scripts/test.sh
//! installs it from ../shared/vendor): a `roaringbitmap` column moves to roaring64 in
//! one ALTER through the standard 32-bit portable format, and back.

use sroar_pg_client_tests::{connect_db, drop_db, fresh_db, sqlstate};

const DB: &str = "sroar_peers";

#[test]
fn roaringbitmap_column_migrates_in_one_alter() {
    let mut admin = connect_db("postgres");
    let available: bool = admin
        .query_one(
            "SELECT EXISTS (SELECT FROM pg_available_extensions WHERE name = 'roaringbitmap')",
            &[],
        )
        .unwrap()
        .get(0);
    if !available {
        eprintln!(
            "pg_roaringbitmap is not installed (scripts/pg_roaringbitmap.sh): nothing to test"
        );
        return;
    }
    let mut c = fresh_db(DB);
    c.batch_execute(
        "CREATE EXTENSION roaringbitmap;
         CREATE TABLE audiences (id int PRIMARY KEY, members roaringbitmap);
         INSERT INTO audiences VALUES
           (1, rb_build(ARRAY[0, 1, 65535, 65536, 2147483647, -2147483648, -1])),
           (2, rb_build('{}'::int[])),
           (3, rb_build(ARRAY(SELECT generate_series(0, 200000)))),
           (4, rb_build(ARRAY(SELECT (hashint4(g) & 2147483647) FROM generate_series(1, 20000) g))),
           (5, NULL);
         CREATE TABLE expected AS
           SELECT id, ARRAY(SELECT (v::int8 + 4294967296) % 4294967296 FROM unnest(rb_to_array(members)) v
                            ORDER BY 1) AS a
             FROM audiences;",
    )
    .unwrap();
    // The pg_roaringbitmap values as bytes, to check the way back.
    let before: Vec<(i32, Option<Vec<u8>>)> = c
        .query("SELECT id, members::bytea FROM audiences ORDER BY id", &[])
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    c.batch_execute(
        "ALTER TABLE audiences ALTER members TYPE roaring64 USING rb_from_portable32(members::bytea)",
    )
    .unwrap();
    let differing: i64 = c
        .query_one(
            "SELECT count(*) FROM audiences a JOIN expected e USING (id)
              WHERE rb_to_array(a.members) IS DISTINCT FROM
                    (CASE WHEN a.members IS NULL THEN NULL ELSE e.a END)",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(differing, 0, "values after the ALTER");
    // And back: pg_roaringbitmap reads our 32-bit bytes as the same sets.
    let back: Vec<(i32, Option<Vec<u8>>)> = c
        .query(
            "SELECT id, (rb_to_portable32(members)::roaringbitmap)::bytea FROM audiences ORDER BY id",
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    for ((id, a), (_, b)) in before.iter().zip(&back) {
        let (Some(a), Some(b)) = (a, b) else {
            assert_eq!(a.is_none(), b.is_none(), "row {id}");
            continue;
        };
        let same: bool = c
            .query_one(
                "SELECT rb_to_array($1::bytea::roaringbitmap) = rb_to_array($2::bytea::roaringbitmap)",
                &[a, b],
            )
            .unwrap()
            .get(0);
        assert!(same, "row {id} read back by pg_roaringbitmap");
    }
    // Values outside 0..2^32 do not fit; bad bytes are 22P03.
    let e = c
        .batch_execute("SELECT rb_to_portable32('{-1}')")
        .unwrap_err();
    assert_eq!(sqlstate(&e).as_deref(), Some("22003"), "{e:?}");
    let e = c
        .batch_execute("SELECT rb_from_portable32('\\x3a30')")
        .unwrap_err();
    assert_eq!(sqlstate(&e).as_deref(), Some("22P03"), "{e:?}");
    drop(c);
    drop_db(DB);
}
