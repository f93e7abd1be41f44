-- How many of the users A follows follow A back.
\set a random(1, :users)
SELECT count(*) FROM follows f1 JOIN follows f2 ON f2.actor = f1.target AND f2.target = f1.actor WHERE f1.actor = :a;
