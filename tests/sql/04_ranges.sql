-- Ranges: half-open [start, end) in int8 order, and every int8range overload.
SELECT rb_from_range(1, 5) AS one_to_four, rb_from_range(5, 5) AS empty_eq, rb_from_range(6, 5) AS empty_gt;
SELECT rb_cardinality(rb_from_range(-9223372036854775808, -9223372036854775805)) AS at_min,
       rb_from_range(9223372036854775806, 9223372036854775807) AS below_max;
SELECT rb_from_range('[3,6)'::int8range) AS ex, rb_from_range('[3,6]'::int8range) AS inc,
       rb_from_range('(3,6)'::int8range) AS open, rb_from_range('empty'::int8range) AS empty;
-- '[x,)' reaches int8 max; '(,x)' starts at int8 min.
SELECT rb_max(rb_from_range('[9223372036854775800,)'::int8range)),
       rb_cardinality(rb_from_range('[9223372036854775800,)'::int8range)),
       rb_min(rb_from_range('(,-9223372036854775800)'::int8range)),
       rb_cardinality(rb_from_range('(,-9223372036854775800)'::int8range));
-- A range spanning many containers is built container by container, not value by value.
SELECT rb_cardinality(rb_from_range(0, 68719476736)) AS two_to_36,
       (rb_stats(rb_from_range(0, 68719476736)) -> 'run' ->> 'containers')::int8 AS run_containers;

CREATE TABLE rg_cases (id int, a int8[]);
INSERT INTO rg_cases VALUES
  (1, '{}'), (2, '{-9223372036854775808, -1, 0, 9223372036854775807}'),
  (3, ARRAY(SELECT g FROM generate_series(-70000, 70000, 7) g)),
  (4, ARRAY(SELECT g FROM generate_series(65530, 131080) g)),
  (5, ARRAY(SELECT g * 4294967296 FROM generate_series(-3, 3) g));
CREATE TABLE rg_bounds (s int8, e int8);
INSERT INTO rg_bounds VALUES (-9223372036854775808, 9223372036854775807), (-100, 100), (0, 1),
  (65535, 65537), (65536, 131072), (-70000, -69000), (5, 5), (10, 3), (9223372036854775806, 9223372036854775807),
  (-8589934592, 4294967297);

-- Each range function equals the model on [s, e).
SELECT id,
  bool_and(rb_to_array(rb_range(rb_build(a), s, e)) =
           ARRAY(SELECT v FROM unnest(a) v WHERE v >= s AND v < e ORDER BY v)) AS range_ok,
  bool_and(rb_range_cardinality(rb_build(a), s, e) =
           (SELECT count(*) FROM unnest(a) v WHERE v >= s AND v < e)) AS range_card_ok,
  bool_and(s > e OR rb_to_array(rb_range(rb_build(a), int8range(s, e))) =
           rb_to_array(rb_range(rb_build(a), s, e))) AS int8range_ok,
  bool_and(s > e OR rb_range_cardinality(rb_build(a), int8range(s, e)) =
           rb_range_cardinality(rb_build(a), s, e)) AS int8range_card_ok
FROM rg_cases, rg_bounds
GROUP BY id ORDER BY id;

-- fill / clear / flip against the model, on small enough ranges to list.
SELECT id,
  bool_and(rb_to_array(rb_fill(rb_build(a), s, e)) =
           ARRAY(SELECT DISTINCT v FROM unnest(a || ARRAY(SELECT generate_series(s, e - 1))) v ORDER BY v)) AS fill_ok,
  bool_and(rb_to_array(rb_clear(rb_build(a), s, e)) =
           ARRAY(SELECT v FROM unnest(a) v WHERE NOT (v >= s AND v < e) ORDER BY v)) AS clear_ok,
  bool_and(rb_to_array(rb_flip(rb_build(a), s, e)) =
           ARRAY(SELECT v FROM ((SELECT unnest(a) EXCEPT SELECT generate_series(s, e - 1))
                                UNION
                                (SELECT generate_series(s, e - 1) EXCEPT SELECT unnest(a))) t(v)
                 ORDER BY v)) AS flip_ok,
  bool_and(rb_contains_range(rb_build(a), s, e) =
           ((SELECT count(*) FROM unnest(a) v WHERE v >= s AND v < e) = greatest(e::numeric - s, 0))) AS contains_range_ok
FROM rg_cases, rg_bounds WHERE e::numeric - s < 200000
GROUP BY id ORDER BY id;
-- Large fills and flips, checked through cardinalities.
SELECT rb_cardinality(rb_flip(rb_from_range(0, 10), '[5,20)'::int8range)) AS flipped,
       rb_cardinality(rb_clear(rb_from_range(-1000, 1000), '(,)'::int8range)) AS cleared;
SELECT rb_fill('{1}', '[3,5]'::int8range), rb_clear('{1,2,3,4}', '(1,3]'::int8range),
       rb_flip('{1,2}', '[2,4)'::int8range), rb_contains_range('{1,2,3}', '[1,3]'::int8range);
-- Every int8 value at once needs 2^48 containers: more than one value can hold (54000).
SELECT rb_fill('{5}', -9223372036854775808, 9223372036854775807);
-- The message says why a range that is one run does not fit, and what does.
SELECT rb_from_range(0, 9223372036854775807);
-- The edge the message names: a range one value longer than the largest (4398046380033),
-- placed to touch 2^26 containers, is refused before anything is built; a range of
-- 2^36 values (2^20 containers) is built.
SELECT rb_from_range(65535, 65535 + 4398046380034);
SELECT rb_cardinality(rb_from_range(0, 68719476736)) AS two_to_the_36;
SELECT rb_from_range('(,)'::int8range);
