//! The maximal runs of consecutive values of a set, and sets built from runs: what
//! `int8multirange` casts and `rb_runs` need, with no pass over single values.

use crate::builder::check_containers;
use crate::container::bitmap::WORDS;
use crate::container::Container;
use crate::kernels::in_place::{for_each_array_run, for_each_word_run};
use crate::view::RoaringView;
use crate::writer::{CapacityError, Writer};

/// The maximal runs `(first, last)`, inclusive and ascending, of a set: a run
/// that crosses a container boundary is one run. From [`RoaringView::runs`].
#[derive(Clone, Debug)]
pub struct Runs<'a> {
    view: RoaringView<'a>,
    /// The next container to read.
    next: usize,
    /// Runs of the container read last, as absolute values, not yet handed out.
    pending: Vec<(u64, u64)>,
    at: usize,
}

impl<'a> Runs<'a> {
    pub(crate) fn new(view: RoaringView<'a>) -> Self {
        Runs {
            view,
            next: 0,
            pending: Vec::new(),
            at: 0,
        }
    }

    /// Reads the next container's runs into `pending`; false at the end.
    fn refill(&mut self) -> bool {
        if self.next == self.view.container_count() {
            return false;
        }
        if self.next % 4096 == 4095 {
            crate::interrupt::check();
        }
        let (key, c) = self.view.container(self.next);
        self.next += 1;
        let high = key << 16;
        self.pending.clear();
        self.at = 0;
        let mut push = |s: u16, e: u16| {
            self.pending
                .push((high | u64::from(s), high | u64::from(e)))
        };
        match c {
            Container::Run(r) => r.runs().for_each(|(s, e)| push(s, e)),
            Container::Array(a) => for_each_array_run(a.lows(), push),
            Container::Bitmap(b) => {
                let mut words = [0u64; WORDS];
                for (i, w) in words.iter_mut().enumerate() {
                    *w = b.word(i);
                }
                for_each_word_run(&words, push);
            }
        }
        true
    }

    fn next_local(&mut self) -> Option<(u64, u64)> {
        if self.at == self.pending.len() && !self.refill() {
            return None;
        }
        self.at += 1;
        Some(self.pending[self.at - 1])
    }
}

impl Iterator for Runs<'_> {
    type Item = (u64, u64);

    fn next(&mut self) -> Option<(u64, u64)> {
        let (first, mut last) = self.next_local()?;
        // A run ending at a container's last value may go on in the next one.
        while last & 0xFFFF == 0xFFFF && last != u64::MAX {
            if self.at == self.pending.len() && !self.refill() {
                break;
            }
            match self.pending.get(self.at) {
                Some(&(s, e)) if s == last + 1 => {
                    last = e;
                    self.at += 1;
                }
                _ => break,
            }
        }
        Some((first, last))
    }
}

impl<'a> RoaringView<'a> {
    /// The maximal runs of consecutive values, as inclusive `(first, last)` pairs in
    /// ascending order.
    pub fn runs(&self) -> Runs<'a> {
        Runs::new(*self)
    }
}

/// Builds the set of the values in `runs`: inclusive `(first, last)` pairs, sorted
/// ascending and disjoint (adjacent runs are allowed and merge). Fails before
/// allocating when the result cannot fit.
///
/// # Panics
/// If a run has `first > last`, or runs are unsorted or overlap.
pub fn from_runs(runs: &[(u64, u64)]) -> Result<Vec<u8>, CapacityError> {
    let mut containers = 0u64;
    let mut last_key = None;
    for (i, &(lo, hi)) in runs.iter().enumerate() {
        assert!(lo <= hi, "sroar: run {lo}..={hi} is empty");
        if i > 0 {
            assert!(lo > runs[i - 1].1, "sroar: runs unsorted or overlapping");
        }
        let (klo, khi) = (lo >> 16, hi >> 16);
        containers += khi - klo + 1 - u64::from(last_key == Some(klo));
        last_key = Some(khi);
    }
    check_containers(containers)?;
    let mut w = Writer::with_capacity(
        containers as usize,
        4 * runs.len() + 4 * containers as usize,
    );
    let mut local: Vec<(u16, u16)> = Vec::new();
    let mut key = None;
    for &(lo, hi) in runs {
        for k in lo >> 16..=hi >> 16 {
            if key != Some(k) {
                if let Some(prev) = key {
                    w.push_runs(prev, &local);
                }
                local.clear();
                key = Some(k);
            }
            let s = if k == lo >> 16 { lo as u16 } else { 0 };
            let e = if k == hi >> 16 { hi as u16 } else { u16::MAX };
            local.push((s, e - s));
        }
    }
    if let Some(k) = key {
        w.push_runs(k, &local);
    }
    w.into_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn model_runs(set: &BTreeSet<u64>) -> Vec<(u64, u64)> {
        let mut out: Vec<(u64, u64)> = Vec::new();
        for &v in set {
            match out.last_mut() {
                Some(r) if r.1 != u64::MAX && r.1 + 1 == v => r.1 = v,
                _ => out.push((v, v)),
            }
        }
        out
    }

    #[test]
    fn runs_match_a_model_across_containers_and_kinds() {
        let mut sets: Vec<BTreeSet<u64>> = vec![
            BTreeSet::new(),
            [0].into(),
            [u64::MAX].into(),
            [0, 1, 2, 5, 1 << 16, (1 << 16) + 1, u64::MAX - 1, u64::MAX].into(),
            (65530..131080).collect(),
            ((1 << 32) - 3..(1 << 32) + 3).collect(),
            ((1 << 48) - 65536..(1 << 48) + 65536).collect(),
            (u64::MAX - 70_000..=u64::MAX).collect(),
        ];
        // Bitmap containers with runs at word and container edges.
        sets.push(
            (0..200_000)
                .filter(|v| v % 3 != 0 || v % 65536 == 0)
                .collect(),
        );
        sets.push((0..9000).map(|v| v * 2).chain(65535..65540).collect());
        for set in &sets {
            let values: Vec<u64> = set.iter().copied().collect();
            let bytes = crate::builder::from_sorted(&values).unwrap();
            let view = RoaringView::from_bytes(&bytes).unwrap();
            let runs: Vec<(u64, u64)> = view.runs().collect();
            assert_eq!(runs, model_runs(set), "{} values", set.len());
            assert_eq!(from_runs(&runs).unwrap(), bytes);
        }
    }

    #[test]
    fn from_runs_merges_adjacent_runs_and_refuses_huge_results() {
        let a = from_runs(&[(1, 3), (4, 4), (65535, 65536), (u64::MAX, u64::MAX)]).unwrap();
        let b = crate::builder::from_sorted(&[1, 2, 3, 4, 65535, 65536, u64::MAX]).unwrap();
        assert_eq!(a, b);
        assert_eq!(from_runs(&[]).unwrap(), crate::builder::empty());
        assert!(from_runs(&[(0, u64::MAX)]).is_err());
    }
}
