//! The `ops` module checked against `BTreeSet<u64>` models, under every SIMD tier
//! this machine has.
//!
//! Every produced buffer must validate, hold the model's values, and be
//! byte-for-byte the buffer built from the model (canonical form).

mod common;

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

use common::door::{from_sorted, ops};
use common::Piece;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};
use sroar::simd::{available_tiers, set_tier, Tier};
use sroar::{Accumulator, Encode, Kind, RoaringView, SetOp, Writer};

type Model = BTreeSet<u64>;

// ---------------------------------------------------------------- generators

/// Container keys near the interesting places of the `u64` line: values near 0,
/// 2^16, 2^32, 2^48 and `u64::MAX`.
const KEYS: [u64; 8] = [
    0,
    1,
    0xFFFF,
    0x1_0000,
    0xFFFF_FFFF,
    0x1_0000_0000,
    (1 << 48) - 2,
    (1 << 48) - 1,
];

/// Values near which spans of consecutive values start.
const ANCHORS: [u64; 5] = [0, 1 << 16, 1 << 32, 1 << 48, u64::MAX];

fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

/// The content of one container.
#[derive(Clone, Debug)]
enum Shape {
    /// Up to `count` random lows: an array (or a short run list).
    Sparse { seed: u64, count: u16 },
    /// `count` (> 4096) random lows: a bitmap.
    Dense { seed: u64, count: u32 },
    /// `runs` random runs of up to `max_len` values: a run container.
    Runs { seed: u64, runs: u16, max_len: u16 },
    /// All 65536 lows.
    Full,
    /// Lows at both ends of the container, plus a few random ones.
    Edges { seed: u64 },
}

impl Shape {
    fn lows(&self) -> BTreeSet<u16> {
        let mut out = BTreeSet::new();
        match *self {
            Shape::Sparse { seed, count } => {
                let mut s = seed | 1;
                out.extend((0..count).map(|_| xorshift(&mut s) as u16));
            }
            Shape::Dense { seed, count } => {
                let mut s = seed | 1;
                out.extend((0..count).map(|_| xorshift(&mut s) as u16));
            }
            Shape::Runs {
                seed,
                runs,
                max_len,
            } => {
                let mut s = seed | 1;
                for _ in 0..runs {
                    let start = xorshift(&mut s) as u16;
                    let len = 1 + (xorshift(&mut s) % u64::from(max_len)) as u16;
                    out.extend(start..=start.saturating_add(len - 1));
                }
            }
            Shape::Full => out.extend(0..=u16::MAX),
            Shape::Edges { seed } => {
                let mut s = seed | 1;
                out.extend([0, 1, 2, 65533, 65534, 65535]);
                out.extend((0..(seed % 8)).map(|_| xorshift(&mut s) as u16));
            }
        }
        out
    }
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        3 => (any::<u64>(), prop_oneof![1..64u16, 3900..4300u16])
            .prop_map(|(seed, count)| Shape::Sparse { seed, count }),
        2 => (any::<u64>(), prop_oneof![4097..6000u32, 6000..40_000u32]).prop_map(|(seed, count)| Shape::Dense { seed, count }),
        3 => (any::<u64>(), prop_oneof![1..4u16, 1..400u16], prop_oneof![1..8u16, 8..5000u16])
            .prop_map(|(seed, runs, max_len)| Shape::Runs { seed, runs, max_len }),
        1 => Just(Shape::Full),
        1 => any::<u64>().prop_map(|seed| Shape::Edges { seed }),
    ]
}

/// How the right-hand set's container at a key relates to the left-hand one's.
#[derive(Clone, Debug)]
enum Rel {
    /// The same lows.
    Same,
    /// A subset of the left lows (see [`thin`]).
    Subset { seed: u64, mode: u8 },
    /// The left lows plus a shape.
    Superset(Shape),
    /// Unrelated lows.
    Other(Shape),
    /// No container.
    Absent,
}

fn rel() -> impl Strategy<Value = Rel> {
    prop_oneof![
        1 => Just(Rel::Same),
        2 => (any::<u64>(), 0..3u8).prop_map(|(seed, mode)| Rel::Subset { seed, mode }),
        1 => shape().prop_map(Rel::Superset),
        4 => shape().prop_map(Rel::Other),
        1 => Just(Rel::Absent),
    ]
}

