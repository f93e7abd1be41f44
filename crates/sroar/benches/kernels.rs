//! sroar alone, under each SIMD tier this CPU has (`kernels::set_tier`), on a
//! few real datasets that stress different containers: bitmaps
//! (`census-income`), arrays (`census1881`), runs (`weather_sept_85_srt`) and
//! tiny arrays (`wikileaks-noquotes`).
//!
//! Benchmark ids are `tiers/<dataset>/<operation>/<tier>`; operations as in the
//! `realdata` target, all on opened views (the `mem` form). Tiers the CPU lacks
//! are skipped with a note.

mod common;

use std::hint::black_box;
use std::time::Duration;

use common::{finish, realdata};
use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use sroar::kernels::dispatch::{available_tiers, reset_tier, set_tier, Tier};
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

const OPS: [(&str, Bench); 7] = [
    ("and", |v| {
        pairs(v, |a, b| finish(ops::and_writer(a, b)).len() as u64)
    }),
    ("or", |v| {
        pairs(v, |a, b| finish(ops::or_writer(a, b)).len() as u64)
    }),
    ("xor", |v| {
        pairs(v, |a, b| finish(ops::xor_writer(a, b)).len() as u64)
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

fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
}

criterion_group! {
    name = benches;
    config = config();
    targets = tiers
}
criterion_main!(benches);
