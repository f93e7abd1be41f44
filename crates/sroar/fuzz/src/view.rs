//! Every query and every producing operation of one valid view.
//!
//! Queries are checked against each other (rank, select, index, iteration, range
//! counts) and, for sets of at most [`MODEL_MAX`] values, against the full list of
//! values. Each producing operation's output must validate, and is tied back to the
//! input by identities that hold byte for byte, since a set has one encoding:
//! `flip(r).flip(r) == self`, `fill(r).clear(r) == clear(r)`, `shift(d).shift(-d) ==
//! range(survivors)`, `toggle_top_bit` twice, the portable round trip.

use crate::door::portable::{from_portable, portable_len, to_portable};
use crate::door::{empty, from_sorted};
use sroar::{looks_like_portable, RoaringView};

use crate::input::PARAMS;
use crate::{valid, view};

/// Sets of at most this many values are checked against their list of values.
pub const MODEL_MAX: u64 = 1 << 16;
/// Values compared at each end of a larger set, and of each `iter_from`.
const ENDS: usize = 64;
/// Widest range that `fill` and `flip` get: 64 containers.
const WIDE: u64 = 1 << 22;
/// Most probes used by the producing operations.
const EDIT_PROBES: usize = 8;

/// Runs every check on `v`, with probes, ranges and shifts derived from `params`.
pub fn check(v: &RoaringView<'_>, params: &[u64; PARAMS]) {
    let probes = probes(v, params);
    header(v);
    stats(v);
    for &x in &probes {
        probe(v, x);
    }
    probe_pairs(v, &probes);
    if v.len() <= MODEL_MAX {
        model(v, &probes, params);
    } else {
        ends(v);
    }
    edits(v, &probes[probes.len().saturating_sub(EDIT_PROBES)..]);
    ranges(v, params);
    shifts(v, params);
    toggle(v, &probes);
    portable(v);
}

/// A value with the key of one of `v`'s containers (picked by `p >> 16`) and the low
/// 16 bits of `p`; `p` itself when `v` is empty. Random `u64`s almost never land in a
/// container; these do, half the time on a value of the set.
pub fn keyed(v: &RoaringView<'_>, p: u64) -> u64 {
    match v.container_count() {
        0 => p,
        n => (v.key((p >> 16) as usize % n) << 16) | (p & 0xFFFF),
    }
}

/// A set close to `v`: `v` with a range flipped and a few values toggled, the
/// range and values picked by the parameters.
pub fn neighbour(v: &RoaringView<'_>, params: &[u64; PARAMS]) -> Vec<u8> {
    let first = keyed(v, params[1]);
    let last = first.saturating_add(params[0] % WIDE);
    let flipped = valid(
        v.flip(first..=last),
        &format_args!("flip({first}..={last})"),
    );
    let fv = view(&flipped);
    let xs = [
        keyed(v, params[2]),
        keyed(v, params[3]),
        keyed(v, params[3].rotate_left(16)),
    ];
    let (add, drop): (Vec<u64>, Vec<u64>) = xs.iter().partition(|&&x| !fv.contains(x));
    let added = valid(fv.insert_many(&add), &"insert_many");
    valid(view(&added).remove_many(&drop), &"remove_many")
}

/// The values to query: the edges of the u64 line and of the set, each parameter,
/// each parameter moved into a container, and a value of the set picked by each
/// parameter with its two neighbours. The parameter-derived ones come last.
pub fn probes(v: &RoaringView<'_>, params: &[u64; PARAMS]) -> Vec<u64> {
    let mut out = vec![
        0,
        1,
        0xFFFF,
        0x1_0000,
        (1 << 63) - 1,
        1 << 63,
        u64::MAX - 1,
        u64::MAX,
    ];
    if let (Some(lo), Some(hi)) = (v.min(), v.max()) {
        out.extend([lo, lo.wrapping_sub(1), hi, hi.wrapping_add(1)]);
    }
    let len = v.len();
    for &p in params {
        out.extend([p, keyed(v, p)]);
        if len > 0 {
            let k = p % len;
            let s = v
                .select(k)
                .unwrap_or_else(|| panic!("select({k}) of {len} values is None"));
            out.extend([s.wrapping_sub(1), s, s.wrapping_add(1)]);
        }
    }
    out
}

