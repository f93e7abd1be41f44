//! Generates a follow graph, loads it as roaring64 sets and as an edge table, and
//! answers the example questions for a few users. See README.md.
//!
//!   cargo run --release -p follow_graph -- [--users N] [--port P] [--dbname D]

use std::time::Instant;

use follow_graph::{generate, load_edges, load_users, script, statement, QUESTIONS};
use postgres::{Client, NoTls};

fn arg(args: &[String], name: &str, default: &str) -> String {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
        .unwrap_or_else(|| default.to_owned())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("usage: follow_graph [--users N (1000000)] [--host H] [--port P (15432)] [--dbname D (postgres)]");
        return Ok(());
    }
    let users: u32 = arg(&args, "--users", "1000000").parse()?;
    let conn = format!(
        "host={} port={} user=postgres dbname={}",
        arg(&args, "--host", "127.0.0.1"),
        arg(&args, "--port", "15432"),
        arg(&args, "--dbname", "postgres")
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
