//! Many sets at once, from a `roaring64[]` (or a VARIADIC list): their union,
//! intersection and symmetric difference with no intermediate values, and one set's
//! intersection sizes with each of many (retention and funnel counts).

use pgrx::datum::Array;
use sroar::{Partial, PartialReadError, Roaring, RoaringView, SetOp};
use sroar_pg_macros::sql_fn;

use crate::errors;
use crate::io::parse_set;
use crate::pg::{
    check_for_interrupts, stored_view, variadic_sets, Call, Expr, MaybeRoaring, SetArg,
    SupportRequest,
};
use crate::read::{Stored, Whole};

/// A `roaring64[]` argument.
type Sets<'a> = Array<'a, &'a [u8]>;

/// One set of a many-set call, held for the call and read when first needed.
enum Held<'fcx> {
    Stored(Stored<'fcx>),
    InArray(&'fcx [u8]),
    Parsed(Roaring),
}

impl<'fcx> Held<'fcx> {
    /// The set, read for as long as the result is held: a stored one is read for
    /// it alone, and its detoasted copy freed with it (see [`Stored::read_whole`]).
    fn read(&self) -> Read<'_> {
        match self {
            Held::Stored(s) => Read::Whole(s.read_whole()),
            Held::InArray(bytes) => Read::View(stored_view(bytes)),
            Held::Parsed(r) => Read::View(r.view()),
        }
    }

    /// `op` of a small running result and this set, reading of the set only the
    /// containers of the result's keys, when it is stored out of line and that
    /// costs less than reading it whole (the later steps of an intersection, once
    /// few keys are left); None otherwise.
    fn by_ranges<T>(
        &self,
        acc: &Roaring,
        op: impl FnOnce(
            &mut Partial<&mut dyn FnMut(usize, usize) -> &'fcx [u8]>,
            RoaringView<'_>,
        ) -> Result<T, PartialReadError>,
    ) -> Option<T> {
        let Held::Stored(s) = self else {
            return None;
        };
        let acc = acc.view();
        s.by_ranges(acc.container_count(), |fetch| {
            op(&mut Partial::new(fetch), acc)
        })
    }

    /// The set's size in bytes, known without reading it (from its TOAST pointer
    /// when it is stored out of line): the order in which an intersection reads
    /// its sets, since a smaller value mostly holds fewer values.
    fn byte_len(&self) -> usize {
        match self {
            Held::Stored(s) => s.byte_len(),
            Held::InArray(bytes) => bytes.len(),
            Held::Parsed(r) => r.as_bytes().len(),
        }
    }
}

/// A set read by [`Held::read`].
enum Read<'a> {
    View(RoaringView<'a>),
    Whole(Whole<'a>),
}

impl Read<'_> {
    fn view(&self) -> RoaringView<'_> {
        match self {
            Read::View(v) => *v,
            Read::Whole(w) => w.view(),
        }
    }
}

/// The sets of a `roaring64[]`, or (`from_args`) of a `VARIADIC "any"` call; None
/// when one of them is NULL: like the two-set functions, an unknown set gives an
/// unknown result.
fn from_array<'a>(sets: &'a Sets<'_>) -> Option<Vec<Held<'a>>> {
    sets.iter().map(|s| s.map(Held::InArray)).collect()
}

fn from_args<'fcx>(call: Call<'fcx>) -> Option<Vec<Held<'fcx>>> {
    variadic_sets(call)
        .into_iter()
        .map(|s| {
            s.map(|s| match s {
                SetArg::Stored(v) => Held::Stored(Stored::new(v, call)),
                SetArg::Text(t) => Held::Parsed(parse_set(t)),
            })
        })
        .collect()
}

/// The sets of an intersection, smallest first (by their sizes in bytes, which
/// cost no read): reading the smallest first keeps every step small, and the
/// intersection reads each set only while its result so far is not empty, as the
/// aggregate does, which stops reading rows once its state is empty.
fn smallest_first<'a, 'h>(held: &'a [Held<'h>]) -> Vec<&'a Held<'h>> {
    let mut order: Vec<(usize, usize)> = held.iter().map(Held::byte_len).zip(0..).collect();
    order.sort_unstable();
    order.iter().map(|&(_, i)| &held[i]).collect()
}

