#![allow(
    unsafe_code,
    reason = "the skeleton calls its tier's lane operations, which need the tier's CPU features"
)]
//! The block algorithms of the 8-lane sorted-array tiers (AVX2 and NEON), written
//! once over the lane operations a tier supplies ([`Lanes8`]):
//!
//! * intersection: the Schlegel/Lemire block compare: an 8-block of `a` is
//!   compared against all 8 rotations of an 8-block of `b` (or one string
//!   compare, AVX2's `pcmpestrm`), and matches are compacted, with no branch on
//!   which block advances;
//! * union: the Inoue/Lemire vectorized merge (a min/max rotation network merging
//!   two sorted 8-vectors) with on-the-fly deduplication;
//! * symmetric difference: the same merge, keeping the lanes that equal neither
//!   neighbour (so each output vector lags one lane behind);
//! * difference: the intersection's block compare, keeping the lanes of `a` that
//!   found no match.
//!
//! Tails (fewer than 8 values) go to the scalar kernels and `array_tails`. Each
//! tier keeps its own part in its file: the vector type and its operations, and
//! the `#[target_feature]` entry points that instantiate these functions.

use core::mem::MaybeUninit;

use super::array_tails::{merge3, xor_tail, Last};
use super::scalar::array as scalar;

/// Eight `u16` lanes: the primitive operations a tier supplies (see [`lanes8!`]),
/// and the compositions the block algorithms use, written once here.
///
/// # Safety
/// Implementations may use instructions the CPU only has when the tier was
/// detected; every method must be called only from code running under that
/// detection (the tier's `#[target_feature]` entry points).
pub(super) unsafe trait Lanes8: Copy {
    /// `s[i..i + 8]`.
    unsafe fn load8(s: &[[u8; 2]], i: usize) -> Self;
    /// All 8 lanes at `dst[pos..pos + 8]`.
    unsafe fn store8(dst: &mut [MaybeUninit<u16>], pos: usize, v: Self);
    /// The lanes whose bit is set in `mask` (8 bits), moved to the front.
    unsafe fn compact(v: Self, mask: u32) -> Self;
    /// Bit `k` set iff lane `k` of `v` (a compare result) is all ones.
    unsafe fn mask(v: Self) -> u32;
    /// Lane-wise `a == b`, as all ones or zero.
    unsafe fn eq(a: Self, b: Self) -> Self;
    unsafe fn or(a: Self, b: Self) -> Self;
    unsafe fn min(a: Self, b: Self) -> Self;
    unsafe fn max(a: Self, b: Self) -> Self;
    /// Lanes 1..=7 then lane 0.
    unsafe fn rotate1(v: Self) -> Self;
    /// Lane 7 of `old`, then lanes 0..=6 of `new`.
    unsafe fn shift_in1(old: Self, new: Self) -> Self;
    /// Lanes 6 and 7 of `old`, then lanes 0..=5 of `new`.
    unsafe fn shift_in2(old: Self, new: Self) -> Self;
    /// Every lane 0xffff.
    unsafe fn all_ones() -> Self;
    /// `a` when `take_a`, else `b`, without a branch.
    unsafe fn select(take_a: bool, a: Self, b: Self) -> Self;

    #[inline(always)]
    unsafe fn lanes(v: Self) -> [u16; 8] {
        let mut buf = [MaybeUninit::<u16>::uninit(); 8];
        // SAFETY: the caller runs under the tier's detection; `store8` writes all
        // 8 lanes, so every slot is initialized.
        unsafe {
            Self::store8(&mut buf, 0, v);
            buf.map(|x| x.assume_init())
        }
    }

    /// Bit `k` set iff lane `k` of `va` equals some lane of `vb`: `va` against
    /// the 8 rotations of `vb`.
    #[inline(always)]
    unsafe fn match_mask(va: Self, vb: Self) -> u32 {
        // SAFETY: the caller runs under the tier's detection.
        unsafe {
            let mut r = Self::eq(va, vb);
            let mut rot = vb;
            for _ in 1..8 {
                rot = Self::rotate1(rot);
                r = Self::or(r, Self::eq(va, rot));
            }
            Self::mask(r)
        }
    }

