//! sroar against roaring-rs (`RoaringTreemap`) and CRoaring (`Bitmap64`, and
//! `Treemap` with its 32-bit `fast_or` per high key) on the real-roaring-datasets,
//! side by side in one run. BENCHMARKS.md (workspace root) has the commands and
//! the results.
//!
//! Benchmark ids are `<dataset>/<operation>/<form>/<library>`:
//! - dataset: one of the twelve, or `<name>@64` (bitmap `i` shifted by `i << 36`);
//! - operation: `or_many` (all bitmaps of the dataset), `and`, `or`, `xor`,
//!   `andnot` and `and_len`, ... (bitmap `i` with `i + 1`, all successive pairs
//!   in one iteration), `contains` (seeded probes), `iter` (sum of all values),
//!   `open` (the union of the dataset, opened from its bytes);
//! - form: `bytes` starts from serialized bytes and ends with serialized bytes (or
//!   the answer, for read-only operations; for `contains`, each probe opens the
//!   bitmap again, as a query per row does); `mem` starts from opened views / live
//!   structures; `batch` (`contains` only) opens each bitmap once for all its
//!   probes;
//! - library: `sroar` (opened with `from_bytes_unchecked`, as the PostgreSQL
//!   extension opens stored values), `sroar_checked` (`from_bytes`), `sroar_iter`
//!   (the plain iterator, against `sroar`'s `next_batch`), `roaring`, `croaring64`,
//!   `treemap`, and in `open` also `roaring_checked` and `treemap_checked`.
//!
//! All inputs are run-optimized; the serialized bytes of the other libraries are the
//! portable format, checked to be byte-identical to their own serialization.
//! `SROAR_BENCH_DATASETS=census1881,uscensus2000@64` loads only those datasets.

#![allow(unsafe_code)] // opening sroar buffers unchecked, and CRoaring's unchecked read

mod common;
#[allow(dead_code, reason = "the benchmarks use some of the door's forms")]
#[path = "../tests/common/door.rs"]
mod door;

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use common::{finish, realdata, SplitMix64};
use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, SamplingMode};
use croaring::{Bitmap, Bitmap64, Portable, Treemap};
use door::ops;
use roaring::{MultiOps, RoaringTreemap};
use sroar::{RoaringView, Writer};

/// Probes per dataset for `contains`: 1000 per bitmap for the 200-bitmap sets,
/// spread evenly over the bitmaps of the larger `dimension_*` sets.
const PROBES_PER_DATASET: usize = 200_000;
const BATCH: usize = 256;
/// Probes per bitmap in the `contains/bytes` form, where each probe opens
/// (deserializes) the bitmap again.
const PROBES_PER_OPEN: usize = 10;

/// Opens a buffer without validation.
fn open(bytes: &[u8]) -> RoaringView<'_> {
    // SAFETY: every sroar buffer benchmarked here comes from `sroar::from_sorted`
    // and was validated once in `Data::load`.
    unsafe { RoaringView::from_bytes_unchecked(bytes) }
}

fn open_checked(bytes: &[u8]) -> RoaringView<'_> {
    RoaringView::from_bytes(bytes).expect("valid sroar buffer")
}

// ---- the other libraries' fastest bytes <-> structure paths ----

fn rr_de(bytes: &[u8]) -> RoaringTreemap {
    RoaringTreemap::deserialize_unchecked_from(bytes).expect("portable bytes")
}

fn rr_de_checked(bytes: &[u8]) -> RoaringTreemap {
    RoaringTreemap::deserialize_from(bytes).expect("portable bytes")
}

fn rr_ser(t: &RoaringTreemap) -> Vec<u8> {
    let mut out = Vec::with_capacity(t.serialized_size());
    t.serialize_into(&mut out).expect("write to a Vec");
    out
}

/// CRoaring's 64-bit portable read; its `try_deserialize_unchecked` is this same
/// checked read (croaring 2.8), so there is no faster one.
fn c64_de(bytes: &[u8]) -> Bitmap64 {
    Bitmap64::try_deserialize::<Portable>(bytes).expect("portable bytes")
}

fn c64_ser(b: &Bitmap64) -> Vec<u8> {
    b.serialize::<Portable>()
}

