//! A mutation fuzzer of the five ways untrusted bytes enter a roaring64: the bytea
//! cast, rb_from_portable, hex text input, a binary parameter (roaring64_recv) and
//! binary COPY. Valid native and portable values are mutated (bit flips, byte
//! writes, truncation, extension, splices of other seeds, header fields nudged) and
//! sent through every path. Each must either be refused with a user error (22P03,
//! or 54000 for a size) and leave the connection usable, or be accepted as a value
//! that is canonical and consistent: its bytes validate again, equal the input
//! when the input was native, and its portable form decodes (roaring-rs) to the
//! same set as its elements. Never a crash, never XX000.
//!
//! `SROAR_FUZZ_ITERS` mutations per path (default 2000, a few seconds; scripts/test.sh
//! runs that); `SROAR_FUZZ_SEED` replays a run. A long run:
//! `SROAR_FUZZ_ITERS=100000 SROAR_PG_PORT=15433 cargo test -p sroar_pg_client_tests --test fuzz_inputs -- --nocapture`.

use std::io::Write;

use postgres::Client;
use roaring::RoaringTreemap;
use sroar_pg_client_tests::{connect, hex, sqlstate, Raw};

/// xorshift64*: deterministic, so a failure replays from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Sets of every shape, as native bytes and as portable bytes.
fn seeds(c: &mut Client) -> Vec<Vec<u8>> {
    let sets = [
        "'{}'",
        "'{0}'",
        "'{-9223372036854775808, -1, 0, 65535, 65536, 4294967296, 281474976710656, 9223372036854775807}'",
        "rb_from_range(0, 100000)",
        "rb_from_range(-70000, 70000)",
        "rb_build(ARRAY(SELECT g * 3 FROM generate_series(0, 5000) g))",
        "rb_build(ARRAY(SELECT (g * 7919) % 1000003 FROM generate_series(0, 3000) g))",
        "rb_build(ARRAY(SELECT g FROM generate_series(0, 70000) g WHERE g % 5 <> 0))",
        "rb_build(ARRAY(SELECT g << 40 FROM generate_series(0, 40) g))",
    ];
    let mut out = Vec::new();
    for set in sets {
        let row = c
            .query_one(
                &format!("SELECT ({set})::roaring64::bytea, rb_to_portable({set})"),
                &[],
            )
            .unwrap();
        out.push(row.get::<_, Vec<u8>>(0));
        out.push(row.get::<_, Vec<u8>>(1));
    }
    out
}

fn mutate(rng: &mut Rng, seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut b = seeds[rng.below(seeds.len())].clone();
    for _ in 0..1 + rng.below(3) {
        match rng.below(8) {
            0 if !b.is_empty() => {
                let i = rng.below(b.len());
                b[i] ^= 1 << rng.below(8);
            }
            1 if !b.is_empty() => {
                let i = rng.below(b.len());
                b[i] = rng.next() as u8;
            }
            2 => b.truncate(rng.below(b.len() + 1)),
            3 => b.extend((0..1 + rng.below(16)).map(|_| rng.next() as u8)),
            4 => {
                // Splice the tail of another seed at a random point.
                let other = &seeds[rng.below(seeds.len())];
                let (at, from) = (rng.below(b.len() + 1), rng.below(other.len() + 1));
                b.truncate(at);
                b.extend_from_slice(&other[from..]);
            }
            5 if b.len() >= 16 => {
                // Nudge a header field: counts, lengths, cardinality.
                let at = [8usize, 12, 16, 24, 32, 0, 4][rng.below(7)].min(b.len() - 4);
                let delta = [1u32, u32::MAX, 0x8000_0000, 2][rng.below(4)];
                let v = u32::from_le_bytes(b[at..at + 4].try_into().unwrap()).wrapping_add(delta);
                b[at..at + 4].copy_from_slice(&v.to_le_bytes());
            }
            6 if b.len() >= 2 => {
                // Swap two bytes (reorders keys, values or descriptors).
                let (i, j) = (rng.below(b.len()), rng.below(b.len()));
                b.swap(i, j);
            }
            _ => {
                let i = rng.below(b.len() + 1);
                b.insert(i, rng.next() as u8);
            }
        }
    }
    b
}

