//! Intersection of many views.

use core::ops::ControlFlow;

use super::accumulate::scratch::Acc;
use super::pair::{payload_bytes, Slices};
use super::walk::{common_at, seek, Cursor, Slot};
use crate::format::directory::Directory;
use crate::kernels::array;
use crate::view::RoaringView;
use crate::writer::Writer;

/// The intersection of all `views`, as an unfinished [`Writer`] (the empty set for
/// no views).
///
/// Folds the inputs in, fewest values first, a batch of keys at a time (see
/// [`fold`]): each input after the first two is asked only for the keys still
/// alive, and the walk ends as soon as none can be.
pub fn and_many(views: &[RoaringView<'_>]) -> Writer {
    match views {
        [] => return Writer::new(),
        [one] => {
            let mut w =
                Writer::with_capacity(one.container_count(), super::pair::payload_bytes(*one));
            for (key, c) in one.containers() {
                w.push_container(key, c);
            }
            return w;
        }
        _ => {}
    }
    let mut views = views.to_vec();
    views.sort_by_key(RoaringView::len);
    if let [a, b] = views[..] {
        return super::and::and_writer(a, b);
    }
    // A reservation, not a bound: the intersection is usually no bigger than the
    // smallest input.
    let mut w = Writer::with_capacity(
        views.iter().map(RoaringView::container_count).min().unwrap_or(0),
        views.iter().map(|v| payload_bytes(*v)).min().unwrap_or(0),
    );
    let mut tmp = Vec::new();
    fold(&views, |key, acc, tmp| acc.push(key, &mut w, tmp), &mut tmp);
    w
}

/// The cardinality of the intersection of all `views` (0 for no views), counted
/// key by key as [`and_many`] intersects, with nothing written.
pub fn and_many_len(views: &[RoaringView<'_>]) -> u64 {
    match views {
        [] => return 0,
        [one] => return one.len(),
        [a, b] => return a.and_len(b),
        _ => {}
    }
    let mut views = views.to_vec();
    views.sort_by_key(RoaringView::len);
    let mut total = 0u64;
    fold(&views, |_, acc, _| total += u64::from(acc.card()), &mut Vec::new());
    total
}

/// Keys whose containers are met with the rest of the views together, so that
/// at most this many scratch containers (8 kB each in the bitmap form) are held
/// at once.
const BATCH: usize = 256;

/// Calls `emit` with each key every view holds, in increasing order, and what its
/// containers share, leaving out keys where they share nothing. `views` (at least
/// two) come smallest first: the first two are intersected by a merge of their
/// directories, and each survivor is then looked up in the next view, so that a
/// view costs what is left of the intersection, not its own size.
fn fold(
    views: &[RoaringView<'_>],
    mut emit: impl FnMut(u64, &Acc, &mut Vec<u16>),
    tmp: &mut Vec<u16>,
) {
    let (a, b) = (views[0], views[1]);
    let (da, db) = (a.directory(), b.directory());
    let (mut ca, mut cb) = (Cursor::new(&da), Cursor::new(&db));
    let mut rest = Rest::new(&views[2..]);
    let mut batch = Vec::with_capacity(BATCH);
    let mut unchecked = 0usize;
    let _ = common_at(&da, &db, |i, j| {
        crate::interrupt::check_every_4096(&mut unchecked, 1);
        let (x, y) = (ca.slot(a, &da, i), cb.slot(b, &db, j));
        let (x, y) = if x.card <= y.card { (x, y) } else { (y, x) };
        if let Some(acc) = first_meet(x, y, tmp) {
            batch.push((x.key, acc));
        }
        if batch.len() < BATCH {
            return ControlFlow::Continue(());
        }
        rest.narrow(&mut batch, tmp);
        for (key, acc) in batch.drain(..) {
            emit(key, &acc, tmp);
        }
        // A view that ran out of keys holds none of the keys to come.
        if rest.ended {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    rest.narrow(&mut batch, tmp);
    for (key, acc) in &batch {
        emit(*key, acc, tmp);
    }
}

/// The views after the first two, each with where the lookups of increasing keys
/// reached.
struct Rest<'a> {
    views: Vec<(RoaringView<'a>, Directory<'a>, Cursor, usize)>,
    ended: bool,
}

impl<'a> Rest<'a> {
    fn new(views: &[RoaringView<'a>]) -> Self {
        let views = views
            .iter()
            .map(|&v| {
                let d = v.directory();
                let c = Cursor::new(&d);
                (v, d, c, 0)
            })
            .collect();
        Rest { views, ended: false }
    }

    /// Meets each key of `batch` (in increasing order, past every key met before)
    /// with its container in each view, dropping the keys a view lacks or where
    /// the meeting empties.
    fn narrow(&mut self, batch: &mut Vec<(u64, Acc)>, tmp: &mut Vec<u16>) {
        for (v, d, cursor, at) in &mut self.views {
            if batch.is_empty() {
                return;
            }
            batch.retain_mut(|(key, acc)| {
                *at = seek(d, *at, *key);
                if *at == d.len() || d.key(*at) != *key {
                    return false;
                }
                acc.and(cursor.slot(*v, d, *at).c, tmp);
                !acc.is_empty()
            });
            self.ended |= *at == d.len();
        }
    }
}

/// `x ∩ y` as a scratch container, None when empty. Two arrays, the usual pair
/// of small sets, are intersected before anything is allocated, since most such
/// pairs share nothing.
fn first_meet(x: Slot<'_>, y: Slot<'_>, tmp: &mut Vec<u16>) -> Option<Acc> {
    if let (Slices::Array(xs), Slices::Array(ys)) = (Slices::of(x.c), Slices::of(y.c)) {
        tmp.clear();
        array::intersect(xs, ys, tmp);
        return (!tmp.is_empty()).then(|| Acc::from_lows(tmp));
    }
    let mut acc = Acc::from_container(x.c, x.card);
    acc.and(y.c, tmp);
    (!acc.is_empty()).then_some(acc)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use proptest::prelude::*;

    use super::*;
    use crate::builder::from_sorted;

    /// A set over most keys of `0..keys` (up to a few times [`BATCH`], so that
    /// batches flush mid-walk) and of a few far keys, with some of 16 lows in each
    /// key, or a
    /// long run where `dense` holds, so that arrays meet runs and bitmaps.
    fn set() -> impl Strategy<Value = Vec<u64>> {
        (
            1u64..3 * BATCH as u64,
            prop::collection::vec(any::<u16>(), 1..64),
            any::<bool>(),
        )
            .prop_map(|(keys, masks, dense)| {
                let mut values = BTreeSet::new();
                let far = [1 << 16, 1 << 32, 1 << 48, u64::MAX >> 16];
                for (i, key) in (0..keys).chain(far).enumerate() {
                    let mask = masks[i % masks.len()];
                    // Gaps, so that a lookup can land on a later key, and a view
                    // can end before the others.
                    if mask % 7 == 0 {
                        continue;
                    }
                    if dense && i % 16 == 0 {
                        values.extend((0..5000).map(|x| key << 16 | x));
                    }
                    values.extend((0..16).filter(|b| mask >> b & 1 == 1).map(|b| key << 16 | b));
                }
                values.into_iter().collect()
            })
    }

    /// The largest view holds keys `0..10` and 900 alone: the first batch's
    /// lookups land on 900, its last key, which the walk must still reach.
    #[test]
    fn a_lookup_landing_on_a_views_last_key_is_not_its_end() {
        let small: Vec<u64> = (0..1000u64).flat_map(|k| (0..4).map(move |x| k << 16 | x)).collect();
        let large: Vec<u64> = (0..10u64)
            .chain([900])
            .flat_map(|k| (0..60_000).map(move |x| k << 16 | x))
            .collect();
        let bufs = [&small, &small, &large].map(|s| from_sorted(s).unwrap());
        let views = bufs.each_ref().map(|b| RoaringView::from_bytes(b).unwrap());
        let model: Vec<u64> = small.iter().copied().filter(|v| large.binary_search(v).is_ok()).collect();
        assert_eq!(model.len(), 11 * 4);
        assert_eq!(and_many_len(&views), 44);
        assert_eq!(and_many(&views).into_vec().unwrap(), from_sorted(&model).unwrap());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        #[test]
        fn many_intersections_match_the_model(sets in prop::collection::vec(set(), 3..7)) {
            let bufs: Vec<Vec<u8>> = sets.iter().map(|s| from_sorted(s).unwrap()).collect();
            let views: Vec<RoaringView<'_>> =
                bufs.iter().map(|b| RoaringView::from_bytes(b).unwrap()).collect();
            let model: Vec<u64> = sets[0]
                .iter()
                .copied()
                .filter(|v| sets[1..].iter().all(|s| s.binary_search(v).is_ok()))
                .collect();
            prop_assert_eq!(and_many_len(&views), model.len() as u64);
            let got = and_many(&views).into_vec().unwrap();
            prop_assert_eq!(got, from_sorted(&model).unwrap());
        }
    }
}
