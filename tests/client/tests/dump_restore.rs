//! pg_dump and pg_restore / psql round trips: a table of roaring64 values (NULLs, the
//! empty set, negative values, int8 min and max, values around 2^16, 2^32 and 2^48,
//! a run-heavy set of 10^6 values, a dense bitmap-container set) with GIN, btree and
//! hash indexes is dumped (custom format and plain SQL, with both text output
//! formats) and restored into a fresh database: every value comes back byte for
//! byte, and the indexes exist, are valid and are used. A second table has CHECK
//! constraints and expression indexes over the int8multirange casts, which
//! pg_restore evaluates with an empty search_path.
//! scripts/test.sh starts the server and sets SROAR_PG_PORT.

use std::path::PathBuf;
use std::process::Command;

use postgres::Client;
use sroar_pg_client_tests::{amcheck, connect_db, drop_db, fresh_db, port, recreate_db};

/// The server's own client programs: SROAR_PG_BIN (scripts/test.sh sets it for each
/// major), else Debian's PostgreSQL 15.
fn pgbin() -> String {
    std::env::var("SROAR_PG_BIN").unwrap_or_else(|_| "/usr/lib/postgresql/15/bin".into())
}

/// The rows: id, what they hold, the set (in `r`, GIN-indexed; btree-indexed where
/// small) and a small set in `s` (btree- and hash-indexed).
const SETUP: &str = r"
CREATE TABLE sets (id int PRIMARY KEY, what text NOT NULL, r roaring64, s roaring64);
INSERT INTO sets VALUES
  (1, 'null', NULL, NULL),
  (2, 'empty', '{}', '{}'),
  (3, 'negative', '{-1,-2,-5,-65535,-65536,-65537,-4294967296,-281474976710656}', '{-1}'),
  (4, 'int8 min and max', '{-9223372036854775808,9223372036854775807}',
      '{-9223372036854775808,9223372036854775807}'),
  (5, 'around 2^16', rb_build(ARRAY(SELECT 65536 + g FROM generate_series(-3, 3) g)), '{65536}'),
  (6, 'around -2^16', rb_build(ARRAY(SELECT -65536 + g FROM generate_series(-3, 3) g)), NULL),
  (7, 'around 2^32', rb_build(ARRAY(SELECT 4294967296 + g FROM generate_series(-3, 3) g)), '{4294967296}'),
  (8, 'around -2^32', rb_build(ARRAY(SELECT -4294967296 + g FROM generate_series(-3, 3) g)), NULL),
  (9, 'around 2^48', rb_build(ARRAY(SELECT 281474976710656 + g FROM generate_series(-3, 3) g)), '{281474976710656}'),
  (10, 'around -2^48', rb_build(ARRAY(SELECT -281474976710656 + g FROM generate_series(-3, 3) g)), NULL),
  (11, 'run-heavy, 10^6 values in 1000 runs',
      rb_build(ARRAY(SELECT g FROM generate_series(0, 1999999) g WHERE (g / 1000) % 2 = 0)), '{0}'),
  (12, 'dense bitmap containers',
      rb_build(ARRAY(SELECT g FROM generate_series(0, 1048575) g WHERE hashint8(g) % 3 <> 0)), '{1}'),
  (13, 'runs across the sign', rb_from_range(-300000, 300000), '{2}'),
  (14, 'everything above', NULL, NULL);
UPDATE sets SET r = (SELECT rb_or(rb_or(a.r, b.r), c.r) FROM sets a, sets b, sets c
                     WHERE a.id = 3 AND b.id = 4 AND c.id = 12)
  WHERE id = 14;
INSERT INTO sets
  SELECT 100 + g, 'small',
         rb_build(ARRAY[g, g * 7, 65536 + g, -g, 4294967296 * g]),
         rb_build(ARRAY[g % 17, g])
  FROM generate_series(0, 499) g;
