//! Intersection of many views at once.

use super::accumulate::scratch::Acc;
use super::meet::{meet, Write};
use super::pair::{payload_bound, run_bound_bytes, Scratch};
use super::walk::{seek, Slot};
use crate::format::directory::Directory;
use crate::view::RoaringView;
use crate::writer::Writer;

/// The intersection of all `views`, as an unfinished [`Writer`] (the empty set for
/// no views).
///
/// Starts from the input with the fewest values and intersects the keys first:
/// a key survives only if every input holds it, and the walk ends as soon as no
/// key can survive. Surviving keys are then intersected container by container,
/// smallest first, stopping a key as soon as it empties.
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
    let Some(common) = Common::of(views) else {
        return Writer::new();
    };
    let (containers, payload) = common.groups().fold((0, 0), |(n, p), g| {
        let min_card = (0..common.k()).map(|v| common.dirs[v].card(g[v])).min();
        let runs: usize = (0..common.k())
            .map(|v| run_bound_bytes(common.container(v, g), common.dirs[v].card(g[v])))
            .sum();
        (n + 1, p + payload_bound(u64::from(min_card.unwrap_or(0)), runs))
    });
    let mut w = Writer::with_capacity(containers, payload);

    let mut sink = Write {
        w: &mut w,
        s: Scratch::new(),
    };
    let mut tmp: Vec<u16> = Vec::new();
    let mut by_card: Vec<usize> = Vec::with_capacity(common.k());
    for g in common.groups() {
        let key = common.dirs[0].key(g[0]);
        if common.k() == 2 {
            let slot = |v: usize| Slot::at(common.views[v], &common.dirs[v], g[v]);
            meet(&mut sink, slot(0), slot(1));
            continue;
        }
        if let Some(acc) = common.intersect(g, &mut by_card, &mut tmp) {
            acc.push(key, sink.w, &mut tmp);
        }
    }
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
    let Some(common) = Common::of(views) else {
        return 0;
    };
    let (mut tmp, mut by_card) = (Vec::new(), Vec::with_capacity(common.k()));
    common
        .groups()
        .filter_map(|g| common.intersect(g, &mut by_card, &mut tmp))
        .map(|acc| u64::from(acc.card()))
        .sum()
}

/// The keys every input holds, with their containers: the inputs (at least two)
/// ordered by cardinality, and per common key its container index in each.
struct Common<'a> {
    views: Vec<RoaringView<'a>>,
    dirs: Vec<Directory<'a>>,
    found: Vec<usize>,
}

impl<'a> Common<'a> {
    /// None when the smallest input is empty (so is the intersection).
    fn of(views: &[RoaringView<'a>]) -> Option<Self> {
        let mut views = views.to_vec();
        views.sort_by_key(RoaringView::len);
        if views[0].is_empty() {
            return None;
        }
        let dirs: Vec<Directory<'a>> = views.iter().map(RoaringView::directory).collect();
        let k = views.len();
        let mut found: Vec<usize> = Vec::new();
        let mut cursors = vec![0usize; k];
        'keys: for i in 0..dirs[0].len() {
            let key = dirs[0].key(i);
            for v in 1..k {
                let j = seek(&dirs[v], cursors[v], key);
                cursors[v] = j;
                if j == dirs[v].len() {
                    break 'keys;
                }
                if dirs[v].key(j) != key {
                    continue 'keys;
                }
            }
            found.push(i);
            found.extend(cursors[1..].iter().copied());
        }
        Some(Common { views, dirs, found })
    }

    fn k(&self) -> usize {
        self.views.len()
    }

    /// Per common key, the container index in each input.
    fn groups(&self) -> core::slice::ChunksExact<'_, usize> {
        self.found.chunks_exact(self.k())
    }

    fn container(&self, v: usize, g: &[usize]) -> crate::container::Container<'a> {
        self.views[v].container(g[v]).1
    }

    /// The intersection of one key's containers, smallest first, stopping as soon
    /// as it empties (then None).
    fn intersect(&self, g: &[usize], by_card: &mut Vec<usize>, tmp: &mut Vec<u16>) -> Option<Acc> {
        by_card.clear();
        by_card.extend(0..self.k());
        by_card.sort_by_key(|&v| self.dirs[v].card(g[v]));
        let first = by_card[0];
        let mut acc = Acc::from_container(self.container(first, g), self.dirs[first].card(g[first]));
        for &v in &by_card[1..] {
            acc.and(self.container(v, g), tmp);
            if acc.is_empty() {
                return None;
            }
        }
        Some(acc)
    }
}