/// Header queries, the directory, and the format tell-apart.
fn header(v: &RoaringView<'_>) {
    let len = v.len();
    let n = v.container_count();
    assert_eq!(v.is_empty(), len == 0, "is_empty vs len {len}");
    assert_eq!(v.is_empty(), n == 0, "is_empty vs {n} containers");
    assert_eq!(v.min().is_some(), len > 0, "min of {len} values");
    assert_eq!(v.max().is_some(), len > 0, "max of {len} values");
    if let (Some(lo), Some(hi)) = (v.min(), v.max()) {
        assert!(lo <= hi, "min {lo} > max {hi}");
        assert_eq!(v.select(0), Some(lo), "select(0) vs min");
        assert_eq!(v.select(len - 1), Some(hi), "select(len - 1) vs max");
        assert_eq!(v.iter().next(), Some(lo), "first value vs min");
        assert_eq!(v.iter().next_back(), Some(hi), "last value vs max");
    }
    assert_eq!(v.select(len), None, "select(len)");
    assert_eq!(v.select(u64::MAX), None, "select(u64::MAX)");
    assert_eq!(v.range_cardinality(..), len, "range_cardinality(..)");
    assert!(!v.contains_range(..), "contains_range(..)");
    assert!(v.contains_range(5..5), "contains_range of an empty range");
    assert!(
        !looks_like_portable(v.as_bytes()),
        "a sroar buffer looks like the portable format"
    );
    let mut sum = 0u64;
    let mut prev = None;
    for (i, (key, c)) in v.containers().enumerate() {
        assert_eq!(key, v.key(i), "container {i}: key");
        assert!(
            prev.is_none_or(|p| p < key),
            "container {i}: keys not ascending"
        );
        prev = Some(key);
        assert_eq!(v.find_container(key), Some(i), "find_container({key})");
        assert!(!c.is_empty(), "container {i} is empty");
        let (lo, hi) = (c.min().expect("non-empty"), c.max().expect("non-empty"));
        assert!(
            v.contains((key << 16) | u64::from(lo)),
            "container {i}: min"
        );
        assert!(
            v.contains((key << 16) | u64::from(hi)),
            "container {i}: max"
        );
        sum += c.len() as u64;
    }
    assert_eq!(sum, len, "sum of the container lengths");
    assert_eq!(v.containers().rev().count(), n, "containers().rev()");
}

/// `stats` against the header and the container sizes.
fn stats(v: &RoaringView<'_>) {
    let s = v.stats();
    let n = v.container_count() as u64;
    assert_eq!(s.version, sroar::FORMAT_VERSION, "stats: version");
    assert_eq!(s.cardinality, v.len(), "stats: cardinality");
    assert_eq!(s.containers, n, "stats: containers");
    assert_eq!(
        s.total_bytes,
        v.as_bytes().len() as u64,
        "stats: total_bytes"
    );
    let kinds = [s.array, s.bitmap, s.run];
    assert_eq!(
        kinds.iter().map(|k| k.containers).sum::<u64>(),
        n,
        "stats: containers by kind"
    );
    assert_eq!(
        kinds.iter().map(|k| k.cardinality).sum::<u64>(),
        v.len(),
        "stats: cardinality by kind"
    );
    assert_eq!(
        s.head_bytes + kinds.iter().map(|k| k.payload_bytes).sum::<u64>(),
        s.total_bytes,
        "stats: header + directory + payloads"
    );
    // The header and, per container, at most a 6-byte key, a 2-byte cardinality and
    // a 4-byte offset, and an 8-byte count per block of 64.
    assert!(
        s.head_bytes >= 7 && s.head_bytes <= sroar::HEADER_MAX_LEN as u64 + 12 * n + 8 * (n / 64),
        "stats: head_bytes {} for {n} containers",
        s.head_bytes
    );
    assert_eq!(
        s.array.payload_bytes,
        2 * s.array.cardinality,
        "stats: array"
    );
    assert_eq!(
        s.bitmap.payload_bytes,
        8192 * s.bitmap.containers,
        "stats: bitmap"
    );
    assert_eq!(s.run.payload_bytes, 4 * s.runs, "stats: run");
    assert!(s.runs >= s.run.containers, "stats: runs");
}

