//! Every query and every producing operation, checked against `BTreeSet<u64>`.

mod common;

use std::ops::Bound;

use common::door::{from_range, from_unsorted, from_values};
use common::{assert_encodes, build, model, probes, Model, ANCHORS};
use proptest::prelude::*;
use sroar::RoaringView;

/// Probes: the given ones, the set's extremes and neighbours of some members.
fn all_probes(m: &Model, probes: &[u64]) -> Vec<u64> {
    let mut p = probes.to_vec();
    p.extend(ANCHORS);
    let step = (m.len() / 20).max(1);
    for &v in m.iter().step_by(step) {
        p.extend([v, v.wrapping_sub(1), v.wrapping_add(1)]);
    }
    if let (Some(&a), Some(&b)) = (m.first(), m.last()) {
        p.extend([a, b, a.wrapping_sub(1), b.wrapping_add(1)]);
    }
    p
}

/// Batch sizes around the interesting lengths: 1-3, one short of / at / one past
/// the 256 the benchmarks use, array and bitmap container sizes.
const BATCH_SIZES: [usize; 12] = [1, 2, 3, 7, 255, 256, 257, 1000, 4096, 4097, 65_537, 70_000];

/// Batched decoding against `sorted` (the whole set, ascending): every batch
/// size alone, sizes mixed with `next`, after the back cursor moved, and `fold`
/// (which decodes through batches) from every kind of cursor state.
fn check_batches(v: &RoaringView<'_>, sorted: &[u64]) {
    for chunk in BATCH_SIZES {
        let mut it = v.iter();
        let mut buf = vec![0u64; chunk];
        let mut got = Vec::new();
        loop {
            let n = it.next_batch(&mut buf);
            assert_eq!(it.remaining(), (sorted.len() - got.len() - n) as u64);
            if n == 0 {
                break;
            }
            assert!(n == chunk || got.len() + n == sorted.len(), "short batch");
            got.extend_from_slice(&buf[..n]);
        }
        assert_eq!(got, sorted, "batch size {chunk}");
        assert_eq!(it.next(), None);
    }

    // Sizes cycling through BATCH_SIZES, with single `next` calls in between, so
    // batches start and stop at every offset inside containers.
    let mut it = v.iter();
    let mut got = Vec::new();
    let mut buf = vec![0u64; 70_000];
    for step in 0.. {
        let size = BATCH_SIZES[step % BATCH_SIZES.len()];
        let n = it.next_batch(&mut buf[..size]);
        got.extend_from_slice(&buf[..n]);
        match it.next() {
            Some(x) => got.push(x),
            None if n == 0 => break,
            None => {}
        }
    }
    assert_eq!(got, sorted, "mixed batches and next");

    // Batches after the back cursor took 1, 2, 3, 257 or 5000 values (the front
    // stops where the back has been, also inside one container), and `fold`.
    for back in [1usize, 2, 3, 257, 5000] {
        for chunk in [1usize, 3, 256, 70_000] {
            let mut it = v.iter();
            let tail: Vec<u64> = it.by_ref().rev().take(back).collect();
            let mut got = Vec::new();
            let mut buf = vec![0u64; chunk];
            loop {
                let n = it.next_batch(&mut buf);
                if n == 0 {
                    break;
                }
                got.extend_from_slice(&buf[..n]);
            }
            assert_eq!(
                got.len() + tail.len(),
                sorted.len(),
                "back {back} chunk {chunk}"
            );
            assert_eq!(&got[..], &sorted[..got.len()], "back {back} chunk {chunk}");
            assert_eq!(it.next(), None);
            assert_eq!(it.next_back(), None);
        }
        let mut it = v.iter();
        let tail = it.by_ref().rev().take(back).count();
        let head: Vec<u64> = it.by_ref().take(3).collect();
        let rest = it.fold(head, |mut acc, x| {
            acc.push(x);
            acc
        });
        assert_eq!(rest.len() + tail, sorted.len(), "fold after back {back}");
        assert_eq!(&rest[..], &sorted[..rest.len()], "fold after back {back}");
    }
    let sum = sorted.iter().fold(0u64, |s, &x| s.wrapping_add(x));
    assert_eq!(v.iter().fold(0u64, |s, x| s.wrapping_add(x)), sum);
    assert_eq!(v.iter().count(), sorted.len());
    let mut it = v.iter();
    let mut buf = [0u64; 3];
    let n = it.next_batch(&mut buf);
    assert_eq!(it.count(), sorted.len() - n);
}

