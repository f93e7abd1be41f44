//! Property tests: every operator and function of sql/sroar_pg.sql, driven through a
//! real client, against a Rust model of the set (`BTreeSet<i64>`).
//!
//! Sets are random unions of points, long runs and dense random blocks, clustered near
//! 0, ±2^16, ±2^32, ±2^48, int8 min and max, so that every container kind, container
//! boundaries, the sign boundary and the ends of the int8 domain all occur. Values
//! reach the server as `int8[]` parameters, as text literals, and as binary parameters
//! (native bytes and the portable format); results come back as arrays, binary
//! values and text. scripts/test.sh starts the server and sets SROAR_PG_PORT.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::fmt::Write as _;

use postgres::types::ToSql;
use postgres::Client;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use roaring::RoaringTreemap;
use sroar_pg_client_tests::{array_text, connect, hex, sqlstate, Raw};

type Set = BTreeSet<i64>;

const CASES: u32 = 64;

// ---------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------

const CENTERS: [i64; 11] = [
    0,
    1 << 16,
    -(1 << 16),
    1 << 32,
    -(1 << 32),
    1 << 48,
    -(1 << 48),
    i64::MIN,
    i64::MAX,
    (1 << 16) * 7 + 3,
    -1,
];

fn center() -> impl Strategy<Value = i64> {
    prop_oneof![
        6 => proptest::sample::select(CENTERS.to_vec()),
        1 => any::<i64>(),
    ]
}

fn offset() -> impl Strategy<Value = i64> {
    prop_oneof![
        3 => -300i64..300,
        2 => -140_000i64..140_000,
    ]
}

/// One building block of a random set, around a center value.
#[derive(Debug, Clone)]
enum Piece {
    Points(i64, Vec<i64>),
    /// A run of consecutive values: center, offset of the start, length.
    Run(i64, i64, u32),
    /// Values of [start, start + span) kept with probability density/256.
    Dense(i64, i64, u32, u8, u64),
}

