//! The set algebra as users call it: methods of [`RoaringView`], the operators
//! `&`, `|`, `^` and `-`, the set order, and questions two headers answer.

use core::cmp::Ordering;
use core::ops::{BitAnd, BitOr, BitXor, Sub};

use super::{
    and, and_len, and_many, and_many_len, and_writer, andnot, andnot_len, andnot_splice, andnot_writer, or_splice, or_splice_over, or_writer, xor_writer, are_disjoint_by_headers, cmp, intersects,
    is_subset, is_subset_by_headers, or, or_len, or_many, or_many_len, xor, xor_len, SetOp, XorAccumulator,
};
use crate::format::Header;
use crate::owned::Roaring;
use crate::view::RoaringView;
use crate::writer::{CapacityError, Splice, Writer};

impl<'a> RoaringView<'a> {
    /// `self ∩ other`.
    ///
    /// ```
    /// use sroar::Roaring;
    ///
    /// let (a, b) = (Roaring::from_sorted(&[1, 2, 3]).unwrap(), Roaring::from_sorted(&[2, 3, 4]).unwrap());
    /// let both = a.view().and(&b.view()).unwrap();
    /// assert_eq!(both.iter().collect::<Vec<_>>(), [2, 3]);
    /// assert_eq!(a.view().and_len(&b.view()), 2);
    /// ```
    #[inline]
    pub fn and(&self, other: &RoaringView<'_>) -> Result<Roaring, CapacityError> {
        and(*self, *other).map(Roaring::from_canonical)
    }

    /// `self ∪ other`.
    #[inline]
    pub fn or(&self, other: &RoaringView<'_>) -> Result<Roaring, CapacityError> {
        or(*self, *other).map(Roaring::from_canonical)
    }

    /// `self ⊕ other`: the values in exactly one of the two.
    #[inline]
    pub fn xor(&self, other: &RoaringView<'_>) -> Result<Roaring, CapacityError> {
        xor(*self, *other).map(Roaring::from_canonical)
    }

    /// `self \ other`: the values of `self` not in `other`.
    #[inline]
    pub fn andnot(&self, other: &RoaringView<'_>) -> Result<Roaring, CapacityError> {
        andnot(*self, *other).map(Roaring::from_canonical)
    }

    /// `|self ∩ other|`, without building the intersection.
    #[inline]
    pub fn and_len(&self, other: &RoaringView<'_>) -> u64 {
        and_len(*self, *other)
    }

    /// `|self ∪ other|`, without building the union.
    #[inline]
    pub fn or_len(&self, other: &RoaringView<'_>) -> u64 {
        or_len(*self, *other)
    }

    /// `|self ⊕ other|`, without building the symmetric difference.
    #[inline]
    pub fn xor_len(&self, other: &RoaringView<'_>) -> u64 {
        xor_len(*self, *other)
    }

    /// `|self \ other|`, without building the difference.
    #[inline]
    pub fn andnot_len(&self, other: &RoaringView<'_>) -> u64 {
        andnot_len(*self, *other)
    }

    /// Whether the two sets share a value (stops at the first).
    #[inline]
    pub fn intersects(&self, other: &RoaringView<'_>) -> bool {
        intersects(*self, *other)
    }

    /// Whether the two sets share no value.
    #[inline]
    pub fn is_disjoint(&self, other: &RoaringView<'_>) -> bool {
        !intersects(*self, *other)
    }

    /// Whether every value of `self` is in `other`.
    #[inline]
    pub fn is_subset(&self, other: &RoaringView<'_>) -> bool {
        is_subset(*self, *other)
    }

    /// Whether every value of `other` is in `self`.
    #[inline]
    pub fn is_superset(&self, other: &RoaringView<'_>) -> bool {
        is_subset(*other, *self)
    }

    /// The set order: ascending value sequences compared lexicographically, a
    /// proper prefix first (the order of sorted arrays). Equal sets have equal
    /// bytes (the format is canonical), so it agrees with `==`. (Not `Ord`, whose
    /// `min` and `max` would hide the set's own.)
    #[inline]
    pub fn compare(&self, other: &RoaringView<'_>) -> Ordering {
        cmp(*self, *other)
    }
}

/// The operators of `std`'s sets, on views. Each returns the owned result and
/// panics only if it would reach the 2^30-byte limit of a buffer; the methods
/// (`and`, `or`, ...) return that as an error instead.
macro_rules! operator {
    ($trait:ident, $method:ident, $op:ident) => {
        impl<'b> $trait<RoaringView<'b>> for RoaringView<'_> {
            type Output = Roaring;

            fn $method(self, rhs: RoaringView<'b>) -> Roaring {
                $op(self, rhs)
                    .map(Roaring::from_canonical)
                    .expect("sroar: result within the 2^30-byte limit")
            }
        }

        impl<'b> $trait<&'b Roaring> for &Roaring {
            type Output = Roaring;

            fn $method(self, rhs: &'b Roaring) -> Roaring {
                $trait::$method(self.view(), rhs.view())
            }
        }
    };
}

operator!(BitAnd, bitand, and);
operator!(BitOr, bitor, or);
operator!(BitXor, bitxor, xor);
operator!(Sub, sub, andnot);

/// The zero-copy path: each operation as an unfinished [`Writer`], which the
/// caller sizes and writes into its own memory ([`Encode`](crate::Encode)).
impl Writer {
    /// `a ∩ b`, unwritten.
    #[inline]
    pub fn and(a: RoaringView<'_>, b: RoaringView<'_>) -> Writer {
        and_writer(a, b)
    }

