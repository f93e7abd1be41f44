//! Kernels on owned data in memory, for the accumulators: merging into a growable
//! sorted array in place (no scratch buffer), and walks over the set bits and the
//! runs of in-memory words or sorted lows. Scalar only: the inputs are small
//! scratch containers, and each step depends on the one before.

use allocator_api2::alloc::Allocator;
use allocator_api2::vec::Vec;

use super::scalar::array::should_gallop;
use super::scalar::bitmap::WORDS;

#[inline]
fn low(e: [u8; 2]) -> u16 {
    u16::from_le_bytes(e)
}

/// `l ∪= x` (when `keep_common`) or `l ⊕= x`, in place. `x` yields exactly `m`
/// strictly descending values. The merge runs from the back of `l` grown by `m`,
/// so it needs no scratch buffer.
pub fn merge_into<A: Allocator>(
    l: &mut Vec<[u8; 2], A>,
    x: impl Iterator<Item = u16>,
    m: usize,
    keep_common: bool,
) {
    let n = l.len();
    l.resize(n + m, [0; 2]);
    // `l[..i]` is still unread; the result is written downwards below `k`. The
    // values of `x` not yet written are at least `k - i`, so `k > i` while any is
    // left and no unread value is overwritten.
    let (mut i, mut k) = (n, n + m);
    for b in x {
        while i > 0 && low(l[i - 1]) > b {
            k -= 1;
            i -= 1;
            l[k] = l[i];
        }
        if i > 0 && low(l[i - 1]) == b {
            i -= 1;
            if keep_common {
                k -= 1;
                l[k] = b.to_le_bytes();
            }
        } else {
            k -= 1;
            l[k] = b.to_le_bytes();
        }
    }
    // What is left of `l` lies below every value of `x`.
    let start = k - i;
    l.copy_within(0..i, start);
    l.copy_within(start..n + m, 0);
    l.truncate(n + m - start);
}

/// `l ∩= x`, in place, galloping through the longer side.
pub fn intersect_into<A: Allocator>(l: &mut Vec<[u8; 2], A>, x: &[[u8; 2]]) {
    let mut k = 0;
    if should_gallop(x.len(), l.len()) {
        let mut i = 0;
        for &e in x {
            i += l[i..].partition_point(|&f| low(f) < low(e));
            if i == l.len() {
                break;
            }
            if l[i] == e {
                l[k] = e;
                k += 1;
                i += 1;
            }
        }
    } else {
        let gallop = should_gallop(l.len(), x.len());
        let mut j = 0;
        for i in 0..l.len() {
            let v = low(l[i]);
            if gallop {
                j += x[j..].partition_point(|&f| low(f) < v);
            } else {
                while j < x.len() && low(x[j]) < v {
                    j += 1;
                }
            }
            if j == x.len() {
                break;
            }
            if low(x[j]) == v {
                l[k] = l[i];
                k += 1;
                j += 1;
            }
        }
    }
    l.truncate(k);
}

/// Calls `f` with each set bit of `words`, in increasing order.
pub fn for_each_bit(words: &[u64; WORDS], mut f: impl FnMut(u16)) {
    for (i, &w) in words.iter().enumerate() {
        let mut x = w;
        while x != 0 {
            f((i as u32 * 64 + x.trailing_zeros()) as u16);
            x &= x - 1;
        }
    }
}

/// Calls `f(start, end)` with each maximal run of set bits, in increasing order.
pub fn for_each_word_run(words: &[u64; WORDS], mut f: impl FnMut(u16, u16)) {
    let (mut carry, mut start) = (0u64, 0u32);
    for (i, &w) in words.iter().enumerate() {
        // A set bit of `t` marks where a run starts (bit set in `w`) or where
        // the one before ended (bit clear).
        let mut t = w ^ (w << 1 | carry);
        carry = w >> 63;
        while t != 0 {
            let b = t.trailing_zeros();
            let p = i as u32 * 64 + b;
            if w >> b & 1 != 0 {
                start = p;
            } else {
                f(start as u16, (p - 1) as u16);
            }
            t &= t - 1;
        }
    }
    if carry != 0 {
        f(start as u16, 0xFFFF);
    }
}

/// Calls `f(start, end)` with each maximal run of sorted lows.
pub fn for_each_array_run(l: &[[u8; 2]], mut f: impl FnMut(u16, u16)) {
    let mut it = l.iter().map(|&e| low(e));
    let Some(first) = it.next() else {
        return;
    };
    let (mut s, mut e) = (first, first);
    for v in it {
        if u32::from(v) == u32::from(e) + 1 {
            e = v;
        } else {
            f(s, e);
            (s, e) = (v, v);
        }
    }
    f(s, e);
}
