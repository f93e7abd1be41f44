//! ANALYZE of a `roaring64` column: PostgreSQL's standard statistics, plus the
//! element statistics `int8[]` columns get (most common elements, a histogram of
//! set sizes), computed from a bounded read of each sampled set.
//!
//! A set of up to [`ELEMENTS_PER_SET`] elements is read whole; a larger one through
//! [`WINDOWS`] windows of consecutive containers spread over it (systematic
//! sampling from a random start), at least [`MIN_CONTAINERS`] of them and about
//! [`ELEMENTS_PER_SET`] elements together (a large container is thinned to the
//! elements whose hash is 0 modulo k, the same in every row), each element counted
//! with the weight of the containers it stands for. A
//! large set out of line is read in TOAST slices: its header, then four reads per
//! window, never the whole value. The set sizes come from the headers, exactly.
//!
//! Layout of the most common elements' numbers (`pg_stats.most_common_elem_freqs`):
//! the frequency of each element (the fraction of non-null rows holding it), then,
//! as `array_typanalyze` stores them, the least and the greatest of those
//! frequencies and the frequency of NULL elements (always 0), then one more: the
//! geometric mean frequency of the elements seen but not in the list, which the
//! estimators use for an element the list does not hold.

use std::collections::HashMap;

use sroar::{Header, Partial, HEADER_MAX_LEN};
use sroar_pg_macros::sql_fn;

use crate::pg::{AnalyzeRequest, ColumnSample, ElementStats, Value};
use crate::read::{ranges, READ_WHOLE_UP_TO};

/// Elements read from one sampled set, about.
pub const ELEMENTS_PER_SET: u64 = 2048;
/// Windows of consecutive containers read from a larger set.
pub const WINDOWS: usize = 4;
/// Containers read from a larger set, at least: of large containers, each is
/// thinned to its share of [`ELEMENTS_PER_SET`].
pub const MIN_CONTAINERS: usize = 32;
/// Rows an element read in part must be seen in to be listed (see [`listable`]).
const SAMPLED_SIGHTINGS: u32 = 4;
/// Distinct elements tracked before the least counted half is dropped (about 60
/// MB): with at most [`ELEMENTS_PER_SET`] counted per row, an element held by one
/// row in a few hundred is counted on before it can be dropped.
const MAX_TRACKED: usize = 2_000_000;

/// `roaring64`'s `typanalyze`.
#[sql_fn]
fn roaring64_typanalyze(req: AnalyzeRequest) -> bool {
    req.with_element_stats(element_stats)
}

/// Weighted counts of the elements seen, with lossy pruning.
struct Counts {
    seen: HashMap<u64, (f64, u32)>,
    cap: usize,
    /// The largest weight dropped by a pruning: an element counted after it may
    /// have been seen before, up to this much.
    dropped: f64,
    /// Whether some set was read in part (windows, thinning).
    partial: bool,
}

impl Counts {
    fn add(&mut self, elements: impl Iterator<Item = u64>, weight: f64) {
        for e in elements {
            let c = self.seen.entry(e).or_insert((0.0, 0));
            c.0 += weight;
            c.1 += 1;
        }
        if self.seen.len() > self.cap {
            self.prune();
        }
    }

    /// Drops the least counted half.
    fn prune(&mut self) {
        let mut weights: Vec<f64> = self.seen.values().map(|c| c.0).collect();
        let mid = weights.len() / 2;
        let (_, &mut cut, _) = weights.select_nth_unstable_by(mid, f64::total_cmp);
        self.seen.retain(|_, c| c.0 > cut);
        self.dropped = self.dropped.max(cut);
    }
}

/// Whether an element's count can be listed: seen in two rows when every sighting
/// was a whole read (weight 1), else in [`SAMPLED_SIGHTINGS`]. An element of a set
/// read in part stands for many, and two sets may share one by chance: listed from
/// two sightings, 17 such elements of 100 random sets of 10M came out held by every
/// set, where each is held by one.
fn listable(&(weight, sightings): &(f64, u32)) -> bool {
    sightings >= 2 && (weight <= f64::from(sightings) || sightings >= SAMPLED_SIGHTINGS)
}