/// The portable 64-bit format read into a `Treemap` with CRoaring's unchecked
/// 32-bit reader per bucket (`Treemap::deserialize` uses the checked one).
fn tm_de(bytes: &[u8]) -> Treemap {
    let (count, mut rest) = bytes.split_first_chunk::<8>().expect("bucket count");
    let mut map = BTreeMap::new();
    for _ in 0..u64::from_le_bytes(*count) {
        let (key, tail) = rest.split_first_chunk::<4>().expect("bucket key");
        // SAFETY: the bytes are CRoaring's own portable serialization (checked
        // byte-identical in `Data::load`), so each bucket holds a valid bitmap.
        let bm = unsafe {
            <Portable as croaring::bitmap::Deserializer>::try_deserialize_unchecked(tail)
        };
        rest = &tail[bm.get_serialized_size_in_bytes::<Portable>()..];
        map.insert(u32::from_le_bytes(*key), bm);
    }
    Treemap { map }
}

fn tm_de_checked(bytes: &[u8]) -> Treemap {
    Treemap::try_deserialize::<Portable>(bytes).expect("portable bytes")
}

fn tm_ser(t: &Treemap) -> Vec<u8> {
    t.serialize::<Portable>()
}

// ---- n-way union ----

fn c64_or_many<'a>(mut it: impl Iterator<Item = &'a Bitmap64>) -> Bitmap64 {
    let mut acc = it.next().cloned().unwrap_or_default();
    it.for_each(|b| acc.or_inplace(b));
    acc
}

fn c64_or_many_owned(v: Vec<Bitmap64>) -> Bitmap64 {
    let mut it = v.into_iter();
    let mut acc = it.next().unwrap_or_default();
    it.for_each(|b| acc.or_inplace(&b));
    acc
}

/// CRoaring's `fast_or` (`roaring_bitmap_or_many`) on each high key's 32-bit bitmaps.
fn tm_fast_or<'a>(maps: impl Iterator<Item = &'a Treemap>) -> Treemap {
    let mut per_key: BTreeMap<u32, Vec<&Bitmap>> = BTreeMap::new();
    for t in maps {
        for (&k, b) in &t.map {
            per_key.entry(k).or_default().push(b);
        }
    }
    Treemap {
        map: per_key
            .into_iter()
            .map(|(k, bms)| (k, Bitmap::fast_or(&bms)))
            .collect(),
    }
}

// ---- pairwise operations ----

#[derive(Clone, Copy)]
enum Op {
    And,
    Or,
    Xor,
    AndNot,
}

impl Op {
    const ALL: [Op; 4] = [Op::And, Op::Or, Op::Xor, Op::AndNot];

