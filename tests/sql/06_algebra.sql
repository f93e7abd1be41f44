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

-- Every pair of cases: each operation, its cardinality form and its operator. The
-- model's answers come from one pass over each pair's elements, each element marked
-- with the sides that hold it; m_x is the first case's distinct elements in order.
CREATE TABLE alg_model AS
SELECT x.id AS x, y.id AS y,
       coalesce(array_agg(v ORDER BY v) FILTER (WHERE in_x AND in_y), '{}') AS m_and,
       coalesce(array_agg(v ORDER BY v) FILTER (WHERE in_x OR in_y), '{}') AS m_or,
       coalesce(array_agg(v ORDER BY v) FILTER (WHERE in_x <> in_y), '{}') AS m_xor,
       coalesce(array_agg(v ORDER BY v) FILTER (WHERE in_x AND NOT in_y), '{}') AS m_x_only,
       coalesce(array_agg(v ORDER BY v) FILTER (WHERE in_y AND NOT in_x), '{}') AS m_y_only,
       coalesce(array_agg(v ORDER BY v) FILTER (WHERE in_x), '{}') AS m_x
  FROM alg x CROSS JOIN alg y
  LEFT JOIN LATERAL (SELECT v, bool_or(side = 1) AS in_x, bool_or(side = 2) AS in_y
                       FROM (SELECT unnest(x.a), 1 UNION ALL SELECT unnest(y.a), 2) e(v, side)
                      GROUP BY v) t ON true
 GROUP BY x.id, y.id;
SELECT bool_and(rb_to_array(rb_and(rb_build(x.a), rb_build(y.a))) = m.m_and) AS and_ok,
       bool_and(rb_to_array(rb_or(rb_build(x.a), rb_build(y.a))) = m.m_or) AS or_ok,
       bool_and(rb_to_array(rb_xor(rb_build(x.a), rb_build(y.a))) = m.m_xor) AS xor_ok,
       bool_and(rb_to_array(rb_andnot(rb_build(x.a), rb_build(y.a))) = m.m_x_only) AS andnot_ok,
       bool_and(rb_and_cardinality(rb_build(x.a), rb_build(y.a)) = cardinality(m.m_and)) AS and_card_ok,
       bool_and(rb_or_cardinality(rb_build(x.a), rb_build(y.a)) = cardinality(m.m_or)) AS or_card_ok,
       bool_and(rb_xor_cardinality(rb_build(x.a), rb_build(y.a)) = cardinality(m.m_xor)) AS xor_card_ok,
       bool_and(rb_andnot_cardinality(rb_build(x.a), rb_build(y.a)) = cardinality(m.m_x_only)) AS andnot_card_ok,
       bool_and((rb_build(x.a) & rb_build(y.a)) = rb_and(rb_build(x.a), rb_build(y.a))
            AND (rb_build(x.a) | rb_build(y.a)) = rb_or(rb_build(x.a), rb_build(y.a))
            AND (rb_build(x.a) # rb_build(y.a)) = rb_xor(rb_build(x.a), rb_build(y.a))
            AND (rb_build(x.a) - rb_build(y.a)) = rb_andnot(rb_build(x.a), rb_build(y.a))) AS operators_ok,
       bool_and((rb_build(x.a) @> rb_build(y.a)) = (m.m_y_only = '{}')) AS contains_ok,
       bool_and((rb_build(x.a) <@ rb_build(y.a)) = (m.m_x_only = '{}')) AS contained_ok,
       bool_and((rb_build(x.a) && rb_build(y.a)) = (m.m_and <> '{}')) AS intersects_ok,
       bool_and(rb_contains(rb_build(x.a), rb_build(y.a)) = (rb_build(x.a) @> rb_build(y.a))
            AND rb_intersects(rb_build(x.a), rb_build(y.a)) = (rb_build(x.a) && rb_build(y.a))) AS functions_ok,
       bool_and((rb_build(x.a) = rb_build(y.a)) = (m.m_x = my.m_x)) AS eq_ok,
       bool_and((rb_build(x.a) <> rb_build(y.a)) = (m.m_x <> my.m_x)) AS ne_ok,
       bool_and((rb_build(x.a) < rb_build(y.a)) = (m.m_x < my.m_x)
            AND (rb_build(x.a) <= rb_build(y.a)) = (m.m_x <= my.m_x)
            AND (rb_build(x.a) > rb_build(y.a)) = (m.m_x > my.m_x)
            AND (rb_build(x.a) >= rb_build(y.a)) = (m.m_x >= my.m_x)) AS order_ok,
       bool_and(rb_jaccard(rb_build(x.a), rb_build(y.a)) IS NOT DISTINCT FROM
                CASE WHEN cardinality(m.m_or) = 0 THEN NULL
                     ELSE cardinality(m.m_and)::float8 / cardinality(m.m_or) END) AS jaccard_ok,
       count(*) AS pairs
FROM alg x JOIN alg y ON true JOIN alg_model m ON m.x = x.id AND m.y = y.id
  JOIN alg_model my ON my.x = y.id AND my.y = y.id;

-- Elements: | and - with int8, @> int8 and int8 <@.
SELECT '{1,2}'::roaring64 | 3::int8 AS add_right, 0::int8 | '{1,2}'::roaring64 AS add_left,
       '{1,2,3}'::roaring64 - 2::int8 AS remove, '{1,2,3}'::roaring64 @> 2::int8 AS has_2,
       5::int8 <@ '{1,2,3}'::roaring64 AS five_in, '{}'::roaring64 @> '{}'::roaring64 AS empty_contains_empty;
-- The order: ascending element sequences, a proper prefix first.
SELECT r FROM unnest(ARRAY['{2}', '{1,3}', '{}', '{1}', '{1,2,3}', '{-5}', '{1,2}',
                           '{9223372036854775807}', '{-9223372036854775808}']::roaring64[]) r ORDER BY r;
SELECT rb_jaccard('{}', '{}') IS NULL AS both_empty, rb_jaccard('{1,2}', '{2,3}') AS third;
SELECT rb_and(NULL, '{1}') IS NULL AS and_null, ('{1}'::roaring64 @> NULL::roaring64) IS NULL AS contains_null;
