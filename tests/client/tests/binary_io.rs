//! Binary I/O through a real client: COPY (FORMAT binary) round-trips native bytes,
//! and malformed binary input is refused with 22P03 while the connection and the
//! server stay usable. scripts/test.sh starts the server and sets SROAR_PG_PORT.

use std::io::{Read, Write};

use postgres::Client;
use sroar_pg_client_tests::{connect, copy_binary, parse_copy_binary, Raw};

fn native_bytes(client: &mut Client, text: &str) -> Vec<u8> {
    client
        .query_one("SELECT $1::text::roaring64::bytea", &[&text])
        .unwrap()
        .get(0)
}

#[test]
fn copy_binary_round_trips_native_bytes() {
    let mut client = connect();
    client
        .batch_execute("DROP TABLE IF EXISTS copy_rt; CREATE TABLE copy_rt (r roaring64)")
        .unwrap();
    let texts = [
        "{}",
        "{0}",
        "{-9223372036854775808,-1,0,65536,4294967296,9223372036854775807}",
    ];
    let mut values: Vec<Vec<u8>> = texts.iter().map(|t| native_bytes(&mut client, t)).collect();
    values.push(
        client
            .query_one(
                "SELECT rb_build(ARRAY(SELECT g FROM generate_series(1, 200000, 2) g))::bytea",
                &[],
            )
            .unwrap()
            .get(0),
    );
    let fields: Vec<&[u8]> = values.iter().map(Vec::as_slice).collect();
    let mut writer = client
        .copy_in("COPY copy_rt FROM STDIN (FORMAT binary)")
        .unwrap();
    writer.write_all(&copy_binary(&fields)).unwrap();
    assert_eq!(writer.finish().unwrap(), values.len() as u64);

    let mut out = Vec::new();
    client
        .copy_out("COPY copy_rt TO STDOUT (FORMAT binary)")
        .unwrap()
        .read_to_end(&mut out)
        .unwrap();
    assert_eq!(
        parse_copy_binary(&out),
        values,
        "COPY out gives back the same bytes"
    );

    let texts_back: Vec<String> = client
        .query("SELECT r::text FROM copy_rt", &[])
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(&texts_back[..3], &texts);
}

#[test]
fn malformed_binary_input_is_22p03_and_the_connection_survives() {
    let mut client = connect();
    client
        .batch_execute("DROP TABLE IF EXISTS copy_bad; CREATE TABLE copy_bad (r roaring64)")
        .unwrap();
    // -3 is stored as 2^63 - 3: min takes 8 bytes (FORMAT.md stores a min near 2^63,
    // as small positive ids are, with its top bit flipped, in fewer). Two
    // containers, one with min and one with max, so that no change to a payload
    // gives another valid set.
    let good = native_bytes(&mut client, "{-3,-2,-1,65536}");
    let mut cases: Vec<Vec<u8>> = vec![
        vec![],
        b"SR64".to_vec(),
        good[..good.len() - 1].to_vec(),
        [good.as_slice(), &[0]].concat(),
    ];
    // Keys are stored relative to min's, so a change to min's bytes above its low
    // 16 bits moves the whole set: that gives the canonical bytes of another set,
    // which COPY stores as given. A change to any other byte is refused.
    let min_at = 7 + 2 * usize::from(good[5] >> 4);
    assert_eq!(good[6] & 15, 8, "min is stored as it is, in 8 bytes");
    let shifts = min_at + 2..min_at + 8;
    let mut shifted = Vec::new();
    for i in 0..good.len() {
        let mut bad = good.clone();
        bad[i] ^= 0x5a;
        if shifts.contains(&i) {
            shifted.push(bad);
        } else {
            cases.push(bad);
        }
    }
    assert_eq!(shifted.len(), 6, "min is 8 bytes wide");
    for bad in &cases {
        let mut writer = client
            .copy_in("COPY copy_bad FROM STDIN (FORMAT binary)")
            .unwrap();
        writer.write_all(&copy_binary(&[bad])).unwrap();
        let err = writer.finish().expect_err("malformed input accepted");
        let code = err.code().map(|c| c.code().to_owned());
        assert_eq!(code.as_deref(), Some("22P03"), "for {bad:?}: {err}");
        // The same connection keeps working.
        let n: i64 = client
            .query_one("SELECT count(*) FROM copy_bad", &[])
            .unwrap()
            .get(0);
        assert_eq!(n, 0);
    }
    for moved in &shifted {
        let mut writer = client
            .copy_in("COPY copy_bad FROM STDIN (FORMAT binary)")
            .unwrap();
        writer.write_all(&copy_binary(&[moved])).unwrap();
        writer.finish().expect("a moved set is a valid set");
        let row = client
            .query_one(
                "SELECT r::bytea, rb_build(rb_to_array(r))::bytea, rb_cardinality(r) FROM copy_bad",
                &[],
            )
            .unwrap();
        let (stored, rebuilt): (Vec<u8>, Vec<u8>) = (row.get(0), row.get(1));
        assert_eq!(&stored, moved, "stored as given");
        assert_eq!(stored, rebuilt, "the canonical bytes of the set they hold");
        assert_eq!(row.get::<_, i64>(2), 4);
        client.batch_execute("TRUNCATE copy_bad").unwrap();
    }
}