    /// Merges two sorted 8-vectors: (8 smallest, 8 largest), sorted. A min/max
    /// network that rotates the minima through the maxima.
    #[inline(always)]
    unsafe fn merge8(a: Self, b: Self) -> (Self, Self) {
        // SAFETY: the caller runs under the tier's detection.
        unsafe {
            let mut tmp = Self::min(a, b);
            let mut max = Self::max(a, b);
            tmp = Self::rotate1(tmp);
            let mut min = Self::min(tmp, max);
            max = Self::max(tmp, max);
            for _ in 0..6 {
                tmp = Self::rotate1(min);
                min = Self::min(tmp, max);
                max = Self::max(tmp, max);
            }
            (Self::rotate1(min), max)
        }
    }

    /// Stores the lanes of `new` that differ from their predecessor (lane 7 of
    /// `old` for lane 0) at `dst[pos..]`; returns how many.
    #[inline(always)]
    unsafe fn store_unique(old: Self, new: Self, dst: &mut [MaybeUninit<u16>], pos: usize) -> usize {
        // SAFETY: the caller runs under the tier's detection.
        unsafe {
            let prev = Self::shift_in1(old, new);
            let keep = !Self::mask(Self::eq(prev, new)) & 0xff;
            Self::store8(dst, pos, Self::compact(new, keep));
            keep.count_ones() as usize
        }
    }

    /// Stores the lanes of `cur` = (lane 7 of `old`, lanes 0..=6 of `new`) that equal
    /// neither neighbour in the merged stream (lane 6 of `old` before, `new` after)
    /// at `dst[pos..]`; returns how many. A value occurs at most twice in the
    /// stream, and then adjacently, so these are the values of exactly one input.
    /// Lane 7 of `new` waits for the next vector.
    #[inline(always)]
    unsafe fn store_single(old: Self, new: Self, dst: &mut [MaybeUninit<u16>], pos: usize) -> usize {
        // SAFETY: the caller runs under the tier's detection.
        unsafe {
            let cur = Self::shift_in1(old, new);
            let prev = Self::shift_in2(old, new);
            let eq = Self::or(Self::eq(cur, prev), Self::eq(cur, new));
            let keep = !Self::mask(eq) & 0xff;
            Self::store8(dst, pos, Self::compact(cur, keep));
            keep.count_ones() as usize
        }
    }
}

/// Implements [`Lanes8`] for a tier's vector type from one line per primitive,
/// each compiled `#[inline]` with the tier's features: the tier's file then reads
/// as a table from operation to instruction.
///
/// The implementation is sound because the tier's methods are reached only
/// through its `block_tier!` entry points, which its table holds, and the
/// dispatcher hands that table out only after detecting the features.
macro_rules! lanes8 {
    ($ty:ident = $features:literal; $(
        fn $name:ident($($arg:ident: $aty:ty),*) $(-> $ret:ty)? $body:block
    )*) => {
        // SAFETY: see the macro's documentation.
        unsafe impl $crate::kernels::array_blocks::Lanes8 for $ty {
            $(
                #[inline]
                #[target_feature(enable = $features)]
                unsafe fn $name($($arg: $aty),*) $(-> $ret)? $body
            )*
        }
    };
}
pub(super) use lanes8;

#[inline(always)]
fn get(s: &[[u8; 2]], i: usize) -> u16 {
    u16::from_le_bytes(s[i])
}

/// Where the block loop stopped: `a[i..]` and `b[j..]` are left, and the lanes of
/// `va` (= `a[i..i + 8]`) in `mask` matched in `b[..j]`.
pub(super) struct Pending<V> {
    pub(super) i: usize,
    pub(super) j: usize,
    pub(super) va: V,
    pub(super) mask: u32,
}

