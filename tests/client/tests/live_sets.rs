//! Changing sets under concurrent writers, as the README's "Changing elements" tells
//! users to: each event in its own transaction (the whole set's row, its chunk's row
//! and a log row together), batches through `rb_apply`, and failed transactions.
//! Whatever commits is exactly what the sets hold afterwards: the state is checked
//! against a replay of the committed log.

use std::collections::BTreeMap;
use std::thread;

use live::{
    apply, change_chunk, check_against_log, id_of, log, setup, xorshift, EDGES, SETS, WRITERS,
};
use sroar_pg_client_tests::{connect_db, drop_db, fresh_db, sqlstate};

mod live;

const DB: &str = "sroar_live";

/// Writer `w`: single events, some rolled back, and batches through rb_apply.
fn writer(w: i64, events: usize) {
    let mut c = connect_db(DB);
    let mut s = 0x9E37_79B9_7F4A_7C15u64 ^ (w as u64).wrapping_mul(0x1000_0001);
    let mut done = 0;
    while done < events {
        let r = xorshift(&mut s);
        if r.is_multiple_of(11) {
            // A batch of up to 20 events for one set, the last event per id deciding.
            let set = 1 + (r >> 8) as i64 % SETS;
            let mut last: BTreeMap<i64, bool> = BTreeMap::new();
            for _ in 0..1 + (r >> 16) % 20 {
                let e = xorshift(&mut s);
                last.insert(id_of(w, e), !e.is_multiple_of(10));
            }
            let adds: Vec<i64> = last.iter().filter(|e| *e.1).map(|e| *e.0).collect();
            let removes: Vec<i64> = last.iter().filter(|e| !*e.1).map(|e| *e.0).collect();
            let mut t = c.transaction().unwrap();
            t.execute(
                "UPDATE whole SET members = rb_apply(members, $2::int8[], $3::int8[]) WHERE id = $1",
                &[&set, &adds, &removes],
            )
            .unwrap();
            for (&x, &add) in &last {
                change_chunk(&mut t, set, x, add);
                log(&mut t, w, set, x, add);
            }
            t.commit().unwrap();
            done += last.len();
            continue;
        }
        let (set, x, add) = (
            1 + (r >> 4) as i64 % SETS,
            id_of(w, r >> 7),
            !r.is_multiple_of(10),
        );
        let mut t = c.transaction().unwrap();
        apply(&mut t, w, set, x, add);
        if r.is_multiple_of(7) {
            t.rollback().unwrap();
        } else {
            t.commit().unwrap();
            done += 1;
        }
    }
}

#[test]
fn concurrent_writers_lose_nothing() {
    let mut c = fresh_db(DB);
    setup(&mut c);
    let threads: Vec<_> = (0..WRITERS)
        .map(|w| thread::spawn(move || writer(w, 1000)))
        .collect();
    for t in threads {
        t.join().expect("a writer failed");
    }
    let logged: i64 = c.query_one("SELECT count(*) FROM log", &[]).unwrap().get(0);
    assert!(logged >= WRITERS * 1000, "{logged} events logged");
    check_against_log(&mut c);

    // A batch that fails half way leaves nothing of itself.
    let before: Vec<String> = c
        .query("SELECT members::text FROM whole ORDER BY id", &[])
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    let mut t = c.transaction().unwrap();
    t.execute(
        "UPDATE whole SET members = rb_apply(members, ARRAY[42, 43], ARRAY[0]) WHERE id = 1",
        &[],
    )
    .unwrap();
    t.execute(
        "INSERT INTO log (writer, set_id, x, added) VALUES (-1, 1, 42, true), (-1, 1, 43, true)",
        &[],
    )
    .unwrap();
    let err = t
        .execute(
            "UPDATE whole SET members = rb_apply(members, ARRAY[7, NULL], NULL) WHERE id = 2",
            &[],
        )
        .unwrap_err();
    assert_eq!(sqlstate(&err).as_deref(), Some("22004"), "{err}");
    drop(t);
    let after: Vec<String> = c
        .query("SELECT members::text FROM whole ORDER BY id", &[])
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(after, before, "a failed batch changed the sets");
    check_against_log(&mut c);

    // Adding present ids and removing absent ones changes nothing.
    let unchanged: bool = c
        .query_one(
            "SELECT rb_apply(members, rb_to_array(members),
                             ARRAY(SELECT x FROM unnest($1::int8[]) x WHERE NOT members @> x)) = members
               FROM whole WHERE id = 3",
            &[&EDGES.to_vec()],
        )
        .unwrap()
        .get(0);
    assert!(unchanged, "no-op changes changed the set");
    drop(c);
    drop_db(DB);
}
