//! The standard portable format of RoaringFormatSpec, "64-bit extension": export
//! to and import from the bytes that CRoaring (`roaring64_bitmap_portable_serialize`),
//! roaring-rs (`RoaringTreemap::serialize_into`), Java and Go exchange.
//!
//! ```text
//! u64   number of buckets
//! then per bucket, by ascending high 32 bits:
//!   u32   high 32 bits of the bucket's values
//!   a 32-bit portable roaring bitmap of the low 32 bits:
//!     u32 12346, u32 size                        (no run container), or
//!     u32 12347 | (size - 1) << 16, run flags    ((size + 7) / 8 bytes)
//!     size × (u16 key, u16 cardinality - 1)
//!     size × u32 offset from the cookie          (omitted for 12347 with size < 4)
//!     payloads: array 2·card bytes, bitmap 8192 bytes,
//!               run u16 nruns then nruns × (u16 start, u16 len - 1)
//! ```
//!
//! Without a run flag a container's kind follows from its cardinality: up to 4096
//! values is an array, more is a bitmap.
//!
//! # Container kinds on export
//! [`to_portable`] stores each container in the kind the reference implementations
//! pick after run optimization ([`portable_kind`]), so its output is byte-identical to
//! CRoaring's `roaring64_bitmap_run_optimize` + `roaring64_bitmap_portable_serialize`
//! and to roaring-rs's `RoaringTreemap::optimize` + `serialize_into` for a set built
//! from values. The portable sizes count 2 bytes of run count that a sroar run
//! payload does not have, so the portable rule differs from
//! [`canonical_kind`](crate::container::canonical_kind) in one case: a container of
//! `2r + 1 <= 4096` values in `r` runs is a run container in sroar and an array in
//! the portable format. The writer converts it.
//!
//! # Import
//! [`from_portable`] checks everything (layout, order, cardinalities, offsets, trailing
//! bytes), returns a [`PortableError`] naming the byte where the input went wrong, and
//! never panics. Containers of any kind are accepted and stored canonically.
//!
//! ```
//! use sroar::portable::{from_portable, looks_like_portable, to_portable};
//! use sroar::{from_sorted, RoaringView};
//!
//! let ours = from_sorted(&[1, 2, 3, 1 << 40]).unwrap();
//! let portable = to_portable(&RoaringView::from_bytes(&ours).unwrap());
//! assert!(looks_like_portable(&portable) && !looks_like_portable(&ours));
//! assert_eq!(from_portable(&portable).unwrap(), ours);
//! ```

use core::fmt;

use crate::container::bitmap::{BITMAP_BYTES, WORDS};
use crate::container::{Container, Kind, ARRAY_MAX};
use crate::view::RoaringView;
use crate::writer::{CapacityError, Writer};

/// Cookie of a 32-bit portable bitmap with no run container.
pub const SERIAL_COOKIE_NO_RUNCONTAINER: u32 = 12346;
/// Low 16 bits of the cookie of a 32-bit portable bitmap with run containers.
pub const SERIAL_COOKIE: u16 = 12347;
/// With [`SERIAL_COOKIE`], offsets are stored only from this many containers on.
pub const NO_OFFSET_THRESHOLD: usize = 4;

/// Fewest bytes a bucket takes: its key and an empty no-run bitmap (cookie, size).
const MIN_BUCKET_LEN: usize = 12;

/// The kind the reference implementations store a container of `card >= 1` values
/// in `nruns` runs in, after run optimization.
///
/// The serialized sizes compared are: array `2·card` (`<= 4096` values only),
/// bitmap 8192, run `2 + 4·nruns`; a run container is chosen only when strictly
/// smaller. This is CRoaring's `convert_run_optimize` (array: `if
/// (size_as_run_container >= size_as_array_container)` keep the array; bitset:
/// `if (size_as_bitset_container <= size_as_run_container)` keep the bitset, with
/// `array_container_serialized_size_in_bytes(card) = card * 2` and
/// `run_container_serialized_size_in_bytes(n) = 2 + 4 n`) and roaring-rs's
/// `Container::optimize` (`if size_as_array <= size_as_run` / `if BITMAP_BYTES <=
/// size_as_run` keep), for containers that were arrays or bitmaps before, as for
/// any set built from values.
pub fn portable_kind(card: u32, nruns: u32) -> Kind {
    let run = 2 + 4 * u64::from(nruns);
    if card <= ARRAY_MAX {
        if run < 2 * u64::from(card) {
            Kind::Run
        } else {
            Kind::Array
        }
    } else if run < BITMAP_BYTES as u64 {
        Kind::Run
    } else {
        Kind::Bitmap
    }
}

