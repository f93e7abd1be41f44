-- Every aggregate in the three shapes Citus plans differently, against docs_local:
-- without GROUP BY (worker_partial_agg on the workers, coord_combine_agg on the
-- coordinator), grouped by the distribution column (pushed down whole) and grouped by
-- another column (partial aggregates on both sides).
CREATE VIEW agg_sql(shape, query) AS VALUES
  ('all', $q$SELECT 0 AS k, rb_or_agg(b) AS o, rb_and_agg(b) AS a, rb_xor_agg(b) AS x,
              rb_or_cardinality_agg(b) AS oc, rb_and_cardinality_agg(b) AS ac,
              rb_xor_cardinality_agg(b) AS xc FROM %s$q$),
  ('by_id', $q$SELECT id AS k, rb_or_agg(b) AS o, rb_and_agg(b) AS a, rb_xor_agg(b) AS x,
              rb_or_cardinality_agg(b) AS oc, rb_and_cardinality_agg(b) AS ac,
              rb_xor_cardinality_agg(b) AS xc FROM %s GROUP BY id$q$),
  ('by_tag', $q$SELECT tag AS k, rb_or_agg(b) AS o, rb_and_agg(b) AS a, rb_xor_agg(b) AS x,
              rb_or_cardinality_agg(b) AS oc, rb_and_cardinality_agg(b) AS ac,
              rb_xor_cardinality_agg(b) AS xc FROM %s GROUP BY tag$q$);

CREATE FUNCTION differing(query text) RETURNS int8 LANGUAGE plpgsql AS $$
DECLARE
    n int8;
BEGIN
    -- Results land in plain tables first, so that the comparison itself is local.
    EXECUTE 'CREATE TEMP TABLE got AS ' || format(query, 'docs');
    EXECUTE 'CREATE TEMP TABLE want AS ' || format(query, 'docs_local');
    SELECT count(*) INTO n FROM ((TABLE got EXCEPT ALL TABLE want)
                                 UNION ALL (TABLE want EXCEPT ALL TABLE got)) d;
    DROP TABLE got, want;
    RETURN n;
END $$;

SELECT shape, differing(query) AS differing_rows FROM agg_sql ORDER BY shape;

-- The figures themselves, so that an empty answer cannot pass as equal.
SELECT rb_cardinality(rb_or_agg(b)) AS or_card, rb_to_array(rb_and_agg(b)) AS and_all,
       rb_xor_cardinality_agg(b) AS xor_card, count(b) AS non_null FROM docs;
SELECT tag, rb_or_cardinality_agg(b), rb_and_agg(b), rb_xor_cardinality_agg(b) IS NULL AS xor_null
  FROM docs GROUP BY tag ORDER BY tag;

-- rb_build_agg over every element, in the three shapes: of the rows without long runs,
-- and of three with them (26: a run over two containers, 17: a full container below
-- zero, 221: both). The other rows with runs would add some 24M elements, most of the
-- suite's time, and no case that these do not have.
CREATE TABLE element_rows AS
SELECT id FROM docs_local WHERE (id % 13 <> 0 AND id % 17 <> 0) OR id IN (17, 26, 221);
CREATE TABLE elements AS SELECT id, tag, v FROM docs_local JOIN element_rows USING (id), rb_iterate(b) v;
CREATE TABLE elements_local AS TABLE elements;
SELECT create_distributed_table('elements', 'id');
SELECT (SELECT rb_build_agg(v) FROM elements) = (SELECT rb_build_agg(v) FROM elements_local) AS build_all,
       (SELECT rb_build_agg(v) FROM elements)
       = (SELECT rb_or_agg(b) FROM docs_local JOIN element_rows USING (id)) AS build_is_union,
       (SELECT count(*) FROM elements) AS elements;
SELECT count(*) AS differing_by_tag FROM (
    (SELECT tag, rb_build_agg(v) FROM elements GROUP BY tag
     EXCEPT ALL SELECT tag, rb_build_agg(v) FROM elements_local GROUP BY tag)
    UNION ALL
    (SELECT tag, rb_build_agg(v) FROM elements_local GROUP BY tag
     EXCEPT ALL SELECT tag, rb_build_agg(v) FROM elements GROUP BY tag)) d;
CREATE TEMP TABLE built_by_id AS SELECT id, rb_build_agg(v) AS r FROM elements GROUP BY id;
SELECT count(*) AS differing_by_id FROM built_by_id g
  FULL JOIN (SELECT id, b FROM docs_local JOIN element_rows USING (id) WHERE NOT rb_is_empty(b)) w USING (id)
 WHERE g.r IS DISTINCT FROM w.b;

-- NULL and empty inputs: no rows, all-NULL rows and empty sets.
SELECT rb_or_agg(b) IS NULL AS no_rows, rb_and_cardinality_agg(b) IS NULL AS no_rows_card
  FROM docs WHERE id < 0;
SELECT rb_or_agg(b) IS NULL AS all_null, rb_xor_agg(b) IS NULL AS all_null_xor
  FROM docs WHERE tag = 6;
SELECT rb_or_agg(b) AS or_empty, rb_and_agg(b) AS and_empty, rb_or_cardinality_agg(b) AS card
  FROM docs WHERE b = '{}';
SELECT rb_and_agg(b) AS and_with_empty FROM docs WHERE b IS NOT NULL;
SELECT rb_and_agg(b) AS and_without_empty, rb_and_cardinality_agg(b) AS card
  FROM docs WHERE NOT rb_is_empty(b);

-- The plans: split where Citus can split, the state crossing as roaring64_state.
SELECT plan_has('SELECT rb_or_agg(b) FROM docs', 'worker_partial_agg') AS workers_partial,
       plan_has('SELECT rb_or_agg(b) FROM docs', 'coord_combine_agg') AS coordinator_combines,
       plan_has('SELECT tag, rb_and_agg(b) FROM docs GROUP BY tag', 'worker_partial_agg') AS by_tag_partial,
       plan_has('SELECT id, rb_or_agg(b) FROM docs GROUP BY id', 'worker_partial_agg') AS by_id_partial;
-- The partial state's text, as a worker sends it: base64 of the value's bytes.
SELECT length(rb_or_agg(b)::roaring64_state::text) <= 1.34 * length(rb_or_agg(b)::bytea)
       AS base64_size,
       rb_or_agg(b)::roaring64_state::text::roaring64_state::roaring64 = rb_or_agg(b) AS round_trip
  FROM docs_local;
-- Aggregates inside expressions, in subqueries and with FILTER.
SELECT rb_cardinality(rb_or_agg(b) FILTER (WHERE tag = 1)) AS filtered,
       rb_xor_cardinality_agg(b) FILTER (WHERE id % 2 = 0) AS filtered_xor FROM docs;
SELECT rb_cardinality(rb_or_agg(b) FILTER (WHERE tag = 1)) AS filtered,
       rb_xor_cardinality_agg(b) FILTER (WHERE id % 2 = 0) AS filtered_xor FROM docs_local;
SELECT count(*) AS elements_of_union FROM (SELECT rb_or_agg(b) AS u FROM docs) s, rb_iterate(s.u);
