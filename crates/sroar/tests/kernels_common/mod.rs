//! Shared helpers for the kernel tests: LE byte buffers read at odd
//! addresses, input strategies and trivial models.
#![allow(dead_code)]

use std::collections::BTreeSet;

use proptest::collection::{btree_set, vec};
use proptest::prelude::*;
use sroar::kernels::dispatch::{available_tiers, kernels_for, Kernels, Tier};

/// Every tier this CPU supports, with its table; prints the skipped ones once.
pub fn tiers() -> Vec<(Tier, &'static Kernels)> {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for t in Tier::ALL {
            if kernels_for(t).is_none() {
                eprintln!("skipped: {t} not available");
            }
        }
    });
    available_tiers()
        .into_iter()
        .map(|t| (t, kernels_for(t).expect("available")))
        .collect()
}

/// Bytes of `values` (LE) after `offset` padding bytes; read back with
/// `&buf[offset..]` so that loads start at an odd address when `offset` is odd.
pub struct Buf {
    bytes: Vec<u8>,
    offset: usize,
}

impl Buf {
    pub fn new(le: impl IntoIterator<Item = u8>, offset: usize) -> Buf {
        let mut bytes = vec![0xEE; offset];
        bytes.extend(le);
        Buf { bytes, offset }
    }
    pub fn u16s(v: &[u16]) -> Buf {
        Buf::new(v.iter().flat_map(|x| x.to_le_bytes()), 1)
    }
    pub fn u16s_at(v: &[u16], offset: usize) -> Buf {
        Buf::new(v.iter().flat_map(|x| x.to_le_bytes()), offset)
    }
    pub fn u64s(v: &[u64]) -> Buf {
        Buf::new(v.iter().flat_map(|x| x.to_le_bytes()), 1)
    }
    pub fn u64s_at(v: &[u64], offset: usize) -> Buf {
        Buf::new(v.iter().flat_map(|x| x.to_le_bytes()), offset)
    }
    pub fn runs(v: &[(u16, u16)]) -> Buf {
        Buf::new(
            v.iter().flat_map(|(s, l)| {
                let (s, l) = (s.to_le_bytes(), l.to_le_bytes());
                [s[0], s[1], l[0], l[1]]
            }),
            1,
        )
    }
    fn body(&self) -> &[u8] {
        &self.bytes[self.offset..]
    }
    pub fn a2(&self) -> &[[u8; 2]] {
        let (c, rest) = self.body().as_chunks::<2>();
        assert!(rest.is_empty());
        c
    }
    pub fn a4(&self) -> &[[u8; 4]] {
        let (c, rest) = self.body().as_chunks::<4>();
        assert!(rest.is_empty());
        c
    }
    pub fn a8(&self) -> &[[u8; 8]] {
        let (c, rest) = self.body().as_chunks::<8>();
        assert!(rest.is_empty());
        c
    }
}

pub fn set(v: &[u16]) -> BTreeSet<u16> {
    v.iter().copied().collect()
}

pub fn assert_strictly_increasing(v: &[u16]) {
    assert!(v.windows(2).all(|w| w[0] < w[1]), "not strictly increasing");
}

/// Sorted strictly increasing arrays of many shapes.
pub fn sorted_u16() -> impl Strategy<Value = Vec<u16>> {
    prop_oneof![
        1 => Just(vec![]),
        1 => any::<u16>().prop_map(|x| vec![x]),
        1 => prop_oneof![Just(vec![0u16]), Just(vec![65535u16]), Just(vec![0, 65535])],
        4 => btree_set(any::<u16>(), 0..48).prop_map(|s| s.into_iter().collect()),
        3 => btree_set(any::<u16>(), 0..4000).prop_map(|s| s.into_iter().collect()),
        2 => btree_set(0u16..300, 0..200).prop_map(|s| s.into_iter().collect()),
        2 => btree_set(65200u16..=65535, 0..300).prop_map(|s| s.into_iter().collect()),
        2 => (any::<u16>(), 0u32..5000).prop_map(|(s, l)| {
            let e = (s as u32 + l).min(65535);
            (s as u32..=e).map(|x| x as u16).collect()
        }),
        1 => (1u32..9, 0u32..64, 0usize..400).prop_map(|(step, start, n)| {
            (0..n as u32)
                .map(|k| start + k * step)
                .take_while(|&x| x < 65536)
                .map(|x| x as u16)
                .collect()
        }),
        1 => Just((0..=65535).collect()),
    ]
}

/// Pairs of arrays: independent (including very different sizes, which
/// triggers galloping) or drawn from one base set (so they overlap a lot).
pub fn u16_pair() -> impl Strategy<Value = (Vec<u16>, Vec<u16>)> {
    prop_oneof![
        3 => (sorted_u16(), sorted_u16()),
        3 => btree_set(any::<u16>(), 0..3000)
            .prop_flat_map(|base| {
                let v: Vec<u16> = base.into_iter().collect();
                let n = v.len();
                (Just(v), vec(0u8..4, n))
            })
            .prop_map(|(v, sel)| split(&v, &sel)),
        2 => (0u32..65536, 1u32..2000)
            .prop_flat_map(|(s, l)| {
                let v: Vec<u16> = (s..(s + l).min(65536)).map(|x| x as u16).collect();
                let n = v.len();
                (Just(v), vec(0u8..4, n))
            })
            .prop_map(|(v, sel)| split(&v, &sel)),
        1 => (btree_set(any::<u16>(), 0..6), btree_set(any::<u16>(), 2000..6000))
            .prop_map(|(a, b)| {
                let mut b = b;
                b.extend(a.iter().take(3));
                (a.into_iter().collect(), b.into_iter().collect())
            }),
    ]
}

