-- The distributed suite's data: docs, distributed by id (32 shards over two workers),
-- and docs_local, the same rows in a plain table that every answer is checked against.
-- The rows hold NULLs, empty sets, the edge values, long runs, full containers and a
-- tag whose rows are all NULL.
SET citus.shard_count = 32;
CREATE TABLE docs_local (id int8 PRIMARY KEY, tag int NOT NULL, b roaring64);
INSERT INTO docs_local
SELECT i, i % 7,
       CASE WHEN i % 7 = 6 OR i % 50 = 0 THEN NULL
            WHEN i % 53 = 0 THEN '{}'
            ELSE rb_build(ARRAY(SELECT (hashint8(i * 1000 + j) & 1048575)::int8
                                FROM generate_series(1, 20 + i % 300) j))
                 | '{42,30064771072}'::roaring64
                 | CASE WHEN i % 11 = 0
                        THEN '{0,65536,4294967296,281474976710656,-9223372036854775808,9223372036854775807}'::roaring64
                        ELSE '{}' END
                 | CASE WHEN i % 13 = 0 THEN rb_from_range(i * 4096, i * 4096 + 70000)
                        ELSE '{}' END
                 | CASE WHEN i % 17 = 0 THEN rb_from_range(-(1::int8 << 48), -(1::int8 << 48) + 65536)
                        ELSE '{}' END
       END
  FROM generate_series(1, 3000) i;

CREATE TABLE docs (LIKE docs_local INCLUDING ALL);
SELECT create_distributed_table('docs', 'id');
INSERT INTO docs SELECT * FROM docs_local;
SELECT count(*) AS shards FROM pg_dist_shard WHERE logicalrelid = 'docs'::regclass;
SELECT (SELECT count(*) FROM docs) AS rows, (SELECT count(*) FROM docs WHERE b IS NULL) AS nulls,
       (SELECT count(*) FROM docs WHERE b = '{}') AS empties;

-- Whether a statement's plan contains a text: EXPLAIN output names shards, ports and
-- task counts that change between runs, so the tests ask about the plan, not print it.
CREATE FUNCTION plan_has(query text, needle text) RETURNS bool LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) ' || query LOOP
        IF position(needle IN line) > 0 THEN
            RETURN true;
        END IF;
    END LOOP;
    RETURN false;
END $$;
