-- Membership of a random value in a random row's set.
\set k random(1, :rows)
\set x random(0, 1099511627775)
SELECT a @> ARRAY[:x::int8] FROM pb_a WHERE id = :k;
