//! `Roaring` through serde: its native bytes out, validated bytes in, in JSON and in
//! MessagePack, for sets with the edge values.

mod common;

use common::{build, model};
use proptest::prelude::*;
use sroar::Roaring;

#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
struct Audience {
    name: String,
    members: Roaring,
}

fn check(bytes: Vec<u8>) {
    let a = Audience {
        name: "edge".into(),
        members: Roaring::from_bytes(bytes.clone()).unwrap(),
    };
    let json = serde_json::to_string(&a).unwrap();
    let back: Audience = serde_json::from_str(&json).unwrap();
    assert_eq!(back, a);
    assert_eq!(back.members.as_bytes(), &bytes[..]);
    let mp = rmp_serde::to_vec(&a).unwrap();
    // A binary format carries the bytes as they are.
    assert!(mp.windows(bytes.len()).any(|w| w == &bytes[..]));
    let back: Audience = rmp_serde::from_slice(&mp).unwrap();
    assert_eq!(back, a);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn round_trips(m in model()) {
        check(build(&m));
    }
}

#[test]
fn edges_round_trip() {
    let edges: Roaring = [0, 1 << 16, 1 << 32, 1 << 48, u64::MAX]
        .into_iter()
        .collect();
    check(edges.into_bytes());
    check(common::door::empty());
    check(common::door::from_range(0..200_000).unwrap());
}

#[test]
fn invalid_bytes_are_refused() {
    let good = common::door::from_sorted(&[1, 2, 3]).unwrap();
    let mut bad = good.clone();
    bad[0] ^= 0xff;
    let json = serde_json::to_string(&serde_bytes_as_json(&bad)).unwrap();
    let e = serde_json::from_str::<Roaring>(&json).unwrap_err();
    assert!(e.to_string().contains("magic"), "{e}");
    let mp = rmp_serde::to_vec(&serde_bytes_as_mp(&bad[..bad.len() - 1])).unwrap();
    assert!(rmp_serde::from_slice::<Roaring>(&mp).is_err());
    assert!(serde_json::from_str::<Roaring>("[1, 2, 300]").is_err());
    assert!(serde_json::from_str::<Roaring>("\"text\"").is_err());
}

fn serde_bytes_as_json(b: &[u8]) -> Vec<u8> {
    b.to_vec()
}

/// Bytes as MessagePack's bin type, as `Roaring` writes them.
fn serde_bytes_as_mp(b: &[u8]) -> serde_json::Value {
    // rmp-serde writes a Vec<u8> as an array; the bin form comes from a Roaring, so
    // write the array form here: both are accepted on the way in.
    serde_json::Value::Array(b.iter().map(|&x| x.into()).collect())
}
