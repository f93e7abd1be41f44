-- Changing sets: rb_apply's batches and rb_chunks' rows, against plain SQL models.

-- rb_apply: removes out, then adds in; an element in both stays; NULL arrays
-- change nothing and a NULL set is empty; removing absent or adding present
-- elements gives the same set.
SELECT rb_apply(NULL, ARRAY[3, 1, 2], NULL) AS from_null,
       rb_apply('{1,2,3}', ARRAY[5, 2], ARRAY[2, 3, 99]) AS both,
       rb_apply('{1}', NULL, NULL) AS nothing,
       rb_apply('{1,2}', ARRAY[1, 2], ARRAY[7, 8]) = '{1,2}' AS no_op,
       rb_apply('{1}', ARRAY[]::int8[], ARRAY[1]) AS emptied;
SELECT rb_apply('{1}', ARRAY[NULL::int8], NULL);
-- Against a model, at the edges of containers, of 2^32 and 2^48, and of int8,
-- on sets of every container kind.
CREATE TABLE edits AS
SELECT k, rb_build(base) AS r, base, adds, removes
  FROM (VALUES
    (1, ARRAY(SELECT g FROM generate_series(0, 70000) g), ARRAY[-1, 65535, 65536, 4294967296, 9223372036854775807], ARRAY[0, 65535, 70000, 3]),
    (2, ARRAY(SELECT g * 3 FROM generate_series(0, 40000) g), ARRAY[1, 4, 281474976710656, -9223372036854775808], ARRAY(SELECT g * 6 FROM generate_series(0, 5000) g)),
    (3, ARRAY[-9223372036854775808, -1, 0, 9223372036854775807]::int8[], ARRAY[-2, 2], ARRAY[-9223372036854775808, 9223372036854775807, 5]),
    (4, ARRAY[]::int8[], ARRAY(SELECT g FROM generate_series(65530, 65545) g), ARRAY[65535]::int8[])
  ) v(k, base, adds, removes);
SELECT k,
       rb_to_array(rb_apply(r, adds, removes)) =
         ARRAY(SELECT x FROM unnest(base) x WHERE x <> ALL (removes)
               UNION SELECT unnest(adds) ORDER BY 1) AS matches_model,
       rb_apply(r, adds, removes) = rb_add(rb_remove(r, removes), adds) AS matches_two_steps
  FROM edits ORDER BY k;

-- rb_chunks: parts of x >> bits, ascending, none empty; together they are the set.
SELECT * FROM rb_chunks('{-9223372036854775808,-1,0,1,65535,65536,4294967296,9223372036854775807}', 16);
SELECT * FROM rb_chunks('{-9223372036854775808,-1,0,9223372036854775807}', 63);
SELECT count(*) AS chunks_of_empty FROM rb_chunks('{}');
SELECT * FROM rb_chunks('{1}', 15);
SELECT * FROM rb_chunks('{1}', 64);
SELECT k, bits,
       rb_or_agg(part) = r AS union_is_the_set,
       bool_and(rb_min(part) >> bits = chunk AND rb_max(part) >> bits = chunk) AS parts_hold_their_chunk,
       bool_and(NOT rb_is_empty(part)) AS none_empty,
       count(*) = count(DISTINCT chunk) AS chunks_distinct
  FROM edits, (VALUES (16), (17), (32), (48), (63)) b(bits), rb_chunks(r, bits)
 GROUP BY k, bits, r ORDER BY k, bits;

-- A chunked set answers every question as the whole one does.
CREATE TABLE whole (id int PRIMARY KEY, members roaring64);
INSERT INTO whole
SELECT k, rb_build(ARRAY(SELECT (g * (k + 7) * 7919) % 3000000 - 1000000 FROM generate_series(1, 20000) g))
  FROM generate_series(1, 3) k;
INSERT INTO whole VALUES (4, '{-9223372036854775808,-1,0,65535,65536,9223372036854775807}');
CREATE TABLE chunked (id int, chunk int8, part roaring64 NOT NULL, PRIMARY KEY (id, chunk));
INSERT INTO chunked SELECT id, c.chunk, c.part FROM whole, rb_chunks(members, 16) c;
SELECT w.id,
       (SELECT sum(rb_cardinality(part)) FROM chunked c WHERE c.id = w.id) = rb_cardinality(w.members) AS cardinality,
       (SELECT rb_or_agg(part) FROM chunked c WHERE c.id = w.id) = w.members AS members,
       (SELECT min(rb_min(part)) FROM chunked c WHERE c.id = w.id) = rb_min(w.members) AS min,
       (SELECT max(rb_max(part)) FROM chunked c WHERE c.id = w.id) = rb_max(w.members) AS max
  FROM whole w ORDER BY w.id;
-- Membership probes the one chunk of the element; intersections join chunk to chunk.
SELECT bool_and(
         EXISTS (SELECT FROM chunked c WHERE c.id = w.id AND c.chunk = x >> 16 AND c.part @> x)
         = (w.members @> x)) AS contains_agrees
  FROM whole w,
       unnest(ARRAY[-9223372036854775808, -1000000, -1, 0, 1, 65535, 65536, 1999999, 9223372036854775807]::int8[]) x;
