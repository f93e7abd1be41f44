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
/// so it needs no scratch buffer. Past a few values, the values of `l` above the
/// next of `x` move up as one block (a `memmove`): an aggregate merges a few
/// values per row into an array of thousands, and moving those one at a time cost
/// as much as the rest of the union.
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
        move_above(l, &mut i, &mut k, b);
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
    finish_merge(l, i, k, n + m);
}

/// `l ∪= runs`, in place. `runs` yields inclusive `(start, end)` bounds of
/// disjoint runs in descending order, `m` values in all. The values of `l` a run
/// covers are dropped, those between runs move as blocks, and each run is written
/// whole: unions of sorted data meet long runs.
pub fn union_runs_into<A: Allocator>(
    l: &mut Vec<[u8; 2], A>,
    runs: impl Iterator<Item = (u16, u16)>,
    m: usize,
) {
    let n = l.len();
    l.resize(n + m, [0; 2]);
    // As in `merge_into`: `k - i` stays at least the run values not yet written.
    let (mut i, mut k) = (n, n + m);
    for (start, end) in runs {
        move_above(l, &mut i, &mut k, end);
        i = match start.checked_sub(1) {
            Some(below) => start_above(&l[..i], below),
            None => 0,
        };
        let len = usize::from(end - start) + 1;
        // A half-open range of u32, which vectorizes where `start..=end` does not.
        for (d, v) in l[k - len..k].iter_mut().zip(u32::from(start)..) {
            *d = (v as u16).to_le_bytes();
        }
        k -= len;
    }
    finish_merge(l, i, k, n + m);
}

/// Moves the unread values of `l[..i]` above `b` to just below `k`: one at a time
/// while they are few (inputs of similar density), past that as one block.
#[inline]
fn move_above<A: Allocator>(l: &mut Vec<[u8; 2], A>, i: &mut usize, k: &mut usize, b: u16) {
    for _ in 0..8 {
        if *i == 0 || low(l[*i - 1]) <= b {
            return;
        }
        *k -= 1;
        *i -= 1;
        l[*k] = l[*i];
    }
    let p = start_above(&l[..*i], b);
    l.copy_within(p..*i, *k - (*i - p));
    *k -= *i - p;
    *i = p;
}

/// Ends a merge from the back: what is left unread of `l[..i]` lies below every
/// value written at `l[k..len]`; closes the gap between them.
fn finish_merge<A: Allocator>(l: &mut Vec<[u8; 2], A>, i: usize, k: usize, len: usize) {
    let start = k - i;
    l.copy_within(0..i, start);
    l.copy_within(start..len, 0);
    l.truncate(len - start);
}

