//! The header: seven fixed bytes (magic, version, flags, field widths), then the
//! cardinality, the container count, the smallest value and the span, each in the
//! fewest bytes that hold it (FORMAT.md). The flags also give the widths of the
//! directory's cardinalities and offsets.

/// The four magic bytes every buffer starts with.
pub const MAGIC: [u8; 4] = *b"SR64";
/// The only format version this crate reads and writes.
pub const VERSION: u8 = 3;
/// Bytes of the longest header: the fixed bytes and four 8-byte fields.
pub const HEADER_MAX_LEN: usize = 7 + 4 * 8;
/// The header of the empty set, which is the whole buffer.
pub(crate) const EMPTY: [u8; 7] = [b'S', b'R', b'6', b'4', VERSION, 0, 0];
/// Every buffer is strictly shorter than this (PostgreSQL's 1 GB value limit).
pub const MAX_LEN: usize = 1 << 30;
/// The smallest value is stored with its top bit flipped when that takes fewer
/// bytes: sroar_pg stores an int8 `x` as `x ^ 2^63`, so small positive ids are
/// values just above 2^63.
const TOP: u64 = 1 << 63;
/// Codes of the min width (the widths byte's low half) from 9 up mean a min
/// stored with its top bit flipped, in `code - 8` bytes.
const FLIPPED: u8 = 8;

/// What the header says about the set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Header {
    /// Number of containers.
    pub n: u32,
    /// Number of values in the set.
    pub cardinality: u64,
    /// Smallest value, 0 when empty.
    pub min: u64,
    /// Largest value, 0 when empty.
    pub max: u64,
}

/// Why the first bytes are not a header this crate reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HeaderError {
    TooShort,
    BadMagic,
    Version(u8),
    Flags(u8),
    /// A field width over 8 bytes, or wider than its value needs.
    Width,
    /// The counts contradict each other (no containers in a non-empty set, more
    /// containers than values, or a span past `u64::MAX`).
    Counts,
}

/// A parsed header and where the directory starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Parsed {
    pub(crate) header: Header,
    /// Bytes of each stored offset: 1, 2 or 4, or 0 when none are stored (every
    /// container is an array of at most 256 values, so the offsets follow from
    /// the cardinalities).
    pub(crate) ow: u8,
    /// Bytes of each stored cardinality (minus one): 0, 1 or 2.
    pub(crate) card_w: u8,
    /// The min's width code (the widths byte's low half).
    pub(crate) min_code: u8,
    /// Bytes of the header; the directory follows.
    pub(crate) len: usize,
}

impl Header {
    /// The widths of the cardinality (and of the container count), min and
    /// max - min; the min's code and the integer stored for it.
    fn widths(&self) -> (usize, usize, usize, u8, u64) {
        let (code, stored) = min_code(self.min);
        (
            width_of(self.cardinality),
            min_width(code),
            width_of(self.max - self.min),
            code,
            stored,
        )
    }

    /// Bytes this header takes.
    pub(crate) fn encoded_len(&self) -> usize {
        let (cw, mw, sw, _, _) = self.widths();
        EMPTY.len() + 2 * cw + mw + sw
    }

    /// Writes the header into the front of `out` (at least `encoded_len` bytes),
    /// with the directory's offset and cardinality widths; returns its length.
    pub(crate) fn write(&self, ow: u8, card_w: u8, out: &mut [u8]) -> usize {
        if self.cardinality == 0 {
            out[..EMPTY.len()].copy_from_slice(&EMPTY);
            return EMPTY.len();
        }
        let (cw, mw, sw, code, stored) = self.widths();
        out[..4].copy_from_slice(&MAGIC);
        out[4] = VERSION;
        out[5] = (cw as u8) << 4 | card_w << 2 | offset_code(ow);
        out[6] = (sw as u8) << 4 | code;
        let mut at = EMPTY.len();
        for (x, w) in [
            (self.cardinality, cw),
            (u64::from(self.n), cw),
            (stored, mw),
            (self.max - self.min, sw),
        ] {
            write_le(out, at, x, w);
            at += w;
        }
        at
    }

