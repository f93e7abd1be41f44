-- Elements one at a time, each checked against a model built from plain int8 arrays.
CREATE TABLE el_cases (id int, a int8[]);
INSERT INTO el_cases VALUES
  (1, '{}'), (2, '{0}'),
  (3, '{-9223372036854775808, -1, 0, 9223372036854775807}'),
  (4, ARRAY(SELECT g FROM generate_series(-70000, 70000, 7) g)),
  (5, ARRAY(SELECT g * 65536 + (g % 3) FROM generate_series(-50, 50) g)),
  (6, ARRAY(SELECT g FROM generate_series(4294967290, 4294967310) g)
      || ARRAY[281474976710655, 281474976710656]::int8[]);
CREATE TABLE probes (x int8);
INSERT INTO probes VALUES (-9223372036854775808), (-9223372036854775807), (-70000), (-65536),
  (-1), (0), (1), (7), (65535), (65536), (65537), (4294967295), (4294967296),
  (281474976710655), (281474976710656), (9223372036854775806), (9223372036854775807);

-- rb_add / rb_remove (both argument orders, and arrays) agree with array arithmetic.
SELECT id,
  bool_and(rb_to_array(rb_add(rb_build(a), x)) =
           ARRAY(SELECT DISTINCT v FROM unnest(a || x) v ORDER BY v)) AS add_ok,
  bool_and(rb_to_array(rb_add(x, rb_build(a))) = rb_to_array(rb_add(rb_build(a), x))) AS add_commutes,
  bool_and(rb_to_array(rb_remove(rb_build(a), x)) =
           ARRAY(SELECT v FROM unnest(a) v WHERE v <> x ORDER BY v)) AS remove_ok,
  bool_and(rb_rank(rb_build(a), x) = (SELECT count(*) FROM unnest(a) v WHERE v <= x)) AS rank_ok,
  bool_and(rb_index(rb_build(a), x) =
           CASE WHEN x = ANY(a) THEN (SELECT count(*) FROM unnest(a) v WHERE v < x) ELSE -1 END) AS index_ok
FROM el_cases, probes GROUP BY id ORDER BY id;

SELECT id,
  rb_to_array(rb_add(rb_build(a), (SELECT array_agg(x) FROM probes))) =
    ARRAY(SELECT DISTINCT v FROM unnest(a || (SELECT array_agg(x) FROM probes)) v ORDER BY v) AS add_many_ok,
  rb_to_array(rb_remove(rb_build(a), (SELECT array_agg(x) FROM probes))) =
    ARRAY(SELECT v FROM unnest(a) v WHERE v NOT IN (SELECT x FROM probes) ORDER BY v) AS remove_many_ok
FROM el_cases ORDER BY id;

-- rb_select: the k-th smallest, NULL out of range; rb_iterate streams the elements.
-- Each case's set is built once (OFFSET 0), not once per element.
SELECT id,
  (SELECT bool_and(rb_select(r, k - 1) = v)
     FROM unnest(ARRAY(SELECT v FROM unnest(a) v ORDER BY v)) WITH ORDINALITY AS t(v, k)) AS select_ok,
  rb_select(r, cardinality(a)) IS NULL AS past_end_null,
  rb_select(r, -1) IS NULL AS negative_null,
  ARRAY(SELECT rb_iterate(r)) = ARRAY(SELECT v FROM unnest(a) v ORDER BY v) AS iterate_ok
FROM el_cases, LATERAL (SELECT rb_build(a) AS r OFFSET 0) b ORDER BY id;
SELECT rb_iterate('{3,-3,0}') AS v;
SELECT count(*) FROM rb_iterate('{}');

-- rb_slice: ranks [offset, offset + limit).
SELECT id, o, l,
  rb_to_array(rb_slice(rb_build(a), o, l)) =
    ARRAY(SELECT v FROM unnest(a) v ORDER BY v OFFSET o LIMIT l) AS slice_ok
FROM el_cases, (VALUES (0, 0), (0, 1), (1, 2), (0, 1000000), (5, 3), (1000000, 5)) s(o, l)
WHERE NOT rb_to_array(rb_slice(rb_build(a), o, l)) =
    ARRAY(SELECT v FROM unnest(a) v ORDER BY v OFFSET o LIMIT l);
SELECT rb_slice('{1,2,3,4}', 1, 2), rb_slice('{1,2,3,4}', 3, 100);
SELECT rb_slice('{1}', -1, 1);
SELECT rb_slice('{1}', 0, -1);

-- rb_shift: every element plus delta; elements leaving int8 are dropped.
SELECT id, d,
  rb_to_array(rb_shift(rb_build(a), d)) =
    ARRAY(SELECT v::numeric + d FROM unnest(a) v
          WHERE v::numeric + d BETWEEN -9223372036854775808 AND 9223372036854775807
          ORDER BY v)::int8[] AS shift_ok
