//! The scalar tier of the kernels over sorted `u16` arrays: portable Rust, the
//! reference every SIMD tier is tested against, and the fallback of short inputs.

/// Size ratio above which the kernels gallop instead of merging.
pub const GALLOP_RATIO: usize = 32;

#[inline(always)]
fn get(v: &[[u8; 2]], i: usize) -> u16 {
    u16::from_le_bytes(v[i])
}

/// Whether `large` is long enough compared to `small` to gallop.
#[inline]
pub fn should_gallop(small: usize, large: usize) -> bool {
    large / GALLOP_RATIO > small
}

/// Index of the first element `>= x` in `v[from..]` (returned as an index
/// into `v`), by exponential then binary search from `from`.
#[inline]
pub fn gallop(v: &[[u8; 2]], from: usize, x: u16) -> usize {
    let n = v.len();
    if from >= n || get(v, from) >= x {
        return from;
    }
    // Invariant: v[lo] < x.
    let mut lo = from;
    let mut step = 1usize;
    let hi = loop {
        let probe = lo + step;
        if probe >= n {
            break n;
        }
        if get(v, probe) >= x {
            break probe;
        }
        lo = probe;
        step <<= 1;
    };
    let rest = &v[lo + 1..hi];
    lo + 1 + rest.partition_point(|e| u16::from_le_bytes(*e) < x)
}

/// Index of the first element `>= x` in `v[from..]`, for a walk that copies
/// what it passes: 32 values are passed with one compare of the last, and the
/// values below `x` in the last 32 are counted without a branch. Galloping
/// chained about 15 dependent loads and compares per value, which cost more
/// than copying the stretch (9 values on average into 1,361, 664 of
/// weather_sept_85's 1,558 array unions).
#[inline]
fn skip_to(v: &[[u8; 2]], from: usize, x: u16) -> usize {
    const STEP: usize = 32;
    let below = |s: &[[u8; 2]]| s.iter().map(|e| usize::from(u16::from_le_bytes(*e) < x)).sum::<usize>();
    let mut k = from;
    while let Some(block) = v.get(k..k + STEP) {
        let block: &[[u8; 2]; STEP] = block.try_into().expect("32 values");
        if get(block, STEP - 1) >= x {
            return k + below(block);
        }
        k += STEP;
    }
    k + below(&v[k..])
}

/// Index of the first element `>= x` in `v[lo..hi]`, by a branchy binary search,
/// for a value or two against a long array. A predicted branch lets the loads of
/// later steps start before this one's return, which pays on arrays out of L1
/// (census1881's intersection counts meet one-value arrays against arrays of 300
/// to 2,000: 8–12% faster), where a branchless search waits for each load in turn.
/// The branchless search of [`gallop`] stays faster for the many values of a
/// gallop over an array in cache (weather_sept_85's were 5% slower with this one).
#[inline]
fn search(v: &[[u8; 2]], mut lo: usize, mut hi: usize, x: u16) -> usize {
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if get(v, mid) < x {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// Calls `f` on each common value in increasing order until it returns
/// `false`; returns `false` iff stopped early.
#[inline]
pub fn for_each_common(a: &[[u8; 2]], b: &[[u8; 2]], mut f: impl FnMut(u16) -> bool) -> bool {
    let (small, large) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if small.is_empty() {
        return true;
    }
    if should_gallop(small.len(), large.len()) {
        let mut j = 0;
        for e in small {
            let x = u16::from_le_bytes(*e);
            // For a value or two, the gallop's doubling steps only add loads to
            // one search over what is left.
            j = if small.len() <= 2 {
                search(large, j, large.len(), x)
            } else {
                gallop(large, j, x)
            };
            if j == large.len() {
                break;
            }
            if get(large, j) == x {
                if !f(x) {
                    return false;
                }
                j += 1;
            }
        }
        return true;
    }
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let x = get(a, i);
        let y = get(b, j);
        if x < y {
            i += 1;
        } else if y < x {
            j += 1;
        } else {
            if !f(x) {
                return false;
            }
            i += 1;
            j += 1;
        }
    }
    true
}

/// Which values a branchless merge keeps.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keep {
    /// Common values.
    Both,
    /// Every value once.
    Any,
    /// Values in exactly one input.
    One,
    /// Values only in `a`.
    OnlyA,
}

