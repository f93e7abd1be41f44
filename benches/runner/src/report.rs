//! What a run prints and writes: a line per finished workload, Markdown tables per
//! workload with ratios, a summary per group, and an SVG chart of the summary.
//!
//! A ratio compares another system with roaring64 so that above 1 means roaring64
//! is better: its time over roaring64's, its bytes over roaring64's, roaring64's
//! transactions per second over its own (at a fixed rate: its p99 over roaring64's),
//! or its row estimate's q-error over roaring64's.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::db::Db;
use crate::measure::Record;

/// Cells whose roaring64 time is below this are too short to compare (ms).
pub const MIN_MS: f64 = 0.05;

/// The reference of a workload's records: roaring64's, else the first one.
fn reference(recs: &[&Record]) -> usize {
    recs.iter()
        .position(|r| r.system == "roaring64")
        .unwrap_or(0)
}

/// How a record is best shown and compared.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Time,
    Bytes,
    Tps,
    /// pgbench at a fixed rate.
    Rate,
    Estimate,
}

fn kind(r: &Record) -> Kind {
    if r.estimate.is_some() {
        Kind::Estimate
    } else if r.rate.is_some() {
        Kind::Rate
    } else if r.tps.is_some() {
        Kind::Tps
    } else if r.median_ms.is_some() || r.min_ms.is_some() {
        Kind::Time
    } else {
        Kind::Bytes
    }
}

/// `other` against the reference, above 1 when roaring64 is better.
fn ratio(reference: &Record, other: &Record) -> Option<f64> {
    match kind(reference) {
        Kind::Time => {
            // A statement that timed out counts with its lower bound.
            let (a, b) = (reference.median_ms?, other.median_ms.or(other.min_ms)?);
            (a > 0.0).then(|| b / a)
        }
        Kind::Bytes => Some(other.bytes? as f64 / reference.bytes? as f64),
        Kind::Tps => Some(reference.tps? / other.tps?),
        Kind::Rate => Some(other.p99_ms? / reference.p99_ms?),
        Kind::Estimate => Some(other.q_error()? / reference.q_error()?),
    }
}

fn value(r: &Record) -> String {
    match kind(r) {
        Kind::Time if r.median_ms.is_none() => {
            format!("> {:.0} s", r.min_ms.unwrap_or(0.0) / 1e3)
        }
        Kind::Time => {
            let mut s = format!("{:.3} ms", r.median_ms.unwrap_or(0.0));
            if r.reps > 1 {
                let _ = write!(s, " ±{:.2}", r.spread_ms.unwrap_or(0.0) / 2.0);
            }
            if let (Some(rows), Some(ms)) = (r.rows, r.median_ms) {
                if r.workload.starts_with("ingest/") && ms > 0.0 {
                    let _ = write!(s, ", {:.0} rows/s", rows as f64 / ms * 1e3);
                    if let Some(b) = r.bytes.filter(|_| r.workload.contains("copy")) {
                        let _ = write!(s, ", {:.0} MB/s", b as f64 / ms / 1e3);
                    }
                }
            }
            if r.bytes.is_some() && !r.workload.starts_with("ingest/") {
                let _ = write!(s, ", {}", bytes(r.bytes.unwrap_or(0)));
            }
            s
        }
        Kind::Bytes => bytes(r.bytes.unwrap_or(0)),
        Kind::Estimate => format!(
            "{:.0} rows for {} (q-error {:.2})",
            r.estimate.unwrap_or(0.0),
            r.rows.unwrap_or(0),
            r.q_error().unwrap_or(f64::NAN)
        ),
        Kind::Tps | Kind::Rate => {
            let mut s = format!(
                "{:.0} tps, p50 {:.2} ms, p99 {:.2} ms",
                r.tps.unwrap_or(0.0),
                r.median_ms.unwrap_or(0.0),
                r.p99_ms.unwrap_or(0.0)
            );
            // A pgbench record's bytes are the WAL each transaction wrote.
            if let Some(b) = r.bytes {
                let _ = write!(s, ", {} WAL", bytes(b));
            }
            s
        }
    }
}

fn bytes(b: u64) -> String {
    if b >= 10 << 20 {
        format!("{:.1} MB", b as f64 / (1 << 20) as f64)
    } else if b >= 10 << 10 {
        format!("{:.1} kB", b as f64 / 1024.0)
    } else {
        format!("{b} B")
    }
}

/// One line for the records of one workload and case.
pub fn line(recs: &[Record]) -> Option<String> {
    let first = recs.first()?;
    let refs: Vec<&Record> = recs.iter().collect();
    let ri = reference(&refs);
    let parts: Vec<String> = recs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut s = format!("{} {}", r.system, value(r));
            if i != ri {
                if let Some(x) = ratio(&recs[ri], r) {
                    let _ = write!(s, " ({x:.2}x)");
                }
            }
            s
        })
        .collect();
    Some(format!(
        "{} [{}]: {}",
        first.workload,
        first.case,
        parts.join(" | ")
    ))
}

