-- Many sets at once (rb_or/rb_and/rb_xor and their cardinalities over VARIADIC lists or
-- arrays), retention counts (rb_and_cardinality_each) and keyset pagination
-- (rb_first, rb_last, rb_after, rb_before, rb_iterate descending), each checked against
-- a model computed with plain int8 arrays, on sets holding the edge values.
CREATE TABLE many_sets (id int PRIMARY KEY, r roaring64);
INSERT INTO many_sets VALUES
  (1, '{0,65536,4294967296,281474976710656,-9223372036854775808,9223372036854775807}'),
  (2, rb_from_range(-100, 70000) | '{9223372036854775807}'),
  (3, rb_build(ARRAY(SELECT (hashint8(g) & 1048575)::int8 FROM generate_series(1, 5000) g)) | '{0,-1}'),
  (4, '{}'),
  (5, rb_from_range(0, 65536) | rb_from_range(4294967296, 4294967296 + 5000)),
  (6, rb_build(ARRAY(SELECT g * 3 FROM generate_series(-2000, 2000) g)));

-- The model: int8 arrays of the same sets.
CREATE TABLE many_model AS SELECT id, rb_to_array(r) AS a FROM many_sets;
CREATE FUNCTION model_or(ids int[]) RETURNS int8[] LANGUAGE sql AS
  $$ SELECT coalesce(array_agg(DISTINCT v ORDER BY v), '{}') FROM many_model, unnest(a) v WHERE id = ANY (ids) $$;
CREATE FUNCTION model_and(ids int[]) RETURNS int8[] LANGUAGE sql AS
  $$ SELECT coalesce(array_agg(v ORDER BY v), '{}') FROM (SELECT v FROM many_model, unnest(a) v
     WHERE id = ANY (ids) GROUP BY v
     HAVING count(*) = (SELECT count(DISTINCT i) FROM unnest(ids) i)) t $$;
CREATE FUNCTION model_xor(ids int[]) RETURNS int8[] LANGUAGE sql AS
  $$ SELECT coalesce(array_agg(v ORDER BY v), '{}') FROM (SELECT v FROM many_model, unnest(a) v
     WHERE id = ANY (ids) GROUP BY v HAVING count(*) % 2 = 1) t $$;

-- Every subset of two to six of the sets, as an array.
CREATE TABLE subsets AS
SELECT array_agg(id ORDER BY id) AS ids
  FROM (SELECT s, id FROM generate_series(1, 63) s, many_sets WHERE s & (1 << (id - 1)) <> 0) t
 GROUP BY s HAVING count(*) >= 2;
-- The model's answers are computed once for each (a materialized CTE, so that the
-- planner does not copy the calls into every reference).
WITH m AS MATERIALIZED (
    SELECT ids, model_or(ids) AS m_or, model_and(ids) AS m_and, model_xor(ids) AS m_xor,
           (SELECT array_agg(r ORDER BY id) FROM many_sets WHERE id = ANY (ids)) AS sets
      FROM subsets)
SELECT count(*) AS subsets,
       count(*) FILTER (WHERE rb_to_array(rb_or(VARIADIC sets)) = m_or) AS or_ok,
       count(*) FILTER (WHERE rb_to_array(rb_and(VARIADIC sets)) = m_and) AS and_ok,
       count(*) FILTER (WHERE rb_to_array(rb_xor(VARIADIC sets)) = m_xor) AS xor_ok,
       count(*) FILTER (WHERE rb_or_cardinality(VARIADIC sets) = cardinality(m_or)) AS or_card_ok,
       count(*) FILTER (WHERE rb_and_cardinality(VARIADIC sets) = cardinality(m_and)) AS and_card_ok,
       count(*) FILTER (WHERE rb_xor_cardinality(VARIADIC sets) = cardinality(m_xor)) AS xor_card_ok
  FROM m;

-- The sets written out, from a join of stored rows: the planner runs these as the
-- _args functions over VARIADIC "any" (no array built), checked against the model on
-- every triple and on all six.
WITH m AS MATERIALIZED (
    SELECT ids, model_or(ids) AS m_or, model_and(ids) AS m_and, model_xor(ids) AS m_xor
      FROM subsets WHERE cardinality(ids) = 3)