SELECT a.id AS a, b.id AS b,
       coalesce((SELECT sum(rb_and_cardinality(x.part, y.part)) FROM chunked x JOIN chunked y USING (chunk)
                  WHERE x.id = a.id AND y.id = b.id), 0) = rb_and_cardinality(a.members, b.members) AS and_cardinality
  FROM whole a, whole b WHERE a.id < b.id ORDER BY 1, 2;

-- The write recipe: one element into its chunk's row, made when missing; the
-- whole set after a stream of changes equals the model.
CREATE TABLE events (seq int, set_id int, x int8, op text);
INSERT INTO events
SELECT g, 1 + g % 3, (g * 104729) % 500000 - 250000, CASE WHEN g % 10 = 0 THEN 'remove' ELSE 'add' END
  FROM generate_series(1, 3000) g;
INSERT INTO events VALUES (3001, 4, 9223372036854775807, 'remove'), (3002, 4, -9223372036854775807, 'add');
DO $$
DECLARE e record;
BEGIN
  FOR e IN SELECT * FROM events ORDER BY seq LOOP
    IF e.op = 'add' THEN
      INSERT INTO chunked VALUES (e.set_id, e.x >> 16, rb_build(ARRAY[e.x]))
      ON CONFLICT (id, chunk) DO UPDATE SET part = rb_add(chunked.part, e.x);
    ELSE
      UPDATE chunked SET part = rb_remove(part, e.x) WHERE id = e.set_id AND chunk = e.x >> 16;
    END IF;
  END LOOP;
END $$;
-- The model: the last event of each (set, element) decides.
WITH last AS (
  SELECT DISTINCT ON (set_id, x) set_id, x, op FROM events ORDER BY set_id, x, seq DESC
), model AS (
  SELECT w.id, ARRAY(SELECT m FROM rb_iterate(w.members) m
                      WHERE NOT EXISTS (SELECT FROM last l WHERE l.set_id = w.id AND l.x = m AND l.op = 'remove')
                     UNION SELECT l.x FROM last l WHERE l.set_id = w.id AND l.op = 'add' ORDER BY 1) AS members
    FROM whole w
)
SELECT m.id, rb_to_array((SELECT rb_or_agg(part) FROM chunked c WHERE c.id = m.id)) = m.members AS chunked_matches_model
  FROM model m ORDER BY m.id;
-- The batched recipe: one rb_apply per touched set, the last event per element.
UPDATE whole w SET members = rb_apply(w.members, b.adds, b.removes)
  FROM (SELECT set_id, array_agg(x) FILTER (WHERE op = 'add') AS adds,
               array_agg(x) FILTER (WHERE op = 'remove') AS removes
          FROM (SELECT DISTINCT ON (set_id, x) set_id, x, op FROM events ORDER BY set_id, x, seq DESC) l
         GROUP BY set_id) b
 WHERE w.id = b.set_id;
SELECT w.id, w.members = (SELECT rb_or_agg(part) FROM chunked c WHERE c.id = w.id) AS batch_equals_chunked
  FROM whole w ORDER BY w.id;
-- Empty chunks left by removes are dropped by a periodic clean-up.
DELETE FROM chunked WHERE rb_is_empty(part);
SELECT count(*) FILTER (WHERE rb_is_empty(part)) AS empty_chunks FROM chunked;
DROP TABLE edits, whole, chunked, events;
-- An edit that changes nothing returns the set as it came, so an UPDATE keeps the
-- stored value where it is: the same TOAST value (its chunk_id), no new chunks.
CREATE TABLE noop (id int PRIMARY KEY, s roaring64 NOT NULL);
INSERT INTO noop SELECT 1, rb_build(ARRAY(SELECT g * 7 FROM generate_series(0::int8, 99999) g));
CREATE FUNCTION noop_toast_ids() RETURNS oid[] LANGUAGE plpgsql AS $$
DECLARE ids oid[];
BEGIN
  EXECUTE format('SELECT array_agg(DISTINCT chunk_id ORDER BY chunk_id) FROM %s',
                 (SELECT reltoastrelid::regclass FROM pg_class WHERE relname = 'noop')) INTO ids;
  RETURN ids;
END $$;
CREATE TEMP TABLE stored_before AS SELECT noop_toast_ids() AS ids;
UPDATE noop SET s = rb_add(s, 700);
UPDATE noop SET s = rb_add(s, ARRAY[0, 7, 699993]);
UPDATE noop SET s = rb_remove(s, 701);
UPDATE noop SET s = rb_remove(s, ARRAY[1, 2, 65536 * 100, -1]);
UPDATE noop SET s = rb_apply(s, NULL, NULL);
UPDATE noop SET s = rb_apply(s, ARRAY[14], ARRAY[15]);
SELECT cardinality(ids) AS values_stored, noop_toast_ids() = ids AS no_ops_keep_the_stored_value
  FROM stored_before;
UPDATE noop SET s = rb_add(s, 701);
SELECT noop_toast_ids() <> ids AS a_real_add_stores_a_new_value FROM stored_before;
SELECT rb_cardinality(s) AS cardinality, s @> 701::int8 AS has_701, rb_contains(s, 699993) AS has_last
  FROM noop;
DROP TABLE noop, stored_before;
DROP FUNCTION noop_toast_ids();
