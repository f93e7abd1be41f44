//! Side-by-side measurement: every system's form of a workload runs in the same
//! session, after one warm-up each, interleaved (A B C A B C ...), and the results
//! are kept as one record per system.

use serde::{Deserialize, Serialize};

use crate::db::Db;

/// The systems compared.
pub const R64: &str = "roaring64";
pub const RB64: &str = "roaringbitmap64";
pub const ARR: &str = "int8[]";
pub const EDGES: &str = "edge table";

/// One measurement of one system on one workload and case.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Record {
    /// "group/workload", e.g. "aggregates/rb_or_agg".
    pub workload: String,
    /// The data it ran on, e.g. "census1881" or "8 clients".
    pub case: String,
    pub system: String,
    pub median_ms: Option<f64>,
    pub min_ms: Option<f64>,
    pub max_ms: Option<f64>,
    /// max - min over the repetitions.
    pub spread_ms: Option<f64>,
    pub reps: u32,
    /// Rows the workload reads or writes, where it has a meaning.
    pub rows: Option<u64>,
    /// Bytes: stored size, index size, data sent, or peak memory growth.
    pub bytes: Option<u64>,
    /// pgbench: transactions per second, mean and 99th-percentile latency.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tps: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p99_ms: Option<f64>,
    /// pgbench at a fixed rate (transactions a second offered): its TPS is the rate,
    /// so it compares by p99.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rate: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The planner's row estimate, against `rows` returned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimate: Option<f64>,
}

impl Record {
    pub fn new(workload: &str, case: &str, system: &str) -> Record {
        Record {
            workload: workload.to_owned(),
            case: case.to_owned(),
            system: system.to_owned(),
            median_ms: None,
            min_ms: None,
            max_ms: None,
            spread_ms: None,
            reps: 0,
            rows: None,
            bytes: None,
            tps: None,
            p99_ms: None,
            rate: None,
            note: None,
            estimate: None,
        }
    }

    /// A record of timings (ms).
    pub fn timed(workload: &str, case: &str, system: &str, samples: &[f64]) -> Record {
        let mut r = Record::new(workload, case, system);
        if !samples.is_empty() {
            let mut s = samples.to_vec();
            s.sort_by(f64::total_cmp);
            let median = if s.len() % 2 == 1 {
                s[s.len() / 2]
            } else {
                (s[s.len() / 2 - 1] + s[s.len() / 2]) / 2.0
            };
            r.median_ms = Some(median);
            r.min_ms = Some(s[0]);
            r.max_ms = Some(s[s.len() - 1]);
            r.spread_ms = Some(s[s.len() - 1] - s[0]);
            r.reps = s.len() as u32;
        }
        r
    }

    /// A statement stopped by the statement timeout: it takes more than that,
    /// which is kept as `min_ms` (a lower bound), with no median.
    pub fn timed_out(workload: &str, case: &str, system: &str) -> Record {
        let mut r = Record::new(workload, case, system);
        r.min_ms = Some(f64::from(crate::db::TIMEOUT_S) * 1e3);
        r.note = Some(format!(
            "over {} s (statement timeout)",
            crate::db::TIMEOUT_S
        ));
        r
    }

    pub fn bytes(mut self, bytes: u64) -> Record {
        self.bytes = Some(bytes);
        self
    }

    pub fn rows(mut self, rows: u64) -> Record {
        self.rows = Some(rows);
        self
    }

    /// How far the row estimate is from the rows returned: the larger of the two
    /// over the smaller (an empty result counts as one row).
    pub fn q_error(&self) -> Option<f64> {
        let (e, a) = (self.estimate?.max(1.0), self.rows?.max(1) as f64);
        Some((e / a).max(a / e))
    }
}

/// One system's statement for a workload (timed server-side by EXPLAIN ANALYZE).
pub struct Variant {
    pub system: &'static str,
    pub sql: String,
}

pub fn v(system: &'static str, sql: impl Into<String>) -> Variant {
    Variant {
        system,
        sql: sql.into(),
    }
}

/// The order of `n` systems in round `round`: each round starts one system later,
/// so that no system always runs right after the same one. A baseline that leaves
/// the backend's memory and caches churned (a large hash aggregate) slowed whatever
/// ran next: rb_and_agg on dimension_008 took 1.3 ms right after it and 0.4 ms
/// otherwise, in either system.
fn rotated(n: usize, round: u32) -> impl Iterator<Item = usize> {
    let start = round as usize % n.max(1);
    (0..n).map(move |k| (start + k) % n)
}

