//! SQL functions, grouped by what users call them for.

mod build;
mod element;
mod range;
mod scalar;
