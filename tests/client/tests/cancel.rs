//! Long-running statements are cancelled promptly: by `statement_timeout` and by a
//! client cancel request, the error (57014) arrives within about 2 seconds, and the
//! same connection works afterwards. scripts/test.sh starts the server and sets
//! SROAR_PG_PORT.
//!
//! The tests run one at a time (they measure time, and some use a lot of memory).

use std::sync::{Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use postgres::{Client, NoTls};
use sroar_pg_client_tests::{connect, sqlstate};

/// How long a cancel may take to arrive, from the start of the statement.
const PROMPT: Duration = Duration::from_secs(2);

fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

fn still_works(c: &mut Client) {
    let row = c
        .query_one("SELECT 1, rb_cardinality('{1,2,3}'::roaring64)", &[])
        .expect("the connection works after the cancel");
    assert_eq!(row.get::<_, i32>(0), 1);
    assert_eq!(row.get::<_, i64>(1), 3);
}

/// Runs `sql` under a 200 ms statement_timeout and checks that it fails with 57014
/// within PROMPT, then that the connection still works.
fn times_out_promptly(sql: &str) {
    let _serial = serial();
    let mut c = connect();
    c.batch_execute("SET statement_timeout = '200ms'").unwrap();
    let start = Instant::now();
    let result = c.query(sql, &[]);
    let took = start.elapsed();
    let e = result.expect_err("the statement finished within its timeout: make it longer");
    assert_eq!(sqlstate(&e).as_deref(), Some("57014"), "{sql}: {e}");
    assert!(
        took < PROMPT,
        "{sql}: the cancel took {took:?} (statement_timeout 200ms)"
    );
    c.batch_execute("RESET statement_timeout").unwrap();
    still_works(&mut c);
}

#[test]
fn fill_of_2_to_40_values_times_out() {
    times_out_promptly("SELECT rb_cardinality(rb_fill('{}', 0, 1099511627776))");
}

#[test]
fn iterate_times_out() {
    times_out_promptly("SELECT count(*) FROM rb_iterate(rb_from_range(0, 10000000000))");
}

#[test]
fn iterate_of_a_stored_set_times_out() {
    times_out_promptly(
        "SELECT count(*) FROM (SELECT rb_from_range(-5000000000, 5000000000) AS r OFFSET 0) t,
                LATERAL rb_iterate(t.r)",
    );
}

#[test]
fn text_output_times_out() {
    // 5 * 10^7 values, about 450 MB of text.
    times_out_promptly("SELECT length(rb_from_range(0, 50000000)::text)");
}

#[test]
fn to_array_times_out() {
    // 10^8 values, an 800 MB array.
    times_out_promptly("SELECT cardinality(rb_to_array(rb_from_range(0, 100000000)))");
}

/// Building a set of 4 * 10^12 values (976 MB of run containers) takes ~10 s.
#[test]
fn large_fill_times_out() {
    times_out_promptly("SELECT rb_cardinality(rb_fill('{}', 0, 4000000000000))");
}

/// The same set from its range: a builder rather than an edit.
#[test]
fn large_range_times_out() {
    times_out_promptly("SELECT rb_cardinality(rb_from_range(0, 4000000000000))");
}

/// Shifting 2^20 full containers by 1 takes about 6 s.
#[test]
fn shift_times_out() {
    times_out_promptly("SELECT rb_cardinality(rb_shift(rb_from_range(0, 68719476736), 1))");
}

/// Flipping a range over 2^22 full containers takes about 8 s.
#[test]
fn flip_times_out() {
    times_out_promptly(
        "SELECT rb_cardinality(rb_flip(rb_from_range(0, 274877906944), 1, 274877906945))",
    );
}

/// The portable conversion of 2^24 containers takes seconds.
#[test]
fn to_portable_times_out() {
    times_out_promptly("SELECT octet_length(rb_to_portable(rb_from_range(0, 1099511627776)))");
}

/// A cancel request from another connection (what psql's ^C sends).
#[test]
fn cancel_request_stops_a_statement() {
    let _serial = serial();
    let mut c = connect();
    let token = c.cancel_token();
    let canceller = thread::spawn(move || {
        thread::sleep(Duration::from_millis(300));
        token.cancel_query(NoTls).expect("send the cancel request");
    });
    let start = Instant::now();
    let result = c.query(
        "SELECT count(*) FROM rb_iterate(rb_from_range(-10000000000, 10000000000))",
        &[],
    );
    let took = start.elapsed();
    canceller.join().unwrap();
    let e = result.expect_err("the statement finished before the cancel");
    assert_eq!(sqlstate(&e).as_deref(), Some("57014"), "{e}");
    assert!(
        took < PROMPT + Duration::from_millis(300),
        "the cancel took {took:?}"
    );
    still_works(&mut c);
}
