-- Set algebra and its operators, against a model on plain int8 arrays.
CREATE TABLE alg (id int, a int8[]);
INSERT INTO alg VALUES
  (1, '{}'), (2, '{0}'),
  (3, '{-9223372036854775808, -1, 0, 9223372036854775807}'),
  (4, ARRAY(SELECT g FROM generate_series(-70000, 70000, 7) g)),
  (5, ARRAY(SELECT g FROM generate_series(-1000, 40000) g)),
  (6, ARRAY(SELECT g * 65536 + (g % 3) FROM generate_series(-50, 50) g)),
  (7, ARRAY(SELECT g FROM generate_series(0, 131071, 2) g)),
  (8, ARRAY(SELECT g FROM generate_series(4294967290, 4294967310) g) || '{281474976710656}'::int8[]);
CREATE FUNCTION model_and(x int8[], y int8[]) RETURNS int8[] LANGUAGE sql IMMUTABLE AS
  $$ SELECT coalesce(array_agg(v ORDER BY v), '{}') FROM (SELECT unnest(x) INTERSECT SELECT unnest(y)) t(v) $$;
CREATE FUNCTION model_or(x int8[], y int8[]) RETURNS int8[] LANGUAGE sql IMMUTABLE AS
  $$ SELECT coalesce(array_agg(v ORDER BY v), '{}') FROM (SELECT unnest(x) UNION SELECT unnest(y)) t(v) $$;
CREATE FUNCTION model_andnot(x int8[], y int8[]) RETURNS int8[] LANGUAGE sql IMMUTABLE AS
  $$ SELECT coalesce(array_agg(v ORDER BY v), '{}') FROM (SELECT unnest(x) EXCEPT SELECT unnest(y)) t(v) $$;
CREATE FUNCTION model_xor(x int8[], y int8[]) RETURNS int8[] LANGUAGE sql IMMUTABLE AS
  $$ SELECT model_or(model_andnot(x, y), model_andnot(y, x)) $$;

-- Every pair of cases: each operation, its cardinality form and its operator.
SELECT bool_and(rb_to_array(rb_and(rb_build(x.a), rb_build(y.a))) = model_and(x.a, y.a)) AS and_ok,
       bool_and(rb_to_array(rb_or(rb_build(x.a), rb_build(y.a))) = model_or(x.a, y.a)) AS or_ok,
       bool_and(rb_to_array(rb_xor(rb_build(x.a), rb_build(y.a))) = model_xor(x.a, y.a)) AS xor_ok,
       bool_and(rb_to_array(rb_andnot(rb_build(x.a), rb_build(y.a))) = model_andnot(x.a, y.a)) AS andnot_ok,
       bool_and(rb_and_cardinality(rb_build(x.a), rb_build(y.a)) = cardinality(model_and(x.a, y.a))) AS and_card_ok,
       bool_and(rb_or_cardinality(rb_build(x.a), rb_build(y.a)) = cardinality(model_or(x.a, y.a))) AS or_card_ok,
       bool_and(rb_xor_cardinality(rb_build(x.a), rb_build(y.a)) = cardinality(model_xor(x.a, y.a))) AS xor_card_ok,
       bool_and(rb_andnot_cardinality(rb_build(x.a), rb_build(y.a)) = cardinality(model_andnot(x.a, y.a))) AS andnot_card_ok,
       bool_and((rb_build(x.a) & rb_build(y.a)) = rb_and(rb_build(x.a), rb_build(y.a))
            AND (rb_build(x.a) | rb_build(y.a)) = rb_or(rb_build(x.a), rb_build(y.a))
            AND (rb_build(x.a) # rb_build(y.a)) = rb_xor(rb_build(x.a), rb_build(y.a))
            AND (rb_build(x.a) - rb_build(y.a)) = rb_andnot(rb_build(x.a), rb_build(y.a))) AS operators_ok,
       bool_and((rb_build(x.a) @> rb_build(y.a)) = (model_andnot(y.a, x.a) = '{}')) AS contains_ok,
       bool_and((rb_build(x.a) <@ rb_build(y.a)) = (model_andnot(x.a, y.a) = '{}')) AS contained_ok,
       bool_and((rb_build(x.a) && rb_build(y.a)) = (model_and(x.a, y.a) <> '{}')) AS intersects_ok,
       bool_and(rb_contains(rb_build(x.a), rb_build(y.a)) = (rb_build(x.a) @> rb_build(y.a))
            AND rb_intersects(rb_build(x.a), rb_build(y.a)) = (rb_build(x.a) && rb_build(y.a))) AS functions_ok,
       bool_and((rb_build(x.a) = rb_build(y.a)) = (model_or(x.a, '{}') = model_or(y.a, '{}'))) AS eq_ok,
       bool_and((rb_build(x.a) <> rb_build(y.a)) = (model_or(x.a, '{}') <> model_or(y.a, '{}'))) AS ne_ok,
       bool_and((rb_build(x.a) < rb_build(y.a)) = (model_or(x.a, '{}') < model_or(y.a, '{}'))
            AND (rb_build(x.a) <= rb_build(y.a)) = (model_or(x.a, '{}') <= model_or(y.a, '{}'))
            AND (rb_build(x.a) > rb_build(y.a)) = (model_or(x.a, '{}') > model_or(y.a, '{}'))
            AND (rb_build(x.a) >= rb_build(y.a)) = (model_or(x.a, '{}') >= model_or(y.a, '{}'))) AS order_ok,
       bool_and(rb_jaccard(rb_build(x.a), rb_build(y.a)) IS NOT DISTINCT FROM
                CASE WHEN cardinality(model_or(x.a, y.a)) = 0 THEN NULL
                     ELSE cardinality(model_and(x.a, y.a))::float8 / cardinality(model_or(x.a, y.a)) END) AS jaccard_ok,
       count(*) AS pairs
FROM alg x, alg y;

-- Elements: | and - with int8, @> int8 and int8 <@.
SELECT '{1,2}'::roaring64 | 3::int8 AS add_right, 0::int8 | '{1,2}'::roaring64 AS add_left,
       '{1,2,3}'::roaring64 - 2::int8 AS remove, '{1,2,3}'::roaring64 @> 2::int8 AS has_2,
       5::int8 <@ '{1,2,3}'::roaring64 AS five_in, '{}'::roaring64 @> '{}'::roaring64 AS empty_contains_empty;
-- The order: ascending element sequences, a proper prefix first.
SELECT r FROM unnest(ARRAY['{2}', '{1,3}', '{}', '{1}', '{1,2,3}', '{-5}', '{1,2}',
                           '{9223372036854775807}', '{-9223372036854775808}']::roaring64[]) r ORDER BY r;
SELECT rb_jaccard('{}', '{}') IS NULL AS both_empty, rb_jaccard('{1,2}', '{2,3}') AS third;
SELECT rb_and(NULL, '{1}') IS NULL AS and_null, ('{1}'::roaring64 @> NULL::roaring64) IS NULL AS contains_null;
