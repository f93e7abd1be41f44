//! The byte layout of a serialized bitmap: header, directory and validation.
//!
//! See `FORMAT.md` at the crate root for the specification this module implements.

pub mod directory;
pub(crate) mod encode;
pub mod header;
pub mod validate;

pub use header::{version_of, Header, HEADER_MAX_LEN, MAGIC, MAX_LEN, VERSION};
pub(crate) use validate::validate;
pub use validate::FormatError;
