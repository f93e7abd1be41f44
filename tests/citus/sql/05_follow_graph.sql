-- The follow-graph example's questions (examples/follow_graph/pgbench) on users
-- distributed by user id, against the same graph in a plain table. Two users' rows
-- live on different shards, so the two-user questions read each row in a subquery
-- (each a router query) instead of joining `users a, users b`, which Citus refuses
-- as a cartesian product of distributed tables.
CREATE TABLE users_local (uid int8 PRIMARY KEY, followers roaring64 NOT NULL,
                          following roaring64 NOT NULL);
WITH follows AS (
    SELECT DISTINCT a AS actor, 1 + (hashint8(a * 131 + k) & 2147483647) % (1 + (hashint8(a * 7 + k) & 2147483647) % 2000) AS target
      FROM generate_series(1, 2000) a, generate_series(1, 40) k
), followers AS (
    SELECT target AS u, rb_build_agg(actor) AS s FROM follows GROUP BY target
), following AS (
    SELECT actor AS u, rb_build_agg(target) AS s FROM follows GROUP BY actor
)
INSERT INTO users_local
SELECT u, coalesce(r.s, '{}'), coalesce(g.s, '{}')
  FROM generate_series(1, 2000) u LEFT JOIN followers r USING (u) LEFT JOIN following g USING (u);
CREATE TABLE users (LIKE users_local INCLUDING ALL);
SELECT create_distributed_table('users', 'uid');
INSERT INTO users SELECT * FROM users_local;

CREATE FUNCTION feed_questions(tbl text, a int8, b int8) RETURNS TABLE (question text, answer text)
LANGUAGE plpgsql AS $$
BEGIN
    RETURN QUERY EXECUTE format($q$
        SELECT 'follower_count', (SELECT rb_cardinality(followers) FROM %1$s WHERE uid = %2$s)::text
        UNION ALL
        SELECT 'mutual_count', (SELECT rb_and_cardinality(following, followers) FROM %1$s WHERE uid = %2$s)::text
        UNION ALL
        SELECT 'common_count', rb_and_cardinality((SELECT following FROM %1$s WHERE uid = %2$s),
                                                  (SELECT followers FROM %1$s WHERE uid = %3$s))::text
        UNION ALL
        SELECT 'common_first_100', rb_to_array(rb_slice((SELECT following FROM %1$s WHERE uid = %2$s)
                                                        & (SELECT followers FROM %1$s WHERE uid = %3$s),
                                                        0, 100))::text
        UNION ALL
        SELECT 'reach', (SELECT rb_cardinality(rb_or_agg(f.following)) FROM %1$s f
                          WHERE f.uid = ANY ((SELECT rb_to_array(following) FROM %1$s WHERE uid = %2$s)::int8[]))::text
    $q$, tbl, a, b);
END $$;

SELECT d.question, d.answer = l.answer AS same, d.answer IS NOT NULL AS answered
  FROM feed_questions('users', 7, 3) d JOIN feed_questions('users_local', 7, 3) l USING (question)
 ORDER BY 1;
SELECT count(*) AS differing_pairs
  FROM generate_series(1, 40) a, LATERAL (
        SELECT * FROM feed_questions('users', a * 37 % 2000 + 1, a % 20 + 1)
        EXCEPT SELECT * FROM feed_questions('users_local', a * 37 % 2000 + 1, a % 20 + 1)) d;
-- Who follows both: an aggregate over the whole distributed graph.
SELECT (SELECT rb_and_cardinality(rb_or_agg(following), rb_or_agg(followers)) FROM users)
     = (SELECT rb_and_cardinality(rb_or_agg(following), rb_or_agg(followers)) FROM users_local) AS graph_same;
