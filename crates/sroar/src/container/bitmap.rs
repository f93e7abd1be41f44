//! Bitmap containers: 1024 little-endian `u64` words, bit `b` of word `w` is low
//! `64 w + b`. Also the helpers over an owned scratch bitmap `[u64; 1024]`.

/// Number of words in a bitmap container.
pub const WORDS: usize = 1024;
/// Size of a bitmap payload in bytes.
pub const BITMAP_BYTES: usize = 8 * WORDS;

/// A borrowed bitmap container.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BitmapView<'a> {
    words: &'a [[u8; 8]; WORDS],
    card: u32,
}

impl<'a> BitmapView<'a> {
    /// A view over an 8192-byte payload; `None` for any other length.
    pub fn new(bytes: &'a [u8]) -> Option<Self> {
        let words: &[[u8; 8]; WORDS] = bytes.as_chunks::<8>().0.try_into().ok()?;
        if bytes.len() != BITMAP_BYTES {
            return None;
        }
        let card = words
            .iter()
            .map(|w| u64::from_le_bytes(*w).count_ones())
            .sum();
        Some(BitmapView { words, card })
    }

    /// A view whose cardinality is already known (from a validated directory).
    pub(crate) fn with_card(bytes: &'a [u8], card: u32) -> Self {
        let words = bytes.as_chunks::<8>().0[..WORDS]
            .try_into()
            .expect("bitmap payload has 1024 words");
        BitmapView { words, card }
    }

    /// The payload bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.words.as_flattened()
    }

    /// Word `i` (`i < 1024`).
    #[inline]
    pub fn word(&self, i: usize) -> u64 {
        u64::from_le_bytes(self.words[i])
    }

    /// Number of values.
    #[inline]
    pub fn len(&self) -> usize {
        self.card as usize
    }

    /// True when there are no values.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.card == 0
    }

    /// Whether `low` is present.
    #[inline]
    pub fn contains(&self, low: u16) -> bool {
        self.word(usize::from(low >> 6)) >> (low & 63) & 1 == 1
    }

    /// Number of values `<= low`.
    pub fn rank(&self, low: u16) -> usize {
        let w = usize::from(low >> 6);
        let below: u32 = (0..w).map(|i| self.word(i).count_ones()).sum();
        let mask = u64::MAX >> (63 - (low & 63));
        (below + (self.word(w) & mask).count_ones()) as usize
    }

    /// Number of values `< low`.
    pub fn rank_lt(&self, low: u16) -> usize {
        match low.checked_sub(1) {
            Some(l) => self.rank(l),
            None => 0,
        }
    }

    /// The `k`-th smallest value (0-based).
    pub fn select(&self, k: usize) -> Option<u16> {
        let mut k = u32::try_from(k).ok()?;
        for i in 0..WORDS {
            let w = self.word(i);
            let c = w.count_ones();
            if k < c {
                return Some((i * 64) as u16 + select_in_word(w, k) as u16);
            }
            k -= c;
        }
        None
    }

    /// Smallest value.
    pub fn min(&self) -> Option<u16> {
        (0..WORDS)
            .find(|&i| self.word(i) != 0)
            .map(|i| (i * 64) as u16 + self.word(i).trailing_zeros() as u16)
    }

    /// Largest value.
    pub fn max(&self) -> Option<u16> {
        (0..WORDS)
            .rev()
            .find(|&i| self.word(i) != 0)
            .map(|i| (i * 64) as u16 + 63 - self.word(i).leading_zeros() as u16)
    }

    /// Ascending, double-ended iterator over the values.
    pub fn iter(&self) -> BitmapIter<'a> {
        BitmapIter {
            words: self.words,
            front: 0,
            front_bits: self.word(0),
            back: WORDS - 1,
            back_bits: self.word(WORDS - 1),
            remaining: self.card as usize,
        }
    }

    /// Iterator over the values `>= low`.
    pub fn iter_from(&self, low: u16) -> BitmapIter<'a> {
        let front = usize::from(low >> 6);
        BitmapIter {
            words: self.words,
            front,
            front_bits: self.word(front) & (u64::MAX << (low & 63)),
            back: WORDS - 1,
            back_bits: self.word(WORDS - 1),
            remaining: self.len() - self.rank_lt(low),
        }
    }

    /// Number of maximal runs of consecutive values.
    pub fn count_runs(&self) -> u32 {
        let mut carry = 0;
        let mut runs = 0;
        for i in 0..WORDS {
            let w = self.word(i);
            runs += (w & !((w << 1) | carry)).count_ones();
            carry = w >> 63;
        }
        runs
    }

    /// ORs the words into a scratch bitmap.
    pub fn or_into(&self, words: &mut [u64; WORDS]) {
        for (d, s) in words.iter_mut().zip(self.words) {
            *d |= u64::from_le_bytes(*s);
        }
    }
}

/// Writes the set bits of `word`, ascending, each as `base | bit`, into `out`,
/// whose length must be `word.count_ones()`.
#[inline]
fn word_into(mut word: u64, base: u64, out: &mut [u64]) {
    for slot in out {
        *slot = base | u64::from(word.trailing_zeros());
        word &= word.wrapping_sub(1);
    }
}

