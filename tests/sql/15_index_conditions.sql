-- Index conditions the planner gets from the functions behind the operators: an
-- int8 column with a btree index, filtered by a set, is searched as
-- id = ANY(rb_to_array(set)); the function forms (rb_contains(r, 5)) use a GIN index
-- as the operators do. Every case gives the rows a sequential scan gives.
-- How the plan reads the table the query filters (the first one it names).
CREATE FUNCTION plan_nodes(query text, target text DEFAULT NULL) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    plan jsonb;
BEGIN
    target := coalesce(target, substring(query from 'FROM ([a-z]+)'));
    EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
    RETURN (SELECT string_agg(DISTINCT n #>> '{}', ', ')
            FROM jsonb_path_query(plan, 'lax $.**.Plans[*] ? (@."Relation Name" == $t)."Node Type"',
                                  jsonb_build_object('t', target)) n
            UNION ALL
            SELECT string_agg(DISTINCT n #>> '{}', ', ')
            FROM jsonb_path_query(plan, 'lax $[*].Plan ? (@."Relation Name" == $t)."Node Type"',
                                  jsonb_build_object('t', target)) n
            ORDER BY 1 NULLS LAST LIMIT 1);
END $$;
-- The query's rows (sorted) with the planner's choice, and with every index off.
CREATE FUNCTION same_rows(query text) RETURNS bool LANGUAGE plpgsql AS $$
DECLARE
    chosen text;
    scanned text;
BEGIN
    EXECUTE format('SELECT coalesce(string_agg(q::text, %L ORDER BY q::text), %L) FROM (%s) q', ',', '', query) INTO chosen;
    SET LOCAL enable_indexscan = off;
    SET LOCAL enable_indexonlyscan = off;
    SET LOCAL enable_bitmapscan = off;
    EXECUTE format('SELECT coalesce(string_agg(q::text, %L ORDER BY q::text), %L) FROM (%s) q', ',', '', query) INTO scanned;
    RESET enable_indexscan;
    RESET enable_indexonlyscan;
    RESET enable_bitmapscan;
    RETURN chosen = scanned;
END $$;

-- 100,000 rows: ids 1..50,000 twice, NULLs, and the int8 edges.
CREATE TABLE events (id int8, payload int);
INSERT INTO events SELECT g % 50000 + 1, g FROM generate_series(1, 100000) g;
INSERT INTO events VALUES (NULL, -1), (NULL, -2), (-9223372036854775808, -3), (9223372036854775807, -4),
    (0, -5), (-1, -6), (65536, -7), (4294967296, -8);
CREATE INDEX events_id ON events (id);
ANALYZE events;

-- A constant set: an index condition, in both spellings and as the function.
SELECT plan_nodes($$SELECT * FROM events WHERE id <@ '{5,77,40000}'$$) AS contained_by,
       plan_nodes($$SELECT * FROM events WHERE '{5,77,40000}'::roaring64 @> id$$) AS contains,
       plan_nodes($$SELECT * FROM events WHERE rb_contains('{5,77,40000}', id)$$) AS function_form;
SELECT same_rows($$SELECT payload FROM events WHERE id <@ '{5,77,40000}'$$) AS three,
       same_rows($$SELECT payload FROM events WHERE '{5,77,40000,99999999}'::roaring64 @> id$$) AS one_absent,
       same_rows($$SELECT payload FROM events WHERE rb_contains('{1,2,3}', id)$$) AS function_form,
       same_rows($$SELECT payload FROM events WHERE id <@ '{}'$$) AS empty_set,
       same_rows($$SELECT payload FROM events WHERE id <@ NULL::roaring64$$) AS null_set,
       same_rows($$SELECT payload FROM events WHERE id <@ '{-9223372036854775808,-1,0,65536,4294967296,9223372036854775807}'$$) AS edges,
       same_rows($$SELECT payload FROM events WHERE id <@ rb_from_range(49990, 50010)$$) AS a_range,
       same_rows($$SELECT payload FROM events WHERE NOT (id <@ '{1,2}')$$) AS negated;
-- A set of over 10,000 ids that the planner knows searches the index by its range
-- (the planner would cost its elements as ten searches), rows rechecked.
SELECT plan_nodes($$SELECT * FROM events WHERE id <@ rb_from_range(48000, 61000)$$) AS large_narrow_set,
       same_rows($$SELECT payload FROM events WHERE id <@ rb_from_range(48000, 61000)$$) AS large_narrow_rows,
       same_rows($$SELECT payload FROM events WHERE rb_from_range(48000, 61000) @> id$$) AS other_spelling,
       same_rows($$SELECT payload FROM events WHERE id <@ rb_or(rb_from_range(-5, 12000), '{9223372036854775807}')$$) AS with_edges;
-- A set holding most ids: a scan of the table.
SELECT plan_nodes($$SELECT * FROM events WHERE id <@ rb_from_range(0, 45000)$$) AS broad;

-- A prepared statement's parameter, in a custom plan and in a generic one (which
-- plans for 0.5% of the rows, a few hundred here: the index). EXECUTE cannot be a
-- subquery: the statement gives its rows as one string.
CREATE FUNCTION same_answer(statement text) RETURNS bool LANGUAGE plpgsql AS $$
DECLARE
    chosen text;
    scanned text;
BEGIN
    EXECUTE statement INTO chosen;
    SET LOCAL enable_indexscan = off;
    SET LOCAL enable_indexonlyscan = off;
    SET LOCAL enable_bitmapscan = off;
    EXECUTE statement INTO scanned;
    RESET enable_indexscan;
    RESET enable_indexonlyscan;
    RESET enable_bitmapscan;
    RETURN chosen IS NOT DISTINCT FROM scanned;
END $$;
PREPARE by_set(roaring64) AS
    SELECT string_agg(payload::text, ',' ORDER BY payload) FROM events WHERE id <@ $1;
SET plan_cache_mode = force_custom_plan;
SELECT plan_nodes($$EXECUTE by_set('{10,20}')$$, 'events') AS custom,
       same_answer($$EXECUTE by_set('{10,20}')$$) AS custom_rows;
SET plan_cache_mode = force_generic_plan;
SELECT plan_nodes($$EXECUTE by_set('{10,20}')$$, 'events') AS generic,
       same_answer($$EXECUTE by_set('{10,20}')$$) AS generic_rows,
       same_answer($$EXECUTE by_set(NULL)$$) AS generic_null;
RESET plan_cache_mode;
DEALLOCATE by_set;

-- A scalar subquery, and a join: the set of the outer row searches the index.
CREATE TABLE audiences (name text PRIMARY KEY, members roaring64);
INSERT INTO audiences VALUES ('small', '{3,4,5}'), ('empty', '{}'), ('none', NULL),
    ('edges', '{-9223372036854775808,9223372036854775807}'), ('range', rb_from_range(100, 200));
ANALYZE audiences;
SELECT plan_nodes($$SELECT * FROM events WHERE id <@ (SELECT members FROM audiences WHERE name = 'small')$$) AS subquery,
       same_rows($$SELECT payload FROM events WHERE id <@ (SELECT members FROM audiences WHERE name = 'small')$$) AS subquery_rows,
       same_rows($$SELECT payload FROM events WHERE id <@ (SELECT members FROM audiences WHERE name = 'none')$$) AS subquery_null;
SELECT plan_nodes($$SELECT a.name, e.payload FROM events e JOIN audiences a ON e.id <@ a.members WHERE a.name = 'small'$$) AS join_plan,
       same_rows($$SELECT a.name, e.payload FROM audiences a JOIN events e ON e.id <@ a.members$$) AS join_rows,
       same_rows($$SELECT a.name, e.payload FROM audiences a JOIN events e ON a.members @> e.id$$) AS join_rows_other_spelling;
-- The join's estimate: the set column's average size over the ids' distinct count,
-- within 1.5x of the rows it returns (contjoinsel's constant, 0.1% of all pairs, said
-- 2.4x).
SELECT plan_rows($$SELECT * FROM audiences a JOIN events e ON e.id <@ a.members$$)
       / (SELECT count(*) FROM audiences a JOIN events e ON e.id <@ a.members) BETWEEN 0.67 AND 1.5 AS join_estimate,
       plan_rows($$SELECT * FROM audiences a JOIN events e ON a.members @> e.id$$)
       / (SELECT count(*) FROM audiences a JOIN events e ON e.id <@ a.members) BETWEEN 0.67 AND 1.5 AS other_spelling;
-- A set made from the indexed table itself is no index condition (it is not known
-- before the scan), and stays right.
SELECT same_rows($$SELECT payload FROM events WHERE id <@ rb_build(ARRAY[payload::int8])$$) AS own_row;

-- The function forms over a GIN index, as the operators.
CREATE TABLE documents (doc int, ids roaring64);
INSERT INTO documents SELECT g, rb_build(ARRAY[g % 1000, g % 7 + 5000, g]) FROM generate_series(1, 20000) g;
CREATE INDEX documents_ids ON documents USING gin (ids);
ANALYZE documents;
SELECT plan_nodes('SELECT doc FROM documents WHERE rb_contains(ids, 17::int8)') AS contains_element,
       plan_nodes($$SELECT doc FROM documents WHERE rb_contains(ids, '{17,1017}'::roaring64)$$) AS contains_set,
       plan_nodes($$SELECT doc FROM documents WHERE rb_intersects(ids, '{17,18}'::roaring64)$$) AS intersects,
       plan_nodes($$SELECT doc FROM documents WHERE rb_contains('{17,5003,1017,5000}'::roaring64, ids)$$) AS within;
SELECT same_rows('SELECT doc FROM documents WHERE rb_contains(ids, 17::int8)') AS contains_element,
       same_rows($$SELECT doc FROM documents WHERE rb_contains(ids, '{17,1017}'::roaring64)$$) AS contains_set,
       same_rows($$SELECT doc FROM documents WHERE rb_intersects(ids, '{17,18}'::roaring64)$$) AS intersects,
       same_rows($$SELECT doc FROM documents WHERE rb_contains('{17,5003,1017,5000}'::roaring64, ids)$$) AS within;
-- Their estimates are the operators'.
SELECT (SELECT count(*) FROM documents WHERE rb_contains(ids, 17::int8)) AS actual,
       plan_rows('SELECT doc FROM documents WHERE rb_contains(ids, 17::int8)')
           = plan_rows('SELECT doc FROM documents WHERE ids @> 17::int8') AS as_the_operator;

DROP TABLE events, audiences, documents;
DROP FUNCTION plan_rows(text), plan_nodes(text, text), same_rows(text), same_answer(text);
