//! Workloads over the real datasets, one table per dataset: aggregates over the
//! posting column, builds, pairwise operations over successive rows and questions
//! about one set.

use crate::measure::{interleaved, v, Variant, ARR, R64, RB64};
use crate::{step, Config, Ctx, Step};

const SERIAL: &str = "SET max_parallel_workers_per_gather = 0";
const PARALLEL: &str = "SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0;
    SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0";

/// (workload, setup, roaring64, roaringbitmap64, int8[]) over table `{t}`; an empty
/// statement means the system has no such operation.
type Spec = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);

const AGGREGATES: &[Spec] = &[
    ("rb_or_agg", SERIAL, "SELECT rb_cardinality(rb_or_agg(r)) FROM {t}",
     "SELECT rb64_cardinality(rb64_or_agg(p)) FROM {t}",
     "SELECT count(DISTINCT v) FROM {t}, unnest(a) v"),
    ("rb_and_agg", SERIAL, "SELECT rb_cardinality(rb_and_agg(r)) FROM {t}",
     "SELECT rb64_cardinality(rb64_and_agg(p)) FROM {t}",
     "SELECT count(*) FROM (SELECT v FROM {t}, unnest(a) v GROUP BY v HAVING count(*) = (SELECT count(*) FROM {t})) s"),
    ("rb_xor_agg", SERIAL, "SELECT rb_cardinality(rb_xor_agg(r)) FROM {t}",
     "SELECT rb64_cardinality(rb64_xor_agg(p)) FROM {t}",
     "SELECT count(*) FROM (SELECT v FROM {t}, unnest(a) v GROUP BY v HAVING count(*) % 2 = 1) s"),
    ("rb_or_cardinality_agg", SERIAL, "SELECT rb_or_cardinality_agg(r) FROM {t}",
     "SELECT rb64_or_cardinality_agg(p) FROM {t}",
     "SELECT count(DISTINCT v) FROM {t}, unnest(a) v"),
    ("rb_and_cardinality_agg", SERIAL, "SELECT rb_and_cardinality_agg(r) FROM {t}",
     "SELECT rb64_and_cardinality_agg(p) FROM {t}", ""),
    ("rb_xor_cardinality_agg", SERIAL, "SELECT rb_xor_cardinality_agg(r) FROM {t}",
     "SELECT rb64_xor_cardinality_agg(p) FROM {t}", ""),
    ("group_by", SERIAL,
     "SELECT sum(rb_cardinality(u)) FROM (SELECT id % 10 AS g, rb_or_agg(r) AS u FROM {t} GROUP BY 1) s",
     "SELECT sum(rb64_cardinality(u)) FROM (SELECT id % 10 AS g, rb64_or_agg(p) AS u FROM {t} GROUP BY 1) s",
     "SELECT sum(n) FROM (SELECT id % 10 AS g, count(DISTINCT v) AS n FROM {t}, unnest(a) v GROUP BY 1) s"),
    ("rb_or_agg_parallel", PARALLEL, "SELECT rb_cardinality(rb_or_agg(r)) FROM {t}",
     "SELECT rb64_cardinality(rb64_or_agg(p)) FROM {t}", ""),
];

const BUILDS: &[Spec] = &[
    (
        "rb_build_agg",
        SERIAL,
        "SELECT rb_cardinality(rb_build_agg(v)) FROM {t}, unnest(a) v",
        "SELECT rb64_cardinality(rb64_build_agg(v)) FROM {t}, unnest(a) v",
        "SELECT cardinality(array_agg(DISTINCT v)) FROM {t}, unnest(a) v",
    ),
    (
        "rb_build",
        SERIAL,
        "SELECT sum(rb_cardinality(rb_build(a))) FROM {t}",
        "SELECT sum(rb64_cardinality(rb64_build(a))) FROM {t}",
        "",
    ),
    (
        "rb_to_array",
        SERIAL,
        "SELECT sum(cardinality(rb_to_array(r))) FROM {t}",
        "SELECT sum(cardinality(rb64_to_array(p))) FROM {t}",
        "",
    ),
];

const PAIRS: &str = "FROM {t} x JOIN {t} y ON y.id = x.id + 1";
const INTERSECT: &str = "SELECT unnest(x.a) INTERSECT SELECT unnest(y.a)";
const UNION: &str = "SELECT unnest(x.a) UNION SELECT unnest(y.a)";
const EXCEPT: &str = "SELECT unnest(x.a) EXCEPT SELECT unnest(y.a)";
const XOR: &str = "(SELECT unnest(x.a) EXCEPT SELECT unnest(y.a)) UNION ALL (SELECT unnest(y.a) EXCEPT SELECT unnest(x.a))";

