//! Planner: what PostgreSQL's planner knows of roaring64 against int8[] on the same
//! data. On a table of posting lists (20 to 60 ids each, drawn with a skewed
//! popularity from a million ids), after ANALYZE of each column: its time and the
//! size of its statistics, the row estimate of each filter users write against the
//! rows it returns (as q-error: the larger of the two over the smaller), and the
//! filter's time as planned, with no setting changed. Then an int8 column with a
//! btree index filtered by a set (`user_id <@ s`) of 1,000, 100,000 and 10 million
//! ids: as planned (the set known at plan time), against a sequential scan and
//! against `user_id = ANY(array)`. Last, ANALYZE of a column of 100 sets of 10
//! million sparse ids: its time, and the size of what it stores.

use crate::measure::{interleaved, interleaved_with, v, Record, ARR, R64};
use crate::{step, Config, Ctx, Step};

const SEQ: &str = "sequential scan";

pub fn steps(cfg: &Config) -> Vec<Step> {
    let rows = cfg.pick(20_000u64, 1_000_000);
    let orders = cfg.pick(200_000u64, 20_000_000);
    let sizes: Vec<u64> = cfg.pick(
        vec![1_000, 10_000, 100_000],
        vec![1_000, 100_000, 10_000_000],
    );
    let (sets, set_size) = cfg.pick((10u64, 100_000u64), (100, 10_000_000));
    vec![
        step(
            "planner",
            format!("estimates, {rows} skewed posting lists"),
            move |ctx: &mut Ctx| estimates(ctx, rows),
        ),
        step(
            "planner",
            format!("user_id <@ set, {orders} rows"),
            move |ctx: &mut Ctx| id_in_set(ctx, orders, &sizes),
        ),
        step("planner", "ANALYZE of large sets", move |ctx: &mut Ctx| {
            large_sets(ctx, sets, set_size)
        }),
    ]
}

/// ANALYZE of a column of large sparse sets (random ids below 10^9): a bounded read
/// of each sampled set, and statistics that hold no set.
fn large_sets(ctx: &mut Ctx, sets: u64, size: u64) {
    ctx.db.exec(
        "SELECT setseed(0.5);
         DROP TABLE IF EXISTS planner_large;
         CREATE TABLE planner_large (r roaring64);",
    );
    // Ten sets a statement: each statement stays within the runner's timeout.
    for _ in 0..sets.div_ceil(10) {
        ctx.db.exec(&format!(
            "INSERT INTO planner_large
             SELECT (SELECT rb_build_agg((random() * 1e9)::int8) FROM generate_series(1, {size}) WHERE g > 0)
             FROM generate_series(1, {}) g",
            sets.min(10)
        ));
    }
    ctx.db.exec("VACUUM planner_large");
    let case = format!("{sets} sets of {size} ids");
    let reps = ctx.cfg.pick(1, 3);
    let db = &mut ctx.db;
    let mut recs = interleaved_with("planner/analyze_large", &case, &[R64], reps, |_| {
        db.wall_ms("ANALYZE planner_large")
    });
    recs[0].bytes = Some(db.i64(
        "SELECT sum(pg_column_size(s.*))::int8 FROM pg_statistic s WHERE starelid = 'planner_large'::regclass",
    ) as u64);
    recs[0].note = Some(
        format!(
            "table {}",
            db.i64("SELECT pg_total_relation_size('planner_large')") / (1 << 20)
        ) + " MB",
    );
    ctx.add(recs);
    ctx.db.exec("DROP TABLE planner_large");
}

/// The row estimate of `sql` (EXPLAIN's top node).
fn estimate(ctx: &mut Ctx, sql: &str) -> f64 {
    let row = ctx
        .db
        .query_one(&format!("EXPLAIN (FORMAT JSON) {sql}"), &[]);
    let plan: serde_json::Value = row.get(0);
    plan[0]["Plan"]["Plan Rows"].as_f64().unwrap_or(f64::NAN)
}

