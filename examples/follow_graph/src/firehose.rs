//! A live follow graph: a deterministic stream of follow and unfollow events with a
//! social network's shape, applied in batches to both representations while the
//! feed questions run. See README.md, "The firehose".

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use postgres::{Client, NoTls};

use crate::{script, splitmix, statement, target, uniform};

/// One event of the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    pub actor: u32,
    pub target: u32,
    /// A follow, or (false) an unfollow.
    pub follow: bool,
}

/// Follows kept to draw unfollows from: an unfollow undoes one of the recent follows,
/// as most unfollows on a real network do.
const RECENT: usize = 1 << 16;

/// The stream: actors uniform over the users, targets drawn by popularity (the
/// graph's own target distribution, so the most followed sets are touched every
/// second), and about one unfollow per ten follows.
pub struct Firehose {
    users: u32,
    state: u64,
    recent: Vec<(u32, u32)>,
}

impl Firehose {
    /// The stream over `users` users (at least 2), from `seed`.
    pub fn new(users: u32, seed: u64) -> Self {
        Firehose {
            users,
            state: 0xf12e_4053_0000_0000 ^ seed,
            recent: Vec::new(),
        }
    }
}

impl Iterator for Firehose {
    type Item = Event;

    fn next(&mut self) -> Option<Event> {
        if self.users < 2 {
            return None;
        }
        if !self.recent.is_empty() && uniform(&mut self.state) < 1.0 / 11.0 {
            let i = (splitmix(&mut self.state) % self.recent.len() as u64) as usize;
            let (actor, target) = self.recent.swap_remove(i);
            return Some(Event {
                actor,
                target,
                follow: false,
            });
        }
        let actor = 1 + (splitmix(&mut self.state) % u64::from(self.users)) as u32;
        let mut t = target(&mut self.state, self.users);
        if t == actor {
            t = t % self.users + 1;
        }
        if self.recent.len() < RECENT {
            self.recent.push((actor, t));
        } else {
            let i = (splitmix(&mut self.state) % RECENT as u64) as usize;
            self.recent[i] = (actor, t);
        }
        Some(Event {
            actor,
            target: t,
            follow: true,
        })
    }
}

/// The statement that applies a batch of events to a representation (`roaring64`,
/// table `users`, or `edges`, table `follows`): firehose/apply.<representation>.sql.
pub fn apply_statement(representation: &str) -> &'static str {
    match representation {
        "roaring64" => include_str!("../firehose/apply.roaring64.sql"),
        "edges" => include_str!("../firehose/apply.edges.sql"),
        other => panic!("no firehose statement for {other}"),
    }
}

/// The storage settings of a table that takes a stream of updates.
pub const LIVE: &str = include_str!("../firehose/live.sql");

/// The number of users whose sets differ from the edge table's.
pub const DIFFER: &str = include_str!("../firehose/differ.sql");

/// Applies `events` to `representation` in one statement (one transaction).
pub fn apply(
    c: &mut Client,
    representation: &str,
    events: &[Event],
) -> Result<u64, postgres::Error> {
    let actors: Vec<i64> = events.iter().map(|e| i64::from(e.actor)).collect();
    let targets: Vec<i64> = events.iter().map(|e| i64::from(e.target)).collect();
    let follows: Vec<bool> = events.iter().map(|e| e.follow).collect();
    c.execute(
        apply_statement(representation),
        &[&actors, &targets, &follows],
    )
}

/// How to run the firehose.
#[derive(Clone, Debug)]
pub struct Plan {
    /// A libpq connection string.
    pub conn: String,
    pub users: u32,
    /// Events per second the stream offers.
    pub rate: u32,
    /// Each batch holds the events of this long.
    pub flush: Duration,
    /// Seconds of questions alone, then seconds of the firehose with them.
    pub idle_secs: u32,
    pub secs: u32,
    /// Connections asking the questions, and how many questions per second they ask
    /// in all (at a fixed rate, not as fast as they can: on a small machine, readers
    /// in a closed loop would take every core from the writer).
    pub readers: u32,
    pub questions_per_s: u32,
    /// Also apply every batch to the edge table, after the stream (for its WAL per
    /// event, and the check that both representations agree).
    pub edges: bool,
}

/// What a run measured.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub events: u64,
    /// Events applied per second of the firehose's run.
    pub events_per_s: f64,
    /// The longest an event waited, from its time in the stream to its batch's commit.
    pub max_lag: Duration,
    /// Mean time to apply a batch, and the batches.
    pub batch_ms: f64,
    pub batches: u64,
    /// WAL per event for `users` and (when applied) `follows`.
    pub wal_per_event: f64,
    pub edges_wal_per_event: Option<f64>,
    /// Per question (name, p50 and p99 in ms, idle and under the firehose).
    pub questions: Vec<(String, [f64; 4])>,
    /// Users whose sets differ from the edge table's (when it was applied).
    pub differing: Option<i64>,
    /// `users` in bytes (heap, TOAST and index) before the stream, half-way and at
    /// its end: stable when vacuum keeps up.
    pub users_bytes: [i64; 3],
}