/// Whether a thinning keeps `v`: about 3/4 of the values at random (mode 0),
/// aligned blocks of 2^k (mode 1, keeps runs), or the even ones (mode 2, breaks
/// runs).
fn keep(v: u64, seed: u64, mode: u8) -> bool {
    match mode {
        0 => {
            let mut h = seed ^ v.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            !xorshift(&mut h).is_multiple_of(4)
        }
        1 => (v >> (seed % 12)) & 1 == 0,
        _ => v.is_multiple_of(2),
    }
}

/// A subset of `lows` (see [`keep`]).
fn thin(lows: &BTreeSet<u16>, seed: u64, mode: u8) -> BTreeSet<u16> {
    lows.iter()
        .copied()
        .filter(|&v| keep(u64::from(v), seed, mode))
        .collect()
}

/// `len` consecutive values from `ANCHORS[anchor] + off` (clamped to the line):
/// long spans cross container boundaries and fill whole containers. A run of the
/// shared generator (`common::pieces`).
fn span() -> impl Strategy<Value = Piece> {
    (
        0..ANCHORS.len(),
        prop_oneof![-70i32..70, -140_000i32..140_000],
        prop_oneof![1..20u32, 1000..70_000u32],
    )
        .prop_map(|(anchor, off, len)| Piece::Run { anchor, off, len })
}

/// Two sets described key by key, so that they share keys with every pair of
/// container kinds, plus spans of consecutive values.
#[derive(Clone, Debug)]
struct PairSpec {
    keys: Vec<(usize, Option<Shape>, Rel)>,
    spans_a: Vec<Piece>,
    spans_b: Vec<Piece>,
}

fn put(m: &mut Model, key: u64, lows: &BTreeSet<u16>) {
    m.extend(lows.iter().map(|&l| (key << 16) | u64::from(l)));
}

impl PairSpec {
    fn models(&self) -> (Model, Model) {
        let (mut a, mut b) = (Model::new(), Model::new());
        for (k, sa, r) in &self.keys {
            let key = KEYS[*k];
            let la = sa.as_ref().map(Shape::lows).unwrap_or_default();
            let lb = match r {
                Rel::Same => la.clone(),
                Rel::Subset { seed, mode } => thin(&la, *seed, *mode),
                Rel::Superset(s) => la.union(&s.lows()).copied().collect(),
                Rel::Other(s) => s.lows(),
                Rel::Absent => BTreeSet::new(),
            };
            put(&mut a, key, &la);
            put(&mut b, key, &lb);
        }
        for s in &self.spans_a {
            s.for_each_value(&ANCHORS, |v| {
                a.insert(v);
            });
        }
        for s in &self.spans_b {
            s.for_each_value(&ANCHORS, |v| {
                b.insert(v);
            });
        }
        (a, b)
    }
}

fn pair_spec() -> impl Strategy<Value = PairSpec> {
    (
        prop::collection::vec(
            (0..KEYS.len(), prop::option::weighted(0.9, shape()), rel()),
            0..5,
        ),
        prop::collection::vec(span(), 0..2),
        prop::collection::vec(span(), 0..2),
    )
        .prop_map(|(keys, spans_a, spans_b)| PairSpec {
            keys,
            spans_a,
            spans_b,
        })
}

/// Several sets: thinned copies of a common base mixed with their own content,
/// so that n-way intersections are not trivially empty.
#[derive(Clone, Debug)]
struct ManySpec {
    base: PairSpec,
    parts: Vec<(Option<(u64, u8)>, PairSpec)>,
}

impl ManySpec {
    fn models(&self) -> Vec<Model> {
        let (base, _) = self.base.models();
        self.parts
            .iter()
            .map(|(thinning, own)| {
                let mut m: Model = match thinning {
                    Some((seed, mode)) => base
                        .iter()
                        .copied()
                        .filter(|&v| keep(v, *seed, *mode))
                        .collect(),
                    None => Model::new(),
                };
                let (x, y) = own.models();
                m.extend(if own.keys.len() % 2 == 0 { x } else { y });
                m
            })
            .collect()
    }
}

fn many_spec() -> impl Strategy<Value = ManySpec> {
    (
        pair_spec(),
        prop::collection::vec(
            (
                prop::option::weighted(0.8, (any::<u64>(), 0..3u8)),
                small_spec(),
            ),
            0..6,
        ),
    )
        .prop_map(|(base, parts)| ManySpec { base, parts })
}

