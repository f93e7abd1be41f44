-- The size of the intersection of two random rows' sets.
\set k1 random(1, :rows)
\set k2 random(1, :rows)
SELECT rb_and_cardinality(x.r, y.r) FROM pb_r x, pb_r y WHERE x.id = :k1 AND y.id = :k2;
