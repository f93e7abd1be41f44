//! Unit tests of the writer: canonical container kinds and shapes as written.

use super::*;
use crate::RoaringView;

/// Kind of the single container `lows` is stored as, through every push path.
fn stored_kind(lows: &[u16]) -> Kind {
    let mut words = [0u64; WORDS];
    for &v in lows {
        words[usize::from(v >> 6)] |= 1 << (v & 63);
    }
    let mut runs = Vec::new();
    bitmap::words_runs(&words, &mut runs);
    let runs: Vec<(u16, u16)> = runs.iter().map(|&(s, e)| (s, e - s)).collect();
    let mut out = Vec::new();
    for push in 0..3 {
        let mut w = Writer::new();
        match push {
            0 => w.push_sorted_lows(7, lows),
            1 => w.push_bitmap(7, &words),
            _ => w.push_runs(7, &runs),
        }
        let bytes = w.into_vec().unwrap();
        let v = RoaringView::from_bytes(&bytes).expect("canonical");
        assert_eq!(v.len(), lows.len() as u64);
        out.push(v.container(0).1.kind());
    }
    assert!(out.iter().all(|k| *k == out[0]));
    out[0]
}

fn pattern(runs: u16, run_len: u16, gap: u16) -> Vec<u16> {
    let mut v = Vec::new();
    for r in 0..runs {
        let s = r * (run_len + gap);
        v.extend(s..s + run_len);
    }
    v
}

#[test]
fn canonical_boundaries_as_written() {
    // card 4096 vs 4097, no runs to speak of.
    assert_eq!(stored_kind(&pattern(4096, 1, 1)), Kind::Array);
    assert_eq!(stored_kind(&pattern(4097, 1, 1)), Kind::Bitmap);
    // 4r == 2c ties go to array; one fewer run makes a run container.
    assert_eq!(stored_kind(&pattern(2, 2, 1)), Kind::Array);
    assert_eq!(stored_kind(&pattern(2048, 2, 1)), Kind::Array);
    // card 4096: r = 2048 ties (array), r = 2047 is smaller as runs.
    let mut v = pattern(2046, 2, 1);
    v.extend(7000..7004);
    assert_eq!((v.len(), stored_kind(&v)), (4096, Kind::Run));
    assert_eq!(stored_kind(&pattern(2047, 2, 1)), Kind::Array);
    assert_eq!(stored_kind(&[5, 6, 7]), Kind::Run);
    assert_eq!(stored_kind(&[5]), Kind::Array);
    // Above 4096 values: r = 2047 is a run, r = 2048 a bitmap.
    assert_eq!(stored_kind(&pattern(2047, 3, 1)), Kind::Run);
    assert_eq!(stored_kind(&pattern(2048, 3, 1)), Kind::Bitmap);
    assert_eq!(stored_kind(&pattern(1, 65535, 0)), Kind::Run);
}

#[test]
fn empty_containers_are_skipped() {
    let mut w = Writer::with_capacity(4, 64);
    w.push_sorted_lows(1, &[]);
    w.push_bitmap(2, &[0; WORDS]);
    w.push_runs(3, &[]);
    assert!(w.is_empty());
    assert_eq!(w.into_vec().unwrap(), crate::builder::empty());
}

/// A reservation is taken at the first push: a writer that gets no container
/// allocates nothing, and writes the empty set by every way out.
#[test]
fn an_unused_reservation_allocates_nothing() {
    let w = Writer::with_capacity(1000, 1 << 20);
    assert_eq!((w.arena.capacity(), w.entries.capacity()), (0, 0));
    let mut out = vec![0u8; w.encoded_len().unwrap()];
    w.write_into(&mut out).unwrap();
    assert_eq!(out, crate::builder::empty());
    assert_eq!(w.into_vec().unwrap(), crate::builder::empty());
    let mut w = Writer::with_capacity(1000, 1 << 20);
    w.push_sorted_lows(3, &[1, 2]);
    assert!(w.arena.capacity() >= head_len_bound(1000) + (1 << 20));
    assert_eq!(w.into_vec().unwrap(), crate::builder::from_sorted(&[3 << 16 | 1, 3 << 16 | 2]).unwrap());
}

#[test]
fn adjacent_runs_merge_and_copies_are_verbatim() {
    let mut w = Writer::new();
    w.push_runs(0, &[(0, 9), (10, 9), (40, 0)]);
    w.push_full(1);
    let bytes = w.into_vec().unwrap();
    let v = RoaringView::from_bytes(&bytes).unwrap();
    assert_eq!(v.len(), 21 + 65536);
    let mut copy = Writer::new();
    for (key, c) in v.containers() {
        copy.push_container(key, c);
    }
    assert_eq!(copy.encoded_len(), Ok(bytes.len()));
    assert_eq!(copy.into_vec().unwrap(), bytes);
}

