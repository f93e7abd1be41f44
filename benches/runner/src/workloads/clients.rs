//! Sets read into the application: the followers of the largest user, and of 10,000
//! typical users each intersected there with the largest, through four forms of the
//! same column (a fresh query per repetition, timed at the client, end to end):
//!
//! - `roaring64` in binary, held as sroar's `RoaringView` (Rust) or `sroar.Roaring`
//!   (Python): the value's own bytes, validated, never decoded;
//! - `rb_to_portable(s)`, deserialized by CRoaring (`Bitmap64`) or pyroaring
//!   (`BitMap64`);
//! - an `int8[]` column holding the same ids, into a `Vec<i64>` or a Python `set`;
//! - the text form, parsed by sroar's text reader.
//!
//! Every form must give the same answers (a failed check otherwise). The Python side
//! runs benches/clients/read.py on the same tables when bench.sh gives it a Python
//! with the sroar wheel installed (SROAR_BENCH_PYTHON).

use std::process::Command;
use std::time::Instant;

use croaring::{Bitmap64, Portable};
use sroar::{Roaring, RoaringView};

use crate::measure::Record;
use crate::{step, Config, Ctx, Step};

const BINARY: &str = "roaring64";
const PORTABLE: &str = "portable + CRoaring";
const ARRAY: &str = "int8[]";
const TEXT: &str = "text";
const PATHS: [&str; 4] = [BINARY, PORTABLE, ARRAY, TEXT];

pub fn steps(cfg: &Config) -> Vec<Step> {
    // The largest follower set on Bluesky (876k of 5.5M users) and 10,000 typical
    // users of 1 to 60 followers (mean about 30).
    let (universe, typical) = cfg.pick((200_000i64, 300i64), (5_500_000, 10_000));
    vec![
        step(
            "clients",
            "build the follower sets",
            move |ctx: &mut Ctx| build(ctx, universe, typical),
        ),
        step("clients", "Rust: read and intersect", read_rust),
        step("clients", "Python: read and intersect", read_python),
    ]
}

fn build(ctx: &mut Ctx, universe: i64, typical: i64) {
    ctx.db.exec(&format!(
        "DROP TABLE IF EXISTS cl_sets;
         CREATE TABLE cl_sets (uid int8 PRIMARY KEY, s roaring64 NOT NULL, a int8[] NOT NULL);
         INSERT INTO cl_sets
           SELECT 0, rb_build_agg(i), '{{}}' FROM generate_series(1::int8, {universe}) i
            WHERE hashint8(i) & 1023 < 163;
         INSERT INTO cl_sets
           SELECT u, rb_build_agg(((hashint8(u * 1000 + j) & 67108863) % {universe})::int8), '{{}}'
             FROM generate_series(1::int8, {typical}) u, generate_series(1::int8, 1 + u % 60) j
            GROUP BY u;
         UPDATE cl_sets SET a = rb_to_array(s);"
    ));
    ctx.db.vacuum(&["cl_sets"]);
    let n = ctx
        .db
        .i64("SELECT rb_cardinality(s) FROM cl_sets WHERE uid = 0");
    ctx.note(&format!(
        "largest set: {n} ids of {universe}; {typical} typical sets"
    ));
}

/// What one form answers: the largest set's size, and the sum over typical sets of
/// the size of their intersection with it.
type Answer = (u64, u64);

