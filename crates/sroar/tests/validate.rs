//! Validation: one hand-written buffer per error, and mutated buffers that must be
//! rejected or else be consistent.

mod common;

use common::door::from_sorted;
use common::{build, model};
use proptest::prelude::*;
use sroar::{FormatError, Kind, RoaringView};

/// How a generated container's payload is built (`encode_raw`). The format
/// stores no kind: it follows from the cardinality and the payload's size.
const ARRAY: u32 = 1;
const BITMAP: u32 = 2;
const RUN: u32 = 3;

/// One raw container: key, declared cardinality and payload.
type Raw = (u64, u32, Vec<u8>);

fn width(x: u64) -> usize {
    (64 - x.leading_zeros() as usize).div_ceil(8)
}

/// The min's width code and the integer stored for it: flipped (`x ^ 2^63`, code
/// `8 + width`, at least 1 byte) when that is shorter.
fn min_code(min: u64) -> (u8, u64) {
    let f = min ^ (1 << 63);
    if width(f).max(1) < width(min) {
        (8 + width(f).max(1) as u8, f)
    } else {
        (width(min) as u8, min)
    }
}

/// A header: magic, version, flags (the cardinality's width in the high half,
/// and `flags` below), widths (max - min's, then min's code), and the fields in
/// the fewest bytes.
fn head(card: u64, n: u64, min: u64, span: u64, flags: u8) -> Vec<u8> {
    let (code, stored) = min_code(min);
    let (cw, mw, sw) = (
        width(card),
        usize::from(code & 7) + usize::from(code == 8) * 8,
        width(span),
    );
    let mut b = b"SR64\x03".to_vec();
    b.push((cw as u8) << 4 | flags);
    b.push((sw as u8) << 4 | code);
    for (x, w) in [(card, cw), (n, cw), (stored, mw), (span, sw)] {
        b.extend_from_slice(&x.to_le_bytes()[..w]);
    }
    b
}

/// Directory widths that differ from the canonical ones, to make bad buffers.
#[derive(Clone, Copy, Default)]
struct Forced {
    card: Option<usize>,
    offset: Option<usize>,
}

/// Encodes containers verbatim, packed, with the given header fields, as
/// FORMAT.md (version 3) lays them out, in the canonical widths unless forced:
/// cardinalities in the bytes the largest needs; no offsets when every container
/// is an array of at most 256 values, else in 1, 2 or 4 bytes.
fn raw_with(containers: &[Raw], card: u64, min: u64, max: u64, forced: Forced) -> Vec<u8> {
    let n = containers.len();
    let mut offsets = vec![0u64];
    for c in containers {
        offsets.push(offsets.last().unwrap() + c.2.len() as u64);
    }
    if card == 0 && n == 0 {
        return head(0, 0, 0, 0, 0)[..7].to_vec();
    }
    let last = offsets[n.max(1) - 1];
    let max_card = containers.iter().map(|c| c.1).max().unwrap_or(1);
    let card_w = forced.card.unwrap_or(width(u64::from(max_card - 1)));
    let arrays = containers.iter().all(|c| c.2.len() == 2 * c.1 as usize);
    let ow = forced.offset.unwrap_or(if arrays && card_w <= 1 {
        0
    } else {
        [1, 1, 2, 4, 4][width(last / 2)]
    });
    let code = [0, 1, 2, 0, 3][ow];
    let mut b = head(
        card,
        n as u64,
        min,
        max.wrapping_sub(min),
        (card_w as u8) << 2 | code,
    );
    let key0 = min >> 16;
    let kw = width(((max >> 16).wrapping_sub(key0)) & ((1 << 48) - 1));
    for c in containers {
        b.extend_from_slice(&c.0.wrapping_sub(key0).to_le_bytes()[..kw]);
    }
    for c in containers {
        b.extend_from_slice(&u64::from(c.1 - 1).to_le_bytes()[..card_w]);
    }
    for &o in &offsets[1..n.max(1)] {
        b.extend_from_slice(&(o / 2).to_le_bytes()[..ow]);
    }
    let cw = width(card).max(1);
    let mut sum = 0u64;
    for (i, c) in containers.iter().enumerate() {
        if i > 0 && i % 64 == 0 {
            b.extend_from_slice(&sum.to_le_bytes()[..cw]);
        }
        sum += u64::from(c.1);
    }
    for c in containers {
        b.extend_from_slice(&c.2);
    }
    b
}

