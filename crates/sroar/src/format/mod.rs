//! The byte layout of a serialized bitmap: header, directory and validation.
//!
//! See `FORMAT.md` at the crate root for the specification this module implements.

pub mod directory;
pub mod header;
pub mod validate;

pub use directory::{decode_descr, decode_key_entry, encode_descr, encode_key_entry};
pub use header::{Header, HEADER_LEN, MAGIC, MAX_LEN, VERSION};
pub use validate::{validate, FormatError};
