#![allow(unsafe_code, reason = "AVX-512 intrinsics and the target_feature functions of this tier")]
//! AVX-512 union and symmetric difference of sorted arrays: a bitonic merge of
//! two sorted 32-lane vectors (one reverse, then five compare-exchange stages
//! per half), about half the instructions per output value of the AVX2 tier's
//! 8-lane rotation network, and a shorter chain between steps: the loop
//! carries only the upper half, and the vector that is loaded, not the carried
//! one, is reversed. CRoaring's AVX-512 union showed the way.
//!
//! The step keeps the merge's lower 32 lanes and carries the upper ones; as in
//! the AVX2 tier, the next vector is the one with the smaller head. Each
//! input's last block is padded with 0xffff, so the whole merge runs in
//! vectors (a scalar end for the last values measured as costly as the
//! blocks), and the output's end is settled afterwards.

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use super::skewed;
use crate::kernels::scalar::array as scalar;

const W: usize = 32;

/// Lane `k` takes lane `31 - k`.
static REVERSE: [u16; W] = {
    let mut t = [0; W];
    let mut k = 0;
    while k < W {
        t[k] = (W - 1 - k) as u16;
        k += 1;
    }
    t
};

/// For `permutex2var(new, _, old)`: lane 0 takes lane 31 of `old`, lane `k`
/// lane `k - 1` of `new`.
static SHIFT1: [u16; W] = shift_in::<1>();
/// As [`SHIFT1`], two lanes: lanes 30 and 31 of `old`, then `new`.
static SHIFT2: [u16; W] = shift_in::<2>();

const fn shift_in<const S: usize>() -> [u16; W] {
    let mut t = [0; W];
    let mut k = 0;
    while k < W {
        // Index 32 + i is lane i of the second operand.
        t[k] = if k < S { (2 * W - S + k) as u16 } else { (k - S) as u16 };
        k += 1;
    }
    t
}

#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn table(t: &'static [u16; W]) -> __m512i {
    // SAFETY: `t` is 64 readable bytes; unaligned load.
    unsafe { _mm512_loadu_si512(t.as_ptr().cast()) }
}

#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
/// `s[i..i + 32]`.
pub(super) fn load(s: &[[u8; 2]], i: usize) -> __m512i {
    let c: &[[u8; 2]; W] = s[i..i + W].try_into().expect("32 values");
    // SAFETY: `c` is 64 readable bytes; unaligned load.
    unsafe { _mm512_loadu_si512(c.as_ptr().cast()) }
}

#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
pub(super) fn store(dst: &mut [MaybeUninit<u16>], pos: usize, v: __m512i) {
    let c: &mut [MaybeUninit<u16>; W] = (&mut dst[pos..pos + W]).try_into().expect("32 slots");
    // SAFETY: `c` is 64 writable bytes (`MaybeUninit` may be overwritten).
    unsafe { _mm512_storeu_si512(c.as_mut_ptr().cast(), v) }
}

/// Compare-exchange at lane distance `d`: the smaller of lanes `k` and
/// `k ^ d` goes to the one whose `d` bit is clear. `t` is `v` with those
/// lanes swapped; `upper` has the lanes whose `d` bit is set.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn exchange(v: __m512i, t: __m512i, upper: u32) -> __m512i {
    _mm512_mask_mov_epi16(_mm512_min_epu16(v, t), upper, _mm512_max_epu16(v, t))
}

/// Sorts a bitonic vector. Each distance has a shuffle within its reach, so
/// no stage needs a full permute.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn sort_bitonic(v: __m512i) -> __m512i {
    let v = exchange(v, _mm512_shuffle_i64x2::<0x4E>(v, v), 0xFFFF_0000);
    let v = exchange(v, _mm512_shuffle_i64x2::<0xB1>(v, v), 0xFF00_FF00);
    let v = exchange(v, _mm512_shuffle_epi32::<0x4E>(v), 0xF0F0_F0F0);
    let v = exchange(v, _mm512_shuffle_epi32::<0xB1>(v), 0xCCCC_CCCC);
    exchange(v, _mm512_rol_epi32::<16>(v), 0xAAAA_AAAA)
}

/// Merges the sorted `a` and `b_reversed` (sorted, then reversed): the 32
/// smallest and the 32 largest values, each sorted.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn merge(a: __m512i, b_reversed: __m512i) -> (__m512i, __m512i) {
    (
        sort_bitonic(_mm512_min_epu16(a, b_reversed)),
        sort_bitonic(_mm512_max_epu16(a, b_reversed)),
    )
}

