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
    /// Calls that read two headers first, and those the headers answered.
    header_tries: u32,
    header_answers: u32,
    slots: [Slot; SLOTS],
}

/// A call site reads headers first for this many calls, then while they answer at
/// least one call in [`HEADER_ANSWER_RATE`].
const HEADER_TRIALS: u32 = 3;
const HEADER_ANSWER_RATE: u32 = 4;

/// The table of the call site, created on first use; None where there is no
/// flinfo or its fn_extra holds something else.
///
/// # Safety
/// `fcinfo` must be the current call's.
unsafe fn table<'a>(
    fcinfo: pg_sys::FunctionCallInfo,
) -> Option<(&'a mut Table, pg_sys::MemoryContext)> {
    // SAFETY: the caller's fcinfo, with an flinfo whose fn_mcxt outlives the call
    // (the executor's per-query memory); fn_extra is null or our table, which is
    // palloc'd in fn_mcxt and zeroed, so empty slots have key [0; 4] (no TOAST value
    // has relation 0).
    unsafe {
        let flinfo = (*fcinfo).flinfo;
        if flinfo.is_null() {
            return None;
        }
        let mut table = (*flinfo).fn_extra as *mut Table;
        if table.is_null() {
            table =
                pg_sys::MemoryContextAllocZero((*flinfo).fn_mcxt, size_of::<Table>()) as *mut Table;
            (*table).magic = MAGIC;
            (*flinfo).fn_extra = table as *mut c_void;
        } else if (*table).magic != MAGIC {
            return None;
        }
        Some((&mut *table, (*flinfo).fn_mcxt))
    }
}

impl Table {
    /// The slot of `key`, or the empty slot where it would go.
    fn probe(&self, key: [u32; 4]) -> usize {
        let mut i = (key[1].wrapping_mul(0x9e37_79b1) as usize) & (SLOTS - 1);
        while self.slots[i].key != key && self.slots[i].key != [0; 4] {
            i = (i + 1) & (SLOTS - 1);
        }
        i
    }

    /// Counts the first read of `key` in its empty slot `i`, while there is room.
    fn first_read(&mut self, i: usize, key: [u32; 4]) {
        if self.count < SLOTS / 2 {
            self.slots[i] = Slot {
                key,
                data: ptr::null(),
                len: 0,
                reads: 1,
            };
            self.count += 1;
        }
    }

    /// Whether slot `i` keeps a value.
    fn keeps(&self, i: usize) -> bool {
        !self.slots[i].data.is_null()
    }

    /// The bytes kept in slot `i`: not the table's but fn_mcxt's, so they outlive
    /// any borrow of the table.
    ///
    /// # Safety
    /// `'q` must end before fn_mcxt is reset: within the current function call.
    unsafe fn kept<'q>(&self, i: usize) -> Option<&'q [u8]> {
        let slot = &self.slots[i];
        // SAFETY: a kept value's bytes are a copy in fn_mcxt, alive for `'q` (the
        // caller's promise).
        self.keeps(i)
            .then(|| unsafe { core::slice::from_raw_parts(slot.data, slot.len) })
    }
}

/// The whole value of `r` if the call site keeps it (a read that counts for nothing).
pub fn kept<'fcx>(fcinfo: pg_sys::FunctionCallInfo, r: &Roaring<'fcx>) -> Option<&'fcx [u8]> {
    let key = r.toast_key()?;
    // SAFETY: the current call's fcinfo; kept bytes live as long as fn_mcxt.
    let (table, _) = unsafe { table(fcinfo) }?;
    let i = table.probe(key);
    // SAFETY: `'fcx` is the current call's.
    unsafe { table.kept(i) }
}