    /// Parses the header at the front of `bytes` (which may hold more). Always
    /// inlined: its result passed through memory costs a store-forwarding stall
    /// per view opened, which small sets notice.
    #[inline(always)]
    pub(crate) fn parse(bytes: &[u8]) -> Result<Parsed, HeaderError> {
        let fixed = bytes.first_chunk::<7>().ok_or(HeaderError::TooShort)?;
        if fixed[..4] != MAGIC {
            return Err(HeaderError::BadMagic);
        }
        if fixed[4] != VERSION {
            return Err(HeaderError::Version(fixed[4]));
        }
        let (flags, widths) = (fixed[5], fixed[6]);
        let cw = usize::from(flags >> 4);
        let card_w = flags >> 2 & 3;
        let (code, sw) = (widths & 15, usize::from(widths >> 4));
        let mw = min_width(code);
        if card_w == 3 || (cw == 0 && (flags != 0 || widths != 0)) {
            return Err(HeaderError::Flags(flags));
        }
        if cw == 0 {
            return Ok(Parsed {
                header: Header::default(),
                ow: 0,
                card_w: 0,
                min_code: 0,
                len: EMPTY.len(),
            });
        }
        if cw > 8 || sw > 8 {
            return Err(HeaderError::Width);
        }
        let len = EMPTY.len() + 2 * cw + mw + sw;
        if bytes.len() < len {
            return Err(HeaderError::TooShort);
        }
        let at = EMPTY.len();
        let cardinality = read_le(bytes, at, cw);
        let n = read_le(bytes, at + cw, cw);
        let stored = read_le(bytes, at + 2 * cw, mw);
        let min = if code > FLIPPED { stored ^ TOP } else { stored };
        let span = read_le(bytes, at + 2 * cw + mw, sw);
        // Each width is the fewest bytes that hold its value (the container count
        // takes the cardinality's); validation checks the min's code
        // (`Parsed::canonical_min`).
        if width_of(cardinality) != cw || width_of(span) != sw {
            return Err(HeaderError::Width);
        }
        let max = min.checked_add(span).ok_or(HeaderError::Counts)?;
        if n == 0 || n > cardinality || n > u64::from(u32::MAX) {
            return Err(HeaderError::Counts);
        }
        Ok(Parsed {
            header: Header {
                n: n as u32,
                cardinality,
                min,
                max,
            },
            ow: [0, 1, 2, 4][usize::from(flags & 3)],
            card_w,
            min_code: code,
            len,
        })
    }
}

impl Parsed {
    /// Whether the min is stored in the fewest bytes, flipped exactly when that
    /// is shorter: checked by validation, not by every open.
    pub(crate) fn canonical_min(&self) -> bool {
        self.header.cardinality == 0 || min_code(self.header.min).0 == self.min_code
    }
}

/// The code of the min's width (the widths byte's low half) and the integer
/// stored for it: the min in the fewest bytes, or with its top bit flipped
/// (code `8 + width`, at least 1 byte) when that is shorter.
#[inline(always)]
fn min_code(min: u64) -> (u8, u64) {
    let flipped = min ^ TOP;
    let fw = width_of(flipped).max(1);
    if fw < width_of(min) {
        (FLIPPED + fw as u8, flipped)
    } else {
        (width_of(min) as u8, min)
    }
}

/// Bytes the min takes for its width code (codes 0 to 8 are widths; 9 to 15
/// flipped mins of 1 to 7 bytes).
#[inline(always)]
fn min_width(code: u8) -> usize {
    usize::from(if code > FLIPPED { code - FLIPPED } else { code })
}

/// The flags' 2-bit code of an offset width: 0 (none stored), 1, 2 or 4 bytes.
#[inline(always)]
fn offset_code(ow: u8) -> u8 {
    match ow {
        0 => 0,
        1 => 1,
        2 => 2,
        _ => 3,
    }
}

/// The version byte of a buffer that starts with the magic, whatever the version
/// (for an error that names it).
pub fn version_of(bytes: &[u8]) -> Option<u8> {
    (bytes.get(..4)? == MAGIC).then(|| bytes.get(4).copied())?
}

/// Bytes needed to hold `x` (0 for 0).
#[inline]
pub(crate) fn width_of(x: u64) -> usize {
    (64 - x.leading_zeros() as usize).div_ceil(8)
}

