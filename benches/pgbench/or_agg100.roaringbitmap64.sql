-- The size of the union of 100 rows' sets (a window of rows from a random start).
\set k random(1, :rows - 99)
SELECT rb64_cardinality(rb64_or_agg(p)) FROM pb_p WHERE id BETWEEN :k AND :k + 99;
