-- Binary COPY out of and into a distributed table, a co-located join, and GROUP BY,
-- DISTINCT and ORDER BY on the roaring64 column.
\getenv files SROAR_CITUS_FILES
\set copyfile :files '/docs.bin'
COPY docs TO :'copyfile' (FORMAT binary);
CREATE TABLE docs_copy (LIKE docs_local);
SELECT create_distributed_table('docs_copy', 'id', colocate_with => 'docs');
COPY docs_copy FROM :'copyfile' (FORMAT binary);
SELECT count(*) AS differing FROM docs d FULL JOIN docs_copy c USING (id)
 WHERE d.b IS DISTINCT FROM c.b OR d.tag IS DISTINCT FROM c.tag;
-- Text COPY in and out as well (the array text).
\set textfile :files '/docs.txt'
COPY (SELECT id, tag, b FROM docs) TO :'textfile';
TRUNCATE docs_copy;
COPY docs_copy FROM :'textfile';
SELECT count(*) AS differing_text FROM docs d JOIN docs_copy c USING (id) WHERE d.b IS DISTINCT FROM c.b;

-- A co-located join on the distribution column, pushed down to the workers.
CREATE TABLE likes_local (id int8 PRIMARY KEY, likers roaring64 NOT NULL);
INSERT INTO likes_local SELECT id, rb_build(ARRAY[id, id * 2, 42]) FROM docs_local WHERE id % 3 = 0;
CREATE TABLE likes (LIKE likes_local INCLUDING ALL);
SELECT create_distributed_table('likes', 'id', colocate_with => 'docs');
INSERT INTO likes SELECT * FROM likes_local;
SELECT (SELECT sum(rb_and_cardinality(d.b, l.likers)) FROM docs d JOIN likes l USING (id))
     = (SELECT sum(rb_and_cardinality(d.b, l.likers)) FROM docs_local d JOIN likes_local l USING (id)) AS join_same,
       (SELECT sum(rb_and_cardinality(d.b, l.likers)) FROM docs d JOIN likes l USING (id)) AS join_sum,
       (SELECT rb_or_agg(d.b & l.likers) FROM docs d JOIN likes l USING (id))
     = (SELECT rb_or_agg(d.b & l.likers) FROM docs_local d JOIN likes_local l USING (id)) AS join_agg_same;

-- GROUP BY, DISTINCT and ORDER BY on the column itself (btree and hash opclasses).
SELECT (SELECT array_agg(n ORDER BY b) FROM (SELECT b, count(*) AS n FROM docs GROUP BY b) g)
     = (SELECT array_agg(n ORDER BY b) FROM (SELECT b, count(*) AS n FROM docs_local GROUP BY b) g) AS group_by_same,
       (SELECT count(DISTINCT b) FROM docs) = (SELECT count(DISTINCT b) FROM docs_local) AS distinct_same,
       (SELECT count(*) FROM (SELECT DISTINCT b FROM docs) d) AS distinct_values;
SELECT id, rb_cardinality(b) FROM docs WHERE b IS NOT NULL ORDER BY b, id LIMIT 5;
SELECT (SELECT array_agg(id) FROM (SELECT id FROM docs ORDER BY b DESC NULLS LAST, id LIMIT 50) s)
     = (SELECT array_agg(id) FROM (SELECT id FROM docs_local ORDER BY b DESC NULLS LAST, id LIMIT 50) s) AS order_by_same;

-- Text output runs where the value is printed. Selected as it is, a value is printed
-- on the coordinator, in the client's sroar.output_format; cast to text in the query,
-- it is printed on a worker, which does not see the client's SET (Citus passes only
-- its own settings on).
SET sroar.output_format = hex;
SELECT b AS printed_on_coordinator FROM docs WHERE id = 2 \gset
SELECT left(:'printed_on_coordinator', 2) = '\x' AS hex_from_coordinator;
SELECT left(b::text, 1) AS printed_on_worker FROM docs WHERE id = 2;
RESET sroar.output_format;