/// Point queries at `x`, against each other.
fn probe(v: &RoaringView<'_>, x: u64) {
    let len = v.len();
    let c = v.contains(x);
    let r = v.rank(x);
    let rl = v.rank_lt(x);
    assert!(
        rl <= r && r <= len,
        "rank_lt({x}) {rl}, rank {r}, len {len}"
    );
    assert_eq!(r - rl, u64::from(c), "rank({x}) - rank_lt({x}) vs contains");
    assert_eq!(v.index(x), c.then(|| r - 1), "index({x})");
    if c {
        assert_eq!(v.select(r - 1), Some(x), "select(rank({x}) - 1)");
        assert!(v.find_container(x >> 16).is_some(), "find_container of {x}");
    }
    // The first value >= x, three ways.
    let next = v.select(rl);
    let mut it = v.iter_from(x);
    assert_eq!(it.remaining(), len - rl, "iter_from({x}).remaining()");
    let first = it.next();
    assert_eq!(first, next, "iter_from({x}).next() vs select(rank_lt)");
    if let Some(y) = first {
        assert!(y >= x, "iter_from({x}) starts at {y}");
        assert_eq!(c, y == x, "iter_from({x}) vs contains");
        assert_eq!(it.remaining(), len - rl - 1, "iter_from({x}) after next()");
    }
    let last = v.iter_from(x).next_back();
    assert_eq!(
        last,
        if rl < len { v.max() } else { None },
        "iter_from({x}).next_back()"
    );
    assert_eq!(v.range_cardinality(..=x), r, "range_cardinality(..={x})");
    assert_eq!(v.range_cardinality(..x), rl, "range_cardinality(..{x})");
    assert_eq!(
        v.range_cardinality(x..),
        len - rl,
        "range_cardinality({x}..)"
    );
    assert_eq!(
        v.range_cardinality(x..=x),
        u64::from(c),
        "range_cardinality({x}..={x})"
    );
    assert_eq!(v.contains_range(x..=x), c, "contains_range({x}..={x})");
}

/// Range counts between pairs of probes, against ranks.
fn probe_pairs(v: &RoaringView<'_>, probes: &[u64]) {
    let ps = &probes[probes.len().saturating_sub(16)..];
    for &a in ps {
        for &b in ps {
            if a > b {
                assert_eq!(
                    v.range_cardinality(a..=b),
                    0,
                    "range_cardinality({a}..={b})"
                );
                assert!(v.contains_range(a..b), "contains_range({a}..{b})");
                continue;
            }
            let rc = v.range_cardinality(a..=b);
            assert_eq!(rc, v.rank(b) - v.rank_lt(a), "range_cardinality({a}..={b})");
            assert_eq!(
                v.range_cardinality(a..b),
                v.rank_lt(b) - v.rank_lt(a),
                "range_cardinality({a}..{b})"
            );
            let width = u128::from(b - a) + 1;
            assert_eq!(
                v.contains_range(a..=b),
                u128::from(rc) == width,
                "contains_range({a}..={b}) with {rc} values"
            );
        }
    }
}

