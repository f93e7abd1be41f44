//! The standard 32-bit portable format (Java's `RoaringBitmap`, CRoaring's 32-bit
//! bitmaps, roaring-rs's `RoaringBitmap`, pg_roaringbitmap's `roaringbitmap`):
//! read and written byte for byte as CRoaring and roaring-rs do, values taken as
//! unsigned 32-bit ones (or as the signed integers they equal), and bad bytes
//! refused without a panic.

mod common;

use std::collections::BTreeSet;

use common::door::from_sorted;
use common::door::portable::{from_portable32_writer, portable32_len, write_portable32_into};
use croaring::{Bitmap, Portable};
use proptest::prelude::*;
use roaring::RoaringBitmap;
use sroar::{to_signed, to_stored, RoaringView};

type Model = BTreeSet<u32>;

/// Sets over a few containers: scattered values, runs and dense blocks, with the
/// edges 0, 2^16 and 2^32 - 1.
fn model() -> impl Strategy<Value = Model> {
    let piece = (0u32..6, 0u32..4, any::<u32>(), 1u32..5000).prop_map(|(key, shape, seed, n)| {
        let base = [0u32, 1, 2, 7, 65535, 65534][key as usize] << 16;
        let mut s = seed;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s
        };
        match shape {
            0 => (0..n.min(300))
                .map(|_| base | (next() & 0xffff))
                .collect::<Vec<_>>(),
            1 => (base..base + n).collect(),
            2 => (0..n).map(|i| base | ((i * 3) & 0xffff)).collect(),
            _ => (0..n).map(|_| base | (next() & 0xffff)).collect(),
        }
    });
    (
        prop::collection::vec(piece, 0..4),
        prop::collection::vec(
            prop::sample::select(vec![0u32, 1, 65535, 65536, u32::MAX]),
            0..3,
        ),
    )
        .prop_map(|(pieces, edges)| pieces.into_iter().flatten().chain(edges).collect())
}

fn croaring32(m: &Model, optimize: bool) -> Vec<u8> {
    let mut b = Bitmap::of(&m.iter().copied().collect::<Vec<_>>());
    if optimize {
        b.run_optimize();
    }
    b.serialize::<Portable>()
}

fn roaring_rs32(m: &Model) -> Vec<u8> {
    let b: RoaringBitmap = m.iter().copied().collect();
    let mut out = Vec::new();
    b.serialize_into(&mut out).unwrap();
    out
}

/// Our 32-bit bytes of the set, from its values as u64 (or as stored signed ones).
fn ours(m: &Model, signed: bool) -> Vec<u8> {
    let values: Vec<u64> = if signed {
        let mut v: Vec<u64> = m.iter().map(|&x| to_stored(i64::from(x))).collect();
        v.sort_unstable();
        v
    } else {
        m.iter().map(|&x| u64::from(x)).collect()
    };
    let bytes = from_sorted(&values).unwrap();
    let view = RoaringView::from_bytes(&bytes).unwrap();
    let mut out = vec![0; portable32_len(&view, signed).expect("fits in 32 bits")];
    write_portable32_into(&view, signed, &mut out);
    out
}

fn read(bytes: &[u8], signed: bool) -> Vec<u64> {
    let buf = from_portable32_writer(bytes, signed)
        .unwrap()
        .into_vec()
        .unwrap();
    RoaringView::from_bytes(&buf).unwrap().iter().collect()
}

fn check(m: &Model) {
    let expected: Vec<u64> = m.iter().map(|&x| u64::from(x)).collect();
    let c = croaring32(m, true);
    assert!(
        ours(m, false) == c,
        "differs from CRoaring ({} values)",
        m.len()
    );
    assert!(
        ours(m, true) == c,
        "signed differs from CRoaring ({} values)",
        m.len()
    );
    for (what, bytes) in [
        ("CRoaring", croaring32(m, false)),
        ("CRoaring optimized", c),
        ("roaring-rs", roaring_rs32(m)),
    ] {
        assert_eq!(read(&bytes, false), expected, "{what} bytes read back");
        let signed: Vec<i64> = read(&bytes, true).into_iter().map(to_signed).collect();
        assert!(
            signed.iter().copied().eq(m.iter().map(|&x| i64::from(x))),
            "{what} read as signed"
        );
    }
    let back = Bitmap::try_deserialize::<Portable>(&ours(m, false)).expect("CRoaring reads ours");
    assert!(back.iter().eq(m.iter().copied()));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn identical_bytes(m in model()) {
        check(&m);
    }

    #[test]
    fn mutated_bytes_never_panic(m in model(), at in any::<prop::sample::Index>(), byte in any::<u8>(), cut in any::<prop::sample::Index>()) {
        let mut bytes = croaring32(&m, true);
        if !bytes.is_empty() {
            let i = at.index(bytes.len());
            bytes[i] = byte;
        }
        let _ = from_portable32_writer(&bytes, false).map(|w| w.into_vec());
        bytes.truncate(cut.index(bytes.len() + 1));
        let _ = from_portable32_writer(&bytes, true).map(|w| w.into_vec());
    }
}

#[test]
fn edges_and_limits() {
    for m in [
        Model::new(),
        [0].into(),
        [u32::MAX].into(),
        (0..=65535).collect(),
        [0, 65536, u32::MAX].into(),
    ] {
        check(&m);
    }
    // Values outside 32 bits do not fit; nor, for signed, do negative ones.
    for (values, signed) in [
        (vec![1u64 << 32], false),
        (vec![to_stored(-1)], true),
        (vec![5], true),
    ] {
        let bytes = from_sorted(&values).unwrap();
        let view = RoaringView::from_bytes(&bytes).unwrap();
        assert_eq!(
            portable32_len(&view, signed),
            None,
            "{values:?} signed={signed}"
        );
    }
    // Trailing bytes, truncation and a 64-bit buffer are refused.
    let mut bytes = croaring32(&[1, 2, 3].into(), true);
    bytes.push(0);
    assert!(from_portable32_writer(&bytes, false).is_err());
    assert!(from_portable32_writer(&bytes[..bytes.len() - 3], false).is_err());
    assert!(from_portable32_writer(&[], false).is_err());
    assert!(from_portable32_writer(&[0; 8], false).is_err());
}