/// Block intersection of `a` and `b` (both at least 8 long). Calls `emit(block,
/// mask)` for each finished 8-block of `a` with the mask of its lanes found in `b`;
/// stops (returning `None`) when `emit` returns false.
///
/// # Safety
/// As for [`Lanes8`].
#[inline(always)]
unsafe fn block_core<V: Lanes8>(
    a: &[[u8; 2]],
    b: &[[u8; 2]],
    mut emit: impl FnMut(V, u32) -> bool,
) -> Option<Pending<V>> {
    // SAFETY: the caller runs under the tier's detection.
    unsafe {
        let (mut i, mut j) = (0, 0);
        let mut va = V::load8(a, 0);
        let mut vb = V::load8(b, 0);
        let mut amax = get(a, 7);
        let mut bmax = get(b, 7);
        let mut acc = 0u32;
        loop {
            acc |= V::match_mask(va, vb);
            if amax <= bmax {
                if !emit(va, acc) {
                    return None;
                }
                acc = 0;
                i += 8;
                let advance_b = amax == bmax;
                if advance_b {
                    j += 8;
                }
                if i + 8 > a.len() {
                    break;
                }
                va = V::load8(a, i);
                amax = get(a, i + 7);
                if advance_b {
                    if j + 8 > b.len() {
                        break;
                    }
                    vb = V::load8(b, j);
                    bmax = get(b, j + 7);
                }
            } else {
                j += 8;
                if j + 8 > b.len() {
                    break;
                }
                vb = V::load8(b, j);
                bmax = get(b, j + 7);
            }
        }
        Some(Pending {
            i,
            j,
            va,
            mask: acc,
        })
    }
}

/// [`block_core`]'s loop with no branch on which side advances: on real data
/// that branch goes either way about as often, and its misses cost more than a
/// block's compare. Calls `emit(block, mask, done)` for every step; `done` says
/// whether the 8-block of `a` is finished (only then does `mask` count).
///
/// # Safety
/// As for [`Lanes8`].
#[inline(always)]
unsafe fn block_stream<V: Lanes8>(
    a: &[[u8; 2]],
    b: &[[u8; 2]],
    mut emit: impl FnMut(V, u32, bool),
) -> Pending<V> {
    // SAFETY: the caller runs under the tier's detection.
    unsafe {
        let (mut i, mut j) = (0, 0);
        let mut acc = 0u32;
        while i + 8 <= a.len() && j + 8 <= b.len() {
            let va = V::load8(a, i);
            acc |= V::match_mask(va, V::load8(b, j));
            let (amax, bmax) = (get(a, i + 7), get(b, j + 7));
            let done = amax <= bmax;
            emit(va, acc, done);
            // All ones while the block goes on, zero once it is done.
            acc &= u32::from(done).wrapping_sub(1);
            i += usize::from(done) * 8;
            j += usize::from(bmax <= amax) * 8;
        }
        // A finished block left `acc` at zero, so its lanes are never read.
        let va = if i + 8 <= a.len() {
            V::load8(a, i)
        } else {
            V::all_ones()
        };
        Pending {
            i,
            j,
            va,
            mask: acc,
        }
    }
}

/// `a ∩ b` into `dst` (room for `min(|a|, |b|) + 8`); returns how many values.
///
/// # Safety
/// As for [`Lanes8`]; both inputs at least 8 long.
#[inline(always)]
pub(super) unsafe fn intersect<V: Lanes8>(
    a: &[[u8; 2]],
    b: &[[u8; 2]],
    dst: &mut [MaybeUninit<u16>],
) -> usize {
    let mut pos = 0;
    // SAFETY: the caller runs under the tier's detection.
    let p = unsafe {
        block_stream::<V>(a, b, |va, mask, done| {
            // Stored at every step; `pos` moves past it only once it is done.
            V::store8(dst, pos, V::compact(va, mask));
            pos += mask.count_ones() as usize & usize::from(done).wrapping_neg();
        })
    };
    // Pending matches are < b[p.j], so they precede the tail's matches.
    // SAFETY: as above.
    let l = unsafe { V::lanes(p.va) };
    for (k, &x) in l.iter().enumerate() {
        if p.mask >> k & 1 != 0 {
            dst[pos].write(x);
            pos += 1;
        }
    }
    scalar::for_each_common(&a[p.i..], &b[p.j..], |x| {
        dst[pos].write(x);
        pos += 1;
        true
    });
    pos
}

