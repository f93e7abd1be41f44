//! Import: reading the portable bytes into a [`Writer`], checking everything.

use super::{
    PortableError, BUCKET_SIGN, MIN_BUCKET_LEN, NO_OFFSET_THRESHOLD, SERIAL_COOKIE,
    SERIAL_COOKIE_NO_RUNCONTAINER,
};
use crate::container::bitmap::{BITMAP_BYTES, WORDS};
use crate::container::ARRAY_MAX;
use crate::writer::Writer;

/// Reads forward through the input; every read is bounds-checked first.
struct Input<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Input<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], PortableError> {
        let available = self.bytes.len() - self.pos;
        if n > available {
            return Err(PortableError::Truncated {
                offset: self.pos,
                what,
                needed: n,
                available,
            });
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn u16(&mut self, what: &'static str) -> Result<u16, PortableError> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, PortableError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&mut self, what: &'static str) -> Result<u64, PortableError> {
        let b = self.take(8, what)?;
        let mut w = [0u8; 8];
        w.copy_from_slice(b);
        Ok(u64::from_le_bytes(w))
    }
}

fn le16(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Buffers reused across containers while importing.
struct Scratch {
    lows: Vec<u16>,
    runs: Vec<(u16, u16)>,
    words: Box<[u64; WORDS]>,
}

/// Visits the buckets of a portable buffer: checks the bucket count, that keys
/// ascend and that the buckets fill the input exactly, and calls `bucket(input,
/// high)` with the input at each bucket's 32-bit bitmap, which it must consume.
fn each_bucket(
    bytes: &[u8],
    mut bucket: impl FnMut(&mut Input<'_>, u32) -> Result<(), PortableError>,
) -> Result<(), PortableError> {
    let mut input = Input { bytes, pos: 0 };
    let count = input.u64("bucket count")?;
    let max = ((bytes.len() - 8) / MIN_BUCKET_LEN) as u64;
    if count > max {
        return Err(PortableError::TooManyBuckets { count, max });
    }
    let mut previous: Option<u32> = None;
    for _ in 0..count {
        let at = input.pos;
        let high = input.u32("bucket key")?;
        if let Some(p) = previous.filter(|&p| high <= p) {
            return Err(PortableError::BucketKeyOrder {
                offset: at,
                key: high,
                previous: p,
            });
        }
        previous = Some(high);
        bucket(&mut input, high)?;
    }
    if input.pos != bytes.len() {
        return Err(PortableError::TrailingBytes {
            offset: input.pos,
            len: bytes.len(),
        });
    }
    Ok(())
}

/// A writer with room for what `bytes` can hold, and the scratch buffers.
fn writer_for(bytes: &[u8]) -> (Writer, Scratch) {
    // Our payloads are never larger than the portable ones (each container takes
    // its smallest kind), so the input length bounds the arena.
    let w = Writer::with_capacity(bytes.len() / 64, bytes.len());
    let scratch = Scratch {
        lows: Vec::new(),
        runs: Vec::new(),
        words: Box::new([0; WORDS]),
    };
    (w, scratch)
}

/// Reads a portable buffer into a [`Writer`] holding its containers in canonical
/// form, checking everything [`from_portable`] checks.
pub fn from_portable_writer(bytes: &[u8]) -> Result<Writer, PortableError> {
    let (mut w, mut scratch) = writer_for(bytes);
    each_bucket(bytes, |input, high| {
        read_bitmap32(input, u64::from(high) << 16, &mut w, &mut scratch)
    })?;
    Ok(w)
}

/// Reads portable bytes whose values are the 64-bit patterns of signed integers
/// (as pg_roaringbitmap stores a set of `bigint`s) into a [`Writer`] of their
/// stored form ([`to_stored`](crate::to_stored)), checking everything
/// [`from_portable`] checks. One read of the payloads: a first pass finds where each
/// bucket starts, then the buckets are read in stored order, those of negative
/// values first.
pub fn from_portable_signed(bytes: &[u8]) -> Result<Writer, PortableError> {
    let mut starts: Vec<(u32, usize)> = Vec::new();
    each_bucket(bytes, |input, high| {
        starts.push((high, input.pos));
        skip_bitmap32(input)
    })?;
    let split = starts.partition_point(|&(high, _)| high < BUCKET_SIGN);
    let (mut w, mut scratch) = writer_for(bytes);
    for &(high, at) in starts[split..].iter().chain(&starts[..split]) {
        let mut input = Input { bytes, pos: at };
        read_bitmap32(&mut input, u64::from(high ^ BUCKET_SIGN) << 16, &mut w, &mut scratch)?;
    }
    Ok(w)
}

/// Reads a standard 32-bit portable roaring bitmap (the RoaringFormatSpec format of
/// Java's `RoaringBitmap`, CRoaring's `roaring_bitmap_portable_serialize` and
/// pg_roaringbitmap's `roaringbitmap`) into a [`Writer`], its values taken as
/// unsigned 32-bit ones, checking everything [`from_portable`] checks. With `signed`,
/// the values are written in the stored form of the signed integers they equal
/// ([`to_stored`](crate::to_stored)), as a set of `bigint`s keeps them.
pub fn from_portable32_writer(bytes: &[u8], signed: bool) -> Result<Writer, PortableError> {
    let (mut w, mut scratch) = writer_for(bytes);
    let mut input = Input { bytes, pos: 0 };
    let high = if signed { u64::from(BUCKET_SIGN) << 16 } else { 0 };
    read_bitmap32(&mut input, high, &mut w, &mut scratch)?;
    if input.pos != bytes.len() {
        return Err(PortableError::TrailingBytes {
            offset: input.pos,
            len: bytes.len(),
        });
    }
    Ok(w)
}

/// Reads the header of one 32-bit portable bitmap, checking container keys,
/// counts, run flags and offsets, and calls `container(input, key, card, is_run)`
/// with the input at each container's payload, which it must consume.
fn each_container(
    input: &mut Input<'_>,
    mut container: impl FnMut(&mut Input<'_>, u16, u32, bool) -> Result<(), PortableError>,
) -> Result<(), PortableError> {
    let start = input.pos;
    let cookie = input.u32("cookie")?;
    let (size, flags) = if cookie == SERIAL_COOKIE_NO_RUNCONTAINER {
        let at = input.pos;
        let size = input.u32("container count")?;
        if size > 1 << 16 {
            return Err(PortableError::TooManyContainers {
                offset: at,
                count: size,
            });
        }
        (size as usize, None)
    } else if cookie as u16 == SERIAL_COOKIE {
        let size = (cookie >> 16) as usize + 1;
        let at = input.pos;
        let flags = input.take(size.div_ceil(8), "run-container flags")?;
        if !size.is_multiple_of(8) && flags[flags.len() - 1] >> (size % 8) != 0 {
            return Err(PortableError::RunFlagPadding {
                offset: at + flags.len() - 1,
            });
        }
        (size, Some(flags))
    } else {
        return Err(PortableError::UnknownCookie {
            offset: start,
            cookie,
        });
    };
    let descr_at = input.pos;
    let descr = input.take(4 * size, "container keys and cardinalities")?;
    let offsets_at = input.pos;
    let offsets = if flags.is_none() || size >= NO_OFFSET_THRESHOLD {
        Some(input.take(4 * size, "container offsets")?)
    } else {
        None
    };
    let mut previous: Option<u16> = None;
    for i in 0..size {
        let key = le16(descr, 4 * i);
        if let Some(p) = previous.filter(|&p| key <= p) {
            return Err(PortableError::ContainerKeyOrder {
                offset: descr_at + 4 * i,
                key,
                previous: p,
            });
        }
        previous = Some(key);
        let card = u32::from(le16(descr, 4 * i + 2)) + 1;
        if let Some(offsets) = offsets {
            let found = le32(offsets, 4 * i);
            let expected = (input.pos - start) as u64;
            if u64::from(found) != expected {
                return Err(PortableError::BadOffset {
                    offset: offsets_at + 4 * i,
                    found,
                    expected: u32::try_from(expected).unwrap_or(u32::MAX),
                });
            }
        }
        let is_run = flags.is_some_and(|f| f[i / 8] >> (i % 8) & 1 == 1);
        container(input, key, card, is_run)?;
    }
    Ok(())
}

/// Reads one 32-bit portable bitmap, pushing its containers with keys `high | key`.
fn read_bitmap32(
    input: &mut Input<'_>,
    high: u64,
    w: &mut Writer,
    s: &mut Scratch,
) -> Result<(), PortableError> {
    each_container(input, |input, key, card, is_run| {
        let key = high | u64::from(key);
        if is_run {
            read_run(input, key, card, w, s)
        } else if card <= ARRAY_MAX {
            read_array(input, key, card, w, s)
        } else {
            read_bitmap(input, key, card, w, s)
        }
    })
}

/// Steps over one 32-bit portable bitmap, checking its layout but not its payloads
/// (which [`read_bitmap32`] checks when it reads them).
fn skip_bitmap32(input: &mut Input<'_>) -> Result<(), PortableError> {
    each_container(input, |input, _, card, is_run| {
        let len = if is_run {
            let at = input.pos;
            let nruns = input.u16("run count")?;
            if nruns == 0 {
                return Err(PortableError::EmptyRunContainer { offset: at });
            }
            input.take(4 * usize::from(nruns), "run container")?;
            return Ok(());
        } else if card <= ARRAY_MAX {
            2 * card as usize
        } else {
            BITMAP_BYTES
        };
        input.take(len, if card <= ARRAY_MAX { "array container" } else { "bitmap container" })?;
        Ok(())
    })
}

fn read_array(
    input: &mut Input<'_>,
    key: u64,
    card: u32,
    w: &mut Writer,
    s: &mut Scratch,
) -> Result<(), PortableError> {
    let at = input.pos;
    let payload = input.take(2 * card as usize, "array container")?;
    s.lows.clear();
    for (i, b) in payload.as_chunks::<2>().0.iter().enumerate() {
        let v = u16::from_le_bytes(*b);
        if s.lows.last().is_some_and(|&p| v <= p) {
            return Err(PortableError::ArrayNotIncreasing { offset: at + 2 * i });
        }
        s.lows.push(v);
    }
    w.push_sorted_lows(key, &s.lows);
    Ok(())
}

fn read_bitmap(
    input: &mut Input<'_>,
    key: u64,
    card: u32,
    w: &mut Writer,
    s: &mut Scratch,
) -> Result<(), PortableError> {
    let at = input.pos;
    let payload = input.take(BITMAP_BYTES, "bitmap container")?;
    for (d, b) in s.words.iter_mut().zip(payload.as_chunks::<8>().0) {
        *d = u64::from_le_bytes(*b);
    }
    let actual: u32 = s.words.iter().map(|w| w.count_ones()).sum();
    if actual != card {
        return Err(PortableError::CardinalityMismatch {
            offset: at,
            declared: card,
            actual,
        });
    }
    w.push_bitmap(key, &s.words);
    Ok(())
}

fn read_run(
    input: &mut Input<'_>,
    key: u64,
    card: u32,
    w: &mut Writer,
    s: &mut Scratch,
) -> Result<(), PortableError> {
    let at = input.pos;
    let nruns = input.u16("run count")?;
    if nruns == 0 {
        return Err(PortableError::EmptyRunContainer { offset: at });
    }
    let runs_at = input.pos;
    let payload = input.take(4 * usize::from(nruns), "run container")?;
    s.runs.clear();
    let mut actual = 0u32;
    let mut end: Option<u32> = None;
    for (i, b) in payload.as_chunks::<4>().0.iter().enumerate() {
        let start = u16::from_le_bytes([b[0], b[1]]);
        let len1 = u16::from_le_bytes([b[2], b[3]]);
        let offset = runs_at + 4 * i;
        let last = u32::from(start) + u32::from(len1);
        if last > 0xFFFF {
            return Err(PortableError::RunOverflow { offset });
        }
        if end.is_some_and(|e| u32::from(start) <= e + 1) {
            return Err(PortableError::RunsNotSeparated { offset });
        }
        end = Some(last);
        actual += u32::from(len1) + 1;
        s.runs.push((start, len1));
    }
    if actual != card {
        return Err(PortableError::CardinalityMismatch {
            offset: at,
            declared: card,
            actual,
        });
    }
    w.push_runs(key, &s.runs);
    Ok(())
}