-- Constraints and expression indexes over the multirange casts: pg_restore runs them
-- with an empty search_path.
CREATE TABLE ranges (id int PRIMARY KEY,
                     r roaring64 CHECK (rb_to_multirange(r) <> '{[666,667)}'),
                     m int8multirange CHECK (m::roaring64 <> '{666}'));
INSERT INTO ranges VALUES (1, '{1,2,3,10}', '{[1,4),[10,11)}'), (2, '{}', '{}');
CREATE INDEX ranges_runs ON ranges ((rb_to_multirange(r)));
CREATE INDEX ranges_set ON ranges ((m::roaring64));
ANALYZE ranges;
CREATE INDEX sets_r_gin ON sets USING gin (r);
CREATE INDEX sets_r_btree ON sets (r) WHERE octet_length(r::bytea) <= 2000;
CREATE INDEX sets_s_btree ON sets (s);
CREATE INDEX sets_s_hash ON sets USING hash (s);
ANALYZE sets;
";

/// Queries each answered through an index (named) after restore, and by a
/// sequential scan, with the same result.
const INDEXED: &[(&str, &str)] = &[
    ("SELECT id FROM sets WHERE r @> 65536::int8", "sets_r_gin"),
    ("SELECT id FROM sets WHERE r @> 9223372036854775807::int8", "sets_r_gin"),
    ("SELECT id FROM sets WHERE r && '{-1,4294967296,999999}'", "sets_r_gin"),
    ("SELECT id FROM sets WHERE r @> '{-65536,-65537}'", "sets_r_gin"),
    ("SELECT id FROM sets WHERE r <@ '{-1,-2,-5,-65535,-65536,-65537,-4294967296,-281474976710656,0,7,65536}'", "sets_r_gin"),
    ("SELECT id FROM sets WHERE r = '{-9223372036854775808,9223372036854775807}'", "sets_r_gin"),
    (
        "SELECT id FROM sets WHERE r = '{-9223372036854775808,9223372036854775807}' AND octet_length(r::bytea) <= 2000",
        "sets_r_btree",
    ),
    ("SELECT id FROM sets WHERE s = '{3,20}'", "sets_s_"),
    ("SELECT id FROM sets WHERE s < '{-1}'", "sets_s_btree"),
];

/// Every row as (id, what, r::bytea, rb_to_array(r), s::bytea, s as text).
type Rows = Vec<(
    i32,
    String,
    Option<Vec<u8>>,
    Option<Vec<i64>>,
    Option<Vec<u8>>,
    Option<String>,
)>;

fn rows(c: &mut Client) -> Rows {
    c.query(
        "SELECT id, what, r::bytea, rb_to_array(r), s::bytea, s::text FROM sets",
        &[],
    )
    .unwrap()
    .iter()
    .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5)))
    .collect()
}

/// Index name, whether valid and ready, and its definition.
fn indexes(c: &mut Client) -> Vec<(String, bool, bool, String)> {
    c.query(
        "SELECT indexrelid::regclass::text, indisvalid, indisready, pg_get_indexdef(indexrelid)
         FROM pg_index WHERE indrelid = 'sets'::regclass ORDER BY 1",
        &[],
    )
    .unwrap()
    .iter()
    .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3)))
    .collect()
}

/// The ids a query returns, sorted.
fn ids(c: &mut Client, sql: &str) -> Vec<i32> {
    let mut ids = ids_in_order(c, sql);
    ids.sort_unstable();
    ids
}

/// The ids a query returns, in its order.
fn ids_in_order(c: &mut Client, sql: &str) -> Vec<i32> {
    c.query(sql, &[])
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect()
}