    fn name(self) -> &'static str {
        match self {
            Op::And => "and",
            Op::Or => "or",
            Op::Xor => "xor",
            Op::AndNot => "andnot",
        }
    }

    fn sroar(self, a: RoaringView<'_>, b: RoaringView<'_>) -> Writer {
        match self {
            Op::And => ops::and_writer(a, b),
            Op::Or => ops::or_writer(a, b),
            Op::Xor => ops::xor_writer(a, b),
            Op::AndNot => ops::andnot_writer(a, b),
        }
    }

    fn sroar_len(self, a: RoaringView<'_>, b: RoaringView<'_>) -> u64 {
        match self {
            Op::And => ops::and_len(a, b),
            Op::Or => ops::or_len(a, b),
            Op::Xor => ops::xor_len(a, b),
            Op::AndNot => ops::andnot_len(a, b),
        }
    }

    fn rr(self, a: &RoaringTreemap, b: &RoaringTreemap) -> RoaringTreemap {
        match self {
            Op::And => a & b,
            Op::Or => a | b,
            Op::Xor => a ^ b,
            Op::AndNot => a - b,
        }
    }

    /// Owned operands: roaring-rs works in place.
    fn rr_owned(self, a: RoaringTreemap, b: RoaringTreemap) -> RoaringTreemap {
        match self {
            Op::And => a & b,
            Op::Or => a | b,
            Op::Xor => a ^ b,
            Op::AndNot => a - b,
        }
    }

    fn rr_len(self, a: &RoaringTreemap, b: &RoaringTreemap) -> u64 {
        match self {
            Op::And => a.intersection_len(b),
            Op::Or => a.union_len(b),
            Op::Xor => a.symmetric_difference_len(b),
            Op::AndNot => a.difference_len(b),
        }
    }

    fn c64(self, a: &Bitmap64, b: &Bitmap64) -> Bitmap64 {
        match self {
            Op::And => a.and(b),
            Op::Or => a.or(b),
            Op::Xor => a.xor(b),
            Op::AndNot => a.andnot(b),
        }
    }

    fn c64_inplace(self, a: &mut Bitmap64, b: &Bitmap64) {
        match self {
            Op::And => a.and_inplace(b),
            Op::Or => a.or_inplace(b),
            Op::Xor => a.xor_inplace(b),
            Op::AndNot => a.andnot_inplace(b),
        }
    }

    fn c64_len(self, a: &Bitmap64, b: &Bitmap64) -> u64 {
        match self {
            Op::And => a.and_cardinality(b),
            Op::Or => a.or_cardinality(b),
            Op::Xor => a.xor_cardinality(b),
            Op::AndNot => a.andnot_cardinality(b),
        }
    }

    fn tm(self, a: &Treemap, b: &Treemap) -> Treemap {
        match self {
            Op::And => a.and(b),
            Op::Or => a.or(b),
            Op::Xor => a.xor(b),
            Op::AndNot => a.andnot(b),
        }
    }

    fn tm_inplace(self, a: &mut Treemap, b: &Treemap) {
        match self {
            Op::And => a.and_inplace(b),
            Op::Or => a.or_inplace(b),
            Op::Xor => a.xor_inplace(b),
            Op::AndNot => a.andnot_inplace(b),
        }
    }

    /// `Treemap` has no cardinality forms: `and_cardinality` per common high key,
    /// and the others from it.
    fn tm_len(self, a: &Treemap, b: &Treemap) -> u64 {
        let (small, large) = if a.map.len() <= b.map.len() {
            (a, b)
        } else {
            (b, a)
        };
        let and: u64 = small
            .map
            .iter()
            .filter_map(|(k, x)| large.map.get(k).map(|y| x.and_cardinality(y)))
            .sum();
        match self {
            Op::And => and,
            Op::Or => a.cardinality() + b.cardinality() - and,
            Op::Xor => a.cardinality() + b.cardinality() - 2 * and,
            Op::AndNot => a.cardinality() - and,
        }
    }
}

// ---- iteration ----

fn sroar_sum_batch(v: RoaringView<'_>, buf: &mut [u64]) -> u64 {
    let mut it = v.iter();
    let mut sum = 0u64;
    loop {
        let n = it.next_batch(buf);
        if n == 0 {
            return sum;
        }
        sum = buf[..n].iter().fold(sum, |s, &x| s.wrapping_add(x));
    }
}

fn sroar_sum_iter(v: RoaringView<'_>) -> u64 {
    v.iter().fold(0u64, |s, x| s.wrapping_add(x))
}

fn rr_sum(t: &RoaringTreemap) -> u64 {
    t.iter().fold(0u64, |s, x| s.wrapping_add(x))
}

fn c64_sum(b: &Bitmap64, buf: &mut [u64]) -> u64 {
    let mut it = b.iter();
    let mut sum = 0u64;
    loop {
        let n = it.next_many(buf);
        if n == 0 {
            return sum;
        }
        sum = buf[..n].iter().fold(sum, |s, &x| s.wrapping_add(x));
    }
}

fn tm_sum(t: &Treemap, buf: &mut [u32]) -> u64 {
    let mut sum = 0u64;
    for (&hi, bm) in &t.map {
        let high = u64::from(hi) << 32;
        let mut it = bm.iter();
        loop {
            let n = it.next_many(buf);
            if n == 0 {
                break;
            }
            sum = buf[..n]
                .iter()
                .fold(sum, |s, &x| s.wrapping_add(high | u64::from(x)));
        }
    }
    sum
}

// ---- one dataset, in every form ----

