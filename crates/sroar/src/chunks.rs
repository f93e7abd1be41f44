//! A set cut into parts by the high bits of its values, so that a table can keep a
//! large set as several rows and a change rewrites only the row of its part.

use crate::format::directory::Directory;
use crate::view::RoaringView;
use crate::writer::Splice;

/// The parts of a set whose values share `value >> shift`, ascending, each with
/// that shared prefix: see [`RoaringView::chunks`].
#[derive(Clone, Debug)]
pub struct Chunks<'a> {
    view: RoaringView<'a>,
    dir: Directory<'a>,
    next: usize,
    /// `shift - 16`: how far a container key is shifted to give its chunk.
    key_shift: u32,
}

impl<'a> RoaringView<'a> {
    /// The set cut into chunks of the values that share `value >> shift`, ascending
    /// and never empty, each with that prefix. A chunk is a run of whole containers,
    /// so `shift` is from 16 to 63 (64 would be the whole set).
    ///
    /// ```
    /// use sroar::Roaring;
    ///
    /// let set = Roaring::from_sorted(&[1, 2, 1 << 20, (1 << 20) + 5, 3 << 20]).unwrap();
    /// let chunks: Vec<(u64, Vec<u64>)> = set
    ///     .view()
    ///     .chunks(20)
    ///     .map(|(prefix, part)| (prefix, part.into_roaring().unwrap().iter().collect()))
    ///     .collect();
    /// assert_eq!(chunks, [(0, vec![1, 2]), (1, vec![1 << 20, (1 << 20) + 5]), (3, vec![3 << 20])]);
    /// ```
    ///
    /// # Panics
    /// If `shift` is not from 16 to 63.
    pub fn chunks(&self, shift: u32) -> Chunks<'a> {
        assert!((16..64).contains(&shift), "sroar: chunk shift {shift} is not from 16 to 63");
        Chunks {
            view: *self,
            dir: self.directory(),
            next: 0,
            key_shift: shift - 16,
        }
    }
}

impl<'a> Iterator for Chunks<'a> {
    type Item = (u64, Splice<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        let from = self.next;
        if from >= self.dir.len() {
            return None;
        }
        let prefix = self.dir.key(from) >> self.key_shift;
        // The chunk's containers end before the first key of the next prefix.
        let to = match (prefix + 1).checked_shl(self.key_shift) {
            Some(end) if end >> self.key_shift == prefix + 1 => self.dir.lower_bound(end),
            _ => self.dir.len(),
        };
        self.next = to;
        Some((prefix, Splice::of_containers(self.view, from..to)))
    }
}
