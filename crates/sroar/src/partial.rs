//! Answers read from a few byte ranges of a buffer, for callers that can fetch
//! ranges without loading the whole value (PostgreSQL TOAST slices).
//!
//! The header answers the cardinality, min and max from 40 bytes; a membership test
//! reads the key entries, two descriptors and one payload. The buffer is trusted
//! (it was validated when stored), but short or inconsistent ranges give an error,
//! never a panic or an out-of-bounds read.

use crate::container::{array::ArrayView, run::RunView, Container, Kind};
use crate::format::directory::{decode_descr, decode_key_entry};
use crate::format::{Header, HEADER_LEN};
use crate::kernels::search::lower_bound_keys;

/// A range the buffer does not hold, or a directory that disagrees with itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartialReadError;

impl core::fmt::Display for PartialReadError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("the stored roaring64 value is truncated or corrupt")
    }
}

/// The header from the first bytes of a buffer.
pub fn header(prefix: &[u8]) -> Result<Header, PartialReadError> {
    let bytes = prefix.get(..HEADER_LEN).ok_or(PartialReadError)?;
    Ok(Header::read(
        bytes.try_into().map_err(|_| PartialReadError)?,
    ))
}

/// Whether `x` is in the set, reading through `fetch(offset, len)`, which returns
/// the bytes `[offset, offset + len)` of the buffer (fewer if the buffer ends).
pub fn contains<'a>(
    mut fetch: impl FnMut(usize, usize) -> &'a [u8],
    x: u64,
) -> Result<bool, PartialReadError> {
    let h = header(fetch(0, HEADER_LEN))?;
    let n = h.n as usize;
    if n == 0 || x < h.min || x > h.max {
        return Ok(false);
    }
    let keys = exact(fetch(HEADER_LEN, 8 * n), 8 * n)?;
    let (entries, _) = keys.as_chunks::<8>();
    let key = x >> 16;
    let i = lower_bound_keys(entries, key << 16);
    let Some(entry) = entries.get(i) else {
        return Ok(false);
    };
    let (found, card) = decode_key_entry(u64::from_le_bytes(*entry));
    if found != key {
        return Ok(false);
    }
    // This container's descriptor, and the next one's offset (or the total length)
    // to bound a run container's payload.
    let descr_at = HEADER_LEN + 8 * n + 4 * i;
    let two = if i + 1 < n { 8 } else { 4 };
    let d = exact(fetch(descr_at, two), two)?;
    let (code, start) = decode_descr(u32::from_le_bytes(d[..4].try_into().unwrap_or_default()));
    let end = if i + 1 < n {
        decode_descr(u32::from_le_bytes(d[4..8].try_into().unwrap_or_default())).1 as usize
    } else {
        h.total_len as usize
    };
    let start = start as usize;
    let len = end.checked_sub(start).ok_or(PartialReadError)?;
    let low = x as u16;
    let container = match Kind::from_code(code) {
        Some(Kind::Array) => {
            let bytes = exact(fetch(start, 2 * card as usize), 2 * card as usize)?;
            Container::Array(ArrayView::new(bytes))
        }
        Some(Kind::Bitmap) => {
            // Only the word that holds `low` is needed.
            let word = start + 8 * usize::from(low >> 6);
            let w = exact(fetch(word, 8), 8)?;
            let w = u64::from_le_bytes(w.try_into().map_err(|_| PartialReadError)?);
            return Ok(w >> (low & 63) & 1 == 1);
        }
        Some(Kind::Run) if len % 4 == 0 && len > 0 => {
            Container::Run(RunView::new(exact(fetch(start, len), len)?))
        }
        _ => return Err(PartialReadError),
    };
    Ok(container.contains(low))
}

fn exact(bytes: &[u8], len: usize) -> Result<&[u8], PartialReadError> {
    bytes.get(..len).ok_or(PartialReadError)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{from_sorted, RoaringView};
    use std::cell::RefCell;

    #[test]
    fn contains_matches_the_view_and_reads_little() {
        let mut values: Vec<u64> = (0..200_000).map(|i| i * 3).collect();
        values.extend((0..70_000).map(|i| (1 << 40) + i));
        values.extend([u64::MAX - 1, u64::MAX]);
        values.extend((0..100).map(|i| (5 << 32) + i * 1000));
        values.sort_unstable();
        let bytes = from_sorted(&values).unwrap();
        let view = RoaringView::from_bytes(&bytes).unwrap();
        let read = RefCell::new(0usize);
        let fetch = |off: usize, len: usize| {
            *read.borrow_mut() += len;
            &bytes[off.min(bytes.len())..(off + len).min(bytes.len())]
        };
        for probe in [
            0,
            1,
            3,
            599_997,
            600_000,
            1 << 40,
            (1 << 40) + 69_999,
            (1 << 40) + 70_000,
            (5 << 32) + 99_000,
            (5 << 32) + 99_001,
            u64::MAX,
            u64::MAX - 2,
            7 << 50,
        ] {
            *read.borrow_mut() = 0;
            assert_eq!(contains(fetch, probe), Ok(view.contains(probe)), "{probe}");
            assert!(
                *read.borrow() < 40 + 12 * view.container_count() + 8192 + 64,
                "{probe}"
            );
        }
        assert_eq!(header(&bytes[..40]).unwrap().cardinality, view.len());
    }

    #[test]
    fn short_reads_are_errors_not_panics() {
        let bytes = from_sorted(&[1, 2, 3, 1 << 20, 1 << 40]).unwrap();
        for cut in 0..bytes.len() {
            let fetch = |off: usize, len: usize| &bytes[off.min(cut)..(off + len).min(cut)];
            let _ = contains(fetch, 1 << 20);
            let _ = contains(fetch, 1 << 40);
        }
        assert_eq!(header(&bytes[..39]), Err(PartialReadError));
    }
}