    /// `a ∪ b`, unwritten.
    #[inline]
    pub fn or(a: RoaringView<'_>, b: RoaringView<'_>) -> Writer {
        or_writer(a, b)
    }

    /// `a ⊕ b`, unwritten.
    #[inline]
    pub fn xor(a: RoaringView<'_>, b: RoaringView<'_>) -> Writer {
        xor_writer(a, b)
    }

    /// `a \ b`, unwritten.
    #[inline]
    pub fn andnot(a: RoaringView<'_>, b: RoaringView<'_>) -> Writer {
        andnot_writer(a, b)
    }
}

/// The operations whose result is mostly one input: that input's untouched
/// containers are copied once, straight into the caller's memory.
impl<'a> Splice<'a> {
    /// `a ∪ b`, spliced over the input with more payload: the union of a large
    /// set and a small one costs about one copy of the large set.
    ///
    /// ```
    /// use sroar::{Roaring, Splice};
    ///
    /// let big = Roaring::from_sorted(&(0..100_000).map(|x| x * 3).collect::<Vec<_>>()).unwrap();
    /// let small = Roaring::from_sorted(&[1, 1 << 40]).unwrap();
    /// let union = Splice::or(big.view(), small.view()).into_roaring().unwrap();
    /// assert_eq!(union, &big | &small);
    /// ```
    #[inline]
    pub fn or(a: RoaringView<'a>, b: RoaringView<'a>) -> Splice<'a> {
        or_splice(a, b)
    }

    /// `base ∪ other`, spliced over `base` whatever the sizes: for a caller that
    /// owns a copy of `base` and may turn it into the result ([`Splice::in_place`]).
    ///
    /// ```
    /// use sroar::{Roaring, Splice};
    ///
    /// let big = Roaring::from_sorted(&(0..20_000).map(|x| x * 3).collect::<Vec<_>>()).unwrap();
    /// let small = Roaring::from_sorted(&[1, 4]).unwrap();
    /// let mut copy = big.as_bytes().to_vec();
    /// let edit = Splice::or_over(big.view(), small.view()).in_place().unwrap();
    /// edit.apply(&mut copy);
    /// assert_eq!(copy, (&big | &small).as_bytes());
    /// ```
    #[inline]
    pub fn or_over(base: RoaringView<'a>, other: RoaringView<'a>) -> Splice<'a> {
        or_splice_over(base, other)
    }

    /// `a \ b`, spliced over `a`.
    #[inline]
    pub fn andnot(a: RoaringView<'a>, b: RoaringView<'a>) -> Splice<'a> {
        andnot_splice(a, b)
    }
}

impl SetOp {
    /// The operation over any number of sets, with no intermediate results (an
    /// intersection of no sets is the empty set here; SQL calls it NULL).
    ///
    /// ```
    /// use sroar::{Roaring, SetOp};
    ///
    /// let sets: Vec<Roaring> = [[1u64, 2], [2, 3], [2, 9]].iter().map(|s| Roaring::from_sorted(s).unwrap()).collect();
    /// let views: Vec<_> = sets.iter().map(Roaring::view).collect();
    /// assert_eq!(SetOp::And.many(&views).into_roaring().unwrap().iter().collect::<Vec<_>>(), [2]);
    /// assert_eq!(SetOp::Or.many(&views).len(), 4);
    /// ```
    #[inline]
    pub fn many(self, views: &[RoaringView<'_>]) -> Writer {
        match self {
            SetOp::Or => or_many(views),
            SetOp::And if views.is_empty() => Writer::new(),
            SetOp::And => and_many(views),
            SetOp::Xor => {
                let mut acc = XorAccumulator::new();
                for v in views {
                    acc.add(*v);
                }
                acc.finish()
            }
        }
    }
}

impl SetOp {
    /// The cardinality of the operation over any number of sets, without keeping
    /// the result: the union is counted key by key with no output, the intersection
    /// is built from its smallest input (it is no larger), and the symmetric
    /// difference is accumulated.
    ///
    /// ```
    /// use sroar::{Roaring, SetOp};
    ///
    /// let sets: Vec<Roaring> = [[1u64, 2], [2, 3], [2, 9]].iter().map(|s| Roaring::from_sorted(s).unwrap()).collect();
    /// let views: Vec<_> = sets.iter().map(Roaring::view).collect();
    /// assert_eq!(SetOp::Or.many_len(&views), 4);
    /// assert_eq!(SetOp::And.many_len(&views), 1);
    /// assert_eq!(SetOp::Xor.many_len(&views), 4); // 2 is in all three: an odd count
    /// ```
    pub fn many_len(self, views: &[RoaringView<'_>]) -> u64 {
        match self {
            SetOp::Or => or_many_len(views),
            SetOp::And if views.is_empty() => 0,
            SetOp::And => and_many_len(views),
            SetOp::Xor => {
                let mut acc = XorAccumulator::new();
                for v in views {
                    acc.add(*v);
                }
                acc.len()
            }
        }
    }
}

impl Header {
    /// Whether the headers prove the two sets disjoint (one is empty, or their
    /// `[min, max]` do not meet); false when they cannot tell.
    #[inline]
    pub fn is_disjoint_from(&self, other: &Header) -> bool {
        are_disjoint_by_headers(self, other)
    }

    /// Whether the set of `self` is a subset of the set of `other`, when the two
    /// headers decide it (an empty set, a larger cardinality, ranges that do not
    /// nest); None when only the sets can tell.
    #[inline]
    pub fn is_subset_of(&self, other: &Header) -> Option<bool> {
        is_subset_by_headers(self, other)
    }
}
