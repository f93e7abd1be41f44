//! Hashing: the hash of the stored bytes is a hash of the set, because the format is
//! canonical (one encoding per set). PostgreSQL's own hash_bytes keeps the quality
//! and seeding of the built-in hash opclasses.

use sroar_pg_macros::sql_fn;

use crate::pg::{hash_bytes, hash_bytes_extended};
use crate::read::Stored;

#[sql_fn]
fn roaring64_hash(r: Stored) -> i32 {
    hash_bytes(r.bytes()) as i32
}

#[sql_fn]
fn roaring64_hash_extended(r: Stored, seed: i64) -> i64 {
    hash_bytes_extended(r.bytes(), seed as u64) as i64
}