fn piece() -> impl Strategy<Value = Piece> {
    prop_oneof![
        3 => (center(), prop::collection::vec(offset(), 1..40)).prop_map(|(c, o)| Piece::Points(c, o)),
        2 => (center(), offset(), prop_oneof![1u32..100, 1000u32..9000]).prop_map(|(c, o, n)| Piece::Run(c, o, n)),
        2 => (center(), offset(), prop_oneof![1u32..3000, 9000u32..30_000], any::<u8>(), any::<u64>())
            .prop_map(|(c, o, s, d, seed)| Piece::Dense(c, o, s, d, seed)),
    ]
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Values from `start` on, at most `n` of them, stopping at int8 max.
fn run_from(start: i64, n: u32) -> impl Iterator<Item = i64> {
    (0..i64::from(n)).map_while(move |i| start.checked_add(i))
}

fn materialize(pieces: &[Piece]) -> Set {
    let mut set = Set::new();
    for p in pieces {
        match p {
            Piece::Points(c, offs) => set.extend(offs.iter().map(|o| c.saturating_add(*o))),
            Piece::Run(c, o, n) => set.extend(run_from(c.saturating_add(*o), *n)),
            Piece::Dense(c, o, span, density, seed) => {
                let mut s = *seed;
                let keep = u64::from(*density) + 1;
                set.extend(
                    run_from(c.saturating_add(*o), *span).filter(|_| splitmix(&mut s) % 257 < keep),
                );
            }
        }
    }
    set
}

fn set() -> impl Strategy<Value = Set> {
    prop_oneof![
        1 => Just(Vec::new()),
        12 => prop::collection::vec(piece(), 1..5),
    ]
    .prop_map(|p| materialize(&p))
}

/// A second set related to `a` as chosen by `kind`: equal, a superset, a subset, a
/// prefix (for the order), a small change, or independent.
fn related(a: &Set, b: Set, kind: u8, seed: u64) -> Set {
    let mut s = seed;
    match kind % 7 {
        0 => a.clone(),
        1 => a.union(&b).copied().collect(),
        2 => a
            .iter()
            .copied()
            .filter(|_| !splitmix(&mut s).is_multiple_of(4))
            .collect(),
        3 => {
            let k = if a.is_empty() {
                0
            } else {
                (splitmix(&mut s) % (a.len() as u64 + 1)) as usize
            };
            a.iter().copied().take(k).collect()
        }
        4 => {
            let mut c = a.clone();
            if let Some(&x) = a.iter().nth((seed % (a.len() as u64).max(1)) as usize) {
                c.remove(&x);
                c.insert(x.saturating_add(1));
            } else {
                c.insert(seed as i64);
            }
            c
        }
        _ => b,
    }
}

fn pair() -> impl Strategy<Value = (Set, Set)> {
    (set(), set(), any::<u8>(), any::<u64>()).prop_map(|(a, b, k, seed)| {
        let b = related(&a, b, k, seed);
        if seed % 2 == 0 {
            (a, b)
        } else {
            (b, a)
        }
    })
}

/// Probe values: members, their neighbours, container edges, the int8 ends.
fn probes(a: &Set, seeds: &[u64]) -> Vec<i64> {
    let members: Vec<i64> = a.iter().copied().collect();
    let mut out = vec![i64::MIN, i64::MAX, 0, -1, 1, 65535, 65536, -65536, -65537];
    for &seed in seeds {
        let pick = if members.is_empty() {
            CENTERS[(seed % CENTERS.len() as u64) as usize]
        } else {
            members[(seed % members.len() as u64) as usize]
        };
        out.push(match (seed >> 32) % 5 {
            0 => pick,
            1 => pick.saturating_add(1),
            2 => pick.saturating_sub(1),
            3 => pick & !0xffff,
            _ => seed as i64,
        });
    }
    out
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn run<S: Strategy>(name: &str, strategy: S, test: impl Fn(&mut Client, S::Value))
where
    S::Value: std::fmt::Debug,
{
    run_cases(name, CASES, strategy, test);
}

/// As `run`, with a number of cases of its own (for the slower properties).
fn run_cases<S: Strategy>(name: &str, cases: u32, strategy: S, test: impl Fn(&mut Client, S::Value))
where
    S::Value: std::fmt::Debug,
{
    let client = RefCell::new(connect());
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 200,
        ..Config::default()
    });
    let result = runner.run(&strategy, |value| {
        test(&mut client.borrow_mut(), value);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{name}: {e}");
    }
}

fn vec_of(s: &Set) -> Vec<i64> {
    s.iter().copied().collect()
}

/// The native bytes of a set, built from an int8[] parameter.
fn build(c: &mut Client, s: &Set) -> Raw {
    let bytes: Vec<u8> = c
        .query_one("SELECT rb_build($1::int8[])::bytea", &[&vec_of(s)])
        .unwrap()
        .get(0);
    Raw(bytes)
}

/// SQL that is true when the roaring64 expression's bytes are the canonical
/// encoding of its elements.
fn canon(e: &str) -> String {
    format!("(({e})::bytea = rb_build(rb_to_array({e}))::bytea)")
}

/// A text literal of the set: shuffled, with duplicates, signs and whitespace.
fn noisy_text(s: &Set, seed: u64) -> String {
    let mut st = seed;
    let mut v: Vec<i64> = s.iter().copied().collect();
    let dups: Vec<i64> = v
        .iter()
        .copied()
        .filter(|_| splitmix(&mut st).is_multiple_of(8))
        .collect();
    v.extend(dups);
    for i in (1..v.len()).rev() {
        let j = (splitmix(&mut st) % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
    let ws = |st: &mut u64| match splitmix(st) % 6 {
        0 => " ",
        1 => "\t",
        2 => "\n ",
        _ => "",
    };
    let mut out = String::new();
    out.push_str(ws(&mut st));
    out.push('{');
    for (i, x) in v.iter().enumerate() {
        if i > 0 {
            out.push_str(ws(&mut st));
            out.push(',');
        }
        out.push_str(ws(&mut st));
        if *x >= 0 && splitmix(&mut st).is_multiple_of(4) {
            out.push('+');
        }
        write!(out, "{x}").unwrap();
    }
    out.push_str(ws(&mut st));
    out.push('}');
    out.push_str(ws(&mut st));
    out
}

fn cmp_i32(o: std::cmp::Ordering) -> i32 {
    o as i32
}

// ---------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------

/// int8[] parameters, casts, text literals, binary parameters (native and portable),
/// bytea casts, both text output formats and the portable format all agree.
#[test]
fn input_and_output_paths_agree() {
    run("io", (set(), any::<u64>()), |c, (a, seed)| {
        let v = vec_of(&a);
        let native = build(c, &a);

        let row = c
            .query_one(
                "SELECT ($1::int8[])::roaring64::bytea, ($2::text)::roaring64::bytea,
                        roaring64_from_bytea($3::bytea)::bytea, ($3::bytea)::roaring64::bytea",
                &[&v, &noisy_text(&a, seed), &native.0],
            )
            .unwrap();
        for i in 0..4 {
            assert_eq!(row.get::<_, Vec<u8>>(i), native.0, "column {i} for {a:?}");
        }

        // Binary parameter in, binary and array results out.
        let row = c
            .query_one(
                "SELECT $1::roaring64, ($1::roaring64)::bytea, rb_to_array($1), ($1::roaring64)::int8[],
                        ($1::roaring64)::text, rb_is_empty($1)",
                &[&native],
            )
            .unwrap();
        assert_eq!(row.get::<_, Raw>(0), native, "binary send");
        assert_eq!(row.get::<_, Vec<u8>>(1), native.0);
        assert_eq!(row.get::<_, Vec<i64>>(2), v);
        assert_eq!(row.get::<_, Vec<i64>>(3), v);
        assert_eq!(row.get::<_, String>(4), array_text(&a));
        assert_eq!(row.get::<_, bool>(5), a.is_empty());

        // int4[] cast, for the elements that are int4 values.
        let small: Vec<i32> = a.iter().filter_map(|&x| i32::try_from(x).ok()).collect();
        let small_set: Set = small.iter().map(|&x| i64::from(x)).collect();
        let row = c
            .query_one(
                "SELECT ($1::int4[])::roaring64::bytea, roaring64_from_int4_array($1::int4[])::bytea",
                &[&small],
            )
            .unwrap();
        let expect = build(c, &small_set);
        assert_eq!(Raw(row.get(0)), expect, "int4[] cast");
        assert_eq!(Raw(row.get(1)), expect, "roaring64_from_int4_array");

        // Hex text output, and reading it back, in the same session.
        c.batch_execute("SET sroar.output_format = 'hex'").unwrap();
        let row = c
            .query_one(
                "SELECT ($1::roaring64)::text, (($1::roaring64)::text)::roaring64::bytea,
                        rb_to_array($1)",
                &[&native],
            )
            .unwrap();
        c.batch_execute("RESET sroar.output_format").unwrap();
        assert_eq!(row.get::<_, String>(0), format!("\\x{}", hex(&native.0)));
        assert_eq!(row.get::<_, Vec<u8>>(1), native.0);
        assert_eq!(row.get::<_, Vec<i64>>(2), v);
        // Array text output read back.
        let back: Vec<u8> = c
            .query_one(
                "SELECT (($1::roaring64)::text)::roaring64::bytea",
                &[&native],
            )
            .unwrap()
            .get(0);
        assert_eq!(back, native.0);

        // The portable format: checked by an independent reader and writer.
        let row = c
            .query_one(
                "SELECT rb_to_portable($1), rb_from_portable(rb_to_portable($1))::bytea",
                &[&native],
            )
            .unwrap();
        let portable: Vec<u8> = row.get(0);
        assert_eq!(row.get::<_, Vec<u8>>(1), native.0, "portable round trip");
        let tm = RoaringTreemap::deserialize_from(&portable[..]).expect("roaring-rs reads it");
        assert_eq!(
            tm.iter().map(|x| x as i64).collect::<Set>(),
            a,
            "portable value v is the int8 with the same bits"
        );
        // roaring-rs bytes, plain (array and bitmap containers) and run-optimized.
        let mut theirs: RoaringTreemap = a.iter().map(|&x| x as u64).collect();
        for optimized in [false, true] {
            if optimized {
                theirs.optimize();
            }
            let mut theirs_bytes = Vec::new();
            theirs.serialize_into(&mut theirs_bytes).unwrap();
            let row = c
                .query_one(
                    "SELECT rb_from_portable($1::bytea)::bytea, ($2::roaring64)::bytea",
                    &[&theirs_bytes, &Raw(theirs_bytes.clone())],
                )
                .unwrap();
            assert_eq!(
                row.get::<_, Vec<u8>>(0),
                native.0,
                "rb_from_portable(roaring-rs, optimized: {optimized})"
            );
            assert_eq!(
                row.get::<_, Vec<u8>>(1),
                native.0,
                "binary input in the portable format (optimized: {optimized})"
            );
            if optimized {
                // FORMAT.md: the portable output is byte-identical to theirs.
                assert_eq!(
                    portable, theirs_bytes,
                    "rb_to_portable = roaring-rs optimized bytes"
                );
            }
        }
    });
}

/// One set: header functions, membership, rank, index, select, iteration, stats.
#[test]
fn one_set_functions() {
    let strat = (
        set(),
        prop::collection::vec(any::<u64>(), 0..12),
        prop::collection::vec(any::<i64>(), 0..4),
    );
    run("scalars", strat, |c, (a, seeds, extra_ks)| {
        let v = vec_of(&a);
        let native = build(c, &a);
        let row = c
            .query_one(
                "SELECT rb_cardinality($1), rb_is_empty($1), rb_min($1), rb_max($1),
                        rb_stats($1)::text, octet_length($1::bytea), sroar_version()",
                &[&native],
            )
            .unwrap();
        assert_eq!(row.get::<_, i64>(0), a.len() as i64);
        assert_eq!(row.get::<_, bool>(1), a.is_empty());
        assert_eq!(row.get::<_, Option<i64>>(2), a.first().copied());
        assert_eq!(row.get::<_, Option<i64>>(3), a.last().copied());
        let stats: String = row.get(4);
        let containers: BTreeSet<u64> = a.iter().map(|&x| ((x as u64) ^ (1 << 63)) >> 16).collect();
        for needle in [
            format!("\"cardinality\": {}", a.len()),
            format!("\"containers\": {}", containers.len()),
            format!("\"bytes\": {}", row.get::<_, i32>(5)),
            "\"format_version\": 2".to_owned(),
        ] {
            assert!(stats.contains(&needle), "{needle} in {stats}");
        }
        assert!(row.get::<_, String>(6).contains("format version 2"));

        // Membership, rank and index of probes.
        let xs = probes(&a, &seeds);
        let rows = c
            .query(
                "SELECT x, rb_contains($1, x), $1 @> x, x <@ $1, roaring64_int8_contained_by(x, $1),
                        rb_rank($1, x), rb_index($1, x)
                 FROM unnest($2::int8[]) WITH ORDINALITY AS t(x, n) ORDER BY n",
                &[&native, &xs],
            )
            .unwrap();
        assert_eq!(rows.len(), xs.len());
        for r in rows {
            let x: i64 = r.get(0);
            let member = a.contains(&x);
            for i in 1..=4 {
                assert_eq!(r.get::<_, bool>(i), member, "membership col {i} of {x}");
            }
            let rank = a.range(..=x).count() as i64;
            assert_eq!(r.get::<_, i64>(5), rank, "rb_rank of {x}");
            let index = if member { rank - 1 } else { -1 };
            assert_eq!(r.get::<_, i64>(6), index, "rb_index of {x}");
        }

        // Select at interesting ranks.
        let n = a.len() as i64;
        let mut ks = vec![-1, 0, 1, n - 1, n, n + 1, i64::MIN, i64::MAX, n / 2];
        ks.extend(extra_ks.iter().map(|k| k.rem_euclid(n.max(1) + 2) - 1));
        let rows = c
            .query(
                "SELECT k, rb_select($1, k) FROM unnest($2::int8[]) WITH ORDINALITY AS t(k, n) ORDER BY n",
                &[&native, &ks],
            )
            .unwrap();
        for r in rows {
            let k: i64 = r.get(0);
            let expect = usize::try_from(k).ok().and_then(|k| v.get(k).copied());
            assert_eq!(r.get::<_, Option<i64>>(1), expect, "rb_select({k})");
        }

        // Iteration, streamed.
        let rows = c
            .query("SELECT v FROM rb_iterate($1) AS v", &[&native])
            .unwrap();
        let it: Vec<i64> = rows.iter().map(|r| r.get(0)).collect();
        assert_eq!(it, v, "rb_iterate");

        // The same set stored in a table: large values are TOASTed out of line
        // (uncompressed, by default), where the header functions and rb_contains
        // read slices; also stored compressed (extended) and inline (main).
        c.batch_execute(
            "DROP TABLE IF EXISTS pg_temp.stored;
             CREATE TEMP TABLE stored (e roaring64, c roaring64, m roaring64);
             ALTER TABLE stored ALTER COLUMN c SET STORAGE extended,
                                ALTER COLUMN m SET STORAGE main;",
        )
        .unwrap();
        c.execute(
            "INSERT INTO stored VALUES ($1::roaring64, $1::roaring64, $1::roaring64)",
            &[&native],
        )
        .unwrap();
        let out_of_line: bool = c
            .query_one(
                "SELECT octet_length(e::bytea) < 2100
                          OR (SELECT pg_relation_size(reltoastrelid) > 0 FROM pg_class
                              WHERE oid = 'pg_temp.stored'::regclass)
                 FROM stored",
                &[],
            )
            .unwrap()
            .get(0);
        assert!(out_of_line, "large values are stored out of line");
        for col in ["e", "c", "m"] {
            let row = c
                .query_one(
                    &format!(
                        "SELECT rb_cardinality({col}), rb_is_empty({col}), rb_min({col}),
                                rb_max({col}), {col}::bytea
                         FROM stored"
                    ),
                    &[],
                )
                .unwrap();
            let what = format!("stored ({col})");
            assert_eq!(
                row.get::<_, i64>(0),
                a.len() as i64,
                "{what} rb_cardinality"
            );
            assert_eq!(row.get::<_, bool>(1), a.is_empty(), "{what} rb_is_empty");
            assert_eq!(
                row.get::<_, Option<i64>>(2),
                a.first().copied(),
                "{what} rb_min"
            );
            assert_eq!(
                row.get::<_, Option<i64>>(3),
                a.last().copied(),
                "{what} rb_max"
            );
            assert_eq!(row.get::<_, Vec<u8>>(4), native.0, "{what} bytes");
            let rows = c
                .query(
                    &format!(
                        "SELECT x, rb_contains({col}, x), {col} @> x, x <@ {col},
                                rb_rank({col}, x), rb_index({col}, x)
                         FROM stored, unnest($1::int8[]) WITH ORDINALITY AS t(x, n) ORDER BY n"
                    ),
                    &[&xs],
                )
                .unwrap();
            assert_eq!(rows.len(), xs.len());
            for r in rows {
                let x: i64 = r.get(0);
                let member = a.contains(&x);
                for i in 1..=3 {
                    assert_eq!(
                        r.get::<_, bool>(i),
                        member,
                        "{what} membership col {i} of {x}"
                    );
                }
                let rank = a.range(..=x).count() as i64;
                assert_eq!(r.get::<_, i64>(4), rank, "{what} rb_rank of {x}");
                let index = if member { rank - 1 } else { -1 };
                assert_eq!(r.get::<_, i64>(5), index, "{what} rb_index of {x}");
            }
        }
    });
}

/// Two sets: set algebra, its cardinalities, Jaccard, containment, intersection,
/// equality, the order (lexicographic on ascending elements) and hashing.
#[test]
fn two_set_operators() {
    let sql = format!(
        "SELECT rb_to_array(a & b), rb_to_array(a | b), rb_to_array(a # b), rb_to_array(a - b),
                {} AND {} AND {} AND {},
                rb_and(a, b) = a & b AND b & a = a & b
                  AND rb_or(a, b) = a | b AND b | a = a | b
                  AND rb_xor(a, b) = a # b AND b # a = a # b
                  AND rb_andnot(a, b) = a - b,
                rb_and_cardinality(a, b), rb_or_cardinality(a, b),
                rb_xor_cardinality(a, b), rb_andnot_cardinality(a, b),
                rb_jaccard(a, b),
                rb_contains(a, b), a @> b, b <@ a, roaring64_contained_by(b, a),
                rb_intersects(a, b), a && b, b && a,
                a = b, a <> b, a < b, a <= b, a > b, a >= b, roaring64_cmp(a, b),
                roaring64_eq(a, b), roaring64_ne(a, b), roaring64_lt(a, b),
                roaring64_le(a, b), roaring64_gt(a, b), roaring64_ge(a, b),
                roaring64_hash(a) = roaring64_hash(b),
                roaring64_hash_extended(a, 42) = roaring64_hash_extended(b, 42),
                roaring64_hash_extended(a, 0) = roaring64_hash_extended(b, 0)
         FROM (SELECT $1::roaring64 AS a, $2::roaring64 AS b) AS p",
        canon("a & b"),
        canon("a | b"),
        canon("a # b"),
        canon("a - b")
    );
    run("pairs", pair(), |c, (a, b)| {
        let (na, nb) = (build(c, &a), build(c, &b));
        let stmt = c.prepare(&sql).unwrap();
        let row = c.query_one(&stmt, &[&na, &nb]).unwrap();
        let and: Set = a.intersection(&b).copied().collect();
        let or: Set = a.union(&b).copied().collect();
        let xor: Set = a.symmetric_difference(&b).copied().collect();
        let andnot: Set = a.difference(&b).copied().collect();
        assert_eq!(row.get::<_, Vec<i64>>(0), vec_of(&and), "&");
        assert_eq!(row.get::<_, Vec<i64>>(1), vec_of(&or), "|");
        assert_eq!(row.get::<_, Vec<i64>>(2), vec_of(&xor), "#");
        assert_eq!(row.get::<_, Vec<i64>>(3), vec_of(&andnot), "-");
        assert!(row.get::<_, bool>(4), "results are canonical");
        assert!(
            row.get::<_, bool>(5),
            "functions agree with operators; commutative"
        );
        assert_eq!(row.get::<_, i64>(6), and.len() as i64);
        assert_eq!(row.get::<_, i64>(7), or.len() as i64);
        assert_eq!(row.get::<_, i64>(8), xor.len() as i64);
        assert_eq!(row.get::<_, i64>(9), andnot.len() as i64);
        let jaccard = (!or.is_empty()).then(|| and.len() as f64 / or.len() as f64);
        let got: Option<f64> = row.get(10);
        match (got, jaccard) {
            (Some(g), Some(j)) => {
                assert!((g - j).abs() <= 1e-15 * j.max(1.0), "jaccard {g} vs {j}")
            }
            (g, j) => assert_eq!(g, j, "jaccard"),
        }
        let contains = b.is_subset(&a);
        for i in 11..=14 {
            assert_eq!(row.get::<_, bool>(i), contains, "containment col {i}");
        }
        let intersects = !and.is_empty();
        for i in 15..=17 {
            assert_eq!(row.get::<_, bool>(i), intersects, "intersects col {i}");
        }
        let ord = vec_of(&a).cmp(&vec_of(&b));
        let expect = [
            a == b,
            a != b,
            ord.is_lt(),
            ord.is_le(),
            ord.is_gt(),
            ord.is_ge(),
        ];
        for (i, e) in expect.iter().enumerate() {
            assert_eq!(row.get::<_, bool>(18 + i), *e, "comparison col {}", 18 + i);
            assert_eq!(
                row.get::<_, bool>(25 + i),
                *e,
                "support function col {}",
                25 + i
            );
        }
        assert_eq!(
            row.get::<_, i32>(24).signum(),
            cmp_i32(ord),
            "roaring64_cmp"
        );
        if a == b {
            for i in 31..=33 {
                assert!(row.get::<_, bool>(i), "equal sets hash equally (col {i})");
            }
        }
    });
}

/// Sorting (btree), DISTINCT and GROUP BY (hash and sort) over several related sets.
#[test]
fn order_and_grouping_of_many_sets() {
    let strat = (
        set(),
        prop::collection::vec((set(), any::<u8>(), any::<u64>()), 1..7),
    );
    run("order", strat, |c, (a, others)| {
        let mut sets = vec![a.clone()];
        for (b, k, seed) in others {
            let base = sets[(seed % sets.len() as u64) as usize].clone();
            sets.push(related(&base, b, k, seed));
        }
        let bytes: Vec<Vec<u8>> = sets.iter().map(|s| build(c, s).0).collect();
        let rows = c
            .query(
                "SELECT (n - 1)::int4 FROM unnest($1::bytea[]) WITH ORDINALITY AS t(b, n)
                 ORDER BY b::roaring64, n",
                &[&bytes],
            )
            .unwrap();
        let got: Vec<usize> = rows.iter().map(|r| r.get::<_, i32>(0) as usize).collect();
        let mut expect: Vec<usize> = (0..sets.len()).collect();
        expect.sort_by(|&i, &j| vec_of(&sets[i]).cmp(&vec_of(&sets[j])).then(i.cmp(&j)));
        assert_eq!(got, expect, "ORDER BY roaring64");

        let distinct: BTreeSet<&Set> = sets.iter().collect();
        for setting in ["SET enable_hashagg = off", "SET enable_sort = off"] {
            c.batch_execute(setting).unwrap();
            let n: i64 = c
                .query_one(
                    "SELECT count(*) FROM (SELECT b::roaring64 FROM unnest($1::bytea[]) b GROUP BY 1) t",
                    &[&bytes],
                )
                .unwrap()
                .get(0);
            c.batch_execute("RESET enable_hashagg; RESET enable_sort")
                .unwrap();
            assert_eq!(n, distinct.len() as i64, "GROUP BY with {setting}");
        }

        // Self-joins on equality: hash join, merge join and nested loop agree with
        // the model (the number of pairs of equal sets).
        let pairs = sets
            .iter()
            .map(|x| sets.iter().filter(|y| *y == x).count())
            .sum::<usize>() as i64;
        for (method, off) in [
            (
                "Hash Join",
                "SET enable_mergejoin = off; SET enable_nestloop = off",
            ),
            (
                "Merge Join",
                "SET enable_hashjoin = off; SET enable_nestloop = off",
            ),
            (
                "Nested Loop",
                "SET enable_hashjoin = off; SET enable_mergejoin = off",
            ),
        ] {
            c.batch_execute(off).unwrap();
            let sql = "SELECT count(*) FROM unnest($1::bytea[]) x JOIN unnest($1::bytea[]) y
                       ON x::roaring64 = y::roaring64";
            let plan: Vec<String> = c
                .query(&format!("EXPLAIN (COSTS OFF) {sql}"), &[&bytes])
                .unwrap()
                .iter()
                .map(|r| r.get(0))
                .collect();
            let n: i64 = c.query_one(sql, &[&bytes]).unwrap().get(0);
            c.batch_execute("RESET enable_hashjoin; RESET enable_mergejoin; RESET enable_nestloop")
                .unwrap();
            assert!(
                plan.iter().any(|l| l.contains(method)),
                "{method}: {plan:?}"
            );
            assert_eq!(n, pairs, "{method}");
        }
    });
}

/// Adding and removing elements, one at a time and as arrays.
#[test]
fn element_edits() {
    let sql = format!(
        "SELECT rb_to_array(rb_add(a, x)), rb_to_array(rb_remove(a, x)),
                rb_add(a, x) = rb_add(x, a) AND rb_add(a, x) = a | x AND rb_add(a, x) = x | a
                  AND rb_remove(a, x) = a - x,
                {} AND {}
         FROM (SELECT $1::roaring64 AS a, $2::int8 AS x) AS p",
        canon("rb_add(a, x)"),
        canon("rb_remove(a, x)")
    );
    let many = format!(
        "SELECT rb_to_array(rb_add(a, xs)), rb_to_array(rb_remove(a, xs)), {} AND {}
         FROM (SELECT $1::roaring64 AS a, $2::int8[] AS xs) AS p",
        canon("rb_add(a, xs)"),
        canon("rb_remove(a, xs)")
    );
    let strat = (
        set(),
        prop::collection::vec(any::<u64>(), 1..6),
        any::<u64>(),
    );
    run("edits", strat, |c, (a, seeds, seed)| {
        let native = build(c, &a);
        let xs = probes(&a, &seeds);
        // One at a time: three of the fixed probes (int8 min and max, 0, -1, ...)
        // and the random ones.
        let fixed = 9;
        let first = (seed % (fixed as u64 - 2)) as usize;
        for &x in xs[first..first + 3].iter().chain(&xs[fixed..]) {
            let row = c.query_one(&sql, &[&native, &x]).unwrap();
            let mut added = a.clone();
            added.insert(x);
            let mut removed = a.clone();
            removed.remove(&x);
            assert_eq!(row.get::<_, Vec<i64>>(0), vec_of(&added), "rb_add {x}");
            assert_eq!(row.get::<_, Vec<i64>>(1), vec_of(&removed), "rb_remove {x}");
            assert!(row.get::<_, bool>(2), "add/remove spellings agree for {x}");
            assert!(row.get::<_, bool>(3), "canonical results for {x}");
        }
        // As arrays, with duplicates, members and a whole run.
        let mut arr = xs.clone();
        arr.extend(xs.iter().take(3));
        let mut st = seed;
        arr.extend(
            a.iter()
                .filter(|_| splitmix(&mut st).is_multiple_of(3))
                .take(5000),
        );
        let row = c.query_one(&many, &[&native, &arr]).unwrap();
        let added: Set = a.iter().chain(arr.iter()).copied().collect();
        let removed: Set = a.iter().copied().filter(|x| !arr.contains(x)).collect();
        assert_eq!(row.get::<_, Vec<i64>>(0), vec_of(&added), "rb_add many");
        assert_eq!(
            row.get::<_, Vec<i64>>(1),
            vec_of(&removed),
            "rb_remove many"
        );
        assert!(row.get::<_, bool>(2), "canonical");
    });
}

/// Endpoints of ranges: near members, near container edges, near the int8 ends.
fn endpoint(a: &Set, seed: u64, small: i64) -> i64 {
    let members: Vec<i64> = a.iter().copied().collect();
    let base = match seed % 4 {
        0 if !members.is_empty() => members[((seed >> 8) % members.len() as u64) as usize],
        1 => CENTERS[((seed >> 8) % CENTERS.len() as u64) as usize],
        2 => seed as i64,
        _ => [i64::MIN, i64::MAX, 0][((seed >> 8) % 3) as usize],
    };
    base.saturating_add(small)
}

/// Inclusive model bounds [lo, hi] (as i128, empty when lo > hi) of half-open [s, e).
fn half_open(s: i64, e: i64) -> (i128, i128) {
    (i128::from(s), i128::from(e) - 1)
}

fn in_bounds(x: i64, (lo, hi): (i128, i128)) -> bool {
    lo <= i128::from(x) && i128::from(x) <= hi
}

/// The values of bounds, when there are at most `limit` of them.
fn range_values((lo, hi): (i128, i128), limit: i128) -> Option<Vec<i64>> {
    if hi - lo + 1 > limit {
        return None;
    }
    Some((lo..=hi).map(|x| x as i64).collect())
}

/// A range written as int8range(lower, upper, flags), and its inclusive model bounds;
/// None when PostgreSQL itself would refuse it (canonicalization overflows).
fn int8range(lower: Option<i64>, upper: Option<i64>, flags: &str) -> Option<(i128, i128)> {
    let (mut lower, mut upper) = (lower, upper);
    if let (Some(l), Some(u)) = (lower, upper) {
        if l > u {
            (lower, upper) = (Some(u), Some(l));
        }
    }
    let lo_inc = flags.starts_with('[');
    let hi_inc = flags.ends_with(']');
    if (!lo_inc && lower == Some(i64::MAX)) || (hi_inc && upper == Some(i64::MAX)) {
        return None;
    }
    let lo = match lower {
        None => i128::from(i64::MIN),
        Some(l) => i128::from(l) + i128::from(!lo_inc),
    };
    let hi = match upper {
        None => i128::from(i64::MAX),
        Some(u) => i128::from(u) - i128::from(!hi_inc),
    };
    Some((lo, hi))
}

fn check_ranges(
    c: &mut Client,
    a: &Set,
    native: &Raw,
    range_sql: &str,
    params: &[&(dyn ToSql + Sync)],
    bounds: (i128, i128),
    what: &str,
) {
    let inside: Set = a
        .iter()
        .copied()
        .filter(|&x| in_bounds(x, bounds))
        .collect();
    let outside: Set = a
        .iter()
        .copied()
        .filter(|&x| !in_bounds(x, bounds))
        .collect();
    let r = range_sql;
    let sql = format!(
        "SELECT rb_to_array(rb_range($1, {r})), rb_range_cardinality($1, {r}), rb_contains_range($1, {r}),
                rb_to_array(rb_clear($1, {r})), {} AND {}",
        canon(&format!("rb_range($1, {r})")),
        canon(&format!("rb_clear($1, {r})"))
    );
    let mut all: Vec<&(dyn ToSql + Sync)> = vec![native];
    all.extend_from_slice(params);
    let row = c.query_one(&sql, &all).unwrap();
    assert_eq!(
        row.get::<_, Vec<i64>>(0),
        vec_of(&inside),
        "rb_range {what}"
    );
    assert_eq!(
        row.get::<_, i64>(1),
        inside.len() as i64,
        "rb_range_cardinality {what}"
    );
    let (lo, hi) = bounds;
    let width = (hi - lo + 1).max(0);
    assert_eq!(
        row.get::<_, bool>(2),
        inside.len() as i128 == width,
        "rb_contains_range {what}"
    );
    assert_eq!(
        row.get::<_, Vec<i64>>(3),
        vec_of(&outside),
        "rb_clear {what}"
    );
    assert!(row.get::<_, bool>(4), "canonical rb_range/rb_clear {what}");

    // rb_from_range: checked by its header where the set is not too large to build;
    // past 2^43 values it needs more than 1 GB (2^27 containers of 16 bytes).
    if width <= 1 << 32 {
        let sql = format!(
            "SELECT rb_cardinality(rb_from_range({r})), rb_min(rb_from_range({r})), rb_max(rb_from_range({r})), {}
             FROM (SELECT $1::roaring64) AS unused",
            // (rb_to_array of more than 2^27 values is itself over 1 GB)
            if width <= 1 << 20 {
                canon(&format!("rb_from_range({r})"))
            } else {
                "true".to_owned()
            }
        );
        let row = c.query_one(&sql, &all).unwrap();
        assert_eq!(
            i128::from(row.get::<_, i64>(0)),
            width,
            "rb_from_range cardinality {what}"
        );
        let (min, max) = if width > 0 {
            (Some(lo as i64), Some(hi as i64))
        } else {
            (None, None)
        };
        assert_eq!(
            row.get::<_, Option<i64>>(1),
            min,
            "rb_from_range min {what}"
        );
        assert_eq!(
            row.get::<_, Option<i64>>(2),
            max,
            "rb_from_range max {what}"
        );
        assert!(row.get::<_, bool>(3), "canonical rb_from_range {what}");
    } else if width > 1 << 43 {
        let e = c
            .query_one(
                &format!("SELECT rb_from_range({r}) FROM (SELECT $1::roaring64) AS unused"),
                &all,
            )
            .expect_err("a set over 1 GB");
        assert_eq!(
            sqlstate(&e).as_deref(),
            Some("54000"),
            "rb_from_range {what}: {e}"
        );
    }

    // Fill and flip only for ranges small enough to enumerate.
    if let Some(values) = range_values(bounds, 70_000) {
        let sql = format!(
            "SELECT rb_to_array(rb_fill($1, {r})), rb_to_array(rb_flip($1, {r})), rb_to_array(rb_from_range({r})),
                    {} AND {}",
            canon(&format!("rb_fill($1, {r})")),
            canon(&format!("rb_flip($1, {r})"))
        );
        let row = c.query_one(&sql, &all).unwrap();
        let range: Set = values.iter().copied().collect();
        let filled: Set = a.union(&range).copied().collect();
        let flipped: Set = a.symmetric_difference(&range).copied().collect();
        assert_eq!(row.get::<_, Vec<i64>>(0), vec_of(&filled), "rb_fill {what}");
        assert_eq!(
            row.get::<_, Vec<i64>>(1),
            vec_of(&flipped),
            "rb_flip {what}"
        );
        assert_eq!(row.get::<_, Vec<i64>>(2), values, "rb_from_range {what}");
        assert!(row.get::<_, bool>(3), "canonical rb_fill/rb_flip {what}");
    }
}

/// Range functions with (start, end) half-open and with int8range, bounded or not.
#[test]
fn range_functions() {
    let small = prop_oneof![3 => -3i64..3, 1 => -70_000i64..70_000];
    let strat = (
        set(),
        (any::<u64>(), small.clone()),
        (any::<u64>(), small),
        proptest::sample::select(vec!["[)", "[]", "(]", "()"]),
        0u8..4,
    );
    run(
        "ranges",
        strat,
        |c, (a, (s1, o1), (s2, o2), flags, unbounded)| {
            let native = build(c, &a);
            let s = endpoint(&a, s1, o1);
            // A short range from s half of the time, so that fill and flip get exercised.
            let e = if s2 % 2 == 0 {
                s.saturating_add(o2.abs())
            } else {
                endpoint(&a, s2, o2)
            };
            // (start, end): both orders; start >= end is empty.
            for (x, y) in [(s, e), (e, s)] {
                check_ranges(
                    c,
                    &a,
                    &native,
                    "$2::int8, $3::int8",
                    &[&x, &y],
                    half_open(x, y),
                    &format!("[{x}, {y})"),
                );
            }
            // int8range, with either side possibly unbounded.
            let lower = (unbounded & 1 == 0).then_some(s.min(e));
            let upper = (unbounded & 2 == 0).then_some(s.max(e));
            if let Some(bounds) = int8range(lower, upper, flags) {
                check_ranges(
                    c,
                    &a,
                    &native,
                    "int8range($2::int8, $3::int8, $4::text)",
                    &[&lower, &upper, &flags],
                    bounds,
                    &format!("int8range({lower:?}, {upper:?}, {flags})"),
                );
            }
            // The empty int8range.
            check_ranges(
                c,
                &a,
                &native,
                "'empty'::int8range",
                &[],
                (1, 0),
                "empty int8range",
            );
        },
    );
}

/// rb_shift drops elements leaving int8; rb_slice takes ranks [offset, offset+limit).
#[test]
fn shift_and_slice() {
    let deltas = prop_oneof![
        proptest::sample::select(vec![
            0,
            1,
            -1,
            65535,
            65536,
            -65536,
            -65537,
            1 << 32,
            -(1 << 32),
            1 << 48,
            -(1 << 48),
            i64::MAX,
            i64::MIN,
            i64::MIN + 1,
        ]),
        any::<i64>(),
        -200_000i64..200_000,
    ];
    let strat = (set(), deltas, any::<u64>(), any::<u64>(), any::<bool>());
    run("shift", strat, |c, (a, delta, o, l, to_edge)| {
        let native = build(c, &a);
        // Sometimes a delta that moves the largest or smallest element exactly to an end.
        let delta = match (to_edge, a.first(), a.last()) {
            (true, Some(_), Some(&max)) if o % 2 == 0 => i64::MAX.wrapping_sub(max),
            (true, Some(&min), Some(_)) => i64::MIN.wrapping_sub(min),
            _ => delta,
        };
        let delta_minus_1 = delta.saturating_sub(1);
        let delta_plus_1 = delta.saturating_add(1);
        for d in [delta, delta_minus_1, delta_plus_1] {
            let row = c
                .query_one(
                    &format!(
                        "SELECT rb_to_array(rb_shift($1::roaring64, $2::int8)), {}",
                        canon("rb_shift($1::roaring64, $2::int8)")
                    ),
                    &[&native, &d],
                )
                .unwrap();
            let shifted: Set = a.iter().filter_map(|x| x.checked_add(d)).collect();
            assert_eq!(
                row.get::<_, Vec<i64>>(0),
                vec_of(&shifted),
                "rb_shift by {d}"
            );
            assert!(row.get::<_, bool>(1), "canonical rb_shift by {d}");
        }

        let n = a.len() as u64;
        let pick = |s: u64| -> i64 {
            match s % 5 {
                0 => 0,
                1 => i64::MAX,
                2 => (s >> 8) as i64 & i64::MAX,
                _ => ((s >> 8) % (n + 3)) as i64,
            }
        };
        let (offset, limit) = (pick(o), pick(l));
        let row = c
            .query_one(
                &format!(
                    "SELECT rb_to_array(rb_slice($1, $2, $3)), {}",
                    canon("rb_slice($1, $2, $3)")
                ),
                &[&native, &offset, &limit],
            )
            .unwrap();
        let sliced: Vec<i64> = a
            .iter()
            .copied()
            .skip(usize::try_from(offset).unwrap_or(usize::MAX))
            .take(usize::try_from(limit).unwrap_or(usize::MAX))
            .collect();
        assert_eq!(
            row.get::<_, Vec<i64>>(0),
            sliced,
            "rb_slice({offset}, {limit})"
        );
        assert!(row.get::<_, bool>(1), "canonical rb_slice");
    });
}

/// Whether a function with this signature exists (others add functions over time).
fn exists(c: &mut Client, signature: &str) -> bool {
    c.query_one("SELECT to_regprocedure($1) IS NOT NULL", &[&signature])
        .unwrap()
        .get(0)
}

#[derive(Clone, Copy, Debug)]
enum Op {
    Or,
    And,
    Xor,
}

impl Op {
    fn apply(self, x: &Set, y: &Set) -> Set {
        match self {
            Op::Or => x.union(y).copied().collect(),
            Op::And => x.intersection(y).copied().collect(),
            Op::Xor => x.symmetric_difference(y).copied().collect(),
        }
    }

    /// The model of the aggregate: NULL rows skipped, NULL without a non-NULL row.
    fn fold<'a>(self, rows: impl IntoIterator<Item = &'a Option<Set>>) -> Option<Set> {
        rows.into_iter()
            .flatten()
            .fold(None, |acc: Option<Set>, s| {
                Some(match acc {
                    None => s.clone(),
                    Some(a) => self.apply(&a, s),
                })
            })
    }
}

/// The aggregates of this build over roaring64, with the operation each computes
/// and whether it gives the cardinality.
fn set_aggregates(c: &mut Client) -> Vec<(&'static str, Op, bool)> {
    [
        ("rb_or_agg", Op::Or, false),
        ("rb_and_agg", Op::And, false),
        ("rb_xor_agg", Op::Xor, false),
        ("rb_or_cardinality_agg", Op::Or, true),
        ("rb_and_cardinality_agg", Op::And, true),
        ("rb_xor_cardinality_agg", Op::Xor, true),
    ]
    .into_iter()
    .filter(|(name, _, _)| exists(c, &format!("{name}(roaring64)")))
    .collect()
}

/// Aggregates, if the extension has them: over several sets with NULL rows, over
/// only NULL rows and zero rows (NULL), by group, with FILTER and DISTINCT, as
/// running and sliding window aggregates, and with the result used several times.
#[test]
fn aggregates() {
    let mut c = connect();
    let aggs = set_aggregates(&mut c);
    let build_agg = exists(&mut c, "rb_build_agg(int8)");
    if aggs.is_empty() && !build_agg {
        eprintln!("no roaring64 aggregates in this build: nothing to test");
        return;
    }
    drop(c);
    let strat = prop::collection::vec(prop::option::weighted(0.8, set()), 0..7);
    run_cases("aggregates", CASES / 2, strat, |c, sets| {
        let bytes: Vec<Option<Vec<u8>>> = sets
            .iter()
            .map(|s| s.as_ref().map(|s| build(c, s).0))
            .collect();
        let rows_sql = "FROM unnest($1::bytea[]) WITH ORDINALITY AS t(b, n)";
        for &(agg, op, card) in &aggs {
            let call = format!("{agg}(b::roaring64)");
            // Over all rows, over the odd rows (FILTER), over zero rows, DISTINCT, and
            // the result used several times.
            let sql = if card {
                format!(
                    "SELECT {call}, {agg}(b::roaring64) FILTER (WHERE n % 2 = 1),
                            (SELECT {agg}(r) FROM (SELECT '{{1}}'::roaring64 r WHERE false) z),
                            {agg}(DISTINCT b::roaring64)
                     {rows_sql}"
                )
            } else {
                format!(
                    "SELECT rb_to_array(x), rb_to_array(f), z IS NULL, rb_to_array(d),
                            x IS NULL OR (x::bytea = rb_build(rb_to_array(x))::bytea
                                          AND x | x = x AND rb_cardinality(x) = cardinality(rb_to_array(x)))
                     FROM (SELECT {call} AS x, {agg}(b::roaring64) FILTER (WHERE n % 2 = 1) AS f,
                                  (SELECT {agg}(r) FROM (SELECT '{{1}}'::roaring64 r WHERE false) z) AS z,
                                  {agg}(DISTINCT b::roaring64) AS d
                           {rows_sql} OFFSET 0) q"
                )
            };
            let row = c.query_one(&sql, &[&bytes]).unwrap();
            let all = op.fold(&sets);
            let odd = op.fold(
                sets.iter()
                    .enumerate()
                    .filter(|(i, _)| i % 2 == 0)
                    .map(|(_, s)| s),
            );
            let mut distinct: Vec<Option<Set>> = sets.clone();
            distinct.sort();
            distinct.dedup();
            let dist = op.fold(&distinct);
            if card {
                let len = |s: Option<Set>| s.map(|s| s.len() as i64);
                assert_eq!(
                    row.get::<_, Option<i64>>(0),
                    len(all.clone()),
                    "{agg} over {sets:?}"
                );
                assert_eq!(row.get::<_, Option<i64>>(1), len(odd), "{agg} FILTER");
                assert_eq!(row.get::<_, Option<i64>>(2), None, "{agg} over zero rows");
                assert_eq!(row.get::<_, Option<i64>>(3), len(dist), "{agg} DISTINCT");
            } else {
                let arr = |s: Option<Set>| s.as_ref().map(vec_of);
                assert_eq!(
                    row.get::<_, Option<Vec<i64>>>(0),
                    arr(all.clone()),
                    "{agg} over {sets:?}"
                );
                assert_eq!(row.get::<_, Option<Vec<i64>>>(1), arr(odd), "{agg} FILTER");
                assert!(row.get::<_, bool>(2), "{agg} over zero rows is NULL");
                assert_eq!(
                    row.get::<_, Option<Vec<i64>>>(3),
                    arr(dist),
                    "{agg} DISTINCT"
                );
                assert!(
                    row.get::<_, bool>(4),
                    "{agg}: the result is canonical and reusable"
                );
            }

            // By group: rows n % 2 = 0 and n % 2 = 1.
            let value = if card {
                call.clone()
            } else {
                format!("rb_to_array({call})")
            };
            let rows = c
                .query(
                    &format!("SELECT (n % 2)::int4, {value} {rows_sql} GROUP BY 1 ORDER BY 1"),
                    &[&bytes],
                )
                .unwrap();
            for r in rows {
                let g: i32 = r.get(0);
                let members = sets
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| (i + 1) % 2 == g as usize)
                    .map(|(_, s)| s);
                let expect = op.fold(members);
                if card {
                    assert_eq!(
                        r.get::<_, Option<i64>>(1),
                        expect.map(|s| s.len() as i64),
                        "{agg} group {g}"
                    );
                } else {
                    assert_eq!(
                        r.get::<_, Option<Vec<i64>>>(1),
                        expect.as_ref().map(vec_of),
                        "{agg} group {g}"
                    );
                }
            }

            // An aggregate of the aggregates of the groups (states from another
            // aggregate as input rows).
            if !card {
                let nested: Option<Vec<i64>> = c
                    .query_one(
                        &format!(
                            "SELECT rb_to_array({agg}(x))
                             FROM (SELECT {call} AS x {rows_sql} GROUP BY n % 3) q"
                        ),
                        &[&bytes],
                    )
                    .unwrap()
                    .get(0);
                assert_eq!(nested, all.as_ref().map(vec_of), "{agg} of {agg} by group");
            }

            // Window aggregates: running (prefixes), and a sliding frame of two rows.
            for (frame, width) in [
                (
                    "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW",
                    usize::MAX,
                ),
                ("ROWS BETWEEN 1 PRECEDING AND CURRENT ROW", 2),
            ] {
                let window = format!("{call} OVER (ORDER BY n {frame})");
                let value = if card {
                    window
                } else {
                    format!("rb_to_array({window})")
                };
                let sql = format!("SELECT n::int4, {value} {rows_sql} ORDER BY n");
                let rows = c.query(&sql, &[&bytes]).unwrap();
                assert_eq!(rows.len(), sets.len());
                for r in rows {
                    let n = r.get::<_, i32>(0) as usize;
                    let lo = n.saturating_sub(width);
                    let expect = op.fold(&sets[lo..n]);
                    if card {
                        assert_eq!(
                            r.get::<_, Option<i64>>(1),
                            expect.map(|s| s.len() as i64),
                            "{agg} {frame} row {n}"
                        );
                    } else {
                        assert_eq!(
                            r.get::<_, Option<Vec<i64>>>(1),
                            expect.as_ref().map(vec_of),
                            "{agg} {frame} row {n}"
                        );
                    }
                }
            }
        }
        if build_agg {
            let values: Vec<Option<i64>> = sets
                .iter()
                .flat_map(|s| match s {
                    Some(s) => s.iter().map(|&x| Some(x)).collect::<Vec<_>>(),
                    None => vec![None],
                })
                .collect();
            let expect: Option<Vec<i64>> = values
                .iter()
                .any(Option::is_some)
                .then(|| vec_of(&values.iter().flatten().copied().collect()));
            let row = c
                .query_one(
                    "SELECT rb_to_array(rb_build_agg(x)),
                            (SELECT rb_build_agg(y) IS NULL FROM (SELECT 1::int8 y WHERE false) z)
                     FROM unnest($1::int8[]) x",
                    &[&values],
                )
                .unwrap();
            assert_eq!(row.get::<_, Option<Vec<i64>>>(0), expect, "rb_build_agg");
            assert!(row.get::<_, bool>(1), "rb_build_agg over zero rows is NULL");
        }
    });
}

/// The transition and final functions of the aggregates, called as plain functions
/// on flat values: the same operation; a NULL side gives the other side.
#[test]
fn aggregate_support_functions_as_plain_functions() {
    let mut c = connect();
    if !exists(&mut c, "rb_or_trans(roaring64_state, roaring64)") {
        eprintln!("no aggregate support functions in this build: nothing to test");
        return;
    }
    drop(c);
    let strat = (
        prop::option::weighted(0.8, set()),
        prop::option::weighted(0.8, set()),
        prop::option::of(any::<i64>()),
    );
    run("trans", strat, |c, (a, b, x)| {
        let na = a.as_ref().map(|s| build(c, s).0);
        let nb = b.as_ref().map(|s| build(c, s).0);
        let row = c
            .query_one(
                "SELECT rb_to_array(rb_or_trans(s, b)::roaring64),
                        rb_to_array(rb_and_trans(s, b)::roaring64),
                        rb_to_array(rb_xor_trans(s, b)::roaring64),
                        rb_to_array(rb_build_trans(s, $3::int8)::roaring64),
                        rb_cardinality_final(s),
                        rb_to_array(rb_or_combine(s, b::roaring64_state)::roaring64),
                        rb_to_array(rb_and_combine(s, b::roaring64_state)::roaring64),
                        rb_to_array(rb_xor_combine(s, b::roaring64_state)::roaring64),
                        rb_to_array(rb_state_final(s)),
                        rb_state_final(s)::text::roaring64_state::roaring64 = a
                 FROM (SELECT a, a::roaring64_state AS s, b
                       FROM (SELECT $1::bytea::roaring64 AS a, $2::bytea::roaring64 AS b) v) p",
                &[&na, &nb, &x],
            )
            .unwrap();
        let pair = [a.clone(), b.clone()];
        for (i, op) in [Op::Or, Op::And, Op::Xor].into_iter().enumerate() {
            assert_eq!(
                row.get::<_, Option<Vec<i64>>>(i),
                op.fold(&pair).as_ref().map(vec_of),
                "{op:?}_trans({a:?}, {b:?})"
            );
        }
        let built = match (&a, x) {
            (Some(a), Some(x)) => Some(a.iter().copied().chain([x]).collect::<Set>()),
            (None, Some(x)) => Some(Set::from([x])),
            (a, None) => a.clone(),
        };
        assert_eq!(
            row.get::<_, Option<Vec<i64>>>(3),
            built.as_ref().map(vec_of),
            "rb_build_trans"
        );
        assert_eq!(
            row.get::<_, Option<i64>>(4),
            a.as_ref().map(|s| s.len() as i64),
            "rb_cardinality_final"
        );
        for (i, op) in [Op::Or, Op::And, Op::Xor].into_iter().enumerate() {
            assert_eq!(
                row.get::<_, Option<Vec<i64>>>(5 + i),
                op.fold(&pair).as_ref().map(vec_of),
                "{op:?}_combine({a:?}, {b:?})"
            );
        }
        assert_eq!(
            row.get::<_, Option<Vec<i64>>>(8),
            a.as_ref().map(vec_of),
            "rb_state_final"
        );
        assert_eq!(
            row.get::<_, Option<bool>>(9),
            a.as_ref().map(|_| true),
            "state text round trip"
        );
    });
}

/// Maximal runs of a set as (first, last) pairs.
fn runs(s: &Set) -> Vec<(i64, i64)> {
    let mut out: Vec<(i64, i64)> = Vec::new();
    for &x in s {
        match out.last_mut() {
            Some((_, last)) if last.checked_add(1) == Some(x) => *last = x,
            _ => out.push((x, x)),
        }
    }
    out
}

/// rb_runs, rb_to_multirange and the int8multirange casts, if this build has them.
#[test]
fn runs_and_multiranges() {
    let mut c = connect();
    let have_runs = exists(&mut c, "rb_runs(roaring64)");
    let have_multirange = exists(&mut c, "rb_to_multirange(roaring64)");
    let have_from = exists(&mut c, "roaring64_from_multirange(int8multirange)");
    if !have_runs && !have_multirange && !have_from {
        eprintln!("no runs or multirange functions in this build: nothing to test");
        return;
    }
    drop(c);
    run("runs", set(), |c, a| {
        let native = build(c, &a);
        let expect = runs(&a);
        if have_runs {
            let got: Vec<(i64, i64)> = c
                .query("SELECT first, last FROM rb_runs($1::roaring64)", &[&native])
                .unwrap()
                .iter()
                .map(|r| (r.get(0), r.get(1)))
                .collect();
            assert_eq!(got, expect, "rb_runs");
        }
        // The text of the multirange: [first,last+1), or [first,) at int8 max.
        let mut text = String::from("{");
        for (i, (f, l)) in expect.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            match l.checked_add(1) {
                Some(end) => write!(text, "[{f},{end})").unwrap(),
                None => write!(text, "[{f},)").unwrap(),
            }
        }
        text.push('}');
        if have_multirange {
            let row = c
                .query_one(
                    "SELECT rb_to_multirange($1::roaring64)::text, ($1::roaring64)::int8multirange::text",
                    &[&native],
                )
                .unwrap();
            assert_eq!(row.get::<_, String>(0), text, "rb_to_multirange");
            assert_eq!(row.get::<_, String>(1), text, "cast to int8multirange");
        }
        if have_from {
            let row = c
                .query_one(
                    "SELECT roaring64_from_multirange($1::text::int8multirange)::bytea,
                            ($1::text::int8multirange)::roaring64::bytea",
                    &[&text],
                )
                .unwrap();
            assert_eq!(Raw(row.get(0)), native, "roaring64_from_multirange({text})");
            assert_eq!(Raw(row.get(1)), native, "cast from int8multirange");
        }
    });
}

