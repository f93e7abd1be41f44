//! GIN: a posting table of scattered ids (each row 64 ids out of 20 million) and a
//! table of dense sets (100,000 consecutive ids per row): index build time and size
//! for roaring64 against int8[] with the core array_ops, and lookups through the
//! index against a sequential scan. pg_roaringbitmap has no GIN operator class: it
//! is measured by sequential scan.
//!
//! Then audience segments (2,000 of up to 2 million ids of 50 million, sizes
//! skewed): build time, size and `@> int8` lookups of a roaring64 GIN index at
//! several `element_keys` settings, the trade-off the README's Indexes section
//! quotes. int8[] is not indexed there: its index would hold 340 million keys.

use crate::data::{copy_in, native, portable, Copy, Rng};
use crate::measure::{interleaved, interleaved_with, v, Record};
use crate::{step, Config, Ctx, Step};

const R64_GIN: &str = "roaring64 GIN";
const R64_SEQ: &str = "roaring64 seq scan";
const RB64_SEQ: &str = "roaringbitmap64 seq scan";
const ARR_GIN: &str = "int8[] GIN";

pub fn steps(cfg: &Config) -> Vec<Step> {
    let sparse_rows = cfg.pick(10_000u64, 100_000);
    let dense_rows = cfg.pick(10u64, 100);
    vec![
        step(
            "gin",
            format!("posting lists, {sparse_rows} rows"),
            move |ctx: &mut Ctx| sparse(ctx, sparse_rows),
        ),
        step(
            "gin",
            format!("dense sets, {dense_rows} rows"),
            move |ctx: &mut Ctx| dense(ctx, dense_rows),
        ),
        step("gin", "one set of 50 million elements", huge),
        step(
            "gin",
            format!("{} audience segments by element_keys", cfg.pick(200, 2_000)),
            segments,
        ),
    ]
}

/// Builds each index `reps` times (interleaved), keeping the last; records build
/// time and index size.
fn build_indexes(ctx: &mut Ctx, table: &str, case: &str) {
    let reps = ctx.cfg.pick(1, 3);
    let db = &mut ctx.db;
    let mut recs = interleaved_with("gin/build", case, &[R64_GIN, ARR_GIN], reps, |s| {
        let (idx, col) = if s == R64_GIN { ("r", "r") } else { ("a", "a") };
        db.exec(&format!("DROP INDEX IF EXISTS {table}_{idx}"));
        db.wall_ms(&format!(
            "CREATE INDEX {table}_{idx} ON {table} USING gin ({col})"
        ))
    });
    for r in &mut recs {
        let idx = if r.system == R64_GIN { "r" } else { "a" };
        r.bytes = Some(db.i64(&format!("SELECT pg_relation_size('{table}_{idx}')")) as u64);
    }
    ctx.add(recs);
}

fn lookups(ctx: &mut Ctx, table: &str, case: &str, x: i64, xs: &str) {
    let rb64 = ctx.db.has_rb64;
    let setup = "SET enable_seqscan = off";
    let mut vs = vec![
        v(
            R64_GIN,
            format!("SELECT count(*) FROM {table} WHERE r @> {x}::int8"),
        ),
        v(
            R64_SEQ,
            format!("SELECT count(*) FROM {table} WHERE rb_contains(r, {x}::int8)"),
        ),
    ];
    if rb64 {
        vs.push(v(
            RB64_SEQ,
            format!("SELECT count(*) FROM {table} WHERE p @> {x}::int8"),
        ));
    }
    vs.push(v(
        ARR_GIN,
        format!("SELECT count(*) FROM {table} WHERE a @> ARRAY[{x}::int8]"),
    ));
    let reps = ctx.cfg.reps;
    let recs = interleaved(&mut ctx.db, "gin/contains_element", case, setup, &vs, reps);
    ctx.add(recs);
    let mut vs = vec![
        v(
            R64_GIN,
            format!("SELECT count(*) FROM {table} WHERE r && '{{{xs}}}'::roaring64"),
        ),
        v(
            R64_SEQ,
            format!("SELECT count(*) FROM {table} WHERE rb_intersects(r, '{{{xs}}}'::roaring64)"),
        ),
    ];
    if rb64 {
        vs.push(v(
            RB64_SEQ,
            format!("SELECT count(*) FROM {table} WHERE p && rb64_build('{{{xs}}}'::int8[])"),
        ));
    }
    vs.push(v(
        ARR_GIN,
        format!("SELECT count(*) FROM {table} WHERE a && '{{{xs}}}'::int8[]"),
    ));
    let recs = interleaved(&mut ctx.db, "gin/overlaps", case, setup, &vs, reps);
    ctx.add(recs);
}

fn create(ctx: &mut Ctx, table: &str, sets: &[Vec<u64>]) {
    let rb64 = ctx.db.has_rb64;
    ctx.db.exec(&format!(
        "DROP TABLE IF EXISTS {table};
         CREATE TABLE {table} (id int, r roaring64, a int8[]{})",
        if rb64 { ", p roaringbitmap64" } else { "" }
    ));
    let mut copy = Copy::new();
    for (i, s) in sets.iter().enumerate() {
        copy.row(if rb64 { 4 } else { 3 });
        copy.i32(i as i32);
        copy.bytes(&native(s));
        copy.int8_array(s.iter().map(|&v| v as i64));
        if rb64 {
            copy.bytes(&portable(s));
        }
    }
    let cols = if rb64 { "(id, r, a, p)" } else { "(id, r, a)" };
    copy_in(
        &mut ctx.db,
        &format!("COPY {table} {cols} FROM STDIN (FORMAT binary)"),
        &copy.finish(),
    );
    ctx.db.vacuum(&[table]);
}