/// The same containers through writers whose expected shape is exact, too
/// large (fewer containers, values or a narrower span arrive) and too small
/// (more arrive): the bytes are the same, and an exact expectation is the
/// directory's length, so `into_vec` moves nothing.
#[test]
fn expected_shapes_give_the_same_bytes() {
    // Keys spread over 5 bytes, values over 4 bytes of count, payload offsets
    // past 2^17 (wide), and a block of counts.
    let keys: Vec<u64> = (0..130u64).map(|i| i * 0x1_0000_0001 + 7).collect();
    let push = |mut w: Writer| {
        for (i, &k) in keys.iter().enumerate() {
            if i % 3 == 0 {
                w.push_full(k);
            } else {
                let lows: Vec<u16> = (0..(i as u16 * 31)).map(|x| x * 2).collect();
                w.push_sorted_lows(k, &lows);
            }
        }
        w
    };
    let reference = push(Writer::new());
    let len = reference.encoded_len().unwrap();
    let head = reference.plan().head_len();
    let (n, payload) = (keys.len(), reference.payload_len());
    let (card, min, max) = (reference.len(), reference.min, reference.max);
    assert_eq!(head_len_expected(n, payload, card, min, max), head);
    let mut expected = vec![0u8; len];
    reference.write_into(&mut expected).unwrap();
    for (containers, payload, card, min, max) in [
        (n, payload, card, min, max),
        (n + 200, payload * 2, card << 20, 0, u64::MAX),
        (n / 2, payload / 2, card / 2, min + 1, max - 1),
        (1, 2, 1, max, max),
        (0, 0, 0, 0, 0),
    ] {
        let w = push(Writer::with_expected(containers, payload, card, min, max));
        assert_eq!(w.into_vec().unwrap(), expected);
    }
    let v = RoaringView::from_bytes(&expected).unwrap();
    assert_eq!(v.len(), card);
}

/// A union's expected payload is its inputs' sum, which can pass what its
/// containers can hold: 16 bitmaps end below 2^17 bytes of offsets, where
/// 2-byte offsets stop, however large the sum. The expectation is then still
/// exact, and `into_vec` moves nothing.
#[test]
fn expected_offsets_are_bounded_by_the_containers() {
    let words: [u64; WORDS] = core::array::from_fn(|i| 0x5555_5555_5555_5555 ^ i as u64);
    let mut w = Writer::new();
    for key in 0..16 {
        w.push_bitmap(key, &words);
    }
    let head = w.plan().head_len();
    let (payload, card, min, max) = (w.payload_len(), w.len(), w.min, w.max);
    assert_eq!(payload, 16 * 8192);
    for sum in [payload, payload + 2, 2 * payload, 40 * payload] {
        assert_eq!(head_len_expected(16, sum, card, min, max), head, "{sum}");
    }
}

#[test]
#[should_panic(expected = "pushed after")]
fn keys_must_increase() {
    let mut w = Writer::new();
    w.push_sorted_lows(5, &[1]);
    w.push_sorted_lows(5, &[2]);
}

/// Runs that overlap or go backwards are refused wherever they are in the list
/// (the check is one minimum over all gaps); touching runs are merged.
#[test]
fn runs_must_ascend_without_overlap() {
    let bad: [&[(u16, u16)]; 4] = [
        &[(0, 10), (10, 0)],
        &[(5, 0), (3, 0)],
        &[(0, 0), (2, 0), (4, 0), (6, 0), (8, 0), (10, 3), (12, 0)],
        &[(100, 0), (200, 0), (300, 0), (400, 0), (500, 0), (600, 0), (700, 0), (800, 0), (50, 0)],
    ];
    for runs in bad {
        let refused = std::panic::catch_unwind(|| Writer::new().push_runs(0, runs));
        assert!(refused.is_err(), "{runs:?} accepted");
    }
    let mut w = Writer::new();
    w.push_runs(0, &[(0, 0), (2, 0), (4, 0), (5, 0), (8, 0), (10, 0), (12, 0), (14, 0), (15, 2)]);
    let bytes = w.into_vec().unwrap();
    let v = RoaringView::from_bytes(&bytes).unwrap();
    let values: Vec<u64> = v.iter().collect();
    assert_eq!(values, [0, 2, 4, 5, 8, 10, 12, 14, 15, 16, 17]);
}

