-- How many of the users A follows follow A back.
\set a random(1, :users)
SELECT rb_and_cardinality(following, followers) FROM users WHERE uid = :a;