/// COPY (FORMAT binary) also takes the standard 64-bit portable format (as written by
/// CRoaring, roaring-rs or pg_roaringbitmap): it is validated and stored as the
/// canonical native bytes, and COPY out gives those native bytes.
#[test]
fn copy_binary_accepts_portable_bytes() {
    let mut client = connect();
    client
        .batch_execute("DROP TABLE IF EXISTS copy_portable; CREATE TABLE copy_portable (id serial, r roaring64)")
        .unwrap();
    let texts = [
        "{}",
        "{5}",
        "{-9223372036854775808,-1,0,65536,4294967296,281474976710656,9223372036854775807}",
    ];
    let mut portable: Vec<Vec<u8>> = texts
        .iter()
        .map(|t| {
            client
                .query_one("SELECT rb_to_portable($1::text::roaring64)", &[t])
                .unwrap()
                .get(0)
        })
        .collect();
    // A large run-heavy set and a dense one, written by roaring-rs's own serializer.
    let mut tm = roaring::RoaringTreemap::new();
    tm.insert_range(0..200_000);
    tm.extend((1u64 << 40..(1u64 << 40) + 60_000).step_by(2));
    tm.optimize();
    let mut rr = Vec::new();
    tm.serialize_into(&mut rr).unwrap();
    portable.push(rr);
    let fields: Vec<&[u8]> = portable.iter().map(Vec::as_slice).collect();
    let mut writer = client
        .copy_in("COPY copy_portable (r) FROM STDIN (FORMAT binary)")
        .unwrap();
    writer.write_all(&copy_binary(&fields)).unwrap();
    assert_eq!(writer.finish().unwrap(), portable.len() as u64);

    for (i, p) in portable.iter().enumerate() {
        let row = client
            .query_one(
                "SELECT r::bytea = rb_from_portable($2)::bytea, rb_to_portable(r) = $2
                   FROM copy_portable WHERE id = $1",
                &[&(i as i32 + 1), p],
            )
            .unwrap();
        assert!(
            row.get::<_, bool>(0),
            "row {i}: stored bytes are the canonical native form"
        );
        assert!(
            row.get::<_, bool>(1),
            "row {i}: exported back to the same portable bytes"
        );
    }
    let card: i64 = client
        .query_one(
            "SELECT rb_cardinality(r) FROM copy_portable WHERE id = 4",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(card, 230_000);

    let mut out = Vec::new();
    client
        .copy_out("COPY (SELECT r FROM copy_portable ORDER BY id) TO STDOUT (FORMAT binary)")
        .unwrap()
        .read_to_end(&mut out)
        .unwrap();
    for (field, p) in parse_copy_binary(&out).iter().zip(&portable) {
        let native: Vec<u8> = client
            .query_one("SELECT rb_from_portable($1)::bytea", &[p])
            .unwrap()
            .get(0);
        assert_eq!(field, &native, "COPY out ships the native bytes");
    }
}

/// The bytea cast reads what binary input reads: native bytes, or the standard 64-bit
/// portable format (here roaring-rs's own bytes, with edge values), to the same set.
/// Bytes of neither format say so, naming both.
#[test]
fn bytea_cast_reads_what_binary_input_reads() {
    let mut client = connect();
    let mut tm = roaring::RoaringTreemap::new();
    for v in [
        0u64,
        1 << 16,
        1 << 32,
        1 << 48,
        u64::MAX,
        1 << 63,
        (1 << 63) - 1,
    ] {
        tm.insert(v);
    }
    tm.insert_range(70_000..200_000);
    // Run containers where they are smaller, as the server writes them.
    tm.optimize();
    let mut portable = Vec::new();
    tm.serialize_into(&mut portable).unwrap();
    let mut empty = Vec::new();
    roaring::RoaringTreemap::new()
        .serialize_into(&mut empty)
        .unwrap();
    for bytes in [portable, empty] {
        let row = client
            .query_one(
                "SELECT $1::bytea::roaring64::bytea, $2::roaring64::bytea, rb_from_portable($1)::bytea,
                        rb_to_portable($1::bytea::roaring64) = $1",
                &[&bytes, &Raw(bytes.clone())],
            )
            .unwrap();
        let (cast, received, from_portable): (Vec<u8>, Vec<u8>, Vec<u8>) =
            (row.get(0), row.get(1), row.get(2));
        assert_eq!(cast, received, "the cast and binary input agree");
        assert_eq!(cast, from_portable, "and are rb_from_portable's set");
        assert!(
            row.get::<_, bool>(3),
            "exported back to the same portable bytes"
        );
        // Native bytes through the cast are kept as they are.
        let again: Vec<u8> = client
            .query_one("SELECT $1::bytea::roaring64::bytea", &[&cast])
            .unwrap()
            .get(0);
        assert_eq!(again, cast);
    }
    // int8 order of the portable values: u64 1 << 63 is int8 min, u64::MAX is -1.
    let ends: (i64, i64) = {
        let mut p = Vec::new();
        tm.serialize_into(&mut p).unwrap();
        let row = client
            .query_one(
                "SELECT rb_min($1::bytea::roaring64), rb_max($1::bytea::roaring64)",
                &[&p],
            )
            .unwrap();
        (row.get(0), row.get(1))
    };
    assert_eq!(ends, (i64::MIN, i64::MAX));

    for bytes in [b"hello, world!!!!".to_vec(), vec![0; 40], vec![1, 2, 3]] {
        let e = client
            .query_one("SELECT $1::bytea::roaring64", &[&bytes])
            .expect_err("neither format");
        let db = e.as_db_error().expect("a server error");
        assert_eq!(db.code().code(), "22P03");
        assert!(
            db.message().contains("native format") && db.message().contains("portable"),
            "{}",
            db.message()
        );
    }
}