/// `|a ∩ b|`.
///
/// # Safety
/// As for [`intersect`].
#[inline(always)]
pub(super) unsafe fn intersect_count<V: Lanes8>(a: &[[u8; 2]], b: &[[u8; 2]]) -> u32 {
    let mut n = 0;
    // SAFETY: the caller runs under the tier's detection.
    let p = unsafe {
        block_stream::<V>(a, b, |_, mask, done| {
            n += mask.count_ones() & u32::from(done).wrapping_neg();
        })
    };
    n + p.mask.count_ones() + scalar::intersect_count(&a[p.i..], &b[p.j..])
}

/// Whether `a ∩ b` is non-empty, stopping at the first block with a match.
///
/// # Safety
/// As for [`intersect`].
#[inline(always)]
pub(super) unsafe fn intersects<V: Lanes8>(a: &[[u8; 2]], b: &[[u8; 2]]) -> bool {
    // SAFETY: the caller runs under the tier's detection.
    match unsafe { block_core::<V>(a, b, |_, mask| mask == 0) } {
        None => true,
        Some(p) => p.mask != 0 || scalar::intersects(&a[p.i..], &b[p.j..]),
    }
}

/// `a ∪ b` into `dst` (room for `|a| + |b| + 8`); returns how many values.
///
/// # Safety
/// As for [`intersect`].
#[inline(always)]
pub(super) unsafe fn union<V: Lanes8>(
    a: &[[u8; 2]],
    b: &[[u8; 2]],
    dst: &mut [MaybeUninit<u16>],
) -> usize {
    // SAFETY: the caller runs under the tier's detection.
    unsafe {
        let (na, nb) = (a.len() / 8, b.len() / 8);
        let (mut vmin, mut vmax) = V::merge8(V::load8(a, 0), V::load8(b, 0));
        let (mut ia, mut ib) = (1, 1);
        // Lane 0 of the first output is at most 65528, so never equals 0xffff.
        let mut pos = V::store_unique(V::all_ones(), vmin, dst, 0);
        let mut last = vmin;
        while ia < na && ib < nb {
            // Take the vector with the smaller head: every value loaded so far is
            // then below the other input's head, so the 8 smallest are final.
            // Chosen without a branch, as in `xor`.
            let take_a = get(a, 8 * ia) <= get(b, 8 * ib);
            let (va, vb) = (V::load8(a, 8 * ia), V::load8(b, 8 * ib));
            ia += take_a as usize;
            ib += !take_a as usize;
            let v = V::select(take_a, va, vb);
            (vmin, vmax) = V::merge8(v, vmax);
            pos += V::store_unique(last, vmin, dst, pos);
            last = vmin;
        }
        let prev = V::lanes(last)[7] as u32;
        merge3(&V::lanes(vmax), &a[8 * ia..], &b[8 * ib..], prev, dst, pos)
    }
}

/// `a ⊕ b` into `dst` (room for `|a| + |b| + 8`); returns how many values.
///
/// # Safety
/// As for [`intersect`].
#[inline(always)]
pub(super) unsafe fn xor<V: Lanes8>(
    a: &[[u8; 2]],
    b: &[[u8; 2]],
    dst: &mut [MaybeUninit<u16>],
) -> usize {
    // SAFETY: the caller runs under the tier's detection.
    unsafe {
        let (na, nb) = (a.len() / 8, b.len() / 8);
        let (mut vmin, mut vmax) = V::merge8(V::load8(a, 0), V::load8(b, 0));
        let (mut ia, mut ib) = (1, 1);
        // The two lanes before the stream are 0xffff: the first (fake) one equals
        // its predecessor, so is dropped; lane 0 of the first output is at most
        // 65528, so never equals them.
        let mut pos = V::store_single(V::all_ones(), vmin, dst, 0);
        let mut last = vmin;
        while ia < na && ib < nb {
            // As in `union`, the vector with the smaller head is next; here
            // chosen without a branch (the choice is unpredictable on interleaved
            // inputs; measured 4-10% faster on the real datasets).
            let take_a = get(a, 8 * ia) <= get(b, 8 * ib);
            let (va, vb) = (V::load8(a, 8 * ia), V::load8(b, 8 * ib));
            ia += take_a as usize;
            ib += !take_a as usize;
            let v = V::select(take_a, va, vb);
            (vmin, vmax) = V::merge8(v, vmax);
            pos += V::store_single(last, vmin, dst, pos);
            last = vmin;
        }
        let l = V::lanes(last);
        let last = Last {
            value: l[7],
            twice: l[6] == l[7],
        };
        xor_tail(last, &V::lanes(vmax), &a[8 * ia..], &b[8 * ib..], dst, pos)
    }
}

