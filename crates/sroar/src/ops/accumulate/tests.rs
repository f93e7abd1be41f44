//! Unit tests of the streaming accumulators with a caller's allocator: every allocation of the
//! state goes through it (none through the global allocator), all of it is freed
//! on drop, and the results equal a `BTreeSet<u64>` model and `finish()` byte for
//! byte.
//!
//! Two allocators count: [`Counting`], the accumulators' allocator (live bytes
//! and allocations), and the global allocator of this test binary, which counts
//! the allocations made on a thread while that thread is inside [`global_allocs`].
//! Both only forward to the system allocator; they are the only `unsafe` code.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::BTreeSet;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

use allocator_api2::alloc::{AllocError, Allocator};
use proptest::prelude::*;
use super::or::OrAccumulator;
use super::{AndAccumulator, XorAccumulator};
use crate::builder::{empty, from_sorted};
use crate::view::RoaringView;
use crate::writer::{CapacityError, Writer};

type Model = BTreeSet<u64>;

// ------------------------------------------------------------- the allocators

thread_local! {
    static MEASURING: Cell<bool> = const { Cell::new(false) };
    static GLOBAL_ALLOCS: Cell<usize> = const { Cell::new(0) };
}

/// Counts an allocation when this thread is measuring.
fn note_global() {
    let _ = MEASURING.try_with(|m| {
        if m.get() {
            let _ = GLOBAL_ALLOCS.try_with(|c| c.set(c.get() + 1));
        }
    });
}

struct CountingGlobal;

// SAFETY: every method forwards to `System` with the caller's arguments and
// guarantees unchanged; the counting touches only const-initialised thread locals
// without destructors, so it never allocates or re-enters the allocator.
unsafe impl GlobalAlloc for CountingGlobal {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_global();
        // SAFETY: the caller's guarantees for `alloc` are passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_global();
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_global();
        // SAFETY: `ptr` came from this allocator, that is from `System`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, that is from `System`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: CountingGlobal = CountingGlobal;

/// Runs `f` and returns its result with the number of global allocations it made
/// on this thread.
fn global_allocs<R>(f: impl FnOnce() -> R) -> (R, usize) {
    // The process's first kernel call picks the SIMD tier once, reading
    // `SROAR_SIMD` (which allocates when the variable is set): not the
    // accumulator's doing, so it must not land inside a measurement.
    crate::kernels::tier();
    GLOBAL_ALLOCS.with(|c| c.set(0));
    MEASURING.with(|m| m.set(true));
    let r = f();
    MEASURING.with(|m| m.set(false));
    (r, GLOBAL_ALLOCS.with(Cell::get))
}

#[derive(Debug, Default)]
struct Counts {
    live_bytes: AtomicUsize,
    allocations: AtomicUsize,
}

/// The accumulators' allocator, counting live bytes and allocations. It takes its
/// blocks from `System`, the allocator under `Global`: `Global` itself would go
/// through this binary's global allocator and be counted as global use.
#[derive(Clone, Debug, Default)]
struct Counting(Arc<Counts>);

impl Counting {
    fn live_bytes(&self) -> usize {
        self.0.live_bytes.load(Relaxed)
    }

    fn allocations(&self) -> usize {
        self.0.allocations.load(Relaxed)
    }
}

// SAFETY: blocks come from `System` and are returned to it unchanged, so they
// stay valid until `deallocate`, and clones share the same `System`.
unsafe impl Allocator for Counting {
    fn allocate(&self, layout: Layout) -> Result<NonNull<[u8]>, AllocError> {
        let block = System.allocate(layout)?;
        self.0.live_bytes.fetch_add(layout.size(), Relaxed);
        self.0.allocations.fetch_add(1, Relaxed);
        Ok(block)
    }

    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        self.0.live_bytes.fetch_sub(layout.size(), Relaxed);
        // SAFETY: `ptr` was allocated by `allocate` above, that is by `System`,
        // with `layout`, as the caller guarantees.
        unsafe { System.deallocate(ptr, layout) }
    }
}