/// The element statistics of a column's sample; None when every row is NULL.
fn element_stats(sample: &ColumnSample<'_>) -> Option<ElementStats> {
    let target = sample.target();
    let keep = target * 10;
    let mut counts = Counts {
        seen: HashMap::new(),
        cap: MAX_TRACKED.max(keep * 100),
        dropped: 0.0,
        partial: false,
    };
    let mut sizes = Vec::with_capacity(sample.len());
    let mut buf = Vec::new();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    sample.for_each(|value| {
        let Some(value) = value else { return };
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        // A set whose bytes do not read is left out: ANALYZE never fails on it.
        if let Some(size) = count_sample(value, seed >> 11, &mut buf, &mut counts) {
            sizes.push(size);
        }
    });
    if sizes.is_empty() {
        return None;
    }
    let rows = sizes.len() as f64;
    let total: f64 = sizes.iter().map(|&s| s as f64).sum();

    let mut ranked: Vec<(u64, f64)> = counts
        .seen
        .iter()
        .filter(|(_, c)| listable(c) && c.0 > counts.dropped)
        .map(|(&e, c)| (e, c.0))
        .collect();
    ranked.sort_unstable_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    ranked.truncate(keep);
    // An element not in the list is most likely one of the many seen a few times,
    // or one never seen: the geometric mean of their frequencies keeps the q-error
    // of a rare element small, where the plain mean, pulled up by the elements just
    // below the list, would not. A seen element counts the rows it was seen in,
    // unweighted (a weight stands for the elements a thinned read skipped, not for
    // more rows of this one). Those never seen are counted as Chao1 estimates them
    // (f1^2 / 2 f2, f1 and f2 the elements seen once and twice), sharing the mass
    // Good-Turing leaves them (f1 of all sightings): at 1M rows (a 3% sample), an
    // element in 3 rows was estimated at 51 rows from the seen ones alone.
    let rows_seen = |c: &(f64, u32)| f64::from(c.1) / rows;
    let mut log_sum = 0.0;
    let mut others = 0.0;
    let (mut once, mut twice) = (0.0f64, 0.0f64);
    let listed: std::collections::HashSet<u64> = ranked.iter().map(|e| e.0).collect();
    for (e, c) in &counts.seen {
        match c.1 {
            1 => once += 1.0,
            2 => twice += 1.0,
            _ => {}
        }
        if !listed.contains(e) {
            log_sum += rows_seen(c).ln();
            others += 1.0;
        }
    }
    // Chao1 and Good-Turing hold for a sample of whole rows: where sets were read in
    // part, sightings follow the windows and the thinning instead (20 copies of one
    // dense range gave 144 elements seen once and none twice).
    if once > 0.0 && counts.dropped == 0.0 && !counts.partial {
        let unseen = once * once / (2.0 * twice.max(1.0));
        // Their mass: f1 of all sightings, in row frequency f1 / rows.
        let unseen_freq = once / rows / unseen;
        if unseen_freq > 0.0 {
            log_sum += unseen * unseen_freq.ln();
            others += unseen;
        }
    }
    let rest_freq = if others == 0.0 {
        // Every element seen is listed: those thinned away, or never sampled, are
        // taken at half the least listed frequency, as arraycontsel does.
        ranked.iter().map(|e| e.1).fold(f64::INFINITY, f64::min) / rows / 2.0
    } else {
        (log_sum / others).exp()
    }
    .min(1.0) as f32;
    let mut elements: Vec<(i64, f32)> = ranked
        .iter()
        .map(|&(e, w)| (crate::int8::to_i64(e), (w / rows).min(1.0) as f32))
        .collect();
    let min_freq = elements.iter().map(|e| e.1).fold(f32::INFINITY, f32::min);
    let max_freq = elements.iter().map(|e| e.1).fold(0.0, f32::max);
    // Ascending as int8, as the estimators search them.
    elements.sort_unstable_by_key(|e| e.0);
    let mut numbers_tail = vec![min_freq.min(1.0), max_freq, 0.0, rest_freq];
    if elements.is_empty() {
        numbers_tail.clear();
    }

    sizes.sort_unstable();
    let bins = target.max(2);
    let last = sizes.len() - 1;
    let mut count_histogram: Vec<f32> = (0..bins)
        .map(|i| sizes[i * last / (bins - 1)] as f32)
        .collect();
    count_histogram.push((total / rows) as f32);
    Some(ElementStats {
        elements,
        extra_numbers: numbers_tail,
        count_histogram,
    })
}

