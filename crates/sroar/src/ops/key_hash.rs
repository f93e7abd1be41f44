//! A hasher for container keys, shared by the keyed n-way operations.

use core::hash::{BuildHasher, Hasher};

/// A hasher for container keys: a folded multiply with a per-store random seed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct KeyHash(u64);

impl KeyHash {
    pub(crate) fn new() -> Self {
        KeyHash(std::hash::RandomState::new().hash_one(0x5352_3634_u64))
    }
}

impl BuildHasher for KeyHash {
    type Hasher = KeyHasher;

    fn build_hasher(&self) -> KeyHasher {
        KeyHasher(self.0)
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    #[inline]
    fn write_u64(&mut self, x: u64) {
        let p = u128::from(self.0 ^ x) * 0x9E37_79B9_7F4A_7C15;
        self.0 = p as u64 ^ (p >> 64) as u64;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
