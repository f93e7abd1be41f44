//! Element edits: insert and remove values, producing new canonical buffers.
//!
//! Containers that an edit does not touch are copied verbatim.

use crate::container::bitmap::{BITMAP_BYTES, WORDS};
use crate::container::{Container, ARRAY_MAX};
use crate::ops::seek;
use crate::owned::Roaring;
use crate::view::RoaringView;
use crate::writer::{CapacityError, Splice};

impl<'a> RoaringView<'a> {
    /// The buffer of this set with `x` added.
    pub fn insert(&self, x: u64) -> Result<Roaring, CapacityError> {
        self.with_inserted(&[x]).into_roaring()
    }

    /// The buffer of this set with `x` removed.
    pub fn remove(&self, x: u64) -> Result<Roaring, CapacityError> {
        self.with_removed(&[x]).into_roaring()
    }

    /// The buffer of this set with every value of `values` (any order) added.
    pub fn insert_many(&self, values: &[u64]) -> Result<Roaring, CapacityError> {
        self.with_inserted(values).into_roaring()
    }

    /// The buffer of this set with every value of `values` (any order) removed.
    pub fn remove_many(&self, values: &[u64]) -> Result<Roaring, CapacityError> {
        self.with_removed(values).into_roaring()
    }

    /// This set with every value of `values` (any order) added, unwritten: the
    /// containers no value falls in are copied once, as they are, when the result
    /// is written ([`Encode`](crate::Encode)).
    ///
    /// ```
    /// use sroar::{Encode, Roaring};
    ///
    /// let base = Roaring::from_sorted(&[1, 2, 1 << 20]).unwrap();
    /// let mut edit = base.view().with_inserted(&[3, 1]);
    /// let mut out = vec![0; edit.encoded_len().unwrap()];
    /// edit.write_into(&mut out).unwrap();
    /// assert_eq!(out, Roaring::from_sorted(&[1, 2, 3, 1 << 20]).unwrap());
    /// ```
    pub fn with_inserted(&self, values: &[u64]) -> Splice<'a> {
        self.edit_sorted(&sorted_copy(values), &[])
    }

    /// This set with every value of `values` (any order) removed, unwritten, as
    /// [`RoaringView::with_inserted`].
    pub fn with_removed(&self, values: &[u64]) -> Splice<'a> {
        self.edit_sorted(&[], &sorted_copy(values))
    }

    /// This set with `removes` taken out and then `adds` put in (a value in both
    /// ends up in the set), in one pass over the containers they touch: a batch of
    /// changes to one set, unwritten, as [`RoaringView::with_inserted`].
    ///
    /// ```
    /// use sroar::Roaring;
    ///
    /// let base = Roaring::from_sorted(&[1, 2, 3]).unwrap();
    /// let changed = base.view().with_changes(&[9, 2], &[1, 2]).into_roaring().unwrap();
    /// assert_eq!(changed, Roaring::from_sorted(&[2, 3, 9]).unwrap());
    /// ```
    pub fn with_changes(&self, adds: &[u64], removes: &[u64]) -> Splice<'a> {
        self.edit_sorted(&sorted_copy(adds), &sorted_copy(removes))
    }

    /// Takes the strictly ascending `removes` out of the set and puts the strictly
    /// ascending `adds` in, one container at a time; a container that would not
    /// change is kept.
    fn edit_sorted(&self, adds: &[u64], removes: &[u64]) -> Splice<'a> {
        let mut sp = Splice::new(*self);
        let dir = self.directory();
        let groups = |v: &[u64]| v.chunk_by(|a, b| a >> 16 == b >> 16).count();
        sp.reserve(
            self.payload_len().min((groups(adds) + groups(removes)) * BITMAP_BYTES)
                + 2 * adds.len(),
        );
        let mut scratch = [0u64; WORDS];
        let mut lows: Vec<u16> = Vec::new();
        let (mut i, mut adds, mut removes) = (0, adds, removes);
        loop {
            let key = match (adds.first(), removes.first()) {
                (None, None) => break,
                (a, r) => a.min(r).or(a).or(r).map_or(0, |v| v >> 16),
            };
            let (add, rem) = (take_key(&mut adds, key), take_key(&mut removes, key));
            i = seek(&dir, i, key);
            let present = i < dir.len() && dir.key(i) == key;
            if present {
                let c = self.container_at(&dir, i);
                let low = |v: &u64| *v as u16;
                if add.iter().map(low).all(|v| c.contains(v))
                    && !rem.iter().map(low).any(|v| c.contains(v) && add.binary_search(&(key << 16 | u64::from(v))).is_err())
                {
                    continue;
                }
                sp.replace(i);
                i += 1;
                // An array that stays one is merged; a bitmap's worth of values goes
                // through the scratch bitmap.
                if let Container::Array(x) = c {
                    if x.len() + add.len() <= ARRAY_MAX as usize {
                        edit_lows((0..x.len()).map(|j| x.get(j)), add, rem, &mut lows);
                        sp.writer().push_sorted_lows(key, &lows);
                        continue;
                    }
                }
                scratch.fill(0);
                c.or_into(&mut scratch);
            } else if add.is_empty() {
                continue;
            } else {
                sp.keep_to(i);
                if add.len() <= ARRAY_MAX as usize {
                    edit_lows(core::iter::empty(), add, &[], &mut lows);
                    sp.writer().push_sorted_lows(key, &lows);
                    continue;
                }
                scratch.fill(0);
            }
            for &v in rem {
                scratch[usize::from(v as u16 >> 6)] &= !(1 << (v & 63));
            }
            for &v in add {
                scratch[usize::from(v as u16 >> 6)] |= 1 << (v & 63);
            }
            sp.writer().push_bitmap(key, &scratch);
        }
        sp.finish()
    }
}

