//! PostgreSQL client types: a `roaring64` column's binary value is a set's native
//! bytes, so a client reads it in place ([`RoaringView`](crate::RoaringView), which
//! borrows the row) or owns it ([`Roaring`](crate::Roaring)), validated once and never
//! decoded. Parameters go out as native bytes too.
//!
//! The stored values are SQL `bigint`s through [`to_stored`](crate::to_stored): use
//! the views' `*_signed` methods, or map values yourself.

#[cfg(feature = "postgres-types")]
mod postgres_types;
#[cfg(feature = "sqlx")]
mod sqlx;

/// The SQL types whose binary form is a set's native bytes.
pub(crate) fn is_set_type(name: &str) -> bool {
    matches!(name, "roaring64" | "roaring64_state")
}
