//! Writing a buffer: the one place that lays out the header, the directory and the
//! payloads (FORMAT.md).
//!
//! Every producer (the [`Writer`](crate::Writer), the accumulators, a sorted slice of
//! values) describes its containers, in key order, to a [`Layout`], which sizes the
//! buffer; then it fills a buffer of that size through an [`Encoder`], which writes
//! the header and each container's directory entry and hands back the room for that
//! container's payload. A change of format changes this file and the readers, not
//! the producers.

use super::directory::{encode_descr, encode_key_entry};
use super::header::{Header, HEADER_LEN, MAX_LEN};
use core::fmt;

use crate::container::Kind;

/// The encoded result would not be shorter than 2^30 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CapacityError {
    /// Length the encoding would need, in bytes (saturated).
    pub needed: u64,
}

impl fmt::Display for CapacityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "sroar bitmap would need {} bytes, the limit is {} bytes",
            self.needed,
            MAX_LEN - 1
        )
    }
}

impl std::error::Error for CapacityError {}

/// Bytes before the first payload of a buffer of `containers` containers, at most
/// (for a producer that reserves room for them ahead of its payloads).
pub(crate) fn head_len_bound(containers: usize) -> usize {
    HEADER_LEN + 12 * containers
}

/// The shape of a buffer about to be written: its containers' count, payload bytes
/// and values, and the set's smallest and largest value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Layout {
    containers: u64,
    payload: u64,
    cardinality: u64,
    min: u64,
    max: u64,
}

impl Layout {
    pub(crate) fn new() -> Layout {
        Layout::default()
    }

    /// Adds the next container (keys ascending): its key, its number of values and
    /// its payload's length in bytes.
    #[inline]
    pub(crate) fn push(&mut self, key: u64, card: u32, payload_len: usize) {
        let _ = key;
        self.containers += 1;
        self.payload += payload_len as u64;
        self.cardinality += u64::from(card);
    }

    /// The smallest and largest value of the set (ignored when it is empty).
    pub(crate) fn bounds(&mut self, min: u64, max: u64) {
        self.min = min;
        self.max = max;
    }

    pub(crate) fn cardinality(&self) -> u64 {
        self.cardinality
    }

    pub(crate) fn containers(&self) -> usize {
        self.containers as usize
    }

    /// Bytes before the first payload: the header and the directory.
    pub(crate) fn head_len(&self) -> u64 {
        HEADER_LEN as u64 + 12 * self.containers
    }

    /// Bytes of the whole buffer (saturating: over the limit is an error anyway).
    pub(crate) fn total_len(&self) -> u64 {
        self.head_len().saturating_add(self.payload)
    }

    /// Length of the buffer, or the error for a buffer that cannot be written.
    pub(crate) fn len(&self) -> Result<usize, CapacityError> {
        let len = self.total_len();
        if len >= MAX_LEN as u64 {
            return Err(CapacityError { needed: len });
        }
        Ok(len as usize)
    }

    fn header(&self) -> Header {
        let empty = self.containers == 0;
        Header {
            n: self.containers as u32,
            total_len: self.total_len() as u32,
            cardinality: self.cardinality,
            min: if empty { 0 } else { self.min },
            max: if empty { 0 } else { self.max },
        }
    }
}

/// Fills a buffer of a [`Layout`]'s length: the header at once, then one directory
/// entry per [`Encoder::container`] call, which returns where that container's
/// payload goes. Containers must come in the order the layout was given them.
pub(crate) struct Encoder<'a> {
    keys: core::slice::IterMut<'a, [u8; 8]>,
    descrs: core::slice::IterMut<'a, [u8; 4]>,
    payload: &'a mut [u8],
    offset: u32,
}

impl<'a> Encoder<'a> {
    /// Writes the header of `layout` into `out`, which must be `layout.len()` long
    /// (or, with [`Encoder::head_only`], at least `layout.head_len()`).
    ///
    /// # Panics
    /// If `out` has another length.
    pub(crate) fn new(out: &'a mut [u8], layout: &Layout) -> Result<Self, CapacityError> {
        let len = layout.len()?;
        assert_eq!(out.len(), len, "sroar: output buffer has the wrong length");
        Ok(Self::head_only(out, layout))
    }

    /// As [`Encoder::new`], for a buffer whose payloads are already in place (a
    /// [`Writer`](crate::Writer) handing over its own memory): only the header and
    /// the directory are written, and `out` may be just as long as they are.
    pub(crate) fn head_only(out: &'a mut [u8], layout: &Layout) -> Self {
        let n = layout.containers();
        let (head, rest) = out.split_at_mut(HEADER_LEN);
        layout
            .header()
            .write(head.try_into().expect("the header is HEADER_LEN bytes"));
        let (keys, rest) = rest.split_at_mut(8 * n);
        let (descrs, payload) = rest.split_at_mut(4 * n);
        Encoder {
            keys: keys.as_chunks_mut::<8>().0.iter_mut(),
            descrs: descrs.as_chunks_mut::<4>().0.iter_mut(),
            payload,
            offset: layout.head_len() as u32,
        }
    }

    /// Writes the next container's directory entry and returns the `size` bytes of
    /// its payload, to be filled by the caller.
    ///
    /// # Panics
    /// If there are more containers than the layout had, or a payload overruns.
    #[inline]
    pub(crate) fn container(&mut self, key: u64, card: u32, kind: Kind, size: usize) -> &'a mut [u8] {
        let k = self.keys.next().expect("sroar: more containers than laid out");
        let d = self.descrs.next().expect("sroar: more containers than laid out");
        *k = encode_key_entry(key, card).to_le_bytes();
        *d = encode_descr(kind, self.offset).to_le_bytes();
        self.offset += size as u32;
        let payload = core::mem::take(&mut self.payload);
        let size = size.min(payload.len());
        let (here, rest) = payload.split_at_mut(size);
        self.payload = rest;
        here
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RoaringView;

    #[test]
    fn a_layout_and_its_encoder_write_a_valid_buffer() {
        // Container 0: array {1, 5}; container 2: run [7, 9].
        let mut layout = Layout::new();
        layout.push(0, 2, 4);
        layout.push(2, 3, 4);
        layout.bounds(1, (2 << 16) | 9);
        let mut out = vec![0u8; layout.len().unwrap()];
        let mut e = Encoder::new(&mut out, &layout).unwrap();
        e.container(0, 2, Kind::Array, 4).copy_from_slice(&[1, 0, 5, 0]);
        e.container(2, 3, Kind::Run, 4).copy_from_slice(&[7, 0, 2, 0]);
        let v = RoaringView::from_bytes(&out).expect("valid");
        assert_eq!(v.iter().collect::<Vec<_>>(), [1, 5, 2 << 16 | 7, 2 << 16 | 8, 2 << 16 | 9]);
        assert_eq!(out, crate::from_sorted(&[1, 5, 2 << 16 | 7, 2 << 16 | 8, 2 << 16 | 9]).unwrap());
        let empty = Layout::new();
        let mut out = vec![0u8; empty.len().unwrap()];
        Encoder::new(&mut out, &empty).unwrap();
        assert_eq!(out, crate::empty());
    }
}
