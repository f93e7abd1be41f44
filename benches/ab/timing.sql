-- Timing inside one warm session, for benches/ab.sh and benches/ab/realdata.py.
-- xtime(q): the execution time of q as EXPLAIN ANALYZE reports it.
-- cmp(q1, q2, n): both queries in turn, n times each after a warm-up; the medians of
-- their execution times and the ratio q2 / q1.
CREATE OR REPLACE FUNCTION xtime(q text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE j json;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON, FORMAT JSON) ' || q INTO j;
    RETURN (j->0->>'Execution Time')::float8;
END $$;
CREATE OR REPLACE FUNCTION cmp(q1 text, q2 text, n int DEFAULT 9)
RETURNS TABLE(first float8, second float8, ratio float8) LANGUAGE plpgsql AS $$
DECLARE a float8[] := '{}'; b float8[] := '{}';
BEGIN
    PERFORM xtime(q1);
    PERFORM xtime(q2);
    FOR i IN 1..n LOOP
        a := a || xtime(q1);
        b := b || xtime(q2);
    END LOOP;
    first := (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(a) x);
    second := (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(b) x);
    ratio := round((second / first)::numeric, 2);
    RETURN NEXT;
END $$;
