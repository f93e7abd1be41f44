-- GIN and hash indexes on a distributed roaring64 column: made on every shard and used.
CREATE INDEX docs_gin ON docs USING gin (b);
CREATE INDEX docs_hash ON docs USING hash (b);
CREATE INDEX docs_local_gin ON docs_local USING gin (b);
SELECT result AS indexes_per_worker
  FROM run_command_on_workers($$SELECT count(*) FROM pg_indexes
                                  WHERE indexname LIKE 'docs_gin%' OR indexname LIKE 'docs_hash%'$$)
 ORDER BY nodeport;
-- Shards of 100 rows are read faster without an index, and Citus does not pass a
-- session's enable_seqscan to the workers: turn it off on the workers themselves.
SELECT result FROM run_command_on_workers($$ALTER SYSTEM SET enable_seqscan = off$$);
SELECT result FROM run_command_on_workers($$SELECT pg_reload_conf()$$);
SELECT pg_sleep(0.5);
SELECT plan_has('SELECT id FROM docs WHERE b @> 30064771072::int8', 'Bitmap Index Scan on docs_gin') AS gin_used,
       plan_has($$SELECT id FROM docs WHERE b = '{1}'$$, 'Index Scan using docs_hash') AS hash_used;
SELECT (SELECT array_agg(id ORDER BY id) FROM docs WHERE b @> 9223372036854775807::int8)
     = (SELECT array_agg(id ORDER BY id) FROM docs_local WHERE b @> 9223372036854775807::int8) AS contains_same,
       (SELECT count(*) FROM docs WHERE b && '{0,-9223372036854775808}') AS overlaps,
       (SELECT count(*) FROM docs WHERE b @> '{42,30064771072}') AS contains_set,
       (SELECT count(*) FROM docs WHERE b = (SELECT b FROM docs_local WHERE id = 11)) AS equal_rows;
SELECT result FROM run_command_on_workers($$ALTER SYSTEM RESET enable_seqscan$$);
SELECT result FROM run_command_on_workers($$SELECT pg_reload_conf()$$);