/// Picks the SIMD tier, the hasher keys and the buffer where arrays merge before
/// anything is measured (each allocates once per process or thread).
fn warm_up() {
    // Not consecutive, so that the set is an array container, which merges.
    let bytes = from_sorted(&[1, 3, 5]).unwrap();
    let mut acc = OrAccumulator::new();
    acc.add(RoaringView::from_bytes(&bytes).unwrap());
    acc.add(RoaringView::from_bytes(&bytes).unwrap());
    acc.insert(70_000);
    let _ = acc.finish().into_vec();
}

// ---------------------------------------------------------------- generators

/// Values near which inputs cluster: 0, 2^16, 2^32, 2^48 and `u64::MAX`.
const ANCHORS: [u64; 5] = [0, 1 << 16, 1 << 32, 1 << 48, u64::MAX];

fn near() -> impl Strategy<Value = u64> {
    (0..ANCHORS.len(), -140_000i64..140_000).prop_map(|(a, d)| {
        let base = ANCHORS[a];
        if d < 0 {
            base.saturating_sub(d.unsigned_abs())
        } else {
            base.saturating_add(d as u64)
        }
    })
}

fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

/// One part of an input set.
fn piece() -> impl Strategy<Value = Model> {
    prop_oneof![
        // Scattered values.
        prop::collection::btree_set(near(), 0..64),
        // A long run, over container boundaries.
        (near(), 1u64..140_000).prop_map(|(s, len)| (s..=s.saturating_add(len)).collect()),
        // A dense block: more than 4096 random lows of one container.
        (near(), any::<u64>(), 3_000u32..9_000).prop_map(|(v, seed, count)| {
            let mut s = seed | 1;
            (0..count)
                .map(|_| v & !0xFFFF | xorshift(&mut s) & 0xFFFF)
                .collect()
        }),
        // Many distinct keys, anywhere.
        (any::<u64>(), 1usize..600).prop_map(|(seed, count)| {
            let mut s = seed | 1;
            (0..count).map(|_| xorshift(&mut s)).collect()
        }),
        Just(Model::new()),
    ]
}

fn set() -> impl Strategy<Value = Model> {
    prop::collection::vec(piece(), 0..4).prop_map(|ps| ps.into_iter().flatten().collect())
}

/// Sets sharing a common core, so that intersections and cancellations happen.
fn overlapping(max: usize) -> impl Strategy<Value = Vec<Model>> {
    (set(), prop::collection::vec(set(), 0..max)).prop_map(|(core, extras)| {
        extras
            .into_iter()
            .map(|e| core.iter().copied().chain(e).collect())
            .collect()
    })
}

fn bytes_of(m: &Model) -> Vec<u8> {
    from_sorted(&m.iter().copied().collect::<Vec<_>>()).unwrap()
}

// ------------------------------------------------------------------- checking

/// The part of the API every accumulator has.
trait Acc: Clone {
    fn len(&self) -> u64;
    fn encoded_len(&mut self) -> Result<usize, CapacityError>;
    fn write_into(&self, out: &mut [u8]) -> Result<(), CapacityError>;
    fn finish(self) -> Writer;
}

macro_rules! impl_acc {
    ($($t:ident),*) => {$(
        impl Acc for $t<Counting> {
            fn len(&self) -> u64 {
                $t::len(self)
            }
            fn encoded_len(&mut self) -> Result<usize, CapacityError> {
                $t::encoded_len(self)
            }
            fn write_into(&self, out: &mut [u8]) -> Result<(), CapacityError> {
                $t::write_into(self, out)
            }
            fn finish(self) -> Writer {
                $t::finish(self)
            }
        }
    )*};
}
impl_acc!(OrAccumulator, AndAccumulator, XorAccumulator);