/// Branchless merge of `a` and `b` (the loop advances with flags, not
/// branches, so unpredictable inputs cost no mispredictions). Appends the
/// kept values to `out`; returns where it stopped.
#[inline(always)]
fn merge_branchless(
    a: &[[u8; 2]],
    b: &[[u8; 2]],
    out: &mut Vec<u16>,
    keep: Keep,
) -> (usize, usize) {
    let start = out.len();
    let room = match keep {
        Keep::Both => a.len().min(b.len()),
        Keep::OnlyA => a.len(),
        Keep::Any | Keep::One => a.len() + b.len(),
    };
    out.resize(start + room, 0);
    let dst = &mut out[start..];
    let (mut i, mut j, mut k) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        let x = get(a, i);
        let y = get(b, j);
        let (lt, gt) = (x < y, x > y);
        let (v, emit) = match keep {
            Keep::Both => (x, !lt && !gt),
            Keep::Any => (x.min(y), true),
            Keep::One => (x.min(y), lt || gt),
            Keep::OnlyA => (x, lt),
        };
        dst[k] = v;
        k += emit as usize;
        i += !gt as usize;
        j += !lt as usize;
    }
    out.truncate(start + k);
    (i, j)
}

/// Up to this many pairs, two arrays are intersected by comparing every value of
/// one with every value of the other: no step waits on the one before, where a
/// merge's next loads wait on its last comparison (small sets hold a few values per
/// container, so their intersections are mostly of such arrays).
const ALL_PAIRS_UP_TO: usize = 64;

/// Whether `a` and `b` are intersected by comparing every pair.
#[inline(always)]
pub(crate) fn all_pairs(a: &[[u8; 2]], b: &[[u8; 2]]) -> bool {
    a.len() * b.len() <= ALL_PAIRS_UP_TO
}

/// The shorter of two arrays to be intersected by [`all_pairs`] (at most 8
/// values, since their lengths' product is at most 64) as 8 lanes, and the other,
/// whose values are each compared with all 8 lanes at once. Empty when either is.
#[inline(always)]
fn lanes_and_rest<'a>(a: &'a [[u8; 2]], b: &'a [[u8; 2]]) -> ([u16; 8], &'a [[u8; 2]]) {
    let (short, rest) = if b.len() <= a.len() { (b, a) } else { (a, b) };
    let Some(last) = short.last() else {
        return ([0; 8], &[]);
    };
    // The lanes past the short array's end repeat its last value, which finds
    // nothing the array does not hold.
    let mut lanes = [u16::from_le_bytes(*last); 8];
    for (lane, e) in lanes.iter_mut().zip(short) {
        *lane = u16::from_le_bytes(*e);
    }
    (lanes, rest)
}

/// Whether `x` is one of the 8 `lanes`: a fixed-width compare with no early
/// exit, which compiles to one vector compare.
#[inline(always)]
fn in_lanes(lanes: &[u16; 8], x: u16) -> bool {
    lanes.iter().fold(false, |found, &e| found | (e == x))
}

/// `a ∩ b`, appended to `out`.
pub fn intersect(a: &[[u8; 2]], b: &[[u8; 2]], out: &mut Vec<u16>) {
    if all_pairs(a, b) {
        // In the longer array's order, so ascending.
        let (lanes, rest) = lanes_and_rest(a, b);
        out.extend(rest.iter().map(|e| u16::from_le_bytes(*e)).filter(|&x| in_lanes(&lanes, x)));
        return;
    }
    if should_gallop(a.len().min(b.len()), a.len().max(b.len())) {
        for_each_common(a, b, |x| {
            out.push(x);
            true
        });
    } else {
        merge_branchless(a, b, out, Keep::Both);
    }
}

/// `|a ∩ b|`.
pub fn intersect_count(a: &[[u8; 2]], b: &[[u8; 2]]) -> u32 {
    if all_pairs(a, b) {
        let (lanes, rest) = lanes_and_rest(a, b);
        return rest.iter().map(|e| u32::from(in_lanes(&lanes, u16::from_le_bytes(*e)))).sum();
    }
    let mut n = 0u32;
    if should_gallop(a.len().min(b.len()), a.len().max(b.len())) {
        for_each_common(a, b, |_| {
            n += 1;
            true
        });
        return n;
    }
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let x = get(a, i);
        let y = get(b, j);
        n += (x == y) as u32;
        i += (x <= y) as usize;
        j += (y <= x) as usize;
    }
    n
}

/// Whether `a ∩ b` is non-empty.
pub fn intersects(a: &[[u8; 2]], b: &[[u8; 2]]) -> bool {
    if all_pairs(a, b) {
        let (lanes, rest) = lanes_and_rest(a, b);
        return rest.iter().fold(false, |found, e| found | in_lanes(&lanes, u16::from_le_bytes(*e)));
    }
    !for_each_common(a, b, |_| false)
}

/// Appends the values of `v` to `out`.
#[inline]
pub fn extend(out: &mut Vec<u16>, v: &[[u8; 2]]) {
    out.extend(v.iter().map(|e| u16::from_le_bytes(*e)));
}

