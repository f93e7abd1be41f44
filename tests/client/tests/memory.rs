//! Aggregate state lives in the aggregate's memory context: a 1M-row aggregate does
//! not grow the backend beyond its state (no per-row leak), and nothing outlives the
//! statement. Peak memory is the backend's VmHWM from /proc (the test runs on the
//! server's machine, as scripts/test.sh arranges).

use postgres::Client;
use sroar_pg_client_tests::connect;

/// Peak resident memory of the backend serving `c`, in kB.
fn backend_peak_kb(c: &mut Client) -> u64 {
    let pid: i32 = c.query_one("SELECT pg_backend_pid()", &[]).unwrap().get(0);
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .expect("read the backend's /proc status (run the tests on the server's machine)");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc status")
}

/// Runs `sql` in a fresh backend and returns how much its peak memory grew.
fn peak_growth_kb(sql: &str) -> u64 {
    let mut c = connect();
    c.batch_execute("SET max_parallel_workers_per_gather = 0")
        .unwrap();
    // Warm the backend (catalogs, the library) before the baseline.
    c.batch_execute("SELECT rb_cardinality(rb_or_agg(r)) FROM (VALUES ('{1}'::roaring64)) t(r)")
        .unwrap();
    let before = backend_peak_kb(&mut c);
    c.batch_execute(sql).unwrap();
    backend_peak_kb(&mut c).saturating_sub(before)
}

#[test]
fn a_million_row_aggregate_stays_within_its_state() {
    // The states stay small (a few run containers) while the row count grows 10x:
    // any per-row leak would show as tens of MB.
    let sql = |rows: u64| {
        format!(
            "SELECT rb_cardinality(rb_or_agg(rb_build(ARRAY[g, g + 1]))),
                    rb_cardinality(rb_build_agg(g)),
                    rb_cardinality(rb_xor_agg(rb_build(ARRAY[g % 1000]))),
                    rb_cardinality(rb_and_agg(rb_build(ARRAY[1, g])))
               FROM generate_series(1::int8, {rows}) g"
        )
    };
    let small = peak_growth_kb(&sql(100_000));
    let large = peak_growth_kb(&sql(1_000_000));
    eprintln!("peak growth: 100k rows {small} kB, 1M rows {large} kB");
    assert!(
        large < small + 16 * 1024,
        "1M rows grew the backend by {large} kB against {small} kB for 100k rows"
    );
}

#[test]
fn many_groups_release_their_states() {
    let mut c = connect();
    let total = |c: &mut Client| -> i64 {
        c.query_one(
            "SELECT sum(total_bytes)::int8 FROM pg_backend_memory_contexts",
            &[],
        )
        .unwrap()
        .get(0)
    };
    c.batch_execute("SELECT 1").unwrap();
    let before = total(&mut c);
    for _ in 0..3 {
        c.batch_execute(
            "SELECT count(*) FROM (SELECT g % 5000, rb_or_agg(rb_build(ARRAY[g])) FROM
               generate_series(1::int8, 200000) g GROUP BY 1) t",
        )
        .unwrap();
    }
    let after = total(&mut c);
    assert!(
        after < before + 2 * 1024 * 1024,
        "backend memory grew from {before} to {after} bytes across statements"
    );
}
