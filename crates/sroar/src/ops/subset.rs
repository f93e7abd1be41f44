//! Whether one view is contained in another.

use super::meet::{meet, Count};
use super::walk::{seek, Slot};
use crate::view::RoaringView;

/// Whether every value of `a` is in `b` (`a ⊆ b`; the empty set is a subset of
/// every set).
///
/// Stops at the first container of `a` whose key `b` lacks, whose cardinality
/// exceeds its partner's (both read from the directories), or whose
/// intersection with its partner counts fewer values than it holds.
pub fn is_subset(a: RoaringView<'_>, b: RoaringView<'_>) -> bool {
    let (Some(a0), Some(a1)) = (a.min(), a.max()) else {
        return true;
    };
    match (b.min(), b.max()) {
        (Some(b0), Some(b1)) if b0 <= a0 && a1 <= b1 && a.len() <= b.len() => {}
        _ => return false,
    }
    if a.container_count() > b.container_count() {
        return false;
    }
    let (da, db) = (a.directory(), b.directory());
    let mut j = 0;
    for i in 0..da.len() {
        let key = da.key(i);
        j = seek(&db, j, key);
        if j == db.len() || db.key(j) != key || da.card(i) > db.card(j) {
            return false;
        }
        let (x, y) = (Slot::at(a, &da, i), Slot::at(b, &db, j));
        if meet(&mut Count, x, y) != x.card {
            return false;
        }
        j += 1;
    }
    true
}
