//! The standard portable format: round trips, the kinds written, every import
//! error, and mutated inputs.

mod common;

use common::door::portable::{
    from_portable, from_portable_writer, looks_like_portable, portable_len, to_portable,
    write_portable_into,
};
use common::door::spec::{
    portable_kind, NO_OFFSET_THRESHOLD, SERIAL_COOKIE, SERIAL_COOKIE_NO_RUNCONTAINER,
};
use common::{build, model, Model};
use proptest::prelude::*;
use sroar::PortableError;
use sroar::{Kind, RoaringView};

// ---- a small independent encoder, for inputs of any container kind ----

/// A container as a test writes it: any kind, any content.
#[derive(Clone, Debug)]
enum C {
    Array(Vec<u16>),
    Bitmap(Vec<u16>),
    /// Runs as `(start, len_minus_1)`.
    Run(Vec<(u16, u16)>),
}

impl C {
    fn card(&self) -> u32 {
        match self {
            C::Array(v) | C::Bitmap(v) => v.len() as u32,
            C::Run(r) => r.iter().map(|&(_, l)| u32::from(l) + 1).sum(),
        }
    }

    fn payload(&self) -> Vec<u8> {
        match self {
            C::Array(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            C::Bitmap(v) => {
                let mut words = [0u64; 1024];
                for &x in v {
                    words[usize::from(x >> 6)] |= 1 << (x & 63);
                }
                words.iter().flat_map(|w| w.to_le_bytes()).collect()
            }
            C::Run(r) => {
                let mut out = (r.len() as u16).to_le_bytes().to_vec();
                for &(s, l) in r {
                    out.extend(s.to_le_bytes());
                    out.extend(l.to_le_bytes());
                }
                out
            }
        }
    }
}

/// A 32-bit portable bitmap; `run_cookie` forces cookie 12347 without run containers.
fn encode32(containers: &[(u16, C)], run_cookie: bool) -> Vec<u8> {
    let size = containers.len();
    let has_run = run_cookie || containers.iter().any(|(_, c)| matches!(c, C::Run(_)));
    let mut out = Vec::new();
    if has_run {
        out.extend((u32::from(SERIAL_COOKIE) | ((size as u32 - 1) << 16)).to_le_bytes());
        let mut flags = vec![0u8; size.div_ceil(8)];
        for (i, (_, c)) in containers.iter().enumerate() {
            if matches!(c, C::Run(_)) {
                flags[i / 8] |= 1 << (i % 8);
            }
        }
        out.extend(flags);
    } else {
        out.extend(SERIAL_COOKIE_NO_RUNCONTAINER.to_le_bytes());
        out.extend((size as u32).to_le_bytes());
    }
    for (k, c) in containers {
        out.extend(k.to_le_bytes());
        out.extend(((c.card() - 1) as u16).to_le_bytes());
    }
    let payloads: Vec<Vec<u8>> = containers.iter().map(|(_, c)| c.payload()).collect();
    if !has_run || size >= NO_OFFSET_THRESHOLD {
        let mut off = out.len() + 4 * size;
        for p in &payloads {
            out.extend((off as u32).to_le_bytes());
            off += p.len();
        }
    }
    for p in payloads {
        out.extend(p);
    }
    out
}

fn encode64(buckets: &[(u32, Vec<u8>)]) -> Vec<u8> {
    let mut out = (buckets.len() as u64).to_le_bytes().to_vec();
    for (high, b) in buckets {
        out.extend(high.to_le_bytes());
        out.extend(b);
    }
    out
}

fn model_of(values: impl IntoIterator<Item = u64>) -> Model {
    values.into_iter().collect()
}

/// Checks the whole export/import cycle of one set and returns its portable bytes.
fn round_trip(m: &Model) -> Vec<u8> {
    let ours = build(m);
    let view = RoaringView::from_bytes(&ours).unwrap();
    let p = to_portable(&view);
    assert_eq!(p.len(), portable_len(&view));
    let mut again = vec![0u8; p.len()];
    write_portable_into(&view, &mut again);
    assert_eq!(again, p);
    assert!(looks_like_portable(&p));
    assert!(!looks_like_portable(&ours));
    let back = from_portable(&p).unwrap_or_else(|e| panic!("own portable output rejected: {e}"));
    assert!(back == ours, "portable round trip changed the bytes");
    assert_eq!(from_portable_writer(&p).unwrap().into_vec().unwrap(), ours);
    p
}

/// The kinds of the containers of a valid portable buffer, in order.
fn portable_kinds(p: &[u8]) -> Vec<Kind> {
    let u32_at = |at: usize| u32::from_le_bytes(p[at..at + 4].try_into().unwrap());
    let u16_at = |at: usize| u16::from_le_bytes(p[at..at + 2].try_into().unwrap());
    let buckets = u64::from_le_bytes(p[..8].try_into().unwrap());
    let mut pos = 8;
    let mut kinds = Vec::new();
    for _ in 0..buckets {
        pos += 4;
        let cookie = u32_at(pos);
        let (size, flags_at, descr_at) = if cookie == SERIAL_COOKIE_NO_RUNCONTAINER {
            (u32_at(pos + 4) as usize, None, pos + 8)
        } else {
            let size = (cookie >> 16) as usize + 1;
            (size, Some(pos + 4), pos + 4 + size.div_ceil(8))
        };
        let offsets = flags_at.is_none() || size >= NO_OFFSET_THRESHOLD;
        pos = descr_at + 4 * size + if offsets { 4 * size } else { 0 };
        for i in 0..size {
            let card = u32::from(u16_at(descr_at + 4 * i + 2)) + 1;
            let run = flags_at.is_some_and(|f| p[f + i / 8] >> (i % 8) & 1 == 1);
            let kind = if run {
                pos += 2 + 4 * usize::from(u16_at(pos));
                Kind::Run
            } else if card <= 4096 {
                pos += 2 * card as usize;
                Kind::Array
            } else {
                pos += 8192;
                Kind::Bitmap
            };
            kinds.push(kind);
        }
    }
    assert_eq!(pos, p.len());
    kinds
}

/// `runs` runs of `run_len` values each, `gap` apart, in the container of `key`.
fn pattern(key: u64, run_len: u64, gap: u64, runs: u64) -> Vec<u64> {
    let mut v = Vec::new();
    let mut x = 0;
    for _ in 0..runs {
        v.extend((x..x + run_len).map(|low| (key << 16) | low));
        x += run_len + gap;
    }
    v
}

// ---- round trips ----

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn round_trips(m in model()) {
        let p = round_trip(&m);
        // Every container is in the kind the reference rule picks.
        let ours = build(&m);
        let view = RoaringView::from_bytes(&ours).unwrap();
        let want: Vec<Kind> = view
            .containers()
            .map(|(_, c)| portable_kind(c.len() as u32, c.count_runs()))
            .collect();
        prop_assert_eq!(portable_kinds(&p), want);
    }
}