fn check_queries(m: &Model, probes: &[u64]) {
    let bytes = build(m);
    let v = RoaringView::from_bytes(&bytes).expect("built bytes validate");
    let sorted: Vec<u64> = m.iter().copied().collect();
    assert_eq!(v.len(), m.len() as u64);
    assert_eq!(v.is_empty(), m.is_empty());
    assert_eq!(v.min(), m.first().copied());
    assert_eq!(v.max(), m.last().copied());

    // The view reads in place at any alignment, checked or not.
    let mut shifted = vec![0xAA];
    shifted.extend_from_slice(&bytes);
    let odd = RoaringView::from_bytes(&shifted[1..]).expect("unaligned bytes validate");
    assert_eq!(odd.iter().collect::<Vec<_>>(), sorted);
    // SAFETY: `bytes` was validated above.
    #[allow(unsafe_code)]
    let unchecked = unsafe { RoaringView::from_bytes_unchecked(&bytes) };
    assert_eq!(unchecked, v);

    // Other construction paths give the same bytes.
    let mut shuffled = sorted.clone();
    shuffled.reverse();
    assert_eq!(from_unsorted(&shuffled).unwrap(), bytes);
    assert_eq!(from_values(shuffled.iter().copied()).unwrap(), bytes);

    // Iteration: forward, reverse, mixed, batched.
    assert_eq!(v.iter().collect::<Vec<_>>(), sorted);
    let mut rev: Vec<u64> = v.iter().rev().collect();
    rev.reverse();
    assert_eq!(rev, sorted);
    let mut it = v.iter();
    let mut front = Vec::new();
    let mut back = Vec::new();
    while let Some(x) = it.next() {
        front.push(x);
        match it.next_back() {
            Some(x) => back.push(x),
            None => break,
        }
    }
    back.reverse();
    front.extend(back);
    assert_eq!(front, sorted);
    check_batches(&v, &sorted);

    // A batch from the front stops where the back cursor has been.
    let mut it = v.iter();
    let tail: Vec<u64> = it.by_ref().rev().take(3).collect();
    let mut buf = vec![0u64; sorted.len() + 1];
    let n = it.next_batch(&mut buf);
    assert_eq!(n + tail.len(), sorted.len());
    assert_eq!(&buf[..n], &sorted[..n]);
    assert_eq!(it.next(), None);
    assert_eq!(it.next_batch(&mut buf), 0);

    for &x in &all_probes(m, probes) {
        assert_eq!(v.contains(x), m.contains(&x), "contains({x})");
        let rank = m.range(..=x).count() as u64;
        assert_eq!(v.rank(x), rank, "rank({x})");
        assert_eq!(v.index(x), m.contains(&x).then(|| rank - 1), "index({x})");
        let from: Vec<u64> = v.iter_from(x).take(50).collect();
        let model_from: Vec<u64> = m.range(x..).take(50).copied().collect();
        assert_eq!(from, model_from, "iter_from({x})");
        assert_eq!(v.iter_from(x).count(), m.range(x..).count());
        let mut back_from: Vec<u64> = v.iter_from(x).rev().take(5).collect();
        let mut model_back: Vec<u64> = m.range(x..).rev().take(5).copied().collect();
        assert_eq!(back_from, model_back, "iter_from({x}).rev()");
        // Walking all the way back stops exactly at the first value >= x.
        let lowest = v.iter_from(x).rev().fold(None, |_, y| Some(y));
        assert_eq!(lowest, m.range(x..).next().copied());
        back_from.clear();
        model_back.clear();
        let mut it = v.iter_from(x);
        let mut buf = [0u64; 33];
        let n = it.next_batch(&mut buf);
        assert_eq!(&buf[..n], &model_from[..n.min(model_from.len())]);
        assert_eq!(n, model_from.len().min(33));
    }
    let len = sorted.len() as u64;
    let step = (sorted.len() / 30).max(1);
    for k in (0..len)
        .step_by(step)
        .chain([len.saturating_sub(1), len, len + 5, u64::MAX])
    {
        assert_eq!(v.select(k), sorted.get(k as usize).copied(), "select({k})");
    }

    let p = all_probes(m, probes);
    for (i, &a) in p.iter().enumerate() {
        let b = p[(i * 7 + 3) % p.len()];
        let card = if a < b {
            m.range(a..b).count() as u64
        } else {
            0
        };
        assert_eq!(
            v.range_cardinality(a..b),
            card,
            "range_cardinality({a}..{b})"
        );
        let card_incl = if a <= b {
            m.range(a..=b).count() as u64
        } else {
            0
        };
        assert_eq!(v.range_cardinality(a..=b), card_incl);
        let width = if a < b { u128::from(b - a) } else { 0 };
        assert_eq!(v.contains_range(a..b), u128::from(card) == width);
        assert_eq!(v.range_cardinality(a..), m.range(a..).count() as u64);
    }
    // Ranges inside the set are contained; widened by one past a gap they are not.
    for &x in sorted.iter().step_by(step) {
        let mut hi = x;
        while hi < u64::MAX && m.contains(&(hi + 1)) && hi - x < 100 {
            hi += 1;
        }
        assert!(v.contains_range(x..=hi));
        assert_eq!(
            v.contains_range(x..=hi.saturating_add(1)),
            m.contains(&hi.saturating_add(1))
        );
    }
    assert!(v.contains_range(5..5));
    assert!(!v.contains_range(..));

    let s = v.stats();
    assert_eq!(s.cardinality, len);
    assert_eq!(s.containers, v.container_count() as u64);
    assert_eq!(
        s.array.cardinality + s.bitmap.cardinality + s.run.cardinality,
        len
    );
    assert_eq!(
        s.total_bytes,
        s.head_bytes + s.array.payload_bytes + s.bitmap.payload_bytes + s.run.payload_bytes
    );
    // The header and directory: 7 bytes for the empty set, else at most the
    // longest header and 6-byte keys, 2-byte cardinalities, 4-byte offsets and an
    // 8-byte count a block of 64 containers.
    let n = s.containers;
    assert!(s.head_bytes >= 7);
    assert!(s.head_bytes <= sroar::HEADER_MAX_LEN as u64 + 12 * n + 8 * (n / 64));
}