/// Portable payload size of a container stored as `kind`.
fn payload_len(kind: Kind, card: u32, nruns: u32) -> usize {
    match kind {
        Kind::Array => 2 * card as usize,
        Kind::Bitmap => BITMAP_BYTES,
        Kind::Run => 2 + 4 * nruns as usize,
    }
}

/// Size of the cookie, run flags, descriptive header and offsets of a 32-bit
/// bitmap of `size` containers.
fn header_len(size: usize, has_run: bool) -> usize {
    if has_run {
        let offsets = if size >= NO_OFFSET_THRESHOLD {
            4 * size
        } else {
            0
        };
        4 + size.div_ceil(8) + 4 * size + offsets
    } else {
        8 + 8 * size
    }
}

/// One container as exported: its portable kind, cardinality and run count.
#[derive(Clone, Copy)]
struct Plan {
    kind: Kind,
    card: u32,
    nruns: u32,
}

fn plan(c: &Container<'_>) -> Plan {
    let card = c.len() as u32;
    let nruns = c.count_runs();
    Plan {
        kind: portable_kind(card, nruns),
        card,
        nruns,
    }
}

/// Ranges of container indexes sharing their high 32 bits, with those bits.
fn buckets<'a>(
    view: &RoaringView<'a>,
) -> impl Iterator<Item = (u32, core::ops::Range<usize>)> + 'a {
    let v = *view;
    let n = v.container_count();
    let mut i = 0;
    core::iter::from_fn(move || {
        if i >= n {
            return None;
        }
        let high = v.key(i) >> 16;
        let start = i;
        while i < n && v.key(i) >> 16 == high {
            i += 1;
        }
        Some((high as u32, start..i))
    })
}

/// Length in bytes of the portable encoding of `view`.
pub fn portable_len(view: &RoaringView<'_>) -> usize {
    let mut len = 8;
    for (_, range) in buckets(view) {
        let mut has_run = false;
        let mut payloads = 0;
        for i in range.clone() {
            if i % 4096 == 4095 {
                crate::interrupt::check();
            }
            let p = plan(&view.container(i).1);
            has_run |= p.kind == Kind::Run;
            payloads += payload_len(p.kind, p.card, p.nruns);
        }
        len += 4 + header_len(range.len(), has_run) + payloads;
    }
    len
}

/// Writes forward into a slice whose length was computed beforehand.
struct Out<'a> {
    buf: &'a mut [u8],
    pos: usize,
}

impl Out<'_> {
    fn put(&mut self, bytes: &[u8]) {
        self.buf[self.pos..self.pos + bytes.len()].copy_from_slice(bytes);
        self.pos += bytes.len();
    }

    fn u16(&mut self, v: u16) {
        self.put(&v.to_le_bytes());
    }

    fn u32(&mut self, v: u32) {
        self.put(&v.to_le_bytes());
    }
}

/// Writes the portable encoding of `view` into `out`, whose length must be
/// [`portable_len`]`(view)`.
///
/// # Panics
/// If `out.len()` differs from the portable length.
pub fn write_portable_into(view: &RoaringView<'_>, out: &mut [u8]) {
    assert_eq!(
        out.len(),
        portable_len(view),
        "sroar: portable output buffer has the wrong length"
    );
    write_unchecked(view, out);
}

/// [`write_portable_into`] once the length is known to be right.
fn write_unchecked(view: &RoaringView<'_>, out: &mut [u8]) {
    let len = out.len();
    let mut o = Out { buf: out, pos: 0 };
    let nbuckets = buckets(view).count() as u64;
    o.put(&nbuckets.to_le_bytes());
    let mut plans: Vec<Plan> = Vec::new();
    for (high, range) in buckets(view) {
        o.u32(high);
        plans.clear();
        plans.extend(range.clone().map(|i| plan(&view.container(i).1)));
        let size = plans.len();
        let has_run = plans.iter().any(|p| p.kind == Kind::Run);
        let start = o.pos;
        if has_run {
            o.u32(u32::from(SERIAL_COOKIE) | ((size as u32 - 1) << 16));
            let flags_at = o.pos;
            o.pos += size.div_ceil(8);
            o.buf[flags_at..o.pos].fill(0);
            for (i, p) in plans.iter().enumerate() {
                if p.kind == Kind::Run {
                    o.buf[flags_at + i / 8] |= 1 << (i % 8);
                }
            }
        } else {
            o.u32(SERIAL_COOKIE_NO_RUNCONTAINER);
            o.u32(size as u32);
        }
        for (i, p) in range.clone().zip(&plans) {
            o.u16(view.key(i) as u16);
            o.u16((p.card - 1) as u16);
        }
        if !has_run || size >= NO_OFFSET_THRESHOLD {
            let mut offset = header_len(size, has_run);
            for p in &plans {
                o.u32(offset as u32);
                offset += payload_len(p.kind, p.card, p.nruns);
            }
        }
        debug_assert_eq!(o.pos - start, header_len(size, has_run));
        for (i, p) in range.zip(&plans) {
            if i % 4096 == 4095 {
                crate::interrupt::check();
            }
            put_payload(&mut o, &view.container(i).1, p);
        }
    }
    debug_assert_eq!(o.pos, len);
}

