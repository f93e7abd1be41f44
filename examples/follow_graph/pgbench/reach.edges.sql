-- Friends of friends: how many users the users A follows follow, together.
\set a random(1, :users)
SELECT count(DISTINCT f2.target) FROM follows f1 JOIN follows f2 ON f2.actor = f1.target WHERE f1.actor = :a;
