//! One writer buffer kept on this thread for the next writer, for a caller that
//! copies every result out of its writer (the database layer copies each into
//! memory PostgreSQL allocated). A buffer of megabytes freshly allocated costs a
//! page fault per 4 kB as it is first written, since the C allocator hands
//! large blocks back to the system when they are freed; a kept one is written
//! again where its pages already are. Nothing is kept unless the caller hands a
//! writer back ([`Writer::recycle`]), and the caller says when to let go
//! ([`Writer::release_spare`]).

use std::cell::Cell;

use super::Writer;

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