/// A hash of an element whose low bits choose the elements kept by thinning.
fn thinning_hash(e: u64) -> u64 {
    (e ^ (e >> 31)).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32
}

/// Counts a sample of the set's elements (read into `buf`); returns the set's size,
/// or None when its bytes do not read.
fn count_sample(
    value: Value<'_>,
    random: u64,
    buf: &mut Vec<u64>,
    counts: &mut Counts,
) -> Option<u64> {
    let header = Header::from_prefix(value.slice(0, HEADER_MAX_LEN)).ok()?;
    let (card, n) = (header.cardinality, header.n as usize);
    if card == 0 {
        return Some(0);
    }
    let wanted = ((ELEMENTS_PER_SET * n as u64 / card) as usize).max(MIN_CONTAINERS);
    let per_window = wanted.div_ceil(WINDOWS);
    let all = card <= ELEMENTS_PER_SET || per_window * WINDOWS >= n;
    #[allow(clippy::single_range_in_vec_init, reason = "one range of many")]
    let picks = |n: usize| {
        if all {
            return vec![0..n];
        }
        // Windows at equal spacing from a random start: each container is in one
        // with probability WINDOWS * per_window / n.
        let spacing = n as f64 / WINDOWS as f64;
        let u = random as f64 / (1u64 << 53) as f64;
        (0..WINDOWS)
            .map(|j| {
                let at = ((u + j as f64) * spacing) as usize;
                at..(at + per_window).min(n)
            })
            .collect()
    };
    let weight = if all {
        1.0
    } else {
        n as f64 / (WINDOWS * per_window) as f64
    };
    counts.partial |= !all || card > ELEMENTS_PER_SET;
    buf.clear();
    let read = if value.byte_len() <= READ_WHOLE_UP_TO {
        let bytes = value.bytes();
        Partial::new(|at: usize, len: usize| {
            let end = at.saturating_add(len).min(bytes.len());
            &bytes[at.min(end)..end]
        })
        .container_values(picks, buf)
    } else {
        Partial::new(ranges(value)).container_values(picks, buf)
    };
    read.ok()?;
    // A container of many elements (up to 65,536) is thinned to the elements whose
    // hash is 0 modulo k (a power of two): the same elements in every row, so that an
    // element common to many large sets is seen in each of them and counted as any
    // other (a random k-th per row saw each element once: 20 copies of one dense
    // range listed nothing, and `@> x` was planned for 1 row of 20). Elements thinned
    // away are estimated as the unlisted ones.
    let cap = (ELEMENTS_PER_SET as usize / MIN_CONTAINERS).max(1);
    for container in buf.chunk_by(|a, b| a >> 16 == b >> 16) {
        let k = container.len().div_ceil(cap).next_power_of_two() as u64;
        if k <= 1 || card <= ELEMENTS_PER_SET {
            counts.add(container.iter().copied(), weight);
        } else {
            let kept = container
                .iter()
                .copied()
                .filter(|&e| thinning_hash(e) & (k - 1) == 0);
            counts.add(kept, weight);
        }
    }
    Some(card)
}
