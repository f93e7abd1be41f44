//! A hint that some bytes are read soon: a union of many sets reads one key's
//! containers from every set in turn, each from a different place, where the
//! hardware prefetcher, which follows one stream at a time, starts late.
#![allow(unsafe_code, reason = "the prefetch intrinsic is a target_feature function")]

/// Below this many bytes, a container is not worth the hint: the few lines are
/// read at once anyway, and the sets that hold such containers are mostly small
/// enough to be in cache (the small unions of the `many` bench were 5% slower with
/// it).
const WORTH_FETCHING: usize = 256;

/// Asks for the cache lines of `bytes` to be loaded, if there are enough of them;
/// does nothing where the target has no such hint.
#[inline(always)]
pub fn read_soon(bytes: &[u8]) {
    if bytes.len() < WORTH_FETCHING {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        for line in bytes.chunks(64) {
            // SAFETY: SSE is in every x86_64 target, and a prefetch never faults
            // nor changes memory.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line.as_ptr().cast()) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = bytes;
}
