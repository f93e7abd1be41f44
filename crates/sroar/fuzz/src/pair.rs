//! Checks on two or three valid views: the set algebra of `sroar::ops`.
//!
//! Every producing operation's output must validate, equal its `*_writer` form and
//! have the length its `*_len` form says; the results are tied together by the
//! identities of set algebra, byte for byte (|A ∪ B| = |A| + |B| − |A ∩ B|,
//! (A ∩ B) ∪ (A ⊕ B) = A ∪ B, (A ⊕ B) ⊕ B = A, ...), and, for small sets, to
//! `insert_many` / `remove_many` of the values and to the order of the value lists.

use core::cmp::Ordering;

use crate::door::{empty, ops};
use sroar::{Accumulator, CapacityError, RoaringView, SetOp, Writer};

use crate::view::MODEL_MAX;
use crate::{valid, view};

/// Largest set whose values are listed to build a union or a difference by edits.
const LIST_MAX: u64 = 4096;

/// A producing operation in both of its forms.
type Op = (
    &'static str,
    fn(RoaringView<'_>, RoaringView<'_>) -> Result<Vec<u8>, CapacityError>,
    fn(RoaringView<'_>, RoaringView<'_>) -> Writer,
);

const OPS: [Op; 4] = [
    ("and", ops::and, ops::and_writer),
    ("or", ops::or, ops::or_writer),
    ("xor", ops::xor, ops::xor_writer),
    ("andnot", ops::andnot, ops::andnot_writer),
];

/// Finishes a writer into a buffer, which must validate.
#[track_caller]
pub fn finish(w: Writer, what: &dyn core::fmt::Display) -> Vec<u8> {
    let len = match w.encoded_len() {
        Ok(len) => len,
        Err(e) => panic!("{what}: encoded_len: {e}"),
    };
    let mut buf = vec![0u8; len];
    if let Err(e) = w.write_into(&mut buf) {
        panic!("{what}: write_into: {e}");
    }
    let vec = valid(w.into_vec(), what);
    assert!(vec == buf, "{what}: write_into and into_vec differ");
    buf
}

/// One operation on `a` and `b`: the two forms agree and the output validates.
fn run(op: &Op, a: RoaringView<'_>, b: RoaringView<'_>) -> Vec<u8> {
    let (name, f, w) = op;
    let out = valid(f(a, b), name);
    let via_writer = finish(w(a, b), &format_args!("{name}_writer"));
    assert!(out == via_writer, "{name} and {name}_writer differ");
    out
}

/// Runs every pairwise check on `a` and `b`.
pub fn check(a: &RoaringView<'_>, b: &RoaringView<'_>) {
    let (a, b) = (*a, *b);
    let [and, or, xor, andnot] = OPS.each_ref().map(|op| run(op, a, b));
    let [and_ba, or_ba, xor_ba, andnot_ba] = OPS.each_ref().map(|op| run(op, b, a));
    let (and_v, or_v, xor_v, andnot_v) = (view(&and), view(&or), view(&xor), view(&andnot));
    let andnot_ba_v = view(&andnot_ba);

    // Lengths: the *_len forms, and inclusion–exclusion.
    let i = and_v.len();
    assert_eq!(ops::and_len(a, b), i, "and_len");
    assert_eq!(ops::or_len(a, b), or_v.len(), "or_len");
    assert_eq!(ops::xor_len(a, b), xor_v.len(), "xor_len");
    assert_eq!(ops::andnot_len(a, b), andnot_v.len(), "andnot_len");
    assert_eq!(ops::andnot_len(b, a), andnot_ba_v.len(), "andnot_len(b, a)");
    assert_eq!(
        or_v.len(),
        a.len() + b.len() - i,
        "|A ∪ B| = |A| + |B| − |A ∩ B|"
    );
    assert_eq!(xor_v.len(), or_v.len() - i, "|A ⊕ B| = |A ∪ B| − |A ∩ B|");
    assert_eq!(andnot_v.len(), a.len() - i, "|A \\ B| = |A| − |A ∩ B|");
    assert_eq!(andnot_ba_v.len(), b.len() - i, "|B \\ A| = |B| − |A ∩ B|");

    // Commutativity.
    assert!(and == and_ba, "A ∩ B != B ∩ A");
    assert!(or == or_ba, "A ∪ B != B ∪ A");
    assert!(xor == xor_ba, "A ⊕ B != B ⊕ A");

    // Identities, byte for byte.
    let op = |k: usize, x: &[u8], y: &[u8]| run(&OPS[k], view(x), view(y));
    let (and_k, or_k, xor_k, andnot_k) = (0, 1, 2, 3);
    assert!(op(or_k, &and, &xor) == or, "(A ∩ B) ∪ (A ⊕ B) != A ∪ B");
    assert!(
        op(xor_k, &xor, b.as_bytes()) == a.as_bytes(),
        "(A ⊕ B) ⊕ B != A"
    );
    assert!(
        op(or_k, &andnot, &and) == a.as_bytes(),
        "(A \\ B) ∪ (A ∩ B) != A"
    );
    assert!(
        op(and_k, &andnot, b.as_bytes()) == empty(),
        "(A \\ B) ∩ B != ∅"
    );
    assert!(
        op(andnot_k, a.as_bytes(), &and) == andnot,
        "A \\ (A ∩ B) != A \\ B"
    );
    assert!(
        op(or_k, &andnot, &andnot_ba) == xor,
        "(A \\ B) ∪ (B \\ A) != A ⊕ B"
    );
    assert!(
        op(and_k, &or, a.as_bytes()) == a.as_bytes(),
        "(A ∪ B) ∩ A != A"
    );

    // Predicates.
    assert_eq!(ops::intersects(a, b), i > 0, "intersects vs and_len");
    assert_eq!(ops::intersects(b, a), i > 0, "intersects(b, a)");
    let sub = ops::is_subset(a, b);
    assert_eq!(sub, andnot_v.is_empty(), "is_subset vs A \\ B");
    assert_eq!(sub, and == a.as_bytes(), "is_subset vs A ∩ B = A");
    assert_eq!(
        ops::is_subset(b, a),
        andnot_ba_v.is_empty(),
        "is_subset(b, a)"
    );
    let same = a.as_bytes() == b.as_bytes();
    assert_eq!(ops::eq(a, b), same, "eq");
    let ord = ops::cmp(a, b);
    assert_eq!(ops::cmp(b, a), ord.reverse(), "cmp is not antisymmetric");
    assert_eq!(ord == Ordering::Equal, same, "cmp vs eq");
    if a.len() <= MODEL_MAX && b.len() <= MODEL_MAX {
        assert_eq!(ord, a.iter().cmp(b.iter()), "cmp vs the value lists");
        assert_eq!(a.iter().eq(b.iter()), same, "byte equality vs set equality");
    }

    // Against element edits of a small operand's values.
    if b.len() <= LIST_MAX {
        by_edits(a, b, &or, &andnot);
    }
    if a.len() <= LIST_MAX {
        by_edits(b, a, &or, &andnot_ba);
    }
}