fn estimates(ctx: &mut Ctx, rows: u64) {
    ctx.db.exec(&format!(
        "SELECT setseed(0.29);
         DROP TABLE IF EXISTS planner_posts;
         CREATE TABLE planner_posts (id int8, r roaring64, a int8[]);
         INSERT INTO planner_posts
         SELECT g, rb_build(ids), rb_to_array(rb_build(ids))
         FROM (SELECT g, (SELECT array_agg((1000000 * power(random(), 4))::int8)
                          FROM generate_series(1, 20 + (g % 41)) WHERE g > 0) ids
               FROM generate_series(1, {rows}) g) s;
         CREATE INDEX planner_posts_r ON planner_posts USING gin (r);
         CREATE INDEX planner_posts_a ON planner_posts USING gin (a);"
    ));
    ctx.db.exec("VACUUM planner_posts");
    let case = format!("{rows} rows");
    let reps = ctx.cfg.pick(1, 3);
    let db = &mut ctx.db;
    let mut recs = interleaved_with("planner/analyze", &case, &[R64, ARR], reps, |s| {
        let col = if s == R64 { "r" } else { "a" };
        db.wall_ms(&format!("ANALYZE planner_posts ({col})"))
    });
    for r in &mut recs {
        let col = if r.system == R64 { "r" } else { "a" };
        r.bytes = Some(db.i64(&format!(
            "SELECT pg_column_size(s.*)::int8 FROM pg_statistic s
             WHERE starelid = 'planner_posts'::regclass
               AND staattnum = (SELECT attnum FROM pg_attribute
                                WHERE attrelid = 'planner_posts'::regclass AND attname = '{col}')"
        )) as u64);
    }
    ctx.add(recs);

    // Ids by how many rows hold them, to pick each filter's ids.
    ctx.db.exec(
        "DROP TABLE IF EXISTS planner_popularity;
         CREATE TABLE planner_popularity AS
         SELECT x, count(*) AS n FROM planner_posts, unnest(a) x GROUP BY x;",
    );
    let ids = |db: &mut crate::db::Db, held_by: u64, k: u32| -> Vec<i64> {
        let row = db.query_one(
            &format!(
                "SELECT array_agg(x ORDER BY x) FROM (SELECT x FROM planner_popularity
                 ORDER BY abs(n - {held_by}), x LIMIT {k}) s"
            ),
            &[],
        );
        row.get(0)
    };
    let list = |xs: &[i64]| {
        xs.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let third = rows / 3;
    let common = rows / 100;
    let filters: Vec<(&str, String, String)> = vec![
        (
            "contains a very common id (a third of the rows)",
            "@>".into(),
            list(&ids(&mut ctx.db, third, 1)),
        ),
        (
            "contains a common id (1% of the rows)",
            "@>".into(),
            list(&ids(&mut ctx.db, common, 1)),
        ),
        (
            "contains a rare id (3 rows)",
            "@>".into(),
            list(&ids(&mut ctx.db, 3, 1)),
        ),
        (
            "overlaps 3 common ids",
            "&&".into(),
            list(&ids(&mut ctx.db, common * 4, 3)),
        ),
        (
            "overlaps 2 rare ids",
            "&&".into(),
            list(&ids(&mut ctx.db, 3, 2)),
        ),
        (
            "contains 2 common ids",
            "@>".into(),
            list(&ids(&mut ctx.db, rows / 10, 2)),
        ),
    ];
    for (case, op, xs) in filters {
        let forms = [
            (
                R64,
                format!("SELECT * FROM planner_posts WHERE r {op} '{{{xs}}}'::roaring64"),
            ),
            (
                ARR,
                format!("SELECT * FROM planner_posts WHERE a {op} '{{{xs}}}'::int8[]"),
            ),
        ];
        let mut recs = Vec::new();
        for (system, sql) in &forms {
            let actual = ctx.db.i64(&format!("SELECT count(*) FROM ({sql}) q")) as u64;
            let mut r = Record::new("planner/estimate", case, system);
            r.estimate = Some(estimate(ctx, sql));
            r.rows = Some(actual);
            recs.push(r);
        }
        ctx.add(recs);
        let variants: Vec<_> = forms
            .iter()
            .map(|(s, sql)| v(s, sql.replacen("SELECT *", "SELECT count(*)", 1)))
            .collect();
        let reps = ctx.cfg.reps;
        let recs = interleaved(
            &mut ctx.db,
            "planner/filter_as_planned",
            case,
            "",
            &variants,
            reps,
        );
        ctx.add(recs);
    }
    ctx.db.exec("DROP TABLE planner_posts, planner_popularity");
}

