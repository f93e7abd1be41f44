//! Union of many views at once (FastOr-style).

use super::pair::{is_full, payload_bound, run_bound_bytes};
use crate::container::bitmap::WORDS;
use crate::container::{Container, ARRAY_MAX};
use crate::format::directory::Directory;
use crate::kernels::{array_bitmap, bitmap, run};
use crate::view::RoaringView;
use crate::writer::Writer;

/// The union of all `views`, as an unfinished [`Writer`] (the empty set for no
/// views).
///
/// The directories are gathered first into `(key, input, container)` entries
/// sorted by key, which sizes the writer once. Then, per key: a single container
/// is copied verbatim; a full container ends the key at once; arrays whose summed
/// cardinality fits an array are concatenated, sorted and deduplicated; anything
/// else is ORed into one scratch bitmap, counted once at the end, and pushed in
/// its canonical kind.
pub fn or_many(views: &[RoaringView<'_>]) -> Writer {
    let dirs: Vec<Directory<'_>> = views.iter().map(|v| v.directory()).collect();
    let mut entries: Vec<(u64, u32, u32)> = Vec::with_capacity(dirs.iter().map(|d| d.len()).sum());
    for (v, d) in dirs.iter().enumerate() {
        entries.extend((0..d.len()).map(|i| (d.key(i), v as u32, i as u32)));
    }
    entries.sort_unstable();
    let slot = |&(_, v, i): &(u64, u32, u32)| -> (Container<'_>, u32) {
        let (v, i) = (v as usize, i as usize);
        (views[v].container(i).1, dirs[v].card(i))
    };

    // Size the writer once, from the directories.
    let (mut containers, mut payload) = (0, 0);
    for group in entries.chunk_by(|x, y| x.0 == y.0) {
        containers += 1;
        payload += match group {
            [one] => slot(one).0.as_bytes().len(),
            _ => {
                let (mut card, mut runs) = (0u64, 0usize);
                for e in group {
                    let (c, n) = slot(e);
                    card += u64::from(n);
                    runs += run_bound_bytes(c, n);
                }
                payload_bound(card, runs)
            }
        };
    }
    let mut w = Writer::with_capacity(containers, payload);

    let mut lows: Vec<u16> = Vec::new();
    let mut words = Box::new([0u64; WORDS]);
    for group in entries.chunk_by(|x, y| x.0 == y.0) {
        let key = group[0].0;
        if let [one] = group {
            w.push_container(key, slot(one).0);
            continue;
        }
        if let Some(full) = group.iter().map(slot).find(|&(c, _)| is_full(c)) {
            w.push_container(key, full.0);
            continue;
        }
        let all_arrays = group
            .iter()
            .all(|e| matches!(slot(e).0, Container::Array(_)));
        let card: u64 = group.iter().map(|e| u64::from(slot(e).1)).sum();
        if all_arrays && card <= u64::from(ARRAY_MAX) {
            lows.clear();
            for e in group {
                lows.extend(slot(e).0.iter());
            }
            lows.sort_unstable();
            lows.dedup();
            w.push_sorted_lows(key, &lows);
            continue;
        }
        words.fill(0);
        for e in group {
            let c = slot(e).0;
            match c {
                Container::Array(a) => {
                    array_bitmap::set_into(a.as_bytes().as_chunks::<2>().0, &mut words)
                }
                Container::Bitmap(b) => {
                    bitmap::or_assign(&mut words, b.as_bytes().as_chunks::<8>().0)
                }
                Container::Run(r) => run::set_into(r.as_bytes().as_chunks::<4>().0, &mut words),
            }
        }
        w.push_bitmap(key, &words);
    }
    w
}
