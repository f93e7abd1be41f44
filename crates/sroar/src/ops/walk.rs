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
    while i < na && j < nb {
        let (ka, kb) = (da.key(i), db.key(j));
        if ka < kb {
            f(Step::Left(Slot::at(a, &da, i)));
            i += 1;
        } else if kb < ka {
            f(Step::Right(Slot::at(b, &db, j)));
            j += 1;
        } else {
            f(Step::Both(Slot::at(a, &da, i), Slot::at(b, &db, j)));
            i += 1;
            j += 1;
        }
    }
    for i in i..na {
        f(Step::Left(Slot::at(a, &da, i)));
    }
    for j in j..nb {
        f(Step::Right(Slot::at(b, &db, j)));
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
    common_at(&da, &db, |i, j| f(Slot::at(a, &da, i), Slot::at(b, &db, j)))
}

/// [`common`] over two directories, visiting the indexes of each shared key.
pub(crate) fn common_at(
    da: &Directory<'_>,
    db: &Directory<'_>,
    mut f: impl FnMut(usize, usize) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let (na, nb) = (da.len(), db.len());
    let (mut i, mut j) = (0, 0);
    while i < na && j < nb {
        let (ka, kb) = (da.key(i), db.key(j));
        if ka < kb {
            i = seek(da, i, kb);
        } else if kb < ka {
            j = seek(db, j, ka);
        } else {
            f(i, j)?;
            i += 1;
            j += 1;
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