fn id_in_set(ctx: &mut Ctx, rows: u64, sizes: &[u64]) {
    ctx.db.exec(&format!(
        "SELECT setseed(0.71);
         DROP TABLE IF EXISTS planner_orders, planner_sets;
         CREATE TABLE planner_orders (user_id int8, amount int);
         INSERT INTO planner_orders SELECT g, g % 1000 FROM generate_series(1, {rows}) g;
         CREATE INDEX planner_orders_user ON planner_orders (user_id);
         CREATE TABLE planner_sets (n int8 PRIMARY KEY, members roaring64);"
    ));
    ctx.db.vacuum(&["planner_orders"]);
    for &n in sizes {
        // n distinct ids spread over the table's.
        ctx.db.exec(&format!(
            "INSERT INTO planner_sets
             SELECT {n}, rb_build_agg(x) FROM (SELECT DISTINCT (random() * {rows})::int8 + 1 AS x
                                               FROM generate_series(1, {n} * 11 / 10) LIMIT {n}) s"
        ));
    }
    // The set is fetched, then the filter planned with its value known (EXECUTE
    // USING plans with the parameter's value): as an application passes it.
    ctx.db.exec(
        "CREATE OR REPLACE FUNCTION planner_count(size int8, how text) RETURNS int8
         LANGUAGE plpgsql AS $$
         DECLARE
             s roaring64 := (SELECT members FROM planner_sets WHERE n = size);
             found int8;
         BEGIN
             IF how = 'seq' THEN
                 SET LOCAL enable_indexscan = off;
                 SET LOCAL enable_indexonlyscan = off;
                 SET LOCAL enable_bitmapscan = off;
             END IF;
             IF how = 'array' THEN
                 EXECUTE 'SELECT count(*) FROM planner_orders WHERE user_id = ANY($1)' INTO found USING rb_to_array(s);
             ELSE
                 EXECUTE 'SELECT count(*) FROM planner_orders WHERE user_id <@ $1' INTO found USING s;
             END IF;
             RETURN found;
         END $$;
         CREATE OR REPLACE FUNCTION planner_plan(size int8) RETURNS text
         LANGUAGE plpgsql AS $$
         DECLARE
             s roaring64 := (SELECT members FROM planner_sets WHERE n = size);
             plan json;
         BEGIN
             EXECUTE 'EXPLAIN (FORMAT JSON) SELECT count(*) FROM planner_orders WHERE user_id <@ $1' INTO plan USING s;
             RETURN plan::text;
         END $$;",
    );
    for &n in sizes {
        let case = format!("{n} ids of {rows}");
        let plan: String = ctx
            .db
            .query_one(&format!("SELECT planner_plan({n})"), &[])
            .get(0);
        let chosen = [
            "Index Only Scan",
            "Index Scan",
            "Bitmap Heap Scan",
            "Seq Scan",
        ]
        .into_iter()
        .find(|node| plan.contains(&format!("\"{node}\"")))
        .unwrap_or("?");
        let counts: Vec<i64> = ["plan", "seq", "array"]
            .iter()
            .map(|how| ctx.db.i64(&format!("SELECT planner_count({n}, '{how}')")))
            .collect();
        if counts.iter().any(|&c| c != counts[0]) {
            ctx.fail(format!(
                "planner: user_id <@ set of {n}: counts differ {counts:?}"
            ));
        }
        let variants = [
            v(R64, format!("SELECT planner_count({n}, 'plan')")),
            v(SEQ, format!("SELECT planner_count({n}, 'seq')")),
            v(ARR, format!("SELECT planner_count({n}, 'array')")),
        ];
        let reps = ctx.cfg.reps;
        let mut recs = interleaved(&mut ctx.db, "planner/id_in_set", &case, "", &variants, reps);
        recs[0].note = Some(format!("planned as {chosen}"));
        for r in &mut recs {
            r.rows = Some(counts[0] as u64);
        }
        ctx.add(recs);
    }
    ctx.db.exec(
        "DROP TABLE planner_orders, planner_sets;
         DROP FUNCTION planner_count(int8, text), planner_plan(int8);",
    );
}
