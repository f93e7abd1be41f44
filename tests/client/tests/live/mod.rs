//! What the live-set tests share: the tables, one event as the README writes it,
//! and the check of the sets against a replay of the committed log.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};

use postgres::Client;

pub const SETS: i64 = 4;
pub const WRITERS: i64 = 6;

/// Ids near the edges: int8's, containers', 2^32's and 2^48's, and 0.
pub const EDGES: [i64; 9] = [
    i64::MIN,
    -65537,
    -1,
    0,
    65535,
    65536,
    1 << 32,
    1 << 48,
    i64::MAX,
];

pub fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

/// The ids writer `w` owns, those equal to `w` modulo WRITERS: each id is changed
/// by one writer only, so that its events are ordered by that writer, while every
/// writer changes every set.
pub fn id_of(w: i64, r: u64) -> i64 {
    let edge = EDGES[(r % EDGES.len() as u64) as usize];
    let (edge, ws) = (i128::from(edge), i128::from(WRITERS));
    let mut near = edge - edge.rem_euclid(ws) + i128::from(w);
    if near > i128::from(i64::MAX) {
        near -= ws;
    }
    match (r >> 8) % 3 {
        0 => near as i64,
        1 => ((r >> 16) % 200_000) as i64 * WRITERS + w,
        _ => ((r >> 16) % 3_000_000_000) as i64 * WRITERS + w - 1_500_000_000 * WRITERS,
    }
}

pub fn setup(c: &mut Client) {
    c.batch_execute(
        "CREATE TABLE whole (id int8 PRIMARY KEY, members roaring64 NOT NULL);
         INSERT INTO whole SELECT g, '{}' FROM generate_series(1, 4) g;
         CREATE TABLE chunked (id int8, chunk int8, part roaring64 NOT NULL, PRIMARY KEY (id, chunk));
         CREATE INDEX chunked_part ON chunked USING gin (part);
         CREATE TABLE log (seq bigserial PRIMARY KEY, writer int8, set_id int8, x int8, added bool);",
    )
    .unwrap();
}

/// One event, in the transaction `t`: the whole row first, then the chunk's row,
/// then the log (every writer takes the row locks in that order).
pub fn apply(t: &mut postgres::Transaction<'_>, w: i64, set: i64, x: i64, add: bool) {
    let sql = if add {
        "UPDATE whole SET members = rb_add(members, $2::int8) WHERE id = $1"
    } else {
        "UPDATE whole SET members = rb_remove(members, $2::int8) WHERE id = $1"
    };
    t.execute(sql, &[&set, &x]).unwrap();
    change_chunk(t, set, x, add);
    log(t, w, set, x, add);
}

/// The README's chunk recipe: the id into its chunk's row (made when missing), or
/// out of it.
pub fn change_chunk(t: &mut postgres::Transaction<'_>, set: i64, x: i64, add: bool) {
    let sql = if add {
        "INSERT INTO chunked VALUES ($1, $2::int8 >> 16, rb_build(ARRAY[$2::int8]))
         ON CONFLICT (id, chunk) DO UPDATE SET part = rb_add(chunked.part, $2::int8)"
    } else {
        "UPDATE chunked SET part = rb_remove(part, $2::int8) WHERE id = $1 AND chunk = $2::int8 >> 16"
    };
    t.execute(sql, &[&set, &x]).unwrap();
}

/// The event's log row, committed with the change.
pub fn log(t: &mut postgres::Transaction<'_>, w: i64, set: i64, x: i64, add: bool) {
    t.execute(
        "INSERT INTO log (writer, set_id, x, added) VALUES ($1, $2, $3, $4)",
        &[&w, &set, &x, &add],
    )
    .unwrap();
}

/// The sets the committed log says, replayed in its order per id (each id has one
/// writer, whose events commit in order).
pub fn replay(c: &mut Client) -> BTreeMap<i64, BTreeSet<i64>> {
    let mut sets: BTreeMap<i64, BTreeSet<i64>> = (1..=SETS).map(|s| (s, BTreeSet::new())).collect();
    for row in c
        .query("SELECT set_id, x, added FROM log ORDER BY seq", &[])
        .unwrap()
    {
        let (set, x, add): (i64, i64, bool) = (row.get(0), row.get(1), row.get(2));
        let members = sets.get_mut(&set).unwrap();
        if add {
            members.insert(x);
        } else {
            members.remove(&x);
        }
    }
    sets
}

pub fn members(c: &mut Client, sql: &str, set: i64) -> BTreeSet<i64> {
    let row = c.query_one(sql, &[&set]).unwrap();
    let values: Option<Vec<i64>> = row.get(0);
    values.unwrap_or_default().into_iter().collect()
}

pub fn check_against_log(c: &mut Client) {
    for (set, want) in replay(c) {
        let whole = members(
            c,
            "SELECT rb_to_array(members) FROM whole WHERE id = $1",
            set,
        );
        assert_eq!(whole, want, "set {set}: the whole row");
        let chunked = members(
            c,
            "SELECT rb_to_array(rb_or_agg(part)) FROM chunked WHERE id = $1",
            set,
        );
        assert_eq!(chunked, want, "set {set}: its chunks");
    }
    // Each chunk holds only its own ids, and the GIN index answers as a scan does.
    let strays: i64 = c
        .query_one(
            "SELECT count(*) FROM chunked WHERE NOT rb_is_empty(part)
               AND (rb_min(part) >> 16 <> chunk OR rb_max(part) >> 16 <> chunk)",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(strays, 0, "ids outside their chunk");
    let probe = "SELECT count(*) FROM chunked WHERE part @> $1::int8";
    for x in EDGES {
        c.batch_execute("SET enable_seqscan = off").unwrap();
        let by_index: i64 = c.query_one(probe, &[&x]).unwrap().get(0);
        c.batch_execute(
            "RESET enable_seqscan; SET enable_bitmapscan = off; SET enable_indexscan = off",
        )
        .unwrap();
        let by_scan: i64 = c.query_one(probe, &[&x]).unwrap().get(0);
        c.batch_execute("RESET ALL").unwrap();
        assert_eq!(by_index, by_scan, "GIN probe of {x}");
    }
}