#[test]
fn edges_round_trip() {
    let sets: Vec<Model> = vec![
        Model::new(),
        model_of([0]),
        model_of([u64::MAX]),
        model_of([0, u64::MAX]),
        model_of(0..1 << 16),
        model_of((1 << 16) - 3..(1 << 16) + 3),
        model_of((1 << 32) - 3..(1 << 32) + 3),
        model_of((1 << 48) - 3..(1 << 48) + 3),
        model_of(u64::MAX - 70_000..=u64::MAX),
        model_of((0..5000).map(|i| i * 3)),
        model_of((0..70_000).map(|i| (i * 7919) % (1 << 20))),
        // One bucket with more than 8 containers (two run-flag bytes).
        model_of((0..20).flat_map(|k| [k << 16, (k << 16) + 1, (k << 16) + 2])),
    ];
    for m in &sets {
        round_trip(m);
    }
}

#[test]
fn kind_ties() {
    use Kind::*;
    let cases: Vec<(Vec<u64>, Kind)> = vec![
        // card == 2 * nruns: array (sizes 2c vs 2 + 4r).
        (pattern(0, 2, 1, 5), Array),
        (pattern(0, 2, 1, 2048), Array),
        // card == 2 * nruns + 1: a run in sroar, an array in the portable format.
        (pattern(0, 3, 1, 1), Array),
        (
            (0..3)
                .chain((0..1000).flat_map(|i| [4 + 3 * i, 5 + 3 * i]))
                .collect(),
            Array,
        ),
        // card == 2 * nruns + 2: run.
        (pattern(0, 4, 1, 1), Run),
        // card 4096 vs 4097 with many runs.
        (pattern(0, 1, 1, 4096), Array),
        (pattern(0, 1, 1, 4097), Bitmap),
        // 2047 vs 2048 runs above 4096 values.
        (pattern(0, 3, 1, 2047), Run),
        (pattern(0, 3, 1, 2048), Bitmap),
        // 4097 values in 2047 runs: run; the same plus one run: bitmap.
        (
            pattern(0, 2, 1, 2046)
                .into_iter()
                .chain(60_000..60_005)
                .collect(),
            Run,
        ),
        (
            pattern(0, 2, 1, 2046)
                .into_iter()
                .chain(60_000..60_005)
                .chain([62_000])
                .collect(),
            Bitmap,
        ),
        // Full container.
        ((0..1 << 16).collect(), Run),
    ];
    for (values, kind) in cases {
        let m = model_of(values.iter().map(|v| v % (1 << 16)));
        let p = round_trip(&m);
        assert_eq!(portable_kinds(&p), [kind], "{} values", m.len());
    }
}

