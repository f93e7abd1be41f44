//! The pgbench kit (benches/pgbench/<workload>.<system>.sql): each script at 1 and 8
//! clients for a fixed time, with TPS, mean and 99th-percentile latency from
//! pgbench's per-transaction log. The `add` runs double as a concurrency test: the
//! total cardinality must grow by exactly the number of transactions.

use std::path::Path;
use std::process::Command;

use crate::measure::{Record, ARR, R64, RB64};
use crate::{step, Config, Ctx, Step};

/// What one pgbench run measured.
pub struct Run {
    pub transactions: u64,
    pub tps: f64,
    pub mean_ms: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
}

/// The file name part of a system in script names.
pub fn script_name(system: &str) -> &'static str {
    match system {
        R64 => "roaring64",
        RB64 => "roaringbitmap64",
        ARR => "int8array",
        _ => "edges",
    }
}

/// Runs `script` with `clients` clients for `secs` seconds, passing `vars` (-D).
pub fn run(ctx: &Ctx, script: &Path, clients: u32, secs: u32, vars: &[(&str, String)]) -> Run {
    run_at(ctx, script, clients, secs, None, vars)
}

/// [`run`], at `rate` transactions per second in all when given (pgbench -R): each
/// latency then counts from when its transaction was due, so a server that falls
/// behind shows it, and the latencies are those of a server that is not saturated.
pub fn run_at(
    ctx: &Ctx,
    script: &Path,
    clients: u32,
    secs: u32,
    rate: Option<u32>,
    vars: &[(&str, String)],
) -> Run {
    let dir = ctx.cfg.out.join("pgbench");
    std::fs::create_dir_all(&dir).unwrap();
    for f in std::fs::read_dir(&dir).unwrap().flatten() {
        let _ = std::fs::remove_file(f.path());
    }
    let mut cmd = Command::new(ctx.cfg.pgbin.join("pgbench"));
    cmd.args([
        "-n",
        "-h",
        &ctx.cfg.host,
        "-p",
        &ctx.cfg.port,
        "-U",
        "postgres",
    ])
    .args([
        "-c",
        &clients.to_string(),
        "-j",
        &clients.to_string(),
        "-T",
        &secs.to_string(),
    ])
    .args(rate.map(|r| format!("--rate={r}")))
    .arg("-f")
    .arg(script)
    .arg("--log")
    .arg(format!("--log-prefix={}", dir.join("log").display()));
    for (k, v) in vars {
        cmd.args(["-D", &format!("{k}={v}")]);
    }
    cmd.arg(&ctx.cfg.dbname);
    let out = cmd.output().expect("pgbench runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "pgbench {} failed:\n{stdout}\n{}",
        script.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let after = |label: &str| -> f64 {
        stdout
            .lines()
            .find_map(|l| l.trim().strip_prefix(label))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.split('/').next()?.parse().ok())
            .unwrap_or_else(|| panic!("no '{label}' in pgbench output:\n{stdout}"))
    };
    let transactions = after("number of transactions actually processed:") as u64;
    let tps = after("tps =");
    // Per-transaction log lines: client, transaction, latency (us), script, epoch, us.
    let mut lat: Vec<f64> = Vec::new();
    for f in std::fs::read_dir(&dir).unwrap().flatten() {
        let text = std::fs::read_to_string(f.path()).unwrap_or_default();
        lat.extend(text.lines().filter_map(|l| {
            l.split_whitespace()
                .nth(2)?
                .parse::<f64>()
                .ok()
                .map(|us| us / 1e3)
        }));
    }
    lat.sort_by(f64::total_cmp);
    let pct = |p: f64| {
        lat.get(((lat.len() as f64 * p) as usize).min(lat.len().saturating_sub(1)))
            .copied()
            .unwrap_or(0.0)
    };
    Run {
        transactions,
        tps,
        mean_ms: lat.iter().sum::<f64>() / lat.len().max(1) as f64,
        p50_ms: pct(0.5),
        p99_ms: pct(0.99),
    }
}

/// A record of a pgbench run.
pub fn record(workload: &str, case: &str, system: &str, r: &Run) -> Record {
    let mut rec = Record::new(workload, case, system);
    rec.median_ms = Some(r.p50_ms);
    rec.tps = Some(r.tps);
    rec.p99_ms = Some(r.p99_ms);
    rec.rows = Some(r.transactions);
    rec.reps = 1;
    rec.note = Some(format!("mean {:.3} ms", r.mean_ms));
    rec
}

pub fn steps(cfg: &Config) -> Vec<Step> {
    let rows = cfg.pick(1_000u64, 100_000);
    let secs = cfg.pick(1u32, 15);
    let mut steps = vec![step(
        "pgbench",
        format!("tables of {rows} rows"),
        move |ctx: &mut Ctx| {
            let rb64 = ctx.db.has_rb64;
            ctx.db.exec(&format!(
            "DROP TABLE IF EXISTS pb_a, pb_r, pb_p; DROP SEQUENCE IF EXISTS pb_seq;
             CREATE SEQUENCE pb_seq;
             CREATE TABLE pb_a AS SELECT g AS id,
                ARRAY(SELECT hashint8(g * 1000 + j) & 1099511627775 FROM generate_series(1, 100) j) AS a
                FROM generate_series(1::int8, {rows}) g;
             CREATE TABLE pb_r AS SELECT id, rb_build(a) AS r FROM pb_a;
             ALTER TABLE pb_a ADD PRIMARY KEY (id); ALTER TABLE pb_r ADD PRIMARY KEY (id);
             {}",
            if rb64 {
                "CREATE TABLE pb_p AS SELECT id, rb64_build(a) AS p FROM pb_a;
                 ALTER TABLE pb_p ADD PRIMARY KEY (id);"
            } else {
                ""
            }
        ));
            ctx.db.vacuum(if rb64 {
                &["pb_a", "pb_r", "pb_p"]
            } else {
                &["pb_a", "pb_r"]
            });
        },
    )];
    for workload in ["add", "member", "and_card", "or_agg100"] {
        for clients in [1u32, 8] {
            steps.push(step(
                "pgbench",
                format!("{workload}, {clients} clients"),
                move |ctx: &mut Ctx| {
                    let mut recs = Vec::new();
                    for system in ctx.present(&[R64, RB64, ARR]) {
                        let script = ctx
                            .cfg
                            .root
                            .join(format!("benches/pgbench/{workload}.{}.sql", script_name(system)));
                        let total = |ctx: &mut Ctx| -> i64 {
                            let sql = match system {
                                R64 => "SELECT sum(rb_cardinality(r))::int8 FROM pb_r",
                                RB64 => "SELECT sum(rb64_cardinality(p))::int8 FROM pb_p",
                                _ => "SELECT sum(cardinality(a))::int8 FROM pb_a",
                            };
                            ctx.db.i64(sql)
                        };
                        let before = (workload == "add").then(|| total(ctx));
                        let r = run(ctx, &script, clients, secs, &[("rows", rows.to_string())]);
                        if let Some(before) = before {
                            let grown = total(ctx) - before;
                            if grown != r.transactions as i64 {
                                ctx.fail(format!(
                                    "pgbench add on {system} at {clients} clients: {} transactions added {grown} elements",
                                    r.transactions
                                ));
                            }
                        }
                        recs.push(record(
                            &format!("pgbench/{workload}"),
                            &format!("{clients} clients"),
                            system,
                            &r,
                        ));
                    }
                    ctx.add(recs);
                },
            ));
        }
    }
    steps
}
