//! Scalar pieces shared by the SIMD array tiers (AVX2 and NEON): the lane
//! compaction table, the choice between blocks and galloping, and the scalar
//! ends of the union and xor merges.

use core::mem::MaybeUninit;

use super::scalar::array as scalar;

/// `COMPACT[m]`: byte-shuffle indices (`pshufb` on x86-64, `tbl` on aarch64)
/// moving the 16-bit lanes selected by the bits of `m` to the front; index
/// 0x80 zeroes the other bytes on both.
pub(super) static COMPACT: [[u8; 16]; 256] = build_compact();

const fn build_compact() -> [[u8; 16]; 256] {
    let mut t = [[0x80u8; 16]; 256];
    let mut m = 0;
    while m < 256 {
        let (mut lane, mut k) = (0, 0);
        while lane < 8 {
            if m & (1 << lane) != 0 {
                t[m][2 * k] = 2 * lane as u8;
                t[m][2 * k + 1] = 2 * lane as u8 + 1;
                k += 1;
            }
            lane += 1;
        }
        m += 1;
    }
    t
}

pub(super) fn use_blocks(a: &[[u8; 2]], b: &[[u8; 2]]) -> bool {
    let (s, l) = (a.len().min(b.len()), a.len().max(b.len()));
    s >= 8 && !scalar::should_gallop(s, l)
}

/// Scalar end of the union: merges the sorted (possibly duplicated) `x` with
/// `y` and `z`, dropping duplicates and values equal to `prev`.
pub(super) fn merge3(
    x: &[u16],
    y: &[[u8; 2]],
    z: &[[u8; 2]],
    mut prev: u32,
    dst: &mut [MaybeUninit<u16>],
    mut pos: usize,
) -> usize {
    const NONE: u32 = u32::MAX;
    let (mut i, mut j, mut k) = (0, 0, 0);
    while i < x.len() || (j < y.len() && k < z.len()) {
        let vx = x.get(i).map_or(NONE, |&v| v as u32);
        let vy = y.get(j).map_or(NONE, |e| u16::from_le_bytes(*e) as u32);
        let vz = z.get(k).map_or(NONE, |e| u16::from_le_bytes(*e) as u32);
        let m = vx.min(vy).min(vz);
        if vx == m {
            i += 1;
        } else if vy == m {
            j += 1;
        } else {
            k += 1;
        }
        if m != prev {
            dst[pos].write(m as u16);
            pos += 1;
            prev = m;
        }
    }
    let rest = if j < y.len() { &y[j..] } else { &z[k..] };
    let mut rest = rest.iter().map(|e| u16::from_le_bytes(*e));
    if let Some(first) = rest.next() {
        if first as u32 != prev {
            dst[pos].write(first);
            pos += 1;
        }
    }
    for v in rest {
        dst[pos].write(v);
        pos += 1;
    }
    pos
}

/// The last value of a sorted stream whose successor is not known yet.
pub(super) struct Last {
    pub(super) value: u16,
    pub(super) twice: bool,
}

impl Last {
    /// Continues the stream with `m` (>= the last value); writes the last
    /// value if it turned out to occur once.
    #[inline(always)]
    pub(super) fn push(&mut self, m: u16, dst: &mut [MaybeUninit<u16>], pos: &mut usize) {
        if m == self.value {
            self.twice = true;
        } else {
            if !self.twice {
                dst[*pos].write(self.value);
                *pos += 1;
            }
            self.value = m;
            self.twice = false;
        }
    }
}

/// Scalar end of the xor: the stream ended so far with `last`; it continues
/// with the merge of the sorted `x` (which may hold equal pairs) with `y` and
/// `z`. Writes the values that occur once.
pub(super) fn xor_tail(
    mut last: Last,
    x: &[u16],
    y: &[[u8; 2]],
    z: &[[u8; 2]],
    dst: &mut [MaybeUninit<u16>],
    mut pos: usize,
) -> usize {
    const NONE: u32 = u32::MAX;
    let (mut i, mut j, mut k) = (0, 0, 0);
    while i < x.len() || (j < y.len() && k < z.len()) {
        let vx = x.get(i).map_or(NONE, |&v| v as u32);
        let vy = y.get(j).map_or(NONE, |e| u16::from_le_bytes(*e) as u32);
        let vz = z.get(k).map_or(NONE, |e| u16::from_le_bytes(*e) as u32);
        let m = vx.min(vy).min(vz);
        if vx == m {
            i += 1;
        } else if vy == m {
            j += 1;
        } else {
            k += 1;
        }
        last.push(m as u16, dst, &mut pos);
    }
    let rest = if j < y.len() { &y[j..] } else { &z[k..] };
    if let Some((first, more)) = rest.split_first() {
        last.push(u16::from_le_bytes(*first), dst, &mut pos);
        if let Some((end, mid)) = more.split_last() {
            // What is left of one input: distinct values above `first`, so
            // they occur once, and `first` is settled.
            if !last.twice {
                dst[pos].write(last.value);
                pos += 1;
            }
            for e in mid {
                dst[pos].write(u16::from_le_bytes(*e));
                pos += 1;
            }
            last = Last {
                value: u16::from_le_bytes(*end),
                twice: false,
            };
        }
    }
    if !last.twice {
        dst[pos].write(last.value);
        pos += 1;
    }
    pos
}

/// The kernel that finishes a difference (a lower tier's; the same type as the
/// table's, written here so that this module does not import the table).
type RestFn = fn(&[[u8; 2]], &[[u8; 2]], &mut Vec<u16>);

/// End of a SIMD block difference of `a` and `b`: the blocks stopped at
/// `a[i..]`, `b[j..]`, with the lanes in `mask` of the `W`-block of `a`
/// at `i` already found in `b[..j]`. A non-zero `mask` means that block
/// was loaded and `b` ran out of blocks, so `b[j..]` is short. `rest`
/// does what is left after that block (a lower tier).
#[cfg_attr(
    not(any(target_arch = "x86_64", target_endian = "little")),
    allow(dead_code)
)]
pub(super) fn difference_tail<const W: usize>(
    a: &[[u8; 2]],
    b: &[[u8; 2]],
    (i, mut j, mask): (usize, usize, u32),
    out: &mut Vec<u16>,
    rest: RestFn,
) {
    if mask == 0 {
        return rest(&a[i..], &b[j..], out);
    }
    for (k, e) in a[i..i + W].iter().enumerate() {
        let x = u16::from_le_bytes(*e);
        while j < b.len() && u16::from_le_bytes(b[j]) < x {
            j += 1;
        }
        if mask >> k & 1 == 0 && (j == b.len() || u16::from_le_bytes(b[j]) != x) {
            out.push(x);
        }
    }
    rest(&a[i + W..], &b[j..], out)
}
