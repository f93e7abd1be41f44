//! sroar_bench: the SQL benchmark runner behind `scripts/bench.sh`.
//!
//! Every workload runs side by side in one session against the systems a user would
//! otherwise pick: roaring64 (this project), pg_roaringbitmap's roaringbitmap64 (when
//! installed) and int8[] with core operators and GIN. Timings are server-side
//! (EXPLAIN ANALYZE's execution time) for queries, wall time for loads, and pgbench's
//! own figures for concurrent runs. Results go to `<out>/results.json` (one record per
//! workload, case and system), `<out>/tables.md` and `<out>/summary.svg`.
//!
//!   sroar_bench --conn "host=127.0.0.1 port=15434 user=postgres dbname=sroar_bench"
//!               [--smoke] [--only GROUP,...] [--reps N] [--out DIR] [--publish]
//!   sroar_bench --tables-from target/bench/results.json [--out DIR]   # redraw only
//!
//! (`sroar_bench --help` says more; `scripts/bench.sh` passes its flags on.)

mod data;
mod db;
mod measure;
mod report;
mod workloads;

use std::path::PathBuf;
use std::time::Instant;

use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};

use db::Db;
use measure::Record;

/// What a run is asked to do.
pub struct Config {
    pub smoke: bool,
    /// The follow graph at Bluesky's size (`--scale bluesky`).
    pub bluesky: bool,
    pub reps: u32,
    pub root: PathBuf,
    pub out: PathBuf,
    /// pgbench and psql live here.
    pub pgbin: PathBuf,
    pub host: String,
    pub port: String,
    pub dbname: String,
}

impl Config {
    pub fn realdata(&self) -> PathBuf {
        std::env::var_os("SROAR_REALDATA")
            .map(PathBuf::from)
            .unwrap_or_else(|| self.root.join("../shared/realdata"))
    }

    /// A size for the smoke run and one for the full run.
    pub fn pick<T>(&self, smoke: T, full: T) -> T {
        if self.smoke {
            smoke
        } else {
            full
        }
    }
}

/// The state every step shares.
pub struct Ctx {
    pub cfg: Config,
    pub db: Db,
    pub records: Vec<Record>,
    pub datasets: Vec<data::Dataset>,
    /// Checks that failed (a wrong result, a lost update): the run exits non-zero.
    pub failures: Vec<String>,
    pb: ProgressBar,
}

impl Ctx {
    /// The systems present in this run, among those given.
    pub fn present<'a>(&self, systems: &[&'a str]) -> Vec<&'a str> {
        systems
            .iter()
            .copied()
            .filter(|s| *s != measure::RB64 || self.db.has_rb64)
            .collect()
    }

    /// Keeps records and prints one line for them.
    pub fn add(&mut self, records: Vec<Record>) {
        if let Some(line) = report::line(&records) {
            self.pb.suspend(|| println!("{line}"));
        }
        self.records.extend(records);
    }

    pub fn fail(&mut self, what: String) {
        self.pb.suspend(|| eprintln!("CHECK FAILED: {what}"));
        self.failures.push(what);
    }

    pub fn note(&self, what: &str) {
        self.pb.suspend(|| println!("  {what}"));
    }
}

/// One unit of work, shown in the progress display when it finishes.
pub struct Step {
    pub group: &'static str,
    pub label: String,
    pub run: Box<dyn FnOnce(&mut Ctx)>,
}

pub fn step(
    group: &'static str,
    label: impl Into<String>,
    run: impl FnOnce(&mut Ctx) + 'static,
) -> Step {
    Step {
        group,
        label: label.into(),
        run: Box::new(run),
    }
}

