//! Zero-decode serialized 64-bit roaring bitmaps: one little-endian byte buffer is the
//! bitmap, read in place. The format is specified in `FORMAT.md`.

/// The version of the serialized format this crate reads and writes.
pub const FORMAT_VERSION: u8 = 1;