/// An accepted value is canonical and consistent: its stored bytes validate again
/// and equal the native input (when it was native), and its portable form holds
/// exactly its elements.
fn check_accepted(c: &mut Client, input: &[u8], stored: &[u8], path: &str) {
    let row = c
        .query_one(
            "SELECT $1::bytea::roaring64::bytea = $1::bytea, rb_to_portable($1::bytea::roaring64),
                    rb_to_array($1::bytea::roaring64), rb_cardinality($1::bytea::roaring64)",
            &[&stored],
        )
        .unwrap_or_else(|e| panic!("{path}: an accepted value fails to re-validate: {e:?}"));
    assert!(
        row.get::<_, bool>(0),
        "{path}: round trip of accepted bytes"
    );
    let portable: Vec<u8> = row.get(1);
    let elements: Vec<i64> = row.get(2);
    assert_eq!(
        row.get::<_, i64>(3) as usize,
        elements.len(),
        "{path}: cardinality"
    );
    let tree = RoaringTreemap::deserialize_from(&portable[..])
        .unwrap_or_else(|e| panic!("{path}: portable output unreadable: {e}"));
    let from_tree: Vec<i64> = tree.iter().map(|v| v as i64).collect();
    let mut sorted = from_tree.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, elements, "{path}: portable form holds the elements");
    if input.starts_with(b"SR64") {
        assert_eq!(
            stored, input,
            "{path}: accepted native bytes are stored as given"
        );
    }
}

/// The outcome of one input on one path: accepted (with the stored bytes) or a
/// user error. Anything else (XX000, a lost connection) fails the test.
fn outcome(r: Result<Vec<u8>, postgres::Error>, path: &str, input: &[u8]) -> Option<Vec<u8>> {
    match r {
        Ok(stored) => Some(stored),
        Err(e) => {
            let state = sqlstate(&e).unwrap_or_else(|| {
                panic!("{path}: no SQLSTATE (the server may have crashed) for input {input:02x?}: {e:?}")
            });
            assert!(
                ["22P03", "54000", "22P02"].contains(&state.as_str()),
                "{path}: SQLSTATE {state} for input {input:02x?}: {e:?}"
            );
            None
        }
    }
}

/// One row of binary COPY holding `bytes` as a roaring64 column.
fn copy_binary(c: &mut Client, bytes: &[u8]) -> Result<Vec<u8>, postgres::Error> {
    let mut data = Vec::new();
    data.extend_from_slice(b"PGCOPY\n\xff\r\n\0");
    data.extend_from_slice(&0u32.to_be_bytes());
    data.extend_from_slice(&0u32.to_be_bytes());
    data.extend_from_slice(&1u16.to_be_bytes());
    data.extend_from_slice(&(bytes.len() as i32).to_be_bytes());
    data.extend_from_slice(bytes);
    data.extend_from_slice(&(-1i16).to_be_bytes());
    c.batch_execute("TRUNCATE fuzz_copy")?;
    let mut w = c.copy_in("COPY fuzz_copy FROM STDIN (FORMAT binary)")?;
    w.write_all(&data).expect("write COPY data");
    w.finish()?;
    let row = c.query_one("SELECT r::bytea FROM fuzz_copy", &[])?;
    Ok(row.get(0))
}

#[test]
fn mutated_inputs_are_refused_or_canonical() {
    let iters: usize = std::env::var("SROAR_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let seed: u64 = std::env::var("SROAR_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5eed_5eed_1234_5678);
    eprintln!("fuzz_inputs: {iters} mutations per path, SROAR_FUZZ_SEED={seed}");
    let mut c = connect();
    c.batch_execute("DROP TABLE IF EXISTS fuzz_copy; CREATE TABLE fuzz_copy (r roaring64)")
        .unwrap();
    let seeds = seeds(&mut c);
    let param = c
        .prepare("SELECT $1::roaring64::bytea")
        .expect("a statement with a roaring64 parameter");
    let mut rng = Rng(seed | 1);
    let mut accepted = [0usize; 5];
    for i in 0..iters {
        let input = mutate(&mut rng, &seeds);
        let mut paths: Vec<(&str, Result<Vec<u8>, postgres::Error>)> = vec![
            (
                "bytea cast",
                c.query_one("SELECT $1::bytea::roaring64::bytea", &[&input])
                    .map(|r| r.get(0)),
            ),
            (
                "rb_from_portable",
                c.query_one("SELECT rb_from_portable($1::bytea)::bytea", &[&input])
                    .map(|r| r.get(0)),
            ),
            (
                "hex text",
                c.query_one(
                    "SELECT $1::text::roaring64::bytea",
                    &[&format!("\\x{}", hex(&input))],
                )
                .map(|r| r.get(0)),
            ),
            (
                "binary parameter",
                c.query_one(&param, &[&Raw(input.clone())])
                    .map(|r| r.get(0)),
            ),
        ];
        // A COPY per input costs more: every fourth input takes that path too.
        if i % 4 == 0 {
            paths.push(("binary COPY", copy_binary(&mut c, &input)));
        }
        for (k, (path, r)) in paths.into_iter().enumerate() {
            if let Some(stored) = outcome(r, path, &input) {
                accepted[k] += 1;
                check_accepted(&mut c, &input, &stored, path);
            }
        }
    }
    eprintln!("fuzz_inputs: accepted per path (bytea, portable, hex, param, copy): {accepted:?}");
    // The mutations are mild enough that some survive every path but COPY's sample.
    assert!(accepted[..4].iter().all(|&n| n > 0), "{accepted:?}");
}
