-- Reading less than the whole value: on a ~50 MB value stored out of line and
-- uncompressed (STORAGE external), rb_cardinality/rb_is_empty/rb_min/rb_max fetch only
-- the header's chunk; rb_contains, rb_rank, rb_index and rb_select the header, a few
-- directory entries (found by bisection, with the counts stored before each block of
-- 64 containers) and one container or one word of it, while a function that needs the
-- whole value reads thousands of buffers. Buffer counts come from
-- EXPLAIN (ANALYZE, BUFFERS).
CREATE FUNCTION buffers_touched(query text) RETURNS int8 LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
  -- The first run warms the caches (catalogs, the TOAST index's relcache entry).
  EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) ' || query INTO plan;
  EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) ' || query INTO plan;
  RETURN (plan -> 0 -> 'Plan' ->> 'Shared Hit Blocks')::int8
       + (plan -> 0 -> 'Plan' ->> 'Shared Read Blocks')::int8;
END $$;

-- 6400 bitmap containers of 8 KB: every other value of [0, 6400 * 65536).
CREATE TABLE huge (id int, r roaring64);
INSERT INTO huge
SELECT 1, rb_or_agg(rb_shift(pattern, k * 65536))
  FROM (SELECT rb_build(ARRAY(SELECT g FROM generate_series(0, 65535, 2) g)) AS pattern
          OFFSET 0) p, -- built once, not once per k
       generate_series(0, 6399) k;
SELECT rb_cardinality(r), (rb_stats(r) ->> 'bytes')::int8 AS bytes, pg_column_size(r) AS stored_bytes,
       (rb_stats(r) -> 'bitmap' ->> 'containers')::int8 AS bitmaps
  FROM huge;

SELECT buffers_touched('SELECT rb_cardinality(r) FROM huge') < 10 AS cardinality_reads_little,
       buffers_touched('SELECT rb_is_empty(r) FROM huge') < 10 AS is_empty_reads_little,
       buffers_touched('SELECT rb_min(r) FROM huge') < 10 AS min_reads_little,
       buffers_touched('SELECT rb_max(r) FROM huge') < 10 AS max_reads_little,
       buffers_touched('SELECT rb_contains(r, 419430398) FROM huge') < 40 AS contains_reads_little,
       buffers_touched('SELECT rb_contains(r, 7) FROM huge') < 40 AS absent_reads_little,
       buffers_touched('SELECT md5(r::bytea) FROM huge') > 5000 AS whole_value_reads_thousands;
SELECT buffers_touched('SELECT rb_rank(r, 419430398) FROM huge') < 40 AS rank_last_reads_little,
       buffers_touched('SELECT rb_rank(r, 209715200) FROM huge') < 40 AS rank_middle_reads_little,
       buffers_touched('SELECT rb_index(r, 209715200) FROM huge') < 40 AS index_reads_little,
       buffers_touched('SELECT rb_select(r, 104857599) FROM huge') < 40 AS select_reads_little,
       buffers_touched('SELECT rb_select(r, 0) FROM huge') < 40 AS select_first_reads_little;
-- The partial reads give the same answers as the whole value.
SELECT rb_contains(r, 0) AS has_0, rb_contains(r, 1) AS has_1, rb_contains(r, 419430398) AS has_last,
       rb_contains(r, 419430400) AS past_end, rb_contains(r, -1) AS negative,
       rb_min(r), rb_max(r), rb_is_empty(r)
  FROM huge;
-- The same probes on the value detoasted whole agree.
SELECT bool_and(rb_contains(r, x) = rb_contains(r | 0::int8, x)) AS partial_equals_whole
  FROM huge, unnest(ARRAY[0, 1, 2, 65535, 65536, 65538, 12345678, 12345679, 419430398, 419430399,
                          419430400, -1, 9223372036854775807]::int8[]) x;
SELECT bool_and(rb_rank(r, x) = rb_rank(r | 0::int8, x)
                AND rb_index(r, x) = rb_index(r | 0::int8, x)) AS rank_index_equal_whole
  FROM huge, unnest(ARRAY[0, 1, 2, 65535, 65536, 65538, 12345678, 12345679, 419430398, 419430399,
                          419430400, -1, 9223372036854775807, -9223372036854775808]::int8[]) x;
SELECT bool_and(rb_select(r, k) IS NOT DISTINCT FROM rb_select(r | 0::int8, k)) AS select_equal_whole
  FROM huge, unnest(ARRAY[0, 1, 32767, 32768, 104857599, 209715199, 209715200, -1]::int8[]) k;

