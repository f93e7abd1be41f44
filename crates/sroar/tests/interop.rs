//! Byte-for-byte interop of the portable format with roaring-rs (`RoaringTreemap`)
//! and CRoaring (`roaring64` through the croaring crate's `Bitmap64`, and its
//! `Treemap`), both after their run optimization.

mod common;

use common::door::portable::{from_portable, to_portable};
use common::{build, model, Model};
use croaring::{Bitmap64, Portable, Treemap};
use proptest::prelude::*;
use roaring::RoaringTreemap;
use sroar::RoaringView;

fn values(m: &Model) -> Vec<u64> {
    m.iter().copied().collect()
}

/// roaring-rs bytes of the set, built value by value (arrays and bitmaps), then
/// optimized when `optimize`.
fn roaring_rs(m: &Model, optimize: bool) -> Vec<u8> {
    let mut t = RoaringTreemap::new();
    for &v in m {
        t.insert(v);
    }
    if optimize {
        t.optimize();
    }
    let mut out = Vec::with_capacity(t.serialized_size());
    t.serialize_into(&mut out).unwrap();
    out
}

/// CRoaring `roaring64` portable bytes, built from values, run-optimized when asked.
fn croaring64(m: &Model, optimize: bool) -> Vec<u8> {
    let mut b = Bitmap64::new();
    b.add_many(&values(m));
    if optimize {
        b.run_optimize();
    }
    b.serialize::<Portable>()
}

/// The croaring crate's `Treemap` (a map of 32-bit CRoaring bitmaps) portable bytes.
fn croaring_treemap(m: &Model) -> Vec<u8> {
    let mut t = Treemap::of(&values(m));
    t.run_optimize();
    t.serialize::<Portable>()
}

fn check(m: &Model) {
    let ours = build(m);
    let view = RoaringView::from_bytes(&ours).unwrap();
    let p = to_portable(&view);

    let rs = roaring_rs(m, true);
    assert!(p == rs, "differs from roaring-rs ({} values)", m.len());
    let c64 = croaring64(m, true);
    assert!(
        p == c64,
        "differs from CRoaring roaring64 ({} values)",
        m.len()
    );
    let ctm = croaring_treemap(m);
    assert!(
        p == ctm,
        "differs from croaring Treemap ({} values)",
        m.len()
    );

    // Their bytes, optimized or not, read back as exactly our buffer.
    for (what, bytes) in [
        ("roaring-rs", roaring_rs(m, false)),
        ("CRoaring", croaring64(m, false)),
    ] {
        let got = from_portable(&bytes).unwrap_or_else(|e| panic!("{what} bytes rejected: {e}"));
        assert!(got == ours, "{what} bytes read as another buffer");
    }

    // And they read ours.
    let t = RoaringTreemap::deserialize_from(&p[..]).unwrap();
    assert!(t.iter().eq(m.iter().copied()));
    let b = Bitmap64::try_deserialize::<Portable>(&p).expect("CRoaring reads our bytes");
    assert!(b.iter().eq(m.iter().copied()));
}

/// `runs` runs of `run_len` values, `gap` apart, in container `key`, from `first`.
fn pattern(key: u64, first: u64, run_len: u64, gap: u64, runs: u64) -> Vec<u64> {
    let mut v = Vec::new();
    let mut x = first;
    for _ in 0..runs {
        v.extend((x..x + run_len).map(|low| (key << 16) | low));
        x += run_len + gap;
    }
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn identical_bytes(m in model()) {
        check(&m);
    }
}