/// Writes the payload of `c` in the kind `p` chose, copying when the kinds agree.
fn put_payload(o: &mut Out<'_>, c: &Container<'_>, p: &Plan) {
    match (p.kind, c) {
        (Kind::Array, Container::Array(a)) => o.put(a.as_bytes()),
        (Kind::Array, _) => {
            for v in c.iter() {
                o.u16(v);
            }
        }
        (Kind::Bitmap, Container::Bitmap(b)) => o.put(b.as_bytes()),
        (Kind::Bitmap, _) => {
            let mut words = [0u64; WORDS];
            c.or_into(&mut words);
            for w in words {
                o.put(&w.to_le_bytes());
            }
        }
        (Kind::Run, Container::Run(r)) => {
            o.u16(p.nruns as u16);
            o.put(r.as_bytes());
        }
        (Kind::Run, _) => {
            o.u16(p.nruns as u16);
            let mut it = c.iter();
            let Some(first) = it.next() else { return };
            let (mut s, mut e) = (first, first);
            for v in it {
                if u32::from(v) != u32::from(e) + 1 {
                    o.u16(s);
                    o.u16(e - s);
                    s = v;
                }
                e = v;
            }
            o.u16(s);
            o.u16(e - s);
        }
    }
}

/// The portable encoding of `view` (see the module documentation).
pub fn to_portable(view: &RoaringView<'_>) -> Vec<u8> {
    let mut out = vec![0u8; portable_len(view)];
    write_unchecked(view, &mut out);
    out
}

/// A cheap look at the first bytes: could `bytes` be in the portable format?
///
/// True when the leading `u64` bucket count is plausible for the length (0 buckets
/// only for exactly 8 bytes; otherwise at most one bucket per 12 bytes) and the
/// first bucket starts with a 32-bit portable cookie. A sroar buffer never passes:
/// read as a bucket count, its first 8 bytes ("SR64", version 1, zero flags) are
/// at least 2^32, far more buckets than any buffer below 2^30 bytes holds. A `true`
/// is no promise that [`from_portable`] accepts the bytes.
pub fn looks_like_portable(bytes: &[u8]) -> bool {
    let Some(head) = bytes.first_chunk::<8>() else {
        return false;
    };
    let count = u64::from_le_bytes(*head);
    if count == 0 {
        return bytes.len() == 8;
    }
    if count > ((bytes.len() - 8) / MIN_BUCKET_LEN) as u64 {
        return false;
    }
    match bytes.get(12..16) {
        Some(c) => {
            let cookie = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            cookie == SERIAL_COOKIE_NO_RUNCONTAINER || cookie as u16 == SERIAL_COOKIE
        }
        None => false,
    }
}

