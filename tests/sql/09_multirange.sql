-- Runs and int8multirange casts, both ways, at the int8 edges.
SELECT * FROM rb_runs('{1,2,3,5,-9223372036854775808,9223372036854775807}');
SELECT rb_to_multirange('{1,2,3,7}') AS mr, rb_to_multirange('{}') AS empty,
       rb_to_multirange('{-9223372036854775808, 9223372036854775806, 9223372036854775807}') AS edges;
SELECT '{[1,4),[7,8)}'::int8multirange::roaring64 AS from_mr, '{}'::int8multirange::roaring64 AS empty,
       '{[9223372036854775805,)}'::int8multirange::roaring64 AS to_max,
       '{(,-9223372036854775806)}'::int8multirange::roaring64 AS from_min;
-- Round trips through a model: the multirange's values are exactly the set's.
SELECT bool_and(rb_to_multirange(r)::roaring64 = r) AS round_trip,
       bool_and(rb_cardinality(r) = (SELECT coalesce(sum(upper(x) - lower(x)), 0)
                                      FROM unnest(rb_to_multirange(r)) x)) AS sizes_agree
  FROM (VALUES ('{}'::roaring64), ('{0}'), (rb_from_range(-70000, 70000)),
               (rb_build(ARRAY(SELECT g * 3 FROM generate_series(-1000, 1000) g))),
               (rb_from_range(65530, 131080) | rb_from_range(200000, 200005))) t(r);
SELECT rb_to_multirange(NULL) IS NULL AS null_in;
-- A multirange too large for one value is refused with 54000, not built.
SELECT '{[0,)}'::int8multirange::roaring64;
