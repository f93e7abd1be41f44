//! Many sets in one call against the aggregate over the same stored rows: the
//! VARIADIC functions (`rb_or_cardinality(a, b, c)`, `rb_or(a, b, c)`, …) should beat
//! `rb_or_cardinality_agg` and friends, since they have no per-row step.
//!
//! 90 stored sets, small (1,000 ids over 10M) and large (500,000 ids over 50M; a
//! skewed spread, so that low ids are dense and high ones sparse). Each query makes
//! 90/k calls of k sets (k = 3, 5, 20, 90), every call on different stored rows, in
//! the two shapes users write: explicit arguments from a join of the rows, and
//! `VARIADIC array_agg(s)` over a GROUP BY; the aggregate runs over the same groups.
//! Each record pair compares one shape with the aggregate, from one interleaved run.
//!
//! Beside them, the shape alone: the same query with a call that reads no set
//! (`num_nonnulls` over the joined arguments; `cardinality(array_agg(s))`, which
//! still detoasts and copies every set into the array). No n-way function can run
//! faster than its shape, so aggregate / shape alone is the most it can gain there.
//! A union must also read every set whole, so the unions have a third floor: the
//! joined arguments each read once (`s::bytea > '\x'` detoasts and compares no byte).
//! An intersection must at least read two sets and intersect them, so the
//! intersections have theirs: the two-set function over the first two joined
//! sets, the others only passed along. The aggregate reads and intersects the same
//! two, so where that work outweighs its per-row step, no form is much faster.
//!
//! A union must also mark every value of its sets, as the aggregate does. So beside
//! the unions, the same groups' unions computed here, in memory, by the library and
//! by CRoaring (on bitmaps deserialized beforehand, which favours it): the faster
//! added to a shape's floor is the least any n-way union can take, whatever its
//! per-row saving (`benches/many_floors.py` adds them).

use std::hint::black_box;
use std::time::Instant;

use croaring::Bitmap;
use sroar::{RoaringView, SetOp};

use crate::measure::{interleaved, interleaved_with, v, Record, R64};
use crate::{step, Config, Ctx, Step};

/// The aggregate's system name in the records: the n-way function is roaring64.
const AGG: &str = "aggregate";
/// The query's shape with a call that reads no set: the floor of any n-way function.
const SHAPE: &str = "shape alone";
/// The explicit arguments' shape with every set read once: the floor of a union.
const SHAPE_READ: &str = "shape, sets read";
/// The explicit arguments' shape with the first two sets intersected by the
/// two-set function: the floor of an intersection.
const SHAPE_PAIR: &str = "shape, two sets intersected";
/// The same groups' unions in memory, outside PostgreSQL: the least a union's call
/// adds to its shape, by the library and by CRoaring.
const UNION_SROAR: &str = "union in memory, sroar";
const UNION_CROARING: &str = "union in memory, CRoaring";
const SETS: u32 = 90;
const KS: [u32; 4] = [3, 5, 20, 90];

/// (n-way function, aggregate, wrap): the set-valued forms are timed through their
/// cardinality, so that every variant returns one number to compare.
const OPS: [(&str, &str, &str); 4] = [
    ("rb_or_cardinality", "rb_or_cardinality_agg", ""),
    ("rb_and_cardinality", "rb_and_cardinality_agg", ""),
    ("rb_or", "rb_or_agg", "rb_cardinality"),
    ("rb_and", "rb_and_agg", "rb_cardinality"),
];

