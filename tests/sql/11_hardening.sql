-- Defects found by a security and reliability pass, each kept fixed by a test here.

-- 1. No function of the extension resolves names on the caller's search_path: a
-- hostile schema placed first cannot replace what they call.
SELECT p.oid::regprocedure AS sql_language_function
  FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
 WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'sroar_pg')
   AND d.classid = 'pg_proc'::regclass
   AND p.prolang NOT IN (SELECT oid FROM pg_language WHERE lanname IN ('c', 'internal'));
CREATE SCHEMA hostile;
CREATE FUNCTION hostile.rb_runs(roaring64, OUT first int8, OUT last int8) RETURNS SETOF record
    AS $$ SELECT 1::int8, 1::int8 $$ LANGUAGE sql;
CREATE FUNCTION hostile.rb_from_range(int8range) RETURNS roaring64
    AS $$ SELECT '{666}'::roaring64 $$ LANGUAGE sql;
CREATE FUNCTION hostile.rb_or_agg(roaring64) RETURNS roaring64
    AS $$ SELECT '{666}'::roaring64 $$ LANGUAGE sql;
SET search_path = hostile, public;
SELECT rb_to_multirange('{1,2,3,10}') AS to_mr, '{[5,8)}'::int8multirange::roaring64 AS from_mr;
RESET search_path;
DROP SCHEMA hostile CASCADE;
-- An empty search_path, as autovacuum's ANALYZE and pg_restore use: expression
-- indexes and CHECK constraints over the casts still work.
CREATE TABLE mr (r roaring64 CHECK (rb_to_multirange(r) <> '{[666,667)}'),
                 m int8multirange CHECK (m::roaring64 <> '{666}'));
CREATE INDEX mr_runs ON mr ((rb_to_multirange(r)));
CREATE INDEX mr_set ON mr ((m::roaring64));
INSERT INTO mr VALUES ('{1,2,3}', '{[1,4)}'), ('{7}', '{[7,8)}');
SET search_path = '';
ANALYZE public.mr;
INSERT INTO public.mr VALUES ('{9}', '{[9,10)}');
SELECT r, m, public.rb_to_multirange(r) OPERATOR(pg_catalog.=) m AS same FROM public.mr ORDER BY m;
RESET search_path;
DROP TABLE mr;

-- 2. Volatility follows what a function reads: the text output depends on
-- sroar.output_format, so it is STABLE and an expression index on r::text is
-- refused (it would give other rows than a scan once the setting changes); the
-- statistics functions read the catalogs.
SELECT p.oid::regprocedure AS not_immutable, p.provolatile
  FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
 WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'sroar_pg')
   AND d.classid = 'pg_proc'::regclass AND p.provolatile <> 'i'
 ORDER BY 1;
CREATE TABLE texts (r roaring64);
CREATE INDEX texts_r ON texts ((r::text));
CREATE INDEX texts_r ON texts ((rb_to_array(r)));
DROP TABLE texts;

-- 3. rb_to_array and the int8[] cast build the array in place: every size up to
-- PostgreSQL's 1 GB value limit (134,217,724 int8s) works; one more is 54000,
-- raised before allocating.
SELECT cardinality(a), a[1], a[67108865], a[134217724]
  FROM (SELECT rb_to_array(rb_from_range(0, 134217724)) a OFFSET 0) s;
SELECT cardinality(a), a[67108865]
  FROM (SELECT rb_from_range(-67108865, 0)::int8[] a OFFSET 0) s;
SELECT rb_to_array(rb_from_range(0, 134217725));
SELECT rb_from_range(0, 134217725)::int8[];
SELECT rb_to_array('{}') AS empty, rb_to_array('{-9223372036854775808, 0, 9223372036854775807}') AS edges;

-- 4. GIN keys scale with the stored size: a dense set costs one key per bitmap or
-- run container, a sparse one an exact key per element. Ten sets of 300,000
-- consecutive ids (3 million elements) make a small index.
CREATE TABLE dense (id int, r roaring64);
CREATE INDEX dense_gin ON dense USING gin (r);
INSERT INTO dense SELECT i, rb_from_range(i * 1000000, i * 1000000 + 300000) FROM generate_series(1, 10) i;
SELECT pg_relation_size('dense_gin') < 1000000 AS small_index;
DROP TABLE dense;