struct Data {
    name: String,
    /// sroar buffers, one per bitmap.
    ours: Vec<Vec<u8>>,
    /// The same bitmaps in the portable format (with runs).
    portable: Vec<Vec<u8>>,
    rr: Vec<RoaringTreemap>,
    c64: Vec<Bitmap64>,
    tm: Vec<Treemap>,
    probes: Vec<Vec<u64>>,
}

impl Data {
    fn load(name: &str) -> Data {
        let values = realdata::load(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let ours = common::sroar_buffers(&values);
        let portable: Vec<Vec<u8>> = common::views(&ours)
            .iter()
            .map(door::portable::to_portable)
            .collect();
        let rr: Vec<RoaringTreemap> = portable
            .iter()
            .map(|p| {
                let mut t = rr_de_checked(p);
                t.optimize();
                t
            })
            .collect();
        let c64: Vec<Bitmap64> = portable
            .iter()
            .map(|p| {
                let mut b = c64_de(p);
                b.run_optimize();
                b
            })
            .collect();
        let tm: Vec<Treemap> = portable
            .iter()
            .map(|p| {
                let mut t = tm_de_checked(p);
                t.run_optimize();
                t
            })
            .collect();
        // The bytes each library reads are the bytes it writes itself.
        for (i, p) in portable.iter().enumerate() {
            assert!(rr_ser(&rr[i]) == *p, "{name}[{i}]: roaring-rs bytes differ");
            assert!(c64_ser(&c64[i]) == *p, "{name}[{i}]: Bitmap64 bytes differ");
            assert!(tm_ser(&tm[i]) == *p, "{name}[{i}]: Treemap bytes differ");
        }
        let per_bitmap = (PROBES_PER_DATASET / values.len().max(1)).clamp(1, 1000);
        let probes = values
            .iter()
            .enumerate()
            .map(|(i, vs)| {
                let mut rng = SplitMix64(0x5EED ^ i as u64);
                let (lo, hi) = match (vs.first(), vs.last()) {
                    (Some(&lo), Some(&hi)) => (lo, hi),
                    _ => (0, u64::from(u32::MAX)),
                };
                (0..per_bitmap)
                    .map(|k| match k % 2 {
                        // Half present values, half uniform over the bitmap's range.
                        0 if !vs.is_empty() => vs[rng.in_range(0, vs.len() as u64 - 1) as usize],
                        _ => rng.in_range(lo, hi),
                    })
                    .collect()
            })
            .collect();
        Data {
            name: name.to_string(),
            ours,
            portable,
            rr,
            c64,
            tm,
            probes,
        }
    }

    fn views(&self) -> Vec<RoaringView<'_>> {
        self.ours.iter().map(|b| open(b)).collect()
    }

    fn group<'c>(
        &self,
        c: &'c mut Criterion,
        op: &str,
        form: &str,
    ) -> BenchmarkGroup<'c, WallTime> {
        let mut g = c.benchmark_group(format!("{}/{op}/{form}", self.name));
        g.sampling_mode(SamplingMode::Flat);
        g
    }
}

fn bench_or_many(c: &mut Criterion, d: &Data) {
    let views = d.views();
    let union = finish(ops::or_many(&views));
    let card = open(&union).len();
    assert_eq!(
        card,
        d.rr.iter().union().len(),
        "{}: or_many vs roaring-rs",
        d.name
    );
    assert_eq!(
        card,
        c64_or_many(d.c64.iter()).cardinality(),
        "{}: or_many vs Bitmap64",
        d.name
    );
    assert_eq!(
        card,
        tm_fast_or(d.tm.iter()).cardinality(),
        "{}: or_many vs Treemap",
        d.name
    );

    let mut g = d.group(c, "or_many", "mem");
    g.bench_function("sroar", |b| {
        b.iter(|| finish(ops::or_many(black_box(&views))))
    });
    g.bench_function("roaring", |b| b.iter(|| d.rr.iter().union()));
    g.bench_function("croaring64", |b| b.iter(|| c64_or_many(d.c64.iter())));
    g.bench_function("treemap", |b| b.iter(|| tm_fast_or(d.tm.iter())));
    g.finish();

    let mut g = d.group(c, "or_many", "bytes");
    g.bench_function("sroar", |b| {
        b.iter(|| {
            let vs: Vec<RoaringView<'_>> = d.ours.iter().map(|x| open(x)).collect();
            finish(ops::or_many(&vs))
        })
    });
    g.bench_function("sroar_checked", |b| {
        b.iter(|| {
            let vs: Vec<RoaringView<'_>> = d.ours.iter().map(|x| open_checked(x)).collect();
            finish(ops::or_many(&vs))
        })
    });
    g.bench_function("roaring", |b| {
        b.iter(|| rr_ser(&d.portable.iter().map(|p| rr_de(p)).union()))
    });
    g.bench_function("croaring64", |b| {
        b.iter(|| {
            c64_ser(&c64_or_many_owned(
                d.portable.iter().map(|p| c64_de(p)).collect(),
            ))
        })
    });
    g.bench_function("treemap", |b| {
        b.iter(|| {
            let owned: Vec<Treemap> = d.portable.iter().map(|p| tm_de(p)).collect();
            tm_ser(&tm_fast_or(owned.iter()))
        })
    });
    g.finish();
}