fn split(v: &[u16], sel: &[u8]) -> (Vec<u16>, Vec<u16>) {
    let a = v
        .iter()
        .zip(sel)
        .filter(|(_, s)| *s & 1 != 0)
        .map(|(x, _)| *x)
        .collect();
    let b = v
        .iter()
        .zip(sel)
        .filter(|(_, s)| *s & 2 != 0)
        .map(|(x, _)| *x)
        .collect();
    (a, b)
}

pub fn array_to_words(v: &[u16]) -> Vec<u64> {
    let mut w = vec![0u64; 1024];
    for &x in v {
        w[x as usize / 64] |= 1 << (x % 64);
    }
    w
}

pub fn runs_to_words(runs: &[(u16, u16)]) -> Vec<u64> {
    let mut w = vec![0u64; 1024];
    for &(s, l) in runs {
        for x in s as u32..=s as u32 + l as u32 {
            w[x as usize / 64] |= 1 << (x % 64);
        }
    }
    w
}

pub fn words_to_set(w: &[u64]) -> BTreeSet<u16> {
    (0..65536u32)
        .filter(|&x| w[x as usize / 64] >> (x % 64) & 1 != 0)
        .map(|x| x as u16)
        .collect()
}

/// Maximal runs of a set.
pub fn set_to_runs(s: &BTreeSet<u16>) -> Vec<(u16, u16)> {
    let mut out: Vec<(u16, u16)> = Vec::new();
    for &x in s {
        match out.last_mut() {
            Some((st, l)) if *st as u32 + *l as u32 + 1 == x as u32 => *l += 1,
            _ => out.push((x, 0)),
        }
    }
    out
}

pub fn runs_to_set(runs: &[(u16, u16)]) -> BTreeSet<u16> {
    runs.iter()
        .flat_map(|&(s, l)| (s as u32..=s as u32 + l as u32).map(|x| x as u16))
        .collect()
}

/// Bitmaps of many shapes (1024 words).
pub fn bitmap() -> impl Strategy<Value = Vec<u64>> {
    prop_oneof![
        1 => Just(vec![0u64; 1024]),
        1 => Just(vec![!0u64; 1024]),
        2 => vec(any::<u64>(), 1024),
        3 => vec(
            prop_oneof![8 => Just(0u64), 2 => any::<u64>(), 1 => Just(!0u64),
                        1 => (0u32..64).prop_map(|k| 1u64 << k)],
            1024
        ),
        2 => sorted_u16().prop_map(|v| array_to_words(&v)),
        2 => runs().prop_map(|r| runs_to_words(&r)),
    ]
}

/// Sorted, non-overlapping runs `(start, len - 1)`; maximal unless `split`
/// cut some into adjacent pieces.
pub fn runs() -> impl Strategy<Value = Vec<(u16, u16)>> {
    prop_oneof![
        1 => Just(vec![]),
        1 => Just(vec![(0u16, 65535u16)]),
        1 => prop_oneof![Just(vec![(0u16, 0u16)]), Just(vec![(65535u16, 0u16)]), Just(vec![(0, 9), (65530, 5)])],
        4 => btree_set(0u32..=65536, 0..40).prop_map(|p| points_to_runs(&p)),
        2 => btree_set(0u32..=65536, 0..1500).prop_map(|p| points_to_runs(&p)),
        2 => btree_set(0u32..=400, 0..60).prop_map(|p| points_to_runs(&p)),
    ]
}

/// Runs that may be split into adjacent (non-maximal) pieces.
pub fn input_runs() -> impl Strategy<Value = Vec<(u16, u16)>> {
    prop_oneof![
        3 => runs(),
        1 => (runs(), any::<u64>()).prop_map(|(r, seed)| split_runs(&r, seed)),
    ]
}

fn points_to_runs(p: &BTreeSet<u32>) -> Vec<(u16, u16)> {
    let v: Vec<u32> = p.iter().copied().collect();
    v.chunks_exact(2)
        .map(|c| (c[0] as u16, (c[1] - 1 - c[0]) as u16))
        .collect()
}

fn split_runs(r: &[(u16, u16)], mut seed: u64) -> Vec<(u16, u16)> {
    let mut out = Vec::new();
    for &(s, l) in r {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        if l > 0 && seed >> 62 != 0 {
            let cut = (seed >> 20) as u32 % l as u32; // first piece len - 1
            out.push((s, cut as u16));
            out.push(((s as u32 + cut + 1) as u16, (l as u32 - cut - 1) as u16));
        } else {
            out.push((s, l));
        }
    }
    out
}

pub fn assert_maximal_runs(r: &[(u16, u16)]) {
    for w in r.windows(2) {
        let end = w[0].0 as u32 + w[0].1 as u32;
        assert!(
            (w[1].0 as u32) > end + 1,
            "runs not maximal/sorted: {:?} {:?}",
            w[0],
            w[1]
        );
    }
    for &(s, l) in r {
        assert!(s as u32 + l as u32 <= 65535, "run overflows: {s} {l}");
    }
}