fn raw(containers: &[Raw], card: u64, min: u64, max: u64) -> Vec<u8> {
    raw_with(containers, card, min, max, Forced::default())
}

/// Where the payload of a one-container buffer starts: after the header and the
/// directory's one key (no bytes unless max's key differs from min's) and one
/// cardinality (no offset is stored for one container).
fn payload_of_one(card: u64, min: u64, max: u64) -> usize {
    head(card, 1, min, max - min, 0).len() + width((max >> 16) - (min >> 16)) + width(card - 1)
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

/// A valid two-container buffer: {1, 3} and {2^16 + 7}, two arrays, so no
/// offsets are stored.
fn sample() -> Vec<u8> {
    let b = raw(&[(0, 2, lows(&[1, 3])), (1, 1, lows(&[7]))], 3, 1, 65543);
    assert_eq!(b, from_sorted(&[1, 3, 65543]).unwrap());
    b
}

/// A valid two-container buffer with one stored offset: {1, 3} and the run
/// {2^16 + 7 ..= 2^16 + 9}.
fn sample_runs() -> Vec<u8> {
    let b = raw(
        &[(0, 2, lows(&[1, 3])), (1, 3, runs(&[(7, 2)]))],
        5,
        1,
        65545,
    );
    assert_eq!(b, from_sorted(&[1, 3, 65543, 65544, 65545]).unwrap());
    b
}

#[test]
fn raw_helper_matches_writer() {
    RoaringView::from_bytes(&sample()).unwrap();
    let e = raw(&[], 0, 0, 0);
    assert_eq!(e, common::door::empty());
    RoaringView::from_bytes(&e).unwrap();
}

/// Where the header of `sample()` puts its fields: 7 fixed bytes, then the
/// cardinality (1 byte), n (1), min (1) and max - min (3).
const CARD_AT: usize = 7;
const MIN_AT: usize = 9;
const SPAN_AT: usize = 10;
/// `sample()`'s directory: keys (1 byte each), cardinalities (1 byte each).
const KEYS_AT: usize = 13;
/// `sample_runs()`'s one offset (1 byte), after its keys and cardinalities.
const OFFSETS_AT: usize = KEYS_AT + 2 + 2;

#[test]
fn header_errors() {
    assert_eq!(err(&[]), FormatError::TooShort { len: 0 });
    assert_eq!(err(&sample()[..5]), FormatError::TooShort { len: 5 });
    assert_eq!(
        err(&sample()[..CARD_AT]),
        FormatError::TooShort { len: CARD_AT }
    );
    let mut b = sample();
    b[0] = b'X';
    assert_eq!(err(&b), FormatError::BadMagic);
    let mut b = sample();
    b[4] = 1;
    assert_eq!(err(&b), FormatError::UnsupportedVersion(1));
    assert!(err(&b).to_string().contains("format version 1"));
    let mut b = sample();
    b[4] = 2;
    assert_eq!(err(&b), FormatError::UnsupportedVersion(2));
    let mut b = sample();
    b[4] = 4;
    assert_eq!(err(&b), FormatError::UnsupportedVersion(4));
    let mut b = sample();
    assert_eq!(b[5], 0x14);
    b[5] |= 0x0c;
    assert_eq!(err(&b), FormatError::BadFlags(0x1c));
    // Offsets wider than they need, offsets stored where the cardinalities give
    // them, none stored where they are needed, cardinalities wider than they need,
    // and the empty set with a flag.
    let run_sample = [(0, 2, lows(&[1, 3])), (1, 3, runs(&[(7, 2)]))];
    let forced = |card, offset| Forced { card, offset };
    assert_eq!(
        err(&raw_with(&run_sample, 5, 1, 65545, forced(None, Some(2)))),
        FormatError::OffsetWidth {
            found: 2,
            canonical: 1
        }
    );
    let arrays = [(0, 2, lows(&[1, 3])), (1, 1, lows(&[7]))];
    assert_eq!(
        err(&raw_with(&arrays, 3, 1, 65543, forced(None, Some(1)))),
        FormatError::OffsetWidth {
            found: 1,
            canonical: 0
        }
    );
    assert!(
        RoaringView::from_bytes(&raw_with(&run_sample, 5, 1, 65545, forced(None, Some(0))))
            .is_err()
    );
    assert_eq!(
        err(&raw_with(&arrays, 3, 1, 65543, forced(Some(2), Some(1)))),
        FormatError::CardinalityWidth {
            found: 2,
            canonical: 1
        }
    );
    assert_eq!(
        err(&raw_with(&arrays, 3, 1, 65543, forced(Some(0), None))),
        FormatError::PayloadLength { end: 19, len: 21 }
    );
    assert_eq!(err(b"SR64\x03\x01\x00"), FormatError::BadFlags(1));
    // A field wider than its value needs: min 1 in two bytes; a width over 8.
    let b = sample();
    let mut wide_min = [&b[..MIN_AT], &[1, 0], &b[MIN_AT + 1..]].concat();
    wide_min[6] += 1;
    assert_eq!(err(&wide_min), FormatError::HeaderWidths);
    let mut nine = b.clone();
    nine[6] = 0x91;
    nine.extend([0; 16]);
    assert_eq!(err(&nine), FormatError::HeaderWidths);
    // A min near 2^63 stored as it is in 8 bytes, where flipped it takes 1.
    let top = (1u64 << 63) + 5;
    let b = from_sorted(&[top]).unwrap();
    assert_eq!((b[6] & 15, b[MIN_AT]), (9, 5));
    let mut unflipped = b[..MIN_AT].to_vec();
    unflipped[6] = (b[6] & 0xf0) | 8;
    unflipped.extend(top.to_le_bytes());
    unflipped.extend(&b[MIN_AT + 1..]);
    assert_eq!(err(&unflipped), FormatError::HeaderWidths);
    // A span that takes max past u64::MAX, no containers in a non-empty set, more
    // containers than values.
    let mut b = head(1, 1, u64::MAX, 1, 0);
    b.extend_from_slice(&[0; 8]);
    assert_eq!(err(&b), FormatError::HeaderCounts);
    let mut b = head(1, 0, 0, 0, 0);
    b.extend_from_slice(&[0; 8]);
    assert_eq!(err(&b), FormatError::HeaderCounts);
    let mut b = head(1, 2, 0, 0, 0);
    b.extend_from_slice(&[0; 8]);
    assert_eq!(err(&b), FormatError::HeaderCounts);
}

#[test]
fn length_errors() {
    let b = sample();
    let len = b.len();
    // Where offsets are stored, the last payload is what is left of the buffer:
    // one byte less or two more make it something else, which the checks reject.
    let r = sample_runs();
    assert!(matches!(
        err(&r[..r.len() - 1]),
        FormatError::BadRunPayloadSize { index: 1, size: 3 }
    ));
    let mut longer = r.clone();
    longer.extend_from_slice(&[0, 0]);
    // (6 bytes for 3 values read as an array: 7, 2, 0.)
    assert!(matches!(
        err(&longer),
        FormatError::ArrayNotIncreasing { index: 1, .. }
    ));
    // Where none are stored, the payloads the cardinalities give must end with
    // the buffer.
    assert_eq!(
        err(&b[..len - 1]),
        FormatError::PayloadLength {
            end: len as u64,
            len: len - 1
        }
    );
    let mut longer = b.clone();
    longer.extend_from_slice(&[0, 0]);
    assert_eq!(
        err(&longer),
        FormatError::PayloadLength {
            end: len as u64,
            len: len + 2
        }
    );
    // Bytes after the empty set's header.
    assert_eq!(
        err(b"SR64\x03\x00\x00\x00"),
        FormatError::TrailingBytes { end: 7, len: 8 }
    );
    // A directory of 2^32 - 1 containers does not fit.
    let mut big = head(u64::from(u32::MAX), u64::from(u32::MAX), 0, 0, 0);
    big.extend_from_slice(&[0; 64]);
    assert!(matches!(err(&big), FormatError::DirectoryOverflow { .. }));
    // The directory alone runs past the end.
    assert!(matches!(
        err(&b[..KEYS_AT + 3]),
        FormatError::DirectoryOverflow { n: 2, .. }
    ));
}

#[test]
fn directory_errors() {
    // Keys relative to min's: 5 then 3, and 5 twice.
    let b = raw(
        &[(5, 1, lows(&[1])), (3, 1, lows(&[1]))],
        2,
        (3 << 16) | 1,
        (5 << 16) | 1,
    );
    assert_eq!(err(&b), FormatError::KeysNotIncreasing { index: 1 });
    let b = raw(
        &[(5, 1, lows(&[1])), (5, 1, lows(&[2]))],
        2,
        (5 << 16) | 1,
        (5 << 16) | 2,
    );
    assert_eq!(err(&b), FormatError::KeysNotIncreasing { index: 1 });

    // Container 1's offset moves back to 0, or past the end.
    let mut b = sample_runs();
    assert_eq!(b[OFFSETS_AT], 2);
    b[OFFSETS_AT] = 0;
    assert_eq!(err(&b), FormatError::OffsetsNotIncreasing { index: 1 });
    let mut b = sample_runs();
    b[OFFSETS_AT] = 200;
    assert_eq!(err(&b), FormatError::OffsetsNotIncreasing { index: 1 });
    // Container 1's offset moves by 2: container 0 becomes 6 bytes, one more
    // value than it says, and container 1 ends up empty.
    let mut b = sample_runs();
    b[OFFSETS_AT] += 1;
    assert!(RoaringView::from_bytes(&b).is_err());
    // Where no offsets are stored, a cardinality one too large or too small
    // moves every later payload: the payloads no longer end with the buffer.
    let mut b = sample();
    b[KEYS_AT + 3] = 1;
    assert!(RoaringView::from_bytes(&b).is_err());
    let mut b = sample();
    b[KEYS_AT + 2] = 0;
    assert!(RoaringView::from_bytes(&b).is_err());

    // The count before block 1 of 130 one-value containers.
    let containers: Vec<Raw> = (0..130).map(|k| (k, 1, lows(&[5]))).collect();
    let good = raw(&containers, 130, 5, (129 << 16) | 5);
    assert_eq!(
        good,
        from_sorted(&(0..130).map(|k| k << 16 | 5).collect::<Vec<_>>()).unwrap()
    );
    // Two counts of 1 byte, before 130 payloads of 2 bytes.
    let counts_at = good.len() - 2 * 130 - 2;
    assert_eq!(&good[counts_at..counts_at + 2], &[64, 128]);
    let mut b = good.clone();
    b[counts_at + 1] = 127;
    assert_eq!(
        err(&b),
        FormatError::CountMismatch {
            block: 2,
            stored: 127,
            actual: 128
        }
    );
}

#[test]
fn payload_errors() {
    // Array not strictly increasing (duplicate and descending).
    let b = raw(&[(0, 2, lows(&[3, 2]))], 2, 2, 3);
    assert_eq!(
        err(&b),
        FormatError::ArrayNotIncreasing {
            index: 0,
            offset: payload_of_one(2, 2, 3) + 2
        }
    );
    let b = raw(&[(0, 2, lows(&[3, 3]))], 2, 3, 3);
    assert!(matches!(err(&b), FormatError::ArrayNotIncreasing { .. }));

    // Bitmap whose popcount differs from the directory.
    let many: Vec<u16> = (0..5000).map(|x| x * 2).collect();
    let b = raw(&[(0, 4999, bitmap(&many))], 4999, 0, 9998);
    assert_eq!(
        err(&b),
        FormatError::CardinalityMismatch {
            index: 0,
            declared: 4999,
            actual: 5000
        }
    );
    // Run sum differs from the directory.
    let b = raw(&[(0, 9, runs(&[(0, 9)]))], 9, 0, 9);
    assert!(matches!(err(&b), FormatError::CardinalityMismatch { .. }));

    // Runs: adjacent, overlapping, unsorted, overflowing, bad size.
    let b = raw(&[(0, 30, runs(&[(0, 9), (10, 19)]))], 30, 0, 29);
    assert_eq!(
        err(&b),
        FormatError::RunsNotSeparated {
            index: 0,
            offset: payload_of_one(30, 0, 29) + 4
        }
    );
    let b = raw(&[(0, 30, runs(&[(0, 9), (5, 19)]))], 30, 0, 24);
    assert!(matches!(err(&b), FormatError::RunsNotSeparated { .. }));
    let b = raw(&[(0, 30, runs(&[(100, 9), (0, 19)]))], 30, 0, 109);
    assert!(matches!(err(&b), FormatError::RunsNotSeparated { .. }));
    let b = raw(&[(0, 10, runs(&[(65530, 9)]))], 10, 65530, 65539);
    assert_eq!(
        err(&b),
        FormatError::RunOverflow {
            index: 0,
            offset: payload_of_one(10, 65530, 65539)
        }
    );
    let mut p = runs(&[(0, 9)]);
    p.extend_from_slice(&[0, 0]);
    let b = raw(&[(0, 10, p)], 10, 0, 9);
    assert_eq!(
        err(&b),
        FormatError::BadRunPayloadSize { index: 0, size: 6 }
    );
    // An empty payload in the middle: container 1 starts where 0 does.
    let b = raw(
        &[(0, 1, Vec::new()), (1, 10, runs(&[(0, 9)]))],
        11,
        0,
        65545,
    );
    assert_eq!(err(&b), FormatError::OffsetsNotIncreasing { index: 1 });
}

#[test]
fn non_canonical_kinds() {
    // An array that should be a run: 4 values in 1 run (4 < 8).
    let b = raw(&[(0, 4, lows(&[1, 2, 3, 4]))], 4, 1, 4);
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
    let b = raw(&[(0, 2, runs(&[(1, 0), (3, 0)]))], 2, 1, 3);
    assert!(matches!(
        err(&b),
        FormatError::NonCanonicalKind {
            expected: Kind::Array,
            ..
        }
    ));
    // The tie: a run payload the size of the array reads as the array [1, 1].
    let b = raw(&[(0, 2, runs(&[(1, 1)]))], 2, 1, 2);
    assert_eq!(
        err(&b),
        FormatError::ArrayNotIncreasing {
            index: 0,
            offset: payload_of_one(2, 1, 2) + 2
        }
    );
    // A bitmap of 4096 values is the size of their array, so it reads as one.
    let few: Vec<u16> = (0..4096).map(|x| x * 3).collect();
    let b = raw(&[(0, 4096, bitmap(&few))], 4096, 0, 4095 * 3);
    assert!(matches!(
        err(&b),
        FormatError::ArrayNotIncreasing { index: 0, .. }
    ));
    // An array cannot hold 4097 values: 8194 bytes read as runs.
    let many: Vec<u16> = (0..4097).map(|x| x * 3).collect();
    let b = raw(&[(0, 4097, lows(&many))], 4097, 0, 4096 * 3);
    assert_eq!(
        err(&b),
        FormatError::BadRunPayloadSize {
            index: 0,
            size: 8194
        }
    );
    // A full container as a bitmap instead of one run.
    let all: Vec<u16> = (0..=u16::MAX).collect();
    let b = raw(&[(0, 65536, bitmap(&all))], 65536, 0, 65535);
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
            &[(0, 100, lows(&vals))],
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
        let b = at_odd(&raw(&[(0, 200, lows(&v))], 200, 1, 399));
        assert_eq!(
            RoaringView::from_bytes(&b[1..]).map(|v| v.len()),
            Err(FormatError::ArrayNotIncreasing {
                index: 0,
                offset: payload_of_one(200, 1, 399) + 2 * p
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
    let b = raw(&[(0, 6142, bitmap(&with_zero))], 6142, 0, max);
    assert_eq!(
        RoaringView::from_bytes(&at_odd(&b)[1..]).map(|v| v.len()),
        Ok(6142)
    );
    let b = raw(&[(0, 6141, bitmap(&crossing))], 6141, 30, max);
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
    b[CARD_AT] = 4;
    assert_eq!(
        err(&b),
        FormatError::CardinalityHeader {
            header: 4,
            actual: 3
        }
    );
    let mut b = sample();
    b[MIN_AT] = 2;
    assert_eq!(
        err(&b),
        FormatError::MinHeader {
            header: 2,
            actual: 1
        }
    );
    // max - min = 65542 = 0x06 0x00 0x01; one less.
    let mut b = sample();
    assert_eq!(b[SPAN_AT..SPAN_AT + 3], [0x06, 0x00, 0x01]);
    b[SPAN_AT] = 0x05;
    assert_eq!(
        err(&b),
        FormatError::MaxHeader {
            header: 65542,
            actual: 65543
        }
    );
    assert_eq!(b[KEYS_AT..KEYS_AT + 2], [0, 1]);
}

#[derive(Clone, Debug)]
enum Mutation {
    Flip { at: usize, xor: u8 },
    Set { at: usize, byte: u8 },
    Truncate { keep: usize },
    Extend { bytes: Vec<u8> },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<usize>(), 1..=255u8).prop_map(|(at, xor)| Mutation::Flip { at, xor }),
        2 => (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Mutation::Set { at, byte }),
        1 => any::<usize>().prop_map(|keep| Mutation::Truncate { keep }),
        1 => prop::collection::vec(any::<u8>(), 1..20).prop_map(|bytes| Mutation::Extend { bytes }),
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
        Mutation::Truncate { keep } => b.truncate(keep % (b.len() + 1)),
        Mutation::Extend { bytes } => b.extend_from_slice(bytes),
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
        let mut b = head(u64::from(n) * 3, u64::from(n), u64::from(n) << 16, u64::from(n) << 20, 0);
        b.extend_from_slice(&tail);
        check_consistent(&b);
        check_consistent(&tail);
    }
}

/// A container as raw material: how to build its payload, lows, and whether to keep the lows
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
    ((key, card, payload), values)
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
        // Format 2 stores no kind: a container's kind follows from its cardinality
        // and payload size. With a cardinality off by `card_err`, the same bytes may
        // be a valid container of another kind (two array values with cardinality 4
        // are one run of 4), so only honest cardinalities predict the values.
        let mut honest = true;
        for p in parts {
            key += p.0;
            let (c, v) = encode_raw(key, p);
            honest &= c.1 as usize == v.len();
            containers.push(c);
            values.extend(v);
        }
        let card = containers.iter().map(|c| u64::from(c.1)).sum();
        let min = values.first().copied().unwrap_or(0);
        let max = values.last().copied().unwrap_or(0);
        let b = raw(&containers, card, min, max);
        check_consistent(&b);
        if let Ok(v) = RoaringView::from_bytes(&b) {
            if honest {
                prop_assert_eq!(v.iter().collect::<Vec<_>>(), values);
            } else {
                prop_assert_eq!(v.iter().count() as u64, v.len());
            }
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
