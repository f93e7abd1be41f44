//! Every user-facing error, in one place: each says what was wrong and carries the
//! SQLSTATE a PostgreSQL user expects. A panic reaching SQL is a bug, never a user
//! error, so nothing here panics on its own account: `ereport!(ERROR, ..)` unwinds
//! through pgrx into a proper PostgreSQL error.

use pgrx::prelude::*;
use pgrx::PgSqlErrorCode::*;

/// PostgreSQL's MaxAllocSize: no value (header included) may be larger.
pub const MAX_VALUE_BYTES: usize = 0x3fff_ffff;

/// A result would not fit in one PostgreSQL value (54000), raised before allocating.
pub fn too_large(needed: u64) -> ! {
    ereport!(
        ERROR,
        ERRCODE_PROGRAM_LIMIT_EXCEEDED,
        format!(
            "roaring64 result would be {needed} bytes, more than the {MAX_VALUE_BYTES}-byte limit of a PostgreSQL value"
        )
    );
}

/// Bytes that claim to be a roaring64 but are not a valid canonical one (22P03).
pub fn invalid_binary(what: impl std::fmt::Display) -> ! {
    ereport!(
        ERROR,
        ERRCODE_INVALID_BINARY_REPRESENTATION,
        format!("invalid roaring64 binary data: {what}")
    );
}

/// A stored value this build cannot read (22P03): of another format version, or
/// cut short.
pub fn stored_value(e: sroar::PartialReadError) -> ! {
    let sroar::PartialReadError::UnsupportedVersion(v) = e else {
        invalid_binary(e);
    };
    ereport!(
        ERROR,
        ERRCODE_INVALID_BINARY_REPRESENTATION,
        format!(
            "roaring64 value of format version {v}: this build of sroar_pg reads format version {}",
            sroar::FORMAT_VERSION
        ),
        "Values written by a development build in an earlier format version must be created again from their elements."
    );
}

/// Malformed text input (22P02), naming the 1-based character position.
pub fn invalid_text(input: &str, position: usize, what: &str) -> ! {
    ereport!(
        ERROR,
        ERRCODE_INVALID_TEXT_REPRESENTATION,
        format!("invalid input syntax for type roaring64 at position {position}: {what}"),
        format!("Input: \"{}\"", abbreviate(input))
    );
}

/// Text input of `roaring64_state` that is neither base64 nor a roaring64 text (22P02).
pub fn invalid_state_text(input: &str, what: impl std::fmt::Display) -> ! {
    ereport!(
        ERROR,
        ERRCODE_INVALID_TEXT_REPRESENTATION,
        format!(
            "invalid input syntax for type roaring64_state (base64 of roaring64 bytes, or a roaring64 text): {what}"
        ),
        format!("Input: \"{}\"", abbreviate(input))
    );
}

/// A number in text input that is not an int8 (22003).
pub fn int8_out_of_range(number: &str) -> ! {
    ereport!(
        ERROR,
        ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
        format!(
            "value \"{}\" is out of range for type bigint",
            abbreviate(number)
        )
    );
}

/// A set with an element outside what a 32-bit format can hold (22003).
pub fn not_32_bit(min: i64, max: i64) -> ! {
    ereport!(
        ERROR,
        ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
        format!(
            "the 32-bit portable format holds elements from 0 to 4294967295; this set has elements from {min} to {max}"
        )
    );
}

/// A NULL element in elements given as a set (22004), with one wording whatever
/// the way in (text, an array cast, rb_build, rb_add and rb_remove): `element` is
/// its 1-based place among the elements given.
pub fn null_element(element: usize) -> ! {
    ereport!(
        ERROR,
        ERRCODE_NULL_VALUE_NOT_ALLOWED,
        "roaring64 cannot contain NULL",
        format!("Element {element} of the input is NULL.")
    );
}

/// Bytes that are neither of the two binary forms a client may send (22P03).
pub fn neither_binary_format(bytes: &[u8]) -> ! {
    let shown = &bytes[..bytes.len().min(16)];
    let hex: String = shown.iter().map(|b| format!("{b:02x}")).collect();
    ereport!(
        ERROR,
        ERRCODE_INVALID_BINARY_REPRESENTATION,
        "invalid roaring64 binary data: neither roaring64's native format (starting with \"SR64\") nor the standard 64-bit portable roaring format (an 8-byte count of 32-bit bitmaps, as CRoaring, roaring-rs and pyroaring write it)",
        format!(
            "The {} bytes start with \\x{hex}{}.",
            bytes.len(),
            if bytes.len() > shown.len() { "…" } else { "" }
        )
    );
}

/// A range too large for one value (54000): why, and what the largest range is,
/// since "the whole range is one run" reads like it should fit.
pub fn range_too_large(needed: u64) -> ! {
    crate::pg::error_with_hint(
        ERRCODE_PROGRAM_LIMIT_EXCEEDED,
        format!(
            "roaring64 result would be {needed} bytes, more than the {MAX_VALUE_BYTES}-byte limit of a PostgreSQL value"
        ),
        "Every 65,536 consecutive values (from a multiple of 65,536) take a container of their own, even inside one run: about 14 bytes each when full.",
        format!("One set holds a range of at most {LARGEST_RANGE} values (just under 2^42) wherever it starts; keep wider ranges as int8range, or split them over rows."),
    )
}

/// The longest range [start, start + n) that fits in one value wherever it starts.
/// The core crate refuses a result of 2^26 containers or more before building it
/// (16 bytes each would pass 1 GB), and a range of n values touches at most
/// ceil((n - 1) / 65536) + 1 containers. tests/sql/04_ranges.sql checks the edge.
pub const LARGEST_RANGE: u64 = ((1 << 26) - 2) * 65_536 + 1;

/// An argument of a many-set function that is not a set (42804), as PostgreSQL
/// says it of a wrong argument type.
pub fn not_a_set(position: usize, type_name: &str) -> ! {
    ereport!(
        ERROR,
        ERRCODE_DATATYPE_MISMATCH,
        format!("argument {position} is of type {type_name}, not roaring64"),
        "The many-set functions take roaring64 values (or a roaring64[] after VARIADIC)."
    );
}

/// An argument outside the values a function accepts (22023).
pub fn invalid_parameter(what: impl std::fmt::Display) -> ! {
    ereport!(ERROR, ERRCODE_INVALID_PARAMETER_VALUE, what.to_string());
}

/// A set-returning function called where no set can be returned (0A000, as
/// PostgreSQL's own set-returning functions say it).
pub fn set_not_accepted() -> ! {
    ereport!(
        ERROR,
        ERRCODE_FEATURE_NOT_SUPPORTED,
        "set-valued function called in context that cannot accept a set"
    );
}

/// Long inputs are cut in messages so that an error never echoes megabytes.
fn abbreviate(s: &str) -> String {
    const MAX: usize = 80;
    if s.len() <= MAX {
        return s.to_owned();
    }
    let mut end = MAX;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &s[..end])
}