/// Writes every value of a bitmap payload, each ORed with `high`, into `out`,
/// whose length must be the container's cardinality.
///
/// # Panics
/// If the payload has more set bits than `out` has room for (a corrupt buffer).
pub fn decode_into(payload: &[u8], high: u64, out: &mut [u64]) {
    let words = payload.as_chunks::<8>().0;
    let (done, _) = crate::kernels::values::bits_into(words, high, out);
    assert_eq!(
        done,
        words.len(),
        "bitmap payload holds more values than its cardinality"
    );
}

/// Position of the `k`-th set bit of `w` (`k < w.count_ones()`).
#[inline]
fn select_in_word(mut w: u64, k: u32) -> u32 {
    for _ in 0..k {
        w &= w - 1;
    }
    w.trailing_zeros()
}

/// Iterator over a bitmap container.
///
/// The front and back cursors move independently; `remaining` stops them before
/// they cross, so both always yield distinct values.
#[derive(Clone, Debug)]
pub struct BitmapIter<'a> {
    words: &'a [[u8; 8]; WORDS],
    front: usize,
    front_bits: u64,
    back: usize,
    back_bits: u64,
    remaining: usize,
}

impl BitmapIter<'_> {
    /// Number of values left.
    pub fn remaining(&self) -> usize {
        self.remaining
    }

    /// Writes up to `out.len()` next values, each ORed with `high`, and returns how
    /// many were written. Slots past those may be overwritten.
    pub fn next_batch(&mut self, high: u64, out: &mut [u64]) -> usize {
        let want = out.len().min(self.remaining);
        let out = &mut out[..want];
        let mut n = self.take_front_bits(high, out);
        if n < want && self.front + 1 < WORDS {
            // Whole words after the current one go through the dispatched kernel.
            // `want` never exceeds the values left, so a word the back cursor has
            // started on never fits whole: the kernel stops before it.
            let base = high | ((self.front as u64 + 1) * 64);
            let (done, written) = crate::kernels::values::bits_into(
                &self.words[self.front + 1..],
                base,
                &mut out[n..],
            );
            n += written;
            self.front += done;
            if n < want && self.front + 1 < WORDS {
                // The next word does not fit whole: part of it fills the batch.
                self.front += 1;
                self.front_bits = u64::from_le_bytes(self.words[self.front]);
                n += self.take_front_bits(high, &mut out[n..]);
            }
        }
        if n < want {
            // Out of words: nothing is left, whatever the count said.
            self.remaining = 0;
        } else {
            self.remaining -= n;
        }
        n
    }

    /// Writes the current word's unconsumed bits, as many as fit in `out`, and
    /// returns how many were written.
    fn take_front_bits(&mut self, high: u64, out: &mut [u64]) -> usize {
        let base = high | ((self.front as u64) * 64);
        let c = self.front_bits.count_ones() as usize;
        if c <= out.len() {
            word_into(self.front_bits, base, &mut out[..c]);
            self.front_bits = 0;
            return c;
        }
        for slot in out.iter_mut() {
            *slot = base | u64::from(self.front_bits.trailing_zeros());
            self.front_bits &= self.front_bits - 1;
        }
        out.len()
    }
}

impl Iterator for BitmapIter<'_> {
    type Item = u16;

    fn next(&mut self) -> Option<u16> {
        if self.remaining == 0 {
            return None;
        }
        while self.front_bits == 0 {
            if self.front + 1 >= WORDS {
                self.remaining = 0;
                return None;
            }
            self.front += 1;
            self.front_bits = u64::from_le_bytes(self.words[self.front]);
        }
        let bit = self.front_bits.trailing_zeros();
        self.front_bits &= self.front_bits - 1;
        self.remaining -= 1;
        Some((self.front * 64) as u16 + bit as u16)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl DoubleEndedIterator for BitmapIter<'_> {
    fn next_back(&mut self) -> Option<u16> {
        if self.remaining == 0 {
            return None;
        }
        while self.back_bits == 0 {
            if self.back == 0 {
                self.remaining = 0;
                return None;
            }
            self.back -= 1;
            self.back_bits = u64::from_le_bytes(self.words[self.back]);
        }
        let bit = 63 - self.back_bits.leading_zeros();
        self.back_bits &= !(1 << bit);
        self.remaining -= 1;
        Some((self.back * 64) as u16 + bit as u16)
    }
}

impl ExactSizeIterator for BitmapIter<'_> {}

// ---- helpers over an owned scratch bitmap ----

/// Number of set bits.
#[cfg(any(test, feature = "internals"))]
pub fn words_cardinality(words: &[u64; WORDS]) -> u32 {
    words.iter().map(|w| w.count_ones()).sum()
}

/// Number of maximal runs of set bits.
#[cfg(any(test, feature = "internals"))]
pub fn words_count_runs(words: &[u64; WORDS]) -> u32 {
    let mut carry = 0;
    let mut runs = 0;
    for &w in words {
        runs += (w & !((w << 1) | carry)).count_ones();
        carry = w >> 63;
    }
    runs
}

