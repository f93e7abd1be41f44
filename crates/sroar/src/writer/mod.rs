//! The owned encoder: containers pushed in increasing key order, written out as one
//! canonical buffer.

use crate::container::bitmap::{self, WORDS};
use crate::container::{canonical_kind, Container, Kind, RUNS_CAP};
use crate::format::directory::KEY_LIMIT;
use crate::format::encode::{head_len_bound, head_len_expected, Encode, Encoder, Layout, Plan};
use crate::format::header::EMPTY;
use crate::format::MAX_LEN;
use crate::kernels;

pub use crate::format::encode::CapacityError;
pub use splice::{InPlace, Splice};

mod spare;
mod splice;

/// Builds a canonical buffer container by container.
///
/// Containers must be pushed in strictly increasing key order; empty containers are
/// skipped, and every container is stored in its canonical kind.
#[derive(Clone, Debug, Default)]
pub struct Writer {
    /// Each container's key, cardinality, kind and payload offset (within the
    /// payloads).
    entries: Vec<Entry>,
    /// The shape of the result, for sizing and writing it.
    layout: Layout,
    /// `prefix` bytes kept for the header and directory, then the payloads: when
    /// the directory fits the prefix, [`Writer::into_vec`] fills it in and hands
    /// the arena over, so the payloads are written once and never copied.
    arena: Vec<u8>,
    prefix: usize,
    min: u64,
    max: u64,
    scratch_runs: Vec<(u16, u16)>,
    scratch_lows: Vec<u16>,
    /// Room asked for by [`Writer::with_capacity`], taken at the first push: many
    /// results (intersections of small sets, above all) have no container, and
    /// then nothing is allocated for them.
    reserved: Option<Reservation>,
}

#[derive(Clone, Copy, Debug)]
struct Reservation {
    containers: usize,
    prefix: usize,
    payload_bytes: usize,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    card: u32,
    kind: Kind,
    start: u32,
}

/// Bytes of capacity kept past the reservation (see [`Writer::claim`]).
const HEAD_SLACK: usize = 16;

/// Room for a directory from which the writer asks the allocator for zeroed
/// memory rather than writing the zeros itself.
const ZEROED_PREFIX: usize = 1 << 20;

impl Writer {
    /// An empty writer.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty writer with room for `containers` containers and `payload_bytes`
    /// bytes of payload.
    pub fn with_capacity(containers: usize, payload_bytes: usize) -> Self {
        Self::with_prefix(containers, head_len_bound(containers), payload_bytes)
    }

    /// An empty writer for a result expected to have `containers` containers,
    /// `payload_bytes` bytes of payload and `cardinality` values from `min` to
    /// `max`, as a union or difference of disjoint sets has. Header fields and keys
    /// take the bytes their values need, so a directory's length is known only at
    /// the end: when the result has the expected shape, its directory fills the room
    /// kept for it exactly and [`Writer::into_vec`] moves nothing; otherwise it
    /// moves the payloads once, as for any reservation larger than the directory.
    pub(crate) fn with_expected(
        containers: usize,
        payload_bytes: usize,
        cardinality: u64,
        min: u64,
        max: u64,
    ) -> Self {
        let prefix = head_len_expected(containers, payload_bytes, cardinality, min, max);
        Self::with_prefix(containers, prefix, payload_bytes)
    }

    /// A writer that keeps `prefix` bytes for the header and the directory of
    /// `containers` containers, and room for `payload_bytes` of payloads.
    pub(crate) fn with_prefix(containers: usize, prefix: usize, payload_bytes: usize) -> Self {
        let mut w = Self::default();
        w.reserved = Some(Reservation {
            containers,
            prefix,
            payload_bytes,
        });
        w
    }

