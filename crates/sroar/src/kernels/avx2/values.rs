#![allow(unsafe_code, reason = "AVX2 intrinsics and the target_feature functions of this tier")]
//! AVX2 value output: four consecutive values per 256-bit store.

use core::arch::x86_64::*;

#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn fill_consecutive_avx2(out: &mut [u64], first: u64) {
    let (chunks, rest) = out.as_chunks_mut::<4>();
    let mut v = _mm256_add_epi64(
        _mm256_set1_epi64x(first as i64),
        _mm256_setr_epi64x(0, 1, 2, 3),
    );
    let step = _mm256_set1_epi64x(4);
    for c in chunks.iter_mut() {
        // SAFETY: `c` is 32 writable bytes; unaligned store.
        unsafe { _mm256_storeu_si256(c.as_mut_ptr().cast(), v) };
        v = _mm256_add_epi64(v, step);
    }
    let done = 4 * chunks.len() as u64;
    crate::kernels::scalar::values::fill_consecutive(rest, first.wrapping_add(done));
}

/// `out[k] = first + k`.
pub(super) fn fill_consecutive(out: &mut [u64], first: u64) {
    // SAFETY: only reachable through the AVX2 table, which the dispatcher hands
    // out only after detecting the enabled features.
    unsafe { fill_consecutive_avx2(out, first) }
}

/// Entry `b` lists the set bits of the byte `b`, ascending, one per byte.
static BYTE_BITS: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let (mut packed, mut k, mut bit) = (0u64, 0, 0);
        while bit < 8 {
            if b >> bit & 1 != 0 {
                packed |= (bit as u64) << (8 * k);
                k += 1;
            }
            bit += 1;
        }
        t[b] = packed;
        b += 1;
    }
    t
};

/// Words with fewer set bits go through the `tzcnt` loop: eight table steps
/// cost more than a few bits one at a time.
const DENSE: usize = 6;

#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
fn bits_into_avx2(words: &[[u8; 8]], base: u64, out: &mut [u64]) -> (usize, usize) {
    let mut n = 0;
    for (i, w) in words.iter().enumerate() {
        let w = u64::from_le_bytes(*w);
        let c = w.count_ones() as usize;
        let room = out.len() - n;
        if c > room {
            return (i, n);
        }
        let word_base = base.wrapping_add(64 * i as u64);
        if c < DENSE || room < c + 8 {
            let mut x = w;
            for slot in &mut out[n..n + c] {
                *slot = word_base | u64::from(x.trailing_zeros());
                x &= x.wrapping_sub(1);
            }
            n += c;
            continue;
        }
        // A byte at a time: its bit positions from the table, widened to eight
        // 64-bit lanes and written whole; the next byte's values overwrite the
        // lanes past this byte's count (`room >= c + 8` keeps them in `out`).
        let mut lane_base = _mm256_set1_epi64x(word_base as i64);
        let step = _mm256_set1_epi64x(8);
        let mut x = w;
        for _ in 0..8 {
            let byte = (x & 0xFF) as usize;
            let bits = BYTE_BITS[byte];
            let lo = _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(bits as i32));
            let hi = _mm256_cvtepu8_epi64(_mm_cvtsi32_si128((bits >> 32) as i32));
            let dst: &mut [u64; 8] = (&mut out[n..n + 8]).try_into().expect("8 slots");
            let (d0, d1) = dst.split_at_mut(4);
            // SAFETY: `d0` and `d1` are 32 writable bytes each; unaligned stores.
            unsafe {
                _mm256_storeu_si256(d0.as_mut_ptr().cast(), _mm256_or_si256(lo, lane_base));
                _mm256_storeu_si256(d1.as_mut_ptr().cast(), _mm256_or_si256(hi, lane_base));
            }
            n += byte.count_ones() as usize;
            lane_base = _mm256_add_epi64(lane_base, step);
            x >>= 8;
        }
    }
    (words.len(), n)
}

/// The set bits of whole words as 64-bit values (see `values::bits_into`).
pub(super) fn bits_into(words: &[[u8; 8]], base: u64, out: &mut [u64]) -> (usize, usize) {
    // SAFETY: only reachable through the AVX2 table (or the AVX-512 one, which
    // implies AVX2), handed out only after detecting the enabled features.
    unsafe { bits_into_avx2(words, base, out) }
}
