//! Union of many views at once (FastOr-style).

use hashbrown::HashMap;

use super::key_hash::KeyHash;
use super::pair::{is_full, payload_bound, run_bound_bytes};
use crate::container::bitmap::WORDS;
use crate::container::array::ArrayView;
use crate::container::{Container, ARRAY_MAX};
use crate::kernels::{array, array_bitmap, bitmap, prefetch, run};
use crate::view::RoaringView;
use crate::writer::Writer;

/// Values in a full container.
const FULL: u32 = 1 << 16;
/// Below this many values in a key, sorting them beats clearing, filling and
/// scanning an 8 kB bitmap.
const SORT_UP_TO: u64 = 128;
/// Up to this many values in a key of arrays, their union is found by marking
/// them one by one (see [`Marks`]).
const MARK_UP_TO: u64 = 1024;
/// Up to this many values in a key of arrays, the count of their union is found
/// by marking them (a union that is not kept needs no order).
const COUNT_MARKS_UP_TO: u64 = 512;
/// Arrays whose union is an array (at most `ARRAY_MAX` values in all) are merged
/// pairwise, up to this many of them: a bitmap would cost an 8 kB clear, fill,
/// count and extraction, where the merge kernels cost a step per value.
const MERGE_ARRAYS_UP_TO: usize = 8;
/// Up to this many arrays are merged even when they hold few values: one or two
/// merges cost less than marking the values and reading them back in order.
const MERGE_FIRST_UP_TO: usize = 3;
/// Up to this many views, their containers are grouped by merging the directories.
const MERGE_VIEWS_UP_TO: usize = 32;

