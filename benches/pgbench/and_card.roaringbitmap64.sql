-- The size of the intersection of two random rows' sets.
\set k1 random(1, :rows)
\set k2 random(1, :rows)
SELECT rb64_and_cardinality(x.p, y.p) FROM pb_p x, pb_p y WHERE x.id = :k1 AND y.id = :k2;
