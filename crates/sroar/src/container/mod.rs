//! The three container kinds behind one small enum, and the canonical type rule.

pub mod array;
pub mod bitmap;
pub mod run;

pub use array::{ArrayIter, ArrayView};
pub use bitmap::{BitmapIter, BitmapView};
pub use run::{RunIter, RunView};

/// Largest cardinality an array container may hold in canonical form.
pub const ARRAY_MAX: u32 = 4096;

/// The kind of a container, as stored in the top two bits of its descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Sorted `u16` list (type 1).
    Array,
    /// 65536-bit bitmap (type 2).
    Bitmap,
    /// Run-length list (type 3).
    Run,
}

impl Kind {
    /// The type code stored in the descriptor.
    pub fn code(self) -> u32 {
        match self {
            Kind::Array => 1,
            Kind::Bitmap => 2,
            Kind::Run => 3,
        }
    }

    /// The kind of a type code, if valid.
    pub fn from_code(code: u32) -> Option<Kind> {
        match code {
            1 => Some(Kind::Array),
            2 => Some(Kind::Bitmap),
            3 => Some(Kind::Run),
            _ => None,
        }
    }

    /// Lower-case name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Array => "array",
            Kind::Bitmap => "bitmap",
            Kind::Run => "run",
        }
    }
}

/// A container of this many runs or more is never stored as runs (4 bytes a run
/// reach a bitmap's 8 KiB, and an array of up to 4,096 values is smaller still),
/// so counting a bitmap's runs for [`canonical_kind`] may stop there.
pub const RUNS_CAP: u32 = 2048;

/// The canonical kind of a non-empty container with `card` values in `nruns` runs:
/// the smallest encoding, ties going to array, then bitmap, before run.
pub fn canonical_kind(card: u32, nruns: u32) -> Kind {
    let run_bytes = 4 * u64::from(nruns);
    if card <= ARRAY_MAX {
        if run_bytes < 2 * u64::from(card) {
            Kind::Run
        } else {
            Kind::Array
        }
    } else if run_bytes < 8192 {
        Kind::Run
    } else {
        Kind::Bitmap
    }
}

/// Payload size in bytes of a container of `kind`.
pub fn payload_len(kind: Kind, card: u32, nruns: u32) -> usize {
    match kind {
        Kind::Array => 2 * card as usize,
        Kind::Bitmap => bitmap::BITMAP_BYTES,
        Kind::Run => 4 * nruns as usize,
    }
}

/// A borrowed container of any kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Container<'a> {
    /// An array container.
    Array(ArrayView<'a>),
    /// A bitmap container.
    Bitmap(BitmapView<'a>),
    /// A run container.
    Run(RunView<'a>),
}

macro_rules! each {
    ($self:expr, $c:ident => $e:expr) => {
        match $self {
            Container::Array($c) => $e,
            Container::Bitmap($c) => $e,
            Container::Run($c) => $e,
        }
    };
}

impl<'a> Container<'a> {
    /// The kind of this container.
    pub fn kind(&self) -> Kind {
        match self {
            Container::Array(_) => Kind::Array,
            Container::Bitmap(_) => Kind::Bitmap,
            Container::Run(_) => Kind::Run,
        }
    }

    /// The payload bytes, exactly as stored.
    pub fn as_bytes(&self) -> &'a [u8] {
        each!(self, c => c.as_bytes())
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        each!(self, c => c.len())
    }

    /// True when there are no values.
    pub fn is_empty(&self) -> bool {
        each!(self, c => c.is_empty())
    }

    /// Whether `low` is present.
    pub fn contains(&self, low: u16) -> bool {
        each!(self, c => c.contains(low))
    }

    /// Number of values `<= low`.
    pub fn rank(&self, low: u16) -> usize {
        each!(self, c => c.rank(low))
    }

    /// Number of values `< low`.
    pub fn rank_lt(&self, low: u16) -> usize {
        each!(self, c => c.rank_lt(low))
    }

    /// The `k`-th smallest value (0-based).
    pub fn select(&self, k: usize) -> Option<u16> {
        each!(self, c => c.select(k))
    }

    /// Smallest value.
    pub fn min(&self) -> Option<u16> {
        each!(self, c => c.min())
    }

    /// Largest value.
    pub fn max(&self) -> Option<u16> {
        each!(self, c => c.max())
    }

    /// Number of maximal runs of consecutive values.
    pub fn count_runs(&self) -> u32 {
        each!(self, c => c.count_runs())
    }

    /// Ascending, double-ended iterator over the values.
    pub fn iter(&self) -> ContainerIter<'a> {
        match self {
            Container::Array(c) => ContainerIter::Array(c.iter()),
            Container::Bitmap(c) => ContainerIter::Bitmap(c.iter()),
            Container::Run(c) => ContainerIter::Run(c.iter()),
        }
    }

    /// Iterator over the values `>= low`.
    pub fn iter_from(&self, low: u16) -> ContainerIter<'a> {
        match self {
            Container::Array(c) => ContainerIter::Array(c.iter_from(low)),
            Container::Bitmap(c) => ContainerIter::Bitmap(c.iter_from(low)),
            Container::Run(c) => ContainerIter::Run(c.iter_from(low)),
        }
    }

    /// ORs the values into a 65536-bit scratch bitmap.
    pub fn or_into(&self, words: &mut [u64; 1024]) {
        each!(self, c => c.or_into(words))
    }

    /// Number of values in `lo..=hi`.
    pub fn range_len(&self, lo: u16, hi: u16) -> usize {
        self.rank(hi) - self.rank_lt(lo)
    }
}

