//! One container pair seen as kernel slices, the scratch space the producing
//! operations share, and the mixed helpers the kernels do not provide.

use core::ops::ControlFlow;
use std::cell::RefCell;

use super::walk::common_at;
use crate::container::bitmap::{BITMAP_BYTES, WORDS};
use crate::container::Container;
use crate::kernels::run::bounds;
use crate::kernels::toggles::Toggles;
use crate::view::RoaringView;
use crate::writer::Writer;

/// A container's payload as the slices the kernels take.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Slices<'a> {
    /// Sorted little-endian `u16` lows.
    Array(&'a [[u8; 2]]),
    /// 1024 little-endian words.
    Bitmap(&'a [[u8; 8]]),
    /// `(start, len_minus_1)` little-endian pairs.
    Run(&'a [[u8; 4]]),
}

impl<'a> Slices<'a> {
    /// The slices of `c`'s payload (read in place).
    #[inline]
    pub(crate) fn of(c: Container<'a>) -> Self {
        match c {
            Container::Array(a) => Slices::Array(a.as_bytes().as_chunks::<2>().0),
            Container::Bitmap(b) => Slices::Bitmap(b.as_bytes().as_chunks::<8>().0),
            Container::Run(r) => Slices::Run(r.as_bytes().as_chunks::<4>().0),
        }
    }
}

/// The payload of the full container `0..=65535`: canonically one run.
const FULL_RUN: [u8; 4] = [0, 0, 0xFF, 0xFF];

/// Whether `c` holds all 65536 lows (O(1): a full container is always one run).
#[inline]
pub(crate) fn is_full(c: Container<'_>) -> bool {
    matches!(c, Container::Run(_)) && c.as_bytes() == FULL_RUN
}

/// Whether two containers hold the same set. Both come from valid views, so they
/// are canonical and the same set has the same kind and the same bytes.
#[inline]
pub(crate) fn same(a: Container<'_>, b: Container<'_>) -> bool {
    a.kind() == b.kind() && a.as_bytes() == b.as_bytes()
}

/// Reusable buffers of the producing operations, so that a whole operation
/// allocates them once, and an operation that follows on the same thread not at
/// all: see [`Scratch::ready`].
pub(crate) struct Scratch {
    /// Array results.
    pub(crate) lows: Vec<u16>,
    /// Run results, `(start, len_minus_1)`.
    pub(crate) runs: Vec<(u16, u16)>,
    /// Bitmap results, allocated on first use: many operations never meet a
    /// bitmap, and 8 KB per call is a cost on tiny inputs.
    words: Option<Box<[u64; WORDS]>>,
    /// Toggle points, for symmetric differences of runs; made on first use,
    /// since building them in every call cost the operations on small sets
    /// 5-15%.
    pub(crate) toggles: Option<Toggles>,
    /// Whether the buffers came from [`KEPT`], and go back there when dropped.
    kept: bool,
}

/// The buffers of the last [`Scratch`] dropped on this thread. On sets of a few
/// containers the allocator was a fifth of a pairwise operation's time
/// (`perf` of dimension_003's unions): three blocks each, of sizes that vary
/// from call to call, so that its per-size caches missed.
struct Kept {
    lows: Vec<u16>,
    runs: Vec<(u16, u16)>,
    words: Option<Box<[u64; WORDS]>>,
}

std::thread_local! {
    static KEPT: RefCell<Kept> = const {
        RefCell::new(Kept {
            lows: Vec::new(),
            runs: Vec::new(),
            words: None,
        })
    };
}

/// Buffers larger than this are freed rather than kept, so that what a thread
/// keeps stays small whatever it met.
const KEEP_BYTES: usize = 64 << 10;

impl Scratch {
    /// Empty buffers; nothing is allocated nor taken from [`KEPT`] until
    /// [`Scratch::ready`].
    pub(crate) fn new() -> Self {
        Scratch {
            lows: Vec::new(),
            runs: Vec::new(),
            words: None,
            toggles: None,
            kept: false,
        }
    }

    /// Takes the buffers kept on this thread, once per operation, before the
    /// first container pair that uses them: an operation whose containers are
    /// all copied (disjoint keys) never touches the thread's state.
    #[inline]
    pub(crate) fn ready(&mut self) {
        if !self.kept {
            self.take_kept();
        }
    }

    #[inline(never)]
    fn take_kept(&mut self) {
        self.kept = true;
        // Swapped field by field: moving the three buffers as one value went
        // through the stack, where a wide load of narrow stores stalled.
        let _ = KEPT.try_with(|kept| {
            if let Ok(mut k) = kept.try_borrow_mut() {
                core::mem::swap(&mut self.lows, &mut k.lows);
                core::mem::swap(&mut self.runs, &mut k.runs);
                core::mem::swap(&mut self.words, &mut k.words);
            }
        });
    }

    /// The scratch bitmap (its contents are whatever the last user left).
    pub(crate) fn words(&mut self) -> &mut [u64; WORDS] {
        self.ready();
        self.words.get_or_insert_with(|| Box::new([0; WORDS]))
    }

    /// Loads a serialized bitmap into [`Scratch::words`].
    pub(crate) fn load(&mut self, bitmap: &[[u8; 8]]) -> &mut [u64; WORDS] {
        let words = self.words();
        load_words(words, bitmap);
        words
    }
}

impl Drop for Scratch {
    #[inline]
    fn drop(&mut self) {
        if self.kept {
            self.give_back();
        }
    }
}

impl Scratch {
    #[inline(never)]
    fn give_back(&mut self) {
        // What the slot holds instead (what this scratch had before `ready`, or
        // what a scratch that overlapped this one kept) is freed with it.
        let _ = KEPT.try_with(|kept| {
            if let Ok(mut k) = kept.try_borrow_mut() {
                if self.lows.capacity() * 2 <= KEEP_BYTES {
                    self.lows.clear();
                    core::mem::swap(&mut self.lows, &mut k.lows);
                }
                if self.runs.capacity() * 4 <= KEEP_BYTES {
                    self.runs.clear();
                    core::mem::swap(&mut self.runs, &mut k.runs);
                }
                core::mem::swap(&mut self.words, &mut k.words);
            }
        });
    }
}

/// The scratch's toggle-point buffers (a field of [`Scratch`], so that its
/// other buffers can be borrowed beside them), made on first use.
pub(crate) fn toggles(t: &mut Option<Toggles>) -> &mut Toggles {
    t.get_or_insert_with(Toggles::default)
}

/// `dst = src` for a serialized bitmap.
#[inline]
pub(crate) fn load_words(dst: &mut [u64; WORDS], src: &[[u8; 8]]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d = u64::from_le_bytes(*s);
    }
}

/// The one walk behind every bitmap-against-runs output: calls `f(w, word)` with
/// word `w` of `bitmap` masked to each run, in order (a word shared by several
/// runs comes once per run, with disjoint masks). Stops when `f` breaks.
#[inline]
pub(crate) fn for_each_run_word(
    bitmap: &[[u8; 8]],
    runs: &[[u8; 4]],
    mut f: impl FnMut(usize, u64) -> ControlFlow<()>,
) -> ControlFlow<()> {
    for r in runs {
        let (s, e) = bounds(*r);
        let (ws, we) = ((s >> 6) as usize, (e >> 6) as usize);
        let first = u64::MAX << (s & 63);
        let last = u64::MAX >> (63 - (e & 63));
        for (w, word) in bitmap.iter().enumerate().take(we + 1).skip(ws) {
            let mut mask = u64::MAX;
            if w == ws {
                mask &= first;
            }
            if w == we {
                mask &= last;
            }
            f(w, u64::from_le_bytes(*word) & mask)?;
        }
    }
    ControlFlow::Continue(())
}

/// Payload bytes of a view (everything after the header and the directory).
pub(crate) fn payload_bytes(v: RoaringView<'_>) -> usize {
    v.payload_len()
}

/// A writer sized for a subset of `a` (a difference): `a`'s containers and
/// payloads, and the length of its own header and directory, read off its
/// shape. That is the exact head of a difference that removes no container
/// and narrows no field (then `Writer::into_vec` moves nothing); a shorter one
/// moves the payloads once. Planning a layout to guess the head cost more
/// (this: dimension_008 `andnot` 1.07x, dimension_003 1.12x).
pub(crate) fn subset_writer(a: RoaringView<'_>) -> Writer {
    Writer::with_prefix(a.container_count(), a.head_len(), a.payload_len())
}

/// A writer sized for `a ∪ b` or `a ⊕ b`: the shape of `a` and `b` taken as
/// disjoint (their containers, payloads and values summed, from the smallest
/// minimum to the largest maximum), less a container for each key the two
/// share, when their payloads are large. The result's directory then usually fills the room kept for it, where room for
/// both directories would make `Writer::into_vec` move every payload once
/// (census1881's unions of a 66-container set and a small one were 1.25x faster
/// without that move). The shared keys are counted on the directories alone;
/// for sets of small containers the count would cost more than the move it
/// saves, so they keep the disjoint shape.
#[inline]
pub(crate) fn union_writer(a: RoaringView<'_>, b: RoaringView<'_>) -> Writer {
    let mut shape = ResultShape::disjoint(&[a, b]);
    if shape.payload >= LARGE_PAYLOAD * shape.containers {
        let (da, db) = (a.directory(), b.directory());
        let mut shared = 0;
        let _ = common_at(&da, &db, |_, _| {
            shared += 1;
            ControlFlow::Continue(())
        });
        shape.containers -= shared;
    }
    Writer::with_expected(shape.containers, shape.payload, shape.card, shape.min, shape.max)
}

/// Payload bytes per container above which [`union_writer`] counts the shared
/// keys: a directory step costs a few nanoseconds, moving 64 bytes about as much
/// (the unions of dimension_008 and uscensus2000, below it, were unchanged).
const LARGE_PAYLOAD: usize = 64;

/// The shape of a result of given views taken as disjoint (not the `Shape` of a
/// view's header: this one is a guess at a result not yet written).
struct ResultShape {
    containers: usize,
    payload: usize,
    card: u64,
    min: u64,
    max: u64,
}

impl ResultShape {
    #[inline]
    fn disjoint(views: &[RoaringView<'_>]) -> ResultShape {
        let mut shape = ResultShape {
            containers: 0,
            payload: 0,
            card: 0,
            min: u64::MAX,
            max: 0,
        };
        for v in views.iter().filter(|v| !v.is_empty()) {
            shape.containers += v.container_count();
            shape.payload += payload_bytes(*v);
            shape.card = shape.card.saturating_add(v.len());
            shape.min = shape.min.min(v.min().unwrap_or(0));
            shape.max = shape.max.max(v.max().unwrap_or(0));
        }
        shape
    }
}

/// Payload bytes that bound the runs of a container: an array's values are at
/// most as many runs, a run container's payload is its runs, and a bitmap
/// contributes the bitmap size (no result ever needs more).
#[inline]
pub(crate) fn run_bound_bytes(c: Container<'_>, card: u32) -> usize {
    match c {
        Container::Array(_) => 4 * card as usize,
        Container::Bitmap(_) => BITMAP_BYTES,
        Container::Run(r) => r.as_bytes().len(),
    }
}

/// An upper bound on the canonical payload of a container of at most `card`
/// values in runs whose serialized size is at most `run_bytes`: the canonical
/// kind is the smallest of array (`2 card`), bitmap (8192) and runs.
#[inline]
pub(crate) fn payload_bound(card: u64, run_bytes: usize) -> usize {
    let array_bytes = 2 * card.min(1 << 16) as usize;
    array_bytes.min(BITMAP_BYTES).min(run_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_words_are_masked_to_each_run() {
        let bitmap = [u64::MAX.to_le_bytes(); WORDS];
        // Two runs sharing word 0, and one crossing words 1..=2.
        let runs: Vec<[u8; 4]> = [(0u16, 3u16), (10, 0), (100, 60)]
            .iter()
            .map(|&(s, l)| {
                let (s, l) = (s.to_le_bytes(), l.to_le_bytes());
                [s[0], s[1], l[0], l[1]]
            })
            .collect();
        let mut seen = Vec::new();
        let _ = for_each_run_word(&bitmap, &runs, |w, m| {
            seen.push((w, m));
            ControlFlow::Continue(())
        });
        assert_eq!(
            seen,
            [
                (0, 0b1111),
                (0, 1 << 10),
                (1, u64::MAX << 36),
                (2, (1 << 33) - 1)
            ]
        );
        let total: u32 = seen.iter().map(|(_, m)| m.count_ones()).sum();
        assert_eq!(total, 4 + 1 + 61);
    }

    /// A large set and a small one that shares one of its keys: the union and
    /// the symmetric difference keep exactly the room their directory takes, so
    /// their payloads are written once.
    #[test]
    fn unions_with_large_payloads_keep_exact_room() {
        let big = crate::Roaring::from_values(
            (0..66u64).flat_map(|k| (0..2000u64).map(move |i| (k << 16) + 7 * i)),
        )
        .unwrap();
        let small = crate::Roaring::from_values([(5 << 16) + 3, (70 << 16) + 1]).unwrap();
        let (a, b) = (big.view(), small.view());
        for w in [super::super::or_writer(a, b), super::super::xor_writer(b, a)] {
            assert!(w.room_is_exact());
            let bytes = w.into_vec().unwrap();
            assert_eq!(RoaringView::from_bytes(&bytes).unwrap().len(), 66 * 2000 + 2);
        }
        // A difference that removes nothing from `big` (the small set's values
        // are not in it, one shares a key) has `big`'s own head.
        let w = super::super::andnot_writer(a, b);
        assert!(w.room_is_exact());
        assert_eq!(w.into_vec().unwrap(), big.as_bytes());
    }

    #[test]
    fn payload_bound_is_the_smallest_encoding() {
        assert_eq!(payload_bound(10, 400), 20);
        assert_eq!(payload_bound(100_000, 4), 4);
        assert_eq!(payload_bound(100_000, 100_000), BITMAP_BYTES);
    }

    #[test]
    fn scratch_buffers_go_back_emptied_and_bounded() {
        let mut s = Scratch::new();
        s.ready();
        s.lows.extend([1, 2, 3]);
        s.runs.push((4, 5));
        s.words()[0] = 9;
        drop(s);
        let mut next = Scratch::new();
        assert_eq!(next.lows.capacity(), 0, "nothing is taken before ready");
        next.ready();
        assert!(next.lows.is_empty() && next.lows.capacity() >= 3);
        assert!(next.runs.is_empty() && next.runs.capacity() >= 1);
        assert_eq!(next.words()[0], 9, "the bitmap is kept as it was left");
        next.lows.reserve(KEEP_BYTES);
        drop(next);
        let mut last = Scratch::new();
        last.ready();
        assert_eq!(last.lows.capacity(), 0, "too large to keep");
        assert!(last.runs.capacity() >= 1);
    }
}