fn bench_pairs(c: &mut Criterion, d: &Data) {
    let views = d.views();
    for op in Op::ALL {
        if let [a, b] = views[..2.min(views.len())] {
            let card = open(&finish(op.sroar(a, b))).len();
            assert_eq!(
                card,
                op.sroar_len(a, b),
                "{}: {} vs its _len",
                d.name,
                op.name()
            );
            assert_eq!(
                card,
                op.rr(&d.rr[0], &d.rr[1]).len(),
                "{}: {} vs roaring-rs",
                d.name,
                op.name()
            );
            assert_eq!(
                card,
                op.c64_len(&d.c64[0], &d.c64[1]),
                "{}: {} vs Bitmap64",
                d.name,
                op.name()
            );
            assert_eq!(
                card,
                op.tm_len(&d.tm[0], &d.tm[1]),
                "{}: {} vs Treemap",
                d.name,
                op.name()
            );
        }

        let mut g = d.group(c, op.name(), "mem");
        g.bench_function("sroar", |b| {
            b.iter(|| {
                for w in views.windows(2) {
                    black_box(finish(op.sroar(w[0], w[1])));
                }
            })
        });
        g.bench_function("roaring", |b| {
            b.iter(|| {
                for w in d.rr.windows(2) {
                    black_box(op.rr(&w[0], &w[1]));
                }
            })
        });
        g.bench_function("croaring64", |b| {
            b.iter(|| {
                for w in d.c64.windows(2) {
                    black_box(op.c64(&w[0], &w[1]));
                }
            })
        });
        g.bench_function("treemap", |b| {
            b.iter(|| {
                for w in d.tm.windows(2) {
                    black_box(op.tm(&w[0], &w[1]));
                }
            })
        });
        g.finish();

        let mut g = d.group(c, op.name(), "bytes");
        g.bench_function("sroar", |b| {
            b.iter(|| {
                for w in d.ours.windows(2) {
                    black_box(finish(op.sroar(open(&w[0]), open(&w[1]))));
                }
            })
        });
        g.bench_function("sroar_checked", |b| {
            b.iter(|| {
                for w in d.ours.windows(2) {
                    black_box(finish(op.sroar(open_checked(&w[0]), open_checked(&w[1]))));
                }
            })
        });
        g.bench_function("roaring", |b| {
            b.iter(|| {
                for w in d.portable.windows(2) {
                    black_box(rr_ser(&op.rr_owned(rr_de(&w[0]), rr_de(&w[1]))));
                }
            })
        });
        g.bench_function("croaring64", |b| {
            b.iter(|| {
                for w in d.portable.windows(2) {
                    let mut x = c64_de(&w[0]);
                    op.c64_inplace(&mut x, &c64_de(&w[1]));
                    black_box(c64_ser(&x));
                }
            })
        });
        g.bench_function("treemap", |b| {
            b.iter(|| {
                for w in d.portable.windows(2) {
                    let mut x = tm_de(&w[0]);
                    op.tm_inplace(&mut x, &tm_de(&w[1]));
                    black_box(tm_ser(&x));
                }
            })
        });
        g.finish();
    }

    for op in Op::ALL {
        let name = format!("{}_len", op.name());
        let mut g = d.group(c, &name, "mem");
        g.bench_function("sroar", |b| {
            b.iter(|| {
                views
                    .windows(2)
                    .map(|w| op.sroar_len(w[0], w[1]))
                    .sum::<u64>()
            })
        });
        g.bench_function("roaring", |b| {
            b.iter(|| {
                d.rr.windows(2)
                    .map(|w| op.rr_len(&w[0], &w[1]))
                    .sum::<u64>()
            })
        });
        g.bench_function("croaring64", |b| {
            b.iter(|| {
                d.c64
                    .windows(2)
                    .map(|w| op.c64_len(&w[0], &w[1]))
                    .sum::<u64>()
            })
        });
        g.bench_function("treemap", |b| {
            b.iter(|| {
                d.tm.windows(2)
                    .map(|w| op.tm_len(&w[0], &w[1]))
                    .sum::<u64>()
            })
        });
        g.finish();

        let mut g = d.group(c, &name, "bytes");
        g.bench_function("sroar", |b| {
            b.iter(|| {
                d.ours
                    .windows(2)
                    .map(|w| op.sroar_len(open(&w[0]), open(&w[1])))
                    .sum::<u64>()
            })
        });
        g.bench_function("roaring", |b| {
            b.iter(|| {
                d.portable
                    .windows(2)
                    .map(|w| op.rr_len(&rr_de(&w[0]), &rr_de(&w[1])))
                    .sum::<u64>()
            })
        });
        g.bench_function("croaring64", |b| {
            b.iter(|| {
                d.portable
                    .windows(2)
                    .map(|w| op.c64_len(&c64_de(&w[0]), &c64_de(&w[1])))
                    .sum::<u64>()
            })
        });
        g.bench_function("treemap", |b| {
            b.iter(|| {
                d.portable
                    .windows(2)
                    .map(|w| op.tm_len(&tm_de(&w[0]), &tm_de(&w[1])))
                    .sum::<u64>()
            })
        });
        g.finish();
    }
}