/// A pair spec with little content of its own.
fn small_spec() -> impl Strategy<Value = PairSpec> {
    (
        prop::collection::vec(
            (0..KEYS.len(), prop::option::weighted(0.5, shape()), rel()),
            0..2,
        ),
        prop::collection::vec(span(), 0..1),
    )
        .prop_map(|(keys, spans_a)| PairSpec {
            keys,
            spans_a,
            spans_b: Vec::new(),
        })
}

// ---------------------------------------------------------------- checks

fn build(m: &Model) -> Vec<u8> {
    let v: Vec<u64> = m.iter().copied().collect();
    from_sorted(&v).expect("model sets are small")
}

fn view(bytes: &[u8]) -> RoaringView<'_> {
    RoaringView::from_bytes(bytes).expect("built buffers validate")
}

/// Validates `bytes`, compares its values with `m`, and its bytes with the
/// canonical buffer of `m`.
fn assert_encodes(bytes: &[u8], m: &Model, what: &str) {
    assert_encodes_as(bytes, m, &build(m), what);
}

/// `assert_encodes` with the canonical buffer of `m` already built, for a model
/// checked against many outputs.
fn assert_encodes_as(bytes: &[u8], m: &Model, canonical: &[u8], what: &str) {
    let v = match RoaringView::from_bytes(bytes) {
        Ok(v) => v,
        Err(e) => panic!("{what}: output does not validate: {e}"),
    };
    assert_eq!(v.len(), m.len() as u64, "{what}: cardinality");
    assert!(
        v.iter().eq(m.iter().copied()),
        "{what}: values differ from the model"
    );
    assert!(
        bytes == canonical,
        "{what}: bytes differ from the model's canonical encoding"
    );
}

/// Finishes a writer through both paths (`write_into` a buffer sized by
/// `encoded_len`, and `into_vec`), checks they agree, and returns the bytes.
fn finish(w: Writer) -> Vec<u8> {
    let mut sized = vec![0u8; w.encoded_len().expect("small results")];
    w.write_into(&mut sized).expect("sized buffer");
    let v = w.into_vec().expect("small results");
    assert_eq!(sized, v, "write_into and into_vec disagree");
    v
}

/// An [`Encode`] written into a buffer of the length it announced.
fn finish_encode(mut e: impl Encode) -> Vec<u8> {
    let mut out = vec![0u8; e.encoded_len().expect("small results")];
    e.write_into(&mut out).expect("sized buffer");
    out
}

fn check_pair(ma: &Model, mb: &Model) {
    let (ba, bb) = (build(ma), build(mb));
    let (a, b) = (view(&ba), view(&bb));

    let and_m: Model = ma.intersection(mb).copied().collect();
    let or_m: Model = ma.union(mb).copied().collect();
    let xor_m: Model = ma.symmetric_difference(mb).copied().collect();
    let andnot_m: Model = ma.difference(mb).copied().collect();

    let produced = [
        ("and", ops::and(a, b), ops::and_writer(a, b), &and_m),
        ("or", ops::or(a, b), ops::or_writer(a, b), &or_m),
        ("xor", ops::xor(a, b), ops::xor_writer(a, b), &xor_m),
        (
            "andnot",
            ops::andnot(a, b),
            ops::andnot_writer(a, b),
            &andnot_m,
        ),
    ];
    for (name, bytes, writer, model) in produced {
        let bytes = bytes.expect("small results");
        assert_encodes(&bytes, model, name);
        assert_eq!(finish(writer), bytes, "{name}: the writer form differs");
    }
    for (name, splice, model) in [
        ("or spliced", ops::or_splice(a, b), &or_m),
        ("andnot spliced", ops::andnot_splice(a, b), &andnot_m),
    ] {
        assert_eq!(splice.len(), model.len() as u64, "{name}: len");
        assert_encodes(&finish_encode(splice), model, name);
    }

    assert_eq!(ops::and_len(a, b), and_m.len() as u64, "and_len");
    assert_eq!(ops::or_len(a, b), or_m.len() as u64, "or_len");
    assert_eq!(ops::xor_len(a, b), xor_m.len() as u64, "xor_len");
    assert_eq!(ops::andnot_len(a, b), andnot_m.len() as u64, "andnot_len");

    assert_eq!(ops::intersects(a, b), !and_m.is_empty(), "intersects");
    // The header answers never contradict the sets; disjoint ranges always answer.
    let (ha, hb) = (a.header(), b.header());
    if ops::are_disjoint_by_headers(&ha, &hb) {
        assert!(
            and_m.is_empty(),
            "are_disjoint_by_headers on intersecting sets"
        );
    }
    let apart = ma.is_empty() || mb.is_empty() || ma.last() < mb.first() || mb.last() < ma.first();
    assert_eq!(
        ops::are_disjoint_by_headers(&ha, &hb),
        apart,
        "are_disjoint_by_headers"
    );
    if let Some(answer) = ops::is_subset_by_headers(&ha, &hb) {
        assert_eq!(answer, ma.is_subset(mb), "is_subset_by_headers");
    }
    assert_eq!(ops::is_subset(a, b), ma.is_subset(mb), "is_subset");
    assert_eq!(ops::eq(a, b), ma == mb, "eq");
    let (va, vb): (Vec<u64>, Vec<u64>) =
        (ma.iter().copied().collect(), mb.iter().copied().collect());
    assert_eq!(ops::cmp(a, b), va.cmp(&vb), "cmp");
}

