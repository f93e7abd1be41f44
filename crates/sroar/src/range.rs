//! Range queries and range edits, over any `RangeBounds<u64>` (`a..b` half-open,
//! `a..=b` to reach `u64::MAX`, `..`). An empty range (`start >= end`) is empty.

use core::ops::RangeBounds;

use crate::builder::{check_containers, inclusive_bounds, push_range};
use crate::container::bitmap::{self, WORDS};
use crate::owned::Roaring;
use crate::view::RoaringView;
use crate::writer::{CapacityError, Writer};

/// The part `(lo, hi)` of the inclusive range `first..=last` inside container `key`.
fn clip(key: u64, first: u64, last: u64) -> (u16, u16) {
    let lo = if key == first >> 16 { first as u16 } else { 0 };
    let hi = if key == last >> 16 {
        last as u16
    } else {
        u16::MAX
    };
    (lo, hi)
}

/// What a range edit does to each container it touches.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Edit {
    Keep,
    Fill,
    Clear,
    Flip,
}

impl RoaringView<'_> {
    /// Number of values in `range`. Costs O(log n + containers in the range).
    pub fn range_cardinality(&self, range: impl RangeBounds<u64>) -> u64 {
        let Some((first, last)) = inclusive_bounds(range) else {
            return 0;
        };
        let dir = self.directory();
        let mut i = dir.lower_bound(first >> 16);
        let mut count = 0;
        while i < dir.len() && dir.key(i) <= last >> 16 {
            let key = dir.key(i);
            let (lo, hi) = clip(key, first, last);
            count += if (lo, hi) == (0, u16::MAX) {
                u64::from(dir.card(i))
            } else {
                self.container(i).1.range_len(lo, hi) as u64
            };
            i += 1;
        }
        count
    }

    /// Whether every value of `range` is in the set (true for an empty range).
    pub fn contains_range(&self, range: impl RangeBounds<u64>) -> bool {
        let Some((first, last)) = inclusive_bounds(range) else {
            return true;
        };
        let width = u128::from(last - first) + 1;
        if width > u128::from(self.len()) {
            return false;
        }
        u128::from(self.range_cardinality(first..=last)) == width
    }

    /// The buffer of the values of this set that lie in `range`.
    pub fn range(&self, range: impl RangeBounds<u64>) -> Result<Roaring, CapacityError> {
        self.edit_range(range, Edit::Keep)
    }

    /// The buffer of this set plus every value of `range`. Costs O(containers
    /// touched): full containers are emitted as one run each.
    pub fn fill(&self, range: impl RangeBounds<u64>) -> Result<Roaring, CapacityError> {
        self.edit_range(range, Edit::Fill)
    }

    /// The buffer of this set minus every value of `range`.
    pub fn clear(&self, range: impl RangeBounds<u64>) -> Result<Roaring, CapacityError> {
        self.edit_range(range, Edit::Clear)
    }

    /// The buffer of this set with membership of every value of `range` flipped.
    pub fn flip(&self, range: impl RangeBounds<u64>) -> Result<Roaring, CapacityError> {
        self.edit_range(range, Edit::Flip)
    }

    fn edit_range(
        &self,
        range: impl RangeBounds<u64>,
        edit: Edit,
    ) -> Result<Roaring, CapacityError> {
        let n = self.container_count();
        let Some((first, last)) = inclusive_bounds(range) else {
            return Ok(match edit {
                Edit::Keep => Roaring::new(),
                _ => self.to_roaring(),
            });
        };
        let dir = self.directory();
        let (kfirst, klast) = (first >> 16, last >> 16);
        let begin = dir.lower_bound(kfirst);
        let end = dir.lower_bound(klast.saturating_add(1)).max(begin);
        let keys_in_range = klast - kfirst + 1;
        let missing = keys_in_range - (end - begin) as u64;
        let gaps = matches!(edit, Edit::Fill | Edit::Flip);
        if gaps {
            check_containers(missing)?;
        }
        let outside = match edit {
            Edit::Keep => 0,
            _ => n - (end - begin),
        };
        let created = if gaps { missing as usize } else { 0 };
        let mut w = Writer::with_capacity(
            outside + (end - begin) + created,
            self.as_bytes().len() + 4 * created,
        );
        if edit != Edit::Keep {
            for (key, c) in self.containers_in(0..begin) {
                w.push_container(key, c);
            }
        }
        let mut scratch = [0u64; WORDS];
        // First key of the range not handled yet.
        let mut next_key = kfirst;
        for (i, (key, c)) in (begin..).zip(self.containers_in(begin..end)) {
            if i % 4096 == 4095 {
                crate::interrupt::check();
            }
            if gaps && next_key < key {
                push_range(&mut w, (next_key << 16).max(first), (key << 16) - 1);
            }
            next_key = key + 1;
            let (lo, hi) = clip(key, first, last);
            let whole = (lo, hi) == (0, u16::MAX);
            match edit {
                Edit::Keep if whole => w.push_container(key, c),
                Edit::Clear if whole => {}
                Edit::Fill if whole => w.push_full(key),
                _ => {
                    scratch.fill(0);
                    c.or_into(&mut scratch);
                    match edit {
                        Edit::Keep => {
                            if lo > 0 {
                                bitmap::clear_range(&mut scratch, 0, lo - 1);
                            }
                            if hi < u16::MAX {
                                bitmap::clear_range(&mut scratch, hi + 1, u16::MAX);
                            }
                        }
                        Edit::Fill => bitmap::set_range(&mut scratch, lo, hi),
                        Edit::Clear => bitmap::clear_range(&mut scratch, lo, hi),
                        Edit::Flip => bitmap::flip_range(&mut scratch, lo, hi),
                    }
                    w.push_bitmap(key, &scratch);
                }
            }
        }
        if gaps && next_key <= klast {
            push_range(&mut w, (next_key << 16).max(first), last);
        }
        if edit != Edit::Keep {
            for (key, c) in self.containers_in(end..n) {
                w.push_container(key, c);
            }
        }
        w.into_roaring()
    }
}