/// The union of all `views`, as an unfinished [`Writer`] (the empty set for no
/// views).
///
/// The containers are gathered first, grouped by key, which sizes the writer
/// once. Then, per key: a single container is copied verbatim; a full container
/// ends the key at once; up to three arrays whose union is an array are merged;
/// arrays of a few values in all are marked and read back in order ([`Marks`]);
/// up to eight arrays whose union is an array are merged; other keys of a few
/// values are sorted; anything else is ORed into one scratch bitmap (stopping as
/// soon as it is full, see `or_into_bitmap`) and pushed in its canonical kind.
pub fn or_many(views: &[RoaringView<'_>]) -> Writer {
    let groups = Groups::gather(views);

    // Size the writer once, from the directories.
    let mut payload = 0;
    for (_, group) in groups.iter() {
        payload += match group {
            [one] => one.c.as_bytes().len(),
            _ => {
                let (mut card, mut runs) = (0u64, 0usize);
                for m in group {
                    card += u64::from(m.card);
                    runs += run_bound_bytes(m.c, m.card);
                }
                payload_bound(card, runs)
            }
        };
    }
    // Sized as if no key were shared (exact for views of disjoint keys).
    let live = views.iter().filter(|v| !v.is_empty());
    let card = live.clone().fold(0u64, |c, v| c.saturating_add(v.len()));
    let min = live.clone().filter_map(|v| v.min()).min().unwrap_or(0);
    let max = live.filter_map(|v| v.max()).max().unwrap_or(0);
    let mut w = Writer::with_expected(groups.keys.len(), payload, card, min, max);

    let (mut lows, mut tmp): (Vec<u16>, Vec<u16>) = (Vec::new(), Vec::new());
    let (mut words, mut marks): (Option<Box<[u64; WORDS]>>, Option<Marks>) = (None, None);
    for (key, group) in groups.iter() {
        if let [one] = group {
            w.push_container(key, one.c);
            continue;
        }
        if let Some(full) = group.iter().find(|m| is_full(m.c)) {
            w.push_container(key, full.c);
            continue;
        }
        let card: u64 = group.iter().map(|m| u64::from(m.card)).sum();
        let all_arrays = group.iter().all(|m| matches!(m.c, Container::Array(_)));
        // A few values are sorted; more are ORed into the bitmap and pushed in their
        // canonical kind (an array when they fit one), which costs a scan of 8 kB
        // where sorting thousands of values cost 10 to 50 times that.
        if all_arrays && group.len() <= MERGE_FIRST_UP_TO && card <= u64::from(ARRAY_MAX) {
            union_arrays(group, &mut lows, &mut tmp);
            w.push_sorted_lows(key, &lows);
            continue;
        }
        if all_arrays && card <= MARK_UP_TO {
            let marks = marks.get_or_insert_with(Marks::new);
            marks.mark::<true>(group);
            marks.drain_sorted(&mut lows);
            w.push_sorted_lows(key, &lows);
            continue;
        }
        if all_arrays && card <= u64::from(ARRAY_MAX) && group.len() <= MERGE_ARRAYS_UP_TO {
            union_arrays(group, &mut lows, &mut tmp);
            w.push_sorted_lows(key, &lows);
            continue;
        }
        if card <= SORT_UP_TO {
            lows.clear();
            for m in group {
                extend_lows(&mut lows, m.c);
            }
            lows.sort_unstable();
            lows.dedup();
            w.push_sorted_lows(key, &lows);
            continue;
        }
        let words = words.get_or_insert_with(|| Box::new([0; WORDS]));
        match or_into_bitmap(group, words) {
            Some(card) => w.push_counted_bitmap(key, words, card),
            None => w.push_full(key),
        }
    }
    w
}

/// The cardinality of the union of all `views`, without writing the union. Per key:
/// a single container counts from its directory entry (its payload is not read), a
/// full container ends the key, two arrays count as their sizes less their common
/// values, arrays of a few values in all are marked and counted ([`Marks`]), other
/// keys of a few values are sorted and counted, and anything else is ORed into one
/// scratch bitmap and counted there.
pub fn or_many_len(views: &[RoaringView<'_>]) -> u64 {
    let groups = Groups::gather(views);
    let mut total = 0u64;
    let mut lows: Vec<u16> = Vec::new();
    let (mut words, mut marks): (Option<Box<[u64; WORDS]>>, Option<Marks>) = (None, None);
    for (i, (_, group)) in groups.iter().enumerate() {
        if i % 4096 == 4095 {
            crate::interrupt::check();
        }
        if let [one] = group {
            total += u64::from(one.card);
            continue;
        }
        if group.iter().any(|m| is_full(m.c)) {
            total += u64::from(FULL);
            continue;
        }
        let card: u64 = group.iter().map(|m| u64::from(m.card)).sum();
        if let [Member { c: Container::Array(a), .. }, Member { c: Container::Array(b), .. }] = group {
            let (a, b) = (a.as_bytes().as_chunks::<2>().0, b.as_bytes().as_chunks::<2>().0);
            total += card - u64::from(array::intersect_count(a, b));
            continue;
        }
        let all_arrays = group.iter().all(|m| matches!(m.c, Container::Array(_)));
        if all_arrays && card <= COUNT_MARKS_UP_TO {
            let marks = marks.get_or_insert_with(Marks::new);
            total += marks.mark::<false>(group);
            marks.unmark(group);
            continue;
        }
        if card <= SORT_UP_TO {
            lows.clear();
            for m in group {
                extend_lows(&mut lows, m.c);
            }
            lows.sort_unstable();
            // Distinct values: one plus the places where a value differs from the last.
            total += 1 + lows.windows(2).filter(|w| w[0] != w[1]).count() as u64;
            continue;
        }
        let words = words.get_or_insert_with(|| Box::new([0; WORDS]));
        total += or_into_bitmap(group, words).map_or(u64::from(FULL), u64::from);
    }
    total
}

/// Values of one key marked one by one, for unions of a few values: each mark is
/// a test-and-set in an 8 kB bitmap, and a summary of its non-zero words lets the
/// distinct values be read back in order, and the bitmap cleared, by visiting only
/// the words that were set (no 8 kB scan or clear per key, and no sort).
struct Marks {
    words: Box<[u64; WORDS]>,
    /// Bit `i` is set when `words[i]` may be non-zero.
    summary: [u64; WORDS / 64],
}

impl Marks {
    fn new() -> Self {
        Marks {
            words: Box::new([0; WORDS]),
            summary: [0; WORDS / 64],
        }
    }

    /// Marks every value of `group`'s containers, all arrays; returns how many
    /// were not marked before. With `IN_ORDER`, the summary is kept too, for
    /// [`Marks::drain_sorted`]; without it, only [`Marks::unmark`] clears them.
    fn mark<const IN_ORDER: bool>(&mut self, group: &[Member<'_>]) -> u64 {
        let mut new = 0u64;
        for (i, m) in group.iter().enumerate() {
            fetch_next(group, i);
            let Container::Array(a) = m.c else {
                unreachable!("Marks take arrays only")
            };
            for e in a.as_bytes().as_chunks::<2>().0 {
                let v = usize::from(u16::from_le_bytes(*e));
                let (word, bit) = (&mut self.words[v >> 6], 1u64 << (v & 63));
                new += u64::from(*word & bit == 0);
                *word |= bit;
                if IN_ORDER {
                    self.summary[(v >> 12) & 15] |= 1 << ((v >> 6) & 63);
                }
            }
        }
        new
    }

    /// Calls `each` on the marked words in order, as `(first value, bits)`, and
    /// clears them.
    fn drain(&mut self, mut each: impl FnMut(u16, u64)) {
        for (s, summary) in self.summary.iter_mut().enumerate() {
            let mut set = core::mem::take(summary);
            while set != 0 {
                let w = s * 64 + set.trailing_zeros() as usize;
                each((w * 64) as u16, core::mem::take(&mut self.words[w]));
                set &= set - 1;
            }
        }
    }

    /// The marked values, ascending, into `out` (cleared first); clears the marks.
    fn drain_sorted(&mut self, out: &mut Vec<u16>) {
        out.clear();
        self.drain(|base, mut bits| {
            while bits != 0 {
                out.push(base + bits.trailing_zeros() as u16);
                bits &= bits - 1;
            }
        });
    }

    /// Clears the marks of `group`'s values (marked without the summary): one store
    /// per value, where the summary's walk costs more on a few scattered values.
    fn unmark(&mut self, group: &[Member<'_>]) {
        for m in group {
            if let Container::Array(a) = m.c {
                for e in a.as_bytes().as_chunks::<2>().0 {
                    self.words[usize::from(u16::from_le_bytes(*e) >> 6)] = 0;
                }
            }
        }
    }
}

/// The union of `group`'s containers, all arrays (at least two), into `out`, by
/// merging them pairwise (`tmp` holds each merge before it becomes `out`).
fn union_arrays<'a>(group: &[Member<'a>], out: &mut Vec<u16>, tmp: &mut Vec<u16>) {
    let values = |m: &Member<'a>| -> &'a [[u8; 2]] {
        match m.c {
            Container::Array(a) => a.as_bytes().as_chunks::<2>().0,
            _ => unreachable!("union_arrays takes arrays only"),
        }
    };
    out.clear();
    fetch_next(group, 1);
    array::union(values(&group[0]), values(&group[1]), out);
    for (i, m) in group.iter().enumerate().skip(2) {
        fetch_next(group, i);
        tmp.clear();
        array::union(bytemuck::cast_slice(out), values(m), tmp);
        core::mem::swap(out, tmp);
    }
}

/// Appends the values of `c`: an array's straight from its little-endian bytes (the
/// generic iterator costs more than the sort that follows, on a few values).
fn extend_lows(lows: &mut Vec<u16>, c: Container<'_>) {
    match c {
        Container::Array(a) => lows.extend(
            a.as_bytes()
                .as_chunks::<2>()
                .0
                .iter()
                .map(|b| u16::from_le_bytes(*b)),
        ),
        other => lows.extend(other.iter()),
    }
}

/// ORs the containers of `group` into `words`; returns the cardinality, or
/// `None` when the union is the full container (then `words` is left partial).
///
/// Dense unions often fill up long before their last input (CRoaring's n-way
/// union stops there too), so the inputs go from the densest kind to the
/// sparsest, bitmaps, runs, then arrays, and the count is refreshed whenever the
/// values added since the last count could have filled the gap: a bitmap OR
/// counts as it goes, runs and arrays are counted with one popcount.
fn or_into_bitmap(group: &[Member<'_>], words: &mut [u64; WORDS]) -> Option<u32> {
    words.fill(0);
    // `card` is exact as of the last count; `added` bounds what came since.
    let (mut card, mut added) = (0u32, 0u32);
    for rank in 0..3 {
        for (i, m) in group.iter().enumerate() {
            match (rank, m.c) {
                (0, Container::Bitmap(b)) => {
                    fetch_next(group, i);
                    card = bitmap::or_assign(words, b.as_bytes().as_chunks::<8>().0);
                    added = 0;
                }
                (1, Container::Run(r)) => {
                    fetch_next(group, i);
                    run::set_into(r.as_bytes().as_chunks::<4>().0, words);
                    added += m.card;
                }
                (2, Container::Array(a)) => {
                    fetch_next_start(group, i);
                    array_bitmap::set_into(a.as_bytes().as_chunks::<2>().0, words);
                    added += m.card;
                }
                _ => continue,
            }
            if added >= FULL - card {
                card = bitmap::popcount(words);
                added = 0;
            }
            if card == FULL {
                return None;
            }
        }
    }
    if added > 0 {
        card = bitmap::popcount(words);
    }
    Some(card)
}

/// Of the next member's array, at most this many bytes are hinted by
/// [`fetch_next_start`]; past them the hardware prefetcher has found the
/// array's stream. Hinting every line of sets already in cache held up the
/// reads of the member at hand: census1881's union (2 MB of arrays of 1 to
/// 8 kB) took 1.04x as long with every line hinted, where unions of 20 and 90
/// large sets read from memory (arrays of 1.3 kB) did not change (in-process
/// A/B on a Xeon, and the `many` bench's old and new forms alternated 4 times).
const ARRAY_HINT_BYTES: usize = 1024;

/// [`fetch_next`] of at most the first [`ARRAY_HINT_BYTES`] of the member after
/// `group[i]`.
#[inline(always)]
fn fetch_next_start(group: &[Member<'_>], i: usize) {
    if let Some(next) = group.get(i + 1) {
        let bytes = next.c.as_bytes();
        prefetch::read_soon(&bytes[..bytes.len().min(ARRAY_HINT_BYTES)]);
    }
}

/// Hints that the member after `group[i]` is read soon (next, when both are of
/// the kind being read; a key's members are mostly of one kind): each member is
/// in another set, elsewhere in memory, where the hardware prefetcher starts late
/// (unions of 20 and 90 large sets took 1.6x and 1.8x as long without it).
#[inline(always)]
fn fetch_next(group: &[Member<'_>], i: usize) {
    if let Some(next) = group.get(i + 1) {
        prefetch::read_soon(next.c.as_bytes());
    }
}

/// The keys of some views, `lo..lo + width`.
#[derive(Clone, Copy, Debug)]
struct KeySpan {
    lo: u64,
    width: usize,
}

impl KeySpan {
    /// The span of the views' keys when it is at most [`DENSE_SPAN_PER_CONTAINER`]
    /// times as wide as they have containers (plus a little, for a few sets of few
    /// containers); None when wider, when there are no containers, or when there
    /// are more than `u32::MAX`.
    fn of_dense(views: &[RoaringView<'_>]) -> Option<KeySpan> {
        let (mut lo, mut hi, mut total) = (u64::MAX, 0u64, 0usize);
        for v in views {
            let dir = v.directory();
            if !dir.is_empty() {
                lo = lo.min(dir.key(0));
                hi = hi.max(dir.key(dir.len() - 1));
                total += dir.len();
            }
        }
        let width = usize::try_from(hi.checked_sub(lo)? + 1).ok()?;
        // The counting sort counts members in u32.
        let fits = u32::try_from(total).is_ok();
        (fits && width <= DENSE_SPAN_PER_CONTAINER * total + 64).then_some(KeySpan { lo, width })
    }
}

/// Views whose keys span at most this many keys per container (plus 64) are
/// grouped by a counting sort over the span ([`Groups::dense`]): a pass over the
/// span costs less than a merge's compares or a hash per container.
const DENSE_SPAN_PER_CONTAINER: usize = 2;

/// One input container.
#[derive(Clone, Copy, Debug)]
struct Member<'a> {
    c: Container<'a>,
    card: u32,
}

/// Every container of some views, grouped by key, the groups in key order.
struct Groups<'a> {
    /// The keys, ascending.
    keys: Vec<u64>,
    /// Group `g` is `members[ends[g - 1]..ends[g]]`.
    ends: Vec<usize>,
    members: Vec<Member<'a>>,
}

impl<'a> Groups<'a> {
    /// Views whose keys lie close together are grouped by a counting sort over
    /// their span ([`Groups::dense`]). Otherwise few views are merged by their
    /// directories (already in key order); many are grouped by a hash of the keys
    /// and a counting sort, so that only the distinct keys are sorted (many views
    /// share few keys).
    fn gather(views: &[RoaringView<'a>]) -> Self {
        if let Some(span) = KeySpan::of_dense(views) {
            Self::dense(views, span)
        } else if views.len() <= MERGE_VIEWS_UP_TO {
            Self::merge(views)
        } else {
            Self::hash(views)
        }
    }

    /// A counting sort by key, for views whose keys lie in a range not much wider
    /// than their containers are many (sets of ids from one sequence, the common
    /// case): one pass over the directories counts each key's members, a second
    /// places them, and no key is compared, hashed or sorted. A merge compares
    /// every view's cursor at every key, which on many views of small containers
    /// costs more than the containers' own work.
    fn dense(views: &[RoaringView<'a>], span: KeySpan) -> Self {
        // `next[k]`: first the number of members of key `lo + k`, then where its
        // next member goes.
        let mut next = vec![0u32; span.width];
        let mut unchecked = 0;
        for v in views {
            crate::interrupt::check_every_4096(&mut unchecked, v.container_count());
            let dir = v.directory();
            for i in 0..dir.len() {
                next[(dir.key(i) - span.lo) as usize] += 1;
            }
        }
        let (mut keys, mut ends) = (Vec::new(), Vec::new());
        let mut at = 0u32;
        for (k, n) in (span.lo..).zip(next.iter_mut()) {
            if *n > 0 {
                let count = *n;
                *n = at;
                at += count;
                keys.push(k);
                ends.push(at as usize);
            }
        }
        let empty = Member {
            c: Container::Array(ArrayView::new(&[])),
            card: 0,
        };
        let mut members = vec![empty; at as usize];
        for v in views {
            let dir = v.directory();
            let mut start = dir.start(0);
            for i in 0..dir.len() {
                let (c, end) = v.container_from(&dir, i, start);
                start = end;
                let slot = &mut next[(dir.key(i) - span.lo) as usize];
                members[*slot as usize] = Member {
                    c,
                    card: dir.card(i),
                };
                *slot += 1;
            }
        }
        Groups {
            keys,
            ends,
            members,
        }
    }

    /// A k-way merge of the directories: each step takes the least key under the
    /// views' cursors, a scan of at most [`MERGE_VIEWS_UP_TO`] keys, where hashing
    /// every container key and sorting the distinct ones cost more.
    fn merge(views: &[RoaringView<'a>]) -> Self {
        let total: usize = views.iter().map(|v| v.container_count()).sum();
        let dirs: Vec<_> = views.iter().map(|v| v.directory()).collect();
        let mut at = vec![0usize; views.len()];
        // The key under each view's cursor; past the end, u64::MAX (above every
        // 48-bit key).
        let head = |v: usize, i: usize| if i < dirs[v].len() { dirs[v].key(i) } else { u64::MAX };
        let mut heads: Vec<u64> = (0..views.len()).map(|v| head(v, 0)).collect();
        // Where each view's next payload starts (see `RoaringView::container_from`).
        let mut starts: Vec<usize> = dirs.iter().map(|d| d.start(0)).collect();
        let (mut keys, mut ends) = (Vec::new(), Vec::new());
        let mut members = Vec::with_capacity(total);
        loop {
            let key = heads.iter().copied().fold(u64::MAX, u64::min);
            if key == u64::MAX {
                break;
            }
            for (v, view) in views.iter().enumerate() {
                if heads[v] == key {
                    let i = at[v];
                    let (c, end) = view.container_from(&dirs[v], i, starts[v]);
                    starts[v] = end;
                    members.push(Member {
                        c,
                        card: dirs[v].card(i),
                    });
                    at[v] = i + 1;
                    heads[v] = head(v, i + 1);
                }
            }
            keys.push(key);
            ends.push(members.len());
            if keys.len() % 4096 == 0 {
                crate::interrupt::check();
            }
        }
        Groups {
            keys,
            ends,
            members,
        }
    }

    fn hash(views: &[RoaringView<'a>]) -> Self {
        let total: usize = views.iter().map(|v| v.container_count()).sum();
        let mut index: HashMap<u64, u32, KeyHash> = HashMap::with_hasher(KeyHash::new());
        let (mut keys, mut counts) = (Vec::new(), Vec::<usize>::new());
        let mut tagged: Vec<(u32, Member<'a>)> = Vec::with_capacity(total);
        let mut unchecked = 0;
        for v in views {
            crate::interrupt::check_every_4096(&mut unchecked, v.container_count());
            let dir = v.directory();
            let mut start = dir.start(0);
            for i in 0..dir.len() {
                let (c, end) = v.container_from(&dir, i, start);
                start = end;
                let key = dir.key(i);
                let g = *index.entry(key).or_insert_with(|| {
                    keys.push(key);
                    counts.push(0);
                    (keys.len() - 1) as u32
                });
                counts[g as usize] += 1;
                tagged.push((
                    g,
                    Member {
                        c,
                        card: dir.card(i),
                    },
                ));
            }
        }
        let mut order: Vec<u32> = (0..keys.len() as u32).collect();
        order.sort_unstable_by_key(|&g| keys[g as usize]);
        // `next[g]`: where group g's next member goes.
        let mut next = vec![0; keys.len()];
        let mut ends = Vec::with_capacity(keys.len());
        let mut at = 0;
        for &g in &order {
            next[g as usize] = at;
            at += counts[g as usize];
            ends.push(at);
        }
        let mut members = match tagged.first() {
            Some(&(_, m)) => vec![m; total],
            None => Vec::new(),
        };
        for (g, m) in tagged {
            members[next[g as usize]] = m;
            next[g as usize] += 1;
        }
        let keys = order.iter().map(|&g| keys[g as usize]).collect();
        Groups {
            keys,
            ends,
            members,
        }
    }

    /// `(key, members)` in key order.
    fn iter(&self) -> impl Iterator<Item = (u64, &[Member<'a>])> + '_ {
        let starts = core::iter::once(0).chain(self.ends.iter().copied());
        self.keys
            .iter()
            .zip(starts.zip(&self.ends))
            .map(|(&key, (s, &e))| (key, &self.members[s..e]))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use proptest::prelude::*;

    use super::*;
    use crate::builder::from_sorted;

    /// A member as (kind, payload, cardinality).
    type Flat<'a> = (u8, &'a [u8], u32);

    /// Each group as its key and members, comparable across ways of gathering.
    fn flat<'a>(g: &Groups<'a>) -> Vec<(u64, Vec<Flat<'a>>)> {
        g.iter()
            .map(|(key, members)| {
                let ms = members
                    .iter()
                    .map(|m| (m.c.kind() as u8, m.c.as_bytes(), m.card))
                    .collect();
                (key, ms)
            })
            .collect()
    }

    /// Values of a few keys, narrow (a dense span) or anywhere, a few values or
    /// many per key, so that arrays, bitmaps and runs meet.
    fn set() -> impl Strategy<Value = Vec<u64>> {
        let keys = prop_oneof![
            prop::collection::btree_set(0u64..24, 0..8),
            prop::collection::btree_set(
                prop_oneof![0u64..4, (1u64 << 32) - 2..(1 << 32) + 2, (1u64 << 48) - 3..1 << 48],
                0..6
            ),
        ];
        (keys, prop::collection::vec((0u16..=u16::MAX, 1u32..6000), 8)).prop_map(|(keys, lows)| {
            let mut values = BTreeSet::new();
            for (i, k) in keys.iter().enumerate() {
                let (low, len) = lows[i % lows.len()];
                let step = if i % 2 == 0 { 1 } else { 7 };
                for x in (u64::from(low)..(1 << 16)).step_by(step).take(len as usize) {
                    values.insert(k << 16 | x);
                }
            }
            values.into_iter().collect()
        })
    }

    proptest! {
        /// The counting sort, the merge and the hash group the same containers
        /// under the same keys, in key order and, within a key, in the views' order.
        #[test]
        fn every_gathering_makes_the_same_groups(
            sets in prop::collection::vec(set(), 0..40),
        ) {
            let bytes: Vec<Vec<u8>> = sets.iter().map(|s| from_sorted(s).unwrap()).collect();
            let views: Vec<RoaringView<'_>> =
                bytes.iter().map(|b| RoaringView::from_bytes(b).unwrap()).collect();
            let want = flat(&Groups::merge(&views));
            prop_assert_eq!(&flat(&Groups::hash(&views)), &want);
            prop_assert_eq!(&flat(&Groups::gather(&views)), &want);
            // Over the whole span, even one the gathering would not count over.
            let keys: Vec<u64> = want.iter().map(|(k, _)| *k).collect();
            if let (Some(&lo), Some(&hi)) = (keys.first(), keys.last()) {
                if hi - lo < 1 << 20 {
                    let span = KeySpan { lo, width: (hi - lo + 1) as usize };
                    prop_assert_eq!(&flat(&Groups::dense(&views, span)), &want);
                }
            }
        }
    }

    #[test]
    fn a_span_is_dense_when_not_much_wider_than_the_containers() {
        let build = |keys: &[u64]| {
            let values: Vec<u64> = keys.iter().map(|k| k << 16).collect();
            from_sorted(&values).unwrap()
        };
        let (a, b, wide) = (build(&[5, 6, 7]), build(&[9, 60]), build(&[9, 200]));
        let (empty, far) = (build(&[]), build(&[1 << 40]));
        let span = |bufs: &[&Vec<u8>]| {
            let views: Vec<RoaringView<'_>> =
                bufs.iter().map(|b| RoaringView::from_bytes(b).unwrap()).collect();
            KeySpan::of_dense(&views).map(|s| (s.lo, s.width))
        };
        // 56 keys for 5 containers: at most 2 * 5 + 64.
        assert_eq!(span(&[&a, &b, &empty]), Some((5, 56)));
        assert_eq!(span(&[&a, &wide]), None);
        assert_eq!(span(&[&a, &far]), None);
        assert_eq!(span(&[&empty]), None);
        assert_eq!(span(&[]), None);
    }
}
