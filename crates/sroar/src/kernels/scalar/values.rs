//! The scalar tier of the kernels over writing decoded values: portable Rust, the
//! reference every SIMD tier is tested against, and the fallback of short inputs.

/// [`super::bits_into`]: a `tzcnt` per set bit.
pub fn bits_into(words: &[[u8; 8]], base: u64, out: &mut [u64]) -> (usize, usize) {
    let mut n = 0;
    for (i, w) in words.iter().enumerate() {
        let mut w = u64::from_le_bytes(*w);
        let c = w.count_ones() as usize;
        if c > out.len() - n {
            return (i, n);
        }
        let word_base = base.wrapping_add(64 * i as u64);
        for slot in &mut out[n..n + c] {
            *slot = word_base | u64::from(w.trailing_zeros());
            w &= w.wrapping_sub(1);
        }
        n += c;
    }
    (words.len(), n)
}

/// `out[k] = first + k` (wrapping).
#[inline]
pub fn fill_consecutive(out: &mut [u64], first: u64) {
    for (k, slot) in out.iter_mut().enumerate() {
        *slot = first.wrapping_add(k as u64);
    }
}