-- Joins that probe the same stored sets again and again: values up to 16 kB are read
-- whole and kept by the call site for the rest of the query (value_cache), larger
-- ones read in slices. 600 sets (more than the 512 a call site keeps), of 10 kB and
-- of 130 kB, probed 300 times each, against the model of their elements.
CREATE TABLE probed (id int PRIMARY KEY, r roaring64);
INSERT INTO probed
SELECT i, CASE WHEN i % 100 = 0 THEN rb_from_range(i * 1000000, i * 1000000 + 40000)
                                     | rb_build(ARRAY(SELECT i * 1000000 + 100000 + j * 17 FROM generate_series(0, 60000) j))
               ELSE rb_build(ARRAY(SELECT (hashint8(i * 10000 + j) & 1048575) FROM generate_series(1, 5000) j)) END
  FROM generate_series(1, 600) i;
CREATE TABLE probed_model AS SELECT id, v FROM probed, rb_iterate(r) v;
CREATE INDEX ON probed_model (id, v);
CREATE INDEX ON probed_model (v);
CREATE TABLE probe_values AS
SELECT (hashint8(k) & 1048575)::int8 AS v FROM generate_series(1, 290) k
UNION ALL SELECT unnest(ARRAY[0, 1048575, 100040000, 100000000, -1, 9223372036854775807]::int8[]);
ANALYZE probed; ANALYZE probe_values; ANALYZE probed_model;
SELECT count(*) FILTER (WHERE pg_column_size(r) > 65536) AS large, count(*) AS sets,
       bool_and(pg_column_size(r) > 2048) AS all_out_of_line FROM probed;
SET enable_hashjoin = off; SET enable_mergejoin = off;
SELECT (SELECT count(*) FROM probe_values q, probed t WHERE t.r @> q.v)
     = (SELECT count(*) FROM probe_values q, probed_model m WHERE m.v = q.v) AS contains_equal_model,
       (SELECT count(*) FROM probe_values q, probed t WHERE q.v <@ t.r)
     = (SELECT count(*) FROM probe_values q, probed_model m WHERE m.v = q.v) AS contained_equal_model;
SELECT bool_and(rb_rank(t.r, q.v) = (SELECT count(*) FROM probed_model m WHERE m.id = t.id AND m.v <= q.v)) AS rank_equal_model
  FROM probed t, (SELECT v FROM probe_values LIMIT 20) q WHERE t.id % 7 = 0;
SELECT bool_and(rb_select(t.r, k) IS NOT DISTINCT FROM
                (SELECT v FROM probed_model m WHERE m.id = t.id ORDER BY v OFFSET k LIMIT 1)) AS select_equal_model
  FROM probed t, unnest(ARRAY[0, 1, 4000, 100000]::int8[]) k WHERE t.id % 7 = 0;
RESET enable_hashjoin; RESET enable_mergejoin;
-- Every pair of 40 sets (each read 40 times by the same call site), against the model.
SELECT (SELECT sum(rb_and_cardinality(x.r, y.r)) FROM probed x, probed y WHERE x.id <= 40 AND y.id <= 40)
     = (SELECT count(*) FROM probed_model a JOIN probed_model b USING (v) WHERE a.id <= 40 AND b.id <= 40)
       AS pair_cardinalities_equal_model,
       -- The random sets contain one another only when they are the same set.
       (SELECT bool_and((x.r @> y.r) = (x.id = y.id)) FROM probed x, probed y
         WHERE x.id <= 40 AND y.id <= 40) AS pair_contains_equal_model;

-- Containment and equality of large stored sets (over 64 kB, out of line) look at
-- the headers and the TOAST pointers' lengths first. Every answer equals the
-- element-by-element one, where those decide (more values, other bounds, another
-- length, the empty set) and where they do not (same bounds and size, one element
-- moved; a subset one element short).
CREATE TABLE big_pairs (id int PRIMARY KEY, a int8[], r roaring64);
INSERT INTO big_pairs (id, a)
SELECT id, ARRAY(SELECT DISTINCT v FROM unnest(a) v ORDER BY v) FROM (VALUES
  (1, ARRAY(SELECT 3 * i FROM generate_series(0, 199999) i)),
  (2, ARRAY(SELECT 3 * i FROM generate_series(0, 199999) i) || ARRAY(SELECT 5 * i FROM generate_series(0, 99999) i)),
  (3, ARRAY(SELECT 3 * i FROM generate_series(0, 199999) i WHERE i <> 150000)),
  (4, ARRAY(SELECT 3 * i FROM generate_series(0, 199999) i WHERE i <> 150000) || ARRAY[1::int8]),
  (5, ARRAY(SELECT 3 * i + 1 FROM generate_series(0, 199999) i)),
  (6, ARRAY(SELECT 3 * i FROM generate_series(0, 199999) i WHERE i <> 150000) || ARRAY[-9223372036854775808, 9223372036854775807]),
  (7, '{}'),
  (8, ARRAY[0, 4611686018427387904])) t(id, a);
