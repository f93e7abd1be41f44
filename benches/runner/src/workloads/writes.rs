//! Writes: the union of a large stored set with 100 new ids (each statement reads
//! the set once), then one follow of a large follower set, committed alone, under pgbench at one
//! client, with its latency and the WAL it writes per transaction. The set kept
//! whole in one row (roaring64 and pg_roaringbitmap), kept as rows of chunks of
//! 65,536 ids (the README's pattern for large sets that change often), and the edge
//! table with its two btree indexes; then the same for a 100,000-id set with a GIN
//! index on the column (for the chunks, also with `element_keys = 32`).

use crate::measure::{interleaved, v, Record, EDGES, R64, RB64};
use crate::workloads::pgbench::{record, run, script_name, Run};
use crate::{step, Config, Ctx, Step};

const CHUNKS: &str = "roaring64 chunks";
/// The chunks again, their GIN index made with `element_keys = 32`.
const CHUNKS_FEW_KEYS: &str = "roaring64 chunks, element_keys 32";

/// Target 1 holds the large set, target 2 the 100,000-id one.
const LARGE: u32 = 1;
const GIN_SET: u32 = 2;

pub fn steps(cfg: &Config) -> Vec<Step> {
    let large = cfg.pick(50_000u64, 876_000);
    let space = cfg.pick(400_000u64, 5_500_000);
    let secs = cfg.pick(1u32, 15);
    vec![
        step(
            "writes",
            format!("sets of {large} and 100000 ids of {space}"),
            move |ctx: &mut Ctx| setup(ctx, large, space),
        ),
        step(
            "writes",
            format!("rb_or of the set of {large} ids with 100 new ids"),
            move |ctx: &mut Ctx| {
                let mut vs = vec![v(
                    R64,
                    format!("SELECT rb_cardinality(rb_or(s, (SELECT r FROM w_new))) FROM w_whole WHERE id = {LARGE}"),
                )];
                if ctx.db.has_rb64 {
                    vs.push(v(
                        RB64,
                        format!("SELECT rb64_cardinality(rb64_or(p, (SELECT q FROM w_new))) FROM w_rb WHERE id = {LARGE}"),
                    ));
                }
                let reps = ctx.cfg.reps;
                let recs = interleaved(
                    &mut ctx.db,
                    "writes/or_new_ids",
                    &format!("{large} ids"),
                    "",
                    &vs,
                    reps,
                );
                ctx.add(recs);
            },
        ),
        step(
            "writes",
            format!("one follow of a set of {large} ids, 1 client"),
            move |ctx: &mut Ctx| {
                let systems = ctx.present(&[R64, CHUNKS, RB64, EDGES]);
                follow(ctx, &systems, LARGE, space, secs, &format!("{large} ids"));
            },
        ),
        step(
            "writes",
            "one follow of a set of 100000 ids with a GIN index, 1 client",
            move |ctx: &mut Ctx| {
                ctx.db.exec(
                    "CREATE INDEX w_whole_gin ON w_whole USING gin (s);
                     CREATE INDEX w_chunks_gin ON w_chunks USING gin (part);",
                );
                let case = "100000 ids, GIN index";
                follow(ctx, &[R64, CHUNKS], GIN_SET, space, secs, case);
                ctx.db.exec(
                    "DROP INDEX w_chunks_gin;
                     CREATE INDEX w_chunks_gin ON w_chunks USING gin (part roaring64_ops (element_keys = 32));",
                );
                follow(ctx, &[CHUNKS_FEW_KEYS], GIN_SET, space, secs, case);
                ctx.db.exec("DROP INDEX w_whole_gin, w_chunks_gin");
            },
        ),
    ]
}

fn setup(ctx: &mut Ctx, large: u64, space: u64) {
    let rb64 = ctx.db.has_rb64;
    ctx.db.exec(&format!(
        "DROP TABLE IF EXISTS w_ids, w_whole, w_chunks, w_rb, w_edges, w_new;
         SELECT setseed(0.26);
         CREATE TABLE w_ids AS
         SELECT {LARGE} AS target, (random() * {space})::int8 AS actor FROM generate_series(1, {large})
         UNION ALL
         SELECT {GIN_SET}, (random() * {space})::int8 FROM generate_series(1, 100000);
         CREATE TABLE w_whole (id int PRIMARY KEY, s roaring64 NOT NULL);
         INSERT INTO w_whole SELECT target, rb_build_agg(actor) FROM w_ids GROUP BY target;
         CREATE TABLE w_chunks (id int, chunk int8, part roaring64 NOT NULL, PRIMARY KEY (id, chunk));
         INSERT INTO w_chunks SELECT id, c.chunk, c.part FROM w_whole, rb_chunks(s) c;
         CREATE TABLE w_edges (actor int8, target int8, PRIMARY KEY (actor, target));
         INSERT INTO w_edges SELECT DISTINCT actor, target FROM w_ids;
         CREATE INDEX w_edges_target ON w_edges (target, actor);
         CREATE TABLE w_new AS SELECT rb_build(array_agg(x)) AS r{}
           FROM (SELECT (random() * {space})::int8 AS x FROM generate_series(1, 100)) n;
         {}",
        if rb64 { ", rb64_build(array_agg(x)) AS q" } else { "" },
        if rb64 {
            "CREATE TABLE w_rb (id int PRIMARY KEY, p roaringbitmap64 NOT NULL);
             INSERT INTO w_rb SELECT target, rb64_build_agg(actor) FROM w_ids GROUP BY target;"
        } else {
            ""
        }
    ));
    let tables: &[&str] = if rb64 {
        &["w_whole", "w_chunks", "w_edges", "w_rb"]
    } else {
        &["w_whole", "w_chunks", "w_edges"]
    };
    ctx.db.vacuum(tables);
    let stored = ctx.db.i64(&format!(
        "SELECT pg_column_size(s)::int8 FROM w_whole WHERE id = {LARGE}"
    ));
    ctx.note(&format!("the large set is {stored} bytes stored"));
}

/// The WAL insert position, in bytes.
fn wal(ctx: &mut Ctx) -> i64 {
    ctx.db
        .i64("SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::int8")
}

/// Each system's script for `secs` seconds after a one-second warm-up (not
/// measured, so that no run pays for the previous one's first page writes): its
/// latency and its WAL per transaction.
fn follow(ctx: &mut Ctx, systems: &[&'static str], target: u32, space: u64, secs: u32, case: &str) {
    let mut recs = Vec::new();
    for &system in systems {
        let name = match system {
            CHUNKS | CHUNKS_FEW_KEYS => "roaring64_chunks",
            _ => script_name(system),
        };
        let script = ctx
            .cfg
            .root
            .join(format!("benches/pgbench/follow_one.{name}.sql"));
        let vars = [("target", target.to_string()), ("space", space.to_string())];
        run(ctx, &script, 1, 1, &vars);
        let before = wal(ctx);
        let r: Run = run(ctx, &script, 1, secs, &vars);
        let per_tx = (wal(ctx) - before) as f64 / r.transactions.max(1) as f64;
        let mut rec: Record = record("writes/follow_one", case, system, &r);
        rec.bytes = Some(per_tx.round() as u64);
        rec.note = Some(format!(
            "{} B of WAL per transaction; {}",
            per_tx.round(),
            rec.note.unwrap_or_default()
        ));
        recs.push(rec);
    }
    ctx.add(recs);
}
