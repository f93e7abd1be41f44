//! What a writer leaves on this thread for the next one.
//!
//! - Its buffer, for a caller that copies every result out of its writer (the
//!   database layer copies each into memory PostgreSQL allocated). A buffer of
//!   megabytes freshly allocated costs a page fault per 4 kB as it is first
//!   written, since the C allocator hands large blocks back to the system when
//!   they are freed; a kept one is written again where its pages already are.
//!   Nothing is kept unless the caller hands a writer back
//!   ([`Writer::recycle`]), and the caller says when to let go
//!   ([`Writer::release_spare`]).
//! - Its directory entries, always, when there are at most [`KEEP_ENTRIES`]:
//!   they live only until the buffer is written.

use std::cell::{Cell, RefCell};

use super::{Entry, Writer};

/// Smaller buffers come from the C allocator's own free lists, already mapped.
const WORTH_KEEPING: usize = 128 << 10;

std::thread_local! {
    static SPARE: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

/// The kept buffer, emptied, when it holds at least `capacity` bytes and that is
/// worth keeping; None otherwise (then it stays kept).
pub(super) fn take(capacity: usize) -> Option<Vec<u8>> {
    if capacity < WORTH_KEEPING {
        return None;
    }
    SPARE.with(|s| {
        let mut spare = s.take();
        if spare.capacity() >= capacity {
            spare.clear();
            Some(spare)
        } else {
            s.set(spare);
            None
        }
    })
}

impl Writer {
    /// Keeps this writer's buffer for the next writer on this thread that needs as
    /// much room, when it holds at most `max_bytes` (and enough to be worth it),
    /// in place of a smaller one kept before. Call it once the result has been
    /// copied out ([`Writer::write_into`]); [`Writer::into_vec`] hands the buffer
    /// over instead.
    pub fn recycle(mut self, max_bytes: usize) {
        let arena = core::mem::take(&mut self.arena);
        if arena.capacity() < WORTH_KEEPING || arena.capacity() > max_bytes {
            return;
        }
        SPARE.with(|s| {
            let kept = s.take();
            s.set(if kept.capacity() >= arena.capacity() { kept } else { arena });
        });
    }

    /// Frees the buffer kept by [`Writer::recycle`] on this thread, if any.
    pub fn release_spare() {
        drop(SPARE.take());
    }

    /// Bytes held by the buffer kept on this thread.
    #[cfg(test)]
    pub(crate) fn spare_bytes() -> usize {
        SPARE.with(|s| {
            let kept = s.take();
            let n = kept.capacity();
            s.set(kept);
            n
        })
    }
}

std::thread_local! {
    /// The directory entries of the last writer dropped on this thread. A
    /// writer's entries live only until its buffer is written; on sets of a few
    /// containers their allocation and free, at sizes that vary from call to
    /// call, was a tenth of a pairwise operation (callgrind of dimension_003's
    /// unions).
    static ENTRIES: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
}

/// Entries kept longer than this are freed rather than kept.
const KEEP_ENTRIES: usize = 4096;

/// Makes `entries` (a new writer's, empty) the kept list when there is one, with
/// room for `n`. The lists are swapped in place: moved as values, they went
/// through the stack, where a wide load of narrow stores stalled.
pub(super) fn take_entries(entries: &mut Vec<Entry>, n: usize) {
    let _ = ENTRIES.try_with(|kept| {
        if let Ok(mut kept) = kept.try_borrow_mut() {
            core::mem::swap(entries, &mut kept);
        }
    });
    entries.clear();
    entries.reserve(n);
}

/// Keeps `entries` for the next writer on this thread (when short enough),
/// leaving what was kept before in their place, to be freed.
#[inline(never)]
pub(super) fn keep_entries(entries: &mut Vec<Entry>) {
    if entries.capacity() <= KEEP_ENTRIES {
        // During the thread's exit there is nowhere to keep them: they are freed.
        let _ = ENTRIES.try_with(|kept| {
            if let Ok(mut kept) = kept.try_borrow_mut() {
                core::mem::swap(entries, &mut kept);
            }
        });
    }
}

/// Room of the entries kept on this thread.
#[cfg(test)]
pub(super) fn kept_entries() -> usize {
    ENTRIES.with_borrow(Vec::capacity)
}
