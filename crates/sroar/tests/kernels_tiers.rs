//! Every kernel, every tier this CPU supports: compared against the scalar
//! tier and against a trivial model (BTreeSet / bit-by-bit sets); scalar-only
//! kernels against the model. Inputs are read
//! from odd addresses so the SIMD loads are unaligned.

mod kernels_common;

use std::collections::BTreeSet;

use kernels_common::*;
use proptest::prelude::*;
use sroar::container::RUNS_CAP;
use sroar::kernels::bitmap::BitOp;
use sroar::kernels::dispatch::{Tier, SCALAR};
use sroar::kernels::toggles::Toggles;
use sroar::kernels::{array, array_bitmap, bitmap, run, search};

const SENTINEL: u16 = 0xABCD;

fn config() -> ProptestConfig {
    // PROPTEST_CASES overrides the default for longer soak runs.
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(160);
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}

/// Runs an appending array kernel and returns what it appended (checking
/// that the existing contents were kept).
fn appended(f: impl FnOnce(&mut Vec<u16>)) -> Vec<u16> {
    let mut out = vec![SENTINEL];
    f(&mut out);
    assert_eq!(out[0], SENTINEL);
    out.split_off(1)
}

fn check_array_pair(a: &[u16], b: &[u16]) {
    let (ba, bb) = (Buf::u16s(a), Buf::u16s(b));
    let (x, y) = (ba.a2(), bb.a2());
    let (sa, sb) = (set(a), set(b));
    let inter: Vec<u16> = sa.intersection(&sb).copied().collect();
    let uni: Vec<u16> = sa.union(&sb).copied().collect();
    let xor: Vec<u16> = sa.symmetric_difference(&sb).copied().collect();
    let diff: Vec<u16> = sa.difference(&sb).copied().collect();
    let rdiff: Vec<u16> = sb.difference(&sa).copied().collect();
    for (tier, k) in tiers() {
        for (p, q, swapped) in [(x, y, false), (y, x, true)] {
            let got = appended(|o| (k.array_intersect)(p, q, o));
            assert_strictly_increasing(&got);
            assert_eq!(got, inter, "{tier} intersect swapped={swapped}");
            assert_eq!(got, appended(|o| (SCALAR.array_intersect)(p, q, o)));
            assert_eq!(
                (k.array_intersect_count)(p, q) as usize,
                inter.len(),
                "{tier} count"
            );
            assert_eq!(
                (k.array_intersects)(p, q),
                !inter.is_empty(),
                "{tier} intersects"
            );
            let got = appended(|o| (k.array_union)(p, q, o));
            assert_strictly_increasing(&got);
            assert_eq!(got, uni, "{tier} union swapped={swapped}");
            assert_eq!(got, appended(|o| (SCALAR.array_union)(p, q, o)));
            assert_eq!(
                (k.array_intersect_count)(p, q),
                (SCALAR.array_intersect_count)(p, q)
            );
            let got = appended(|o| (k.array_xor)(p, q, o));
            assert_strictly_increasing(&got);
            assert_eq!(got, xor, "{tier} xor swapped={swapped}");
            assert_eq!(got, appended(|o| (SCALAR.array_xor)(p, q, o)));
            let want = if swapped { &rdiff } else { &diff };
            let got = appended(|o| (k.array_difference)(p, q, o));
            assert_strictly_increasing(&got);
            assert_eq!(&got, want, "{tier} difference swapped={swapped}");
            assert_eq!(got, appended(|o| (SCALAR.array_difference)(p, q, o)));
        }
    }
    // The dispatched entry points.
    assert_eq!(appended(|o| array::xor(x, y, o)), xor);
    assert_eq!(appended(|o| array::xor(y, x, o)), xor);
    assert_eq!(appended(|o| array::difference(x, y, o)), diff);
    assert_eq!(appended(|o| array::difference(y, x, o)), rdiff);
    assert_eq!(appended(|o| array::intersect(x, y, o)), inter);
    assert_eq!(appended(|o| array::union(x, y, o)), uni);
    assert_eq!(array::intersect_count(x, y) as usize, inter.len());
    assert_eq!(array::intersects(x, y), !inter.is_empty());
}

fn check_bitmap_pair(a: &[u64], b: &[u64]) {
    let (ba, bb) = (Buf::u64s(a), Buf::u64s(b));
    let (x, y) = (ba.a8(), bb.a8());
    for op in BitOp::ALL {
        let model: Vec<u64> = a.iter().zip(b).map(|(p, q)| op.apply(*p, *q)).collect();
        let card: u32 = model.iter().map(|w| w.count_ones()).sum();
        for (tier, k) in tiers() {
            let mut out = [0x5555u64; 1024];
            assert_eq!(
                (k.bitmap_op_into)(op, x, y, &mut out),
                card,
                "{tier} {op:?}"
            );
            assert_eq!(out.as_slice(), model.as_slice(), "{tier} {op:?}");
            assert_eq!((k.bitmap_op_count)(op, x, y), card, "{tier} {op:?} count");
            assert_eq!(
                (k.bitmap_op_count)(op, x, y),
                (SCALAR.bitmap_op_count)(op, x, y)
            );
        }
        assert_eq!(bitmap::op_count(op, x, y), card);
    }
    let inter = a.iter().zip(b).any(|(p, q)| p & q != 0);
    let aw: &[u64; 1024] = a.try_into().unwrap();
    for (tier, k) in tiers() {
        assert_eq!((k.bitmap_intersects)(x, y), inter, "{tier} intersects");
        let mut acc = *aw;
        let card = (k.bitmap_or_assign)(&mut acc, y);
        let or: Vec<u64> = a.iter().zip(b).map(|(p, q)| p | q).collect();
        let or_card: u32 = or.iter().map(|w| w.count_ones()).sum();
        assert_eq!(card, or_card, "{tier} or_assign count");
        assert_eq!(acc.as_slice(), or.as_slice(), "{tier} or_assign");
    }
    assert_eq!(bitmap::intersects(x, y), inter);
}

fn check_bitmap_single(w: &[u64]) {
    let words: &[u64; 1024] = w.try_into().unwrap();
    let s = words_to_set(w);
    let values: Vec<u16> = s.iter().copied().collect();
    let runs = set_to_runs(&s);
    for (tier, k) in tiers() {
        assert_eq!(
            (k.bitmap_popcount)(words) as usize,
            s.len(),
            "{tier} popcount"
        );
        assert_eq!(
            (k.bitmap_count_runs)(words, u32::MAX) as usize,
            runs.len(),
            "{tier} count_runs"
        );
        for cap in caps(runs.len() as u32) {
            let got = (k.bitmap_count_runs)(words, cap);
            assert_capped(got, runs.len() as u32, cap, &format!("{tier} count_runs"));
        }
        let got = appended(|o| (k.bitmap_to_array)(words, o));
        assert_eq!(got, values, "{tier} to_array");
        assert_eq!(got, appended(|o| (SCALAR.bitmap_to_array)(words, o)));
        assert_eq!(
            (k.bitmap_count_runs)(words, u32::MAX),
            (SCALAR.bitmap_count_runs)(words, u32::MAX)
        );
    }
    let mut e = Vec::new();
    bitmap::edges(words, &mut e);
    let want: Vec<u16> = runs
        .iter()
        .flat_map(|&(s, l)| {
            let end = u32::from(s) + u32::from(l) + 1;
            std::iter::once(s).chain((end < 65536).then_some(end as u16))
        })
        .collect();
    assert_eq!(e, want, "edges");
    let mut r = vec![(1u16, 1u16)];
    bitmap::to_runs(words, &mut r);
    assert_eq!(r[0], (1, 1));
    assert_eq!(&r[1..], runs.as_slice(), "to_runs");
    assert_maximal_runs(&r[1..]);
    assert_eq!(bitmap::popcount(words) as usize, s.len());
    assert_eq!(bitmap::count_runs(words, u32::MAX) as usize, runs.len());
}