SELECT count(*) AS triples,
       count(*) FILTER (WHERE rb_to_array(rb_or(a.r, b.r, c.r)) = m_or) AS or_ok,
       count(*) FILTER (WHERE rb_to_array(rb_and(a.r, b.r, c.r)) = m_and) AS and_ok,
       count(*) FILTER (WHERE rb_to_array(rb_xor(a.r, b.r, c.r)) = m_xor) AS xor_ok,
       count(*) FILTER (WHERE rb_or_cardinality(a.r, b.r, c.r) = cardinality(m_or)) AS or_card_ok,
       count(*) FILTER (WHERE rb_and_cardinality(a.r, b.r, c.r) = cardinality(m_and)) AS and_card_ok,
       count(*) FILTER (WHERE rb_xor_cardinality(a.r, b.r, c.r) = cardinality(m_xor)) AS xor_card_ok
  FROM many_sets a JOIN many_sets b ON b.id > a.id JOIN many_sets c ON c.id > b.id
  JOIN m ON m.ids = ARRAY[a.id, b.id, c.id];
SELECT rb_to_array(rb_or(a.r, b.r, c.r, d.r, e.r, f.r)) = model_or('{1,2,3,4,5,6}') AS or6,
       rb_to_array(rb_xor(a.r, b.r, c.r, d.r, e.r, f.r)) = model_xor('{1,2,3,4,5,6}') AS xor6,
       rb_or_cardinality(a.r, b.r, c.r, d.r, e.r, f.r) = cardinality(model_or('{1,2,3,4,5,6}')) AS or_card6,
       rb_and_cardinality(a.r, b.r, c.r, e.r, f.r) = cardinality(model_and('{1,2,3,5,6}')) AS and_card5,
       rb_to_array(rb_and(a.r, b.r, c.r, e.r, f.r)) = model_and('{1,2,3,5,6}') AS and5,
       rb_or(a.r, NULL, c.r) IS NULL AS null_set
  FROM many_sets a, many_sets b, many_sets c, many_sets d, many_sets e, many_sets f
 WHERE (a.id, b.id, c.id, d.id, e.id, f.id) = (1, 2, 3, 4, 5, 6);
-- (The array that is not an ARRAY[...] comes from a join rather than a sub-select,
-- whose InitPlan PostgreSQL 17 and later print differently.)
EXPLAIN (VERBOSE, COSTS OFF)
SELECT rb_or_cardinality(a.r, b.r, '{1}'), rb_or_cardinality(VARIADIC ARRAY[a.r, b.r]),
       rb_or_cardinality(VARIADIC g.rs)
  FROM many_sets a, many_sets b, (SELECT array_agg(r) AS rs FROM many_sets) g
 WHERE a.id = 1 AND b.id = 2;
-- The _args functions check each argument's type (42804), and read text as roaring64
-- text input.
SELECT rb_or_args('{1}'::roaring64, 5);
SELECT rb_or_args(VARIADIC ARRAY[1, 2]);
SELECT rb_or_args('{1}'::roaring64, '{2}'::text, '{3}') AS with_text,
       rb_or_args('{1}'::roaring64_state, '{2}'::roaring64) AS with_state,
       rb_and_args(VARIADIC ARRAY['{1,2}', '{2,3}']::roaring64[]) AS spread_array;
SELECT rb_or_args('{1}'::roaring64, '{2,x}'::text);

-- The listed form, and the two-set functions still chosen for two arguments.
SELECT rb_or('{1}', '{2}', '{3}') AS or3, rb_and('{1,2,3}', '{2,3}', '{3,4}') AS and3,
       rb_xor('{1,2}', '{2,3}', '{3,4}') AS xor3, rb_or('{1}', '{2}') AS or2,
       rb_and_cardinality('{1,2,3}', '{2,3,4}') AS and_card2,
       rb_or_cardinality('{1}', '{2}', '{2,3}') AS or_card3;
-- One set, no sets, and a NULL set.
SELECT rb_or(VARIADIC ARRAY['{5}'::roaring64]) AS one, rb_or(VARIADIC '{}'::roaring64[]) AS or_none,
       rb_xor(VARIADIC '{}'::roaring64[]) AS xor_none, rb_and(VARIADIC '{}'::roaring64[]) IS NULL AS and_none,
       rb_and_cardinality(VARIADIC '{}'::roaring64[]) IS NULL AS and_card_none,
       rb_or_cardinality(VARIADIC '{}'::roaring64[]) AS or_card_none,
       rb_or('{1}', NULL, '{2}') IS NULL AS null_set, rb_and_cardinality('{1}', NULL, '{2}') IS NULL AS null_card;