/// Iterator over a container of any kind.
#[derive(Clone, Debug)]
pub enum ContainerIter<'a> {
    /// Over an array container.
    Array(ArrayIter<'a>),
    /// Over a bitmap container.
    Bitmap(BitmapIter<'a>),
    /// Over a run container.
    Run(RunIter<'a>),
}

impl ContainerIter<'_> {
    /// Writes up to `out.len()` next values, each ORed with `high`, and returns how
    /// many were written. Slots past those may be overwritten.
    pub fn next_batch(&mut self, high: u64, out: &mut [u64]) -> usize {
        match self {
            ContainerIter::Array(it) => it.next_batch(high, out),
            ContainerIter::Bitmap(it) => it.next_batch(high, out),
            ContainerIter::Run(it) => it.next_batch(high, out),
        }
    }
}

impl Iterator for ContainerIter<'_> {
    type Item = u16;

    #[inline]
    fn next(&mut self) -> Option<u16> {
        match self {
            ContainerIter::Array(it) => it.next(),
            ContainerIter::Bitmap(it) => it.next(),
            ContainerIter::Run(it) => it.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            ContainerIter::Array(it) => it.size_hint(),
            ContainerIter::Bitmap(it) => it.size_hint(),
            ContainerIter::Run(it) => it.size_hint(),
        }
    }
}

impl DoubleEndedIterator for ContainerIter<'_> {
    #[inline]
    fn next_back(&mut self) -> Option<u16> {
        match self {
            ContainerIter::Array(it) => it.next_back(),
            ContainerIter::Bitmap(it) => it.next_back(),
            ContainerIter::Run(it) => it.next_back(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Past [`RUNS_CAP`] the run count no longer changes the kind, and one
    /// run less can (the cap is the least such count).
    #[test]
    fn runs_cap_decides_every_kind() {
        for card in 1..=65536u32 {
            let at_cap = canonical_kind(card, RUNS_CAP);
            assert_ne!(at_cap, Kind::Run, "card {card}");
            for nruns in [RUNS_CAP + 1, 4096, 32768] {
                assert_eq!(canonical_kind(card, nruns), at_cap, "card {card}, {nruns} runs");
            }
        }
        assert_eq!(canonical_kind(4097, RUNS_CAP - 1), Kind::Run);
    }

    #[test]
    fn canonical_rule_boundaries() {
        // card 4096 vs 4097 with many runs: array vs bitmap.
        assert_eq!(canonical_kind(4096, 4096), Kind::Array);
        assert_eq!(canonical_kind(4097, 4097), Kind::Bitmap);
        assert_eq!(canonical_kind(4096, 2048), Kind::Array);
        assert_eq!(canonical_kind(4097, 2049), Kind::Bitmap);
        // ties 4r == 2c go to array.
        assert_eq!(canonical_kind(2, 1), Kind::Array);
        assert_eq!(canonical_kind(4, 2), Kind::Array);
        assert_eq!(canonical_kind(4096, 2048), Kind::Array);
        assert_eq!(canonical_kind(4, 1), Kind::Run);
        assert_eq!(canonical_kind(3, 1), Kind::Run);
        assert_eq!(canonical_kind(1, 1), Kind::Array);
        assert_eq!(canonical_kind(4096, 2047), Kind::Run);
        // r = 2047 vs 2048 above the array limit: 4r == 8192 ties to bitmap.
        assert_eq!(canonical_kind(5000, 2047), Kind::Run);
        assert_eq!(canonical_kind(5000, 2048), Kind::Bitmap);
        assert_eq!(canonical_kind(65536, 1), Kind::Run);
        assert_eq!(canonical_kind(65536, 2048), Kind::Bitmap);
    }

    #[test]
    fn kind_codes() {
        for k in [Kind::Array, Kind::Bitmap, Kind::Run] {
            assert_eq!(Kind::from_code(k.code()), Some(k));
        }
        assert_eq!(Kind::from_code(0), None);
    }
}
