//! Intersection of two views.

use core::ops::ControlFlow;

use super::meet::{meet, Count, Meet, Write};
use super::pair::{payload_bytes, Scratch};
use super::walk::{common, common_pairs, is_pair, Slot};
use crate::container::Container;
use crate::format::Header;
use crate::view::RoaringView;
use crate::writer::{CapacityError, Writer};

/// `a ∩ b`, as an unfinished [`Writer`] (size a buffer with
/// [`Writer::encoded_len`], then [`Writer::write_into`] it).
///
/// Only the keys both views hold are visited, galloping through the larger
/// directory.
pub fn and_writer(a: RoaringView<'_>, b: RoaringView<'_>) -> Writer {
    // Checked first, so that an empty result reserves nothing.
    if disjoint_ranges(a, b) {
        return Writer::new();
    }
    // A reservation, not a bound: the intersection is usually no bigger than the
    // smaller input.
    let mut w = Writer::with_capacity(
        a.container_count().min(b.container_count()),
        payload_bytes(a).min(payload_bytes(b)),
    );
    let mut sink = Write {
        w: &mut w,
        s: Scratch::new(),
    };
    if is_pair(a) && is_pair(b) {
        pairs_into(a, b, &mut sink);
    } else {
        let _ = common(a, b, |x, y| {
            meet(&mut sink, x, y);
            ControlFlow::Continue(())
        });
    }
    w
}

/// [`and_writer`]'s walk for two sets of one or two containers each. Out of
/// line, so that the general walk keeps `meet` inlined as its only visitor.
#[inline(never)]
fn pairs_into(a: RoaringView<'_>, b: RoaringView<'_>, sink: &mut Write<'_>) {
    let _ = common_pairs(a, b, |x, y| {
        meet(sink, x, y);
        ControlFlow::Continue(())
    });
}

/// `a ∩ b`, where `b` is asked for its container of each key of `a` in turn
/// (`lookup(key)`: that container and its cardinality, or None when `b` lacks the
/// key): a small `a` against a large set read by ranges ([`crate::Partial`])
/// reads only the containers of `a`'s keys.
pub(crate) fn and_lookup<'b, E>(
    a: RoaringView<'_>,
    lookup: impl FnMut(u64) -> Result<Option<(u32, Container<'b>)>, E>,
) -> Result<Writer, E> {
    let mut w = Writer::with_capacity(a.container_count(), payload_bytes(a));
    let mut sink = Write {
        w: &mut w,
        s: Scratch::new(),
    };
    meet_each(a, lookup, &mut sink, |()| ())?;
    Ok(w)
}

/// `|a ∩ b|`, with `b` asked for its containers as in [`and_lookup`].
pub(crate) fn and_len_lookup<'b, E>(
    a: RoaringView<'_>,
    lookup: impl FnMut(u64) -> Result<Option<(u32, Container<'b>)>, E>,
) -> Result<u64, E> {
    let mut total = 0u64;
    meet_each(a, lookup, &mut Count, |n| total += u64::from(n))?;
    Ok(total)
}

/// Each container of `a` met with `b`'s of the same key, where `b` has one.
fn meet_each<'b, M: Meet, E>(
    a: RoaringView<'_>,
    mut lookup: impl FnMut(u64) -> Result<Option<(u32, Container<'b>)>, E>,
    m: &mut M,
    mut each: impl FnMut(M::Out),
) -> Result<(), E> {
    let dir = a.directory();
    for i in 0..dir.len() {
        // Each lookup may be a read of its own (a TOAST scan).
        if i % 1024 == 1023 {
            crate::interrupt::check();
        }
        let x = Slot::at(a, &dir, i);
        if let Some((card, c)) = lookup(x.key)? {
            each(meet(m, x, Slot { key: x.key, card, c }));
        }
    }
    Ok(())
}

/// `a ∩ b`, encoded.
pub fn and(a: RoaringView<'_>, b: RoaringView<'_>) -> Result<Vec<u8>, CapacityError> {
    and_writer(a, b).into_vec()
}

/// Whether the value ranges `[min, max]` of the two views do not overlap (true
/// when either is empty).
#[inline]
pub(crate) fn disjoint_ranges(a: RoaringView<'_>, b: RoaringView<'_>) -> bool {
    are_disjoint_by_headers(&a.header(), &b.header())
}

/// Whether the two headers prove `a ∩ b = ∅`: one set is empty, or their value
/// ranges `[min, max]` do not overlap. A caller holding large stored sets reads
/// their headers alone (their first bytes) to answer intersections of sets far
/// apart (ids of different periods or tenants) without the rest.
#[inline]
pub fn are_disjoint_by_headers(a: &Header, b: &Header) -> bool {
    a.cardinality == 0 || b.cardinality == 0 || a.max < b.min || b.max < a.min
}
