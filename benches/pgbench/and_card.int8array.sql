-- The size of the intersection of two random rows' sets.
\set k1 random(1, :rows)
\set k2 random(1, :rows)
SELECT (SELECT count(*) FROM (SELECT unnest(x.a) INTERSECT SELECT unnest(y.a)) s) FROM pb_a x, pb_a y WHERE x.id = :k1 AND y.id = :k2;
