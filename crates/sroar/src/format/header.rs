//! The fixed 40-byte header: constants and reading/writing of its fields.

/// The four magic bytes every buffer starts with.
pub const MAGIC: [u8; 4] = *b"SR64";
/// The only format version this crate reads and writes.
pub const VERSION: u8 = 1;
/// Length of the fixed header in bytes.
pub const HEADER_LEN: usize = 40;
/// Every buffer is strictly shorter than this (offsets are 30-bit).
pub const MAX_LEN: usize = 1 << 30;

/// The variable fields of the header (magic, version, flags and reserved are fixed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Header {
    /// Number of containers.
    pub n: u32,
    /// Length of the whole buffer in bytes.
    pub total_len: u32,
    /// Number of values in the set.
    pub cardinality: u64,
    /// Smallest value, 0 when empty.
    pub min: u64,
    /// Largest value, 0 when empty.
    pub max: u64,
}

impl Header {
    /// Writes the full 40-byte header, fixed fields included.
    pub fn write(&self, out: &mut [u8; HEADER_LEN]) {
        out[0..4].copy_from_slice(&MAGIC);
        out[4] = VERSION;
        out[5] = 0;
        out[6..8].copy_from_slice(&[0, 0]);
        out[8..12].copy_from_slice(&self.n.to_le_bytes());
        out[12..16].copy_from_slice(&self.total_len.to_le_bytes());
        out[16..24].copy_from_slice(&self.cardinality.to_le_bytes());
        out[24..32].copy_from_slice(&self.min.to_le_bytes());
        out[32..40].copy_from_slice(&self.max.to_le_bytes());
    }

    /// Reads the variable fields from the first 40 bytes (fixed fields not checked).
    pub fn read(bytes: &[u8; HEADER_LEN]) -> Self {
        Header {
            n: read_u32(bytes, 8),
            total_len: read_u32(bytes, 12),
            cardinality: read_u64(bytes, 16),
            min: read_u64(bytes, 24),
            max: read_u64(bytes, 32),
        }
    }
}

/// Reads a little-endian `u32` at `at`. Panics if out of bounds.
#[inline]
pub(crate) fn read_u32(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(b)
}

/// Reads a little-endian `u64` at `at`. Panics if out of bounds.
#[inline]
pub(crate) fn read_u64(bytes: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_round_trip() {
        let h = Header {
            n: 3,
            total_len: 99,
            cardinality: 7,
            min: 1,
            max: u64::MAX,
        };
        let mut buf = [0u8; HEADER_LEN];
        h.write(&mut buf);
        assert_eq!(&buf[0..4], b"SR64");
        assert_eq!(buf[4], 1);
        assert_eq!(Header::read(&buf), h);
    }
}