    /// Takes the room reserved, before the first container is pushed.
    #[cold]
    fn claim(&mut self, r: Reservation) {
        // A few bytes more than reserved: a head a little longer than expected
        // (a result whose smallest value or payload outgrew the expected field
        // widths) then grows in place in `into_vec`, without a reallocation.
        let capacity = r.prefix.saturating_add(r.payload_bytes).saturating_add(HEAD_SLACK);
        self.arena = if r.prefix < ZEROED_PREFIX {
            let mut arena = spare::take(capacity).unwrap_or_else(|| Vec::with_capacity(capacity));
            arena.resize(r.prefix, 0);
            arena
        } else {
            // A directory of millions of containers: writing its zeros up front
            // took seconds before the loop's first interrupt check. Zeroed memory
            // from the allocator costs nothing until it is touched.
            let mut arena = vec![0u8; capacity];
            arena.truncate(r.prefix);
            arena
        };
        self.prefix = r.prefix;
        spare::take_entries(&mut self.entries, r.containers);
    }

    /// Payload bytes pushed so far (and kept: see `finish`).
    fn payload_len(&self) -> usize {
        self.arena.len() - self.prefix
    }

    /// Number of containers pushed so far.
    pub fn container_count(&self) -> usize {
        self.entries.len()
    }

    /// Number of values pushed so far.
    pub fn len(&self) -> u64 {
        self.layout.cardinality()
    }

    /// True when no value has been pushed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The key of the last container pushed.
    pub fn last_key(&self) -> Option<u64> {
        self.entries.last().map(|e| e.key)
    }

    fn begin(&mut self, key: u64) {
        if let Some(r) = self.reserved.take() {
            self.claim(r);
        }
        assert!(
            key < KEY_LIMIT,
            "sroar: container key {key} is not below 2^48"
        );
        if let Some(last) = self.last_key() {
            assert!(key > last, "sroar: container key {key} pushed after {last}");
        }
    }

    fn finish(&mut self, key: u64, kind: Kind, card: u32, start: usize, lo: u16, hi: u16) {
        let high = key << 16;
        if self.entries.is_empty() {
            self.min = high | u64::from(lo);
        }
        self.max = high | u64::from(hi);
        self.layout.push(key, card, self.payload_len() - start);
        // Offsets above 2^30 are caught by `encoded_len`; store them saturated.
        let start = u32::try_from(start).unwrap_or(u32::MAX);
        self.entries.push(Entry { key, card, kind, start });
        // A result that can no longer fit is doomed to a CapacityError: stop keeping
        // its payload, so that memory stays bounded by the limit, not by the inputs.
        if self.layout.len_lower_bound() >= MAX_LEN as u64 {
            self.arena = Vec::new();
            self.prefix = 0;
        }
        if self.entries.len().is_multiple_of(4096) {
            crate::interrupt::check();
        }
    }

    /// Pushes a container holding `lows`, which must be strictly ascending; it is
    /// stored in its canonical kind. An empty slice pushes nothing.
    ///
    /// # Panics
    /// If `key` is not greater than the previous key or not below 2^48, or if `lows`
    /// is not strictly ascending.
    pub fn push_sorted_lows(&mut self, key: u64, lows: &[u16]) {
        let (Some(&lo), Some(&hi)) = (lows.first(), lows.last()) else {
            return;
        };
        self.begin(key);
        // The order check and the run count are one dispatched SIMD pass.
        let nruns = ascending_runs(lows)
            .unwrap_or_else(|| panic!("sroar: lows of container {key} are not strictly ascending"));
        let card = lows.len() as u32;
        let start = self.payload_len();
        let kind = canonical_kind(card, nruns);
        match kind {
            Kind::Array => self.put_lows(lows),
            Kind::Bitmap => {
                let mut words = [0u64; WORDS];
                for &v in lows {
                    words[usize::from(v >> 6)] |= 1 << (v & 63);
                }
                self.put_words(&words);
            }
            Kind::Run => self.put_lows_as_runs(lows, nruns as usize),
        }
        self.finish(key, kind, card, start, lo, hi);
    }