/// Pairwise specs: (workload, roaring64 expression, roaringbitmap64 expression,
/// int8[] expression) summed over successive rows, or a predicate counted. In the
/// int8[] expressions {i}, {u}, {e} and {x} stand for the queries of the two rows'
/// intersection, union, difference and symmetric difference.
const PAIRWISE: &[(&str, &str, &str, &str)] = &[
    (
        "and",
        "sum(rb_cardinality(x.r & y.r))",
        "sum(rb64_cardinality(x.p & y.p))",
        "sum(cardinality(ARRAY({i})))",
    ),
    (
        "or",
        "sum(rb_cardinality(x.r | y.r))",
        "sum(rb64_cardinality(x.p | y.p))",
        "sum(cardinality(ARRAY({u})))",
    ),
    (
        "xor",
        "sum(rb_cardinality(x.r # y.r))",
        "sum(rb64_cardinality(x.p # y.p))",
        "sum(cardinality(ARRAY({x})))",
    ),
    (
        "andnot",
        "sum(rb_cardinality(x.r - y.r))",
        "sum(rb64_cardinality(x.p - y.p))",
        "sum(cardinality(ARRAY({e})))",
    ),
    (
        "and_cardinality",
        "sum(rb_and_cardinality(x.r, y.r))",
        "sum(rb64_and_cardinality(x.p, y.p))",
        "sum((SELECT count(*) FROM ({i}) s))",
    ),
    (
        "or_cardinality",
        "sum(rb_or_cardinality(x.r, y.r))",
        "sum(rb64_or_cardinality(x.p, y.p))",
        "sum((SELECT count(*) FROM ({u}) s))",
    ),
    (
        "xor_cardinality",
        "sum(rb_xor_cardinality(x.r, y.r))",
        "sum(rb64_xor_cardinality(x.p, y.p))",
        "sum((SELECT count(*) FROM ({x}) s))",
    ),
    (
        "andnot_cardinality",
        "sum(rb_andnot_cardinality(x.r, y.r))",
        "sum(rb64_andnot_cardinality(x.p, y.p))",
        "sum((SELECT count(*) FROM ({e}) s))",
    ),
    (
        "jaccard",
        "sum(rb_jaccard(x.r, y.r))",
        "sum(1 - rb64_jaccard_dist(x.p, y.p))",
        "sum((SELECT count(*) FROM ({i}) s)::float8 / nullif((SELECT count(*) FROM ({u}) s), 0))",
    ),
    (
        "contains",
        "count(*) FILTER (WHERE x.r @> y.r)",
        "count(*) FILTER (WHERE x.p @> y.p)",
        "count(*) FILTER (WHERE x.a @> y.a)",
    ),
    (
        "overlaps",
        "count(*) FILTER (WHERE x.r && y.r)",
        "count(*) FILTER (WHERE x.p && y.p)",
        // Core `&&` compares every pair of elements until one matches, without
        // checking for interrupts, so statement_timeout cannot stop it: disjoint
        // neighbours of 100k values run for minutes each. The set form scales.
        "count(*) FILTER (WHERE EXISTS ({i}))",
    ),
    (
        "equals",
        "count(*) FILTER (WHERE x.r = y.r)",
        "count(*) FILTER (WHERE x.p = y.p)",
        "count(*) FILTER (WHERE x.a = y.a)",
    ),
];

/// The middle half of a set's span, as SQL over each system's min and max.
const LO_R: &str = "rb_min(r) + (rb_max(r) - rb_min(r)) / 4";
const HI_R: &str = "rb_min(r) + 3 * ((rb_max(r) - rb_min(r)) / 4)";
const LO_P: &str = "rb64_min(p) + (rb64_max(p) - rb64_min(p)) / 4";
const HI_P: &str = "rb64_min(p) + 3 * ((rb64_max(p) - rb64_min(p)) / 4)";
/// int8[] rows with their bounds computed once: an array referenced inside a
/// correlated subquery is detoasted again at every use, which would make these
/// baselines quadratic in the array's length.
const ARR_SPAN: &str = "(SELECT a, a[1] + (a[cardinality(a)] - a[1]) / 4 AS lo,
    a[1] + 3 * ((a[cardinality(a)] - a[1]) / 4) AS hi, (a[1] + a[cardinality(a)]) / 2 AS mid
    FROM {t} WHERE cardinality(a) > 0 OFFSET 0) s";