/// Reads the `width`-byte little-endian integer at `at` (`width <= 8`): one load
/// and a mask where 8 bytes are readable from `at`, else one load of the buffer's
/// last 8 bytes and a shift (small buffers read their directory there). Panics if
/// `bytes[at..at + width]` is out of bounds.
#[inline(always)]
pub(crate) fn read_le(bytes: &[u8], at: usize, width: usize) -> u64 {
    let mask = if width >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * width)) - 1
    };
    if let Some(chunk) = bytes.get(at..).and_then(|s| s.first_chunk::<8>()) {
        return u64::from_le_bytes(*chunk) & mask;
    }
    assert!(at + width <= bytes.len(), "sroar: read past the buffer");
    if width == 0 {
        return 0;
    }
    match bytes.last_chunk::<8>() {
        // `at < len`, so the shift is 8 to 56 bits.
        Some(last) => (u64::from_le_bytes(*last) >> (8 * (at + 8 - bytes.len()))) & mask,
        None => {
            let mut b = [0u8; 8];
            b[..width].copy_from_slice(&bytes[at..at + width]);
            u64::from_le_bytes(b)
        }
    }
}

/// Writes the low `width` bytes of `x` at `out[at..]`, little-endian: fixed-size
/// stores for each width (a copy of a variable length would call `memcpy`).
#[inline(always)]
pub(crate) fn write_le(out: &mut [u8], at: usize, x: u64, width: usize) {
    let b = x.to_le_bytes();
    match width {
        0 => {}
        1 => out[at] = b[0],
        2 => out[at..at + 2].copy_from_slice(&b[..2]),
        3 => out[at..at + 3].copy_from_slice(&b[..3]),
        4 => out[at..at + 4].copy_from_slice(&b[..4]),
        5 => out[at..at + 5].copy_from_slice(&b[..5]),
        6 => out[at..at + 6].copy_from_slice(&b[..6]),
        7 => out[at..at + 7].copy_from_slice(&b[..7]),
        _ => out[at..at + 8].copy_from_slice(&b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_round_trip() {
        for h in [
            Header::default(),
            Header {
                n: 1,
                cardinality: 1,
                min: 7919,
                max: 7919,
            },
            Header {
                n: 3,
                cardinality: 7,
                min: 1,
                max: u64::MAX,
            },
            Header {
                n: u32::MAX,
                cardinality: u64::MAX,
                min: u64::MAX,
                max: u64::MAX,
            },
        ] {
            for (ow, card_w) in [(0, 0), (1, 1), (2, 2), (4, 1)] {
                let (ow, card_w) = if h.cardinality > 0 { (ow, card_w) } else { (0, 0) };
                let mut buf = [0u8; HEADER_MAX_LEN];
                let len = h.write(ow, card_w, &mut buf);
                assert_eq!(len, h.encoded_len());
                assert_eq!(&buf[0..4], b"SR64");
                assert_eq!(buf[4], VERSION);
                let p = Header::parse(&buf[..len]).unwrap();
                assert_eq!((p.header, p.ow, p.card_w, p.len), (h, ow, card_w, len));
                assert_eq!(Header::parse(&buf[..len - 1]), Err(HeaderError::TooShort));
            }
        }
        let mut buf = [0u8; HEADER_MAX_LEN];
        let h = Header {
            n: u32::MAX,
            cardinality: u64::MAX,
            min: u64::MAX,
            max: u64::MAX,
        };
        assert!(h.write(4, 2, &mut buf) <= HEADER_MAX_LEN);
    }

    #[test]
    fn widths_are_the_fewest_bytes() {
        let mut buf = [0u8; HEADER_MAX_LEN];
        let h = Header {
            n: 1,
            cardinality: 1,
            min: 7919,
            max: 7919,
        };
        let len = h.write(0, 0, &mut buf);
        // Magic, version, flags (cardinality width 1, no stored cardinalities or
        // offsets), widths (min 2, span 0), cardinality, count, min.
        assert_eq!(&buf[..len], b"SR64\x03\x10\x02\x01\x01\xef\x1e");
        // A wider field than its value needs, a width over 8, flag bits 1..3, and
        // widths on the empty set are refused.
        let mut wide_min = buf[..len].to_vec();
        wide_min[6] = 3;
        wide_min.insert(len, 0);
        assert!(!Header::parse(&wide_min).unwrap().canonical_min());
        let mut nine = buf[..len].to_vec();
        nine[6] = 0x92;
        nine.extend([1; 9]);
        assert_eq!(Header::parse(&nine), Err(HeaderError::Width));
        let mut flag = buf[..len].to_vec();
        flag[5] |= 0x0c;
        assert_eq!(Header::parse(&flag), Err(HeaderError::Flags(0x1c)));
        assert_eq!(
            Header::parse(b"SR64\x03\x00\x01"),
            Err(HeaderError::Flags(0))
        );
        assert_eq!(Header::parse(b"SR64\x03\x10\x00\x01"), Err(HeaderError::TooShort));
    }

    #[test]
    fn a_min_is_flipped_exactly_when_that_is_shorter() {
        // (min, its width code, the bytes stored): int8 ids from 0 up are values
        // from 2^63 up, and take the bytes of the id; int8 min and -1 keep theirs.
        for (min, code, stored) in [
            (0u64, 0u8, 0u64),
            (0x80, 1, 0x80),
            (1 << 56, 8, 1 << 56),
            (TOP, 9, 0),
            (TOP + 7919, 10, 7919),
            (TOP + (1 << 56) - 1, 15, (1 << 56) - 1),
            (TOP + (1 << 56), 8, TOP + (1 << 56)),
            (TOP - 1, 8, TOP - 1),
            (u64::MAX, 8, u64::MAX),
        ] {
            assert_eq!(min_code(min), (code, stored), "{min:#x}");
            let h = Header { n: 1, cardinality: 1, min, max: min };
            let mut buf = [0u8; HEADER_MAX_LEN];
            let len = h.write(0, 0, &mut buf);
            assert_eq!(len, 9 + min_width(code));
            assert_eq!(Header::parse(&buf[..len]).unwrap().header, h);
        }
        // The same min stored unflipped in 8 bytes, or flipped in more bytes than
        // it needs, is read but is not canonical (validation refuses it).
        let mut long = b"SR64\x03\x10\x08\x01\x01".to_vec();
        long.extend((TOP + 5).to_le_bytes());
        let p = Header::parse(&long).unwrap();
        assert_eq!((p.header.min, p.canonical_min()), (TOP + 5, false));
        let p = Header::parse(b"SR64\x03\x10\x0a\x01\x01\x05\x00").unwrap();
        assert_eq!((p.header.min, p.canonical_min()), (TOP + 5, false));
        let p = Header::parse(b"SR64\x03\x10\x0a\x01\x01\x05\x01").unwrap();
        assert_eq!((p.header.min, p.canonical_min()), (TOP + 0x105, true));
        let p = Header::parse(b"SR64\x03\x10\x09\x01\x01\x05").unwrap();
        assert_eq!((p.header.min, p.canonical_min()), (TOP + 5, true));
    }

    #[test]
    fn widths_and_reads() {
        assert_eq!(
            [0, 1, 255, 256, 65535, 65536, u64::MAX].map(width_of),
            [0, 1, 1, 2, 2, 3, 8]
        );
        let bytes: Vec<u8> = (1..=12).collect();
        for at in 0..12 {
            for w in 0..=(12 - at).min(8) {
                let mut b = [0u8; 8];
                b[..w].copy_from_slice(&bytes[at..at + w]);
                assert_eq!(read_le(&bytes, at, w), u64::from_le_bytes(b), "{at} {w}");
            }
        }
        let mut out = [0u8; 4];
        write_le(&mut out, 1, 0x0102_0304, 3);
        assert_eq!(out, [0, 4, 3, 2]);
    }

    #[test]
    fn version_of_reads_any_version() {
        assert_eq!(version_of(b"SR64\x01rest"), Some(1));
        assert_eq!(version_of(&EMPTY), Some(VERSION));
        assert_eq!(version_of(b"SR64"), None);
        assert_eq!(version_of(b"XR64\x02"), None);
    }
}