/// A range given as `(start, end, inclusive)`.
fn bounds(a: u64, b: u64, inclusive: bool) -> (Bound<u64>, Bound<u64>) {
    (
        Bound::Included(a),
        if inclusive {
            Bound::Included(b)
        } else {
            Bound::Excluded(b)
        },
    )
}

fn model_range(a: u64, b: u64, inclusive: bool) -> Vec<u64> {
    match (inclusive, a <= b, a < b) {
        (true, true, _) => (a..=b).collect(),
        (false, _, true) => (a..b).collect(),
        _ => Vec::new(),
    }
}

/// The values of the sorted `a` that are not in `b`.
fn sorted_minus(a: &[u64], b: &Model) -> Vec<u64> {
    let mut b = b.iter().peekable();
    a.iter()
        .copied()
        .filter(|&x| {
            while b.next_if(|&&y| y < x).is_some() {}
            b.peek() != Some(&&x)
        })
        .collect()
}

fn check_edits(m: &Model, probes: &[u64], widths: &[u32], deltas: &[i128]) {
    let bytes = build(m);
    let v = RoaringView::from_bytes(&bytes).unwrap();
    let p = all_probes(m, probes);

    let spread = (p.len() / 8).max(1);
    for &x in p.iter().step_by(spread) {
        let mut mi = m.clone();
        mi.insert(x);
        assert_encodes(&v.insert(x).unwrap(), &mi, "insert");
        let mut mr = m.clone();
        mr.remove(&x);
        assert_encodes(&v.remove(x).unwrap(), &mr, "remove");
    }
    let mut mi = m.clone();
    mi.extend(p.iter().copied());
    assert_encodes(&v.insert_many(&p).unwrap(), &mi, "insert_many");
    let mut mr = m.clone();
    let victims: Vec<u64> = m
        .iter()
        .copied()
        .step_by(3)
        .chain(p.iter().copied())
        .collect();
    for x in &victims {
        mr.remove(x);
    }
    assert_encodes(&v.remove_many(&victims).unwrap(), &mr, "remove_many");
    // A batch: the victims out, then every other probe in (a value in both stays).
    let adds: Vec<u64> = p.iter().copied().step_by(2).collect();
    let mut mc = mr.clone();
    mc.extend(adds.iter().copied());
    let changed = v.with_changes(&adds, &victims);
    assert_eq!(changed.len(), mc.len() as u64, "with_changes: len");
    assert_eq!(changed.is_base(), mc == *m, "with_changes: is_base");
    assert_encodes(&changed.into_roaring().unwrap(), &mc, "with_changes");
    let mut unchanged = m.clone();
    unchanged.extend(adds.iter().copied());
    let absent: Vec<u64> = p
        .iter()
        .copied()
        .filter(|x| !unchanged.contains(x))
        .collect();
    assert_encodes(
        &v.with_changes(&adds, &[absent.clone(), adds.clone()].concat())
            .into_roaring()
            .unwrap(),
        &unchanged,
        "with_changes of absent removes",
    );
    // No-op edits leave the base itself, which a caller returns instead of a copy:
    // adds all present and removes all absent, in any mix, and nothing at all.
    let present: Vec<u64> = m.iter().copied().step_by(2).collect();
    for (adds, removes) in [
        (&present[..], &absent[..]),
        (&[][..], &absent[..]),
        (&present[..], &[][..]),
        (&[][..], &[][..]),
    ] {
        assert!(
            v.with_changes(adds, removes).is_base(),
            "no-op edit: is_base"
        );
        assert!(v.with_inserted(adds).is_base(), "no-op insert: is_base");
        assert!(v.with_removed(removes).is_base(), "no-op remove: is_base");
    }
    for &x in p.iter().step_by(spread) {
        assert_eq!(
            v.with_inserted(&[x]).is_base(),
            m.contains(&x),
            "insert: is_base"
        );
        assert_eq!(
            v.with_removed(&[x]).is_base(),
            !m.contains(&x),
            "remove: is_base"
        );
    }

    for (i, &a) in p.iter().step_by(spread).enumerate() {
        let width = u64::from(widths[i % widths.len()]);
        let b = if i % 3 == 2 {
            a.saturating_sub(width)
        } else {
            a.saturating_add(width)
        };
        let inclusive = i % 2 == 0;
        let r = bounds(a, b, inclusive);
        let span = model_range(a, b, inclusive);

        let sub: Model = match span.first() {
            Some(_) => m.range(r).copied().collect(),
            None => Model::new(),
        };
        assert_encodes(&v.range(r).unwrap(), &sub, "range");

        // The span is contiguous; build each expected set in one bulk collect.
        let in_span = |x: &u64| span.first().is_some_and(|f| f <= x) && span.last() >= Some(x);
        let outside = || m.iter().copied().filter(|x| !in_span(x));

        let filled: Model = outside().chain(span.iter().copied()).collect();
        assert_encodes(&v.fill(r).unwrap(), &filled, "fill");

        let cleared: Model = outside().collect();
        assert_encodes(&v.clear(r).unwrap(), &cleared, "clear");

        let flipped: Model = outside().chain(sorted_minus(&span, &sub)).collect();
        assert_encodes(&v.flip(r).unwrap(), &flipped, "flip");
    }

    for &d in deltas {
        let shifted: Model = m
            .iter()
            .filter_map(|&x| {
                let y = i128::from(x) + d;
                (0..=i128::from(u64::MAX)).contains(&y).then_some(y as u64)
            })
            .collect();
        assert_encodes(&v.shift(d).unwrap(), &shifted, &format!("shift({d})"));
    }
}

