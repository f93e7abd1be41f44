//! The crate's door, walked as a user walks it: every re-export of `lib.rs` is named
//! here by its root path and used once, against a `BTreeSet` model, so a missing or
//! renamed re-export fails to compile and a wrong answer fails the test.

use std::collections::BTreeSet;

use sroar::{
    looks_like_portable, set_interrupt_hook, simd, to_signed, to_signed_bits, to_stored,
    version_of, Accumulator, ArrayView, BitmapView, CapacityError, Chunks, Container, Encode,
    FormatError, Header, Iter, Kind, KindStats, Partial, PartialReadError, PortableError,
    PortableFormat, Roaring, RoaringView, RunView, Runs, SetOp, SortedValues, Splice, Stats,
    Writer, ARRAY_MAX, FORMAT_VERSION, HEADER_MAX_LEN, MAGIC,
};

/// Values at the edges: 0, 2^16, 2^32, 2^48, `u64::MAX`, a full container and a run.
fn edges() -> BTreeSet<u64> {
    let mut m: BTreeSet<u64> = [0, 1 << 16, 1 << 32, 1 << 48, u64::MAX]
        .into_iter()
        .collect();
    m.extend((5 << 16)..(6 << 16)); // a full container
    m.extend((1 << 40)..(1 << 40) + 300); // a long run
    m.extend((0..5000).map(|i| (7 << 16) + 13 * i)); // a bitmap container
    m
}

fn write(set: &mut impl Encode) -> Vec<u8> {
    let mut out = vec![0u8; set.encoded_len().unwrap()];
    set.write_into(&mut out).unwrap();
    out
}

#[test]
fn owned_sets_and_views() {
    let m = edges();
    let set: Roaring = m.iter().copied().collect();
    assert_eq!(set.len(), m.len() as u64);
    assert_eq!(
        Roaring::from_sorted(&m.iter().copied().collect::<Vec<_>>()).unwrap(),
        set
    );
    assert_eq!(Roaring::from_values(m.iter().rev().copied()).unwrap(), set);
    let view: RoaringView<'_> = set.view();
    let iter: Iter<'_> = view.iter();
    assert!(iter.eq(m.iter().copied()));
    assert_eq!(view.min(), m.first().copied());
    assert_eq!(view.max(), m.last().copied());
    assert_eq!(view.rank(1 << 32), m.range(..=(1 << 32)).count() as u64);
    assert!(view.contains(u64::MAX) && !view.contains(1));

    let mut grown = Roaring::new();
    grown.extend([3, 1, 2]);
    assert_eq!(grown, Roaring::from_range(1..=3).unwrap());
    assert_eq!(Roaring::from_runs(&[(1, 3)]).unwrap(), grown);
    assert_eq!(
        Roaring::from_bytes(grown.as_bytes().to_vec()).unwrap(),
        grown
    );
    let e: FormatError = Roaring::from_bytes(vec![1, 2, 3]).unwrap_err();
    assert!(!e.to_string().is_empty());
    assert_eq!(version_of(grown.as_bytes()), Some(FORMAT_VERSION));
    assert!(grown.as_bytes().starts_with(&MAGIC));

    let runs: Runs<'_> = grown.view().runs();
    assert_eq!(runs.collect::<Vec<_>>(), [(1, 3)]);
    let stats: Stats = view.stats();
    let kinds: [&KindStats; 3] = [&stats.array, &stats.bitmap, &stats.run];
    assert_eq!(
        kinds.iter().map(|k| k.cardinality).sum::<u64>(),
        m.len() as u64
    );
}

#[test]
fn containers_by_kind() {
    let set: Roaring = edges().into_iter().collect();
    let mut seen = Vec::new();
    for (_, c) in set.view().containers() {
        match c {
            Container::Array(a) => {
                let _: ArrayView<'_> = a;
                assert!(a.len() <= ARRAY_MAX as usize);
                seen.push(Kind::Array);
            }
            Container::Bitmap(b) => {
                let _: BitmapView<'_> = b;
                seen.push(Kind::Bitmap);
            }
            Container::Run(r) => {
                let _: RunView<'_> = r;
                seen.push(Kind::Run);
            }
        }
    }
    for kind in [Kind::Array, Kind::Bitmap, Kind::Run] {
        assert!(seen.contains(&kind), "no {kind:?} container: {seen:?}");
    }
}

