-- What the planner is told: row counts of the set-returning functions. Plans are
-- read as JSON (PostgreSQL 18 adds BUFFERS to text EXPLAIN), one number each.
CREATE FUNCTION plan_rows(query text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
    plan json;
BEGIN
    EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
    RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::float8;
END $$;

-- A set known at plan time: rb_iterate returns exactly its cardinality,
SELECT plan_rows($$SELECT * FROM rb_iterate('{1,2,3}')$$) AS three;
SELECT plan_rows($$SELECT * FROM rb_iterate('{1,2,3}', true)$$) AS three_descending;
SELECT plan_rows($$SELECT * FROM rb_iterate(rb_from_range(0, 100000))$$) AS from_an_immutable_call;
SELECT plan_rows($$SELECT * FROM rb_iterate('{}')$$) AS empty_is_clamped_to_one;
SELECT plan_rows($$SELECT * FROM rb_iterate('{-9223372036854775808,-1,0,65536,4294967296,281474976710656,9223372036854775807}')$$) AS edges;
SELECT plan_rows($$SELECT rb_iterate('{5,6}')$$) AS in_the_select_list;
-- and rb_runs its number of runs.
SELECT plan_rows($$SELECT * FROM rb_runs('{1,2,3,7,9,10}')$$) AS three_runs;
SELECT plan_rows($$SELECT * FROM rb_runs(rb_from_range(0, 1000000))$$) AS one_run;
SELECT plan_rows($$SELECT * FROM rb_runs('{}')$$) AS no_runs_clamped_to_one;

-- A parameter: its value in a custom plan, the declared ROWS in a generic one.
PREPARE elements(roaring64) AS SELECT * FROM rb_iterate($1);
SET plan_cache_mode = force_custom_plan;
SELECT plan_rows($$EXECUTE elements('{1,2,3,4,5}')$$) AS custom_plan;
SET plan_cache_mode = force_generic_plan;
SELECT plan_rows($$EXECUTE elements('{1,2,3,4,5}')$$) AS generic_plan_declared_rows;
RESET plan_cache_mode;
DEALLOCATE elements;

-- A set only known at run time (a column, a volatile call): the declared ROWS.
CREATE TEMP TABLE audiences (id int PRIMARY KEY, members roaring64);
SELECT plan_rows($$SELECT x FROM audiences a, rb_iterate(a.members) x WHERE a.id = 1$$) AS per_column;
SELECT plan_rows($$SELECT * FROM rb_iterate(rb_build(ARRAY[random()::int8]))$$) AS volatile_argument;

-- NULL: no rows (both are STRICT), clamped to one.
SELECT plan_rows($$SELECT * FROM rb_iterate(NULL::roaring64)$$) AS null_set;
SELECT plan_rows($$SELECT * FROM rb_runs(NULL)$$) AS null_runs;

-- The estimate is what the planner joins with: three probes into a large table
-- go through its primary key.
CREATE TEMP TABLE people AS SELECT g AS id, 'p' || g AS name FROM generate_series(1, 100000) g;
ALTER TABLE people ADD PRIMARY KEY (id);
ANALYZE people;
EXPLAIN (COSTS OFF)
SELECT p.name FROM rb_iterate('{10,20,30}') x JOIN people p ON p.id = x;
SELECT p.name FROM rb_iterate('{10,20,30}') x JOIN people p ON p.id = x ORDER BY 1;

-- Invalid bytes never reach an estimate with an error: the value itself is refused
-- where it is made.
SELECT plan_rows($$SELECT * FROM rb_iterate('\x00'::bytea::roaring64)$$);
DROP FUNCTION plan_rows(text);
