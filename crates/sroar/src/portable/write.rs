//! Export: the portable bytes of a view, of its values as they are or as signed
//! 64-bit patterns.

use super::{
    header_len, payload_len, portable_kind, BUCKET_SIGN, NO_OFFSET_THRESHOLD, SERIAL_COOKIE,
    SERIAL_COOKIE_NO_RUNCONTAINER,
};
use crate::container::bitmap::WORDS;
use crate::container::{Container, Kind};
use crate::view::RoaringView;

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

/// Ranges of container indexes sharing their high 32 bits, with those bits, in
/// the order the portable format lists them. With `signed`, the values are taken
/// as the stored form of signed ones: the portable keys are their 64-bit patterns,
/// so each bucket key has its sign bit toggled, and the buckets of non-negative
/// values (stored in the upper half) come first.
fn buckets<'a>(
    view: &RoaringView<'a>,
    signed: bool,
) -> impl Iterator<Item = (u32, core::ops::Range<usize>)> + 'a {
    let v = *view;
    let n = v.container_count();
    // The first container of the upper half (values with the top bit set).
    let split = if signed { v.directory().lower_bound(1 << 47) } else { 0 };
    let (toggle, halves) = if signed { (BUCKET_SIGN, [split..n, 0..split]) } else { (0, [0..n, n..n]) };
    halves.into_iter().flat_map(move |half| {
        let mut i = half.start;
        core::iter::from_fn(move || {
            if i >= half.end {
                return None;
            }
            let high = v.key(i) >> 16;
            let start = i;
            while i < half.end && v.key(i) >> 16 == high {
                i += 1;
            }
            Some((high as u32 ^ toggle, start..i))
        })
    })
}

/// Length in bytes of the portable encoding of `view`, whether its values are
/// taken as they are or as signed ones (the buckets and containers are the same).
pub fn portable_len(view: &RoaringView<'_>) -> usize {
    let mut len = 8;
    for (_, range) in buckets(view, false) {
        len += 4 + bitmap32_len(view, range);
    }
    len
}

/// Length of the containers `range` of `view` as one 32-bit portable bitmap.
fn bitmap32_len(view: &RoaringView<'_>, range: core::ops::Range<usize>) -> usize {
    let mut has_run = false;
    let mut payloads = 0;
    for (i, (_, c)) in range.clone().zip(view.containers_in(range.clone())) {
        if i % 4096 == 4095 {
            crate::interrupt::check();
        }
        let p = plan(&c);
        has_run |= p.kind == Kind::Run;
        payloads += payload_len(p.kind, p.card, p.nruns);
    }
    header_len(range.len(), has_run) + payloads
}

/// The containers of `view` when every value fits in 32 bits unsigned (with
/// `signed`, when the values are the stored form of signed integers from 0 to
/// 2^32 - 1), else None.
fn range32(view: &RoaringView<'_>, signed: bool) -> Option<core::ops::Range<usize>> {
    let n = view.container_count();
    let high = if signed { u64::from(BUCKET_SIGN) } else { 0 };
    (n == 0 || (view.key(0) >> 16 == high && view.key(n - 1) >> 16 == high)).then_some(0..n)
}

/// Length of the standard 32-bit portable encoding of `view` (see
/// [`from_portable32_writer`](crate::from_portable32_writer) for `signed`), or None
/// when a value does not fit in 32 bits.
pub fn portable32_len(view: &RoaringView<'_>, signed: bool) -> Option<usize> {
    range32(view, signed).map(|r| bitmap32_len(view, r))
}

/// Writes the standard 32-bit portable encoding of `view` into `out`, whose length
/// must be [`portable32_len`]`(view, signed)`: the format Java's `RoaringBitmap`,
/// CRoaring and pg_roaringbitmap's `roaringbitmap` read.
///
/// # Panics
/// If a value does not fit in 32 bits, or `out.len()` differs from the length.
pub fn write_portable32_into(view: &RoaringView<'_>, signed: bool, out: &mut [u8]) {
    let range = range32(view, signed).expect("sroar: values that fit in 32 bits");
    assert_eq!(
        out.len(),
        bitmap32_len(view, range.clone()),
        "sroar: portable output buffer has the wrong length"
    );
    let mut o = Out { buf: out, pos: 0 };
    put_bitmap32(&mut o, view, range, &mut Vec::new());
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
    write_unchecked(view, out, false);
}

/// [`write_portable_into`] of the values taken as the stored form of signed ones
/// ([`to_stored`](crate::to_stored)): the portable bytes hold their 64-bit patterns,
/// as pg_roaringbitmap stores a set of `bigint`s. One pass, straight into `out`.
///
/// # Panics
/// If `out.len()` differs from the portable length ([`portable_len`]).
pub fn write_portable_signed_into(view: &RoaringView<'_>, out: &mut [u8]) {
    assert_eq!(
        out.len(),
        portable_len(view),
        "sroar: portable output buffer has the wrong length"
    );
    write_unchecked(view, out, true);
}

/// Writes the portable bytes once the length is known to be right.
fn write_unchecked(view: &RoaringView<'_>, out: &mut [u8], signed: bool) {
    let len = out.len();
    let mut o = Out { buf: out, pos: 0 };
    let nbuckets = buckets(view, signed).count() as u64;
    o.put(&nbuckets.to_le_bytes());
    let mut plans: Vec<Plan> = Vec::new();
    for (high, range) in buckets(view, signed) {
        o.u32(high);
        put_bitmap32(&mut o, view, range, &mut plans);
    }
    debug_assert_eq!(o.pos, len);
}

/// Writes the containers `range` of `view` as one 32-bit portable bitmap.
fn put_bitmap32(o: &mut Out<'_>, view: &RoaringView<'_>, range: core::ops::Range<usize>, plans: &mut Vec<Plan>) {
    plans.clear();
    plans.extend(view.containers_in(range.clone()).map(|(_, c)| plan(&c)));
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
    for (i, p) in range.clone().zip(plans.iter()) {
        o.u16(view.key(i) as u16);
        o.u16((p.card - 1) as u16);
    }
    if !has_run || size >= NO_OFFSET_THRESHOLD {
        let mut offset = header_len(size, has_run);
        for p in plans.iter() {
            o.u32(offset as u32);
            offset += payload_len(p.kind, p.card, p.nruns);
        }
    }
    debug_assert_eq!(o.pos - start, header_len(size, has_run));
    for ((i, (_, c)), p) in range.clone().zip(view.containers_in(range)).zip(plans.iter()) {
        if i % 4096 == 4095 {
            crate::interrupt::check();
        }
        put_payload(o, &c, p);
    }
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