/// Union (`KEEP_COMMON`) or symmetric difference (`!KEEP_COMMON`).
fn merge<const KEEP_COMMON: bool>(a: &[[u8; 2]], b: &[[u8; 2]], out: &mut Vec<u16>) {
    let (small, large) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if should_gallop(small.len(), large.len()) {
        out.reserve(a.len() + b.len());
        let mut j = 0;
        for e in small {
            let x = u16::from_le_bytes(*e);
            let k = skip_to(large, j, x);
            extend(out, &large[j..k]);
            j = k;
            if j < large.len() && get(large, j) == x {
                j += 1;
                if KEEP_COMMON {
                    out.push(x);
                }
            } else {
                out.push(x);
            }
        }
        extend(out, &large[j..]);
        return;
    }
    let keep = if KEEP_COMMON { Keep::Any } else { Keep::One };
    let (i, j) = merge_branchless(a, b, out, keep);
    extend(out, &a[i..]);
    extend(out, &b[j..]);
}

/// `a ∪ b`, appended to `out`.
pub fn union(a: &[[u8; 2]], b: &[[u8; 2]], out: &mut Vec<u16>) {
    merge::<true>(a, b, out)
}

/// `a ⊕ b`, appended to `out`.
pub fn xor(a: &[[u8; 2]], b: &[[u8; 2]], out: &mut Vec<u16>) {
    merge::<false>(a, b, out)
}

/// `a \ b`, appended to `out`.
pub fn difference(a: &[[u8; 2]], b: &[[u8; 2]], out: &mut Vec<u16>) {
    if b.is_empty() {
        extend(out, a);
        return;
    }
    if should_gallop(a.len(), b.len()) {
        // Few values to remove from: look each one up in `b`.
        let mut j = 0;
        for e in a {
            let x = u16::from_le_bytes(*e);
            j = gallop(b, j, x);
            if j >= b.len() || get(b, j) != x {
                out.push(x);
            }
        }
        return;
    }
    if should_gallop(b.len(), a.len()) {
        // Few values to remove: copy the stretches of `a` between them.
        out.reserve(a.len());
        let mut i = 0;
        for e in b {
            let y = u16::from_le_bytes(*e);
            let k = skip_to(a, i, y);
            extend(out, &a[i..k]);
            i = k;
            if i < a.len() && get(a, i) == y {
                i += 1;
            }
        }
        extend(out, &a[i..]);
        return;
    }
    let (i, _) = merge_branchless(a, b, out, Keep::OnlyA);
    extend(out, &a[i..]);
}

/// Writes the maximal runs of the strictly increasing, non-empty `a` to
/// `dst` as `(start, length - 1)`; returns how many. Branch-free: every value
/// rewrites the current run, and a gap moves to the next one, where a branch
/// per value mispredicted at every irregular gap (the loop was 4% of
/// census-income's unions).
///
/// # Panics
/// If `dst` has fewer slots than runs.
pub fn runs_into(a: &[[u8; 2]], dst: &mut [[u8; 4]]) -> usize {
    runs_into_with(a.len(), |i| u16::from_le_bytes(a[i]), dst)
}

/// [`runs_into`] of the `n` values `value(0)`, `value(1)`, …
#[inline(always)]
pub fn runs_into_with(n: usize, value: impl Fn(usize) -> u16, dst: &mut [[u8; 4]]) -> usize {
    let first = value(0);
    let (mut j, mut start, mut prev) = (0, first, first);
    for i in 1..n {
        let v = value(i);
        let gap = v != prev.wrapping_add(1);
        let (s, l) = (start.to_le_bytes(), (prev - start).to_le_bytes());
        dst[j] = [s[0], s[1], l[0], l[1]];
        j += usize::from(gap);
        start = if gap { v } else { start };
        prev = v;
    }
    let (s, l) = (start.to_le_bytes(), (prev - start).to_le_bytes());
    dst[j] = [s[0], s[1], l[0], l[1]];
    j + 1
}

/// `Some(runs)` when `a` is strictly increasing, else `None`.
pub fn ascending_runs(a: &[[u8; 2]]) -> Option<u32> {
    if a.is_empty() {
        return Some(0);
    }
    // No early exit: a branch-free loop vectorizes (SSE2 in the baseline
    // build), and only corrupt input would stop early.
    let (mut ascending, mut breaks) = (true, 0u32);
    for w in a.windows(2) {
        let (x, y) = (u16::from_le_bytes(w[0]), u16::from_le_bytes(w[1]));
        ascending &= x < y;
        // Wrapping: only a slice too long to be ascending can overflow.
        breaks = breaks.wrapping_add(u32::from(y != x.wrapping_add(1)));
    }
    ascending.then_some(breaks + 1)
}