/// Caps around `runs`, the exact run count, and the writer's.
fn caps(runs: u32) -> Vec<u32> {
    let near = [runs.saturating_sub(1), runs, runs + 1, runs / 3];
    [0, 1, 100, RUNS_CAP].into_iter().chain(near).collect()
}

/// A run count to `cap`: exact below it, otherwise from `cap` to the exact one.
fn assert_capped(got: u32, exact: u32, cap: u32, what: &str) {
    if exact < cap {
        assert_eq!(got, exact, "{what}, cap {cap}");
    } else {
        assert!(
            (cap..=exact).contains(&got),
            "{what}: {got} of {exact} runs, cap {cap}"
        );
    }
}

/// The x86 and scalar tiers stop counting runs at the first 128-word block
/// that reaches the cap (every bit apart: 4,096 runs a block), and count every
/// set bit all the same.
/// Bitmaps of an array's worth of bits (the tiers' bit-by-bit extraction),
/// from half of one to a whole, with every word holding `per` bits around the
/// counts the extraction writes without looking (4 and 7), and a word at each
/// end holding all 64 or one.
#[test]
fn sparse_extraction_around_word_counts() {
    for per in [2u32, 3, 4, 5, 6, 7, 8, 9, 12, 64] {
        for bits in [2000u32, 2048, 2049, 3000, 4096] {
            if per * 1023 < bits {
                continue; // more bits than 1023 words of `per` hold
            }
            let mut w = vec![0u64; 1024];
            let (mut left, mut i) = (bits, 0usize);
            w[1023] = 1 << 63;
            left -= 1;
            while left > 0 {
                let n = per.min(left);
                // Every other bit from a word-dependent shift, so words differ
                // (a word of 33 bits or more is filled from its low end).
                let shift = (i % 5) as u32;
                w[i * 2 % 1023] = match n {
                    64 => !0,
                    33.. => (1 << n) - 1,
                    _ => (0..n).fold(0u64, |x, k| x | 1 << (2 * k + shift)),
                };
                left -= n;
                i += 1;
            }
            let card: u32 = w.iter().map(|x| x.count_ones()).sum();
            assert_eq!(card, bits);
            check_bitmap_single(&w);
            w[0] = !0;
            check_bitmap_single(&w);
        }
    }
}

#[test]
fn run_counts_stop_at_cap() {
    let w = vec![0x5555_5555_5555_5555u64; 1024];
    let words: &[u64; 1024] = w.as_slice().try_into().unwrap();
    let buf = Buf::u64s(&w);
    for (tier, k) in tiers() {
        if !matches!(tier, Tier::Scalar | Tier::Avx2 | Tier::Avx512) {
            continue;
        }
        assert_eq!((k.bitmap_count_runs)(words, RUNS_CAP), 4096, "{tier}");
        assert_eq!((k.bitmap_count_runs)(words, 4097), 8192, "{tier}");
        assert_eq!(
            (k.bitmap_card_and_runs)(buf.a8(), RUNS_CAP),
            (32768, 4096),
            "{tier}"
        );
        assert_eq!(
            (k.bitmap_card_and_runs)(buf.a8(), 0),
            (32768, 4096),
            "{tier}"
        );
        assert_eq!(
            (k.bitmap_card_and_runs)(buf.a8(), u32::MAX),
            (32768, 32768),
            "{tier}"
        );
    }
}

fn check_ranges(w: &[u64], start: u32, end: u32) {
    let words: [u64; 1024] = w.try_into().unwrap();
    let s = words_to_set(w);
    let range: BTreeSet<u16> = (start..=end).map(|x| x as u16).collect();
    let count = s.intersection(&range).count() as u32;
    assert_eq!(bitmap::range_count(&words, start, end), count);
    let mut t = words;
    bitmap::set_range(&mut t, start, end);
    assert_eq!(words_to_set(&t), s.union(&range).copied().collect());
    let mut t = words;
    bitmap::clear_range(&mut t, start, end);
    assert_eq!(words_to_set(&t), s.difference(&range).copied().collect());
    let mut t = words;
    bitmap::flip_range(&mut t, start, end);
    assert_eq!(
        words_to_set(&t),
        s.symmetric_difference(&range).copied().collect()
    );
}

fn check_array_bitmap(a: &[u16], w: &[u64]) {
    let (ba, bw) = (Buf::u16s(a), Buf::u64s(w));
    let (x, y) = (ba.a2(), bw.a8());
    let sa = set(a);
    let sw = words_to_set(w);
    let inter: Vec<u16> = sa.intersection(&sw).copied().collect();
    let diff: Vec<u16> = sa.difference(&sw).copied().collect();
    assert_eq!(appended(|o| array_bitmap::intersect(x, y, o)), inter);
    assert_eq!(array_bitmap::intersect_count(x, y) as usize, inter.len());
    assert_eq!(array_bitmap::intersects(x, y), !inter.is_empty());
    assert_eq!(appended(|o| array_bitmap::difference(x, y, o)), diff);
    let words: [u64; 1024] = w.try_into().unwrap();
    let marked = |f: fn(&[[u8; 2]], &mut [u64; 1024])| {
        let mut t = words;
        f(x, &mut t);
        words_to_set(&t)
    };
    let union: BTreeSet<u16> = sw.union(&sa).copied().collect();
    let difference: BTreeSet<u16> = sw.difference(&sa).copied().collect();
    let symmetric: BTreeSet<u16> = sw.symmetric_difference(&sa).copied().collect();
    assert_eq!(marked(array_bitmap::set_into), union);
    assert_eq!(marked(array_bitmap::clear_from), difference);
    assert_eq!(marked(array_bitmap::flip_into), symmetric);
    // The bytes form, at an odd offset: the writer sets values in its output,
    // where a bitmap's payload need not be aligned.
    let marked_bytes = |f: fn(&[[u8; 2]], &mut [[u8; 8]; 1024])| {
        let mut t = vec![0u8; 8 * 1024 + 1];
        for (d, w) in t[1..].chunks_exact_mut(8).zip(&words) {
            d.copy_from_slice(&w.to_le_bytes());
        }
        let (chunks, _) = t[1..].as_chunks_mut::<8>();
        f(x, chunks.try_into().unwrap());
        let back: Vec<u64> = chunks.iter().map(|c| u64::from_le_bytes(*c)).collect();
        words_to_set(&back)
    };
    assert_eq!(marked_bytes(array_bitmap::set_into_bytes), union);
    for (tier, k) in tiers() {
        assert_eq!(
            appended(|o| (k.array_bitmap_intersect)(x, y, o)),
            inter,
            "{tier} intersect"
        );
        assert_eq!(
            appended(|o| (k.array_bitmap_difference)(x, y, o)),
            diff,
            "{tier} difference"
        );
        assert_eq!(marked(k.array_bitmap_set_into), union, "{tier} set_into");
        assert_eq!(
            marked_bytes(k.array_bitmap_set_into_bytes),
            union,
            "{tier} set_into_bytes"
        );
        assert_eq!(
            marked(k.array_bitmap_clear_from),
            difference,
            "{tier} clear_from"
        );
        assert_eq!(
            marked(k.array_bitmap_flip_into),
            symmetric,
            "{tier} flip_into"
        );
    }
}

