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
        "Values written by a development build before format version 2 must be created again from their elements."
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

/// A NULL element in an array given as a set (22004).
pub fn null_element() -> ! {
    ereport!(
        ERROR,
        ERRCODE_NULL_VALUE_NOT_ALLOWED,
        "roaring64 cannot contain NULL: the array has a NULL element"
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