/// All pairwise checks, both ways round, and against itself.
fn check_pair_all(ma: &Model, mb: &Model) {
    check_pair(ma, mb);
    check_pair(mb, ma);
    check_pair(ma, ma);
    check_pair(ma, &Model::new());
}

fn check_many(models: &[Model]) {
    let bufs: Vec<Vec<u8>> = models.iter().map(build).collect();
    let views: Vec<RoaringView<'_>> = bufs.iter().map(|b| view(b)).collect();

    let or_m: Model = models.iter().flatten().copied().collect();
    let and_m: Model = match models.split_first() {
        None => Model::new(),
        Some((first, rest)) => first
            .iter()
            .copied()
            .filter(|v| rest.iter().all(|m| m.contains(v)))
            .collect(),
    };
    let mut counts: BTreeMap<u64, usize> = BTreeMap::new();
    for v in models.iter().flatten() {
        *counts.entry(*v).or_default() += 1;
    }
    let xor_m: Model = counts
        .into_iter()
        .filter(|&(_, n)| n % 2 == 1)
        .map(|(v, _)| v)
        .collect();

    assert_encodes(&finish(ops::or_many(&views)), &or_m, "or_many");
    assert_encodes(&finish(ops::and_many(&views)), &and_m, "and_many");
    assert_eq!(SetOp::Or.many_len(&views), or_m.len() as u64, "Or.many_len");
    assert_eq!(
        SetOp::And.many_len(&views),
        and_m.len() as u64,
        "And.many_len"
    );
    assert_eq!(
        SetOp::Xor.many_len(&views),
        xor_m.len() as u64,
        "Xor.many_len"
    );

    let mut or_acc = Accumulator::new(SetOp::Or);
    let mut and_acc = Accumulator::new(SetOp::And);
    let mut xor_acc = Accumulator::new(SetOp::Xor);
    // `is_settled` is the intersection's "empty, and no later input can change it".
    assert!(
        !and_acc.is_settled(),
        "no input yet is not an empty intersection"
    );
    for v in &views {
        or_acc.add(*v);
        and_acc.add(*v);
        xor_acc.add(*v);
    }
    assert_eq!(
        and_acc.is_settled(),
        !models.is_empty() && and_m.is_empty(),
        "AndAccumulator::is_empty"
    );
    if and_acc.is_settled() {
        // Callers stop early here: no further input can revive the intersection.
        and_acc.add(views[0]);
        assert!(and_acc.is_settled(), "AndAccumulator grew after emptying");
    }
    assert_encodes(&finish(or_acc.finish()), &or_m, "OrAccumulator");
    assert_encodes(&finish(and_acc.finish()), &and_m, "AndAccumulator");
    assert_encodes(&finish(xor_acc.finish()), &xor_m, "XorAccumulator");
}

// ---------------------------------------------------------------- tiers

/// Tests switch the process-wide SIMD tier; this lock keeps them from switching
/// it under each other.
static TIER_LOCK: Mutex<()> = Mutex::new(());

/// Runs `f` under every tier this CPU supports, and prints which ran.
fn for_each_tier(name: &str, mut f: impl FnMut(Tier)) {
    let _guard = TIER_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let tiers = available_tiers();
    for t in Tier::ALL {
        if tiers.contains(&t) {
            set_tier(t).expect("available tier");
            f(t);
            println!("{name}: ran under tier {t}");
        } else {
            println!("{name}: tier {t} skipped (not supported by this CPU)");
        }
    }
    sroar::simd::reset_tier();
}

