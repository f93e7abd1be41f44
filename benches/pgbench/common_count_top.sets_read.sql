-- The two sets common_count_top.roaring64.sql reads, read whole and compared on no
-- byte (a bytea comparison detoasts both): at a fixed rate beside the question, the
-- floor of any function that answers from these stored values.
\set r random(1, :users / 100 + 1)
\set b random(1, :users / 100 + 1)
SELECT a.following::bytea > '\x' AND b.followers::bytea > '\x' FROM users a, users b WHERE a.uid = (SELECT uid FROM top_following WHERE rank = :r) AND b.uid = :b;