/// The setting's values are spelled as documented (`array`, `hex`), as SHOW and
/// pg_settings report them.
#[test]
fn output_format_values_are_spelled_array_and_hex() {
    let mut c = connect();
    // Load the library so that the setting is defined.
    c.batch_execute("SELECT sroar_version()").unwrap();
    let show = |c: &mut Client| -> String {
        c.query_one("SELECT current_setting('sroar.output_format')", &[])
            .unwrap()
            .get(0)
    };
    assert_eq!(show(&mut c), "array");
    c.batch_execute("SET sroar.output_format = hex").unwrap();
    assert_eq!(show(&mut c), "hex");
    c.batch_execute("RESET sroar.output_format").unwrap();
    let vals: Vec<String> = c
        .query_one(
            "SELECT enumvals FROM pg_settings WHERE name = 'sroar.output_format'",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(vals, ["array", "hex"]);
}

/// A GIN index answers @>, <@, &&, = and @> int8 as the model does, empty sets and
/// NULLs included.
#[test]
fn gin_index_answers_like_the_model() {
    let strat = (
        prop::collection::vec(prop::option::weighted(0.9, set()), 1..7),
        set(),
        any::<u8>(),
        any::<u64>(),
        prop::collection::vec(any::<u64>(), 1..4),
    );
    run_cases(
        "gin",
        CASES / 2,
        strat,
        |c, (rows, other, kind, seed, probe_seeds)| {
            let bytes: Vec<Option<Vec<u8>>> = rows
                .iter()
                .map(|s| s.as_ref().map(|s| build(c, s).0))
                .collect();
            c.batch_execute(
                "DROP TABLE IF EXISTS pg_temp.g;
             CREATE TEMP TABLE g (id int, r roaring64);
             CREATE INDEX g_gin ON g USING gin (r);",
            )
            .unwrap();
            c.execute(
            "INSERT INTO g SELECT n, b::roaring64 FROM unnest($1::bytea[]) WITH ORDINALITY AS t(b, n)",
            &[&bytes],
        )
        .unwrap();
            c.batch_execute("SET enable_seqscan = off").unwrap();
            // The query set: related to one of the rows, or to nothing.
            let base = rows[(seed % rows.len() as u64) as usize]
                .clone()
                .unwrap_or_default();
            let q = related(&base, other, kind, seed);
            let nq = build(c, &q);
            let plan: Vec<String> = c
                .query(
                    "EXPLAIN (COSTS OFF) SELECT id FROM g WHERE r @> $1::roaring64",
                    &[&nq],
                )
                .unwrap()
                .iter()
                .map(|r| r.get(0))
                .collect();
            assert!(
                plan.iter().any(|l| l.contains("g_gin")),
                "GIN used: {plan:?}"
            );
            let ids = |c: &mut Client, op: &str| -> Vec<i32> {
                let mut v: Vec<i32> = c
                    .query(
                        &format!("SELECT id FROM g WHERE r {op} $1::roaring64"),
                        &[&nq],
                    )
                    .unwrap()
                    .iter()
                    .map(|r| r.get(0))
                    .collect();
                v.sort_unstable();
                v
            };
            let expect = |f: &dyn Fn(&Set) -> bool| -> Vec<i32> {
                rows.iter()
                    .enumerate()
                    .filter(|(_, s)| s.as_ref().is_some_and(f))
                    .map(|(i, _)| i as i32 + 1)
                    .collect()
            };
            assert_eq!(ids(c, "@>"), expect(&|s| q.is_subset(s)), "r @> {q:?}");
            assert_eq!(ids(c, "<@"), expect(&|s| s.is_subset(&q)), "r <@ {q:?}");
            assert_eq!(ids(c, "&&"), expect(&|s| !s.is_disjoint(&q)), "r && {q:?}");
            assert_eq!(ids(c, "="), expect(&|s| *s == q), "r = {q:?}");
            for x in probes(&base, &probe_seeds) {
                let mut got: Vec<i32> = c
                    .query("SELECT id FROM g WHERE r @> $1::int8", &[&x])
                    .unwrap()
                    .iter()
                    .map(|r| r.get(0))
                    .collect();
                got.sort_unstable();
                assert_eq!(got, expect(&|s| s.contains(&x)), "r @> {x}");
            }
            c.batch_execute("RESET enable_seqscan").unwrap();
        },
    );
}

/// Many sets at once and retention counts, against the model: rb_or, rb_and and
/// rb_xor over VARIADIC arrays (and their cardinalities), and rb_and_cardinality_each.
#[test]
fn many_sets_at_once() {
    let mut c = connect();
    if !exists(&mut c, "rb_or(roaring64[])") {
        eprintln!("no n-way functions in this build: nothing to test");
        return;
    }
    drop(c);
    let strat = (set(), prop::collection::vec(set(), 0..5));
    run("many", strat, |c, (base, sets)| {
        let raws: Vec<Vec<u8>> = sets.iter().map(|s| build(c, s).0).collect();
        let base_raw = build(c, &base).0;
        let row = c
            .query_one(
                "SELECT rb_to_array(rb_or(VARIADIC s)), rb_to_array(rb_and(VARIADIC s)),
                        rb_to_array(rb_xor(VARIADIC s)), rb_or_cardinality(VARIADIC s),
                        rb_and_cardinality(VARIADIC s), rb_xor_cardinality(VARIADIC s),
                        rb_and_cardinality_each($2::bytea::roaring64, s)
                 FROM (SELECT coalesce(array_agg(b::roaring64 ORDER BY i), '{}') AS s
                       FROM unnest($1::bytea[]) WITH ORDINALITY u(b, i)) p",
                &[&raws, &base_raw],
            )
            .unwrap();
        let rows: Vec<Option<Set>> = sets.iter().cloned().map(Some).collect();
        let expect_or = Op::Or.fold(&rows).unwrap_or_default();
        let expect_xor = Op::Xor.fold(&rows).unwrap_or_default();
        let expect_and = Op::And.fold(&rows);
        assert_eq!(
            row.get::<_, Vec<i64>>(0),
            vec_of(&expect_or),
            "rb_or({sets:?})"
        );
        assert_eq!(
            row.get::<_, Option<Vec<i64>>>(1),
            expect_and.as_ref().map(vec_of),
            "rb_and"
        );
        assert_eq!(row.get::<_, Vec<i64>>(2), vec_of(&expect_xor), "rb_xor");
        assert_eq!(
            row.get::<_, i64>(3),
            expect_or.len() as i64,
            "rb_or_cardinality"
        );
        assert_eq!(
            row.get::<_, Option<i64>>(4),
            expect_and.map(|s| s.len() as i64),
            "rb_and_cardinality"
        );
        assert_eq!(
            row.get::<_, i64>(5),
            expect_xor.len() as i64,
            "rb_xor_cardinality"
        );
        let each: Vec<i64> = sets
            .iter()
            .map(|s| base.intersection(s).count() as i64)
            .collect();
        assert_eq!(row.get::<_, Vec<i64>>(6), each, "rb_and_cardinality_each");
    });
}

/// Keyset pagination against the model: the next `n` after a pivot (one of the
/// set's elements, a neighbour, or an edge value), the `n` before it, and the first
/// and last `n`.
#[test]
fn pages_after_and_before() {
    let mut c = connect();
    if !exists(&mut c, "rb_after(roaring64, int8, int8)") {
        eprintln!("no paging functions in this build: nothing to test");
        return;
    }
    drop(c);
    let pivot = prop_oneof![
        Just(i64::MIN),
        Just(i64::MAX),
        Just(0i64),
        Just(-1i64),
        Just(1i64 << 16),
        Just(1i64 << 32),
        any::<i64>(),
    ];
    let strat = (
        set(),
        pivot,
        any::<prop::sample::Index>(),
        0..5i64,
        0..3000i64,
    );
    run("pages", strat, |c, (s, pivot, at, delta, n)| {
        // Half the time the pivot is an element of the set, or next to one.
        let x = match (s.is_empty(), at.index(2)) {
            (false, 0) => s
                .iter()
                .nth(at.index(s.len()))
                .unwrap()
                .saturating_add(delta - 2),
            _ => pivot,
        };
        let raw = build(c, &s).0;
        let row = c
            .query_one(
                "SELECT rb_after(r, $2, $3), rb_before(r, $2, $3), rb_first(r, $3), rb_last(r, $3)
                 FROM (SELECT $1::bytea::roaring64 AS r) p",
                &[&raw, &x, &n],
            )
            .unwrap();
        let n = n as usize;
        let after: Vec<i64> = s
            .range((std::ops::Bound::Excluded(x), std::ops::Bound::Unbounded))
            .copied()
            .take(n)
            .collect();
        let before: Vec<i64> = s.range(..x).rev().copied().take(n).collect();
        let first: Vec<i64> = s.iter().copied().take(n).collect();
        let last: Vec<i64> = s.iter().rev().copied().take(n).collect();
        assert_eq!(row.get::<_, Vec<i64>>(0), after, "rb_after(_, {x}, {n})");
        assert_eq!(row.get::<_, Vec<i64>>(1), before, "rb_before(_, {x}, {n})");
        assert_eq!(row.get::<_, Vec<i64>>(2), first, "rb_first(_, {n})");
        assert_eq!(row.get::<_, Vec<i64>>(3), last, "rb_last(_, {n})");
    });
}