type RunOp = fn(&[[u8; 4]], &[[u8; 4]], &mut Vec<(u16, u16)>);

fn run_op(f: RunOp, x: &[[u8; 4]], y: &[[u8; 4]]) -> Vec<(u16, u16)> {
    let mut out = vec![(7u16, 0u16)];
    f(x, y, &mut out);
    assert_eq!(out[0], (7, 0));
    let out = out.split_off(1);
    assert_maximal_runs(&out);
    out
}

fn check_runs(a: &[(u16, u16)], b: &[(u16, u16)]) {
    let (ba, bb) = (Buf::runs(a), Buf::runs(b));
    let (x, y) = (ba.a4(), bb.a4());
    let (sa, sb) = (runs_to_set(a), runs_to_set(b));
    let inter: BTreeSet<u16> = sa.intersection(&sb).copied().collect();
    assert_eq!(run_op(run::intersect, x, y), set_to_runs(&inter));
    assert_eq!(
        run_op(run::union, x, y),
        set_to_runs(&sa.union(&sb).copied().collect())
    );
    assert_eq!(
        run_op(run::xor, x, y),
        set_to_runs(&sa.symmetric_difference(&sb).copied().collect())
    );
    assert_eq!(
        run_op(run::difference, x, y),
        set_to_runs(&sa.difference(&sb).copied().collect())
    );
    check_toggles(a, b, &[]);
    check_toggles(b, a, &[]);
    assert_eq!(run::intersect_count(x, y) as usize, inter.len());
    assert_eq!(run::intersects(x, y), !inter.is_empty());
    assert_eq!(run::card(x) as usize, sa.len());
    for (tier, k) in tiers() {
        let mut words = [0u64; 1024];
        (k.run_set_into)(x, &mut words);
        assert_eq!(words_to_set(&words), sa, "{tier} run_set_into");
    }
    for probe in [0u16, 1, 65534, 65535]
        .into_iter()
        .chain(sb.iter().copied().take(50))
    {
        assert_eq!(
            run::contains(x, probe),
            sa.contains(&probe),
            "contains {probe}"
        );
    }
    for &(s, l) in b.iter().take(30) {
        for p in [
            s.wrapping_sub(1),
            s,
            s.wrapping_add(l),
            s.wrapping_add(l).wrapping_add(1),
        ] {
            assert_eq!(run::contains(x, p), sa.contains(&p), "contains {p}");
        }
    }
}

type RunArrayOp = fn(&[[u8; 4]], &[[u8; 2]], &mut Vec<(u16, u16)>);

fn check_run_array(r: &[(u16, u16)], a: &[u16]) {
    let (br, ba) = (Buf::runs(r), Buf::u16s(a));
    let (x, y) = (br.a4(), ba.a2());
    let sr = runs_to_set(r);
    let inter: Vec<u16> = set(a).intersection(&sr).copied().collect();
    assert_eq!(appended(|o| run::run_array_intersect(x, y, o)), inter);
    assert_eq!(run::run_array_count(x, y) as usize, inter.len());
    check_run_array_tiers(r, a);
    assert_eq!(run::run_array_intersects(x, y), !inter.is_empty());
    let sa = set(a);
    let runs_with = |f: RunArrayOp| {
        let mut out = vec![(7u16, 0u16)];
        f(x, y, &mut out);
        assert_eq!(out[0], (7, 0));
        let out = out.split_off(1);
        assert_maximal_runs(&out);
        out
    };
    assert_eq!(
        runs_with(run::run_array_union),
        set_to_runs(&sr.union(&sa).copied().collect())
    );
    assert_eq!(
        runs_with(run::run_array_xor),
        set_to_runs(&sr.symmetric_difference(&sa).copied().collect())
    );
    assert_eq!(
        runs_with(run::run_array_difference),
        set_to_runs(&sr.difference(&sa).copied().collect())
    );
    let outside: Vec<u16> = sa.difference(&sr).copied().collect();
    assert_eq!(appended(|o| run::array_run_difference(y, x, o)), outside);
    check_toggles(r, &[], a);
}

/// The dispatched run-and-array kernels of every tier, against the model.
fn check_run_array_tiers(r: &[(u16, u16)], a: &[u16]) {
    let (br, ba) = (Buf::runs(r), Buf::u16s(a));
    let (x, y) = (br.a4(), ba.a2());
    let inter: Vec<u16> = set(a).intersection(&runs_to_set(r)).copied().collect();
    for (tier, k) in tiers() {
        let got = appended(|o| (k.run_array_intersect)(x, y, o));
        assert_eq!(got, inter, "{tier} run_array_intersect");
        assert_eq!(
            (k.run_array_count)(x, y) as usize,
            inter.len(),
            "{tier} run_array_count"
        );
        let outside: Vec<u16> = set(a).difference(&runs_to_set(r)).copied().collect();
        let got = appended(|o| (k.array_run_difference)(y, x, o));
        assert_eq!(got, outside, "{tier} array_run_difference");
    }
    check_toggle_difference(r, a);
}

/// `runs \ values` and `runs ∪ values` by toggle points, under every tier,
/// against the model.
fn check_toggle_difference(r: &[(u16, u16)], values: &[u16]) {
    let (br, bv) = (Buf::runs(r), Buf::u16s(values));
    let (x, v) = (br.a4(), bv.a2());
    let (sr, sv) = (runs_to_set(r), set(values));
    let difference = set_to_runs(&sr.difference(&sv).copied().collect());
    let union = set_to_runs(&sr.union(&sv).copied().collect());
    type Op = fn(&mut Toggles, &[[u8; 4]], &[[u8; 2]], &mut Vec<(u16, u16)>) -> bool;
    let ops = [
        (
            "difference",
            Toggles::run_array_difference as Op,
            &difference,
        ),
        ("union", Toggles::run_array_union as Op, &union),
    ];
    for (tier, k) in tiers() {
        let mut t = Toggles::with_kernels(k);
        for round in 0..2 {
            for (name, op, want) in ops {
                let mut out = vec![(7u16, 0u16)];
                let done = op(&mut t, x, v, &mut out);
                assert_eq!(done, is_maximal(r), "{tier} round {round}: {name} accepted");
                assert_eq!(out[0], (7, 0));
                if done {
                    assert_eq!(out[1..], want[..], "{tier} round {round}: {name}");
                } else {
                    assert_eq!(out.len(), 1, "{tier}: {name} appended to a refusal");
                }
            }
        }
    }
}

#[test]
fn run_array_blocks_and_edges() {
    // Arrays of every length around the 32-value blocks, against runs that
    // start, end and lie between the blocks' first and last values, span
    // several blocks, or touch 0 and 65535.
    let lists: Vec<Vec<(u16, u16)>> = vec![
        vec![(0, 65535)],
        vec![(0, 0), (65535, 0)],
        (0..300u16).map(|k| (k * 200, 50)).collect(),
        (0..300u16).map(|k| (k * 200 + 101, 0)).collect(),
        vec![(0, 3), (60, 500), (1000, 30000), (40000, 25535)],
        (0..2000u16).map(|k| (k * 32 + 7, 9)).collect(),
    ];
    for n in [1usize, 7, 8, 9, 31, 32, 33, 63, 64, 65, 200, 1000] {
        for step in [1u32, 3, 17, 61, 197] {
            for offset in [0u32, 5, 65535u32.saturating_sub((n as u32 - 1) * step)] {
                let a: Vec<u16> = (0..n as u32)
                    .map(|k| offset + k * step)
                    .take_while(|&v| v <= 65535)
                    .map(|v| v as u16)
                    .collect();
                for r in &lists {
                    check_run_array_tiers(r, &a);
                }
            }
        }
    }
}

