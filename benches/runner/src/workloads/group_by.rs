//! GROUP BY with many groups, the usual way to build "one set per user": 100,000
//! groups over 1M rows (10,000 over 100,000 in a smoke run), against array_agg and
//! pg_roaringbitmap. A state per group must cost little time and memory.

use crate::measure::{interleaved, v, ARR, R64, RB64};
use crate::{step, Config, Ctx, Step};

pub fn steps(cfg: &Config) -> Vec<Step> {
    let (rows, groups) = cfg.pick((100_000u64, 10_000u64), (1_000_000, 100_000));
    vec![step(
        "group_by",
        format!("{rows} rows, {groups} groups"),
        move |ctx: &mut Ctx| {
            let rb64 = ctx.db.has_rb64;
            ctx.db.exec(&format!(
            "DROP TABLE IF EXISTS gb_events, gb_sets;
             CREATE TABLE gb_events AS
               SELECT g AS id, (hashint8(g)::int8 & 1099511627775) AS v FROM generate_series(1::int8, {rows}) g;
             CREATE TABLE gb_sets AS
               SELECT g AS id, ARRAY[hashint8(g) & 1099511627775, hashint8(-g) & 1099511627775,
                                     hashint8(g + {rows}) & 1099511627775]::int8[] AS a
                 FROM generate_series(1::int8, {rows}) g;
             ALTER TABLE gb_sets ADD r roaring64;
             UPDATE gb_sets SET r = rb_build(a);"
        ));
            if rb64 {
                ctx.db.exec("ALTER TABLE gb_sets ADD p roaringbitmap64; UPDATE gb_sets SET p = rb64_build(a)");
            }
            ctx.db.vacuum(&["gb_events", "gb_sets"]);
            let setup = "SET max_parallel_workers_per_gather = 0; SET work_mem = '1GB'";
            let case = format!("{groups} groups");
            let build = |agg: &str, card: &str| {
                format!("SELECT sum({card}(s)) FROM (SELECT id % {groups} AS k, {agg} AS s FROM gb_events GROUP BY 1) t")
            };
            let mut vs = vec![v(R64, build("rb_build_agg(v)", "rb_cardinality"))];
            if rb64 {
                vs.push(v(RB64, build("rb64_build_agg(v)", "rb64_cardinality")));
            }
            vs.push(v(ARR, build("array_agg(v)", "cardinality")));
            let reps = ctx.cfg.reps;
            let recs = interleaved(
                &mut ctx.db,
                "group_by/rb_build_agg",
                &case,
                setup,
                &vs,
                reps,
            );
            ctx.add(recs);
            let union = |agg: &str, card: &str| {
                format!("SELECT sum({card}(s)) FROM (SELECT id % {groups} AS k, {agg} AS s FROM gb_sets GROUP BY 1) t")
            };
            let mut vs = vec![v(R64, union("rb_or_agg(r)", "rb_cardinality"))];
            if rb64 {
                vs.push(v(RB64, union("rb64_or_agg(p)", "rb64_cardinality")));
            }
            vs.push(v(ARR, union("array_agg(a)", "cardinality")));
            let recs = interleaved(&mut ctx.db, "group_by/rb_or_agg", &case, setup, &vs, reps);
            ctx.add(recs);
        },
    )]
}