/// Appends the set positions, ascending, to `out`.
#[cfg(feature = "internals")]
pub fn words_lows(words: &[u64; WORDS], out: &mut Vec<u16>) {
    for (i, &w) in words.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            out.push((i * 64) as u16 + w.trailing_zeros() as u16);
            w &= w - 1;
        }
    }
}

/// Appends the maximal runs of set bits as `(start, last)`, inclusive, to `out`.
#[cfg(any(test, feature = "internals"))]
pub fn words_runs(words: &[u64; WORDS], out: &mut Vec<(u16, u16)>) {
    let mut i = 0;
    let mut w = words[0];
    loop {
        while w == 0 {
            i += 1;
            if i == WORDS {
                return;
            }
            w = words[i];
        }
        let start = i * 64 + w.trailing_zeros() as usize;
        w |= w - 1;
        while w == u64::MAX {
            i += 1;
            if i == WORDS {
                out.push((start as u16, u16::MAX));
                return;
            }
            w = words[i];
        }
        let ones = (!w).trailing_zeros();
        let end = i * 64 + ones as usize;
        out.push((start as u16, (end - 1) as u16));
        w &= !((1u64 << ones) - 1);
    }
}

/// Applies `f(word, mask)` to every word overlapping `lo..=hi`, with the mask of
/// the bits of the range inside that word.
fn for_range(words: &mut [u64; WORDS], lo: u16, hi: u16, f: impl Fn(&mut u64, u64)) {
    debug_assert!(lo <= hi);
    let (lw, hw) = (usize::from(lo >> 6), usize::from(hi >> 6));
    let lm = u64::MAX << (lo & 63);
    let hm = u64::MAX >> (63 - (hi & 63));
    if lw == hw {
        f(&mut words[lw], lm & hm);
    } else {
        f(&mut words[lw], lm);
        for w in &mut words[lw + 1..hw] {
            f(w, u64::MAX);
        }
        f(&mut words[hw], hm);
    }
}

/// Sets the bits `lo..=hi`.
pub fn set_range(words: &mut [u64; WORDS], lo: u16, hi: u16) {
    for_range(words, lo, hi, |w, m| *w |= m);
}

/// Clears the bits `lo..=hi`.
pub fn clear_range(words: &mut [u64; WORDS], lo: u16, hi: u16) {
    for_range(words, lo, hi, |w, m| *w &= !m);
}

/// Flips the bits `lo..=hi`.
pub fn flip_range(words: &mut [u64; WORDS], lo: u16, hi: u16) {
    for_range(words, lo, hi, |w, m| *w ^= m);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payload(words: &[u64; WORDS]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn queries_and_iterators() {
        let mut w = [0u64; WORDS];
        set_range(&mut w, 60, 70);
        set_range(&mut w, 65535, 65535);
        w[3] |= 1;
        let bytes = payload(&w);
        let b = BitmapView::new(&bytes).unwrap();
        assert_eq!(b.len(), 13);
        assert!(b.contains(60) && b.contains(70) && !b.contains(71) && b.contains(192));
        assert_eq!(b.rank(59), 0);
        assert_eq!(b.rank(63), 4);
        assert_eq!(b.rank(65535), 13);
        assert_eq!(b.select(11), Some(192));
        assert_eq!(b.select(12), Some(65535));
        assert_eq!(b.select(13), None);
        assert_eq!((b.min(), b.max()), (Some(60), Some(65535)));
        let all: Vec<u16> = b.iter().collect();
        let mut rev: Vec<u16> = b.iter().rev().collect();
        rev.reverse();
        assert_eq!(all, rev);
        assert_eq!(b.iter_from(70).collect::<Vec<_>>(), [70, 192, 65535]);
        assert_eq!(b.count_runs(), 3);
        assert_eq!(words_count_runs(&w), 3);
        let mut runs = Vec::new();
        words_runs(&w, &mut runs);
        assert_eq!(runs, [(60, 70), (192, 192), (65535, 65535)]);
        let mut out = [0u64; 5];
        let mut it = b.iter();
        assert_eq!(it.next_batch(1 << 16, &mut out), 5);
        assert_eq!(out, [65596, 65597, 65598, 65599, 65600]);
        assert_eq!(it.remaining(), 8);
    }

    #[test]
    fn full_and_range_edits() {
        let mut w = [u64::MAX; WORDS];
        let mut runs = Vec::new();
        words_runs(&w, &mut runs);
        assert_eq!(runs, [(0, 65535)]);
        clear_range(&mut w, 1, 65534);
        assert_eq!(words_cardinality(&w), 2);
        flip_range(&mut w, 0, 65535);
        assert_eq!(words_cardinality(&w), 65534);
        runs.clear();
        words_runs(&w, &mut runs);
        assert_eq!(runs, [(1, 65534)]);
        assert!(BitmapView::new(&[0u8; 8]).is_none());
    }
}