/// A workload's records, by case: (case, the records of each system).
type Cases<'a> = Vec<(String, Vec<&'a Record>)>;

/// Records grouped by workload, then by case, in the order they came.
fn by_workload(records: &[Record]) -> Vec<(String, Cases<'_>)> {
    let mut out: Vec<(String, Cases<'_>)> = Vec::new();
    for r in records {
        let w = match out.iter_mut().find(|(w, _)| *w == r.workload) {
            Some(w) => w,
            None => {
                out.push((r.workload.clone(), Vec::new()));
                out.last_mut().unwrap()
            }
        };
        match w.1.iter_mut().find(|(c, _)| *c == r.case) {
            Some(c) => c.1.push(r),
            None => w.1.push((r.case.clone(), vec![r])),
        }
    }
    out
}

fn geomean(xs: &[f64]) -> f64 {
    (xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len().max(1) as f64).exp()
}

/// Per group and other system: geometric mean of the ratios, the worst ratio and
/// where it was, and the number of cells compared.
pub struct Summary {
    pub group: String,
    pub system: String,
    pub geomean: f64,
    pub worst: f64,
    pub worst_at: String,
    pub cells: usize,
}

pub fn summary(records: &[Record]) -> Vec<Summary> {
    let mut acc: BTreeMap<(usize, String, String), Vec<(f64, String)>> = BTreeMap::new();
    for (w, cases) in by_workload(records) {
        let group = w.split('/').next().unwrap_or("").to_owned();
        let order = crate::workloads::GROUPS
            .iter()
            .position(|g| *g == group)
            .unwrap_or(usize::MAX);
        for (case, recs) in cases {
            let ri = reference(&recs);
            for (i, r) in recs.iter().enumerate() {
                if i == ri {
                    continue;
                }
                let short =
                    kind(recs[ri]) == Kind::Time && recs[ri].median_ms.unwrap_or(0.0) < MIN_MS;
                if let Some(x) = ratio(recs[ri], r).filter(|_| !short) {
                    // Compare like with like: the int8[] family and the
                    // roaringbitmap64 family, whatever the access path.
                    let family = if r.system.starts_with("int8[]") {
                        "int8[]"
                    } else if r.system.starts_with("roaringbitmap64") {
                        "roaringbitmap64"
                    } else {
                        r.system.as_str()
                    };
                    acc.entry((order, group.clone(), family.to_owned()))
                        .or_default()
                        .push((x, format!("{w} [{case}]")));
                }
            }
        }
    }
    acc.into_iter()
        .map(|((_, group, system), xs)| {
            let (worst, worst_at) = xs
                .iter()
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .cloned()
                .unwrap_or((0.0, String::new()));
            Summary {
                group,
                system,
                geomean: geomean(&xs.iter().map(|x| x.0).collect::<Vec<_>>()),
                worst,
                worst_at,
                cells: xs.len(),
            }
        })
        .collect()
}

/// Facts about the machine and the software measured.
pub fn machine(db: &mut Db) -> serde_json::Value {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("model name"))
                .map(|l| l.trim_start_matches([' ', '\t', ':']).to_owned())
        })
        .unwrap_or_default();
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let pg: String = db.client.query_one("SELECT version()", &[]).unwrap().get(0);
    let sroar: String = db
        .client
        .query_one("SELECT sroar_version()", &[])
        .unwrap()
        .get(0);
    let rb64: Option<String> = db
        .client
        .query_opt(
            "SELECT extversion FROM pg_extension WHERE extname = 'roaringbitmap'",
            &[],
        )
        .ok()
        .flatten()
        .map(|r| r.get(0));
    serde_json::json!({
        "cpu": cpu,
        "cores": cores,
        "postgresql": pg,
        "sroar_pg": sroar,
        "pg_roaringbitmap": rb64,
    })
}

