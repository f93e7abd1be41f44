#![allow(unsafe_code)]
//! AVX-512 value output: eight consecutive values per 512-bit store.

use core::arch::x86_64::*;

#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn fill_consecutive_avx512(out: &mut [u64], first: u64) {
    let (chunks, rest) = out.as_chunks_mut::<8>();
    let iota = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
    let mut v = _mm512_add_epi64(_mm512_set1_epi64(first as i64), iota);
    let step = _mm512_set1_epi64(8);
    for c in chunks.iter_mut() {
        // SAFETY: `c` is 64 writable bytes; unaligned store.
        unsafe { _mm512_storeu_si512(c.as_mut_ptr().cast(), v) };
        v = _mm512_add_epi64(v, step);
    }
    let done = 8 * chunks.len() as u64;
    crate::kernels::values::scalar::fill_consecutive(rest, first.wrapping_add(done));
}

/// `out[k] = first + k`.
pub(super) fn fill_consecutive(out: &mut [u64], first: u64) {
    // SAFETY: only reachable through the AVX-512 table, which the dispatcher
    // hands out only after detecting the enabled features.
    unsafe { fill_consecutive_avx512(out, first) }
}

/// Byte `k` holds `k`: compressing it by a word's bits lists the bit positions.
const BIT_POSITIONS: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut k = 0;
    while k < 64 {
        t[k] = k as u8;
        k += 1;
    }
    t
};

#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn bits_into_avx512(words: &[[u8; 8]], base: u64, out: &mut [u64]) -> (usize, usize) {
    // SAFETY: `BIT_POSITIONS` is 64 readable bytes; unaligned load.
    let positions = unsafe { _mm512_loadu_si512(BIT_POSITIONS.as_ptr().cast()) };
    let mut listed = [0u8; 64];
    let mut n = 0;
    for (i, w) in words.iter().enumerate() {
        let w = u64::from_le_bytes(*w);
        let c = w.count_ones() as usize;
        if c > out.len() - n {
            return (i, n);
        }
        if c == 0 {
            continue;
        }
        // `vpcompressb` lists the word's bit positions as bytes; each group of
        // eight is then widened to 64-bit lanes and ORed with the word's base.
        let packed = _mm512_maskz_compress_epi8(w, positions);
        // SAFETY: `listed` is 64 writable bytes; unaligned store.
        unsafe { _mm512_storeu_si512(listed.as_mut_ptr().cast(), packed) };
        let word_base = _mm512_set1_epi64(base.wrapping_add(64 * i as u64) as i64);
        let dst = &mut out[n..n + c];
        for (k, chunk) in dst.chunks_mut(8).enumerate() {
            let eight: &[u8; 8] = listed[8 * k..8 * k + 8].try_into().expect("8 bytes");
            // SAFETY: `eight` is 8 readable bytes; unaligned 64-bit load.
            let bytes = unsafe { _mm_loadl_epi64(eight.as_ptr().cast()) };
            let values = _mm512_or_si512(_mm512_cvtepu8_epi64(bytes), word_base);
            let lanes = _bzhi_u32(0xFF, chunk.len() as u32) as __mmask8;
            // SAFETY: `chunk` is `chunk.len()` writable `u64`s and the mask
            // enables exactly its first `chunk.len()` lanes.
            unsafe { _mm512_mask_storeu_epi64(chunk.as_mut_ptr().cast(), lanes, values) };
        }
        n += c;
    }
    (words.len(), n)
}

/// The set bits of whole words as 64-bit values (see `values::bits_into`).
pub(super) fn bits_into(words: &[[u8; 8]], base: u64, out: &mut [u64]) -> (usize, usize) {
    // SAFETY: only reachable through the AVX-512 table, which the dispatcher
    // hands out only after detecting the enabled features.
    unsafe { bits_into_avx512(words, base, out) }
}
