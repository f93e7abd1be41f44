-- The size of the union of 100 rows' sets (a window of rows from a random start).
\set k random(1, :rows - 99)
SELECT rb_cardinality(rb_or_agg(r)) FROM pb_r WHERE id BETWEEN :k AND :k + 99;