fn bench_contains(c: &mut Criterion, d: &Data) {
    let views = d.views();
    let hits = |f: &dyn Fn(usize, u64) -> bool| -> usize {
        d.probes
            .iter()
            .enumerate()
            .map(|(i, ps)| ps.iter().filter(|&&p| f(i, p)).count())
            .sum()
    };
    let expected = hits(&|i, p| views[i].contains(p));
    assert_eq!(
        expected,
        hits(&|i, p| d.rr[i].contains(p)),
        "{}: contains vs roaring-rs",
        d.name
    );
    assert_eq!(
        expected,
        hits(&|i, p| d.c64[i].contains(p)),
        "{}: contains vs Bitmap64",
        d.name
    );
    assert_eq!(
        expected,
        hits(&|i, p| d.tm[i].contains(p)),
        "{}: contains vs Treemap",
        d.name
    );

    macro_rules! probe_all {
        ($structs:expr, |$s:ident| $open:expr) => {{
            let mut n = 0usize;
            for ($s, ps) in $structs.iter().zip(&d.probes) {
                let x = $open;
                n += ps.iter().filter(|&&p| x.contains(p)).count();
            }
            n
        }};
    }
    let mut g = d.group(c, "contains", "mem");
    g.bench_function("sroar", |b| b.iter(|| probe_all!(views, |v| *v)));
    g.bench_function("roaring", |b| b.iter(|| probe_all!(d.rr, |t| t)));
    g.bench_function("croaring64", |b| b.iter(|| probe_all!(d.c64, |t| t)));
    g.bench_function("treemap", |b| b.iter(|| probe_all!(d.tm, |t| t)));
    g.finish();

    // bytes: every probe starts from the stored bytes, as one `rb_contains` per
    // row does in the database; the first PROBES_PER_OPEN probes of each bitmap.
    macro_rules! probe_each {
        ($bytes:expr, |$s:ident| $open:expr) => {{
            let mut n = 0usize;
            for ($s, ps) in $bytes.iter().zip(&d.probes) {
                for &p in ps.iter().take(PROBES_PER_OPEN) {
                    n += usize::from($open.contains(p));
                }
            }
            n
        }};
    }
    let mut g = d.group(c, "contains", "bytes");
    g.bench_function("sroar", |b| b.iter(|| probe_each!(d.ours, |x| open(x))));
    g.bench_function("roaring", |b| {
        b.iter(|| probe_each!(d.portable, |x| rr_de(x)))
    });
    g.bench_function("croaring64", |b| {
        b.iter(|| probe_each!(d.portable, |x| c64_de(x)))
    });
    g.bench_function("treemap", |b| {
        b.iter(|| probe_each!(d.portable, |x| tm_de(x)))
    });
    g.finish();

    // batch: one open (deserialization) per bitmap, then all its probes.
    let mut g = d.group(c, "contains", "batch");
    g.bench_function("sroar", |b| b.iter(|| probe_all!(d.ours, |x| open(x))));
    g.bench_function("roaring", |b| {
        b.iter(|| probe_all!(d.portable, |x| rr_de(x)))
    });
    g.bench_function("croaring64", |b| {
        b.iter(|| probe_all!(d.portable, |x| c64_de(x)))
    });
    g.bench_function("treemap", |b| {
        b.iter(|| probe_all!(d.portable, |x| tm_de(x)))
    });
    g.finish();
}

