-- Who that A follows also follows B: how many, with A among the 1% who follow the most
-- and B among the 1% most followed (top_following ranks users by following-set size).
\set r random(1, :users / 100 + 1)
\set b random(1, :users / 100 + 1)
SELECT rb_and_cardinality(a.following, b.followers) FROM users a, users b WHERE a.uid = (SELECT uid FROM top_following WHERE rank = :r) AND b.uid = :b;
