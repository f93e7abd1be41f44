//! The scalar tier of the kernels over searches of sorted keys and values: portable Rust, the
//! reference every SIMD tier is tested against, and the fallback of short inputs.

/// Index of the first element `>= x`.
#[cfg(feature = "internals")]
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
