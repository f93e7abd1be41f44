//! Property tests against the set model: Two-set algebra, its cardinalities and predicates (as tests/sql/06_algebra).
//! `set_model` holds the model and the generators.

mod set_model;

use set_model::*;

/// Two sets: set algebra, its cardinalities, Jaccard, containment, intersection,
/// equality, the order (lexicographic on ascending elements) and hashing.
#[test]
fn two_set_operators() {
    let sql = format!(
        "SELECT rb_to_array(a & b), rb_to_array(a | b), rb_to_array(a # b), rb_to_array(a - b),
                {} AND {} AND {} AND {},
                rb_and(a, b) = a & b AND b & a = a & b
                  AND rb_or(a, b) = a | b AND b | a = a | b
                  AND rb_xor(a, b) = a # b AND b # a = a # b
                  AND rb_andnot(a, b) = a - b,
                rb_and_cardinality(a, b), rb_or_cardinality(a, b),
                rb_xor_cardinality(a, b), rb_andnot_cardinality(a, b),
                rb_jaccard(a, b),
                rb_contains(a, b), a @> b, b <@ a, roaring64_contained_by(b, a),
                rb_intersects(a, b), a && b, b && a,
                a = b, a <> b, a < b, a <= b, a > b, a >= b, roaring64_cmp(a, b),
                roaring64_eq(a, b), roaring64_ne(a, b), roaring64_lt(a, b),
                roaring64_le(a, b), roaring64_gt(a, b), roaring64_ge(a, b),
                roaring64_hash(a) = roaring64_hash(b),
                roaring64_hash_extended(a, 42) = roaring64_hash_extended(b, 42),
                roaring64_hash_extended(a, 0) = roaring64_hash_extended(b, 0)
         FROM (SELECT $1::roaring64 AS a, $2::roaring64 AS b) AS p",
        canon("a & b"),
        canon("a | b"),
        canon("a # b"),
        canon("a - b")
    );
    run("pairs", pair(), |c, (a, b)| {
        let (na, nb) = (build(c, &a), build(c, &b));
        let stmt = c.prepare(&sql).unwrap();
        let row = c.query_one(&stmt, &[&na, &nb]).unwrap();
        let and: Set = a.intersection(&b).copied().collect();
        let or: Set = a.union(&b).copied().collect();
        let xor: Set = a.symmetric_difference(&b).copied().collect();
        let andnot: Set = a.difference(&b).copied().collect();
        assert_eq!(row.get::<_, Vec<i64>>(0), vec_of(&and), "&");
        assert_eq!(row.get::<_, Vec<i64>>(1), vec_of(&or), "|");
        assert_eq!(row.get::<_, Vec<i64>>(2), vec_of(&xor), "#");
        assert_eq!(row.get::<_, Vec<i64>>(3), vec_of(&andnot), "-");
        assert!(row.get::<_, bool>(4), "results are canonical");
        assert!(
            row.get::<_, bool>(5),
            "functions agree with operators; commutative"
        );
        assert_eq!(row.get::<_, i64>(6), and.len() as i64);
        assert_eq!(row.get::<_, i64>(7), or.len() as i64);
        assert_eq!(row.get::<_, i64>(8), xor.len() as i64);
        assert_eq!(row.get::<_, i64>(9), andnot.len() as i64);
        let jaccard = (!or.is_empty()).then(|| and.len() as f64 / or.len() as f64);
        let got: Option<f64> = row.get(10);
        match (got, jaccard) {
            (Some(g), Some(j)) => {
                assert!((g - j).abs() <= 1e-15 * j.max(1.0), "jaccard {g} vs {j}")
            }
            (g, j) => assert_eq!(g, j, "jaccard"),
        }
        let contains = b.is_subset(&a);
        for i in 11..=14 {
            assert_eq!(row.get::<_, bool>(i), contains, "containment col {i}");
        }
        let intersects = !and.is_empty();
        for i in 15..=17 {
            assert_eq!(row.get::<_, bool>(i), intersects, "intersects col {i}");
        }
        let ord = vec_of(&a).cmp(&vec_of(&b));
        let expect = [
            a == b,
            a != b,
            ord.is_lt(),
            ord.is_le(),
            ord.is_gt(),
            ord.is_ge(),
        ];
        for (i, e) in expect.iter().enumerate() {
            assert_eq!(row.get::<_, bool>(18 + i), *e, "comparison col {}", 18 + i);
            assert_eq!(
                row.get::<_, bool>(25 + i),
                *e,
                "support function col {}",
                25 + i
            );
        }
        assert_eq!(
            row.get::<_, i32>(24).signum(),
            cmp_i32(ord),
            "roaring64_cmp"
        );
        if a == b {
            for i in 31..=33 {
                assert!(row.get::<_, bool>(i), "equal sets hash equally (col {i})");
            }
        }
    });
}
