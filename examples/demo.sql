-- A small demo, loaded by scripts/setup.sh into the database sroar_demo.
CREATE EXTENSION sroar_pg;
SELECT sroar_version();

-- Followers of a few accounts, as sets of user ids.
CREATE TABLE followers (account text PRIMARY KEY, ids roaring64);
INSERT INTO followers VALUES
    ('alice', '{1, 2, 3, 5, 8, 13, 21}'),
    ('bob',   rb_build(ARRAY(SELECT generate_series(1, 100000, 3)::int8))),
    ('carol', '{-5, 0, 4294967296, 9223372036854775807}');

SELECT account, rb_cardinality(ids), rb_min(ids), rb_max(ids), rb_contains(ids, 13) AS has_13
  FROM followers ORDER BY account;
