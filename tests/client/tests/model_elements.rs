//! Property tests against the set model: Element edits, shifts and slices (as tests/sql/03_elements).
//! `set_model` holds the model and the generators.

mod set_model;

use set_model::*;

/// Adding and removing elements, one at a time and as arrays.
#[test]
fn element_edits() {
    let sql = format!(
        "SELECT rb_to_array(rb_add(a, x)), rb_to_array(rb_remove(a, x)),
                rb_add(a, x) = rb_add(x, a) AND rb_add(a, x) = a | x AND rb_add(a, x) = x | a
                  AND rb_remove(a, x) = a - x,
                {} AND {}
         FROM (SELECT $1::roaring64 AS a, $2::int8 AS x) AS p",
        canon("rb_add(a, x)"),
        canon("rb_remove(a, x)")
    );
    let many = format!(
        "SELECT rb_to_array(rb_add(a, xs)), rb_to_array(rb_remove(a, xs)), {} AND {}
         FROM (SELECT $1::roaring64 AS a, $2::int8[] AS xs) AS p",
        canon("rb_add(a, xs)"),
        canon("rb_remove(a, xs)")
    );
    let strat = (
        set(),
        prop::collection::vec(any::<u64>(), 1..6),
        any::<u64>(),
    );
    run("edits", strat, |c, (a, seeds, seed)| {
        let native = build(c, &a);
        let xs = probes(&a, &seeds);
        // One at a time: three of the fixed probes (int8 min and max, 0, -1, ...)
        // and the random ones.
        let fixed = 9;
        let first = (seed % (fixed as u64 - 2)) as usize;
        for &x in xs[first..first + 3].iter().chain(&xs[fixed..]) {
            let row = c.query_one(&sql, &[&native, &x]).unwrap();
            let mut added = a.clone();
            added.insert(x);
            let mut removed = a.clone();
            removed.remove(&x);
            assert_eq!(row.get::<_, Vec<i64>>(0), vec_of(&added), "rb_add {x}");
            assert_eq!(row.get::<_, Vec<i64>>(1), vec_of(&removed), "rb_remove {x}");
            assert!(row.get::<_, bool>(2), "add/remove spellings agree for {x}");
            assert!(row.get::<_, bool>(3), "canonical results for {x}");
        }
        // As arrays, with duplicates, members and a whole run.
        let mut arr = xs.clone();
        arr.extend(xs.iter().take(3));
        let mut st = seed;
        arr.extend(
            a.iter()
                .filter(|_| splitmix(&mut st).is_multiple_of(3))
                .take(5000),
        );
        let row = c.query_one(&many, &[&native, &arr]).unwrap();
        let added: Set = a.iter().chain(arr.iter()).copied().collect();
        let removed: Set = a.iter().copied().filter(|x| !arr.contains(x)).collect();
        assert_eq!(row.get::<_, Vec<i64>>(0), vec_of(&added), "rb_add many");
        assert_eq!(
            row.get::<_, Vec<i64>>(1),
            vec_of(&removed),
            "rb_remove many"
        );
        assert!(row.get::<_, bool>(2), "canonical");
    });
}

/// rb_shift drops elements leaving int8; rb_slice takes ranks [offset, offset+limit).
#[test]
fn shift_and_slice() {
    let deltas = prop_oneof![
        proptest::sample::select(vec![
            0,
            1,
            -1,
            65535,
            65536,
            -65536,
            -65537,
            1 << 32,
            -(1 << 32),
            1 << 48,
            -(1 << 48),
            i64::MAX,
            i64::MIN,
            i64::MIN + 1,
        ]),
        any::<i64>(),
        -200_000i64..200_000,
    ];
    let strat = (set(), deltas, any::<u64>(), any::<u64>(), any::<bool>());
    run("shift", strat, |c, (a, delta, o, l, to_edge)| {
        let native = build(c, &a);
        // Sometimes a delta that moves the largest or smallest element exactly to an end.
        let delta = match (to_edge, a.first(), a.last()) {
            (true, Some(_), Some(&max)) if o % 2 == 0 => i64::MAX.wrapping_sub(max),
            (true, Some(&min), Some(_)) => i64::MIN.wrapping_sub(min),
            _ => delta,
        };
        let delta_minus_1 = delta.saturating_sub(1);
        let delta_plus_1 = delta.saturating_add(1);
        for d in [delta, delta_minus_1, delta_plus_1] {
            let row = c
                .query_one(
                    &format!(
                        "SELECT rb_to_array(rb_shift($1::roaring64, $2::int8)), {}",
                        canon("rb_shift($1::roaring64, $2::int8)")
                    ),
                    &[&native, &d],
                )
                .unwrap();
            let shifted: Set = a.iter().filter_map(|x| x.checked_add(d)).collect();
            assert_eq!(
                row.get::<_, Vec<i64>>(0),
                vec_of(&shifted),
                "rb_shift by {d}"
            );
            assert!(row.get::<_, bool>(1), "canonical rb_shift by {d}");
        }

        let n = a.len() as u64;
        let pick = |s: u64| -> i64 {
            match s % 5 {
                0 => 0,
                1 => i64::MAX,
                2 => (s >> 8) as i64 & i64::MAX,
                _ => ((s >> 8) % (n + 3)) as i64,
            }
        };
        let (offset, limit) = (pick(o), pick(l));
        let row = c
            .query_one(
                &format!(
                    "SELECT rb_to_array(rb_slice($1, $2, $3)), {}",
                    canon("rb_slice($1, $2, $3)")
                ),
                &[&native, &offset, &limit],
            )
            .unwrap();
        let sliced: Vec<i64> = a
            .iter()
            .copied()
            .skip(usize::try_from(offset).unwrap_or(usize::MAX))
            .take(usize::try_from(limit).unwrap_or(usize::MAX))
            .collect();
        assert_eq!(
            row.get::<_, Vec<i64>>(0),
            sliced,
            "rb_slice({offset}, {limit})"
        );
        assert!(row.get::<_, bool>(1), "canonical rb_slice");
    });
}