/// Packs the lanes of `v` in `keep` to the front of `dst[pos..]`; returns how
/// many.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn store_kept(dst: &mut [MaybeUninit<u16>], pos: usize, v: __m512i, keep: u32) -> usize {
    // A full store of the packed vector: `vpcompressw` to memory is slow on
    // some CPUs.
    store(dst, pos, _mm512_maskz_compress_epi16(keep, v));
    keep.count_ones() as usize
}

/// Stores the lanes of the sorted `new` that differ from their predecessor
/// (lane 31 of `old` for lane 0); returns how many.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn store_unique(old: __m512i, new: __m512i, dst: &mut [MaybeUninit<u16>], pos: usize) -> usize {
    let prev = _mm512_permutex2var_epi16(new, table(&SHIFT1), old);
    store_kept(dst, pos, new, _mm512_cmpneq_epi16_mask(new, prev))
}

/// Stores the lanes of `cur` = (lane 31 of `old`, lanes 0..=30 of `new`) that
/// equal neither neighbour in the merged stream; a value occurs at most twice,
/// then adjacently, so these are the values of exactly one input. Lane 31 of
/// `new` waits for the next vector.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn store_single(old: __m512i, new: __m512i, dst: &mut [MaybeUninit<u16>], pos: usize) -> usize {
    let cur = _mm512_permutex2var_epi16(new, table(&SHIFT1), old);
    let prev = _mm512_permutex2var_epi16(new, table(&SHIFT2), old);
    let twice = _mm512_cmpeq_epi16_mask(cur, prev) | _mm512_cmpeq_epi16_mask(cur, new);
    store_kept(dst, pos, cur, !twice)
}

/// `s[i..i + 32]`, or when fewer are left, those followed by 0xffff.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn load_padded(s: &[[u8; 2]], i: usize) -> __m512i {
    if i + W <= s.len() {
        return load(s, i);
    }
    let mut block = [[0xff; 2]; W];
    block[..s.len() - i].copy_from_slice(&s[i..]);
    load(&block, 0)
}

/// The merge of both inputs, 32 values a step: `emit(old, new)` stores from
/// each lower half `new`, after the previous one `old` (all lanes 0xffff at
/// first), and last from the final upper half. The inputs' last blocks are
/// padded with 0xffff, which the callers take off the end of the output.
/// Both inputs hold at least 32 values.
#[inline(always)]
fn blocks(a: &[[u8; 2]], b: &[[u8; 2]], mut emit: impl FnMut(__m512i, __m512i)) {
    // Past an input's last value, its head is above every value.
    let head = |s: &[[u8; 2]], i: usize| s.get(i).map_or(0x1_0000, |e| u16::from_le_bytes(*e) as u32);
    // SAFETY: the callers run under this tier's detection.
    unsafe {
        let reverse = table(&REVERSE);
        let (mut low, mut high) = merge(load(a, 0), _mm512_permutexvar_epi16(reverse, load(b, 0)));
        emit(_mm512_set1_epi16(-1), low);
        let (mut ia, mut ib) = (W, W);
        while ia < a.len() || ib < b.len() {
            // The vector with the smaller head is next: every value loaded so
            // far is then below the other input's head, so the 32 smallest
            // are final. Chosen without a branch: the choice is unpredictable
            // on interleaved inputs.
            let take_a = head(a, ia) <= head(b, ib);
            let next = if take_a { ia } else { ib };
            let src = if take_a { a } else { b };
            ia += if take_a { W } else { 0 };
            ib += if take_a { 0 } else { W };
            let last = low;
            (low, high) = merge(high, _mm512_permutexvar_epi16(reverse, load_padded(src, next)));
            emit(last, low);
        }
        emit(low, high);
    }
}

/// Ends a merge's output with 0xffff exactly when `keep`, whatever the
/// padding left there.
fn settle_top(out: &mut Vec<u16>, keep: bool) {
    if out.last() == Some(&0xffff) {
        out.pop();
    }
    if keep {
        out.push(0xffff);
    }
}

fn ends_with_top(s: &[[u8; 2]]) -> bool {
    s.last() == Some(&[0xff; 2])
}

