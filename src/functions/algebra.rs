//! Set algebra between two sets: results, their cardinalities without building them,
//! and the predicates behind @>, <@ and &&. Pairs far apart are answered from their
//! two headers where `crate::read` finds that cheaper.

use sroar::{Splice, Writer};
use sroar_pg_macros::sql_fn;

use crate::functions::one_set;
use crate::pg::RoaringOut;
use crate::read::{disjoint_cards, is_subset, pair, Stored};

#[sql_fn]
fn rb_and(a: Stored, b: Stored) -> RoaringOut {
    if disjoint_cards(&a, &b).is_some() {
        return Writer::new().into();
    }
    let (a, b) = pair(&a, &b);
    Writer::and(a, b).into()
}

#[sql_fn]
fn rb_or(a: Stored, b: Stored) -> RoaringOut {
    // `s = rb_or(s, new)` on a large stored set with a few ids: detoasting copies it
    // anyway, and when the union only sets bits in its bitmaps that copy becomes the
    // result, instead of a second copy written anew. Between sets of like sizes most
    // containers change, and the pair is read as any other.
    let (large, small) = if a.byte_len() >= b.byte_len() {
        (a, b)
    } else {
        (b, a)
    };
    if small.byte_len() <= large.byte_len() / IN_PLACE_RATIO {
        if let Some(mut copy) = large.read_owned() {
            let union = Splice::or_over(copy.view(), small.whole_view());
            let Some(edit) = union.in_place() else {
                return union.into();
            };
            drop(union);
            edit.apply(copy.bytes_mut());
            return copy.into();
        }
    }
    let (a, b) = pair(&a, &b);
    Splice::or(a, b).into()
}

/// `rb_or` tries to change the larger set's own copy when the other is at most this
/// many times smaller.
const IN_PLACE_RATIO: usize = 4;

#[sql_fn]
fn rb_xor(a: Stored, b: Stored) -> RoaringOut {
    let (a, b) = pair(&a, &b);
    Writer::xor(a, b).into()
}

#[sql_fn]
fn rb_andnot(a: Stored, b: Stored) -> RoaringOut {
    let (a, b) = pair(&a, &b);
    Splice::andnot(a, b).into()
}

#[sql_fn]
fn rb_and_cardinality(a: Stored, b: Stored) -> i64 {
    if disjoint_cards(&a, &b).is_some() {
        return 0;
    }
    let (a, b) = pair(&a, &b);
    a.and_len(&b) as i64
}

#[sql_fn]
fn rb_or_cardinality(a: Stored, b: Stored) -> i64 {
    if let Some((x, y)) = disjoint_cards(&a, &b) {
        return (x + y) as i64;
    }
    let (a, b) = pair(&a, &b);
    a.or_len(&b) as i64
}

#[sql_fn]
fn rb_xor_cardinality(a: Stored, b: Stored) -> i64 {
    if let Some((x, y)) = disjoint_cards(&a, &b) {
        return (x + y) as i64;
    }
    let (a, b) = pair(&a, &b);
    a.xor_len(&b) as i64
}

#[sql_fn]
fn rb_andnot_cardinality(a: Stored, b: Stored) -> i64 {
    if let Some((x, _)) = disjoint_cards(&a, &b) {
        return x as i64;
    }
    let (a, b) = pair(&a, &b);
    a.andnot_len(&b) as i64
}

/// |A ∩ B| / |A ∪ B|, NULL when both are empty.
#[sql_fn]
fn rb_jaccard(a: Stored, b: Stored) -> Option<f64> {
    let (both, either) = match disjoint_cards(&a, &b) {
        Some((x, y)) => (0, x + y),
        None => {
            let (a, b) = pair(&a, &b);
            let both = a.and_len(&b);
            (both, a.len() + b.len() - both)
        }
    };
    (either > 0).then(|| both as f64 / either as f64)
}

/// a @> b: every element of b is in a.
#[sql_fn]
fn rb_contains_all(a: Stored, b: Stored) -> bool {
    is_subset(&b, &a)
}

/// a <@ b: every element of a is in b.
#[sql_fn]
fn rb_contained_by(a: Stored, b: Stored) -> bool {
    is_subset(&a, &b)
}

/// x <@ r: the element is in the set (the commutator of r @> x, answered the same
/// way).
#[sql_fn]
fn rb_int8_contained_by(x: i64, r: Stored) -> bool {
    one_set::contains(&r, x)
}

#[sql_fn]
fn rb_intersects(a: Stored, b: Stored) -> bool {
    if disjoint_cards(&a, &b).is_some() {
        return false;
    }
    let (a, b) = pair(&a, &b);
    a.intersects(&b)
}
