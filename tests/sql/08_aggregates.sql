-- Aggregates: results against a model, NULL handling, GROUP BY (also spilling to
-- disk), forced parallel plans equal to serial ones, window (running) aggregates.
CREATE TABLE agg_rows (g int, r roaring64, x int8);
INSERT INTO agg_rows
SELECT i % 7,
       CASE WHEN i % 11 = 0 THEN NULL
            ELSE rb_build(ARRAY[i, i * 65536, -i, (i % 50) * 4294967296, i % 13]::int8[]) END,
       CASE WHEN i % 17 = 0 THEN NULL ELSE (i * 7919) % 100000 - 50000 END
  FROM generate_series(1, 20000) i;
ANALYZE agg_rows;

-- Models on plain SQL: union, intersection and symmetric difference of the elements.
CREATE TEMP TABLE model AS
SELECT g,
       (SELECT array_agg(DISTINCT v ORDER BY v) FROM agg_rows a, rb_iterate(a.r) v WHERE a.g = grp.g) AS union_m,
       (SELECT coalesce(array_agg(v ORDER BY v), '{}') FROM (
           SELECT v FROM agg_rows a, rb_iterate(a.r) v WHERE a.g = grp.g
           GROUP BY v HAVING count(*) % 2 = 1) t) AS xor_m,
       (SELECT coalesce(array_agg(v ORDER BY v), '{}') FROM (
           SELECT v FROM agg_rows a, rb_iterate(a.r) v WHERE a.g = grp.g
           GROUP BY v HAVING count(*) = (SELECT count(r) FROM agg_rows b WHERE b.g = grp.g)) t) AS and_m,
       (SELECT array_agg(DISTINCT x ORDER BY x) FROM agg_rows a WHERE a.g = grp.g AND x IS NOT NULL) AS build_m
  FROM (SELECT DISTINCT g FROM agg_rows) grp;

CREATE TEMP TABLE serial AS
SELECT g, rb_or_agg(r) AS o, rb_and_agg(r) AS a, rb_xor_agg(r) AS x, rb_build_agg(x) AS b,
       rb_or_cardinality_agg(r) AS oc, rb_and_cardinality_agg(r) AS ac, rb_xor_cardinality_agg(r) AS xc
  FROM agg_rows GROUP BY g;
SELECT s.g, rb_to_array(o) = union_m AS or_ok, rb_to_array(a) = and_m AS and_ok,
       rb_to_array(x) = xor_m AS xor_ok, rb_to_array(b) = build_m AS build_ok,
       oc = cardinality(union_m) AS or_card_ok, ac = cardinality(and_m) AS and_card_ok,
       xc = cardinality(xor_m) AS xor_card_ok, rb_cardinality(o) AS union_size
  FROM serial s JOIN model m USING (g) ORDER BY s.g;
-- The intersection over all rows is {} early on; and over a group where every row
-- shares elements it is not.
SELECT rb_and_agg(r) FROM agg_rows;
SELECT rb_and_agg(r) FROM (VALUES ('{1,2,3}'::roaring64), ('{2,3,4}'), (NULL), ('{3,2}')) t(r);

-- NULL rows are skipped; zero non-NULL rows give NULL.
SELECT rb_or_agg(r) IS NULL AS no_rows, rb_and_agg(r) IS NULL AS and_none, rb_xor_agg(r) IS NULL AS xor_none,
       rb_build_agg(x) IS NULL AS build_none, rb_or_cardinality_agg(r) IS NULL AS card_none
  FROM agg_rows WHERE false;
SELECT rb_or_agg(r) IS NULL AS only_nulls, rb_build_agg(x) IS NULL AS only_null_ints
  FROM (VALUES (NULL::roaring64, NULL::int8), (NULL, NULL)) t(r, x);
SELECT rb_xor_agg(r) FROM (VALUES ('{1,2}'::roaring64), ('{2,3}'), ('{3,1}')) t(r);
SELECT rb_build_agg(v) FROM (VALUES (-9223372036854775808), (9223372036854775807), (0), (0)) t(v);

