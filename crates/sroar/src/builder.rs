//! Building buffers from values: sorted or unsorted slices, iterators and ranges.

use core::ops::{Bound, RangeBounds};

use crate::writer::{CapacityError, Writer};

/// Builds the buffer of the values in `values`, which should be sorted ascending
/// (duplicates are allowed). An unsorted slice is detected and sorted in a copy.
pub fn from_sorted(values: &[u64]) -> Result<Vec<u8>, CapacityError> {
    if !values.is_sorted() {
        return from_unsorted(values);
    }
    let mut w = Writer::with_capacity(count_keys(values), 2 * values.len());
    let mut lows: Vec<u16> = Vec::new();
    let mut i = 0;
    while i < values.len() {
        let key = values[i] >> 16;
        lows.clear();
        while i < values.len() && values[i] >> 16 == key {
            let low = values[i] as u16;
            if lows.last() != Some(&low) {
                lows.push(low);
            }
            i += 1;
        }
        w.push_sorted_lows(key, &lows);
    }
    w.into_vec()
}

fn count_keys(sorted: &[u64]) -> usize {
    sorted.chunk_by(|a, b| a >> 16 == b >> 16).count()
}

/// Builds the buffer of the values in `values`, in any order, duplicates allowed.
pub fn from_unsorted(values: &[u64]) -> Result<Vec<u8>, CapacityError> {
    let mut v = values.to_vec();
    v.sort_unstable();
    v.dedup();
    from_sorted(&v)
}

/// Builds the buffer of the values an iterator yields, in any order.
pub fn from_values<I: IntoIterator<Item = u64>>(values: I) -> Result<Vec<u8>, CapacityError> {
    let mut v: Vec<u64> = values.into_iter().collect();
    if !v.is_sorted() {
        v.sort_unstable();
    }
    v.dedup();
    from_sorted(&v)
}

/// Builds the buffer of the empty set.
pub fn empty() -> Vec<u8> {
    crate::format::header::EMPTY.to_vec()
}

/// The inclusive bounds `(first, last)` of a range of `u64`, or `None` if it is
/// empty.
pub fn inclusive_bounds(range: impl RangeBounds<u64>) -> Option<(u64, u64)> {
    let lo = match range.start_bound() {
        Bound::Included(&s) => s,
        Bound::Excluded(&s) => s.checked_add(1)?,
        Bound::Unbounded => 0,
    };
    let hi = match range.end_bound() {
        Bound::Included(&e) => e,
        Bound::Excluded(&e) => e.checked_sub(1)?,
        Bound::Unbounded => u64::MAX,
    };
    (lo <= hi).then_some((lo, hi))
}

/// Pushes the containers of the values `lo..=hi` (full containers as one run each).
/// The writer's last key must be below `lo >> 16`.
pub(crate) fn push_range(w: &mut Writer, lo: u64, hi: u64) {
    let (klo, khi) = (lo >> 16, hi >> 16);
    for key in klo..=khi {
        let s = if key == klo { lo as u16 } else { 0 };
        let e = if key == khi { hi as u16 } else { u16::MAX };
        w.push_runs(key, &[(s, e - s)]);
    }
}

/// Largest number of full containers a buffer can hold (each takes 16 bytes).
pub(crate) const MAX_FULL_CONTAINERS: u64 = (crate::format::MAX_LEN / 16) as u64;

/// Fails early when a result would hold more than `containers` containers of 16
/// bytes, before allocating anything.
pub(crate) fn check_containers(containers: u64) -> Result<(), CapacityError> {
    if containers >= MAX_FULL_CONTAINERS {
        return Err(CapacityError {
            needed: containers.saturating_mul(16).saturating_add(40),
        });
    }
    Ok(())
}

/// Builds the buffer of every value in `range` (for example `a..b`, `a..=b`,
/// `..`). Costs O(containers): full containers are emitted as one run each.
pub fn from_range(range: impl RangeBounds<u64>) -> Result<Vec<u8>, CapacityError> {
    let Some((lo, hi)) = inclusive_bounds(range) else {
        return Ok(empty());
    };
    let containers = (hi >> 16) - (lo >> 16) + 1;
    check_containers(containers)?;
    let mut w = Writer::with_capacity(containers as usize, 4 * containers as usize);
    push_range(&mut w, lo, hi);
    w.into_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RoaringView;

    #[test]
    fn ranges() {
        let b = from_range(5..5).unwrap();
        assert_eq!(b, empty());
        let b = from_range(65530..=65540).unwrap();
        let v = RoaringView::from_bytes(&b).unwrap();
        assert_eq!(v.len(), 11);
        assert_eq!(v.container_count(), 2);
        let b = from_range(u64::MAX - 2..).unwrap();
        let v = RoaringView::from_bytes(&b).unwrap();
        assert_eq!(
            v.iter().collect::<Vec<_>>(),
            [u64::MAX - 2, u64::MAX - 1, u64::MAX]
        );
        assert!(from_range(..).is_err());
        // 16 full containers, one run each: a 16-byte header (7 fixed bytes; the
        // cardinality 2^20 and the count 16 in 3 bytes each, min 0 in none, max
        // 2^20 - 1 in 3), 1-byte keys, 2-byte cardinalities, 15 offsets of 1 byte
        // (the largest, halved, is 30), and 4 bytes of payload each.
        let b = from_range(0..1 << 20).unwrap();
        assert_eq!(b.len(), 16 + 16 + 2 * 16 + 15 + 4 * 16);
    }

    #[test]
    fn a_range_of_many_containers_is_whole() {
        // 200,000 containers reserve a directory of more than 1 MiB, which the
        // writer takes zeroed from the allocator; no byte of it may stay unwritten.
        let (lo, hi) = (12_345u64, (200_000u64 << 16) + 99);
        let b = from_range(lo..=hi).unwrap();
        let v = RoaringView::from_bytes(&b).unwrap();
        assert_eq!(v.container_count(), 200_001);
        assert_eq!(v.len(), hi - lo + 1);
        assert_eq!((v.min(), v.max()), (Some(lo), Some(hi)));
        assert_eq!(b, from_range(lo..=hi).unwrap());
        let filled = RoaringView::from_bytes(&empty()).unwrap().fill(lo..=hi).unwrap();
        assert_eq!(filled.as_bytes(), &b[..]);
    }

    #[test]
    fn slices() {
        let a = from_sorted(&[1, 1, 2, 1 << 40]).unwrap();
        let b = from_unsorted(&[1 << 40, 2, 1, 2]).unwrap();
        let c = from_values([2, 1 << 40, 1]).unwrap();
        let d = from_sorted(&[2, 1, 1 << 40]).unwrap();
        assert_eq!(a, b);
        assert_eq!(a, c);
        assert_eq!(a, d);
        assert_eq!(RoaringView::from_bytes(&a).unwrap().len(), 3);
    }
}