fn run<S: Strategy>(tier: Tier, cases: u32, strategy: S, test: impl Fn(S::Value)) {
    // `PROPTEST_CASES` overrides the per-test default, as in plain proptest.
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(cases);
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    if let Err(e) = runner.run(&strategy, |v| {
        test(v);
        Ok(())
    }) {
        panic!("tier {tier}: {e}");
    }
}

// ---------------------------------------------------------------- tests

#[test]
fn pairwise_ops_match_the_model() {
    for_each_tier("pairwise_ops_match_the_model", |tier| {
        run(tier, 24, pair_spec(), |spec| {
            let (a, b) = spec.models();
            check_pair_all(&a, &b);
        });
    });
}

#[test]
fn many_ops_match_the_model() {
    for_each_tier("many_ops_match_the_model", |tier| {
        run(tier, 24, many_spec(), |spec| {
            let models = spec.models();
            check_many(&models);
            // More sets than the spec makes, each key shared by many of them: the
            // same sets, repeated to 17 (grouped by merging the directories) and to
            // 40 (grouped by hashing the keys).
            if !models.is_empty() {
                for n in [17, 40] {
                    let repeated: Vec<Model> = models.iter().cycle().take(n).cloned().collect();
                    check_many(&repeated);
                }
            }
        });
    });
}

/// `cmp` on sets that differ by little: a prefix, one value removed or added.
#[test]
fn cmp_of_near_sets_matches_the_model() {
    for_each_tier("cmp_of_near_sets_matches_the_model", |tier| {
        run(
            tier,
            24,
            (pair_spec(), any::<u64>(), 0..4u8),
            |(spec, pick, how)| {
                let (a, _) = spec.models();
                let va: Vec<u64> = a.iter().copied().collect();
                let mut b = a.clone();
                if !va.is_empty() {
                    let at = va[(pick % va.len() as u64) as usize];
                    match how {
                        0 => b.retain(|&v| v < at),
                        1 => {
                            b.remove(&at);
                        }
                        2 => {
                            b.insert(at.wrapping_add(1 + (pick >> 48) % 3));
                        }
                        _ => {
                            b.insert(at.wrapping_sub(1));
                        }
                    }
                }
                check_pair(&a, &b);
                check_pair(&b, &a);
            },
        );
    });
}

#[test]
fn n_way_edge_counts() {
    for_each_tier("n_way_edge_counts", |_| {
        check_many(&[]);
        let one: Model = (0..10).chain(1 << 40..(1 << 40) + 70_000).collect();
        check_many(std::slice::from_ref(&one));
        check_many(&[one.clone(), Model::new()]);
        check_many(&[one.clone(), one.clone(), one.clone()]);
        let full: Model = (1 << 16..2 << 16).collect();
        check_many(&[full.clone(), one.clone(), full.clone()]);
        check_many(&[Model::new(), one.clone()]);
    });
}

/// Kinds of the containers of the two views at every key they share.
fn shared_kind_pairs(a: RoaringView<'_>, b: RoaringView<'_>) -> Vec<(Kind, Kind)> {
    let mut out = Vec::new();
    for (key, ca) in a.containers() {
        if let Some(j) = b.find_container(key) {
            out.push((ca.kind(), b.container(j).1.kind()));
        }
    }
    out
}

const KINDS: [Kind; 3] = [Kind::Array, Kind::Bitmap, Kind::Run];

/// The pair generator produces every container kind pair at shared keys.
#[test]
fn generator_covers_all_nine_kind_pairs() {
    let mut seen = BTreeSet::new();
    let mut runner = TestRunner::deterministic();
    for _ in 0..100 {
        let spec = pair_spec()
            .new_tree(&mut runner)
            .expect("strategy")
            .current();
        let (a, b) = spec.models();
        let (ba, bb) = (build(&a), build(&b));
        for (x, y) in shared_kind_pairs(view(&ba), view(&bb)) {
            seen.insert((x as u8, y as u8));
        }
    }
    for x in KINDS {
        for y in KINDS {
            assert!(
                seen.contains(&(x as u8, y as u8)),
                "no generated pair of {x:?} and {y:?}"
            );
        }
    }
}