-- HashAggregate with many groups, spilling to disk under a small work_mem.
SET work_mem = '64kB';
SET enable_sort = off;
EXPLAIN (COSTS OFF) SELECT i % 2000, rb_or_agg(r) FROM agg_rows, generate_series(1, 3) i GROUP BY 1;
SELECT count(*) AS groups,
       sum(rb_cardinality(o)) AS total,
       bool_and(rb_to_array(o) = (SELECT array_agg(DISTINCT v ORDER BY v)
                                  FROM agg_rows a, rb_iterate(a.r) v WHERE a.g = q.g)) AS spill_ok
  FROM (SELECT g, rb_or_agg(r) AS o FROM agg_rows GROUP BY g) q;
CREATE TEMP TABLE spilled AS SELECT x % 3000 AS k, rb_or_agg(r) AS o FROM agg_rows GROUP BY 1;
RESET work_mem;
RESET enable_sort;
SELECT (SELECT count(*) FROM spilled) AS groups,
       NOT EXISTS (SELECT k, o FROM spilled
                   EXCEPT SELECT x % 3000, rb_or_agg(r) FROM agg_rows GROUP BY 1) AS spilled_equals_in_memory;

-- Forced parallel plans: Partial and Finalize Aggregate, same results as serial.
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT rb_or_agg(r), rb_and_agg(r), rb_xor_agg(r), rb_build_agg(x) FROM agg_rows;
EXPLAIN (COSTS OFF) SELECT g, rb_or_cardinality_agg(r) FROM agg_rows GROUP BY g;
CREATE TEMP TABLE parallel AS
SELECT g, rb_or_agg(r) AS o, rb_and_agg(r) AS a, rb_xor_agg(r) AS x, rb_build_agg(x) AS b,
       rb_or_cardinality_agg(r) AS oc, rb_and_cardinality_agg(r) AS ac, rb_xor_cardinality_agg(r) AS xc
  FROM agg_rows GROUP BY g;
SELECT count(*) AS groups_equal FROM serial s JOIN parallel p USING (g)
 WHERE s.o = p.o AND s.a = p.a AND s.x = p.x AND s.b = p.b AND s.oc = p.oc AND s.ac = p.ac AND s.xc = p.xc;
SELECT rb_or_agg(r) = (SELECT rb_or_agg(o) FROM serial) AS whole_or_equal,
       rb_xor_agg(r) = (SELECT rb_xor_agg(x) FROM serial) AS whole_xor_equal,
       rb_build_agg(x) = (SELECT rb_or_agg(b) FROM serial) AS whole_build_equal
  FROM agg_rows;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;

-- Window aggregates: running results equal a model at every row. The model: each
-- element with the first row that holds it; the running union at a row holds the
-- elements first seen at or before it.
WITH firsts AS MATERIALIZED (
    SELECT DISTINCT ON (v) v, b.x, b.ctid FROM agg_rows b, rb_iterate(b.r) v
     WHERE b.g = 3 AND b.x IS NOT NULL ORDER BY v, b.x, b.ctid)
SELECT bool_and(running = model) AS running_or_ok, count(*) AS rows
  FROM (SELECT rb_to_array(rb_or_agg(r) OVER w) AS running,
               (SELECT coalesce(array_agg(v ORDER BY v), '{}') FROM firsts f
                 WHERE (f.x, f.ctid) <= (a.x, a.ctid)) AS model
          FROM agg_rows a WHERE g = 3 AND x IS NOT NULL
        WINDOW w AS (ORDER BY x, ctid)) t
 WHERE running IS NOT NULL OR model <> '{}';
SELECT x, rb_build_agg(x) OVER (ORDER BY x) AS running, rb_build_agg(x) OVER (ORDER BY x ROWS 1 PRECEDING) AS pair,
       rb_xor_cardinality_agg('{1}'::roaring64) OVER (ORDER BY x) AS parity
  FROM (VALUES (3::int8), (1), (2), (5)) t(x);
