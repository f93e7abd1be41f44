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
}

impl RoaringView<'_> {
    /// Statistics of this buffer: O(containers), plus O(runs) for run containers.
    pub fn stats(&self) -> Stats {
        let mut s = Stats {
            version: VERSION,
            cardinality: self.len(),
            containers: self.container_count() as u64,
            total_bytes: self.as_bytes().len() as u64,
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