UPDATE big_pairs SET r = rb_build(a);
SELECT count(*) FILTER (WHERE pg_column_size(r) > 65536) AS large, count(*) AS sets FROM big_pairs;
SELECT count(*) AS pairs,
       bool_and((x.r @> y.r) = m.y_in_x) AS contains_ok,
       bool_and((y.r <@ x.r) = m.y_in_x) AS contained_ok,
       bool_and((x.r = y.r) = (x.a = y.a)) AS equal_ok,
       bool_and((x.r <> y.r) = (x.a <> y.a)) AS not_equal_ok,
       count(*) FILTER (WHERE x.r @> y.r) AS containing_pairs
  FROM big_pairs x, big_pairs y,
       -- The model once per pair (OFFSET 0 keeps the planner from copying it into
       -- both references).
       LATERAL (SELECT NOT EXISTS (SELECT v FROM unnest(y.a) v EXCEPT SELECT v FROM unnest(x.a) v) AS y_in_x
                OFFSET 0) m;

-- Sets stored out of line whose value ranges do not overlap: the intersection
-- functions answer from the two headers (a first chunk of each) while headers keep
-- answering the call site. Every function of every pair against the int8[] model:
-- disjoint pairs at 0, 2^32, 2^40 and 2^48, overlapping ones, the empty set, a set
-- reaching from int8 min to max, a small inline set, and a set over 64 kB.
CREATE TABLE far (id int PRIMARY KEY, a int8[], r roaring64);
INSERT INTO far (id, a)
SELECT id, ARRAY(SELECT DISTINCT v FROM unnest(a) v ORDER BY v) FROM (VALUES
  (1, ARRAY(SELECT 3 * i FROM generate_series(0, 6999) i)),
  (2, ARRAY(SELECT 4294967296 + 3 * i FROM generate_series(0, 6999) i)),
  (3, ARRAY(SELECT 281474976710656 + 5 * i FROM generate_series(0, 6999) i)),
  (4, ARRAY(SELECT 3 * i + 1 FROM generate_series(0, 6999) i) || ARRAY[4294967296::int8]),
  (5, '{}'),
  (6, ARRAY(SELECT 7 * i FROM generate_series(0, 6999) i) || ARRAY[-9223372036854775808, 9223372036854775807]),
  (7, ARRAY[65536::int8, 65537]),
  (8, ARRAY(SELECT 1099511627776 + 3 * i FROM generate_series(0, 199999) i))) t(id, a);
UPDATE far SET r = rb_build(a);
SELECT count(*) FILTER (WHERE pg_column_size(r) > 2000) AS out_of_line,
       count(*) FILTER (WHERE pg_column_size(r) > 65536) AS large FROM far;
-- The model: one pass over each pair's elements, each marked with the sides that hold it.
CREATE TABLE far_model AS
SELECT x.id AS x, y.id AS y,
       count(v) FILTER (WHERE in_x AND in_y) AS both_n,
       count(v) AS either_n,
       count(v) FILTER (WHERE in_x AND NOT in_y) AS only_x_n,
       coalesce(array_agg(v ORDER BY v) FILTER (WHERE in_x AND in_y), '{}') AS both_a
  FROM far x CROSS JOIN far y
  LEFT JOIN LATERAL (SELECT v, bool_or(side = 1) AS in_x, bool_or(side = 2) AS in_y
                       FROM (SELECT unnest(x.a), 1 UNION ALL SELECT unnest(y.a), 2) e(v, side)
                      GROUP BY v) t ON true
 GROUP BY x.id, y.id;
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE m.both_n = 0) AS disjoint_pairs,
       bool_and(rb_and_cardinality(x.r, y.r) = m.both_n) AS and_cardinality_ok,
       bool_and(rb_or_cardinality(x.r, y.r) = m.either_n) AS or_cardinality_ok,
       bool_and(rb_xor_cardinality(x.r, y.r) = m.either_n - m.both_n) AS xor_cardinality_ok,
       bool_and(rb_andnot_cardinality(x.r, y.r) = m.only_x_n) AS andnot_cardinality_ok,
       bool_and(rb_jaccard(x.r, y.r) IS NOT DISTINCT FROM
                (CASE WHEN m.either_n > 0 THEN m.both_n::float8 / m.either_n END)) AS jaccard_ok,
       bool_and((x.r && y.r) = (m.both_n > 0)) AS intersects_ok,
       bool_and(rb_to_array(x.r & y.r) = m.both_a) AS and_ok,
       bool_and((x.r @> y.r) = (m.both_n = cardinality(y.a))) AS contains_ok
  FROM far x JOIN far y ON true JOIN far_model m ON m.x = x.id AND m.y = y.id;