SELECT g, rb_or_cardinality_agg(r) OVER (PARTITION BY g) AS per_group
  FROM (VALUES (1, '{1,2}'::roaring64), (1, '{2,3}'), (2, '{9}')) t(g, r) ORDER BY g;

-- Transition functions called directly compute the same operation on flat values.
SELECT rb_or_trans('{1}', '{2}')::roaring64 AS or_t,
       rb_and_trans('{1,2}', '{2,3}')::roaring64 AS and_t,
       rb_xor_trans('{1,2}', '{2,3}')::roaring64 AS xor_t,
       rb_build_trans(NULL, 4)::roaring64 AS build_t,
       rb_or_trans(NULL, NULL) IS NULL AS null_t;

-- roaring64_state, the aggregates' transition type: the same bytes as roaring64,
-- whose text is their base64 (how Citus ships partial states), whatever
-- sroar.output_format says; its input also takes roaring64's text forms.
SELECT rb_build_trans(NULL, 4)::text AS state_text;
SELECT s::text, s::roaring64 AS value, s::roaring64::bytea = s::text::roaring64_state::roaring64::bytea AS round_trip
  FROM (SELECT '{0,65536,4294967296,281474976710656,-9223372036854775808,9223372036854775807}'::roaring64::roaring64_state AS s) t;
SET sroar.output_format = hex;
SELECT '{1,2}'::roaring64::roaring64_state::text AS still_base64;
RESET sroar.output_format;
SELECT '{3,1}'::roaring64_state::roaring64 AS from_array;
SET sroar.output_format = hex;
SELECT ' ' || '{5}'::roaring64::text AS hex_text,
       (' ' || '{5}'::roaring64::text)::roaring64_state::roaring64::bytea = '{5}'::roaring64::bytea AS from_hex;
RESET sroar.output_format;
SELECT rb_or_agg(r)::roaring64_state::text = rb_or_agg(r)::roaring64_state::text::roaring64_state::text AS stable
  FROM agg_rows;
SELECT 'not base64!'::roaring64_state;
SELECT 'AAAA'::roaring64_state;
SELECT ''::roaring64_state;

-- rb_cardinality straight over an aggregate's result reads the count of the state
-- it is handed (no set is written out): per group, in a window, at the int8 edges,
-- for an intersection that emptied, and for no rows.
SELECT s.g, o = cardinality(union_m) AS or_ok, a = cardinality(and_m) AS and_ok,
       x = cardinality(xor_m) AS xor_ok, b = cardinality(build_m) AS build_ok
  FROM (SELECT g, rb_cardinality(rb_or_agg(r)) AS o, rb_cardinality(rb_and_agg(r)) AS a,
               rb_cardinality(rb_xor_agg(r)) AS x, rb_cardinality(rb_build_agg(x)) AS b
          FROM agg_rows GROUP BY g) s
  JOIN model m USING (g) ORDER BY s.g;
SELECT bool_and(c = rb_cardinality(u)) AS window_ok,
       max(c) = (SELECT cardinality(union_m) FROM model WHERE g = 3) AS last_ok
  FROM (SELECT rb_cardinality(rb_or_agg(r) OVER w) AS c, rb_or_agg(r) OVER w AS u
          FROM agg_rows WHERE g = 3 WINDOW w AS (ORDER BY x, r)) t;
SELECT rb_cardinality(rb_build_agg(v)) AS edges
  FROM (VALUES (-9223372036854775808), (9223372036854775807), (0), (0), (65536), (4294967296), (281474976710656)) t(v);
SELECT rb_cardinality(rb_and_agg(r)) AS emptied, rb_cardinality(rb_xor_agg(r)) AS xor_all
  FROM (VALUES ('{1,2}'::roaring64), ('{3}'), ('{1,2,3}')) t(r);
SELECT rb_cardinality(rb_or_agg(r)) IS NULL AS no_rows FROM agg_rows WHERE false;
