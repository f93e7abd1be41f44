-- A small demo, loaded by scripts/setup.sh into the database sroar_demo.
CREATE EXTENSION sroar_pg;
SELECT sroar_version();

-- Followers of a few accounts, as sets of user ids.
CREATE TABLE followers (account text PRIMARY KEY, ids roaring64);
INSERT INTO followers VALUES
    ('alice', '{1, 2, 3, 5, 8, 13, 21}'),
    ('bob',   rb_build(ARRAY(SELECT generate_series(1, 100000, 3)::int8))),
    ('carol', '{-5, 0, 4294967296, 9223372036854775807}'),
    ('dave',  rb_from_range(1, 50));
CREATE INDEX ON followers USING gin (ids);

SELECT account, rb_cardinality(ids), rb_min(ids), rb_max(ids), ids @> 13::int8 AS has_13
  FROM followers ORDER BY account;

-- Who follows both alice and dave, and how alike are their audiences?
SELECT a.ids & d.ids AS common, rb_jaccard(a.ids, d.ids) AS jaccard
  FROM followers a, followers d WHERE a.account = 'alice' AND d.account = 'dave';

-- Everyone who follows at least one account, and how many follow them all.
SELECT rb_or_cardinality_agg(ids) AS reach, rb_and_cardinality_agg(ids) AS everywhere FROM followers;

-- Accounts followed by user 7 (the GIN index answers this on a large table).
SELECT account FROM followers WHERE ids @> 7::int8 ORDER BY account;