/// Whether a statement of `own_ms` runs once unmeasured before it is timed right
/// after one of `prev_ms`. A statement much slower than the next (the `int8[]`
/// baseline's large hash aggregates) leaves freed memory and cold caches that the
/// next one pays for: 0.1-0.9 ms, measured by hand on rb_and_agg, which turned
/// 0.07 ms cells into 0.5x whichever system came second.
pub fn settles_first(prev_ms: f64, own_ms: f64) -> bool {
    prev_ms > 4.0 * own_ms && prev_ms > 1.0
}

/// Runs `variants` interleaved: a warm-up of each, then `reps` rounds in which each
/// runs once, in an order that rotates from round to round. A slow variant runs
/// fewer times, so that a slow baseline does not dominate the run: over 1 s, its
/// warm-up is its one sample; over 0.25 s, it runs in two rounds. Its record says how many samples it has. A variant right after a
/// much slower one first runs once unmeasured ([`settles_first`]).
pub fn interleaved(
    db: &mut Db,
    workload: &str,
    case: &str,
    setup: &str,
    variants: &[Variant],
    reps: u32,
) -> Vec<Record> {
    if !setup.is_empty() {
        db.exec(setup);
    }
    let warm: Vec<Option<f64>> = variants.iter().map(|x| db.execution_ms(&x.sql)).collect();
    let limit: Vec<u32> = warm
        .iter()
        .map(|ms| match ms {
            None => 0,
            Some(ms) if *ms > 1000.0 => 0,
            Some(ms) if *ms > 250.0 => reps.min(2),
            Some(_) => reps,
        })
        .collect();
    let mut samples: Vec<Vec<f64>> = warm
        .iter()
        .zip(&limit)
        .map(|(ms, &l)| match ms {
            Some(ms) if l == 0 => vec![*ms],
            _ => Vec::new(),
        })
        .collect();
    let mut last_ms = warm.last().copied().flatten();
    for round in 0..reps {
        for i in rotated(variants.len(), round) {
            if round < limit[i] {
                if let (Some(prev), Some(own)) = (last_ms, warm[i]) {
                    if settles_first(prev, own) {
                        db.execution_ms(&variants[i].sql);
                    }
                }
                last_ms = db.execution_ms(&variants[i].sql);
                if let Some(ms) = last_ms {
                    samples[i].push(ms);
                }
            }
        }
    }
    if !setup.is_empty() {
        db.exec("RESET ALL");
    }
    variants
        .iter()
        .zip(&samples)
        .zip(&warm)
        .map(|((x, s), w)| match w {
            Some(_) => Record::timed(workload, case, x.system, s),
            None => Record::timed_out(workload, case, x.system),
        })
        .collect()
}

/// Runs `f` (a timed action, in ms) `reps` times for each system, interleaved,
/// after no warm-up (for statements that change state: DDL, COPY).
pub fn interleaved_with(
    workload: &str,
    case: &str,
    systems: &[&'static str],
    reps: u32,
    mut f: impl FnMut(&'static str) -> f64,
) -> Vec<Record> {
    let mut samples = vec![Vec::new(); systems.len()];
    for round in 0..reps {
        for i in rotated(systems.len(), round) {
            samples[i].push(f(systems[i]));
        }
    }
    systems
        .iter()
        .zip(&samples)
        .map(|(&s, x)| Record::timed(workload, case, s, x))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{rotated, settles_first};

    #[test]
    fn only_a_fast_statement_after_a_much_slower_one_settles_first() {
        assert!(settles_first(40.0, 0.07));
        assert!(settles_first(4.1, 1.0));
        assert!(!settles_first(4.0, 1.0));
        assert!(
            !settles_first(0.9, 0.01),
            "both under 1 ms: nothing to settle"
        );
        assert!(!settles_first(1.0, 40.0));
    }

    #[test]
    fn each_round_runs_every_system_once_and_the_first_one_rotates() {
        for n in 1..5 {
            for round in 0..7u32 {
                let mut order: Vec<usize> = rotated(n, round).collect();
                assert_eq!(order[0], round as usize % n);
                order.sort_unstable();
                assert_eq!(order, (0..n).collect::<Vec<_>>());
            }
        }
        // Three systems: whoever follows the last one changes every round.
        let follows_last: Vec<usize> = (0..3u32).map(|r| rotated(3, r).next().unwrap()).collect();
        assert_eq!(follows_last, [0, 1, 2]);
    }
}