-- A call site where headers stop answering: the overlapping pairs come first, so
-- it reads whole values from then on, and the answers stay right.
SELECT bool_and(rb_and_cardinality(x.r, y.r) = m.both_n) AS and_cardinality_ok,
       count(*) AS pairs
  FROM (SELECT x, y, both_n FROM far_model ORDER BY both_n = 0, x, y) m,
       LATERAL (SELECT r FROM far WHERE id = m.x) x,
       LATERAL (SELECT r FROM far WHERE id = m.y) y;
-- Disjoint sets of 7,000 values read their first chunks only; the same sets against
-- an overlapping one are read whole.
SELECT buffers_touched('SELECT rb_and_cardinality(x.r, y.r) FROM far x, far y WHERE x.id = 1 AND y.id = 2')
     < buffers_touched('SELECT rb_and_cardinality(x.r, y.r) FROM far x, far y WHERE x.id = 1 AND y.id = 4')
       AS disjoint_reads_fewer_buffers;

-- A union with a few ids changes the stored value's detoasted copy in place when it
-- only sets bits in its bitmaps (rb_or's copy of a large set is then its result),
-- and writes it anew otherwise. Both agree with a model, and the stored value and a
-- value the call site keeps stay as they were. 24 bitmaps: in each container, runs
-- of four with gaps of four over its first 4,096 values, then a quarter of the rest.
CREATE TABLE grows (id int, s roaring64);
INSERT INTO grows
SELECT 1, rb_build(ARRAY(SELECT g FROM generate_series(0::int8, 24 * 65536 - 1) g
                          WHERE CASE WHEN g % 65536 < 4096 THEN g % 8 < 4 ELSE hashint8(g) & 3 = 0 END));
SELECT rb_cardinality(s) AS card, (rb_stats(s) -> 'bitmap' ->> 'containers')::int8 AS bitmaps,
       pg_column_size(s) > 100000 AS stored_out_of_line
  FROM grows;
SELECT rb_cardinality(s) AS card, md5(s::bytea) AS before_md5 FROM grows \gset
CREATE TABLE grows_adds (n int, ids int8[]);
INSERT INTO grows_adds VALUES
  (1, ARRAY[4]),                            -- extends a run
  (2, ARRAY[5, 65536 + 13]),                -- new runs inside gaps
  (3, ARRAY[4, 5, 6, 7]),                   -- fills a gap: two runs join
  (4, ARRAY(SELECT 65536 * k + 8 * j + 4 FROM generate_series(0, 23) k, generate_series(0, 200) j)),
  (5, ARRAY[0, 1, 2, 3]),                   -- present already
  (6, ARRAY[65535, 1572863]),               -- the ends of containers
  (7, ARRAY[1572864, 9223372036854775807]), -- new containers
  (8, ARRAY[-9223372036854775808, 3]),
  (9, ARRAY[]::int8[]);
-- Each case in a statement of its own: a call site that reads the value a third
-- time keeps it, and then writes the union anew (see below).
CREATE FUNCTION grows_union_ok(ids int8[], reversed bool, want roaring64) RETURNS bool LANGUAGE plpgsql AS $$
DECLARE ok bool;
BEGIN
  EXECUTE format('SELECT rb_or(%s) = $2 FROM grows',
                 CASE WHEN reversed THEN 'rb_build($1), s' ELSE 's, rb_build($1)' END)
    INTO ok USING ids, want;
  RETURN ok;
END $$;
-- The model's union, once per case.
CREATE TABLE grows_want AS
SELECT n, rb_build(ARRAY(SELECT rb_iterate(s) UNION SELECT unnest(ids))) AS want FROM grows, grows_adds;
SELECT n, grows_union_ok(ids, false, want) AS union_ok, grows_union_ok(ids, true, want) AS reversed_ok
  FROM grows_adds JOIN grows_want USING (n) ORDER BY n;
SELECT md5(s::bytea) = :'before_md5' AS stored_value_unchanged FROM grows;
-- Many calls on the one stored value: the call site keeps it from its third read on
-- and writes each union anew from its kept copy; every answer is right, so no call
-- changed what the next one reads.
SELECT count(*) AS calls,
       bool_and(rb_cardinality(rb_or(g.s, rb_build(ARRAY[8 * x + 4]))) = :card + 1) AS each_union_ok
  FROM grows g, generate_series(1, 200) x;
-- Applied by UPDATE, the way a stream of follows is.
UPDATE grows SET s = rb_or(s, rb_build(ARRAY[4, 65536 + 13, 1572864]));
SELECT rb_cardinality(s) - :card AS added,
       rb_contains(s, 4) AND rb_contains(s, 65536 + 13) AND rb_contains(s, 1572864) AS holds_them
  FROM grows;
-- An intersection of many sets reads a large set by ranges once the result so far holds
-- few keys: only the containers of those keys, after the header and directory. Four
-- sets stored out of line and uncompressed, sharing the edge values (the first set in
-- nine containers, the others in 98): the answers are
-- the model's and the aggregate's, and the last two steps read less than half the
-- blocks that reading their two sets whole does.
CREATE TABLE meets (id int PRIMARY KEY, r roaring64);
ALTER TABLE meets ALTER COLUMN r SET STORAGE external;
INSERT INTO meets
  SELECT id, rb_build(ARRAY(SELECT g * stride FROM generate_series(0, 6000000 / stride) g))
             | '{65536, 4294967296, 281474976710656, -9223372036854775808, 9223372036854775807, -1}'
    FROM (VALUES (2, 2), (3, 3), (4, 5)) s(id, stride);
INSERT INTO meets VALUES
  (1, rb_build(ARRAY(SELECT g * 1000003 % 200000 FROM generate_series(1::int8, 3000) g))
      | '{0, 30, 65536, 4294967296, 281474976710656, -9223372036854775808, 9223372036854775807, -1}');
SELECT count(*) FILTER (WHERE pg_column_size(r) > 700000 AND pg_column_compression(r) IS NULL) AS large_uncompressed
  FROM meets;
CREATE TABLE meets_model AS
  SELECT array_agg(v ORDER BY v) AS a
    FROM (SELECT rb_iterate(r) v FROM meets WHERE id = 1 INTERSECT SELECT rb_iterate(r) FROM meets WHERE id = 2
          INTERSECT SELECT rb_iterate(r) FROM meets WHERE id = 3 INTERSECT SELECT rb_iterate(r) FROM meets WHERE id = 4) t;
SELECT cardinality(m.a) AS common, rb_to_array(rb_and(a.r, b.r, c.r, d.r)) = m.a AS and_ok,
       rb_and_cardinality(a.r, b.r, c.r, d.r) = cardinality(m.a) AS and_cardinality_ok,
       rb_and(d.r, c.r, b.r, a.r) = (SELECT rb_and_agg(r) FROM meets) AS agrees_with_aggregate,
       rb_and_cardinality(b.r, c.r, d.r) = (SELECT rb_and_cardinality_agg(r) FROM meets WHERE id > 1)
         AS large_only_ok
  FROM meets a, meets b, meets c, meets d, meets_model m
 WHERE (a.id, b.id, c.id, d.id) = (1, 2, 3, 4);
SELECT (buffers_touched('SELECT rb_and_cardinality(a.r, b.r, c.r, d.r) FROM meets a, meets b, meets c, meets d
                          WHERE (a.id, b.id, c.id, d.id) = (1, 2, 3, 4)')
        - buffers_touched('SELECT rb_and_cardinality(a.r, b.r) FROM meets a, meets b WHERE (a.id, b.id) = (1, 2)')) * 2
       < buffers_touched('SELECT md5(c.r::bytea), md5(d.r::bytea) FROM meets c, meets d WHERE (c.id, d.id) = (3, 4)')
       AS later_steps_read_ranges;
DROP TABLE meets, meets_model;