/// Every query against the sorted list of the values.
fn model(v: &RoaringView<'_>, probes: &[u64], params: &[u64; PARAMS]) {
    let vals: Vec<u64> = v.iter().collect();
    assert_eq!(vals.len() as u64, v.len(), "iter().count() vs len");
    assert!(
        vals.windows(2).all(|w| w[0] < w[1]),
        "iter() not strictly ascending"
    );
    assert_eq!(
        from_sorted(&vals).as_deref().ok(),
        Some(v.as_bytes()),
        "re-encoding the values does not give the same bytes"
    );
    let back: Vec<u64> = v.iter().rev().collect();
    assert!(back.iter().rev().eq(vals.iter()), "iter().rev()");
    assert!(
        IntoIterator::into_iter(v).eq(vals.iter().copied()),
        "IntoIterator"
    );

    for size in [1 + (params[0] % 97) as usize, 4096] {
        let skip = (params[1] % 3) as usize;
        let mut it = v.iter();
        let mut got: Vec<u64> = it.by_ref().take(skip).collect();
        let mut buf = vec![0u64; size];
        loop {
            let k = it.next_batch(&mut buf);
            assert!(k <= size, "next_batch wrote {k} > {size}");
            if k == 0 {
                break;
            }
            got.extend_from_slice(&buf[..k]);
            assert_eq!(it.remaining(), v.len() - got.len() as u64, "remaining()");
        }
        assert_eq!(it.next(), None, "next() after next_batch returned 0");
        assert!(got == vals, "next_batch({size}) after {skip} next()");
    }
    assert_eq!(
        v.iter().next_batch(&mut []),
        0,
        "next_batch of an empty slice"
    );

    // Front and back cursors in turns picked by a parameter.
    let mut it = v.iter();
    let (mut front, mut back) = (Vec::new(), Vec::new());
    let mut turns = params[1];
    loop {
        let r = it.remaining() as usize;
        assert_eq!(it.size_hint(), (r, Some(r)), "size_hint");
        let got = if turns & 1 == 0 {
            it.next().map(|x| front.push(x))
        } else {
            it.next_back().map(|x| back.push(x))
        };
        turns = turns.rotate_right(1);
        if got.is_none() {
            break;
        }
    }
    assert_eq!(it.next(), None, "next() after the cursors met");
    assert_eq!(it.next_back(), None, "next_back() after the cursors met");
    front.extend(back.iter().rev());
    assert!(front == vals, "interleaved next / next_back");

    let step = (vals.len() / 64).max(1);
    let picks = (0..vals.len())
        .step_by(step)
        .chain(
            params
                .iter()
                .map(|&p| (p % vals.len().max(1) as u64) as usize),
        )
        .filter(|&i| i < vals.len());
    for i in picks {
        let x = vals[i];
        let i64 = i as u64;
        assert_eq!(v.select(i64), Some(x), "select({i})");
        assert_eq!(v.rank(x), i64 + 1, "rank({x})");
        assert_eq!(v.rank_lt(x), i64, "rank_lt({x})");
        assert_eq!(v.index(x), Some(i64), "index({x})");
        assert!(v.contains(x), "contains({x})");
    }

    for (j, &x) in probes.iter().enumerate() {
        let pp = vals.partition_point(|&y| y < x);
        assert_eq!(v.contains(x), vals.get(pp) == Some(&x), "contains({x})");
        assert_eq!(v.rank_lt(x), pp as u64, "rank_lt({x})");
        let fwd: Vec<u64> = v.iter_from(x).take(ENDS).collect();
        assert!(
            fwd.iter().eq(vals[pp..].iter().take(ENDS)),
            "iter_from({x}) front"
        );
        let bwd: Vec<u64> = v.iter_from(x).rev().take(ENDS).collect();
        assert!(
            bwd.iter().eq(vals[pp..].iter().rev().take(ENDS)),
            "iter_from({x}).rev()"
        );
        if j % 8 == 0 {
            let mut it = v.iter_from(x);
            let mut got = Vec::new();
            let mut buf = [0u64; 61];
            loop {
                let k = it.next_batch(&mut buf);
                if k == 0 {
                    break;
                }
                got.extend_from_slice(&buf[..k]);
            }
            assert!(got == vals[pp..], "iter_from({x}).next_batch");
        }
    }
}

/// The first and last values of a set too large to list.
fn ends(v: &RoaringView<'_>) {
    let len = v.len();
    let first: Vec<u64> = v.iter().take(ENDS).collect();
    assert_eq!(first.len(), ENDS, "iter() of {len} values");
    for (i, &x) in first.iter().enumerate() {
        assert_eq!(v.select(i as u64), Some(x), "select({i})");
    }
    assert!(
        first.windows(2).all(|w| w[0] < w[1]),
        "iter() not ascending"
    );
    let mut buf = [0u64; ENDS];
    assert_eq!(v.iter().next_batch(&mut buf), ENDS, "next_batch");
    assert!(buf[..] == first[..], "next_batch vs iter()");
    let last: Vec<u64> = v.iter().rev().take(ENDS).collect();
    for (i, &x) in last.iter().enumerate() {
        assert_eq!(
            v.select(len - 1 - i as u64),
            Some(x),
            "select(len - 1 - {i})"
        );
    }
    assert!(
        last.windows(2).all(|w| w[0] > w[1]),
        "iter().rev() not descending"
    );
}

