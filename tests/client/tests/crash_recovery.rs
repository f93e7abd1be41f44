//! kill -9 of a backend in the middle of a 200,000-row binary COPY into an indexed
//! roaring64 table: after the server's crash recovery, every committed row is there
//! and nothing of the killed COPY is, the btree indexes pass amcheck against the
//! heap, and the GIN and hash indexes answer as a sequential scan does.
//!
//! Its own test binary: killing a backend makes the postmaster restart every
//! session, so no other test may run beside it. It needs to signal the server's
//! processes (root, as in CI, or sudo).

use std::io::Write;
use std::time::Duration;

use postgres::Client;
use roaring::RoaringTreemap;
use sroar_pg_client_tests::{amcheck, connect_db, drop_db, fresh_db, kill9, reconnect};

const DB: &str = "sroar_crash";

/// Binary COPY data for rows `ids`: (id int8, r roaring64 in the standard portable
/// format, which binary input accepts).
fn copy_data(ids: std::ops::Range<i64>) -> Vec<u8> {
    let mut data = Vec::new();
    data.extend_from_slice(b"PGCOPY\n\xff\r\n\0");
    data.extend_from_slice(&0u32.to_be_bytes());
    data.extend_from_slice(&0u32.to_be_bytes());
    for id in ids {
        let mut set = RoaringTreemap::new();
        set.insert(id as u64);
        set.insert((id as u64) << 20);
        set.insert(1 << 40);
        if id % 10 == 0 {
            set.insert_range(0..70_000);
        }
        let mut bytes = Vec::new();
        set.serialize_into(&mut bytes).unwrap();
        data.extend_from_slice(&2u16.to_be_bytes());
        data.extend_from_slice(&8i32.to_be_bytes());
        data.extend_from_slice(&id.to_be_bytes());
        data.extend_from_slice(&(bytes.len() as i32).to_be_bytes());
        data.extend_from_slice(&bytes);
    }
    data
}

fn count(c: &mut Client, sql: &str) -> i64 {
    c.query_one(sql, &[]).unwrap().get(0)
}

#[test]
fn kill_during_binary_copy_loses_nothing_committed() {
    let mut c = fresh_db(DB);
    c.batch_execute(
        "CREATE TABLE posting (id int8 PRIMARY KEY, r roaring64);
         CREATE INDEX posting_gin ON posting USING gin (r);
         CREATE INDEX posting_hash ON posting USING hash (r);
         CREATE INDEX posting_btree ON posting (r) WHERE octet_length(r::bytea) < 2000;",
    )
    .unwrap();
    let mut w = c
        .copy_in("COPY posting FROM STDIN (FORMAT binary)")
        .unwrap();
    w.write_all(&copy_data(0..50_000)).unwrap();
    w.write_all(&(-1i16).to_be_bytes()).unwrap();
    w.finish().unwrap();

    // A second session streams 200,000 more rows and is killed half way through.
    let mut victim = connect_db(DB);
    let pid: i32 = victim
        .query_one("SELECT pg_backend_pid()", &[])
        .unwrap()
        .get(0);
    let data = copy_data(50_000..250_000);
    let mut w = victim
        .copy_in("COPY posting FROM STDIN (FORMAT binary)")
        .unwrap();
    w.write_all(&data[..data.len() / 2]).unwrap();
    w.flush().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    kill9(pid);
    let _ = w.write_all(&data[data.len() / 2..]);
    assert!(w.finish().is_err(), "the killed COPY cannot have committed");
    drop(victim);
    drop(c);

    let mut c = reconnect(DB);
    assert_eq!(count(&mut c, "SELECT count(*) FROM posting"), 50_000);
    assert_eq!(
        count(
            &mut c,
            "SELECT count(*) FROM posting WHERE id >= 0 AND id < 50000 AND r @> id"
        ),
        50_000
    );
    if amcheck(&mut c) {
        for idx in ["posting_pkey", "posting_btree"] {
            c.execute(&format!("SELECT bt_index_check('{idx}', true)"), &[])
                .unwrap_or_else(|e| panic!("bt_index_check({idx}): {e}"));
        }
    }
    let queries = [
        "SELECT count(*) FROM posting WHERE r @> 12345::int8",
        "SELECT count(*) FROM posting WHERE r @> 1099511627776::int8",
        "SELECT count(*) FROM posting WHERE r @> 65000::int8",
        "SELECT count(*) FROM posting WHERE r && '{7, 8, 99999}'",
        "SELECT count(*) FROM posting WHERE r = (SELECT r FROM posting WHERE id = 4242)",
    ];
    c.batch_execute("SET enable_indexscan = off; SET enable_bitmapscan = off")
        .unwrap();
    let by_scan: Vec<i64> = queries.iter().map(|q| count(&mut c, q)).collect();
    c.batch_execute("RESET enable_indexscan; RESET enable_bitmapscan; SET enable_seqscan = off")
        .unwrap();
    let by_index: Vec<i64> = queries.iter().map(|q| count(&mut c, q)).collect();
    assert_eq!(by_index, by_scan);
    assert!(by_scan.iter().all(|&n| n > 0), "{by_scan:?}");
    // The table takes new rows after recovery.
    c.batch_execute("RESET ALL; INSERT INTO posting VALUES (-1, '{5000000000000000}')")
        .unwrap();
    assert_eq!(
        count(
            &mut c,
            "SELECT count(*) FROM posting WHERE r @> 5000000000000000::int8"
        ),
        1
    );
    drop(c);
    drop_db(DB);
}
