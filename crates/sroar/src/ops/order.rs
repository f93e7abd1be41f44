//! Equality and the total order of sets.

use core::cmp::Ordering;

use crate::container::{ArrayIter, BitmapView, Container, RunView};
use crate::view::RoaringView;

/// The total order of the ascending value sequences, compared lexicographically
/// with a proper prefix first — the order of sorted `int8[]` arrays (with values
/// read as unsigned). Consistent with `==` on views, which compares bytes: the format is canonical,
/// so the bytes are equal exactly when the sets are.
///
/// Whole identical containers — same directory entry (key and cardinality), same
/// kind and same payload bytes — are skipped without decoding; only the first
/// differing container pair is read value by value (word by word for two bitmaps).
pub fn cmp(a: RoaringView<'_>, b: RoaringView<'_>) -> Ordering {
    let (da, db) = (a.directory(), b.directory());
    let (na, nb) = (da.len(), db.len());
    let mut i = 0;
    loop {
        match (i < na, i < nb) {
            (false, false) => return Ordering::Equal,
            // The sequences agree so far and one ends: it is a prefix of the other.
            (false, true) => return Ordering::Less,
            (true, false) => return Ordering::Greater,
            (true, true) => {}
        }
        let (ka, kb) = (da.key(i), db.key(i));
        if ka != kb {
            // The next values are the first of each container: the smaller key
            // holds the smaller value.
            return ka.cmp(&kb);
        }
        let (ca, cb) = (a.container(i).1, b.container(i).1);
        if da.card(i) != db.card(i) || ca.kind() != cb.kind() || ca.as_bytes() != cb.as_bytes() {
            let more = (i + 1 < na, i + 1 < nb);
            if let Some(ord) = cmp_containers(ca, cb, more) {
                return ord;
            }
        }
        i += 1;
    }
}

/// Compares two containers of the same key as sequences, in the context of the
/// whole sets: `more.0` / `more.1` say whether `a` / `b` have later containers.
/// `None` when the containers hold the same values (possible only for
/// non-canonical input).
fn cmp_containers(a: Container<'_>, b: Container<'_>, more: (bool, bool)) -> Option<Ordering> {
    if let (Container::Bitmap(x), Container::Bitmap(y)) = (a, b) {
        let (w, d) = (0..1024).find_map(|w| {
            let d = x.word(w) ^ y.word(w);
            (d != 0).then_some((w, d))
        })?;
        // Both hold every value below bit `bit` of word `w`; exactly one holds
        // that value. The other one's next value is larger if it continues (in
        // this container or a later one); if it ends, it is a prefix.
        let bit = d.trailing_zeros();
        let continues = |c: &BitmapView<'_>, later: bool| {
            (bit < 63 && c.word(w) >> (bit + 1) != 0)
                || (w + 1..1024).any(|v| c.word(v) != 0)
                || later
        };
        let a_has_it = x.word(w) >> bit & 1 == 1;
        let other_continues = if a_has_it {
            continues(&y, more.1)
        } else {
            continues(&x, more.0)
        };
        // `a` has it and `b` goes on: `a`'s next value is smaller. `a` has it and
        // `b` stops: `b` is a prefix. Mirrored when `b` has it.
        return Some(if a_has_it == other_continues {
            Ordering::Less
        } else {
            Ordering::Greater
        });
    }
    if let (Some(x), Some(y)) = (MaximalRuns::of(a), MaximalRuns::of(b)) {
        return cmp_runs(x, y, more);
    }
    let (mut x, mut y) = (a.iter(), b.iter());
    loop {
        match (x.next(), y.next()) {
            (Some(p), Some(q)) if p == q => {}
            (Some(p), Some(q)) => return Some(p.cmp(&q)),
            (None, None) => return None,
            // `a` leaves this container first: its next value, if any, has a
            // larger key than `b`'s next one; if it has none it is a prefix.
            (None, Some(_)) => return Some(ends_first(more.0)),
            (Some(_), None) => return Some(ends_first(more.1).reverse()),
        }
    }
}

/// The order when the left sequence leaves the current container first while
/// the right one goes on in it: greater if the left one goes on in a later
/// container (with larger values), less if it ends there (a proper prefix).
fn ends_first(left_goes_on: bool) -> Ordering {
    if left_goes_on {
        Ordering::Greater
    } else {
        Ordering::Less
    }
}

/// Compares two containers by their maximal runs `(start, last)`: a set has one
/// list of maximal runs, so equal runs are equal stretches of values.
fn cmp_runs(
    mut x: impl Iterator<Item = (u16, u16)>,
    mut y: impl Iterator<Item = (u16, u16)>,
    more: (bool, bool),
) -> Option<Ordering> {
    loop {
        match (x.next(), y.next()) {
            (Some(p), Some(q)) if p == q => {}
            (Some((s, e)), Some((t, f))) => {
                return Some(if s != t {
                    // The earlier start is a value the other lacks.
                    s.cmp(&t)
                } else if e < f {
                    // Both hold `s..=e`; `b` goes on with `e + 1`, while `a`'s next
                    // value (if any) is larger.
                    ends_first(x.next().is_some() || more.0)
                } else {
                    ends_first(y.next().is_some() || more.1).reverse()
                });
            }
            (None, None) => return None,
            (None, Some(_)) => return Some(ends_first(more.0)),
            (Some(_), None) => return Some(ends_first(more.1).reverse()),
        }
    }
}

/// The maximal runs of an array or run container, in order.
enum MaximalRuns<'a> {
    Array(core::iter::Peekable<ArrayIter<'a>>),
    Run(RunView<'a>, usize),
}

impl<'a> MaximalRuns<'a> {
    /// `None` for a bitmap container.
    fn of(c: Container<'a>) -> Option<Self> {
        match c {
            Container::Array(a) => Some(MaximalRuns::Array(a.iter().peekable())),
            Container::Run(r) => Some(MaximalRuns::Run(r, 0)),
            Container::Bitmap(_) => None,
        }
    }
}

impl Iterator for MaximalRuns<'_> {
    type Item = (u16, u16);

    fn next(&mut self) -> Option<(u16, u16)> {
        match self {
            MaximalRuns::Array(it) => {
                let start = it.next()?;
                let mut last = start;
                while let Some(v) = it.next_if(|&v| u32::from(v) == u32::from(last) + 1) {
                    last = v;
                }
                Some((start, last))
            }
            MaximalRuns::Run(r, i) => {
                let run = (*i < r.count_runs() as usize).then(|| r.run(*i))?;
                *i += 1;
                Some(run)
            }
        }
    }
}
