//! Directory merges: the keys of two views visited in increasing order.
//!
//! Both walks read only the directories until a visitor asks for a container.
//! [`common`] gallops through the larger directory, so a small view against a
//! huge one costs O(small · log huge).

use core::ops::ControlFlow;

use crate::container::Container;
use crate::format::directory::Directory;
use crate::view::RoaringView;

/// One container of a view with its key and its cardinality (from the directory).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slot<'a> {
    pub(crate) key: u64,
    pub(crate) card: u32,
    pub(crate) c: Container<'a>,
}

impl<'a> Slot<'a> {
    #[inline(always)]
    pub(crate) fn at(v: RoaringView<'a>, dir: &Directory<'a>, i: usize) -> Self {
        Slot {
            key: dir.key(i),
            card: dir.card(i),
            c: v.container_at(dir, i),
        }
    }

    /// [`Slot::at`] for a walk in directory order: container `i` starts at
    /// `*start`, which is moved to where it ends, the start of container `i + 1`
    /// (see `RoaringView::container_from`).
    #[inline(always)]
    fn next(v: RoaringView<'a>, dir: &Directory<'a>, i: usize, start: &mut usize) -> Self {
        let (c, end) = v.container_from(dir, i, *start);
        *start = end;
        Slot {
            key: dir.key(i),
            card: dir.card(i),
            c,
        }
    }
}

/// One step of a full merge.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Step<'a> {
    /// The key is only in the left view.
    Left(Slot<'a>),
    /// The key is only in the right view.
    Right(Slot<'a>),
    /// The key is in both views.
    Both(Slot<'a>, Slot<'a>),
}

/// Visits every key of `a` and `b` in increasing order.
pub(crate) fn merge<'a>(a: RoaringView<'a>, b: RoaringView<'a>, mut f: impl FnMut(Step<'a>)) {
    let (da, db) = (a.directory(), b.directory());
    let (na, nb) = (da.len(), db.len());
    let (mut i, mut j) = (0, 0);
    let (mut sa, mut sb) = (da.start(0), db.start(0));
    while i < na && j < nb {
        let (ka, kb) = (da.key(i), db.key(j));
        if ka < kb {
            f(Step::Left(Slot::next(a, &da, i, &mut sa)));
            i += 1;
        } else if kb < ka {
            f(Step::Right(Slot::next(b, &db, j, &mut sb)));
            j += 1;
        } else {
            f(Step::Both(
                Slot::next(a, &da, i, &mut sa),
                Slot::next(b, &db, j, &mut sb),
            ));
            i += 1;
            j += 1;
        }
    }
    for i in i..na {
        f(Step::Left(Slot::next(a, &da, i, &mut sa)));
    }
    for j in j..nb {
        f(Step::Right(Slot::next(b, &db, j, &mut sb)));
    }
}

/// Visits the keys present in both `a` and `b`, in increasing order, until `f`
/// breaks; returns what `f` returned last.
pub(crate) fn common<'a>(
    a: RoaringView<'a>,
    b: RoaringView<'a>,
    mut f: impl FnMut(Slot<'a>, Slot<'a>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let (da, db) = (a.directory(), b.directory());
    let (mut ca, mut cb) = (Cursor::new(&da), Cursor::new(&db));
    common_at(&da, &db, |i, j| f(ca.slot(a, &da, i), cb.slot(b, &db, j)))
}

/// [`common`] for two sets of one or two containers each (most small sets):
/// their containers read from the header's fields, and each key of `a` looked
/// up among `b`'s. The directories' general reads and a merge's set-up are
/// most of the cost of such pairs. Called by the operations themselves, not
/// from [`common`]: a second call site of the visitor there made LLVM stop
/// inlining `meet` into it, which cost every other pair of sets 7-15%.
#[inline(always)]
pub(crate) fn common_pairs<'a>(
    a: RoaringView<'a>,
    b: RoaringView<'a>,
    mut f: impl FnMut(Slot<'a>, Slot<'a>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    debug_assert!(is_pair(a) && is_pair(b));
    let slot = |v: RoaringView<'a>, i: usize| {
        let (p, c) = v.pair_container(i);
        Slot { key: p.key, card: p.card, c }
    };
    for i in 0..a.container_count() {
        if let Some(j) = b.pair_index(a.pair_key(i)) {
            f(slot(a, i), slot(b, j))?;
        }
    }
    ControlFlow::Continue(())
}