// ---- non-canonical but valid inputs ----

#[test]
fn accepts_any_kind() {
    let lows: Vec<u16> = (100..5100).collect();
    let inputs: Vec<(Vec<u8>, Model)> = vec![
        // A bitmap holding one long run, and an array of consecutive values.
        (
            encode64(&[(
                7,
                encode32(
                    &[
                        (1, C::Bitmap(lows.clone())),
                        (2, C::Array((0..10).collect())),
                    ],
                    false,
                ),
            )]),
            model_of(
                lows.iter()
                    .map(|&l| (7 << 32) | (1 << 16) | u64::from(l))
                    .chain((0..10).map(|l| (7 << 32) | (2 << 16) | l)),
            ),
        ),
        // A run container of single values, with and without offsets.
        (
            encode64(&[(
                0,
                encode32(&[(0, C::Run(vec![(1, 0), (5, 0), (9, 0)]))], false),
            )]),
            model_of([1, 5, 9]),
        ),
        (
            encode64(&[(
                0,
                encode32(
                    &(0..5)
                        .map(|k| (k, C::Run(vec![(1, 0), (5, 0)])))
                        .collect::<Vec<_>>(),
                    false,
                ),
            )]),
            model_of((0..5u64).flat_map(|k| [(k << 16) | 1, (k << 16) | 5])),
        ),
        // Cookie 12347 with no run container, below and above the offset threshold.
        (
            encode64(&[(3, encode32(&[(0, C::Array(vec![4, 8]))], true))]),
            model_of([(3 << 32) | 4, (3 << 32) | 8]),
        ),
        (
            encode64(&[(
                3,
                encode32(
                    &(0..6).map(|k| (k, C::Array(vec![k]))).collect::<Vec<_>>(),
                    true,
                ),
            )]),
            model_of((0..6u64).map(|k| (3 << 32) | (k << 16) | k)),
        ),
        // Empty buckets produce nothing.
        (
            encode64(&[
                (1, encode32(&[], false)),
                (2, encode32(&[(9, C::Array(vec![1]))], false)),
                (u32::MAX, encode32(&[], false)),
            ]),
            model_of([(2 << 32) | (9 << 16) | 1]),
        ),
    ];
    for (i, (bytes, m)) in inputs.iter().enumerate() {
        let got = from_portable(bytes).unwrap_or_else(|e| panic!("input {i}: {e}"));
        assert!(got == build(m), "input {i}: not the canonical buffer");
    }
}

