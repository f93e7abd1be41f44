//! Shifting every value of a set by a signed amount.

use crate::container::bitmap::WORDS;
use crate::format::directory::KEY_LIMIT;
use crate::owned::Roaring;
use crate::view::RoaringView;
use crate::writer::{CapacityError, Writer};

/// Shifts the 65536 bits of `src` left by `s` (`0 < s < 65536`) into the 131072
/// bits `lo ++ hi`; `lo` and `hi` must be zero on entry.
fn shift_words(src: &[u64; WORDS], s: u32, lo: &mut [u64; WORDS], hi: &mut [u64; WORDS]) {
    let ws = (s / 64) as usize;
    let bs = s % 64;
    let mut put = |t: usize, x: u64| {
        if t < WORDS {
            lo[t] |= x;
        } else {
            hi[t - WORDS] |= x;
        }
    };
    for (w, &v) in src.iter().enumerate() {
        if v == 0 {
            continue;
        }
        put(w + ws, v << bs);
        if bs != 0 {
            put(w + ws + 1, v >> (64 - bs));
        }
    }
}

/// Pushes `words` as container `key` if `key` is a valid key.
fn push_if_in_range(w: &mut Writer, key: i128, words: &[u64; WORDS]) {
    if (0..i128::from(KEY_LIMIT)).contains(&key) {
        w.push_bitmap(key as u64, words);
    }
}

impl RoaringView<'_> {
    /// The buffer of this set with `delta` added to every value; values that leave
    /// `0..=u64::MAX` are dropped. When `delta` is a multiple of 65536 the containers
    /// move verbatim; otherwise each one splits across two keys.
    pub fn shift(&self, delta: i128) -> Result<Roaring, CapacityError> {
        if delta == 0 {
            return Ok(self.to_roaring());
        }
        if delta.unsigned_abs() > u128::from(u64::MAX) {
            return Ok(Roaring::new());
        }
        let dk = delta.div_euclid(1 << 16);
        let s = delta.rem_euclid(1 << 16) as u32;
        let n = self.container_count();
        let mut w = Writer::with_capacity(n + 1, self.as_bytes().len());
        if s == 0 {
            for (key, c) in self.containers() {
                let nk = i128::from(key) + dk;
                if (0..i128::from(KEY_LIMIT)).contains(&nk) {
                    w.push_container(nk as u64, c);
                }
            }
            return w.into_roaring();
        }
        let mut src = [0u64; WORDS];
        let mut lo = [0u64; WORDS];
        let mut hi = [0u64; WORDS];
        let mut carry = [0u64; WORDS];
        let mut carry_key: Option<i128> = None;
        for (key, c) in self.containers() {
            let target = i128::from(key) + dk;
            if target + 1 < 0 || target >= i128::from(KEY_LIMIT) {
                continue;
            }
            src.fill(0);
            lo.fill(0);
            hi.fill(0);
            c.or_into(&mut src);
            shift_words(&src, s, &mut lo, &mut hi);
            match carry_key {
                Some(k) if k == target => {
                    for (l, c) in lo.iter_mut().zip(&carry) {
                        *l |= c;
                    }
                }
                Some(k) => push_if_in_range(&mut w, k, &carry),
                None => {}
            }
            push_if_in_range(&mut w, target, &lo);
            core::mem::swap(&mut carry, &mut hi);
            carry_key = Some(target + 1);
        }
        if let Some(k) = carry_key {
            push_if_in_range(&mut w, k, &carry);
        }
        w.into_roaring()
    }
}

#[cfg(test)]
mod tests {
    use crate::builder::from_sorted;
    use crate::RoaringView;

    #[test]
    fn shifts() {
        let b = from_sorted(&[0, 65535, 1 << 32, u64::MAX]).unwrap();
        let v = RoaringView::from_bytes(&b).unwrap();
        assert_eq!(
            v.shift(1).unwrap(),
            from_sorted(&[1, 65536, (1 << 32) + 1]).unwrap()
        );
        assert_eq!(
            v.shift(-1).unwrap(),
            from_sorted(&[65534, (1 << 32) - 1, u64::MAX - 1]).unwrap()
        );
        assert_eq!(
            v.shift(65536).unwrap(),
            from_sorted(&[65536, 131071, (1 << 32) + 65536]).unwrap()
        );
        assert_eq!(
            v.shift(i128::from(u64::MAX)).unwrap(),
            from_sorted(&[u64::MAX]).unwrap()
        );
        assert_eq!(
            v.shift(-i128::from(u64::MAX)).unwrap(),
            from_sorted(&[0]).unwrap()
        );
        assert_eq!(v.shift(1 << 64).unwrap(), crate::builder::empty());
    }
}
