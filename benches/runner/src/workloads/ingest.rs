//! Ingest: binary COPY of native roaring64 bytes from a Rust client, of the standard
//! portable bytes, COPY text, and building sets in SQL with rb_build_agg over an
//! event table. Rows per second and MB per second follow from each record's rows,
//! bytes and time.

use crate::data::{copy_in, native, portable, Copy, Rng};
use crate::measure::{interleaved, interleaved_with, v, ARR, R64, RB64};
use crate::{step, Config, Ctx, Step};

const R64_PORTABLE: &str = "roaring64 (portable bytes)";

pub fn steps(cfg: &Config) -> Vec<Step> {
    let rows = cfg.pick(5_000usize, 200_000);
    let events = cfg.pick(250_000u64, 10_000_000);
    vec![
        step(
            "ingest",
            format!("COPY of {rows} posting lists"),
            move |ctx: &mut Ctx| copies(ctx, rows),
        ),
        step(
            "ingest",
            format!("rb_build_agg over {events} events"),
            move |ctx: &mut Ctx| build_agg(ctx, events),
        ),
    ]
}

/// Posting lists of 100 scattered ids below 2^32; every tenth also holds a run of
/// 5,000 ids.
fn posting_lists(rows: usize) -> Vec<Vec<u64>> {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    (0..rows)
        .map(|i| {
            let mut s: Vec<u64> = (0..100).map(|_| rng.below(1 << 32)).collect();
            if i % 10 == 0 {
                let start = rng.below(1 << 31);
                s.extend(start..start + 5000);
            }
            s.sort_unstable();
            s.dedup();
            s
        })
        .collect()
}

fn text_of(s: &[u64]) -> String {
    let mut t = String::from("{");
    for (i, v) in s.iter().enumerate() {
        if i > 0 {
            t.push(',');
        }
        t.push_str(&v.to_string());
    }
    t.push('}');
    t
}

fn copies(ctx: &mut Ctx, rows: usize) {
    let sets = posting_lists(rows);
    let rb64 = ctx.db.has_rb64;
    let binary = |col: &dyn Fn(&mut Copy, &Vec<u64>)| {
        let mut c = Copy::new();
        for (i, s) in sets.iter().enumerate() {
            c.row(2);
            c.i32(i as i32);
            col(&mut c, s);
        }
        c.finish()
    };
    let native_data = binary(&|c, s| c.bytes(&native(s)));
    let portable_data = binary(&|c, s| c.bytes(&portable(s)));
    let array_data = binary(&|c, s| c.int8_array(s.iter().map(|&v| v as i64)));
    let mut text = String::new();
    for (i, s) in sets.iter().enumerate() {
        text.push_str(&format!("{i}\t{}\n", text_of(s)));
    }
    ctx.db.exec(&format!(
        "DROP TABLE IF EXISTS ing_r, ing_p, ing_a;
         CREATE TABLE ing_r (id int, r roaring64);
         CREATE TABLE ing_a (id int, a int8[]);
         {}",
        if rb64 {
            "CREATE TABLE ing_p (id int, p roaringbitmap64);"
        } else {
            ""
        }
    ));
    let reps = ctx.cfg.pick(2, 3);
    let case = format!("{rows} rows");
    let mut systems = vec![R64, R64_PORTABLE];
    if rb64 {
        systems.push(RB64);
    }
    systems.push(ARR);
    let table = |s: &str| match s {
        R64 | R64_PORTABLE => "ing_r",
        RB64 => "ing_p",
        _ => "ing_a",
    };
    let db = &mut ctx.db;
    let mut recs = interleaved_with("ingest/copy_binary", &case, &systems, reps, |s| {
        let t = table(s);
        db.exec(&format!("TRUNCATE {t}"));
        let data = match s {
            R64 => &native_data,
            ARR => &array_data,
            _ => &portable_data,
        };
        let start = std::time::Instant::now();
        copy_in(db, &format!("COPY {t} FROM STDIN (FORMAT binary)"), data);
        start.elapsed().as_secs_f64() * 1e3
    });
    for r in &mut recs {
        let data = match r.system.as_str() {
            R64 => &native_data,
            ARR => &array_data,
            _ => &portable_data,
        };
        r.rows = Some(rows as u64);
        r.bytes = Some(data.len() as u64);
    }
    ctx.add(recs);
    let text_systems: Vec<&'static str> = systems
        .iter()
        .copied()
        .filter(|s| *s != R64_PORTABLE)
        .collect();
    let db = &mut ctx.db;
    let mut recs = interleaved_with("ingest/copy_text", &case, &text_systems, reps, |s| {
        let t = table(s);
        db.exec(&format!("TRUNCATE {t}"));
        let start = std::time::Instant::now();
        copy_in(db, &format!("COPY {t} FROM STDIN"), text.as_bytes());
        start.elapsed().as_secs_f64() * 1e3
    });
    for r in &mut recs {
        r.rows = Some(rows as u64);
        r.bytes = Some(text.len() as u64);
    }
    ctx.add(recs);
}

/// An event table (id, value) of `rows` rows, 100 values per id: one set per id, and
/// one set of all values.
fn build_agg(ctx: &mut Ctx, rows: u64) {
    ctx.db.exec(&format!(
        "DROP TABLE IF EXISTS ing_events;
         CREATE TABLE ing_events AS
           SELECT g % {ids} AS id, hashint8(g) & 1099511627775 AS value FROM generate_series(1::int8, {rows}) g",
        ids = rows / 100
    ));
    ctx.db.vacuum(&["ing_events"]);
    let setup = "SET max_parallel_workers_per_gather = 0; SET work_mem = '1GB'";
    let rb64 = ctx.db.has_rb64;
    let per_id = |agg: &str, card: &str| {
        format!("SELECT sum({card}(s)) FROM (SELECT id, {agg} AS s FROM ing_events GROUP BY id) t")
    };
    let mut vs = vec![v(R64, per_id("rb_build_agg(value)", "rb_cardinality"))];
    if rb64 {
        vs.push(v(RB64, per_id("rb64_build_agg(value)", "rb64_cardinality")));
    }
    vs.push(v(ARR, per_id("array_agg(value)", "cardinality")));
    let reps = ctx.cfg.pick(2, 3);
    let case = format!("{rows} rows, {} ids", rows / 100);
    let mut recs = interleaved(
        &mut ctx.db,
        "ingest/rb_build_agg_per_id",
        &case,
        setup,
        &vs,
        reps,
    );
    recs.iter_mut().for_each(|r| r.rows = Some(rows));
    ctx.add(recs);
    let mut vs = vec![v(
        R64,
        "SELECT rb_cardinality(rb_build_agg(value)) FROM ing_events",
    )];
    if rb64 {
        vs.push(v(
            RB64,
            "SELECT rb64_cardinality(rb64_build_agg(value)) FROM ing_events",
        ));
    }
    vs.push(v(
        ARR,
        "SELECT cardinality(array_agg(DISTINCT value)) FROM ing_events",
    ));
    let case = format!("{rows} rows, one set");
    let mut recs = interleaved(
        &mut ctx.db,
        "ingest/rb_build_agg_one_set",
        &case,
        setup,
        &vs,
        reps,
    );
    recs.iter_mut().for_each(|r| r.rows = Some(rows));
    ctx.add(recs);
}
