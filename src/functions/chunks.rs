//! A set cut into rows by the high bits of its elements: a large set kept as
//! several rows, so that a change rewrites only the row of its chunk.

use sroar::RoaringView;
use sroar_pg_macros::sql_fn;

use crate::errors;
use crate::pg::{RoaringOut, SetOf, Value};

/// The chunk of an element in SQL terms: `x >> bits` on int8, which keeps the order
/// of negative elements. The stored order maps int8 to u64 by flipping the sign
/// bit, so the stored prefix (`u >> bits`) is the SQL one plus 2^(63 - bits).
fn signed_prefix(prefix: u64, bits: u32) -> i64 {
    prefix.wrapping_sub(1 << (63 - bits)) as i64
}

/// The (chunk, part) rows of one rb_chunks call.
struct ChunkRows {
    chunks: sroar::Chunks<'static>,
    bits: u32,
}

impl Iterator for ChunkRows {
    type Item = (i64, RoaringOut);

    fn next(&mut self) -> Option<Self::Item> {
        let (prefix, part) = self.chunks.next()?;
        Some((signed_prefix(prefix, self.bits), part.into()))
    }
}

fn chunk_rows(view: RoaringView<'static>, bits: u32) -> ChunkRows {
    ChunkRows {
        chunks: view.chunks(bits),
        bits,
    }
}

/// The set cut into chunks of the elements that share `x >> bits`, ascending:
/// (chunk, part) rows, no part empty.
#[sql_fn]
fn rb_chunks(r: Value, bits: i32) -> SetOf<ChunkRows> {
    if !(16..64).contains(&bits) {
        errors::invalid_parameter(format!(
            "rb_chunks: bits must be from 16 to 63 (a chunk holds whole containers of 65,536 values), got {bits}"
        ));
    }
    SetOf::with_arg(r, bits as u32, chunk_rows)
}
