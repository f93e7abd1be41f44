-- Friends of friends: how many users the users A follows follow, together.
\set a random(1, :users)
SELECT rb_cardinality(rb_or_agg(f.following)) FROM users f WHERE f.uid = ANY ((SELECT rb_to_array(following) FROM users WHERE uid = :a)::int8[]);
