-- Who that A follows also follows B: how many, with A among the 1% who follow the most
-- and B among the 1% most followed (top_following ranks users by following-set size).
\set r random(1, :users / 100 + 1)
\set b random(1, :users / 100 + 1)
SELECT count(*) FROM follows f1 JOIN follows f2 ON f2.actor = f1.target AND f2.target = :b WHERE f1.actor = (SELECT uid FROM top_following WHERE rank = :r);