fn plan(c: &mut Client, sql: &str) -> String {
    c.query(&format!("EXPLAIN (COSTS OFF) {sql}"), &[])
        .unwrap()
        .iter()
        .map(|r| r.get::<_, String>(0))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Query results by sequential scan only.
fn seqscan_answers(c: &mut Client) -> Vec<Vec<i32>> {
    c.batch_execute(
        "SET enable_indexscan = off; SET enable_bitmapscan = off; SET enable_indexonlyscan = off",
    )
    .unwrap();
    let out = INDEXED.iter().map(|(sql, _)| ids(c, sql)).collect();
    c.batch_execute("RESET enable_indexscan; RESET enable_bitmapscan; RESET enable_indexonlyscan")
        .unwrap();
    out
}

fn run(tool: &str, args: &[&str], env: &[(&str, &str)]) {
    let out = Command::new(format!("{}/{tool}", pgbin()))
        .args(args)
        .env_remove("PGOPTIONS")
        .envs(env.iter().copied())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {tool}: {e}"));
    assert!(
        out.status.success(),
        "{tool} {args:?} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn conn_args(db: &str) -> Vec<String> {
    vec![
        "-h".into(),
        "127.0.0.1".into(),
        "-p".into(),
        port(),
        "-U".into(),
        "postgres".into(),
        "-d".into(),
        db.into(),
    ]
}

#[derive(Clone, Copy, Debug)]
enum Format {
    /// pg_dump -Fc, pg_restore.
    Custom,
    /// pg_dump -Fp, psql -f.
    Plain,
    /// pg_dump -Fp --inserts, psql -f.
    Inserts,
}

/// Dumps a fresh source database in `format` (with sroar.output_format set to
/// `output_format` for pg_dump's session), restores it into a fresh empty database
/// and compares the two.
fn round_trip(tag: &str, format: Format, output_format: &str) {
    let src = format!("sroar_dump_src_{tag}");
    let dst = format!("sroar_dump_dst_{tag}");
    let mut s = fresh_db(&src);
    s.batch_execute(SETUP).unwrap();
    let before = rows(&mut s);
    assert_eq!(before.len(), 14 + 500);
    let before_indexes = indexes(&mut s);
    assert_eq!(before_indexes.len(), 5, "{before_indexes:?}");
    let before_answers = seqscan_answers(&mut s);

    let file: PathBuf = std::env::temp_dir().join(format!(
        "sroar_client_dump_{}_{tag}.{}",
        std::process::id(),
        if matches!(format, Format::Custom) {
            "dump"
        } else {
            "sql"
        }
    ));
    let file_s = file.to_str().unwrap().to_owned();
    let options = format!("-c sroar.output_format={output_format}");
    let env = [("PGOPTIONS", options.as_str())];
    let mut dump_args: Vec<String> = conn_args(&src);
    dump_args.extend(["-f".into(), file_s.clone()]);
    match format {
        Format::Custom => dump_args.push("-Fc".into()),
        Format::Plain => dump_args.push("-Fp".into()),
        Format::Inserts => dump_args.extend(["-Fp".into(), "--inserts".into()]),
    }
    run(
        "pg_dump",
        &dump_args.iter().map(String::as_str).collect::<Vec<_>>(),
        &env,
    );
    if !matches!(format, Format::Custom) {
        // The text form the dump holds is the one asked for.
        let text = std::fs::read_to_string(&file).unwrap();
        let needle = if output_format == "hex" {
            "\\\\x53523634" // \x then "SR64" in hex, escaped in COPY text or literals
        } else {
            "-9223372036854775808,9223372036854775807}"
        };
        let found = text.contains(needle) || text.contains(&needle.replace("\\\\", "\\"));
        assert!(
            found,
            "{tag}: the dump holds values in the {output_format} form"
        );
    }

    recreate_db(&dst);
    let mut restore_args: Vec<String> = conn_args(&dst);
    match format {
        Format::Custom => {
            restore_args.extend([
                "--exit-on-error".into(),
                "--single-transaction".into(),
                file_s.clone(),
            ]);
            run(
                "pg_restore",
                &restore_args.iter().map(String::as_str).collect::<Vec<_>>(),
                &[],
            );
        }
        Format::Plain | Format::Inserts => {
            restore_args.extend([
                "-X".into(),
                "-q".into(),
                "-v".into(),
                "ON_ERROR_STOP=1".into(),
                "--single-transaction".into(),
                "-f".into(),
                file_s.clone(),
            ]);
            run(
                "psql",
                &restore_args.iter().map(String::as_str).collect::<Vec<_>>(),
                &[],
            );
        }
    }
    let _ = std::fs::remove_file(&file);

    let mut d = connect_db(&dst);
    d.batch_execute("ANALYZE sets").unwrap();
    let after = rows(&mut d);
    assert_eq!(after.len(), before.len(), "{tag}: row count");
    for (b, a) in before.iter().zip(&after) {
        assert_eq!(a, b, "{tag}: row {} ({}) round-trips exactly", b.0, b.1);
    }
    assert_eq!(indexes(&mut d), before_indexes, "{tag}: the same indexes");
    for (name, valid, ready, _) in indexes(&mut d) {
        assert!(valid && ready, "{tag}: index {name} is valid and ready");
    }
    // The table whose constraints and indexes call the multirange casts came back.
    let ranges: Vec<(i32, bool)> = d
        .query(
            "SELECT id, rb_to_multirange(r) = m FROM ranges ORDER BY id",
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    assert_eq!(ranges, [(1, true), (2, true)], "{tag}: ranges rows");
    let range_indexes: i64 = d
        .query_one(
            "SELECT count(*) FROM pg_index WHERE indrelid = 'ranges'::regclass
               AND indisvalid AND indisready",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(range_indexes, 3, "{tag}: ranges indexes");
    // btree structure and heap agreement (amcheck, with heapallindexed).
    if amcheck(&mut d) {
        for idx in ["sets_r_btree", "sets_s_btree", "sets_pkey"] {
            d.execute(&format!("SELECT bt_index_check('{idx}', true)"), &[])
                .unwrap_or_else(|e| panic!("{tag}: bt_index_check({idx}): {e}"));
        }
    }
    // The indexes are used, and answer as a sequential scan does.
    d.batch_execute("SET enable_seqscan = off").unwrap();
    for ((sql, index), expect) in INDEXED.iter().zip(&before_answers) {
        let p = plan(&mut d, sql);
        assert!(p.contains(index), "{tag}: {sql} uses {index}:\n{p}");
        assert_eq!(&ids(&mut d, sql), expect, "{tag}: {sql} through {index}");
    }
    d.batch_execute("RESET enable_seqscan").unwrap();
    assert_eq!(
        seqscan_answers(&mut d),
        before_answers,
        "{tag}: sequential scans"
    );
    // Something is found by most of them, so that the comparison means something.
    assert!(
        before_answers.iter().filter(|a| !a.is_empty()).count() >= 6,
        "{before_answers:?}"
    );
    // Ordering by the btree index gives the same order as sorting.
    let sort_sql = "SELECT id FROM sets WHERE s IS NOT NULL ORDER BY s, id";
    let by_index = ids_in_order(&mut d, sort_sql);
    d.batch_execute(
        "SET enable_indexscan = off; SET enable_indexonlyscan = off; SET enable_bitmapscan = off",
    )
    .unwrap();
    assert_eq!(
        ids_in_order(&mut d, sort_sql),
        by_index,
        "{tag}: ORDER BY s"
    );
    // The restored values are usable: new rows go into the restored indexes.
    d.batch_execute(
        "RESET ALL;
         INSERT INTO sets VALUES (1000, 'new', '{65536,123456789}', '{3,20}');",
    )
    .unwrap();
    d.batch_execute("SET enable_seqscan = off").unwrap();
    let found = ids(&mut d, "SELECT id FROM sets WHERE r @> 123456789::int8");
    assert_eq!(found, [1000]);
    drop(d);
    drop(s);
    drop_db(&src);
    drop_db(&dst);
}

#[test]
fn custom_format_round_trip() {
    round_trip("custom", Format::Custom, "array");
}

#[test]
fn plain_sql_round_trip() {
    round_trip("plain", Format::Plain, "array");
}

#[test]
fn plain_sql_round_trip_with_hex_output() {
    round_trip("plain_hex", Format::Plain, "hex");
}

#[test]
fn inserts_round_trip_with_hex_output() {
    round_trip("inserts_hex", Format::Inserts, "hex");
}
