-- The size of the union of 100 rows' sets (a window of rows from a random start).
\set k random(1, :rows - 99)
SELECT count(DISTINCT v) FROM pb_a, unnest(a) v WHERE id BETWEEN :k AND :k + 99;
