#![allow(unsafe_code, reason = "an Allocator over PostgreSQL's memory contexts")]
//! An allocator for the core crate's accumulators that takes its memory from one
//! PostgreSQL memory context: the aggregate state is then counted by PostgreSQL's
//! memory accounting (HashAggregate spills on it) and freed with the context.

use core::alloc::Layout;
use core::ptr::NonNull;

use allocator_api2::alloc::{AllocError, Allocator};
use pgrx::pg_sys;

/// palloc's guaranteed alignment (MAXALIGN).
const MAX_ALIGN: usize = 8;

/// Allocates in one memory context. Layouts aligned beyond MAXALIGN are padded, and
/// the start of the palloc'd chunk is kept just before the aligned pointer.
#[derive(Clone, Copy)]
pub struct PallocAlloc {
    cx: pg_sys::MemoryContext,
}

impl PallocAlloc {
    /// # Safety
    /// `cx` must be a valid memory context that outlives every allocation made here
    /// (deleting the context frees them all at once).
    pub unsafe fn new(cx: pg_sys::MemoryContext) -> Self {
        PallocAlloc { cx }
    }
}

// SAFETY: memory returned by MemoryContextAlloc stays valid until pfree'd or until
// the context is reset or deleted, which the owner of the context controls (the
// allocator's contract, stated on `new`). Copies of the allocator share the context.
unsafe impl Allocator for PallocAlloc {
    fn allocate(&self, layout: Layout) -> Result<NonNull<[u8]>, AllocError> {
        // palloc refuses zero-byte requests in some builds; ask for at least 1.
        let size = layout.size().max(1);
        if layout.align() <= MAX_ALIGN {
            // SAFETY: a valid context; palloc raises an error (a Rust panic through
            // pgrx's guard) rather than returning NULL.
            let ptr = unsafe { pg_sys::MemoryContextAlloc(self.cx, size) } as *mut u8;
            let ptr = NonNull::new(ptr).ok_or(AllocError)?;
            return Ok(NonNull::slice_from_raw_parts(ptr, size));
        }
        let padded = size.checked_add(layout.align()).ok_or(AllocError)?;
        // SAFETY: as above.
        let raw = unsafe { pg_sys::MemoryContextAlloc(self.cx, padded) } as *mut u8;
        if raw.is_null() {
            return Err(AllocError);
        }
        // At least 8 bytes separate `raw` from the aligned pointer (align > 8 and raw
        // is 8-aligned), room for the back pointer.
        let offset = layout.align() - (raw as usize & (layout.align() - 1));
        // SAFETY: offset <= align, so aligned..aligned+size lies inside the chunk;
        // the back pointer at aligned-8 lies inside too (offset >= 8).
        unsafe {
            let aligned = raw.add(offset);
            (aligned.sub(8) as *mut *mut u8).write_unaligned(raw);
            Ok(NonNull::slice_from_raw_parts(
                NonNull::new_unchecked(aligned),
                size,
            ))
        }
    }

    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        let chunk = if layout.align() <= MAX_ALIGN {
            ptr.as_ptr()
        } else {
            // SAFETY: allocate stored the chunk's start just before the pointer.
            unsafe { (ptr.as_ptr().sub(8) as *const *mut u8).read_unaligned() }
        };
        // SAFETY: the chunk came from MemoryContextAlloc and is freed once.
        unsafe { pg_sys::pfree(chunk.cast()) }
    }

    unsafe fn grow(
        &self,
        ptr: NonNull<u8>,
        old: Layout,
        new: Layout,
    ) -> Result<NonNull<[u8]>, AllocError> {
        if old.align() > MAX_ALIGN || new.align() > MAX_ALIGN {
            // SAFETY: forwarded under the caller's guarantees.
            return unsafe { grow_by_copy(self, ptr, old, new) };
        }
        // SAFETY: `ptr` is a live chunk of ours; repalloc keeps its context.
        let p = unsafe { pg_sys::repalloc(ptr.as_ptr().cast(), new.size().max(1)) } as *mut u8;
        let p = NonNull::new(p).ok_or(AllocError)?;
        Ok(NonNull::slice_from_raw_parts(p, new.size().max(1)))
    }
}

/// Grows an over-aligned block by allocating, copying and freeing.
///
/// # Safety
/// As for `Allocator::grow`.
unsafe fn grow_by_copy(
    a: &PallocAlloc,
    ptr: NonNull<u8>,
    old: Layout,
    new: Layout,
) -> Result<NonNull<[u8]>, AllocError> {
    let fresh = a.allocate(new)?;
    // SAFETY: both blocks are live, distinct and at least `old.size()` long.
    unsafe {
        core::ptr::copy_nonoverlapping(ptr.as_ptr(), fresh.as_ptr() as *mut u8, old.size());
        a.deallocate(ptr, old);
    }
    Ok(fresh)
}
