//! Validation: one hand-written buffer per error, and mutated buffers that must be
//! rejected or else be consistent.

mod common;

use common::{build, model};
use proptest::prelude::*;
use sroar::{from_sorted, FormatError, Kind, RoaringView};

const ARRAY: u32 = 1;
const BITMAP: u32 = 2;
const RUN: u32 = 3;

/// One raw container: key, declared cardinality, type code and payload.
type Raw = (u64, u32, u32, Vec<u8>);

/// Encodes containers verbatim, packed, with the given header fields.
fn raw(containers: &[Raw], card: u64, min: u64, max: u64) -> Vec<u8> {
    let n = containers.len();
    let payload: usize = containers.iter().map(|c| c.3.len()).sum();
    let total = 40 + 12 * n + payload;
    let mut b = Vec::with_capacity(total);
    b.extend_from_slice(b"SR64");
    b.extend_from_slice(&[1, 0, 0, 0]);
    b.extend_from_slice(&(n as u32).to_le_bytes());
    b.extend_from_slice(&(total as u32).to_le_bytes());
    b.extend_from_slice(&card.to_le_bytes());
    b.extend_from_slice(&min.to_le_bytes());
    b.extend_from_slice(&max.to_le_bytes());
    for (key, c, _, _) in containers {
        b.extend_from_slice(&((key << 16) | u64::from(c - 1)).to_le_bytes());
    }
    let mut off = 40 + 12 * n;
    for (_, _, t, p) in containers {
        b.extend_from_slice(&((t << 30) | off as u32).to_le_bytes());
        off += p.len();
    }
    for c in containers {
        b.extend_from_slice(&c.3);
    }
    b
}