#[test]
fn set_into_spread_and_packed_runs() {
    // Runs far apart (set without a branch per run) and packed several to a word
    // (set with one), each in one word, across a boundary, over many words, and
    // at 0 and 65535; ORed into bitmaps empty, sparse and full of holes.
    let lists: Vec<Vec<(u16, u16)>> = vec![
        vec![(0, 0)],
        vec![(65535, 0)],
        vec![(0, 0), (65535, 0)],
        vec![(0, 65535)],
        vec![(60, 7), (1000, 0), (4095, 1), (8000, 200), (65472, 63)],
        vec![(63, 1), (127, 0), (30000, 3000), (65534, 1)],
        (0..200u16).map(|k| (k * 300 + 62, k % 5)).collect(),
        (0..3000u16).map(|k| (k * 20 + 3, k % 4)).collect(),
        (0..1000u16).map(|k| (k * 64 + 60, 8)).collect(),
        (0..500u16).map(|k| (k * 131, 70)).collect(),
    ];
    let backgrounds: Vec<Vec<u64>> = vec![
        vec![0; 1024],
        (0..1024u64)
            .map(|i| if i % 7 == 0 { 1 << (i % 64) } else { 0 })
            .collect(),
        (0..1024u64)
            .map(|i| !(0x8000_0000_0000_0001u64 >> (i % 3)))
            .collect(),
    ];
    for r in &lists {
        let buf = Buf::runs(r);
        for bg in &backgrounds {
            let want: BTreeSet<u16> = words_to_set(bg).union(&runs_to_set(r)).copied().collect();
            for (tier, k) in tiers() {
                let mut words: [u64; 1024] = bg.as_slice().try_into().unwrap();
                (k.run_set_into)(buf.a4(), &mut words);
                assert_eq!(
                    words_to_set(&words),
                    want,
                    "{tier} {:?}",
                    &r[..r.len().min(4)]
                );
            }
            let mut words: [u64; 1024] = bg.as_slice().try_into().unwrap();
            run::set_into(buf.a4(), &mut words);
            assert_eq!(words_to_set(&words), want, "dispatched");
        }
    }
}

fn is_maximal(r: &[(u16, u16)]) -> bool {
    r.windows(2)
        .all(|w| u32::from(w[1].0) > u32::from(w[0].0) + u32::from(w[0].1) + 1)
}

/// `a ⊕ (b ∪ values)` by toggle points, under every tier, against the model:
/// `run_xor` when `values` is empty, `run_array_xor` otherwise. Each tier's
/// buffers are used twice, so what the first call left must not leak into
/// the second.
fn check_toggles(a: &[(u16, u16)], b: &[(u16, u16)], values: &[u16]) {
    let (ba, bb, bv) = (Buf::runs(a), Buf::runs(b), Buf::u16s(values));
    let (x, y, v) = (ba.a4(), bb.a4(), bv.a2());
    let model = |other: &BTreeSet<u16>| {
        set_to_runs(
            &runs_to_set(a)
                .symmetric_difference(other)
                .copied()
                .collect(),
        )
    };
    let (want, accepted) = if values.is_empty() {
        (model(&runs_to_set(b)), is_maximal(a) && is_maximal(b))
    } else {
        (model(&set(values)), is_maximal(a))
    };
    for (tier, k) in tiers() {
        let mut t = Toggles::with_kernels(k);
        for round in 0..2 {
            let mut out = vec![(7u16, 0u16)];
            let done = if values.is_empty() {
                t.run_xor(x, y, &mut out)
            } else {
                t.run_array_xor(x, v, &mut out)
            };
            assert_eq!(done, accepted, "{tier} round {round}: accepted");
            assert_eq!(out[0], (7, 0));
            if done {
                assert_eq!(out[1..], want[..], "{tier} round {round}");
            } else {
                assert_eq!(out.len(), 1, "{tier}: appended to a refusal");
            }
        }
    }
}