/// Whether `v` is a set of one or two containers, for [`common_pairs`].
#[inline(always)]
pub(crate) fn is_pair(v: RoaringView<'_>) -> bool {
    matches!(v.container_count(), 1 | 2)
}

/// Where the container after the last one visited starts: keys shared by two
/// sets are often adjacent in both, and the next payload starts where the last
/// one ended, which skips finding a start (a sum of cardinalities when no offsets
/// are stored; see `RoaringView::container_from`).
pub(crate) struct Cursor {
    next: usize,
    start: usize,
}

impl Cursor {
    pub(crate) fn new(dir: &Directory<'_>) -> Self {
        Cursor {
            next: 0,
            start: dir.start(0),
        }
    }

    /// [`Slot::at`] through the cursor.
    #[inline(always)]
    pub(crate) fn slot<'a>(&mut self, v: RoaringView<'a>, dir: &Directory<'a>, i: usize) -> Slot<'a> {
        if i != self.next {
            self.start = if i > self.next {
                dir.start_ahead(self.next, self.start, i)
            } else {
                dir.start(i)
            };
        }
        self.next = i + 1;
        Slot::next(v, dir, i, &mut self.start)
    }
}

/// [`common`] over two directories, visiting the indexes of each shared key.
pub(crate) fn common_at(
    da: &Directory<'_>,
    db: &Directory<'_>,
    mut f: impl FnMut(usize, usize) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let (na, nb) = (da.len(), db.len());
    // A set of one or two containers (most sets of a few values) against a longer
    // directory: its keys are looked up by the directory's search, where a merge
    // would take a branch taken at random and a gallop per step.
    if na <= PROBE_UP_TO && nb > 2 * PROBE_UP_TO {
        return probe(da, db, &mut f);
    }
    if nb <= PROBE_UP_TO && na > 2 * PROBE_UP_TO {
        return probe(db, da, |j, i| f(i, j));
    }
    if na == 0 || nb == 0 {
        return ControlFlow::Continue(());
    }
    // Each key is decoded once: the current key of each side is kept, and only
    // the side that moved reads its next one.
    let (mut i, mut j) = (0, 0);
    let (mut ka, mut kb) = (da.key(0), db.key(0));
    loop {
        if ka < kb {
            if !catch_up(da, &mut i, &mut ka, kb) {
                break;
            }
        } else if kb < ka {
            if !catch_up(db, &mut j, &mut kb, ka) {
                break;
            }
        } else {
            f(i, j)?;
            i += 1;
            j += 1;
            if i == na || j == nb {
                break;
            }
            ka = da.key(i);
            kb = db.key(j);
        }
    }
    ControlFlow::Continue(())
}

/// Moves `i`, whose key `k` is below `target`, to the first key at or past
/// `target`, and `k` with it; false when the directory ends first. One step
/// first, inline: most sets interleave their keys closely, and a gallop is a
/// call and a compare more than the next key.
#[inline(always)]
fn catch_up(dir: &Directory<'_>, i: &mut usize, k: &mut u64, target: u64) -> bool {
    *i += 1;
    if *i == dir.len() {
        return false;
    }
    *k = dir.key(*i);
    if *k < target {
        *i = seek(dir, *i + 1, target);
        if *i == dir.len() {
            return false;
        }
        *k = dir.key(*i);
    }
    true
}

/// A side with at most this many keys looks each one up in the other directory
/// when that one has more than twice as many.
const PROBE_UP_TO: usize = 2;

/// [`common_at`] for a `small` directory: each of its keys searched in `large`.
/// Not inlined, so that the merge's loop, where most of the work is, stays as
/// compact as it was.
#[inline(never)]
fn probe(
    small: &Directory<'_>,
    large: &Directory<'_>,
    mut f: impl FnMut(usize, usize) -> ControlFlow<()>,
) -> ControlFlow<()> {
    for i in 0..small.len() {
        if let Ok(j) = large.search(small.key(i)) {
            f(i, j)?;
        }
    }
    ControlFlow::Continue(())
}

