//! Intersection of two views.

use core::ops::ControlFlow;

use super::meet::{meet, Write};
use super::pair::{payload_bytes, Scratch};
use super::walk::common;
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
    let _ = common(a, b, |x, y| {
        meet(&mut sink, x, y);
        ControlFlow::Continue(())
    });
    w
}

/// `a ∩ b`, encoded.
pub fn and(a: RoaringView<'_>, b: RoaringView<'_>) -> Result<Vec<u8>, CapacityError> {
    and_writer(a, b).into_vec()
}

/// Whether the value ranges `[min, max]` of the two views do not overlap (true
/// when either is empty).
pub(crate) fn disjoint_ranges(a: RoaringView<'_>, b: RoaringView<'_>) -> bool {
    are_disjoint_by_headers(&a.header(), &b.header())
}

/// Whether the two headers prove `a ∩ b = ∅`: one set is empty, or their value
/// ranges `[min, max]` do not overlap. A caller holding large stored sets reads
/// their headers alone (their first bytes) to answer intersections of sets far
/// apart (ids of different periods or tenants) without the rest.
pub fn are_disjoint_by_headers(a: &Header, b: &Header) -> bool {
    a.cardinality == 0 || b.cardinality == 0 || a.max < b.min || b.max < a.min
}