// ---- every error ----

fn err(bytes: &[u8]) -> PortableError {
    match from_portable(bytes) {
        Ok(_) => panic!("accepted malformed input"),
        Err(e) => {
            // The message names the problem and, when there is one, its byte.
            let msg = e.to_string();
            assert!(
                msg.starts_with("invalid portable roaring bitmap: "),
                "{msg}"
            );
            if let Some(o) = e.offset() {
                assert!(msg.contains(&format!("byte {o}")), "{msg}");
            }
            e
        }
    }
}

#[test]
fn errors() {
    use PortableError::*;
    let one = encode64(&[(5, encode32(&[(1, C::Array(vec![1, 2, 9]))], false))]);
    // one: count 0..8, high 8..12, cookie 12..16, size 16..20, descr 20..24,
    // offset 24..28, payload 28..34.

    assert!(matches!(
        err(&[]),
        Truncated {
            offset: 0,
            what: "bucket count",
            ..
        }
    ));
    assert!(matches!(err(&one[..7]), Truncated { offset: 0, .. }));
    for cut in 8..one.len() {
        assert!(
            matches!(err(&one[..cut]), Truncated { .. } | TooManyBuckets { .. }),
            "cut {cut}"
        );
    }
    assert!(matches!(
        err(&one[..33]),
        Truncated {
            offset: 28,
            what: "array container",
            ..
        }
    ));

    let mut extra = one.clone();
    extra.push(0);
    assert!(matches!(
        err(&extra),
        TrailingBytes {
            offset: 34,
            len: 35
        }
    ));
    assert!(matches!(err(&[0; 9]), TrailingBytes { offset: 8, len: 9 }));

    let mut many = one.clone();
    many[..8].copy_from_slice(&3u64.to_le_bytes());
    assert!(matches!(err(&many), TooManyBuckets { count: 3, max: 2 }));
    many[..8].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(matches!(err(&many), TooManyBuckets { .. }));
    // A sroar buffer is never read as a portable one.
    let ours = build(&model_of([1, 2, 3]));
    assert!(matches!(err(&ours), TooManyBuckets { .. }));

    let mut cookie = one.clone();
    cookie[12..16].copy_from_slice(&12345u32.to_le_bytes());
    assert!(matches!(
        err(&cookie),
        UnknownCookie {
            offset: 12,
            cookie: 12345
        }
    ));

    let mut size = one.clone();
    size[16..20].copy_from_slice(&65537u32.to_le_bytes());
    assert!(matches!(
        err(&size),
        TooManyContainers {
            offset: 16,
            count: 65537
        }
    ));
    size[16..20].copy_from_slice(&65536u32.to_le_bytes());
    assert!(matches!(err(&size), Truncated { offset: 20, .. }));

    // 3 containers with cookie 12347: flag byte at 16, bit 3 set is padding.
    let runs = encode64(&[(
        0,
        encode32(
            &[
                (0, C::Run(vec![(0, 3)])),
                (1, C::Array(vec![1])),
                (2, C::Array(vec![2])),
            ],
            false,
        ),
    )]);
    assert!(err_free(&runs));
    let mut pad = runs.clone();
    pad[16] |= 1 << 3;
    assert!(matches!(err(&pad), RunFlagPadding { offset: 16 }));

    let two = encode64(&[(5, encode32(&[], false)), (5, encode32(&[], false))]);
    assert!(matches!(
        err(&two),
        BucketKeyOrder {
            offset: 20,
            key: 5,
            previous: 5
        }
    ));
    let two = encode64(&[(6, encode32(&[], false)), (5, encode32(&[], false))]);
    assert!(matches!(
        err(&two),
        BucketKeyOrder {
            offset: 20,
            key: 5,
            previous: 6
        }
    ));

    let keys = encode64(&[(
        0,
        encode32(&[(4, C::Array(vec![1])), (4, C::Array(vec![2]))], false),
    )]);
    assert!(matches!(
        err(&keys),
        ContainerKeyOrder {
            offset: 24,
            key: 4,
            previous: 4
        }
    ));
    let keys = encode64(&[(
        0,
        encode32(&[(4, C::Array(vec![1])), (3, C::Array(vec![2]))], false),
    )]);
    assert!(matches!(
        err(&keys),
        ContainerKeyOrder {
            offset: 24,
            key: 3,
            previous: 4
        }
    ));

    let mut off = one.clone();
    off[24..28].copy_from_slice(&21u32.to_le_bytes());
    assert!(matches!(
        err(&off),
        BadOffset {
            offset: 24,
            found: 21,
            expected: 16
        }
    ));

    let mut card = one.clone();
    card[22..24].copy_from_slice(&1u16.to_le_bytes()); // 2 values declared, 3 stored
    assert!(matches!(err(&card), TrailingBytes { offset: 32, .. }));
    let bm = encode64(&[(0, encode32(&[(0, C::Bitmap((0..5000).collect()))], false))]);
    assert!(err_free(&bm));
    let mut bad = bm.clone();
    bad[28] ^= 1; // clear value 0 of the bitmap at byte 28
    assert!(matches!(
        err(&bad),
        CardinalityMismatch {
            offset: 28,
            declared: 5000,
            actual: 4999
        }
    ));
    // Runs: cookie 12..16, flags 16, descr 17..21, payload 21.. (run count 21..23, run 23..27).
    let run1 = encode64(&[(0, encode32(&[(0, C::Run(vec![(10, 4)]))], false))]);
    assert!(err_free(&run1));
    let mut bad = run1.clone();
    bad[19..21].copy_from_slice(&5u16.to_le_bytes());
    assert!(matches!(
        err(&bad),
        CardinalityMismatch {
            offset: 21,
            declared: 6,
            actual: 5
        }
    ));

    let mut arr = one.clone();
    arr[30..32].copy_from_slice(&1u16.to_le_bytes());
    assert!(matches!(err(&arr), ArrayNotIncreasing { offset: 30 }));
    arr[30..32].copy_from_slice(&0u16.to_le_bytes());
    assert!(matches!(err(&arr), ArrayNotIncreasing { offset: 30 }));

    let mut empty_run = run1.clone();
    empty_run[21..23].copy_from_slice(&0u16.to_le_bytes());
    assert!(matches!(err(&empty_run), EmptyRunContainer { offset: 21 }));

    let over = encode64(&[(0, encode32(&[(0, C::Run(vec![(65530, 6)]))], false))]);
    assert!(matches!(err(&over), RunOverflow { offset: 23 }));
    let edge = encode64(&[(0, encode32(&[(0, C::Run(vec![(65530, 5)]))], false))]);
    assert!(err_free(&edge));

    for runs in [
        vec![(10, 4), (15, 0)],
        vec![(10, 4), (12, 0)],
        vec![(10, 4), (2, 0)],
    ] {
        let b = encode64(&[(0, encode32(&[(0, C::Run(runs))], false))]);
        assert!(matches!(err(&b), RunsNotSeparated { offset: 27 }));
    }
    let sep = encode64(&[(0, encode32(&[(0, C::Run(vec![(10, 4), (16, 0)]))], false))]);
    assert!(err_free(&sep));
}

