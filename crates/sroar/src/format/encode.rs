//! Writing a buffer: the one place that lays out the header, the directory and the
//! payloads (FORMAT.md).
//!
//! Every producer (the [`Writer`](crate::Writer), the accumulators, a sorted slice of
//! values) describes its containers, in key order, to a [`Layout`], which sizes the
//! buffer; then it fills a buffer of that size through an [`Encoder`], which writes
//! the header and each container's directory entry and hands back the room for that
//! container's payload. A change of format changes this file and the readers, not
//! the producers.

use super::directory::BLOCK;
use super::header::{width_of, write_le, Header, HEADER_MAX_LEN, MAX_LEN};
use core::fmt;

use crate::container::bitmap::BITMAP_BYTES;
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
/// (for a producer that reserves room for them ahead of its payloads): the longest
/// header, 6-byte keys, 4-byte offsets and 8-byte counts.
pub(crate) fn head_len_bound(containers: usize) -> usize {
    HEADER_MAX_LEN + 12 * containers + 8 * (containers / BLOCK)
}

/// Bytes before the first payload of a buffer of `containers` containers holding
/// `payload` bytes of payload and `cardinality` values from `min` to `max`: exact
/// when the buffer has that shape (a producer that expects it reserves this much,
/// so that the directory fills the room it kept). Every field is at least what a
/// buffer of at most these containers, payload bytes and values, within these
/// bounds, needs, except where the buffer ends up with more containers.
pub(crate) fn head_len_expected(
    containers: usize,
    payload: usize,
    cardinality: u64,
    min: u64,
    max: u64,
) -> usize {
    if containers == 0 || cardinality == 0 {
        return EMPTY_LEN;
    }
    let layout = Layout {
        containers: containers as u64,
        payload: payload as u64,
        // The largest offset is below the total, and no container's payload
        // passes a bitmap's: a bound that can only widen the offsets, never
        // narrow them. The container bound keeps it exact for unions of large
        // sets (weather_sept_85's: 16 bitmaps whose inputs' payloads add up past
        // 128 KB, where 2-byte offsets end; each cost a move of the result).
        last_offset: (payload as u64)
            .min((containers as u64 - 1).saturating_mul(BITMAP_BYTES as u64)),
        cardinality,
        // No container holds more than the values the others leave it.
        max_card: (cardinality.saturating_sub(containers as u64) + 1).min(1 << 16) as u32,
        // Arrays take two bytes a value; a guess, which costs one move when wrong.
        not_arrays: payload as u64 != 2 * cardinality,
        min,
        max,
    };
    layout.plan().head_len()
}

/// The shape of a buffer about to be written: its containers' count, payload bytes
/// and values, and the set's smallest and largest value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Layout {
    containers: u64,
    payload: u64,
    /// Where the last container's payload starts (the largest offset stored).
    last_offset: u64,
    cardinality: u64,
    /// The largest container's values.
    max_card: u32,
    /// Whether a container so far is not an array.
    not_arrays: bool,
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
        self.last_offset = self.payload;
        self.payload += payload_len as u64;
        self.cardinality += u64::from(card);
        self.max_card = self.max_card.max(card);
        // An array is 2 bytes a value; a run container never is (the canonical
        // rule), nor a bitmap (over 4096 values in 8192 bytes).
        self.not_arrays |= payload_len != 2 * card as usize;
    }

    /// The smallest and largest value of the set (ignored when it is empty). The
    /// header's length depends on them: set them before asking for a plan.
    pub(crate) fn bounds(&mut self, min: u64, max: u64) {
        self.min = min;
        self.max = max;
    }

    pub(crate) fn cardinality(&self) -> u64 {
        self.cardinality
    }

    /// Fewer bytes than any buffer of these containers takes: their payloads. A
    /// writer whose bound reaches the limit is doomed to a [`CapacityError`].
    pub(crate) fn len_lower_bound(&self) -> u64 {
        self.payload
    }

    /// Where everything goes, computed once.
    pub(crate) fn plan(&self) -> Plan {
        let n = self.containers as usize;
        if self.cardinality == 0 {
            return Plan {
                header: Header::default(),
                kw: 0,
                card_w: 0,
                ow: 0,
                cw: 1,
                n: 0,
                head_len: EMPTY_LEN,
                total: EMPTY_LEN as u64 + self.payload,
            };
        }
        let header = Header {
            n: self.containers as u32,
            cardinality: self.cardinality,
            min: self.min,
            max: self.max.max(self.min),
        };
        let kw = width_of((header.max >> 16) - (header.min >> 16));
        let card_w = width_of(u64::from(self.max_card.max(1) - 1));
        let ow = offset_width(!self.not_arrays, card_w, self.last_offset);
        let cw = width_of(header.cardinality).max(1);
        let head_len =
            header.encoded_len() + n * (kw + card_w) + (n - 1) * ow + (n - 1) / BLOCK * cw;
        Plan {
            header,
            kw,
            card_w,
            ow,
            cw,
            n,
            head_len,
            total: (head_len as u64).saturating_add(self.payload),
        }
    }
}

