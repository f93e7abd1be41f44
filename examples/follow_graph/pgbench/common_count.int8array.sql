-- Who that A follows also follows B: how many (B among the most followed 1%).
\set a random(1, :users)
\set b random(1, :users / 100 + 1)
SELECT (SELECT count(*) FROM (SELECT unnest(a.following) INTERSECT SELECT unnest(b.followers)) s) FROM users_a a, users_a b WHERE a.uid = :a AND b.uid = :b;