-- Every strategy agrees with a sequential scan on rows of every shape: sparse,
-- dense, mixed, at the int8 edges, and with elements that equal a dense
-- container's lossy key (the last value of a container: low 16 bits all ones).
CREATE TABLE shapes (id int PRIMARY KEY, r roaring64);
INSERT INTO shapes
SELECT i, CASE i % 9
    WHEN 0 THEN rb_build(ARRAY(SELECT (i * 7919 + j * 104729) % 400000 FROM generate_series(1, 1 + i % 11) j))
    WHEN 1 THEN rb_from_range(i * 1000, i * 1000 + 70000)
    WHEN 2 THEN rb_from_range(0, 10000) | rb_build(ARRAY[65535, 131071, i])
    WHEN 3 THEN rb_build(ARRAY[65535, 131071, 196607])
    WHEN 4 THEN rb_build(ARRAY(SELECT g * 2 FROM generate_series(0, 4000 + i % 200) g))
    WHEN 5 THEN rb_from_range(-9223372036854775808, -9223372036854700000) | '{9223372036854775807}'
    WHEN 6 THEN rb_from_range(65530, 65540) | rb_build(ARRAY[i * 3])
    WHEN 7 THEN '{}'
    ELSE rb_build(ARRAY[i, i + 1, i + 2, 65535]) END
  FROM generate_series(1, 900) i;
ANALYZE shapes;
CREATE TABLE gin_probes (q roaring64, e int8);
INSERT INTO gin_probes VALUES
  ('{}', 0), ('{65535}', 65535), ('{131071}', 131071), ('{5000}', 5000), ('{65535, 5000}', 70000),
  (rb_from_range(0, 10000), 9999), (rb_from_range(0, 5000), 10000), (rb_from_range(2000, 9000), 131071),
  (rb_from_range(100000, 101000), 100500), (rb_build(ARRAY(SELECT g * 2 FROM generate_series(0, 4001) g)), 8002),
  (rb_build(ARRAY(SELECT g * 2 FROM generate_series(0, 100) g)), 200), ('{3, 300000}', 3),
  ('{-9223372036854775808}', -9223372036854775808), ('{9223372036854775807}', 9223372036854775807),
  (rb_from_range(-9223372036854775808, -9223372036854770000), -9223372036854770001),
  ('{65535, 131071, 196607}', 196607), ('{65535, 131071}', 1), ('{10, 11, 12, 65535}', 12),
  (rb_from_range(65530, 65540), 65540), (rb_from_range(0, 200000), 199999);
CREATE TEMP TABLE expected AS
SELECT q, e,
  (SELECT count(*) FROM shapes WHERE r @> q) AS contains,
  (SELECT count(*) FROM shapes WHERE r <@ q) AS contained,
  (SELECT count(*) FROM shapes WHERE r && q) AS overlap,
  (SELECT count(*) FROM shapes WHERE r = q) AS equal,
  (SELECT count(*) FROM shapes WHERE r @> e) AS element
FROM gin_probes;
SELECT sum(contains) AS contains, sum(contained) AS contained, sum(overlap) AS overlap,
       sum(equal) AS equal, sum(element) AS element FROM expected;
CREATE INDEX shapes_gin ON shapes USING gin (r);
SET enable_seqscan = off;
SET enable_indexscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM shapes WHERE r && '{5}'::roaring64;
SELECT count(*) AS disagreements FROM expected
 WHERE (SELECT count(*) FROM shapes WHERE r @> q) <> contains
    OR (SELECT count(*) FROM shapes WHERE r <@ q) <> contained
    OR (SELECT count(*) FROM shapes WHERE r && q) <> overlap
    OR (SELECT count(*) FROM shapes WHERE r = q) <> equal
    OR (SELECT count(*) FROM shapes WHERE r @> e) <> element;
RESET enable_seqscan;
RESET enable_indexscan;
DROP TABLE shapes, gin_probes;