/// The questions the readers ask, with their roaring64 statements.
const ASKED: [&str; 4] = [
    "common_count",
    "common_first_100",
    "mutual_count",
    "follower_count",
];

/// Runs the questions on `readers` connections until `stop`, each at its share of
/// the plan's rate, returning each question's latencies in ms. A latency is counted
/// from the time the question was due, so a reader that falls behind shows it.
fn ask(plan: &Plan, stop: Arc<AtomicBool>) -> Vec<thread::JoinHandle<Vec<Vec<f64>>>> {
    let every =
        Duration::from_secs_f64(f64::from(plan.readers) / f64::from(plan.questions_per_s.max(1)));
    (0..plan.readers)
        .map(|r| {
            let (conn, users, stop) = (plan.conn.clone(), plan.users, stop.clone());
            let offset = every.mul_f64(f64::from(r) / f64::from(plan.readers));
            thread::spawn(move || {
                let mut c = Client::connect(&conn, NoTls).expect("a reader connects");
                let statements: Vec<_> = ASKED
                    .iter()
                    .map(|q| {
                        let sql = statement(script(q, "roaring64").expect("a script"));
                        (
                            c.prepare(&sql).expect("a question prepares"),
                            sql.contains("$2"),
                        )
                    })
                    .collect();
                let mut state = 0xa5c0_0000_0000_0000 ^ u64::from(r);
                let mut times = vec![Vec::new(); ASKED.len()];
                // A and B among the most followed: uid 1 + users * u^3 puts them there.
                let hot = (u64::from(users) / 100).max(2);
                let mut due = Instant::now() + offset;
                let mut q = r as usize % ASKED.len();
                while !stop.load(Ordering::Relaxed) {
                    if let Some(wait) = due.checked_duration_since(Instant::now()) {
                        thread::sleep(wait);
                    }
                    let (st, two) = &statements[q];
                    let a = 1 + (splitmix(&mut state) % hot) as i64;
                    let b = 1 + (splitmix(&mut state) % hot) as i64;
                    let _ = if *two {
                        c.query(st, &[&a, &b])
                    } else {
                        c.query(st, &[&a])
                    }
                    .expect("a question runs");
                    times[q].push(due.elapsed().as_secs_f64() * 1e3);
                    due += every;
                    q = (q + 1) % ASKED.len();
                }
                times
            })
        })
        .collect()
}

fn collect(handles: Vec<thread::JoinHandle<Vec<Vec<f64>>>>) -> Vec<Vec<f64>> {
    let mut all = vec![Vec::new(); ASKED.len()];
    for h in handles {
        for (q, t) in h.join().expect("a reader finishes").into_iter().enumerate() {
            all[q].extend(t);
        }
    }
    all
}

fn percentile(samples: &mut [f64], p: f64) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    samples.sort_by(f64::total_cmp);
    samples[((samples.len() - 1) as f64 * p).round() as usize]
}

fn wal_lsn(c: &mut Client) -> Result<i64, postgres::Error> {
    Ok(
        c.query_one("SELECT (pg_current_wal_insert_lsn() - '0/0')::int8", &[])?
            .get(0),
    )
}