/// Appends what `run` stores into room for the merge of `a` and `b`.
#[inline(always)]
fn with_room(
    a: &[[u8; 2]],
    b: &[[u8; 2]],
    out: &mut Vec<u16>,
    run: impl FnOnce(&mut [MaybeUninit<u16>]) -> usize,
) {
    // The padding adds a value, and each store writes 32 lanes.
    let cap = a.len() + b.len() + 1 + W;
    out.reserve(cap);
    let len = out.len();
    let n = run(&mut out.spare_capacity_mut()[..cap]);
    // SAFETY: `run` wrote a contiguous prefix of `n` values of the spare
    // room, and `n <= cap <= capacity - len`.
    unsafe { out.set_len(len + n) }
}

#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn union_blocks(a: &[[u8; 2]], b: &[[u8; 2]], out: &mut Vec<u16>) {
    with_room(a, b, out, |dst| {
        let mut pos = 0;
        blocks(a, b, |old, new| pos += store_unique(old, new, dst, pos));
        pos
    });
    settle_top(out, ends_with_top(a) || ends_with_top(b));
}

#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx2,popcnt,bmi1,bmi2,lzcnt"
)]
fn xor_blocks(a: &[[u8; 2]], b: &[[u8; 2]], out: &mut Vec<u16>) {
    with_room(a, b, out, |dst| {
        let mut pos = 0;
        let mut last = _mm512_setzero_si512();
        blocks(a, b, |old, new| {
            pos += store_single(old, new, dst, pos);
            last = new;
        });
        // The last lane waits for its successor: 0xffff, which equals it only
        // if it is 0xffff, settled below.
        pos + store_single(last, _mm512_set1_epi16(-1), dst, pos)
    });
    // Padding may add 0xffff any number of times, where "equal to neither
    // neighbour" no longer means "in one input".
    settle_top(out, ends_with_top(a) != ends_with_top(b));
}

/// Which kernel merges `a` and `b`.
enum Route {
    /// An input shorter than a block, or very much shorter than the other,
    /// against one of a few blocks: [`skewed::insert`]. Short inputs of 8 to
    /// 31 values went to the AVX2 tier's 8-lane merge, and its scalar tail,
    /// before (insert: weather_sept_85 `or` 1.023, `xor` 1.019, census-income
    /// 1.011 both; up to 63 values against four times as many was slower).
    Insert,
    /// Very different sizes or a short input: the scalar kernels, directly,
    /// since the AVX2 tier would hand them there too.
    Scalar,
    /// An input shorter than a block: the AVX2 tier's 8-lane merge.
    Avx2,
    Blocks,
}

fn route(a: &[[u8; 2]], b: &[[u8; 2]]) -> Route {
    let (s, l) = (a.len().min(b.len()), a.len().max(b.len()));
    let skewed = s < W || scalar::should_gallop(s, l);
    if skewed && skewed::inserts(s, l) {
        Route::Insert
    } else if s < 8 || scalar::should_gallop(s, l) {
        Route::Scalar
    } else if s < W {
        Route::Avx2
    } else {
        Route::Blocks
    }
}

/// The shorter of `a` and `b`, then the other.
fn short_long<'a>(a: &'a [[u8; 2]], b: &'a [[u8; 2]]) -> (&'a [[u8; 2]], &'a [[u8; 2]]) {
    if a.len() <= b.len() {
        (a, b)
    } else {
        (b, a)
    }
}

/// `a ∪ b`, appended to `out`.
pub(super) fn union(a: &[[u8; 2]], b: &[[u8; 2]], out: &mut Vec<u16>) {
    match route(a, b) {
        Route::Insert => {
            let (s, l) = short_long(a, b);
            // SAFETY: as in `Blocks` below.
            unsafe { skewed::insert::<true>(s, l, out) }
        }
        Route::Scalar => scalar::union(a, b, out),
        Route::Avx2 => (super::fallback().array_union)(a, b, out),
        // SAFETY: only reachable through the AVX-512 table, which the
        // dispatcher hands out only after detecting every feature enabled
        // above.
        Route::Blocks => unsafe { union_blocks(a, b, out) },
    }
}

/// `a ⊕ b`, appended to `out`.
pub(super) fn xor(a: &[[u8; 2]], b: &[[u8; 2]], out: &mut Vec<u16>) {
    match route(a, b) {
        Route::Insert => {
            let (s, l) = short_long(a, b);
            // SAFETY: as in `union`.
            unsafe { skewed::insert::<false>(s, l, out) }
        }
        Route::Scalar => scalar::xor(a, b, out),
        Route::Avx2 => (super::fallback().array_xor)(a, b, out),
        // SAFETY: as in `union`.
        Route::Blocks => unsafe { xor_blocks(a, b, out) },
    }
}