fn read_rust(ctx: &mut Ctx) {
    let bytes = wire_bytes(ctx);
    let client = &mut ctx.db.client;
    let largest = |sql: &str| format!("SELECT {sql} FROM cl_sets WHERE uid = 0");
    let typical = |sql: &str| format!("SELECT {sql} FROM cl_sets WHERE uid > 0");
    let mut read = |path: &str, with_typical: bool| -> Answer {
        match path {
            BINARY => {
                let big = client.query_one(&largest("s"), &[]).unwrap();
                let big: RoaringView = big.get(0);
                let mut both = 0;
                if with_typical {
                    for row in client.query(&typical("s"), &[]).unwrap() {
                        let t: RoaringView = row.get(0);
                        both += big.and_len(&t);
                    }
                }
                (big.len(), both)
            }
            PORTABLE => {
                let row = client
                    .query_one(&largest("rb_to_portable(s)"), &[])
                    .unwrap();
                let big = Bitmap64::try_deserialize::<Portable>(row.get(0)).unwrap();
                let mut both = 0;
                if with_typical {
                    for row in client.query(&typical("rb_to_portable(s)"), &[]).unwrap() {
                        let t = Bitmap64::try_deserialize::<Portable>(row.get(0)).unwrap();
                        both += big.and_cardinality(&t);
                    }
                }
                (big.cardinality(), both)
            }
            ARRAY => {
                let big: Vec<i64> = client.query_one(&largest("a"), &[]).unwrap().get(0);
                let mut both = 0;
                if with_typical {
                    for row in client.query(&typical("a"), &[]).unwrap() {
                        let t: Vec<i64> = row.get(0);
                        both += t.iter().filter(|x| big.binary_search(x).is_ok()).count() as u64;
                    }
                }
                (big.len() as u64, both)
            }
            _ => {
                let row = client.query_one(&largest("s::text"), &[]).unwrap();
                let big = Roaring::from_text(row.get(0)).unwrap();
                let mut both = 0;
                if with_typical {
                    for row in client.query(&typical("s::text"), &[]).unwrap() {
                        let t = Roaring::from_text(row.get(0)).unwrap();
                        both += big.view().and_len(&t.view());
                    }
                }
                (big.len(), both)
            }
        }
    };
    let reps = ctx.cfg.reps.max(3) as usize;
    let mut records = Vec::new();
    let mut failures = Vec::new();
    for (case, with_typical) in [("largest set", false), ("largest ∩ each typical", true)] {
        let mut samples = vec![Vec::new(); PATHS.len()];
        let mut answers = vec![(0, 0); PATHS.len()];
        for round in 0..=reps {
            for k in 0..PATHS.len() {
                let i = (k + round) % PATHS.len();
                let t = Instant::now();
                answers[i] = read(PATHS[i], with_typical);
                // The first round warms every path up and is not kept.
                if round > 0 {
                    samples[i].push(t.elapsed().as_secs_f64() * 1e3);
                }
            }
        }
        if answers.iter().any(|a| *a != answers[0]) {
            failures.push(format!(
                "clients/rust {case}: the forms disagree: {answers:?}"
            ));
        }
        for (i, path) in PATHS.iter().enumerate() {
            let b = if with_typical { bytes[i].1 } else { bytes[i].0 };
            records.push(Record::timed("clients/rust", case, path, &samples[i]).bytes(b as u64));
        }
    }
    for f in failures {
        ctx.fail(f);
    }
    ctx.add(records);
}

/// Bytes each form sends: (the largest set, all sets).
fn wire_bytes(ctx: &mut Ctx) -> Vec<(i64, i64)> {
    [
        "roaring64_send(s)",
        "rb_to_portable(s)",
        "array_send(a)",
        "textsend(s::text)",
    ]
    .iter()
    .map(|form| {
        let row = ctx.db.query_one(
            &format!(
                "SELECT sum(octet_length({form})) FILTER (WHERE uid = 0)::int8,
                            sum(octet_length({form}))::int8 FROM cl_sets"
            ),
            &[],
        );
        (row.get(0), row.get(1))
    })
    .collect()
}

fn read_python(ctx: &mut Ctx) {
    let Some(python) = std::env::var_os("SROAR_BENCH_PYTHON") else {
        ctx.note("SROAR_BENCH_PYTHON is not set: the Python clients are not measured");
        return;
    };
    let script = ctx.cfg.root.join("benches/clients/read.py");
    let out = Command::new(python)
        .arg(&script)
        .args(["--host", &ctx.cfg.host, "--port", &ctx.cfg.port])
        .args(["--dbname", &ctx.cfg.dbname])
        .args(["--reps", &ctx.cfg.reps.max(3).to_string()])
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", script.display()));
    if !out.status.success() {
        ctx.fail(format!(
            "benches/clients/read.py failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
        return;
    }
    let results: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut records = Vec::new();
    for r in results["records"].as_array().into_iter().flatten() {
        let samples: Vec<f64> = r["samples_ms"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|s| s.as_f64())
            .collect();
        let mut rec = Record::timed(
            &format!("clients/{}", r["workload"].as_str().unwrap_or("python")),
            r["case"].as_str().unwrap_or("?"),
            r["system"].as_str().unwrap_or("?"),
            &samples,
        );
        rec.bytes = r["bytes"].as_u64();
        records.push(rec);
    }
    for f in results["failures"].as_array().into_iter().flatten() {
        ctx.fail(format!("clients/python: {}", f.as_str().unwrap_or("?")));
    }
    ctx.add(records);
}