/// The Markdown report: the summary, then one table per workload.
pub fn tables(
    records: &[Record],
    machine: &serde_json::Value,
    smoke: bool,
    elapsed: f64,
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Run: `bash scripts/bench.sh{}` ({:.0} s). Machine: {}, {} cores; {}; {}; pg_roaringbitmap {}.\n",
        if smoke { " --smoke" } else { "" },
        elapsed,
        machine["cpu"].as_str().unwrap_or("?"),
        machine["cores"],
        machine["postgresql"].as_str().unwrap_or("?").split(" on ").next().unwrap_or("?"),
        machine["sroar_pg"].as_str().unwrap_or("?"),
        machine["pg_roaringbitmap"].as_str().unwrap_or("not installed"),
    );
    let _ = writeln!(
        out,
        "Ratios: the other system's time (or bytes) over roaring64's, roaring64's \
         TPS over its own (at a fixed rate, \"at N a second\": its p99 over roaring64's), \
         or its row estimate's q-error over roaring64's: above 1 \
         means roaring64 is faster, smaller or better estimated. The summary leaves \
         out cells where roaring64 takes under {MIN_MS} ms.\n"
    );
    let _ = writeln!(out, "### Summary\n");
    let _ = writeln!(
        out,
        "| group | against | geometric mean | worst | worst at | cells |"
    );
    let _ = writeln!(out, "|---|---|---:|---:|---|---:|");
    for s in summary(records) {
        let _ = writeln!(
            out,
            "| {} | {} | {:.2}x | {:.2}x | {} | {} |",
            s.group, s.system, s.geomean, s.worst, s.worst_at, s.cells
        );
    }
    for (w, cases) in by_workload(records) {
        let mut systems: Vec<&str> = Vec::new();
        for (_, recs) in &cases {
            for r in recs {
                if !systems.contains(&r.system.as_str()) {
                    systems.push(&r.system);
                }
            }
        }
        let _ = writeln!(out, "\n#### {w}\n");
        let _ = write!(out, "| case |");
        for s in &systems {
            let _ = write!(out, " {s} |");
        }
        let _ = writeln!(out);
        let _ = writeln!(out, "|---|{}", "---:|".repeat(systems.len()));
        for (case, recs) in &cases {
            let ri = reference(recs);
            let _ = write!(out, "| {case} |");
            for s in &systems {
                match recs.iter().position(|r| r.system == *s) {
                    Some(i) => {
                        let mut cell = value(recs[i]);
                        if i != ri {
                            if let Some(x) = ratio(recs[ri], recs[i]) {
                                let _ = write!(cell, " ({x:.2}x)");
                            }
                        }
                        if let Some(n) = &recs[i].note {
                            // A closed-loop pgbench record's note is its mean latency.
                            if kind(recs[i]) != Kind::Tps {
                                let _ = write!(cell, "; {n}");
                            }
                        }
                        let _ = write!(out, " {cell} |");
                    }
                    None => {
                        let _ = write!(out, " |");
                    }
                }
            }
            let _ = writeln!(out);
        }
    }
    out
}

/// A horizontal bar chart of the summary: per group, roaring64's advantage over
/// pg_roaringbitmap and over int8[] (geometric means, log scale).
pub fn chart(records: &[Record]) -> String {
    let rows: Vec<Summary> = summary(records)
        .into_iter()
        .filter(|s| s.system == "roaringbitmap64" || s.system == "int8[]")
        .collect();
    let (left, width, bar, gap) = (170.0, 560.0, 14.0, 10.0);
    let height = 60.0 + rows.len() as f64 * (bar + 4.0) + gap * 12.0;
    let max = rows
        .iter()
        .map(|s| s.geomean)
        .fold(10.0f64, f64::max)
        .log10()
        .ceil();
    let min = rows
        .iter()
        .map(|s| s.geomean)
        .fold(1.0f64, f64::min)
        .log10()
        .floor()
        .min(0.0);
    let x = |v: f64| left + (v.log10() - min) / (max - min) * width;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{height}" font-family="sans-serif" font-size="12">"#,
        left + width + 90.0
    );
    let _ = writeln!(
        svg,
        r#"<text x="10" y="20" font-size="14" font-weight="bold">roaring64's advantage per workload group (geometric mean; right of 1x: roaring64 is faster or smaller)</text>"#
    );
    let mut y = 40.0;
    for p in (min as i32)..=(max as i32) {
        let v = 10f64.powi(p);
        let _ = writeln!(
            svg,
            r##"<line x1="{0}" y1="35" x2="{0}" y2="{1}" stroke="{2}"/><text x="{0}" y="{3}" text-anchor="middle">{4}x</text>"##,
            x(v),
            height - 25.0,
            if p == 0 { "#000" } else { "#ccc" },
            height - 10.0,
            v
        );
    }
    let mut last_group = String::new();
    for s in &rows {
        if s.group != last_group {
            y += gap;
            let _ = writeln!(
                svg,
                r#"<text x="10" y="{}" font-weight="bold">{}</text>"#,
                y + bar - 3.0,
                s.group
            );
            last_group = s.group.clone();
        }
        let color = if s.system == "int8[]" {
            "#e08e45"
        } else {
            "#4a7ab5"
        };
        let (a, b) = (x(1.0), x(s.geomean));
        let _ = writeln!(
            svg,
            r#"<rect x="{}" y="{y}" width="{}" height="{bar}" fill="{color}"/><text x="{}" y="{}" >{} {:.2}x</text>"#,
            a.min(b),
            (b - a).abs().max(1.0),
            a.max(b) + 4.0,
            y + bar - 3.0,
            if s.system == "int8[]" {
                "vs int8[]"
            } else {
                "vs pg_roaringbitmap"
            },
            s.geomean
        );
        y += bar + 4.0;
    }
    let _ = writeln!(svg, "</svg>");
    svg
}