const EMPTY_LEN: usize = 7;

/// The canonical width of the stored offsets: none when every container is an
/// array of at most 256 values (one-byte cardinalities say where each payload
/// starts), else the bytes the largest halved offset needs, 1, 2 or 4.
pub(crate) fn offset_width(all_arrays: bool, card_w: usize, last_offset: u64) -> usize {
    if all_arrays && card_w <= 1 {
        return 0;
    }
    match width_of(last_offset / 2) {
        0 | 1 => 1,
        2 => 2,
        _ => 4,
    }
}

/// The header, the widths and the lengths of a buffer about to be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Plan {
    header: Header,
    kw: usize,
    card_w: usize,
    ow: usize,
    cw: usize,
    n: usize,
    head_len: usize,
    /// Bytes of the whole buffer (saturated).
    total: u64,
}

impl Plan {
    /// Length of the buffer, or the error for a buffer that cannot be written.
    #[inline]
    pub(crate) fn len(&self) -> Result<usize, CapacityError> {
        if self.total >= MAX_LEN as u64 {
            return Err(CapacityError {
                needed: self.total,
            });
        }
        Ok(self.total as usize)
    }

    /// Bytes before the first payload: the header and the directory.
    #[inline]
    pub(crate) fn head_len(&self) -> usize {
        self.head_len
    }

    /// Number of values.
    pub(crate) fn cardinality(&self) -> u64 {
        self.header.cardinality
    }
}

/// Fills a buffer of a [`Plan`]'s length: the header at once, then one directory
/// entry per [`Encoder::container`] call, which returns where that container's
/// payload goes. Containers must come in the order the layout was given them.
pub(crate) struct Encoder<'a> {
    keys: &'a mut [u8],
    cards: &'a mut [u8],
    offsets: &'a mut [u8],
    counts: &'a mut [u8],
    payload: &'a mut [u8],
    /// Containers written so far, and their values.
    i: usize,
    sum: u64,
    /// Payload bytes written so far (the next offset).
    offset: u64,
    key0: u64,
    kw: usize,
    card_w: usize,
    ow: usize,
    cw: usize,
}

impl<'a> Encoder<'a> {
    /// Writes the header of `plan` into `out`, which must be `plan.len()` long
    /// (or, with [`Encoder::head_only`], at least `plan.head_len()`).
    ///
    /// # Panics
    /// If `out` has another length.
    pub(crate) fn new(out: &'a mut [u8], plan: &Plan) -> Result<Self, CapacityError> {
        let len = plan.len()?;
        assert_eq!(out.len(), len, "sroar: output buffer has the wrong length");
        Ok(Self::head_only(out, plan))
    }