fn one_set() -> Vec<(&'static str, String, String, String)> {
    vec![
        ("cardinality", "SELECT sum(rb_cardinality(r)) FROM {t}".into(),
         "SELECT sum(rb64_cardinality(p)) FROM {t}".into(),
         "SELECT sum(cardinality(a)) FROM {t}".into()),
        ("min_max", "SELECT max(rb_min(r)) + max(rb_max(r)) FROM {t}".into(),
         "SELECT max(rb64_min(p)) + max(rb64_max(p)) FROM {t}".into(),
         "SELECT max(a[1]) + max(a[cardinality(a)]) FROM {t}".into()),
        ("contains_probes", "SELECT count(*) FROM {t} t, {q} q WHERE t.r @> q.v".into(),
         "SELECT count(*) FROM {t} t, {q} q WHERE t.p @> q.v".into(),
         "SELECT count(*) FROM {t} t, {q} q WHERE t.a @> ARRAY[q.v]".into()),
        ("rank", "SELECT sum(rb_rank(r, (rb_min(r) + rb_max(r)) / 2)) FROM {t}".into(),
         "SELECT sum(rb64_rank(p, (rb64_min(p) + rb64_max(p)) / 2)) FROM {t}".into(),
         format!("SELECT sum((SELECT count(*) FROM unnest(a) v WHERE v <= mid)) FROM {ARR_SPAN}")),
        ("range_cardinality", format!("SELECT sum(rb_range_cardinality(r, {LO_R}, {HI_R})) FROM {{t}}"),
         format!("SELECT sum(rb64_range_cardinality(p, {LO_P}, {HI_P})) FROM {{t}}"),
         format!("SELECT sum((SELECT count(*) FROM unnest(a) v WHERE v >= lo AND v < hi)) FROM {ARR_SPAN}")),
        ("range", format!("SELECT sum(rb_cardinality(rb_range(r, {LO_R}, {HI_R}))) FROM {{t}}"),
         format!("SELECT sum(rb64_cardinality(rb64_range(p, {LO_P}, {HI_P}))) FROM {{t}}"),
         format!("SELECT sum(cardinality(ARRAY(SELECT v FROM unnest(a) v WHERE v >= lo AND v < hi))) FROM {ARR_SPAN}")),
        ("iterate", "SELECT count(*) FROM {t}, rb_iterate(r)".into(),
         "SELECT count(*) FROM {t}, rb64_iterate(p)".into(),
         "SELECT count(*) FROM {t}, unnest(a)".into()),
    ]
}

fn variants(ctx: &Ctx, t: &str, q: &str, r: &str, p: &str, a: &str) -> Vec<Variant> {
    let fill = |s: &str| s.replace("{t}", t).replace("{q}", q);
    let mut out = vec![v(R64, fill(r))];
    if ctx.db.has_rb64 && !p.is_empty() {
        out.push(v(RB64, fill(p)));
    }
    // int8[]'s work depends on the values' count, not on where they lie (all the
    // 64-bit spread changes): it is measured on the plain datasets only.
    if !a.is_empty() && !t.ends_with("_64") {
        out.push(v(ARR, fill(a)));
    }
    out
}

