//! Point reads on large stored values: rows holding 1 MB, 10 MB, 25 MB and 100 MB
//! bitmaps (out of line, in TOAST). A question that needs only the header or one
//! container should take the same time whatever the value's size.

use crate::measure::{interleaved, v, ARR, R64, RB64};
use crate::{step, Config, Ctx, Step};

pub fn steps(cfg: &Config) -> Vec<Step> {
    let sizes: Vec<u64> = cfg.pick(vec![1, 10], vec![1, 10, 25, 100]);
    let mut steps = vec![step("point_reads", "build the large values", {
        let sizes = sizes.clone();
        move |ctx: &mut Ctx| build(ctx, &sizes)
    })];
    for mb in sizes {
        steps.push(step("point_reads", format!("{mb} MB"), move |ctx| {
            reads(ctx, mb)
        }));
    }
    steps
}

/// Array containers of 2,000 values each (4 kB of payload), as many as make `mb`
/// megabytes; int8[] and roaringbitmap64 hold the same set.
fn build(ctx: &mut Ctx, sizes: &[u64]) {
    let rb64 = ctx.db.has_rb64;
    ctx.db.exec(&format!(
        "DROP TABLE IF EXISTS big;
         CREATE TABLE big (mb int PRIMARY KEY, n int8, r roaring64, a int8[]{});
         ALTER TABLE big ALTER a SET STORAGE external;",
        if rb64 { ", p roaringbitmap64" } else { "" }
    ));
    for &mb in sizes {
        let containers = mb * 1_000_000 / 4012;
        ctx.db.exec(&format!(
            "INSERT INTO big (mb, r)
               SELECT {mb}, rb_build_agg(k * 65536 + (j * 31) % 65536)
                 FROM generate_series(0::int8, {containers} - 1) k, generate_series(0::int8, 1999) j;
             UPDATE big SET n = rb_cardinality(r), a = rb_to_array(r) WHERE mb = {mb};"
        ));
        if rb64 {
            ctx.db
                .exec(&format!("UPDATE big SET p = rb64_build(a) WHERE mb = {mb}"));
        }
    }
    ctx.db.vacuum(&["big"]);
    let sizes: Vec<(i32, i64, i32)> = ctx
        .db
        .client
        .query("SELECT mb, n, pg_column_size(r) FROM big ORDER BY mb", &[])
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect();
    for (mb, n, bytes) in sizes {
        ctx.note(&format!(
            "large value of {mb} MB: {n} elements, {bytes} bytes stored"
        ));
    }
}

fn reads(ctx: &mut Ctx, mb: u64) {
    let n = ctx.db.i64(&format!("SELECT n FROM big WHERE mb = {mb}"));
    // An element in the middle of the set: container n/4000, value 62.
    let x = (n / 4000) * 65536 + 62;
    let k = n / 2;
    let w = |q: &str| format!("{q} FROM big WHERE mb = {mb}");
    let cases = [
        (
            "rb_cardinality",
            w("SELECT rb_cardinality(r)"),
            w("SELECT rb64_cardinality(p)"),
            w("SELECT cardinality(a)"),
        ),
        (
            "rb_contains",
            w(&format!("SELECT r @> {x}::int8")),
            w(&format!("SELECT p @> {x}::int8")),
            w(&format!("SELECT a @> ARRAY[{x}::int8]")),
        ),
        (
            "rb_rank",
            w(&format!("SELECT rb_rank(r, {x})")),
            w(&format!("SELECT rb64_rank(p, {x})")),
            format!("SELECT count(*) FROM big, unnest(a) v WHERE mb = {mb} AND v <= {x}"),
        ),
        (
            "rb_select",
            w(&format!("SELECT rb_select(r, {k})")),
            w(&format!("SELECT rb64_min(rb64_select(p, 1, {k}))")),
            w(&format!("SELECT a[{k} + 1]")),
        ),
    ];
    let case = format!("{mb} MB");
    for (name, r, p, a) in cases {
        let mut vs = vec![v(R64, r)];
        if ctx.db.has_rb64 {
            vs.push(v(RB64, p));
        }
        vs.push(v(ARR, a));
        let reps = ctx.cfg.reps;
        let recs = interleaved(
            &mut ctx.db,
            &format!("point_reads/{name}"),
            &case,
            "",
            &vs,
            reps,
        );
        ctx.add(recs);
    }
}