/// Writes the 8-blocks of `a` that the block loop finishes, without their lanes
/// found in `b`, into `dst` (room for `|a| + 8`); returns how many values it wrote
/// and where the blocks stopped: `a[i..]` is left to do against `b[j..]`, except
/// that the lanes of `a[i..i + 8]` in `mask` are already known to be in `b`.
///
/// # Safety
/// As for [`intersect`].
#[inline(always)]
pub(super) unsafe fn difference<V: Lanes8>(
    a: &[[u8; 2]],
    b: &[[u8; 2]],
    dst: &mut [MaybeUninit<u16>],
) -> (usize, usize, usize, u32) {
    let mut pos = 0;
    // SAFETY: the caller runs under the tier's detection.
    let p = unsafe {
        block_stream::<V>(a, b, |va, mask, done| {
            let keep = !mask & 0xff;
            V::store8(dst, pos, V::compact(va, keep));
            pos += keep.count_ones() as usize & usize::from(done).wrapping_neg();
        })
    };
    (pos, p.i, p.j, p.mask)
}

/// Appends to `out` what `kernel` writes into room for `cap` more values: a
/// contiguous prefix of the room, whose length `kernel` returns.
///
/// # Safety
/// `kernel` must initialize exactly the first `n <= cap` slots it is given and
/// return `n`, and whatever it calls must be allowed here (a tier's entry point
/// under that tier's detection).
#[inline(always)]
pub(super) unsafe fn append_with(
    out: &mut Vec<u16>,
    cap: usize,
    kernel: impl FnOnce(&mut [MaybeUninit<u16>]) -> usize,
) {
    out.reserve(cap);
    let len = out.len();
    let n = kernel(&mut out.spare_capacity_mut()[..cap]);
    // SAFETY: `kernel` initialized the first `n` spare slots (the caller's
    // promise), and `n <= cap <= capacity - len`.
    unsafe { out.set_len(len + n) }
}