/// `(old \ rem) ∪ add` for the ascending lows `old` and the ascending values `add`
/// and `rem` of one container, into `out`.
fn edit_lows(old: impl Iterator<Item = u16>, add: &[u64], rem: &[u64], out: &mut Vec<u16>) {
    out.clear();
    let mut add = add.iter().map(|&v| v as u16).peekable();
    let mut rem = rem.iter().map(|&v| v as u16).peekable();
    for v in old {
        while rem.next_if(|&r| r < v).is_some() {}
        while let Some(a) = add.next_if(|&a| a < v) {
            out.push(a);
        }
        // Added back if also added (removes come first).
        let added = add.next_if_eq(&v).is_some();
        if rem.next_if_eq(&v).is_none() || added {
            out.push(v);
        }
    }
    out.extend(add);
}

/// Splits off the leading values of `values` in container `key`.
fn take_key<'v>(values: &mut &'v [u64], key: u64) -> &'v [u64] {
    let n = values.partition_point(|v| v >> 16 == key);
    let (group, rest) = values.split_at(n);
    *values = rest;
    group
}

fn sorted_copy(values: &[u64]) -> Vec<u64> {
    let mut v = values.to_vec();
    if !v.is_sorted() {
        v.sort_unstable();
    }
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use crate::builder::from_sorted;
    use crate::RoaringView;

    #[test]
    fn insert_remove_round_trip() {
        let base = from_sorted(&[1, 2, 3, 1 << 20]).unwrap();
        let v = RoaringView::from_bytes(&base).unwrap();
        let b = v.insert(4).unwrap();
        assert_eq!(b, from_sorted(&[1, 2, 3, 4, 1 << 20]).unwrap());
        let b2 = b.view().remove(4).unwrap();
        assert_eq!(b2, base);
        assert_eq!(v.insert(2).unwrap(), base);
        assert_eq!(v.remove(9).unwrap(), base);
        let e = v.remove_many(&[1 << 20, 3, 2, 1]).unwrap();
        assert_eq!(e, crate::builder::empty());
        let m = v.insert_many(&[u64::MAX, 0, 0]).unwrap();
        assert_eq!(m, from_sorted(&[0, 1, 2, 3, 1 << 20, u64::MAX]).unwrap());
    }
}
