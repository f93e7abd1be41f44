//! Many sets in one call, the library's share of sroar_pg's n-way functions
//! (`rb_or(a, b, c)`, `rb_and_cardinality(VARIADIC …)`), against CRoaring on the
//! same sets: how far the work any n-way function must do is from the state of the
//! art, where the SQL runner's `many` group finds a function short of its target.
//!
//! The sets are shaped as that group's (benches/runner/src/workloads/many.rs): 90
//! sets, small (1,000 ids over 10M) or large (500,000 over 50M), skewed so that
//! low ids are dense. Each iteration makes 90/k calls of k sets. sroar reads its
//! sets in place and, for a set-valued result, writes its bytes; CRoaring works on
//! deserialized bitmaps and keeps its result in memory, which favours it.
//!
//! Benchmark ids are `many/<size>/<operation>/k<k>/<library>`:
//! * `or_len`: the union's cardinality (`SetOp::Or.many_len`; CRoaring's
//!   `fast_or`, then its cardinality);
//! * `or`: the union (`SetOp::Or.many`, encoded; `fast_or`);
//! * `and`: the intersection, two sets at a time in the order given, as sroar_pg
//!   folds it (CRoaring: `and`, then `and_inplace`).
//!
//! ```text
//! cargo bench -p sroar --bench many -- --warm-up-time 0.2 --measurement-time 1
//! ```

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use croaring::Bitmap;
use sroar::{Roaring, RoaringView, SetOp};

const SETS: u64 = 90;

/// A 64-bit mix (splitmix64's), for ids that do not depend on a random source.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// 90 sets of `n` ids each drawn as `spread * u^2`, `u` uniform in [0, 1).
fn sets(n: u64, spread: f64) -> Vec<Vec<u64>> {
    (1..=SETS)
        .map(|id| {
            let mut v: Vec<u64> = (1..=n)
                .map(|j| {
                    let u = (mix(id * 1_000_003 + j) >> 11) as f64 / (1u64 << 53) as f64;
                    (spread * u * u) as u64
                })
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        })
        .collect()
}

fn fold_and(g: &[RoaringView<'_>]) -> u64 {
    let mut acc: Roaring = g[0] & g[1];
    for v in &g[2..] {
        acc = acc.view() & *v;
    }
    acc.len()
}

fn c_fold_and(g: &[Bitmap]) -> u64 {
    let mut acc = g[0].and(&g[1]);
    for b in &g[2..] {
        acc.and_inplace(b);
    }
    acc.cardinality()
}

fn c_refs(g: &[Bitmap]) -> Vec<&Bitmap> {
    g.iter().collect()
}

fn bench(c: &mut Criterion) {
    for (size, n, spread) in [("small", 1_000, 1e7), ("large", 500_000, 5e7)] {
        let values = sets(n, spread);
        let bytes: Vec<Roaring> = values
            .iter()
            .map(|v| Roaring::from_sorted(v).expect("a set of 500,000 ids fits"))
            .collect();
        let views: Vec<RoaringView<'_>> = bytes.iter().map(Roaring::view).collect();
        let bitmaps: Vec<Bitmap> = values
            .iter()
            .map(|v| {
                let mut b: Bitmap = v.iter().map(|&x| x as u32).collect();
                b.run_optimize();
                b
            })
            .collect();
        for k in [3, 5, 20, 90] {
            let (vs, bs) = (views.chunks_exact(k), bitmaps.chunks_exact(k));
            // The answers agree before anything is timed.
            for (g, h) in vs.clone().zip(bs.clone()) {
                let union = Bitmap::fast_or(&c_refs(h));
                assert_eq!(SetOp::Or.many_len(g), union.cardinality(), "{size} k{k} or");
                assert_eq!(fold_and(g), c_fold_and(h), "{size} k{k} and");
            }
            let mut group = c.benchmark_group(format!("many/{size}"));
            group.sample_size(10);
            group.bench_function(format!("or_len/k{k}/sroar"), |b| {
                b.iter(|| {
                    vs.clone()
                        .map(|g| SetOp::Or.many_len(black_box(g)))
                        .sum::<u64>()
                })
            });
            group.bench_function(format!("or_len/k{k}/croaring"), |b| {
                b.iter(|| {
                    bs.clone()
                        .map(|h| Bitmap::fast_or(&c_refs(black_box(h))).cardinality())
                        .sum::<u64>()
                })
            });
            group.bench_function(format!("or/k{k}/sroar"), |b| {
                b.iter(|| {
                    vs.clone()
                        .map(|g| SetOp::Or.many(black_box(g)).into_vec().expect("fits").len())
                        .sum::<usize>()
                })
            });
            group.bench_function(format!("or/k{k}/croaring"), |b| {
                b.iter(|| {
                    bs.clone()
                        .map(|h| Bitmap::fast_or(&c_refs(black_box(h))))
                        .map(|u| u.cardinality())
                        .sum::<u64>()
                })
            });
            group.bench_function(format!("and/k{k}/sroar"), |b| {
                b.iter(|| vs.clone().map(|g| fold_and(black_box(g))).sum::<u64>())
            });
            group.bench_function(format!("and/k{k}/croaring"), |b| {
                b.iter(|| bs.clone().map(|h| c_fold_and(black_box(h))).sum::<u64>())
            });
            group.finish();
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_secs(1));
    targets = bench
}
criterion_main!(benches);
