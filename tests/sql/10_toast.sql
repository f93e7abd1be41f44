-- Reading less than the whole value: on a ~50 MB value stored out of line and
-- uncompressed (STORAGE external), rb_cardinality/rb_is_empty/rb_min/rb_max fetch only
-- the header's chunk and rb_contains(r, int8) the header, the key entries and one
-- container word, while a function that needs the whole value reads thousands of
-- buffers. Buffer counts come from EXPLAIN (ANALYZE, BUFFERS).
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
  FROM (SELECT rb_build(ARRAY(SELECT g FROM generate_series(0, 65535, 2) g)) AS pattern) p,
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
-- The partial reads give the same answers as the whole value.
SELECT rb_contains(r, 0) AS has_0, rb_contains(r, 1) AS has_1, rb_contains(r, 419430398) AS has_last,
       rb_contains(r, 419430400) AS past_end, rb_contains(r, -1) AS negative,
       rb_min(r), rb_max(r), rb_is_empty(r)
  FROM huge;
-- The same probes on the value detoasted whole agree.
SELECT bool_and(rb_contains(r, x) = rb_contains(r | 0::int8, x)) AS partial_equals_whole
  FROM huge, unnest(ARRAY[0, 1, 2, 65535, 65536, 65538, 12345678, 12345679, 419430398, 419430399,
                          419430400, -1, 9223372036854775807]::int8[]) x;
