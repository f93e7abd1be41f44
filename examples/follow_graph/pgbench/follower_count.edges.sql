-- How many users follow A.
\set a random(1, :users)
SELECT count(*) FROM follows WHERE target = :a;