const DELTAS: [i128; 12] = [
    1,
    -1,
    65536,
    -65536,
    65535,
    -65537,
    1 << 32,
    -(1 << 48),
    i128::MAX / 2,
    u64::MAX as i128,
    -(u64::MAX as i128),
    (1 << 63) + 12345,
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn queries_match_btreeset(m in model(), p in probes()) {
        check_queries(&m, &p);
    }

    #[test]
    fn edits_match_btreeset(
        m in model(),
        p in probes(),
        widths in prop::collection::vec(prop_oneof![0..3u32, 0..70_000u32, 60_000..200_000u32], 1..4),
        d in any::<i64>(),
    ) {
        let mut deltas = DELTAS.to_vec();
        deltas.push(i128::from(d));
        deltas.push(i128::from(d >> 40));
        check_edits(&m, &p, &widths, &deltas);
    }

    #[test]
    fn chunks_match_btreeset(m in model()) {
        check_chunks(&m);
    }
}

/// The chunks of a set at shifts around container, 2^32 and 2^48 edges: each is
/// canonical, holds exactly the values with its prefix, and together they are the set.
fn check_chunks(m: &Model) {
    let bytes = build(m);
    let v = RoaringView::from_bytes(&bytes).unwrap();
    for shift in [16, 17, 20, 31, 32, 33, 47, 48, 49, 63] {
        let mut seen = Vec::new();
        let mut last = None;
        for (prefix, part) in v.chunks(shift) {
            assert!(last < Some(prefix), "shift {shift}: prefixes ascend");
            last = Some(prefix);
            let want: Model = m.iter().copied().filter(|x| x >> shift == prefix).collect();
            assert!(!want.is_empty(), "shift {shift}: chunk {prefix} is empty");
            assert_eq!(
                part.len(),
                want.len() as u64,
                "shift {shift}: chunk {prefix} len"
            );
            let part = part.into_roaring().unwrap();
            assert_encodes(&part, &want, "chunk");
            seen.extend(want);
        }
        assert_eq!(seen.len(), m.len(), "shift {shift}: chunks cover the set");
    }
}

