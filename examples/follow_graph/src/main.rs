//! Generates a follow graph, loads it as roaring64 sets and as an edge table, and
//! answers the example questions for a few users. See README.md.
//!
//!   cargo run --release -p follow_graph -- [--users N] [--shape default|bluesky] [--host H] [--port P] [--dbname D]
//!       [--firehose SECS [--rate N] [--flush-ms MS] [--readers N]]
//!   cargo run --release -p follow_graph -- --help

use std::time::Instant;

use clap::Parser;
use follow_graph::firehose::{self, Plan};
use follow_graph::{
    generate_shaped, load_edges, load_users, rank_following, script, statement, Shape, QUESTIONS,
};
use postgres::{Client, NoTls};

/// Generates a follow graph, loads it as roaring64 sets and as an edge table, and
/// answers the example questions for a few users.
#[derive(Parser)]
#[command(name = "follow_graph")]
struct Args {
    /// users in the generated graph
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u32).range(1..))]
    users: u32,
    /// the graph's shape: `default` (about 30 follows per user) or `bluesky` (tuned so
    /// that 5,500,000 users have 164M follows and a largest follower set near 876k)
    #[arg(long, default_value = "default", value_parser = ["default", "bluesky"])]
    shape: String,
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    #[arg(long, default_value_t = 15432)]
    port: u16,
    /// a database the example may fill (it creates its tables there)
    #[arg(long, default_value = "postgres")]
    dbname: String,
    /// then run the firehose for this many seconds: a stream of follow events applied
    /// in batches while the questions run (after as long, at most 30 s, of the
    /// questions alone); 0: no firehose
    #[arg(long, default_value_t = 0)]
    firehose: u32,
    /// events per second the firehose offers
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..))]
    rate: u32,
    /// milliseconds of events in each batch
    #[arg(long, default_value_t = 1_000, value_parser = clap::value_parser!(u64).range(1..))]
    flush_ms: u64,
    /// connections asking the questions during the firehose
    #[arg(long, default_value_t = 8)]
    readers: u32,
    /// questions per second they ask in all, at a fixed rate
    #[arg(long, default_value_t = 800, value_parser = clap::value_parser!(u32).range(1..))]
    questions_per_s: u32,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let users = args.users;
    let conn = format!(
        "host={} port={} user=postgres dbname={}",
        args.host, args.port, args.dbname
    );
    let mut c = Client::connect(&conn, NoTls)?;
    c.batch_execute("CREATE EXTENSION IF NOT EXISTS sroar_pg")?;

    let start = Instant::now();
    let g = generate_shaped(users, Shape::named(&args.shape).expect("a known shape"));
    println!(
        "generated {} users, {} follows in {:.1} s",
        g.users(),
        g.edges(),
        start.elapsed().as_secs_f64()
    );
    let sets = load_users(&mut c, &g)?;
    rank_following(&mut c, users)?;
    let edges = load_edges(&mut c, &g)?;
    let size = |c: &mut Client, t: &str| -> Result<i64, postgres::Error> {
        Ok(
            c.query_one(&format!("SELECT pg_total_relation_size('{t}')"), &[])?
                .get(0),
        )
    };
    println!(
        "users (roaring64): loaded in {:.1} s, {} MB on disk",
        sets.elapsed.as_secs_f64(),
        size(&mut c, "users")? >> 20
    );
    println!(
        "follows (edge table with 2 indexes): loaded in {:.1} s, {} MB on disk",
        edges.elapsed.as_secs_f64(),
        size(&mut c, "follows")? >> 20
    );
    for (a, b) in [(2i64, 1i64), (1000, 7), (i64::from(users / 2), 3)] {
        println!("A = {a}, B = {b}:");
        for name in QUESTIONS {
            let r = &statement(script(name, "roaring64").expect("a script"));
            let e = &statement(script(name, "edges").expect("a script"));
            let params: Vec<&(dyn postgres::types::ToSql + Sync)> = if r.contains("$2") {
                vec![&a, &b]
            } else {
                vec![&a]
            };
            let t = Instant::now();
            let x = c.query_one(r, &params)?;
            let tr = t.elapsed();
            let t = Instant::now();
            let y = c.query_one(e, &params)?;
            let te = t.elapsed();
            let show = |row: &postgres::Row| -> String {
                row.try_get::<_, i64>(0)
                    .map(|v| v.to_string())
                    .or_else(|_| {
                        row.try_get::<_, Option<Vec<i64>>>(0)
                            .map(|v| format!("{} ids", v.map_or(0, |v| v.len())))
                    })
                    .unwrap_or_else(|_| "?".into())
            };
            println!(
                "  {name:<17} roaring64 {:>12} in {:>8.3} ms   edges {:>12} in {:>8.3} ms",
                show(&x),
                tr.as_secs_f64() * 1e3,
                show(&y),
                te.as_secs_f64() * 1e3
            );
        }
    }
    if args.firehose > 0 {
        let plan = Plan {
            conn: conn.clone(),
            users,
            rate: args.rate,
            flush: std::time::Duration::from_millis(args.flush_ms),
            idle_secs: args.firehose.min(30),
            secs: args.firehose,
            readers: args.readers,
            questions_per_s: args.questions_per_s,
            edges: true,
        };
        println!(
            "firehose: {} questions/s on {} connections, alone for {} s, then for {} s with {} events/s in batches of {} ms",
            plan.questions_per_s, plan.readers, plan.idle_secs, plan.secs, plan.rate, args.flush_ms
        );
        let r = firehose::run(&plan)?;
        println!(
            "  {} events, {:.0} per second; {} batches of {:.1} ms each; the longest wait {:.2} s",
            r.events,
            r.events_per_s,
            r.batches,
            r.batch_ms,
            r.max_lag.as_secs_f64()
        );
        println!(
            "  WAL per event: users {:.0} bytes, follows {:.0} bytes",
            r.wal_per_event,
            r.edges_wal_per_event.unwrap_or(f64::NAN)
        );
        let mb = |b: i64| b >> 20;
        println!(
            "  users: {} MB before, {} MB half-way, {} MB at the end",
            mb(r.users_bytes[0]),
            mb(r.users_bytes[1]),
            mb(r.users_bytes[2])
        );
        for (q, [p50, p99, lp50, lp99]) in &r.questions {
            println!(
                "  {q:<17} p50 {p50:.3} ms, p99 {p99:.3} ms alone; p50 {lp50:.3} ms, p99 {lp99:.3} ms with the firehose"
            );
        }
        let differing = r.differing.unwrap_or(0);
        println!("  users whose sets differ from the edge table's: {differing}");
        if differing != 0 {
            return Err("the two representations disagree after the firehose".into());
        }
    }
    Ok(())
}
