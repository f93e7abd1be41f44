-- Questions about one set: cardinality, emptiness, min, max, membership.
CREATE TABLE scalar_cases (id int, r roaring64);
INSERT INTO scalar_cases VALUES
  (1, '{}'), (2, '{0}'), (3, '{-9223372036854775808, 9223372036854775807}'),
  (4, '{-1, 65536, 4294967296, 281474976710656}'),
  (5, rb_build(ARRAY(SELECT g FROM generate_series(-100000, 100000, 3) g)));
SELECT id, rb_cardinality(r), rb_is_empty(r), rb_min(r), rb_max(r) FROM scalar_cases ORDER BY id;
SELECT id, x, rb_contains(r, x)
  FROM scalar_cases,
       unnest(ARRAY[-9223372036854775808, -100000, -1, 0, 2, 65536, 99998, 4294967296,
                    281474976710656, 9223372036854775807]::int8[]) x
 WHERE id <> 1 OR x = 0
 ORDER BY id, x;
SELECT rb_cardinality(NULL) IS NULL AS c, rb_min(NULL) IS NULL AS mn, rb_contains(NULL, 1) IS NULL AS ct,
       rb_contains('{1}', NULL::int8) IS NULL AS ct2, rb_contains('{1}'::roaring64, NULL::roaring64) IS NULL AS ct3;