FROM el_cases, unnest(ARRAY[0, 1, -1, 65536, -65536, 3, 4294967296,
                            9223372036854775807, -9223372036854775808]::int8[]) d
ORDER BY id, d;
SELECT rb_shift('{-9223372036854775808, 0, 9223372036854775807}', 1) AS overflow_dropped,
       rb_shift('{-9223372036854775808, 0, 9223372036854775807}', -1) AS underflow_dropped;

-- rb_stats describes the layout.
SELECT rb_stats('{}');
SELECT rb_stats(rb_build(ARRAY(SELECT g FROM generate_series(0, 99999) g)));
SELECT rb_stats('{1, 5, 1000000}');

-- rb_iterate decodes 256 values at a time: sets across that boundary, in both
-- orders, in FROM and in the target list, stopped early, rescanned per outer row,
-- and two of them in step, against int8[] models with the int8 edges.
CREATE TEMP TABLE iter_sets AS
SELECT n, m, rb_build(m) AS r,
       ARRAY(SELECT v FROM unnest(m) v ORDER BY v DESC) AS m_desc
  FROM (SELECT n, ARRAY(SELECT DISTINCT v FROM unnest(
               ARRAY(SELECT CASE i % 3 WHEN 0 THEN -i WHEN 1 THEN i * 65536 ELSE i * 4294967296 END
                       FROM generate_series(1::int8, n) i)
               || ARRAY[-9223372036854775808, 9223372036854775807, 0]::int8[]) v ORDER BY v) AS m
          FROM unnest(ARRAY[0, 1, 252, 253, 254, 509, 510, 511, 1000, 70000]) n) t;
SELECT n, cardinality(m) AS elements,
       ARRAY(SELECT v FROM rb_iterate(r) v) = m AS asc_from,
       ARRAY(SELECT rb_iterate(r)) = m AS asc_tlist,
       ARRAY(SELECT v FROM rb_iterate(r, true) v) = m_desc AS desc_from,
       ARRAY(SELECT rb_iterate(r, true)) = m_desc AS desc_tlist,
       ARRAY(SELECT v FROM rb_iterate(r) v LIMIT 300) = m[1:300] AS asc_limited,
       ARRAY(SELECT rb_iterate(r, true) LIMIT 257) = m_desc[1:257] AS desc_limited
  FROM iter_sets ORDER BY n;
SELECT bool_and(c = (SELECT cardinality(m) FROM iter_sets s WHERE s.n = t.n)) AS lateral_ok, sum(c) AS rows
  FROM (SELECT n, count(v) AS c FROM iter_sets, LATERAL rb_iterate(r) v GROUP BY n) t;
SELECT bool_and((SELECT count(*) FROM rb_iterate(s.r) v WHERE v > 0)
                = (SELECT count(*) FROM unnest(s.m) v WHERE v > 0)) AS rescan_ok
  FROM iter_sets s, generate_series(1, 3) k;
SELECT count(*) AS rows, array_agg(a) = (SELECT m FROM iter_sets WHERE n = 1000) AS ascending_ok,
       array_agg(d) = (SELECT m_desc FROM iter_sets WHERE n = 1000) AS descending_ok
  FROM (SELECT rb_iterate(r) AS a, rb_iterate(r, true) AS d FROM iter_sets WHERE n = 1000) s;
-- In FROM, rb_iterate fills the scan's tuplestore in one call (materialize mode):
-- a scrollable cursor reads it backwards and by position, a tuplestore over
-- work_mem spills to disk, and a set of 2^40 values can be cancelled.
BEGIN;
DECLARE iter_cursor SCROLL CURSOR FOR
  SELECT v FROM rb_iterate('{-9223372036854775808, 0, 1, 65536, 4294967296, 9223372036854775807}'::roaring64) v;
FETCH LAST FROM iter_cursor;
FETCH BACKWARD 2 FROM iter_cursor;
FETCH ABSOLUTE 1 FROM iter_cursor;
FETCH RELATIVE 3 FROM iter_cursor;
COMMIT;
-- Two sets side by side in one scan, each with its own tuplestore.
SELECT * FROM ROWS FROM (rb_iterate('{1,2,3}'::roaring64), rb_iterate('{10,20}'::roaring64, true))
  WITH ORDINALITY AS t(a, d, n);
SET work_mem = '64kB';
SELECT (SELECT count(*) FROM rb_iterate(r) v) AS rows,
       ARRAY(SELECT v FROM rb_iterate(r) v) = m AS asc_spilled_ok,
       ARRAY(SELECT v FROM rb_iterate(r, true) v) = m_desc AS desc_spilled_ok
  FROM iter_sets WHERE n = 70000;
RESET work_mem;
SET statement_timeout = '300ms';
SELECT count(*) FROM rb_iterate(rb_from_range(0, 1099511627776));
RESET statement_timeout;