/// Why bytes are not a valid standard 64-bit portable roaring bitmap. Every
/// variant but [`PortableError::TooLarge`] names the byte offset (from the start of
/// the input) where the problem is.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PortableError {
    /// The input ends inside a field.
    Truncated {
        /// Where the field starts.
        offset: usize,
        /// The field.
        what: &'static str,
        /// Bytes the field needs.
        needed: usize,
        /// Bytes left from `offset`.
        available: usize,
    },
    /// Bytes follow the last bucket.
    TrailingBytes {
        /// Where the extra bytes start.
        offset: usize,
        /// Input length.
        len: usize,
    },
    /// The bucket count (byte 0) is more than the input could hold.
    TooManyBuckets {
        /// The bucket count.
        count: u64,
        /// The most buckets the input length allows.
        max: u64,
    },
    /// A 32-bit bitmap starts with neither cookie.
    UnknownCookie {
        /// Where the cookie is.
        offset: usize,
        /// The value found.
        cookie: u32,
    },
    /// A 32-bit bitmap declares more than 65536 containers.
    TooManyContainers {
        /// Where the count is.
        offset: usize,
        /// The count.
        count: u32,
    },
    /// Run flags are set past the last container.
    RunFlagPadding {
        /// The flag byte.
        offset: usize,
    },
    /// A bucket key is not greater than the previous bucket's.
    BucketKeyOrder {
        /// Where the key is.
        offset: usize,
        /// The key.
        key: u32,
        /// The previous bucket's key.
        previous: u32,
    },
    /// A container key is not greater than the previous one in its bucket.
    ContainerKeyOrder {
        /// Where the key is.
        offset: usize,
        /// The key.
        key: u16,
        /// The previous key.
        previous: u16,
    },
    /// A container offset is not where the payload starts.
    BadOffset {
        /// Where the offset field is.
        offset: usize,
        /// The stored offset.
        found: u32,
        /// The offset of the payload, from the bucket's cookie.
        expected: u32,
    },
    /// The payload holds a different number of values than the descriptive header.
    CardinalityMismatch {
        /// Where the payload starts.
        offset: usize,
        /// Cardinality in the descriptive header.
        declared: u32,
        /// Values in the payload.
        actual: u32,
    },
    /// An array value is not greater than the previous one.
    ArrayNotIncreasing {
        /// Where the value is.
        offset: usize,
    },
    /// A run container has no runs.
    EmptyRunContainer {
        /// Where the run count is.
        offset: usize,
    },
    /// A run ends past 65535.
    RunOverflow {
        /// Where the run is.
        offset: usize,
    },
    /// A run starts at or before the end of the previous run plus one (unsorted,
    /// overlapping or touching runs).
    RunsNotSeparated {
        /// Where the run is.
        offset: usize,
    },
    /// The set is valid but its sroar buffer would reach 2^30 bytes.
    TooLarge(CapacityError),
}

impl PortableError {
    /// The byte offset of the problem, when it has one.
    pub fn offset(&self) -> Option<usize> {
        use PortableError::*;
        match *self {
            Truncated { offset, .. }
            | TrailingBytes { offset, .. }
            | UnknownCookie { offset, .. }
            | TooManyContainers { offset, .. }
            | RunFlagPadding { offset }
            | BucketKeyOrder { offset, .. }
            | ContainerKeyOrder { offset, .. }
            | BadOffset { offset, .. }
            | CardinalityMismatch { offset, .. }
            | ArrayNotIncreasing { offset }
            | EmptyRunContainer { offset }
            | RunOverflow { offset }
            | RunsNotSeparated { offset } => Some(offset),
            TooManyBuckets { .. } => Some(0),
            TooLarge(_) => None,
        }
    }
}