/// Measures `len`, `encoded_len` and `write_into` on `acc`, checks the result
/// against `model` and `finish()`, and drops everything: the allocator must end
/// with no live bytes. `accumulated_globally` is what the accumulation made.
fn check<T: Acc>(mut acc: T, alloc: &Counting, accumulated_globally: usize, model: &Model) {
    assert_eq!(accumulated_globally, 0, "accumulation allocated globally");
    let ((len, enc), global) = global_allocs(|| (acc.len(), acc.encoded_len().unwrap()));
    assert_eq!(global, 0, "len/encoded_len allocated globally");
    assert_eq!(len, model.len() as u64, "len");
    let expected = bytes_of(model);
    assert_eq!(enc, expected.len(), "encoded_len");
    let mut out = vec![0u8; enc];
    let before = alloc.allocations();
    let (r, global) = global_allocs(|| acc.write_into(&mut out));
    r.unwrap();
    assert_eq!(global, 0, "write_into allocated globally");
    assert_eq!(acc.len(), len, "len from the cached summary");
    assert_eq!(alloc.allocations(), before, "write_into allocated");
    // A second call uses the cache and allocates nothing at all.
    let ((), global) = global_allocs(|| assert_eq!(acc.encoded_len(), Ok(enc)));
    assert_eq!((global, alloc.allocations()), (0, before));
    let view = RoaringView::from_bytes(&out).expect("write_into output validates");
    assert!(view.iter().eq(model.iter().copied()), "values");
    assert_eq!(out, expected, "canonical bytes");
    assert_eq!(acc.clone().finish().into_vec().unwrap(), out, "finish");
    let ((), global) = global_allocs(|| drop(acc));
    assert_eq!(global, 0, "drop allocated globally");
    assert_eq!(alloc.live_bytes(), 0, "bytes left after drop");
}

fn run_or(inputs: &[(Model, bool)]) {
    warm_up();
    let views: Vec<Vec<u8>> = inputs.iter().map(|(m, _)| bytes_of(m)).collect();
    let values: Vec<Vec<u64>> = inputs
        .iter()
        .map(|(m, _)| m.iter().copied().collect())
        .collect();
    let alloc = Counting::default();
    let (acc, global) = global_allocs(|| {
        let mut acc = OrAccumulator::new_in(alloc.clone());
        for (i, (_, insert)) in inputs.iter().enumerate() {
            if *insert {
                // In a shuffled order: keys arrive out of order.
                let (a, b) = values[i].split_at(values[i].len() / 2);
                for &v in b.iter().chain(a.iter().rev()) {
                    acc.insert(v);
                }
            } else {
                acc.add(RoaringView::from_bytes(&views[i]).unwrap());
            }
        }
        acc
    });
    let model: Model = inputs.iter().flat_map(|(m, _)| m.iter().copied()).collect();
    assert_eq!(acc.is_empty(), model.is_empty());
    assert!(model.is_empty() || alloc.allocations() > 0);
    check(acc, &alloc, global, &model);
}

fn run_and(inputs: &[Model]) {
    warm_up();
    let views: Vec<Vec<u8>> = inputs.iter().map(bytes_of).collect();
    // Whether the intersection of the first i + 1 inputs is empty.
    let empty_so_far: Vec<bool> = (0..inputs.len())
        .map(|i| {
            let so_far = inputs[1..=i].iter().fold(inputs[0].clone(), |a, b| &a & b);
            so_far.is_empty()
        })
        .collect();
    let alloc = Counting::default();
    let (acc, global) = global_allocs(|| {
        let mut acc = AndAccumulator::new_in(alloc.clone());
        for (v, &empty) in views.iter().zip(&empty_so_far) {
            acc.add(RoaringView::from_bytes(v).unwrap());
            assert_eq!(acc.is_empty(), empty, "is_empty");
        }
        acc
    });
    let model = match inputs.split_first() {
        Some((first, rest)) => rest.iter().fold(first.clone(), |a, b| &a & b),
        None => Model::new(),
    };
    check(acc, &alloc, global, &model);
}

fn run_xor(inputs: &[Model]) {
    warm_up();
    let views: Vec<Vec<u8>> = inputs.iter().map(bytes_of).collect();
    let alloc = Counting::default();
    let (acc, global) = global_allocs(|| {
        let mut acc = XorAccumulator::new_in(alloc.clone());
        for v in &views {
            acc.add(RoaringView::from_bytes(v).unwrap());
        }
        acc
    });
    let model = inputs.iter().fold(Model::new(), |a, b| &a ^ b);
    assert_eq!(acc.is_empty(), model.is_empty());
    check(acc, &alloc, global, &model);
}

