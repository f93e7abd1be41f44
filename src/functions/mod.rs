//! SQL functions, grouped by what users call them for.

mod algebra;
mod build;
mod chunks;
mod element;
mod many;
mod multirange;
pub(crate) mod one_set;
mod page;
mod range;