pub fn steps(cfg: &Config) -> Vec<Step> {
    let sizes = [
        ("small", "nw_small", cfg.pick(200u32, 1_000), 10_000_000u64),
        ("large", "nw_large", cfg.pick(20_000, 500_000), 50_000_000),
    ];
    let mut steps = Vec::new();
    for (label, table, n, spread) in sizes {
        steps.push(step("many", format!("build {SETS} {label} sets"), move |ctx| {
            ctx.db.exec(&format!(
                "DROP TABLE IF EXISTS {table};
                 CREATE TABLE {table} (id int PRIMARY KEY, s roaring64 NOT NULL);
                 INSERT INTO {table}
                   SELECT id, rb_build_agg(({spread}::float8
                            * ((hashint8(id * 1000003 + j) & 2147483647)::float8 / 2147483648.0) ^ 2)::int8)
                     FROM generate_series(1, {SETS}) id, generate_series(1, {n}) j
                    GROUP BY id;"
            ));
            ctx.db.vacuum(&[table]);
        }));
        for k in KS {
            steps.push(step(
                "many",
                format!("{label} sets, {k} per call"),
                move |ctx| measure(ctx, table, &format!("{label} sets, {k} per call"), k),
            ));
        }
    }
    steps
}

fn measure(ctx: &mut Ctx, table: &str, case: &str, k: u32) {
    let groups = SETS / k;
    let last = groups * k;
    let stored: Vec<Vec<u8>> = ctx
        .db
        .client
        .query(
            &format!("SELECT s::bytea FROM {table} WHERE id <= {last} ORDER BY id"),
            &[],
        )
        .expect("the stored sets")
        .iter()
        .map(|r| r.get(0))
        .collect();
    let views: Vec<RoaringView<'_>> = stored
        .iter()
        .map(|b| RoaringView::from_bytes(b).expect("a stored set reads"))
        .collect();
    let bitmaps: Vec<Bitmap> = views
        .iter()
        .map(|v| {
            let mut b: Bitmap = v
                .iter()
                // Stored values are the ids with their sign bit toggled.
                .map(|x| u32::try_from(x ^ (1 << 63)).expect("the sets' ids fit 32 bits"))
                .collect();
            b.run_optimize();
            b
        })
        .collect();
    for (nway, agg, wrap) in OPS {
        let (open, close) = if wrap.is_empty() {
            (String::new(), "")
        } else {
            (format!("{wrap}("), ")")
        };
        // Explicit arguments: one row per group of k stored sets, joined by key.
        let args: Vec<String> = (1..=k).map(|i| format!("s{i}.s")).collect();
        let joins: String = (1..=k)
            .map(|i| format!(" JOIN {table} s{i} ON s{i}.id = g * {k} + {i}"))
            .collect();
        let explicit = format!(
            "SELECT sum({open}{nway}({}){close}) FROM generate_series(0, {groups} - 1) g{joins}",
            args.join(", ")
        );
        let explicit_shape = format!(
            "SELECT sum(num_nonnulls({})) FROM generate_series(0, {groups} - 1) g{joins}",
            args.join(", ")
        );
        let read: Vec<String> = args.iter().map(|a| format!("{a}::bytea > '\\x'")).collect();
        let explicit_read = format!(
            "SELECT sum(num_nonnulls({})) FROM generate_series(0, {groups} - 1) g{joins}",
            read.join(", ")
        );
        // Every k is at least 3, so some sets are left to pass along.
        let explicit_pair = format!(
            "SELECT sum({open}{nway}(s1.s, s2.s){close} + num_nonnulls({})) \
             FROM generate_series(0, {groups} - 1) g{joins}",
            args[2..].join(", ")
        );
        let grouped = |call: &str| {
            format!(
                "SELECT sum(c) FROM (SELECT {open}{call}{close} AS c FROM {table}
                  WHERE id <= {last} GROUP BY (id - 1) / {k}) t"
            )
        };
        let variadic = grouped(&format!("{nway}(VARIADIC array_agg(s))"));
        let aggregate = grouped(&format!("{agg}(s)"));
        // Not wrapped: cardinality here is the array's length, and no n-way call
        // is made.
        let variadic_shape = format!(
            "SELECT sum(c) FROM (SELECT cardinality(array_agg(s)) AS c FROM {table}
              WHERE id <= {last} GROUP BY (id - 1) / {k}) t"
        );

        let answers: Vec<i64> = [&explicit, &variadic, &aggregate]
            .iter()
            .map(|q| ctx.db.i64(&format!("SELECT ({q})::int8")))
            .collect();
        if answers.iter().any(|&a| a != answers[0]) {
            ctx.fail(format!(
                "many/{nway} [{case}]: arguments, VARIADIC and {agg} disagree: {answers:?}"
            ));
        }
        let mut vs = vec![
            v(R64, &explicit),
            v(R64, &variadic),
            v(AGG, &aggregate),
            v(SHAPE, &explicit_shape),
            v(SHAPE, &variadic_shape),
        ];
        // An intersection may stop reading once it is empty; a union may not.
        let union = nway.starts_with("rb_or");
        vs.push(if union {
            v(SHAPE_READ, &explicit_read)
        } else {
            v(SHAPE_PAIR, &explicit_pair)
        });
        let setup = "SET max_parallel_workers_per_gather = 0";
        let recs = interleaved(&mut ctx.db, "many/run", case, setup, &vs, ctx.cfg.reps);
        let named = |r: &Record, workload: &str| Record {
            workload: workload.to_owned(),
            ..r.clone()
        };
        let (by_args, by_variadic) = (
            format!("many/{nway}(a, b, …) vs {agg}"),
            format!("many/{nway}(VARIADIC array_agg) vs {agg}"),
        );
        let mut args_recs = vec![
            named(&recs[0], &by_args),
            named(&recs[2], &by_args),
            named(&recs[3], &by_args),
        ];
        args_recs.push(named(&recs[5], &by_args));
        let mut variadic_recs = vec![
            named(&recs[1], &by_variadic),
            named(&recs[2], &by_variadic),
            named(&recs[4], &by_variadic),
        ];
        if union {
            let counted = wrap.is_empty();
            let total = answers[0];
            let mem = in_memory(
                &views,
                &bitmaps,
                k as usize,
                counted,
                total,
                case,
                ctx.cfg.reps,
            );
            args_recs.extend(mem.iter().map(|r| named(r, &by_args)));
            variadic_recs.extend(mem.iter().map(|r| named(r, &by_variadic)));
        }
        ctx.add(args_recs);
        ctx.add(variadic_recs);
    }
}