    /// Same as [`Writer::push_sorted_lows`]: the container is stored as an array only
    /// when that is its canonical kind.
    pub fn push_array(&mut self, key: u64, lows: &[u16]) {
        self.push_sorted_lows(key, lows);
    }

    /// Pushes the container whose values are the set bits of `words`, in its
    /// canonical kind. An all-zero bitmap pushes nothing.
    ///
    /// # Panics
    /// If `key` is not greater than the previous key or not below 2^48.
    pub fn push_bitmap(&mut self, key: u64, words: &[u64; WORDS]) {
        // One pass counts both: the words' bytes are the serialized bitmap's.
        #[cfg(target_endian = "little")]
        let (card, nruns) = kernels::bitmap::card_and_runs(bytemuck::cast_slice(words), RUNS_CAP);
        #[cfg(not(target_endian = "little"))]
        let (card, nruns) = (
            kernels::bitmap::popcount(words),
            kernels::bitmap::count_runs(words, RUNS_CAP),
        );
        self.push_bitmap_counts(key, words, card, nruns);
    }

    /// [`Writer::push_bitmap`] for a caller that already knows the cardinality (the
    /// bitmap kernels return it), which saves a popcount pass.
    pub(crate) fn push_counted_bitmap(&mut self, key: u64, words: &[u64; WORDS], card: u32) {
        if card == 0 {
            return;
        }
        let nruns = kernels::bitmap::count_runs(words, RUNS_CAP);
        self.push_bitmap_counts(key, words, card, nruns);
    }

    /// Pushes the serialized bitmap `base` as changed by `set` (which may only
    /// add values): `base` is copied into the output once, and `set` works on
    /// that copy, where a scratch bitmap cost a copy in and a copy out (a tenth of
    /// census-income's unions). A result whose canonical kind is not a bitmap is
    /// taken back out and stored in its kind.
    pub(crate) fn push_bitmap_with(
        &mut self,
        key: u64,
        base: &[[u8; 8]],
        set: impl FnOnce(&mut [[u8; 8]; WORDS]),
    ) {
        self.begin(key);
        let start = self.payload_len();
        let at = self.arena.len();
        self.arena.extend_from_slice(base.as_flattened());
        let words: &mut [[u8; 8]; WORDS] = self.arena[at..]
            .as_chunks_mut::<8>()
            .0
            .try_into()
            .expect("a bitmap has 1024 words");
        set(words);
        let (card, nruns) = kernels::bitmap::card_and_runs(words, RUNS_CAP);
        if canonical_kind(card, nruns) != Kind::Bitmap {
            let mut back = [0u64; WORDS];
            for (d, w) in back.iter_mut().zip(words.iter()) {
                *d = u64::from_le_bytes(*w);
            }
            self.arena.truncate(at);
            return self.push_bitmap_counts(key, &back, card, nruns);
        }
        let first = words.iter().position(|w| *w != [0; 8]).unwrap_or(0);
        let last = words.iter().rposition(|w| *w != [0; 8]).unwrap_or(0);
        let lo = (64 * first) as u16 + u64::from_le_bytes(words[first]).trailing_zeros() as u16;
        let hi =
            (64 * last) as u16 + (63 - u64::from_le_bytes(words[last]).leading_zeros()) as u16;
        self.finish(key, Kind::Bitmap, card, start, lo, hi);
    }

