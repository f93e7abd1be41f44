//! Property tests against the set model: Runs and multiranges (as tests/sql/09_multirange).
//! `set_model` holds the model and the generators.

mod set_model;

use set_model::*;

/// Maximal runs of a set as (first, last) pairs.
fn runs(s: &Set) -> Vec<(i64, i64)> {
    let mut out: Vec<(i64, i64)> = Vec::new();
    for &x in s {
        match out.last_mut() {
            Some((_, last)) if last.checked_add(1) == Some(x) => *last = x,
            _ => out.push((x, x)),
        }
    }
    out
}

/// rb_runs, rb_to_multirange and the int8multirange casts, if this build has them.
#[test]
fn runs_and_multiranges() {
    let mut c = connect();
    let have_runs = exists(&mut c, "rb_runs(roaring64)");
    let have_multirange = exists(&mut c, "rb_to_multirange(roaring64)");
    let have_from = exists(&mut c, "roaring64_from_multirange(int8multirange)");
    if !have_runs && !have_multirange && !have_from {
        eprintln!("no runs or multirange functions in this build: nothing to test");
        return;
    }
    drop(c);
    run("runs", set(), |c, a| {
        let native = build(c, &a);
        let expect = runs(&a);
        if have_runs {
            let got: Vec<(i64, i64)> = c
                .query("SELECT first, last FROM rb_runs($1::roaring64)", &[&native])
                .unwrap()
                .iter()
                .map(|r| (r.get(0), r.get(1)))
                .collect();
            assert_eq!(got, expect, "rb_runs");
        }
        // The text of the multirange: [first,last+1), or [first,) at int8 max.
        let mut text = String::from("{");
        for (i, (f, l)) in expect.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            match l.checked_add(1) {
                Some(end) => write!(text, "[{f},{end})").unwrap(),
                None => write!(text, "[{f},)").unwrap(),
            }
        }
        text.push('}');
        if have_multirange {
            let row = c
                .query_one(
                    "SELECT rb_to_multirange($1::roaring64)::text, ($1::roaring64)::int8multirange::text",
                    &[&native],
                )
                .unwrap();
            assert_eq!(row.get::<_, String>(0), text, "rb_to_multirange");
            assert_eq!(row.get::<_, String>(1), text, "cast to int8multirange");
        }
        if have_from {
            let row = c
                .query_one(
                    "SELECT roaring64_from_multirange($1::text::int8multirange)::bytea,
                            ($1::text::int8multirange)::roaring64::bytea",
                    &[&text],
                )
                .unwrap();
            assert_eq!(Raw(row.get(0)), native, "roaring64_from_multirange({text})");
            assert_eq!(Raw(row.get(1)), native, "cast from int8multirange");
        }
    });
}