/// The bytes of `fill` pushed into `w`, copied out as a caller of `write_into`
/// does; `w` is handed back for the next writer.
fn write_out(mut w: Writer, fill: impl FnOnce(&mut Writer)) -> Vec<u8> {
    fill(&mut w);
    let mut out = vec![0u8; w.encoded_len().unwrap()];
    w.write_into(&mut out).unwrap();
    w.recycle(usize::MAX);
    out
}

#[test]
fn a_kept_buffer_writes_what_a_fresh_one_writes() {
    // A first result of 200 bitmaps of set bits leaves its buffer full of them.
    let ones = [u64::MAX >> 1; WORDS];
    let first = write_out(Writer::with_capacity(200, 200 * 8192), |w| {
        for key in 0..200 {
            w.push_bitmap(key, &ones);
        }
    });
    assert_eq!(RoaringView::from_bytes(&first).unwrap().len(), 200 * 63 * 1024);
    let kept = Writer::spare_bytes();
    assert!(kept >= 200 * 8192, "kept {kept} bytes");

    // The next one keeps more room for its directory and writes arrays and runs
    // over those bits, at the keys of 0, 2^16, 2^32, 2^48, 2^63 and the last one.
    let keys = [0, 1 << 16, 1 << 32, 1 << 47];
    let fill = |w: &mut Writer| {
        for (i, key) in keys.iter().enumerate() {
            w.push_sorted_lows(*key, &pattern(3 + i as u16, 2, 5));
            w.push_runs(key + 1, &[(0, 1000), (2000, 65_535 - 2000)]);
        }
        w.push_sorted_lows((1 << 48) - 1, &[0, 1, 65_535]);
        assert_eq!(Writer::spare_bytes(), 0, "taken by the writer");
    };
    let reused = write_out(Writer::with_capacity(300, 100 * 8192), fill);
    assert!(Writer::spare_bytes() >= kept, "handed back after use");
    Writer::release_spare();
    assert_eq!(Writer::spare_bytes(), 0);
    let fresh = write_out(Writer::with_capacity(300, 100 * 8192), fill);
    assert_eq!(reused, fresh);
    assert!(RoaringView::from_bytes(&reused).unwrap().contains(u64::MAX));
}

#[test]
fn small_or_oversized_buffers_are_not_kept() {
    let bitmap = |w: &mut Writer| w.push_bitmap(3, &[1; WORDS]);
    write_out(Writer::with_capacity(1, 8192), bitmap);
    assert_eq!(Writer::spare_bytes(), 0, "8 kB comes from the allocator's lists");

    let mut big = Writer::with_capacity(64, 64 * 8192);
    for key in 0..64 {
        big.push_bitmap(key, &[1; WORDS]);
    }
    big.recycle(64 << 10);
    assert_eq!(Writer::spare_bytes(), 0, "over the caller's limit");
}

#[test]
fn a_kept_buffer_too_small_for_the_next_writer_stays_kept() {
    let mut w = Writer::with_capacity(32, 32 * 8192);
    for key in 0..32 {
        w.push_bitmap(key, &[5; WORDS]);
    }
    w.recycle(usize::MAX);
    let kept = Writer::spare_bytes();
    assert!(kept >= 32 * 8192);
    let mut bigger = Writer::with_capacity(64, 64 * 8192);
    bigger.push_bitmap(0, &[5; WORDS]);
    assert_eq!(Writer::spare_bytes(), kept, "not taken");
    bigger.recycle(usize::MAX);
    assert!(Writer::spare_bytes() >= 64 * 8192, "the larger one replaces it");
}

#[test]
fn only_short_entry_lists_are_kept_for_the_next_writer() {
    let mut long = Writer::new();
    for key in 0..5000 {
        long.push_sorted_lows(key, &[7]);
    }
    let bytes = long.into_vec().unwrap();
    assert_eq!(spare::kept_entries(), 0, "5000 entries are freed");
    let mut short = Writer::with_capacity(3, 6);
    short.push_sorted_lows(9, &[1, 2]);
    drop(short);
    let kept = spare::kept_entries();
    assert!(kept >= 3, "kept {kept}");
    // The next writer starts from the kept list, emptied.
    let mut next = Writer::with_capacity(2, 4);
    next.push_sorted_lows(4, &[5]);
    assert_eq!(spare::kept_entries(), 0, "taken");
    assert_eq!(next.container_count(), 1);
    let v = next.into_vec().unwrap();
    assert_eq!(RoaringView::from_bytes(&v).unwrap().iter().collect::<Vec<_>>(), [4 << 16 | 5]);
    assert_eq!(RoaringView::from_bytes(&bytes).unwrap().len(), 5000);
}
