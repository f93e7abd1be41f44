-- Who that A follows also follows B: the first 100 of them.
\set a random(1, :users)
\set b random(1, :users / 100 + 1)
SELECT array_agg(target) FROM (SELECT f1.target FROM follows f1 JOIN follows f2 ON f2.actor = f1.target AND f2.target = :b WHERE f1.actor = :a ORDER BY f1.target LIMIT 100) s;
