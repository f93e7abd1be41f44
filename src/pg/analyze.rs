#![allow(
    unsafe_code,
    reason = "ANALYZE's typanalyze protocol: VacAttrStats, its fetch callback and slots"
)]
//! ANALYZE's protocol for a type's own statistics. The type's `typanalyze` function
//! gets the column's `VacAttrStats`; [`AnalyzeRequest::with_element_stats`] keeps
//! PostgreSQL's standard statistics (what `=` and `<` use: most common values and a
//! histogram of narrow values, the null fraction, the width, the distinct count) and
//! adds the element statistics that `int8[]` columns get from `array_typanalyze`:
//! `STATISTIC_KIND_MCELEM` (the most common elements) and `STATISTIC_KIND_DECHIST`
//! (a histogram of distinct-element counts), in the slots `pg_stats` shows as
//! `most_common_elems`, `most_common_elem_freqs` and `elem_count_histogram`.

use core::ffi::c_void;
use core::marker::PhantomData;

use pgrx::pg_sys;
use pgrx::PgMemoryContexts;

use super::compat;
use super::entry::{Arg, FromArg};
use super::value::Value;

/// The element statistics of a column's sample, as `array_typanalyze` stores them.
pub struct ElementStats {
    /// The most common elements, ascending, each with the fraction of non-null rows
    /// that hold it.
    pub elements: Vec<(i64, f32)>,
    /// The numbers stored after the frequencies (their layout is the caller's).
    pub extra_numbers: Vec<f32>,
    /// Quantiles of the non-null rows' element counts, ascending, then their average.
    pub count_histogram: Vec<f32>,
}

/// What computes a column's [`ElementStats`] from its sample.
pub type ElementStatsFn = fn(&ColumnSample<'_>) -> Option<ElementStats>;

/// The `internal` argument of a `typanalyze` function: the column's `VacAttrStats`.
#[derive(Clone, Copy)]
pub struct AnalyzeRequest<'fcx> {
    stats: *mut pg_sys::VacAttrStats,
    _call: PhantomData<&'fcx ()>,
}

impl<'fcx> FromArg<'fcx> for AnalyzeRequest<'fcx> {
    fn from_arg(arg: Arg<'fcx>) -> Self {
        AnalyzeRequest {
            stats: arg.strict_datum().cast_mut_ptr(),
            _call: PhantomData,
        }
    }
}

/// What the typanalyze function leaves for its `compute_stats`: the standard
/// analysis it wraps, and the element statistics to add.
struct Extra {
    std_compute: pg_sys::AnalyzeAttrComputeStatsFunc,
    std_extra: *mut c_void,
    elements: ElementStatsFn,
}

impl AnalyzeRequest<'_> {
    /// Sets up the standard analysis and, after it, `elements`; false where the
    /// standard analysis declines the column (then ANALYZE skips it).
    pub fn with_element_stats(self, elements: ElementStatsFn) -> bool {
        // SAFETY: ANALYZE passes a valid VacAttrStats and calls typanalyze in its
        // analysis memory context, which outlives the column's compute_stats: the
        // Extra palloc'd there lives as long as the pointer to it.
        unsafe {
            if !pg_sys::std_typanalyze(self.stats) {
                return false;
            }
            let extra = pg_sys::palloc(size_of::<Extra>()) as *mut Extra;
            extra.write(Extra {
                std_compute: (*self.stats).compute_stats,
                std_extra: (*self.stats).extra_data,
                elements,
            });
            (*self.stats).extra_data = extra.cast();
            (*self.stats).compute_stats = Some(compute_stats);
            true
        }
    }
}

/// The rows ANALYZE sampled from a column.
pub struct ColumnSample<'a> {
    stats: *mut pg_sys::VacAttrStats,
    fetch: unsafe extern "C-unwind" fn(*mut pg_sys::VacAttrStats, i32, *mut bool) -> pg_sys::Datum,
    rows: usize,
    _stats: PhantomData<&'a ()>,
}

impl ColumnSample<'_> {
    /// The number of sampled rows.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// The column's statistics target (`ALTER TABLE ... SET STATISTICS`, else
    /// `default_statistics_target`).
    pub fn target(&self) -> usize {
        // SAFETY: ANALYZE's VacAttrStats for the column, valid during compute_stats.
        unsafe { compat::stat_target(self.stats) }.max(1) as usize
    }

    /// Calls `f` on each row's value (None for NULL), in a memory context reset
    /// after each row: a row's detoasted bytes are freed before the next is read.
    /// Checks for interrupts between rows.
    pub fn for_each(&self, mut f: impl FnMut(Option<Value<'_>>)) {
        let mut per_row = PgMemoryContexts::new("roaring64 ANALYZE row");
        for row in 0..self.rows {
            crate::pg::check_for_interrupts();
            let mut null = false;
            // SAFETY: the fetch callback ANALYZE passed, for a row below the sample's
            // count; the datum it returns lives until the sample is freed, after
            // compute_stats, and is a roaring64 when not NULL. What `f` reads of it
            // is allocated in `per_row`, which is reset once `f` returns (the memory
            // outlives every Value `f` gets, which cannot leave it).
            unsafe {
                let datum = (self.fetch)(self.stats, row as i32, &mut null);
                per_row.switch_to(|_| f((!null).then(|| Value::from_datum(datum))));
                per_row.reset();
            }
        }
    }
}

