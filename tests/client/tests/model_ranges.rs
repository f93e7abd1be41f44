//! Property tests against the set model: Range functions, half-open and int8range (as tests/sql/04_ranges).
//! `set_model` holds the model and the generators.

mod set_model;

use set_model::*;

/// Endpoints of ranges: near members, near container edges, near the int8 ends.
fn endpoint(a: &Set, seed: u64, small: i64) -> i64 {
    let members: Vec<i64> = a.iter().copied().collect();
    let base = match seed % 4 {
        0 if !members.is_empty() => members[((seed >> 8) % members.len() as u64) as usize],
        1 => CENTERS[((seed >> 8) % CENTERS.len() as u64) as usize],
        2 => seed as i64,
        _ => [i64::MIN, i64::MAX, 0][((seed >> 8) % 3) as usize],
    };
    base.saturating_add(small)
}

/// Inclusive model bounds [lo, hi] (as i128, empty when lo > hi) of half-open [s, e).
fn half_open(s: i64, e: i64) -> (i128, i128) {
    (i128::from(s), i128::from(e) - 1)
}

fn in_bounds(x: i64, (lo, hi): (i128, i128)) -> bool {
    lo <= i128::from(x) && i128::from(x) <= hi
}

/// The values of bounds, when there are at most `limit` of them.
fn range_values((lo, hi): (i128, i128), limit: i128) -> Option<Vec<i64>> {
    if hi - lo + 1 > limit {
        return None;
    }
    Some((lo..=hi).map(|x| x as i64).collect())
}

/// A range written as int8range(lower, upper, flags), and its inclusive model bounds;
/// None when PostgreSQL itself would refuse it (canonicalization overflows).
fn int8range(lower: Option<i64>, upper: Option<i64>, flags: &str) -> Option<(i128, i128)> {
    let (mut lower, mut upper) = (lower, upper);
    if let (Some(l), Some(u)) = (lower, upper) {
        if l > u {
            (lower, upper) = (Some(u), Some(l));
        }
    }
    let lo_inc = flags.starts_with('[');
    let hi_inc = flags.ends_with(']');
    if (!lo_inc && lower == Some(i64::MAX)) || (hi_inc && upper == Some(i64::MAX)) {
        return None;
    }
    let lo = match lower {
        None => i128::from(i64::MIN),
        Some(l) => i128::from(l) + i128::from(!lo_inc),
    };
    let hi = match upper {
        None => i128::from(i64::MAX),
        Some(u) => i128::from(u) - i128::from(!hi_inc),
    };
    Some((lo, hi))
}