/// Whether the call site keeps `r`, or has read it often enough that its next
/// [`whole`] read keeps it: then reading it whole costs less than reading parts of
/// it again (a join of every pair reads each set many times, a join of neighbours
/// twice). Counts nothing.
pub fn read_often(fcinfo: pg_sys::FunctionCallInfo, r: &Roaring<'_>) -> bool {
    let Some(key) = r.toast_key() else {
        return false;
    };
    // SAFETY: the current call's fcinfo (see `table`).
    let Some((table, _)) = (unsafe { table(fcinfo) }) else {
        return false;
    };
    let i = table.probe(key);
    table.keeps(i) || (table.slots[i].key == key && table.slots[i].reads + 1 >= KEEP_FROM_READ)
}

/// Counts a read of `r` that needed only a few of its bytes (its header).
pub fn count_partial_read(fcinfo: pg_sys::FunctionCallInfo, r: &Roaring<'_>) {
    let Some(key) = r.toast_key() else {
        return;
    };
    // SAFETY: the current call's fcinfo (see `table`).
    let Some((table, _)) = (unsafe { table(fcinfo) }) else {
        return;
    };
    let i = table.probe(key);
    if table.slots[i].key == key {
        table.slots[i].reads += 1;
    } else {
        table.first_read(i, key);
    }
}

/// The whole value of `r`: from the call site's table when it was read before, else
/// read (detoasted) and, while there is room, kept in the table.
pub fn whole<'fcx>(fcinfo: pg_sys::FunctionCallInfo, r: &Roaring<'fcx>) -> &'fcx [u8] {
    let Some(key) = r.toast_key() else {
        return r.bytes();
    };
    // SAFETY: the current call's fcinfo (see `table`).
    let Some((table, mcxt)) = (unsafe { table(fcinfo) }) else {
        return r.bytes();
    };
    let i = table.probe(key);
    // SAFETY: `'fcx` is the current call's.
    if let Some(bytes) = unsafe { table.kept(i) } {
        return bytes;
    }
    let seen = table.slots[i].key == key;
    let bytes = r.bytes();
    if !seen {
        // A value is only counted at first: a scan reads each value once, and a
        // join of neighbours each value twice; neither should pay for a copy.
        table.first_read(i, key);
        return bytes;
    }
    table.slots[i].reads += 1;
    if table.slots[i].reads < KEEP_FROM_READ || table.bytes + bytes.len() > MAX_BYTES {
        return bytes;
    }
    // SAFETY: a copy of `bytes` in fn_mcxt, which outlives the call.
    unsafe {
        let copy = pg_sys::MemoryContextAlloc(mcxt, bytes.len().max(1)) as *mut u8;
        ptr::copy_nonoverlapping(bytes.as_ptr(), copy, bytes.len());
        table.slots[i].data = copy;
        table.slots[i].len = bytes.len();
        table.bytes += bytes.len();
        core::slice::from_raw_parts(copy, bytes.len())
    }
}

/// Whether this call site should read the headers of out-of-line values first in the
/// hope that they answer: for its first calls, then while they answer at least one
/// call in four. A join of sets far apart (other periods, other tenants) answers
/// from headers; one of overlapping sets stops paying for the extra read (a first
/// chunk, about a fifth of a 40 kB value) after a few calls.
pub fn headers_worth_trying(fcinfo: pg_sys::FunctionCallInfo) -> bool {
    // SAFETY: the current call's fcinfo (see `table`).
    let Some((table, _)) = (unsafe { table(fcinfo) }) else {
        return false;
    };
    table.header_tries < HEADER_TRIALS
        || table.header_answers.saturating_mul(HEADER_ANSWER_RATE) >= table.header_tries
}

/// Counts a call that read headers first, and whether they answered it.
pub fn count_header_try(fcinfo: pg_sys::FunctionCallInfo, answered: bool) {
    // SAFETY: the current call's fcinfo (see `table`).
    let Some((table, _)) = (unsafe { table(fcinfo) }) else {
        return;
    };
    table.header_tries = table.header_tries.saturating_add(1);
    table.header_answers = table.header_answers.saturating_add(u32::from(answered));
}