/// insert, remove, insert_many and remove_many of the probes.
fn edits(v: &RoaringView<'_>, xs: &[u64]) {
    let bytes = v.as_bytes();
    let len = v.len();
    for &x in xs {
        let c = v.contains(x);
        let ins = valid(v.insert(x), &format_args!("insert({x})"));
        let iv = view(&ins);
        assert!(iv.contains(x), "insert({x}) then contains");
        assert_eq!(iv.len(), len + u64::from(!c), "insert({x}): len");
        assert!(
            !c || ins == bytes,
            "insert({x}) of a member changed the bytes"
        );
        let rem = valid(v.remove(x), &format_args!("remove({x})"));
        let rv = view(&rem);
        assert!(!rv.contains(x), "remove({x}) then contains");
        assert_eq!(rv.len(), len - u64::from(c), "remove({x}): len");
        assert!(
            c || rem == bytes,
            "remove({x}) of a non-member changed the bytes"
        );
        let ir = valid(iv.remove(x), &format_args!("insert({x}).remove({x})"));
        assert!(ir == rem, "insert({x}).remove({x}) != remove({x})");
        let ri = valid(rv.insert(x), &format_args!("remove({x}).insert({x})"));
        assert!(ri == ins, "remove({x}).insert({x}) != insert({x})");
    }
    // Unsorted, with a duplicate.
    let mut many: Vec<u64> = xs.iter().rev().copied().collect();
    many.extend(xs.first());
    let mut distinct = many.clone();
    distinct.sort_unstable();
    distinct.dedup();
    let added = distinct.iter().filter(|&&x| !v.contains(x)).count() as u64;
    let removed = distinct.len() as u64 - added;

    let ins = valid(v.insert_many(&many), &"insert_many");
    let iv = view(&ins);
    assert_eq!(iv.len(), len + added, "insert_many: len");
    assert!(
        many.iter().all(|&x| iv.contains(x)),
        "insert_many: contains"
    );
    let mut folded = bytes.to_vec();
    for &x in &many {
        folded = valid(view(&folded).insert(x), &format_args!("insert({x})"));
    }
    assert!(ins == folded, "insert_many != inserts one by one");

    let rem = valid(v.remove_many(&many), &"remove_many");
    let rv = view(&rem);
    assert_eq!(rv.len(), len - removed, "remove_many: len");
    assert!(
        !many.iter().any(|&x| rv.contains(x)),
        "remove_many: contains"
    );
    let mut folded = bytes.to_vec();
    for &x in &many {
        folded = valid(view(&folded).remove(x), &format_args!("remove({x})"));
    }
    assert!(rem == folded, "remove_many != removes one by one");

    assert!(
        valid(v.insert_many(&[]), &"insert_many([])") == bytes,
        "insert_many([])"
    );
    assert!(
        valid(v.remove_many(&[]), &"remove_many([])") == bytes,
        "remove_many([])"
    );
}

/// Range edits over ranges derived from the parameters, each at most [`WIDE`] wide.
fn ranges(v: &RoaringView<'_>, params: &[u64; PARAMS]) {
    let bytes = v.as_bytes();
    let a0 = keyed(v, params[0]);
    let a1 = keyed(v, params[2]);
    let mut rs = vec![
        (a0, a0.saturating_add(params[1] & 0xFFF)),
        (a1, a1.saturating_add(params[3] % WIDE)),
        (u64::MAX - (params[1] >> 44), u64::MAX),
        (0, params[3] >> 42),
        (a0 & !0xFFFF, a0 | 0xFFFF),
    ];
    if let (Some(lo), Some(hi)) = (v.min(), v.max()) {
        if hi - lo < WIDE {
            rs.push((lo, hi));
        }
        let (klo, khi) = (lo & !0xFFFF, hi | 0xFFFF);
        if khi - klo < WIDE {
            rs.push((klo, khi));
        }
        // Wide ranges only for the edits that create nothing.
        keep_clear(v, lo, hi);
        keep_clear(v, lo.saturating_add(1), hi);
    }
    keep_clear(v, a0.min(a1), a0.max(a1));
    for (first, last) in rs {
        range_ops(v, first, last);
    }

    assert!(valid(v.range(..), &"range(..)") == bytes, "range(..)");
    assert!(valid(v.clear(..), &"clear(..)") == empty(), "clear(..)");
    assert!(v.fill(..).is_err(), "fill(..) fits in a buffer");
    assert!(v.flip(..).is_err(), "flip(..) fits in a buffer");
    assert!(
        valid(v.range(a0..a0), &"range(a..a)") == empty(),
        "range(a..a)"
    );
    assert!(valid(v.fill(a0..a0), &"fill(a..a)") == bytes, "fill(a..a)");
    assert!(
        valid(v.clear(a0..a0), &"clear(a..a)") == bytes,
        "clear(a..a)"
    );
    assert!(valid(v.flip(a0..a0), &"flip(a..a)") == bytes, "flip(a..a)");
    if let Some(b) = a0.checked_add(1) {
        #[allow(clippy::reversed_empty_ranges)]
        let reversed = b..=a0;
        assert!(
            valid(v.fill(reversed), &"fill(b..=a)") == bytes,
            "fill(b..=a), a < b"
        );
    }
}