// ---------------------------------------------------------------------- tests

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn or_model(inputs in prop::collection::vec((set(), any::<bool>()), 0..6)) {
        run_or(&inputs);
    }

    #[test]
    fn and_model(mut inputs in overlapping(5), empty_at in any::<prop::sample::Index>()) {
        // Sometimes one input is empty: everything after it is a no-op.
        if !inputs.is_empty() && empty_at.index(4) == 0 {
            let at = empty_at.index(inputs.len());
            inputs.insert(at, Model::new());
        }
        run_and(&inputs);
    }

    #[test]
    fn xor_model(inputs in overlapping(6)) {
        // Each input twice over, for some of them, so that containers cancel.
        let mut doubled = inputs.clone();
        doubled.extend(inputs.iter().step_by(2).cloned());
        run_xor(&doubled);
    }
}

/// Many small sets into a few containers, as an aggregate's rows arrive: arrays of
/// 256 values and more take the bitmap form before merging a much smaller set, yet
/// the result is canonical (an array again while it holds at most 4096 values), for
/// unions that stay small, cross 4096 and fill a container, and for XOR that
/// cancels back down.
#[test]
fn many_small_sets_into_growing_containers() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for (rows, per_row, spread) in [
        (40, 9, 1u64 << 20),
        (200, 10, 1 << 17),
        (300, 12, 1 << 20),
        (700, 40, 1 << 17),
        (3000, 30, 1 << 16),
    ] {
        let mut inputs: Vec<Model> = (0..rows)
            .map(|_| (0..per_row).map(|_| xorshift(&mut seed) % spread).collect())
            .collect();
        inputs.push(
            [0, 1 << 16, 1 << 32, 1 << 48, u64::MAX]
                .into_iter()
                .collect(),
        );
        run_or(
            &inputs
                .iter()
                .cloned()
                .map(|m| (m, false))
                .collect::<Vec<_>>(),
        );
        let mut doubled = inputs.clone();
        doubled.extend(inputs.iter().skip(1).step_by(2).cloned());
        run_xor(&doubled);
    }
}

/// A container that fills early (a full run, two halves of a bitmap, arrays that
/// add up) reads no later input: arrays, bitmaps, runs and inserted values still
/// give the model's set, written as one full run, next to keys that are not full.
#[test]
fn full_containers_absorb_later_inputs() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for base in [0u64, 1 << 16, 1 << 32, 1 << 48, u64::MAX - 0xFFFF] {
        let whole: Model = (base..=base + 0xFFFF).collect();
        let evens: Model = whole.iter().copied().filter(|v| v % 2 == 0).collect();
        let odds: Model = whole.iter().copied().filter(|v| v % 2 == 1).collect();
        let quarters: Vec<Model> = (0..16u64)
            .map(|q| (base + q * 4096..=base + q * 4096 + 4095).collect())
            .collect();
        let later: Vec<Model> = vec![
            (0..100)
                .map(|_| base + xorshift(&mut seed) % 0x10000)
                .collect(),
            (0..9000)
                .map(|_| base + xorshift(&mut seed) % 0x10000)
                .collect(),
            (base + 10..base + 20_000).collect(),
            // Values of the neighbouring keys, which stay partial.
            (0..300)
                .map(|_| (base ^ 1 << 17) + xorshift(&mut seed) % 0x10000)
                .collect(),
        ];
        // Two bitmaps that do not fill the container: later inputs still count.
        let threes: Model = whole.iter().copied().filter(|v| v % 3 == 0).collect();
        let partial = vec![evens.clone(), threes];
        for first in [
            vec![whole.clone()],
            vec![evens.clone(), odds.clone()],
            quarters,
            partial,
        ] {
            for insert_later in [false, true] {
                let inputs: Vec<(Model, bool)> = first
                    .iter()
                    .map(|m| (m.clone(), false))
                    .chain(later.iter().map(|m| (m.clone(), insert_later)))
                    .collect();
                run_or(&inputs);
                let mut xor: Vec<Model> = first.clone();
                xor.extend(later.iter().cloned());
                run_xor(&xor);
            }
        }
    }
}

/// Many keys in random order through `insert`, with runs, dense blocks and
/// values at the ends of the `u64` line.
#[test]
fn or_insert_many_keys_in_random_order() {
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    let mut values: Vec<u64> = (0..20_000).map(|_| xorshift(&mut s)).collect();
    values.extend(u64::MAX - 70_000..=u64::MAX);
    values.extend((0..9_000).map(|_| 5 << 16 | xorshift(&mut s) & 0xFFFF));
    values.extend((0..300).map(|i| (i * 7) << 16));
    for i in (1..values.len()).rev() {
        values.swap(i, xorshift(&mut s) as usize % (i + 1));
    }
    let model: Model = values.iter().copied().collect();
    run_or(&[(model, true)]);
}

