-- The same batch applied to the edge table follows(actor, target).
WITH events AS (
    SELECT DISTINCT ON (actor, target) actor, target, follow
      FROM unnest($1::int8[], $2::int8[], $3::bool[]) WITH ORDINALITY AS e(actor, target, follow, seq)
     ORDER BY actor, target, seq DESC),
gone AS (
    DELETE FROM follows f USING events e
     WHERE NOT e.follow AND f.actor = e.actor AND f.target = e.target)
INSERT INTO follows (actor, target)
SELECT actor, target FROM events WHERE follow
ON CONFLICT DO NOTHING;