/// A ∪ B and A \ B as `insert_many` / `remove_many` of B's values.
fn by_edits(a: RoaringView<'_>, b: RoaringView<'_>, or: &[u8], andnot: &[u8]) {
    let bv: Vec<u64> = b.iter().collect();
    let union = valid(a.insert_many(&bv), &"A.insert_many(B)");
    assert!(union == or, "A.insert_many(B) != or(A, B)");
    let diff = valid(a.remove_many(&bv), &"A.remove_many(B)");
    assert!(diff == andnot, "A.remove_many(B) != andnot(A, B)");
}

/// A set with itself.
pub fn check_self(a: &RoaringView<'_>) {
    let a = *a;
    let bytes = a.as_bytes();
    let [and, or, xor, andnot] = OPS.each_ref().map(|op| run(op, a, a));
    assert!(and == bytes, "A ∩ A != A");
    assert!(or == bytes, "A ∪ A != A");
    assert!(xor == empty(), "A ⊕ A != ∅");
    assert!(andnot == empty(), "A \\ A != ∅");
    assert_eq!(ops::and_len(a, a), a.len(), "and_len(A, A)");
    assert_eq!(ops::xor_len(a, a), 0, "xor_len(A, A)");
    assert_eq!(ops::intersects(a, a), !a.is_empty(), "intersects(A, A)");
    assert!(ops::is_subset(a, a), "is_subset(A, A)");
    assert!(ops::eq(a, a), "eq(A, A)");
    assert_eq!(ops::cmp(a, a), Ordering::Equal, "cmp(A, A)");
    let e = empty();
    let ev = view(&e);
    assert!(run(&OPS[1], a, ev) == bytes, "A ∪ ∅ != A");
    assert!(run(&OPS[0], a, ev) == e, "A ∩ ∅ != ∅");
    assert!(ops::is_subset(ev, a), "∅ ⊆ A");
    assert_eq!(ops::cmp(ev, a), ev.len().cmp(&a.len()), "cmp(∅, A)");
}

/// The n-way forms against folds of the pairwise ones.
pub fn check_many(views: &[RoaringView<'_>]) {
    let fold = |k: usize, start: Vec<u8>| {
        views
            .iter()
            .skip(1)
            .fold(start, |acc, v| run(&OPS[k], view(&acc), *v))
    };
    let first = views.first().map_or_else(empty, |v| v.as_bytes().to_vec());
    let (or, and) = (fold(1, first.clone()), fold(0, first.clone()));
    let xor = fold(2, first);

    let or_many = finish(ops::or_many(views), &"or_many");
    assert!(or_many == or, "or_many != folded or");
    let and_many = finish(ops::and_many(views), &"and_many");
    assert!(and_many == and, "and_many != folded and");

    let mut acc = Accumulator::new(SetOp::Or);
    let mut x = Accumulator::new(SetOp::Xor);
    let mut n = Accumulator::new(SetOp::And);
    for v in views {
        acc.add(*v);
        x.add(*v);
        n.add(*v);
    }
    let n_empty = n.is_empty();
    assert!(
        finish(acc.finish(), &"OrAccumulator") == or,
        "OrAccumulator != folded or"
    );
    assert!(
        finish(x.finish(), &"XorAccumulator") == xor,
        "XorAccumulator != folded xor"
    );
    let and_acc = finish(n.finish(), &"AndAccumulator");
    assert!(and_acc == and, "AndAccumulator != folded and");
    assert_eq!(
        n_empty,
        !views.is_empty() && view(&and).is_empty(),
        "AndAccumulator::is_empty"
    );
}
