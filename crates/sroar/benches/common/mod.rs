//! Shared by the bench targets: the dataset loader, a seeded generator and the
//! sroar form of a dataset.

#![allow(dead_code)] // each bench target uses a different part

pub mod realdata;

use sroar::{RoaringView, Writer};

/// SplitMix64: a fixed-seed generator, so every run probes the same values.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi` (slightly biased, which does not matter here).
    pub fn in_range(&mut self, lo: u64, hi: u64) -> u64 {
        match (hi - lo).checked_add(1) {
            Some(span) => lo + self.next_u64() % span,
            None => self.next_u64(),
        }
    }
}

/// Each bitmap of a dataset as a sroar buffer.
pub fn sroar_buffers(bitmaps: &[Vec<u64>]) -> Vec<Vec<u8>> {
    bitmaps
        .iter()
        .map(|values| {
            sroar::Roaring::from_sorted(values)
                .map(Vec::from)
                .expect("dataset bitmap fits a buffer")
        })
        .collect()
}

/// Validated views over `buffers`.
pub fn views(buffers: &[Vec<u8>]) -> Vec<RoaringView<'_>> {
    buffers
        .iter()
        .map(|b| RoaringView::from_bytes(b).expect("sroar output is valid"))
        .collect()
}

/// Finishes a writer into its encoded bytes: `into_vec` hands over the writer's
/// own buffer (the payloads are written once). A caller with its own allocator
/// (the PostgreSQL extension) sizes a buffer with `encoded_len` and fills it with
/// `write_into`, which copies the payloads once more.
pub fn finish(w: Writer) -> Vec<u8> {
    w.into_vec().expect("result fits a buffer")
}
