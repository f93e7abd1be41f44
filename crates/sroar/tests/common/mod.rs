//! Shared strategies: sets clustered near the interesting places of the u64 line.
#![allow(dead_code)]

use std::collections::BTreeSet;

use proptest::prelude::*;
use sroar::RoaringView;

pub mod door;
pub mod pieces;
use door::from_sorted;

pub type Model = BTreeSet<u64>;

/// Values near which sets cluster.
pub const ANCHORS: [u64; 6] = [0, 1 << 16, 1 << 32, 1 << 48, u64::MAX - (1 << 20), u64::MAX];

pub use pieces::Piece;

/// The value `off` away from anchor `anchor`.
pub fn place(anchor: usize, off: i64) -> u64 {
    pieces::place(&ANCHORS, anchor, off)
}

/// Adds the values of `piece` to `m`.
pub fn add_to(piece: &Piece, m: &mut Model) {
    piece.for_each_value(&ANCHORS, |v| {
        m.insert(v);
    });
}

pub fn anchor() -> impl Strategy<Value = usize> {
    0..ANCHORS.len()
}

pub fn offset() -> impl Strategy<Value = i32> {
    prop_oneof![-70..70i32, -(1 << 18)..(1 << 18)]
}

pub fn piece() -> impl Strategy<Value = Piece> {
    prop_oneof![
        3 => (anchor(), prop::collection::vec(offset(), 0..40))
            .prop_map(|(anchor, offs)| Piece::Sparse { anchor, offs }),
        3 => (anchor(), offset(), prop_oneof![1..10u32, 1..20_000u32])
            .prop_map(|(anchor, off, len)| Piece::Run { anchor, off, len }),
        1 => (anchor(), -2..3i8).prop_map(|(anchor, dkey)| Piece::Full { anchor, dkey }),
        2 => (anchor(), -2..3i8, prop_oneof![1..300u16, 3500..9000u16], any::<u64>())
            .prop_map(|(anchor, dkey, count, seed)| Piece::Dense { anchor, dkey, count, seed }),
        2 => (anchor(), -2..3i8, 1..5u16, 1..4u16, prop_oneof![1..20u16, 1000..4200u16])
            .prop_map(|(anchor, dkey, run_len, gap, runs)| Piece::Pattern {
                anchor,
                dkey,
                run_len,
                gap,
                runs
            }),
    ]
}

/// A set built from 0 to 5 pieces (so the empty set is common).
pub fn model() -> impl Strategy<Value = Model> {
    prop::collection::vec(piece(), 0..5).prop_map(|pieces| {
        let mut m = Model::new();
        for p in &pieces {
            add_to(p, &mut m);
        }
        m
    })
}

/// Probe values near the anchors.
pub fn probes() -> impl Strategy<Value = Vec<u64>> {
    prop::collection::vec(
        (anchor(), offset()).prop_map(|(a, o)| place(a, i64::from(o))),
        1..12,
    )
}

/// The canonical bytes of a model set.
pub fn build(m: &Model) -> Vec<u8> {
    let v: Vec<u64> = m.iter().copied().collect();
    from_sorted(&v).expect("model sets are small")
}

/// Asserts that `bytes` (a buffer, or an owned set) validates and is exactly the
/// encoding of `m`.
pub fn assert_encodes<B: AsRef<[u8]> + ?Sized>(bytes: &B, m: &Model, what: &str) {
    let bytes = bytes.as_ref();
    if let Err(e) = RoaringView::from_bytes(bytes) {
        panic!("{what}: output does not validate: {e}");
    }
    assert!(
        bytes == build(m).as_slice(),
        "{what}: bytes differ from the model's encoding"
    );
}
