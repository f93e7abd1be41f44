#![allow(
    unsafe_code,
    reason = "reads the executor's aggregate state and registers a memory-context callback"
)]
//! Where aggregate states live: one memory context per aggregate call site and
//! aggregate context (an "arena"), shared by every group's state.
//!
//! nodeAgg adopts an expanded-object transition value without copying it only when
//! the object's memory context is a direct child of the aggregate context. A context
//! per state satisfies that, but HashAggregate's memory check
//! (`MemoryContextMemAllocated(aggcontext, recurse)`) walks every child on each new
//! group, so a context per group made GROUP BY quadratic in the number of groups,
//! and each one's first 8 kB block made it memory-hungry too. One arena per
//! aggregate context is that direct child for all states at once: the walk sees one
//! context, memory accounting and spilling still see every byte, and resetting the
//! aggregate context (a new batch, a window frame restart) frees all states at once.
//!
//! An arena must outlive every state in it, so no state may ever be deleted on its
//! own (`DeleteExpandedObject` would delete the shared arena). nodeAgg, WindowAgg
//! and Citus delete a transition value only when the transition function returns a
//! different pointer while the old value is read/write expanded; ours always return
//! the object they were given once it is adopted (see `crate::aggregates`).
//!
//! An arena is found among the aggregate context's children by its name, and, as a
//! shortcut taken on every new group, through `flinfo->fn_extra`: a short list of
//! (aggregate context, arena) in the function's own memory context. A reset callback
//! registered on each arena clears its entry when the arena goes away with its
//! aggregate context. The list is kept only where the function's memory context
//! outlives the arena (an ancestor of the aggregate context, as in nodeAgg and
//! WindowAgg): Citus's worker_partial_agg calls the transition function through an
//! FmgrInfo of its own for each row, in a context that dies long before the arena,
//! and a callback pointing there would write into freed memory.

use core::ffi::c_void;
use core::ptr;

use pgrx::pg_sys;

/// One arena of a call site; entries are never freed before the call site's memory
/// context, so the callback's pointer to them stays valid.
#[repr(C)]
struct Entry {
    aggcontext: pg_sys::MemoryContext,
    /// Null once the arena has been reset or deleted.
    arena: pg_sys::MemoryContext,
    next: *mut Entry,
}

/// The aggregate context when `fcinfo` is a call from an aggregate or a window
/// aggregate, read as `AggCheckCallContext` reads it but without a guarded FFI call,
/// since it runs on every row.
pub(super) fn agg_context(fcinfo: pg_sys::FunctionCallInfo) -> Option<pg_sys::MemoryContext> {
    // SAFETY: fcinfo is the current call's; its `context` is null or a Node, and the
    // executor states it may point to are read through their own field layouts.
    unsafe {
        let node = (*fcinfo).context;
        if node.is_null() {
            return None;
        }
        let cx = match (*node).type_ {
            pg_sys::NodeTag::T_AggState => {
                let agg = node as *const pg_sys::AggState;
                (*(*agg).curaggcontext).ecxt_per_tuple_memory
            }
            pg_sys::NodeTag::T_WindowAggState => {
                (*(node as *const pg_sys::WindowAggState)).curaggcontext
            }
            _ => return None,
        };
        (!cx.is_null()).then_some(cx)
    }
}

/// The name of every arena: its address tells our arenas from other contexts.
static ARENA_NAME: &core::ffi::CStr = c"roaring64 aggregate states";

/// The arena under `aggcontext`, created on first use.
pub(super) fn arena(
    fcinfo: pg_sys::FunctionCallInfo,
    aggcontext: pg_sys::MemoryContext,
) -> pg_sys::MemoryContext {
    // SAFETY: an aggregate's transition function always has an flinfo, and
    // aggcontext is live. An entry goes into fn_extra only when fn_mcxt is an
    // ancestor of aggcontext, so deleting or resetting fn_mcxt deletes the arena
    // first, whose callback clears the entry before fn_mcxt's memory is released.
    // fn_extra is ours: only this module sets it for these functions.
    unsafe {
        let flinfo = (*fcinfo).flinfo;
        let mut free: *mut Entry = ptr::null_mut();
        let mut e = (*flinfo).fn_extra as *mut Entry;
        while !e.is_null() {
            if (*e).arena.is_null() {
                free = e;
            } else if (*e).aggcontext == aggcontext {
                return (*e).arena;
            }
            e = (*e).next;
        }
        let arena = find_child(aggcontext).unwrap_or_else(|| {
            pg_sys::AllocSetContextCreateInternal(
                aggcontext,
                ARENA_NAME.as_ptr(),
                pg_sys::ALLOCSET_DEFAULT_MINSIZE as usize,
                pg_sys::ALLOCSET_DEFAULT_INITSIZE as usize,
                pg_sys::ALLOCSET_DEFAULT_MAXSIZE as usize,
            )
        });
        if !is_ancestor((*flinfo).fn_mcxt, aggcontext) {
            return arena;
        }
        if free.is_null() {
            free =
                pg_sys::MemoryContextAllocZero((*flinfo).fn_mcxt, size_of::<Entry>()) as *mut Entry;
            (*free).next = (*flinfo).fn_extra as *mut Entry;
            (*flinfo).fn_extra = free as *mut c_void;
        }
        let cb = pg_sys::MemoryContextAllocZero(arena, size_of::<pg_sys::MemoryContextCallback>())
            as *mut pg_sys::MemoryContextCallback;
        (*cb).func = Some(forget);
        (*cb).arg = free as *mut c_void;
        pg_sys::MemoryContextRegisterResetCallback(arena, cb);
        (*free).aggcontext = aggcontext;
        (*free).arena = arena;
        arena
    }
}

/// Our arena among the children of `aggcontext`, if one was made.
///
/// # Safety
/// `aggcontext` must be a live memory context.
unsafe fn find_child(aggcontext: pg_sys::MemoryContext) -> Option<pg_sys::MemoryContext> {
    // SAFETY: a live context's children list is well formed; names are only compared
    // by address.
    unsafe {
        let mut child = (*aggcontext).firstchild;
        while !child.is_null() {
            if ptr::eq((*child).name, ARENA_NAME.as_ptr()) {
                return Some(child);
            }
            child = (*child).nextchild;
        }
    }
    None
}

/// Whether `ancestor` is `cx` or one of its parents: then deleting or resetting it
/// deletes `cx`'s children first.
///
/// # Safety
/// `cx` must be a live memory context.
unsafe fn is_ancestor(ancestor: pg_sys::MemoryContext, cx: pg_sys::MemoryContext) -> bool {
    let mut c = cx;
    while !c.is_null() {
        if c == ancestor {
            return true;
        }
        // SAFETY: the parents of a live context are live.
        c = unsafe { (*c).parent };
    }
    false
}

/// Runs when an arena is reset or deleted: its entry no longer names it. The
/// callback lives in the arena, so a reset frees it too; a later call makes a new
/// arena. Never raises an error.
unsafe extern "C-unwind" fn forget(arg: *mut c_void) {
    // SAFETY: `arg` is the entry registered with this callback, which lives in the
    // call site's memory context (see `arena`).
    unsafe {
        let e = arg as *mut Entry;
        (*e).arena = ptr::null_mut();
        (*e).aggcontext = ptr::null_mut();
    }
}
