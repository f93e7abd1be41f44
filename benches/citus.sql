-- Distributed against local: the aggregates on a table distributed over two Citus
-- workers (32 shards) and on the same rows in a plain table on the coordinator, with
-- the bytes a partial state takes on the wire. Run by `scripts/citus.sh --bench`, which
-- starts the cluster, loads this file and calls bench_run once per wire format.
\set ON_ERROR_STOP 1
SET citus.shard_count = 32;

-- 20,000 sets of 150 values each spread over 16 containers: about 12 MB stored.
CREATE TABLE bench_local (id int8 PRIMARY KEY, tag int NOT NULL, b roaring64 NOT NULL);
INSERT INTO bench_local
SELECT i, i % 100, rb_build(ARRAY(SELECT (hashint8(i * 1000 + j) & 1048575)::int8
                                  FROM generate_series(1, 150) j))
  FROM generate_series(1, 20000) i;
CREATE TABLE bench_dist (LIKE bench_local INCLUDING ALL);
SELECT create_distributed_table('bench_dist', 'id');
INSERT INTO bench_dist SELECT * FROM bench_local;
VACUUM ANALYZE bench_local;
VACUUM ANALYZE bench_dist;

-- The design before roaring64_state, for comparison: the same transition function
-- with roaring64 as the state type, whose partial states travel as roaring64's text
-- (array text, or hex where the workers set sroar.output_format = hex).
CREATE FUNCTION bench_or_trans(roaring64, roaring64) RETURNS roaring64
    AS '$libdir/sroar_pg', 'rb_or_trans_wrapper' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bench_or_agg_roaring64_state(roaring64) (
    SFUNC = bench_or_trans, STYPE = roaring64, COMBINEFUNC = bench_or_trans, PARALLEL = SAFE);

-- Median milliseconds of `reps` runs of each query, the runs interleaved so that the
-- machine's noise falls on all of them alike.
CREATE FUNCTION bench_medians(queries text[], reps int) RETURNS float8[]
LANGUAGE plpgsql AS $$
DECLARE
    times float8[][] := array_fill(0::float8, ARRAY[array_length(queries, 1), reps]);
    t0 timestamptz;
    result float8[] := '{}';
    q int;
    r int;
    sink record;
BEGIN
    FOR q IN 1 .. array_length(queries, 1) LOOP
        EXECUTE queries[q] INTO sink;  -- warm-up: caches and connections
    END LOOP;
    FOR r IN 1 .. reps LOOP
        FOR q IN 1 .. array_length(queries, 1) LOOP
            t0 := clock_timestamp();
            EXECUTE queries[q] INTO sink;
            times[q][r] := 1000 * extract(epoch FROM clock_timestamp() - t0);
        END LOOP;
    END LOOP;
    FOR q IN 1 .. array_length(queries, 1) LOOP
        result := result || (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY t)
                               FROM unnest(times[q:q][1:reps]) t);
    END LOOP;
    RETURN result;
END $$;

-- Every aggregate in three shapes: over the whole table, grouped by the distribution
-- column and grouped by another column. Results are folded into one row (a sum of
-- cardinalities) so that the time is the aggregate's, not the client's.
CREATE VIEW bench_cases(agg, shape, query) AS
SELECT a.agg, s.shape, format(s.tmpl, a.expr, '%1$s')
  FROM (VALUES ('rb_or_agg', 'rb_cardinality(rb_or_agg(b))'),
               ('rb_and_agg', 'rb_cardinality(rb_and_agg(b))'),
               ('rb_xor_agg', 'rb_cardinality(rb_xor_agg(b))'),
               ('rb_or_cardinality_agg', 'rb_or_cardinality_agg(b)'),
               ('rb_and_cardinality_agg', 'rb_and_cardinality_agg(b)'),
               ('rb_xor_cardinality_agg', 'rb_xor_cardinality_agg(b)'),
               ('rb_build_agg', 'rb_cardinality(rb_build_agg(id))'),
               ('roaring64 state (before)', 'rb_cardinality(bench_or_agg_roaring64_state(b))'))
       AS a(agg, expr),
       (VALUES ('all', 'SELECT %s FROM %s'),
               ('by distribution column', 'SELECT sum(c) FROM (SELECT %s AS c FROM %s GROUP BY id) g'),
               ('by other column', 'SELECT sum(c) FROM (SELECT %s AS c FROM %s GROUP BY tag) g'))
       AS s(shape, tmpl);

CREATE FUNCTION bench_run(wire text, reps int DEFAULT 7)
RETURNS TABLE (wire_format text, aggregate text, shape text, distributed_ms numeric,
               local_ms numeric, ratio numeric)
LANGUAGE plpgsql AS $$
DECLARE
    c record;
    m float8[];
    d int8;
    l int8;
BEGIN
    FOR c IN SELECT * FROM bench_cases
              WHERE wire = 'array' OR agg IN ('rb_or_agg', 'roaring64 state (before)')
              ORDER BY agg, shape LOOP
        EXECUTE format(c.query, 'bench_dist') INTO d;
        EXECUTE format(c.query, 'bench_local') INTO l;
        IF d IS DISTINCT FROM l THEN
            RAISE EXCEPTION '% (%) differs: distributed %, local %', c.agg, c.shape, d, l;
        END IF;
        m := bench_medians(ARRAY[format(c.query, 'bench_dist'), format(c.query, 'bench_local')], reps);
        wire_format := CASE WHEN c.agg = 'roaring64 state (before)' THEN wire ELSE 'base64' END;
        aggregate := c.agg;
        shape := c.shape;
        distributed_ms := round(m[1]::numeric, 1);
        local_ms := round(m[2]::numeric, 1);
        ratio := round((m[1] / m[2])::numeric, 2);
        RETURN NEXT;
    END LOOP;
END $$;

-- Bytes on the wire: the partial states of rb_or_agg, one per shard, as stored bytes
-- and as each text form.
SELECT count(*) AS shards,
       sum(octet_length(s::roaring64::bytea)) AS stored_bytes,
       sum(octet_length(s::text)) AS base64_bytes,
       round(sum(octet_length(s::text))::numeric / sum(octet_length(s::roaring64::bytea)), 3) AS base64_ratio,
       2 * sum(octet_length(s::roaring64::bytea)) + 2 * count(*) AS hex_bytes,
       sum(octet_length(s::roaring64::text)) AS array_text_bytes,
       round(sum(octet_length(s::roaring64::text))::numeric / sum(octet_length(s::roaring64::bytea)), 2) AS array_text_ratio
  FROM (SELECT rb_or_agg(b)::roaring64_state AS s FROM bench_local
         GROUP BY get_shard_id_for_distribution_column('bench_dist', id)) p;
SELECT pg_size_pretty(pg_total_relation_size('bench_local')) AS local_table,
       pg_size_pretty(citus_total_relation_size('bench_dist')) AS distributed_table;
