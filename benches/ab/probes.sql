-- Data for benches/ab.sh: membership probes of many values against sets stored out of
-- line (as the runner's contains_probes on census-income: 200 sets of about 11 kB).
CREATE EXTENSION IF NOT EXISTS sroar_pg;
DROP TABLE IF EXISTS ab_probe_sets, ab_probes;
CREATE TABLE ab_probe_sets AS
SELECT i AS id, rb_build(ARRAY(SELECT (hashint8(i * 100000 + j) & 1048575)::int8
                               FROM generate_series(1, 5000) j)) AS r
  FROM generate_series(1, 200) i;
CREATE TABLE ab_probes AS
SELECT (hashint8(k) & 1048575)::int8 AS v FROM generate_series(1, 1000) k;
VACUUM ANALYZE ab_probe_sets;
VACUUM ANALYZE ab_probes;