/// Writes `<out>/results.json` with the records so far; returns its path.
fn save(ctx: &Ctx, elapsed: f64, machine: &serde_json::Value) -> PathBuf {
    let json = serde_json::json!({
        "machine": machine,
        "smoke": ctx.cfg.smoke,
        "elapsed_s": elapsed,
        "records": ctx.records,
    });
    let path = ctx.cfg.out.join("results.json");
    std::fs::write(&path, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    path
}

/// Writes `<out>/tables.md` and `<out>/summary.svg` from a saved results.json.
fn redraw(saved: &std::path::Path, out: &std::path::Path) {
    let text = std::fs::read_to_string(saved)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", saved.display()));
    let json: serde_json::Value = serde_json::from_str(&text).expect("a results.json");
    let records: Vec<measure::Record> =
        serde_json::from_value(json["records"].clone()).expect("its records");
    let smoke = json["smoke"].as_bool().unwrap_or(false);
    let elapsed = json["elapsed_s"].as_f64().unwrap_or(0.0);
    let tables = report::tables(&records, &json["machine"], smoke, elapsed);
    std::fs::write(out.join("tables.md"), &tables).unwrap();
    std::fs::write(out.join("summary.svg"), report::chart(&records)).unwrap();
    println!(
        "wrote {} from {}",
        out.join("tables.md").display(),
        saved.display()
    );
}

/// The SQL benchmark runner behind scripts/bench.sh: roaring64 against
/// pg_roaringbitmap and int8[] on real workloads, side by side in one session.
#[derive(Parser)]
#[command(name = "sroar_bench")]
struct Args {
    /// libpq connection string of a database the run may fill
    #[arg(
        long,
        default_value = "host=127.0.0.1 port=15434 user=postgres dbname=sroar_bench"
    )]
    conn: String,
    /// every workload on small data, a few reps (minutes, not an hour)
    #[arg(long)]
    smoke: bool,
    /// only these groups, comma-separated (the datasets are loaded whatever is picked)
    #[arg(long, value_delimiter = ',', value_parser = clap::builder::PossibleValuesParser::new(workloads::GROUPS))]
    only: Option<Vec<String>>,
    /// time each query this many times [default: 5, 2 with --smoke]
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    reps: Option<u32>,
    /// results.json, tables.md and summary.svg go here [default: target/bench]
    #[arg(long)]
    out: Option<PathBuf>,
    /// where pgbench and psql live
    #[arg(long, default_value = "/usr/lib/postgresql/15/bin")]
    pgbin: PathBuf,
    /// also copy the results to benches/results/
    #[arg(long)]
    publish: bool,
    /// measure nothing: write tables.md and summary.svg again from a results.json
    /// (after a change to how they are drawn), into --out
    #[arg(long, value_name = "RESULTS_JSON")]
    tables_from: Option<PathBuf>,
    /// the follow graph's size: `default` (a million users; ten thousand with
    /// --smoke) or `bluesky` (5.5M users and 164M follows, as Bluesky's graph)
    #[arg(long, default_value = "default", value_parser = ["default", "bluesky"])]
    scale: String,
}

fn main() {
    let args = Args::parse();
    let smoke = args.smoke;
    let conn = args.conn;
    let field = |k: &str, default: &str| {
        conn.split_whitespace()
            .find_map(|kv| kv.strip_prefix(&format!("{k}=")).map(String::from))
            .unwrap_or_else(|| default.to_owned())
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let cfg = Config {
        smoke,
        bluesky: args.scale == "bluesky",
        reps: args.reps.unwrap_or(if smoke { 2 } else { 5 }),
        out: args.out.unwrap_or_else(|| root.join("target/bench")),
        pgbin: args.pgbin,
        host: field("host", "127.0.0.1"),
        port: field("port", "5432"),
        dbname: field("dbname", "postgres"),
        root: root.canonicalize().unwrap_or(root),
    };
    let only = args.only;
    std::fs::create_dir_all(&cfg.out).expect("the output directory");
    if let Some(saved) = args.tables_from {
        redraw(&saved, &cfg.out);
        return;
    }

    let db = Db::connect(&conn);
    if !db.has_rb64 {
        println!(
            "note: pg_roaringbitmap is not installed in this PostgreSQL (scripts/pg_roaringbitmap.sh \
             builds it from ../shared/vendor); its columns are skipped"
        );
    }
    let steps: Vec<Step> = workloads::plan(&cfg)
        .into_iter()
        // The datasets are loaded whatever groups were picked: most groups read them.
        .filter(|s| {
            s.group == "data" || only.as_ref().is_none_or(|o| o.iter().any(|g| g == s.group))
        })
        .collect();
    let pb = ProgressBar::new(steps.len() as u64);
    pb.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} steps, about {eta} left: {msg}",
        )
        .expect("a template")
        .progress_chars("=> "),
    );
    let mut ctx = Ctx {
        cfg,
        db,
        records: Vec::new(),
        datasets: Vec::new(),
        failures: Vec::new(),
        pb,
    };
    let started = Instant::now();
    for s in steps {
        ctx.pb.set_message(format!("{} {}", s.group, s.label));
        (s.run)(&mut ctx);
        ctx.pb.inc(1);
        // Kept as it goes, so that an interrupted run leaves what it measured.
        save(
            &ctx,
            started.elapsed().as_secs_f64(),
            &serde_json::Value::Null,
        );
    }
    ctx.pb.finish_and_clear();
    let elapsed = started.elapsed().as_secs_f64();

    let machine = report::machine(&mut ctx.db);
    let tables = report::tables(&ctx.records, &machine, ctx.cfg.smoke, elapsed);
    println!("\n{tables}");
    let results = save(&ctx, elapsed, &machine);
    std::fs::write(ctx.cfg.out.join("tables.md"), &tables).unwrap();
    std::fs::write(ctx.cfg.out.join("summary.svg"), report::chart(&ctx.records)).unwrap();
    println!(
        "wrote {} records to {} ({:.0} s)",
        ctx.records.len(),
        results.display(),
        elapsed
    );
    if args.publish {
        let dest = ctx.cfg.root.join("benches/results");
        std::fs::create_dir_all(&dest).unwrap();
        for f in ["results.json", "tables.md", "summary.svg"] {
            std::fs::copy(ctx.cfg.out.join(f), dest.join(f)).unwrap();
        }
        println!("published to {}", dest.display());
    }
    if !ctx.failures.is_empty() {
        eprintln!("{} checks failed:", ctx.failures.len());
        for f in &ctx.failures {
            eprintln!("  {f}");
        }
        std::process::exit(1);
    }
}