/// The first index `>= from` whose key is `>= key`, by exponential then binary
/// search from `from` (cheap when the answer is near).
#[inline]
pub(crate) fn seek(dir: &Directory<'_>, from: usize, key: u64) -> usize {
    let n = dir.len();
    if from >= n || dir.key(from) >= key {
        return from;
    }
    // Invariant: key(lo) < key, and key(hi) >= key or hi == n.
    let mut lo = from;
    let mut step = 1;
    let mut hi = loop {
        let probe = lo + step;
        if probe >= n {
            break n;
        }
        if dir.key(probe) >= key {
            break probe;
        }
        lo = probe;
        step *= 2;
    };
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if dir.key(mid) < key {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::from_sorted;

    #[test]
    fn seek_is_a_lower_bound_from_any_start() {
        let keys = [0u64, 1, 2, 5, 9, 10, 11, 40, 41, 1 << 20, (1 << 48) - 1];
        let values: Vec<u64> = keys.iter().map(|k| k << 16).collect();
        let bytes = from_sorted(&values).unwrap();
        let v = RoaringView::from_bytes(&bytes).unwrap();
        let dir = v.directory();
        for from in 0..=keys.len() {
            for target in (0..45).chain([1 << 20, (1 << 20) + 1, (1 << 48) - 1]) {
                let want = from.max(keys.partition_point(|&k| k < target));
                assert_eq!(seek(&dir, from, target), want, "from {from}, key {target}");
            }
        }
    }

    #[test]
    fn merge_and_common_visit_keys_in_order() {
        let a = from_sorted(&[1, 3 << 16, 4 << 16, 9 << 16]).unwrap();
        let b = from_sorted(&[2 << 16, 4 << 16, 9 << 16, 10 << 16]).unwrap();
        let (a, b) = (
            RoaringView::from_bytes(&a).unwrap(),
            RoaringView::from_bytes(&b).unwrap(),
        );
        let mut seen = Vec::new();
        merge(a, b, |s| {
            seen.push(match s {
                Step::Left(x) => (x.key, 'a'),
                Step::Right(y) => (y.key, 'b'),
                Step::Both(x, y) => {
                    assert_eq!(x.key, y.key);
                    (x.key, '*')
                }
            })
        });
        assert_eq!(
            seen,
            [(0, 'a'), (2, 'b'), (3, 'a'), (4, '*'), (9, '*'), (10, 'b')]
        );
        let mut both = Vec::new();
        let flow = common(a, b, |x, _| {
            both.push(x.key);
            if x.key == 4 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert!(flow.is_break());
        assert_eq!(both, [4]);
    }
}

#[cfg(test)]
mod paths {
    use std::collections::BTreeSet;

    use proptest::prelude::*;

    use super::*;
    use crate::builder::from_sorted;

    /// Keys from a small range (narrow keys, searched by a count) or anywhere
    /// (wide keys, searched by pivots), so that every path of `common_at` and of the
    /// directory's search meets shared keys.
    fn keys(max_len: usize) -> impl Strategy<Value = BTreeSet<u64>> {
        prop_oneof![
            prop::collection::btree_set(0u64..40, 0..max_len),
            prop::collection::btree_set(0u64..1 << 20, 0..max_len),
            prop::collection::btree_set(
                prop_oneof![0u64..4, (1u64 << 32) - 2..(1 << 32) + 2, (1u64 << 48) - 4..1 << 48],
                0..max_len
            ),
        ]
    }

    fn view_bytes(keys: &BTreeSet<u64>) -> Vec<u8> {
        let values: Vec<u64> = keys.iter().map(|k| k << 16).collect();
        from_sorted(&values).unwrap()
    }

    proptest! {
        /// Every way `common_at` pairs two directories (a probe of one or two keys,
        /// the merge with its gallops) visits exactly the shared keys, in order.
        #[test]
        fn common_at_visits_the_shared_keys(
            a in keys(5),
            b in keys(200),
            swap in any::<bool>(),
        ) {
            let (a, b) = if swap { (b, a) } else { (a, b) };
            let (xa, xb) = (view_bytes(&a), view_bytes(&b));
            let (va, vb) = (RoaringView::from_bytes(&xa).unwrap(), RoaringView::from_bytes(&xb).unwrap());
            let (da, db) = (va.directory(), vb.directory());
            let mut seen = Vec::new();
            let _ = common_at(&da, &db, |i, j| {
                assert_eq!(da.key(i), db.key(j));
                seen.push(da.key(i));
                ControlFlow::Continue(())
            });
            let want: Vec<u64> = a.intersection(&b).copied().collect();
            prop_assert_eq!(seen, want);
        }
    }
}
