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
    let mut order: Vec<usize> = (0..views.len()).collect();
    order.sort_by_key(|&v| views[v].len());
    if views[order[0]].is_empty() {
        return Writer::new();
    }
    let dirs: Vec<Directory<'_>> = order.iter().map(|&v| views[v].directory()).collect();
    let views: Vec<RoaringView<'_>> = order.iter().map(|&v| views[v]).collect();
    let k = views.len();

    // Keys first: `found` holds, per surviving key, its container index in each
    // input (in `order`).
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

    let groups = found.chunks_exact(k);
    let (containers, payload) = groups.clone().fold((0, 0), |(n, p), g| {
        let min_card = (0..k).map(|v| dirs[v].card(g[v])).min().unwrap_or(0);
        let runs: usize = (0..k)
            .map(|v| run_bound_bytes(views[v].container(g[v]).1, dirs[v].card(g[v])))
            .sum();
        (n + 1, p + payload_bound(u64::from(min_card), runs))
    });
    let mut w = Writer::with_capacity(containers, payload);

    let mut sink = Write {
        w: &mut w,
        s: Scratch::new(),
    };
    let mut tmp: Vec<u16> = Vec::new();
    let mut by_card: Vec<usize> = Vec::with_capacity(k);
    for g in groups {
        let key = dirs[0].key(g[0]);
        if k == 2 {
            let (x, y) = (Slot::at(views[0], &dirs[0], g[0]), Slot::at(views[1], &dirs[1], g[1]));
            meet(&mut sink, x, y);
            continue;
        }
        by_card.clear();
        by_card.extend(0..k);
        by_card.sort_by_key(|&v| dirs[v].card(g[v]));
        let first = by_card[0];
        let mut acc = Acc::from_container(
            views[first].container(g[first]).1,
            dirs[first].card(g[first]),
        );
        for &v in &by_card[1..] {
            acc.and(views[v].container(g[v]).1, &mut tmp);
            if acc.is_empty() {
                break;
            }
        }
        acc.push(key, sink.w, &mut tmp);
    }
    w
}