/// Where the values of the sorted `l` above `b` start, galloping down from the end:
/// O(1) when the next value of `l` is already at or below `b` (inputs of similar
/// density), O(log gap) when a long block lies above it.
fn start_above(l: &[[u8; 2]], b: u16) -> usize {
    let (mut hi, mut step) = (l.len(), 1);
    // `l[hi..]` is above `b`.
    while hi > 0 {
        let probe = hi.saturating_sub(step);
        if low(l[probe]) <= b {
            return probe + 1 + l[probe + 1..hi].partition_point(|&e| low(e) <= b);
        }
        hi = probe;
        step *= 2;
    }
    0
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

/// Calls `f(start, end)` with each maximal run of sorted lows. A run is found by
/// galloping: in distinct sorted values, `l[i..=j]` is a run exactly when
/// `l[j] - l[i] = j - i`, so a run of `n` values costs O(log n) reads. An array
/// is written as runs only when its runs are long.
pub fn for_each_array_run(l: &[[u8; 2]], mut f: impl FnMut(u16, u16)) {
    let mut i = 0;
    while i < l.len() {
        let s = low(l[i]);
        let in_run = |j: usize| usize::from(low(l[j]) - s) == j - i;
        // `l[i..=last]` is a run; `l[end]`, when there, is not in it.
        let (mut last, mut step) = (i, 1);
        while last + step < l.len() && in_run(last + step) {
            last += step;
            step *= 2;
        }
        let mut end = (last + step).min(l.len());
        while end - last > 1 {
            let mid = last + (end - last) / 2;
            if in_run(mid) {
                last = mid;
            } else {
                end = mid;
            }
        }
        f(s, low(l[last]));
        i = last + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::{for_each_array_run, low, merge_into, start_above, union_runs_into};
    use allocator_api2::vec::Vec as Lows;
    use std::collections::BTreeSet;

    fn lows(v: &[u16]) -> Lows<[u8; 2]> {
        let mut l = Lows::new();
        l.extend(v.iter().map(|x| x.to_le_bytes()));
        l
    }

    /// Against the set model, for both operations, over shapes that exercise the
    /// block moves: empty sides, one side wholly below or above the other, a few
    /// values into many, interleaved, equal, and the ends 0 and 65535.
    #[test]
    fn merge_into_matches_the_model() {
        let many: Vec<u16> = (0..4000u16).map(|v| v * 16 + 3).collect();
        let shapes: Vec<(Vec<u16>, Vec<u16>)> = vec![
            (vec![], vec![]),
            (vec![], vec![0, 5, 65535]),
            (vec![0, 5, 65535], vec![]),
            (vec![1, 2, 3], vec![100, 200]),
            (vec![100, 200], vec![1, 2, 3]),
            (many.clone(), vec![0, 3, 4, 30_000, 63_987, 65535]),
            (vec![0, 3, 4, 30_000, 63_987, 65535], many.clone()),
            (many.clone(), many.iter().map(|v| v + 1).collect()),
            (many.clone(), many.clone()),
            (many.clone(), many.iter().step_by(7).copied().collect()),
            ((0..3000).collect(), (2990..4000).collect()),
        ];
        for (a, b) in shapes {
            for keep_common in [true, false] {
                let mut l = lows(&a);
                merge_into(&mut l, b.iter().rev().copied(), b.len(), keep_common);
                let (sa, sb): (BTreeSet<u16>, BTreeSet<u16>) =
                    (a.iter().copied().collect(), b.iter().copied().collect());
                let want: Vec<u16> = if keep_common {
                    sa.union(&sb).copied().collect()
                } else {
                    sa.symmetric_difference(&sb).copied().collect()
                };
                let got: Vec<u16> = l.iter().map(|&e| low(e)).collect();
                assert_eq!(got, want, "{} into {}, keep_common {keep_common}", b.len(), a.len());
            }
        }
    }

    /// Runs into arrays against the set model: runs at 0 and 65535, runs covering
    /// many values of `l` or none, one value long, and the whole range.
    #[test]
    fn union_runs_into_matches_the_model() {
        let many: Vec<u16> = (0..4000u16).map(|v| v * 16 + 3).collect();
        let arrays: Vec<Vec<u16>> = vec![
            vec![],
            vec![0],
            vec![65535],
            many.clone(),
            (100..200).collect(),
            vec![0, 1, 2, 9, 10, 11, 500, 65534, 65535],
        ];
        let runs: Vec<Vec<(u16, u16)>> = vec![
            vec![],
            vec![(0, 0)],
            vec![(65535, 65535)],
            vec![(0, 65535)],
            vec![(0, 10), (150, 150), (160, 170), (60_000, 65535)],
            vec![(3, 3), (19, 40), (1000, 1000), (64_003, 64_100)],
            (0..300u16).map(|r| (r * 200 + 5, r * 200 + 9)).collect(),
        ];
        for a in &arrays {
            for r in &runs {
                let m: usize = r.iter().map(|&(s, e)| usize::from(e - s) + 1).sum();
                let mut l = lows(a);
                union_runs_into(&mut l, r.iter().rev().copied(), m);
                let mut want: BTreeSet<u16> = a.iter().copied().collect();
                for &(s, e) in r {
                    want.extend(s..=e);
                }
                let got: Vec<u16> = l.iter().map(|&e| low(e)).collect();
                assert_eq!(got, want.into_iter().collect::<Vec<_>>(), "{r:?} into {} values", a.len());
            }
        }
    }

    #[test]
    fn for_each_array_run_finds_every_maximal_run() {
        let shapes: Vec<Vec<u16>> = vec![
            vec![],
            vec![0],
            vec![65535],
            (0..4096).collect(),
            (61_440..=65535).collect(),
            (0..4000u16).map(|v| v * 2).collect(),
            [0u16, 1, 2, 3, 5, 6, 8, 100, 101, 102, 103, 104, 105, 106, 107, 108, 65534, 65535].to_vec(),
            (0..40u16).flat_map(|r| r * 1000..r * 1000 + r + 1).collect(),
        ];
        for v in shapes {
            let mut want = Vec::new();
            for &x in &v {
                match want.last_mut() {
                    Some((_, e)) if u32::from(*e) + 1 == u32::from(x) => *e = x,
                    _ => want.push((x, x)),
                }
            }
            let mut got = Vec::new();
            for_each_array_run(&lows(&v), |s, e| got.push((s, e)));
            assert_eq!(got, want, "{} values", v.len());
        }
    }

    #[test]
    fn start_above_gallops_to_the_boundary() {
        let l = lows(&(0..1000u16).map(|v| v * 2).collect::<Vec<_>>());
        for b in [0u16, 1, 2, 3, 997, 998, 1997, 1998, 1999, 65535] {
            let want = l.iter().filter(|&&e| low(e) <= b).count();
            assert_eq!(start_above(&l, b), want, "b = {b}");
        }
        assert_eq!(start_above(&[], 7), 0);
    }
}
