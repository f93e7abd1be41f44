-- Data for benches/ab.sh: unions of many small sets, and GROUP BY with many groups.
-- ab_small: 20,000 sets of 150 values spread over 16 containers, tag in 0..99.
-- ab_sets: 1,000,000 sets of 3 scattered values (one value per container).
CREATE EXTENSION IF NOT EXISTS sroar_pg;
DROP TABLE IF EXISTS ab_small, ab_sets;
CREATE TABLE ab_small AS
SELECT i AS id, i % 100 AS tag,
       rb_build(ARRAY(SELECT (hashint8(i * 1000 + j) & 1048575)::int8 FROM generate_series(1, 150) j)) AS b
  FROM generate_series(1, 20000) i;
CREATE TABLE ab_sets AS
SELECT g AS id,
       rb_build(ARRAY[hashint8(g) & 1099511627775, hashint8(-g) & 1099511627775,
                      hashint8(g + 1000000) & 1099511627775]::int8[]) AS r
  FROM generate_series(1::int8, 1000000) g;
VACUUM ANALYZE ab_small;
VACUUM ANALYZE ab_sets;