/// One explicit set of each kind in the same container; every pair of them, in
/// both orders, through every operation.
#[test]
fn every_kind_pair_explicitly() {
    let key = 7u64 << 16;
    let array: Model = (0..3000u64).map(|i| key | (i * 19 % 65536)).collect();
    let bitmap: Model = (0..20_000u64).map(|i| key | (i * 3 % 65536)).collect();
    let run: Model = (key | 100..key | 30_000)
        .chain(key | 40_000..key | 40_005)
        .collect();
    let full: Model = (key..key + 65536).collect();
    let sets = [
        (Kind::Array, &array),
        (Kind::Bitmap, &bitmap),
        (Kind::Run, &run),
        (Kind::Run, &full),
    ];
    for (kind, m) in sets {
        let bytes = build(m);
        assert_eq!(view(&bytes).container(0).1.kind(), kind);
    }
    let mut pairs = BTreeSet::new();
    for_each_tier("every_kind_pair_explicitly", |_| {
        for (ka, a) in sets {
            for (kb, b) in sets {
                pairs.insert((ka as u8, kb as u8));
                check_pair(a, b);
                // Overlapping but not equal: drop a stripe of the right-hand set.
                let b2: Model = b.iter().copied().filter(|v| v & 0x700 != 0x300).collect();
                check_pair(a, &b2);
                let (x, y) = (build(a), build(&b2));
                assert_eq!(shared_kind_pairs(view(&x), view(&y)).len(), 1);
            }
        }
    });
    assert_eq!(pairs.len(), 9);
}

#[test]
fn empty_and_extreme_values() {
    for_each_tier("empty_and_extreme_values", |_| {
        let empty = Model::new();
        let top: Model = [u64::MAX, u64::MAX - 1, 0, 1 << 48, (1 << 48) - 1].into();
        let near_top: Model = (u64::MAX - 70_000..=u64::MAX).collect();
        check_pair_all(&empty, &empty);
        check_pair_all(&top, &near_top);
        check_pair_all(&near_top, &top);
        check_many(&[top.clone(), near_top.clone(), empty.clone()]);
        check_many(&[top, near_top]);
    });
}

#[test]
fn cmp_orders_prefixes_first() {
    let cases: [(&[u64], &[u64]); 6] = [
        (&[], &[0]),
        (&[1, 2], &[1, 2, 3]),
        (&[1, 2, 1 << 20], &[1, 2, 3]),
        (&[5], &[1 << 16]),
        (&[1 << 16, (1 << 16) + 1], &[1 << 16, 1 << 17]),
        (&[7, u64::MAX], &[7, u64::MAX - 1]),
    ];
    for (x, y) in cases {
        let (bx, by) = (from_sorted(x).unwrap(), from_sorted(y).unwrap());
        assert_eq!(ops::cmp(view(&bx), view(&by)), x.cmp(y), "{x:?} vs {y:?}");
        assert_eq!(ops::cmp(view(&by), view(&bx)), y.cmp(x), "{y:?} vs {x:?}");
    }
    let (bx, _) = (from_sorted(&[3]).unwrap(), ());
    assert_eq!(ops::cmp(view(&bx), view(&bx)), Ordering::Equal);
}

/// A few keys against thousands: the common-key walk gallops through the larger
/// directory, and must still find every shared key.
#[test]
fn small_against_large_directories() {
    let large: Model = (0..20_000u64).map(|k| (k << 16) | (k % 7)).collect();
    let small: Model = [
        5u64 << 16 | 5,
        1000 << 16 | 6,
        1000 << 16 | 9,
        19_999 << 16,
        30_000 << 16,
    ]
    .into();
    let _guard = TIER_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    check_pair_all(&small, &large);
    check_pair_all(&large, &small);
    check_many(&[large.clone(), small.clone(), large.clone()]);
}

/// Why the pairwise forms only *reserve* `len(a) + len(b)` of payload: a union can
/// need more. Isolated values merged with a long run make a run container bigger
/// than both inputs together (the writer grows as needed).
#[test]
fn union_can_outgrow_its_inputs() {
    let a: Model = (0..2000u64).map(|i| 2 * i).collect();
    let b: Model = (4000..=60_000u64).collect();
    let (ba, bb) = (build(&a), build(&b));
    let out = ops::or(view(&ba), view(&bb)).unwrap();
    assert_eq!(view(&out).container(0).1.kind(), Kind::Run);
    assert!(out.len() > ba.len() + bb.len());
    let union: Model = a.union(&b).copied().collect();
    assert_encodes(&out, &union, "or");
}