impl fmt::Display for PortableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PortableError::*;
        f.write_str("invalid portable roaring bitmap: ")?;
        match self {
            Truncated {
                offset,
                what,
                needed,
                available,
            } => write!(
                f,
                "input ends in the {what} at byte {offset} ({needed} bytes needed, {available} left)"
            ),
            TrailingBytes { offset, len } => write!(
                f,
                "the last bucket ends at byte {offset} but the input has {len} bytes"
            ),
            TooManyBuckets { count, max } => write!(
                f,
                "bucket count {count} at byte 0 is more than the input can hold ({max} at most)"
            ),
            UnknownCookie { offset, cookie } => {
                write!(f, "unknown cookie {cookie} at byte {offset}")
            }
            TooManyContainers { offset, count } => write!(
                f,
                "container count {count} at byte {offset} is more than 65536"
            ),
            RunFlagPadding { offset } => write!(
                f,
                "run flag byte at byte {offset} flags containers past the last one"
            ),
            BucketKeyOrder {
                offset,
                key,
                previous,
            } => write!(
                f,
                "bucket key {key} at byte {offset} is not greater than the previous key {previous}"
            ),
            ContainerKeyOrder {
                offset,
                key,
                previous,
            } => write!(
                f,
                "container key {key} at byte {offset} is not greater than the previous key {previous}"
            ),
            BadOffset {
                offset,
                found,
                expected,
            } => write!(
                f,
                "container offset {found} at byte {offset} should be {expected}"
            ),
            CardinalityMismatch {
                offset,
                declared,
                actual,
            } => write!(
                f,
                "container at byte {offset} holds {actual} values, its header says {declared}"
            ),
            ArrayNotIncreasing { offset } => write!(
                f,
                "array value at byte {offset} is not greater than the previous value"
            ),
            EmptyRunContainer { offset } => {
                write!(f, "run container at byte {offset} has no runs")
            }
            RunOverflow { offset } => write!(f, "run at byte {offset} extends past 65535"),
            RunsNotSeparated { offset } => write!(
                f,
                "run at byte {offset} is unsorted, overlaps or touches the previous run"
            ),
            TooLarge(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PortableError {}

impl From<CapacityError> for PortableError {
    fn from(e: CapacityError) -> Self {
        PortableError::TooLarge(e)
    }
}

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

/// Reads a portable buffer into a [`Writer`] holding its containers in canonical
/// form, checking everything [`from_portable`] checks.
pub fn from_portable_writer(bytes: &[u8]) -> Result<Writer, PortableError> {
    let mut input = Input { bytes, pos: 0 };
    let count = input.u64("bucket count")?;
    let max = ((bytes.len() - 8) / MIN_BUCKET_LEN) as u64;
    if count > max {
        return Err(PortableError::TooManyBuckets { count, max });
    }
    // Our payloads are never larger than the portable ones (each container takes
    // its smallest kind), so the input length bounds the arena.
    let mut w = Writer::with_capacity(bytes.len() / 64, bytes.len());
    let mut scratch = Scratch {
        lows: Vec::new(),
        runs: Vec::new(),
        words: Box::new([0; WORDS]),
    };
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
        read_bitmap32(&mut input, u64::from(high) << 16, &mut w, &mut scratch)?;
    }
    if input.pos != bytes.len() {
        return Err(PortableError::TrailingBytes {
            offset: input.pos,
            len: bytes.len(),
        });
    }
    Ok(w)
}

/// Reads one 32-bit portable bitmap, pushing its containers with keys `high | key`.
fn read_bitmap32(
    input: &mut Input<'_>,
    high: u64,
    w: &mut Writer,
    s: &mut Scratch,
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
        let key = high | u64::from(key);
        if is_run {
            read_run(input, key, card, w, s)?;
        } else if card <= ARRAY_MAX {
            read_array(input, key, card, w, s)?;
        } else {
            read_bitmap(input, key, card, w, s)?;
        }
    }
    Ok(())
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

/// Reads a standard 64-bit portable roaring bitmap (from CRoaring, roaring-rs, Java,
/// Go, ...) into a canonical sroar buffer. Strict: anything but exactly one valid
/// portable bitmap is an error; never panics.
pub fn from_portable(bytes: &[u8]) -> Result<Vec<u8>, PortableError> {
    Ok(from_portable_writer(bytes)?.into_vec()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::container::canonical_kind;

    #[test]
    fn portable_rule_against_canonical() {
        // The one difference: 2r + 1 values in r runs, at most 4096 values.
        for card in 1..=ARRAY_MAX {
            for nruns in [card / 2, card.div_ceil(2), (card - 1) / 2, card / 2 + 1] {
                if nruns == 0 || nruns > card {
                    continue;
                }
                let ours = canonical_kind(card, nruns);
                let theirs = portable_kind(card, nruns);
                if card == 2 * nruns + 1 {
                    assert_eq!((ours, theirs), (Kind::Run, Kind::Array), "{card} {nruns}");
                } else {
                    assert_eq!(ours, theirs, "{card} {nruns}");
                }
            }
        }
        for card in [4097, 5000, 65536] {
            for nruns in [1, 2046, 2047, 2048, 2049] {
                assert_eq!(canonical_kind(card, nruns), portable_kind(card, nruns));
            }
        }
        assert_eq!(portable_kind(3, 1), Kind::Array);
        assert_eq!(portable_kind(4, 1), Kind::Run);
        assert_eq!(portable_kind(4096, 2047), Kind::Run);
        assert_eq!(portable_kind(4096, 2048), Kind::Array);
        assert_eq!(portable_kind(4097, 2047), Kind::Run);
        assert_eq!(portable_kind(4097, 2048), Kind::Bitmap);
    }

    #[test]
    fn empty() {
        let b = crate::empty();
        let v = RoaringView::from_bytes(&b).unwrap();
        assert_eq!(to_portable(&v), [0; 8]);
        assert!(looks_like_portable(&[0; 8]));
        assert!(!looks_like_portable(&b));
        assert_eq!(from_portable(&[0; 8]).unwrap(), b);
    }
}