#[test]
fn kind_ties() {
    let k = |n: u64| n; // container keys
    let sets: Vec<Vec<u64>> = vec![
        vec![],
        vec![0],
        vec![u64::MAX],
        // card == 2 * nruns (sizes 2c == 2 + 4r - 2): array everywhere.
        pattern(k(0), 0, 2, 1, 1),
        pattern(k(0), 0, 2, 1, 2048),
        // card == 2 * nruns + 1: sroar run, portable array.
        pattern(k(0), 0, 3, 1, 1),
        pattern(k(0), 0, 5, 1, 1),
        [pattern(k(0), 0, 3, 1, 1), pattern(k(0), 4, 2, 1, 1000)].concat(),
        [pattern(k(0), 0, 1, 1, 2047), vec![5000, 5001, 5002]].concat(),
        // card == 2 * nruns + 2: run.
        pattern(k(0), 0, 4, 1, 1),
        pattern(k(0), 0, 2, 1, 2)
            .into_iter()
            .chain([9, 10])
            .collect(),
        // card 4096 vs 4097.
        pattern(k(0), 0, 1, 1, 4096),
        pattern(k(0), 0, 1, 1, 4097),
        pattern(k(0), 0, 2, 1, 2048),
        pattern(k(0), 0, 4096, 0, 1),
        pattern(k(0), 0, 4097, 0, 1),
        // 2047 vs 2048 runs in dense containers.
        pattern(k(0), 0, 3, 1, 2047),
        pattern(k(0), 0, 3, 1, 2048),
        [pattern(k(0), 0, 2, 1, 2046), pattern(k(0), 60_000, 5, 0, 1)].concat(),
        [pattern(k(0), 0, 2, 1, 2046), pattern(k(0), 60_000, 5, 2, 2)].concat(),
        // Full containers, across bucket boundaries.
        ((1 << 32) - (1 << 16)..(1 << 32) + (1 << 16)).collect(),
        // Many containers in one bucket, with and without runs (offset threshold).
        (0..3).map(|i| i << 16).collect(),
        (0..4).map(|i| i << 16).collect(),
        (0..3)
            .flat_map(|i| [i << 16, (i << 16) + 1, (i << 16) + 2, (i << 16) + 3])
            .collect(),
        (0..4)
            .flat_map(|i| [i << 16, (i << 16) + 1, (i << 16) + 2, (i << 16) + 3])
            .collect(),
        (0..20)
            .flat_map(|i| [i << 16, (i << 16) + 1, (i << 16) + 2, (i << 16) + 3])
            .collect(),
        // Near 2^48 and u64::MAX.
        pattern(k((1 << 32) - 1), 0, 3, 2, 900),
        (u64::MAX - 200_000..=u64::MAX).step_by(3).collect(),
    ];
    for s in sets {
        check(&s.into_iter().collect());
    }
}

#[test]
fn their_run_containers_read_canonically() {
    // CRoaring builds ranges as run containers and keeps runs on ties
    // (`size_as_run_container <= min_size_non_run`), which a value-built set never
    // has: its bytes still read as our canonical buffer.
    for (lo, hi) in [
        (0u64, 1),
        (10, 12),
        (0, 1 << 20),
        ((1 << 32) - 5, (1 << 32) + 5),
    ] {
        let b = Bitmap64::from_range(lo..=hi);
        let mut opt = b.clone();
        opt.run_optimize();
        let m: Model = (lo..=hi).collect();
        for bytes in [b.serialize::<Portable>(), opt.serialize::<Portable>()] {
            assert!(from_portable(&bytes).unwrap() == build(&m));
        }
        let mut t = RoaringTreemap::new();
        t.insert_range(lo..=hi);
        let mut bytes = Vec::new();
        t.serialize_into(&mut bytes).unwrap();
        assert!(from_portable(&bytes).unwrap() == build(&m));
    }
}

/// The run flag of container `i` of a one-bucket portable buffer with cookie 12347.
fn run_flag(p: &[u8], i: usize) -> bool {
    let cookie = u32::from_le_bytes(p[12..16].try_into().unwrap());
    cookie as u16 == 12347 && p[16 + i / 8] >> (i % 8) & 1 == 1
}

#[test]
fn reference_kinds_depend_on_history() {
    // {10, 11, 12}: 3 values in 1 run (card == 2r + 1). Built from values, both
    // references keep an array (2 + 4r >= 2c); built as a range, CRoaring holds a
    // run container and `run_optimize` keeps it (2 + 4r <= 2c). sroar's canonical
    // kind is run; `to_portable` writes the array of the value-built references.
    let m: Model = (10..=12).collect();
    let ours = build(&m);
    let p = to_portable(&RoaringView::from_bytes(&ours).unwrap());
    assert!(!run_flag(&p, 0));
    assert_eq!(p, croaring64(&m, true));
    assert_eq!(p, roaring_rs(&m, true));
    let mut ranged = Bitmap64::from_range(10..=12);
    ranged.run_optimize();
    let theirs = ranged.serialize::<Portable>();
    assert!(run_flag(&theirs, 0));
    assert_ne!(theirs, p);
    assert_eq!(from_portable(&theirs).unwrap(), ours);
}