/// Two arrays whose sizes sum past 4096 are combined as bitmaps; the result must
/// still come out as an array or runs when that is its canonical kind.
#[test]
fn array_pairs_around_the_bitmap_threshold() {
    let key = 3u64 << 32;
    let evens = |from: u64, n: u64| -> Model { (from..from + n).map(|i| key | (2 * i)).collect() };
    for (a, b) in [
        // Union 3000 values from 4500: stays an array.
        (evens(0, 2500), evens(500, 2500)),
        // Union exactly 4096 and 4097.
        (evens(0, 3000), evens(1096, 3000)),
        (evens(0, 3000), evens(1097, 3000)),
        // Identical but for one value (xor is tiny, and is 0 or 1 run).
        (evens(0, 4000), evens(0, 4000).into_iter().skip(1).collect()),
        // Evens and odds: the union is one run of 5000, the xor too.
        (
            evens(0, 2500),
            evens(0, 2500).iter().map(|v| v + 1).collect(),
        ),
    ] {
        check_pair_all(&a, &b);
    }
}

/// A large set changed by a few values, as a write to a posting column changes it:
/// the spliced union, difference and edits against the model, with the few values
/// inside, between and beyond the large set's containers and at the u64 line's edges.
#[test]
fn small_changes_to_a_large_set() {
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    // Fewer rounds where PROPTEST_CASES asks for fewer cases (the emulated aarch64 run).
    let rounds = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse::<u64>().ok())
        .map_or(100, |c| (c / 3).clamp(10, 100));
    for_each_tier("small_changes_to_a_large_set", |_| {
        for round in 0..rounds {
            // Built in one go at the end: inserting its million or so values one by
            // one was most of this test's time.
            let mut all = Vec::new();
            let containers = 1 + xorshift(&mut s) % 40;
            for c in 0..containers {
                let key = match c % 4 {
                    0 => KEYS[(xorshift(&mut s) % 8) as usize],
                    _ => xorshift(&mut s) % (1 << 48),
                };
                let lows = match xorshift(&mut s) % 5 {
                    0 => Shape::Sparse {
                        seed: xorshift(&mut s),
                        count: 1 + (xorshift(&mut s) % 300) as u16,
                    },
                    1 => Shape::Dense {
                        seed: xorshift(&mut s),
                        count: 5000,
                    },
                    2 => Shape::Runs {
                        seed: xorshift(&mut s),
                        runs: 3,
                        max_len: 2000,
                    },
                    3 => Shape::Full,
                    _ => Shape::Edges {
                        seed: xorshift(&mut s),
                    },
                }
                .lows();
                all.extend(lows.iter().map(|&l| (key << 16) | u64::from(l)));
            }
            let large: Model = all.into_iter().collect();
            let present: Vec<u64> = large.iter().copied().collect();
            let mut small = Model::new();
            for _ in 0..1 + xorshift(&mut s) % (1 + round % 60) {
                let r = xorshift(&mut s);
                small.insert(match r % 4 {
                    0 => present[(r >> 8) as usize % present.len()],
                    1 => present[(r >> 8) as usize % present.len()] ^ (r >> 40) & 0xFF,
                    2 => ANCHORS[(r >> 8) as usize % ANCHORS.len()].wrapping_add((r >> 32) % 3),
                    _ => r,
                });
            }
            let (bl, bs) = (build(&large), build(&small));
            let (vl, vs) = (view(&bl), view(&bs));
            let values: Vec<u64> = small.iter().rev().copied().collect();
            let union: Model = large.union(&small).copied().collect();
            let minus: Model = large.difference(&small).copied().collect();
            let reverse: Model = small.difference(&large).copied().collect();
            // Each model with its canonical buffer, built once for all the outputs.
            let u = (&union, build(&union));
            let m = (&minus, build(&minus));
            let r = (&reverse, build(&reverse));
            for (name, spliced, (model, canonical)) in [
                ("large | small", ops::or_splice(vl, vs), &u),
                ("small | large", ops::or_splice(vs, vl), &u),
                ("large - small", ops::andnot_splice(vl, vs), &m),
                ("small - large", ops::andnot_splice(vs, vl), &r),
                ("with_inserted", vl.with_inserted(&values), &u),
                ("with_removed", vl.with_removed(&values), &m),
            ] {
                assert_eq!(spliced.len(), model.len() as u64, "{name}: len");
                assert_encodes_as(&finish_encode(spliced), model, canonical, name);
            }
            if let Some(edit) = ops::or_splice_over(vl, vs).in_place() {
                let mut copy = bl.clone();
                edit.apply(&mut copy);
                assert_encodes_as(&copy, &union, &u.1, "large | small, in place");
            }
        }
    });
}