    /// [`Writer::push_bitmap`] with the cardinality and the number of runs known
    /// (counted until at least [`RUNS_CAP`]).
    fn push_bitmap_counts(&mut self, key: u64, words: &[u64; WORDS], card: u32, nruns: u32) {
        debug_assert_eq!(card, kernels::bitmap::popcount(words));
        debug_assert_eq!(
            nruns.min(RUNS_CAP),
            kernels::bitmap::count_runs(words, u32::MAX).min(RUNS_CAP)
        );
        // Decode runs or values only for the kind that needs them: a result that
        // stays a bitmap is copied as is.
        if card == 0 {
            return;
        }
        self.begin(key);
        let start = self.payload_len();
        let kind = canonical_kind(card, nruns);
        let first = words.iter().position(|&w| w != 0).unwrap_or(0);
        let last = words.iter().rposition(|&w| w != 0).unwrap_or(0);
        let lo = (64 * first) as u16 + words[first].trailing_zeros() as u16;
        let hi = (64 * last) as u16 + (63 - words[last].leading_zeros()) as u16;
        match kind {
            Kind::Array => {
                let mut lows = core::mem::take(&mut self.scratch_lows);
                lows.clear();
                kernels::bitmap::to_array(words, &mut lows);
                self.put_lows(&lows);
                self.scratch_lows = lows;
            }
            Kind::Bitmap => self.put_words(words),
            Kind::Run => {
                let mut edges = core::mem::take(&mut self.scratch_lows);
                edges.clear();
                kernels::bitmap::edges(words, &mut edges);
                self.put_edge_runs(&edges);
                self.scratch_lows = edges;
            }
        }
        self.finish(key, kind, card, start, lo, hi);
    }

    /// Pushes a container given as runs `(start, len_minus_1)`, sorted by start and
    /// not overlapping (adjacent runs are merged). It is stored in its canonical
    /// kind. An empty slice pushes nothing.
    ///
    /// # Panics
    /// If the key order is wrong, a run passes 65535, or runs overlap or are unsorted.
    pub fn push_runs(&mut self, key: u64, runs: &[(u16, u16)]) {
        if runs.is_empty() {
            return;
        }
        // A caller's runs may touch or be out of order (the run kernels' maximal
        // output goes through `push_maximal_runs` instead): check them with loops
        // free of branches (they vectorize), and merge into scratch space only
        // when some runs touch.
        let (mut card, mut past_end) = (0u32, false);
        for &(s, l) in runs {
            card += u32::from(l) + 1;
            past_end |= u32::from(s) + u32::from(l) > 65535;
        }
        // The smallest gap between a run's end and the next one's start: at least
        // one absent value when the runs are maximal, none when they touch,
        // negative when they overlap. One min over pairs vectorizes, where two
        // flags per pair did not (that loop was 28% of `push_runs` on
        // census-income_srt's unions).
        let min_gap = runs
            .iter()
            .zip(&runs[1..])
            .map(|(x, y)| i32::from(y.0) - (i32::from(x.0) + i32::from(x.1) + 1))
            .fold(i32::MAX, i32::min);
        let (sorted, maximal) = (min_gap >= 0, min_gap > 0);
        assert!(!past_end, "sroar: a run of container {key} passes 65535");
        assert!(
            sorted,
            "sroar: runs of container {key} unsorted or overlapping"
        );
        let mut merged = core::mem::take(&mut self.scratch_runs);
        merged.clear();
        let runs = if maximal {
            runs
        } else {
            for &(s, l) in runs {
                match merged.last_mut() {
                    Some(last) if u32::from(last.0) + u32::from(last.1) + 1 == u32::from(s) => {
                        last.1 += l + 1;
                    }
                    _ => merged.push((s, l)),
                }
            }
            &merged[..]
        };
        self.put_runs(key, runs, card);
        self.scratch_runs = merged;
    }

    /// [`Writer::push_runs`] for the output of a run kernel, which is maximal by
    /// construction (the kernels' tests check it against a model): its check,
    /// a pass over the runs, was a tenth of the run-heavy unions.
    pub(crate) fn push_maximal_runs(&mut self, key: u64, runs: &[(u16, u16)]) {
        if runs.is_empty() {
            return;
        }
        debug_assert!(
            runs.windows(2).all(|w| u32::from(w[1].0) > u32::from(w[0].0) + u32::from(w[0].1) + 1),
            "runs of container {key} are not maximal"
        );
        let card = runs.iter().map(|&(_, l)| u32::from(l) + 1).sum();
        self.put_runs(key, runs, card);
    }

