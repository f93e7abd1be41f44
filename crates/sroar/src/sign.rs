//! Toggling the top bit of every value: the bridge between a u64 set and the same
//! 64-bit patterns read as signed integers (what a database's int8 column stores).
//!
//! Toggling bit 63 moves every value by 2^63 modulo 2^64, so the keys of the upper
//! half (bit 47 of the key set) move below those of the lower half. Containers keep
//! their payloads: the transform copies them verbatim, O(containers).

use crate::{CapacityError, RoaringView, Writer};

const KEY_TOP: u64 = 1 << 47;

impl RoaringView<'_> {
    /// The buffer of `{ v ^ 2^63 : v in self }`.
    pub fn toggle_top_bit(&self) -> Result<Vec<u8>, CapacityError> {
        let n = self.container_count();
        let split = self.directory().lower_bound(KEY_TOP);
        let mut w = Writer::with_capacity(n, self.as_bytes().len());
        for i in (split..n).chain(0..split) {
            let (key, c) = self.container(i);
            w.push_container(key ^ KEY_TOP, c);
        }
        w.into_vec()
    }
}

#[cfg(test)]
mod tests {
    use crate::{from_sorted, RoaringView};

    #[test]
    fn toggles_every_value_and_stays_canonical() {
        let cases: [&[u64]; 4] = [
            &[],
            &[0, 1, 65536, (1 << 63) - 1],
            &[1 << 63, u64::MAX - 1, u64::MAX],
            &[0, 5, 1 << 47 << 16, (1 << 63) + 7, u64::MAX],
        ];
        for values in cases {
            let bytes = from_sorted(values).unwrap();
            let view = RoaringView::from_bytes(&bytes).unwrap();
            let toggled = view.toggle_top_bit().unwrap();
            let mut expected: Vec<u64> = values.iter().map(|v| v ^ (1 << 63)).collect();
            expected.sort_unstable();
            assert_eq!(toggled, from_sorted(&expected).unwrap(), "{values:?}");
            let back = RoaringView::from_bytes(&toggled)
                .unwrap()
                .toggle_top_bit()
                .unwrap();
            assert_eq!(back, bytes);
        }
    }
}