/// `range` and `clear` of a range of any width, against the range count.
fn keep_clear(v: &RoaringView<'_>, first: u64, last: u64) {
    let rc = v.range_cardinality(first..=last);
    let keep = valid(
        v.range(first..=last),
        &format_args!("range({first}..={last})"),
    );
    let clear = valid(
        v.clear(first..=last),
        &format_args!("clear({first}..={last})"),
    );
    assert_eq!(view(&keep).len(), rc, "range({first}..={last}): len");
    assert_eq!(
        view(&clear).len(),
        v.len() - rc,
        "clear({first}..={last}): len"
    );
    assert_eq!(
        view(&clear).range_cardinality(first..=last),
        0,
        "clear({first}..={last}) leaves values in the range"
    );
}

/// All four range edits of `first..=last` (at most [`WIDE`] wide), through every
/// form of bounds, tied to each other and to the range counts.
fn range_ops(v: &RoaringView<'_>, first: u64, last: u64) {
    assert!(first <= last && last - first < WIDE);
    let bytes = v.as_bytes();
    let len = u128::from(v.len());
    let width = u128::from(last - first) + 1;
    let rc = v.range_cardinality(first..=last);
    assert_eq!(
        rc,
        v.rank(last) - v.rank_lt(first),
        "range_cardinality({first}..={last})"
    );
    assert_eq!(
        v.contains_range(first..=last),
        u128::from(rc) == width,
        "contains_range({first}..={last})"
    );
    let name = |op: &str| format!("{op}({first}..={last})");
    let keep = valid(v.range(first..=last), &name("range"));
    let clear = valid(v.clear(first..=last), &name("clear"));
    let fill = valid(v.fill(first..=last), &name("fill"));
    let flip = valid(v.flip(first..=last), &name("flip"));

    // The other forms of the same bounds give the same bytes.
    let same =
        |out: Result<sroar::Roaring, sroar::CapacityError>, expected: &[u8], what: String| {
            assert!(
                valid(out, &what) == expected,
                "{what} differs from ..= form"
            );
        };
    if let Some(end) = last.checked_add(1) {
        same(v.range(first..end), &keep, format!("range({first}..{end})"));
        same(
            v.clear(first..end),
            &clear,
            format!("clear({first}..{end})"),
        );
        same(v.fill(first..end), &fill, format!("fill({first}..{end})"));
        same(v.flip(first..end), &flip, format!("flip({first}..{end})"));
    } else {
        same(v.range(first..), &keep, format!("range({first}..)"));
        same(v.clear(first..), &clear, format!("clear({first}..)"));
        same(v.fill(first..), &fill, format!("fill({first}..)"));
        same(v.flip(first..), &flip, format!("flip({first}..)"));
    }
    if first == 0 {
        same(v.range(..=last), &keep, format!("range(..={last})"));
        same(v.clear(..=last), &clear, format!("clear(..={last})"));
        same(v.fill(..=last), &fill, format!("fill(..={last})"));
        same(v.flip(..=last), &flip, format!("flip(..={last})"));
    }

    let (kv, cv, fv, xv) = (view(&keep), view(&clear), view(&fill), view(&flip));
    assert_eq!(
        u128::from(kv.len()),
        u128::from(rc),
        "{}: len",
        name("range")
    );
    assert_eq!(
        u128::from(cv.len()),
        len - u128::from(rc),
        "{}: len",
        name("clear")
    );
    assert_eq!(
        u128::from(fv.len()),
        len - u128::from(rc) + width,
        "{}: len",
        name("fill")
    );
    assert_eq!(
        u128::from(xv.len()),
        len + width - 2 * u128::from(rc),
        "{}: len",
        name("flip")
    );
    assert_eq!(
        kv.range_cardinality(first..=last),
        rc,
        "{}: count",
        name("range")
    );
    assert_eq!(
        cv.range_cardinality(first..=last),
        0,
        "{}: count",
        name("clear")
    );
    assert!(
        fv.contains_range(first..=last),
        "{}: contains_range",
        name("fill")
    );
    assert_eq!(
        u128::from(xv.range_cardinality(first..=last)),
        width - u128::from(rc),
        "{}: count",
        name("flip")
    );
    // Identities, byte for byte.
    let again = |out, what: &str| valid(out, &format!("{what} of {}", name("edit")));
    assert!(
        again(kv.range(first..=last), "range") == keep,
        "range is not idempotent"
    );
    assert!(
        again(xv.flip(first..=last), "flip") == bytes,
        "flip twice != self"
    );
    assert!(
        again(fv.clear(first..=last), "clear") == clear,
        "fill then clear != clear"
    );
    assert!(
        again(xv.clear(first..=last), "clear") == clear,
        "flip then clear != clear"
    );
    assert!(
        again(cv.fill(first..=last), "fill") == fill,
        "clear then fill != fill"
    );
    assert!(
        again(cv.flip(first..=last), "flip") == fill,
        "clear then flip != fill"
    );
    assert!(
        again(fv.range(first..=last), "range")
            == again(sroar::Roaring::from_range(first..=last), "from_range"),
        "fill then range != from_range"
    );
    if rc <= 4096 {
        let inside: Vec<u64> = kv.iter().collect();
        assert!(
            again(cv.insert_many(&inside), "insert_many") == bytes,
            "clear + insert_many(range) != self"
        );
    }
}

