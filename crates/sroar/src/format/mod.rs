//! The byte layout of a serialized bitmap: header, directory and validation.
//!
//! See `FORMAT.md` at the crate root for the specification this module implements.

pub mod directory;
pub(crate) mod encode;
pub mod header;
pub mod validate;

pub use header::{Header, HEADER_LEN, MAX_LEN, VERSION};
pub use validate::{validate, FormatError};
