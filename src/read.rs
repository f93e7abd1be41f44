//! The one reader of stored `roaring64` arguments: every decision about how much of
//! a value to read, and every threshold behind it, lives here.
//!
//! | read | when |
//! |---|---|
//! | the header only (one TOAST chunk) | cardinality, min, max, emptiness; a pair whose two headers decide it |
//! | a few byte ranges (TOAST slices) | membership, rank, select on an out-of-line value over [`READ_WHOLE_UP_TO`]; an n-way intersection's later step, once its result holds few containers ([`PROBE_BYTES`]) |
//! | the whole value, kept for the query | a value the call site reads again and again ([`KEEP_FROM_READ`]) |
//! | the whole value as the call's own copy | `rb_or` of an out-of-line set with a few ids, which changes the copy into its result ([`Stored::read_owned`]) |
//! | the whole value | everything else |
//!
//! Values kept for the query live in the call site's table (`crate::pg::CallSite`):
//! a join that tests many values against a few hundred stored sets
//! (`sets t JOIN probes q ON t.r @> q.v`) then reads each set once instead of once
//! per probe, while a scan (one read of each value) or a join of neighbours (two)
//! copies nothing.

use sroar::{Header, PartialReadError, RoaringView, HEADER_MAX_LEN};

use crate::errors;
use crate::pg::{
    stored_view, Arg, Call, CallSite, Detoasted, FromArg, Owned, RoaringOut, State, Value,
};

/// Out-of-line values up to this size are read whole: one TOAST index scan for all
/// their chunks costs less than the two scans of a partial read ([`READ_FIRST`])
/// up to about 20 kB. Measured on sets of scattered ids, one membership test each:
/// 24 kB values 5.1 µs whole against 4.6 µs by ranges, 48 kB values 7.7 against
/// 5.0 µs.
pub const READ_WHOLE_UP_TO: usize = 16 << 10;
/// A partial read fetches this much of the value first: its header and, for sets
/// of up to about 900 containers, its whole directory, so that the directory
/// search, the cardinality and the offsets are read from it and only the container
/// needs one more TOAST index scan. Each scan descends the TOAST index and prunes
/// a heap page anew, while more chunks in one scan are a copy each: two scans
/// instead of five halve a lookup's rechecks. Four chunks of 1996 bytes, what one
/// 8 kB TOAST page holds.
pub const READ_FIRST: usize = 4 * 1996;
/// Reading one container of an out-of-line value by ranges costs one TOAST index
/// scan, about what reading this many bytes of it whole costs (from the figures
/// of [`READ_WHOLE_UP_TO`]): an intersection reads a large set by ranges while it
/// asks for fewer containers than its size in these.
pub const PROBE_BYTES: usize = 16 << 10;
/// A call site keeps a value from this read of it on.
pub const KEEP_FROM_READ: usize = 3;
/// A call site keeps at most this many bytes of values; past that it reads them
/// each time, as without a table.
pub const MAX_KEPT_BYTES: usize = 16 << 20;
/// A call site reads two headers first for this many calls, then while they answer
/// at least one call in [`HEADER_ANSWER_RATE`].
pub const HEADER_TRIALS: u32 = 3;
pub const HEADER_ANSWER_RATE: u32 = 4;

/// The header of a set the planner knows (a constant; see
/// `crate::pg::SupportRequest::estimate_rows`), or None for bytes that are not one:
/// an estimate never raises an error.
pub fn plan_time_header(value: Value<'_>) -> Option<Header> {
    Header::from_prefix(value.slice(0, HEADER_MAX_LEN)).ok()
}

/// The whole of a set the planner knows, or None as for [`plan_time_header`].
pub fn plan_time_view(value: Value<'_>) -> Option<RoaringView<'_>> {
    plan_time_header(value)?;
    Some(stored_view(value.bytes()))
}

/// A whole value read by [`Stored::read_whole`].
pub enum Whole<'fcx> {
    /// Bytes that live for the call (kept by the call site, or never copied).
    Kept(&'fcx [u8]),
    /// A detoasted copy, freed when this is dropped.
    Read(Detoasted<'fcx>),
}

impl Whole<'_> {
    pub fn view(&self) -> RoaringView<'_> {
        match self {
            Whole::Kept(bytes) => stored_view(bytes),
            Whole::Read(d) => stored_view(d.bytes()),
        }
    }
}

/// A `roaring64` argument, not yet read, with the call that passed it.
#[derive(Clone, Copy)]
pub struct Stored<'fcx> {
    value: Value<'fcx>,
    call: Call<'fcx>,
}

impl<'fcx> FromArg<'fcx> for Stored<'fcx> {
    fn from_arg(arg: Arg<'fcx>) -> Self {
        Stored {
            value: Value::from_arg(arg),
            call: arg.call(),
        }
    }
}