/// A union with a few ids sets their bits in the large set's bitmaps in place while
/// no added id joins two runs; at the bitmap's edge of canonical (2,048 runs, the
/// fewest a bitmap may have), an id that joins two runs makes it a run container,
/// and one that extends or starts a run leaves it a bitmap. Next to them: ids at
/// the container's ends, ids already present, adjacent new ids, at the u64 line's
/// edges.
#[test]
fn union_sets_bits_in_a_large_sets_bitmaps() {
    // Runs of 3 with gaps of 1 from 0, the last one [8189, 8190] after a gap of 2:
    // 2,048 runs over 0..8191, 6,143 values.
    let edge_lows: BTreeSet<u16> = (0..8192u16).filter(|v| v % 4 != 3 && *v != 8188).collect();
    let scattered = |seed: u64| -> BTreeSet<u16> {
        let mut s = seed;
        (0..6000).map(|_| xorshift(&mut s) as u16).collect()
    };
    let (mut cases, mut in_place) = (0, 0);
    for_each_tier("union_sets_bits_in_a_large_sets_bitmaps", |_| {
        for key in [0, 1, 0xFFFF_FFFF, (1 << 48) - 1] {
            // Every other value from 100 on: ids below its least and above its
            // greatest value move the container's bounds.
            let inner: BTreeSet<u16> = (0..4200u16).map(|k| 100 + 2 * k).collect();
            for (name, lows) in [
                ("edge", edge_lows.clone()),
                ("scattered", scattered(key + 7)),
                ("inner", inner),
            ] {
                let mut large = Model::new();
                put(&mut large, key, &lows);
                put(&mut large, key ^ 2, &scattered(key + 11));
                let at = |low: u16| key << 16 | u64::from(low);
                let present = at(*lows.iter().nth(lows.len() / 2).unwrap());
                // A bitmap of its own in the same container: the union replaces the
                // container with one of the same size, which is not an in-place edit.
                let bitmap: Vec<u64> = scattered(key + 13).iter().map(|&v| at(v)).collect();
                let small_sets: [&[u64]; 11] = [
                    &[at(3)],                        // joins the first two runs
                    &[at(8191)],                     // extends the last run (edge: 8190 is in)
                    &[at(0xFFFF)],                   // a new run at the end
                    &[at(0), present],               // present already
                    &[at(9000), at(9001), at(9002)], // adjacent new ids: one new run
                    &[at(3), at(9000)],              // one join among others
                    &[at(8193), at(8195), at(8194)], // the third joins the other two
                    &[at(8187), at(8188)],           // fill a gap of two: one run less
                    &[at(0xFFFE), at(0xFFFF), (key ^ 2) << 16 | 5],
                    &[at(20000), u64::MAX, 0],
                    &bitmap,
                ];
                for small in small_sets {
                    let small: Model = small.iter().copied().collect();
                    let union: Model = large.union(&small).copied().collect();
                    let (bl, bs) = (build(&large), build(&small));
                    let (vl, vs) = (view(&bl), view(&bs));
                    for (order, spliced) in [
                        ("large | small", ops::or_splice(vl, vs)),
                        ("small | large", ops::or_splice(vs, vl)),
                    ] {
                        let what = format!("{name} bitmap at key {key:#x} | {small:?}: {order}");
                        assert_eq!(spliced.len(), union.len() as u64, "{what}: len");
                        assert_encodes(&finish_encode(spliced), &union, &what);
                    }
                    // The union written whole: the bitmap copied into the result and
                    // the new bits set there.
                    let what = format!("{name} bitmap at key {key:#x} | {small:?}: or");
                    assert_encodes(&ops::or(vl, vs).expect("small"), &union, &what);
                    // The copy of the base turned into the result, where the splice
                    // says it can be.
                    if let Some(edit) = ops::or_splice_over(vl, vs).in_place() {
                        let mut copy = bl.clone();
                        edit.apply(&mut copy);
                        assert_encodes(
                            &copy,
                            &union,
                            &format!("{name} at {key:#x} | {small:?}: in place"),
                        );
                        in_place += 1;
                    }
                    cases += 1;
                }
            }
        }
    });
    // Both ways are taken: in place, and written anew (a join of runs, a new
    // container).
    assert!(
        0 < in_place && in_place < cases,
        "{in_place} of {cases} in place"
    );
}
