-- Who that A follows also follows B: how many (B among the most followed 1%).
\set a random(1, :users)
\set b random(1, :users / 100 + 1)
SELECT count(*) FROM follows f1 JOIN follows f2 ON f2.actor = f1.target AND f2.target = :b WHERE f1.actor = :a;
