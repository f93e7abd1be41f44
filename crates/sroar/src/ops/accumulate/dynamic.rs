//! One accumulator whose operation is chosen at run time, as a database aggregate
//! needs: the one place that dispatches on the operation.

use allocator_api2::alloc::{Allocator, Global};

use super::{AndAccumulator, BuildAccumulator, XorAccumulator};
use crate::format::encode::Encode;
use crate::view::RoaringView;
use crate::writer::{CapacityError, Writer};

/// An n-way set operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetOp {
    /// Union: the values in any input.
    Or,
    /// Intersection: the values in every input.
    And,
    /// Symmetric difference: the values in an odd number of inputs.
    Xor,
}

impl SetOp {
    /// The operation on two sets, as an unfinished [`Writer`].
    pub fn apply(self, a: RoaringView<'_>, b: RoaringView<'_>) -> Writer {
        match self {
            SetOp::Or => crate::ops::or_writer(a, b),
            SetOp::And => crate::ops::and_writer(a, b),
            SetOp::Xor => crate::ops::xor_writer(a, b),
        }
    }
}

/// A streaming [`SetOp`] over sets (and single values) added one at a time, its
/// state allocated through `A`.
///
/// ```
/// use sroar::{Accumulator, Encode, Roaring, SetOp};
///
/// let (x, y) = (Roaring::from_sorted(&[1, 2, 3]).unwrap(), Roaring::from_sorted(&[2, 3, 4]).unwrap());
/// let mut acc = Accumulator::new(SetOp::And);
/// acc.add(x.view());
/// acc.add(y.view());
/// assert_eq!(acc.len(), 2);
/// let mut out = vec![0; acc.encoded_len().unwrap()];
/// acc.write_into(&mut out).unwrap();
/// assert_eq!(out, Roaring::from_sorted(&[2, 3]).unwrap());
/// ```
#[derive(Clone, Debug)]
pub enum Accumulator<A: Allocator + Clone = Global> {
    /// A union (values and small sets buffered, dense sets in containers).
    Or(BuildAccumulator<A>),
    /// An intersection, settled once it is empty.
    And(AndAccumulator<A>),
    /// A symmetric difference.
    Xor(XorAccumulator<A>),
}

impl Accumulator {
    /// An accumulator of `op`, in the global allocator.
    pub fn new(op: SetOp) -> Self {
        Self::new_in(op, Global)
    }
}

impl<A: Allocator + Clone> Accumulator<A> {
    /// An accumulator of `op` with no input yet, allocated through `alloc`.
    pub fn new_in(op: SetOp, alloc: A) -> Self {
        match op {
            SetOp::Or => Accumulator::Or(BuildAccumulator::new_in(alloc)),
            SetOp::And => Accumulator::And(AndAccumulator::new_in(alloc)),
            SetOp::Xor => Accumulator::Xor(XorAccumulator::new_in(alloc)),
        }
    }

    /// The operation it computes.
    pub fn op(&self) -> SetOp {
        match self {
            Accumulator::Or(_) => SetOp::Or,
            Accumulator::And(_) => SetOp::And,
            Accumulator::Xor(_) => SetOp::Xor,
        }
    }

    /// Combines the set `v` into the result.
    pub fn add(&mut self, v: RoaringView<'_>) {
        match self {
            Accumulator::Or(a) => a.add(v),
            Accumulator::And(a) => a.add(v),
            Accumulator::Xor(a) => a.add(v),
        }
    }

    /// Combines the set `{value}` into the result (cheapest for a union).
    pub fn insert(&mut self, value: u64) {
        match self {
            Accumulator::Or(a) => a.insert(value),
            other => {
                let one = crate::builder::from_sorted(&[value]).expect("one value fits");
                other.add(RoaringView::from_bytes(&one).expect("a canonical buffer"));
            }
        }
    }

    /// True when no later input can change the result: an intersection that is
    /// empty after its first input. A caller may stop reading inputs then.
    pub fn is_settled(&self) -> bool {
        matches!(self, Accumulator::And(a) if a.is_empty())
    }

    /// Number of values in the current result.
    pub fn len(&mut self) -> u64 {
        match self {
            Accumulator::Or(a) => a.len(),
            Accumulator::And(a) => a.len(),
            Accumulator::Xor(a) => a.len(),
        }
    }

    /// True when the current result is empty.
    pub fn is_empty(&mut self) -> bool {
        self.len() == 0
    }

    /// The current result, as an unfinished [`Writer`] (allocated globally).
    pub fn finish(self) -> Writer {
        match self {
            Accumulator::Or(a) => a.finish(),
            Accumulator::And(a) => a.finish(),
            Accumulator::Xor(a) => a.finish(),
        }
    }
}

impl<A: Allocator + Clone> Encode for Accumulator<A> {
    fn encoded_len(&mut self) -> Result<usize, CapacityError> {
        match self {
            Accumulator::Or(a) => a.encoded_len(),
            Accumulator::And(a) => a.encoded_len(),
            Accumulator::Xor(a) => a.encoded_len(),
        }
    }

    fn write_into(&self, out: &mut [u8]) -> Result<(), CapacityError> {
        match self {
            Accumulator::Or(a) => a.write_into(out),
            Accumulator::And(a) => a.write_into(out),
            Accumulator::Xor(a) => a.write_into(out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(values: &[u64]) -> std::vec::Vec<u8> {
        crate::builder::from_sorted(values).unwrap()
    }

    #[test]
    fn every_op_matches_its_pairwise_form() {
        let (x, y) = (set(&[0, 1, 1 << 16, 1 << 40]), set(&[1, 5, 1 << 40, u64::MAX]));
        let (a, b) = (RoaringView::from_bytes(&x).unwrap(), RoaringView::from_bytes(&y).unwrap());
        for op in [SetOp::Or, SetOp::And, SetOp::Xor] {
            let mut acc = Accumulator::new(op);
            assert_eq!(acc.op(), op);
            acc.add(a);
            acc.add(b);
            let mut out = vec![0u8; acc.encoded_len().unwrap()];
            acc.write_into(&mut out).unwrap();
            assert_eq!(out, op.apply(a, b).into_vec().unwrap(), "{op:?}");
        }
        let mut and = Accumulator::new(SetOp::And);
        and.add(a);
        and.insert(7);
        assert!(and.is_settled() && and.is_empty());
        let mut xor = Accumulator::new(SetOp::Xor);
        xor.insert(3);
        xor.insert(3);
        xor.insert(4);
        assert_eq!(xor.len(), 1);
    }
}
