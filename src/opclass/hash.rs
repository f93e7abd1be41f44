#![allow(
    unsafe_code,
    reason = "calls PostgreSQL's hash_bytes, which pgrx does not bind"
)]
//! Hashing: the hash of the stored bytes is a hash of the set, because the format is
//! canonical (one encoding per set). PostgreSQL's own hash_bytes keeps the quality
//! and seeding of the built-in hash opclasses.

use pgrx::prelude::*;

use crate::datum::Roaring;

// PostgreSQL's byte hash (common/hashfn.c), exported by the server but not in pgrx's
// bindings. It cannot raise an error, so it needs no pg_guard.
extern "C" {
    fn hash_bytes(k: *const u8, keylen: i32) -> u32;
    fn hash_bytes_extended(k: *const u8, keylen: i32, seed: u64) -> u64;
}

#[pg_extern(sql = false)]
fn roaring64_hash(r: Roaring) -> i32 {
    let bytes = r.bytes();
    // SAFETY: hash_bytes reads exactly `len` bytes from a valid pointer.
    unsafe { hash_bytes(bytes.as_ptr(), bytes.len() as i32) as i32 }
}

#[pg_extern(sql = false)]
fn roaring64_hash_extended(r: Roaring, seed: i64) -> i64 {
    let bytes = r.bytes();
    // SAFETY: as above.
    unsafe { hash_bytes_extended(bytes.as_ptr(), bytes.len() as i32, seed as u64) as i64 }
}