/// Hand-picked shapes for the batched decoder: 1-value containers, full
/// containers (one run), arrays of exactly 255/256/257 values, a bitmap and
/// runs straddling batch boundaries, at 0, 2^16, 2^32, 2^48 and u64::MAX.
#[test]
fn batch_decoding_edge_shapes() {
    let mut m = Model::new();
    // 1-value containers at the edges of the line and of containers.
    m.extend([0, 1 << 16, (1 << 16) + 0xFFFF, 1 << 32, 1 << 48, u64::MAX]);
    m.extend((0..40u64).map(|k| (5 << 20) + (k << 16) + k));
    // Arrays of 255, 256 and 257 values (every other low).
    for (key, n) in [(1000u64, 255u64), (1001, 256), (1002, 257)] {
        m.extend((0..n).map(|j| (key << 16) | (2 * j)));
    }
    // A full container (one run) and a run container with several runs.
    m.extend((7u64 << 32)..(7u64 << 32) + 65536);
    for r in 0..5u64 {
        let s = (9u64 << 32) + r * 1000;
        m.extend(s..s + 300);
    }
    // A bitmap container (every third low).
    m.extend((0..65536u64).step_by(3).map(|l| (11u64 << 32) | l));
    // The top containers: a full one just below u64::MAX's and an array in it.
    m.extend((u64::MAX - 0x1_FFFF)..=(u64::MAX - 0x1_0000));
    m.extend((0..300u64).map(|j| u64::MAX - 2 * j));
    let bytes = build(&m);
    let v = RoaringView::from_bytes(&bytes).unwrap();
    let stats = v.stats();
    assert!(stats.array.containers > 40 && stats.bitmap.containers == 1);
    assert!(stats.run.containers >= 3);
    let sorted: Vec<u64> = m.iter().copied().collect();
    check_batches(&v, &sorted);
    // Every single-value container alone.
    for x in [0, 1 << 16, 1 << 32, 1 << 48, u64::MAX] {
        let b = build(&[x].into_iter().collect());
        let one = RoaringView::from_bytes(&b).unwrap();
        check_batches(&one, &[x]);
        assert!(one.contains(x) && !one.contains(x ^ 1));
    }
    for &x in &sorted {
        assert!(v.contains(x), "contains({x})");
        if !m.contains(&x.wrapping_add(1)) {
            assert!(!v.contains(x.wrapping_add(1)), "contains({})", x + 1);
        }
    }
}

#[test]
fn empty_set() {
    check_queries(&Model::new(), &[0, u64::MAX]);
    check_edits(&Model::new(), &[0, 1, u64::MAX], &[0, 5, 70_000], &DELTAS);
    check_chunks(&Model::new());
}

#[test]
fn huge_ranges_are_per_container() {
    // 2^20 full containers (1 << 36 values), built without touching values one by
    // one; each full container is one 4-byte run.
    let bytes = from_range(0..1 << 36).unwrap();
    let v = RoaringView::from_bytes(&bytes).unwrap();
    assert_eq!(v.len(), 1 << 36);
    assert_eq!(v.container_count(), 1 << 20);
    assert_eq!(v.stats().run.containers, 1 << 20);
    // A 22-byte header, 3-byte keys, cardinalities, 4-byte offsets, a 5-byte count
    // a block of 64, and one 4-byte run each.
    let m = 1 << 20;
    assert_eq!(
        bytes.len(),
        22 + 3 * m + 2 * m + 4 * (m - 1) + 5 * ((m - 1) / 64) + 4 * m
    );

    let small = build(&[3u64, 1 << 37, u64::MAX].into_iter().collect());
    let s = RoaringView::from_bytes(&small).unwrap();
    let filled = s.fill(0..1 << 36).unwrap();
    let f = filled.view();
    assert_eq!(f.len(), (1 << 36) + 2);
    assert!(f.contains_range(0..1 << 36));
    assert!(!f.contains(1 << 36));
    assert_eq!(
        f.clear(0..1 << 36).unwrap(),
        build(&[1u64 << 37, u64::MAX].into_iter().collect())
    );

    let flipped = s.flip(1..1 << 34).unwrap();
    let fl = flipped.view();
    assert_eq!(fl.len(), (1 << 34) - 1 - 1 + 2);
    assert!(!fl.contains(3) && fl.contains(4) && fl.contains(2) && !fl.contains(0));
    assert_eq!(fl.flip(1..1 << 34).unwrap(), small);

    // Up to u64::MAX inclusive, and the whole line is too big for one buffer.
    let top = from_range(u64::MAX - 70_000..=u64::MAX).unwrap();
    let t = RoaringView::from_bytes(&top).unwrap();
    assert_eq!(t.len(), 70_001);
    assert_eq!(t.max(), Some(u64::MAX));
    assert!(from_range(..).is_err());
    assert!(s.fill(..).is_err());
    assert!(s.flip(..).is_err());
    assert_eq!(t.range(..).unwrap(), top);
}

