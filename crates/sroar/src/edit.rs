//! Element edits: insert and remove values, producing new canonical buffers.
//!
//! Containers that an edit does not touch are copied verbatim.

use crate::container::bitmap::WORDS;
use crate::owned::Roaring;
use crate::view::RoaringView;
use crate::writer::{CapacityError, Writer};

impl RoaringView<'_> {
    /// The buffer of this set with `x` added.
    pub fn insert(&self, x: u64) -> Result<Roaring, CapacityError> {
        if self.contains(x) {
            return Ok(self.to_roaring());
        }
        self.edit_sorted(&[x], true)
    }

    /// The buffer of this set with `x` removed.
    pub fn remove(&self, x: u64) -> Result<Roaring, CapacityError> {
        if !self.contains(x) {
            return Ok(self.to_roaring());
        }
        self.edit_sorted(&[x], false)
    }

    /// The buffer of this set with every value of `values` (any order) added.
    pub fn insert_many(&self, values: &[u64]) -> Result<Roaring, CapacityError> {
        self.edit_sorted(&sorted_copy(values), true)
    }

    /// The buffer of this set with every value of `values` (any order) removed.
    pub fn remove_many(&self, values: &[u64]) -> Result<Roaring, CapacityError> {
        self.edit_sorted(&sorted_copy(values), false)
    }

    /// Merges the strictly ascending `values` into (or out of) the set, one
    /// container at a time.
    fn edit_sorted(&self, values: &[u64], insert: bool) -> Result<Roaring, CapacityError> {
        let n = self.container_count();
        let mut w = Writer::with_capacity(n + 1, self.as_bytes().len() + 2 * values.len());
        let mut scratch = [0u64; WORDS];
        let (mut i, mut j) = (0, 0);
        while i < n || j < values.len() {
            let kc = if i < n { self.key(i) } else { u64::MAX };
            let kv = values.get(j).map_or(u64::MAX, |v| v >> 16);
            if kc < kv {
                let (key, c) = self.container(i);
                w.push_container(key, c);
                i += 1;
                continue;
            }
            let group_end = j + values[j..].partition_point(|v| v >> 16 == kv);
            let group = &values[j..group_end];
            j = group_end;
            if kc > kv && !insert {
                continue;
            }
            scratch.fill(0);
            if kc == kv {
                self.container(i).1.or_into(&mut scratch);
                i += 1;
            }
            for &v in group {
                let (word, bit) = (usize::from(v as u16 >> 6), v & 63);
                if insert {
                    scratch[word] |= 1 << bit;
                } else {
                    scratch[word] &= !(1 << bit);
                }
            }
            w.push_bitmap(kv, &scratch);
        }
        w.into_roaring()
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
