-- ANALYZE's element statistics and the estimates of @>, <@ and && built on them.
-- Estimates are checked as ranges (ANALYZE samples at random), against the actual
-- counts; plans are read as JSON.
CREATE FUNCTION plan_rows(query text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
    plan json;
BEGIN
    EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
    RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::float8;
END $$;
CREATE FUNCTION uses_index(query text) RETURNS bool LANGUAGE plpgsql AS $$
DECLARE
    plan text;
BEGIN
    EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
    RETURN plan LIKE '%Bitmap Index Scan%';
END $$;
-- The larger of estimate/actual and actual/estimate (an empty result counts as 1).
CREATE FUNCTION q_error(query text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
    actual float8;
    estimate float8 := plan_rows(query);
BEGIN
    EXECUTE 'SELECT count(*) FROM (' || query || ') q' INTO actual;
    actual := greatest(actual, 1);
    RETURN greatest(estimate / actual, actual / estimate);
END $$;

-- 40,000 sets of 20 to 60 ids drawn with a skewed popularity from a million ids
-- (deterministic: hashes, not random()), a few NULLs and empty sets among them.
CREATE TABLE skewed (id int8 PRIMARY KEY, r roaring64);
INSERT INTO skewed
SELECT g, CASE WHEN g % 500 = 0 THEN NULL WHEN g % 499 = 0 THEN '{}' ELSE
    (SELECT rb_build_agg((1000000 * power((abs(hashint8(g * 100 + i)) % 1000003) / 1000003.0, 4))::int8)
     FROM generate_series(1, 20 + g % 41) i) END
FROM generate_series(1, 40000) g;
CREATE INDEX skewed_r ON skewed USING gin (r);
ANALYZE skewed;

-- pg_stats shows the elements, as for int8[]: at most ten per statistics target,
-- ascending; their frequencies then the least, the greatest, the NULL-element
-- frequency (0) and the estimate for an element not listed; the size histogram
-- ends with the average size.
SELECT cardinality(most_common_elems::text::int8[]) BETWEEN 100 AND 1000 AS elements_listed,
       (most_common_elems::text::int8[])[1] = 0 AS most_popular_is_listed,
       most_common_elems::text::int8[] = ARRAY(SELECT unnest(most_common_elems::text::int8[]) ORDER BY 1) AS ascending,
       cardinality(most_common_elem_freqs) = cardinality(most_common_elems::text::int8[]) + 4 AS four_numbers_after,
       most_common_elem_freqs[cardinality(most_common_elem_freqs) - 1] = 0 AS no_null_elements,
       most_common_elem_freqs[cardinality(most_common_elem_freqs)]
           < most_common_elem_freqs[cardinality(most_common_elem_freqs) - 3] AS unlisted_below_least,
       elem_count_histogram[1] = 0 AS empty_sets_counted,
       elem_count_histogram[cardinality(elem_count_histogram)] BETWEEN 30 AND 45 AS average_size,
       null_frac BETWEEN 0.001 AND 0.003 AS null_fraction
FROM pg_stats WHERE tablename = 'skewed' AND attname = 'r';

-- The ids by how many rows hold them.
CREATE TABLE popularity AS
SELECT x, count(*) AS n FROM skewed, rb_iterate(r) x GROUP BY x;
CREATE FUNCTION id_held_by(rows int8) RETURNS int8 LANGUAGE sql AS
$$ SELECT x FROM popularity ORDER BY abs(n - rows), x LIMIT 1 $$;
CREATE FUNCTION ids_held_by(rows int8, k int) RETURNS roaring64 LANGUAGE sql AS
$$ SELECT rb_build_agg(x) FROM (SELECT x FROM popularity ORDER BY abs(n - rows), x LIMIT k) s $$;

-- Within 2x for common elements, within 10x for rare ones.
SELECT q_error(format('SELECT * FROM skewed WHERE r @> %s::int8', id_held_by(13000))) < 2 AS very_common,
       q_error(format('SELECT * FROM skewed WHERE r @> %s::int8', id_held_by(400))) < 2 AS common,
       q_error(format('SELECT * FROM skewed WHERE r @> %s::int8', id_held_by(2))) < 10 AS rare,
       q_error(format('SELECT * FROM skewed WHERE %s::int8 <@ r', id_held_by(400))) < 2 AS element_on_the_left,
       q_error(format('SELECT * FROM skewed WHERE r @> %L', ids_held_by(6000, 2))) < 2 AS contains_two_common,
       q_error(format('SELECT * FROM skewed WHERE r && %L', ids_held_by(5000, 3))) < 2 AS overlaps_three_common,
       q_error(format('SELECT * FROM skewed WHERE r && %L', ids_held_by(1, 2))) < 10 AS overlaps_two_rare,
       q_error(format('SELECT * FROM skewed WHERE %L @> r', rb_from_range(0, 2000))) < 10 AS contained_in_a_range,
       q_error('SELECT * FROM skewed WHERE r <@ rb_from_range(0, 1000000)') < 2 AS contained_in_everything,
       q_error($$SELECT * FROM skewed WHERE r @> '{}'$$) < 1.1 AS contains_the_empty_set;
-- rb_iterate over a column returns, as far as the planner knows, the average set
-- size ANALYZE measured (declared: 1000).
SELECT plan_rows('SELECT x FROM skewed s, rb_iterate(s.r) x WHERE s.id = 7') BETWEEN 30 AND 45 AS average_size_rows;
-- NULL matches nothing; a set known only at run time gets the default.
SELECT plan_rows('SELECT * FROM skewed WHERE r @> NULL::int8') AS null_element,
       plan_rows('SELECT * FROM skewed WHERE r && NULL::roaring64') AS null_set,
       plan_rows('SELECT * FROM skewed WHERE r @> (SELECT 5::int8)') AS run_time_default;

-- The planner picks the GIN index for a selective filter and a scan of the table
-- for one that matches a third of it, with no setting changed.
SELECT uses_index(format('SELECT * FROM skewed WHERE r @> %s::int8', id_held_by(2))) AS rare_uses_index,
       uses_index(format('SELECT * FROM skewed WHERE r @> %s::int8', id_held_by(13000))) AS common_scans,
       uses_index(format('SELECT * FROM skewed WHERE r && %L', ids_held_by(2, 3))) AS rare_overlap_uses_index;

-- An int8 column filtered by a set: its own statistics (a primary key: one row per
-- element), in both spellings.
SELECT plan_rows($$SELECT * FROM skewed WHERE id <@ '{1,2,3,100,1000,99999999}'$$) BETWEEN 4 AND 7 AS five_of_six,
       plan_rows($$SELECT * FROM skewed WHERE rb_from_range(1, 2001) @> id$$) BETWEEN 1500 AND 2600 AS two_thousand;

-- Large sets: element statistics from a bounded read of each (no set is stored in
-- pg_statistic, and ANALYZE reads a few slices of each), still within 2x for an
-- element every set holds and for one only half of them hold.
-- Each set: 300,000 ids, every third of 900,000 (bitmap containers, 115 kB stored
-- out of line), with 5, and 7 in half of them.
CREATE TABLE large (r roaring64);
INSERT INTO large
SELECT rb_build(ARRAY(SELECT generate_series(g * 1000000::int8, g * 1000000::int8 + 899999, 3)))
       | 5::int8 | CASE WHEN g % 2 = 0 THEN 7 ELSE 5 END
FROM generate_series(1, 20) g;
ANALYZE large;
SELECT most_common_vals IS NULL AND histogram_bounds IS NULL AS no_sets_stored,
       (SELECT sum(pg_column_size(s.*)) FROM pg_statistic s WHERE starelid = 'large'::regclass) < 10000 AS small_statistics,
       elem_count_histogram[cardinality(elem_count_histogram)] BETWEEN 300001 AND 300002 AS average_size
FROM pg_stats WHERE tablename = 'large' AND attname = 'r';
SELECT q_error('SELECT * FROM large WHERE r @> 5::int8') < 2 AS in_every_set,
       q_error('SELECT * FROM large WHERE r @> 7::int8') < 2 AS in_half;

-- Large sets that share most of their elements: 20 copies of 3 million consecutive
-- ids, each with an id of its own. Thinning keeps the same elements in every row,
-- so shared ones are counted as shared (a random share per row saw each once, and
-- planned 1 row of 20).
CREATE TABLE dense AS
SELECT rb_from_range(0, 3000000) | (g * 10000000)::int8 AS r FROM generate_series(1, 20) g;
ANALYZE dense;
SELECT q_error('SELECT * FROM dense WHERE r @> 12345::int8') < 3 AS shared_element,
       q_error('SELECT * FROM dense WHERE r @> 2999999::int8') < 3 AS last_shared_element;

-- Nothing to count: a column of NULLs, and one of empty sets.
CREATE TABLE nothing (r roaring64, e roaring64);
INSERT INTO nothing SELECT NULL, '{}' FROM generate_series(1, 100);
ANALYZE nothing;
SELECT attname, null_frac, most_common_elems,
       (SELECT max(x) FROM unnest(elem_count_histogram) x) AS largest_size
FROM pg_stats WHERE tablename = 'nothing' ORDER BY attname;
SELECT plan_rows('SELECT * FROM nothing WHERE e @> 1::int8') AS none_hold_one,
       plan_rows($$SELECT * FROM nothing WHERE e <@ '{1}'$$) AS all_within;

DROP TABLE skewed, popularity, large, dense, nothing;
-- plan_rows stays for 15_index_conditions.
DROP FUNCTION uses_index(text), q_error(text), id_held_by(int8), ids_held_by(int8, int);