#[test]
fn algebra_through_methods_operators_and_writers() {
    let (ma, mb) = (edges(), (0..70_000u64).step_by(3).collect::<BTreeSet<_>>());
    let (a, b): (Roaring, Roaring) = (ma.iter().copied().collect(), mb.iter().copied().collect());
    let (va, vb) = (a.view(), b.view());
    let model = |s: BTreeSet<u64>| s.into_iter().collect::<Roaring>();
    assert_eq!(va & vb, model(&ma & &mb));
    assert_eq!(&a | &b, model(&ma | &mb));
    assert_eq!(va ^ vb, model(&ma ^ &mb));
    assert_eq!(va - vb, model(&ma - &mb));
    assert_eq!(va.and(&vb).unwrap(), va & vb);
    assert_eq!(va.and_len(&vb), (&ma & &mb).len() as u64);
    assert_eq!(va.or_len(&vb), (&ma | &mb).len() as u64);
    assert_eq!(va.xor_len(&vb), (&ma ^ &mb).len() as u64);
    assert_eq!(va.andnot_len(&vb), (&ma - &mb).len() as u64);
    assert!(va.intersects(&vb) && !va.is_disjoint(&vb));
    assert!((va & vb).view().is_subset(&va) && va.is_superset(&(va & vb).view()));
    assert_eq!(va.compare(&vb), ma.iter().cmp(mb.iter()));

    let mut w: Writer = Writer::or(va, vb);
    assert_eq!(write(&mut w), model(&ma | &mb));
    let mut spliced: Splice<'_> = Splice::or(va, vb);
    assert_eq!(write(&mut spliced), model(&ma | &mb));
    assert_eq!(write(&mut Splice::andnot(va, vb)), model(&ma - &mb));
    let mut grown = ma.clone();
    grown.extend([3, 1 << 40]);
    assert_eq!(
        write(&mut va.with_inserted(&[1 << 40, 3])),
        model(grown.clone())
    );
    grown.remove(&0);
    grown.remove(&(1 << 40));
    grown.remove(&3);
    assert_eq!(
        write(&mut va.with_removed(&[0, 1 << 40, 3, 7])),
        model(grown.clone())
    );
    assert_eq!(
        write(&mut va.with_changes(&[1 << 40], &[0])),
        model(
            ma.iter()
                .copied()
                .filter(|&x| x != 0)
                .chain([1 << 40])
                .collect()
        )
    );
    let chunks: Chunks<'_> = va.chunks(32);
    let mut rebuilt = BTreeSet::new();
    for (prefix, mut part) in chunks {
        let bytes = write(&mut part);
        let part = RoaringView::from_bytes(&bytes).unwrap();
        assert!(part.iter().all(|x| x >> 32 == prefix));
        rebuilt.extend(part.iter());
    }
    assert_eq!(rebuilt, ma);
    assert_eq!(SetOp::Xor.apply(va, vb).into_roaring().unwrap(), va ^ vb);
    assert_eq!(
        SetOp::And.many(&[va, vb, va]).into_roaring().unwrap(),
        va & vb
    );

    let mut acc = Accumulator::new(SetOp::Or);
    acc.add(va);
    acc.insert(9);
    assert_eq!(write(&mut acc), &a | &Roaring::from_sorted(&[9]).unwrap());

    let values = [1u64, 2, 1 << 50];
    let mut sorted = SortedValues::new(&values).unwrap();
    assert_eq!(write(&mut sorted), Roaring::from_sorted(&values).unwrap());

    let too_big: Result<Roaring, CapacityError> = Roaring::from_range(..);
    assert!(too_big.is_err());
}

#[test]
fn headers_and_partial_reads() {
    let set: Roaring = edges().into_iter().collect();
    let bytes = set.as_bytes();
    let h: Header = Header::from_prefix(&bytes[..HEADER_MAX_LEN.min(bytes.len())]).unwrap();
    assert_eq!((h.cardinality, h.min, h.max), (set.len(), 0, u64::MAX));
    let far = Roaring::from_sorted(&[5]).unwrap();
    let hf = far.view().header();
    assert!(!h.is_disjoint_from(&hf));
    assert_eq!(Roaring::new().view().header().is_subset_of(&h), Some(true));

    let mut partial = Partial::new(|offset: usize, len: usize| {
        let end = offset.saturating_add(len).min(bytes.len());
        &bytes[offset.min(end)..end]
    });
    for x in [0, 1, 1 << 16, (5 << 16) + 77, 1 << 40, u64::MAX] {
        assert_eq!(partial.contains(x), Ok(set.contains(x)), "contains({x})");
        assert_eq!(partial.rank(x), Ok(set.view().rank(x)), "rank({x})");
    }
    let mut short = Partial::new(|_: usize, _: usize| &[][..]);
    let e: PartialReadError = short.rank(1).unwrap_err();
    assert_eq!(e, PartialReadError::Corrupt);
}

#[test]
fn portable_formats_and_signed_values() {
    let signed = [i64::MIN, -1, 0, 5, i64::MAX];
    let set = Roaring::from_signed(signed).unwrap();
    assert!(set.iter().map(to_signed).eq(signed));
    assert_eq!(to_stored(-1), (-1i64 as u64) ^ (1 << 63));
    let mut bits: Vec<u64> = set.iter().collect();
    to_signed_bits(&mut bits);
    assert!(bits.iter().map(|&b| b as i64).eq(signed));

    let p = set.view().to_portable(PortableFormat::Signed64).unwrap();
    assert!(looks_like_portable(&p));
    assert_eq!(
        Roaring::from_portable(&p, PortableFormat::Signed64).unwrap(),
        set
    );
    assert_eq!(set.view().portable_len(PortableFormat::Unsigned32), None);
    let small = Roaring::from_sorted(&[0, 7, u32::MAX as u64]).unwrap();
    let p32 = small
        .view()
        .to_portable(PortableFormat::Unsigned32)
        .unwrap();
    assert_eq!(
        Roaring::from_portable(&p32, PortableFormat::Unsigned32).unwrap(),
        small
    );
    let bad: PortableError =
        Roaring::from_portable(&p32[..5], PortableFormat::Unsigned32).unwrap_err();
    assert!(!bad.to_string().is_empty());
}

#[test]
fn tiers_and_interrupts() {
    let tiers: Vec<simd::Tier> = simd::available_tiers();
    assert!(tiers.contains(&simd::tier()));
    set_interrupt_hook(|| {});
}
