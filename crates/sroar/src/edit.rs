//! Element edits: insert and remove values, producing new canonical buffers.
//!
//! Containers that an edit does not touch are copied verbatim.

use crate::container::bitmap::{BITMAP_BYTES, WORDS};
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
        self.edit_sorted(&sorted_copy(values), true)
    }

    /// This set with every value of `values` (any order) removed, unwritten, as
    /// [`RoaringView::with_inserted`].
    pub fn with_removed(&self, values: &[u64]) -> Splice<'a> {
        self.edit_sorted(&sorted_copy(values), false)
    }

    /// Merges the strictly ascending `values` into (or out of) the set, one
    /// container at a time; a container that would not change is kept.
    fn edit_sorted(&self, values: &[u64], insert: bool) -> Splice<'a> {
        let mut sp = Splice::new(*self);
        let dir = self.directory();
        let groups = values.chunk_by(|a, b| a >> 16 == b >> 16).count();
        sp.reserve(self.payload_len().min(groups * BITMAP_BYTES) + 2 * values.len());
        let mut scratch = [0u64; WORDS];
        let (mut i, mut j) = (0, 0);
        while j < values.len() {
            let key = values[j] >> 16;
            let group_end = j + values[j..].partition_point(|v| v >> 16 == key);
            let group = &values[j..group_end];
            j = group_end;
            i = seek(&dir, i, key);
            let present = i < dir.len() && dir.key(i) == key;
            if !present && !insert {
                continue;
            }
            if present {
                let c = self.container_at(&dir, i);
                if group.iter().all(|&v| c.contains(v as u16) == insert) {
                    continue;
                }
                sp.replace(i);
                scratch.fill(0);
                c.or_into(&mut scratch);
                i += 1;
            } else {
                sp.keep_to(i);
                scratch.fill(0);
            }
            for &v in group {
                let (word, bit) = (usize::from(v as u16 >> 6), v & 63);
                if insert {
                    scratch[word] |= 1 << bit;
                } else {
                    scratch[word] &= !(1 << bit);
                }
            }
            sp.writer().push_bitmap(key, &scratch);
        }
        sp.finish()
    }
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