/// Shifts by deltas derived from the parameters, and the edge deltas.
fn shifts(v: &RoaringView<'_>, params: &[u64; PARAMS]) {
    let mut deltas = vec![
        i128::from(params[0] as i32),
        i128::from(params[1] as i16) << 16,
        i128::from(params[2] as i64),
    ];
    if params[3] & 1 == 1 {
        let m = i128::from(u64::MAX);
        deltas.extend([m, -m, m + 1, -m - 1, i128::MAX, i128::MIN + 1]);
    }
    for d in deltas {
        shift(v, d);
    }
}

/// One shift: the values that stay in `0..=u64::MAX` move by `d`, and shifting
/// back gives exactly them.
fn shift(v: &RoaringView<'_>, d: i128) {
    let out = valid(v.shift(d), &format_args!("shift({d})"));
    let ov = view(&out);
    let max = i128::from(u64::MAX);
    // The source values that survive.
    let kept = match d {
        0..=i128::MAX if d <= max => Some((0, (max - d) as u64)),
        _ if d < 0 && -d <= max => Some(((-d) as u64, u64::MAX)),
        _ => None,
    };
    let Some((lo, hi)) = kept else {
        assert!(
            out == empty(),
            "shift({d}) beyond the u64 line is not empty"
        );
        return;
    };
    assert_eq!(ov.len(), v.range_cardinality(lo..=hi), "shift({d}): len");
    let first = v.iter_from(lo).next().filter(|&x| x <= hi);
    assert_eq!(
        ov.min(),
        first.map(|x| (i128::from(x) + d) as u64),
        "shift({d}): min"
    );
    let back = valid(ov.shift(-d), &format_args!("shift({d}).shift({})", -d));
    let survivors = valid(v.range(lo..=hi), &format_args!("range({lo}..={hi})"));
    assert!(back == survivors, "shift({d}).shift({}) != survivors", -d);
}

/// toggle_top_bit: an involution that moves every value by 2^63.
fn toggle(v: &RoaringView<'_>, probes: &[u64]) {
    let t = valid(v.toggle_top_bit(), &"toggle_top_bit");
    let tv = view(&t);
    assert_eq!(tv.len(), v.len(), "toggle_top_bit: len");
    for &x in probes {
        assert_eq!(
            tv.contains(x ^ (1 << 63)),
            v.contains(x),
            "toggle_top_bit: contains({x})"
        );
    }
    let back = valid(tv.toggle_top_bit(), &"toggle_top_bit twice");
    assert!(back == v.as_bytes(), "toggle_top_bit twice != self");
}

/// Export to the portable format and back gives the same bytes.
fn portable(v: &RoaringView<'_>) {
    let p = to_portable(v);
    assert_eq!(p.len(), portable_len(v), "portable_len");
    assert!(
        looks_like_portable(&p),
        "to_portable output does not look portable"
    );
    match from_portable(&p) {
        Ok(back) => assert!(back == v.as_bytes(), "from_portable(to_portable) != self"),
        Err(e) => panic!("from_portable(to_portable(v)) fails: {e}"),
    }
}