    /// Pushes maximal runs holding `card` values in their canonical kind.
    fn put_runs(&mut self, key: u64, runs: &[(u16, u16)], card: u32) {
        self.begin(key);
        let nruns = runs.len() as u32;
        let start = self.payload_len();
        let kind = canonical_kind(card, nruns);
        let (lo, hi) = (runs[0].0, runs[runs.len() - 1].0 + runs[runs.len() - 1].1);
        match kind {
            Kind::Array => self.put_runs_as_lows(runs, card as usize),
            Kind::Bitmap => {
                let mut words = [0u64; WORDS];
                for &(s, l) in runs {
                    bitmap::set_range(&mut words, s, s + l);
                }
                self.put_words(&words);
            }
            Kind::Run => {
                let at = self.arena.len();
                self.arena.resize(at + 4 * runs.len(), 0);
                let dst = self.arena[at..].as_chunks_mut::<4>().0;
                for (d, &(s, l)) in dst.iter_mut().zip(runs) {
                    let (s, l) = (s.to_le_bytes(), l.to_le_bytes());
                    *d = [s[0], s[1], l[0], l[1]];
                }
            }
        }
        self.finish(key, kind, card, start, lo, hi);
    }

    /// Pushes the full container `0..=65535` (one run).
    pub fn push_full(&mut self, key: u64) {
        self.push_runs(key, &[(0, 65535)]);
    }

    /// Copies a container verbatim (its payload is copied byte for byte). The
    /// container must already be canonical, as every container of a validated view
    /// is; an empty container pushes nothing.
    ///
    /// # Panics
    /// If the key order is wrong.
    pub fn push_container(&mut self, key: u64, c: Container<'_>) {
        if !c.is_empty() {
            self.push_counted_container(key, c, c.len() as u32);
        }
    }

    /// [`Writer::push_container`] of a non-empty container of `card` values, as
    /// its directory entry says: a run container's count is otherwise a pass
    /// over its runs.
    pub(crate) fn push_counted_container(&mut self, key: u64, c: Container<'_>, card: u32) {
        debug_assert_eq!(card as usize, c.len());
        debug_assert!(card > 0);
        self.begin(key);
        debug_assert_eq!(canonical_kind(card, c.count_runs()), c.kind());
        let start = self.payload_len();
        // The bounds are read after the copy, which has brought the payload into
        // the cache: read before it, a large array's last value was a cache miss
        // of its own (71% of this function on census1881's differences). An
        // array's or a run list's are its first and last entries, read here
        // rather than through `Container::min` and `max` (two more dispatches
        // on the kind, 5% of uscensus2000's symmetric differences).
        let bytes = c.as_bytes();
        self.arena.extend_from_slice(bytes);
        let (lo, hi) = match c.kind() {
            Kind::Array | Kind::Run => {
                let le = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
                let n = bytes.len();
                if c.kind() == Kind::Array {
                    (le(0), le(n - 2))
                } else {
                    (le(0), le(n - 4).wrapping_add(le(n - 2)))
                }
            }
            Kind::Bitmap => (c.min().unwrap_or(0), c.max().unwrap_or(0)),
        };
        self.finish(key, c.kind(), card, start, lo, hi);
    }

    // On a little-endian target the values' own memory is their encoding, so a
    // payload is one `memcpy`.
    fn put_words(&mut self, words: &[u64; WORDS]) {
        #[cfg(target_endian = "little")]
        self.arena.extend_from_slice(bytemuck::cast_slice(words));
        #[cfg(not(target_endian = "little"))]
        self.arena
            .extend(words.iter().flat_map(|w| w.to_le_bytes()));
    }

    fn put_lows(&mut self, lows: &[u16]) {
        #[cfg(target_endian = "little")]
        self.arena.extend_from_slice(bytemuck::cast_slice(lows));
        #[cfg(not(target_endian = "little"))]
        self.arena.extend(lows.iter().flat_map(|v| v.to_le_bytes()));
    }

