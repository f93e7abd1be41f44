//! Streaming n-way operations: views are added (or single values inserted) one at
//! a time into a keyed store of owned scratch containers, then encoded once. The
//! inputs need not outlive the call that adds them (a database aggregate's inputs
//! do not).
//!
//! Every accumulator is generic over an [`Allocator`]: the key map, the scratch
//! containers, the key order and every scratch buffer are allocated through it, and
//! nothing else is, so a caller can keep the whole state in its own memory pool (a
//! PostgreSQL memory context) and free it with the pool. [`Global`] is the default.
//!
//! Containers stay in scratch form until the end (FastOr): a union into a bitmap
//! scratch container is a plain word-wise OR, with no popcount. Sizing the output
//! ([`OrAccumulator::encoded_len`]) counts each changed container's values and runs
//! once and caches them with the key order until the next change, so that
//! [`OrAccumulator::write_into`] writes the canonical buffer straight into the
//! caller's memory without counting again.

#[macro_use]
mod store;
mod and;
mod build;
mod dynamic;
mod or;
pub(crate) mod scratch;
mod xor;

pub use and::AndAccumulator;
pub use build::BuildAccumulator;
pub use dynamic::{Accumulator, SetOp};
pub use xor::XorAccumulator;

#[cfg(test)]
mod tests;