/// The `compute_stats` that ANALYZE calls for the column: the standard statistics,
/// then the element statistics in two free slots.
#[pgrx::pg_guard]
unsafe extern "C-unwind" fn compute_stats(
    stats: *mut pg_sys::VacAttrStats,
    fetch: pg_sys::AnalyzeAttrFetchFunc,
    rows: i32,
    total_rows: f64,
) {
    // SAFETY: ANALYZE calls this with the VacAttrStats our typanalyze set up, whose
    // extra_data is our Extra; the standard analysis gets back its own extra_data
    // while it runs.
    unsafe {
        let extra = (*stats).extra_data as *mut Extra;
        let Extra {
            std_compute,
            std_extra,
            elements,
        } = extra.read();
        (*stats).extra_data = std_extra;
        if let Some(std_compute) = std_compute {
            std_compute(stats, fetch, rows, total_rows);
        }
        (*stats).extra_data = extra.cast();
        let Some(fetch) = fetch else { return };
        let sample = ColumnSample {
            stats,
            fetch,
            rows: rows.max(0) as usize,
            _stats: PhantomData,
        };
        if let Some(found) = elements(&sample) {
            store(stats, &found);
        }
    }
}

/// `=` on int8 (pg_operator.dat's Int8EqualOperator), the operator of element
/// statistics of int8 elements.
const INT8_EQUAL_OPERATOR: u32 = 410;

/// Stores `found` in the first two free slots, in ANALYZE's memory (the standard
/// analysis takes at most three of the five), and marks the statistics valid.
///
/// # Safety
/// `stats` is the column's VacAttrStats, during its compute_stats.
unsafe fn store(stats: *mut pg_sys::VacAttrStats, found: &ElementStats) {
    // SAFETY: the caller's contract; the arrays are palloc'd in anl_context, which
    // ANALYZE keeps until it has written pg_statistic.
    unsafe {
        let s = &mut *stats;
        let kinds = s.stakind;
        let mut free = (0..kinds.len()).filter(|&i| kinds[i] == 0);
        let int8_eq = pg_sys::Oid::from(INT8_EQUAL_OPERATOR);
        let cx = PgMemoryContexts::For(s.anl_context);
        let alloc = |bytes: usize| pg_sys::MemoryContextAlloc(cx.value(), bytes.max(1));
        if let (false, Some(slot)) = (found.elements.is_empty(), free.next()) {
            let n = found.elements.len();
            let values = alloc(n * size_of::<pg_sys::Datum>()) as *mut pg_sys::Datum;
            let extra = &found.extra_numbers;
            let numbers = alloc((n + extra.len()) * size_of::<f32>()) as *mut f32;
            for (i, &(value, freq)) in found.elements.iter().enumerate() {
                values.add(i).write(pg_sys::Datum::from(value));
                numbers.add(i).write(freq);
            }
            for (i, &x) in extra.iter().enumerate() {
                numbers.add(n + i).write(x);
            }
            s.stakind[slot] = pg_sys::STATISTIC_KIND_MCELEM as i16;
            s.staop[slot] = int8_eq;
            s.stacoll[slot] = pg_sys::InvalidOid;
            s.stanumbers[slot] = numbers;
            s.numnumbers[slot] = (n + extra.len()) as i32;
            s.stavalues[slot] = values;
            s.numvalues[slot] = n as i32;
            s.statypid[slot] = pg_sys::INT8OID;
            s.statyplen[slot] = 8;
            s.statypbyval[slot] = true;
            s.statypalign[slot] = b'd' as core::ffi::c_char;
        }
        if let (false, Some(slot)) = (found.count_histogram.is_empty(), free.next()) {
            let n = found.count_histogram.len();
            let numbers = alloc(n * size_of::<f32>()) as *mut f32;
            for (i, &x) in found.count_histogram.iter().enumerate() {
                numbers.add(i).write(x);
            }
            s.stakind[slot] = pg_sys::STATISTIC_KIND_DECHIST as i16;
            s.staop[slot] = int8_eq;
            s.stacoll[slot] = pg_sys::InvalidOid;
            s.stanumbers[slot] = numbers;
            s.numnumbers[slot] = n as i32;
        }
        s.stats_valid = true;
    }
}
