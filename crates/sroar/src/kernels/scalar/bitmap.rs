//! The scalar tier of the kernels over bitmaps of 1024 words: portable Rust, the
//! reference every SIMD tier is tested against, and the fallback of short inputs.

/// Words in a bitmap.
pub const WORDS: usize = 1024;

/// A binary word-wise operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BitOp {
    /// `a & b`
    And,
    /// `a | b`
    Or,
    /// `a ^ b`
    Xor,
    /// `a & !b`
    AndNot,
}

impl BitOp {
    /// All operations.
    #[cfg(feature = "internals")]
    pub const ALL: [BitOp; 4] = [BitOp::And, BitOp::Or, BitOp::Xor, BitOp::AndNot];

    /// Applies the operation to one pair of words.
    #[cfg(feature = "internals")]
    #[inline(always)]
    pub fn apply(self, a: u64, b: u64) -> u64 {
        match self {
            BitOp::And => a & b,
            BitOp::Or => a | b,
            BitOp::Xor => a ^ b,
            BitOp::AndNot => a & !b,
        }
    }
}

/// Views a serialized bitmap as a fixed-size array; panics when it does
/// not hold exactly [`WORDS`] words.
#[inline(always)]
pub fn words(b: &[[u8; 8]]) -> &[[u8; 8]; WORDS] {
    match b.try_into() {
        Ok(w) => w,
        Err(_) => panic!("bitmap must have {WORDS} words, got {}", b.len()),
    }
}

#[inline(always)]
fn op_into_with(
    a: &[[u8; 8]; WORDS],
    b: &[[u8; 8]; WORDS],
    out: &mut [u64; WORDS],
    f: impl Fn(u64, u64) -> u64,
) -> u32 {
    let mut n = 0;
    for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
        let w = f(u64::from_le_bytes(*x), u64::from_le_bytes(*y));
        *o = w;
        n += w.count_ones();
    }
    n
}

#[inline(always)]
fn op_count_with(
    a: &[[u8; 8]; WORDS],
    b: &[[u8; 8]; WORDS],
    f: impl Fn(u64, u64) -> u64,
) -> u32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| f(u64::from_le_bytes(*x), u64::from_le_bytes(*y)).count_ones())
        .sum()
}

/// `out = a op b`; returns the cardinality.
pub fn op_into(op: BitOp, a: &[[u8; 8]], b: &[[u8; 8]], out: &mut [u64; WORDS]) -> u32 {
    let (a, b) = (words(a), words(b));
    match op {
        BitOp::And => op_into_with(a, b, out, |x, y| x & y),
        BitOp::Or => op_into_with(a, b, out, |x, y| x | y),
        BitOp::Xor => op_into_with(a, b, out, |x, y| x ^ y),
        BitOp::AndNot => op_into_with(a, b, out, |x, y| x & !y),
    }
}

/// Cardinality of `a op b`.
pub fn op_count(op: BitOp, a: &[[u8; 8]], b: &[[u8; 8]]) -> u32 {
    let (a, b) = (words(a), words(b));
    match op {
        BitOp::And => op_count_with(a, b, |x, y| x & y),
        BitOp::Or => op_count_with(a, b, |x, y| x | y),
        BitOp::Xor => op_count_with(a, b, |x, y| x ^ y),
        BitOp::AndNot => op_count_with(a, b, |x, y| x & !y),
    }
}

/// Whether `a & b` is non-zero.
pub fn intersects(a: &[[u8; 8]], b: &[[u8; 8]]) -> bool {
    let (a, b) = (words(a), words(b));
    a.chunks_exact(16).zip(b.chunks_exact(16)).any(|(x, y)| {
        x.iter().zip(y).fold(0u64, |acc, (x, y)| {
            acc | (u64::from_le_bytes(*x) & u64::from_le_bytes(*y))
        }) != 0
    })
}

/// `acc |= b`.
pub fn or_assign(acc: &mut [u64; WORDS], b: &[[u8; 8]]) -> u32 {
    let mut card = 0;
    for (o, x) in acc.iter_mut().zip(words(b)) {
        *o |= u64::from_le_bytes(*x);
        card += o.count_ones();
    }
    card
}

/// Number of set bits.
pub fn popcount(words: &[u64; WORDS]) -> u32 {
    words.iter().map(|w| w.count_ones()).sum()
}

/// Words between two checks of a run count against its cap.
pub const CAP_BLOCK: usize = 128;

/// Number of maximal runs of set bits, counted until at least `cap` (checked
/// every [`CAP_BLOCK`] words).
pub fn count_runs(words: &[u64; WORDS], cap: u32) -> u32 {
    let mut carry = 0u64;
    let mut n = 0;
    for block in words.chunks_exact(CAP_BLOCK) {
        for &w in block {
            n += (w & !((w << 1) | carry)).count_ones();
            carry = w >> 63;
        }
        if n >= cap {
            break;
        }
    }
    n
}

/// `(number of set bits, number of maximal runs counted until at least
/// `cap`)`: past the cap only the set bits are counted.
pub fn card_and_runs(b: &[[u8; 8]], cap: u32) -> (u32, u32) {
    let b = words(b);
    let mut carry = 0u64;
    let (mut card, mut runs) = (0, 0);
    let mut blocks = b.chunks_exact(CAP_BLOCK);
    for block in blocks.by_ref() {
        for x in block {
            let w = u64::from_le_bytes(*x);
            card += w.count_ones();
            runs += (w & !((w << 1) | carry)).count_ones();
            carry = w >> 63;
        }
        if runs >= cap {
            break;
        }
    }
    card += blocks
        .flatten()
        .map(|x| u64::from_le_bytes(*x).count_ones())
        .sum::<u32>();
    (card, runs)
}

