//! kill -9 of a backend holding an uncommitted batch of changes to two sets, while
//! another session commits single events to the other two: after crash recovery, the sets are
//! exactly the replay of the committed log, every event whose commit was
//! acknowledged is in it, and nothing of the killed batch is.
//!
//! Its own test binary, as `crash_recovery.rs`: the kill restarts every session.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use live::{apply, check_against_log, id_of, setup, xorshift, SETS};
use sroar_pg_client_tests::{connect_db, drop_db, fresh_db, kill9, reconnect};

mod live;

const DB: &str = "sroar_crash_live";

#[test]
fn kill_during_a_batch_loses_no_committed_event() {
    let mut c = fresh_db(DB);
    setup(&mut c);
    drop(c);

    // Single events, each committed alone, until the server goes away; the
    // acknowledged ones are counted.
    let acked = Arc::new(AtomicUsize::new(0));
    let counter = acked.clone();
    let single = thread::spawn(move || {
        let mut c = connect_db(DB);
        let mut s = 0x2545_F491_4F6C_DD1Du64;
        loop {
            let r = xorshift(&mut s);
            let Ok(mut t) = c.transaction() else { return };
            // Sets 1 and 2: the batch below holds the rows of the others.
            let (set, x) = (1 + (r >> 4) as i64 % 2, id_of(0, r >> 7));
            let applied = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                apply(&mut t, 0, set, x, !r.is_multiple_of(10));
            }));
            if applied.is_err() || t.commit().is_err() {
                return;
            }
            counter.fetch_add(1, Ordering::SeqCst);
        }
    });

    // A batch over sets 3 and 4, by writer 1, left uncommitted and killed.
    let mut victim = connect_db(DB);
    let pid: i32 = victim
        .query_one("SELECT pg_backend_pid()", &[])
        .unwrap()
        .get(0);
    let mut t = victim.transaction().unwrap();
    let adds: Vec<i64> = (0..2000).map(|i| id_of(1, i * 7919)).collect();
    for set in 3..=SETS {
        t.execute(
            "UPDATE whole SET members = rb_apply(members, $2::int8[], NULL) WHERE id = $1",
            &[&set, &adds],
        )
        .unwrap();
        t.execute(
            "INSERT INTO log (writer, set_id, x, added) SELECT 1, $1, x, true FROM unnest($2::int8[]) x",
            &[&set, &adds],
        )
        .unwrap();
    }
    while acked.load(Ordering::SeqCst) < 200 {
        thread::sleep(Duration::from_millis(20));
    }
    kill9(pid);
    assert!(
        t.commit().is_err(),
        "the killed batch cannot have committed"
    );
    drop(victim);
    single.join().unwrap();

    let mut c = reconnect(DB);
    let from_batch: i64 = c
        .query_one("SELECT count(*) FROM log WHERE writer = 1", &[])
        .unwrap()
        .get(0);
    assert_eq!(from_batch, 0, "rows of the killed batch survived");
    let logged: i64 = c.query_one("SELECT count(*) FROM log", &[]).unwrap().get(0);
    let acked = acked.load(Ordering::SeqCst) as i64;
    // The event in flight at the kill may have committed without its acknowledgement.
    assert!(
        logged == acked || logged == acked + 1,
        "{acked} commits acknowledged, {logged} in the log"
    );
    check_against_log(&mut c);
    drop(c);
    drop_db(DB);
}