/// The runs over each dataset, one step per dataset and group.
pub fn steps(cfg: &Config) -> Vec<Step> {
    let mut steps = Vec::new();
    let names = crate::data::names(&cfg.realdata(), cfg.smoke);
    let tables: Vec<(String, String)> = names
        .iter()
        .flat_map(|n| {
            let t = format!("rd_{}", n.replace('-', "_"));
            [
                (n.clone(), t.clone()),
                (format!("{n} (64-bit)"), format!("{t}_64")),
            ]
        })
        .collect();
    for (group, specs) in [("aggregates", AGGREGATES), ("builds", BUILDS)] {
        for (name, t) in &tables {
            let (name, t) = (name.clone(), t.clone());
            steps.push(step(group, name.clone(), move |ctx| {
                for &(w, setup, r, p, a) in specs {
                    let vs = variants(ctx, &t, "", r, p, a);
                    // Starting the workers varies by 1-2 ms from query to query,
                    // more than the union itself takes: parallel plans get three
                    // times the repetitions, so that their medians settle.
                    let reps = if setup == PARALLEL {
                        3 * ctx.cfg.reps
                    } else {
                        ctx.cfg.reps
                    };
                    let recs = interleaved(
                        &mut ctx.db,
                        &format!("{group}/{w}"),
                        &name,
                        setup,
                        &vs,
                        reps,
                    );
                    ctx.add(recs);
                }
            }));
        }
    }
    for (name, t) in &tables {
        let (name, t) = (name.clone(), t.clone());
        steps.push(step("pairwise", name.clone(), move |ctx| {
            for &(w, r, p, a) in PAIRWISE {
                let a = a
                    .replace("{i}", INTERSECT)
                    .replace("{u}", UNION)
                    .replace("{e}", EXCEPT)
                    .replace("{x}", XOR);
                let q = |e: &str| format!("SELECT {e} {PAIRS}");
                let vs = variants(ctx, &t, "", &q(r), &q(p), &q(&a));
                let reps = ctx.cfg.reps;
                let recs = interleaved(
                    &mut ctx.db,
                    &format!("pairwise/{w}"),
                    &name,
                    SERIAL,
                    &vs,
                    reps,
                );
                ctx.add(recs);
            }
        }));
    }
    for (name, t) in &tables {
        let (name, t) = (name.clone(), t.clone());
        steps.push(step("one_set", name.clone(), move |ctx| {
            let q = format!("{t}_probes");
            make_probes(ctx, &t, &q);
            for (w, r, p, a) in one_set() {
                let vs = variants(ctx, &t, &q, &r, &p, &a);
                let reps = ctx.cfg.reps;
                let recs = interleaved(
                    &mut ctx.db,
                    &format!("one_set/{w}"),
                    &name,
                    SERIAL,
                    &vs,
                    reps,
                );
                ctx.add(recs);
            }
        }));
    }
    steps.push(step(
        "aggregates",
        "peak memory of rb_or_agg on the largest dataset",
        peak_memory,
    ));
    steps
}

/// Probe values for `contains_probes`: half are elements of some row, half are
/// spread over the dataset's span. Fewer probes for tables of many rows, so that
/// every table sees about 200,000 membership tests (10,000 in a smoke run).
fn make_probes(ctx: &mut Ctx, t: &str, q: &str) {
    let rows = ctx.db.i64(&format!("SELECT count(*) FROM {t}")).max(1);
    let tests = ctx.cfg.pick(10_000, 200_000);
    let n = (tests / rows).clamp(10, 1000);
    ctx.db.exec(&format!(
        "DROP TABLE IF EXISTS {q};
         CREATE TABLE {q} AS
           SELECT a[1 + (k * 7919) % cardinality(a)] AS v
             FROM generate_series(1, {half}) k, LATERAL (SELECT a FROM {t} WHERE cardinality(a) > 0
                                                       ORDER BY id OFFSET k % {rows} LIMIT 1) s
           UNION ALL
           SELECT lo + ((hi - lo) / {half}) * k FROM generate_series(1, {half}) k,
                  (SELECT min(a[1]) lo, max(a[cardinality(a)]) hi FROM {t}) b;
         ANALYZE {q}",
        half = n / 2
    ));
}

/// Peak backend memory (VmHWM growth) during one union of the largest dataset,
/// each system in a fresh session.
fn peak_memory(ctx: &mut Ctx) {
    let Some(d) = ctx.datasets.iter().max_by_key(|d| d.values) else {
        return;
    };
    let (t, name) = (d.table.clone(), d.name.clone());
    let mut recs = Vec::new();
    let systems = ctx.present(&[R64, RB64, ARR]);
    for s in systems {
        let sql = match s {
            R64 => format!("SELECT rb_cardinality(rb_or_agg(r)) FROM {t}"),
            RB64 => format!("SELECT rb64_cardinality(rb64_or_agg(p)) FROM {t}"),
            _ => format!("SELECT count(DISTINCT v) FROM {t}, unnest(a) v"),
        };
        let mut c = ctx.db.another();
        c.batch_execute(&format!("{SERIAL}; SELECT count(*) FROM {t}"))
            .unwrap();
        let before = crate::db::Db::backend_peak_kb(&mut c);
        c.batch_execute(&sql).unwrap();
        let grown = crate::db::Db::backend_peak_kb(&mut c).saturating_sub(before);
        recs.push(
            crate::measure::Record::new("aggregates/peak_memory", &name, s).bytes(grown * 1024),
        );
    }
    ctx.add(recs);
}