/// Appends the set bits to `out`.
pub fn to_array(words: &[u64; WORDS], out: &mut Vec<u16>) {
    to_array_counted(words, popcount(words) as usize, out)
}

/// Values [`to_array_counted`] writes for every word, whatever it holds.
pub const FIRST_BITS: usize = 4;

/// [`to_array`] of a bitmap of `bits` set bits.
///
/// Every word writes its first [`FIRST_BITS`] values without looking (a
/// `tzcnt` of the bits left, past the last one a value the next word
/// overwrites), and only a word of more values loops: the loop's exit, taken at
/// a varying count on every word, mispredicted on sparse bitmaps (edges of the
/// run-kind results of census1881_srt's union spent 25% there).
///
/// # Panics
/// If `bits` is not the bitmap's popcount.
pub fn to_array_counted(words: &[u64; WORDS], bits: usize, out: &mut Vec<u16>) {
    to_array_counted_inline::<FIRST_BITS>(words, bits, out)
}

/// [`to_array_counted`] writing `FIRST` values of every word without looking,
/// inlined into the x86 tiers' `target_feature` functions: with POPCNT and
/// BMI1 each word's count is one instruction, where the baseline build counts
/// with a dozen shifts and masks.
#[inline(always)]
pub fn to_array_counted_inline<const FIRST: usize>(
    words: &[u64; WORDS],
    bits: usize,
    out: &mut Vec<u16>,
) {
    let start = out.len();
    out.resize(start + bits + FIRST, 0);
    let slots = &mut out[start..];
    let mut pos = 0;
    for (g, group) in words.chunks_exact(8).enumerate() {
        // Empty groups of eight words are skipped with one test: the sparsest
        // bitmaps would otherwise pay four writes for each of their empty words.
        if group.iter().fold(0, |a, &w| a | w) == 0 {
            continue;
        }
        for (i, &w) in group.iter().enumerate() {
            let base = ((g * 8 + i) << 6) as u16;
            let n = w.count_ones() as usize;
            let mut w = w;
            for slot in &mut slots[pos..pos + FIRST] {
                *slot = base.wrapping_add(w.trailing_zeros() as u16);
                w &= w.wrapping_sub(1);
            }
            let mut k = pos + FIRST;
            while w != 0 {
                slots[k] = base + w.trailing_zeros() as u16;
                w &= w - 1;
                k += 1;
            }
            pos += n;
        }
    }
    assert_eq!(pos, bits, "bits is not the popcount");
    out.truncate(start + bits);
}

/// The edge bitmap of [`super::edges`]: bit `k` set where membership
/// changes between `k - 1` and `k`. Built in place of its result (no
/// zeroing first) and free of carried state, so it vectorizes.
pub fn edge_words(words: &[u64; WORDS]) -> [u64; WORDS] {
    core::array::from_fn(|i| {
        let below = if i == 0 { 0 } else { words[i - 1] >> 63 };
        words[i] ^ ((words[i] << 1) | below)
    })
}

/// Calls `f(word, mask)` for every word touched by `start..=end`.
#[inline(always)]
fn for_range(words: &mut [u64; WORDS], start: u32, end: u32, mut f: impl FnMut(&mut u64, u64)) {
    assert!(start <= end && end < 65536, "bad range {start}..={end}");
    let (ws, we) = ((start >> 6) as usize, (end >> 6) as usize);
    let first = !0u64 << (start & 63);
    let last = !0u64 >> (63 - (end & 63));
    if ws == we {
        f(&mut words[ws], first & last);
    } else {
        f(&mut words[ws], first);
        for w in &mut words[ws + 1..we] {
            f(w, !0);
        }
        f(&mut words[we], last);
    }
}

/// Sets the bits `start..=end`.
#[inline]
pub fn set_range(words: &mut [u64; WORDS], start: u32, end: u32) {
    for_range(words, start, end, |w, m| *w |= m)
}

/// Clears the bits `start..=end`.
#[inline]
pub fn clear_range(words: &mut [u64; WORDS], start: u32, end: u32) {
    for_range(words, start, end, |w, m| *w &= !m)
}

/// Flips the bits `start..=end`.
#[inline]
pub fn flip_range(words: &mut [u64; WORDS], start: u32, end: u32) {
    for_range(words, start, end, |w, m| *w ^= m)
}

/// Number of set bits in `start..=end`.
#[cfg(feature = "internals")]
pub fn range_count(words: &[u64; WORDS], start: u32, end: u32) -> u32 {
    assert!(start <= end && end < 65536, "bad range {start}..={end}");
    let (ws, we) = ((start >> 6) as usize, (end >> 6) as usize);
    let first = !0u64 << (start & 63);
    let last = !0u64 >> (63 - (end & 63));
    if ws == we {
        return (words[ws] & first & last).count_ones();
    }
    (words[ws] & first).count_ones()
        + words[ws + 1..we]
            .iter()
            .map(|w| w.count_ones())
            .sum::<u32>()
        + (words[we] & last).count_ones()
}