fn bench_iter(c: &mut Criterion, d: &Data) {
    let views = d.views();
    let (mut b64, mut b32) = ([0u64; BATCH], [0u32; BATCH]);
    let sum =
        |s: &mut dyn FnMut(usize) -> u64| (0..views.len()).fold(0u64, |a, i| a.wrapping_add(s(i)));
    let expected = sum(&mut |i| sroar_sum_batch(views[i], &mut b64));
    assert_eq!(
        expected,
        sum(&mut |i| sroar_sum_iter(views[i])),
        "{}: iter vs next_batch",
        d.name
    );
    assert_eq!(
        expected,
        sum(&mut |i| rr_sum(&d.rr[i])),
        "{}: iter vs roaring-rs",
        d.name
    );
    assert_eq!(
        expected,
        sum(&mut |i| c64_sum(&d.c64[i], &mut b64)),
        "{}: iter vs Bitmap64",
        d.name
    );
    assert_eq!(
        expected,
        sum(&mut |i| tm_sum(&d.tm[i], &mut b32)),
        "{}: iter vs Treemap",
        d.name
    );

    let mut g = d.group(c, "iter", "mem");
    g.bench_function("sroar", |b| {
        b.iter(|| {
            views
                .iter()
                .fold(0u64, |s, &v| s.wrapping_add(sroar_sum_batch(v, &mut b64)))
        })
    });
    g.bench_function("sroar_iter", |b| {
        b.iter(|| {
            views
                .iter()
                .fold(0u64, |s, &v| s.wrapping_add(sroar_sum_iter(v)))
        })
    });
    g.bench_function("roaring", |b| {
        b.iter(|| d.rr.iter().fold(0u64, |s, t| s.wrapping_add(rr_sum(t))))
    });
    g.bench_function("croaring64", |b| {
        b.iter(|| {
            d.c64
                .iter()
                .fold(0u64, |s, t| s.wrapping_add(c64_sum(t, &mut b64)))
        })
    });
    g.bench_function("treemap", |b| {
        b.iter(|| {
            d.tm.iter()
                .fold(0u64, |s, t| s.wrapping_add(tm_sum(t, &mut b32)))
        })
    });
    g.finish();

    let mut g = d.group(c, "iter", "bytes");
    g.bench_function("sroar", |b| {
        b.iter(|| {
            d.ours.iter().fold(0u64, |s, x| {
                s.wrapping_add(sroar_sum_batch(open(x), &mut b64))
            })
        })
    });
    g.bench_function("sroar_iter", |b| {
        b.iter(|| {
            d.ours
                .iter()
                .fold(0u64, |s, x| s.wrapping_add(sroar_sum_iter(open(x))))
        })
    });
    g.bench_function("roaring", |b| {
        b.iter(|| {
            d.portable
                .iter()
                .fold(0u64, |s, p| s.wrapping_add(rr_sum(&rr_de(p))))
        })
    });
    g.bench_function("croaring64", |b| {
        b.iter(|| {
            d.portable
                .iter()
                .fold(0u64, |s, p| s.wrapping_add(c64_sum(&c64_de(p), &mut b64)))
        })
    });
    g.bench_function("treemap", |b| {
        b.iter(|| {
            d.portable
                .iter()
                .fold(0u64, |s, p| s.wrapping_add(tm_sum(&tm_de(p), &mut b32)))
        })
    });
    g.finish();
}

