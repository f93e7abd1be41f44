//! A profiling driver, not a benchmark: runs one sroar operation on one real
//! dataset in a loop, for `perf record` or `valgrind --tool=callgrind`.
//!
//! ```text
//! cargo bench -p sroar --bench profile --no-run      # prints the binary's path
//! valgrind --tool=callgrind <binary> census-income and 20
//! ```
//!
//! Operations: `and`, `or`, `xor`, `andnot`, `and_len` (successive pairs, in
//! memory), `or_many`, `contains` (every value of every bitmap, and one past it),
//! `iter` (`next_batch`), `iter_plain`, `open_checked`, `open_unchecked` (the
//! header alone), and `kinds` (not timed
//! work: the container kind pairs that successive bitmaps meet, with their
//! counts and mean cardinalities). It prints the minimum and median time of one
//! repeat (`SROAR_SIMD` picks the tier). Without
//! arguments (as `cargo bench` runs it) it prints this usage and exits.

mod common;
#[allow(dead_code, reason = "the driver uses some of the door's forms")]
#[path = "../tests/common/door.rs"]
mod door;

use std::hint::black_box;

use common::{finish, realdata};
use door::ops;
use sroar::RoaringView;

#[allow(unsafe_code, reason = "times opening views without validation")]
fn open_unchecked(v: &RoaringView<'_>) -> u64 {
    // SAFETY: every view was validated when the dataset was loaded.
    unsafe { RoaringView::from_bytes_unchecked(v.as_bytes()) }.len()
}

fn run(op: &str, views: &[RoaringView<'_>], values: &[Vec<u64>]) -> u64 {
    let pairs = |f: &dyn Fn(RoaringView<'_>, RoaringView<'_>) -> u64| -> u64 {
        views.windows(2).map(|w| f(w[0], w[1])).sum()
    };
    match op {
        "and" => pairs(&|a, b| finish(ops::and_writer(a, b)).len() as u64),
        "or" => pairs(&|a, b| finish(ops::or_writer(a, b)).len() as u64),
        "xor" => pairs(&|a, b| finish(ops::xor_writer(a, b)).len() as u64),
        "andnot" => pairs(&|a, b| finish(ops::andnot_writer(a, b)).len() as u64),
        "and_len" => pairs(&|a, b| ops::and_len(a, b)),
        "or_many" => finish(ops::or_many(views)).len() as u64,
        "contains" => views
            .iter()
            .zip(values)
            .map(|(v, vs)| {
                vs.iter()
                    .filter(|&&x| v.contains(x) && !v.contains(x + 1))
                    .count() as u64
            })
            .sum(),
        "iter" => {
            let mut buf = [0u64; 256];
            let mut sum = 0u64;
            for v in views {
                let mut it = v.iter();
                loop {
                    let n = it.next_batch(&mut buf);
                    if n == 0 {
                        break;
                    }
                    sum = buf[..n].iter().fold(sum, |s, &x| s.wrapping_add(x));
                }
            }
            sum
        }
        "iter_plain" => views
            .iter()
            .map(|v| v.iter().fold(0u64, |s, x| s.wrapping_add(x)))
            .fold(0, u64::wrapping_add),
        "open_checked" => views
            .iter()
            .map(|v| RoaringView::from_bytes(v.as_bytes()).map_or(0, |v| v.len()))
            .sum(),
        "open_unchecked" => views.iter().map(open_unchecked).sum(),
        "kinds" => {
            // Not timed work: what the pairwise operations meet, to read a profile by.
            let mut pairs = std::collections::BTreeMap::new();
            for w in views.windows(2) {
                for (key, x) in w[0].containers() {
                    if let Some(j) = w[1].find_container(key) {
                        let y = w[1].container(j).1;
                        let e = pairs
                            .entry((x.kind().name(), y.kind().name()))
                            .or_insert([0usize; 5]);
                        let (rx, ry) = (x.count_runs() as usize, y.count_runs() as usize);
                        *e = [
                            e[0] + 1,
                            e[1] + x.len(),
                            e[2] + y.len(),
                            e[3] + rx,
                            e[4] + ry,
                        ];
                    }
                }
            }
            for ((kx, ky), [n, cx, cy, rx, ry]) in pairs {
                println!(
                    "{kx} & {ky}: {n} pairs, mean cardinalities {} and {}, mean runs {} and {}",
                    cx / n,
                    cy / n,
                    rx / n,
                    ry / n
                );
            }
            0
        }
        _ => panic!("unknown operation {op:?}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let [dataset, op, rest @ ..] = &args[..] else {
        eprintln!(
            "profile: usage: profile <dataset> <operation> [repeats] (see benches/profile.rs)"
        );
        return;
    };
    let repeats: usize = rest.first().map_or(10, |r| r.parse().expect("repeats"));
    let values = realdata::load(dataset).unwrap_or_else(|e| panic!("{dataset}: {e}"));
    let buffers = common::sroar_buffers(&values);
    let views = common::views(&buffers);
    let mut acc = 0u64;
    let mut times = Vec::with_capacity(repeats);
    for _ in 0..repeats {
        let t = std::time::Instant::now();
        acc = acc.wrapping_add(run(op, black_box(&views), &values));
        times.push(t.elapsed());
    }
    times.sort();
    // The minimum is the figure least disturbed by other load on a shared machine.
    println!(
        "{dataset} {op} x{repeats} (tier {}): {acc}; min {:?}, median {:?}",
        sroar::simd::tier(),
        times.first().copied().unwrap_or_default(),
        times.get(repeats / 2).copied().unwrap_or_default()
    );
}
