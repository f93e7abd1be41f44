//! Generates a follow graph, loads it as roaring64 sets and as an edge table, and
//! answers the example questions for a few users. See README.md.
//!
//!   cargo run --release -p follow_graph -- [--users N] [--host H] [--port P] [--dbname D]
//!   cargo run --release -p follow_graph -- --help

use std::time::Instant;

use clap::Parser;
use follow_graph::{generate, load_edges, load_users, script, statement, QUESTIONS};
use postgres::{Client, NoTls};

/// Generates a follow graph, loads it as roaring64 sets and as an edge table, and
/// answers the example questions for a few users.
#[derive(Parser)]
#[command(name = "follow_graph")]
struct Args {
    /// users in the generated graph
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u32).range(1..))]
    users: u32,
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    #[arg(long, default_value_t = 15432)]
    port: u16,
    /// a database the example may fill (it creates its tables there)
    #[arg(long, default_value = "postgres")]
    dbname: String,
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
    let g = generate(users);
    println!(
        "generated {} users, {} follows in {:.1} s",
        g.users(),
        g.edges(),
        start.elapsed().as_secs_f64()
    );
    let sets = load_users(&mut c, &g)?;
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
    Ok(())
}