/// Sets of one or two containers, which `contains` reads without a directory:
/// every pair of kinds (an array short enough for implied offsets, a longer one,
/// a bitmap, runs, one value), at keys from adjacent to 2^48 - 1 apart, so
/// that every key, cardinality and offset width is met.
#[test]
fn one_and_two_containers() {
    let base = |low: u64| -> Vec<Vec<u64>> {
        vec![
            vec![low + 7],
            (0..200).map(|j| low + 3 * j).collect(),
            (0..3000).map(|j| low + 7 * j + (j & 1)).collect(),
            (0..20_000).map(|j| low + 3 * j + 1).collect(),
            (0..5)
                .flat_map(|r| (0..1000).map(move |j| low + 5000 * r + j))
                .collect(),
            (0..=0xffff).map(|j| low + j).collect(),
        ]
    };
    let keys: [(u64, Option<u64>); 8] = [
        (0, None),
        (1, None),
        ((1 << 48) - 1, None),
        (0, Some(1)),
        (1 << 16, Some((1 << 16) + 1)),
        ((1 << 32) - 1, Some(1 << 32)),
        (5, Some(300)),
        (0, Some((1 << 48) - 1)),
    ];
    let mut sets: Vec<Model> = Vec::new();
    for (k0, k1) in keys {
        for first in base(k0 << 16) {
            let seconds = match k1 {
                Some(k1) => base(k1 << 16),
                None => vec![vec![]],
            };
            for second in seconds {
                let m: Model = first.iter().chain(&second).copied().collect();
                let bytes = build(&m);
                let v = RoaringView::from_bytes(&bytes).unwrap();
                assert_eq!(v.container_count(), 1 + usize::from(k1.is_some()));
                let mut probes: Vec<u64> = ANCHORS.to_vec();
                for k in [Some(k0), k1].into_iter().flatten() {
                    for low in [
                        0u64, 1, 6, 7, 8, 199, 600, 4999, 5000, 21_000, 0xfffe, 0xffff,
                    ] {
                        let x = k << 16 | low;
                        probes.extend([
                            x,
                            x ^ 1 << 16,
                            x.wrapping_add(1 << 16),
                            x.wrapping_sub(1 << 16),
                        ]);
                    }
                }
                probes.extend(
                    m.iter()
                        .step_by(97)
                        .flat_map(|&x| [x, x.wrapping_add(1), x.wrapping_sub(1)]),
                );
                for x in probes {
                    assert_eq!(
                        v.contains(x),
                        m.contains(&x),
                        "contains({x:#x}) on keys {k0:#x}, {k1:?}"
                    );
                }
                sets.push(m);
            }
        }
    }
    // `and_len` and `and` read pairs of such sets the same way: each set against itself
    // and a spread of others, which share none, one or both keys.
    let built: Vec<Vec<u8>> = sets.iter().map(build).collect();
    for i in 0..sets.len() {
        for step in [0, 1, 5, 17, 36, 101] {
            let j = (i + step) % sets.len();
            let a = RoaringView::from_bytes(&built[i]).unwrap();
            let b = RoaringView::from_bytes(&built[j]).unwrap();
            let both: Model = sets[i].intersection(&sets[j]).copied().collect();
            assert_eq!(
                a.and_len(&b),
                both.len() as u64,
                "and_len of sets {i} and {j}"
            );
            let and = a.and(&b).unwrap();
            assert_encodes(and.as_bytes(), &both, &format!("and of sets {i} and {j}"));
        }
    }
}