/// Defines a tier's array kernels from its [`Lanes8`] type: the `#[target_feature]`
/// entry points that compile the shared algorithms with the tier's features, and
/// the functions of its table, which send short inputs and very different sizes
/// to the scalar kernels (`use_blocks`).
///
/// Every `unsafe` block it expands to rests on one promise: the table functions are
/// only reachable through the tier's table, which the dispatcher hands out only
/// after detecting the tier's features; and the entry points write a contiguous
/// prefix of the room they are given ([`append_with`]).
macro_rules! block_tier {
    ($lanes:ident, $features:literal) => {
        mod entry {
            use core::mem::MaybeUninit;

            use crate::kernels::array_blocks as blocks;

            #[target_feature(enable = $features)]
            pub(super) fn intersect(a: &[[u8; 2]], b: &[[u8; 2]], dst: &mut [MaybeUninit<u16>]) -> usize {
                // SAFETY: this function runs only with the tier's features.
                unsafe { blocks::intersect::<super::$lanes>(a, b, dst) }
            }

            #[target_feature(enable = $features)]
            pub(super) fn intersect_count(a: &[[u8; 2]], b: &[[u8; 2]]) -> u32 {
                // SAFETY: this function runs only with the tier's features.
                unsafe { blocks::intersect_count::<super::$lanes>(a, b) }
            }

            #[target_feature(enable = $features)]
            pub(super) fn intersects(a: &[[u8; 2]], b: &[[u8; 2]]) -> bool {
                // SAFETY: this function runs only with the tier's features.
                unsafe { blocks::intersects::<super::$lanes>(a, b) }
            }

            #[target_feature(enable = $features)]
            pub(super) fn union(a: &[[u8; 2]], b: &[[u8; 2]], dst: &mut [MaybeUninit<u16>]) -> usize {
                // SAFETY: this function runs only with the tier's features.
                unsafe { blocks::union::<super::$lanes>(a, b, dst) }
            }

            #[target_feature(enable = $features)]
            pub(super) fn xor(a: &[[u8; 2]], b: &[[u8; 2]], dst: &mut [MaybeUninit<u16>]) -> usize {
                // SAFETY: this function runs only with the tier's features.
                unsafe { blocks::xor::<super::$lanes>(a, b, dst) }
            }

            #[target_feature(enable = $features)]
            pub(super) fn difference(
                a: &[[u8; 2]],
                b: &[[u8; 2]],
                dst: &mut [MaybeUninit<u16>],
            ) -> (usize, usize, usize, u32) {
                // SAFETY: this function runs only with the tier's features.
                unsafe { blocks::difference::<super::$lanes>(a, b, dst) }
            }
        }

        /// `a ∩ b`, appended to `out`.
        pub(super) fn intersect(a: &[[u8; 2]], b: &[[u8; 2]], out: &mut Vec<u16>) {
            if !use_blocks(a, b) {
                return scalar::intersect(a, b, out);
            }
            // SAFETY: see `block_tier!`.
            unsafe { append_with(out, a.len().min(b.len()) + 8, |dst| entry::intersect(a, b, dst)) }
        }

        /// `|a ∩ b|`.
        pub(super) fn intersect_count(a: &[[u8; 2]], b: &[[u8; 2]]) -> u32 {
            if !use_blocks(a, b) {
                return scalar::intersect_count(a, b);
            }
            // SAFETY: see `block_tier!`.
            unsafe { entry::intersect_count(a, b) }
        }

        /// Whether `a ∩ b` is non-empty.
        pub(super) fn intersects(a: &[[u8; 2]], b: &[[u8; 2]]) -> bool {
            if !use_blocks(a, b) {
                return scalar::intersects(a, b);
            }
            // SAFETY: see `block_tier!`.
            unsafe { entry::intersects(a, b) }
        }

        /// `a ∪ b`, appended to `out`.
        pub(super) fn union(a: &[[u8; 2]], b: &[[u8; 2]], out: &mut Vec<u16>) {
            if !use_blocks(a, b) {
                return scalar::union(a, b, out);
            }
            // SAFETY: see `block_tier!`.
            unsafe { append_with(out, a.len() + b.len() + 8, |dst| entry::union(a, b, dst)) }
        }

        /// `a ⊕ b`, appended to `out`.
        pub(super) fn xor(a: &[[u8; 2]], b: &[[u8; 2]], out: &mut Vec<u16>) {
            if !use_blocks(a, b) {
                return scalar::xor(a, b, out);
            }
            // SAFETY: see `block_tier!`.
            unsafe { append_with(out, a.len() + b.len() + 8, |dst| entry::xor(a, b, dst)) }
        }

        /// `a \ b`, appended to `out`.
        pub(super) fn difference(a: &[[u8; 2]], b: &[[u8; 2]], out: &mut Vec<u16>) {
            if !use_blocks(a, b) {
                return scalar::difference(a, b, out);
            }
            let mut stop = (0, 0, 0);
            // SAFETY: see `block_tier!`.
            unsafe {
                append_with(out, a.len() + 8, |dst| {
                    let (n, i, j, mask) = entry::difference(a, b, dst);
                    stop = (i, j, mask);
                    n
                })
            }
            crate::kernels::array_tails::difference_tail::<8>(a, b, stop, out, scalar::difference);
        }
    };
}

pub(super) use block_tier;
