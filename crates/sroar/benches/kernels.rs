//! sroar alone, under each SIMD tier this CPU has (`kernels::set_tier`), on a
//! few real datasets that stress different containers: bitmaps
//! (`census-income`), arrays (`census1881`), runs (`weather_sept_85_srt`) and
//! tiny arrays (`wikileaks-noquotes`).
//!
//! Benchmark ids are `tiers/<dataset>/<operation>/<tier>`; operations as in the
//! `realdata` target, all on opened views (the `mem` form). Tiers the CPU lacks
//! are skipped with a note.
//!
//! `arrays/<dataset>/<kernel>/<tier>` times the sorted-array kernels alone, on
//! the array × array container pairs of successive bitmaps, so a kernel's
//! tiers compare without the rest of the operation around them.

mod common;

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Duration;

use common::{finish, realdata};
use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use sroar::kernels::dispatch::{
    available_tiers, kernels_for, reset_tier, set_tier, ArrayOpFn, Kernels, Tier,
};
use sroar::{ops, RoaringView};

const DATASETS: [&str; 4] = [
    "census-income",
    "census1881",
    "weather_sept_85_srt",
    "wikileaks-noquotes",
];

type Bench = fn(&[RoaringView<'_>]) -> u64;

fn pairs(views: &[RoaringView<'_>], f: impl Fn(RoaringView<'_>, RoaringView<'_>) -> u64) -> u64 {
    views.windows(2).map(|w| f(w[0], w[1])).sum()
}

const OPS: [(&str, Bench); 8] = [
    ("and", |v| {
        pairs(v, |a, b| finish(ops::and_writer(a, b)).len() as u64)
    }),
    ("or", |v| {
        pairs(v, |a, b| finish(ops::or_writer(a, b)).len() as u64)
    }),
    ("xor", |v| {
        pairs(v, |a, b| finish(ops::xor_writer(a, b)).len() as u64)
    }),
    ("andnot", |v| {
        pairs(v, |a, b| finish(ops::andnot_writer(a, b)).len() as u64)
    }),
    ("and_len", |v| pairs(v, ops::and_len)),
    ("or_len", |v| pairs(v, ops::or_len)),
    ("or_many", |v| finish(ops::or_many(v)).len() as u64),
    ("iter", |v| {
        let mut buf = [0u64; 256];
        let mut sum = 0u64;
        for view in v {
            let mut it = view.iter();
            loop {
                let n = it.next_batch(&mut buf);
                if n == 0 {
                    break;
                }
                sum = buf[..n].iter().fold(sum, |s, &x| s.wrapping_add(x));
            }
        }
        sum
    }),
];

fn tiers(c: &mut Criterion) {
    let have = available_tiers();
    for t in Tier::ALL.iter().filter(|t| !have.contains(t)) {
        eprintln!("tier {t}: skipped (this CPU lacks it)");
    }
    for name in DATASETS {
        let values = realdata::load(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let buffers = common::sroar_buffers(&values);
        drop(values);
        let views = common::views(&buffers);
        for (op, f) in OPS {
            // Every tier gives the same answer.
            let answers: Vec<u64> = have
                .iter()
                .map(|&t| {
                    set_tier(t).expect("available tier");
                    f(&views)
                })
                .collect();
            assert!(
                answers.windows(2).all(|w| w[0] == w[1]),
                "{name}/{op}: tiers disagree"
            );

            let mut g = c.benchmark_group(format!("tiers/{name}/{op}"));
            g.sampling_mode(SamplingMode::Flat);
            for &t in &have {
                g.bench_function(t.name(), |b| {
                    set_tier(t).expect("available tier");
                    b.iter(|| f(black_box(&views)))
                });
            }
            g.finish();
        }
    }
    reset_tier();
}

/// Datasets for the array kernels alone: the ones whose `xor` and `andnot`
/// spend most in array × array containers.
const ARRAY_DATASETS: [&str; 4] = [
    "census-income",
    "census1881",
    "weather_sept_85",
    "wikileaks-noquotes",
];

/// The array × array container pairs of the successive bitmaps of a dataset
/// (a container of at most 4096 values counted as an array), as LE bytes.
fn array_pairs(bitmaps: &[Vec<u64>]) -> Vec<(Vec<u8>, Vec<u8>)> {
    let containers = |values: &[u64]| -> BTreeMap<u64, Vec<u8>> {
        let mut m: BTreeMap<u64, Vec<u8>> = BTreeMap::new();
        for &v in values {
            m.entry(v >> 16)
                .or_default()
                .extend_from_slice(&(v as u16).to_le_bytes());
        }
        m.retain(|_, c| c.len() <= 2 * 4096);
        m
    };
    let all: Vec<_> = bitmaps.iter().map(|v| containers(v)).collect();
    let mut pairs = Vec::new();
    for w in all.windows(2) {
        for (key, a) in &w[0] {
            if let Some(b) = w[1].get(key) {
                pairs.push((a.clone(), b.clone()));
            }
        }
    }
    pairs
}

type ArrayOp = fn(&Kernels) -> ArrayOpFn;
type Pair<'a> = (&'a [[u8; 2]], &'a [[u8; 2]]);

/// The dispatched sorted-array kernels alone, per tier, on the array pairs of
/// real datasets. Ids are `arrays/<dataset>/<kernel>/<tier>`.
fn arrays(c: &mut Criterion) {
    const KERNELS: [(&str, ArrayOp); 4] = [
        ("intersect", |k| k.array_intersect),
        ("union", |k| k.array_union),
        ("xor", |k| k.array_xor),
        ("difference", |k| k.array_difference),
    ];
    let have = available_tiers();
    for name in ARRAY_DATASETS {
        let values = realdata::load(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let pairs = array_pairs(&values);
        drop(values);
        let pairs: Vec<Pair<'_>> = pairs
            .iter()
            .map(|(a, b)| (a.as_chunks::<2>().0, b.as_chunks::<2>().0))
            .collect();
        for (kernel, get) in KERNELS {
            let run = |k: &Kernels, out: &mut Vec<u16>| -> usize {
                let f = get(k);
                let mut n = 0;
                for (a, b) in &pairs {
                    out.clear();
                    f(black_box(a), black_box(b), out);
                    n += out.len();
                }
                n
            };
            let mut out = Vec::with_capacity(2 * 4096 + 64);
            let answers: Vec<usize> = have
                .iter()
                .map(|&t| run(kernels_for(t).expect("available tier"), &mut out))
                .collect();
            assert!(
                answers.windows(2).all(|w| w[0] == w[1]),
                "{name}/{kernel}: tiers disagree"
            );
            let mut g = c.benchmark_group(format!("arrays/{name}/{kernel}"));
            g.sampling_mode(SamplingMode::Flat);
            for &t in &have {
                let k = kernels_for(t).expect("available tier");
                g.bench_function(t.name(), |b| b.iter(|| run(k, &mut out)));
            }
            g.finish();
        }
    }
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
}

criterion_group! {
    name = benches;
    config = config();
    targets = tiers, arrays
}
criterion_main!(benches);