-- Retention: the base against each set, in order, NULL for a NULL set.
SELECT b.id, rb_and_cardinality_each(b.r, (SELECT array_agg(r ORDER BY id) FROM many_sets))
     = (SELECT array_agg(cardinality(model_and(ARRAY[b.id, m.id]))::int8 ORDER BY m.id) FROM many_model m) AS each_ok
  FROM many_sets b ORDER BY b.id;
SELECT rb_and_cardinality_each('{1,2,3}', ARRAY['{1}', NULL, '{2,3,4}', '{}']::roaring64[]) AS each_with_null,
       rb_and_cardinality_each('{1}', '{}'::roaring64[]) AS each_none;

-- Keyset pagination against the model: for pivots at and around the edges, pages of
-- several sizes in both directions.
CREATE TABLE pivots AS SELECT unnest(ARRAY[-9223372036854775808, -9223372036854775807, -101, -100, -1, 0, 1,
    65535, 65536, 69999, 70000, 4294967295, 4294967296, 281474976710656, 9223372036854775806,
    9223372036854775807]::int8[]) AS x;
SELECT count(*) AS cases,
       count(*) FILTER (WHERE rb_after(r, x, n) = coalesce((SELECT array_agg(v ORDER BY v) FROM
           (SELECT v FROM unnest(a) v WHERE v > x ORDER BY v LIMIT n) t), '{}')) AS after_ok,
       count(*) FILTER (WHERE rb_before(r, x, n) = coalesce((SELECT array_agg(v ORDER BY v DESC) FROM
           (SELECT v FROM unnest(a) v WHERE v < x ORDER BY v DESC LIMIT n) t), '{}')) AS before_ok,
       count(*) FILTER (WHERE rb_first(r, n) = coalesce((SELECT array_agg(v ORDER BY v) FROM
           (SELECT v FROM unnest(a) v ORDER BY v LIMIT n) t), '{}')) AS first_ok,
       count(*) FILTER (WHERE rb_last(r, n) = coalesce((SELECT array_agg(v ORDER BY v DESC) FROM
           (SELECT v FROM unnest(a) v ORDER BY v DESC LIMIT n) t), '{}')) AS last_ok
  FROM many_sets JOIN many_model USING (id), pivots, unnest(ARRAY[0, 1, 3, 1000, 1000000]::int8[]) n;
-- Paging through a whole set, 1000 at a time, in both directions, gives the set.
WITH RECURSIVE pages(page, last) AS (
    SELECT rb_first(r, 1000), (rb_first(r, 1000))[1000] FROM many_sets WHERE id = 6
  UNION ALL
    SELECT rb_after(r, last, 1000), (rb_after(r, last, 1000))[1000] FROM pages, many_sets
     WHERE id = 6 AND last IS NOT NULL)
SELECT count(*) AS pages, (SELECT array_agg(v ORDER BY v) FROM pages, unnest(page) v)
     = (SELECT a FROM many_model WHERE id = 6) AS whole_set FROM pages;
SELECT array_agg(v) = (SELECT array_agg(v ORDER BY v DESC) FROM many_model, unnest(a) v WHERE id = 3)
       AS descending_ok,
       (SELECT array_agg(v) FROM rb_iterate('{3,-1,2}'::roaring64, false) v) AS ascending,
       (SELECT array_agg(v) FROM rb_iterate('{3,-1,2}'::roaring64, true) v) AS descending,
       (SELECT count(*) FROM rb_iterate('{}'::roaring64, true)) AS empty
  FROM many_sets, rb_iterate(r, true) v WHERE id = 3;
-- A page stops reading after n elements; n must not be negative.
SELECT rb_after(rb_from_range(0, 100000000), 5, 3) AS page, rb_last(rb_from_range(0, 100000000), 2) AS tail;
SELECT rb_after('{1,2}', 0, -1);
SELECT rb_first('{1,2}', -5);
-- Sets of more than 24 MB in all are combined a batch at a time, each batch's sets read
-- for it alone: fourteen stored sets of about 2 MB (bitmap containers), overlapping, give
-- the aggregates' answers in both shapes.
CREATE TABLE big_many AS
  SELECT k, rb_shift(e, k * 4194304 + k % 2) AS r
    FROM (SELECT rb_build(ARRAY(SELECT generate_series(0, 16777214, 2)::int8)) AS e) b,
         generate_series(0, 13) k;