/// Opening one large bitmap from its bytes: the union of the dataset, or its
/// largest bitmap when that is larger (the union of a dense dataset is a few
/// full runs); also records the serialized sizes.
fn bench_open(c: &mut Criterion, d: &Data) {
    let union = finish(ops::or_many(&d.views()));
    let union_portable = door::portable::to_portable(&open(&union));
    write_sizes(d, &union, &union_portable);
    let largest = d
        .ours
        .iter()
        .max_by_key(|b| b.len())
        .expect("a dataset has bitmaps");
    let big = if largest.len() > union.len() {
        largest.clone()
    } else {
        union
    };
    let big_portable = door::portable::to_portable(&open(&big));
    write_open_size(d, &big, &big_portable);

    let mut g = d.group(c, "open", "bytes");
    g.bench_function("sroar", |b| b.iter(|| open(black_box(&big))));
    g.bench_function("sroar_checked", |b| {
        b.iter(|| open_checked(black_box(&big)))
    });
    g.bench_function("roaring", |b| b.iter(|| rr_de(black_box(&big_portable))));
    g.bench_function("roaring_checked", |b| {
        b.iter(|| rr_de_checked(black_box(&big_portable)))
    });
    g.bench_function("croaring64", |b| {
        b.iter(|| c64_de(black_box(&big_portable)))
    });
    g.bench_function("treemap", |b| b.iter(|| tm_de(black_box(&big_portable))));
    g.bench_function("treemap_checked", |b| {
        b.iter(|| tm_de_checked(black_box(&big_portable)))
    });
    g.finish();
}

/// Serialized sizes, for `summarize.py`: `target/realdata/sizes/<dataset>.json`.
fn write_sizes(d: &Data, big: &[u8], big_portable: &[u8]) {
    let total = |v: &[Vec<u8>]| v.iter().map(Vec::len).sum::<usize>();
    let values: u64 = d.ours.iter().map(|b| open(b).len()).sum();
    let json = format!(
        "{{\"dataset\": \"{}\", \"bitmaps\": {}, \"values\": {}, \"sroar_bytes\": {}, \"portable_bytes\": {}, \"union_values\": {}, \"union_sroar_bytes\": {}, \"union_portable_bytes\": {}}}\n",
        d.name,
        d.ours.len(),
        values,
        total(&d.ours),
        total(&d.portable),
        open(big).len(),
        big.len(),
        big_portable.len()
    );
    write_json(&format!("{}.json", d.name), &json);
}

fn write_json(file: &str, json: &str) {
    let dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(|t| std::path::PathBuf::from(t).join("realdata/sizes"))
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/realdata/sizes")
        });
    if let Err(e) =
        std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(dir.join(file), json))
    {
        eprintln!("{file}: {e}");
    }
}

/// What `open` opened: `target/realdata/sizes/<dataset>.open.json`.
fn write_open_size(d: &Data, big: &[u8], big_portable: &[u8]) {
    let json = format!(
        "{{\"dataset\": \"{}\", \"open_values\": {}, \"open_sroar_bytes\": {}, \"open_portable_bytes\": {}, \"open_containers\": {}}}\n",
        d.name,
        open(big).len(),
        big.len(),
        big_portable.len(),
        open(big).container_count()
    );
    write_json(&format!("{}.open.json", d.name), &json);
}

fn realdata(c: &mut Criterion) {
    for name in realdata::selected() {
        let d = Data::load(&name);
        bench_open(c, &d);
        bench_or_many(c, &d);
        bench_pairs(c, &d);
        bench_contains(c, &d);
        bench_iter(c, &d);
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
    targets = realdata
}
criterion_main!(benches);