fn err_free(bytes: &[u8]) -> bool {
    match from_portable(bytes) {
        Ok(b) => RoaringView::from_bytes(&b).is_ok(),
        Err(e) => panic!("valid input rejected: {e}"),
    }
}

#[test]
fn too_large() {
    // 2^16 buckets of 2^16 one-value containers would pass 2^30 bytes in sroar form;
    // check only the error type on a cheap case: a Writer over the limit.
    let e = PortableError::from(sroar::CapacityError { needed: 1 << 30 });
    assert!(e.offset().is_none());
    assert!(e.to_string().contains("limit"));
}

#[test]
fn sniff() {
    assert!(!looks_like_portable(&[]));
    assert!(!looks_like_portable(&[0; 7]));
    assert!(looks_like_portable(&[0; 8]));
    assert!(!looks_like_portable(&[0; 9]));
    let one = encode64(&[(5, encode32(&[(1, C::Array(vec![1]))], false))]);
    assert!(looks_like_portable(&one));
    let run = encode64(&[(5, encode32(&[(1, C::Run(vec![(1, 1)]))], false))]);
    assert!(looks_like_portable(&run));
    let mut bad = one.clone();
    bad[12] ^= 0x10;
    assert!(!looks_like_portable(&bad));
    assert!(!looks_like_portable(&common::door::empty()));
    assert!(!looks_like_portable(&build(&model_of(0..100_000))));
}

