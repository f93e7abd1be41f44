//! The model, the generators and the helpers of the property tests (`model_*.rs`,
//! one file per SQL area, as `tests/sql` has them).
//!
//! Property tests: every operator and function of sql/sroar_pg.sql, driven through a
//! real client, against a Rust model of the set (`BTreeSet<i64>`).
//!
//! Sets are random unions of points, long runs and dense random blocks, clustered near
//! 0, ±2^16, ±2^32, ±2^48, int8 min and max, so that every container kind, container
//! boundaries, the sign boundary and the ends of the int8 domain all occur. Values
//! reach the server as `int8[]` parameters, as text literals, and as binary parameters
//! (native bytes and the portable format); results come back as arrays, binary
//! values and text. scripts/test.sh starts the server and sets SROAR_PG_PORT.
#![allow(
    dead_code,
    unused_imports,
    reason = "each test binary uses some of the helpers and of what they re-export"
)]

pub use postgres::types::ToSql;
pub use postgres::Client;
pub use proptest::prelude::*;
pub use proptest::test_runner::{Config, TestRunner};
pub use roaring::RoaringTreemap;
pub use sroar_pg_client_tests::{array_text, connect, hex, sqlstate, Raw};
pub use std::cell::RefCell;
pub use std::collections::BTreeSet;
pub use std::fmt::Write as _;

pub type Set = BTreeSet<i64>;

/// Cases per property: 64, or SROAR_CLIENT_CASES. scripts/test.sh runs the full
/// count on PostgreSQL 15 and fewer on the other majors, where what differs is the
/// glue compiled against another server's headers, which any case reaches; the
/// random sets' edges are the library's, the same on every major.
pub fn cases() -> u32 {
    std::env::var("SROAR_CLIENT_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(64)
}

// ---------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------

pub const CENTERS: [i64; 11] = [
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

pub fn center() -> impl Strategy<Value = i64> {
    prop_oneof![
        6 => proptest::sample::select(CENTERS.to_vec()),
        1 => any::<i64>(),
    ]
}

pub fn offset() -> impl Strategy<Value = i64> {
    prop_oneof![
        3 => -300i64..300,
        2 => -140_000i64..140_000,
    ]
}

/// One building block of a random set, around a center value.
#[derive(Debug, Clone)]
pub enum Piece {
    Points(i64, Vec<i64>),
    /// A run of consecutive values: center, offset of the start, length.
    Run(i64, i64, u32),
    /// Values of [start, start + span) kept with probability density/256.
    Dense(i64, i64, u32, u8, u64),
}

pub fn piece() -> impl Strategy<Value = Piece> {
    prop_oneof![
        3 => (center(), prop::collection::vec(offset(), 1..40)).prop_map(|(c, o)| Piece::Points(c, o)),
        2 => (center(), offset(), prop_oneof![1u32..100, 1000u32..9000]).prop_map(|(c, o, n)| Piece::Run(c, o, n)),
        2 => (center(), offset(), prop_oneof![1u32..3000, 9000u32..30_000], any::<u8>(), any::<u64>())
            .prop_map(|(c, o, s, d, seed)| Piece::Dense(c, o, s, d, seed)),
    ]
}

pub fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Values from `start` on, at most `n` of them, stopping at int8 max.
pub fn run_from(start: i64, n: u32) -> impl Iterator<Item = i64> {
    (0..i64::from(n)).map_while(move |i| start.checked_add(i))
}

pub fn materialize(pieces: &[Piece]) -> Set {
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

pub fn set() -> impl Strategy<Value = Set> {
    prop_oneof![
        1 => Just(Vec::new()),
        12 => prop::collection::vec(piece(), 1..5),
    ]
    .prop_map(|p| materialize(&p))
}

/// A second set related to `a` as chosen by `kind`: equal, a superset, a subset, a
/// prefix (for the order), a small change, or independent.
pub fn related(a: &Set, b: Set, kind: u8, seed: u64) -> Set {
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

pub fn pair() -> impl Strategy<Value = (Set, Set)> {
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
pub fn probes(a: &Set, seeds: &[u64]) -> Vec<i64> {
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

pub fn run<S: Strategy>(name: &str, strategy: S, test: impl Fn(&mut Client, S::Value))
where
    S::Value: std::fmt::Debug,
{
    run_cases(name, cases(), strategy, test);
}

/// As `run`, with a number of cases of its own (for the slower properties).
pub fn run_cases<S: Strategy>(
    name: &str,
    cases: u32,
    strategy: S,
    test: impl Fn(&mut Client, S::Value),
) where
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

pub fn vec_of(s: &Set) -> Vec<i64> {
    s.iter().copied().collect()
}

/// The native bytes of a set, built from an int8[] parameter.
pub fn build(c: &mut Client, s: &Set) -> Raw {
    let bytes: Vec<u8> = c
        .query_one("SELECT rb_build($1::int8[])::bytea", &[&vec_of(s)])
        .unwrap()
        .get(0);
    Raw(bytes)
}

/// SQL that is true when the roaring64 expression's bytes are the canonical
/// encoding of its elements.
pub fn canon(e: &str) -> String {
    format!("(({e})::bytea = rb_build(rb_to_array({e}))::bytea)")
}

/// A text literal of the set: shuffled, with duplicates, signs and whitespace.
pub fn noisy_text(s: &Set, seed: u64) -> String {
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

pub fn cmp_i32(o: std::cmp::Ordering) -> i32 {
    o as i32
}

/// Whether a function with this signature exists (others add functions over time).
pub fn exists(c: &mut Client, signature: &str) -> bool {
    c.query_one("SELECT to_regprocedure($1) IS NOT NULL", &[&signature])
        .unwrap()
        .get(0)
}

#[derive(Clone, Copy, Debug)]
pub enum Op {
    Or,
    And,
    Xor,
}

impl Op {
    pub fn apply(self, x: &Set, y: &Set) -> Set {
        match self {
            Op::Or => x.union(y).copied().collect(),
            Op::And => x.intersection(y).copied().collect(),
            Op::Xor => x.symmetric_difference(y).copied().collect(),
        }
    }

    /// The model of the aggregate: NULL rows skipped, NULL without a non-NULL row.
    pub fn fold<'a>(self, rows: impl IntoIterator<Item = &'a Option<Set>>) -> Option<Set> {
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