fn lows(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn runs(v: &[(u16, u16)]) -> Vec<u8> {
    v.iter()
        .flat_map(|(s, l)| s.to_le_bytes().into_iter().chain(l.to_le_bytes()))
        .collect()
}

fn bitmap(v: &[u16]) -> Vec<u8> {
    let mut w = [0u64; 1024];
    for &x in v {
        w[usize::from(x >> 6)] |= 1 << (x & 63);
    }
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn err(bytes: &[u8]) -> FormatError {
    match RoaringView::from_bytes(bytes) {
        Ok(_) => panic!("buffer accepted"),
        Err(e) => {
            assert!(e.to_string().starts_with("invalid sroar bitmap: "));
            e
        }
    }
}

/// A valid two-container buffer: {1, 3} and {2^16 + 7}.
fn sample() -> Vec<u8> {
    let b = raw(
        &[(0, 2, ARRAY, lows(&[1, 3])), (1, 1, ARRAY, lows(&[7]))],
        3,
        1,
        65543,
    );
    assert_eq!(b, from_sorted(&[1, 3, 65543]).unwrap());
    b
}

#[test]
fn raw_helper_matches_writer() {
    RoaringView::from_bytes(&sample()).unwrap();
    let e = raw(&[], 0, 0, 0);
    assert_eq!(e, sroar::empty());
    RoaringView::from_bytes(&e).unwrap();
}

#[test]
fn header_errors() {
    assert_eq!(err(&[]), FormatError::TooShort { len: 0 });
    assert_eq!(err(&sample()[..39]), FormatError::TooShort { len: 39 });
    let mut b = sample();
    b[0] = b'X';
    assert_eq!(err(&b), FormatError::BadMagic);
    let mut b = sample();
    b[4] = 2;
    assert_eq!(err(&b), FormatError::UnsupportedVersion(2));
    let mut b = sample();
    b[5] = 1;
    assert_eq!(err(&b), FormatError::NonZeroFlags(1));
    let mut b = sample();
    b[7] = 1;
    assert_eq!(err(&b), FormatError::NonZeroReserved);
}

#[test]
fn length_errors() {
    let b = sample();
    let len = b.len();
    assert!(matches!(
        err(&b[..len - 1]),
        FormatError::LengthMismatch { actual, .. } if actual == len - 1
    ));
    let mut longer = b.clone();
    longer.push(0);
    assert!(matches!(err(&longer), FormatError::LengthMismatch { .. }));
    // total_len patched to the real length, but two bytes trail the last array.
    let mut trailing = b.clone();
    trailing.extend_from_slice(&[0, 0]);
    trailing[12..16].copy_from_slice(&((len + 2) as u32).to_le_bytes());
    assert_eq!(
        err(&trailing),
        FormatError::TrailingBytes {
            end: len as u64,
            len: len + 2
        }
    );
    // A directory of 2^32 - 1 containers does not fit.
    let mut dir = b.clone();
    dir[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(err(&dir), FormatError::DirectoryOverflow { .. }));
    // Truncating the last payload but fixing total_len.
    let mut cut = b[..len - 2].to_vec();
    cut[12..16].copy_from_slice(&((len - 2) as u32).to_le_bytes());
    assert!(matches!(
        err(&cut),
        FormatError::PayloadOutOfBounds { index: 1, .. }
    ));
}

#[test]
fn directory_errors() {
    let b = raw(
        &[(5, 1, ARRAY, lows(&[1])), (3, 1, ARRAY, lows(&[1]))],
        2,
        (5 << 16) | 1,
        (3 << 16) | 1,
    );
    assert_eq!(err(&b), FormatError::KeysNotIncreasing { index: 1 });
    let b = raw(
        &[(5, 1, ARRAY, lows(&[1])), (5, 1, ARRAY, lows(&[2]))],
        2,
        0,
        0,
    );
    assert_eq!(err(&b), FormatError::KeysNotIncreasing { index: 1 });

    let mut b = sample();
    b[40 + 16 + 4 + 3] &= 0x3F; // type of container 1 := 0
    assert_eq!(err(&b), FormatError::BadContainerType { index: 1 });

    let mut b = sample();
    b[40 + 16 + 4] += 2; // offset of container 1 moves by 2
    assert_eq!(
        err(&b),
        FormatError::BadOffset {
            index: 1,
            expected: 40 + 24 + 4,
            found: 40 + 24 + 4 + 2
        }
    );
}

#[test]
fn payload_errors() {
    // Array not strictly increasing (duplicate and descending).
    let b = raw(&[(0, 2, ARRAY, lows(&[3, 2]))], 2, 2, 3);
    assert_eq!(
        err(&b),
        FormatError::ArrayNotIncreasing {
            index: 0,
            offset: 40 + 12 + 2
        }
    );
    let b = raw(&[(0, 2, ARRAY, lows(&[3, 3]))], 2, 3, 3);
    assert!(matches!(err(&b), FormatError::ArrayNotIncreasing { .. }));

    // Bitmap whose popcount differs from the directory.
    let many: Vec<u16> = (0..5000).map(|x| x * 2).collect();
    let b = raw(&[(0, 4999, BITMAP, bitmap(&many))], 4999, 0, 9998);
    assert_eq!(
        err(&b),
        FormatError::CardinalityMismatch {
            index: 0,
            declared: 4999,
            actual: 5000
        }
    );
    // Run sum differs from the directory.
    let b = raw(&[(0, 9, RUN, runs(&[(0, 9)]))], 9, 0, 9);
    assert!(matches!(err(&b), FormatError::CardinalityMismatch { .. }));

    // Runs: adjacent, overlapping, unsorted, overflowing, bad size.
    let b = raw(&[(0, 30, RUN, runs(&[(0, 9), (10, 19)]))], 30, 0, 29);
    assert_eq!(
        err(&b),
        FormatError::RunsNotSeparated {
            index: 0,
            offset: 40 + 12 + 4
        }
    );
    let b = raw(&[(0, 30, RUN, runs(&[(0, 9), (5, 19)]))], 30, 0, 24);
    assert!(matches!(err(&b), FormatError::RunsNotSeparated { .. }));
    let b = raw(&[(0, 30, RUN, runs(&[(100, 9), (0, 19)]))], 30, 0, 109);
    assert!(matches!(err(&b), FormatError::RunsNotSeparated { .. }));
    let b = raw(&[(0, 10, RUN, runs(&[(65530, 9)]))], 10, 65530, 65539);
    assert_eq!(
        err(&b),
        FormatError::RunOverflow {
            index: 0,
            offset: 52
        }
    );
    let mut p = runs(&[(0, 9)]);
    p.extend_from_slice(&[0, 0]);
    let b = raw(&[(0, 10, RUN, p)], 10, 0, 9);
    assert_eq!(
        err(&b),
        FormatError::BadRunPayloadSize { index: 0, size: 6 }
    );
    // An empty run container in the middle (size 0).
    let b = raw(
        &[(0, 1, RUN, Vec::new()), (1, 10, RUN, runs(&[(0, 9)]))],
        11,
        0,
        65545,
    );
    assert_eq!(
        err(&b),
        FormatError::BadRunPayloadSize { index: 0, size: 0 }
    );
}

#[test]
fn non_canonical_kinds() {
    // An array that should be a run: 4 values in 1 run (4 < 8).
    let b = raw(&[(0, 4, ARRAY, lows(&[1, 2, 3, 4]))], 4, 1, 4);
    assert_eq!(
        err(&b),
        FormatError::NonCanonicalKind {
            index: 0,
            found: Kind::Array,
            expected: Kind::Run
        }
    );
    // A run that should be an array: {1, 3} (8 bytes as runs, 4 as array), and the
    // tie {1, 2} (4 bytes either way) goes to array.
    let b = raw(&[(0, 2, RUN, runs(&[(1, 0), (3, 0)]))], 2, 1, 3);
    assert!(matches!(
        err(&b),
        FormatError::NonCanonicalKind {
            expected: Kind::Array,
            ..
        }
    ));
    let b = raw(&[(0, 2, RUN, runs(&[(1, 1)]))], 2, 1, 2);
    assert!(matches!(err(&b), FormatError::NonCanonicalKind { .. }));
    // A bitmap with cardinality <= 4096.
    let few: Vec<u16> = (0..4096).map(|x| x * 3).collect();
    let b = raw(&[(0, 4096, BITMAP, bitmap(&few))], 4096, 0, 4095 * 3);
    assert_eq!(
        err(&b),
        FormatError::NonCanonicalKind {
            index: 0,
            found: Kind::Bitmap,
            expected: Kind::Array
        }
    );
    // An array cannot hold 4097 values.
    let many: Vec<u16> = (0..4097).map(|x| x * 3).collect();
    let b = raw(&[(0, 4097, ARRAY, lows(&many))], 4097, 0, 4096 * 3);
    assert!(matches!(
        err(&b),
        FormatError::NonCanonicalKind {
            expected: Kind::Bitmap,
            ..
        }
    ));
    // A full container as a bitmap instead of one run.
    let all: Vec<u16> = (0..=u16::MAX).collect();
    let b = raw(&[(0, 65536, BITMAP, bitmap(&all))], 65536, 0, 65535);
    assert!(matches!(
        err(&b),
        FormatError::NonCanonicalKind {
            expected: Kind::Run,
            ..
        }
    ));
}

/// `bytes` copied to an odd address, to be opened from there.
fn at_odd(bytes: &[u8]) -> Vec<u8> {
    let mut v = vec![0xEE];
    v.extend_from_slice(bytes);
    v
}

/// Containers long enough for every SIMD tier, read at an odd address: the
/// run count decides the kind at its exact boundary, and a break anywhere in
/// an array is reported at its offset.
#[test]
fn long_payloads() {
    // 100 values in `r` runs: an array iff 4 * r >= 2 * 100.
    for r in [49u32, 50, 51] {
        let mut vals = Vec::new();
        let mut start = 7u32;
        for i in 0..r {
            let len = 100 / r + u32::from(i < 100 % r);
            vals.extend((start..start + len).map(|x| x as u16));
            start += len + 1;
        }
        assert_eq!(vals.len(), 100);
        let b = raw(
            &[(0, 100, ARRAY, lows(&vals))],
            100,
            7,
            u64::from(*vals.last().unwrap()),
        );
        let got = RoaringView::from_bytes(&at_odd(&b)[1..]).map(|v| v.len());
        if r >= 50 {
            assert_eq!(got, Ok(100), "{r} runs");
        } else {
            assert_eq!(
                got,
                Err(FormatError::NonCanonicalKind {
                    index: 0,
                    found: Kind::Array,
                    expected: Kind::Run
                })
            );
        }
    }
    let evens: Vec<u16> = (0..200).map(|x| 2 * x + 1).collect();
    for p in 1..evens.len() {
        let mut v = evens.clone();
        v[p] = v[p - 1];
        let b = at_odd(&raw(&[(0, 200, ARRAY, lows(&v))], 200, 1, 399));
        assert_eq!(
            RoaringView::from_bytes(&b[1..]).map(|v| v.len()),
            Err(FormatError::ArrayNotIncreasing {
                index: 0,
                offset: 52 + 2 * p
            })
        );
    }
    // A bitmap of 2048 runs (8192 bytes as runs) stays a bitmap; one run
    // fewer makes runs smaller. Half the runs cross a word boundary.
    let crossing: Vec<u16> = (0..2047u32)
        .flat_map(|k| (32 * k + 30..32 * k + 33).map(|x| x as u16))
        .collect();
    let mut with_zero = vec![0u16];
    with_zero.extend(&crossing);
    let max = u64::from(*crossing.last().unwrap());
    let b = raw(&[(0, 6142, BITMAP, bitmap(&with_zero))], 6142, 0, max);
    assert_eq!(
        RoaringView::from_bytes(&at_odd(&b)[1..]).map(|v| v.len()),
        Ok(6142)
    );
    let b = raw(&[(0, 6141, BITMAP, bitmap(&crossing))], 6141, 30, max);
    assert_eq!(
        RoaringView::from_bytes(&at_odd(&b)[1..]).map(|v| v.len()),
        Err(FormatError::NonCanonicalKind {
            index: 0,
            found: Kind::Bitmap,
            expected: Kind::Run
        })
    );
}

#[test]
fn header_field_errors() {
    let mut b = sample();
    b[16] = 4;
    assert_eq!(
        err(&b),
        FormatError::CardinalityHeader {
            header: 4,
            actual: 3
        }
    );
    let mut b = sample();
    b[24] = 0;
    assert_eq!(
        err(&b),
        FormatError::MinHeader {
            header: 0,
            actual: 1
        }
    );
    let mut b = sample();
    b[32] = 0;
    assert!(matches!(
        err(&b),
        FormatError::MaxHeader { actual: 65543, .. }
    ));
    // The empty set: all header fields must be 0.
    assert!(matches!(
        err(&raw(&[], 1, 0, 0)),
        FormatError::CardinalityHeader { .. }
    ));
    assert!(matches!(
        err(&raw(&[], 0, 5, 0)),
        FormatError::MinHeader { .. }
    ));
    assert!(matches!(
        err(&raw(&[], 0, 0, 5)),
        FormatError::MaxHeader { .. }
    ));
}

#[derive(Clone, Debug)]
enum Mutation {
    Flip { at: usize, xor: u8 },
    Set { at: usize, byte: u8 },
    Truncate { keep: usize, fix_len: bool },
    Extend { bytes: Vec<u8>, fix_len: bool },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<usize>(), 1..=255u8).prop_map(|(at, xor)| Mutation::Flip { at, xor }),
        2 => (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Mutation::Set { at, byte }),
        1 => (any::<usize>(), any::<bool>()).prop_map(|(keep, fix_len)| Mutation::Truncate { keep, fix_len }),
        1 => (prop::collection::vec(any::<u8>(), 1..20), any::<bool>())
            .prop_map(|(bytes, fix_len)| Mutation::Extend { bytes, fix_len }),
    ]
}