// ---- mutated inputs ----

#[derive(Clone, Debug)]
enum Mutation {
    Xor(prop::sample::Index, u8),
    SetU32(prop::sample::Index, u32),
    Truncate(prop::sample::Index),
    Extend(Vec<u8>),
    Remove(prop::sample::Index, u8),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<prop::sample::Index>(), 1..=255u8).prop_map(|(i, x)| Mutation::Xor(i, x)),
        2 => (any::<prop::sample::Index>(), prop_oneof![0..70_000u32, any::<u32>()])
            .prop_map(|(i, v)| Mutation::SetU32(i, v)),
        1 => any::<prop::sample::Index>().prop_map(Mutation::Truncate),
        1 => prop::collection::vec(any::<u8>(), 1..12).prop_map(Mutation::Extend),
        1 => (any::<prop::sample::Index>(), 1..8u8).prop_map(|(i, n)| Mutation::Remove(i, n)),
    ]
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    if bytes.is_empty() {
        return;
    }
    // Half the byte-level mutations hit the first 64 bytes, where the headers are.
    let pick = |i: &prop::sample::Index, len: usize| {
        let j = i.index(2 * len);
        if j < len {
            j
        } else {
            (j - len) % len.min(64)
        }
    };
    match m {
        Mutation::Xor(i, x) => {
            let j = pick(i, bytes.len());
            bytes[j] ^= x;
        }
        Mutation::SetU32(i, v) => {
            let j = pick(i, bytes.len());
            for (k, b) in v.to_le_bytes().into_iter().enumerate() {
                if let Some(slot) = bytes.get_mut(j + k) {
                    *slot = b;
                }
            }
        }
        Mutation::Truncate(i) => {
            let j = i.index(bytes.len());
            bytes.truncate(j);
        }
        Mutation::Extend(v) => bytes.extend(v),
        Mutation::Remove(i, n) => {
            let j = pick(i, bytes.len());
            let end = (j + usize::from(*n)).min(bytes.len());
            bytes.drain(j..end);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn mutated_inputs_never_panic(m in model(), muts in prop::collection::vec(mutation(), 1..4)) {
        let ours = build(&m);
        let mut p = to_portable(&RoaringView::from_bytes(&ours).unwrap());
        for mu in &muts {
            apply(&mut p, mu);
        }
        match from_portable(&p) {
            Ok(b) => {
                prop_assert!(RoaringView::from_bytes(&b).is_ok());
                // An accepted input is a set; exporting it and reading back is stable.
                let again = to_portable(&RoaringView::from_bytes(&b).unwrap());
                prop_assert_eq!(from_portable(&again).unwrap(), b);
            }
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(!msg.is_empty());
                if let Some(o) = e.offset() {
                    prop_assert!(o <= p.len());
                }
            }
        }
        let _ = looks_like_portable(&p);
    }
}