    /// Writes the runs whose membership edges are `edges` (see
    /// [`kernels::bitmap::edges`]) in one pass that vectorizes.
    fn put_edge_runs(&mut self, edges: &[u16]) {
        let (pairs, last) = edges.as_chunks::<2>();
        let at = self.arena.len();
        self.arena.resize(at + 4 * (pairs.len() + last.len()), 0);
        let (dst, _) = self.arena[at..].as_chunks_mut::<4>();
        for (d, &[s, end]) in dst.iter_mut().zip(pairs) {
            let (s, l) = (s.to_le_bytes(), (end - 1 - s).to_le_bytes());
            *d = [s[0], s[1], l[0], l[1]];
        }
        if let [s] = *last {
            let (b, l) = (s.to_le_bytes(), (65535 - s).to_le_bytes());
            dst[pairs.len()] = [b[0], b[1], l[0], l[1]];
        }
    }

    /// Writes the values of `runs`, `card` in all, as an array. Runs stored as
    /// an array are short (two values on average at most, or runs would be
    /// smaller), so each writes its first two values without a test, into a
    /// slot of slack past the end; only longer ones loop. A push per value
    /// was a tenth of census-income_srt's unions.
    fn put_runs_as_lows(&mut self, runs: &[(u16, u16)], card: usize) {
        let at = self.arena.len();
        self.arena.resize(at + 2 * (card + 1), 0);
        let (dst, _) = self.arena[at..].as_chunks_mut::<2>();
        let mut i = 0;
        for &(s, l) in runs {
            dst[i] = s.to_le_bytes();
            dst[i + 1] = s.wrapping_add(1).to_le_bytes();
            for k in 2..=l {
                dst[i + usize::from(k)] = (s + k).to_le_bytes();
            }
            i += usize::from(l) + 1;
        }
        self.arena.truncate(at + 2 * card);
    }

    /// Writes strictly ascending `lows`, which form `nruns` maximal runs, as
    /// runs.
    fn put_lows_as_runs(&mut self, lows: &[u16], nruns: usize) {
        let at = self.arena.len();
        self.arena.resize(at + 4 * (nruns + kernels::array::RUNS_SLACK), 0);
        let (dst, _) = self.arena[at..].as_chunks_mut::<4>();
        // On a little-endian target the lows are their own encoding.
        #[cfg(target_endian = "little")]
        let written = kernels::array::runs_into(bytemuck::cast_slice(lows), dst);
        #[cfg(not(target_endian = "little"))]
        let written = kernels::scalar::array::runs_into_with(lows.len(), |i| lows[i], dst);
        debug_assert_eq!(written, nruns);
        self.arena.truncate(at + 4 * nruns);
    }

    /// Where the payload of entry `j` ends, within the payloads.
    fn entry_end(&self, j: usize) -> usize {
        self.entries
            .get(j + 1)
            .map_or(self.payload_len(), |e| e.start as usize)
    }

    /// The payload of entry `j`.
    fn payload(&self, j: usize) -> &[u8] {
        let from = self.prefix + self.entries[j].start as usize;
        &self.arena[from..self.prefix + self.entry_end(j)]
    }

    /// Where the result goes, with its bounds.
    fn plan(&self) -> Plan {
        let mut l = self.layout;
        l.bounds(self.min, self.max);
        l.plan()
    }

    /// Length of the encoded buffer.
    pub fn encoded_len(&self) -> Result<usize, CapacityError> {
        self.plan().len()
    }

    /// Writes the encoded buffer into `out`, whose length must be
    /// [`Writer::encoded_len`].
    ///
    /// # Panics
    /// If `out.len()` differs from the encoded length.
    pub fn write_into(&self, out: &mut [u8]) -> Result<(), CapacityError> {
        let plan = self.plan();
        let len = plan.len()?;
        assert_eq!(out.len(), len, "sroar: output buffer has the wrong length");
        let (head, payload) = out.split_at_mut(plan.head_len());
        self.write_head(head, &plan, self.payload_len());
        payload.copy_from_slice(&self.arena[self.prefix..]);
        Ok(())
    }

