//! The scalar tier of the kernels over searches of sorted keys and values: portable Rust, the
//! reference every SIMD tier is tested against, and the fallback of short inputs.

/// Branchless binary search narrowing `entries` to a window of at most
/// `window` entries: returns `(base, n)` such that every entry before
/// `base` is `< target` and every entry from `base + n` on is `>= target`.
#[inline(always)]
pub fn narrow(entries: &[[u8; 8]], target: u64, window: usize) -> (usize, usize) {
    let mut base = 0usize;
    let mut n = entries.len();
    while n > window {
        let half = n / 2;
        let probe = u64::from_le_bytes(entries[base + half]);
        base = if probe < target { base + half } else { base };
        n -= half;
    }
    (base, n)
}

/// Index of the first entry `>= target`.
pub fn lower_bound_keys(entries: &[[u8; 8]], target: u64) -> usize {
    if entries.is_empty() {
        return 0;
    }
    let (base, _) = narrow(entries, target, 1);
    base + (u64::from_le_bytes(entries[base]) < target) as usize
}

/// Index of the first element `>= x`.
#[cfg(any(test, feature = "internals"))]
pub fn lower_bound_u16(array: &[[u8; 2]], x: u16) -> usize {
    let mut base = 0usize;
    let mut n = array.len();
    if n == 0 {
        return 0;
    }
    while n > 1 {
        let half = n / 2;
        base = if u16::from_le_bytes(array[base + half]) < x {
            base + half
        } else {
            base
        };
        n -= half;
    }
    base + (u16::from_le_bytes(array[base]) < x) as usize
}
