-- How many users follow A.
\set a random(1, :users)
SELECT rb_cardinality(followers) FROM users WHERE uid = :a;
