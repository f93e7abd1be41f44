//! Size and shape statistics of a buffer.

use crate::container::Container;
use crate::format::VERSION;
use crate::view::RoaringView;

/// Counts of one container kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KindStats {
    /// Number of containers of this kind.
    pub containers: u64,
    /// Payload bytes of these containers.
    pub payload_bytes: u64,
    /// Values held by these containers.
    pub cardinality: u64,
}

/// Statistics of a buffer, as returned by [`RoaringView::stats`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Format version.
    pub version: u8,
    /// Number of values.
    pub cardinality: u64,
    /// Number of containers.
    pub containers: u64,
    /// Array containers.
    pub array: KindStats,
    /// Bitmap containers.
    pub bitmap: KindStats,
    /// Run containers.
    pub run: KindStats,
    /// Number of runs stored in run containers.
    pub runs: u64,
    /// Length of the buffer in bytes.
    pub total_bytes: u64,
    /// Bytes of the header and the directory (the rest are payloads).
    pub head_bytes: u64,
}

impl RoaringView<'_> {
    /// Statistics of this buffer: O(containers), plus O(runs) for run containers.
    pub fn stats(&self) -> Stats {
        let mut s = Stats {
            version: VERSION,
            cardinality: self.len(),
            containers: self.container_count() as u64,
            total_bytes: self.as_bytes().len() as u64,
            head_bytes: (self.as_bytes().len() - self.payload_len()) as u64,
            ..Stats::default()
        };
        for (_, c) in self.containers() {
            let k = match c {
                Container::Array(_) => &mut s.array,
                Container::Bitmap(_) => &mut s.bitmap,
                Container::Run(r) => {
                    s.runs += u64::from(r.count_runs());
                    &mut s.run
                }
            };
            k.containers += 1;
            k.payload_bytes += c.as_bytes().len() as u64;
            k.cardinality += c.len() as u64;
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use crate::builder::from_values;
    use crate::RoaringView;

    #[test]
    fn counts_each_kind() {
        // key 0: array {1, 3}; key 1: bitmap of 5000 even lows; key 2: two runs.
        let values = [1, 3]
            .into_iter()
            .chain((0..5000u64).map(|x| (1 << 16) | (2 * x)))
            .chain((2 << 16)..(2 << 16) + 100)
            .chain((2 << 16) + 200..(2 << 16) + 300);
        let bytes = from_values(values).unwrap();
        let s = RoaringView::from_bytes(&bytes).unwrap().stats();
        assert_eq!((s.version, s.cardinality, s.containers), (3, 5202, 3));
        assert_eq!(
            (
                s.array.containers,
                s.array.payload_bytes,
                s.array.cardinality
            ),
            (1, 4, 2)
        );
        assert_eq!((s.bitmap.containers, s.bitmap.payload_bytes), (1, 8192));
        assert_eq!(
            (s.run.containers, s.run.payload_bytes, s.run.cardinality),
            (1, 8, 200)
        );
        assert_eq!(s.runs, 2);
        // A 15-byte header (7 fixed bytes, then cardinality and count in 2 bytes
        // each, min in 1, the span in 3), 1-byte keys, cardinalities, two 2-byte
        // offsets.
        assert_eq!(s.total_bytes, 15 + 3 + 6 + 4 + 4 + 8192 + 8);
    }
}