fn check_ranges(
    c: &mut Client,
    a: &Set,
    native: &Raw,
    range_sql: &str,
    params: &[&(dyn ToSql + Sync)],
    bounds: (i128, i128),
    what: &str,
) {
    let inside: Set = a
        .iter()
        .copied()
        .filter(|&x| in_bounds(x, bounds))
        .collect();
    let outside: Set = a
        .iter()
        .copied()
        .filter(|&x| !in_bounds(x, bounds))
        .collect();
    let r = range_sql;
    let sql = format!(
        "SELECT rb_to_array(rb_range($1, {r})), rb_range_cardinality($1, {r}), rb_contains_range($1, {r}),
                rb_to_array(rb_clear($1, {r})), {} AND {}",
        canon(&format!("rb_range($1, {r})")),
        canon(&format!("rb_clear($1, {r})"))
    );
    let mut all: Vec<&(dyn ToSql + Sync)> = vec![native];
    all.extend_from_slice(params);
    let row = c.query_one(&sql, &all).unwrap();
    assert_eq!(
        row.get::<_, Vec<i64>>(0),
        vec_of(&inside),
        "rb_range {what}"
    );
    assert_eq!(
        row.get::<_, i64>(1),
        inside.len() as i64,
        "rb_range_cardinality {what}"
    );
    let (lo, hi) = bounds;
    let width = (hi - lo + 1).max(0);
    assert_eq!(
        row.get::<_, bool>(2),
        inside.len() as i128 == width,
        "rb_contains_range {what}"
    );
    assert_eq!(
        row.get::<_, Vec<i64>>(3),
        vec_of(&outside),
        "rb_clear {what}"
    );
    assert!(row.get::<_, bool>(4), "canonical rb_range/rb_clear {what}");

    // rb_from_range: checked by its header where the set is not too large to build;
    // past 2^43 values it needs more than 1 GB (2^27 containers of 16 bytes).
    if width <= 1 << 32 {
        let sql = format!(
            "SELECT rb_cardinality(rb_from_range({r})), rb_min(rb_from_range({r})), rb_max(rb_from_range({r})), {}
             FROM (SELECT $1::roaring64) AS unused",
            // (rb_to_array of more than 2^27 values is itself over 1 GB)
            if width <= 1 << 20 {
                canon(&format!("rb_from_range({r})"))
            } else {
                "true".to_owned()
            }
        );
        let row = c.query_one(&sql, &all).unwrap();
        assert_eq!(
            i128::from(row.get::<_, i64>(0)),
            width,
            "rb_from_range cardinality {what}"
        );
        let (min, max) = if width > 0 {
            (Some(lo as i64), Some(hi as i64))
        } else {
            (None, None)
        };
        assert_eq!(
            row.get::<_, Option<i64>>(1),
            min,
            "rb_from_range min {what}"
        );
        assert_eq!(
            row.get::<_, Option<i64>>(2),
            max,
            "rb_from_range max {what}"
        );
        assert!(row.get::<_, bool>(3), "canonical rb_from_range {what}");
    } else if width > 1 << 43 {
        let e = c
            .query_one(
                &format!("SELECT rb_from_range({r}) FROM (SELECT $1::roaring64) AS unused"),
                &all,
            )
            .expect_err("a set over 1 GB");
        assert_eq!(
            sqlstate(&e).as_deref(),
            Some("54000"),
            "rb_from_range {what}: {e}"
        );
    }

    // Fill and flip only for ranges small enough to enumerate.
    if let Some(values) = range_values(bounds, 70_000) {
        let sql = format!(
            "SELECT rb_to_array(rb_fill($1, {r})), rb_to_array(rb_flip($1, {r})), rb_to_array(rb_from_range({r})),
                    {} AND {}",
            canon(&format!("rb_fill($1, {r})")),
            canon(&format!("rb_flip($1, {r})"))
        );
        let row = c.query_one(&sql, &all).unwrap();
        let range: Set = values.iter().copied().collect();
        let filled: Set = a.union(&range).copied().collect();
        let flipped: Set = a.symmetric_difference(&range).copied().collect();
        assert_eq!(row.get::<_, Vec<i64>>(0), vec_of(&filled), "rb_fill {what}");
        assert_eq!(
            row.get::<_, Vec<i64>>(1),
            vec_of(&flipped),
            "rb_flip {what}"
        );
        assert_eq!(row.get::<_, Vec<i64>>(2), values, "rb_from_range {what}");
        assert!(row.get::<_, bool>(3), "canonical rb_fill/rb_flip {what}");
    }
}

/// Range functions with (start, end) half-open and with int8range, bounded or not.
#[test]
fn range_functions() {
    let small = prop_oneof![3 => -3i64..3, 1 => -70_000i64..70_000];
    let strat = (
        set(),
        (any::<u64>(), small.clone()),
        (any::<u64>(), small),
        proptest::sample::select(vec!["[)", "[]", "(]", "()"]),
        0u8..4,
    );
    run(
        "ranges",
        strat,
        |c, (a, (s1, o1), (s2, o2), flags, unbounded)| {
            let native = build(c, &a);
            let s = endpoint(&a, s1, o1);
            // A short range from s half of the time, so that fill and flip get exercised.
            let e = if s2 % 2 == 0 {
                s.saturating_add(o2.abs())
            } else {
                endpoint(&a, s2, o2)
            };
            // (start, end): both orders; start >= end is empty.
            for (x, y) in [(s, e), (e, s)] {
                check_ranges(
                    c,
                    &a,
                    &native,
                    "$2::int8, $3::int8",
                    &[&x, &y],
                    half_open(x, y),
                    &format!("[{x}, {y})"),
                );
            }
            // int8range, with either side possibly unbounded.
            let lower = (unbounded & 1 == 0).then_some(s.min(e));
            let upper = (unbounded & 2 == 0).then_some(s.max(e));
            if let Some(bounds) = int8range(lower, upper, flags) {
                check_ranges(
                    c,
                    &a,
                    &native,
                    "int8range($2::int8, $3::int8, $4::text)",
                    &[&lower, &upper, &flags],
                    bounds,
                    &format!("int8range({lower:?}, {upper:?}, {flags})"),
                );
            }
            // The empty int8range.
            check_ranges(
                c,
                &a,
                &native,
                "'empty'::int8range",
                &[],
                (1, 0),
                "empty int8range",
            );
        },
    );
}
