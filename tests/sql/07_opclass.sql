-- Operator classes: amvalidate, then the same queries under a sequential scan and
-- under each index, with equal answers (as intarray's tests do).
SELECT c.opcname, a.amname, amvalidate(c.oid)
  FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
 WHERE c.opcintype = 'roaring64'::regtype ORDER BY a.amname;

-- A posting-list table: deterministic pseudo-random sets, some empty, some large.
CREATE TABLE posting (id int PRIMARY KEY, r roaring64);
INSERT INTO posting
SELECT i, rb_build(ARRAY(SELECT ((i * 7919 + j * 104729) % 300)::int8 - 100
                         FROM generate_series(1, i % 13) j))
  FROM generate_series(1, 3000) i;
INSERT INTO posting VALUES (3001, rb_from_range(0, 100000)), (3002, '{-9223372036854775808, 9223372036854775807}');
ANALYZE posting;

CREATE TABLE queries (q roaring64, e int8);
INSERT INTO queries VALUES ('{}', 0), ('{5}', 5), ('{5, 17}', 17), ('{-100, 199}', -100),
  ('{1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20}', 20), ('{9223372036854775807}', 9223372036854775807),
  ('{0, 1, 2}', 99999);

CREATE TEMP TABLE seq AS
SELECT q, e,
  (SELECT count(*) FROM posting WHERE r @> q) AS contains,
  (SELECT count(*) FROM posting WHERE r <@ q) AS contained,
  (SELECT count(*) FROM posting WHERE r && q) AS n_overlap,
  (SELECT count(*) FROM posting WHERE r = q) AS equal,
  (SELECT count(*) FROM posting WHERE r @> e) AS has_element
FROM queries;
SELECT * FROM seq ORDER BY q;
-- The same questions, answered as the plan of the moment answers them.
CREATE TEMP VIEW same_as_seq AS
SELECT q, e,
  (SELECT count(*) FROM posting WHERE r @> q) = contains AS contains_same,
  (SELECT count(*) FROM posting WHERE r <@ q) = contained AS contained_same,
  (SELECT count(*) FROM posting WHERE r && q) = n_overlap AS overlap_same,
  (SELECT count(*) FROM posting WHERE r = q) = equal AS equal_same,
  (SELECT count(*) FROM posting WHERE r @> e) = has_element AS element_same
FROM seq;

CREATE INDEX posting_gin ON posting USING gin (r);
SET enable_seqscan = off;
SET enable_indexscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM posting WHERE r @> '{5}'::roaring64;
EXPLAIN (COSTS OFF) SELECT count(*) FROM posting WHERE r <@ '{5}'::roaring64;
EXPLAIN (COSTS OFF) SELECT count(*) FROM posting WHERE r && '{5}'::roaring64;
EXPLAIN (COSTS OFF) SELECT count(*) FROM posting WHERE r = '{5}'::roaring64;
EXPLAIN (COSTS OFF) SELECT count(*) FROM posting WHERE r @> 5::int8;
SELECT * FROM same_as_seq ORDER BY q;
DROP INDEX posting_gin;
-- element_keys: array containers of more elements give one container key. The
-- answers stay the same at every setting: a container key's hits are rechecked.
CREATE INDEX posting_gin_0 ON posting USING gin (r roaring64_ops (element_keys = 0));
CREATE INDEX posting_gin_4 ON posting USING gin (r roaring64_ops (element_keys = 4));
SELECT indexrelid::regclass, pg_get_indexdef(indexrelid) LIKE '%element_keys=%' AS has_option
  FROM pg_index WHERE indrelid = 'posting'::regclass AND indexrelid::regclass::text LIKE 'posting_gin%' ORDER BY 1;
SELECT pg_relation_size('posting_gin_0') < pg_relation_size('posting_gin_4') AS fewer_keys_smaller;
DROP INDEX posting_gin_4;
SELECT * FROM same_as_seq ORDER BY q;
DROP INDEX posting_gin_0;
CREATE INDEX posting_gin_4 ON posting USING gin (r roaring64_ops (element_keys = 4));
SELECT * FROM same_as_seq ORDER BY q;
DROP INDEX posting_gin_4;
CREATE INDEX posting_gin_bad ON posting USING gin (r roaring64_ops (element_keys = 4097));
RESET enable_seqscan;
RESET enable_indexscan;

-- hash: GROUP BY, DISTINCT, hash joins, a hash index.
SET enable_sort = off;
EXPLAIN (COSTS OFF) SELECT r, count(*) FROM posting GROUP BY r;
RESET enable_sort;
SELECT r, count(*) FROM posting GROUP BY r ORDER BY count(*) DESC, r LIMIT 5;
SELECT count(DISTINCT r) AS distinct_sets, count(*) AS rows FROM posting;
SELECT count(*) AS distinct_via_text FROM (SELECT DISTINCT r::text FROM posting) t;
SET enable_mergejoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM posting a JOIN posting b ON a.r = b.r;
SELECT count(*) FROM posting a JOIN posting b ON a.r = b.r;
RESET enable_mergejoin;
RESET enable_nestloop;
CREATE INDEX posting_hash ON posting USING hash (r);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM posting WHERE r = '{-100}';
SELECT count(*) FROM posting WHERE r = '{-100}';
RESET enable_seqscan;
DROP INDEX posting_hash;
-- The hash is of the set: equal sets built differently hash alike.
SELECT roaring64_hash('{3,1,2}') = roaring64_hash(rb_build('{1,2,3,3}')) AS same_hash,
       roaring64_hash_extended('{1}', 0) <> roaring64_hash_extended('{1}', 1) AS seeded;

-- btree: ORDER BY, a UNIQUE index, merge joins.
SELECT r FROM posting WHERE id <= 12 ORDER BY r DESC;
CREATE TABLE uniq (r roaring64 UNIQUE);
INSERT INTO uniq VALUES ('{1,2}'), ('{1}'), ('{}');
INSERT INTO uniq VALUES ('{2,1}');
SET enable_hashjoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM posting a JOIN posting b ON a.r = b.r;
SELECT count(*) FROM posting a JOIN posting b ON a.r = b.r;
RESET enable_hashjoin;
RESET enable_nestloop;
CREATE INDEX posting_btree ON posting (r);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM posting WHERE r = '{-100}';
SELECT count(*) FROM posting WHERE r = '{-100}';
SELECT count(*) FROM posting WHERE r < '{-99}';
RESET enable_seqscan;
SELECT count(*) FROM posting WHERE r < '{-99}';