/// The groups' unions (of `k` sets each, as the SQL calls make them) in memory,
/// timed by each library, interleaved: sroar reads the stored bytes in place and,
/// for a set-valued union (`counted` false), writes the result's bytes; CRoaring
/// unions bitmaps deserialized beforehand and keeps its result in memory.
fn in_memory(
    views: &[RoaringView<'_>],
    bitmaps: &[Bitmap],
    k: usize,
    counted: bool,
    total: i64,
    case: &str,
    reps: u32,
) -> Vec<Record> {
    let sroar = || -> u64 {
        views
            .chunks_exact(k)
            .map(|g| {
                if counted {
                    SetOp::Or.many_len(black_box(g))
                } else {
                    let w = SetOp::Or.many(black_box(g));
                    let len = w.len();
                    black_box(w.into_vec().expect("fits"));
                    len
                }
            })
            .sum()
    };
    let croaring = || -> u64 {
        bitmaps
            .chunks_exact(k)
            .map(|h| {
                let refs: Vec<&Bitmap> = h.iter().collect();
                Bitmap::fast_or(black_box(&refs)).cardinality()
            })
            .sum()
    };
    // Warm once each, and agree with the SQL answers before anything is timed.
    for (name, sum) in [("sroar", sroar()), ("CRoaring", croaring())] {
        assert_eq!(
            sum, total as u64,
            "many: {name}'s unions in memory disagree with SQL"
        );
    }
    let systems = [UNION_SROAR, UNION_CROARING];
    interleaved_with("many/run", case, &systems, reps, |system| {
        let t = Instant::now();
        black_box(if system == UNION_SROAR {
            sroar()
        } else {
            croaring()
        });
        t.elapsed().as_secs_f64() * 1e3
    })
}