WITH agg AS (SELECT rb_or_cardinality_agg(r) AS o, rb_xor_cardinality_agg(r) AS x,
                    rb_and_cardinality_agg(r) FILTER (WHERE k % 2 = 0 AND k < 4) AS a,
                    rb_or_agg(r) AS os FROM big_many),
     args AS (SELECT rb_or_cardinality(s0.r, s1.r, s2.r, s3.r, s4.r, s5.r, s6.r, s7.r, s8.r, s9.r, s10.r, s11.r, s12.r, s13.r) AS o,
                     rb_xor_cardinality(s0.r, s1.r, s2.r, s3.r, s4.r, s5.r, s6.r, s7.r, s8.r, s9.r, s10.r, s11.r, s12.r, s13.r) AS x,
                     rb_and_cardinality(s0.r, s2.r) AS a,
                     rb_or(s0.r, s1.r, s2.r, s3.r, s4.r, s5.r, s6.r, s7.r, s8.r, s9.r, s10.r, s11.r, s12.r, s13.r) AS os
                FROM big_many s0, big_many s1, big_many s2, big_many s3, big_many s4, big_many s5, big_many s6, big_many s7, big_many s8, big_many s9, big_many s10, big_many s11, big_many s12, big_many s13
               WHERE (s0.k, s1.k, s2.k, s3.k, s4.k, s5.k, s6.k, s7.k, s8.k, s9.k, s10.k, s11.k, s12.k, s13.k)
                     = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)),
     arr AS (SELECT rb_or_cardinality(VARIADIC array_agg(r)) AS o,
                    rb_xor_cardinality(VARIADIC array_agg(r)) AS x,
                    rb_or(VARIADIC array_agg(r)) AS os FROM big_many)
SELECT agg.o AS union_size, agg.x AS xor_size, agg.a AS and_size,
       args.o = agg.o AND arr.o = agg.o AS or_ok, args.x = agg.x AND arr.x = agg.x AS xor_ok,
       args.a = agg.a AS and_ok, args.os = agg.os AND arr.os = agg.os AS or_set_ok
  FROM agg, args, arr;
DROP TABLE big_many;

-- Results over 128 kB, many in one statement: a writer's buffer that large is kept
-- for the next result until the transaction ends (src/pg/results.rs), so each must
-- still equal what the aggregate, which writes its result another way, gives. Sets
-- of 50,000 to 300,000 values make results of 0.2 to 1.6 MB, in both orders of size.
CREATE TABLE big_sets AS
SELECT id, rb_build(ARRAY(SELECT hashint8(id * 1000003 + g) & 33554431
                            FROM generate_series(1, 50000 * id) g)) AS r
  FROM generate_series(1, 6) id;
CREATE FUNCTION big_check() RETURNS TABLE (triples bigint, or_ok bigint, xor_ok bigint, pair_ok bigint)
LANGUAGE sql AS $$
SELECT count(*),
       count(*) FILTER (WHERE rb_or(a.r, b.r, c.r)
                              = (SELECT rb_or_agg(r) FROM big_sets WHERE id IN (a.id, b.id, c.id))),
       count(*) FILTER (WHERE rb_xor(VARIADIC ARRAY[a.r, b.r, c.r])
                              = (SELECT rb_xor_agg(r) FROM big_sets WHERE id IN (a.id, b.id, c.id))),
       count(*) FILTER (WHERE rb_cardinality(a.r | c.r) = rb_or_cardinality(a.r, c.r))
  FROM big_sets a JOIN big_sets b ON b.id <> a.id JOIN big_sets c ON c.id <> b.id AND c.id <> a.id
 WHERE (a.id + b.id + c.id) % 7 = 0 $$;
SELECT * FROM big_check();
-- In one transaction, across a failed statement, then after it was rolled back.
BEGIN;
SELECT * FROM big_check();
SELECT rb_cardinality(rb_or(a.r, b.r)) / 0 FROM big_sets a, big_sets b WHERE a.id = 5 AND b.id = 6;
ROLLBACK;
BEGIN;
SELECT rb_cardinality(rb_or(a.r, b.r)) = rb_or_cardinality(a.r, b.r) AS same
  FROM big_sets a, big_sets b WHERE a.id = 6 AND b.id = 1;
SELECT * FROM big_check();
COMMIT;
DROP FUNCTION big_check();
DROP TABLE big_sets;
