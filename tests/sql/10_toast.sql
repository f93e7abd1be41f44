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
