//! The zero-copy view: a validated byte buffer read in place.

use crate::container::{ArrayView, BitmapView, Container, Kind, RunView};
use crate::format::directory::Directory;
use crate::format::header::{read_u32, read_u64};
use crate::format::{validate, FormatError};

/// A sroar bitmap read in place from its serialized bytes.
///
/// Opening a view validates the buffer once; afterwards every query reads the
/// bytes directly, at any alignment, without decoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RoaringView<'a> {
    bytes: &'a [u8],
}

impl<'a> RoaringView<'a> {
    /// Validates `bytes` (one O(len) pass) and opens a view over them.
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Self, FormatError> {
        validate(bytes)?;
        Ok(RoaringView { bytes })
    }

    /// Opens a view without validating.
    ///
    /// # Safety
    /// `bytes` must be a buffer that [`RoaringView::from_bytes`] accepts, for
    /// example the output of this crate or a buffer validated before (and not
    /// modified since). Today every read is bounds-checked, so breaking the
    /// contract makes queries return wrong answers or panic rather than cause
    /// undefined behavior; later versions (SIMD kernels) may rely on it fully.
    #[allow(unsafe_code, reason = "an unsafe fn: its contract is the caller's to keep")]
    pub unsafe fn from_bytes_unchecked(bytes: &'a [u8]) -> Self {
        RoaringView { bytes }
    }

    /// The serialized bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Number of values.
    pub fn len(&self) -> u64 {
        read_u64(self.bytes, 16)
    }

    /// True when the set is empty.
    pub fn is_empty(&self) -> bool {
        self.container_count() == 0
    }

    /// Smallest value.
    pub fn min(&self) -> Option<u64> {
        (!self.is_empty()).then(|| read_u64(self.bytes, 24))
    }

    /// Largest value.
    pub fn max(&self) -> Option<u64> {
        (!self.is_empty()).then(|| read_u64(self.bytes, 32))
    }

    /// Number of containers.
    #[inline]
    pub fn container_count(&self) -> usize {
        read_u32(self.bytes, 8) as usize
    }

    #[inline]
    pub(crate) fn directory(&self) -> Directory<'a> {
        Directory::new(self.bytes, self.container_count())
    }

    /// The key (value >> 16) of container `i`.
    ///
    /// # Panics
    /// If `i >= container_count()`.
    pub fn key(&self, i: usize) -> u64 {
        self.directory().key(i)
    }

    /// Container `i` and its key.
    ///
    /// # Panics
    /// If `i >= container_count()`.
    #[inline]
    pub fn container(&self, i: usize) -> (u64, Container<'a>) {
        let dir = self.directory();
        let n = dir.len();
        let (code, offset) = dir.descr(i);
        let card = dir.card(i);
        let start = offset as usize;
        let c = match Kind::from_code(code) {
            Some(Kind::Array) => Container::Array(ArrayView::new(
                &self.bytes[start..start + 2 * card as usize],
            )),
            Some(Kind::Bitmap) => {
                Container::Bitmap(BitmapView::with_card(&self.bytes[start..], card))
            }
            _ => {
                let end = if i + 1 < n {
                    dir.descr(i + 1).1 as usize
                } else {
                    self.bytes.len()
                };
                Container::Run(RunView::new(&self.bytes[start..end]))
            }
        };
        (dir.key(i), c)
    }

    /// Index of the container with `key`, if any.
    pub fn find_container(&self, key: u64) -> Option<usize> {
        self.directory().search(key).ok()
    }

    /// Whether `x` is in the set.
    ///
    /// Reads only what the answer needs: the directory's key entries (binary
    /// search), the container's descriptor, and then one byte of a bitmap, a
    /// binary search over an array, or over a run list's starts.
    pub fn contains(&self, x: u64) -> bool {
        let dir = self.directory();
        let Ok(i) = dir.search(x >> 16) else {
            return false;
        };
        let (code, offset) = dir.descr(i);
        let start = offset as usize;
        let low = x as u16;
        match code {
            1 => {
                let card = dir.card(i) as usize;
                ArrayView::new(&self.bytes[start..start + 2 * card]).contains(low)
            }
            2 => self.bytes[start + usize::from(low >> 3)] >> (low & 7) & 1 == 1,
            _ => {
                let end = if i + 1 < dir.len() {
                    dir.descr(i + 1).1 as usize
                } else {
                    self.bytes.len()
                };
                RunView::new(&self.bytes[start..end]).contains(low)
            }
        }
    }

    /// Number of values `<= x`. Costs O(log n) plus a scan of the directory
    /// entries before `x`'s container.
    pub fn rank(&self, x: u64) -> u64 {
        let dir = self.directory();
        match dir.search(x >> 16) {
            Ok(i) => dir.card_prefix(i) + self.container(i).1.rank(x as u16) as u64,
            Err(i) => dir.card_prefix(i),
        }
    }

    /// Number of values `< x`.
    pub fn rank_lt(&self, x: u64) -> u64 {
        match x.checked_sub(1) {
            Some(p) => self.rank(p),
            None => 0,
        }
    }

    /// 0-based position of `x` in ascending order, if present.
    pub fn index(&self, x: u64) -> Option<u64> {
        let dir = self.directory();
        let i = dir.search(x >> 16).ok()?;
        let c = self.container(i).1;
        c.contains(x as u16)
            .then(|| dir.card_prefix(i) + c.rank(x as u16) as u64 - 1)
    }

    /// The `k`-th smallest value (0-based).
    pub fn select(&self, k: u64) -> Option<u64> {
        if k >= self.len() {
            return None;
        }
        let dir = self.directory();
        let mut k = k;
        for i in 0..dir.len() {
            let card = u64::from(dir.card(i));
            if k < card {
                let (key, c) = self.container(i);
                return c.select(k as usize).map(|low| (key << 16) | u64::from(low));
            }
            k -= card;
        }
        None
    }

    /// Iterator over `(key, container)` pairs.
    pub fn containers(&self) -> impl DoubleEndedIterator<Item = (u64, Container<'a>)> + 'a {
        let v = *self;
        (0..self.container_count()).map(move |i| v.container(i))
    }
}