#[test]
fn encoded_len_is_recomputed_after_a_change() {
    let alloc = Counting::default();
    let a = bytes_of(&(0..10).collect());
    let b = bytes_of(&(100_000..200_000).collect());
    let mut acc = OrAccumulator::new_in(alloc.clone());
    acc.add(RoaringView::from_bytes(&a).unwrap());
    let first = acc.encoded_len().unwrap();
    assert_eq!(first, a.len());
    acc.add(RoaringView::from_bytes(&b).unwrap());
    let model: Model = (0..10).chain(100_000..200_000).collect();
    let second = acc.encoded_len().unwrap();
    assert_eq!(second, bytes_of(&model).len());
    acc.insert(5_000_000);
    let mut model = model;
    model.insert(5_000_000);
    check(acc, &alloc, 0, &model);

    // Xor and And too: a change after sizing is seen.
    let alloc = Counting::default();
    let mut x = XorAccumulator::new_in(alloc.clone());
    x.add(RoaringView::from_bytes(&a).unwrap());
    assert_eq!(x.encoded_len().unwrap(), a.len());
    x.add(RoaringView::from_bytes(&a).unwrap());
    assert_eq!(x.encoded_len().unwrap(), empty().len());
    assert!(x.is_empty());
    check(x, &alloc, 0, &Model::new());

    let alloc = Counting::default();
    let mut n = AndAccumulator::new_in(alloc.clone());
    n.add(RoaringView::from_bytes(&b).unwrap());
    assert_eq!(n.encoded_len().unwrap(), b.len());
    let c = bytes_of(&(150_000..150_003).collect());
    n.add(RoaringView::from_bytes(&c).unwrap());
    check(n, &alloc, 0, &(150_000..150_003).collect());
}

#[test]
#[should_panic(expected = "encoded_len must be called")]
fn write_into_after_a_change_panics() {
    let mut acc = OrAccumulator::new();
    acc.insert(1);
    let mut out = vec![0; acc.encoded_len().unwrap()];
    acc.insert(2);
    let _ = acc.write_into(&mut out);
}

#[test]
fn and_before_any_input_and_after_emptying() {
    let mut n = AndAccumulator::new();
    assert!(!n.is_empty());
    assert_eq!(n.len(), 0);
    assert_eq!(n.encoded_len().unwrap(), empty().len());
    let a = bytes_of(&(0..5).collect());
    let b = bytes_of(&(10..15).collect());
    n.add(RoaringView::from_bytes(&a).unwrap());
    assert!(!n.is_empty());
    n.add(RoaringView::from_bytes(&b).unwrap());
    assert!(n.is_empty());
    n.add(RoaringView::from_bytes(&a).unwrap());
    assert!(n.is_empty());
    assert_eq!(n.finish().into_vec().unwrap(), empty());
}

#[test]
fn insert_reports_new_values() {
    let mut acc = OrAccumulator::new();
    assert!(acc.insert(3));
    assert!(!acc.insert(3));
    // Past 4096 values the container turns into a bitmap; the count stays exact.
    for v in 0..5_000u64 {
        acc.insert(v * 2);
    }
    assert_eq!(acc.len(), 5_001);
    assert_eq!(acc.container_count(), 1);
}

/// The harness itself: a global allocation inside the measured section is seen,
/// and one through `Counting` is not.
#[test]
fn the_counters_count() {
    let alloc = Counting::default();
    let (v, global) = global_allocs(|| std::hint::black_box(vec![1u8; 10]));
    assert_eq!((v.len(), global), (10, 1));
    let (v, global) = global_allocs(|| {
        let mut v = allocator_api2::vec::Vec::new_in(alloc.clone());
        v.push(1u64);
        v
    });
    assert_eq!(
        (global, alloc.allocations(), alloc.live_bytes()),
        (0, 1, 32)
    );
    drop(v);
    assert_eq!(alloc.live_bytes(), 0);
}
