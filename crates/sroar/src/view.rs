//! The zero-copy view: a validated byte buffer read in place.

use crate::container::{ArrayView, BitmapView, Container, Kind, RunView};
use crate::format::directory::{Directory, Place, Shape};
use crate::format::{validate, FormatError, Header};

/// The container of kind `kind` whose payload is `payload`; `card` gives the
/// cardinality a bitmap keeps, read only for bitmaps.
#[inline(always)]
fn container_of(kind: Kind, payload: &[u8], card: impl FnOnce() -> u32) -> Container<'_> {
    match kind {
        Kind::Array => Container::Array(ArrayView::new(payload)),
        Kind::Bitmap => Container::Bitmap(BitmapView::with_card(payload, card())),
        Kind::Run => Container::Run(RunView::new(payload)),
    }
}

/// A sroar bitmap read in place from its serialized bytes.
///
/// Opening a view validates the buffer once and reads where its parts are from
/// the header; afterwards every query reads the bytes directly, at any alignment,
/// without decoding.
#[derive(Clone, Copy, Debug)]
pub struct RoaringView<'a> {
    bytes: &'a [u8],
    /// Where the parts of the bytes are, read from the header when opened.
    shape: Shape,
}

// A view is its bytes: the shape is read from them.
impl PartialEq for RoaringView<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes == other.bytes
    }
}

impl Eq for RoaringView<'_> {}

impl core::hash::Hash for RoaringView<'_> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.bytes.hash(state);
    }
}

impl<'a> RoaringView<'a> {
    /// Validates `bytes` (one O(len) pass) and opens a view over them.
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Self, FormatError> {
        let shape = validate(bytes)?;
        Ok(Self::with_shape(bytes, shape))
    }

    /// Opens a view without validating: reads the header only.
    ///
    /// # Safety
    /// `bytes` must be a buffer that [`RoaringView::from_bytes`] accepts, for
    /// example the output of this crate or a buffer validated before (and not
    /// modified since). Today every read is bounds-checked, so breaking the
    /// contract makes queries return wrong answers or panic rather than cause
    /// undefined behavior; later versions (SIMD kernels) may rely on it fully.
    #[allow(unsafe_code, reason = "an unsafe fn: its contract is the caller's to keep")]
    pub unsafe fn from_bytes_unchecked(bytes: &'a [u8]) -> Self {
        let shape = Header::parse(bytes)
            .ok()
            .and_then(|p| Shape::new(&p, bytes.len()))
            .expect("sroar: from_bytes_unchecked was given bytes that are not a valid bitmap");
        Self::with_shape(bytes, shape)
    }

    #[inline(always)]
    fn with_shape(bytes: &'a [u8], shape: Shape) -> Self {
        RoaringView { bytes, shape }
    }

    /// The serialized bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// An owned copy of the set (its bytes are canonical already).
    pub fn to_roaring(&self) -> crate::Roaring {
        crate::owned::Roaring::from_canonical(self.bytes.to_vec())
    }

    /// What the header says: the cardinality, the number of containers, min and
    /// max.
    #[inline]
    pub fn header(&self) -> Header {
        self.shape.header
    }

    /// Number of values.
    #[inline]
    pub fn len(&self) -> u64 {
        self.shape.header.cardinality
    }