/// The intersection of `sets` (at least two), read in their order.
fn fold_and(first: &Held<'_>, second: &Held<'_>, rest: &[&Held<'_>]) -> Roaring {
    // Each set is read only for its step, so that a call over many large sets holds
    // two of them at a time, not all.
    let mut acc = first.read().view() & second.read().view();
    for next in rest {
        if acc.is_empty() {
            break;
        }
        check_for_interrupts();
        acc = next
            .by_ranges(&acc, |p, acc| p.and(acc))
            .unwrap_or_else(|| acc.view() & next.read().view());
    }
    acc
}

fn intersection(held: &[Held<'_>]) -> Roaring {
    match smallest_first(held)[..] {
        [] => Roaring::default(),
        // One set: a copy of it, which cannot pass the limit its value is under.
        [one] => SetOp::And
            .many(&[one.read().view()])
            .into_roaring()
            .unwrap_or_else(|e| errors::too_large(e.needed)),
        [first, second, ref rest @ ..] => fold_and(first, second, rest),
    }
}

/// The intersection's cardinality: as [`intersection`], but the last step only
/// counts.
fn intersection_len(held: &[Held<'_>]) -> u64 {
    match smallest_first(held)[..] {
        [] => 0,
        [one] => one.read().view().len(),
        [first, second] => first.read().view().and_len(&second.read().view()),
        [first, second, ref middle @ .., last] => {
            let acc = fold_and(first, second, middle);
            if acc.is_empty() {
                return 0;
            }
            check_for_interrupts();
            last.by_ranges(&acc, |p, acc| p.and_len(acc))
                .unwrap_or_else(|| acc.view().and_len(&last.read().view()))
        }
    }
}

/// Sets of more bytes than this in all are combined (united, or their symmetric
/// difference taken) a batch at a time, the batch's sets read for it alone, so
/// that a call over many large sets does not hold them all at once: the first
/// batch's result joins the second, and so on.
const BATCH_BYTES: usize = 24 << 20;

/// `op` (a union or symmetric difference) over `held` by batches of about
/// [`BATCH_BYTES`]; `last` takes the views of the last batch.
fn by_batches<T>(held: &[Held<'_>], op: SetOp, last: impl FnOnce(&[RoaringView<'_>]) -> T) -> T {
    let mut acc: Option<Roaring> = None;
    let mut rest = held;
    loop {
        let (mut n, mut bytes) = (0, 0);
        while n < rest.len() && (n == 0 || bytes + rest[n].byte_len() <= BATCH_BYTES) {
            bytes += rest[n].byte_len();
            n += 1;
        }
        let (batch, after) = rest.split_at(n);
        let reads: Vec<Read<'_>> = batch.iter().map(Held::read).collect();
        let views: Vec<RoaringView<'_>> = acc
            .iter()
            .map(Roaring::view)
            .chain(reads.iter().map(Read::view))
            .collect();
        if after.is_empty() {
            return last(&views);
        }
        check_for_interrupts();
        acc = Some(
            op.many(&views)
                .into_roaring()
                .unwrap_or_else(|e| errors::too_large(e.needed)),
        );
        rest = after;
    }
}

fn combined(held: Option<Vec<Held<'_>>>, op: SetOp) -> MaybeRoaring {
    let held = held?;
    match op {
        // An intersection of no sets is undefined.
        SetOp::And if held.is_empty() => None,
        SetOp::And => Some(intersection(&held).into()),
        _ => Some(by_batches(&held, op, |views| op.many(views)).into()),
    }
}

fn cardinality(held: Option<Vec<Held<'_>>>, op: SetOp) -> Option<i64> {
    let held = held?;
    match op {
        SetOp::And if held.is_empty() => None,
        SetOp::And => Some(intersection_len(&held) as i64),
        _ => Some(by_batches(&held, op, |views| op.many_len(views)) as i64),
    }
}

// rb_or(VARIADIC roaring64[]) and the others: called with `VARIADIC arr`, or with
// sets written out whose call the planner could not route to the `_args` form.

#[sql_fn]
fn rb_or_many(sets: Sets) -> MaybeRoaring {
    combined(from_array(&sets), SetOp::Or)
}

#[sql_fn]
fn rb_and_many(sets: Sets) -> MaybeRoaring {
    combined(from_array(&sets), SetOp::And)
}

#[sql_fn]
fn rb_xor_many(sets: Sets) -> MaybeRoaring {
    combined(from_array(&sets), SetOp::Xor)
}

#[sql_fn]
fn rb_or_cardinality_many(sets: Sets) -> Option<i64> {
    cardinality(from_array(&sets), SetOp::Or)
}

#[sql_fn]
fn rb_and_cardinality_many(sets: Sets) -> Option<i64> {
    cardinality(from_array(&sets), SetOp::And)
}

#[sql_fn]
fn rb_xor_cardinality_many(sets: Sets) -> Option<i64> {
    cardinality(from_array(&sets), SetOp::Xor)
}

/// The support function of the six: `rb_or(a, b, c)` runs as `rb_or_args(a, b, c)`,
/// which gets the sets as they are instead of an array built from copies of them.
#[sql_fn]
fn rb_many_support(req: SupportRequest) -> Expr {
    req.spread_variadic_call("_args")
}

// rb_or_args(VARIADIC "any") and the others: the sets one by one.

#[sql_fn]
fn rb_or_args(call: Call) -> MaybeRoaring {
    combined(from_args(call), SetOp::Or)
}

#[sql_fn]
fn rb_and_args(call: Call) -> MaybeRoaring {
    combined(from_args(call), SetOp::And)
}

#[sql_fn]
fn rb_xor_args(call: Call) -> MaybeRoaring {
    combined(from_args(call), SetOp::Xor)
}

#[sql_fn]
fn rb_or_cardinality_args(call: Call) -> Option<i64> {
    cardinality(from_args(call), SetOp::Or)
}

#[sql_fn]
fn rb_and_cardinality_args(call: Call) -> Option<i64> {
    cardinality(from_args(call), SetOp::And)
}

#[sql_fn]
fn rb_xor_cardinality_args(call: Call) -> Option<i64> {
    cardinality(from_args(call), SetOp::Xor)
}

/// `|base ∩ s|` for each `s` of `sets`, in order (NULL for a NULL element): the base
/// is read once, whatever the number of sets.
#[sql_fn]
fn rb_and_cardinality_each(base: Stored, sets: Sets) -> Vec<Option<i64>> {
    let base = base.view();
    sets.iter()
        .enumerate()
        .map(|(i, s)| {
            if i % 1024 == 1023 {
                check_for_interrupts();
            }
            s.map(|s| base.and_len(&stored_view(s)) as i64)
        })
        .collect()
}