    /// As [`Encoder::new`], for a buffer whose payloads are already in place (a
    /// [`Writer`](crate::Writer) handing over its own memory): only the header and
    /// the directory are written, and `out` may be just as long as they are.
    #[inline]
    pub(crate) fn head_only(out: &'a mut [u8], plan: &Plan) -> Self {
        let (head, payload) = out.split_at_mut(plan.head_len);
        let at = plan.header.write(plan.ow as u8, plan.card_w as u8, head);
        let n = plan.n;
        let (keys, rest) = head[at..].split_at_mut(n * plan.kw);
        let (cards, rest) = rest.split_at_mut(n * plan.card_w);
        let (offsets, counts) = rest.split_at_mut(n.saturating_sub(1) * plan.ow);
        Encoder {
            keys,
            cards,
            offsets,
            counts,
            payload,
            i: 0,
            sum: 0,
            offset: 0,
            key0: plan.header.min >> 16,
            kw: plan.kw,
            card_w: plan.card_w,
            ow: plan.ow,
            cw: plan.cw,
        }
    }

    /// Writes the next container's directory entry and returns the `size` bytes of
    /// its payload, to be filled by the caller.
    ///
    /// # Panics
    /// If there are more containers than laid out, or a payload overruns.
    #[inline]
    pub(crate) fn container(&mut self, key: u64, card: u32, kind: Kind, size: usize) -> &'a mut [u8] {
        let i = self.i;
        debug_assert_eq!(super::directory::kind_of(card, size), kind);
        write_le(self.keys, i * self.kw, key - self.key0, self.kw);
        write_le(self.cards, i * self.card_w, u64::from(card - 1), self.card_w);
        if i > 0 {
            write_le(self.offsets, (i - 1) * self.ow, self.offset / 2, self.ow);
            if i.is_multiple_of(BLOCK) {
                write_le(self.counts, (i / BLOCK - 1) * self.cw, self.sum, self.cw);
            }
        }
        self.i += 1;
        self.sum += u64::from(card);
        self.offset += size as u64;
        let payload = core::mem::take(&mut self.payload);
        let size = size.min(payload.len());
        let (here, rest) = payload.split_at_mut(size);
        self.payload = rest;
        here
    }
}

/// A set ready to be written as a canonical buffer.
///
/// ```
/// use sroar::{Accumulator, Encode, Roaring, SetOp};
///
/// fn write(set: &mut impl Encode) -> Vec<u8> {
///     let mut out = vec![0u8; set.encoded_len().unwrap()];
///     set.write_into(&mut out).unwrap();
///     out
/// }
/// let mut acc = Accumulator::new(SetOp::Or);
/// acc.insert(3);
/// assert_eq!(write(&mut acc), Roaring::from_sorted(&[3]).unwrap());
/// ```
pub trait Encode {
    /// Length of the canonical buffer. It may count and cache what
    /// [`Encode::write_into`] needs, so it must be called after the last change.
    fn encoded_len(&mut self) -> Result<usize, CapacityError>;

    /// Writes the buffer into `out`, whose length must be [`Encode::encoded_len`].
    fn write_into(&self, out: &mut [u8]) -> Result<(), CapacityError>;
}

/// A buffer already encoded (by [`Roaring::from_sorted`](crate::Roaring::from_sorted) and the other
/// functions that return one): it is copied as it is.
impl Encode for Vec<u8> {
    fn encoded_len(&mut self) -> Result<usize, CapacityError> {
        Ok(self.len())
    }

    fn write_into(&self, out: &mut [u8]) -> Result<(), CapacityError> {
        out.copy_from_slice(self);
        Ok(())
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
        let plan = layout.plan();
        let mut out = vec![0u8; plan.len().unwrap()];
        let mut e = Encoder::new(&mut out, &plan).unwrap();
        e.container(0, 2, Kind::Array, 4).copy_from_slice(&[1, 0, 5, 0]);
        e.container(2, 3, Kind::Run, 4).copy_from_slice(&[7, 0, 2, 0]);
        let v = RoaringView::from_bytes(&out).expect("valid");
        assert_eq!(v.iter().collect::<Vec<_>>(), [1, 5, 2 << 16 | 7, 2 << 16 | 8, 2 << 16 | 9]);
        assert_eq!(out, crate::builder::from_sorted(&[1, 5, 2 << 16 | 7, 2 << 16 | 8, 2 << 16 | 9]).unwrap());
        let empty = Layout::new().plan();
        let mut out = vec![0u8; empty.len().unwrap()];
        Encoder::new(&mut out, &empty).unwrap();
        assert_eq!(out, crate::builder::empty());
    }
}