    /// Writes the header and the directory into `out` (exactly `head_len` bytes),
    /// the payloads totalling `payload` bytes: they are copied as one block, or
    /// are in place already.
    fn write_head(&self, out: &mut [u8], plan: &Plan, payload: usize) {
        let mut e = Encoder::head_only(out, plan);
        let ends = self.entries.iter().skip(1).map(|x| x.start as usize).chain([payload]);
        for (x, end) in self.entries.iter().zip(ends) {
            e.container(x.key, x.card, x.kind, end - x.start as usize);
        }
    }

    /// The encoded set, owned.
    pub fn into_roaring(self) -> Result<crate::Roaring, CapacityError> {
        self.into_vec().map(crate::owned::Roaring::from_canonical)
    }

    /// Whether the room kept for the header and directory is exactly what they
    /// take, so that [`Writer::into_vec`] moves no payload.
    #[cfg(test)]
    pub(crate) fn room_is_exact(&self) -> bool {
        self.plan().head_len() == self.prefix
    }

    /// The encoded buffer, which is the writer's own: the payloads stay where
    /// they are when the directory fills the room reserved by
    /// [`Writer::with_capacity`] exactly, and move once when it is shorter or
    /// longer.
    pub fn into_vec(mut self) -> Result<Vec<u8>, CapacityError> {
        if self.entries.is_empty() {
            // No directory to lay out (an empty intersection or difference).
            return Ok(EMPTY.to_vec());
        }
        let plan = self.plan();
        let len = plan.len()?;
        let head = plan.head_len();
        let payload = self.payload_len();
        let mut out = core::mem::take(&mut self.arena);
        if head > self.prefix {
            // A directory longer than the room reserved (a writer sized for
            // fewer containers, or a difference whose payloads outgrew its
            // input's field widths, 29% of dimension_008's): open the gap in
            // the same buffer, one move, where a new buffer cost an allocation,
            // its zeroing and a free.
            out.resize(len, 0);
            out.copy_within(self.prefix..self.prefix + payload, head);
        } else {
            // A directory shorter than the room reserved: close the gap (one
            // move, no allocation).
            out.copy_within(self.prefix.., head);
            out.truncate(len);
        }
        self.write_head(&mut out[..head], &plan, payload);
        // A reservation is a bound; do not keep much more than the result. A few
        // spare kilobytes are not worth a reallocation (small results are common,
        // and their headers are smaller than any bound).
        if out.capacity() > 2 * len && out.capacity() - len > 4096 {
            out.shrink_to_fit();
        }
        Ok(out)
    }
}

impl Drop for Writer {
    #[inline]
    fn drop(&mut self) {
        if self.entries.capacity() != 0 {
            spare::keep_entries(&mut self.entries);
        }
    }
}

impl Encode for Writer {
    fn encoded_len(&mut self) -> Result<usize, CapacityError> {
        Writer::encoded_len(self)
    }

    fn write_into(&self, out: &mut [u8]) -> Result<(), CapacityError> {
        Writer::write_into(self, out)
    }
}

/// The number of maximal runs of `lows` when it is strictly ascending.
fn ascending_runs(lows: &[u16]) -> Option<u32> {
    // On a little-endian target the lows are their own encoding: one dispatched
    // SIMD pass over them.
    #[cfg(target_endian = "little")]
    let runs = kernels::array::ascending_runs(bytemuck::cast_slice(lows));
    #[cfg(not(target_endian = "little"))]
    let runs = {
        let le: Vec<[u8; 2]> = lows.iter().map(|v| v.to_le_bytes()).collect();
        kernels::array::ascending_runs(&le)
    };
    runs
}

#[cfg(test)]
mod tests;
