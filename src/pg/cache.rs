#![allow(
    unsafe_code,
    reason = "a per-call-site table kept in flinfo->fn_extra, in the function's memory context"
)]
//! The memory of a call site for the rest of the query: a table in `fn_extra`,
//! allocated in `fn_mcxt` (which the executor frees with the query), that counts the
//! reads of out-of-line values by their TOAST pointer and keeps copies of some. What
//! to count and what to keep is `crate::read`'s decision; this module only holds.
//!
//! The key is the TOAST pointer (relation, value id, sizes): stored values never
//! change in place, so within a query the same pointer means the same bytes. The
//! table tracks at most `SLOTS / 2` values; past that, values are not counted.

use core::ffi::c_void;
use core::ptr;

use pgrx::pg_sys;

use super::entry::Call;

const SLOTS: usize = 1024;
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
    header_tries: u32,
    header_answers: u32,
    slots: [Slot; SLOTS],
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
}

/// The table of one call site: created on first use, in `fn_mcxt`.
#[derive(Clone, Copy)]
pub struct CallSite<'fcx> {
    table: *mut Table,
    mcxt: pg_sys::MemoryContext,
    _call: core::marker::PhantomData<Call<'fcx>>,
}

impl<'fcx> CallSite<'fcx> {
    /// The call site's table; None where there is no flinfo or its fn_extra holds
    /// something else.
    pub fn of(call: Call<'fcx>) -> Option<Self> {
        // SAFETY: the current call's fcinfo, with an flinfo whose fn_mcxt outlives
        // the call (the executor's per-query memory); fn_extra is null or our
        // table, which is palloc'd in fn_mcxt and zeroed, so empty slots have key
        // [0; 4] (no TOAST value has relation 0).
        unsafe {
            let flinfo = (*call.fcinfo()).flinfo;
            if flinfo.is_null() {
                return None;
            }
            let mut table = (*flinfo).fn_extra as *mut Table;
            if table.is_null() {
                table = pg_sys::MemoryContextAllocZero((*flinfo).fn_mcxt, size_of::<Table>())
                    as *mut Table;
                (*table).magic = MAGIC;
                (*flinfo).fn_extra = table as *mut c_void;
            } else if (*table).magic != MAGIC {
                return None;
            }
            Some(CallSite {
                table,
                mcxt: (*flinfo).fn_mcxt,
                _call: core::marker::PhantomData,
            })
        }
    }

    #[allow(
        clippy::mut_from_ref,
        reason = "the table is PostgreSQL's memory, not borrowed from the handle"
    )]
    fn table(&self) -> &mut Table {
        // SAFETY: the table lives in fn_mcxt for the whole query (see `of`); each
        // method borrows it only for its own duration, and a backend runs one call
        // at a time.
        unsafe { &mut *self.table }
    }

    /// What the call site knows of the value with TOAST pointer `key`.
    pub fn entry(self, key: [u32; 4]) -> Entry<'fcx> {
        let i = self.table().probe(key);
        Entry { site: self, i, key }
    }

    /// Calls that read two headers first, and those the headers answered.
    pub fn header_counts(self) -> (u32, u32) {
        let t = self.table();
        (t.header_tries, t.header_answers)
    }

    /// Counts a call that read headers first, and whether they answered it.
    pub fn count_header_try(self, answered: bool) {
        let t = self.table();
        t.header_tries = t.header_tries.saturating_add(1);
        t.header_answers = t.header_answers.saturating_add(u32::from(answered));
    }
}

/// One value's slot in a call site's table.
pub struct Entry<'fcx> {
    site: CallSite<'fcx>,
    i: usize,
    key: [u32; 4],
}

impl<'fcx> Entry<'fcx> {
    #[allow(
        clippy::mut_from_ref,
        reason = "the slot is PostgreSQL's memory, not borrowed from the handle"
    )]
    fn slot(&self) -> &mut Slot {
        &mut self.site.table().slots[self.i]
    }

    fn seen(&self) -> bool {
        self.slot().key == self.key
    }

    /// The value's bytes when the call site keeps them: a copy in fn_mcxt, alive
    /// for the rest of the query.
    pub fn kept(&self) -> Option<&'fcx [u8]> {
        let slot = self.slot();
        // SAFETY: a kept value's bytes are a copy in fn_mcxt, which outlives `'fcx`.
        (self.seen() && !slot.data.is_null())
            .then(|| unsafe { core::slice::from_raw_parts(slot.data, slot.len) })
    }

    /// Reads counted so far (0 for a value not seen, or not tracked).
    pub fn reads(&self) -> usize {
        if self.seen() {
            self.slot().reads
        } else {
            0
        }
    }

    /// Counts a read: the first takes an empty slot while the table has room.
    pub fn count_read(&mut self) {
        if self.seen() {
            self.slot().reads += 1;
            return;
        }
        let table = self.site.table();
        if table.count < SLOTS / 2 {
            table.slots[self.i] = Slot {
                key: self.key,
                data: ptr::null(),
                len: 0,
                reads: 1,
            };
            table.count += 1;
        }
    }

    /// Keeps a copy of `bytes` (the value's) for the rest of the query, unless the
    /// table's kept values would then pass `max_total` bytes; the copy, or None.
    pub fn keep(&mut self, bytes: &[u8], max_total: usize) -> Option<&'fcx [u8]> {
        if !self.seen() {
            return None;
        }
        let table = self.site.table();
        if table.bytes + bytes.len() > max_total {
            return None;
        }
        // SAFETY: a copy of `bytes` in fn_mcxt, which outlives the query's calls.
        unsafe {
            let copy = pg_sys::MemoryContextAlloc(self.site.mcxt, bytes.len().max(1)) as *mut u8;
            ptr::copy_nonoverlapping(bytes.as_ptr(), copy, bytes.len());
            let slot = &mut table.slots[self.i];
            slot.data = copy;
            slot.len = bytes.len();
            table.bytes += bytes.len();
            Some(core::slice::from_raw_parts(copy, bytes.len()))
        }
    }
}