fn apply(b: &mut Vec<u8>, m: &Mutation) {
    match m {
        Mutation::Flip { at, xor } => {
            if !b.is_empty() {
                let i = at % b.len();
                b[i] ^= xor;
            }
        }
        Mutation::Set { at, byte } => {
            if !b.is_empty() {
                let i = at % b.len();
                b[i] = *byte;
            }
        }
        Mutation::Truncate { keep, fix_len } => {
            b.truncate(keep % (b.len() + 1));
            if *fix_len && b.len() >= 16 {
                let l = b.len() as u32;
                b[12..16].copy_from_slice(&l.to_le_bytes());
            }
        }
        Mutation::Extend { bytes, fix_len } => {
            b.extend_from_slice(bytes);
            if *fix_len && b.len() >= 16 {
                let l = b.len() as u32;
                b[12..16].copy_from_slice(&l.to_le_bytes());
            }
        }
    }
}

/// Anything accepted must behave as the set it encodes.
fn check_consistent(bytes: &[u8]) {
    let Ok(v) = RoaringView::from_bytes(bytes) else {
        return;
    };
    let values: Vec<u64> = v.iter().collect();
    assert_eq!(values.len() as u64, v.len());
    assert!(values.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(v.min(), values.first().copied());
    assert_eq!(v.max(), values.last().copied());
    assert_eq!(from_sorted(&values).unwrap(), bytes);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn mutated_buffers_never_panic(m in model(), muts in prop::collection::vec(mutation(), 1..4)) {
        let mut b = build(&m);
        for mu in &muts {
            apply(&mut b, mu);
        }
        check_consistent(&b);
    }

    #[test]
    fn random_bytes_never_panic(tail in prop::collection::vec(any::<u8>(), 0..200), n in 0..4u32) {
        // A plausible header followed by random bytes.
        let mut b = b"SR64\x01\0\0\0".to_vec();
        b.extend_from_slice(&n.to_le_bytes());
        b.extend_from_slice(&((40 + tail.len()) as u32).to_le_bytes());
        b.extend_from_slice(&[0u8; 24]);
        b.extend_from_slice(&tail);
        check_consistent(&b);
        check_consistent(&tail);
    }
}

/// A container as raw material: type code, lows, and whether to keep the lows
/// sorted (arrays) or pair them up as runs.
fn raw_container() -> impl Strategy<Value = (u64, u32, Vec<u16>, bool, i8)> {
    (
        1..3u64,
        0..4u32,
        prop_oneof![
            prop::collection::vec(any::<u16>(), 0..12),
            prop::collection::vec(0..40u16, 0..12),
        ],
        any::<bool>(),
        prop_oneof![4 => Just(0i8), 1 => -2..3i8],
    )
}

/// Encodes `(key step, type, lows, tidy, card error)` as a container; when `tidy`
/// the lows are sorted and deduplicated first. Returns the raw container and its
/// decoded values for the header.
fn encode_raw(
    key: u64,
    (_, code, mut v16, tidy, card_err): (u64, u32, Vec<u16>, bool, i8),
) -> (Raw, Vec<u64>) {
    if tidy {
        v16.sort_unstable();
        v16.dedup();
    }
    let high = key << 16;
    let (payload, values): (Vec<u8>, Vec<u64>) = match code {
        BITMAP => {
            let mut l = v16.clone();
            l.sort_unstable();
            l.dedup();
            (bitmap(&l), l.iter().map(|&x| high | u64::from(x)).collect())
        }
        RUN => {
            let pairs: Vec<(u16, u16)> =
                v16.chunks(2).map(|c| (c[0], c[c.len() - 1] % 8)).collect();
            let mut values = Vec::new();
            for &(s, l) in &pairs {
                for x in u64::from(s)..=(u64::from(s) + u64::from(l)).min(65535) {
                    values.push(high | x);
                }
            }
            (runs(&pairs), values)
        }
        _ => (
            lows(&v16),
            v16.iter().map(|&x| high | u64::from(x)).collect(),
        ),
    };
    let card = (values.len() as i64 + i64::from(card_err)).clamp(1, 65536) as u32;
    ((key, card, code, payload), values)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Structurally plausible buffers (packed offsets, honest headers) with random
    /// contents: the deep checks must reject or accept consistently.
    #[test]
    fn structured_buffers_never_panic(parts in prop::collection::vec(raw_container(), 0..4)) {
        let mut key = 0;
        let mut containers = Vec::new();
        let mut values = Vec::new();
        for p in parts {
            key += p.0;
            let (c, v) = encode_raw(key, p);
            containers.push(c);
            values.extend(v);
        }
        let card = containers.iter().map(|c| u64::from(c.1)).sum();
        let min = values.first().copied().unwrap_or(0);
        let max = values.last().copied().unwrap_or(0);
        let b = raw(&containers, card, min, max);
        check_consistent(&b);
        if let Ok(v) = RoaringView::from_bytes(&b) {
            prop_assert_eq!(v.iter().collect::<Vec<_>>(), values);
        }
    }
}

#[test]
fn structured_generator_reaches_valid_buffers() {
    // Sanity check of the generator above: tidy arrays and runs are accepted.
    let (a, _) = encode_raw(1, (1, ARRAY, vec![9, 3, 5], true, 0));
    let (r, _) = encode_raw(2, (1, RUN, vec![10, 3, 40, 1], true, 0));
    let b = raw(&[a, r], 3 + 5, 65539, (2 << 16) + 10);
    let v = RoaringView::from_bytes(&b).unwrap();
    assert_eq!(v.len(), 8);
}