impl<'fcx> From<Stored<'fcx>> for RoaringOut {
    /// The argument as the result, returned as it came.
    fn from(s: Stored<'fcx>) -> Self {
        s.value.into()
    }
}

impl<'fcx> Stored<'fcx> {
    /// A value the call got some other way than as one argument: one of the sets of
    /// a `VARIADIC "any"` call.
    pub fn new(value: Value<'fcx>, call: Call<'fcx>) -> Self {
        Stored { value, call }
    }

    /// The whole value as a view (detoasted if it has to be).
    pub fn view(&self) -> RoaringView<'fcx> {
        stored_view(self.value.bytes())
    }

    /// The whole value's bytes.
    pub fn bytes(&self) -> &'fcx [u8] {
        self.value.bytes()
    }

    /// The length of the value's bytes, read from its pointer or header alone.
    pub fn byte_len(&self) -> usize {
        self.value.byte_len()
    }

    /// The aggregate state behind the argument, when it is one still expanded (an
    /// aggregate's result handed straight to another function).
    pub fn state(&self) -> Option<State> {
        State::of(self.value)
    }

    /// The header alone: on a large TOASTed value, only its first chunk is fetched.
    pub fn header(&self) -> Header {
        Header::from_prefix(self.value.slice(0, HEADER_MAX_LEN))
            .unwrap_or_else(|e| errors::stored_value(e))
    }

    /// Whether the value is stored out of line (a TOAST pointer).
    fn toasted(&self) -> bool {
        self.value.toast_key().is_some()
    }

    /// The call site's entry for this value, when it is stored out of line and the
    /// call site has a table.
    fn entry(&self) -> Option<crate::pg::CacheEntry<'fcx>> {
        let key = self.value.toast_key()?;
        Some(CallSite::of(self.call)?.entry(key))
    }

    /// The whole value: from the call site's table when it keeps it, else read
    /// (detoasted) and, from its [`KEEP_FROM_READ`]th read on, kept while the table
    /// holds under [`MAX_KEPT_BYTES`].
    pub fn whole(&self) -> &'fcx [u8] {
        let Some(mut entry) = self.entry() else {
            return self.value.bytes();
        };
        if let Some(bytes) = entry.kept() {
            return bytes;
        }
        let reads = entry.reads();
        let bytes = self.value.bytes();
        entry.count_read();
        // A value is only counted at first: a scan reads each value once, and a
        // join of neighbours each value twice; neither should pay for a copy.
        if reads + 1 < KEEP_FROM_READ {
            return bytes;
        }
        entry.keep(bytes, MAX_KEPT_BYTES).unwrap_or(bytes)
    }

    /// The whole value, as [`Stored::whole`] reads it, but when the call site does
    /// not keep the value, a detoasted copy lives only as long as the result (see
    /// [`Value::detoast`]).
    pub fn read_whole(&self) -> Whole<'fcx> {
        if let Some(mut entry) = self.entry() {
            if entry.kept().is_some() || entry.reads() + 1 >= KEEP_FROM_READ {
                return Whole::Kept(self.whole());
            }
            entry.count_read();
        }
        Whole::Read(self.value.detoast())
    }

    /// The whole value as a copy this call owns, to change in place into the result:
    /// when it is stored out of line (detoasting copies it anyway) and the call site
    /// does not keep it (its kept copy is read at no cost, where a copy to own would
    /// be fetched again); None otherwise.
    pub fn read_owned(&self) -> Option<Owned<'fcx>> {
        if !self.toasted() {
            return None;
        }
        if let Some(mut entry) = self.entry() {
            if entry.kept().is_some() || entry.reads() + 1 >= KEEP_FROM_READ {
                return None;
            }
            entry.count_read();
        }
        self.value.detoast().into_owned()
    }

    /// [`Stored::whole`] as a view.
    pub fn whole_view(&self) -> RoaringView<'fcx> {
        stored_view(self.whole())
    }

    /// Whether the call site keeps this value, or has read it often enough that its
    /// next [`Stored::whole`] read keeps it: then reading it whole costs less than
    /// reading parts of it again. Counts nothing.
    fn read_often(&self) -> bool {
        self.entry()
            .is_some_and(|e| e.kept().is_some() || e.reads() + 1 >= KEEP_FROM_READ)
    }

    /// `by_ranges` over TOAST slices of a large out-of-line value, else `in_memory`
    /// over the whole value (kept for the query when read often).
    pub fn answer<T>(
        &self,
        by_ranges: impl FnOnce(
            &mut dyn FnMut(usize, usize) -> &'fcx [u8],
        ) -> Result<T, PartialReadError>,
        in_memory: impl FnOnce(RoaringView<'fcx>) -> T,
    ) -> T {
        match self.value.toasted_uncompressed_len() {
            Some(len) if len > READ_WHOLE_UP_TO => {
                by_ranges(&mut ranges(self.value)).unwrap_or_else(|e| errors::stored_value(e))
            }
            Some(_) => in_memory(self.whole_view()),
            None => in_memory(self.view()),
        }
    }

    /// `by_ranges` over TOAST slices when reading `probes` containers of the value
    /// that way costs less than reading it whole: it is stored out of line and
    /// uncompressed, the call site does not keep it or read it often, and it is
    /// larger than [`PROBE_BYTES`] per probe and one more (its header and
    /// directory). None when it is better read whole.
    pub fn by_ranges<T>(
        &self,
        probes: usize,
        by_ranges: impl FnOnce(
            &mut dyn FnMut(usize, usize) -> &'fcx [u8],
        ) -> Result<T, PartialReadError>,
    ) -> Option<T> {
        let len = self.value.toasted_uncompressed_len()?;
        if self.read_often() || probes.saturating_add(1).saturating_mul(PROBE_BYTES) > len {
            return None;
        }
        Some(by_ranges(&mut ranges(self.value)).unwrap_or_else(|e| errors::stored_value(e)))
    }
}

