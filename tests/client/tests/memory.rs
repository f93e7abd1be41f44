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

/// HashAggregate's own figures for a grouped aggregate: the number of batches (more
/// than 1 when it spilled to disk) and peak memory in kB, from the line
/// "Batches: N  Memory Usage: MkB" of EXPLAIN ANALYZE.
fn hash_agg_memory(c: &mut Client, sql: &str) -> (u64, u64) {
    let plan: Vec<String> = c
        .query(
            &format!("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) {sql}"),
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    let line = plan
        .iter()
        .find(|l| l.contains("Batches:") && l.contains("Memory Usage:"))
        .unwrap_or_else(|| panic!("no HashAggregate figures in the plan of {sql}: {plan:#?}"));
    let number_after = |label: &str| -> u64 {
        let at = line.find(label).unwrap() + label.len();
        line[at..]
            .trim_start()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
            .parse()
            .unwrap()
    };
    (number_after("Batches:"), number_after("Memory Usage:"))
}

/// A grouped aggregate over many small groups keeps each group's state small: no
/// memory context (and its first 8 kB block) per group, which also made the memory
/// check HashAggregate runs on every new group walk all of them (quadratic time).
#[test]
fn many_groups_cost_little_memory_each() {
    let mut c = connect();
    c.batch_execute("SET max_parallel_workers_per_gather = 0; SET work_mem = '1GB'")
        .unwrap();
    const GROUPS: u64 = 20_000;
    for agg in [
        "rb_or_agg(rb_build(ARRAY[g, g * 65536]))",
        "rb_build_agg(g * 4294967296)",
        "rb_and_agg(rb_build(ARRAY[g % 3, g]))",
        "rb_xor_agg(rb_build(ARRAY[g]))",
        "rb_or_cardinality_agg(rb_build(ARRAY[g]))",
    ] {
        let sql = format!(
            "SELECT g % {GROUPS}, {agg} FROM generate_series(1::int8, 100000) g GROUP BY 1"
        );
        let (batches, kb) = hash_agg_memory(&mut c, &sql);
        let per_group = kb * 1024 / GROUPS;
        eprintln!("{agg}: {per_group} bytes per group ({kb} kB, {batches} batch)");
        assert_eq!(batches, 1, "{agg}: fits in work_mem");
        assert!(
            per_group < 2048,
            "{agg}: {per_group} bytes per group of 5 rows (a memory context each costs 8 kB)"
        );
    }
}

/// The states are counted by HashAggregate's memory accounting: under a small
/// work_mem it spills to disk, and the results equal those computed in memory.
#[test]
fn grouped_aggregates_spill_and_agree() {
    let mut c = connect();
    c.batch_execute("SET max_parallel_workers_per_gather = 0")
        .unwrap();
    let sql = "SELECT g % 30000 AS k, rb_or_agg(rb_build(ARRAY[g, -g])) AS u,
                      rb_build_agg(g) AS b, rb_xor_agg(rb_build(ARRAY[g % 7])) AS x
                 FROM generate_series(1::int8, 150000) g GROUP BY 1";
    let digest = format!(
        "SELECT count(*), sum(hashtext(u::text)), sum(hashtext(b::text)), sum(hashtext(x::text)),
                sum(rb_cardinality(u))::int8 FROM ({sql}) t"
    );
    c.batch_execute("SET work_mem = '1GB'").unwrap();
    let (batches, _) = hash_agg_memory(&mut c, sql);
    assert_eq!(batches, 1);
    let in_memory = c.query_one(&digest, &[]).unwrap();
    c.batch_execute("SET work_mem = '1MB'").unwrap();
    let (batches, _) = hash_agg_memory(&mut c, sql);
    assert!(batches > 1, "1MB of work_mem spills ({batches} batches)");
    let spilled = c.query_one(&digest, &[]).unwrap();
    for i in 0..5 {
        assert_eq!(
            in_memory.get::<_, i64>(i),
            spilled.get::<_, i64>(i),
            "column {i} of the digest"
        );
    }
    assert_eq!(in_memory.get::<_, i64>(0), 30_000);
}
