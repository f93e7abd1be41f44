#![allow(
    unsafe_code,
    reason = "a per-call-site table kept in flinfo->fn_extra, in the function's memory context"
)]
//! Out-of-line values read whole, kept for the rest of the query by the call site
//! that read them. A join that tests many values against a few hundred stored sets
//! (`sets t JOIN probes q ON t.r @> q.v`) then reads each set once instead of once
//! per probe.
//!
//! The key is the TOAST pointer (relation, value id, sizes): stored values never
//! change in place, so within a query the same pointer means the same bytes. The
//! table lives in `fn_mcxt`, which the executor frees with the query, and holds at
//! most `MAX_BYTES` of values and `SLOTS / 2` of them; past that, values are read
//! each time, as without the cache. A value is kept from its third read on, so a
//! scan (one read of each value) or a join of neighbours (two) copies nothing.

use core::ffi::c_void;
use core::ptr;

use pgrx::pg_sys;

use crate::datum::Roaring;

const SLOTS: usize = 1024;
const MAX_BYTES: usize = 16 << 20;
/// A value is kept from this read on.
const KEEP_FROM_READ: usize = 3;
/// Marks an `fn_extra` that holds our table (a call site's fn_extra is ours, but
/// the check costs nothing).
const MAGIC: u64 = 0x7372_6f61_725f_7663;

#[repr(C)]
#[derive(Clone, Copy)]
struct Slot {
    key: [u32; 4],
    data: *const u8,
    len: usize,
    /// Reads of the value so far, while it is not kept.
    reads: usize,
}

#[repr(C)]
struct Table {
    magic: u64,
    bytes: usize,
    count: usize,
    slots: [Slot; SLOTS],
}

/// The whole value of `r`: from the call site's table when it was read before, else
/// read (detoasted) and, while there is room, kept in the table.
pub fn whole<'fcx>(fcinfo: pg_sys::FunctionCallInfo, r: &Roaring<'fcx>) -> &'fcx [u8] {
    let Some(key) = r.toast_key() else {
        return r.bytes();
    };
    // SAFETY: fcinfo is the current call's, with an flinfo whose fn_mcxt outlives
    // the call (the executor's per-query memory); fn_extra is null or our table,
    // which is palloc'd in fn_mcxt and zeroed, so empty slots have key [0; 4] (no
    // TOAST value has relation 0). Cached bytes are copies in fn_mcxt, so the slice
    // outlives the call.
    unsafe {
        let flinfo = (*fcinfo).flinfo;
        if flinfo.is_null() {
            return r.bytes();
        }
        let mut table = (*flinfo).fn_extra as *mut Table;
        if table.is_null() {
            table =
                pg_sys::MemoryContextAllocZero((*flinfo).fn_mcxt, size_of::<Table>()) as *mut Table;
            (*table).magic = MAGIC;
            (*flinfo).fn_extra = table as *mut c_void;
        } else if (*table).magic != MAGIC {
            return r.bytes();
        }
        let table = &mut *table;
        let mut i = (key[1].wrapping_mul(0x9e37_79b1) as usize) & (SLOTS - 1);
        let seen = loop {
            let slot = &table.slots[i];
            if slot.key == key {
                if !slot.data.is_null() {
                    return core::slice::from_raw_parts(slot.data, slot.len);
                }
                break true;
            }
            if slot.key == [0; 4] {
                break false;
            }
            i = (i + 1) & (SLOTS - 1);
        };
        let bytes = r.bytes();
        if !seen {
            // A value is only counted at first: a scan reads each value once, and a
            // join of neighbours each value twice; neither should pay for a copy.
            if table.count < SLOTS / 2 {
                table.slots[i] = Slot {
                    key,
                    data: ptr::null(),
                    len: 0,
                    reads: 1,
                };
                table.count += 1;
            }
            return bytes;
        }
        table.slots[i].reads += 1;
        if table.slots[i].reads < KEEP_FROM_READ || table.bytes + bytes.len() > MAX_BYTES {
            return bytes;
        }
        let copy = pg_sys::MemoryContextAlloc((*flinfo).fn_mcxt, bytes.len().max(1)) as *mut u8;
        ptr::copy_nonoverlapping(bytes.as_ptr(), copy, bytes.len());
        table.slots[i].data = copy;
        table.slots[i].len = bytes.len();
        table.bytes += bytes.len();
        core::slice::from_raw_parts(copy, bytes.len())
    }
}
