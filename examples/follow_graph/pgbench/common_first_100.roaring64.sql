-- Who that A follows also follows B: the first 100 of them.
\set a random(1, :users)
\set b random(1, :users / 100 + 1)
SELECT rb_to_array(rb_slice(a.following & b.followers, 0, 100)) FROM users a, users b WHERE a.uid = :a AND b.uid = :b;