    /// True when the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.container_count() == 0
    }

    /// Smallest value.
    pub fn min(&self) -> Option<u64> {
        (!self.is_empty()).then_some(self.shape.header.min)
    }

    /// Largest value.
    pub fn max(&self) -> Option<u64> {
        (!self.is_empty()).then_some(self.shape.header.max)
    }

    /// Number of containers.
    #[inline]
    pub fn container_count(&self) -> usize {
        self.shape.n()
    }

    /// Bytes of the header and the directory: where the payloads start.
    #[inline]
    pub(crate) fn head_len(&self) -> usize {
        self.shape.payload as usize
    }

    /// Bytes of the payloads: everything after the header and the directory.
    #[inline]
    pub(crate) fn payload_len(&self) -> usize {
        self.bytes.len() - self.shape.payload as usize
    }

    #[inline]
    pub(crate) fn directory(&self) -> Directory<'a> {
        Directory::new(self.bytes, self.shape)
    }

    /// The key (value >> 16) of container `i`.
    ///
    /// # Panics
    /// If `i >= container_count()`.
    pub fn key(&self, i: usize) -> u64 {
        assert!(i < self.container_count(), "sroar: container index out of range");
        self.directory().key(i)
    }

    /// Container `i` and its key.
    ///
    /// # Panics
    /// If `i >= container_count()`.
    #[inline]
    pub fn container(&self, i: usize) -> (u64, Container<'a>) {
        let dir = self.directory();
        assert!(i < dir.len(), "sroar: container index out of range");
        (dir.key(i), self.container_at(&dir, i))
    }

    /// Container `i` of this view's directory `dir`. Always inlined: a container
    /// returned through memory costs a store-forwarding stall per step of a walk.
    #[inline(always)]
    pub(crate) fn container_at(&self, dir: &Directory<'a>, i: usize) -> Container<'a> {
        self.container_from(dir, i, dir.start(i)).0
    }

    /// [`Self::container_at`], given where its payload starts; also returns where
    /// the payload ends, which is where container `i + 1` starts.
    #[inline(always)]
    pub(crate) fn container_from(&self, dir: &Directory<'a>, i: usize, start: usize) -> (Container<'a>, usize) {
        let (kind, start, end) = dir.slot_from(i, start);
        (container_of(kind, &self.bytes[start..end], || dir.card(i)), end)
    }

    /// Index of the container with `key`, if any.
    pub fn find_container(&self, key: u64) -> Option<usize> {
        self.directory().search(key).ok()
    }

    /// Whether `x` is in the set.
    ///
    /// Reads only what the answer needs: the container's key, cardinality and
    /// offsets (from the header's fields for a set of one or two containers, by
    /// a search of the directory's keys otherwise), and then one byte of a
    /// bitmap, a search of an array, or of a run list's starts.
    #[inline]
    pub fn contains(&self, x: u64) -> bool {
        // Most small sets are one or two containers (93% of dimension_003's
        // sets are one, 73% of dimension_008's two): they are read without a
        // directory, in a frame of their own, this small. Both paths are calls,
        // so that the caller's loop stays as tight as one call made it.
        if matches!(self.shape.n(), 1 | 2) {
            self.contains_in_pair(x)
        } else {
            self.contains_in_directory(x)
        }
    }

    /// [`Self::contains`] for sets of one or two containers.
    #[inline(never)]
    fn contains_in_pair(&self, x: u64) -> bool {
        match self.pair_index(x >> 16) {
            Some(i) => {
                let p = self.shape.pair_place(self.bytes, i);
                self.payload_contains(p.kind, p.start, p.end, x as u16)
            }
            None => false,
        }
    }

    /// The key of container `i` of a set of one or two containers.
    #[inline(always)]
    pub(crate) fn pair_key(&self, i: usize) -> u64 {
        self.shape.pair_key(self.bytes, i)
    }

    /// Index of the container with `key` in a set of one or two containers.
    #[inline(always)]
    pub(crate) fn pair_index(&self, key: u64) -> Option<usize> {
        self.shape.pair_index(self.bytes, key)
    }

    /// Container `i` of a set of one or two containers, read without a
    /// directory: where it is and what it holds.
    #[inline(always)]
    pub(crate) fn pair_container(&self, i: usize) -> (Place, Container<'a>) {
        let p = self.shape.pair_place(self.bytes, i);
        (p, container_of(p.kind, &self.bytes[p.start..p.end], || p.card))
    }

    /// [`Self::contains`] for sets of no container or more than two.
    #[inline(never)]
    fn contains_in_directory(&self, x: u64) -> bool {
        let dir = self.directory();
        let Ok(i) = dir.search(x >> 16) else {
            return false;
        };
        let (kind, start, end) = dir.slot(i);
        self.payload_contains(kind, start, end, x as u16)
    }

    /// Whether the container of kind `kind` at `self.bytes[start..end]` holds
    /// `low`: one byte of a bitmap, or a search of an array or of a run list.
    #[inline(always)]
    fn payload_contains(&self, kind: Kind, start: usize, end: usize, low: u16) -> bool {
        match kind {
            Kind::Array => ArrayView::new(&self.bytes[start..end]).contains(low),
            Kind::Bitmap => self.bytes[start + usize::from(low >> 3)] >> (low & 7) & 1 == 1,
            Kind::Run => RunView::new(&self.bytes[start..end]).contains(low),
        }
    }

    /// Number of values `<= x`. Costs O(log n): a search of the keys, then one
    /// stored count and at most 63 cardinalities.
    pub fn rank(&self, x: u64) -> u64 {
        let dir = self.directory();
        match dir.search(x >> 16) {
            Ok(i) => dir.card_prefix(i) + self.container_at(&dir, i).rank(x as u16) as u64,
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
        let c = self.container_at(&dir, i);
        c.contains(x as u16)
            .then(|| dir.card_prefix(i) + c.rank(x as u16) as u64 - 1)
    }

    /// The `k`-th smallest value (0-based). Costs O(log n): a search of the
    /// stored counts, then at most 63 cardinalities.
    pub fn select(&self, k: u64) -> Option<u64> {
        let dir = self.directory();
        let (i, k) = dir.locate(k)?;
        let low = self.container_at(&dir, i).select(k as usize)?;
        Some((dir.key(i) << 16) | u64::from(low))
    }

    /// Iterator over `(key, container)` pairs.
    pub fn containers(&self) -> Containers<'a> {
        self.containers_in(0..self.container_count())
    }

    /// [`Self::containers`] of the indexes `range` (within `0..container_count()`).
    pub(crate) fn containers_in(&self, range: core::ops::Range<usize>) -> Containers<'a> {
        let dir = self.directory();
        assert!(range.end <= dir.len(), "sroar: container range out of bounds");
        let start = if range.start < range.end { dir.start(range.start) } else { 0 };
        Containers {
            view: *self,
            dir,
            front: range.start,
            back: range.end.max(range.start),
            start,
        }
    }
}

/// The `(key, container)` pairs of a view, in key order (see
/// [`RoaringView::containers`]). Walking forward finds each payload where the last
/// one ended, which costs nothing; a set without stored offsets would otherwise
/// add up the cardinalities of its block for every container.
#[derive(Clone, Debug)]
pub struct Containers<'a> {
    view: RoaringView<'a>,
    dir: Directory<'a>,
    /// The next index from the front, and where its payload starts.
    front: usize,
    start: usize,
    /// One past the next index from the back.
    back: usize,
}

impl<'a> Iterator for Containers<'a> {
    type Item = (u64, Container<'a>);

    // Always: left to the compiler, whether a copy loop such as the disjoint
    // `andnot` paid a call per container followed how unrelated code fell into
    // codegen units (dimension_003 `andnot` 1.27x slower).
    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        if self.front == self.back {
            return None;
        }
        let i = self.front;
        let (c, end) = self.view.container_from(&self.dir, i, self.start);
        (self.front, self.start) = (i + 1, end);
        Some((self.dir.key(i), c))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Containers<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.front == self.back {
            return None;
        }
        self.back -= 1;
        let i = self.back;
        Some((self.dir.key(i), self.view.container_at(&self.dir, i)))
    }
}

impl ExactSizeIterator for Containers<'_> {}
