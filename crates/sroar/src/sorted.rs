//! Encoding a sorted slice of distinct values straight into a caller's buffer, in
//! two passes (size, then write) and with no allocation: what an aggregate that
//! buffers raw values needs when PostgreSQL asks first for the size of the result
//! and then for the bytes.

use crate::container::bitmap::BITMAP_BYTES;
use crate::container::{canonical_kind, payload_len, Kind};
use crate::format::encode::{Encode, Encoder, Layout, Plan};
use crate::writer::CapacityError;

/// The containers of `values` (sorted, distinct): each key's values as one chunk.
fn chunks(values: &[u64]) -> impl Iterator<Item = &[u64]> {
    values.chunk_by(|a, b| a >> 16 == b >> 16)
}

/// The number of maximal runs of one container's values (sorted, distinct).
fn runs(chunk: &[u64]) -> u32 {
    1 + chunk.windows(2).filter(|w| w[1] != w[0] + 1).count() as u32
}

/// The canonical kind and payload length of one container's values.
fn shape(chunk: &[u64]) -> (Kind, usize) {
    let (card, nruns) = (chunk.len() as u32, runs(chunk));
    let kind = canonical_kind(card, nruns);
    (kind, payload_len(kind, card, nruns))
}

/// Where the canonical encoding of `values` (sorted, distinct) goes.
fn plan(values: &[u64]) -> Plan {
    let mut layout = Layout::new();
    for (i, chunk) in chunks(values).enumerate() {
        if i % 4096 == 4095 {
            crate::interrupt::check();
        }
        layout.push(chunk[0] >> 16, chunk.len() as u32, shape(chunk).1);
    }
    if let (Some(&min), Some(&max)) = (values.first(), values.last()) {
        layout.bounds(min, max);
    }
    layout.plan()
}

/// A slice of values, sorted ascending with no duplicate: the set it holds, ready to
/// be sized and written as a canonical buffer.
#[derive(Clone, Copy, Debug)]
pub struct SortedValues<'a>(&'a [u64]);

impl<'a> SortedValues<'a> {
    /// The set of `values`, or `None` unless they are strictly ascending.
    pub fn new(values: &'a [u64]) -> Option<Self> {
        values
            .windows(2)
            .all(|w| w[0] < w[1])
            .then_some(SortedValues(values))
    }

    /// The set of `values`, which the caller has sorted and deduplicated. A slice
    /// that is not strictly ascending gives a wrong buffer (never unsafety).
    pub(crate) fn new_unchecked(values: &'a [u64]) -> Self {
        debug_assert!(values.windows(2).all(|w| w[0] < w[1]));
        SortedValues(values)
    }

    /// Length of the canonical encoding.
    pub fn encoded_len(&self) -> Result<usize, CapacityError> {
        plan(self.0).len()
    }

    /// Writes the canonical encoding into `out`, whose length must be
    /// [`SortedValues::encoded_len`].
    ///
    /// # Panics
    /// If `out.len()` differs from the encoded length.
    pub fn write_into(&self, out: &mut [u8]) -> Result<(), CapacityError> {
        let mut e = Encoder::new(out, &plan(self.0))?;
        for chunk in chunks(self.0) {
            let (kind, size) = shape(chunk);
            let payload = e.container(chunk[0] >> 16, chunk.len() as u32, kind, size);
            write_payload(chunk, kind, payload);
        }
        Ok(())
    }
}

/// Writes one container's values as a payload of `kind` into `out`, which is that
/// payload's length.
fn write_payload(chunk: &[u64], kind: Kind, out: &mut [u8]) {
    match kind {
        Kind::Array => {
            for (d, &v) in out.as_chunks_mut::<2>().0.iter_mut().zip(chunk) {
                *d = (v as u16).to_le_bytes();
            }
        }
        Kind::Bitmap => {
            debug_assert_eq!(out.len(), BITMAP_BYTES);
            out.fill(0);
            for &v in chunk {
                let low = v as u16;
                out[usize::from(low >> 3)] |= 1 << (low & 7);
            }
        }
        Kind::Run => {
            let mut dst = out.as_chunks_mut::<4>().0.iter_mut();
            let mut put = |s: u16, e: u16| {
                let d = dst.next().expect("sroar: run count taken from this chunk");
                let (s, l) = (s.to_le_bytes(), (e - s).to_le_bytes());
                *d = [s[0], s[1], l[0], l[1]];
            };
            let mut start = chunk[0] as u16;
            for w in chunk.windows(2) {
                if w[1] != w[0] + 1 {
                    put(start, w[0] as u16);
                    start = w[1] as u16;
                }
            }
            put(start, chunk[chunk.len() - 1] as u16);
        }
    }
}

impl Encode for SortedValues<'_> {
    fn encoded_len(&mut self) -> Result<usize, CapacityError> {
        SortedValues::encoded_len(self)
    }

    fn write_into(&self, out: &mut [u8]) -> Result<(), CapacityError> {
        SortedValues::write_into(self, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::from_sorted;
    use crate::RoaringView;

    fn encode(values: &[u64]) -> Vec<u8> {
        let s = SortedValues::new(values).expect("strictly ascending");
        let mut out = vec![0u8; s.encoded_len().unwrap()];
        s.write_into(&mut out).unwrap();
        out
    }

    #[test]
    fn equals_the_writer_on_every_kind_and_edge() {
        let mut sets: Vec<Vec<u64>> = vec![
            vec![],
            vec![0],
            vec![u64::MAX],
            vec![0, 1 << 16, 1 << 32, 1 << 48, u64::MAX],
            vec![5, 6, 7],
            (0..65536).collect(),
            (0..4097).map(|v| 2 * v).collect(),
            (0..4096).map(|v| 2 * v).collect(),
            (u64::MAX - 70000..=u64::MAX).collect(),
        ];
        sets.push((0..5000).map(|v| v * 3 + (1 << 40)).collect());
        for set in &sets {
            let bytes = encode(set);
            assert_eq!(bytes, from_sorted(set).unwrap(), "{} values", set.len());
            let v = RoaringView::from_bytes(&bytes).expect("canonical");
            assert!(v.iter().eq(set.iter().copied()));
        }
        assert!(SortedValues::new(&[2, 1]).is_none());
        assert!(SortedValues::new(&[1, 1]).is_none());
    }
}
