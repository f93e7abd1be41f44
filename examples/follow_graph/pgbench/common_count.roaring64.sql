-- Who that A follows also follows B: how many (B among the most followed 1%).
\set a random(1, :users)
\set b random(1, :users / 100 + 1)
SELECT rb_and_cardinality(a.following, b.followers) FROM users a, users b WHERE a.uid = :a AND b.uid = :b;