fn sparse(ctx: &mut Ctx, rows: u64) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let sets: Vec<Vec<u64>> = (0..rows)
        .map(|_| {
            let mut s: Vec<u64> = (0..64).map(|_| rng.below(20_000_000)).collect();
            s.sort_unstable();
            s.dedup();
            s
        })
        .collect();
    let x = sets[rows as usize / 2][7] as i64;
    let xs = sets[rows as usize / 3][..5]
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(",");
    create(ctx, "gin_sparse", &sets);
    let case = format!("{rows} rows of 64 scattered ids");
    build_indexes(ctx, "gin_sparse", &case);
    lookups(ctx, "gin_sparse", &case, x, &xs);
}

fn dense(ctx: &mut Ctx, rows: u64) {
    let sets: Vec<Vec<u64>> = (0..rows)
        .map(|i| (i * 1_000_000..i * 1_000_000 + 100_000).collect())
        .collect();
    create(ctx, "gin_dense", &sets);
    let case = format!("{rows} rows of 100,000 consecutive ids");
    build_indexes(ctx, "gin_dense", &case);
    let x = (rows / 2) as i64 * 1_000_000 + 4242;
    lookups(
        ctx,
        "gin_dense",
        &case,
        x,
        &format!("{x},{}", x + 3_000_000),
    );
}

/// Inserting rb_from_range(0, 50000000) into a GIN-indexed table: the index takes one
/// key per container (763), not 50 million. int8[] is not measured: its GIN index
/// would hold 50 million keys.
fn huge(ctx: &mut Ctx) {
    ctx.db.exec(
        "DROP TABLE IF EXISTS gin_huge;
         CREATE TABLE gin_huge (r roaring64);
         CREATE INDEX gin_huge_r ON gin_huge USING gin (r);",
    );
    let ms = ctx
        .db
        .wall_ms("INSERT INTO gin_huge SELECT rb_from_range(0, 50000000)");
    let bytes = ctx.db.i64("SELECT pg_relation_size('gin_huge_r')") as u64;
    let mut r = Record::timed(
        "gin/insert_dense_value",
        "50,000,000 consecutive ids",
        R64_GIN,
        &[ms],
    )
    .bytes(bytes);
    r.note = Some("int8[] not measured: its index would hold 50 million keys".into());
    ctx.add(vec![r]);
}

/// Audience segments: `n` sets of ids drawn from `space`, sizes log-uniform from 10
/// to `space / 25` (2,000 segments of 50M ids hold about 340M ids, 680 MB). Each
/// `element_keys` setting is built once and its lookups (a new random id each)
/// measured before the next is built; a sequential scan is the reference.
fn segments(ctx: &mut Ctx) {
    let (n, space) = ctx.cfg.pick((200u64, 5_000_000u64), (2_000, 50_000_000));
    let settings: &[i32] = ctx.cfg.pick(&[0, 32][..], &[0, 16, 32, 64, 128, 256][..]);
    ctx.db.exec("SET statement_timeout = 0");
    ctx.db.exec(&format!(
        "DROP TABLE IF EXISTS gin_segments;
         SELECT setseed(0.42);
         CREATE TABLE gin_segments (id int PRIMARY KEY, members roaring64 NOT NULL);
         INSERT INTO gin_segments
         SELECT i, m
         FROM (SELECT i, (10 * power({space} / 250.0, random()))::int AS size
               FROM generate_series(1, {n}) i) z,
           LATERAL (SELECT rb_build_agg((random() * {space})::int8) AS m
                    FROM generate_series(1, z.size)) x;"
    ));
    ctx.db.vacuum(&["gin_segments"]);
    let ids = ctx
        .db
        .i64("SELECT sum(rb_cardinality(members))::int8 FROM gin_segments");
    let column = ctx.db.i64("SELECT pg_table_size('gin_segments')");
    ctx.note(&format!(
        "segments: {n} sets, {ids} ids of {space}, table {} MB",
        column >> 20
    ));
    let lookup =
        |table_filter: &str| format!("SELECT count(*) FROM gin_segments WHERE {table_filter}");
    let random_id = format!("(SELECT (random() * {space})::int8)");
    let reps = ctx.cfg.pick(5, 31);
    for &k in settings {
        let case = format!("{n} segments, element_keys {k}");
        ctx.db.exec("DROP INDEX IF EXISTS gin_segments_members");
        let ms = ctx.db.wall_ms(&format!(
            "CREATE INDEX gin_segments_members ON gin_segments
             USING gin (members roaring64_ops (element_keys = {k}))"
        ));
        let bytes = ctx
            .db
            .i64("SELECT pg_relation_size('gin_segments_members')") as u64;
        let mut build = Record::timed("gin/segments_build", &case, R64_GIN, &[ms]).bytes(bytes);
        build.note = Some(format!("{:.3}x the table", bytes as f64 / column as f64));
        ctx.add(vec![build]);
        let vs = [v(R64_GIN, lookup(&format!("members @> {random_id}")))];
        let recs = interleaved(
            &mut ctx.db,
            "gin/segments_contains_element",
            &case,
            "SET enable_seqscan = off; SET statement_timeout = 0",
            &vs,
            reps,
        );
        ctx.add(recs);
    }
    ctx.db.exec("DROP INDEX gin_segments_members");
    let vs = [v(
        R64_SEQ,
        lookup(&format!("rb_contains(members, {random_id})")),
    )];
    let recs = interleaved(
        &mut ctx.db,
        "gin/segments_contains_element",
        &format!("{n} segments"),
        "",
        &vs,
        reps,
    );
    ctx.add(recs);
    ctx.db.exec(&format!(
        "SET statement_timeout = '{}s'",
        crate::db::TIMEOUT_S
    ));
}