#[test]
fn toggles_at_the_edges() {
    let stretch = |s: u32, n: u32| -> Vec<u16> { (s..s + n).map(|x| x as u16).collect() };
    let full = [(0u16, 65535u16)];
    let top = [(65500u16, 35u16)];
    let many: Vec<(u16, u16)> = (0..200u16).map(|k| (k * 300, 100)).collect();
    let many_top: Vec<(u16, u16)> = many.iter().copied().chain([(65000, 535)]).collect();
    let arrays = [
        vec![0u16],
        vec![65535],
        vec![0, 65535],
        stretch(65500, 36),
        stretch(0, 40),
        (0..=65535).collect(),
        // Stretches of consecutive values that start and end inside, at and
        // beside each run of `many`, in blocks longer than a SIMD block.
        (0..200u32)
            .flat_map(|k| stretch(k * 300 + (k % 5) * 50, 1 + k % 70))
            .filter(|&v| v < 60000)
            .collect::<BTreeSet<u16>>()
            .into_iter()
            .collect(),
        (0..4000u32)
            .map(|k| (k * 16 + 65535 - 63984) as u16)
            .collect(),
    ];
    for runs in [&full[..], &top, &many, &many_top] {
        for values in &arrays {
            check_toggles(runs, &[], values);
            check_toggle_difference(runs, values);
        }
        for other in [&full[..], &top, &many, &many_top, &[(0, 0)], &[(65535, 0)]] {
            check_toggles(runs, other, &[]);
            check_toggles(other, runs, &[]);
        }
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn array_kernels((a, b) in u16_pair()) {
        check_array_pair(&a, &b);
    }

    #[test]
    fn array_lower_bound(a in sorted_u16(), xs in proptest::collection::vec(any::<u16>(), 0..20)) {
        let buf = Buf::u16s(&a);
        let v = buf.a2();
        for x in xs.into_iter().chain(a.iter().copied().take(10)).chain([0, 65535]) {
            prop_assert_eq!(search::lower_bound_u16(v, x), a.partition_point(|&y| y < x));
        }
    }

    #[test]
    fn bitmap_pair_kernels(a in bitmap(), b in bitmap()) {
        check_bitmap_pair(&a, &b);
    }

    #[test]
    fn bitmap_single_kernels(w in bitmap()) {
        check_bitmap_single(&w);
    }

    #[test]
    fn bitmap_ranges(w in bitmap(), s in 0u32..65536, len in prop_oneof![0u32..70, 0u32..65536]) {
        let e = (s + len).min(65535);
        check_ranges(&w, s, e);
    }

    #[test]
    fn array_bitmap_kernels(a in sorted_u16(), w in bitmap()) {
        check_array_bitmap(&a, &w);
    }

    #[test]
    fn run_kernels(a in input_runs(), b in input_runs()) {
        check_runs(&a, &b);
    }

    #[test]
    fn run_array_kernels(r in input_runs(), a in sorted_u16()) {
        check_run_array(&r, &a);
    }
}

/// Every length combination around the SIMD block sizes, several overlap
/// patterns, deterministic.
#[test]
fn array_lengths_around_block_sizes() {
    let lens = [
        0usize, 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 95, 96, 97, 130,
    ];
    for &la in &lens {
        for &lb in &lens {
            for pattern in 0..5u32 {
                let a: Vec<u16> = (0..la as u32).map(|i| (i * 3) as u16).collect();
                let b: Vec<u16> = match pattern {
                    0 => (0..lb as u32).map(|i| (i * 2) as u16).collect(),
                    1 => (0..lb as u32).map(|i| (i * 3) as u16).collect(),
                    2 => (0..lb as u32)
                        .map(|i| (65535 - (lb as u32 - 1 - i) * 5) as u16)
                        .collect(),
                    3 => (0..lb as u32).map(|i| (i * 3 + 1) as u16).collect(),
                    _ => (0..lb as u32).map(|i| (i * 7 + la as u32) as u16).collect(),
                };
                check_array_pair(&a, &b);
            }
        }
    }
}

/// Pairs for xor and difference with every length 0..=40 (and around the
/// 8/16/32-lane blocks): identical, disjoint interleaved, mixed overlap,
/// one input a prefix of the other, and packed against 0 or 65535.
#[test]
fn xor_difference_short_lengths() {
    let lens: Vec<usize> = (0..=40).chain([47, 48, 49, 63, 64, 65]).collect();
    // A fixed pseudo-random choice per value, so overlaps are irregular.
    let pick = |x: u32, salt: u32| {
        !(x.wrapping_mul(0x9E37_79B9) ^ salt)
            .rotate_left(7)
            .is_multiple_of(3)
    };
    for &la in &lens {
        for &lb in &lens {
            let (la32, lb32) = (la as u32, lb as u32);
            let a: Vec<u16> = (0..la32).map(|i| (i * 3) as u16).collect();
            let prefix: Vec<u16> = a.iter().copied().take(lb).collect();
            let pairs: [(Vec<u16>, Vec<u16>); 6] = [
                (a.clone(), (0..lb32).map(|i| (i * 3) as u16).collect()),
                (
                    (0..la32).map(|i| (2 * i) as u16).collect(),
                    (0..lb32).map(|i| (2 * i + 1) as u16).collect(),
                ),
                (
                    (0..4 * la32)
                        .filter(|&x| pick(x, 1))
                        .take(la)
                        .map(|x| x as u16)
                        .collect(),
                    (0..4 * lb32)
                        .filter(|&x| pick(x, 2))
                        .take(lb)
                        .map(|x| x as u16)
                        .collect(),
                ),
                (a.clone(), prefix),
                (
                    (0..la32).map(|i| (65535 - 2 * i) as u16).rev().collect(),
                    (0..lb32).map(|i| (65535 - 3 * i) as u16).rev().collect(),
                ),
                (
                    (0..la32).map(|i| (65535 - i) as u16).rev().collect(),
                    (0..lb32).map(|i| i as u16).collect(),
                ),
            ];
            for (x, y) in &pairs {
                check_array_pair(x, y);
            }
        }
    }
}

/// Long inputs (4096 values and neighbours), on the block paths and past the
/// gallop threshold.
#[test]
fn xor_difference_long() {
    let n = 4096u32;
    let all: Vec<u16> = (0..2 * n).map(|x| x as u16).collect();
    let evens: Vec<u16> = (0..n).map(|i| (2 * i) as u16).collect();
    let odds: Vec<u16> = (0..n).map(|i| (2 * i + 1) as u16).collect();
    let mixed: Vec<u16> = (0..3 * n)
        .filter(|x| x.wrapping_mul(0x9E37_79B9).rotate_left(5).is_multiple_of(3))
        .map(|x| x as u16)
        .collect();
    let top: Vec<u16> = (0..n + 1).map(|i| (65535 - 7 * i) as u16).rev().collect();
    let sparse: Vec<u16> = (0..n - 1).map(|i| (i * 16) as u16).collect();
    let few: Vec<u16> = (0..100).map(|i| i * 81).collect();
    let some: Vec<u16> = (0..200).map(|i| i * 41 + 1).collect();
    let inputs = [&all, &evens, &odds, &mixed, &top, &sparse, &few, &some];
    for x in inputs {
        for y in inputs {
            check_array_pair(x, y);
        }
    }
}

/// Dense overlapping pairs of 32 to 200 values from small ranges, so that the
/// merges' blocks end on values the other input holds too: the AVX-512 merge
/// then stops with a value emitted from one input and its copy in the other
/// still unread, which its tail must drop (union) or cancel (xor).
#[test]
fn merges_stop_on_shared_values() {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..3000 {
        let range = 48 + next() % 220;
        let base = (next() % (65536 - range)) as u16;
        // How often a value is in a, in b, in both: varied per pair.
        let (pa, pb) = (next() % 100, next() % 100);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for k in 0..range as u16 {
            if next() % 100 < pa {
                a.push(base + k);
            }
            if next() % 100 < pb {
                b.push(base + k);
            }
        }
        check_array_pair(&a, &b);
    }
}

/// A few values against arrays of 32 to 4096 (the AVX-512 tier's lookups by
/// block maxima, the insertions of the AVX2 and AVX-512 tiers in blocks of 16
/// and 32): values on both sides of every block boundary, at the ends, and
/// between members, with the long array's last block full or partial.
#[test]
fn few_values_against_long_arrays() {
    for len in [
        32usize, 33, 47, 63, 64, 100, 512, 545, 1000, 2047, 4095, 4096,
    ] {
        let step = 65536 / len as u32;
        let long: Vec<u16> = (0..len as u32).map(|i| (i * step) as u16).collect();
        let mut probes: Vec<u16> = vec![0, 1, 65535];
        for k in (0..len).step_by(16).chain([15, 31, len - 2, len - 1]) {
            let v = long[k];
            probes.extend([v, v.saturating_sub(1), v.saturating_add(1)]);
            if k + 15 < len {
                probes.push(long[k + 15]);
            }
        }
        probes.sort_unstable();
        probes.dedup();
        for take in [2, 3, 7, 15] {
            for start in 0..take {
                let short: Vec<u16> = probes.iter().skip(start).step_by(take).copied().collect();
                for size in [1, 15, len / 64] {
                    for chunk in short.chunks(size.max(1)) {
                        check_array_pair(chunk, &long);
                    }
                }
            }
        }
    }
}

/// One or two values against long arrays: each is searched for in the whole long
/// array, so every place a value can fall is tried (before, on and after each
/// end, on a member, between two members).
#[test]
fn one_or_two_values_against_long_arrays() {
    let evens: Vec<u16> = (1..2000).map(|i| (2 * i) as u16).collect();
    let top: Vec<u16> = (0..300).map(|i| (65535 - 3 * i) as u16).rev().collect();
    for long in [&evens, &top] {
        let (first, last) = (long[0], *long.last().expect("non-empty"));
        let mut probes = vec![
            0,
            1,
            first,
            first + 1,
            long[long.len() / 2],
            last - 1,
            last,
            65535,
        ];
        probes.extend(long.iter().step_by(97).flat_map(|&v| [v, v + 1]));
        probes.sort_unstable();
        probes.dedup();
        for &p in &probes {
            check_array_pair(&[p], long);
            for &q in &probes {
                if q > p {
                    check_array_pair(&[p, q], long);
                }
            }
        }
    }
}

#[test]
fn arrays_full_and_edges() {
    let all: Vec<u16> = (0..=65535).collect();
    let evens: Vec<u16> = (0..=65535).step_by(2).collect();
    let top: Vec<u16> = (65500..=65535).collect();
    let bottom: Vec<u16> = (0..40).collect();
    for (a, b) in [
        (&all, &all),
        (&all, &evens),
        (&evens, &top),
        (&top, &bottom),
        (&all, &top),
        (&bottom, &all),
        (&top, &top),
    ] {
        check_array_pair(a, b);
    }
    // Against empty, full and single-word bitmaps, with values at both ends.
    let mut edge_words = vec![0u64; 1024];
    edge_words[0] = 1;
    edge_words[1023] = 1 << 63;
    for w in [vec![0u64; 1024], vec![u64::MAX; 1024], edge_words] {
        for a in [&all, &evens, &top, &bottom, &vec![0, 65535], &Vec::new()] {
            check_array_bitmap(a, &w);
        }
    }
}

/// Unaligned reads at every offset 0..8, for the SIMD tiers.
#[test]
fn every_offset() {
    let a: Vec<u16> = (0..300).map(|i| i * 5).collect();
    let b: Vec<u16> = (0..400).map(|i| i * 3).collect();
    let w: Vec<u64> = (0..1024u64)
        .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .collect();
    let w2: Vec<u64> = (0..1024u64)
        .map(|i| !i.wrapping_mul(0xD1B5_4A32_D192_ED03))
        .collect();
    let want = appended(|o| (SCALAR.array_intersect)(Buf::u16s(&a).a2(), Buf::u16s(&b).a2(), o));
    let want_u = appended(|o| (SCALAR.array_union)(Buf::u16s(&a).a2(), Buf::u16s(&b).a2(), o));
    let want_x = appended(|o| (SCALAR.array_xor)(Buf::u16s(&a).a2(), Buf::u16s(&b).a2(), o));
    let want_d = appended(|o| (SCALAR.array_difference)(Buf::u16s(&a).a2(), Buf::u16s(&b).a2(), o));
    let want_rd =
        appended(|o| (SCALAR.array_difference)(Buf::u16s(&b).a2(), Buf::u16s(&a).a2(), o));
    for off in 0..8 {
        let (ba, bb) = (Buf::u16s_at(&a, off), Buf::u16s_at(&b, off + 1));
        let (bw, bw2) = (Buf::u64s_at(&w, off), Buf::u64s_at(&w2, 7 - off));
        for (tier, k) in tiers() {
            assert_eq!(
                appended(|o| (k.array_intersect)(ba.a2(), bb.a2(), o)),
                want,
                "{tier}"
            );
            assert_eq!(
                appended(|o| (k.array_union)(ba.a2(), bb.a2(), o)),
                want_u,
                "{tier}"
            );
            assert_eq!(
                appended(|o| (k.array_xor)(ba.a2(), bb.a2(), o)),
                want_x,
                "{tier}"
            );
            assert_eq!(
                appended(|o| (k.array_difference)(ba.a2(), bb.a2(), o)),
                want_d,
                "{tier}"
            );
            assert_eq!(
                appended(|o| (k.array_difference)(bb.a2(), ba.a2(), o)),
                want_rd,
                "{tier}"
            );
            for op in BitOp::ALL {
                let mut out = [0u64; 1024];
                let n = (k.bitmap_op_into)(op, bw.a8(), bw2.a8(), &mut out);
                let model: Vec<u64> = w.iter().zip(&w2).map(|(p, q)| op.apply(*p, *q)).collect();
                assert_eq!(out.as_slice(), model.as_slice());
                assert_eq!(n, model.iter().map(|x| x.count_ones()).sum::<u32>());
            }
        }
    }
}

#[test]
#[should_panic(expected = "1024 words")]
fn bitmap_wrong_length_panics() {
    let w = vec![0u64; 1023];
    let b = Buf::u64s(&w);
    bitmap::op_count(BitOp::And, b.a8(), b.a8());
}

#[test]
fn report_tiers() {
    let t = tiers();
    eprintln!(
        "tested tiers: {:?}",
        t.iter().map(|(t, _)| t.name()).collect::<Vec<_>>()
    );
    assert!(!t.is_empty());
    // NEON is in the aarch64 baseline: a run there that did not test the
    // NEON tier would be a detection bug, not a slow CPU.
    if cfg!(all(target_arch = "aarch64", target_endian = "little")) {
        assert!(t.iter().any(|(t, _)| *t == Tier::Neon), "NEON tier missing");
    }
}

/// The model of `ascending_runs`: strictly increasing, then its maximal runs.
fn ascending_runs_model(v: &[u16]) -> Option<u32> {
    let increasing = v.windows(2).all(|w| w[0] < w[1]);
    increasing.then(|| set_to_runs(&set(v)).len() as u32)
}

/// `ascending_runs` on every tier, read at an odd and an even address, against
/// the model and the scalar tier; returns the model's answer.
fn check_ascending(v: &[u16]) -> Option<u32> {
    let want = ascending_runs_model(v);
    for off in [1, 2] {
        let buf = Buf::u16s_at(v, off);
        let a = buf.a2();
        assert_eq!((SCALAR.array_ascending_runs)(a), want, "scalar {v:?}");
        for (tier, k) in tiers() {
            assert_eq!(
                (k.array_ascending_runs)(a),
                want,
                "{tier} len {} {v:?}",
                v.len()
            );
        }
        assert_eq!(array::ascending_runs(a), want);
    }
    want
}

/// `runs_into` of the strictly increasing `v` on every tier, against the
/// model's runs, at two read offsets; the slots past the runs may be written
/// but not the ones past the slack.
fn check_runs_into(v: &[u16]) {
    if v.is_empty() {
        return;
    }
    let want = set_to_runs(&v.iter().copied().collect());
    let want: Vec<[u8; 4]> = want
        .iter()
        .map(|&(s, l)| {
            let (s, l) = (s.to_le_bytes(), l.to_le_bytes());
            [s[0], s[1], l[0], l[1]]
        })
        .collect();
    for off in [1, 2] {
        let buf = Buf::u16s_at(v, off);
        let a = buf.a2();
        for (tier, k) in tiers().into_iter().chain([(Tier::Scalar, &SCALAR)]) {
            let mut dst = vec![[0xA5u8; 4]; want.len() + array::RUNS_SLACK + 1];
            let n = (k.array_runs_into)(a, &mut dst);
            assert_eq!(n, want.len(), "{tier} len {}", v.len());
            assert_eq!(&dst[..n], want.as_slice(), "{tier} len {}", v.len());
            assert_eq!(*dst.last().unwrap(), [0xA5; 4], "{tier} past the slack");
        }
        let mut dst = vec![[0u8; 4]; want.len() + array::RUNS_SLACK];
        assert_eq!(array::runs_into(a, &mut dst), want.len());
        assert_eq!(&dst[..want.len()], want.as_slice());
    }
}

/// `runs_into` at every length around the 16-lane steps, in every shape, and
/// at the ends of the value range: one run of all 65,536 values (its length
/// less one is 65,535), and runs ending at 65535.
#[test]
fn runs_into_lengths_and_shapes() {
    let lens = (1..=70).chain([95, 96, 97, 127, 128, 129, 255, 256, 257, 4095, 4096, 4097]);
    for n in lens {
        for v in ascending_shapes(n) {
            check_runs_into(&v);
        }
    }
    let full: Vec<u16> = (0..=65535).collect();
    check_runs_into(&full);
    check_runs_into(&full[1..]);
    check_runs_into(&full[..65535]);
    let holes: Vec<u16> = (0..=65535u32)
        .filter(|x| x % 1000 != 999)
        .map(|x| x as u16)
        .collect();
    check_runs_into(&holes);
}

/// Strictly increasing arrays of `n` values in several run shapes.
fn ascending_shapes(n: usize) -> Vec<Vec<u16>> {
    let n32 = n as u32;
    let mut shapes: Vec<Vec<u16>> = vec![
        // One run from 0, and one ending at 65535.
        (0..n32).map(|i| i as u16).collect(),
        (65536 - n32..65536).map(|i| i as u16).collect(),
        // No two consecutive; the largest gaps end at 65535.
        (0..n32).map(|i| (2 * i) as u16).collect(),
        (0..n32)
            .map(|i| (65535 - (n32 - 1 - i) * 9) as u16)
            .collect(),
    ];
    // Runs of `r` values separated by one missing value: runs start at every
    // lane offset and straddle the 8-, 16- and 32-lane vector boundaries.
    for r in [2u32, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33] {
        shapes.push((0..n32).map(|i| (i + i / r) as u16).collect());
    }
    // Uneven gaps (an LCG) from 0 to near 65535.
    let mut x = 12345u32;
    let mut cur = 0u32;
    let step_max = (65535 / n32.max(1)).max(1);
    let mut v = Vec::new();
    for _ in 0..n {
        v.push(cur as u16);
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        cur += 1 + (x >> 16) % step_max.min(4);
    }
    shapes.push(v);
    for s in &shapes {
        assert_eq!(s.len(), n);
        assert_strictly_increasing(s);
    }
    shapes
}

/// Ways to break the order at position `p` (`1 <= p < v.len()`): an equal
/// neighbour, a decrease by one (or to an equal 0), a drop to 0, the
/// predecessor raised to 65535, and a swap with the predecessor.
fn breaks_at(v: &[u16], p: usize) -> Vec<Vec<u16>> {
    let mut out = Vec::new();
    let mut w = v.to_vec();
    w[p] = w[p - 1];
    out.push(w);
    let mut w = v.to_vec();
    w[p] = w[p - 1].saturating_sub(1);
    out.push(w);
    let mut w = v.to_vec();
    w[p] = 0;
    out.push(w);
    let mut w = v.to_vec();
    w[p - 1] = 65535;
    out.push(w);
    let mut w = v.to_vec();
    w.swap(p - 1, p);
    out.push(w);
    out
}

/// Lengths 0..=70, then around the 8-, 16- and 32-lane vector widths; every
/// shape valid, then broken at every position (or, for long arrays, around
/// every vector boundary and at both ends).
#[test]
fn ascending_runs_lengths_and_breaks() {
    let lens = (0..=70).chain([
        95, 96, 97, 98, 127, 128, 129, 130, 255, 256, 257, 4095, 4096, 4097,
    ]);
    let mut rejected = 0;
    for n in lens {
        for v in ascending_shapes(n) {
            let runs = check_ascending(&v).expect("valid shape");
            assert!(n == 0 || runs >= 1);
            let positions: Vec<usize> = if n <= 130 {
                (1..n).collect()
            } else {
                let mut p: Vec<usize> = (1..n)
                    .filter(|p| [p % 8, p % 16, p % 32].iter().any(|r| *r <= 1 || *r == 7))
                    .collect();
                p.truncate(60);
                p.extend([n - 2, n - 1]);
                p
            };
            for p in positions {
                for w in breaks_at(&v, p) {
                    if w != v {
                        assert!(w[p] <= w[p - 1]);
                        assert_eq!(check_ascending(&w), None, "break at {p} of {n}");
                        rejected += 1;
                    }
                }
            }
        }
    }
    assert!(rejected > 10_000);
}

#[test]
fn ascending_runs_edges() {
    assert_eq!(check_ascending(&[]), Some(0));
    assert_eq!(check_ascending(&[0]), Some(1));
    assert_eq!(check_ascending(&[65535]), Some(1));
    assert_eq!(check_ascending(&[0, 65535]), Some(2));
    assert_eq!(check_ascending(&[65534, 65535]), Some(1));
    // 65535 + 1 wraps to 0: a gap of "1" that is a decrease.
    assert_eq!(check_ascending(&[65535, 0]), None);
    assert_eq!(check_ascending(&[0, 0]), None);
    assert_eq!(check_ascending(&[65535, 65535]), None);
    let all: Vec<u16> = (0..=65535).collect();
    assert_eq!(check_ascending(&all), Some(1));
    let evens: Vec<u16> = (0..=65535).step_by(2).collect();
    assert_eq!(check_ascending(&evens), Some(32768));
    // Longer than any strictly increasing array: it must repeat a value.
    let mut long = all.clone();
    long.push(65535);
    assert_eq!(check_ascending(&long), None);
    let mut wrapped = all.clone();
    wrapped.extend(0..=65535u16);
    assert_eq!(check_ascending(&wrapped), None);
    // The wrap from 65535 to 0 at each lane of the first vectors.
    for n in [9usize, 17, 33, 40, 70] {
        for p in 1..n {
            let v: Vec<u16> = (0..n)
                .map(|i| (65535 - p + 1 + i) as u16) // 65535 at p - 1, 0 at p
                .collect();
            assert_eq!(v[p - 1], 65535);
            assert_eq!(check_ascending(&v), None, "wrap at {p} of {n}");
        }
    }
}

/// `card_and_runs` on every tier: runs that cross words and 256-/512-bit
/// vector boundaries, single bits at both ends, at every read offset.
#[test]
fn bitmap_card_and_runs_edges() {
    let mut shapes: Vec<Vec<u64>> = vec![vec![0u64; 1024], vec![!0u64; 1024]];
    let mut ends = vec![0u64; 1024];
    ends[0] = 1;
    ends[1023] = 1 << 63;
    shapes.push(ends);
    for boundary in [64u32, 256, 512, 4096, 65472] {
        for (before, after) in [(1u32, 1u32), (1, 0), (0, 1), (60, 3), (3, 300)] {
            let mut w = vec![0u64; 1024];
            let (s, e) = (boundary - before, (boundary + after - 1).min(65535));
            if s <= e {
                for x in s..=e {
                    w[x as usize / 64] |= 1 << (x % 64);
                }
            }
            shapes.push(w);
        }
    }
    // Alternating words of ones and zeros, and every other bit.
    shapes.push((0..1024).map(|i| if i % 2 == 0 { !0 } else { 0 }).collect());
    shapes.push(vec![0x5555_5555_5555_5555; 1024]);
    for w in &shapes {
        let s = words_to_set(w);
        let want = (s.len() as u32, set_to_runs(&s).len() as u32);
        for off in 0..8 {
            let buf = Buf::u64s_at(w, off);
            for (tier, k) in tiers() {
                let got = (k.bitmap_card_and_runs)(buf.a8(), u32::MAX);
                assert_eq!(got, want, "{tier} off {off}");
                for cap in caps(want.1) {
                    let (card, runs) = (k.bitmap_card_and_runs)(buf.a8(), cap);
                    assert_eq!(card, want.0, "{tier} off {off} cap {cap}");
                    assert_capped(runs, want.1, cap, &format!("{tier} off {off}"));
                }
            }
            assert_eq!(bitmap::card_and_runs(buf.a8(), u32::MAX), want);
        }
    }
}

/// Strategy: a sorted array, maybe broken at one position.
fn maybe_broken() -> impl Strategy<Value = Vec<u16>> {
    (sorted_u16(), any::<prop::sample::Index>(), 0usize..7).prop_map(|(v, at, how)| {
        if v.len() < 2 || how >= 5 {
            return v;
        }
        let p = 1 + at.index(v.len() - 1);
        breaks_at(&v, p).swap_remove(how)
    })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn ascending_runs_kernels(v in maybe_broken()) {
        check_ascending(&v);
    }

    #[test]
    fn runs_into_kernels(v in sorted_u16()) {
        check_runs_into(&v);
    }

    #[test]
    fn card_and_runs_kernels(w in bitmap(), cap in 0u32..5000) {
        let s = words_to_set(&w);
        let want = (s.len() as u32, set_to_runs(&s).len() as u32);
        let buf = Buf::u64s(&w);
        prop_assert_eq!((SCALAR.bitmap_card_and_runs)(buf.a8(), u32::MAX), want);
        for (tier, k) in tiers() {
            prop_assert_eq!((k.bitmap_card_and_runs)(buf.a8(), u32::MAX), want, "{}", tier);
            let (card, runs) = (k.bitmap_card_and_runs)(buf.a8(), cap);
            prop_assert_eq!(card, want.0, "{}", tier);
            assert_capped(runs, want.1, cap, &tier.to_string());
        }
    }
}

/// `fill_consecutive` on every tier, for every length around the 4- and
/// 8-lane stores and first values at the edges (the last one wraps).
#[test]
fn fill_consecutive_every_tier() {
    let firsts = [
        0u64,
        1,
        1 << 16,
        1 << 32,
        (1 << 48) - 3,
        u64::MAX - 70,
        u64::MAX - 5,
    ];
    for len in 0..=70usize {
        for &first in &firsts {
            let want: Vec<u64> = (0..len as u64).map(|k| first.wrapping_add(k)).collect();
            for (tier, k) in tiers() {
                let mut out = vec![7u64; len];
                (k.fill_consecutive)(&mut out, first);
                assert_eq!(out, want, "{tier} len {len} first {first}");
            }
            let mut out = vec![7u64; len];
            sroar::kernels::values::fill_consecutive(&mut out, first);
            assert_eq!(out, want, "dispatched len {len} first {first}");
        }
    }
}

/// The model of `bits_into`: whole words while they fit, from the first on.
fn bits_into_model(words: &[u64], base: u64, room: usize) -> (usize, Vec<u64>) {
    let mut out = Vec::new();
    for (i, &w) in words.iter().enumerate() {
        if out.len() + w.count_ones() as usize > room {
            return (i, out);
        }
        out.extend(
            (0..64)
                .filter(|b| w >> b & 1 != 0)
                .map(|b| base + 64 * i as u64 + b),
        );
    }
    (words.len(), out)
}

fn check_bits_into(words: &[u64], base: u64, room: usize) {
    let (want_words, want) = bits_into_model(words, base, room);
    let buf = Buf::u64s(words);
    for (tier, k) in tiers() {
        // Slots past the values written may be overwritten (whole-vector
        // stores); the values themselves and the counts must be exact.
        let mut out = vec![7u64; room];
        let (done, n) = (k.bits_into)(buf.a8(), base, &mut out);
        assert_eq!((done, n), (want_words, want.len()), "{tier} room {room}");
        assert_eq!(&out[..n], &want[..], "{tier} room {room}");
    }
}

proptest! {
    #![proptest_config(config())]

    /// `bits_into` on every tier: bitmaps of every density, output rooms that
    /// cut a word, bases at the 2^16, 2^32, 2^48 and u64::MAX edges.
    #[test]
    fn bits_into_every_tier(
        w in bitmap(),
        start in 0usize..1024,
        len in 0usize..1100,
        room in 0usize..700,
        base_sel in 0usize..5,
    ) {
        let base = [0u64, 1 << 16, 1 << 32, (1 << 48) - (1 << 16), u64::MAX - 65535][base_sel];
        let end = (start + len).min(1024);
        check_bits_into(&w[start..end], base, room);
    }
}

/// Full words, empty words and single bits, each with every room from 0 to past
/// the total (a full word is 64 values, eight 8-lane stores).
#[test]
fn bits_into_edges() {
    let words = [
        u64::MAX,
        0,
        1,
        1 << 63,
        0x8000_0000_0000_0001,
        u64::MAX,
        0x0F0F_0F0F_0F0F_0F0F,
    ];
    let total: usize = words.iter().map(|w| w.count_ones() as usize).sum();
    for room in 0..=total + 3 {
        check_bits_into(&words, u64::MAX - 65535, room);
        check_bits_into(&words, 0, room);
    }
}

/// The model of `run::checked_card`: the rule of FORMAT.md, run by run.
fn checked_card_model(runs: &[(u16, u16)]) -> Option<u32> {
    let mut card = 0u32;
    let mut next_min = 0u32;
    for &(s, l) in runs {
        let (s, e) = (u32::from(s), u32::from(s) + u32::from(l));
        if s < next_min || e > 65535 {
            return None;
        }
        card += e - s + 1;
        next_min = e + 2;
    }
    Some(card)
}

fn check_run_checked_card(runs: &[(u16, u16)]) {
    let want = checked_card_model(runs);
    let buf = Buf::runs(runs);
    for (tier, k) in tiers() {
        assert_eq!((k.run_checked_card)(buf.a4()), want, "{tier} {runs:?}");
    }
}

proptest! {
    #![proptest_config(config())]

    /// `run::checked_card` on every tier: valid lists, lists with touching runs,
    /// and arbitrary pairs (mostly invalid: unsorted, overlapping, past 65535).
    #[test]
    fn run_checked_card_every_tier(
        runs in prop_oneof![
            3 => input_runs(),
            1 => proptest::collection::vec(any::<(u16, u16)>(), 0..40),
        ],
    ) {
        check_run_checked_card(&runs);
    }
}

/// Lists of every length around the 8- and 16-run steps, valid, then broken at
/// every position in each way the check knows (touching, overlapping, past
/// 65535), so the first, a middle and the last lane of each step all fail once.
#[test]
fn run_checked_card_every_position() {
    for n in 0..=40u16 {
        let valid: Vec<(u16, u16)> = (0..n).map(|i| (i * 1000 + 7, 990)).collect();
        check_run_checked_card(&valid);
        for i in 0..usize::from(n) {
            let mut touching = valid.clone();
            if i > 0 {
                touching[i].0 = touching[i - 1].0 + touching[i - 1].1 + 1;
                check_run_checked_card(&touching);
                let mut overlapping = valid.clone();
                overlapping[i].0 = overlapping[i - 1].0 + 3;
                check_run_checked_card(&overlapping);
            }
            let mut past_end = valid.clone();
            past_end[i].1 = u16::MAX - past_end[i].0 + 1;
            check_run_checked_card(&past_end);
        }
    }
    check_run_checked_card(&[(0, 65535)]);
    check_run_checked_card(&[(65535, 0)]);
    check_run_checked_card(&[(65535, 1)]);
    check_run_checked_card(&[(0, 0), (2, 0), (65534, 1)]);
}
