//! Whether one view is contained in another.

use super::meet::{meet, Count};
use super::walk::{seek, Slot};
use crate::format::Header;
use crate::view::RoaringView;

/// Whether `a ⊆ b` as far as the two headers tell, or None when the containers
/// must be compared: a set of more values, a set reaching below the other's
/// minimum or above its maximum, and a set of more containers is no subset; the
/// empty set is a subset of every set. A caller holding a large stored set reads
/// its header alone (its first bytes) to answer these without the rest.
pub fn is_subset_by_headers(a: &Header, b: &Header) -> Option<bool> {
    if a.cardinality == 0 {
        return Some(true);
    }
    let fits = b.cardinality >= a.cardinality && b.min <= a.min && a.max <= b.max && a.n <= b.n;
    (!fits).then_some(false)
}

/// Whether every value of `a` is in `b` (`a ⊆ b`; the empty set is a subset of
/// every set).
///
/// Stops at the first container of `a` whose key `b` lacks, whose cardinality
/// exceeds its partner's (both read from the directories), or whose
/// intersection with its partner counts fewer values than it holds.
pub fn is_subset(a: RoaringView<'_>, b: RoaringView<'_>) -> bool {
    if let Some(answer) = is_subset_by_headers(&a.header(), &b.header()) {
        return answer;
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