/// Runs the questions alone for `plan.idle_secs`, then with the firehose for
/// `plan.secs`: every `plan.flush`, the events due are applied to `users` as one
/// batch. With `plan.edges`, the edge table then takes the same batches.
pub fn run(plan: &Plan) -> Result<Report, postgres::Error> {
    let mut c = Client::connect(&plan.conn, NoTls)?;
    c.batch_execute(LIVE)?;
    // A table just loaded gets its first vacuum from autovacuum a few seconds later,
    // a pass over the whole table: run it now, so that the questions alone are timed
    // on a settled server, as a live one would be, and not under that pass.
    let tables = if plan.edges {
        "users, follows"
    } else {
        "users"
    };
    c.batch_execute(&format!("VACUUM (ANALYZE) {tables}"))?;
    // The load and that pass leave gigabytes of dirty pages at Bluesky's scale (the
    // edge table's 16.8 GB): write them out now. Otherwise the checkpoint that does
    // it writes at 160-770 MB/s through the idle window, and the questions alone are
    // timed on a server that is not settled.
    c.batch_execute("CHECKPOINT")?;
    // A live server keeps its hot table in shared buffers; one that has just loaded
    // and vacuumed a large edge table does not, and its batches then read `users`
    // back from the kernel (a third of the batch's samples in pg_stat_activity, as
    // DataFileRead). Read it in when pg_prewarm (contrib) is there.
    crate::prewarm(&mut c, "users", crate::Prewarm::Buffer)?;
    let window = Duration::from_secs(u64::from(plan.secs));
    let size = |c: &mut Client| -> Result<i64, postgres::Error> {
        Ok(c.query_one("SELECT pg_total_relation_size('users')", &[])?
            .get(0))
    };

    let stop = Arc::new(AtomicBool::new(false));
    let readers = ask(plan, stop.clone());
    thread::sleep(Duration::from_secs(u64::from(plan.idle_secs)));
    stop.store(true, Ordering::Relaxed);
    let idle = collect(readers);

    let stop = Arc::new(AtomicBool::new(false));
    let readers = ask(plan, stop.clone());
    let mut stream = Firehose::new(plan.users, 1);
    let mut report = Report::default();
    let (mut wal, mut edges_wal, mut busy) = (0i64, 0i64, Duration::ZERO);
    let mut batches: Vec<Vec<Event>> = Vec::new();
    report.users_bytes[0] = size(&mut c)?;
    let start = Instant::now();
    let mut due_at = start;
    while start.elapsed() < window {
        if report.users_bytes[1] == 0 && start.elapsed() >= window / 2 {
            report.users_bytes[1] = size(&mut c)?;
        }
        due_at += plan.flush;
        if let Some(wait) = due_at.checked_duration_since(Instant::now()) {
            thread::sleep(wait);
        }
        // The events the stream offered up to now.
        let offered = (start.elapsed().as_secs_f64() * f64::from(plan.rate)) as u64;
        let batch: Vec<Event> = stream
            .by_ref()
            .take((offered - report.events) as usize)
            .collect();
        let oldest = start + Duration::from_secs_f64(report.events as f64 / f64::from(plan.rate));
        let t = Instant::now();
        let before = wal_lsn(&mut c)?;
        apply(&mut c, "roaring64", &batch)?;
        let after = wal_lsn(&mut c)?;
        busy += t.elapsed();
        report.max_lag = report.max_lag.max(oldest.elapsed());
        wal += after - before;
        report.events += batch.len() as u64;
        report.batches += 1;
        if plan.edges {
            batches.push(batch);
        }
    }
    let elapsed = start.elapsed();
    report.users_bytes[2] = size(&mut c)?;
    stop.store(true, Ordering::Relaxed);
    let loaded = collect(readers);
    // The edge table takes the same batches afterwards, so that its work does not
    // slow the questions above, and its WAL is measured alone.
    for batch in &batches {
        let before = wal_lsn(&mut c)?;
        apply(&mut c, "edges", batch)?;
        edges_wal += wal_lsn(&mut c)? - before;
    }

    report.events_per_s = report.events as f64 / elapsed.as_secs_f64();
    report.batch_ms = busy.as_secs_f64() * 1e3 / report.batches.max(1) as f64;
    let events = report.events.max(1) as f64;
    report.wal_per_event = wal as f64 / events;
    if plan.edges {
        report.edges_wal_per_event = Some(edges_wal as f64 / events);
        report.differing = Some(c.query_one(DIFFER, &[])?.get(0));
    }
    for (q, (mut i, mut l)) in idle.into_iter().zip(loaded).enumerate() {
        let p = [
            percentile(&mut i, 0.5),
            percentile(&mut i, 0.99),
            percentile(&mut l, 0.5),
            percentile(&mut l, 0.99),
        ];
        report.questions.push((ASKED[q].to_owned(), p));
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_deterministic_and_shaped() {
        let users = 100_000;
        let events: Vec<Event> = Firehose::new(users, 7).take(110_000).collect();
        assert_eq!(
            events,
            Firehose::new(users, 7).take(110_000).collect::<Vec<_>>()
        );
        assert_ne!(
            events,
            Firehose::new(users, 8).take(110_000).collect::<Vec<_>>()
        );
        let unfollows = events.iter().filter(|e| !e.follow).count();
        // About one unfollow per ten follows.
        assert!(
            (8_000..12_000).contains(&unfollows),
            "{unfollows} unfollows"
        );
        assert!(events.iter().all(|e| e.actor != e.target
            && (1..=users).contains(&e.actor)
            && (1..=users).contains(&e.target)));
        // Targets by popularity: the most followed 1% draw a fifth of the follows.
        let follows: Vec<&Event> = events.iter().filter(|e| e.follow).collect();
        let hot = follows.iter().filter(|e| e.target <= users / 100).count();
        assert!(
            hot * 5 > follows.len(),
            "{hot} of {} to the top 1%",
            follows.len()
        );
        // Every unfollow undoes an earlier follow of the stream.
        let mut seen = std::collections::HashSet::new();
        for e in &events {
            if e.follow {
                seen.insert((e.actor, e.target));
            } else {
                assert!(seen.contains(&(e.actor, e.target)), "{e:?}");
            }
        }
    }

    #[test]
    fn both_statements_take_the_three_arrays() {
        for r in ["roaring64", "edges"] {
            let s = apply_statement(r);
            assert!(
                s.contains("$1::int8[]") && s.contains("$2::int8[]") && s.contains("$3::bool[]"),
                "{r}"
            );
        }
    }
}