/// `fetch(offset, len)` over an out-of-line value: the first request, at offset 0,
/// fetches at least [`READ_FIRST`] bytes in one TOAST scan, and every later request
/// inside them is answered from them; any other range is one scan of its own.
pub fn ranges<'fcx>(value: Value<'fcx>) -> impl FnMut(usize, usize) -> &'fcx [u8] {
    let mut prefix: &'fcx [u8] = &[];
    move |offset, len| {
        if let Some(bytes) = offset
            .checked_add(len)
            .and_then(|end| prefix.get(offset..end))
        {
            return bytes;
        }
        if offset == 0 && prefix.is_empty() {
            prefix = value.slice(0, len.max(READ_FIRST));
            return &prefix[..len.min(prefix.len())];
        }
        value.slice(offset, len)
    }
}

/// Two arguments read whole as views, each kept for the query when read often.
pub fn pair<'fcx>(a: &Stored<'fcx>, b: &Stored<'fcx>) -> (RoaringView<'fcx>, RoaringView<'fcx>) {
    (a.whole_view(), b.whole_view())
}

/// What `decide` tells from the two headers alone, or None when the whole sets
/// must be read. Where one set is stored out of line and not read often by this
/// call site, its header is read first (a first chunk instead of all of it), as
/// long as headers keep answering the call site: for its first
/// [`HEADER_TRIALS`] calls, then while they answer at least one call in
/// [`HEADER_ANSWER_RATE`]. Pairs of sets far apart, or of very different sizes, are
/// answered without reading them, and a join where headers rarely answer stops
/// paying for the extra read after a few calls.
pub fn by_headers<T>(
    a: &Stored<'_>,
    b: &Stored<'_>,
    decide: impl FnOnce(&Header, &Header) -> Option<T>,
) -> Option<T> {
    // The cheap tests first: most calls of a call site where headers stopped
    // answering, or of sets stored inline, end here.
    if !(a.toasted() || b.toasted()) {
        return None;
    }
    let site = CallSite::of(a.call)?;
    let (tries, answers) = site.header_counts();
    if tries >= HEADER_TRIALS && answers.saturating_mul(HEADER_ANSWER_RATE) < tries {
        return None;
    }
    let out_of_line = |r: &Stored| r.toasted() && !r.read_often();
    let (a_out, b_out) = (out_of_line(a), out_of_line(b));
    if !(a_out || b_out) {
        return None;
    }
    let header = |r: &Stored| match r.entry().and_then(|e| e.kept()) {
        Some(bytes) => stored_view(bytes).header(),
        None => r.header(),
    };
    let answer = decide(&header(a), &header(b));
    site.count_header_try(answer.is_some());
    if answer.is_some() {
        for (r, out) in [(a, a_out), (b, b_out)] {
            if out {
                if let Some(mut e) = r.entry() {
                    e.count_read();
                }
            }
        }
    }
    answer
}

/// `a ⊆ b`, from the two headers where they decide it ([`by_headers`]), else from
/// the whole sets.
pub fn is_subset(a: &Stored<'_>, b: &Stored<'_>) -> bool {
    by_headers(a, b, Header::is_subset_of).unwrap_or_else(|| {
        let (a, b) = pair(a, b);
        a.is_subset(&b)
    })
}

/// The two cardinalities, when the headers prove the sets disjoint ([`by_headers`]):
/// then every function of the pair but the set-valued unions follows from them.
pub fn disjoint_cards(a: &Stored<'_>, b: &Stored<'_>) -> Option<(u64, u64)> {
    by_headers(a, b, |x, y| {
        x.is_disjoint_from(y)
            .then_some((x.cardinality, y.cardinality))
    })
}
